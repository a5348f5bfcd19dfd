//! Completion of what the ledger holds: character names and injury ids, for shells that ask
//! the program while completing (`source <(COMPLETE=bash leechbook)`; zsh, fish, elvish and
//! powershell too). The static scripts of `leechbook completions SHELL` complete commands
//! and flags only.
//!
//! The candidates come from the ledger the command line names (`--db PATH`, else
//! `$LEECHBOOK_DB`, else the default ledger), read and never created: a completion that
//! finds no ledger offers nothing.

use clap::CommandFactory;
use clap_complete::engine::{ArgValueCandidates, CompletionCandidate};
use leechbook_core::fold::{CharacterState, Ledger};
use std::path::PathBuf;

/// The arguments that name a character, by their id in the command definition.
const CHARACTER_ARGS: [&str; 8] = [
    "name",
    "character",
    "target",
    "attacker",
    "defender",
    "shooter",
    "struck",
    "healer",
];

/// Commands whose `name` is not a character: a campaign's, a new character's, a table's.
const NOT_A_CHARACTER: [&[&str]; 3] = [&["init"], &["character", "add"], &["table"]];

/// Handles a completion request from the shell and exits, when this run is one
/// (`COMPLETE=SHELL`); otherwise returns at once.
pub fn complete_if_asked() {
    clap_complete::CompleteEnv::with_factory(command).complete();
}

/// The command definition with the ledger's candidates on the arguments that name
/// characters and injuries.
pub fn command() -> clap::Command {
    with_candidates(crate::Cli::command(), &mut Vec::new())
}

fn with_candidates(cmd: clap::Command, path: &mut Vec<String>) -> clap::Command {
    let skip = NOT_A_CHARACTER
        .iter()
        .any(|p| path.len() >= p.len() && path[..p.len()].iter().eq(p.iter()));
    let mut cmd = cmd.mut_args(|a| {
        let id = a.get_id().as_str().to_string();
        if id == "injury" {
            a.add(ArgValueCandidates::new(injuries))
        } else if CHARACTER_ARGS.contains(&id.as_str()) && !skip {
            a.add(ArgValueCandidates::new(characters))
        } else {
            a
        }
    });
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        path.push(name.clone());
        cmd = cmd.mut_subcommand(&name, |s| with_candidates(s, path));
        path.pop();
    }
    cmd
}

/// The ledger the command line being completed names, if it exists.
fn ledger_path() -> Option<PathBuf> {
    let args: Vec<String> = std::env::args().collect();
    let mut db = None;
    for (i, a) in args.iter().enumerate() {
        if a == "--db" {
            db = args.get(i + 1).map(PathBuf::from);
        } else if let Some(p) = a.strip_prefix("--db=") {
            db = Some(PathBuf::from(p));
        }
    }
    let path = db
        .or_else(|| std::env::var_os("LEECHBOOK_DB").map(PathBuf::from))
        .or_else(crate::ctx::default_db_path)?;
    path.exists().then_some(path)
}

fn ledger() -> Option<Ledger> {
    leechbook_ledger::Replica::open(&ledger_path()?)
        .ok()?
        .state()
        .ok()
}

/// Every character's name, with its system as the help.
fn characters() -> Vec<CompletionCandidate> {
    let Some(ledger) = ledger() else {
        return Vec::new();
    };
    ledger
        .characters
        .iter()
        .map(|c| {
            let system = match c {
                CharacterState::HarnMaster(_) => "HârnMaster",
                CharacterState::SavageWorlds(_) => "Savage Worlds",
                CharacterState::WrathGlory(_) => "Wrath & Glory",
                CharacterState::WitchIron(_) => "Witch Iron",
            };
            CompletionCandidate::new(c.name()).help(Some(system.into()))
        })
        .collect()
}

/// The open HârnMaster injuries' short ids, with the wound as the help: of the character
/// named on the line being completed when there is one, else of everyone.
fn injuries() -> Vec<CompletionCandidate> {
    let Some(ledger) = ledger() else {
        return Vec::new();
    };
    let args: Vec<String> = std::env::args().collect();
    let named: Vec<&CharacterState> = ledger
        .characters
        .iter()
        .filter(|c| args.iter().any(|a| a.eq_ignore_ascii_case(c.name())))
        .collect();
    let chosen: Vec<&CharacterState> = if named.is_empty() {
        ledger.characters.iter().collect()
    } else {
        named
    };
    let mut out = Vec::new();
    for c in chosen {
        let CharacterState::HarnMaster(h) = c else {
            continue;
        };
        let view = crate::views::character(&ledger, h);
        for i in view.injuries.iter().filter(|i| !i.healed) {
            out.push(
                CompletionCandidate::new(&i.short_id)
                    .help(Some(format!("{} {} {}", h.name, i.code, i.location).into())),
            );
        }
    }
    out
}
