//! The store conformance suite, run against a SQLite file and against `:memory:`, and the
//! file-only guarantees: refusal of foreign and newer files, concurrent appenders, a killed
//! appender.

use leechbook_core::harnmaster::state::Sheet;
use leechbook_core::ids::{CampaignId, DeviceId, EventId};
use leechbook_core::time::CampaignTime;
use leechbook_core::{Event, SheetKind, SystemId};
use leechbook_store::{Store, StoreError};
use std::path::Path;

fn created() -> Event {
    Event::CampaignCreated {
        name: "suite".into(),
        system: SystemId::HarnMaster,
        round_seconds: 10,
    }
}

fn character(name: &str) -> Event {
    Event::CharacterAdded {
        name: name.into(),
        sheet: SheetKind::HarnMaster(Sheet {
            strength: 12,
            endurance: 12,
            shock_ml: 65,
            healing_base: 13,
            strength_ml: 60,
            body: "human".into(),
            beast: false,
            fatigue: 0,
        }),
    }
}

/// The suite every backend passes.
fn conformance(mut store: Store) {
    assert_eq!(store.count().unwrap(), 0);
    let a = store.append(created(), CampaignTime::START).unwrap();
    let b = store.append(character("Osric"), CampaignTime(60)).unwrap();
    let c = store
        .append(
            Event::ClockAdvanced {
                to: CampaignTime(600),
            },
            CampaignTime(600),
        )
        .unwrap();
    // Sequence numbers and Lamport clocks count up; ids are UUIDv7.
    assert_eq!((a.seq, b.seq, c.seq), (1, 2, 3));
    assert_eq!((a.clock, b.clock, c.clock), (1, 2, 3));
    assert_eq!(a.id.0.get_version_num(), 7);
    assert_eq!(a.device, store.device());
    assert_eq!(a.campaign, store.campaign());
    // Round trip: what was appended is what is read, in order.
    let read = store.events().unwrap();
    assert_eq!(read.len(), 3);
    for (got, want) in read.iter().zip([&a, &b, &c]) {
        assert_eq!(got.id, want.id);
        assert_eq!(got.event, want.event);
        assert_eq!(got.at, want.at);
        assert_eq!(got.wall.timestamp_millis(), want.wall.timestamp_millis());
    }
    // A writer dropped without commit leaves nothing behind.
    {
        let mut w = store.write().unwrap();
        let env = w
            .prepare(character("Ghost"), CampaignTime(0), chrono::Utc::now())
            .unwrap();
        w.append(&env).unwrap();
    }
    assert_eq!(store.count().unwrap(), 3);
    // Import skips what is known, and refuses another campaign's events whole.
    let again = store.events().unwrap();
    assert_eq!(store.import(&again).unwrap(), 0);
    let mut foreign = again[1].clone();
    foreign.id = EventId(uuid::Uuid::now_v7());
    foreign.campaign = CampaignId(uuid::Uuid::now_v7());
    let batch = vec![again[2].clone(), foreign];
    assert!(matches!(
        store.import(&batch),
        Err(StoreError::ForeignEvent { .. })
    ));
    assert_eq!(store.count().unwrap(), 3);
    // A remote event with a higher clock sorts after, and the next local event passes it.
    let mut remote = again[1].clone();
    remote.id = EventId(uuid::Uuid::now_v7());
    remote.device = DeviceId(uuid::Uuid::now_v7());
    remote.seq = 1;
    remote.clock = 10;
    remote.event = character("Remote");
    assert_eq!(store.import(&[remote]).unwrap(), 1);
    let d = store.append(character("Local"), CampaignTime(600)).unwrap();
    assert_eq!((d.seq, d.clock), (4, 11));
    assert!(store.integrity_check().unwrap().is_empty());
}

#[test]
fn conformance_in_memory() {
    conformance(Store::open_in_memory().unwrap());
}

