//! Taking in: an import's documents or changes loaded, their entries opened and decoded,
//! each new event checked (its device on the roster, its signature, its numbers and clocks:
//! [`crate::order`]) and the accepted appended to the log in one transaction; what is
//! refused is named and dropped.

use crate::{
    crypt, entry::deletes, entry::entries_of, entry::entry_at, entry::is_rotation,
    entry::open_entries, entry::rotations_in, entry::unannounced_epochs_as_junk, entry::Entry,
    entry::Undecoded, heads, layout, mirror::relay_heads, mirror::unheld_entries, mirror::Mirror,
    mirror::REFUSED_KEY, order, order::without, signed::check_signatures, Keyring, SyncError,
    Transport,
};
use automerge::{ReadDoc, ROOT};
use layout::{Shelf, VolumeId};
use leechbook_core::ids::{DeviceId, EventId};
use leechbook_core::Envelope;
use leechbook_store::{ReadLog, Store};
use std::collections::BTreeMap;

/// How an import treats an event it cannot accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acceptance {
    /// Refuse the whole import (a sync file: taken whole or not at all).
    Whole,
    /// Take every event that checks out and list the others (the network: a hub is open by
    /// design, and one forged event on it must not stop every device from syncing forever).
    EachEvent,
}

/// What an import took in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Imported {
    /// The events new to this ledger that it took in.
    pub added: usize,
    /// The events it refused, each with why. Under [`Acceptance::Whole`] only identity
    /// clashes (two ledgers numbering different events alike) are listed here; any other
    /// refusal is the import's error.
    pub refused: Vec<String>,
    /// What the other side withholds, one line each: a volume whose events the hub's index
    /// lists but the hub did not give (deleted, withheld, or a count raised there).
    pub gaps: Vec<String>,
    /// The events this ledger put back into documents that had lost them (a peer or a hub
    /// deleted them): the log is the truth, and what a device holds it offers again.
    pub restored: usize,
    /// The entries sealed for the GM's devices it newly holds (a GM-only character's
    /// events, on a device that cannot open them: `crate::sealing`).
    pub sealed: usize,
}

/// Imports what a transport carries into the store: all or nothing, but for identity clashes,
/// which are refused one by one and listed. Returns what was taken in and refused.
pub fn import(store: &mut Store, t: &mut dyn Transport) -> Result<Imported, SyncError> {
    let Some(bytes) = t.receive()? else {
        return Ok(Imported::default());
    };
    import_changes(store, &bytes, Acceptance::Whole)
}

/// Imports sync data (as a transport delivered it) into the store: all or nothing. This is
/// the import path the fuzz target drives; any bytes at all must give `Ok` or an error, with
/// the store untouched on error.
pub fn import_bytes(store: &mut Store, bytes: &[u8]) -> Result<usize, SyncError> {
    import_changes(store, bytes, Acceptance::Whole).map(|i| i.added)
}

