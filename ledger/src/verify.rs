//! `verify` as a service: the checks of a ledger against its own log, streamed in one read
//! transaction in bounded memory, and what they found as a typed value ([`Verified`]) that a
//! front end prints. Two kinds: the full check (the file's integrity, every event, the
//! fold, every checkpoint, the index of what events reach, the state commands start from,
//! and what the caller checks besides: the sync documents), and, when a sound verify was
//! made before by this fold version, the check of what came since (each new event's columns,
//! number, clock, chain and signature). A sound verify keeps its mark; a read-only ledger
//! keeps none, which the value says.

use crate::LedgerError;
use leechbook_core::fold::{Ledger, FOLD_VERSION};
use leechbook_core::ids::{DeviceId, EventId};
use leechbook_core::roster::Roster;
use leechbook_core::ruling::Rulings;
use leechbook_core::Envelope;
use leechbook_store::codec::decode_ledger;
use leechbook_store::{ReadLog, Store};
use std::collections::HashMap;

mod checker;
use checker::{Checker, Held};

/// What a verify found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// Whether it checked everything (else only what came since the last sound verify).
    pub full: bool,
    /// The events checked.
    pub events: u64,
    /// What it checked and what it found, one line each, in order.
    pub report: Vec<String>,
    /// The problems found (none: the ledger is sound).
    pub problems: usize,
    /// The folded record's counts (a full check only).
    pub record: Option<Record>,
    /// Whether a sound verify could not keep its mark (a read-only ledger).
    pub mark_not_kept: bool,
}

/// The folded record's counts, as a full verify found them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Its characters.
    pub characters: usize,
    /// Its void events.
    pub void: usize,
    /// The events rulings struck.
    pub retracted: usize,
    /// The events rulings amended.
    pub amended: usize,
}

impl Verified {
    /// Whether no problem was found.
    pub fn sound(&self) -> bool {
        self.problems == 0
    }
}

/// Where the sync state (a cache beside the log, never part of the record) keeps the last
/// sound verify: the log's last row then, and the fold version.
const VERIFIED: &str = "verified";

/// The last sound verify's row, when it was made by this fold version.
fn verified_row(store: &Store) -> Result<Option<i64>, LedgerError> {
    let Some(bytes) = store.sync_state(VERIFIED)? else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(&bytes);
    let mut parts = text.split_whitespace().map(str::parse::<i64>);
    Ok(match (parts.next(), parts.next()) {
        (Some(Ok(row)), Some(Ok(fold))) if fold == i64::from(FOLD_VERSION) => Some(row),
        _ => None,
    })
}

/// Keeps the mark of a sound verify that read the log up to row `last` (a read-only ledger
/// keeps none): the next verify checks only what comes after.
fn keep_mark(store: &mut Store, last: i64) -> Result<bool, LedgerError> {
    if store.read_only() {
        return Ok(false);
    }
    store.put_sync_state(VERIFIED, format!("{last} {FOLD_VERSION}").as_bytes())?;
    Ok(true)
}

/// Verifies the ledger `store` (whose file is at `path`): everything when `full` or when no
/// sound verify was made before by this fold version, else what came since. `progress` is
/// told each stage; `others` checks what the ledger does not know of (the sync documents)
/// and gives its problems. Checkpoints found stale are dropped.
pub fn verify<E: From<LedgerError>>(
    store: &mut Store,
    path: &std::path::Path,
    full: bool,
    progress: &mut dyn FnMut(&str),
    others: impl FnOnce(&Store) -> Result<Vec<String>, E>,
) -> Result<Verified, E> {
    if !full {
        let last = store.last_row().map_err(LedgerError::from)?;
        if let Some(since) = verified_row(store)?.filter(|r| *r <= last) {
            return Ok(verify_since(store, since)?);
        }
    }
    verify_full(store, path, progress, others)?
}

/// The events since the last sound verify (rows after `since`): each checked as the full
/// stream checks it, from its device's number held before (already verified); nothing
/// else (the file's integrity, the folds, the checkpoints and the sync documents are the
/// full check's), which the report says.
fn verify_since(store: &mut Store, since: i64) -> Result<Verified, LedgerError> {
    // One read transaction: the rows checked are the rows the mark then covers.
    let r = store.read()?;
    let last = r.last_row()?;
    let roster = Roster::from_log(&r.roster_events()?);
    let own = (store.device(), store.public_key());
    let mut checker = Checker::new(&roster, own).across_sealed(store)?;
    let mut n = 0u64;
    let mut held: HashMap<(DeviceId, u64), Option<Held>> = HashMap::new();
    r.for_each_event_columns(since, |env, columns| {
        n += 1;
        checker.event(env, columns, |d, s| {
            *held.entry((d, s)).or_insert_with(|| {
                r.event_at(d, s)
                    .ok()
                    .flatten()
                    .map(|h| (h.clock, h.id, h.link))
            })
        });
        Ok(())
    })?;
    let (found, unchecked) = checker.finish(&r)?;
    drop(r);
    let problems = found.len();
    let mark_not_kept = problems == 0 && !keep_mark(store, last)?;
    let said = format!(
        "checked the {n} events recorded or taken in since the last verify (each one's columns, number, clock, chain and signature); the full check covers the file's integrity, every fold and checkpoint and the sync documents too"
    );
    Ok(Verified {
        full: false,
        events: n,
        report: std::iter::once(said)
            .chain(unchecked)
            .chain(found)
            .collect(),
        problems,
        record: None,
        mark_not_kept,
    })
}

