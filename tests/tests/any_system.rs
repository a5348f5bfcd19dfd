//! Issue 40, item 2: rulings and stories for every system. `amend` corrects any recorded die
//! or input of any system's event, and the fold re-derives what follows; `why` tells the
//! chain behind any system's character's state. Each outcome is worked by hand from the text.

use crate::common;
use common::Scratch;
use serde_json::Value;

/// `#N` of the last event of `kind`.
fn last(s: &Scratch, kind: &str) -> String {
    let log: Vec<Value> = serde_json::from_str(&s.ok(&["log", "--json"])).unwrap();
    let e = log.iter().rev().find(|e| e["kind"] == kind).unwrap();
    format!("#{}", e["clock"])
}

/// Savage Worlds (004 l.48): a Bleeding Out Vigor roll's failure kills, a success survives
/// the turn, a raise stabilises. Red (Toughness 6) takes 36 damage: Incapacitated, at the
/// -3 wound penalty (l.20); Vigor 3 (trait 3, wild 2) - 3 = 0 fails: Bleeding Out.
#[test]
fn a_savage_worlds_bleeding_out_roll_is_amended_and_the_death_undone() {
    let s = Scratch::new();
    s.ok(&["init", "--system", "savage-worlds"]);
    s.ok(&["character", "add", "Red", "--toughness", "6"]);
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d12+d12",
        "--dice",
        "damage=12+12+11/1",
    ]);
    s.ok(&[
        "sw",
        "roll",
        "Red",
        "incapacitation",
        "--trait",
        "d6",
        "--dice",
        "trait=3,wild=2,injury=2/3,sub=1",
    ]);
    assert_eq!(s.show("Red")["bleeding_out"], true);
    s.ok(&["advance", "1r"]);
    // 3 - 3 = 0: a failure: Red perishes.
    s.ok(&[
        "sw",
        "roll",
        "Red",
        "bleeding-out",
        "--trait",
        "d6",
        "--dice",
        "trait=3,wild=2",
    ]);
    assert_eq!(s.show("Red")["dead"], true);
    let roll = last(&s, "sw.bleeding-out");
    // `--list` names what the roll records, by the names a correction takes.
    let list = s.ok(&["amend", &roll, "--list"]);
    for line in [
        "--dice trait=3",
        "--dice wild=2",
        "--set trait-die=d6",
        "--set mod=0",
    ] {
        assert!(list.contains(line), "{line}: {list}");
    }
    // The trait die aced: 6+4 = 10, - 3 = 7: a success, not a raise: alive, still bleeding.
    s.ok(&[
        "amend",
        &roll,
        "--dice",
        "trait=6+4",
        "--reason",
        "misread the ace",
    ]);
    let v = s.show("Red");
    assert_eq!(
        (v["dead"].as_bool(), v["bleeding_out"].as_bool()),
        (Some(false), Some(true))
    );
    // The wild die aced higher: 6+5 = 11, - 3 = 8: a raise: stabilised.
    s.ok(&[
        "amend",
        &roll,
        "--dice",
        "wild=6+5",
        "--reason",
        "the wild die too",
    ]);
    let v = s.show("Red");
    assert_eq!(
        (v["dead"].as_bool(), v["bleeding_out"].as_bool()),
        (Some(false), Some(false))
    );
    // A chain that does not ace, a d6 face of 7, and an input of no such name: refused,
    // nothing written.
    let before = s.bytes();
    for (args, needle) in [
        (
            vec!["--dice", "trait=3+2"],
            "only an ace (6) is rolled again",
        ),
        (vec!["--dice", "wild=7"], "7"),
        (
            vec!["--set", "net-damage=3"],
            "records no input 'net-damage'",
        ),
        (
            vec!["--set", "mod=x"],
            "takes a whole number as mod, not 'x'",
        ),
    ] {
        let mut full = vec!["amend", roll.as_str()];
        full.extend(args.iter().copied());
        full.extend(["--reason", "x"]);
        let out = s.run(&full);
        assert_eq!(out.code, 1, "{full:?}: {}", out.stdout);
        assert!(out.stderr.contains(needle), "{full:?}: {}", out.stderr);
        assert_eq!(
            out.stderr
                .trim()
                .lines()
                .filter(|l| !l.starts_with("hint"))
                .count(),
            1
        );
        assert_eq!(s.bytes(), before, "{full:?} wrote");
    }
}