/// Imports a sync file (or a join file) into the store, refusing what does not check out as
/// `mode` says. Only the volumes the file carries are loaded, and only the entries its
/// volumes add are decoded.
pub fn import_changes(
    store: &mut Store,
    bytes: &[u8],
    mode: Acceptance,
) -> Result<Imported, SyncError> {
    let held_ring = crypt::keyring_of(store)?;
    // A join file carries the campaign's keys before its document.
    let (mut ring, bytes) = match Keyring::split_invitation(bytes) {
        Some((given, rest)) => {
            if given.campaign() != store.campaign() {
                return Err(SyncError::ForeignCampaign);
            }
            let mut ring = held_ring.clone().unwrap_or_else(|| given.clone());
            ring.merge(&given)?;
            (ring, rest)
        }
        None => (crypt::ring_for_sync(store)?, bytes),
    };
    let file = Mirror::load(bytes, ring.clone())?;
    let mut shelf = Shelf::open(store, ring.clone())?;
    // The log's count per volume, without writing anything (the shelf's, and the rows
    // since its mark counted in the store).
    let mut held = shelf.counts.clone();
    for (device, number, n) in store.block_counts_after_row(shelf.mark, layout::VOLUME)? {
        *held
            .entry(VolumeId {
                device,
                number: number as u32,
            })
            .or_default() += n;
    }
    // A volume the sender holds more of than this ledger, left out of the file: an earlier
    // file to this device never arrived. (Unless this ledger's copy of the volume holds as
    // many entries: events it refused, a copied ledger's, stay in it.)
    for (v, n) in &file.counts {
        if file.volumes.contains_key(v)
            || file.changes.contains_key(v)
            || *n <= held.get(v).copied().unwrap_or(0)
        {
            continue;
        }
        if (shelf.volume(store, *v)?.doc.length(ROOT) as u64) < *n {
            return Err(SyncError::MissingChanges);
        }
    }
    let mut before = BTreeMap::new();
    let mut changed = false;
    for (v, mut doc) in file.volumes {
        let kept = shelf.volume(store, v)?;
        let heads = kept.doc.get_heads();
        kept.doc
            .merge(&mut doc)
            .map_err(|e| SyncError::NotSync(e.to_string()))?;
        changed |= kept.doc.get_heads() != heads;
        before.insert(v, heads);
    }
    for (v, changes) in &file.changes {
        let kept = shelf.volume(store, *v)?;
        let heads = kept.doc.get_heads();
        // Changes that build on changes this ledger lacks: an earlier file never arrived.
        let mut trial = kept.doc.clone();
        trial
            .load_incremental(changes)
            .map_err(|e| SyncError::NotSync(e.to_string()))?;
        if !trial.get_missing_deps(&[]).is_empty() {
            return Err(SyncError::MissingChanges);
        }
        kept.doc = trial;
        changed |= kept.doc.get_heads() != heads;
        before.insert(*v, heads);
    }
    let index_heads = shelf.index.doc.get_heads();
    let mut index = file.index;
    shelf
        .index
        .doc
        .merge(&mut index)
        .map_err(|e| SyncError::NotSync(e.to_string()))?;
    if !changed && shelf.index.doc.get_heads() == index_heads {
        // Nothing the documents lack: nothing to take in and nothing to keep, so an import
        // that adds nothing writes nothing (what the shelf caught up in memory is a cache),
        // but the keys a join file brought.
        crypt::keep_gains(store, held_ring.as_ref(), &ring, &[])?;
        return Ok(Imported::default());
    }
    let rotations = rotations_in(&shelf.index.doc);
    let (entries, gained) = open_entries(store, &mut ring, &rotations, |r| {
        let mut all = Vec::new();
        for (v, from) in &before {
            if let Some(kept) = shelf.loaded(*v) {
                let diff = kept.doc.diff(from, &kept.doc.get_heads());
                all.extend(entries_of(&kept.doc, r, &shelf.names, diff));
            }
        }
        all
    })?;
    // A file none of whose new entries opens, in volumes of which this log holds nothing, is
    // no file of this campaign's (another campaign's, or sealed under another key): refused
    // whole, as ever. Junk among this campaign's volumes is another matter (`take_in`).
    let familiar = before.keys().any(|v| held.get(v).copied().unwrap_or(0) > 0);
    if !familiar && !entries.iter().any(|(_, d)| d.is_ok()) {
        if let Some((key, Err(Undecoded::Unopened(e)))) = entries
            .iter()
            .find(|(_, d)| matches!(d, Err(Undecoded::Unopened(_))))
        {
            return Err(SyncError::Sealed(format!("event {key}: {e}")));
        }
    }
    let mut entries = entries;
    unannounced_epochs_as_junk(store, &rotations, &mut entries)?;
    let (mut imported, dropped) = take_in(store, entries, mode)?;
    crypt::keep_gains(store, held_ring.as_ref(), &ring, &gained)?;
    // What was refused for good never enters the documents kept and offered on.
    for v in before.keys() {
        layout::drop_in(&mut shelf.volume(store, *v)?.doc, &dropped)?;
    }
    // The events are in; the documents are a cache, so failing to keep them loses nothing
    // (the next sync rebuilds what is missing from the log).
    shelf.ring = ring;
    if shelf.catch_up(store).is_ok() {
        let ring = shelf.ring.clone();
        let known = relay_heads(store, &mut shelf.index.doc, &ring)?;
        imported.gaps = heads::gaps(
            store,
            &shelf.counts,
            before.keys().map(|v| v.device),
            &known,
        )?;
    }
    // A file that deleted entries from a volume this ledger holds deletes nothing here: the
    // log's events go back into the kept volume, and into what it offers on.
    for (v, from) in &before {
        let deleted = shelf.loaded(*v).is_some_and(|k| deletes(&k.doc, from));
        imported.restored += shelf.restore(store, *v, deleted).unwrap_or(0);
    }
    let _ = shelf.keep(store);
    if !gained.is_empty() {
        // Keys gained: what could not be opened before may open now.
        imported.added += rescan(store)?.added;
    }
    Ok(imported)
}

