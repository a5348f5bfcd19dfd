//! `leechbook show NAME`: a character's injuries, shock state, impairment and owed rolls.

use super::find;
use crate::error::CommandError;
use crate::views;
use crate::Ctx;
use clap::Args;
use leechbook_core::fold::CharacterState;

/// Show a character.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The character.
    pub name: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Show the state at a moment: an event id, a campaign time ("day 3 08:00") or a wall
    /// time (RFC 3339).
    #[arg(long, value_name = "MOMENT")]
    pub at: Option<String>,
}

/// Prints the character.
pub fn cmd_show(a: ShowArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let ledger = match &a.at {
        None => ctx.load()?.1,
        Some(spec) => {
            let events = ctx.open()?.events()?;
            let m = crate::audit::moment(&events, spec)?;
            let l = crate::audit::ledger_at(&m);
            if l.character_named(&a.name).is_none()
                && ctx.load()?.1.character_named(&a.name).is_some()
            {
                return Err(CommandError::user(format!(
                    "{} had not joined the campaign by {}",
                    a.name, m.label
                )));
            }
            l
        }
    };
    let ch = find(&ledger, &a.name)?;
    let view = views::character(&ledger, &CharacterState::HarnMaster(ch.clone()));
    if a.json {
        ctx.json(&view)
    } else {
        let text = views::render_character(&view);
        ctx.out.push_str(&text);
        Ok(())
    }
}
