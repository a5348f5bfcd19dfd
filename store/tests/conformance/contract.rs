//! The log's contract on both stores (SQLite and memory): its reads, its transaction, its
//! indexes and its checkpoints.

use super::*;

#[test]
fn the_log_contract_on_a_sqlite_file() {
    let dir = tempfile::tempdir().unwrap();
    let (campaign, all) = synthetic();
    let mut store = Store::create_joining(&dir.path().join("log.db"), campaign).unwrap();
    log_contract(&mut store, &all);
}

#[test]
fn the_log_contract_in_memory() {
    let (campaign, all) = synthetic();
    log_contract(&mut MemoryLog::new(campaign), &all);
}

/// The roster's events and the rulings are read through the partial index of the events
/// about the record (`class = 1`, migration 16), which SQLite uses only while the reads say
/// what its condition says.
#[test]
fn the_roster_and_the_rulings_are_read_through_their_partial_index() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.db");
    drop(Store::create(&path).unwrap());
    let conn = raw(&path);
    for (condition, index) in [
        (leechbook_store::ROSTER_KINDS, "events_rare"),
        (leechbook_store::RULING_KINDS, "events_rare"),
    ] {
        let plan: Vec<String> = conn
            .prepare(&format!(
                "EXPLAIN QUERY PLAN SELECT payload FROM events {condition} \
                 ORDER BY clock, device, seq"
            ))
            .unwrap()
            .query_map([], |r| r.get::<_, String>(3))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert!(
            plan.iter()
                .any(|p| p.contains(&format!("USING INDEX {index}"))),
            "{condition}: {plan:?}"
        );
    }
}

/// The GM's amendments after a place, on both stores alike: every other retraction of the
/// synthetic campaign made an amendment of its target, read back from many places; on
/// SQLite through the partial index of the record's events.
#[test]
fn the_amendments_after_a_place_are_those_of_the_log() {
    use leechbook_core::ruling::Ruling;
    use leechbook_store::{ReadLog, WriteLog};
    let (campaign, mut all) = synthetic();
    let mut n = 0;
    for i in 0..all.len() {
        if let Event::Ruling(Ruling::Retract { target, reason }) = &all[i].event {
            n += 1;
            if n % 2 == 0 {
                let replacement = all.iter().find(|e| e.id == *target).unwrap().event.clone();
                all[i].event = Event::Ruling(Ruling::Amend {
                    target: *target,
                    replacement: Box::new(replacement),
                    reason: reason.clone(),
                });
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log.db");
    let mut file = Store::create_joining(&path, campaign).unwrap();
    file.import(&all).unwrap();
    let mut memory = MemoryLog::new(campaign);
    memory.import(&all).unwrap();
    let amendments: Vec<&Envelope> = all
        .iter()
        .filter(|e| e.event.kind() == "ruling.amend")
        .collect();
    assert!(amendments.len() > 2);
    for after in all.iter().step_by(97).map(Envelope::order_key) {
        let expected: Vec<Envelope> = amendments
            .iter()
            .filter(|e| e.order_key() > after)
            .map(|e| (*e).clone())
            .collect();
        assert_eq!(file.amendments_after(after).unwrap(), expected);
        assert_eq!(memory.amendments_after(after).unwrap(), expected);
    }
    let plan: Vec<String> = raw(&path)
        .prepare(&format!(
            "EXPLAIN QUERY PLAN SELECT payload FROM events {} ORDER BY clock, device, seq",
            leechbook_store::AMENDMENTS_FROM
        ))
        .unwrap()
        .query_map([0], |r| r.get::<_, String>(3))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(
        plan.iter().any(|p| p.contains("USING INDEX events_rare")),
        "{plan:?}"
    );
}

/// The campaign's own events, which every audit of a character reads, come whole and in the
/// total order from their covering index: no row of the table is visited and nothing sorted;
/// a character's, by a range of their index.
#[test]
fn the_campaign_events_are_read_from_their_covering_index() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.db");
    drop(Store::create(&path).unwrap());
    let plan: Vec<String> = raw(&path)
        .prepare(&format!(
            "EXPLAIN QUERY PLAN SELECT id, campaign, device, seq, clock, wall_ms, at, schema, \
             payload, signature FROM events {} ORDER BY clock, device, seq",
            leechbook_store::CAMPAIGN_EVENTS
        ))
        .unwrap()
        .query_map([], |r| r.get::<_, String>(3))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(plan, ["SCAN events USING COVERING INDEX events_campaign"]);
    // A character's events within a stretch: a range of the index by character and clock
    // (migration 20), never the character's whole story.
    let plan: Vec<String> = raw(&path)
        .prepare(
            "EXPLAIN QUERY PLAN SELECT payload FROM events \
             WHERE character = ?1 AND clock BETWEEN ?2 AND ?3",
        )
        .unwrap()
        .query_map(rusqlite::params![vec![0u8; 16], 10, 20], |r| {
            r.get::<_, String>(3)
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        plan,
        ["SEARCH events USING INDEX events_about (character=? AND clock>? AND clock<?)"]
    );
}

/// The log keeps exactly the indexes its reads use: each costs every append a b-tree insert
/// (migration 11 dropped the index by character, which no read used then; migration 15
/// brought it back for the audits of one character, `events_about`).
#[test]
fn the_log_keeps_only_the_indexes_its_reads_use() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.db");
    drop(Store::create(&path).unwrap());
    let conn = raw(&path);
    let mut names: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'")
        .unwrap()
        .query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "events_about",
            // The campaign's own events, whole (migration 19).
            "events_campaign",
            "events_order",
            "events_rare",
            // UNIQUE (id) and UNIQUE (device, seq).
            "sqlite_autoindex_events_1",
            "sqlite_autoindex_events_2",
        ]
    );
}