/// The index of reached characters (what the audits of one character read) against the
/// payloads: a row missing, or one naming what no event reaches.
fn reach_problems(
    reach: &std::collections::BTreeSet<(leechbook_core::ids::CharacterId, EventId)>,
    held: &std::collections::BTreeSet<(leechbook_core::ids::CharacterId, EventId)>,
) -> Vec<String> {
    let missing = reach.difference(held).map(|(c, id)| {
        format!(
            "event {id}: the index of what events reach lacks character {}",
            c.short()
        )
    });
    let extra = held.difference(reach).map(|(c, id)| {
        format!(
            "event {id}: the index of what events reach names character {}, which its payload does not reach",
            c.short()
        )
    });
    missing.chain(extra).collect()
}

/// Says each snapshot's verdict in the report; gives the places of those to drop.
fn told(
    snapshots: &[leechbook_store::SnapshotHead],
    verdicts: Vec<Option<Option<String>>>,
    report: &mut Vec<String>,
) -> Vec<u64> {
    let mut stale = Vec::new();
    for (snap, verdict) in snapshots.iter().zip(verdicts) {
        match verdict.flatten() {
            None => report.push(format!("snapshot at {}: ok", snap.position)),
            Some(why) => {
                stale.push(snap.position);
                report.push(format!("snapshot at {}: {why}; dropped", snap.position));
            }
        }
    }
    stale
}

