//! Witch Iron's Quarrel rules through the CLI, with a ruling on its campaign.

use crate::common;
use common::Scratch;
use serde_json::Value;

const SAMPLE_ARM: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../fixtures/witch-iron/sample-arm.toml"
);

fn campaign() -> Scratch {
    let s = Scratch::new();
    s.ok(&["init", "--system", "witch-iron"]);
    s.ok(&["character", "add", "Ana", "--rb", "1"]);
    s.ok(&["character", "add", "Gerd", "--rb", "2"]);
    s
}

/// `wi injure NAME --part PART --net-damage DAMAGE --dice units=UNITS`, which must succeed.
fn injure(s: &Scratch, name: &str, part: &str, damage: &str, units: &str) -> String {
    let units = format!("units={units}");
    s.ok(&[
        "wi",
        "injure",
        name,
        "--part",
        part,
        "--net-damage",
        damage,
        "--dice",
        &units,
    ])
}

#[test]
fn net_hits_decide_and_net_damage_finds_the_row() {
    let s = campaign();
    // Net Hits +0 injures: (6 + 0) - (1 + 2) = 3 on the torso, units 5: rib cage, Fractured Rib.
    let out = s.ok(&[
        "wi",
        "quarrel",
        "Ana",
        "Gerd",
        "--defence",
        "melee",
        "--attack-hits",
        "2",
        "--defence-hits",
        "2",
        "--part",
        "torso",
        "--damage",
        "6",
        "--av",
        "1",
        "--rb",
        "2",
        "--dice",
        "units=5",
    ]);
    assert!(out.contains("Net Hits +0; Net Damage (6 + 0) - (1 + 2) = 3; Gerd: rib cage 3: Fractured Rib (Trauma 1)"), "{out}");
    let v = s.show("Gerd");
    // Trauma is a condition per location.
    assert_eq!(v["conditions"]["Trauma (rib cage)"]["rating"], 1);
    // -1 against Light-Foot is a dodge.
    let out = s.ok(&[
        "wi",
        "quarrel",
        "Ana",
        "Gerd",
        "--defence",
        "light-foot",
        "--attack-hits",
        "2",
        "--defence-hits",
        "1",
        "--give-ground",
    ]);
    assert!(out.contains("Net Hits -1; dodged"), "{out}");
    // A critical adds d6E: 6 explodes into 2; Gerd's sheet has RB 2:
    // (3 + 1) - (0 + 2) + 8 = 10+: the heart ripped out.
    let out = s.ok(&[
        "wi",
        "quarrel",
        "Ana",
        "Gerd",
        "--defence",
        "melee",
        "--attack-hits",
        "3",
        "--defence-hits",
        "2",
        "--part",
        "torso",
        "--damage",
        "3",
        "--critical",
        "--dice",
        "units=0,critical=6/2",
    ]);
    assert!(
        out.contains("+ 8 critical = 10; Gerd: heart/lung 10: Heart Ripped Out (Dead)"),
        "{out}"
    );
    assert_eq!(s.show("Gerd")["dead"], true);
}

#[test]
fn conditions_reduce_to_zero_and_the_end_of_round_can_kill() {
    let s = campaign();
    s.ok(&[
        "wi",
        "condition",
        "Ana",
        "stun",
        "--add",
        "2",
        "--by",
        "a club",
    ]);
    s.ok(&["advance", "1r"]);
    assert_eq!(s.show("Ana")["conditions"]["Stun"]["rating"], 1);
    s.ok(&["advance", "1r"]);
    assert!(
        s.show("Ana")["conditions"].get("Stun").is_none(),
        "a condition reduced to zero is gone"
    );
    injure(&s, "Ana", "head", "6", "8"); // neck: Open Wound, Bleed 4
    let due: Value = serde_json::from_str(&s.ok(&["due", "Ana", "--json"])).unwrap();
    assert_eq!(due[0]["kind"], "end-of-round");
    let out = s.run(&["wi", "round", "Ana", "--dice", "d6=3"]);
    assert!(
        out.stderr.contains("give the Hardship Quarrel's Hits"),
        "{}",
        out.stderr
    );
    let out = s.ok(&[
        "wi",
        "round",
        "Ana",
        "--hardship-hits",
        "3",
        "--dice",
        "d6=3",
    ]);
    assert!(out.contains("dies"), "{out}");
}

