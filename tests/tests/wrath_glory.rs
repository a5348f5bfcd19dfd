//! Wrath & Glory through the CLI, with a ruling and time travel on its campaign.

use crate::common;
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
    hit(&s, "Vex", "11", "determination=1/2/3");
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
    let out = hit(&s, "Vex", "7", "determination=1/1/1,memorable=4");
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
    hit(&s, "Vex", "13", "determination=1/1/1,memorable=1");
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

/// `wg damage NAME --damage DAMAGE --dice DICE`, which must succeed; returns what it said.
fn hit(s: &Scratch, name: &str, damage: &str, dice: &str) -> String {
    s.ok(&["wg", "damage", name, "--damage", damage, "--dice", dice])
}

fn add(s: &Scratch, name: &str, toughness: &str, resilience: &str) {
    s.ok(&[
        "character",
        "add",
        name,
        "--tier",
        "1",
        "--wg-toughness",
        toughness,
        "--resilience",
        resilience,
        "--max-shock",
        "4",
    ]);
}

/// Rules text 002, Shock: "spend a point of Wrath to restore Rank + Tier Shock"; Respite:
/// "Reset Wrath to 2". Vex (Rank 1, Tier 1) starts with 2 (the reading: as after a Respite).
#[test]
fn wrath_is_spent_to_restore_shock_and_a_respite_resets_it_to_two() {
    let s = campaign();
    // 9 vs Resilience 6: 3 Wounds, Determination 6/2/4 = 3 Icons: 3 Shock.
    hit(&s, "Vex", "9", "determination=6/2/4");
    assert_eq!(
        (
            s.show("Vex")["shock"].as_i64(),
            s.show("Vex")["wrath"].as_i64()
        ),
        (Some(3), Some(2))
    );
    s.ok(&["wg", "restore-shock", "Vex"]); // 3 - (1 + 1) = 1 Shock, Wrath 1
    s.ok(&["wg", "restore-shock", "Vex"]); // 0 Shock, Wrath 0
    let v = s.show("Vex");
    assert_eq!(
        (v["shock"].as_i64(), v["wrath"].as_i64()),
        (Some(0), Some(0))
    );
    // 6 against Resilience 6: 1 Shock, and no Wrath left to restore it.
    s.ok(&["wg", "damage", "Vex", "--damage", "6"]);
    let before = s.bytes();
    let out = s.run(&["wg", "restore-shock", "Vex"]);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr.trim(),
        "error: Vex has no Wrath to spend (a Respite resets it to 2)"
    );
    assert_eq!(s.bytes(), before, "a refusal records nothing");
    // A huge change is a typo, refused before it can overflow a later fold.
    assert!(s
        .run(&["wg", "wrath", "Vex", "+2147483647"])
        .stderr
        .contains("Wrath changes by at most 100 at once"));
    assert!(s
        .ok(&["wg", "wrath", "Vex", "+1"])
        .contains("1 Wrath gained (1 now)"));
    assert!(s
        .run(&["wg", "wrath", "Vex", "-2"])
        .stderr
        .contains("has 1 Wrath and cannot spend 2"));
    s.ok(&["advance", "6h"]);
    s.ok(&["wg", "respite", "Vex"]);
    assert_eq!(s.show("Vex")["wrath"], 2);
    // No Shock left: a point of Wrath would restore nothing, so it is not spent.
    let out = s.run(&["wg", "restore-shock", "Vex"]);
    assert!(
        out.stderr.contains("Vex has no Shock to restore"),
        "{}",
        out.stderr
    );
    assert_eq!(s.show("Vex")["wrath"], 2);
}

