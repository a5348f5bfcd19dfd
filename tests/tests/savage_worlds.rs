//! Savage Worlds through the CLI, and the ledger's features (rulings, time travel, the agenda)
//! on a campaign that is not HârnMaster.

use crate::common;
use common::Scratch;
use serde_json::Value;

fn campaign() -> Scratch {
    let s = Scratch::new();
    s.ok(&["init", "--system", "savage-worlds"]);
    s.ok(&["character", "add", "Red", "--toughness", "6"]);
    s.ok(&["character", "add", "Grunt", "--toughness", "5", "--extra"]);
    s
}

#[test]
fn damage_shaken_wounds_and_the_fourth_wound() {
    let s = campaign();
    // Meeting Toughness exactly shakes; under it does nothing.
    assert!(s
        .ok(&["sw", "damage", "Red", "--damage", "d6", "--dice", "damage=5"])
        .contains("no effect"));
    let out = s.run(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d6",
        "--dice",
        "damage=6+0",
    ]);
    assert!(out.stderr.contains("not 0"), "{}", out.stderr);
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d4+d4",
        "--dice",
        "damage=3/3",
    ]); // 6: Shaken
    let v = s.show("Red");
    assert_eq!(
        (v["shaken"].as_bool(), v["wounds"].as_u64()),
        (Some(true), Some(0))
    );
    // Shaken again: a Wound.
    assert!(s
        .ok(&[
            "sw",
            "damage",
            "Red",
            "--damage",
            "d4+d4",
            "--dice",
            "damage=3/3"
        ])
        .contains("Shaken again: 1 Wound"));
    // 14: two raises: 3 Wounds; the penalty is -3 and the pace 3.
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d8+d6",
        "--dice",
        "damage=8+3/3",
    ]);
    let v = s.show("Red");
    assert_eq!(
        (
            v["wounds"].as_u64(),
            v["wound_penalty"].as_i64(),
            v["pace"].as_i64()
        ),
        (Some(3), Some(-3), Some(3))
    );
    assert_eq!(v["incapacitated"], false, "three Wounds: not yet");
    // The fourth: Incapacitated, the Vigor roll owed.
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d4+d4",
        "--dice",
        "damage=3/3",
    ]);
    let v = s.show("Red");
    assert_eq!(
        (v["wounds"].as_u64(), v["incapacitated"].as_bool()),
        (Some(4), Some(true))
    );
    assert_eq!(v["wound_penalty"], -3, "the penalty stays at -3");
    let due: Value = serde_json::from_str(&s.ok(&["due", "Red", "--json"])).unwrap();
    assert!(due
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o["kind"] == "incapacitation"));
    // An Extra is Incapacitated by the first Wound.
    s.ok(&[
        "sw",
        "damage",
        "Grunt",
        "--damage",
        "d6+d4",
        "--dice",
        "damage=6+1/2",
    ]);
    assert_eq!(s.show("Grunt")["incapacitated"], true);
}

#[test]
fn incapacitation_bleeding_out_stabilising_and_healing() {
    let s = campaign();
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d12+d12",
        "--dice",
        "damage=12+12+11/1",
    ]); // 36: 7 raises
        // Vigor d8 8+7 (aced) - 3 = 12: a raise: the injury lasts a day or until the wounds heal.
    let out = s.ok(&[
        "sw",
        "roll",
        "Red",
        "incapacitation",
        "--trait",
        "d8",
        "--dice",
        "trait=8+7,wild=2,injury=6/6,sub=6",
    ]);
    assert!(
        out.contains("Injury 12 Head: Brain Damage") && out.contains("for 24 hours"),
        "{out}"
    );
    assert_eq!(s.show("Red")["bleeding_out"], false);
    s.ok(&["advance", "1d"]);
    assert_eq!(
        s.show("Red")["injuries"][0]["active"],
        false,
        "gone after 24 hours"
    );
    // Bleeding Out: a failure on Vigor kills.
    s.ok(&[
        "sw",
        "damage",
        "Grunt",
        "--damage",
        "d6+d4",
        "--dice",
        "damage=6+1/2",
    ]);
    s.ok(&[
        "sw",
        "roll",
        "Grunt",
        "incapacitation",
        "--trait",
        "d6",
        "--dice",
        "trait=2,wild=3,injury=1/2,sub=5",
    ]); // 3-1 = 2: failure
    assert_eq!(s.show("Grunt")["bleeding_out"], true);
    s.ok(&["advance", "1r"]); // the start of Grunt's next turn
    let out = s.ok(&[
        "sw",
        "roll",
        "Grunt",
        "bleeding-out",
        "--trait",
        "d6",
        "--dice",
        "trait=2,wild=1",
    ]);
    assert!(out.contains("perishes"), "{out}");
    assert_eq!(s.show("Grunt")["dead"], true);
    // Healing the wounds ends temporary injuries.
    let out = s.ok(&["sw", "heal", "Red", "--wounds", "9"]);
    assert!(out.contains("0 left"), "{out}");
}

