//! Snapshot tests of CLI output: the help text, the demo (the text's worked example carried
//! through its shock reroll and Morale roll), and `show`. Ids are random, so they are
//! replaced by `[id]` before comparing.

use crate::common;
use common::{run_db, Scratch};

fn redact_ids(text: &str, ids: &[String]) -> String {
    let mut t = text.to_string();
    for id in ids {
        t = t.replace(id.as_str(), "[id]");
    }
    t
}

#[test]
fn help() {
    let out = leechbook::run(["leechbook", "--help"]);
    assert_eq!(out.code, 0);
    insta::assert_snapshot!("help", out.stdout);
    let out = leechbook::run(["leechbook", "strike", "--help"]);
    insta::assert_snapshot!("strike_help", out.stdout);
}

#[test]
fn demo() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    let out = leechbook::run(["leechbook", "demo", "--out", db.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut ids: Vec<String> = Vec::new();
    for who in ["Osric", "Brannoc"] {
        let v: serde_json::Value =
            serde_json::from_str(&run_db(&db, &["show", who, "--json"]).stdout).unwrap();
        ids.extend(
            v["injuries"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["short_id"].as_str().unwrap().to_string()),
        );
    }
    let text = redact_ids(&out.stdout, &ids).replace(db.to_str().unwrap(), "[db]");
    insta::assert_snapshot!("demo", text);
    // The demo replaces its own earlier ledger, and refuses to replace anything else.
    let again = leechbook::run(["leechbook", "demo", "--out", db.to_str().unwrap()]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let s = Scratch::with_osric();
    let refused = leechbook::run(["leechbook", "demo", "--out", s.db.to_str().unwrap()]);
    assert_eq!(refused.code, 1);
    assert!(
        refused.stderr.contains("will not replace"),
        "{}",
        refused.stderr
    );
}

#[test]
fn show_after_a_grievous_bleeding_strike() {
    let s = Scratch::with_osric();
    s.ok(&[
        "strike",
        "Osric",
        "--aspect",
        "edge",
        "--location",
        "shoulder",
        "--side",
        "right",
        "--effective",
        "16",
        "--dice",
        "shock=64",
    ]);
    let v = s.show("Osric");
    let id = v["injuries"][0]["short_id"].as_str().unwrap().to_string();
    insta::assert_snapshot!(
        "show_g4e_shoulder",
        redact_ids(&s.ok(&["show", "Osric"]), &[id])
    );
}
