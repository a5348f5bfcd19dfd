//! The archive of healed injuries: the records the fold files out of a character
//! (`HmCharacter::file_healed`) kept beside the log, one row each, so that a character's entry
//! (in the projection and in every checkpoint) holds only what the rules read and does not
//! grow with the campaign's age.
//!
//! Invariants:
//! - It is a cache, as the projection is: its rows are the records the full fold files, each
//!   keyed by its character and the order key of the event after which it was filed. A
//!   record never changes while it is filed; a GM's decree may reopen one, and a later event
//!   may file it again (a new row).
//! - The records of a character at a moment are the rows filed at or before it and not
//!   reopened by then, the latest for each injury; they also give the character's list of
//!   what is filed, which a checkpoint's entries leave out (the projection's keep it, so
//!   that a recording reads no record).
//! - The append's transaction adds the rows its events filed. A re-derived record (a ruling,
//!   or a stale projection folded again from a checkpoint) drops every row filed after the
//!   point it was folded from and files its own: rows up to a checkpoint that still stands
//!   are never touched, since every checkpoint that folds a changed event is dropped.
//! - A character read from an entry holds no records (`Archive::held` is false) until
//!   [`load`] reads them; only the views that list healed injuries, and the folds whose
//!   record may be written whole or that a decree may reopen, read them.

use crate::LedgerError;
use leechbook_core::fold::{CharacterState, Ledger};
use leechbook_core::harnmaster::state::{Archived, Filed, HmCharacter};
use leechbook_core::ids::CharacterId;
use leechbook_store::codec::{decode_injury, encode_injury};
use leechbook_store::{ArchiveRow, OrderKey, ReadLog, WriteLog};
use std::collections::HashMap;
use std::ops::{Bound, RangeBounds};

/// Reads the records of the HârnMaster characters `ids` holds (every one when None) as they
/// stood after the event with order key `upto` (now when None), and marks their archives
/// held. The characters' lists of what is filed are made from those records (a
/// checkpoint's entries leave them out: they would repeat the archive at every checkpoint).
/// A character already held is left as it is.
pub fn load(
    log: &impl ReadLog,
    ledger: &mut Ledger,
    ids: Option<&[CharacterId]>,
    upto: Option<OrderKey>,
) -> Result<(), LedgerError> {
    let wanted: Vec<CharacterId> = ledger
        .characters
        .iter()
        .filter_map(|c| match c {
            CharacterState::HarnMaster(h) if !h.archive.held => Some(h.id),
            _ => None,
        })
        .filter(|id| ids.is_none_or(|ids| ids.contains(id)))
        .collect();
    if wanted.is_empty() {
        return Ok(());
    }
    // Every character of the campaign: one read of the whole archive.
    let all = ledger.complete() && wanted.len() == ledger.characters.len();
    let rows = log.archived((!all).then_some(wanted.as_slice()), upto)?;
    let mut by_character: HashMap<CharacterId, Vec<ArchiveRow>> = HashMap::new();
    for r in rows {
        // Filed then, unless a decree had reopened it by then.
        let filed_then = match (r.reopened, upto) {
            (None, _) => true,
            (Some(k), Some(u)) => k > u,
            (Some(_), None) => false,
        };
        if filed_then {
            by_character.entry(r.character).or_default().push(r);
        }
    }
    for c in ledger.characters.iter_mut() {
        let CharacterState::HarnMaster(h) = c else {
            continue;
        };
        if h.archive.held || !wanted.contains(&h.id) {
            continue;
        }
        fill(h, by_character.remove(&h.id).unwrap_or_default())?;
    }
    Ok(())
}

/// Fills `h`'s archive and its list of what is filed from the records filed at the moment
/// read (for each injury, the latest), then those it filed since it was read.
fn fill(h: &mut HmCharacter, rows: Vec<ArchiveRow>) -> Result<(), LedgerError> {
    let since_read = std::mem::take(&mut h.archive.records);
    let mut latest: HashMap<_, ArchiveRow> = HashMap::with_capacity(rows.len());
    for r in rows {
        match latest.get(&r.injury) {
            Some(held) if held.since > r.since => {}
            _ => {
                latest.insert(r.injury, r);
            }
        }
    }
    let mut records = Vec::with_capacity(latest.len());
    for r in latest.into_values() {
        let injury = decode_injury(&r.payload)
            .map_err(|e| LedgerError::Internal(format!("{}'s archived injury: {e}", h.name)))?;
        records.push(Archived {
            since: r.since,
            injury,
            reopened: None,
        });
    }
    // The order the fold filed them in: by the event that filed them, then as they stood
    // among the character's injuries (the order inflicted).
    records.sort_by_key(|a| (a.since, a.injury.n));
    h.archived = records.iter().map(|a| Filed::of(&a.injury)).collect();
    for a in since_read {
        if a.reopened.is_none() {
            h.archived.push(Filed::of(&a.injury));
        }
        records.push(a);
    }
    h.archive.records = records;
    h.archive.held = true;
    Ok(())
}

/// The rows of the records `ledger`'s characters filed in `from` (an order key bound).
pub(crate) fn filed(ledger: &Ledger, from: Bound<OrderKey>) -> Vec<ArchiveRow> {
    let mut rows = Vec::new();
    for c in &ledger.characters {
        let CharacterState::HarnMaster(h) = c else {
            continue;
        };
        for a in &h.archive.records {
            let range = (from, Bound::Unbounded);
            if range.contains(&a.since) || a.reopened.is_some_and(|k| range.contains(&k)) {
                rows.push(ArchiveRow {
                    character: h.id,
                    since: a.since,
                    injury: a.injury.id,
                    payload: encode_injury(&a.injury),
                    reopened: a.reopened,
                });
            }
        }
    }
    rows
}

/// Files every record `ledger` holds (a full fold's: every character with its archive held)
/// in `store`'s archive in place of what it held: for a ledger whose log was written
/// without the write service (an import of a whole campaign, the benchmarks' ledgers).
pub fn save(store: &mut impl WriteLog, ledger: &Ledger) -> Result<(), LedgerError> {
    store.put_archive(&filed(ledger, Bound::Unbounded), Some(None))?;
    Ok(())
}

/// Whether `state` without its archive (its records and the list of what is filed, which
/// a checkpoint's entries leave out and make from the archive's rows when read) is `lean`,
/// a state read from such entries: the archive is taken out for the comparison and put
/// back, so a fold that keeps it is compared with a checkpoint without copying either.
pub fn same_without_records(state: &mut Ledger, lean: &Ledger) -> bool {
    type Taken = (Vec<Archived>, Vec<Filed>, bool);
    let taken: Vec<Option<Taken>> = state
        .characters
        .iter_mut()
        .map(|c| match c {
            CharacterState::HarnMaster(h) => Some((
                std::mem::take(&mut h.archive.records),
                std::mem::take(&mut h.archived),
                std::mem::replace(&mut h.archive.held, false),
            )),
            _ => None,
        })
        .collect();
    let same = &*state == lean;
    for (c, t) in state.characters.iter_mut().zip(taken) {
        if let (CharacterState::HarnMaster(h), Some((records, archived, held))) = (c, t) {
            h.archive.records = records;
            h.archived = archived;
            h.archive.held = held;
        }
    }
    same
}
