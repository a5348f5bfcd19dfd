//! `leechbook log`: every event in the fold's order, narrated; void events with their reason.

use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::Args;

/// List the ledger's events.
#[derive(Args, Debug)]
pub struct LogArgs {
    /// Only events about this character (`log Osric`, or `--character Osric`).
    #[arg(value_name = "NAME", conflicts_with = "character")]
    pub name: Option<String>,
    /// Only events about this character.
    #[arg(long)]
    pub character: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Stop at a moment: an event id, a campaign time or a wall time.
    #[arg(long, value_name = "MOMENT")]
    pub until: Option<String>,
}

/// Prints the log.
pub fn cmd_log(a: LogArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let who = a.name.as_deref().or(a.character.as_deref());
    let views = leechbook_story::log::views(&ctx.replica()?, who, a.until.as_deref())?;
    if a.json {
        return ctx.json(&views);
    }
    // Devices that recorded offline at one moment may share a number: each such event is
    // named by the end of its id too, which `retract`, `amend` and `--until` take.
    let mut seen: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    for v in &views {
        *seen.entry(v.clock).or_default() += 1;
    }
    for v in views {
        let shared = seen.get(&v.clock).is_some_and(|n| *n > 1);
        let text = match &v.void {
            Some(why) if why.starts_with("retracted") => format!("STRUCK ({why}): {}", v.summary),
            Some(why) => format!("VOID ({why}): {}", v.summary),
            None => v.summary,
        };
        let mut flags = if v.flags.is_empty() {
            String::new()
        } else {
            format!(" [{}]", v.flags.join("; "))
        };
        if let Some(by) = &v.by {
            flags.push_str(&format!(" ({by})"));
        }
        let text = if shared {
            format!("[id {}] {text}", &v.id[v.id.len().saturating_sub(8)..])
        } else {
            text
        };
        ctx.say(format!("{:>5}  {:<15} {text}{flags}", v.clock, v.at));
        for c in &v.consequences {
            ctx.say(format!("{:>5}  {:<15} -> {c}", "", ""));
        }
    }
    Ok(())
}
