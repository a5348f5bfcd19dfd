//! Old ledgers keep working: ledgers written by Leechbook before the kernel change (one per
//! rules system, in `fixtures/ledgers/`) open and fold to exactly the state recorded beside
//! them. Every key of the recorded JSON must be there with the same value; the output may
//! gain keys (additions to `--json` are allowed, changes are not).

mod common;
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
