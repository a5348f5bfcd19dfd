//! The `leechbook` command: argument parsing (clap) and glue between the store, the core's fold
//! and the terminal. The one place that knows terminals and JSON output.
//!
//! [`run`] takes the arguments and returns the exit code and what to print, so tests drive the
//! whole command in-process; `main.rs` only writes the output and exits.

#![warn(missing_docs)]

pub mod audit;
pub mod commands;
pub mod dice;
pub mod error;
pub mod narrate;
pub mod views;

use clap::Parser;
use error::{CommandError, ErrorKind};
use leechbook_core::fold::{Applied, Ledger, FOLD_VERSION};
use leechbook_core::ruling::Rulings;
use leechbook_core::{Envelope, Event};
use leechbook_store::{ReadLog, Store};
use std::ffi::OsString;
use std::path::PathBuf;

/// Leechbook: a ledger of every wound in a campaign and of how it healed.
#[derive(Parser, Debug)]
#[command(name = "leechbook", version, about, long_about = None)]
pub struct Cli {
    /// The ledger file (default: $LEECHBOOK_DB, else leechbook.db in the platform's data
    /// directory).
    #[arg(
        long,
        global = true,
        env = "LEECHBOOK_DB",
        hide_env_values = true,
        value_name = "PATH"
    )]
    pub db: Option<PathBuf>,
    /// Seed for the dice Leechbook rolls, for reproducible runs (default: OS randomness).
    #[arg(long, global = true, value_name = "N")]
    pub seed: Option<u64>,
    /// The command.
    #[command(subcommand)]
    pub command: commands::Command,
}

/// How many events apart the write path keeps snapshots of the folded state.
pub const SNAPSHOT_EVERY: u64 = 1000;

/// Which snapshots to keep, of those at `positions` (in any order): every one within the
/// last 10,000 events of the latest, then the earliest in each stretch of 10,000 events over
/// the last 100,000, and the earliest in each stretch of 100,000 before that. A snapshot
/// holds the whole state, which grows with the campaign (every injury it has seen), so
/// keeping them all would grow the ledger with the square of its length; thinned, a query
/// at any moment folds at most about 100,000 events after the snapshot it starts from.
/// (Stretches, not exact multiples: a snapshot dropped by a ruling is made again a few
/// events later.)
pub fn snapshots_kept(positions: &[u64]) -> Vec<u64> {
    let mut sorted = positions.to_vec();
    sorted.sort_unstable();
    let Some(&latest) = sorted.last() else {
        return Vec::new();
    };
    let mut kept = Vec::new();
    let mut stretch = None;
    for p in sorted {
        let age = latest - p;
        let this = if age < 10 * SNAPSHOT_EVERY {
            None
        } else if age < 100 * SNAPSHOT_EVERY {
            Some((1, p / (10 * SNAPSHOT_EVERY)))
        } else {
            Some((2, p / (100 * SNAPSHOT_EVERY)))
        };
        if this.is_none() || this != stretch {
            kept.push(p);
        }
        stretch = this;
    }
    kept
}

/// Folds a log from its latest snapshot that is of this fold version and decodes, plus the
/// events after it; from scratch when there is none. The store drops a snapshot whenever a
/// ruling or a late event lands inside what it folds, so snapshot + tail is the full fold.
pub fn fold_from_snapshot(
    snapshots: Vec<leechbook_store::Snapshot>,
    tail: impl Fn(
        (u64, leechbook_core::ids::DeviceId, u64),
    ) -> Result<Vec<Envelope>, leechbook_store::StoreError>,
    all: impl Fn() -> Result<Vec<Envelope>, leechbook_store::StoreError>,
) -> Result<Ledger, CommandError> {
    for snap in snapshots {
        if snap.fold_version != FOLD_VERSION {
            continue;
        }
        if let Some(ledger) = resume(&snap.payload, tail(snap.last)?) {
            return Ok(ledger);
        }
    }
    Ok(Ledger::fold(&all()?))
}

/// The snapshot `payload` folded on with `tail`; `None` when it does not decode or the tail
/// changes the roster (the roster in force is worked out from the whole log: a device counts
/// from any event that adds it, so a roster change since the snapshot means a full fold).
fn resume(payload: &[u8], tail: Vec<Envelope>) -> Option<Ledger> {
    let mut ledger = leechbook_store::codec::decode_ledger(payload).ok()?;
    if tail
        .iter()
        .any(|e| matches!(e.event, leechbook_core::Event::Roster(_)))
    {
        return None;
    }
    let rulings = Rulings::from_log(&tail);
    for env in &tail {
        ledger.step(env, &rulings, &mut |_, _, _| {});
    }
    Some(ledger)
}

/// Folds the log up to and including the event with order key `upto` (the whole log when
/// `None`) from the latest snapshot at or before it: only that snapshot's state is read and
/// decoded, then the events after it. Falls back to a full fold.
pub fn fold_latest(
    log: &impl ReadLog,
    upto: Option<leechbook_store::OrderKey>,
) -> Result<Ledger, CommandError> {
    for head in log.snapshot_heads()? {
        if head.fold_version != FOLD_VERSION || upto.is_some_and(|u| head.last > u) {
            continue;
        }
        let Some(payload) = log.snapshot_payload(head.position)? else {
            continue;
        };
        let tail = match upto {
            Some(u) => log.events_between(Some(head.last), u)?,
            None => log.events_after(head.last)?,
        };
        if let Some(ledger) = resume(&payload, tail) {
            return Ok(ledger);
        }
    }
    Ok(Ledger::fold(&match upto {
        Some(u) => log.events_between(None, u)?,
        None => log.events()?,
    }))
}

