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
}

/// Prints the character.
pub fn cmd_show(a: ShowArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let (_, ledger) = ctx.load()?;
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
