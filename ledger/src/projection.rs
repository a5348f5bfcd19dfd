//! The projection: the campaign's current state kept beside the log as its head and one
//! entry per character, so that a command reads and writes the characters it touches instead
//! of a checkpoint of the whole campaign.
//!
//! Invariants:
//! - It is a cache. It is current when its mark is the log's last row and the fold version
//!   that made it; then head + entries is exactly the full fold of the log. Anything else
//!   (an import by sync, another fold version, an entry that does not decode) and it is not
//!   used: the state is folded from the latest checkpoint, and the next recording writes the
//!   projection whole again.
//! - The write service updates it in the append's transaction: the head and every character
//!   the ledger held (the ones the event could touch), with the new last row as its mark. A
//!   ruling (which re-derives history) and a stale projection write it whole.
//! - Its entries hold no archived injury's record: those are the archive's
//!   ([`crate::archive`]), written in the same transaction.

use crate::archive::filed;
use crate::LedgerError;
use leechbook_core::fold::{CharacterState, Fates, Ledger, FOLD_VERSION};
use leechbook_core::ids::CharacterId;
use leechbook_store::codec::{
    decode_character, decode_fates, decode_ledger, encode_character, encode_fates, encode_ledger,
};
use leechbook_store::{OrderKey, ReadLog, WriteLog};
use std::ops::Bound;

/// Whether the projection holds the log as it stands.
pub(crate) fn current(log: &impl ReadLog) -> Result<bool, LedgerError> {
    Ok(log.projection_mark()? == Some((log.last_row()?, FOLD_VERSION)))
}

/// The head, when the projection is current and it decodes, without what became of events
/// (kept apart: see [`load`]).
pub(crate) fn head(log: &impl ReadLog) -> Result<Option<Ledger>, LedgerError> {
    if !current(log)? {
        return Ok(None);
    }
    Ok(log
        .projection_head()?
        .and_then(|b| decode_ledger(&b).ok())
        .filter(|h| h.characters.is_empty()))
}

/// The state holding the characters `ids` (every character when None) and what became of
/// events, from a current projection; None when it is not current or an entry does not
/// decode.
pub(crate) fn load(
    log: &impl ReadLog,
    ids: Option<&[CharacterId]>,
) -> Result<Option<Ledger>, LedgerError> {
    let Some(mut head) = head(log)? else {
        return Ok(None);
    };
    let Some(fates) = fates(log)? else {
        return Ok(None);
    };
    head.set_fates(fates);
    with(log, head, ids)
}

/// What became of events (void, retracted, amended) as the projection keeps them apart from
/// its head; None when there is none or it does not decode. (Whether the projection is
/// current is the caller's to check.)
pub(crate) fn fates(log: &impl ReadLog) -> Result<Option<Fates>, LedgerError> {
    Ok(log.fates(None)?.and_then(|b| decode_fates(&b).ok()))
}

/// `head` holding the characters `ids` (every character when None) from the projection.
pub(crate) fn with(
    log: &impl ReadLog,
    head: Ledger,
    ids: Option<&[CharacterId]>,
) -> Result<Option<Ledger>, LedgerError> {
    let mut characters: Vec<CharacterState> = Vec::new();
    for bytes in log.projection_characters(ids)? {
        match decode_character(&bytes) {
            Ok(c) => characters.push(c),
            Err(_) => return Ok(None),
        }
    }
    let wanted = ids.map_or(head.roll().len(), |ids| {
        ids.iter()
            .filter(|id| head.roll().iter().any(|(r, _)| r == *id))
            .count()
    });
    if characters.len() != wanted {
        return Ok(None);
    }
    Ok(Some(Ledger::with_characters(head, characters)))
}

/// What a write of the projection covers, and so which archive records it files.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cover {
    /// The characters the ledger holds, after the events this transaction appended, the
    /// first of which has this order key: the records filed from it on are added.
    Held(OrderKey),
    /// Every character, the record folded from the checkpoint after the event with this
    /// order key (from the start when None): the archive's records filed after it are
    /// replaced by the ledger's.
    Whole(Option<OrderKey>),
}

/// Writes `ledger` (the state after the events just appended) into the projection in the
/// writer's transaction, with the archive's records it filed: the head and the characters
/// it holds; [`Cover::Whole`] drops the others first (it must then hold every character).
pub(crate) fn write(
    w: &mut impl WriteLog,
    ledger: &Ledger,
    cover: Cover,
) -> Result<(), LedgerError> {
    let (whole, rows, rewrite) = match cover {
        Cover::Held(first) => (false, filed(ledger, Bound::Included(first)), None),
        Cover::Whole(base) => (
            true,
            filed(ledger, base.map_or(Bound::Unbounded, Bound::Excluded)),
            Some(base),
        ),
    };
    w.put_archive(&rows, rewrite)?;
    let characters: Vec<(CharacterId, Vec<u8>)> = ledger
        .characters
        .iter()
        .map(|c| (c.id(), encode_character(c)))
        .collect();
    // What became of events changes only when the record is re-derived (a ruling, a stale
    // projection): only a whole write keeps it.
    let mut head = ledger.head();
    let fates = head.take_fates();
    if whole {
        w.put_fates(None, &encode_fates(&fates))?;
    }
    let last = w.last_row()?;
    w.put_projection(
        &encode_ledger(&head),
        &characters,
        whole,
        (last, FOLD_VERSION),
    )?;
    Ok(())
}
