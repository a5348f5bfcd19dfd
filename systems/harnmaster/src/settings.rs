//! HârnMaster's campaign-wide settings ([`HmSettings`]: body tables, TREATMENT ROLL tables,
//! the optional rules, arms), and the sequences that read them besides the characters (a
//! melee exchange, a missile attack, checked without applying). Apart from the system's
//! `decide` and `apply` so that the campaign's settings of every system
//! ([`crate::system::Settings`]) hold them without importing the system back.

use super::arms::Arms;
use super::body::{self, BodyTable};
use super::error::HmError;
use super::exchange::{self, ExchangeOutcome, MeleeExchange};
use super::healing::{self, TreatmentTable};
use super::injury::{Context, DiceSource};
use super::shot::{Shot, ShotOutcome};
use super::state::HmCharacter;
use crate::ids::InjuryId;
use leechbook_kernel::system::World;

/// The campaign's optional rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Options {
    /// Healing periods of d3+3 days instead of five.
    pub random_healing_period: bool,
    /// The Serious-injury aggravation option.
    pub aggravation: bool,
}

/// The names `OptionSet` takes.
pub const OPTION_NAMES: [&str; 2] = ["random-healing-period", "aggravation"];

/// HârnMaster's campaign-wide settings: what its setting events define, and what its
/// sequences read besides the characters.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HmSettings {
    /// Body tables defined in the campaign (the latest definition of a name wins).
    pub tables: Vec<BodyTable>,
    pub(super) human: Option<BodyTable>,
    pub(super) treatment: Option<TreatmentTable>,
    /// The campaign's optional rules.
    pub options: Options,
    /// The campaign's weapons and armour.
    pub arms: Arms,
}

static HUMAN: std::sync::LazyLock<BodyTable> = std::sync::LazyLock::new(body::human);
static TREATMENT: std::sync::LazyLock<TreatmentTable> =
    std::sync::LazyLock::new(healing::treatment_table);

impl HmSettings {
    /// The body table named `name`: the campaign's latest definition, else the built-in
    /// human table (or the campaign's override of it).
    pub fn table(&self, name: &str) -> Option<&BodyTable> {
        self.tables
            .iter()
            .rev()
            .find(|t| t.name == name)
            .or_else(|| (name == "human").then(|| self.human.as_ref().unwrap_or(&HUMAN)))
    }

    /// The TREATMENT ROLL tables in force: the campaign's, else the built-in ones.
    pub fn treatment_table(&self) -> &TreatmentTable {
        self.treatment.as_ref().unwrap_or(&TREATMENT)
    }

    /// The body table of a character's sheet.
    pub fn body_of(&self, ch: &HmCharacter) -> Result<&BodyTable, HmError> {
        self.table(&ch.sheet.body)
            .ok_or_else(|| HmError::UnknownTable(ch.sheet.body.clone()))
    }

    pub(super) fn context(&self, world: &World) -> Context {
        Context {
            at: world.now,
            round_seconds: world.round_seconds,
            random_healing_period: self.options.random_healing_period,
        }
    }

    /// Resolves a melee exchange between two characters without applying it, reading the
    /// dice from `dice` (the fold's recorded faces, or a command's roller for a preview).
    pub fn check_melee(
        &self,
        attacker: &HmCharacter,
        defender: &HmCharacter,
        (x, natural): (&MeleeExchange, Option<&exchange::Natural>),
        id: InjuryId,
        clock: crate::time::CampaignTime,
        dice: &mut dyn DiceSource,
    ) -> Result<ExchangeOutcome, HmError> {
        let sides = exchange::Sides {
            attacker,
            defender,
            attacker_body: self.body_of(attacker)?,
            defender_body: self.body_of(defender)?,
            arms: &self.arms,
            treatment: self.treatment_table(),
            now: clock,
            natural,
        };
        exchange::resolve(&sides, x, id, dice).map_err(HmError::from)
    }

    /// Which tests of an exchange about to be rolled are automatic CFs, rolling no die
    /// ([`exchange::forced_cfs`]): the attacker's and the defender's.
    pub fn melee_forced_cfs(
        &self,
        (attacker, defender): (&HmCharacter, &HmCharacter),
        attack: &exchange::StrikeDecl,
        defence: &exchange::DefenceDecl,
        clock: crate::time::CampaignTime,
    ) -> Result<(bool, bool), HmError> {
        let sides = exchange::Sides {
            attacker,
            defender,
            attacker_body: self.body_of(attacker)?,
            defender_body: self.body_of(defender)?,
            arms: &self.arms,
            treatment: self.treatment_table(),
            now: clock,
            natural: None,
        };
        Ok(exchange::forced_cfs(&sides, attack, defence))
    }

    /// Whether a shot about to be rolled is an automatic CF ([`super::shot::forced_cf`]).
    pub fn shot_forced_cf(
        &self,
        shooter: &HmCharacter,
        x: &Shot,
        clock: crate::time::CampaignTime,
    ) -> bool {
        super::shot::forced_cf(shooter, &self.arms, self.treatment_table(), clock, x)
    }

    /// Resolves a missile attack without applying it: the shooter, and the target and the
    /// character struck instead, when the shot names them.
    #[allow(clippy::too_many_arguments)]
    pub fn check_shot<'a>(
        &'a self,
        shooter: &'a HmCharacter,
        target: Option<&'a HmCharacter>,
        struck: Option<&'a HmCharacter>,
        x: &Shot,
        id: InjuryId,
        clock: crate::time::CampaignTime,
        dice: &mut dyn DiceSource,
    ) -> Result<ShotOutcome, HmError> {
        let with_body = |c: Option<&'a HmCharacter>| -> Result<_, HmError> {
            c.map(|c| Ok((c, self.body_of(c)?))).transpose()
        };
        super::shot::resolve(
            shooter,
            with_body(target)?,
            with_body(struck)?,
            &self.arms,
            self.treatment_table(),
            clock,
            x,
            id,
            dice,
        )
        .map_err(HmError::from)
    }
}
