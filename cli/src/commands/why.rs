//! `leechbook why NAME [INJURY|WHAT]`: the chain of events, rules and rulings that produced
//! an injury's state, from the strike to today, or a character's state in any system.

use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::Args;

/// Explain an injury.
#[derive(Args, Debug)]
pub struct WhyArgs {
    /// The character.
    pub name: String,
    /// A HârnMaster injury (its id or short id; a retracted injury's too); or what of the
    /// character's state to explain (`Bleeding Out`, `wounds`, `rib cage`); none: all of it.
    #[arg(value_name = "INJURY|WHAT")]
    pub injury: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Prints the chain.
pub fn cmd_why(a: WhyArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let why =
        leechbook_story::why::why(&ctx.replica()?, &a.name, a.injury.as_deref()).map_err(|e| {
            // An injury `why` does not find (a retracted one's id is found too): said plainly.
            match e {
                leechbook_story::StoryError::Lookup(
                    l @ leechbook_ledger::lookup::Lookup::NoInjury { .. },
                ) => CommandError::user(l.to_string()).from_source(l),
                e => e.into(),
            }
        })?;
    if a.json {
        return ctx.json(&serde_json::to_value(&why)?);
    }
    ctx.say(format!("{}:", why.heading));
    for l in why.chain.iter().chain(why.rulings.iter()) {
        let fl = if l.flags.is_empty() {
            String::new()
        } else {
            format!(" [{}]", l.flags.join("; "))
        };
        ctx.say(format!("  {:<15} {:<40} {}{fl}", l.at, l.rule, l.summary));
        for c in &l.consequences {
            ctx.say(format!("  {:<15} {:<40} -> {c}", "", ""));
        }
    }
    ctx.say(format!("  => {}", why.now));
    Ok(())
}