#[test]
fn mixed_systems_are_refused_clearly_and_change_nothing() {
    let s = campaign();
    let before = s.bytes();
    let out = s.run(&[
        "strike",
        "Red",
        "--aspect",
        "edge",
        "--location",
        "thorax",
        "--effective",
        "5",
    ]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("Red is not a HârnMaster character"),
        "{}",
        out.stderr
    );
    let out = s.run(&[
        "character",
        "add",
        "Osric",
        "--str",
        "12",
        "--end",
        "12",
        "--shock",
        "65",
        "--hb",
        "13",
    ]);
    // A HârnMaster sheet in a Savage Worlds campaign: its options are named as another
    // system's (issue 12, item 17).
    assert!(
        out.stderr.contains("the campaign plays savage-worlds")
            && out.stderr.contains("--str (harnmaster)"),
        "{}",
        out.stderr
    );
    let out = s.run(&["character", "add", "Osric"]);
    assert!(
        out.stderr
            .contains("a Savage Worlds character needs --toughness"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    let h = Scratch::with_osric();
    let out = h.run(&[
        "sw", "damage", "Osric", "--damage", "d6", "--dice", "damage=3",
    ]);
    assert!(
        out.stderr
            .contains("Osric is not a Savage Worlds character"),
        "{}",
        out.stderr
    );
}

#[test]
fn rulings_and_time_travel_work_for_savage_worlds() {
    let s = campaign();
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d8+d6",
        "--dice",
        "damage=8+5/4",
    ]); // 2 Wounds
    s.ok(&[
        "sw", "damage", "Red", "--damage", "d4", "--dice", "damage=3",
    ]);
    let log: Value = serde_json::from_str(&s.ok(&["log", "--json"])).unwrap();
    let first = log
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "sw.damage")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let at: Value =
        serde_json::from_str(&s.ok(&["show", "Red", "--at", &first, "--json"])).unwrap();
    assert_eq!(at["wounds"], 2);
    s.ok(&["retract", &first, "--reason", "the blow was parried"]);
    let v = s.show("Red");
    assert_eq!(
        (v["wounds"].as_u64(), v["shaken"].as_bool()),
        (Some(0), Some(false))
    );
    assert!(s
        .ok(&["diff", "Red", "--from", &first])
        .contains("wounds: 2 -> 0"));
    s.ok(&["verify"]);
}

#[test]
fn the_savage_worlds_demo_runs() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("d.db");
    let out = leechbook::run([
        "leechbook",
        "demo",
        "--system",
        "savage-worlds",
        "--out",
        db.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("Red Doc's Healing 6: stabilised"),
        "{}",
        out.stdout
    );
}

