//! The events: the only way state changes.
//!
//! An [`Envelope`] (the kernel's, `leechbook_kernel::envelope`, which also defines the fold's
//! total order) carries one [`Event`] with everything the ledger needs to order, attribute
//! and audit it; `Event` tells the kernel what it needs through `LedgerEvent`.
//!
//! **Frozen format:** the store encodes [`Event`] with bincode by variant position. Add
//! variants only at the end; never reorder, remove or change a shipped variant. A change of
//! shape gets a new variant (or a new schema version that the store upcasts on read).

use crate::harnmaster::HmEvent;
use crate::ids::CharacterId;
use crate::time::CampaignTime;
pub use leechbook_kernel::roster::{Role, RosterChange};
use serde::{Deserialize, Serialize};

/// The kinds of event that reach a character besides the one they are about (the store
/// indexes an event by that one only): a view of some characters reads every event of these
/// kinds to see whom it reaches. Exactly the kinds `Event::others` matches.
pub const REACHING_KINDS: [&str; 3] = ["hm.melee", "hm.shot", "wi.quarrel"];

/// The schema version of events this build writes.
pub const SCHEMA_VERSION: u16 = 1;

/// A rules system a campaign plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SystemId {
    /// HârnMaster.
    HarnMaster,
    /// Savage Worlds.
    SavageWorlds,
    /// Wrath & Glory.
    WrathGlory,
    /// Witch Iron (its Quarrel rules).
    WitchIron,
}

impl SystemId {
    /// Leechbook's readings of the system's text, where it is silent or ambiguous: each a
    /// title and its Markdown (the same text as its module's documentation).
    pub fn readings(self) -> Vec<(&'static str, &'static str)> {
        match self {
            SystemId::HarnMaster => crate::harnmaster::READINGS.to_vec(),
            SystemId::SavageWorlds => vec![("Savage Worlds", crate::savage::READINGS)],
            SystemId::WrathGlory => vec![("Wrath & Glory", crate::wrath::READINGS)],
            SystemId::WitchIron => vec![("Witch Iron", crate::witch::READINGS)],
        }
    }

    /// Returns the system's name as the CLI takes it.
    pub fn name(self) -> &'static str {
        match self {
            SystemId::HarnMaster => "harnmaster",
            SystemId::SavageWorlds => "savage-worlds",
            SystemId::WrathGlory => "wrath-glory",
            SystemId::WitchIron => "witch-iron",
        }
    }

    /// The system named `name` (as [`SystemId::name`] gives it), if Leechbook knows it.
    pub fn from_name(name: &str) -> Option<SystemId> {
        SystemId::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The systems Leechbook knows, by name: the one list the CLI's `--system` takes.
    pub const ALL: [SystemId; 4] = [
        SystemId::HarnMaster,
        SystemId::SavageWorlds,
        SystemId::WrathGlory,
        SystemId::WitchIron,
    ];
}

/// A character sheet, per system.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SheetKind {
    /// A HârnMaster sheet.
    HarnMaster(crate::harnmaster::state::Sheet),
    /// A Savage Worlds sheet.
    SavageWorlds(crate::savage::SwSheet),
    /// A Wrath & Glory sheet.
    WrathGlory(crate::wrath::WgSheet),
    /// A Witch Iron sheet.
    WitchIron(crate::witch::WiSheet),
}

impl SheetKind {
    /// The system the sheet belongs to.
    pub fn system(&self) -> SystemId {
        match self {
            SheetKind::HarnMaster(_) => SystemId::HarnMaster,
            SheetKind::SavageWorlds(_) => SystemId::SavageWorlds,
            SheetKind::WrathGlory(_) => SystemId::WrathGlory,
            SheetKind::WitchIron(_) => SystemId::WitchIron,
        }
    }
}

/// One thing that happened at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// The campaign began. The first event of every ledger; cannot be undone.
    CampaignCreated {
        /// The campaign's name.
        name: String,
        /// Its rules system.
        system: SystemId,
        /// The length of a combat round in seconds of campaign time.
        round_seconds: i64,
    },
    /// A character joined; their id is this event's id. Undone by retracting it.
    CharacterAdded {
        /// The character's name, unique in the campaign (case-insensitively).
        name: String,
        /// The sheet.
        sheet: SheetKind,
    },
    /// The campaign clock moved forward to `to`. Undone by retracting it.
    ClockAdvanced {
        /// The new campaign time.
        to: CampaignTime,
    },
    /// A HârnMaster event.
    HarnMaster(HmEvent),
    /// A GM's ruling about the record (retract, reinstate, amend, override). Undone by
    /// another ruling.
    Ruling(Ruling),
    /// A Savage Worlds event.
    SavageWorlds(crate::savage::SwEvent),
    /// A Wrath & Glory event.
    WrathGlory(crate::wrath::WgEvent),
    /// A Witch Iron event.
    WitchIron(crate::witch::WiEvent),
    /// A roster change, the GM's: a device joins or is revoked.
    Roster(RosterChange),
}