#[test]
fn arms_and_legs_need_the_gms_table() {
    let s = campaign();
    let before = s.bytes();
    let out = s.run(&[
        "wi",
        "injure",
        "Ana",
        "--part",
        "left arm",
        "--net-damage",
        "3",
        "--dice",
        "units=3",
    ]);
    assert_eq!(out.code, 1);
    // The rules say what is missing; the CLI adds the command that loads it.
    assert!(
        out.stderr.contains(
            "the arm table is not loaded: the text cuts it off, so load the GM's \
             (leechbook wi table FILE)"
        ),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    s.ok(&["wi", "table", SAMPLE_ARM]);
    let out = s.ok(&[
        "wi",
        "injure",
        "Ana",
        "--part",
        "left arm",
        "--net-damage",
        "5",
        "--dice",
        "units=3",
    ]);
    assert!(
        out.contains("left forearm 5: Sample Break (Trauma 2), requires healing"),
        "{out}"
    );
    // The legs are still missing.
    let out = s.run(&[
        "wi",
        "injure",
        "Ana",
        "--part",
        "leg",
        "--net-damage",
        "5",
        "--dice",
        "units=3",
    ]);
    assert!(
        out.stderr.contains("the leg table is not loaded"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_ruling_on_a_witch_iron_campaign_and_its_demo() {
    let s = campaign();
    injure(&s, "Gerd", "head", "2", "1");
    let log: Value = serde_json::from_str(&s.ok(&["log", "--json"])).unwrap();
    let id = log
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "wi.injure")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    s.ok(&["retract", &id, "--reason", "the blow fell short"]);
    assert_eq!(s.show("Gerd")["injuries"].as_array().unwrap().len(), 0);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("d.db");
    let out = leechbook::run([
        "leechbook",
        "demo",
        "--system",
        "witch-iron",
        "--out",
        db.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

#[test]
fn battle_wear_and_three_stacks_of_corruption() {
    let s = campaign();
    // Clipped +1 Damage, dented +d6 (4) AV: (3 + 1 + 1) - (0 + 4 + 2) = -1: unhurt.
    let out = s.ok(&[
        "wi",
        "quarrel",
        "Ana",
        "Gerd",
        "--defence",
        "melee",
        "--attack-hits",
        "2",
        "--defence-hits",
        "1",
        "--part",
        "torso",
        "--damage",
        "3",
        "--rb",
        "2",
        "--clip-weapon",
        "--dent-armour",
        "--dice",
        "units=3,dent=4",
    ]);
    assert!(
        out.contains("Net Damage (4 + 1) - (4 + 2) = -1; Gerd unhurt"),
        "{out}"
    );
    s.ok(&[
        "wi",
        "condition",
        "Ana",
        "corruption",
        "--add",
        "3",
        "--by",
        "a profane altar",
    ]);
    let due: Value = serde_json::from_str(&s.ok(&["due", "Ana", "--json"])).unwrap();
    assert_eq!(due[0]["kind"], "corruption");
}

/// Issue 12, item 18: the hint that names a command names a real one: run exactly as printed
/// (with the sample file for FILE), it loads the table.
#[test]
fn the_arm_table_hint_is_a_real_command() {
    let s = campaign();
    let args = [
        "wi",
        "injure",
        "Ana",
        "--part",
        "left arm",
        "--net-damage",
        "3",
        "--dice",
        "units=3",
    ];
    let out = s.run(&args);
    assert_eq!(out.code, 1);
    let hinted = common::hinted_command(&out.stderr, &[("FILE", SAMPLE_ARM)]);
    let hinted: Vec<&str> = hinted.iter().map(String::as_str).collect();
    s.ok(&hinted);
    s.ok(&args);
}

/// Issue 12, item 14: Trauma is a condition per location, each with its own rating and its
/// own month of rest per rating.
#[test]
fn trauma_is_one_condition_per_location() {
    let s = campaign();
    // Torso units 3, Net Damage 3: pelvis 3+ (Trauma 1). Head units 1, Net Damage 3: nose 3+.
    let out = injure(&s, "Gerd", "torso", "3", "3");
    assert!(out.contains("pelvis 3"), "{out}");
    assert!(out.contains("Trauma 1"), "{out}");
    let out = injure(&s, "Gerd", "head", "3", "1");
    assert!(out.contains("nose 3"), "{out}");
    let v = s.show("Gerd");
    assert_eq!(v["conditions"]["Trauma (pelvis)"]["rating"], 1, "{v}");
    assert!(v["conditions"].get("Trauma").is_none(), "{v}");
    let nose = v["conditions"]["Trauma (nose)"]["rating"].as_i64();
    assert_eq!(nose, Some(2), "{v}");
    // A month of rest takes one from each: the pelvis is clear, the nose keeps one.
    s.ok(&["advance", "30d"]);
    let v = s.show("Gerd");
    assert!(v["conditions"].get("Trauma (pelvis)").is_none(), "{v}");
    assert_eq!(v["conditions"]["Trauma (nose)"]["rating"], 1, "{v}");
}

/// Issue 12, item 15: an effect marked ‡ (or *) does not wear off passively; it goes when
/// its Surgery (or Healing) is recorded, and only then.
#[test]
fn marked_effects_wait_for_their_healing_or_surgery() {
    let s = campaign();
    // Head units 9 (skull), Net Damage 8: Brain Damage, Pain 5‡.
    let out = injure(&s, "Ana", "head", "8", "9");
    assert!(
        out.contains("Brain Damage") && out.contains("requires surgery"),
        "{out}"
    );
    s.ok(&["advance", "6h"]);
    // Six hours would take six from a passive Pain 5: the marked one stays.
    assert_eq!(s.show("Ana")["conditions"]["Pain"]["rating"], 5);
    let before = s.bytes();
    let out = s.run(&[
        "wi",
        "treat",
        "Ana",
        "--location",
        "skull",
        "--care",
        "healing",
    ]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stderr
            .contains("no injury at the skull that awaits healing"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    // Removing the Pain by hand names the surgery it waits for (issue 25), in one line.
    let out = s.run(&["wi", "condition", "Ana", "pain", "--remove"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "Ana's Pain 5 is held by the skull injury, which requires surgery to remove it"
        ),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    let out = s.ok(&[
        "wi",
        "treat",
        "Ana",
        "--location",
        "skull",
        "--care",
        "surgery",
        "--by",
        "Doctor Vell",
    ]);
    assert!(
        out.contains("surgery for the skull (Doctor Vell): Pain 5 removed"),
        "{out}"
    );
    let v = s.show("Ana");
    assert!(v["conditions"].get("Pain").is_none(), "{v}");
    assert_eq!(v["injuries"][0]["cared"][0], "surgery", "{v}");
    // The text says so too: the surgery given, nothing awaited (issue 26: it still read
    // "requires surgery" after the Pain was gone).
    let shown = s.ok(&["show", "Ana"]);
    assert!(shown.contains("[given: surgery]"), "{shown}");
    assert!(
        !shown.contains("requires surgery") && !shown.contains("awaiting"),
        "{shown}"
    );
}

/// Issue 12, item 16: the Resilience Bonus on the struck one's sheet counts in Net Damage
/// unless the command gives one.
#[test]
fn the_rb_on_the_sheet_is_the_default() {
    let s = campaign();
    let q = |extra: &[&str]| {
        let mut v = vec!["wi", "quarrel", "Ana", "Gerd", "--defence", "melee"];
        v.extend_from_slice(extra);
        s.ok(&v)
    };
    // Net Hits +0: Gerd struck, his sheet's RB 2: (6 + 0) - (1 + 2) = 3.
    let out = q(&[
        "--attack-hits",
        "2",
        "--defence-hits",
        "2",
        "--part",
        "torso",
        "--damage",
        "6",
        "--av",
        "1",
        "--dice",
        "units=5",
    ]);
    assert!(out.contains("Net Damage (6 + 0) - (1 + 2) = 3"), "{out}");
    // Net Hits -2 against Melee: Gerd injures Ana, the struck one, with her sheet's RB 1:
    // (5 + 2) - (2 + 1) = 4.
    let out = q(&[
        "--attack-hits",
        "1",
        "--defence-hits",
        "3",
        "--part",
        "head",
        "--damage",
        "5",
        "--av",
        "2",
        "--dice",
        "units=1",
    ]);
    assert!(
        out.contains("Net Damage (5 + 2) - (2 + 1) = 4; Ana"),
        "{out}"
    );
    // --rb overrides the sheet: (6 + 0) - (1 + 0) = 5.
    let out = q(&[
        "--attack-hits",
        "2",
        "--defence-hits",
        "2",
        "--part",
        "torso",
        "--damage",
        "6",
        "--av",
        "1",
        "--rb",
        "0",
        "--dice",
        "units=5",
    ]);
    assert!(out.contains("Net Damage (6 + 0) - (1 + 0) = 5"), "{out}");
    assert_eq!(s.show("Ana")["sheet"]["rb"], 1);
}

/// The classes of items 14-16 swept through the Conditions: receiving damage removes
/// Helpless, Prone has no rating, Disarm is no lasting loss, and giving ground on two Checks
/// in a row falls Prone instead.
#[test]
fn conditions_follow_their_remove_by_and_prone_rules() {
    let s = campaign();
    // Head units 2 (jaw), Net Damage 8: Out Cold, Helpless 3.
    injure(&s, "Ana", "head", "8", "2");
    assert_eq!(s.show("Ana")["conditions"]["Helpless"]["rating"], 3);
    // Any damage received removes it: torso units 7, Net Damage 1.
    injure(&s, "Ana", "torso", "1", "7");
    assert!(s.show("Ana")["conditions"].get("Helpless").is_none());
    // Torso units 1 (left shoulder), Net Damage 2: Beaten, Disarm: dropped, not lost.
    let out = injure(&s, "Gerd", "torso", "2", "1");
    assert!(out.contains("Disarm"), "{out}");
    assert_eq!(s.show("Gerd")["lost"], serde_json::json!([]));
    // Gerd gives ground twice in a row dodging: the second time he falls Prone instead.
    let dodge = [
        "wi",
        "quarrel",
        "Ana",
        "Gerd",
        "--defence",
        "light-foot",
        "--attack-hits",
        "2",
        "--defence-hits",
        "1",
        "--give-ground",
    ];
    let out = s.ok(&dodge);
    assert!(out.contains("dodged") && !out.contains("Prone"), "{out}");
    let out = s.ok(&dodge);
    assert!(out.contains("Prone instead"), "{out}");
    // Falling again leaves him Prone, not Prone 2.
    s.ok(&[
        "wi",
        "quarrel",
        "Ana",
        "Gerd",
        "--defence",
        "light-foot",
        "--attack-hits",
        "0",
        "--defence-hits",
        "2",
        "--defender-fumble",
    ]);
    assert_eq!(s.show("Gerd")["conditions"]["Prone"]["rating"], 1);
}

/// Rules text 003, Conditions: Pain "(Rating) x 10% Check penalty" on all Checks, Blind the
/// same on sight; Prone "-20% Check penalty to you and a +20% Check bonus to your opponents";
/// Trauma "(Rating) x 20% penalty on your Checks involving (Location)". Pain loses one an hour.
#[test]
fn check_penalties_of_pain_prone_blind_and_trauma_are_shown_and_named_at_a_quarrel() {
    let s = campaign();
    // Torso units 3, Net Damage 3: pelvis, Trauma 1: -20% on Checks involving the pelvis.
    injure(&s, "Gerd", "torso", "3", "3");
    s.ok(&["wi", "condition", "Gerd", "pain", "--add", "2"]);
    s.ok(&["wi", "condition", "Gerd", "prone", "--add", "1"]);
    s.ok(&["wi", "condition", "Gerd", "blind", "--add", "1"]);
    let p = &s.show("Gerd")["check_penalties"];
    assert_eq!(p["all"], -40, "Pain 2 x 10% + Prone 20%: {p}");
    assert_eq!(p["sight"], -10);
    assert_eq!(p["hearing"], 0);
    assert_eq!(p["locations"]["pelvis"], -20);
    assert_eq!(p["opponents_bonus"], 20);
    // A Quarrel names each side's penalties before the Hits it was given.
    let out = s.run(&[
        "wi",
        "quarrel",
        "Ana",
        "Gerd",
        "--defence",
        "light-foot",
        "--attack-hits",
        "1",
        "--defence-hits",
        "2",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "Ana's Checks: no penalty; Gerd's Checks -40% (Pain 2 -20%, Prone -20%); sight -10% more (Blind); involving the pelvis -20% more (Trauma); foes +20% against them (Prone)"
        ),
        "{}",
        out.stderr
    );
    // An hour on, Pain 1 (-10%) and Blind 0; Prone stays until Gerd stands.
    s.ok(&["advance", "1h"]);
    let p = &s.show("Gerd")["check_penalties"];
    assert_eq!(
        (p["all"].as_i64(), p["sight"].as_i64()),
        (Some(-30), Some(0)),
        "{p}"
    );
}

/// A rating change far past any table (a typo) is refused in one line, not recorded to make
/// every later read of the character overflow.
#[test]
fn a_huge_condition_change_is_refused() {
    let s = campaign();
    let before = s.bytes();
    let out = s.run(&["wi", "condition", "Gerd", "pain", "--add", "300000000"]);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr.trim(),
        "error: a condition changes by at most 100 at once, not 300000000"
    );
    assert_eq!(s.bytes(), before);
    s.show("Gerd");
}

/// Issue 26: the README's Arms & Legs sample ships with the binary (`wi table --sample-arm`),
/// so the walkthrough runs outside the repository too.
#[test]
fn the_sample_arm_table_ships_with_the_binary() {
    let s = campaign();
    let out = s.ok(&["wi", "table", "--sample-arm"]);
    assert!(out.contains("arm"), "{out}");
    // Units 1 is the sample's (left) hand.
    let out = injure(&s, "Gerd", "arm", "3", "1");
    assert!(out.contains("hand"), "{out}");
}

/// Stun and Helpless prevent Actions, and an attack is an Action (003 l.24; l.179-184): a
/// stunned or helpless attacker's Quarrel is refused in one line and nothing is written; the
/// condition wears off by one a round (Stun 1 is gone after a round of ten seconds).
#[test]
fn a_stunned_or_helpless_attacker_takes_no_action() {
    let s = campaign();
    let quarrel = |s: &crate::common::Scratch| {
        s.run(&[
            "wi",
            "quarrel",
            "Gerd",
            "Ana",
            "--defence",
            "light-foot",
            "--attack-hits",
            "0",
            "--defence-hits",
            "2",
        ])
    };
    s.ok(&["wi", "condition", "Gerd", "stun", "--add", "1"]);
    let before = s.bytes();
    let out = quarrel(&s);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stderr
            .contains("Gerd is Stun 1: attacking is an Action"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before, "nothing was written");
    // The free attack a foe's disengaging gives is not an Action (003 l.125): taken.
    let free = [
        "wi",
        "quarrel",
        "Gerd",
        "Ana",
        "--defence",
        "light-foot",
        "--attack-hits",
        "0",
        "--defence-hits",
        "2",
        "--free-attack",
    ];
    assert_eq!(s.run(&free).code, 0);
    // A round later the Stun has worn off (1 - 1): Net Hits 0 - 2 = -2, Ana gives way.
    s.ok(&["advance", "1r"]);
    assert_eq!(quarrel(&s).code, 0);
    // Helpless 2: refused now and a round later (2 - 1 = 1), taken two rounds later.
    s.ok(&["wi", "condition", "Gerd", "helpless", "--add", "2"]);
    assert!(quarrel(&s).stderr.contains("Gerd is Helpless 2"));
    s.ok(&["advance", "1r"]);
    assert!(quarrel(&s).stderr.contains("Gerd is Helpless 1"));
    s.ok(&["advance", "1r"]);
    assert_eq!(quarrel(&s).code, 0);
}