/// Rules text 002, Respite: "6 hour rest ... Strenuous activity lasting 1 hour interrupts the
/// respite and it must begin again"; Regroup: "1 hour rest". Both count from the last Wound.
#[test]
fn a_respite_takes_six_hours_and_strenuous_activity_begins_it_again() {
    let s = campaign();
    hit(&s, "Vex", "8", "determination=1/1/1"); // 2 Wounds at day 1 00:00
    let before = s.bytes();
    let out = s.run(&["wg", "regroup", "Vex", "--regain", "1"]);
    assert_eq!(
        out.stderr.trim(),
        "error: Vex's Regroup needs 1 hour(s) of rest since day 1 00:00 (the last Wound, \
         strenuous hour or rest); it is day 1 00:00: 1h more (move the clock first: \
         `leechbook advance 1h`)"
    );
    assert_eq!(s.bytes(), before);
    s.ok(&["advance", "4h"]);
    s.ok(&["wg", "strenuous", "Vex"]); // day 1 04:00: the rest begins again
    s.ok(&["advance", "5h30m"]);
    let out = s.run(&["wg", "respite", "Vex"]);
    assert!(
        out.stderr.contains("since day 1 04:00") && out.stderr.contains("`leechbook advance 30m`"),
        "{}",
        out.stderr
    );
    assert_eq!(s.show("Vex")["wounds"], 2, "no Respite");
    // A Regroup (an hour's rest) at 05:30 does not interrupt the Respite.
    s.ok(&["wg", "regroup", "Vex", "--regain", "0"]);
    s.ok(&["advance", "30m"]);
    s.ok(&["wg", "respite", "Vex"]); // day 1 10:00: six hours since 04:00
    assert_eq!(s.show("Vex")["wounds"], 0);
    // A rest takes its own hours: a second Respite straight after is refused.
    assert!(s.run(&["wg", "respite", "Vex"]).stderr.contains("6h more"));
}