/// Issue 12, item 13: only a leg injury still in effect makes a new leg injury Major ("Major
/// if already Slow or injured in either leg"); one whose 24 hours passed, or whose Wounds all
/// healed, does not, even when new Wounds come.
#[test]
fn only_a_leg_injury_in_effect_makes_the_next_major() {
    let incapacitated = |s: &Scratch, dice: &str| {
        s.ok(&[
            "sw",
            "roll",
            "Red",
            "incapacitation",
            "--trait",
            "d8",
            "--dice",
            dice,
        ])
    };
    // (A) A raise's leg injury (8+7 - 3 = 12: a raise; injury 5+5 = 10: Leg), a day later.
    let s = campaign();
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d12+d12",
        "--dice",
        "damage=12+12+11/1",
    ]);
    let out = incapacitated(&s, "trait=8+7,wild=2,injury=5/5");
    assert!(
        out.contains("Injury 10 Leg: the Slow Hindrance (Minor) (for 24 hours"),
        "{out}"
    );
    s.ok(&["advance", "1d"]);
    s.ok(&["sw", "heal", "Red", "--wounds", "4"]); // 3 left: no longer Incapacitated
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d4+d4",
        "--dice",
        "damage=3/3",
    ]); // a 4th Wound
    let out = incapacitated(&s, "trait=8+7,wild=2,injury=6/4");
    assert!(
        out.contains("Injury 10 Leg: the Slow Hindrance (Minor)"),
        "{out}"
    );
    // (B) A success's leg injury (7 - 3 = 4), gone with all Wounds healed, then new Wounds.
    let s = campaign();
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d12+d12",
        "--dice",
        "damage=12+12+11/1",
    ]);
    incapacitated(&s, "trait=7,wild=2,injury=5/5");
    s.ok(&["sw", "heal", "Red", "--wounds", "7"]);
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d12+d12",
        "--dice",
        "damage=12+12+11/1",
    ]);
    assert_eq!(s.show("Red")["injuries"][0]["active"], false);
    let out = incapacitated(&s, "trait=7,wild=2,injury=4/6");
    assert!(
        out.contains("Injury 10 Leg: the Slow Hindrance (Minor)"),
        "{out}"
    );
    // (C) That one is in effect (3 Wounds left): the next leg injury is Major.
    s.ok(&["sw", "heal", "Red", "--wounds", "4"]);
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d4+d4",
        "--dice",
        "damage=3/3",
    ]);
    let out = incapacitated(&s, "trait=7,wild=2,injury=5/6");
    assert!(
        out.contains("Injury 11 Leg: the Slow Hindrance (Major)"),
        "{out}"
    );
    // A die the roll does not take is refused (the sweep of item 9).
    let before = s.bytes();
    let out = s.run(&[
        "sw",
        "roll",
        "Red",
        "spirit-recovery",
        "--trait",
        "d6",
        "--dice",
        "trait=4,wild=2,sub=3",
    ]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stderr.contains("did not need the given 1 die(s): sub"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
}

/// Red takes 27 damage (five raises): Incapacitated, the fourth Wound and more.
fn incapacitated(s: &Scratch) {
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d8+d6",
        "--dice",
        "damage=8+8+6/5",
    ]);
}

/// Red's Bleeding Out roll on Vigor d8: 7 (wild 2), less 3 for his Wounds: 4, a success.
const BLEEDING_7: [&str; 8] = [
    "sw",
    "roll",
    "Red",
    "bleeding-out",
    "--trait",
    "d8",
    "--dice",
    "trait=7,wild=2",
];

