//! What every command is given: the parsed global options, the output buffers, and the
//! ledger's services opened from `--db` ([`Ctx`]); what a finished command prints
//! ([`Output`]).

use crate::error::CommandError;
use leechbook_core::fold::{Applied, Ledger};
use leechbook_core::Envelope;
use leechbook_ledger::{Draft, Replica};
use leechbook_store::Store;
use leechbook_views::narrate;
use std::path::PathBuf;

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

/// The ledger used when neither `--db` nor `$LEECHBOOK_DB` names one: leechbook.db in the
/// platform's data directory (None without a home directory).
pub fn default_db_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "leechbook").map(|d| d.data_dir().join("leechbook.db"))
}

/// Everything a command needs: the parsed global options and the output buffers.
pub struct Ctx {
    /// `--db`.
    pub db: Option<PathBuf>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--ask`: dice nobody gave are asked for on standard input.
    pub ask: bool,
    /// Standard output so far.
    pub out: String,
    /// Standard error so far.
    pub err: String,
    /// Run as the program with standard error on a terminal: progress may be drawn there.
    pub terminal: bool,
    /// Run as the program: [`Ctx::flush_out`] writes what was said so far to standard
    /// output at once (a long `advance --roll` shows each roll as it commits it).
    pub live: bool,
    /// What the events recorded so far did that the table must hear (a death, a Shock
    /// State, Extended Shock ...), not yet said: said after the command's own words.
    pub told: Vec<String>,
    /// The program the command runs in: its command line's definition (for completions and
    /// the manual) and how it runs a command line (the demo's script); None for a command
    /// run on its own (the board's clock keys).
    pub program: Option<Program>,
}

/// The program a command runs in, given to it (so a command never reaches back up to the
/// binary's root).
#[derive(Clone, Copy)]
pub struct Program {
    /// The whole command line's definition.
    pub command: fn() -> clap::Command,
    /// Runs a command line (program name first) in-process.
    pub run: fn(Vec<String>) -> Output,
}

impl Ctx {
    /// A context for the ledger at `db`, with no options given (what the hub's page runs its
    /// reads under).
    pub fn for_db(db: PathBuf) -> Ctx {
        Ctx {
            db: Some(db),
            seed: None,
            ask: false,
            out: String::new(),
            err: String::new(),
            terminal: false,
            live: false,
            told: Vec::new(),
            program: None,
        }
    }

    /// Returns the ledger path: `--db`, `$LEECHBOOK_DB`, or the platform data directory.
    pub fn db_path(&self) -> Result<PathBuf, CommandError> {
        if let Some(p) = &self.db {
            return Ok(p.clone());
        }
        default_db_path().ok_or_else(|| {
            CommandError::user("no home directory to keep the ledger in: pass --db PATH")
        })
    }

    /// Opens the existing ledger.
    pub fn open(&self) -> Result<Store, CommandError> {
        Ok(Store::open(&self.db_path()?)?)
    }

    /// The ledger's replica: the services every command reads and records through.
    pub fn replica(&self) -> Result<Replica, CommandError> {
        Ok(Replica::from_store(self.open()?))
    }

    /// The replica and its state now, every character held with its archive's records.
    pub fn load(&self) -> Result<(Replica, Ledger), CommandError> {
        let replica = self.replica()?;
        let ledger = replica.state()?;
        Ok((replica, ledger))
    }

    /// The replica and its state holding every character without their archives' records
    /// (see `Replica::state_open`): for commands that read what the rules read, not the
    /// healed injuries of the campaign's history.
    pub fn load_open(&self) -> Result<(Replica, Ledger), CommandError> {
        let replica = self.replica()?;
        let ledger = replica.state_open()?;
        Ok((replica, ledger))
    }

    /// The replica and its state holding no character: the campaign, its clock, settings,
    /// roster and roll of names (a command about the campaign reads no character). It
    /// carries no list of void, retracted or amended events; when the projection is stale,
    /// it is the whole state folded from the latest checkpoint.
    pub fn load_head(&self) -> Result<(Replica, Ledger), CommandError> {
        self.load_for(&[])
    }

    /// The replica and its state holding the characters named (a command that reads only
    /// them costs what it touches, not the campaign's history).
    pub fn load_for(&self, names: &[&str]) -> Result<(Replica, Ledger), CommandError> {
        let replica = self.replica()?;
        let ledger = replica.state_for(names)?;
        Ok((replica, ledger))
    }

    /// Records one event through the ledger's write service: `make` builds the event from
    /// the state (with this context, for notes and the seed), as a `(event, at)` pair or a
    /// [`Draft`] carrying the table's dice its rules draw from; nothing is written on any
    /// error.
    pub fn record<'d, D: Into<Draft<'d>>>(
        &mut self,
        make: impl FnOnce(&Ledger, &mut Ctx) -> Result<D, CommandError>,
    ) -> Result<(Ledger, Envelope, Applied), CommandError> {
        self.record_for(None, make)
    }

    /// [`Ctx::record`] for a command about the characters it names: the state `make` sees
    /// holds those (`None`: every character).
    pub fn record_for<'d, D: Into<Draft<'d>>>(
        &mut self,
        names: Option<&[&str]>,
        make: impl FnOnce(&Ledger, &mut Ctx) -> Result<D, CommandError>,
    ) -> Result<(Ledger, Envelope, Applied), CommandError> {
        let mut replica = self.replica()?;
        let mut before = narrate::Conditions::default();
        let r = replica.record_for(names, |ledger| {
            let made: Draft<'d> = make(ledger, self)?.into();
            before = narrate::Conditions::of(ledger, made.event.characters());
            Ok::<_, CommandError>(made)
        })?;
        self.told
            .extend(before.told(&r.ledger, r.envelope.event.kind()));
        Ok((r.ledger, r.envelope, r.applied))
    }

    /// Takes what the events recorded so far did, to say it now (see [`Ctx::told`]).
    pub fn take_told(&mut self) -> Vec<String> {
        std::mem::take(&mut self.told)
    }

    /// Records several events in one transaction, all or nothing (an import): `make` gives
    /// them from the state holding the characters named (`None`: every character); each is
    /// applied to the state the ones before it left.
    pub fn record_all<'d, D: Into<Draft<'d>>>(
        &mut self,
        names: Option<&[&str]>,
        make: impl FnOnce(&Ledger, &mut Ctx) -> Result<Vec<D>, CommandError>,
    ) -> Result<(Ledger, Vec<(Envelope, Applied)>), CommandError> {
        let mut replica = self.replica()?;
        let mut before = narrate::Conditions::default();
        let (after, recorded) = replica.record_all_for(names, |ledger| {
            let made: Vec<Draft<'d>> = make(ledger, self)?.into_iter().map(Into::into).collect();
            let mut ids: Vec<_> = made.iter().flat_map(|d| d.event.characters()).collect();
            ids.sort_unstable();
            ids.dedup();
            before = narrate::Conditions::of(ledger, ids);
            Ok::<_, CommandError>(made)
        })?;
        // One kind for the batch: a strike's own words tell its Shock State.
        let kind = recorded.first().map_or("", |(e, _)| e.event.kind());
        self.told.extend(before.told(&after, kind));
        Ok((after, recorded))
    }

    /// Writes a line to standard output.
    pub fn say(&mut self, line: impl AsRef<str>) {
        self.out.push_str(line.as_ref());
        self.out.push('\n');
    }

    /// When run as the program, writes what was said so far to standard output now (the
    /// rest follows when the command ends); a closed pipe is left to the end to report.
    pub fn flush_out(&mut self) {
        use std::io::Write;
        if !self.live || self.out.is_empty() {
            return;
        }
        let mut stdout = std::io::stdout().lock();
        if stdout
            .write_all(self.out.as_bytes())
            .and_then(|_| stdout.flush())
            .is_ok()
        {
            self.out.clear();
        }
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