/// Rules text 002, Damage Against Multiple Targets: "make a single damage roll for all
/// targets": one damage, each target's own Resilience and Determination.
#[test]
fn one_damage_roll_strikes_several_targets() {
    let s = campaign();
    add(&s, "Kal", "2", "5");
    let out = s.ok(&[
        "wg",
        "damage",
        "Vex",
        "Kal",
        "--damage",
        "9",
        "--dice",
        "determination=1/1/1",
        "--dice",
        "determination=4/1",
    ]);
    assert!(
        out.contains("one damage roll, 9, against 2 targets"),
        "{out}"
    );
    // Vex: 9 - 6 = 3 Wounds, no Icon. Kal: 9 - 5 = 4 Wounds, one Icon: 3 Wounds, 1 Shock.
    let (v, k) = (s.show("Vex"), s.show("Kal"));
    assert_eq!(
        (v["wounds"].as_i64(), v["shock"].as_i64()),
        (Some(3), Some(0))
    );
    assert_eq!(
        (k["wounds"].as_i64(), k["shock"].as_i64()),
        (Some(3), Some(1))
    );
    // All or nothing: a target that cannot be struck leaves the other untouched too.
    let before = s.bytes();
    let out = s.run(&["wg", "damage", "Vex", "Nobody", "--damage", "9"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(s
        .run(&["wg", "damage", "Vex", "vex", "--damage", "9"])
        .stderr
        .contains("named twice"));
    assert_eq!(s.bytes(), before);
}

/// Rules text 002, Traumatic Injury: "Losing both hands means you are unable to hold any
/// weapons"; "penalties ... are mitigated entirely by acquiring a replacement".
#[test]
fn losing_both_hands_is_told_and_a_replacement_mitigates_it() {
    let s = campaign();
    // 12 vs 6: 6 Wounds > Max Wounds 5: Dying (Memorable 1: Battle Scar).
    hit(&s, "Vex", "12", "determination=1/1/1,memorable=1");
    // While Dying: a left hand (d6 1, side 2), then a right arm (d6 2, side 6).
    s.ok(&["wg", "complication", "Vex", "--dice", "traumatic=1,side=2"]);
    assert_eq!(s.show("Vex")["both_lost"].as_array().map(Vec::len), Some(0));
    let out = s.ok(&["wg", "complication", "Vex", "--dice", "traumatic=2,side=6"]);
    assert!(
        out.contains("both hands lost: unable to hold any weapons or similar gear"),
        "{out}"
    );
    assert_eq!(
        s.show("Vex")["both_lost"][0],
        "both hands lost: unable to hold any weapons or similar gear"
    );
    let out = s.ok(&["wg", "replace", "Vex", "arm", "right"]);
    assert!(out.contains("replacement for the right Arm"), "{out}");
    let v = s.show("Vex");
    assert_eq!(v["both_lost"].as_array().map(Vec::len), Some(0));
    assert_eq!(v["traumatic_injuries"][1]["replaced"], true);
    let out = s.run(&["wg", "replace", "Vex", "arm", "right"]);
    assert!(
        out.stderr
            .contains("no unreplaced Traumatic Injury to the right Arm"),
        "{}",
        out.stderr
    );
}

/// Where the text is silent, the reading is written next to the rule and shown by
/// `table show readings`: the same text as the module's documentation.
#[test]
fn the_readings_are_shown_by_table_show_readings() {
    let s = campaign();
    let out = s.ok(&["table", "show", "readings"]);
    assert!(out.starts_with("# Wrath & Glory"), "{out}");
    assert!(
        out.contains(leechbook_core::wrath::READINGS.trim()),
        "{out}"
    );
    assert!(out.contains("starts with 2, as after a Respite"), "{out}");
    let json: Value =
        serde_json::from_str(&s.ok(&["table", "show", "readings", "--json"])).unwrap();
    assert_eq!(json[0]["title"], "Wrath & Glory");
}

/// Issue 40, item 5: "If you have a Medicae Rating you can heal a single character during a
/// Regroup; they regain Wounds equal to your Medicae (Int) dice pool" (002 l.63-64). Vex takes
/// 11 - 6 = 5 Wounds; an hour's rest later Doc's pool of 4 heals 4 (1 left). Doc heals no one
/// else in that Regroup; an hour on, he may.
#[test]
fn a_medicae_healer_heals_a_single_character_a_regroup() {
    let s = campaign();
    for name in ["Kal", "Doc"] {
        s.ok(&[
            "character",
            "add",
            name,
            "--tier",
            "1",
            "--wg-toughness",
            "3",
            "--resilience",
            "6",
            "--max-shock",
            "4",
        ]);
    }
    hit(&s, "Vex", "11", "determination=1/2/3");
    hit(&s, "Kal", "8", "determination=1/2/3");
    s.ok(&["advance", "1h"]);
    let out = s.ok(&["wg", "regroup", "Vex", "--healer", "doc", "--medicae", "4"]);
    assert!(
        out.contains("Doc's Medicae: 4 dice")
            && out.contains("Regroup: 4 Wound(s) regained, 1 left"),
        "{out}"
    );
    assert_eq!(s.show("Vex")["wounds"], 1);
    let before = s.bytes();
    let out = s.run(&["wg", "regroup", "Kal", "--healer", "Doc", "--medicae", "4"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("Doc healed a character during this Regroup already"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    // A healer the campaign does not hold: named with --npc, or refused with the hint.
    let out = s.run(&[
        "wg",
        "regroup",
        "Kal",
        "--healer",
        "Sister Ana",
        "--medicae",
        "3",
    ]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("--npc"), "{}", out.stderr);
    let out = s.ok(&[
        "wg",
        "regroup",
        "Kal",
        "--healer",
        "Sister Ana",
        "--npc",
        "--medicae",
        "3",
    ]);
    assert!(
        out.contains("Regroup: 2 Wound(s) regained, 0 left"),
        "{out}"
    );
    s.ok(&["advance", "1h"]);
    hit(&s, "Kal", "8", "determination=1/2/3");
    s.ok(&["advance", "1h"]);
    s.ok(&["wg", "regroup", "Kal", "--healer", "Doc", "--medicae", "4"]);
    assert_eq!(s.show("Kal")["wounds"], 0);
    // A healer who heals themself has healed their one patient of that Regroup.
    hit(&s, "Doc", "8", "determination=1/2/3");
    hit(&s, "Vex", "8", "determination=1/2/3");
    s.ok(&["advance", "1h"]);
    s.ok(&["wg", "regroup", "Doc", "--healer", "Doc", "--medicae", "4"]);
    let out = s.run(&["wg", "regroup", "Vex", "--healer", "Doc", "--medicae", "4"]);
    assert!(
        out.stderr
            .contains("Doc healed a character during this Regroup already"),
        "{}",
        out.stderr
    );
    // A pool of no dice is no Medicae rating.
    let out = s.run(&["wg", "regroup", "Vex", "--healer", "Kal", "--medicae", "0"]);
    assert!(out.stderr.contains("at least 1 die"), "{}", out.stderr);
    // The healer's story holds the Regroups they gave, and the record checks whole.
    let history = s.ok(&["history", "Doc"]);
    assert_eq!(
        history.matches("Doc's Medicae: 4 dice").count(),
        3,
        "{history}"
    );
    s.ok(&["verify", "--full"]);
}