/// What a finished command prints, and its exit code.
#[derive(Debug, Default)]
pub struct Output {
    /// Data, for standard output.
    pub stdout: String,
    /// Messages, for standard error.
    pub stderr: String,
    /// The exit code.
    pub code: i32,
}

/// Everything a command needs: the parsed global options and the output buffers.
pub struct Ctx {
    /// `--db`.
    pub db: Option<PathBuf>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// Standard output so far.
    pub out: String,
    /// Standard error so far.
    pub err: String,
}

impl Ctx {
    /// Returns the ledger path: `--db`, `$LEECHBOOK_DB`, or the platform data directory.
    pub fn db_path(&self) -> Result<PathBuf, CommandError> {
        if let Some(p) = &self.db {
            return Ok(p.clone());
        }
        let dirs = directories::ProjectDirs::from("", "", "leechbook").ok_or_else(|| {
            CommandError::user("no home directory to keep the ledger in: pass --db PATH")
        })?;
        Ok(dirs.data_dir().join("leechbook.db"))
    }

    /// Opens the existing ledger.
    pub fn open(&self) -> Result<Store, CommandError> {
        Ok(Store::open(&self.db_path()?)?)
    }

    /// Opens the ledger and folds it (from its latest usable snapshot).
    pub fn load(&self) -> Result<(Store, Ledger), CommandError> {
        let store = self.open()?;
        let ledger = fold_latest(&store, None)?;
        Ok((store, ledger))
    }

    /// Records one event under the write lock: folds the log, lets `make` build the event from
    /// that state, checks that it applies, then appends it. Nothing is written on any error.
    pub fn record(
        &mut self,
        make: impl FnOnce(
            &Ledger,
            &mut Ctx,
        )
            -> Result<(Event, Option<leechbook_core::time::CampaignTime>), CommandError>,
    ) -> Result<(Ledger, Envelope, Applied), CommandError> {
        let mut store = self.open()?;
        let mut w = store.write()?;
        let mut ledger = fold_latest(&w, None)?;
        let (event, at) = make(&ledger, self)?;
        // Every recorded face fits its die: one check for every command and amendment.
        event
            .check_faces()
            .map_err(|e| CommandError::user(e.to_string()))?;
        let at = at.unwrap_or(ledger.now);
        let env = w.prepare(event, at, chrono::Utc::now())?;
        let applied = ledger.apply(&env)?;
        if matches!(env.event, Event::Ruling(_)) {
            // A ruling re-derives the record: it must be in force, and what is shown is the
            // record it leaves.
            let mut all = w.events()?;
            all.push(env.clone());
            let derived = Ledger::fold(&all);
            if let Some(v) = derived.void.iter().find(|v| v.id == env.id) {
                return Err(CommandError::user(format!(
                    "the ruling cannot stand: {}",
                    v.reason
                )));
            }
            ledger = derived;
        }
        w.append(&env)?;
        w.commit()?;
        // Keep a snapshot every SNAPSHOT_EVERY events (a cache: failing to keep one is no
        // error, the next command folds from an older one).
        let position = store.count()?;
        let latest = store.snapshot_heads()?.first().map_or(0, |s| s.position);
        if position >= latest + SNAPSHOT_EVERY {
            let _ = store.save_snapshot(&leechbook_store::Snapshot {
                position,
                last: env.order_key(),
                fold_version: FOLD_VERSION,
                payload: leechbook_store::codec::encode_ledger(&ledger),
            });
            let _ = store.thin_snapshots(snapshots_kept);
        }
        Ok((ledger, env, applied))
    }

    /// Writes a line to standard output.
    pub fn say(&mut self, line: impl AsRef<str>) {
        self.out.push_str(line.as_ref());
        self.out.push('\n');
    }

    /// Writes a line to standard error.
    pub fn note(&mut self, line: impl AsRef<str>) {
        self.err.push_str(line.as_ref());
        self.err.push('\n');
    }

    /// Writes a value as pretty JSON to standard output.
    pub fn json(&mut self, v: &impl serde::Serialize) -> Result<(), CommandError> {
        let s = serde_json::to_string_pretty(v)?;
        self.say(s);
        Ok(())
    }
}

/// Runs the command line `args` (program name first) and returns what to print.
pub fn run<I, T>(args: I) -> Output
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let text = e.render().to_string();
            let code = e.exit_code();
            let (stdout, stderr) = if e.use_stderr() {
                (String::new(), text)
            } else {
                (text, String::new())
            };
            return Output {
                stdout,
                stderr,
                code,
            };
        }
    };
    let mut ctx = Ctx {
        db: cli.db,
        seed: cli.seed,
        out: String::new(),
        err: String::new(),
    };
    let result = commands::dispatch(cli.command, &mut ctx);
    let code = match result {
        Ok(()) => 0,
        Err(e) => {
            if e.kind == ErrorKind::Internal {
                ctx.note(format!("internal error: {e}"));
            } else {
                ctx.note(format!("error: {e}"));
            }
            e.kind.exit_code()
        }
    };
    Output {
        stdout: ctx.out,
        stderr: ctx.err,
        code,
    }
}