/// Takes the entries a merge brought into the store: those the log lacks, checked (decoded,
/// of this campaign, signed by a rostered device) and refused as `mode` says. Under
/// [`Acceptance::EachEvent`] the refusals are kept and listed again on every sync. Returns
/// also the keys of the refused entries, which the caller drops from the document.
pub(crate) fn take_in(
    store: &mut Store,
    entries: Vec<Entry>,
    mode: Acceptance,
) -> Result<(Imported, Vec<String>), SyncError> {
    let Sorted {
        mut incoming,
        mut refused,
        mut dropped,
        junk,
        ignored,
        known_ignored,
        key_of,
        sealed,
    } = sort_entries(store, entries, mode)?;
    let sealed = keep_sealed(store, sealed, &mut refused)?;
    let mut dropped_ids: Vec<EventId> = Vec::new();
    incoming.sort_by_key(|e| e.order_key());
    let checked = check_signatures(&store.roster_events()?, incoming);
    if let (Acceptance::Whole, Some((_, first))) = (mode, checked.refused.first()) {
        return Err(SyncError::Unsigned(first.clone()));
    }
    for (id, r) in checked.refused {
        refused.push(format!("the sync data holds {r}"));
        dropped_ids.push(id);
    }
    let checked_in = order::accounted(store, checked.accepted, &mut refused, &mut dropped_ids)?;
    let checked_in = rising_clocks(store, checked_in, &mut refused, &mut dropped_ids)?;
    dropped.extend(dropped_ids.iter().filter_map(|id| key_of.get(id).cloned()));
    let accepted = follow_numbers(store, checked_in, &mut refused)?;
    // The ceiling counts only what this import takes in (padding it with events refused
    // above raises no ceiling).
    let accepted = order::under_ceiling(store, accepted, &mut refused, &mut dropped_ids)?;
    dropped.extend(
        dropped_ids
            .iter()
            .filter_map(|id| key_of.get(id).cloned())
            .filter(|k| !dropped.contains(k))
            .collect::<Vec<_>>(),
    );
    let added = if accepted.is_empty() {
        0
    } else {
        store.import(&accepted)?
    };
    if mode == Acceptance::EachEvent {
        refused = keep_refused(store, refused)?;
    }
    // Junk is listed by the sync that met it, never kept to be listed again.
    if ignored.len() != known_ignored {
        crypt::keep_ignored(store, &ignored)?;
    }
    refused.extend(junk);
    Ok((
        Imported {
            added,
            refused,
            sealed,
            ..Imported::default()
        },
        dropped,
    ))
}