/// Runs the full check. The log is read once, streamed in the total order (no list of it is
/// held): each event is folded, its columns compared with its payload, its number and clock
/// with its device's previous, its chain link with that event's; a device's chain is vouched
/// for by its links and its head's signature, so a signature is checked only where a chain
/// does not vouch (its head, an unchained event, a break). Each snapshot is compared with the
/// stream's fold where it reaches it, unless a ruling made after it changes how an event
/// before it stands (then that snapshot's prefix is folded again, streamed). What `others`
/// refuses with is handed back as it is, inside.
fn verify_full<E: From<LedgerError>>(
    store: &mut Store,
    path: &std::path::Path,
    progress: &mut dyn FnMut(&str),
    others: impl FnOnce(&Store) -> Result<Vec<String>, E>,
) -> Result<Result<Verified, E>, LedgerError> {
    progress("verify: the file's integrity");
    // The file's integrity is SQLite's to check, page by page: on a connection of its own,
    // on another core, while this one streams the log.
    let path = path.to_path_buf();
    let integrity = std::thread::spawn(move || {
        leechbook_store::Store::open(&path).and_then(|s| s.integrity_check())
    });
    let mut report: Vec<String> = vec![
        "checked everything: the file's integrity, every event (columns, number, clock, chain, signature), the fold, every checkpoint and the sync documents".into(),
    ];
    let sealed = store.sealed_count()?;
    if sealed > 0 {
        report.push(format!(
            "holds {sealed} entr{} sealed for the GM's devices (a GM-only character's events): this device cannot open them, counts their numbers as held, follows its devices' chains across them and offers them on",
            if sealed == 1 { "y" } else { "ies" }
        ));
    }
    progress("verify: streaming the log (fold, columns, numbers, chains, snapshots)");
    // Every read below in one read transaction: the log as it stands at its start, whatever
    // another process records meanwhile (a verify during a session reports no false problem).
    let r = store.read()?;
    let last_row = r.last_row()?;
    let roster_events = r.roster_events()?;
    let roster = Roster::from_log(&roster_events);
    let ruled = r.rulings_and_targets()?;
    let rulings = Rulings::from_log_under(&ruled, &roster);
    let own = (store.device(), store.public_key());
    // The snapshots in the order of the log, each with whether the stream's fold (under the
    // rulings and roster of the whole log) is the record as it stood at its place.
    let mut snapshots = r.snapshot_heads()?;
    snapshots.sort_by_key(|s| s.position);
    let mut past = Past {
        r: &r,
        store,
        roster_events: &roster_events,
        ruled: &ruled,
        first: HashMap::new(),
    };
    let streamable = past.streamable(&snapshots, &roster, &rulings)?;
    let mut verdicts: Vec<Option<Option<String>>> = vec![None; snapshots.len()];
    let mut checker = Checker::new(&roster, own).across_sealed(store)?;
    // What the index of reached characters must hold: each reaching event's other
    // characters, as its payload names them.
    let mut reach: std::collections::BTreeSet<(leechbook_core::ids::CharacterId, EventId)> =
        Default::default();
    let mut full = Ledger::new();
    full.roster = roster.clone();
    let mut n: u64 = 0;
    let mut end = None;
    let mut next = 0;
    let mut failed: Option<LedgerError> = None;
    r.for_each_event_columns(0, |env, columns| {
        n += 1;
        if leechbook_core::event::reaching_kinds().contains(&env.event.kind()) {
            for c in env.event.characters() {
                if Some(c) != env.event.character() {
                    reach.insert((c, env.id));
                }
            }
        }
        full.step(&env, &rulings, &mut |_, _, _| {});
        let key = env.order_key();
        end = Some(key);
        // The checker keeps the event (its device's last), so it takes it last.
        checker.event(env, columns, |_, _| None);
        while let Some(snap) = snapshots.get(next).filter(|s| s.position <= n) {
            if snap.position == n && streamable[next] {
                verdicts[next] = Some(snapshot_verdict(&r, snap, key, &mut full, &mut failed));
            }
            next += 1;
        }
        Ok(())
    })?;
    // A snapshot past the log's end is judged against the whole log.
    for i in next..snapshots.len() {
        if let Some(end) = end {
            verdicts[i] = Some(snapshot_verdict(
                &r,
                &snapshots[i],
                end,
                &mut full,
                &mut failed,
            ));
        }
    }
    if let Some(e) = failed.take() {
        return Err(e);
    }
    let (mut found, unchecked) = checker.finish(&r)?;
    report.extend(unchecked);
    // The index of reached characters (what the audits of one character read) against the
    // payloads: a row missing, or one naming what no event reaches.
    found.extend(reach_problems(
        &reach,
        &store.reach_rows()?.into_iter().collect(),
    ));
    let integrity = integrity
        .join()
        .map_err(|_| LedgerError::Internal("the integrity check stopped".into()))??;
    let mut problems = integrity.len();
    for line in &integrity {
        report.push(format!("integrity: {line}"));
    }
    // A snapshot the stream could not judge: its prefix folded again, under the rulings and
    // roster made by its place.
    for (i, snap) in snapshots.iter().enumerate() {
        if verdicts[i].is_none() && !streamable[i] && snap.position <= n {
            verdicts[i] = past.judge(snap, &mut failed)?;
        }
    }
    if let Some(e) = failed.take() {
        return Err(e);
    }
    let stale = told(&snapshots, verdicts, &mut report);
    progress("verify: the state every command starts from");
    if !crate::replica::starts_from(&r, &full)? {
        problems += 1;
        report.push("the snapshot-and-tail fold differs from the full fold".into());
    }
    progress("verify: the sync documents against the log");
    match others(store) {
        Ok(theirs) => found.extend(theirs),
        Err(e) => return Ok(Err(e)),
    }
    drop(r);
    for position in stale {
        store.drop_snapshot(position)?;
    }
    problems += found.len();
    report.extend(found);
    let mark_not_kept = problems == 0 && !keep_mark(store, last_row)?;
    Ok(Ok(Verified {
        full: true,
        events: n,
        report,
        problems,
        record: Some(Record {
            characters: full.characters.len(),
            void: full.void.len(),
            retracted: full.retracted.len(),
            amended: full.amended.len(),
        }),
        mark_not_kept,
    }))
}

/// The log as it stood at each of its places, for judging a checkpoint: the roster and the
/// rulings made by then, and where each device's first event stands (a roster change about
/// a device with no event by a place changes nothing there).
struct Past<'a> {
    r: &'a leechbook_store::Reader<'a>,
    store: &'a Store,
    roster_events: &'a [Envelope],
    ruled: &'a [Envelope],
    first: HashMap<DeviceId, Option<leechbook_store::OrderKey>>,
}

