//! What the fold's steps speak in: a character of any rules system ([`CharacterState`]),
//! what applying an event did ([`Applied`], with each system's typed outcome:
//! [`SystemOutcome`]) and why an event is void ([`FoldError`], with each system's typed
//! refusal). Kept apart from the fold and from the rules systems' seam so that both import
//! them and neither imports the other back: the fold uses the seam, the seam speaks in these.

use crate::event::SheetKind;

use crate::harnmaster::error::HmError;
use crate::harnmaster::settings::HmSettings;
use crate::harnmaster::state::HmCharacter;
use crate::harnmaster::system::HmApplied;
use crate::ids::{CampaignId, CharacterId};
use crate::test_roll::TestResult;
use crate::time::CampaignTime;
pub use leechbook_kernel::system::World;
use leechbook_kernel::system::{Refusal, Settled};

/// Why an event is void.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FoldError {
    /// An event before the campaign began.
    #[error("the campaign has not been created yet")]
    NoCampaign,
    /// A second `CampaignCreated`.
    #[error("the campaign already exists")]
    CampaignExists,
    /// An event of another campaign.
    #[error("the event belongs to campaign {0}, not this one")]
    ForeignCampaign(CampaignId),
    /// A character id the ledger does not know.
    #[error("no character has id {0}")]
    UnknownCharacter(CharacterId),
    /// A character name already taken.
    #[error("there is already a character named '{0}'")]
    NameTaken(String),
    /// An empty or unusable name.
    #[error("'{0}' is not a usable character name")]
    BadName(String),
    /// A sheet or event of another system.
    #[error("the campaign plays {campaign}, not {event}")]
    WrongSystem {
        /// The campaign's system.
        campaign: &'static str,
        /// The event's.
        event: &'static str,
    },
    /// HârnMaster refused the event.
    #[error(transparent)]
    HarnMaster(#[from] HmError),
    /// The roster does not allow the event.
    #[error("{0}")]
    Setting(String),
    /// Savage Worlds refused the event.
    #[error(transparent)]
    SavageWorlds(#[from] crate::savage::SwError),
    /// Wrath & Glory refused the event.
    #[error(transparent)]
    WrathGlory(#[from] crate::wrath::WgApplyError),
    /// Witch Iron refused the event.
    #[error(transparent)]
    WitchIron(#[from] crate::witch::WiError),
    /// Dice given for an event that draws none.
    #[error(transparent)]
    Dice(leechbook_kernel::dice::DiceError),
    /// A rules system refused the event (its own words).
    #[error("{message}")]
    System {
        /// The system.
        system: &'static str,
        /// Why.
        message: String,
    },
    /// The clock would go backwards.
    #[error("the campaign clock is at {now}; it cannot go back to {to}")]
    ClockBackwards {
        /// The clock now.
        now: CampaignTime,
        /// The time asked for.
        to: CampaignTime,
    },
}

/// What applying an event did, for narration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Applied {
    /// The campaign began.
    CampaignCreated,
    /// A character joined.
    CharacterAdded(CharacterId),
    /// The clock moved.
    ClockAdvanced {
        /// From.
        from: CampaignTime,
        /// To.
        to: CampaignTime,
    },
    /// A body table was defined.
    TableDefined(String),
    /// A sheet changed.
    SheetChanged(CharacterId),
    /// A campaign option or table changed.
    Setting(String),
    /// A ruling was recorded (retractions and amendments act through the rulings in force:
    /// `Ledger::derive`).
    Ruling(String),
    /// An event of one rules system that changed a character.
    System {
        /// Whose.
        character: CharacterId,
        /// What the system's rules found.
        outcome: SystemOutcome,
    },
}

/// What a HârnMaster event did: its settings and sheets in the list's words, every other
/// outcome as HârnMaster's own.
impl From<HmApplied> for Applied {
    fn from(a: HmApplied) -> Applied {
        match a {
            HmApplied::TableDefined(name) => Applied::TableDefined(name),
            HmApplied::SheetChanged(id) => Applied::SheetChanged(id),
            HmApplied::Setting(what) => Applied::Setting(what),
            other => Applied::System {
                character: other.character().unwrap_or(CharacterId(uuid::Uuid::nil())),
                outcome: SystemOutcome::HarnMaster(other),
            },
        }
    }
}

impl Applied {
    /// What a HârnMaster event did, if this is one.
    pub fn hm(&self) -> Option<&HmApplied> {
        match self {
            Applied::System {
                outcome: SystemOutcome::HarnMaster(a),
                ..
            } => Some(a),
            _ => None,
        }
    }

    /// The same, taken.
    pub fn into_hm(self) -> Option<HmApplied> {
        match self {
            Applied::System {
                outcome: SystemOutcome::HarnMaster(a),
                ..
            } => Some(a),
            _ => None,
        }
    }

    /// The d100 tests the event made (none for an event no system's rules resolved).
    pub fn tests(&self) -> Vec<TestResult> {
        match self {
            Applied::System { outcome, .. } => outcome.tests(),
            _ => Vec::new(),
        }
    }
}

impl SystemOutcome {
    /// The d100 tests the event made.
    pub fn tests(&self) -> Vec<TestResult> {
        match self {
            SystemOutcome::HarnMaster(a) => a.tests(),
            SystemOutcome::SavageWorlds(_)
            | SystemOutcome::WrathGlory(_)
            | SystemOutcome::WitchIron(_) => Vec::new(),
        }
    }
}

/// What an event of a system that decides on copies found, for narration: each system's own
/// typed outcome (the CLI words it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SystemOutcome {
    /// HârnMaster: a strike, an exchange, a shot, a shock roll, a GM-resolved roll or a
    /// Healing Sequence roll.
    HarnMaster(HmApplied),
    /// Savage Worlds.
    SavageWorlds(crate::savage::SwOutcome),
    /// Wrath & Glory, step by step.
    WrathGlory(Vec<crate::wrath::WgStep>),
    /// Witch Iron, step by step.
    WitchIron(Vec<crate::witch::WiStep>),
}

/// A character, per system.
// A campaign holds one system's characters only, so the variants' sizes never mix in one
// Vec; boxing the larger would only add an indirection to the fold's hot path.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum CharacterState {
    /// A HârnMaster character.
    HarnMaster(HmCharacter),
    /// A Savage Worlds character.
    SavageWorlds(crate::savage::SwCharacter),
    /// A Wrath & Glory character.
    WrathGlory(crate::wrath::WgCharacter),
    /// A Witch Iron character.
    WitchIron(crate::witch::WiCharacter),
}