/// Keeps the entries sealed for the GM that this device cannot open ([`crate::sealing`]),
/// those its log or its kept entries lack: within the bounds any device writes, under a
/// number no other event of the device holds, and following the chain of the numbers held
/// around it (a stub's numbers are stated, not signed: the next number's signature vouches
/// for its link). The others are named in `refused`. Returns how many were kept.
fn keep_sealed(
    store: &mut Store,
    stubs: Vec<leechbook_store::Sealed>,
    refused: &mut Vec<String>,
) -> Result<usize, SyncError> {
    let mut keep = Vec::new();
    for s in stubs {
        if store.holds(s.id)? || store.holds_sealed(s.id)? {
            continue;
        }
        let why = if !crate::sealing::in_bounds(&s) {
            Some("its stated numbers are out of bounds".to_string())
        } else if let Some(held) = store.event_at(s.device, s.seq)? {
            Some(format!(
                "this ledger holds event {} as that number",
                held.id.short()
            ))
        } else {
            let before = match s.seq {
                0 | 1 => None,
                n => store.event_at(s.device, n - 1)?,
            };
            let after = store.event_at(s.device, s.seq + 1)?;
            let breaks_before = match (&before, s.follows) {
                (Some(b), Some(f)) => b.link != f || b.clock >= s.clock,
                _ => false,
            };
            let breaks_after = after
                .as_ref()
                .is_some_and(|a| a.follows.is_some_and(|f| f != s.link) || a.clock <= s.clock);
            (breaks_before || breaks_after)
                .then(|| "it does not follow its device's chain".to_string())
        };
        match why {
            Some(why) => refused.push(format!(
                "the sync data holds an entry sealed for the GM as device {}'s #{} (event {}): {why} (refused)",
                s.device.short(),
                s.seq,
                s.id.short()
            )),
            None => keep.push(s),
        }
    }
    Ok(if keep.is_empty() {
        0
    } else {
        store.put_sealed(&keep)?
    })
}

/// An import's entries sorted: the events of this campaign the log lacks (`incoming`), what
/// is refused and which keys to drop from the documents, the junk listed once, and each
/// event's entry key (for the events refused after they decoded).
struct Sorted {
    incoming: Vec<Envelope>,
    refused: Vec<String>,
    dropped: Vec<String>,
    junk: Vec<String>,
    ignored: std::collections::BTreeSet<String>,
    known_ignored: usize,
    key_of: std::collections::HashMap<EventId, String>,
    /// The entries sealed for the GM that this device cannot open.
    sealed: Vec<leechbook_store::Sealed>,
}

