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
    // On a device that is not a GM's, a GM-only character's record stops at its hide: what
    // it owed then is the GM's to follow, never listed as owed now.
    let gm = leechbook_sync::crypt::is_gm_device(&ctx.open()?)?;
    let shown = |c: &leechbook_core::fold::CharacterState| gm || !ledger.is_secret(c.id());
    let mut all: Vec<OwedView> = Vec::new();
    match &a.name {
        Some(n) => {
            let c = super::find_any(&ledger, n)?;
            if !shown(c) {
                return Err(CommandError::user(format!(
                    "{} is GM-only: this device's record of them stops where the GM hid them, and what they owe is the GM's to follow",
                    c.name()
                )));
            }
            all.extend(views::owed_any(&ledger, c));
        }
        // Everyone in the story; a character set aside is asked for by name only.
        None => {
            for c in ledger
                .characters
                .iter()
                .filter(|c| ledger.standing_of(c.id()).in_story() && shown(c))
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