/// Rules text 004, Bleeding Out: "a Vigor roll at the start of his turn ... With success he
/// survives but must roll again next turn". Read: due one round (10 s here) after it began or
/// was last survived; a plain `advance` stops there.
#[test]
fn a_bleeding_out_roll_falls_due_each_turn_and_advance_stops_there() {
    let s = campaign();
    incapacitated(&s);
    // Vigor d8: 2 (wild 2) - 3 = -1, a failure: permanent Arm (2d6 1+2 = 3), Bleeding Out.
    s.ok(&[
        "sw",
        "roll",
        "Red",
        "incapacitation",
        "--trait",
        "d8",
        "--dice",
        "trait=2,wild=2,injury=1/2,sub=5",
    ]);
    let due: Value = serde_json::from_str(&s.ok(&["due", "Red", "--json"])).unwrap();
    let bleeding = due
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["kind"] == "bleeding-out")
        .expect("a Bleeding Out roll owed");
    assert_eq!(bleeding["due_at"], "day 1 00:00:10");
    // Not before the start of his next turn: refused, nothing recorded.
    let before = s.bytes();
    let out = s.run(&BLEEDING_7);
    assert!(
        out.stderr
            .contains("Red's Bleeding Out roll is due at day 1 00:00:10"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    let out = s.ok(&["advance", "1m"]);
    assert!(
        out.contains(
            "stopped at day 1 00:00:10: Red owes a bleeding-out roll; record it (leechbook sw roll Red bleeding-out)"
        ),
        "{out}"
    );
    assert_eq!(s.show("Red")["campaign_time"], "day 1 00:00:10");
    // 7 - 3 = 4: a success, he survives this turn; the next is due a round later.
    s.ok(&BLEEDING_7);
    let out = s.ok(&["advance", "1m", "--roll"]);
    assert!(out.contains("stopped at day 1 00:00:20"), "{out}");
    assert!(out.contains("Leechbook does not roll it for you"), "{out}");
    s.ok(&["advance", "1m", "--skip-owed"]);
    assert_eq!(s.show("Red")["campaign_time"], "day 1 00:01:20");
}

/// Rules text 004, Injury Table, Guts: "Battered: Vigor reduced a die type (minimum d4)". A
/// raise's injury lasts 24 hours: the die comes back when it ends.
#[test]
fn a_die_type_lost_on_the_injury_table_is_the_die_of_later_trait_rolls_while_it_lasts() {
    let s = campaign();
    s.ok(&["sw", "attributes", "Red", "--vigor", "d8", "--spirit", "d6"]);
    incapacitated(&s);
    // Vigor d8 8+5 = 13 - 3 = 10: a raise: Guts (2d6 3+4 = 7), sub 3: Battered, for 24 hours.
    let out = s.ok(&[
        "sw",
        "roll",
        "Red",
        "incapacitation",
        "--dice",
        "trait=8+5,wild=1,injury=3/4,sub=3",
    ]);
    assert!(out.contains("Guts: Battered"), "{out}");
    let vigor = |s: &Scratch| {
        let v = s.show("Red");
        let a = v["attributes"].as_array().unwrap().clone();
        a.into_iter().find(|a| a["name"] == "Vigor").unwrap()
    };
    assert_eq!(
        (vigor(&s)["recorded"].as_str(), vigor(&s)["now"].as_str()),
        (Some("d8"), Some("d6"))
    );
    // A later Vigor roll takes d6: d8 is refused, naming why; the ledger is untouched.
    // Two Wounds heal (3 left: no longer Incapacitated); 20 damage: three raises, 6 Wounds.
    s.ok(&["sw", "heal", "Red", "--wounds", "2"]);
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d6",
        "--dice",
        "damage=6+6+6+2",
    ]);
    let before = s.bytes();
    let out = s.run(&[
        "sw",
        "roll",
        "Red",
        "incapacitation",
        "--trait",
        "d8",
        "--dice",
        "trait=5,wild=1,injury=1/1",
    ]);
    assert_eq!(
        out.stderr.trim(),
        "error: Red's Vigor is d6 (d8, lowered by Guts: Battered): the roll's trait die is d8"
    );
    assert_eq!(s.bytes(), before);
    // Spirit is not lowered: its die is d6 as recorded.
    let v = s.show("Red");
    let spirit = v["attributes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "Spirit")
        .unwrap()
        .clone();
    assert_eq!(spirit["now"], "d6");
    s.ok(&["advance", "25h", "--skip-owed"]);
    assert_eq!(
        vigor(&s)["now"],
        "d8",
        "24 hours on, the raise's injury is over"
    );
}