/// Sorts an import's entries (see [`Sorted`]); in [`Acceptance::Whole`] the first entry
/// refused refuses the import.
fn sort_entries(
    store: &mut Store,
    entries: Vec<Entry>,
    mode: Acceptance,
) -> Result<Sorted, SyncError> {
    let mut refused = Vec::new();
    let mut dropped = Vec::new();
    let mut incoming = Vec::new();
    // Whether this device's keys are proven right: an entry of this very import opens, or
    // the ring was made here or has opened another device's entry before (`keys_proven`).
    // Then an entry that does not open under an epoch it holds is junk (the AEAD fails only
    // on bytes never sealed under the key), put by someone without the key: listed by the
    // first import that meets it, then ignored, and never a reason to refuse the rest. It is
    // left in the document all the same: were this device's key the wrong one after all,
    // dropping would delete a campaign's events from every hub. With a key not proven, the
    // key may be what is wrong, and such an entry is refused as before.
    let own = store.device();
    let opens_anothers = entries
        .iter()
        .any(|(_, d)| d.as_ref().is_ok_and(|e| e.device != own));
    if opens_anothers {
        crypt::prove_keys(store)?;
    }
    // Read only when an entry does not open: a sound sync reads neither the roster for the
    // proof nor the (up to 10,000) junk keys listed before.
    let unopened = entries
        .iter()
        .any(|(_, d)| matches!(d, Err(Undecoded::Unopened(_))));
    let proven = unopened && (entries.iter().any(|(_, d)| d.is_ok()) || crypt::keys_proven(store)?);
    let mut ignored = if unopened {
        crypt::ignored(store)?
    } else {
        std::collections::BTreeSet::new()
    };
    let known_ignored = ignored.len();
    let mut junk = Vec::new();
    let mut sealed = Vec::new();
    // Each event's entry key, for the events refused after they decoded.
    let key_of: std::collections::HashMap<EventId, String> = entries
        .iter()
        .filter_map(|(k, d)| Some((d.as_ref().ok()?.id, k.clone())))
        .collect();
    for (key, decoded) in entries {
        if let Ok(env) = &decoded {
            if store.holds(env.id)? {
                continue;
            }
        }
        let why = match decoded {
            Ok(env) if env.campaign == store.campaign() => {
                incoming.push(env);
                continue;
            }
            Ok(_) => SyncError::ForeignCampaign,
            Err(Undecoded::NoKey(epoch)) => {
                let why = SyncError::Sealed(format!(
                    "event {key}, sealed under a campaign key this device does not hold (epoch {epoch}): the GM revoked this device, or it has not taken in a key rotation yet; nothing was taken in"
                ));
                match mode {
                    Acceptance::Whole => return Err(why),
                    // Listed, and left in the document for the devices that can read it.
                    Acceptance::EachEvent => {
                        refused.push(why.to_string());
                        continue;
                    }
                }
            }
            Err(Undecoded::Unopened(e)) if proven => {
                if ignored.insert(key.clone()) {
                    junk.push(format!(
                        "ignored entry {key}: it does not open under the campaign's key ({e}), so no device of the campaign sealed it (listed once)"
                    ));
                }
                continue;
            }
            Err(Undecoded::Unopened(e)) => {
                let why = SyncError::Sealed(format!("event {key}: {e}"));
                match mode {
                    Acceptance::Whole => return Err(why),
                    // Listed, and left in the document: the key may be what is wrong.
                    Acceptance::EachEvent => {
                        refused.push(why.to_string());
                        continue;
                    }
                }
            }
            Err(Undecoded::Bad(e)) => SyncError::BadEvent(format!("{key}: {e}")),
            Err(Undecoded::ForGm(stub)) => {
                sealed.push(*stub);
                continue;
            }
        };
        match mode {
            Acceptance::Whole => return Err(why),
            Acceptance::EachEvent => {
                refused.push(why.to_string());
                dropped.push(key);
            }
        }
    }
    Ok(Sorted {
        incoming,
        refused,
        dropped,
        junk,
        ignored,
        known_ignored,
        key_of,
        sealed,
    })
}

