//! The Injury Sequence end to end through the CLI: the scripting contract and every
//! worked example of the rules text with its dice given.

use crate::common;
use common::Scratch;
use serde_json::Value;

#[test]
fn the_scripting_contract() {
    let s = Scratch::new();
    s.ok(&["init"]);
    s.ok(&[
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
    let out = s.ok(&[
        "strike",
        "Osric",
        "--aspect",
        "edge",
        "--zone-die",
        "d6",
        "--aim",
        "4",
        "--impact",
        "d10+4",
        "--av",
        "4",
        "--dice",
        "zone=2,location=7,impact=8,shock=75",
    ]);
    assert!(
        out.starts_with(
            "Osric: ZD 2 aimed at ZN4 -> ZN5 torso; LD 7 -> abdomen; impact 8+4 = 12E - AV4 = 8 -> S2E; shock 4+2+2 = 8 -> INC"
        ),
        "{out}"
    );
    let v = s.show("Osric");
    assert_eq!(v["type"], "character");
    assert_eq!(v["shock_state"], "INC");
    assert_eq!(v["dead"], false);
    let inj = &v["injuries"][0];
    assert_eq!(inj["location"], "abdomen");
    assert_eq!(inj["aspect"], "edge");
    assert_eq!(inj["severity"], "serious");
    assert_eq!(inj["level"], 2);
    assert_eq!(inj["code"], "S2E");
    assert!(inj["id"].as_str().is_some_and(|id| id.len() == 36));
    assert_eq!(v["impairment"]["torso"]["impairment"], 10);
    assert_eq!(v["impairment"]["left arm"]["impairment"], 0);
}

#[test]
fn examples_1_to_5_the_broadsword_strike_its_shock_reroll_and_morale() {
    let s = Scratch::with_osric();
    // Location and impact examples: d6 ZD aimed at ZN4, 2 -> ZN5 torso; LD 7 abdomen;
    // d10+3E with +1 Strength, 8 -> 12E; AV4 -> 8E -> S2E. Shock: 75 vs ML65 CF -> SHK 8, INC.
    let out = s.ok(&[
        "strike",
        "Osric",
        "--aspect",
        "edge",
        "--zone-die",
        "d6",
        "--aim",
        "4",
        "--impact",
        "d10+3",
        "--str-mod",
        "1",
        "--av",
        "4",
        "--dice",
        "zone=2,location=7,impact=8,shock=75",
    ]);
    assert!(out.contains("impact 8+3+1 = 12E - AV4 = 8 -> S2E"), "{out}");
    assert!(
        out.contains("shock 4+2+2 = 8 -> INC (roll 75 vs EML65: CF)"),
        "{out}"
    );
    let due: Value = serde_json::from_str(&s.ok(&["due", "Osric", "--json"])).unwrap();
    let reroll = due
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["kind"] == "shock-reroll")
        .expect("a shock reroll is owed");
    assert_eq!(reroll["eml"], 45);
    // The reroll at EML45: 42 is S -> STN.
    let out = s.ok(&["roll", "Osric", "shock-reroll", "--dice", "roll=42"]);
    assert!(out.contains("42 vs EML45: S -> STN"), "{out}");
    assert_eq!(s.show("Osric")["shock_state"], "STN");
    // 61 against Shock ML65: no longer stunned.
    let out = s.ok(&["roll", "Osric", "stun-recovery", "--dice", "roll=61"]);
    assert!(out.contains("61 vs EML65: S -> none"), "{out}");
    let v = s.show("Osric");
    assert_eq!(v["shock_state"], "none");
    assert_eq!(v["impairment"]["torso"]["impairment"], 10);
    // Example 5: the Morale roll after recovering from STN, Initiative ML60, 29 = S.
    let kinds = |v: &Value| -> Vec<String> {
        v["owed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["kind"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(kinds(&v).contains(&"morale".to_string()), "{v}");
    let out = s.ok(&["roll", "Osric", "morale", "--ml", "60", "--dice", "roll=29"]);
    assert!(out.contains("Morale roll 29 vs EML60: S"), "{out}");
    // Now only the Healing Sequence is owed: the treatment decision and the first Healing Roll.
    assert_eq!(kinds(&s.show("Osric")), ["treatment", "healing"]);
}

#[test]
fn example_3_an_old_thorax_injury_does_not_compound_with_the_abdomen() {
    let s = Scratch::with_osric();
    s.ok(&[
        "strike",
        "Osric",
        "--aspect",
        "blunt",
        "--location",
        "thorax",
        "--effective",
        "2",
        "--dice",
        "shock=11",
    ]);
    // No compound die is needed: giving none must succeed, and nothing is rolled.
    let out = s.run(&[
        "strike",
        "Osric",
        "--aspect",
        "edge",
        "--zone-die",
        "d6",
        "--aim",
        "4",
        "--impact",
        "d10+3",
        "--str-mod",
        "1",
        "--av",
        "4",
        "--dice",
        "zone=2,location=7,impact=8,shock=12",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stdout.contains("compound"), "{}", out.stdout);
    assert!(out.stderr.is_empty(), "nothing rolled: {}", out.stderr);
    let codes: Vec<String> = s.show("Osric")["injuries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["code"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(codes, ["M1B", "S2E"]);
}

#[test]
fn compound_example_through_the_cli() {
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
        "3",
        "--dice",
        "shock=11",
    ]);
    let out = s.ok(&[
        "strike",
        "Osric",
        "--aspect",
        "blunt",
        "--location",
        "shoulder",
        "--side",
        "right",
        "--effective",
        "17",
        "--dice",
        "compound=4,shock=11",
    ]);
    assert!(
        out.contains("compound d10 4 vs TN5: the new injury IL4 becomes IL5"),
        "{out}"
    );
    let v = s.show("Osric");
    assert_eq!(v["injuries"][0]["code"], "M1E");
    assert_eq!(v["injuries"][1]["code"], "G5B");
    // G4 blunt in the (grey-circled) shoulder is not a bleeder; G5 blunt is (EPB).
    assert_eq!(v["injuries"][1]["bleeder"], true);
}

#[test]
fn bleeding_example_g4_blunt_shoulder_is_not_a_bleeder() {
    let s = Scratch::with_osric();
    s.ok(&[
        "strike",
        "Osric",
        "--aspect",
        "blunt",
        "--location",
        "shoulder",
        "--side",
        "left",
        "--effective",
        "15",
        "--dice",
        "shock=11",
    ]);
    let v = s.show("Osric");
    assert_eq!(v["injuries"][0]["code"], "G4B");
    assert_eq!(v["injuries"][0]["bleeder"], false);
    assert_eq!(v["impairment"]["left arm"]["unusable"], true);
}

#[test]
fn dice_not_given_are_rolled_recorded_and_reproducible_with_a_seed() {
    let a = Scratch::with_osric();
    let b = Scratch::with_osric();
    let args = [
        "--seed",
        "42",
        "strike",
        "Osric",
        "--aspect",
        "point",
        "--zone-die",
        "d8",
        "--impact",
        "d8+2",
    ];
    let ra = a.run(&args);
    let rb = b.run(&args);
    assert_eq!(ra.code, 0, "{}", ra.stderr);
    assert!(
        ra.stderr.starts_with("rolled by Leechbook: zone="),
        "{}",
        ra.stderr
    );
    assert_eq!(ra.stdout, rb.stdout);
    assert_eq!(ra.stderr, rb.stderr);
    // Replay reads the recorded faces: showing twice (a fresh fold each time) agrees.
    assert_eq!(a.show("Osric"), a.show("Osric"));
}

#[test]
fn a_zone_die_miss_is_recorded_and_narrated() {
    let s = Scratch::with_osric();
    let out = s.ok(&[
        "strike",
        "Osric",
        "--aspect",
        "edge",
        "--zone-die",
        "d4",
        "--aim",
        "8",
        "--impact",
        "d10+3",
        "--dice",
        "zone=4",
    ]);
    assert!(
        out.contains("ZD 4 aimed at ZN8 -> ZN11: off the table, the strike misses"),
        "{out}"
    );
    assert_eq!(s.show("Osric")["injuries"].as_array().unwrap().len(), 0);
    assert!(s.ok(&["log"]).contains("the strike misses"));
}

#[test]
fn the_unconscious_reroll_waits_ten_minutes() {
    let s = Scratch::with_osric();
    // Skull 5 + S3 3 + F 1 = 9: UNC.
    s.ok(&[
        "strike",
        "Osric",
        "--aspect",
        "blunt",
        "--location",
        "skull",
        "--effective",
        "12",
        "--dice",
        "shock=66",
    ]);
    let early = s.run(&["roll", "Osric", "shock-reroll", "--dice", "roll=20"]);
    assert_eq!(early.code, 1);
    assert!(
        early.stderr.contains("not due until day 1 00:10"),
        "{}",
        early.stderr
    );
    s.ok(&["advance", "10m"]);
    let out = s.ok(&["roll", "Osric", "shock-reroll", "--dice", "roll=20"]);
    assert!(out.contains("20 vs EML45: CS -> none"), "{out}");
}

#[test]
fn creature_tables_load_from_data_and_are_used() {
    let s = Scratch::with_osric();
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/creatures/sample-vlasta.toml"
    );
    s.ok(&["table", "load", sample]);
    s.ok(&[
        "character",
        "add",
        "Critter",
        "--str",
        "5",
        "--end",
        "5",
        "--shock",
        "40",
        "--hb",
        "8",
        "--body",
        "sample-vlasta",
        "--beast",
    ]);
    // A d6 aimed at ZN1 against a three-zone creature: 4 or more misses.
    let out = s.ok(&[
        "strike",
        "Critter",
        "--aspect",
        "edge",
        "--zone-die",
        "d6",
        "--impact",
        "d6",
        "--dice",
        "zone=4",
    ]);
    assert!(out.contains("misses"), "{out}");
    let out = s.ok(&[
        "strike",
        "Critter",
        "--aspect",
        "edge",
        "--zone-die",
        "d6",
        "--impact",
        "d6",
        "--dice",
        "zone=3,location=3,impact=6,shock=10",
    ]);
    assert!(out.contains("ZN3 leg; LD 3 -> left leg"), "{out}");
    // And the table printed by `table show` loads back the same.
    let shown = s.ok(&["table", "show", "sample-vlasta"]);
    let dir = tempfile::tempdir().unwrap();
    let again = dir.path().join("again.toml");
    std::fs::write(&again, shown.replace("sample-vlasta", "again")).unwrap();
    s.ok(&["table", "load", again.to_str().unwrap()]);
}

/// Issue 12, item 12: `table show NAME --json` prints JSON, for a body table as for the
/// treatment tables.
#[test]
fn table_show_json_prints_json() {
    let s = Scratch::with_osric();
    let v: Value = serde_json::from_str(&s.ok(&["table", "show", "human", "--json"]))
        .expect("table show human --json is JSON");
    assert_eq!(v["name"], "human");
    let t: Value = serde_json::from_str(&s.ok(&["table", "show", "treatment", "--json"]))
        .expect("table show treatment --json is JSON");
    assert!(t.is_object());
    // Without --json it stays TOML, the format `table load` reads.
    let toml = s.ok(&["table", "show", "human"]);
    assert!(toml.contains("name = \"human\""), "{toml}");
}

/// Issue 26, item 8: fire and frost share the letter F in an injury's code; the strike's words
/// and `show` say which.
#[test]
fn fire_and_frost_are_told_apart() {
    let s = Scratch::with_osric();
    for (aspect, location, word) in [
        ("fire", "abdomen", "S2F (fire)"),
        ("frost", "thorax", "S2F (frost)"),
    ] {
        let out = s.ok(&[
            "strike",
            "Osric",
            "--aspect",
            aspect,
            "--location",
            location,
            "--effective",
            "8",
            "--dice",
            "shock=12",
        ]);
        assert!(out.contains(word), "{out}");
    }
    let shown = s.ok(&["show", "Osric"]);
    assert!(
        shown.contains("S2F fire ") && shown.contains("S2F frost "),
        "{shown}"
    );
}

/// The kinds of the rolls `due` lists for `name`.
fn due_kinds(s: &Scratch, name: &str) -> Vec<String> {
    let due: Value = serde_json::from_str(&s.ok(&["due", name, "--json"])).unwrap();
    due.as_array()
        .unwrap()
        .iter()
        .map(|o| o["kind"].as_str().unwrap().to_string())
        .collect()
}

/// Issue 40, item 3: a Morale Roll belongs to the fight that called for it ("to continue",
/// 000 l.642): Leechbook reads a fight as the ten minutes the text gives its adrenaline
/// (l.636), counted from when the character is out of its Shock State, so `due` no longer
/// lists the roll ten minutes and a round later, nor on day 27.
#[test]
fn a_morale_roll_lapses_with_the_fight() {
    let s = Scratch::with_osric();
    s.ok(&crate::common::abdomen_strike("Osric"));
    // Half an hour unconscious: the fight is not over for Osric, and the Morale Roll waits
    // for him to come out of it (l.682); its ten minutes count from then.
    s.ok(&[
        "override", "Osric", "--shock", "unc", "--reason", "out cold",
    ]);
    s.ok(&["advance", "30m", "--skip-owed"]);
    assert!(due_kinds(&s, "Osric").contains(&"morale".to_string()));
    s.ok(&["override", "Osric", "--shock", "none", "--reason", "steady"]);
    assert!(due_kinds(&s, "Osric").contains(&"morale".to_string()));
    // Ten minutes on, the fight's moment still holds; a round later it has passed.
    s.ok(&["advance", "10m"]);
    assert!(due_kinds(&s, "Osric").contains(&"morale".to_string()));
    s.ok(&["advance", "1r"]);
    assert!(!due_kinds(&s, "Osric").contains(&"morale".to_string()));
    s.ok(&["advance", "26d", "--skip-owed"]);
    assert!(!due_kinds(&s, "Osric").contains(&"morale".to_string()));
}

/// Issue 40, item 3: `waive` drops a roll the GM resolves, as a ruling: recorded, and
/// retracting it owes the roll again. Waiving what is not owed is refused, nothing written.
#[test]
fn the_gm_waives_a_morale_roll_and_can_take_the_waiver_back() {
    let s = Scratch::with_osric();
    s.ok(&crate::common::abdomen_strike("Osric"));
    s.ok(&["override", "Osric", "--shock", "none", "--reason", "steady"]);
    let out = s.ok(&["waive", "Osric", "morale", "--reason", "the brigands fled"]);
    assert!(out.contains("Osric's Morale roll is waived"), "{out}");
    assert!(!due_kinds(&s, "Osric").contains(&"morale".to_string()));
    let before = s.bytes();
    let out = s.run(&["waive", "Osric", "morale", "--reason", "again"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("Osric owes no Morale roll to waive"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    let log: Vec<Value> = serde_json::from_str(&s.ok(&["log", "--json"])).unwrap();
    let waiver = log
        .iter()
        .rev()
        .find(|e| e["kind"] == "ruling.override")
        .unwrap();
    let waiver = format!("#{}", waiver["clock"]);
    s.ok(&["retract", &waiver, "--reason", "they came back"]);
    assert!(due_kinds(&s, "Osric").contains(&"morale".to_string()));
}

/// Issue 40, item 5: "Evading Area Attacks: ... an evader tests Dodge and reduces the Shock
/// State Index of the area attack by 1 (S) or 2 (CS). Whatever the test result, the evader
/// then becomes prone" (000 l.362). A fire area attack of effective impact 8 is F2 (Injury
/// Shock 2) on the area's Location Shock 6; the shock roll 12 against Shock ML65 is an S (+0):
/// index 8, INC. Evading with Dodge EML55: 82 (F) leaves 8; 32 (S) makes 7, STN; 25 (CS:
/// a 5 at or under the EML) makes 6, no Shock State.
#[test]
fn evading_an_area_attack_lowers_its_shock_index_and_the_evader_falls_prone() {
    let area = |dodge: Option<&str>| {
        let s = Scratch::with_osric();
        let mut args = vec![
            "strike",
            "Osric",
            "--aspect",
            "fire",
            "--area",
            "--effective",
            "8",
            "--dice",
        ];
        let dice = match dodge {
            Some(d) => format!("dodge={d},shock=12"),
            None => "shock=12".to_string(),
        };
        args.push(&dice);
        if dodge.is_some() {
            args.extend(["--evade", "55"]);
        }
        let out = s.ok(&args);
        (
            out,
            s.show("Osric")["shock_state"].as_str().unwrap().to_string(),
        )
    };
    let (out, state) = area(None);
    assert!(out.contains("shock 6+2+0 = 8 -> INC"), "{out}");
    assert_eq!(state, "INC");
    let (out, state) = area(Some("82"));
    assert!(
        out.contains("evades: Dodge 82 vs EML55: F -> falls prone"),
        "{out}"
    );
    assert_eq!(state, "INC");
    let (out, state) = area(Some("32"));
    assert!(
        out.contains("evades: Dodge 32 vs EML55: S -> Shock State Index -1, falls prone")
            && out.contains("shock 6+2+0-1 evaded = 7 -> STN"),
        "{out}"
    );
    assert_eq!(state, "STN");
    let (out, state) = area(Some("25"));
    assert!(
        out.contains("6+2+0-2 evaded = 6 -> no shock state"),
        "{out}"
    );
    assert_eq!(state, "none");
    // Only a character who is not stunned may evade (l.360): refused, nothing written.
    let s = Scratch::with_osric();
    s.ok(&["override", "Osric", "--shock", "stn", "--reason", "dazed"]);
    let before = s.bytes();
    let out = s.run(&[
        "strike",
        "Osric",
        "--aspect",
        "fire",
        "--area",
        "--effective",
        "8",
        "--evade",
        "55",
        "--dice",
        "dodge=30,shock=12",
    ]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("Osric is STN: only a character who is not stunned may evade"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
}

/// A Morale Roll that lapsed with its fight is dropped: a later fight owes its own, once,
/// and the old one is not listed again when the new fight's Shock State ends.
#[test]
fn a_lapsed_morale_roll_does_not_come_back_with_the_next_fight() {
    let s = Scratch::with_osric();
    s.ok(&crate::common::abdomen_strike("Osric"));
    s.ok(&["override", "Osric", "--shock", "none", "--reason", "steady"]);
    s.ok(&["advance", "1h", "--skip-owed"]);
    assert!(!due_kinds(&s, "Osric").contains(&"morale".to_string()));
    // A new fight: a Serious thorax wound and a Shock State, then steady again.
    s.ok(&crate::common::thorax_strike("Osric", "8", "shock=12"));
    s.ok(&["override", "Osric", "--shock", "stn", "--reason", "dazed"]);
    s.ok(&["override", "Osric", "--shock", "none", "--reason", "steady"]);
    let morale = due_kinds(&s, "Osric")
        .iter()
        .filter(|k| *k == "morale")
        .count();
    assert_eq!(morale, 1, "{:?}", due_kinds(&s, "Osric"));
    let due: Value = serde_json::from_str(&s.ok(&["due", "Osric", "--json"])).unwrap();
    let m = due
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["kind"] == "morale")
        .unwrap();
    let thorax = s.show("Osric")["injuries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["location"] == "thorax")
        .unwrap()["id"]
        .clone();
    assert_eq!(m["injury"], thorax, "the new fight's wound calls it: {due}");
}

/// Issue 41, item 2: a wound is named by its place when that is unambiguous; a place two
/// open wounds share is refused listing both; a place with none lists the open ones.
#[test]
fn a_wound_is_named_by_its_place() {
    let s = Scratch::with_osric();
    for side in ["left", "right"] {
        s.ok(&[
            "strike",
            "Osric",
            "--aspect",
            "blunt",
            "--location",
            "forearm",
            "--side",
            side,
            "--effective",
            "7",
            "--dice",
            "shock=5",
        ]);
    }
    let out = s.ok(&[
        "treat",
        "Osric",
        "left forearm",
        "--physician",
        "50",
        "--dice",
        "treatment=30",
    ]);
    assert!(out.contains("Osric treatment (left forearm) 30"), "{out}");
    let before = s.bytes();
    let out = s.run(&[
        "treat",
        "Osric",
        "forearm",
        "--physician",
        "50",
        "--dice",
        "treatment=30",
    ]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains(
            "Osric has several injuries at 'forearm': name one (left forearm, right forearm)"
        ),
        "{}",
        out.stderr
    );
    let out = s.run(&[
        "treat",
        "Osric",
        "thorax",
        "--physician",
        "50",
        "--dice",
        "treatment=30",
    ]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("Osric has no injury 'thorax' (open: left forearm S2B, right forearm S2B)"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
}
