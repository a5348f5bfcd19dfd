//! Time and order as an import takes them in: an event's Lamport clock must be one a device
//! could have reached from what it held.
//!
//! A device numbers its events and clocks each one past the highest clock its log holds
//! (the store's `prepare`), and since layout 3 of the signature
//! ([`leechbook_store::codec::SIGNATURE_SEEN`]) it signs the head of the other device it
//! clocked the event from, so the clock follows from what it signs. An import
//! checks, for every event it would take in:
//!
//! - **what it says it had seen**: each head it names that this ledger holds (or that this
//!   import brings) has a clock below its own, and when every head and its previous number
//!   are held, its clock is exactly one past the highest of them (neither dated before an
//!   event its device had taken in, nor pushed ahead);
//! - **the ceiling** ([`under_ceiling`], once the import's other checks have run): no clock
//!   runs ahead of the events that exist. A device's clock is one past a clock it held, so
//!   every clock is at most the number of events its device held; an event whose clock is
//!   above twice the events this ledger will hold (counting only what this import takes
//!   in), plus room for events its author held that have not reached here yet
//!   (`leechbook_core::clock_ceiling`), was not clocked by any device: one number from a
//!   forger (2^63-1, say) would otherwise push every device's next clock past what a store
//!   can hold, and stop every device from recording, for good.
//!
//! What is refused is dropped from the documents as the import's other refusals are. The
//! heads and the ceiling are judged against what this ledger holds, which a device missing
//! some volumes may lack: an honest event refused so is put back by its author's next sync
//! (a device's log is the truth, `Shelf::restore`), and taken in once the rest arrives.
//!
//! First of all, the bounds of the numbers themselves (`leechbook_core::OutOfBounds`: clock
//! and number at most 2^48, a number not above its clock, times within ten thousand years).
//! What is refused is named, one line an event; the rest of the import lands (a file is not
//! refused whole for one forged event in it).

use crate::SyncError;
use leechbook_core::ids::{DeviceId, EventId};
use leechbook_core::Envelope;
use leechbook_store::codec;
use leechbook_store::Store;
use std::collections::{HashMap, HashSet};

/// The events within bounds whose clocks follow from the heads they name (see the module),
/// in the order given; the others are named in `refused` and their ids put in `dropped`.
pub fn accounted(
    store: &Store,
    events: Vec<Envelope>,
    refused: &mut Vec<String>,
    dropped: &mut Vec<EventId>,
) -> Result<Vec<Envelope>, SyncError> {
    if events.is_empty() {
        return Ok(events);
    }
    // This import's numbers and their clocks (an event out of bounds vouches for none).
    let batch: HashMap<(DeviceId, u64), u64> = events
        .iter()
        .filter(|e| e.out_of_bounds().is_none())
        .map(|e| ((e.device, e.seq), e.clock))
        .collect();
    let held = |device: DeviceId, seq: u64| -> Result<Option<u64>, SyncError> {
        Ok(match batch.get(&(device, seq)) {
            Some(c) => Some(*c),
            None => store.clock_at(device, seq)?,
        })
    };
    sift(events, refused, dropped, |e| match e.out_of_bounds() {
        Some(b) => Ok(Some(b.to_string())),
        None => unaccounted(e, &held),
    })
}

/// `events` without those `why` gives a reason for, in the order given; each of those is
/// named in `refused` and its id put in `dropped`.
fn sift(
    events: Vec<Envelope>,
    refused: &mut Vec<String>,
    dropped: &mut Vec<EventId>,
    mut why: impl FnMut(&Envelope) -> Result<Option<String>, SyncError>,
) -> Result<Vec<Envelope>, SyncError> {
    let mut bad = HashSet::new();
    for (i, e) in events.iter().enumerate() {
        if let Some(why) = why(e)? {
            refused.push(line(e, &why));
            dropped.push(e.id);
            bad.insert(i);
        }
    }
    Ok(without(events, &bad))
}

/// The events whose clocks are under the ceiling of a ledger that holds its rows and takes
/// in `events` (what the import's other checks let through), in the order given; the
/// others are named in `refused` and their ids put in `dropped`.
pub fn under_ceiling(
    store: &Store,
    events: Vec<Envelope>,
    refused: &mut Vec<String>,
    dropped: &mut Vec<EventId>,
) -> Result<Vec<Envelope>, SyncError> {
    if events.is_empty() {
        return Ok(events);
    }
    let top =
        leechbook_core::clock_ceiling(store.numbers_held()?.saturating_add(events.len() as u64));
    sift(events, refused, dropped, |e| {
        Ok((e.clock > top).then(|| {
            format!(
                "no device's clock runs that far ahead of the events there are (at most {top} here), so its signer forged it"
            )
        }))
    })
}

/// The line for a refused event.
fn line(e: &Envelope, why: &str) -> String {
    format!(
        "the sync data holds event {} as device {}'s #{} with clock {}: {why} (refused)",
        e.id.short(),
        e.device.short(),
        e.seq,
        e.clock
    )
}

/// Why `e`'s clock does not follow from the heads it names, if it does not: `held` gives a
/// number's clock where this ledger or this import holds it.
fn unaccounted(
    e: &Envelope,
    held: &impl Fn(DeviceId, u64) -> Result<Option<u64>, SyncError>,
) -> Result<Option<String>, SyncError> {
    let Some(heads) = codec::seen(e) else {
        return Ok(None);
    };
    let prev = match e.seq {
        0 | 1 => None,
        n => held(e.device, n - 1)?,
    };
    let mut highest = prev.unwrap_or(0);
    let mut all_held = e.seq <= 1 || prev.is_some();
    for (device, n) in heads {
        if device == e.device || n == 0 || n > leechbook_core::MAX_SEQ {
            return Ok(Some(format!(
                "it names device {}'s #{n} as seen, which no device signs (its own, or a number out of bounds)",
                device.short()
            )));
        }
        match held(device, n)? {
            Some(c) if c >= e.clock => {
                return Ok(Some(format!(
                    "it names device {}'s #{n} (clock {c}) as seen, yet its own clock is not above it: it would sort before an event its device had taken in",
                    device.short()
                )))
            }
            Some(c) => highest = highest.max(c),
            None => all_held = false,
        }
    }
    if all_held && e.clock != highest.saturating_add(1) {
        return Ok(Some(format!(
            "its clock does not follow from what it names as seen (one past the highest of them is {})",
            highest.saturating_add(1)
        )));
    }
    Ok(None)
}

/// `events` without those at the places `bad` lists (the refused), in the order given.
pub(crate) fn without(
    events: Vec<Envelope>,
    bad: &std::collections::HashSet<usize>,
) -> Vec<Envelope> {
    events
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !bad.contains(i))
        .map(|(_, e)| e)
        .collect()
}
