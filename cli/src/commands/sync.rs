//! `leechbook sync export|import FILE`: the file transport, for devices that never meet online.

use crate::error::CommandError;
use crate::Ctx;
use clap::{Args, Subcommand};
use leechbook_sync::{export, import, FileTransport};
use std::path::PathBuf;

/// Sync commands.
#[derive(Subcommand, Debug)]
pub enum SyncCommand {
    /// Write a sync file: everything, or (with --to) what that device lacks.
    Export(ExportArgs),
    /// Merge a sync file into this ledger (all or nothing; events already here are skipped).
    Import(FileArgs),
}

/// `sync export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The sync file.
    pub file: PathBuf,
    /// The device the file is for (its id from `device show`): only the changes since the
    /// last export to it are written. Without it, everything.
    #[arg(long, value_name = "DEVICE")]
    pub to: Option<String>,
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
            let to = a.to.as_deref().map(super::device::device_id).transpose()?;
            let mut store = ctx.open()?;
            let x = export(&mut store, &mut FileTransport { path: &a.file }, to).map_err(err)?;
            let what = if x.incremental {
                format!(
                    "the changes device {} lacks",
                    to.map(|d| d.short()).unwrap_or_default()
                )
            } else {
                format!("all {}", events(x.events, "event"))
            };
            ctx.say(format!(
                "exported {what} to {} ({} bytes)",
                a.file.display(),
                x.bytes
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
