//! The archive of what the fold files out of a character once no rule reads it again, as
//! this build's list keeps it: one record per filed item, which the store keeps beside the
//! log as bytes it does not read, and the ledger reads back by character and order key.
//! The store and the ledger reach a character's archive only through the methods here, so
//! neither names a rules system.
//!
//! Only HârnMaster files anything today (its healed injuries that no rule reads again, by
//! `HmCharacter::file_healed`); a character of another system holds no archive, and every
//! method here leaves it as it is. A second system that files records would make
//! [`Record`] an enum of the two, whose encoding differs: a new codec byte for the archive's
//! rows, the older rows upcast as HârnMaster's.

use crate::fold::CharacterState;
use crate::harnmaster::state::TakenArchive;
use crate::ids::InjuryId;
use leechbook_kernel::envelope::OrderKey;
use std::borrow::Cow;

/// What one row of the archive holds: HârnMaster's healed injury, as it was filed.
pub type Record = crate::harnmaster::state::Injury;

/// One record a character holds, as the store files it.
#[derive(Debug)]
pub struct Filed<'a> {
    /// The order key of the event after which it was filed.
    pub since: OrderKey,
    /// What it is the record of (the injury).
    pub key: InjuryId,
    /// The order key of the GM's decree that reopened it, if one did.
    pub reopened: Option<OrderKey>,
    /// The record.
    pub record: &'a Record,
}

/// A character's archive taken out of it, to be put back.
#[derive(Debug, Default)]
pub struct Taken(Option<TakenArchive>);

impl CharacterState {
    /// Whether the character keeps an archive whose records are not read yet (a character
    /// read from the projection or a checkpoint).
    pub fn archive_unread(&self) -> bool {
        matches!(self, CharacterState::HarnMaster(h) if !h.archive.held)
    }

    /// Fills the archive from the records filed at the moment read (for each key its
    /// latest), then those filed since it was read, and marks them read.
    pub fn fill_archive(&mut self, latest: Vec<(OrderKey, Record)>) {
        if let CharacterState::HarnMaster(h) = self {
            h.fill_archive(latest);
        }
    }

    /// The records the character holds, in the order filed, the reopened ones with them.
    pub fn archive_records(&self) -> Vec<Filed<'_>> {
        match self {
            CharacterState::HarnMaster(h) => h
                .archive
                .records
                .iter()
                .map(|a| Filed {
                    since: a.since,
                    key: a.injury.id,
                    reopened: a.reopened,
                    record: &a.injury,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Takes the archive out (its records, its list of what is filed, whether it is read),
    /// leaving the character as a checkpoint's entry holds it.
    pub fn take_archive(&mut self) -> Taken {
        match self {
            CharacterState::HarnMaster(h) => Taken(Some(h.take_archive())),
            _ => Taken(None),
        }
    }

    /// Puts back what [`CharacterState::take_archive`] took.
    pub fn put_archive(&mut self, taken: Taken) {
        if let (CharacterState::HarnMaster(h), Taken(Some(t))) = (self, taken) {
            h.put_archive(t);
        }
    }

    /// A copy of the character without the archive's records (which only grow, and a copy
    /// of them per kept state would cost more than the fold).
    pub fn copy_without_records(&mut self) -> CharacterState {
        match self {
            CharacterState::HarnMaster(h) => {
                let records = std::mem::take(&mut h.archive.records);
                let copy = CharacterState::HarnMaster(h.clone());
                h.archive.records = records;
                copy
            }
            other => other.clone(),
        }
    }

    /// Gives this character (a copy kept before the event at `key`, without records) the
    /// records as they stood then, taken from `now`, the same character later under rulings
    /// that agree before `key`: those filed before `key`, the reopenings from it on undone.
    pub fn archive_before(&mut self, now: &mut CharacterState, key: OrderKey) {
        if let (CharacterState::HarnMaster(h), CharacterState::HarnMaster(n)) = (self, now) {
            h.archive_before(n, key);
        }
    }

    /// The character as a checkpoint's entry holds it: without the list of what is filed,
    /// which the archive's rows give back when read and which would repeat the archive at
    /// every checkpoint.
    pub fn for_checkpoint(&self) -> Cow<'_, CharacterState> {
        match self {
            CharacterState::HarnMaster(h) if !h.archived.is_empty() => {
                let mut h = h.clone();
                h.archived.clear();
                Cow::Owned(CharacterState::HarnMaster(h))
            }
            other => Cow::Borrowed(other),
        }
    }
}
