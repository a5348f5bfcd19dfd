//! Checkpoints of the folded state (the store's snapshots): when one is kept, which are
//! thinned with age, and the fold from the latest usable one plus the events after it.
//!
//! Invariant: a checkpoint plus the events after it folds to exactly the full fold. The
//! store drops every checkpoint that folds the target of a new ruling or lies after a late
//! event, and one of another fold version, or that does not decode, is passed over; a
//! roster change after a checkpoint means a full fold (the roster in force is worked out
//! from the whole log).

use crate::LedgerError;
use leechbook_core::event::Ruling;
use leechbook_core::fold::{Ledger, FOLD_VERSION};
use leechbook_core::ids::CharacterId;
use leechbook_core::ids::EventId;
use leechbook_core::ruling::Rulings;
use leechbook_core::time::CampaignTime;
use leechbook_core::Envelope;
use leechbook_store::{OrderKey, ReadLog, Snapshot, SnapshotHead, WriteLog};
use std::collections::HashMap;

/// How many events apart the write path keeps checkpoints of the folded state.
pub const SNAPSHOT_EVERY: u64 = 1000;

/// Which snapshots to keep, of those at `positions` (in any order): every one within the
/// last 10,000 events of the latest, the earliest in each stretch of 10,000 events over the
/// last 100,000, and the earliest in each stretch of 25,000 before that, so that a query at
/// any moment folds at most about 25,000 events after the checkpoint it starts from. A
/// checkpoint holds the open state of each character (healed injuries are in the archive,
/// kept once) and what became of events: about 0.8 MB at a million events, so the ledger
/// stays under 400 bytes an event (BENCHMARKS.md). (Stretches, not exact multiples: a
/// snapshot dropped by a ruling is made again a few events later.)
pub fn snapshots_kept(positions: &[u64]) -> Vec<u64> {
    let mut sorted = positions.to_vec();
    sorted.sort_unstable();
    let Some(&latest) = sorted.last() else {
        return Vec::new();
    };
    let mut kept = Vec::new();
    let mut stretch = None;
    for p in sorted {
        let age = latest - p;
        let this = if age < 10 * SNAPSHOT_EVERY {
            None
        } else if age < 100 * SNAPSHOT_EVERY {
            Some((1, p / (10 * SNAPSHOT_EVERY)))
        } else {
            Some((2, p / (25 * SNAPSHOT_EVERY)))
        };
        if this.is_none() || this != stretch {
            kept.push(p);
        }
        stretch = this;
    }
    kept
}

/// The snapshot `payload` folded on with `tail`; `None` when it does not decode or the tail
/// changes the roster.
fn resume(mut ledger: Ledger, tail: Vec<Envelope>) -> Option<Ledger> {
    if tail
        .iter()
        .any(|e| matches!(e.event, leechbook_core::Event::Roster(_)))
    {
        return None;
    }
    let rulings = Rulings::from_log_under(&tail, &ledger.roster);
    for env in &tail {
        ledger.step(env, &rulings, &mut |_, _, _| {});
    }
    Some(ledger)
}

/// Folds the log up to and including the event with order key `upto` (the whole log when
/// `None`) from the latest snapshot at or before it: only that snapshot's state is read and
/// decoded, then the events after it. Falls back to a full fold.
pub fn fold_latest(log: &impl ReadLog, upto: Option<OrderKey>) -> Result<Ledger, LedgerError> {
    fold_latest_from(log, upto).map(|(ledger, _)| ledger)
}

/// [`fold_latest`], saying which checkpoint (its position) the fold started from: `None` for
/// a fold from scratch. The checkpoint property tests drive this, the path every command
/// takes.
pub fn fold_latest_from(
    log: &impl ReadLog,
    upto: Option<OrderKey>,
) -> Result<(Ledger, Option<u64>), LedgerError> {
    fold_latest_after(log, upto).map(|(ledger, head)| (ledger, head.map(|h| h.position)))
}

/// [`fold_latest`], with the checkpoint it started from (None: from scratch). The state
/// holds every character with its archive's records.
pub(crate) fn fold_latest_after(
    log: &impl ReadLog,
    upto: Option<OrderKey>,
) -> Result<(Ledger, Option<SnapshotHead>), LedgerError> {
    for head in log.snapshot_heads()? {
        if head.fold_version != FOLD_VERSION || upto.is_some_and(|u| head.last > u) {
            continue;
        }
        let Some(state) = checkpoint_state(log, head.position, None)? else {
            continue;
        };
        let tail = match upto {
            Some(u) => log.events_between(Some(head.last), u)?,
            None => log.events_after(head.last)?,
        };
        if let Some(ledger) = resume(state, tail) {
            return Ok((ledger, Some(head)));
        }
    }
    let ledger = match upto {
        Some(u) => Ledger::fold(&log.events_between(None, u)?),
        None => full_fold(log)?,
    };
    Ok((ledger, None))
}

