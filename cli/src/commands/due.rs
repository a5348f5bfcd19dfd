//! `leechbook due [NAME]`: the rolls owed, with when they fall due and their EML.

use crate::ctx::Ctx;
use crate::error::CommandError;
use crate::views;
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
    let only = match &a.name {
        Some(n) => Some(super::find_any(&ledger, n)?),
        None => None,
    };
    let gm = leechbook_sync::crypt::is_gm_device(&ctx.open()?)?;
    let all = views::owed_list(&ledger, only, gm)
        .map_err(|e| CommandError::user(e.to_string()).from_source(e))?;
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
