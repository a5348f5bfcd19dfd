//! `leechbook board`: the live full-screen view of the campaign (see `crate::board`).

use crate::error::CommandError;
use crate::Ctx;
use clap::Args;

/// `board`.
#[derive(Args, Debug)]
pub struct BoardArgs {}

/// Runs the board until `q`; it needs a terminal.
pub fn cmd_board(_a: BoardArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    if !ctx.terminal {
        return Err(CommandError::user(
            "the board needs a terminal (for a script: show, due and log --json)",
        ));
    }
    let db = ctx.db_path()?;
    crate::board::run(&db)
}