impl Past<'_> {
    /// Judges a snapshot the stream could not: its prefix folded again, under the rulings and
    /// roster made by its place.
    fn judge(
        &mut self,
        snap: &leechbook_store::SnapshotHead,
        failed: &mut Option<LedgerError>,
    ) -> Result<Option<Option<String>>, LedgerError> {
        let (roster_then, rulings_then) = self.made_by(snap.last);
        let mut then = Ledger::new();
        then.roster = roster_then;
        let (mut taken, mut last) = (0, None);
        self.r.for_each_to_fold(|e| {
            if taken < snap.position {
                taken += 1;
                last = Some(e.order_key());
                then.step(&e, &rulings_then, &mut |_, _, _| {});
            }
            Ok(())
        })?;
        Ok(last.map(|last| snapshot_verdict(self.r, snap, last, &mut then, failed)))
    }

    /// The roster and the rulings made by the place `last` of the log.
    fn made_by(&self, last: leechbook_store::OrderKey) -> (Roster, Rulings) {
        let upto = |e: &&Envelope| e.order_key() <= last;
        let roster_then = Roster::from_log(
            &self
                .roster_events
                .iter()
                .filter(upto)
                .cloned()
                .collect::<Vec<_>>(),
        );
        let then = Rulings::from_log_under(
            &self.ruled.iter().filter(upto).cloned().collect::<Vec<_>>(),
            &roster_then,
        );
        (roster_then, then)
    }

    /// Where `d`'s first event stands in the order.
    fn first_of(&mut self, d: DeviceId) -> Result<Option<leechbook_store::OrderKey>, LedgerError> {
        if let Some(k) = self.first.get(&d) {
            return Ok(*k);
        }
        let k = match self.r.event_at(d, 1)? {
            Some(n) => self
                .r
                .events_with_id_suffix(&n.id.0.simple().to_string())?
                .first()
                .map(|(_, k)| *k),
            // No #1: a device with no event at all, or one whose first events are missing
            // (then it may have events anywhere: counted from the start).
            None if self.store.last_number(d)? > 0 => Some((0, d, 0)),
            None => None,
        };
        self.first.insert(d, k);
        Ok(k)
    }

    /// For each snapshot (in the order of the log), whether the stream's fold under the
    /// whole log's `roster` and `rulings` is the record as it stood at its place: the
    /// roster then was alike for every device with an event by then, and no ruling made
    /// later changes how an event before it stands.
    fn streamable(
        &mut self,
        snapshots: &[leechbook_store::SnapshotHead],
        roster: &Roster,
        rulings: &Rulings,
    ) -> Result<Vec<bool>, LedgerError> {
        let keys: HashMap<EventId, leechbook_store::OrderKey> =
            self.ruled.iter().map(|e| (e.id, e.order_key())).collect();
        let mut streamable: Vec<bool> = Vec::with_capacity(snapshots.len());
        for snap in snapshots {
            let (roster_then, then) = self.made_by(snap.last);
            let roster_alike = roster_then == *roster
                || (roster_then.in_use() == roster.in_use()
                    && roster_then.creator == roster.creator
                    && {
                        let mut alike = true;
                        for d in roster.entries.keys().chain(roster_then.entries.keys()) {
                            if roster.entries.get(d) != roster_then.entries.get(d)
                                && self.first_of(*d)?.is_some_and(|k| k <= snap.last)
                            {
                                alike = false;
                            }
                        }
                        alike
                    });
            streamable.push(
                roster_alike
                    && !crate::audit::ruled_differently(&then, rulings)
                        .any(|id| keys.get(&id).is_some_and(|k| *k <= snap.last)),
            );
        }
        Ok(streamable)
    }
}

/// Whether the snapshot `snap` holds `state`, the record as it stood at its place (the
/// event with order key `last`): `None` when it does; else why not. A store error is kept
/// in `failed`. The archive's records are left out: a checkpoint does not hold them (they
/// are the archive's, checked once against the fold, with the state every command starts
/// from).
fn snapshot_verdict(
    store: &impl ReadLog,
    snap: &leechbook_store::SnapshotHead,
    last: leechbook_store::OrderKey,
    state: &mut Ledger,
    failed: &mut Option<crate::LedgerError>,
) -> Option<String> {
    if snap.fold_version != FOLD_VERSION {
        return Some(format!(
            "made by fold version {} (now {FOLD_VERSION})",
            snap.fold_version
        ));
    }
    match crate::checkpoint::checkpoint_entries(store, snap.position, None) {
        Err(e) => {
            failed.get_or_insert(e);
            None
        }
        Ok(Some(held)) => (last != snap.last
            || !crate::archive::same_without_records(state, &held))
        .then(|| "differs from the fold of its events".to_string()),
        // Not held whole: read again to say why (a sound checkpoint is read once).
        Ok(None) => match store.snapshot_payload(snap.position) {
            Ok(Some(payload)) => Some(match decode_ledger(&payload) {
                Err(e) => format!("does not decode ({e})"),
                Ok(_) => "lacks a character's entry, or one does not decode".into(),
            }),
            Ok(None) => Some("is gone".into()),
            Err(e) => {
                failed.get_or_insert(e.into());
                None
            }
        },
    }
}

/// An event's class in words.
fn class_word(class: i64) -> &'static str {
    match class {
        1 => "about the record",
        _ => "of the story",
    }
}
