//! `verify` checks what it says: every signature against the roster, each device's
//! numbering, the indexed columns against the payload, and the sync document against the
//! log. The ledger file is edited past the store (its append-only triggers dropped), as
//! someone editing it by hand would.

use crate::common;
use common::Scratch;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::Event;
use leechbook_store::{codec, Store};

/// The ledger file opened past the store, with the append-only triggers dropped.
fn tamper(db: &std::path::Path) -> rusqlite::Connection {
    let c = rusqlite::Connection::open(db).unwrap();
    c.execute_batch("DROP TRIGGER events_no_update; DROP TRIGGER events_no_delete;")
        .unwrap();
    c
}

/// Issue 12, item 25: an edited payload, an edited campaign-time column and a deleted row are
/// each reported with the event's id.
#[test]
fn verify_names_an_edited_payload_an_edited_time_and_a_deleted_row() {
    let s = Scratch::with_osric();
    s.ok(&common::thorax_strike("Osric", "6", "shock=12"));
    for _ in 0..3 {
        s.ok(&["advance", "1h"]);
    }
    // The sync document beside the log: it names a deleted row.
    let dir = tempfile::tempdir().unwrap();
    s.ok(&[
        "sync",
        "export",
        dir.path().join("x.sync").to_str().unwrap(),
    ]);
    assert!(s.ok(&["verify"]).contains("the ledger is sound"));
    let events = Store::open(&s.db).unwrap().events().unwrap();
    let strike = events
        .iter()
        .find(|e| e.event.kind() == "hm.strike")
        .unwrap()
        .clone();
    let clocks: Vec<_> = events
        .iter()
        .filter(|e| e.event.kind() == "clock-advanced")
        .cloned()
        .collect();
    assert_eq!(clocks.len(), 3);
    let c = tamper(&s.db);
    let mut edited = strike.event.clone();
    if let Event::HarnMaster(HmEvent::Strike(x)) = &mut edited {
        x.av += 3; // still decodes and still applies: only the signature can tell
    }
    c.execute(
        "UPDATE events SET payload = ?1 WHERE id = ?2",
        rusqlite::params![
            codec::encode_event(&edited),
            strike.id.as_bytes().as_slice()
        ],
    )
    .unwrap();
    c.execute(
        "UPDATE events SET at = at + 600 WHERE id = ?1",
        [clocks[2].id.as_bytes().as_slice()],
    )
    .unwrap();
    c.execute(
        "DELETE FROM events WHERE id = ?1",
        [clocks[0].id.as_bytes().as_slice()],
    )
    .unwrap();
    drop(c);
    let out = s.run(&["verify", "--full"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    for (what, id) in [
        ("edited payload", strike.id),
        ("edited time", clocks[2].id),
        ("deleted row", clocks[0].id),
    ] {
        assert!(
            out.stdout.contains(&id.to_string()),
            "the {what} ({id}) is not named:\n{}",
            out.stdout
        );
    }
    assert!(out.stdout.contains("are missing"), "{}", out.stdout);
    assert!(out.stdout.contains("PROBLEMS FOUND"), "{}", out.stdout);
    let json = s.run(&["verify", "--full", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["sound"], false);
}

/// Issue 43: `verify` hashes each event's link from its payload as stored. A payload edited
/// into other bytes that decode to the very same event (the event's variant written as a
/// wider integer than bincode writes) is the same event: its signature and its chain still
/// hold, as they did when links were hashed from the event encoded again, and the ledger is
/// sound. An edit that changes the event is still named (the test above).
#[test]
fn verify_links_a_payload_written_otherwise_as_the_same_event() {
    let s = Scratch::with_osric();
    s.ok(&common::thorax_strike("Osric", "6", "shock=12"));
    s.ok(&["advance", "1h"]);
    let strike = common::first_of_kind(&s.db, "hm.strike");
    let canonical = codec::encode_event(&strike.event);
    // The codec byte, then the variant's index: one byte below 251, or 251 and two bytes.
    assert!(canonical[1] < 251);
    let mut wider = vec![canonical[0], 251, canonical[1], 0];
    wider.extend_from_slice(&canonical[2..]);
    assert_eq!(
        codec::decode_event(strike.schema, &wider).unwrap(),
        strike.event
    );
    let c = tamper(&s.db);
    c.execute(
        "UPDATE events SET payload = ?1 WHERE id = ?2",
        rusqlite::params![wider, strike.id.as_bytes().as_slice()],
    )
    .unwrap();
    drop(c);
    let out = s.run(&["verify", "--full"]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert!(out.stdout.contains("the ledger is sound"), "{}", out.stdout);
}

/// Issue 12, item 25: the indexed columns are checked against the payload they come from.
#[test]
fn verify_checks_the_indexed_columns() {
    let s = Scratch::with_osric();
    s.ok(&common::thorax_strike("Osric", "6", "shock=12"));
    let strike = common::first_of_kind(&s.db, "hm.strike");
    tamper(&s.db)
        .execute(
            "UPDATE events SET kind = 'hm.option-set' WHERE id = ?1",
            [strike.id.as_bytes().as_slice()],
        )
        .unwrap();
    let out = s.run(&["verify", "--full"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.contains(&format!(
            "event {}: its kind column says hm.option-set",
            strike.id
        )),
        "{}",
        out.stdout
    );
}

/// Issue 28: a ruling whose class column says it is of the story would be missed by every
/// read of the rulings (they go through the partial index of the record's events): the
/// GM's retraction would silently stop acting. `verify` names it.
#[test]
fn verify_names_a_ruling_hidden_from_the_rulings_index() {
    let s = Scratch::with_osric();
    s.ok(&common::thorax_strike("Osric", "6", "shock=12"));
    let strike = Store::open(&s.db).unwrap().events().unwrap();
    let strike = strike
        .iter()
        .find(|e| e.event.kind() == "hm.strike")
        .unwrap();
    s.ok(&[
        "retract",
        &strike.id.to_string(),
        "--reason",
        "wrong target",
    ]);
    assert!(s.ok(&["verify", "--full"]).contains("the ledger is sound"));
    let ruling = common::first_of_kind(&s.db, "ruling.retract");
    tamper(&s.db)
        .execute(
            "UPDATE events SET class = 0 WHERE id = ?1",
            [ruling.id.as_bytes().as_slice()],
        )
        .unwrap();
    let out = s.run(&["verify", "--full"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains(&format!(
            "event {}: its class column says it is of the story, its payload that it is about \
             the record (the roster's and the rulings' reads would miss it)",
            ruling.id
        )),
        "{}",
        out.stdout
    );
}

/// Issue 27: `verify` streams the log and judges each snapshot where the stream reaches it.
/// A snapshot that a later ruling straddles (the ruling strikes an event before it: the
/// store never keeps one, but a ledger file edited by hand, or put back from a copy, may)
/// holds the record as it stood at its place, which the stream's fold (under every ruling)
/// is not, so its prefix is folded again under the rulings made by then: a true one is ok,
/// one holding the record as struck since is wrong for its place and dropped.
#[test]
fn verify_judges_a_snapshot_a_later_ruling_straddles_by_the_record_then() {
    use leechbook_core::fold::{Ledger, FOLD_VERSION};
    use leechbook_store::Snapshot;
    let s = Scratch::with_osric();
    s.ok(&common::thorax_strike("Osric", "6", "shock=12"));
    s.ok(&["advance", "1h"]);
    let events = Store::open(&s.db).unwrap().events().unwrap();
    let n = events.len();
    let strike = events
        .iter()
        .find(|e| e.event.kind() == "hm.strike")
        .unwrap()
        .id;
    // A snapshot at the log's end as it stands (the strike standing), kept aside as rows.
    let save = |state: &Ledger| {
        let mut store = Store::open(&s.db).unwrap();
        store.drop_snapshot(n as u64).unwrap();
        store
            .save_snapshot(&Snapshot {
                position: n as u64,
                last: events[n - 1].order_key(),
                fold_version: FOLD_VERSION,
                payload: codec::encode_ledger(state),
            })
            .unwrap();
    };
    let rows = |db: &std::path::Path| -> Vec<(String, Vec<Vec<rusqlite::types::Value>>)> {
        let c = rusqlite::Connection::open(db).unwrap();
        [
            ("snapshots", "position"),
            ("checkpoint_entries", "position"),
            ("fates", "scope"),
        ]
        .iter()
        .map(|(t, at)| {
            let mut stmt = c
                .prepare(&format!("SELECT * FROM {t} WHERE {at} = {n}"))
                .unwrap();
            let cols = stmt.column_count();
            let got = stmt
                .query_map([], |r| (0..cols).map(|i| r.get(i)).collect())
                .unwrap()
                .map(Result::unwrap)
                .collect();
            (t.to_string(), got)
        })
        .collect()
    };
    let put_back = |db: &std::path::Path, kept: &[(String, Vec<Vec<rusqlite::types::Value>>)]| {
        let c = rusqlite::Connection::open(db).unwrap();
        for (t, rs) in kept {
            for r in rs {
                let marks = vec!["?"; r.len()].join(", ");
                c.execute(
                    &format!("INSERT OR REPLACE INTO {t} VALUES ({marks})"),
                    rusqlite::params_from_iter(r.iter()),
                )
                .unwrap();
            }
        }
    };
    let then = Ledger::fold(&events);
    save(&then);
    let true_rows = rows(&s.db);
    // The record as struck since, cut at the same place: wrong for the snapshot's place.
    let struck: Vec<_> = events.iter().filter(|e| e.id != strike).cloned().collect();
    let wrong = Ledger::fold(&struck);
    assert_ne!(
        wrong.character_named("Osric"),
        then.character_named("Osric")
    );
    save(&wrong);
    let wrong_rows = rows(&s.db);
    // The ruling after it: the store drops the snapshot it straddles; the file is put back.
    s.ok(&[
        "retract",
        &strike.to_string(),
        "--reason",
        "wrong character",
    ]);
    put_back(&s.db, &true_rows);
    let out = s.ok(&["verify"]);
    assert!(out.contains(&format!("snapshot at {n}: ok")), "{out}");
    assert!(out.contains("the ledger is sound"), "{out}");
    put_back(&s.db, &wrong_rows);
    let out = s.run(&["verify", "--full"]);
    assert!(
        out.stdout.contains(&format!(
            "snapshot at {n}: differs from the fold of its events; dropped"
        )),
        "{}",
        out.stdout
    );
}

/// Issue 27: a ledger verified before has only what came since checked, and `verify` says
/// so; an event edited among the new ones is found; one edited before the last verify is
/// found by `verify --full`, which the incremental report names.
#[test]
fn verify_checks_what_came_since_the_last_verify_and_says_so() {
    let s = Scratch::with_osric();
    s.ok(&common::thorax_strike("Osric", "6", "shock=12"));
    let first = s.ok(&["verify"]);
    assert!(first.starts_with("checked everything"), "{first}");
    assert!(first.contains("the ledger is sound"), "{first}");
    for _ in 0..3 {
        s.ok(&["advance", "1h"]);
    }
    let out = s.ok(&["verify"]);
    assert!(
        out.contains("checked the 3 events recorded or taken in since the last verify")
            && out.contains("verify --full")
            && out.contains("3 new events since the last verify; they are sound"),
        "{out}"
    );
    // Nothing new: nothing to check, and said.
    assert!(s
        .ok(&["verify"])
        .contains("0 new events since the last verify"));
    // A new event edited after it was recorded: its chain and signature give it away.
    s.ok(&["advance", "2h"]);
    let events = Store::open(&s.db).unwrap().events().unwrap();
    let last = events.last().unwrap();
    let mut moved = last.clone();
    moved.at = leechbook_core::time::CampaignTime(last.at.0 + 3600);
    tamper(&s.db)
        .execute(
            "UPDATE events SET at = ?1 WHERE id = ?2",
            rusqlite::params![moved.at.0, last.id.as_bytes().as_slice()],
        )
        .unwrap();
    let out = s.run(&["verify"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains(&format!("event {}", last.id)) && out.stdout.contains("PROBLEMS FOUND"),
        "{}",
        out.stdout
    );
    // An event before the last sound verify, edited: not checked again by default (said),
    // found by --full.
    let strike = events
        .iter()
        .find(|e| e.event.kind() == "hm.strike")
        .unwrap();
    // (The append-only triggers are already dropped.)
    rusqlite::Connection::open(&s.db)
        .unwrap()
        .execute(
            "UPDATE events SET at = at + 60 WHERE id = ?1",
            [strike.id.as_bytes().as_slice()],
        )
        .unwrap();
    let full = s.run(&["verify", "--full"]);
    assert_eq!(full.code, 1);
    assert!(
        full.stdout.contains(&format!("event {}", strike.id)),
        "{}",
        full.stdout
    );
}

/// Issue 26: `verify` while another process records reads one snapshot of the log, so it
/// reports no false problem (it compared a fold of the log with a state read a moment
/// later, which held an event more).
#[test]
fn verify_during_writes_reports_no_false_problem() {
    let s = Scratch::with_osric();
    s.ok(&common::thorax_strike("Osric", "6", "shock=12"));
    let db = s.db.clone();
    let writer = std::thread::spawn(move || {
        for _ in 0..40 {
            let out = common::run_db(&db, &["advance", "1m", "--skip-owed"]);
            assert_eq!(out.code, 0, "{}", out.stderr);
        }
    });
    for i in 0..12 {
        let args: &[&str] = if i % 2 == 0 {
            &["verify", "--full"]
        } else {
            &["verify"]
        };
        let out = s.run(args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stdout);
    }
    writer.join().unwrap();
    // Whatever the writes left unchecked, the next verify checks.
    let out = s.ok(&["verify"]);
    assert!(out.contains("sound"), "{out}");
}

/// Issue 27: `verify --full` compares the state every command starts from with its fold one
/// character at a time (so it holds one character beside the fold, not a second campaign):
/// a character's projection entry left as it stood before a strike is found.
#[test]
fn verify_finds_a_stale_character_in_the_state_commands_start_from() {
    let s = Scratch::with_osric();
    let osric = Store::open(&s.db)
        .unwrap()
        .events()
        .unwrap()
        .iter()
        .find(|e| e.event.kind() == "character-added")
        .unwrap()
        .id;
    let key = osric.0.as_bytes().to_vec();
    let entry = |db: &std::path::Path| -> Vec<u8> {
        rusqlite::Connection::open(db)
            .unwrap()
            .query_row(
                "SELECT payload FROM projection WHERE key = ?1",
                [&key],
                |r| r.get(0),
            )
            .unwrap()
    };
    let before = entry(&s.db);
    s.ok(&common::thorax_strike("Osric", "6", "shock=12"));
    assert!(s.ok(&["verify", "--full"]).contains("the ledger is sound"));
    assert_ne!(entry(&s.db), before);
    rusqlite::Connection::open(&s.db)
        .unwrap()
        .execute(
            "UPDATE projection SET payload = ?1 WHERE key = ?2",
            rusqlite::params![before, key],
        )
        .unwrap();
    let out = s.run(&["verify", "--full"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout
            .contains("the snapshot-and-tail fold differs from the full fold"),
        "{}",
        out.stdout
    );
}

/// Issue 27: the index of what each event reaches (which the audits of one character read)
/// is checked against the payloads: a row deleted from it, or one added, is named.
#[test]
fn verify_checks_the_index_of_what_events_reach() {
    let s = Scratch::new();
    common::swordsmen(&s.db, &["Attacker", "Defender"]);
    s.ok(&[
        "melee",
        "Attacker",
        "Defender",
        "--weapon",
        "broadsword",
        "--mode",
        "edge",
        "--defence",
        "dodge",
        "--dice",
        "attack=35,defence=71,zone=4,location=7,impact=8,shock=12",
    ]);
    assert!(s.ok(&["verify", "--full"]).contains("the ledger is sound"));
    let c = rusqlite::Connection::open(&s.db).unwrap();
    let (character, event): (Vec<u8>, i64) = c
        .query_row("SELECT character, event FROM reach", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    c.execute("DELETE FROM reach", []).unwrap();
    let out = s.run(&["verify", "--full"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout
            .contains("the index of what events reach lacks character"),
        "{}",
        out.stdout
    );
    c.execute(
        "INSERT INTO reach (character, event) VALUES (?1, ?2), (?1, ?3)",
        rusqlite::params![character, event, event - 1],
    )
    .unwrap();
    let out = s.run(&["verify", "--full"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains("which its payload does not reach")
            && !out.stdout.contains("lacks character"),
        "{}",
        out.stdout
    );
}

/// Issue 38: the ceiling on clocks is the whole log's, not the stretch a plain verify
/// streams: on a ledger of more events than the ceiling's room, the events recorded since
/// the last verify are sound (they were named as clocked past what "their" few events reach).
#[test]
fn a_plain_verify_judges_clocks_against_the_whole_log() {
    let s = Scratch::with_osric();
    let advance = |s: &Scratch, from: i64, n: i64| {
        let mut store = Store::open(&s.db).unwrap();
        let mut w = store.write().unwrap();
        for i in 1..=n {
            let to = leechbook_core::time::CampaignTime(from + 60 * i);
            let env = w
                .prepare(
                    leechbook_core::Event::ClockAdvanced { to },
                    to,
                    chrono::Utc::now(),
                )
                .unwrap();
            w.append(&env).unwrap();
        }
        w.commit().unwrap();
    };
    advance(&s, 0, 5_000);
    assert!(s.ok(&["verify"]).contains("the ledger is sound"));
    advance(&s, 5_000 * 60, 10);
    let out = s.ok(&["verify"]);
    assert!(
        out.contains("10 new events since the last verify; they are sound"),
        "{out}"
    );
}