/// The events of `checked_in` that follow their device's numbers: a device numbers its events
/// 1, 2, 3, ...; another event under a number already taken means two ledgers share the
/// device's identity (a copied ledger file). Both events are genuinely signed, so the clash
/// is refused event by event in either mode (refusing a file whole would block the copy's
/// files for good, even after it takes a new identity) and left in the document, where
/// `verify` reports it; dropping it would delete the other copy's genuine event from every
/// document. Past the fork, each event's chain link (the hash of its device's previous
/// number, which it signs) says which branch it follows: an event that does not follow the
/// number this ledger holds before it, or that the number held after it does not follow, is
/// the other branch's and is refused, in this import or any later one. An unchained event
/// (signed before chains) has no link to tell by: the device's later unchained events in the
/// same import are refused.
fn follow_numbers(
    store: &Store,
    checked_in: Vec<Envelope>,
    refused: &mut Vec<String>,
) -> Result<Vec<Envelope>, SyncError> {
    let mut accepted = Vec::with_capacity(checked_in.len());
    let mut claimed: std::collections::HashMap<(DeviceId, u64), leechbook_store::Numbered> =
        std::collections::HashMap::new();
    let mut forked: std::collections::HashMap<DeviceId, u64> = std::collections::HashMap::new();
    let mut last_held: std::collections::HashMap<DeviceId, u64> = std::collections::HashMap::new();
    let copied = |env: &Envelope| {
        format!(
            "two ledgers share device {}'s identity (a copied ledger file); on the copy, reset the device's identity and have the GM roster the new one",
            env.device.short()
        )
    };
    for env in checked_in {
        let chained = leechbook_store::codec::chain_link(&env).is_some();
        if let Some(&at) = forked
            .get(&env.device)
            .filter(|&&at| env.seq > at && !chained)
        {
            refused.push(format!(
                "the sync data holds event {} as device {}'s #{}, after that device's events parted at #{at}: two ledgers share its identity (a copied ledger file)",
                env.id.short(),
                env.device.short(),
                env.seq
            ));
            continue;
        }
        let at = |seq: u64| -> Result<Option<leechbook_store::Numbered>, SyncError> {
            Ok(match claimed.get(&(env.device, seq)) {
                Some(n) => Some(n.clone()),
                None => store.event_at(env.device, seq)?,
            })
        };
        let held = at(env.seq)?;
        if let Some(held) = held.as_ref().filter(|h| h.id != env.id) {
            forked.entry(env.device).or_insert(env.seq);
            refused.push(format!(
                "the sync data holds event {} as device {}'s #{}, but this ledger holds event {} as that number: {}",
                env.id.short(),
                env.device.short(),
                env.seq,
                held.id.short(),
                copied(&env)
            ));
            continue;
        }
        if held.is_none() {
            let before = match env.seq {
                0 | 1 => None,
                n => at(n - 1)?,
            };
            // The number after it is looked up only where this ledger holds a later number
            // of the device (an event filling a gap); mostly it does not.
            let last = match last_held.get(&env.device) {
                Some(&n) => n,
                None => {
                    let n = store.last_number(env.device)?;
                    last_held.insert(env.device, n);
                    n
                }
            };
            let after = if env.seq < last || claimed.contains_key(&(env.device, env.seq + 1)) {
                at(env.seq + 1)?
            } else {
                None
            };
            let own = leechbook_store::codec::link_of(Some(&env));
            let breaks_before = match (env.seq, &before) {
                (1, _) => leechbook_store::codec::follows(None, &env) == Some(false),
                (_, Some(b)) => {
                    leechbook_store::codec::chain_link(&env).is_some_and(|l| l != b.link)
                }
                _ => false,
            };
            let breaks_after = after
                .as_ref()
                .is_some_and(|a| a.follows.is_some_and(|l| l != own));
            if breaks_before || breaks_after {
                let (n, other) = if breaks_before {
                    (env.seq - 1, before.map(|b| b.id))
                } else {
                    (env.seq + 1, after.map(|a| a.id))
                };
                refused.push(format!(
                    "the sync data holds event {} as device {}'s #{}, which does not follow the chain of this ledger's #{n} (event {}): the device's events parted there, and this one is the other branch's: {}",
                    env.id.short(),
                    env.device.short(),
                    env.seq,
                    other.map(|o| o.short()).unwrap_or_default(),
                    copied(&env)
                ));
                continue;
            }
        }
        claimed.insert((env.device, env.seq), leechbook_store::Numbered::of(&env));
        accepted.push(env);
    }
    Ok(accepted)
}

/// The refusals of a network import added to those kept from earlier ones (each listed
/// once), kept, and the whole list returned.
fn keep_refused(store: &mut Store, refused: Vec<String>) -> Result<Vec<String>, SyncError> {
    let mut all = crypt::state_lines(store, REFUSED_KEY)?;
    let known = all.len();
    for r in refused {
        if !all.contains(&r) {
            all.push(r);
        }
    }
    if all.len() != known {
        store.put_sync_state(REFUSED_KEY, all.join("\n").as_bytes())?;
    }
    Ok(all)
}

