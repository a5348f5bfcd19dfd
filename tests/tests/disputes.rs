//! Disputes: two devices record offline what the rules accept only once; after they sync,
//! `disputes` lists both sides on every device, the earlier event stands, and a GM ruling
//! closes the dispute.

use crate::common;
use common::{identity, Scratch};
use serde_json::Value;

/// The GM's device and a co-GM's device, both holding Osric's S2E abdomen.
fn two_gms() -> (Scratch, Scratch, tempfile::TempDir, String) {
    let a = Scratch::with_osric();
    a.ok(&common::edge_strike("Osric", "abdomen", "8", "shock=12"));
    let injury = a.show("Osric")["injuries"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let dir = tempfile::tempdir().unwrap();
    let seed = dir.path().join("seed.sync");
    a.ok(&["sync", "invite", seed.to_str().unwrap()]);
    let b = Scratch::new();
    b.ok(&["init", "--join", seed.to_str().unwrap()]);
    let (device, key) = identity(&b.db);
    a.ok(&["device", "add", &device, &key, "--role", "gm"]);
    sync(&a, &b, dir.path());
    (a, b, dir, injury)
}

fn sync(from: &Scratch, to: &Scratch, dir: &std::path::Path) {
    let out = common::carry(&from.db, &to.db, dir);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

fn disputes(s: &Scratch) -> Vec<Value> {
    serde_json::from_str::<Value>(&s.ok(&["disputes", "--json"]))
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// The ids of the log's events of a kind, in the total order.
fn ids_of(s: &Scratch, kind: &str) -> Vec<String> {
    let log: Value = serde_json::from_str(&s.ok(&["log", "--json"])).unwrap();
    log.as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == kind)
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn two_treatments_of_one_injury_are_a_dispute_until_the_gm_retracts_one() {
    let (a, b, dir, injury) = two_gms();
    assert!(disputes(&a).is_empty());
    // Offline, each device records the treatment of the same injury.
    a.ok(&[
        "treat",
        "Osric",
        &injury,
        "--physician",
        "50",
        "--dice",
        "treatment=62",
    ]);
    b.ok(&[
        "treat",
        "Osric",
        &injury,
        "--physician",
        "50",
        "--dice",
        "treatment=30",
    ]);
    sync(&a, &b, dir.path());
    sync(&b, &a, dir.path());
    let treatments = ids_of(&a, "hm.treatment");
    assert_eq!(treatments.len(), 2);
    let d = disputes(&a);
    assert_eq!(d.len(), 1, "{d:?}");
    // The earlier in the total order stands; the later is void with the rule's reason.
    assert_eq!(d[0]["kept"]["id"], treatments[0].as_str());
    assert_eq!(d[0]["void"]["id"], treatments[1].as_str());
    assert_ne!(d[0]["kept"]["device"], d[0]["void"]["device"]);
    assert!(!d[0]["reason"].as_str().unwrap().is_empty());
    // Every device sees the same dispute.
    assert_eq!(disputes(&b), d);
    let said = a.ok(&["disputes"]);
    assert!(said.contains("1 dispute(s)"), "{said}");
    // Each side as `log` tells it: its number and its words, never its whole id.
    assert!(
        said.lines()
            .any(|l| l.starts_with("kept #") && l.contains("treatment")),
        "{said}"
    );
    assert!(!said.contains(treatments[0].as_str()), "{said}");
    // The GM rules: the void side is retracted, and the dispute is closed everywhere.
    a.ok(&[
        "retract",
        &treatments[1],
        "--reason",
        "only one treatment happened",
    ]);
    assert!(disputes(&a).is_empty());
    sync(&a, &b, dir.path());
    assert!(disputes(&b).is_empty());
    assert_eq!(a.ok(&["disputes"]).trim(), "no disputes");
}

#[test]
fn a_treatment_of_an_injury_retracted_concurrently_is_a_dispute() {
    let (a, b, dir, injury) = two_gms();
    let strike = ids_of(&a, "hm.strike").remove(0);
    a.ok(&["retract", &strike, "--reason", "the blow was parried"]);
    b.ok(&[
        "treat",
        "Osric",
        &injury,
        "--physician",
        "50",
        "--dice",
        "treatment=62",
    ]);
    sync(&b, &a, dir.path());
    let d = disputes(&a);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["kept"]["kind"], "ruling.retract");
    assert_eq!(d[0]["void"]["kind"], "hm.treatment");
    // The GM lets the treatment stand by retracting the retraction.
    let retraction = d[0]["kept"]["id"].as_str().unwrap().to_string();
    a.ok(&[
        "retract",
        &retraction,
        "--reason",
        "the blow landed after all",
    ]);
    assert!(disputes(&a).is_empty());
    assert_eq!(a.show("Osric")["injuries"].as_array().unwrap().len(), 1);
}

#[test]
fn two_healing_rolls_for_one_injury_and_period_are_a_dispute() {
    let (a, b, dir, injury) = two_gms();
    // Example 5's treatment (HR4), then the first five-day healing roll falls due on day 6.
    a.ok(&[
        "treat",
        "Osric",
        &injury,
        "--physician",
        "50",
        "--dice",
        "treatment=62",
    ]);
    a.ok(&["advance", "5d"]);
    sync(&a, &b, dir.path());
    // Offline, both devices record that roll: 62 (F) on one, 24 (S) on the other.
    a.ok(&["roll", "Osric", "healing", &injury, "--dice", "roll=62"]);
    b.ok(&["roll", "Osric", "healing", &injury, "--dice", "roll=24"]);
    sync(&a, &b, dir.path());
    sync(&b, &a, dir.path());
    let rolls = ids_of(&a, "hm.seq-roll");
    assert_eq!(rolls.len(), 2);
    let d = disputes(&a);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["kept"]["id"], rolls[0].as_str());
    assert_eq!(d[0]["void"]["id"], rolls[1].as_str());
    assert_eq!(disputes(&b), d);
    // Retracting the standing roll lets the other stand instead.
    a.ok(&[
        "retract",
        &rolls[0],
        "--reason",
        "the table agreed on the other roll",
    ]);
    assert!(disputes(&a).is_empty());
}