/// The full fold of the log, streamed: the rulings in force and the roster are worked out
/// first from the events they need (found by kind and id), then the log is read and decoded
/// on this thread while another folds it, a batch at a time, so no list of the whole log is
/// ever held. The same state as `Ledger::fold` of the whole log.
pub fn full_fold(log: &impl ReadLog) -> Result<Ledger, LedgerError> {
    replay(log, |ledger, env, rulings| {
        ledger.step(env, rulings, &mut |_, _, _| {});
    })
}

/// [`full_fold`] with each step the caller's: `each` is handed the state before each event
/// of the log (in the total order), the event and the rulings in force over the whole log,
/// and steps the state itself ([`Ledger::step`]), observing what it needs (a wound's story,
/// the chain behind an injury). It runs on the folding thread, so it must be `Send`. The
/// envelopes come without their signatures, as [`stream`] reads them.
pub fn replay(
    log: &impl ReadLog,
    mut each: impl FnMut(&mut Ledger, &Envelope, &Rulings) + Send,
) -> Result<Ledger, LedgerError> {
    let mut ledger = Ledger::new();
    ledger.roster = leechbook_core::roster::Roster::from_log(&log.roster_events()?);
    let rulings = Rulings::from_log_under(&log.rulings_and_targets()?, &ledger.roster);
    stream(log, ledger, |l, env| each(l, env, &rulings))
}

/// Hands every event of the log, in the total order, to `each` with the state `state`, and
/// gives the state back: the log read and decoded on this thread, `each` run on another, a
/// batch at a time, so no list of the whole log is ever held: the read that decodes on one
/// thread while another folds ([`replay`], the moments of `moment::states_at_times`).
///
/// The envelopes are read as a fold reads them ([`ReadLog::for_each_to_fold`]): without
/// their signatures. An observer that needs one (to hash a chain link, to send or write the
/// event) reads the event with [`ReadLog::for_each_event`] or by its id instead.
pub fn stream<S: Send>(
    log: &impl ReadLog,
    mut state: S,
    mut each: impl FnMut(&mut S, &Envelope) + Send,
) -> Result<S, LedgerError> {
    const BATCH: usize = 4096;
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Envelope>>(4);
        // Each batch goes back once folded, to be emptied and filled again on the reading
        // thread: what an envelope holds is freed by the thread that allocated it, and no
        // batch is allocated twice (freeing on the folding thread what the reading thread
        // allocated cost the reader a sixth of its time in the allocator's locks).
        let (back, folded) = std::sync::mpsc::channel::<Vec<Envelope>>();
        let folder = s.spawn(move || {
            for batch in rx {
                for env in &batch {
                    each(&mut state, env);
                }
                let _ = back.send(batch);
            }
            state
        });
        let fresh = || match folded.try_recv() {
            Ok(mut done) => {
                done.clear();
                done
            }
            Err(_) => Vec::with_capacity(BATCH),
        };
        let mut batch = fresh();
        let read = log.for_each_to_fold(|env| {
            batch.push(env);
            if batch.len() == BATCH {
                // The folder only stops early by panicking; the join below reports that.
                let _ = tx.send(std::mem::replace(&mut batch, fresh()));
            }
            Ok(())
        });
        if !batch.is_empty() {
            let _ = tx.send(batch);
        }
        drop(tx);
        let folded = folder
            .join()
            .map_err(|_| LedgerError::Internal("the folding thread stopped".into()));
        read?;
        folded
    })
}

/// The state a checkpoint holds, with the characters `ids` (every character when None) and
/// their archive's records as they stood then: a checkpoint is a head (its payload) and one
/// entry per character, or, as written before checkpoints were kept per character, the
/// whole state in its payload. None when it does not decode or lacks an entry.
pub fn checkpoint_state(
    log: &impl ReadLog,
    position: u64,
    ids: Option<&[CharacterId]>,
) -> Result<Option<Ledger>, LedgerError> {
    let Some(last) = log
        .snapshot_heads()?
        .into_iter()
        .find(|h| h.position == position)
        .map(|h| h.last)
    else {
        return Ok(None);
    };
    let Some(mut ledger) = checkpoint_entries(log, position, ids)? else {
        return Ok(None);
    };
    crate::archive::load(log, &mut ledger, ids, Some(last))?;
    Ok(Some(ledger))
}