#[test]
fn the_transaction_contract_on_a_sqlite_file() {
    let dir = tempfile::tempdir().unwrap();
    let (campaign, all) = synthetic();
    let mut store = Store::create_joining(&dir.path().join("log.db"), campaign).unwrap();
    let public = store.public_key();
    transaction_contract(&mut store, &all, public);
}

#[test]
fn the_transaction_contract_in_memory() {
    let (campaign, all) = synthetic();
    let secret = [3u8; 32];
    let public = ed25519_dalek::SigningKey::from_bytes(&secret)
        .verifying_key()
        .to_bytes();
    let device = DeviceId(uuid::Uuid::from_u128(77));
    let mut log = MemoryLog::with_device(campaign, device, secret);
    transaction_contract(&mut log, &all, public);
}

/// The checkpoints a ledger kept before the store tracked the times around each (migrations
/// 12 and 14) learn them when the ledger is opened: one pass over the log gives each the
/// earliest campaign and wall times after it and the latest wall time at or before it.
#[test]
fn checkpoints_kept_before_learn_the_earliest_time_after_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let (campaign, mut all) = synthetic();
    // Two events entered late in the story and by a clock behind the others': before what
    // precedes them in the log; one by a clock ahead.
    // The checkpoints, each where no later ruling rules into it (the store keeps none that
    // one does).
    let stands = |p: usize| stands(&all, p);
    let at: Vec<u64> = [500, 1_000, 2_000, 3_000]
        .into_iter()
        .map(|p| (p..).find(|&p| stands(p)).unwrap() as u64)
        .collect();
    let second = at[2] as usize;
    for (i, before) in [(1_200, 1_000), (2_600, second)] {
        all[i].at = CampaignTime(all[before].at.0 - 60);
        all[i].wall = all[before].wall - chrono::Duration::seconds(1);
    }
    all[700].wall = all[1_500].wall;
    {
        let mut store = Store::create_joining(&path, campaign).unwrap();
        store.import(&all).unwrap();
        for &p in &at {
            store
                .save_snapshot(&Snapshot {
                    position: p,
                    last: all[p as usize - 1].order_key(),
                    fold_version: 1,
                    payload: vec![1],
                })
                .unwrap();
        }
    }
    // As the ledger was before migration 12.
    raw(&path)
        .execute_batch(
            "ALTER TABLE snapshots DROP COLUMN earliest_after;
             ALTER TABLE snapshots DROP COLUMN latest_wall_upto;
             ALTER TABLE snapshots DROP COLUMN earliest_wall_after;
             DROP TABLE log_bounds;
             DROP INDEX events_about;
             DROP TABLE reach;
             DROP INDEX events_rare;
             ALTER TABLE events DROP COLUMN class;
             DROP TABLE links;
             DROP TABLE sealed;
             DROP INDEX events_campaign;
             CREATE INDEX events_rare ON events (clock, device, seq, kind)
                 WHERE kind = 'campaign-created' OR (kind > 'r' AND kind < 's');
             PRAGMA user_version = 11;",
        )
        .unwrap();
    // The migrations since 11 to apply over the log's events (what the CLI says it is doing).
    assert_eq!(
        Store::migrations_pending(&path),
        (
            leechbook_store::schema::MIGRATIONS.len() - 11,
            all.len() as u64
        )
    );
    let store = Store::open(&path).unwrap();
    assert_eq!(Store::migrations_pending(&path), (0, 0));
    // Migration 16 classed the record's events: the roster's and the rulings' reads, which
    // go through `class = 1`, find every one of them.
    let rulings = all
        .iter()
        .filter(|e| e.event.kind().starts_with("ruling."))
        .count();
    let roster = all
        .iter()
        .filter(|e| e.event.kind() == "campaign-created" || e.event.kind().starts_with("roster."))
        .count();
    assert!(rulings > 0 && roster > 0);
    let read = leechbook_store::ReadLog::roster_events(&store).unwrap();
    assert_eq!(read.len(), roster);
    let read = leechbook_store::ReadLog::rulings_and_targets(&store).unwrap();
    assert_eq!(
        read.iter()
            .filter(|e| e.event.kind().starts_with("ruling."))
            .count(),
        rulings
    );
    let heads: Vec<(u64, CampaignTime)> = leechbook_store::ReadLog::snapshot_heads(&store)
        .unwrap()
        .iter()
        .map(|h| (h.position, h.earliest_after))
        .collect();
    let earliest = |p: u64| {
        all[p as usize..]
            .iter()
            .map(|e| e.at)
            .min()
            .unwrap_or(CampaignTime(i64::MAX))
    };
    assert_eq!(
        heads,
        at.iter()
            .rev()
            .map(|&p| (p, earliest(p)))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        earliest(at[2]),
        all[2_600].at,
        "the late event is the earliest after 2,000"
    );
    let ms = |e: &Envelope| e.wall.timestamp_millis();
    let walls: Vec<(u64, i64, i64)> = leechbook_store::ReadLog::snapshot_heads(&store)
        .unwrap()
        .iter()
        .map(|h| (h.position, h.latest_wall_upto_ms, h.earliest_wall_after_ms))
        .collect();
    let bounds = |p: u64| {
        let p = p as usize;
        (
            p as u64,
            all[..p].iter().map(ms).max().unwrap(),
            all[p..].iter().map(ms).min().unwrap_or(i64::MAX),
        )
    };
    assert_eq!(
        walls,
        at.iter().rev().map(|&p| bounds(p)).collect::<Vec<_>>()
    );
    assert_eq!(
        bounds(1_000).1,
        ms(&all[700]),
        "a clock ahead is the latest by 1,000"
    );
}