/// Issue 26: `--damage 2d6+1` is two d6s (each acing on its own) and 1: 3 + 4 + 1 = 8
/// against Toughness 6 shakes.
#[test]
fn damage_takes_a_number_of_dice() {
    let s = campaign();
    let out = s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "2d6+1",
        "--dice",
        "damage=3/4",
    ]);
    assert!(out.contains("damage 8 vs Toughness 6: Shaken"), "{out}");
    let out = s.run(&["sw", "damage", "Red", "--damage", "0d6"]);
    assert!(
        out.stderr
            .contains("'0d6' is not a number of dice (1-20) and a die"),
        "{}",
        out.stderr
    );
}

/// The Injury Table's d6s do not ace and show 1 to 6: a chained or impossible face given for
/// them is refused in one line, and nothing is written (on a critical failure the table is
/// not read at all, and faces given for it are refused as not needed).
#[test]
fn the_injury_tables_dice_take_one_face_each_from_one_to_six() {
    let s = campaign();
    s.ok(&[
        "sw",
        "damage",
        "Grunt",
        "--damage",
        "d6+d4",
        "--dice",
        "damage=6+1/2",
    ]);
    let before = s.bytes();
    for (dice, says) in [
        ("trait=2,wild=3,injury=3+5/4,sub=2", "does not ace"),
        ("trait=2,wild=3,injury=7/4,sub=2", "injury"),
        // A critical failure (both dice 1) reads no table: its faces are not needed.
        (
            "trait=1,wild=1,injury=999/999,sub=999",
            "reads no Injury Table",
        ),
    ] {
        let out = s.run(&[
            "sw",
            "roll",
            "Grunt",
            "incapacitation",
            "--trait",
            "d6",
            "--dice",
            dice,
        ]);
        assert_eq!(out.code, 1, "{dice}: {}", out.stdout);
        assert!(out.stderr.contains(says), "{dice}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert_eq!(s.bytes(), before, "{dice} wrote the ledger");
    }
}

/// A Savage Worlds character's story: every event about them, told as the terminal told it,
/// in the fold's order (issue 40: stories for every system); a wound's own story is
/// HârnMaster's, and is refused in one line.
#[test]
fn a_savage_worlds_characters_history_tells_every_event_about_them() {
    let s = campaign();
    let damage = s.ok(&[
        "sw",
        "damage",
        "Grunt",
        "--damage",
        "d6+d4",
        "--dice",
        "damage=6+1/2",
    ]);
    let incapacitation = s.ok(&[
        "sw",
        "roll",
        "Grunt",
        "incapacitation",
        "--trait",
        "d6",
        "--dice",
        "trait=2,wild=3,injury=1/2,sub=5",
    ]);
    let story: serde_json::Value =
        serde_json::from_str(&s.ok(&["history", "Grunt", "--json"])).unwrap();
    let kinds: Vec<&str> = story["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["character-added", "sw.damage", "sw.incapacitation"],
        "{story}"
    );
    // Each told in the words the command said when it was recorded.
    assert_eq!(
        story["entries"][1]["summary"].as_str().unwrap(),
        damage.lines().next().unwrap()
    );
    assert_eq!(
        story["entries"][2]["summary"].as_str().unwrap(),
        incapacitation.lines().next().unwrap()
    );
    assert!(story["ending"].is_null(), "Grunt lives: {story}");
    let text = s.ok(&["history", "Grunt"]);
    assert!(text.starts_with("Grunt:"), "{text}");
    let out = s.run(&["history", "Grunt", "abcd"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains(
            "Grunt is not a HârnMaster character: only a HârnMaster injury has a story of its own"
        ),
        "{}",
        out.stderr
    );
}

/// Stabilising a bleeder is another's Healing roll, an action (004 l.50): the healer is a
/// character of the campaign who may act (a Shaken one takes only free actions, l.20), not
/// the bleeder; one the campaign does not hold is named with --npc. Refusals write nothing.
#[test]
fn the_healer_who_stabilises_is_checked() {
    let s = campaign();
    s.ok(&["character", "add", "Doc", "--toughness", "5"]);
    // 27 against Toughness 6: five raises, Incapacitated; Vigor 3 - 3 = 0 fails: Bleeding Out.
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d8+d6",
        "--dice",
        "damage=8+8+6/5",
    ]);
    s.ok(&[
        "sw",
        "roll",
        "Red",
        "incapacitation",
        "--trait",
        "d8",
        "--dice",
        "trait=2,wild=3,injury=3/4,sub=1",
    ]);
    assert_eq!(s.show("Red")["bleeding_out"], true);
    // Doc meets his Toughness exactly: Shaken.
    s.ok(&[
        "sw", "damage", "Doc", "--damage", "d6", "--dice", "damage=5",
    ]);
    let before = s.bytes();
    let stabilise = |healer: &str, npc: bool| {
        let mut args = vec![
            "sw",
            "stabilise",
            "Red",
            "--healer",
            healer,
            "--trait",
            "d6",
            "--dice",
            "trait=5,wild=2",
        ];
        if npc {
            args.push("--npc");
        }
        s.run(&args)
    };
    for (healer, npc, says) in [
        ("Doc", false, "Doc is Shaken: only free actions"),
        ("Red", false, "Red cannot stabilise themselves"),
        ("Old Mag", false, "no character named 'Old Mag'"),
        (
            "Doc",
            true,
            "Doc is a character of the campaign: give no --npc",
        ),
    ] {
        let out = stabilise(healer, npc);
        assert_eq!(out.code, 1, "{healer}: {}", out.stdout);
        assert!(out.stderr.contains(says), "{healer}: {}", out.stderr);
        assert_eq!(s.bytes(), before, "{healer}: nothing was written");
    }
    // Spirit 4 >= 4: Doc recovers, and stabilises: 5 >= 4.
    s.ok(&[
        "sw",
        "roll",
        "Doc",
        "spirit-recovery",
        "--trait",
        "d6",
        "--dice",
        "trait=4,wild=1",
    ]);
    let out = s.ok(&[
        "sw",
        "stabilise",
        "Red",
        "--healer",
        "Doc",
        "--trait",
        "d6",
        "--dice",
        "trait=5,wild=2",
    ]);
    assert!(out.contains("stabilised"), "{out}");
    assert_eq!(s.show("Red")["bleeding_out"], false);
}

