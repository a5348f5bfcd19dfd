//! `verify` checks what it says: every signature against the roster, each device's
//! numbering, the indexed columns against the payload, and the sync document against the
//! log. The ledger file is edited past the store (its append-only triggers dropped), as
//! someone editing it by hand would.

mod common;
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
    let out = s.run(&["verify"]);
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
    let json = s.run(&["verify", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["sound"], false);
}

/// Issue 12, item 25: the indexed columns are checked against the payload they come from.
#[test]
fn verify_checks_the_indexed_columns() {
    let s = Scratch::with_osric();
    s.ok(&common::thorax_strike("Osric", "6", "shock=12"));
    let strike = Store::open(&s.db)
        .unwrap()
        .events()
        .unwrap()
        .into_iter()
        .find(|e| e.event.kind() == "hm.strike")
        .unwrap();
    tamper(&s.db)
        .execute(
            "UPDATE events SET kind = 'hm.option-set' WHERE id = ?1",
            [strike.id.as_bytes().as_slice()],
        )
        .unwrap();
    let out = s.run(&["verify"]);
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
