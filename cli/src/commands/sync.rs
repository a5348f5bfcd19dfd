//! `leechbook sync export|import FILE`: the file transport, for devices that never meet online.

use crate::error::CommandError;
use crate::Ctx;
use clap::{Args, Subcommand};
use leechbook_sync::{export, import, FileTransport};
use std::path::PathBuf;

/// Sync commands.
#[derive(Subcommand, Debug)]
pub enum SyncCommand {
    /// Write everything this ledger holds to a sync file.
    Export(FileArgs),
    /// Merge a sync file into this ledger (all or nothing; events already here are skipped).
    Import(FileArgs),
}

/// A sync file.
#[derive(Args, Debug)]
pub struct FileArgs {
    /// The sync file.
    pub file: PathBuf,
}

/// "1 event", "2 new events".
fn events(n: usize, what: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{n} {what}{s}")
}

fn err(e: leechbook_sync::SyncError) -> CommandError {
    CommandError::user(e.to_string())
}

/// Runs a sync command.
pub fn cmd_sync(c: SyncCommand, ctx: &mut Ctx) -> Result<(), CommandError> {
    match c {
        SyncCommand::Export(a) => {
            let store = ctx.open()?;
            let n = export(&store, &mut FileTransport { path: &a.file }).map_err(err)?;
            ctx.say(format!(
                "exported {} to {}",
                events(n, "event"),
                a.file.display()
            ));
        }
        SyncCommand::Import(a) => {
            let mut store = ctx.open()?;
            let n = import(&mut store, &mut FileTransport { path: &a.file }).map_err(err)?;
            ctx.say(format!(
                "imported {} from {}",
                events(n, "new event"),
                a.file.display()
            ));
        }
    }
    Ok(())
}