/// Dice the rules do not read are neither asked for nor rolled (issue 40): the Injury
/// Table's sub-roll is rolled only by the rows that have one (004 l.33-40: an arm's side, the
/// guts, the head), not by Unmentionables (2) or a leg (10-11); a critical failure on the
/// Vigor roll kills and reads no table at all.
#[test]
fn the_injury_tables_sub_roll_and_dice_only_when_the_rules_read_them() {
    let s = campaign();
    let incapacitated = |who: &str| {
        s.ok(&[
            "sw",
            "damage",
            who,
            "--damage",
            "d12+d12",
            "--dice",
            "damage=12+12+11/1",
        ]);
    };
    incapacitated("Red");
    // Vigor d8 5 (wild 2) - 3 wounds = 2: a failure; the table's 1 + 1 = 2, Unmentionables.
    let before = s.bytes();
    let out = s.run(&[
        "sw",
        "roll",
        "Red",
        "incapacitation",
        "--trait",
        "d8",
        "--dice",
        "trait=5,wild=2,injury=1/1,sub=4",
    ]);
    assert_eq!(
        out.code, 1,
        "a sub-roll the row does not read: {}",
        out.stdout
    );
    assert!(out.stderr.contains("sub"), "{}", out.stderr);
    assert_eq!(s.bytes(), before);
    // Given the two dice the row reads, nothing is rolled for it (with a seed, Leechbook
    // would roll and say so).
    let out = s.run(&[
        "sw",
        "roll",
        "Red",
        "incapacitation",
        "--trait",
        "d8",
        "--seed",
        "3",
        "--dice",
        "trait=5,wild=2,injury=1/1",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("Unmentionables"), "{}", out.stdout);
    assert!(
        !out.stderr.contains("rolled by Leechbook"),
        "{}",
        out.stderr
    );
    // A critical failure (both dice 1) kills; no table die is drawn or wanted.
    s.ok(&["character", "add", "Blue", "--toughness", "6"]);
    incapacitated("Blue");
    let out = s.run(&[
        "sw",
        "roll",
        "Blue",
        "incapacitation",
        "--trait",
        "d8",
        "--dice",
        "trait=1,wild=1",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        !out.stderr.contains("rolled by Leechbook"),
        "{}",
        out.stderr
    );
    assert_eq!(s.show("Blue")["dead"], true);
}

/// Shaken characters try to recover at the start of their turn, once (004 l.4, l.20): a
/// second Spirit roll in the same round is refused in one line, naming when the next falls
/// due; a round later it is taken.
#[test]
fn the_spirit_roll_to_recover_from_shaken_is_once_a_turn() {
    let s = campaign();
    // 6 against Toughness 6: Shaken.
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d4+d4",
        "--dice",
        "damage=3/3",
    ]);
    assert_eq!(s.show("Red")["shaken"], true);
    // Spirit d6: max(2, 3) = 3 < 4, a failure.
    let out = s.ok(&[
        "sw",
        "roll",
        "Red",
        "spirit-recovery",
        "--trait",
        "d6",
        "--dice",
        "trait=2,wild=3",
    ]);
    assert!(
        out.contains("still Shaken") || !out.contains("recovers"),
        "{out}"
    );
    let before = s.bytes();
    let again = || {
        s.run(&[
            "sw",
            "roll",
            "Red",
            "spirit-recovery",
            "--trait",
            "d6",
            "--dice",
            "trait=5,wild=1",
        ])
    };
    let out = again();
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stderr.contains(
            "Red's Spirit roll to recover from Shaken is made once a turn: the next is due at day 1 00:00:10"
        ),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before, "nothing was written");
    // A round later: 5 >= 4, Red recovers.
    s.ok(&["advance", "1r"]);
    assert_eq!(again().code, 0);
    assert_eq!(s.show("Red")["shaken"], false);
}