#[test]
fn conformance_on_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.db");
    conformance(Store::create(&path).unwrap());
    // And the file reopens with the same events.
    let store = Store::open(&path).unwrap();
    assert_eq!(store.count().unwrap(), 5);
}

fn raw(path: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).unwrap()
}

#[test]
fn events_can_be_neither_updated_nor_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.db");
    let mut store = Store::create(&path).unwrap();
    store.append(created(), CampaignTime::START).unwrap();
    drop(store);
    let conn = raw(&path);
    let upd = conn.execute("UPDATE events SET at = 99", []).unwrap_err();
    assert!(upd.to_string().contains("append-only"), "{upd}");
    let del = conn.execute("DELETE FROM events", []).unwrap_err();
    assert!(del.to_string().contains("append-only"), "{del}");
    let n: i64 = conn
        .query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 1);
}

#[test]
fn a_ledger_from_a_newer_leechbook_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.db");
    drop(Store::create(&path).unwrap());
    raw(&path)
        .execute_batch("PRAGMA user_version = 99")
        .unwrap();
    let err = Store::open(&path).err().unwrap();
    assert!(matches!(err, StoreError::TooNew { found: 99, .. }), "{err}");
    assert!(err.to_string().contains("newer Leechbook"));
}

#[test]
fn missing_and_foreign_files_are_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.db");
    assert!(matches!(
        Store::open(&missing),
        Err(StoreError::NotFound(_))
    ));
    assert!(!missing.exists(), "opening must not create the file");

    let text = dir.path().join("notes.txt");
    std::fs::write(&text, b"this is not a database at all, just some words").unwrap();
    let before = std::fs::read(&text).unwrap();
    assert!(matches!(
        Store::open(&text),
        Err(StoreError::NotALedger { .. })
    ));
    assert_eq!(std::fs::read(&text).unwrap(), before);

    let other = dir.path().join("other.db");
    raw(&other)
        .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        .unwrap();
    let before = std::fs::read(&other).unwrap();
    let err = Store::open(&other).err().unwrap();
    assert!(err.to_string().contains("not a Leechbook ledger"), "{err}");
    assert_eq!(std::fs::read(&other).unwrap(), before);

    assert!(matches!(
        Store::create(&other),
        Err(StoreError::AlreadyExists(_))
    ));
}

