//! The events: the only way state changes.
//!
//! An [`Envelope`] (the kernel's, `leechbook_kernel::envelope`, which also defines the fold's
//! total order) carries one [`Event`] with everything the ledger needs to order, attribute
//! and audit it; `Event` tells the kernel what it needs through `LedgerEvent`. `Event`,
//! `SystemId`, `SheetKind` and `Ruling` are written by the list of systems
//! (`crate::systems`, through [`crate::rules_systems!`]).
//!
//! **Frozen format:** the store encodes [`Event`] with bincode by variant position. Add
//! variants only at the end; never reorder, remove or change a shipped variant. A change of
//! shape gets a new variant (or a new schema version that the store upcasts on read).

use crate::harnmaster::HmEvent;
pub use crate::systems::{Event, Ruling, SheetKind, SystemId};
pub use leechbook_kernel::roster::{Role, RosterChange};

/// The schema version of events this build writes.
pub const SCHEMA_VERSION: u16 = 1;

/// The kinds of event that reach a character besides the one they are about (the store
/// indexes an event by that one only): a view of some characters reads every event of these
/// kinds to see whom it reaches. Every system's `RulesSystem::REACHING`, gathered; a test
/// holds them to the events whose `touches` names more than one character.
pub fn reaching_kinds() -> &'static [&'static str] {
    static KINDS: std::sync::LazyLock<Vec<&'static str>> =
        std::sync::LazyLock::new(|| SystemId::reaching_kinds().collect());
    &KINDS
}

impl Event {
    /// What the event stakes of a roll the rules owe once in a slot, as its system reads it
    /// (`leechbook_kernel::claim`): two events of different devices with one claim compete.
    pub fn claim(&self, at: crate::time::CampaignTime) -> Option<leechbook_kernel::claim::Claim> {
        match self {
            Event::HarnMaster(e) => e.claim(at),
            Event::SavageWorlds(e) => e.claim(at),
            _ => None,
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
            Event::Ruling(leechbook_kernel::ruling::Ruling::Override { decree, .. }) => {
                match decree {
                    Decree::InjuryLevel { injury, .. } | Decree::HealingRate { injury, .. } => {
                        Some(*injury)
                    }
                    Decree::Waive { injury, .. } => *injury,
                    Decree::ShockState(_) => None,
                }
            }
            _ => None,
        }
    }
}

/// One event of this campaign's systems with its ids, clocks and signature: a row of the
/// log (the kernel's envelope, carrying an [`Event`]).
pub type Envelope = leechbook_kernel::envelope::Envelope<Event>;

/// An outcome the GM decrees (HârnMaster's: the only system that takes one).
pub use crate::harnmaster::system::Decree;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every system is in `SystemId::ALL` at its place (the stored order), and found by
    /// its name.
    #[test]
    fn every_system_is_listed_once_and_found_by_its_name() {
        let names: Vec<&str> = SystemId::ALL.into_iter().map(SystemId::name).collect();
        assert_eq!(
            names,
            ["harnmaster", "savage-worlds", "wrath-glory", "witch-iron"]
        );
        for s in SystemId::ALL {
            assert_eq!(SystemId::from_name(s.name()), Some(s));
        }
        assert_eq!(SystemId::from_name("dnd"), None);
    }

    /// The kinds that reach a second character are the shipped three and Wrath & Glory's
    /// Medicae Regroup, a kind of its own since issue 40 (the store's partial index of them and
    /// the fixture ledgers' `reach` rows depend on them: no event recorded before has a
    /// new reaching kind).
    #[test]
    fn the_reaching_kinds_are_the_exchange_the_shot_the_quarrel_and_medicae() {
        let mut kinds = reaching_kinds().to_vec();
        kinds.sort_unstable();
        assert_eq!(kinds, ["hm.melee", "hm.shot", "wg.medicae", "wi.quarrel"]);
    }
}
