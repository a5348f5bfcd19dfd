//! The fold of this campaign's events: the kernel's (`leechbook_kernel::fold`, generic over
//! the rules systems a ledger knows) over [`AllSystems`], the systems this build knows.
//! A campaign's state is `events.fold(Ledger::default(), apply)`.
//!
//! [`Ledger::apply`] is deterministic and atomic: it either applies an event whole or leaves
//! the state untouched and returns why the event is void. The store hands events over in the
//! total order `(clock, device, seq)`; the fold trusts that order. A void event stays in the
//! log and is listed in [`Ledger::void`] with its reason: nothing is dropped silently.
//!
//! What a HârnMaster command reads of the folded campaign (its tables, options, and a melee
//! exchange or missile attack resolved against the state) is [`HmLedger`].

pub use crate::applied::{Applied, CharacterState, FoldError};
use crate::harnmaster::body::BodyTable;
use crate::harnmaster::healing::TreatmentTable;
pub use crate::systems::AllSystems;
pub use leechbook_kernel::fold::{Fates, VoidEvent};

pub use crate::harnmaster::system::{Options, OPTION_NAMES};

/// The folded state of a campaign (the kernel's, over the systems this build knows).
pub type Ledger = leechbook_kernel::fold::Ledger<AllSystems>;

/// The campaign, as `CampaignCreated` declared it.
pub type Campaign = leechbook_kernel::fold::Campaign<AllSystems>;

/// What became of one event in a derivation.
pub type Fate = leechbook_kernel::fold::Fate<Applied>;

/// The version of the fold's semantics. Snapshots made by another version are dropped.
/// (5: each system's campaign-wide settings are one field of the ledger's head; 6: healed
/// injuries no rule reads again are filed in an archive kept apart from the character; 7: a
/// Wrath & Glory event lacking a recorded die is void in the kernel's words, "the event
/// needs die ...", where it borrowed HârnMaster's "the strike needs die ..."; 8: a ruling
/// the roster does not let its device make is void and acts on nothing, and a revocation may
/// name the last event number it accepts, which the roster keeps; a ruling or a roster
/// change moves no clock; 9: a melee exchange or a shot reads its characters' impairment at
/// its own campaign time, as the device that recorded it did, not at the clock of the ledger
/// that folds it: no rule reads the ledger's clock, so a character's fold depends only on
/// the events that touch it, which an audit reads alone; 10: a Wrath & Glory character
/// counts Wrath, the time its rest counts from, and replacements for Traumatic Injuries; a
/// Savage Worlds character its attribute dice and when it began Bleeding Out; 11: four
/// HârnMaster refusals name no flag (a side not given, a pick beyond the dice, a test without
/// its ML, a count roll's creature not named), so a void event's reason reads otherwise; 12:
/// only the GM's clock events move the clock, a player's event dated past it is void, and
/// so is an envelope out of bounds (`leechbook_core::OutOfBounds`); 13: a Savage Worlds
/// character keeps when its last Spirit roll to recover from Shaken was made; 14: owed rolls
/// keep their moment, aggravation rolls are owed once called; 15: the GM-only characters
/// (`Ledger::secret`), and an event joining one with a character the table sees is void.)
pub const FOLD_VERSION: u32 = 15;

/// What HârnMaster's commands read of a folded campaign.
pub trait HmLedger {
    /// Returns the body table named `name`: the campaign's latest definition, else the
    /// built-in human table.
    fn table(&self, name: &str) -> Option<&BodyTable>;
    /// Returns the TREATMENT ROLL tables in force: the campaign's, else the built-in ones.
    fn treatment_table(&self) -> &TreatmentTable;
    /// HârnMaster's optional rules in force.
    fn options(&self) -> Options;
}

impl HmLedger for Ledger {
    fn table(&self, name: &str) -> Option<&BodyTable> {
        self.settings.hm.table(name)
    }

    fn treatment_table(&self) -> &TreatmentTable {
        self.settings.hm.treatment_table()
    }

    fn options(&self) -> Options {
        self.settings.hm.options
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ledger taken apart into its head and characters, and put together again, is the
    /// same; one holding some characters still knows the whole roll.
    #[test]
    fn a_head_and_its_characters_make_the_ledger() {
        let log = crate::synthetic::campaign(3_000);
        let full = Ledger::fold(&log);
        assert!(full.complete());
        let again = Ledger::with_characters(full.head(), full.characters.clone());
        assert_eq!(again, full);
        let some: Vec<CharacterState> = full.characters.iter().rev().take(3).cloned().collect();
        let part = Ledger::with_characters(full.head(), some);
        assert!(!part.complete());
        assert_eq!(part.characters.len(), 3);
        assert_eq!(part.roll(), full.roll());
        let last = &full.characters[full.characters.len() - 1];
        assert_eq!(part.character(last.id()), Some(last));
        assert_eq!(
            part.id_named(full.characters[0].name()),
            Some(full.characters[0].id())
        );
        assert!(part.character(full.characters[0].id()).is_none());
    }
}