#[test]
fn two_appenders_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.db");
    let mut store = Store::create(&path).unwrap();
    store.append(created(), CampaignTime::START).unwrap();
    drop(store);
    let threads: Vec<_> = (0..2)
        .map(|t| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut s = Store::open(&path).unwrap();
                for i in 0..100 {
                    s.append(character(&format!("c{t}-{i}")), CampaignTime::START)
                        .unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let s = Store::open(&path).unwrap();
    let events = s.events().unwrap();
    assert_eq!(events.len(), 201);
    // One device, so sequence numbers and clocks are 1..=201 without gaps or repeats.
    let mut seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
    seqs.sort();
    assert_eq!(seqs, (1..=201).collect::<Vec<_>>());
    let clocks: Vec<u64> = events.iter().map(|e| e.clock).collect();
    assert_eq!(clocks, (1..=201).collect::<Vec<_>>());
}

/// The child half of `a_killed_appender_leaves_every_committed_event`: appends until killed.
/// Ignored in a plain run (it is a process the parent starts, not a test of its own); run by
/// hand it has no ledger to append to and says so.
#[test]
#[ignore = "the child process of a_killed_appender_leaves_every_committed_event"]
fn child_appender() {
    let path = std::env::var("LEECHBOOK_CHILD_APPENDER")
        .expect("LEECHBOOK_CHILD_APPENDER names the ledger the parent test kills this child over");
    let mut s = Store::open(Path::new(&path)).unwrap();
    for i in 0.. {
        s.append(character(&format!("n{i}")), CampaignTime::START)
            .unwrap();
        println!("committed {i}");
    }
}

#[test]
fn a_killed_appender_leaves_every_committed_event() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.db");
    let mut store = Store::create(&path).unwrap();
    store.append(created(), CampaignTime::START).unwrap();
    drop(store);
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_appender",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("LEECHBOOK_CHILD_APPENDER", &path)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut committed = 0;
    while committed < 50 {
        let line = lines.next().unwrap().unwrap();
        if line.starts_with("committed ") {
            committed += 1;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let s = Store::open(&path).unwrap();
    assert!(s.integrity_check().unwrap().is_empty());
    let events = s.events().unwrap();
    // Every event the child reported committed is there (it may have committed more).
    assert!(events.len() > 50, "{} events", events.len());
    let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (1..=events.len() as u64).collect::<Vec<_>>());
}

// ---------------------------------------------------------------------------------------
// The log contract (`ReadLog` + `WriteLog`), run against the SQLite store on a file and the
// in-memory log alike: events made elsewhere (the synthetic campaign, with retractions in
// it), imported in two batches out of order.

use leechbook_core::Envelope;
use leechbook_store::memory::MemoryLog;
use leechbook_store::{Snapshot, WriteLog};

/// Whether a checkpoint of the first `p` events of `all` stands: no later ruling rules on
/// one of them (the store keeps no checkpoint that one does).
fn stands(all: &[Envelope], p: usize) -> bool {
    !all[p..].iter().any(|e| match &e.event {
        Event::Ruling(r) => r
            .target()
            .is_some_and(|t| all[..p].iter().any(|x| x.id == t)),
        _ => false,
    })
}

/// A synthetic campaign, each event signed (what a log keeps of a signature is part of its
/// contract).
fn synthetic() -> (CampaignId, Vec<Envelope>) {
    let key = ed25519_dalek::SigningKey::from_bytes(&[7; 32]);
    let mut log = leechbook_core::synthetic::campaign(3_000);
    for e in &mut log {
        leechbook_store::codec::sign(e, &key);
    }
    (log[0].campaign, log)
}

fn log_contract(log: &mut impl WriteLog, all: &[Envelope]) {
    imports_and_cuts(log, all);
    lookups(log, all);
    refusals_and_checkpoints(log, all);
    projection(log, all);
}

/// Imported out of order and read back in the total order, again adding nothing;
/// streamed; cut by order keys and by rows.
fn imports_and_cuts(log: &mut impl WriteLog, all: &[Envelope]) {
    assert!(log.events().unwrap().is_empty());
    assert_eq!(log.last_row().unwrap(), 0);
    assert_eq!(log.projection_mark().unwrap(), None);
    assert!(log.snapshot_heads().unwrap().is_empty());
    // Imported out of order, read back in the total order.
    let (first, second) = all.split_at(all.len() / 2);
    assert_eq!(log.import(second).unwrap(), second.len());
    assert_eq!(log.last_row().unwrap(), second.len() as i64);
    assert_eq!(log.import(first).unwrap(), first.len());
    assert_eq!(log.events().unwrap(), all);
    assert_eq!(log.last_row().unwrap(), all.len() as i64);
    // Importing again adds nothing.
    assert_eq!(log.import(all).unwrap(), 0);
    let mut streamed = Vec::new();
    log.for_each_event(|e| {
        streamed.push(e);
        Ok(())
    })
    .unwrap();
    assert_eq!(streamed, all);
    // As a fold reads it: the same events, none with its signature.
    assert!(all.iter().all(|e| e.signature.is_some()));
    let mut folded = Vec::new();
    log.for_each_to_fold(|e| {
        folded.push(e);
        Ok(())
    })
    .unwrap();
    let unsigned: Vec<Envelope> = all
        .iter()
        .map(|e| Envelope {
            signature: None,
            ..e.clone()
        })
        .collect();
    assert_eq!(folded, unsigned);
    // Cuts of the total order.
    let (j, k) = (700, 2_100);
    assert_eq!(
        log.events_between(None, all[k].order_key()).unwrap(),
        &all[..=k]
    );
    assert_eq!(
        log.events_between(Some(all[j].order_key()), all[k].order_key())
            .unwrap(),
        &all[j + 1..=k]
    );
    assert_eq!(log.events_after(all[j].order_key()).unwrap(), &all[j + 1..]);
    // Rows after a mark: the second batch was stored first.
    let (after, last) = log.events_after_row(second.len() as i64).unwrap();
    assert_eq!(after, first);
    assert_eq!(last, all.len() as i64);
}

/// Lookups by id, by number, by subject and by the end of an id; the roster and the
/// rulings read by kind; every row's columns.
fn lookups(log: &mut impl WriteLog, all: &[Envelope]) {
    // Lookups.
    let e = &all[1_234];
    assert!(log.holds(e.id).unwrap());
    assert!(!log.holds(EventId(uuid::Uuid::from_u128(42))).unwrap());
    assert_eq!(
        log.event_at(e.device, e.seq).unwrap().map(|n| n.id),
        Some(e.id)
    );
    // What each event is about: a character's events (those it is about and those that
    // reach it), and the campaign's own.
    let who = all
        .iter()
        .find_map(|e| e.event.character())
        .expect("a character's event");
    let mine: Vec<Envelope> = all
        .iter()
        .filter(|e| e.event.touches(who))
        .cloned()
        .collect();
    assert!(!mine.is_empty());
    assert_eq!(log.events_about(Some(who)).unwrap(), mine);
    let campaign: Vec<Envelope> = all
        .iter()
        .filter(|e| e.event.character().is_none())
        .cloned()
        .collect();
    assert_eq!(log.events_about(None).unwrap(), campaign);
    // Within places: the same lists, from just after one up to another.
    let places = [
        all[0].order_key(),
        all[all.len() / 2].order_key(),
        e.order_key(),
    ];
    for after in places.iter().copied().map(Some).chain([None]) {
        for upto in places.iter().copied().map(Some).chain([None]) {
            for (who, list) in [(Some(who), &mine), (None, &campaign)] {
                let within: Vec<Envelope> = list
                    .iter()
                    .filter(|x| after.is_none_or(|a| x.order_key() > a))
                    .filter(|x| upto.is_none_or(|u| x.order_key() <= u))
                    .cloned()
                    .collect();
                assert_eq!(log.events_about_within(who, after, upto).unwrap(), within);
            }
        }
    }
    let suffix = &e.id.0.simple().to_string()[24..];
    assert_eq!(
        log.events_with_id_suffix(suffix).unwrap(),
        vec![(e.id, e.order_key())]
    );
    // Too short or not hex: nothing, on every store (an empty suffix matches no event).
    for bad in ["", "  ", "abc12", "zzzzzzzz"] {
        assert!(
            log.events_with_id_suffix(bad).unwrap().is_empty(),
            "{bad:?}"
        );
    }
    let kinds = ["campaign-created", "roster.device", "roster.revoke"];
    let roster: Vec<Envelope> = all
        .iter()
        .filter(|e| kinds.contains(&e.event.kind()))
        .cloned()
        .collect();
    assert_eq!(log.roster_events().unwrap(), roster);
    let rulings = log.rulings_and_targets().unwrap();
    assert!(rulings
        .windows(2)
        .all(|w| w[0].order_key() < w[1].order_key()));
    let retracts = all
        .iter()
        .filter(|e| e.event.kind() == "ruling.retract")
        .count();
    assert!(retracts > 0);
    assert_eq!(rulings.len(), 2 * retracts, "each ruling and its target");
    let mut columns = Vec::new();
    log.for_each_event_columns(0, |env, c| {
        columns.push((env, c.kind.to_string(), c.character, c.class));
        Ok(())
    })
    .unwrap();
    assert_eq!(columns.len(), all.len());
    for (env, kind, character, class) in &columns {
        assert_eq!(
            (kind.as_str(), *character, *class),
            (
                env.event.kind(),
                env.event.character(),
                leechbook_store::class_of(&env.event)
            )
        );
        let about_the_record = kind == "campaign-created"
            || kind.starts_with("roster.")
            || kind.starts_with("ruling.");
        assert_eq!(*class == 1, about_the_record, "{kind}");
    }
    assert_eq!(
        columns.into_iter().map(|c| c.0).collect::<Vec<_>>(),
        all,
        "in the total order"
    );
}

/// Refused whole: another campaign's event and another under a taken number; the
/// checkpoints, the times around them, and those a ruling rules into.
fn refusals_and_checkpoints(log: &mut impl WriteLog, all: &[Envelope]) {
    // Refused whole: another campaign's event, and another event under a taken number.
    let mut foreign = all[5].clone();
    foreign.id = EventId(uuid::Uuid::from_u128(7));
    foreign.campaign = CampaignId(uuid::Uuid::from_u128(9));
    assert!(matches!(
        log.import(&[foreign]),
        Err(StoreError::ForeignEvent { .. })
    ));
    let mut clash = all[6].clone();
    clash.id = EventId(uuid::Uuid::from_u128(8));
    assert!(matches!(
        log.import(&[clash]),
        Err(StoreError::SeqClash { .. })
    ));
    assert_eq!(log.events().unwrap(), all);
    // Checkpoints: latest first; a late event drops those at or after it. (Each where no
    // later ruling rules into it, or the store keeps none: see below.)
    let stands = |p: usize| stands(all, p);
    let second = (2_000..).find(|&p| stands(p)).unwrap();
    assert!(stands(1_000) && second < 2_100);
    for p in [1_000u64, second as u64, 3_000] {
        log.save_snapshot(&Snapshot {
            position: p,
            last: all[p as usize - 1].order_key(),
            fold_version: 1,
            payload: vec![p as u8],
        })
        .unwrap();
    }
    let heads: Vec<u64> = log
        .snapshot_heads()
        .unwrap()
        .iter()
        .map(|h| h.position)
        .collect();
    assert_eq!(heads, vec![3_000, second as u64, 1_000]);
    assert_eq!(
        log.snapshot_payload(second as u64).unwrap(),
        Some(vec![second as u8])
    );
    // Each knows the earliest campaign time of the events after it (none after the last).
    let earliest = |from: usize| all[from..].iter().map(|e| e.at).min();
    let kept: Vec<(u64, CampaignTime)> = log
        .snapshot_heads()
        .unwrap()
        .iter()
        .map(|h| (h.position, h.earliest_after))
        .collect();
    assert_eq!(
        kept,
        vec![
            (3_000, CampaignTime(i64::MAX)),
            (second as u64, earliest(second).unwrap()),
            (1_000, earliest(1_000).unwrap()),
        ]
    );
    // And the wall times around each: the latest at or before it, the earliest after.
    let ms = |e: &Envelope| e.wall.timestamp_millis();
    let walls: Vec<(u64, i64, i64)> = log
        .snapshot_heads()
        .unwrap()
        .iter()
        .map(|h| (h.position, h.latest_wall_upto_ms, h.earliest_wall_after_ms))
        .collect();
    let bounds = |p: usize| {
        (
            p as u64,
            all[..p].iter().map(ms).max().unwrap(),
            all[p..].iter().map(ms).min().unwrap_or(i64::MAX),
        )
    };
    assert_eq!(walls, vec![bounds(3_000), bounds(second), bounds(1_000)]);
    let mut late = all[1_500].clone();
    late.id = EventId(uuid::Uuid::from_u128(11));
    late.seq = 1_000_000;
    late.clock = all[1_500].clock;
    // Entered late in the story too, and by a clock behind the others': before everything
    // after the checkpoint left.
    late.at = CampaignTime(earliest(1_000).unwrap().0 - 60);
    late.wall = all[1_000].wall - chrono::Duration::seconds(1);
    log.import(&[late.clone()]).unwrap();
    let heads: Vec<u64> = log
        .snapshot_heads()
        .unwrap()
        .iter()
        .map(|h| h.position)
        .collect();
    assert_eq!(
        heads,
        vec![1_000],
        "the checkpoints after the late event are gone"
    );
    let left = &log.snapshot_heads().unwrap()[0];
    assert_eq!(
        (left.earliest_after, left.earliest_wall_after_ms),
        (late.at, ms(&late)),
        "the late event is the earliest after the checkpoint left"
    );
    assert_eq!(left.latest_wall_upto_ms, ms(&all[999]));
    log.drop_snapshot(1_000).unwrap();
    assert!(log.snapshot_heads().unwrap().is_empty());
    // No checkpoint is kept that a ruling already in the log rules into: what it folds is
    // stale (the store drops such a checkpoint when the ruling arrives).
    let (ruling, target) = all
        .iter()
        .enumerate()
        .find_map(|(i, e)| match &e.event {
            Event::Ruling(r) => r
                .target()
                .and_then(|t| all.iter().position(|x| x.id == t))
                .map(|t| (i, t)),
            _ => None,
        })
        .unwrap();
    for (position, kept) in [(target + 1, false), (ruling + 1, true), (target, true)] {
        log.save_snapshot(&Snapshot {
            position: position as u64,
            last: all[position - 1].order_key(),
            fold_version: 1,
            payload: vec![1],
        })
        .unwrap();
        let held = log
            .snapshot_heads()
            .unwrap()
            .iter()
            .any(|h| h.position == position as u64);
        assert_eq!(held, kept, "a checkpoint of {position} events");
        if held {
            log.drop_snapshot(position as u64).unwrap();
        }
    }
}

/// The projection (head, entries, mark) and the fates kept apart for it and for each
/// checkpoint.
fn projection(log: &mut impl WriteLog, all: &[Envelope]) {
    // The projection: head, entries, mark; a partial write keeps the others, a whole one
    // drops them.
    let (a, b) = (
        leechbook_core::ids::CharacterId(uuid::Uuid::from_u128(1)),
        leechbook_core::ids::CharacterId(uuid::Uuid::from_u128(2)),
    );
    log.put_projection(
        b"head",
        &[(a, b"a1".to_vec()), (b, b"b1".to_vec())],
        true,
        (5, 4),
    )
    .unwrap();
    assert_eq!(log.projection_mark().unwrap(), Some((5, 4)));
    assert_eq!(log.projection_head().unwrap(), Some(b"head".to_vec()));
    let mut both = log.projection_characters(None).unwrap();
    both.sort();
    assert_eq!(both, vec![b"a1".to_vec(), b"b1".to_vec()]);
    log.put_projection(b"head2", &[(a, b"a2".to_vec())], false, (6, 4))
        .unwrap();
    assert_eq!(
        log.projection_characters(Some(&[a, b])).unwrap(),
        vec![b"a2".to_vec(), b"b1".to_vec()]
    );
    log.put_projection(b"head3", &[(b, b"b3".to_vec())], true, (7, 4))
        .unwrap();
    assert_eq!(
        log.projection_characters(None).unwrap(),
        vec![b"b3".to_vec()]
    );
    assert_eq!(log.projection_mark().unwrap(), Some((7, 4)));
    // What became of events, kept apart for the projection and each checkpoint; a
    // checkpoint's go with it.
    assert_eq!(log.fates(None).unwrap(), None);
    log.put_fates(None, b"f0").unwrap();
    log.put_fates(None, b"f1").unwrap();
    assert_eq!(log.fates(None).unwrap(), Some(b"f1".to_vec()));
    log.save_checkpoint(
        &Snapshot {
            position: 2_500,
            last: all[2_499].order_key(),
            fold_version: 1,
            payload: vec![9],
        },
        &[(a, b"a".to_vec())],
    )
    .unwrap();
    log.put_fates(Some(2_500), b"f2500").unwrap();
    assert_eq!(log.fates(Some(2_500)).unwrap(), Some(b"f2500".to_vec()));
    log.drop_snapshot(2_500).unwrap();
    assert_eq!(log.fates(Some(2_500)).unwrap(), None);
    assert_eq!(log.fates(None).unwrap(), Some(b"f1".to_vec()));
    archive_contract(log, all, a, b);
}

/// The archive of healed injuries: rows by character and the order key they were filed
/// after, read up to a moment; a rewrite drops what was filed after a point (or everything)
/// and keeps what came before.
fn archive_contract(
    log: &mut impl WriteLog,
    all: &[Envelope],
    a: leechbook_core::ids::CharacterId,
    b: leechbook_core::ids::CharacterId,
) {
    use leechbook_store::ArchiveRow;
    let row = |character, k: usize, key: u128, payload: &[u8]| ArchiveRow {
        character,
        since: all[k].order_key(),
        key: uuid::Uuid::from_u128(key),
        payload: payload.to_vec(),
        reopened: None,
    };
    assert!(log.archived(None, None).unwrap().is_empty());
    let rows = [
        row(a, 100, 1, b"a1"),
        row(b, 200, 2, b"b2"),
        row(a, 300, 3, b"a3"),
        row(a, 400, 1, b"a1 again"),
    ];
    // Filed out of order, read back by character in the order filed.
    log.put_archive(&[rows[2].clone(), rows[0].clone()], None)
        .unwrap();
    log.put_archive(&[rows[3].clone(), rows[1].clone()], None)
        .unwrap();
    let mut every = log.archived(None, None).unwrap();
    every.sort_by_key(|r| (r.character, r.since));
    assert_eq!(
        every,
        vec![
            rows[0].clone(),
            rows[2].clone(),
            rows[3].clone(),
            rows[1].clone()
        ]
    );
    assert_eq!(
        log.archived(Some(&[a]), None).unwrap(),
        vec![rows[0].clone(), rows[2].clone(), rows[3].clone()]
    );
    // Up to a moment: the rows filed at or before it.
    assert_eq!(
        log.archived(Some(&[a]), Some(all[300].order_key()))
            .unwrap(),
        vec![rows[0].clone(), rows[2].clone()]
    );
    assert_eq!(
        log.archived(Some(&[b]), Some(all[199].order_key()))
            .unwrap(),
        vec![]
    );
    // Filing one again replaces its record.
    let redone = row(a, 300, 3, b"a3 redone");
    log.put_archive(std::slice::from_ref(&redone), None)
        .unwrap();
    assert_eq!(
        log.archived(Some(&[a]), Some(all[300].order_key()))
            .unwrap(),
        vec![rows[0].clone(), redone.clone()]
    );
    // A rewrite after a point keeps what was filed up to it.
    let late = row(b, 350, 5, b"b5");
    log.put_archive(
        std::slice::from_ref(&late),
        Some(Some(all[250].order_key())),
    )
    .unwrap();
    let mut every = log.archived(None, None).unwrap();
    every.sort_by_key(|r| (r.character, r.since));
    assert_eq!(every, vec![rows[0].clone(), rows[1].clone(), late]);
    // A reopening is kept with its record; a rewrite after a point before it forgets it.
    let reopened = ArchiveRow {
        reopened: Some(all[500].order_key()),
        ..rows[0].clone()
    };
    log.put_archive(std::slice::from_ref(&reopened), None)
        .unwrap();
    assert_eq!(
        log.archived(Some(&[a]), None).unwrap(),
        vec![reopened.clone()]
    );
    log.put_archive(&[], Some(Some(all[450].order_key())))
        .unwrap();
    assert_eq!(
        log.archived(Some(&[a]), None).unwrap(),
        vec![rows[0].clone()]
    );
    // A rewrite from the start drops everything.
    log.put_archive(&[rows[1].clone()], Some(None)).unwrap();
    assert_eq!(log.archived(None, None).unwrap(), vec![rows[1].clone()]);
}

#[path = "conformance/contract.rs"]
mod contract;

/// A ledger whose checkpoints' entries were kept in the table without row ids (before
/// migration 21) opens with the same entries, now in a table with row ids, each found by
/// its position and character; and a checkpoint dropped still takes its entries with it.
#[test]
fn checkpoint_entries_kept_before_row_ids_read_the_same_after() {
    use leechbook_store::ReadLog;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.db");
    let (campaign, all) = synthetic();
    let ids: Vec<_> = (1..=3u128)
        .map(|n| leechbook_core::ids::CharacterId(uuid::Uuid::from_u128(n)))
        .collect();
    // Entries of a character's size (past a cell of a table without row ids), each its own.
    let entries: Vec<_> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| (*id, vec![i as u8 + 1; 2_000 + i * 700]))
        .collect();
    {
        let mut store = Store::create_joining(&path, campaign).unwrap();
        store.import(&all).unwrap();
        let snapshot = |position: usize| Snapshot {
            position: position as u64,
            last: all[position - 1].order_key(),
            fold_version: 1,
            payload: vec![9],
        };
        assert!(stands(&all, 2_500) && stands(&all, 1_000));
        store
            .save_checkpoint(&snapshot(1_000), &entries[..1])
            .unwrap();
        store.save_checkpoint(&snapshot(2_500), &entries).unwrap();
    }
    // The table as migration 7 made it, the entries in it, and the ledger one migration back.
    let version: i64 = raw(&path)
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    raw(&path)
        .execute_batch(&format!(
            "DROP TRIGGER snapshots_drop_entries;
             ALTER TABLE checkpoint_entries RENAME TO kept;
             CREATE TABLE checkpoint_entries (
                 position INTEGER NOT NULL, key BLOB NOT NULL, payload BLOB NOT NULL,
                 PRIMARY KEY (position, key)
             ) STRICT, WITHOUT ROWID;
             INSERT INTO checkpoint_entries SELECT position, key, payload FROM kept;
             DROP TABLE kept;
             CREATE TRIGGER snapshots_drop_entries AFTER DELETE ON snapshots
             BEGIN DELETE FROM checkpoint_entries WHERE position = old.position; END;
             PRAGMA user_version = {};",
            version - 1
        ))
        .unwrap();
    let table = |path: &Path| -> String {
        raw(path)
            .query_row(
                "SELECT sql FROM sqlite_schema WHERE name = 'checkpoint_entries'",
                [],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert!(table(&path).contains("WITHOUT ROWID"));
    let mut store = Store::open(&path).unwrap();
    assert!(!table(&path).contains("WITHOUT ROWID"), "{}", table(&path));
    // Each entry by its length and its bytes' value (the same bytes throughout).
    let shape = |entries: Vec<Vec<u8>>| -> Vec<(usize, u8)> {
        let mut out: Vec<_> = entries
            .iter()
            .filter(|e| e.iter().all(|b| Some(b) == e.first()))
            .map(|e| (e.len(), e[0]))
            .collect();
        out.sort();
        out
    };
    let read = |store: &Store, at: u64, ids: Option<&[leechbook_core::ids::CharacterId]>| {
        shape(store.checkpoint_characters(at, ids).unwrap())
    };
    assert_eq!(
        read(&store, 2_500, None),
        vec![(2_000, 1), (2_700, 2), (3_400, 3)]
    );
    assert_eq!(read(&store, 2_500, Some(&ids[2..])), vec![(3_400, 3)]);
    assert_eq!(read(&store, 1_000, None), vec![(2_000, 1)]);
    store.drop_snapshot(2_500).unwrap();
    assert_eq!(read(&store, 2_500, None), vec![]);
    assert_eq!(read(&store, 1_000, None), vec![(2_000, 1)]);
}
