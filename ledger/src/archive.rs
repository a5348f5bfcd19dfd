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
//! - The records of a character at a moment are, for each injury its entry lists as filed,
//!   the row of that injury filed latest at or before the moment.
//! - The append's transaction adds the rows its events filed. A re-derived record (a ruling,
//!   or a stale projection folded again from a checkpoint) drops every row filed after the
//!   point it was folded from and files its own: rows up to a checkpoint that still stands
//!   are never touched, since every checkpoint that folds a changed event is dropped.
//! - A character read from an entry holds no records (`Archive::held` is false) until
//!   [`load`] reads them; only the views that list healed injuries, and the folds whose
//!   record may be written whole or that a decree may reopen, read them.

use crate::LedgerError;
use leechbook_core::fold::{CharacterState, Ledger};
use leechbook_core::harnmaster::state::{Archived, HmCharacter};
use leechbook_core::ids::CharacterId;
use leechbook_store::codec::{decode_injury, encode_injury};
use leechbook_store::{ArchiveRow, OrderKey, ReadLog, WriteLog};
use std::collections::HashMap;
use std::ops::{Bound, RangeBounds};

/// Reads the records of the HârnMaster characters `ids` holds (every one when None) as they
/// stood after the event with order key `upto` (now when None), and marks their archives
/// held. A character already held is left as it is.
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
    let all = ids.is_none() && wanted.len() == ledger.characters.len();
    let rows = log.archived((!all).then_some(wanted.as_slice()), upto)?;
    let mut by_character: HashMap<CharacterId, Vec<ArchiveRow>> = HashMap::new();
    for r in rows {
        by_character.entry(r.character).or_default().push(r);
    }
    for c in ledger.characters.iter_mut() {
        let CharacterState::HarnMaster(h) = c else {
            continue;
        };
        if h.archive.held || !wanted.contains(&h.id) {
            continue;
        }
        let rows = by_character.remove(&h.id).unwrap_or_default();
        fill(h, rows)?;
    }
    Ok(())
}

/// Fills `h`'s archive from its rows (in the order filed): for each injury it lists as
/// filed, the latest row. Records filed since it was read stay after them.
fn fill(h: &mut HmCharacter, rows: Vec<ArchiveRow>) -> Result<(), LedgerError> {
    let mut latest: HashMap<_, ArchiveRow> = HashMap::with_capacity(rows.len());
    for r in rows {
        latest.insert(r.injury, r);
    }
    let mut records = Vec::with_capacity(h.archived.len());
    for f in &h.archived {
        // One filed since the entry was read is in the records already.
        if h.archive.filed().any(|a| a.injury.id == f.id) {
            continue;
        }
        let r = latest.remove(&f.id).ok_or_else(|| {
            LedgerError::Internal(format!(
                "the archive lacks the record of {}'s injury {}",
                h.name,
                f.id.short()
            ))
        })?;
        let injury = decode_injury(&r.payload)
            .map_err(|e| LedgerError::Internal(format!("an archived injury: {e}")))?;
        records.push(Archived {
            since: r.since,
            injury,
            reopened: None,
        });
    }
    records.sort_by_key(|a| (a.since, a.injury.n));
    records.append(&mut h.archive.records);
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
            if (from, Bound::Unbounded).contains(&a.since) {
                rows.push(ArchiveRow {
                    character: h.id,
                    since: a.since,
                    injury: a.injury.id,
                    payload: encode_injury(&a.injury),
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