impl Event {
    /// The rules system an event belongs to, if it belongs to one.
    pub fn system(&self) -> Option<SystemId> {
        match self {
            Event::HarnMaster(_) => Some(SystemId::HarnMaster),
            Event::SavageWorlds(_) => Some(SystemId::SavageWorlds),
            Event::WrathGlory(_) => Some(SystemId::WrathGlory),
            Event::WitchIron(_) => Some(SystemId::WitchIron),
            Event::CharacterAdded { sheet, .. } => Some(sheet.system()),
            _ => None,
        }
    }
}

impl Event {
    /// Returns the kind, as stored in the log's `kind` column and shown by `log`.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::CampaignCreated { .. } => "campaign-created",
            Event::CharacterAdded { .. } => "character-added",
            Event::ClockAdvanced { .. } => "clock-advanced",
            Event::SavageWorlds(e) => e.kind(),
            Event::WrathGlory(e) => e.kind(),
            Event::WitchIron(e) => e.kind(),
            Event::Roster(RosterChange::Device { .. }) => "roster.device",
            Event::Roster(RosterChange::Revoke { .. } | RosterChange::RevokeAfter { .. }) => {
                "roster.revoke"
            }
            Event::Ruling(r) => match r {
                Ruling::Retract { .. } => "ruling.retract",
                Ruling::Reinstate { .. } => "ruling.reinstate",
                Ruling::Amend { .. } => "ruling.amend",
                Ruling::Override { .. } => "ruling.override",
            },
            Event::HarnMaster(e) => match e {
                HmEvent::BodyTableDefined(_) => "hm.body-table-defined",
                HmEvent::SheetChanged { .. } => "hm.sheet-changed",
                HmEvent::Strike(_) => "hm.strike",
                HmEvent::ShockReroll(_) => "hm.shock-reroll",
                HmEvent::StunRecovery(_) => "hm.stun-recovery",
                HmEvent::GmRoll(_) => "hm.gm-roll",
                HmEvent::SeqRoll(_) => "hm.seq-roll",
                HmEvent::BloodStoppage(_) => "hm.blood-stoppage",
                HmEvent::Treatment(_) => "hm.treatment",
                HmEvent::HealerAttends(_) => "hm.healer-attends",
                HmEvent::OptionSet { .. } => "hm.option-set",
                HmEvent::TreatmentTableDefined(_) => "hm.treatment-table-defined",
                HmEvent::ArmsDefined(_) => "hm.arms-defined",
                HmEvent::Equipped { .. } => "hm.equipped",
                HmEvent::Melee(_) => "hm.melee",
                HmEvent::Shot(_) => "hm.shot",
                HmEvent::Fatigue(_) => "hm.fatigue",
                HmEvent::MoveTest(_) => "hm.move-test",
            },
        }
    }

    /// Returns the character the event is about, if one.
    pub fn character(&self) -> Option<CharacterId> {
        match self {
            Event::Ruling(Ruling::Override { character, .. }) => Some(*character),
            Event::SavageWorlds(e) => Some(e.character()),
            Event::WrathGlory(e) => Some(e.character()),
            Event::WitchIron(e) => e.character(),
            Event::HarnMaster(e) => match e {
                HmEvent::SheetChanged { character, .. } => Some(*character),
                HmEvent::Strike(s) => Some(s.target),
                HmEvent::ShockReroll(r) | HmEvent::StunRecovery(r) => Some(r.character),
                HmEvent::GmRoll(r) => Some(r.character),
                HmEvent::SeqRoll(r) => Some(r.character),
                HmEvent::BloodStoppage(r) => Some(r.character),
                HmEvent::Treatment(r) => Some(r.character),
                HmEvent::HealerAttends(r) => Some(r.character),
                HmEvent::Fatigue(r) => Some(r.character),
                HmEvent::MoveTest(r) => Some(r.character),
                HmEvent::Equipped { character, .. } => Some(*character),
                HmEvent::Melee(x) => Some(x.attacker),
                HmEvent::Shot(x) => Some(x.shooter),
                HmEvent::BodyTableDefined(_)
                | HmEvent::OptionSet { .. }
                | HmEvent::TreatmentTableDefined(_)
                | HmEvent::ArmsDefined(_) => None,
            },
            _ => None,
        }
    }
}

impl Event {
    /// Every character the event touches: the one it is about, and the others an exchange, a
    /// shot or a Quarrel reaches (what a ledger must hold to apply it).
    pub fn characters(&self) -> Vec<CharacterId> {
        let mut out: Vec<CharacterId> = self.character().into_iter().collect();
        out.extend(self.others().into_iter().flatten());
        out.sort();
        out.dedup();
        out
    }

