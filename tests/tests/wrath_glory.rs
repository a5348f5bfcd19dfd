//! Wrath & Glory through the CLI, with a ruling and time travel on its campaign.

mod common;
use common::Scratch;
use serde_json::Value;

fn campaign() -> Scratch {
    let s = Scratch::new();
    s.ok(&["init", "--system", "wrath-glory"]);
    s.ok(&[
        "character",
        "add",
        "Vex",
        "--tier",
        "1",
        "--wg-toughness",
        "3",
        "--resilience",
        "6",
        "--max-shock",
        "4",
    ]);
    s
}

#[test]
fn max_wounds_reached_then_exceeded_and_a_traumatic_injury_while_dying() {
    let s = campaign();
    // 11 - 6 = 5 Wounds, no Icons: exactly Max Wounds (Tier 1 x 2 + Toughness 3): not Dying.
    s.ok(&[
        "wg",
        "damage",
        "Vex",
        "--damage",
        "11",
        "--dice",
        "determination=1/2/3",
    ]);
    let v = s.show("Vex");
    assert_eq!(
        (
            v["wounds"].as_i64(),
            v["dying"].as_bool(),
            v["dn_penalty"].as_i64()
        ),
        (Some(5), Some(false), Some(1))
    );
    // One more Wound: over Max Wounds: Dying, prone, and a Memorable Injury.
    let out = s.ok(&[
        "wg",
        "damage",
        "Vex",
        "--damage",
        "7",
        "--dice",
        "determination=1/1/1,memorable=4",
    ]);
    assert!(
        out.contains("Dying, prone; Memorable Injury d6 4: Broken Jaw"),
        "{out}"
    );
    let out = s.ok(&["wg", "complication", "Vex", "--dice", "traumatic=6,side=2"]);
    assert!(out.contains("left Eye"), "{out}");
    assert_eq!(s.show("Vex")["wrath_dice"], 1);
    let due: Value = serde_json::from_str(&s.ok(&["due", "Vex", "--json"])).unwrap();
    assert_eq!(due[0]["kind"], "dying");
    let out = s.run(&["wg", "respite", "Vex"]);
    assert!(
        out.stderr.contains("Dying and cannot Respite"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_ruling_and_show_at_on_wrath_and_glory() {
    let s = campaign();
    s.ok(&[
        "wg",
        "damage",
        "Vex",
        "--damage",
        "13",
        "--dice",
        "determination=1/1/1,memorable=1",
    ]);
    assert_eq!(s.show("Vex")["dying"], true);
    let log: Value = serde_json::from_str(&s.ok(&["log", "--json"])).unwrap();
    let hit = log
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "wg.damage")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    s.ok(&["retract", &hit, "--reason", "the lasgun bolt missed"]);
    let v = s.show("Vex");
    assert_eq!(
        (v["wounds"].as_i64(), v["dying"].as_bool()),
        (Some(0), Some(false))
    );
    let at: Value = serde_json::from_str(&s.ok(&["show", "Vex", "--at", &hit, "--json"])).unwrap();
    assert_eq!(at["wounds"], 7);
}

#[test]
fn the_wrath_and_glory_demo_runs() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("d.db");
    let out = leechbook::run([
        "leechbook",
        "demo",
        "--system",
        "wrath-glory",
        "--out",
        db.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("no longer Dying"), "{}", out.stdout);
}
