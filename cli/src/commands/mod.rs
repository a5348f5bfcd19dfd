//! One module per command, each with its `Args` (whose doc comments are the help text) and
//! its `cmd_*` function; [`dispatch`] is the flat switch between them.

pub mod advance;
pub mod arms;
pub mod attend;
pub mod board;
pub mod character;
pub mod demo;
pub mod device;
pub mod diff;
pub mod disputes;
pub mod docs;
pub mod due;
pub mod explain;
pub mod export;
pub mod fatigue;
pub mod history;
pub mod init;
pub mod link;
pub mod log;
pub mod melee;
pub mod moving;
pub mod option;
pub mod roll;
pub mod ruling;
pub mod shoot;
pub mod show;
pub mod standing;
pub mod staunch;
pub mod strike;
pub mod sw;
pub mod sync;
pub mod table;
pub mod treat;
pub mod verify;
pub mod wg;
pub mod whatif;
pub mod why;
pub mod wi;

use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::Subcommand;
use leechbook_core::fold::{CharacterState, Ledger};
use leechbook_core::harnmaster::state::HmCharacter;
use leechbook_core::SystemId;

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Create a new ledger for a campaign.
    Init(init::InitArgs),
    /// Add, list, show or change characters.
    #[command(subcommand)]
    Character(character::CharacterCommand),
    /// Record one strike through the Injury Sequence, and narrate it.
    Strike(strike::StrikeArgs),
    /// Record one melee exchange (Melee Sequence) flowing into the Injury Sequence.
    Melee(melee::MeleeArgs),
    /// Record one missile attack (Missile Sequence) flowing into the Injury Sequence.
    Shoot(shoot::ShootArgs),
    /// Savage Worlds: damage, Shaken, Incapacitation, Bleeding Out, healing.
    #[command(subcommand)]
    Sw(sw::SwCommand),
    /// Wrath & Glory: damage, Determination, Dying, Regroup, Respite.
    #[command(subcommand)]
    Wg(wg::WgCommand),
    /// Witch Iron: Quarrels, injuries, conditions, the end-of-round Hardship.
    #[command(subcommand)]
    Wi(wi::WiCommand),
    /// This device's identity, and the GM's roster of devices.
    #[command(subcommand)]
    Device(device::DeviceCommand),
    /// Sync with other devices: by file, or over the network through a hub.
    #[command(subcommand)]
    Sync(sync::SyncCommand),
    /// Load or show the campaign's weapons and armour.
    #[command(subcommand)]
    Arms(arms::ArmsCommand),
    /// Record a roll that is owed (see `due`): a shock reroll, stun recovery, Morale, mishap.
    Roll(roll::RollArgs),
    /// Try to stop a bleeder (Blood Stoppage Roll): staunch or cauterise.
    Staunch(staunch::StaunchArgs),
    /// Treat an injury (Treatment Roll), by the TREATMENT ROLL tables.
    Treat(treat::TreatArgs),
    /// Record a healer attending a patient's Extended Shock or infection.
    Attend(attend::AttendArgs),
    /// Record fatigue gained or recovered (Personal Fatigue, or a coma's weariness).
    Fatigue(fatigue::FatigueArgs),
    /// Record the aggravation option's Agility test for moving with a Serious injury.
    Move(moving::MoveArgs),
    /// Move the campaign clock forward, optionally rolling everything that falls due.
    Advance(advance::AdvanceArgs),
    /// Show a character's injuries, shock state, impairment and owed rolls.
    Show(show::ShowArgs),
    /// List the events of the ledger, narrated.
    Log(log::LogArgs),
    /// Tell one wound's (or every wound's) whole story in campaign time.
    History(history::HistoryArgs),
    /// Turn an optional rule on or off.
    Option(option::OptionArgs),
    /// Ruling: strike an event from the record (it stays in the log, marked).
    Retract(ruling::RetractArgs),
    /// Ruling: undo a retraction.
    Reinstate(ruling::ReinstateArgs),
    /// Ruling: retract the last thing this device recorded that still stands; again, the one
    /// before it (an undo is recorded, and undone only by name: `reinstate #N`).
    Undo(ruling::UndoArgs),
    /// Explain an abbreviation Leechbook prints (S2E, INC, CLN, CS, EML, HR ...), or list them.
    Explain(explain::ExplainArgs),
    /// Ruling: amend an event's dice or inputs; everything after it is re-derived.
    Amend(ruling::AmendArgs),
    /// Ruling: decree an injury's level or HR, or a shock state, from now on.
    Override(ruling::OverrideArgs),
    /// Ruling: drop a Morale, Fumble or Stumble roll a character owes (retract it to owe the
    /// roll again).
    Waive(ruling::WaiveArgs),
    /// What changed about a character between two moments.
    Diff(diff::DiffArgs),
    /// The record as it would be if a ruling were made (nothing is recorded).
    #[command(subcommand, name = "what-if")]
    WhatIf(whatif::WhatIf),
    /// The chain of events, rulings and rules behind an injury's state.
    Why(why::WhyArgs),
    /// Re-fold the log from scratch, check every snapshot and the file, and report.
    Verify(verify::VerifyArgs),
    /// Concurrent events of different devices that the rules will not both accept.
    Disputes(disputes::DisputesArgs),
    /// List the rolls that are owed, with when they fall due and their EML.
    Due(due::DueArgs),
    /// Show or load body location tables (creatures, or the campaign's human table).
    #[command(subcommand)]
    Table(table::TableCommand),
    /// Record a sample fight into a fresh demo ledger and show the result.
    Demo(demo::DemoArgs),
    /// The campaign at a glance, live, on a full-screen terminal: the party and the owed rolls.
    Board(board::BoardArgs),
    /// Export the campaign, or one character, as versioned JSON (or a history as --csv).
    Export(export::ExportArgs),
    /// Add characters from an export to this campaign, with their sheets.
    Import(export::ImportArgs),
    /// Print the shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(docs::CompletionsArgs),
    /// Print the manual page, or write one per command into a directory (--dir).
    Man(docs::ManArgs),
}

