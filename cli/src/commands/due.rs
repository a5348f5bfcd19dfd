//! `leechbook due [NAME]`: the rolls owed, with when they fall due and their EML.

use crate::ctx::Ctx;
use crate::error::CommandError;
use crate::views::{self, OwedView};
use clap::Args;

/// List owed rolls.
#[derive(Args, Debug)]
pub struct DueArgs {
    /// Only this character.
    pub name: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Prints the owed rolls.
pub fn cmd_due(a: DueArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let (_, ledger) = match &a.name {
        Some(n) => ctx.load_for(&[n.as_str()])?,
        None => ctx.load_open()?,
    };
    let mut all: Vec<OwedView> = Vec::new();
    match &a.name {
        Some(n) => all.extend(views::owed_any(&ledger, super::find_any(&ledger, n)?)),
        // Everyone in the story; a character set aside is asked for by name only.
        None => {
            for c in ledger
                .characters
                .iter()
                .filter(|c| ledger.standing_of(c.id()).in_story())
            {
                all.extend(views::owed_any(&ledger, c));
            }
        }
    }
    // In the order they fall due (a roll the GM calls at will counts as due now); the
    // characters' order among rolls due together.
    all.sort_by_key(|o| o.due.unwrap_or(ledger.now));
    if a.json {
        return ctx.json(&all);
    }
    ctx.say(format!("at {}:", ledger.now));
    if all.is_empty() {
        ctx.say("  nothing is owed");
    }
    for o in &all {
        ctx.say(format!("  {}: {}", o.character, views::render_owed(o)));
    }
    Ok(())
}