/// Wrath & Glory: damage 11 against Resilience 6 with no Icons on the Determination dice is
/// 5 Wounds (Tier 1 x 2 + Toughness 3 = Max Wounds 5); corrected to 9 it is 3.
#[test]
fn a_wrath_and_glory_attacks_damage_is_amended() {
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
    s.ok(&[
        "wg",
        "damage",
        "Vex",
        "--damage",
        "11",
        "--dice",
        "determination=1/2/3",
    ]);
    assert_eq!(s.show("Vex")["wounds"], 5);
    let hit = last(&s, "wg.damage");
    s.ok(&[
        "amend",
        &hit,
        "--set",
        "damage=9",
        "--reason",
        "the bolt hit armour",
    ]);
    assert_eq!(s.show("Vex")["wounds"], 3);
    // The Determination dice are corrected by name, as recorded.
    let list = s.ok(&["amend", &hit, "--list"]);
    assert!(list.contains("--dice determination=1/2/3"), "{list}");
    assert!(
        list.contains("--set damage=9"),
        "the amendment in force: {list}"
    );
}

/// Witch Iron (003): Net Damage is (weapon damage + Net Hits) - (AV + RB). Ana's 6 against
/// Gerd's AV 1 and RB 2 at Net Hits +0 is 3 on the rib cage: a Fractured Rib, Trauma 1;
/// corrected to a weapon damage of 4 it is 1, a row that gives no Trauma.
#[test]
fn a_witch_iron_quarrels_strike_is_amended() {
    let s = Scratch::new();
    s.ok(&["init", "--system", "witch-iron"]);
    s.ok(&["character", "add", "Ana", "--rb", "1"]);
    s.ok(&["character", "add", "Gerd", "--rb", "2"]);
    s.ok(&[
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
    assert_eq!(
        s.show("Gerd")["conditions"]["Trauma (rib cage)"]["rating"],
        1
    );
    let q = last(&s, "wi.quarrel");
    s.ok(&[
        "amend",
        &q,
        "--set",
        "weapon-damage=4",
        "--reason",
        "a club, not a sword",
    ]);
    assert!(s.show("Gerd")["conditions"]
        .get("Trauma (rib cage)")
        .is_none());
    let log = s.ok(&["log", "--character", "Gerd"]);
    assert!(log.contains("Net Damage (4 + 0) - (1 + 2) = 1"), "{log}");
}

/// HârnMaster's move test (the aggravation option, 000 Healing step 8): 33 against EML50 is
/// an S and aggravates nothing; amended to 95 it is a CF, and the S2 abdomen owes its
/// aggravation roll.
#[test]
fn a_harnmaster_move_test_is_amended_into_a_cf() {
    let s = Scratch::with_osric();
    s.ok(&common::abdomen_strike("Osric"));
    s.ok(&["option", "aggravation", "on"]);
    s.ok(&[
        "move", "Osric", "--pace", "half", "--ml", "50", "--dice", "roll=33",
    ]);
    let owes = |s: &Scratch| {
        let due: Vec<Value> = serde_json::from_str(&s.ok(&["due", "Osric", "--json"])).unwrap();
        due.iter().any(|o| o["kind"] == "aggravation")
    };
    assert!(!owes(&s), "an S calls for no aggravation roll");
    let m = last(&s, "hm.move-test");
    s.ok(&["amend", &m, "--dice", "roll=95", "--reason", "it was 95"]);
    assert!(owes(&s), "the CF calls for one");
    let out = s.ok(&["amend", &m, "--set", "ml=96", "--reason", "a better EML"]);
    // 95 against EML95 (the EML is bounded at 95): a 5 at or under the EML is a CS, and a
    // CS calls for nothing.
    assert!(
        out.contains("it now reads: Osric move test 95 vs EML95: CS"),
        "{out}"
    );
    assert!(!owes(&s));
}

/// `why` for a character of another system: the events that changed its state, each with
/// its rule, what it changed and the rulings on it; `why NAME WHAT` keeps the marks named.
#[test]
fn why_tells_the_chain_behind_a_savage_worlds_characters_state() {
    let s = Scratch::new();
    s.ok(&["init", "--system", "savage-worlds"]);
    s.ok(&["character", "add", "Red", "--toughness", "6"]);
    // 36 against Toughness 6: seven raises: Shaken and Wounds, Incapacitated (004 l.10-22).
    s.ok(&[
        "sw",
        "damage",
        "Red",
        "--damage",
        "d12+d12",
        "--dice",
        "damage=12+12+11/1",
    ]);
    // Vigor 3 - 3 = 0: a failure: Guts (2+3 = 5), sub 1: Broken, permanent, Bleeding Out.
    s.ok(&[
        "sw",
        "roll",
        "Red",
        "incapacitation",
        "--trait",
        "d6",
        "--dice",
        "trait=3,wild=2,injury=2/3,sub=1",
    ]);
    s.ok(&["advance", "1r"]);
    s.ok(&[
        "sw",
        "roll",
        "Red",
        "bleeding-out",
        "--trait",
        "d6",
        "--dice",
        "trait=3,wild=2",
    ]);
    let roll = last(&s, "sw.bleeding-out");
    s.ok(&["amend", &roll, "--dice", "trait=6+4", "--reason", "the ace"]);
    let why: Value = serde_json::from_str(&s.ok(&["why", "Red", "--json"])).unwrap();
    let kinds: Vec<&str> = why["chain"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["sw.damage", "sw.incapacitation", "sw.bleeding-out"],
        "{why}"
    );
    assert_eq!(
        why["chain"][1]["consequences"],
        serde_json::json!(["Bleeding Out", "Guts: Broken: permanent"])
    );
    assert!(why["chain"][2]["flags"][0]
        .as_str()
        .unwrap()
        .contains("amended by ruling"));
    assert_eq!(why["rulings"][0]["kind"], "ruling.amend");
    assert!(why.get("injury").is_none(), "no HârnMaster injury: {why}");
    // One mark: only the events that moved it.
    let out = s.ok(&["why", "Red", "guts"]);
    assert!(out.starts_with("Red's guts:"), "{out}");
    assert!(
        out.contains("-> Guts: Broken: permanent")
            && !out.contains("sw.damage")
            && !out.contains("Shaken"),
        "{out}"
    );
    assert!(
        out.trim_end().ends_with("=> now: Guts: Broken: permanent"),
        "{out}"
    );
    // A WHAT the record never held is refused, naming what there is.
    let out = s.run(&["why", "Red", "gust"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("Red has no injury, condition or mark 'gust' on the record (now: Shaken, Wounds, Incapacitated, Bleeding Out, Guts: Broken)"),
        "{}",
        out.stderr
    );
}

/// `why` for Wrath & Glory and Witch Iron characters, from the same marks.
#[test]
fn why_tells_wrath_and_witch_iron_characters_too() {
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
    s.ok(&[
        "wg",
        "damage",
        "Vex",
        "--damage",
        "11",
        "--dice",
        "determination=1/2/3",
    ]);
    let out = s.ok(&["why", "Vex", "wounds"]);
    assert!(
        out.contains("-> Wounds: 5") && out.contains("=> now: Wounds: 5"),
        "{out}"
    );
    let s = Scratch::new();
    s.ok(&["init", "--system", "witch-iron"]);
    s.ok(&["character", "add", "Ana", "--rb", "1"]);
    s.ok(&["character", "add", "Gerd", "--rb", "2"]);
    s.ok(&[
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
    let out = s.ok(&["why", "Gerd", "trauma"]);
    assert!(out.contains("-> Trauma (rib cage): 1"), "{out}");
    assert!(out.contains("Quarrel: Net Hits, Net Damage"), "{out}");
}

/// An amendment is compared with the record in force: the same correction twice is refused
/// (nothing changes), and a correction back to the first record is taken. A strike entered
/// with its effective impact has no Strength modifier to correct.
#[test]
fn an_amendment_is_checked_against_the_amendment_in_force() {
    let s = Scratch::with_osric();
    s.ok(&common::abdomen_strike("Osric"));
    s.ok(&["roll", "Osric", "morale", "--ml", "50", "--dice", "roll=40"]);
    let roll = last(&s, "hm.gm-roll");
    s.ok(&["amend", &roll, "--dice", "roll=60", "--reason", "it was 60"]);
    let before = s.bytes();
    let out = s.run(&["amend", &roll, "--dice", "roll=60", "--reason", "again"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("already records that"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    let out = s.ok(&[
        "amend",
        &roll,
        "--dice",
        "roll=40",
        "--reason",
        "it was 40 after all",
    ]);
    assert!(
        out.contains("it now reads: Osric Morale roll 40 vs EML50: CS"),
        "{out}"
    );
    let strike = last(&s, "hm.strike");
    let out = s.run(&["amend", &strike, "--str-mod", "2", "--reason", "x"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("has no str-mod to amend"),
        "{}",
        out.stderr
    );
}
