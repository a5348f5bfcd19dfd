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

fn err(e: leechbook_sync::SyncError) -> CommandError {
    CommandError::user(e.to_string())
}

/// Runs a sync command.
pub fn cmd_sync(c: SyncCommand, ctx: &mut Ctx) -> Result<(), CommandError> {
    match c {
        SyncCommand::Export(a) => {
            let store = ctx.open()?;
            let n = export(&store, &mut FileTransport { path: &a.file }).map_err(err)?;
            ctx.say(format!("exported {n} events to {}", a.file.display()));
        }
        SyncCommand::Import(a) => {
            let mut store = ctx.open()?;
            let n = import(&mut store, &mut FileTransport { path: &a.file }).map_err(err)?;
            ctx.say(format!("imported {n} new events from {}", a.file.display()));
        }
    }
    Ok(())
}
