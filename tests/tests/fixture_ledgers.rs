//! Old ledgers keep working: ledgers written by Leechbook before the kernel change (one per
//! rules system, in `fixtures/ledgers/`) open and fold to exactly the state recorded beside
//! them. Every key of the recorded JSON must be there with the same value; the output may
//! gain keys (additions to `--json` are allowed, changes are not).

use crate::common;
use common::run_db;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/ledgers")
        .join(name)
}

/// `expected` is within `actual`: every key of every object, every element of every array.
fn within(expected: &Value, actual: &Value, path: &str) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, v) in e {
                let got = a
                    .get(k)
                    .unwrap_or_else(|| panic!("{path}.{k} is missing from {actual}"));
                within(v, got, &format!("{path}.{k}"));
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            assert_eq!(e.len(), a.len(), "{path}: {actual}");
            for (i, (x, y)) in e.iter().zip(a).enumerate() {
                within(x, y, &format!("{path}[{i}]"));
            }
        }
        _ => assert_eq!(expected, actual, "{path}"),
    }
}

fn folds_as_recorded(system: &str) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("old.db");
    std::fs::copy(fixture(&format!("v1-{system}.db")), &db).unwrap();
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(fixture(&format!("v1-{system}.expected.json"))).unwrap(),
    )
    .unwrap();
    let json = |args: &[&str]| -> Value {
        let out = run_db(&db, args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        serde_json::from_str(&out.stdout).unwrap()
    };
    let characters = expected["characters"].as_object().unwrap();
    assert!(!characters.is_empty());
    for (name, want) in characters {
        within(want, &json(&["show", name, "--json"]), name);
    }
    let log = json(&["log", "--json"]);
    within(&expected["log"], &log, "log");
    let verify = run_db(&db, &["verify"]);
    assert_eq!(verify.code, 0, "{}{}", verify.stdout, verify.stderr);
}

#[test]
fn an_old_harnmaster_ledger_folds_as_recorded() {
    folds_as_recorded("harnmaster");
}

#[test]
fn an_old_savage_worlds_ledger_folds_as_recorded() {
    folds_as_recorded("savage-worlds");
}

#[test]
fn an_old_wrath_glory_ledger_folds_as_recorded() {
    folds_as_recorded("wrath-glory");
}

#[test]
fn an_old_witch_iron_ledger_folds_as_recorded() {
    folds_as_recorded("witch-iron");
}

/// Issue 27: a ledger written before the index of what each event is about gets it on its
/// first open: every character an old exchange, shot or Quarrel reaches finds it among its
/// events, and an audit of each character folds it as the whole log does.
#[test]
fn an_old_ledger_learns_what_each_event_is_about_on_first_open() {
    for system in ["harnmaster", "witch-iron"] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("old.db");
        std::fs::copy(fixture(&format!("v1-{system}.db")), &db).unwrap();
        let store = leechbook_store::Store::open(&db).unwrap();
        let events = store.events().unwrap();
        let reaching: Vec<_> = events
            .iter()
            .filter(|e| leechbook_core::event::reaching_kinds().contains(&e.event.kind()))
            .collect();
        assert!(
            !reaching.is_empty(),
            "{system}: the fixture holds a reaching event"
        );
        for e in &reaching {
            for c in e.event.characters() {
                let about = leechbook_store::ReadLog::events_about(&store, Some(c)).unwrap();
                assert!(
                    about.iter().any(|a| a.id == e.id),
                    "{system}: {:?}",
                    e.event.kind()
                );
            }
        }
        let full = leechbook_ledger::full_fold(&store).unwrap();
        for (id, name) in full.roll() {
            let about = leechbook_ledger::about::replay_about(&store, *id, |l, e, r| {
                l.step(e, r, &mut |_, _, _| {});
            })
            .unwrap();
            assert_eq!(
                about.character(*id),
                full.character(*id),
                "{system}: {name}"
            );
        }
    }
}

/// A ledger made before rosters knows no key but its own device's: `verify --full` checks
/// those signatures and says, in a line, how many events of other devices it could not.
#[test]
fn verify_of_a_ledger_without_a_roster_says_what_it_cannot_check() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("old.db");
    // As ledgers were made before rosters: the campaign and its clock, no roster event.
    let mut store = leechbook_store::Store::create(&db).unwrap();
    store
        .append(
            leechbook_core::Event::CampaignCreated {
                name: "old".into(),
                system: leechbook_core::SystemId::HarnMaster,
                round_seconds: 10,
            },
            leechbook_core::time::CampaignTime(0),
        )
        .unwrap();
    let mine = store
        .append(
            leechbook_core::Event::ClockAdvanced {
                to: leechbook_core::time::CampaignTime(60),
            },
            leechbook_core::time::CampaignTime(60),
        )
        .unwrap();
    // An event of another device, as an old sync would have brought it.
    let mut other = mine.clone();
    other.id = leechbook_core::ids::EventId(uuid::Uuid::now_v7());
    other.device = leechbook_core::ids::DeviceId(uuid::Uuid::now_v7());
    other.seq = 1;
    other.clock = mine.clock + 1;
    other.event = leechbook_core::Event::ClockAdvanced {
        to: leechbook_core::time::CampaignTime(120),
    };
    other.at = leechbook_core::time::CampaignTime(120);
    store.import(&[other]).unwrap();
    assert!(!leechbook_core::roster::Roster::from_log(&store.events().unwrap()).in_use());
    drop(store);
    let out = run_db(&db, &["verify", "--full"]);
    assert!(
        out.stdout.contains(
            "not checked: the signatures of 1 events of other devices (this ledger has no roster"
        ),
        "{}\n{}",
        out.stdout,
        out.stderr
    );
}