/// [`checkpoint_state`] without the archive's records (what a checkpoint itself holds: the
/// records are the archive's, read as of a place; `verify` checks them once, not per
/// checkpoint).
pub fn checkpoint_entries(
    log: &impl ReadLog,
    position: u64,
    ids: Option<&[CharacterId]>,
) -> Result<Option<Ledger>, LedgerError> {
    let Some(payload) = log.snapshot_payload(position)? else {
        return Ok(None);
    };
    let Ok(head) = leechbook_store::codec::decode_ledger(&payload) else {
        return Ok(None);
    };
    if !head.characters.is_empty() || head.roll().is_empty() {
        // The whole state (or a campaign with no character yet).
        return Ok(Some(head));
    }
    let mut head = head;
    // What became of events, kept apart: read for the whole record, not for a view of some
    // characters.
    if ids.is_none() {
        match log
            .fates(Some(position))?
            .map(|b| leechbook_store::codec::decode_fates(&b))
        {
            Some(Ok(fates)) => head.set_fates(fates),
            _ => return Ok(None),
        }
    }
    let mut characters = Vec::new();
    for bytes in log.checkpoint_characters(position, ids)? {
        match leechbook_store::codec::decode_character(&bytes) {
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

/// Keeps a checkpoint of `ledger` (every character held) at `position`, after the event
/// with order key `last`: the head as the snapshot's payload and one entry per character.
pub fn save_checkpoint(
    store: &mut impl WriteLog,
    position: u64,
    last: OrderKey,
    ledger: &Ledger,
) -> Result<(), LedgerError> {
    let c = checkpoint_of(position, last, ledger);
    store.save_checkpoint(&c.snapshot, &c.entries)?;
    store.put_fates(Some(position), &c.fates)?;
    Ok(())
}

/// A checkpoint as stored.
struct Stored {
    /// The head (without what became of events) as the snapshot's payload.
    snapshot: Snapshot,
    /// One encoded entry per character.
    entries: Vec<(CharacterId, Vec<u8>)>,
    /// What became of events, encoded.
    fates: Vec<u8>,
}

/// A checkpoint of `ledger` as stored.
fn checkpoint_of(position: u64, last: OrderKey, ledger: &Ledger) -> Stored {
    // A checkpoint's entries leave out the lists of what is filed: the archive's records
    // give them back (`archive::load`), and at every checkpoint they would repeat it.
    let entries = ledger
        .characters
        .iter()
        .map(|c| {
            let bytes = leechbook_store::codec::encode_character(&c.for_checkpoint());
            (c.id(), bytes)
        })
        .collect();
    let mut head = ledger.head();
    let fates = leechbook_store::codec::encode_fates(&head.take_fates());
    let snapshot = Snapshot {
        position,
        last,
        fold_version: FOLD_VERSION,
        payload: leechbook_store::codec::encode_ledger(&head),
    };
    Stored {
        snapshot,
        entries,
        fates,
    }
}

/// The kinds of event that touch more than the character they are about.
pub(crate) fn multi() -> &'static [&'static str] {
    leechbook_core::event::reaching_kinds()
}

/// The record up to and including the event with order key `upto`, holding the characters
/// `names`, read as a view of them needs: their entries of the latest checkpoint at or
/// before it, and only the events after it that are about them or about no character (the
/// campaign's own). Its clock is the latest campaign time of any event up to there that was not struck; what
/// became of other characters' events (void, applied counts) is not in it. Falls back to the
/// whole record (`fold_latest`) where a named character joined after the checkpoint, an
/// event there also touches a character not named, a roster change is among them, a ruling
/// other than a retraction rules on an event not decoded, or the checkpoint was kept whole.
pub fn state_for_upto(
    log: &impl ReadLog,
    names: &[&str],
    upto: OrderKey,
) -> Result<Ledger, LedgerError> {
    let whole = || fold_latest(log, Some(upto));
    let Some(head) = log
        .snapshot_heads()?
        .into_iter()
        .find(|h| h.fold_version == FOLD_VERSION && h.last <= upto)
    else {
        return whole();
    };
    let Some(top) = checkpoint_head(log, head.position)? else {
        return whole();
    };
    let Some((ids, mut ledger)) = view_from(log, head.position, &top, names)? else {
        return whole();
    };
    let (tail, skipped) = log.tail_for(head.last, upto, &ids, multi())?;
    let Some(stretch) = step_stretch(&mut ledger, &ids, tail, skipped) else {
        return whole();
    };
    match stretch.clock(ledger.now) {
        Some(now) => ledger.now = now,
        None => return whole(),
    }
    Ok(ledger)
}

/// The head of the checkpoint at `position` (the campaign without its characters), when it
/// decodes and the checkpoint was kept per character (one kept whole has no entries).
pub(crate) fn checkpoint_head(
    log: &impl ReadLog,
    position: u64,
) -> Result<Option<Ledger>, LedgerError> {
    Ok(log
        .snapshot_payload(position)?
        .and_then(|p| leechbook_store::codec::decode_ledger(&p).ok())
        .filter(|top| top.characters.is_empty()))
}

/// Where a view of the characters `names` starts from the checkpoint at `position` whose
/// head is `top`: their ids and the ledger holding their entries (with their archives'
/// records as they stood then). None when a named character joined after the checkpoint
/// (it has no entry there) or an entry is missing.
pub(crate) fn view_from(
    log: &impl ReadLog,
    position: u64,
    top: &Ledger,
    names: &[&str],
) -> Result<Option<(Vec<CharacterId>, Ledger)>, LedgerError> {
    let ids: Vec<CharacterId> = names.iter().filter_map(|n| top.id_named(n)).collect();
    if ids.len() < names.len() {
        return Ok(None);
    }
    Ok(checkpoint_state(log, position, Some(&ids))?.map(|ledger| (ids, ledger)))
}

/// A stretch of the log after a checkpoint, as a view of some characters stepped it.
pub(crate) struct Stretch {
    /// The events stepped: those about the characters held or about no character.
    stepped: Vec<Envelope>,
    /// The rulings in force over the stretch (all in it: see [`step_stretch`]).
    rulings: Rulings,
    /// The other characters' events, by id and times: not stepped.
    skipped: Vec<leechbook_store::Skipped>,
}

/// Steps onto `ledger` (a checkpoint holding the characters `ids`) a stretch of the log after
/// it: `tail`, its events about them or about no character or of a kind that may reach
/// another character, decoded and in order, and `skipped`, the rest by id and times. None
/// when only the whole record can tell the characters' state:
/// - an event (as recorded, or as a ruling amended it) that touches both a character held
///   and one not held, whose state it reads; or a roster change, which re-derives who may
///   write;
/// - an exchange, a shot or a quarrel among the characters held alone: its outcome reads
///   the campaign clock before it, which other characters' events move.
///
/// An event decoded for its kind that touches none of the characters held is skipped like
/// the others'. The rulings in force over the stretch are all in it: the store drops every
/// checkpoint at or after the target of a ruling appended after it (and keeps none that a
/// ruling already in the log rules into), so no ruling after the checkpoint rules on what it
/// folds; a ruling on an event not decoded (another character's) acts on nothing held.
pub(crate) fn step_stretch(
    ledger: &mut Ledger,
    ids: &[CharacterId],
    tail: Vec<Envelope>,
    mut skipped: Vec<leechbook_store::Skipped>,
) -> Option<Stretch> {
    let rulings = Rulings::from_log_under(&tail, &ledger.roster);
    let held = |c: &CharacterId| ids.contains(c);
    let mut stepped = Vec::with_capacity(tail.len());
    for e in tail {
        if matches!(e.event, leechbook_core::Event::Roster(_)) {
            return None;
        }
        let mut touched = e.event.characters();
        if let Some((_, amended, _)) = rulings.amended.get(&e.id) {
            touched.extend(amended.characters());
        }
        let (ours, theirs) = (touched.iter().any(held), touched.iter().any(|c| !held(c)));
        match (ours, theirs) {
            (true, true) => return None,
            (false, true) => skipped.push(leechbook_store::Skipped {
                id: e.id,
                at: e.at.0,
                wall_ms: e.wall.timestamp_millis(),
            }),
            _ if ours && multi().contains(&e.event.kind()) => return None,
            _ => stepped.push(e),
        }
    }
    for env in &stepped {
        ledger.step(env, &rulings, &mut |_, _, _| {});
    }
    Some(Stretch {
        stepped,
        rulings,
        skipped,
    })
}

impl Stretch {
    /// Keeps of the other characters' events only those `keep` keeps (a moment's).
    pub(crate) fn keep_skipped(&mut self, keep: impl Fn(&leechbook_store::Skipped) -> bool) {
        self.skipped.retain(keep);
    }

    /// The campaign clock at the stretch's end, from the clock of its stepped events
    /// (`now`): the fold moves it with every event applied, so the other characters' events
    /// count unless a retraction in force struck them. None when a ruling other than a
    /// retraction rules on one of them, or a ruling on one would itself move the clock
    /// (whether it stands depends on its target, which was not read): only the whole record
    /// can tell. (An event of another character that the whole record voids still counts
    /// here: the view does not fold that character.)
    pub(crate) fn clock(&self, now: CampaignTime) -> Option<CampaignTime> {
        let skipped: HashMap<EventId, i64> = self.skipped.iter().map(|s| (s.id, s.at)).collect();
        // The rulings' targets among them (few): Some(true) struck by a retraction in
        // force, Some(false) only by retractions retracted in turn, None ruled on otherwise.
        let mut ruled: HashMap<EventId, Option<bool>> = HashMap::new();
        let mut rulings_on_skipped = Vec::new();
        for env in &self.stepped {
            let leechbook_core::Event::Ruling(r) = &env.event else {
                continue;
            };
            let Some(target) = r.target().filter(|t| skipped.contains_key(t)) else {
                continue;
            };
            rulings_on_skipped.push(env.at);
            let this = match r {
                Ruling::Retract { .. } => Some(!self.rulings.retracted.contains_key(&env.id)),
                _ => None,
            };
            let was = ruled.get(&target).copied().unwrap_or(Some(false));
            ruled.insert(target, was.zip(this).map(|(a, b)| a || b));
        }
        let mut latest = now.0;
        for s in &self.skipped {
            match ruled.get(&s.id) {
                Some(None) => return None,
                Some(Some(true)) => {}
                _ => latest = latest.max(s.at),
            }
        }
        if rulings_on_skipped.iter().any(|at| at.0 > latest) {
            return None;
        }
        Some(CampaignTime(latest))
    }
}

/// The write path's checkpoint policy, in the append's transaction after the event with
/// order key `last` and the projection are written: a checkpoint of `ledger` (the state
/// after that event) when [`SNAPSHOT_EVERY`] events have passed since the latest, then the
/// thinning. Inside the transaction no other writer can append or rule between the state
/// and the checkpoint of it. A cache: failing to keep one is no error (the next recording
/// keeps it), and never fails the recording. `whole`: the ledger is the whole record (every
/// character and what became of events), as a write of the whole projection has it.
pub(crate) fn keep_checkpoint(w: &mut impl WriteLog, last: OrderKey, ledger: &Ledger, whole: bool) {
    // Rows are never deleted, so the last row is the number of events (and costs no scan).
    let Ok(position) = w.last_row().map(|r| r as u64) else {
        return;
    };
    let Ok(heads) = w.snapshot_heads() else {
        return;
    };
    let latest = heads.first().map(|s| s.position).unwrap_or(0);
    if position < latest + SNAPSHOT_EVERY {
        return;
    }
    // A checkpoint holds every character and what became of events: a ledger the write path
    // read for some characters is completed from the projection just written in this
    // transaction.
    let read;
    let ledger = if whole {
        ledger
    } else {
        match crate::projection::load(&*w, None) {
            Ok(Some(l)) => {
                read = l;
                &read
            }
            _ => return,
        }
    };
    let c = checkpoint_of(position, last, ledger);
    if w.save_checkpoint(&c.snapshot, &c.entries).is_ok()
        && w.put_fates(Some(position), &c.fates).is_ok()
    {
        let positions: Vec<u64> = heads.iter().map(|h| h.position).chain([position]).collect();
        let kept = snapshots_kept(&positions);
        for p in positions.into_iter().filter(|p| !kept.contains(p)) {
            let _ = w.drop_snapshot(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_keeps_the_recent_and_one_per_stretch() {
        let made: Vec<u64> = (1..=200).map(|k| k * SNAPSHOT_EVERY).collect();
        let kept = snapshots_kept(&made);
        // The last ten thousand events: all ten; over the last 100,000 one per ten thousand
        // (101,000 to 190,000: ten stretches, 10 to 19); before, one per 25,000 (1,000 to
        // 100,000: five stretches, 0 to 4).
        assert!(kept.ends_with(&(191..=200).map(|k| k * SNAPSHOT_EVERY).collect::<Vec<_>>()));
        assert_eq!(kept.len(), 10 + 10 + 5, "{kept:?}");
        assert_eq!(snapshots_kept(&kept), kept, "thinning is stable");
    }
}