/// The write transaction every backend gives a replica: its reads see its writes, a commit
/// keeps them all and a drop none; `prepare` numbers the device's events on from the log's
/// (one clock past every clock, the device's next sequence number) and signs them.
fn transaction_contract<L: leechbook_store::Log>(log: &mut L, all: &[Envelope], public: [u8; 32]) {
    use leechbook_store::{ReadLog, Transaction};
    let wall = chrono::DateTime::<chrono::Utc>::UNIX_EPOCH;
    log.import(all).unwrap();
    let clocks = all.iter().map(|e| e.clock).max().unwrap();
    log.save_snapshot(&Snapshot {
        position: all.len() as u64,
        last: all.last().unwrap().order_key(),
        fold_version: 1,
        payload: b"state".to_vec(),
    })
    .unwrap();
    // Dropped: nothing kept, not the event nor the projection, and the checkpoint its append
    // made stale is back.
    {
        let mut tx = log.write().unwrap();
        // A ruling on an event the checkpoint folds makes the checkpoint stale.
        let ruling = Event::Ruling(leechbook_core::ruling::Ruling::Retract {
            target: all[100].id,
            reason: "a mistake".into(),
        });
        let env = tx.prepare(ruling, CampaignTime(5), wall).unwrap();
        assert_eq!((env.clock, env.seq), (clocks + 1, 1));
        assert!(
            leechbook_store::codec::verify(&env, &public),
            "signed by the device"
        );
        tx.append(&env).unwrap();
        assert!(
            tx.snapshot_heads().unwrap().is_empty(),
            "the ruling's append made it stale"
        );
        assert!(tx.append(&env).is_err(), "an id the log holds is refused");
        tx.put_projection(b"head", &[], true, (1, 1)).unwrap();
        assert_eq!(
            tx.events().unwrap().len(),
            all.len() + 1,
            "the transaction reads its write"
        );
        assert!(tx.holds(env.id).unwrap());
    }
    assert_eq!(
        log.events().unwrap(),
        all,
        "a dropped transaction keeps nothing"
    );
    assert_eq!(log.projection_mark().unwrap(), None);
    assert_eq!(
        log.snapshot_heads().unwrap().len(),
        1,
        "the checkpoint is back"
    );
    // Committed: both events kept, numbered on from each other.
    let mut tx = log.write().unwrap();
    let a = tx.prepare(character("A"), CampaignTime(5), wall).unwrap();
    tx.append(&a).unwrap();
    let b = tx.prepare(character("B"), CampaignTime(5), wall).unwrap();
    tx.append(&b).unwrap();
    assert_eq!((b.clock, b.seq), (a.clock + 1, a.seq + 1));
    tx.commit().unwrap();
    {
        let read = log.read().unwrap();
        let events = read.events().unwrap();
        assert_eq!(events.len(), all.len() + 2);
        assert_eq!(&events[all.len()..], &[a, b.clone()]);
    }
    assert_eq!(
        log.snapshot_heads().unwrap()[0].earliest_after,
        CampaignTime(5),
        "an append is after every checkpoint"
    );
    // The next transaction numbers on from the device's events the log holds.
    let mut tx = log.write().unwrap();
    let c = tx.prepare(character("C"), CampaignTime(5), wall).unwrap();
    assert_eq!((c.clock, c.seq), (b.clock + 1, b.seq + 1));
}
