//! The archive of healed injuries through the CLI: a healed wound leaves the character's
//! entry for the archive in the recording's transaction, every view still lists it (now, and
//! at any moment), a ruling that undoes the healing brings it back and rewrites the archive,
//! and `verify` finds the cache sound throughout.

use crate::common;
use common::Scratch;
use leechbook_store::{ReadLog, Store};

fn archived_rows(s: &Scratch) -> usize {
    Store::open(&s.db)
        .unwrap()
        .archived(None, None)
        .unwrap()
        .len()
}

#[test]
fn a_healed_wound_is_archived_listed_and_brought_back_by_a_ruling() {
    let s = Scratch::with_osric();
    // Effective 3 to the abdomen: M1E; its Healing Roll falls due on day 6.
    s.ok(&common::edge_strike("Osric", "abdomen", "3", "shock=12"));
    let id = s.show("Osric")["injuries"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let strike = last_event(&s);
    s.ok(&["advance", "5d"]);
    assert_eq!(archived_rows(&s), 0);
    s.ok(&["roll", "Osric", "healing", &id, "--dice", "roll=1"]);
    let heal = last_event(&s);
    // Filed in the recording's transaction, and still listed, healed, by `show`.
    assert_eq!(archived_rows(&s), 1);
    let v = s.show("Osric");
    assert_eq!(v["injuries"].as_array().unwrap().len(), 1);
    assert_eq!(v["injuries"][0]["id"], id.as_str());
    assert_eq!(v["injuries"][0]["healed"], true);
    // At the strike, the wound is open; at the healing roll, healed.
    let at = |event: &str| -> serde_json::Value {
        serde_json::from_str(&s.ok(&["show", "Osric", "--at", event, "--json"])).unwrap()
    };
    assert_eq!(at(&strike)["injuries"][0]["healed"], false);
    assert_eq!(at(&heal)["injuries"][0]["healed"], true);
    // Named again, it is refused as healed, and nothing is written.
    let before = s.bytes();
    let out = s.run(&[
        "roll", "Osric", "healing", &id, "--dice", "roll=1", "--force",
    ]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("has healed"), "{}", out.stderr);
    assert_eq!(s.bytes(), before);
    s.ok(&["verify"]);
    // Retracting the healing roll re-derives the record: the wound is open again and the
    // archive holds nothing.
    s.ok(&["retract", &heal, "--reason", "rolled for the wrong wound"]);
    assert_eq!(archived_rows(&s), 0);
    let v = s.show("Osric");
    assert_eq!(v["injuries"][0]["healed"], false);
    assert_eq!(v["injuries"][0]["code"], "M1E");
    s.ok(&["verify"]);
    // Healed again, then reopened by a GM's decree: the wound is back among the open ones.
    s.ok(&["roll", "Osric", "healing", &id, "--dice", "roll=1"]);
    assert_eq!(s.show("Osric")["injuries"][0]["healed"], true);
    s.ok(&[
        "override",
        "Osric",
        "--injury",
        &id,
        "--level",
        "1",
        "--reason",
        "it reopened",
    ]);
    let v = s.show("Osric");
    assert_eq!(v["injuries"].as_array().unwrap().len(), 1);
    assert_eq!(v["injuries"][0]["healed"], false);
    s.ok(&["verify"]);
}

fn last_event(s: &Scratch) -> String {
    Store::open(&s.db)
        .unwrap()
        .events()
        .unwrap()
        .last()
        .unwrap()
        .id
        .to_string()
}