    /// Whether the event touches the character `id` ([`Event::characters`] without a list:
    /// a replay asks it of every event).
    pub fn touches(&self, id: CharacterId) -> bool {
        self.character() == Some(id) || self.others().contains(&Some(id))
    }

    /// The characters an exchange, a shot or a Quarrel reaches besides the one it is about
    /// (the kinds [`REACHING_KINDS`] lists: keep the two together).
    fn others(&self) -> [Option<CharacterId>; 2] {
        match self {
            Event::HarnMaster(HmEvent::Melee(x)) => [Some(x.defender), None],
            Event::HarnMaster(HmEvent::Shot(x)) => [x.target, x.struck],
            Event::WitchIron(crate::witch::WiEvent::Quarrel { attacker, .. }) => {
                [Some(*attacker), None]
            }
            _ => [None, None],
        }
    }

    /// Checks the faces the event records (an amendment: its replacement's); see
    /// [`crate::harnmaster::HmEvent::check_faces`].
    pub fn check_faces(&self) -> Result<(), crate::dice::DiceError> {
        match self {
            Event::HarnMaster(e) => e.check_faces(),
            Event::Ruling(Ruling::Amend { replacement, .. }) => replacement.check_faces(),
            _ => Ok(()),
        }
    }

    /// Returns the injury the event names, if it names one (strikes name none: the injury
    /// they inflict takes the strike's id).
    pub fn injury(&self) -> Option<crate::ids::InjuryId> {
        match self {
            Event::HarnMaster(e) => match e {
                HmEvent::SeqRoll(r) => r.injury,
                HmEvent::BloodStoppage(b) => Some(b.injury),
                HmEvent::Treatment(t) => Some(t.injury),
                HmEvent::GmRoll(g) => g.injury,
                _ => None,
            },
            Event::Ruling(Ruling::Override { decree, .. }) => match decree {
                Decree::InjuryLevel { injury, .. } | Decree::HealingRate { injury, .. } => {
                    Some(*injury)
                }
                Decree::ShockState(_) => None,
            },
            _ => None,
        }
    }
}

/// One event of this campaign's systems with its ids, clocks and signature: a row of the
/// log (the kernel's envelope, carrying an [`Event`]).
pub type Envelope = leechbook_kernel::envelope::Envelope<Event>;

impl leechbook_kernel::envelope::LedgerEvent for Event {
    type Decree = Decree;

    fn kind(&self) -> &'static str {
        Event::kind(self)
    }

    fn creates_campaign(&self) -> bool {
        matches!(self, Event::CampaignCreated { .. })
    }

    fn roster_change(&self) -> Option<&RosterChange> {
        match self {
            Event::Roster(change) => Some(change),
            _ => None,
        }
    }

    fn ruling(&self) -> Option<&Ruling> {
        match self {
            Event::Ruling(r) => Some(r),
            _ => None,
        }
    }

    fn character(&self) -> Option<CharacterId> {
        Event::character(self)
    }
}

// ---------------------------------------------------------------------------------------
// The payload of rulings: the kernel's `Ruling` over `Event` (an amendment holds an event)
// and HârnMaster's `Decree`. Roster changes are the kernel's (`leechbook_kernel::roster`),
// re-exported at the top of this module. Which rulings are in force is worked out by the
// kernel's `Rulings`, which `ruling` names for this campaign's events.

/// A GM's ruling about the record: the kernel's ruling (`leechbook_kernel::ruling`) whose
/// amendment holds an [`Event`] and whose override decrees a [`Decree`].
pub type Ruling = leechbook_kernel::ruling::Ruling<Event, Decree>;

/// An outcome the GM decrees (HârnMaster's: the only system that takes one).
pub use crate::harnmaster::system::Decree;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every system is in `SystemId::ALL` at its place, and found by its name: a fifth
    /// variant must be given a place here (the match is exhaustive) and in `ALL`.
    #[test]
    fn every_system_is_listed_once_and_found_by_its_name() {
        let place = |s: SystemId| match s {
            SystemId::HarnMaster => 0,
            SystemId::SavageWorlds => 1,
            SystemId::WrathGlory => 2,
            SystemId::WitchIron => 3,
        };
        assert_eq!(SystemId::ALL.len(), 4, "one entry per variant");
        for (i, s) in SystemId::ALL.into_iter().enumerate() {
            assert_eq!(place(s), i, "{s:?} at its place");
            assert_eq!(SystemId::from_name(s.name()), Some(s));
        }
        assert_eq!(SystemId::from_name("dnd"), None);
    }
}
