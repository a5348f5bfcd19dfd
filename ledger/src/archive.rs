//! The archive: the records the fold files out of a character once no rule reads them
//! again (HârnMaster's healed injuries, for example) kept beside the log, one row each, so that a character's entry
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
//! - A character read from an entry holds no records (`archive_unread`) until [`load`]
//!   reads them; only the views that list healed injuries, and the folds whose
//!   record may be written whole or that a decree may reopen, read them.

use crate::LedgerError;
use leechbook_core::archive::Record;
use leechbook_core::fold::{CharacterState, Ledger};
use leechbook_core::ids::CharacterId;
use leechbook_store::codec::{decode_record, encode_record};
use leechbook_store::{ArchiveRow, OrderKey, ReadLog, WriteLog};
use std::collections::HashMap;
use std::ops::{Bound, RangeBounds};

/// Reads the records of the characters `ids` holds (every one when None) as they
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
        .filter(|c| c.archive_unread())
        .map(CharacterState::id)
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
        if !c.archive_unread() || !wanted.contains(&c.id()) {
            continue;
        }
        let rows = by_character.remove(&c.id()).unwrap_or_default();
        let latest = latest(c.name(), rows)?;
        c.fill_archive(latest);
    }
    Ok(())
}

/// The records filed at the moment read, decoded: for each key, the latest row.
fn latest(name: &str, rows: Vec<ArchiveRow>) -> Result<Vec<(OrderKey, Record)>, LedgerError> {
    let mut latest: HashMap<_, ArchiveRow> = HashMap::with_capacity(rows.len());
    for r in rows {
        match latest.get(&r.key) {
            Some(held) if held.since > r.since => {}
            _ => {
                latest.insert(r.key, r);
            }
        }
    }
    latest
        .into_values()
        .map(|r| {
            let record = decode_record(&r.payload)
                .map_err(|e| LedgerError::Internal(format!("{name}'s archived record: {e}")))?;
            Ok((r.since, record))
        })
        .collect()
}

/// The rows of the records `ledger`'s characters filed in `from` (an order key bound).
pub(crate) fn filed(ledger: &Ledger, from: Bound<OrderKey>) -> Vec<ArchiveRow> {
    let mut rows = Vec::new();
    for c in &ledger.characters {
        for a in c.archive_records() {
            let range = (from, Bound::Unbounded);
            if range.contains(&a.since) || a.reopened.is_some_and(|k| range.contains(&k)) {
                rows.push(ArchiveRow {
                    character: c.id(),
                    since: a.since,
                    key: a.key.0,
                    payload: encode_record(a.record),
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
    let taken: Vec<_> = state
        .characters
        .iter_mut()
        .map(CharacterState::take_archive)
        .collect();
    let same = &*state == lean;
    for (c, t) in state.characters.iter_mut().zip(taken) {
        c.put_archive(t);
    }
    same
}