impl CharacterState {
    /// Returns the character's id.
    pub fn id(&self) -> CharacterId {
        match self {
            CharacterState::HarnMaster(c) => c.id,
            CharacterState::SavageWorlds(c) => c.id,
            CharacterState::WrathGlory(c) => c.id,
            CharacterState::WitchIron(c) => c.id,
        }
    }

    /// Returns the character's name.
    pub fn name(&self) -> &str {
        match self {
            CharacterState::HarnMaster(c) => &c.name,
            CharacterState::SavageWorlds(c) => &c.name,
            CharacterState::WrathGlory(c) => &c.name,
            CharacterState::WitchIron(c) => &c.name,
        }
    }

    /// The sheet the character was added with (as changed since).
    pub fn sheet(&self) -> SheetKind {
        match self {
            CharacterState::HarnMaster(c) => SheetKind::HarnMaster(c.sheet.clone()),
            CharacterState::SavageWorlds(c) => SheetKind::SavageWorlds(c.sheet.clone()),
            CharacterState::WrathGlory(c) => SheetKind::WrathGlory(c.sheet.clone()),
            CharacterState::WitchIron(c) => SheetKind::WitchIron(c.sheet.clone()),
        }
    }

    /// Returns the HârnMaster character, if this is one.
    pub fn hm(&self) -> Option<&HmCharacter> {
        match self {
            CharacterState::HarnMaster(c) => Some(c),
            _ => None,
        }
    }

    /// Returns true if the character is dead.
    pub fn dead(&self) -> bool {
        match self {
            CharacterState::HarnMaster(c) => c.dead(),
            CharacterState::SavageWorlds(c) => c.death.is_some(),
            CharacterState::WrathGlory(c) => c.death.is_some(),
            CharacterState::WitchIron(c) => c.death.is_some(),
        }
    }
}

impl leechbook_kernel::system::Character for CharacterState {
    fn id(&self) -> CharacterId {
        CharacterState::id(self)
    }

    fn name(&self) -> &str {
        CharacterState::name(self)
    }
}

/// The kernel's refusals, in the words the fold has always given them.
impl From<Refusal> for FoldError {
    fn from(r: Refusal) -> FoldError {
        match r {
            Refusal::NoCampaign => FoldError::NoCampaign,
            Refusal::CampaignExists => FoldError::CampaignExists,
            Refusal::ForeignCampaign(c) => FoldError::ForeignCampaign(c),
            Refusal::UnknownCharacter(c) => FoldError::UnknownCharacter(c),
            Refusal::NameTaken(n) => FoldError::NameTaken(n),
            Refusal::BadName(n) => FoldError::BadName(n),
            Refusal::WrongSystem { campaign, event } => FoldError::WrongSystem { campaign, event },
            Refusal::Roster(why) => FoldError::Setting(why),
            Refusal::ClockBackwards { now, to } => FoldError::ClockBackwards { now, to },
            Refusal::System { system, message } => FoldError::System { system, message },
            Refusal::Dice(e) => FoldError::Dice(e),
        }
    }
}

/// What the kernel's own events did.
impl From<Settled> for Applied {
    fn from(s: Settled) -> Applied {
        match s {
            Settled::CampaignCreated => Applied::CampaignCreated,
            Settled::CharacterAdded(id) => Applied::CharacterAdded(id),
            Settled::ClockAdvanced { from, to } => Applied::ClockAdvanced { from, to },
            Settled::Setting(what) => Applied::Setting(what),
            Settled::Ruling(what) => Applied::Ruling(what),
        }
    }
}

/// Every system's campaign-wide settings: what its setting events define (tables, options,
/// arms). A campaign plays one system, so only its own ever changes.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// HârnMaster's body and treatment tables, options and arms.
    pub hm: HmSettings,
    /// Witch Iron's Arms & Legs tables the GM supplied.
    pub wi: crate::witch::WiSettings,
}
