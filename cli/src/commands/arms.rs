//! `leechbook arms load|show`: the campaign's weapons and armour, as data.

use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::{Args, Subcommand};
use leechbook_core::harnmaster::arms::Arms;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::Event;
use std::path::PathBuf;

/// Arms commands.
#[derive(Subcommand, Debug)]
pub enum ArmsCommand {
    /// Record weapons and armour from a TOML file (fixtures/arms/starter.toml shows the form).
    Load(LoadArgs),
    /// Print the campaign's weapons and armour as tables (`--json` for the data; the starter
    /// set's TOML, fixtures/arms/starter.toml, is the form to edit and load).
    Show(ShowArgs),
}

/// `arms load`.
#[derive(Args, Debug)]
pub struct LoadArgs {
    /// The TOML file.
    #[arg(required_unless_present = "starter")]
    pub file: Option<PathBuf>,
    /// Record the starter set that ships with Leechbook (fixtures/arms/starter.toml).
    #[arg(long, conflicts_with = "file")]
    pub starter: bool,
}

/// The starter set of weapons and armour.
pub const STARTER: &str = include_str!("../../../fixtures/arms/starter.toml");

/// `arms show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs an arms command.
pub fn cmd_arms(c: ArmsCommand, ctx: &mut Ctx) -> Result<(), CommandError> {
    match c {
        ArmsCommand::Load(a) => {
            let (text, name) =
                super::file_or_shipped(a.file.as_deref(), STARTER, "the starter set")?;
            let arms: Arms = toml::from_str(&text).map_err(|e| {
                CommandError::user(format!("{name} is not an arms file: {}", e.message()))
            })?;
            arms.validate()
                .map_err(|e| CommandError::user(format!("{name}: {e}")))?;
            let (w, n) = (arms.weapons.len(), arms.armour.len());
            ctx.record_for(Some(&[]), |_, _| {
                Ok((Event::HarnMaster(HmEvent::ArmsDefined(arms)), None))
            })?;
            ctx.say(format!("recorded {w} weapons and {n} armour pieces"));
            Ok(())
        }
        ArmsCommand::Show(a) => {
            let (_, ledger) = ctx.load_head()?;
            if a.json {
                return ctx.json(&ledger.settings.hm.arms);
            }
            ctx.out
                .push_str(&leechbook_views::tables::arms(&ledger.settings.hm.arms));
            Ok(())
        }
    }
}