/// The healer's own wounds are on the stabilising roll (004 l.21: -1 a Wound), and said;
/// an Incapacitated healer takes no action.
#[test]
fn a_wounded_healer_rolls_with_their_penalty_and_an_incapacitated_one_not_at_all() {
    let s = campaign();
    s.ok(&["character", "add", "Doc", "--toughness", "5"]);
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d8+d6",
        "--dice",
        "damage=8+8+6/5",
    ]);
    s.ok(&[
        "sw",
        "roll",
        "Red",
        "incapacitation",
        "--trait",
        "d8",
        "--dice",
        "trait=2,wild=3,injury=3/4,sub=1",
    ]);
    // 9 against Toughness 5: one raise, a Wound (and Shaken); Spirit 4 recovers.
    s.ok(&[
        "sw",
        "damage",
        "Doc",
        "--damage",
        "d6+d4",
        "--dice",
        "damage=6+1/2",
    ]);
    s.ok(&[
        "sw",
        "roll",
        "Doc",
        "spirit-recovery",
        "--trait",
        "d6",
        "--dice",
        "trait=5,wild=1",
    ]);
    assert_eq!(s.show("Doc")["wounds"], 1);
    // Healing 4 - 1 = 3: a failure, said with the penalty.
    let out = s.run(&[
        "sw",
        "stabilise",
        "Red",
        "--healer",
        "Doc",
        "--trait",
        "d6",
        "--dice",
        "trait=4,wild=1",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("Doc's wound penalty -1 is on the roll"),
        "{}",
        out.stderr
    );
    assert_eq!(s.show("Red")["bleeding_out"], true, "{}", out.stdout);
    // Grunt, an Extra, is Incapacitated by his first Wound: he stabilises no one.
    s.ok(&[
        "sw",
        "damage",
        "Grunt",
        "--damage",
        "d6+d4",
        "--dice",
        "damage=6+1/2",
    ]);
    let out = s.run(&[
        "sw",
        "stabilise",
        "Red",
        "--healer",
        "Grunt",
        "--trait",
        "d6",
        "--dice",
        "trait=6+4,wild=2",
    ]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stderr.contains("Grunt is Incapacitated"),
        "{}",
        out.stderr
    );
}