/// Runs one command.
pub fn dispatch(command: Command, ctx: &mut Ctx) -> Result<(), CommandError> {
    // A long campaign's ledger opened for the first time by a newer Leechbook is brought up
    // to date once (new indexes built over its events): said, with progress on a terminal,
    // rather than a silent pause.
    if let Some(path) = ctx.db_path().ok().filter(|p| p.is_file()) {
        let (pending, events) = leechbook_store::Store::migrations_pending(&path);
        if pending > 0 && events >= 50_000 {
            let progress = crate::progress::Progress::start(
                ctx,
                &format!("updating this ledger of {events} events for this Leechbook (once)"),
                None,
                false,
            );
            let opened = leechbook_store::Store::open(&path);
            drop(progress);
            if opened.is_ok() {
                ctx.note(format!(
                    "updated this ledger of {events} events for this Leechbook (once)"
                ));
            }
        }
    }
    match command {
        Command::Init(a) => init::cmd_init(a, ctx),
        Command::Character(c) => character::cmd_character(c, ctx),
        Command::Strike(a) => strike::cmd_strike(a, ctx),
        Command::Melee(a) => melee::cmd_melee(a, ctx),
        Command::Arms(c) => arms::cmd_arms(c, ctx),
        Command::Shoot(a) => shoot::cmd_shoot(a, ctx),
        Command::Sw(c) => sw::cmd_sw(c, ctx),
        Command::Wg(c) => wg::cmd_wg(c, ctx),
        Command::Wi(c) => wi::cmd_wi(c, ctx),
        Command::Sync(c) => sync::cmd_sync(c, ctx),
        Command::Device(c) => device::cmd_device(c, ctx),
        Command::Roll(a) => roll::cmd_roll(a, ctx),
        Command::Staunch(a) => staunch::cmd_staunch(a, ctx),
        Command::Treat(a) => treat::cmd_treat(a, ctx),
        Command::Attend(a) => attend::cmd_attend(a, ctx),
        Command::Fatigue(a) => fatigue::cmd_fatigue(a, ctx),
        Command::Move(a) => moving::cmd_move(a, ctx),
        Command::Advance(a) => advance::cmd_advance(a, ctx),
        Command::Show(a) => show::cmd_show(a, ctx),
        Command::Log(a) => log::cmd_log(a, ctx),
        Command::History(a) => history::cmd_history(a, ctx),
        Command::Option(a) => option::cmd_option(a, ctx),
        Command::Retract(a) => ruling::cmd_retract(a, ctx),
        Command::Undo(a) => ruling::cmd_undo(a, ctx),
        Command::Explain(a) => explain::cmd_explain(a, ctx),
        Command::Reinstate(a) => ruling::cmd_reinstate(a, ctx),
        Command::Amend(a) => ruling::cmd_amend(a, ctx),
        Command::Override(a) => ruling::cmd_override(a, ctx),
        Command::Waive(a) => ruling::cmd_waive(a, ctx),
        Command::Diff(a) => diff::cmd_diff(a, ctx),
        Command::WhatIf(w) => whatif::cmd_what_if(w, ctx),
        Command::Why(a) => why::cmd_why(a, ctx),
        Command::Verify(a) => verify::cmd_verify(a, ctx),
        Command::Disputes(a) => disputes::cmd_disputes(a, ctx),
        Command::Due(a) => due::cmd_due(a, ctx),
        Command::Table(c) => table::cmd_table(c, ctx),
        Command::Demo(a) => demo::cmd_demo(a, ctx),
        Command::Board(a) => board::cmd_board(a, ctx),
        Command::Export(a) => export::cmd_export(a, ctx),
        Command::Import(a) => export::cmd_import(a, ctx),
        Command::Completions(a) => docs::cmd_completions(a, ctx),
        Command::Man(a) => docs::cmd_man(a, ctx),
    }
}

/// Finds a character of any system by name, or says which names there are.
pub fn find_any<'a>(ledger: &'a Ledger, name: &str) -> Result<&'a CharacterState, CommandError> {
    Ok(leechbook_ledger::lookup::character(ledger, name)?)
}

/// Finds a HârnMaster character by name, or says which names there are.
pub fn find<'a>(ledger: &'a Ledger, name: &str) -> Result<&'a HmCharacter, CommandError> {
    Ok(leechbook_ledger::lookup::harnmaster(ledger, name)?)
}

/// The `--system` argument: a system Leechbook knows ([`SystemId::ALL`]), by its name.
pub(crate) fn system_arg() -> impl clap::builder::TypedValueParser<Value = SystemId> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(SystemId::ALL.map(SystemId::name))
        .try_map(|name| SystemId::from_name(&name).ok_or("not a system Leechbook knows"))
}

pub(crate) use crate::error::shell_word;

/// A TOML file's text and how to name it in a message: the file given, or what ships with
/// the binary (`arms load --starter`, `table load --destrier`).
pub(crate) fn file_or_shipped(
    file: Option<&std::path::Path>,
    shipped: &str,
    shipped_name: &str,
) -> Result<(String, String), CommandError> {
    match file {
        Some(f) => Ok((
            std::fs::read_to_string(f)
                .map_err(|e| CommandError::user(format!("cannot read {}: {e}", f.display())))?,
            f.display().to_string(),
        )),
        None => Ok((shipped.to_string(), shipped_name.to_string())),
    }
}