/// The events whose Lamport clock rises above that of their device's previous number (in
/// the log, or earlier in this import): a device's clocks rise with its numbers, so an event
/// dated back (a revoked device's clock set before its revocation, the `clock` column edited
/// and the event signed again) is refused and named, and dropped from the document. The
/// lower number is the one that stands: it was recorded first. Returns the others, in the
/// order given.
pub(crate) fn rising_clocks(
    store: &Store,
    events: Vec<Envelope>,
    refused: &mut Vec<String>,
    dropped: &mut Vec<EventId>,
) -> Result<Vec<Envelope>, SyncError> {
    let mut by_number: Vec<usize> = (0..events.len()).collect();
    by_number.sort_by_key(|&i| (events[i].device, events[i].seq));
    let mut clocks: std::collections::HashMap<(DeviceId, u64), u64> =
        std::collections::HashMap::new();
    let mut bad = std::collections::HashSet::new();
    let mut last_held: std::collections::HashMap<DeviceId, u64> = std::collections::HashMap::new();
    for i in by_number {
        let e = &events[i];
        let before = match e.seq.checked_sub(1).filter(|s| *s > 0) {
            Some(prev) => match clocks.get(&(e.device, prev)) {
                Some(c) => Some(*c),
                None => store.clock_at(e.device, prev)?,
            },
            None => None,
        };
        if let Some(c) = before.filter(|c| *c >= e.clock) {
            refused.push(format!(
                "the sync data holds event {} as device {}'s #{} with clock {}, not above its #{}'s clock {c}: a device's clocks rise with its numbers, so it was dated back (refused)",
                e.id.short(),
                e.device.short(),
                e.seq,
                e.clock,
                e.seq - 1
            ));
            dropped.push(e.id);
            bad.insert(i);
            continue;
        }
        // A number filling a gap below one held: the held one's clock must be above it (a
        // number dated forward past its successor would clock every device after it, and
        // float past the GM's clock events). Looked up only where a later number is held.
        let last = match last_held.get(&e.device) {
            Some(&n) => n,
            None => {
                let n = store.last_number(e.device)?;
                last_held.insert(e.device, n);
                n
            }
        };
        if e.seq < last {
            if let Some(c) = store
                .clock_at(e.device, e.seq + 1)?
                .filter(|c| *c <= e.clock)
            {
                refused.push(format!(
                    "the sync data holds event {} as device {}'s #{} with clock {}, not below its #{}'s clock {c}: a device's clocks rise with its numbers, so it was dated forward (refused)",
                    e.id.short(),
                    e.device.short(),
                    e.seq,
                    e.clock,
                    e.seq + 1
                ));
                dropped.push(e.id);
                bad.insert(i);
                continue;
            }
        }
        clocks.insert((e.device, e.seq), e.clock);
    }
    Ok(without(events, &bad))
}

/// Why the roster (in use) does not vouch for `e` (the store's codec judges it, for an
/// import here and for `verify` in the ledger alike).
pub use leechbook_store::codec::signature_problem;

/// What the kept sync documents hold that the log does not hold, or holds otherwise, one
/// line per event (`verify`). The volumes are a cache of the log: they never hold an event
/// the log lacks, except what remains of a deleted row, or another ledger's event under a
/// device number this log holds (a copied ledger file).
pub fn document_problems(store: &Store) -> Result<Vec<String>, SyncError> {
    let Some(ring) = crypt::keyring_of(store)? else {
        return Ok(Vec::new());
    };
    let shelf = Shelf::open(store, ring.clone())?;
    if shelf.mark == 0 {
        return Ok(Vec::new());
    }
    // Each entry against the event the log holds under its number (a lookup, not a copy of
    // the log: `verify` streams).
    let roster = leechbook_core::roster::Roster::from_log(&store.roster_events()?);
    let mut out = Vec::new();
    let (mut opened, mut unopened) = (0usize, 0usize);
    for v in shelf.all_volumes(store)? {
        let Some(kept) = layout::load_kept(store, &v.name())? else {
            out.push(format!(
                "the sync volume {} does not load; the next sync rebuilds it",
                v.name()
            ));
            continue;
        };
        let doc = &kept.doc;
        for key in doc.keys(ROOT).filter(|k| !is_rotation(k)) {
            let env = match entry_at(doc, &ring, &shelf.names, &key) {
                Ok(env) => {
                    opened += 1;
                    env
                }
                // Sealed under a key this device was not given: not this device's to check.
                // (Sealed for the GM, it is checked where its number is: `verify`'s chains.)
                Err(Undecoded::NoKey(_) | Undecoded::ForGm(_)) => continue,
                // Junk put by someone without the key (the next sync drops it): nothing of
                // the log's, unless nothing opens at all (then the key is what is wrong).
                Err(Undecoded::Unopened(_)) => {
                    unopened += 1;
                    continue;
                }
                Err(e) => {
                    out.push(format!(
                        "the sync document's entry {key} does not decode ({e})"
                    ));
                    continue;
                }
            };
            let held = store.event_at(env.device, env.seq)?;
            match held {
                Some(held) if held.id == env.id => {
                    if held.link != leechbook_store::codec::link_of(Some(&env)) {
                        out.push(format!(
                            "event {}: the log's copy differs from the copy it was synced as (edited in the ledger file?)",
                            env.id
                        ));
                    }
                }
                held => out.push(match held.map(|h| h.id) {
                    Some(held) => format!(
                        "event {} (device {} #{}) is in the sync document, but the log holds event {held} as that number: two ledgers share device {}'s identity (a copied ledger file); on the copy, reset the device's identity and have the GM roster the new one",
                        env.id,
                        env.device.short(),
                        env.seq,
                        env.device.short()
                    ),
                    None if env.campaign != store.campaign()
                        || (roster.in_use() && signature_problem(&roster, &env).is_some()) =>
                    {
                        format!(
                            "event {} is in the sync document but was refused (another campaign's, tampered, forged or unrostered): the next sync drops it",
                            env.id
                        )
                    }
                    None => format!(
                        "event {} (device {} #{}) is in the sync document but not in the log (a deleted row?)",
                        env.id,
                        env.device.short(),
                        env.seq
                    ),
                }),
            }
        }
    }
    out.extend(heads::forks(store)?);
    if opened == 0 && unopened > 0 {
        out.push(format!(
            "none of the {unopened} entries of the sync documents opens under this device's campaign key: the key is wrong (ask the GM for a join code)"
        ));
    }
    Ok(out)
}

/// Takes in what the kept volumes hold that the log lacks and that now opens: after this
/// device gained keys (`sync key`, a rotation that reached it late), the entries it could
/// not open before are in volumes whose later syncs start past them. Reads every volume
/// that holds more entries than the log has events of it; rare, and only on a key gained.
pub fn rescan(store: &mut Store) -> Result<Imported, SyncError> {
    let ring = crypt::keyring_of(store)?.ok_or(SyncError::NoKey)?;
    let mut shelf = Shelf::open(store, ring.clone())?;
    let mut entries = Vec::new();
    // The entries held sealed for the GM that the GM's ring now opens (a GM device given
    // its share after it took them in).
    if let Some(gm) = ring.gm() {
        for s in store.sealed_unopened()? {
            let key = shelf.names.entry(s.id, s.seq);
            if let Some(opened) = crate::sealing::open(&s.entry, gm, &key) {
                entries.push((key, opened.map_err(Undecoded::Bad)));
            }
        }
    }
    for v in shelf.all_volumes(store)? {
        let Some(kept) = layout::load_kept(store, &v.name())? else {
            continue;
        };
        let held = shelf.counts.get(&v).copied().unwrap_or(0);
        entries.extend(unheld_entries(&kept.doc, v, held, store, &ring)?);
    }
    if entries.is_empty() {
        return Ok(Imported::default());
    }
    let (imported, _) = take_in(store, entries, Acceptance::EachEvent)?;
    let _ = shelf.catch_up(store).and_then(|_| shelf.keep(store));
    Ok(imported)
}
