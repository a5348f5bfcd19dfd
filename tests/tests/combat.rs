//! The Melee and Missile Sequences through the CLI: the Block, Dodge, Counterstrike and Ignore
//! examples, both of Nolora's shots, and bad declarations refused with nothing recorded.

use crate::common;
use common::Scratch;

const ARMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/arms/starter.toml");
const DESTRIER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../fixtures/creatures/destrier.toml"
);

/// Two ML60 swordsmen (and a third, for exchanges after the first has been hurt).
fn duel() -> Scratch {
    let s = Scratch::new();
    s.ok(&["init"]);
    s.ok(&["arms", "load", ARMS]);
    for n in ["Attacker", "Defender", "Other"] {
        s.ok(&[
            "character",
            "add",
            n,
            "--str",
            "12",
            "--end",
            "12",
            "--shock",
            "65",
            "--hb",
            "13",
        ]);
        s.ok(&[
            "character",
            "equip",
            n,
            "--weapon",
            "broadsword",
            "--melee",
            "60",
            "--dodge",
            "60",
            "--str-impact",
            "1",
        ]);
    }
    s
}

/// The Block example: Attacker's broadsword edge against Defender's block, an Impact TA.
fn block_example(s: &Scratch) -> String {
    s.ok(&[
        "melee",
        "Attacker",
        "Defender",
        "--weapon",
        "broadsword",
        "--mode",
        "edge",
        "--defence",
        "block",
        "--with",
        "broadsword",
        "--ta",
        "impact",
        "--dice",
        "attack=35,defence=71,zone=4,location=7,impact=8,shock=12",
    ])
}

#[test]
fn block_example_cs_against_f_two_stars_and_an_impact_ta() {
    let s = duel();
    let out = block_example(&s);
    assert!(out.contains("35 vs EML60 (Melee ML60): CS; block 71 vs EML60 (Melee ML60): F; Attacker wins **; TA impact"), "{out}");
    // Base impact d10+3, +1 Strength, +5E for the Impact TA: 8+3+1+5 = 17E.
    assert!(
        out.contains("impact 8+3+1+5 = 17E - AV0 = 17 -> G4E"),
        "{out}"
    );
    assert!(out.contains("Attacker may call a free Press Roll"), "{out}");
}

#[test]
fn dodge_example_the_higher_roll_breaks_the_tie() {
    let s = duel();
    let out = s.ok(&[
        "melee",
        "Attacker",
        "Defender",
        "--weapon",
        "broadsword",
        "--mode",
        "edge",
        "--defence",
        "dodge",
        "--dice",
        "attack=36,defence=51",
    ]);
    assert!(
        out.contains(
            "36 vs EML60 (Melee ML60): S; dodge 51 vs EML60 (Dodge ML60): S; Defender wins * (tie)"
        ),
        "{out}"
    );
    assert!(!out.contains("struck"), "{out}");
    assert!(s.show("Defender")["injuries"]
        .as_array()
        .unwrap()
        .is_empty());
}

#[test]
fn counterstrike_example_attackers_win_ties() {
    let s = duel();
    let out = s.ok(&[
        "melee",
        "Attacker",
        "Defender",
        "--weapon",
        "broadsword",
        "--mode",
        "edge",
        "--defence",
        "counterstrike",
        "--with",
        "broadsword",
        "--with-mode",
        "edge",
        "--dice",
        "attack=36,defence=51,zone=4,location=2,impact=3,shock=12",
    ]);
    assert!(out.contains("Attacker wins * (tie)"), "{out}");
    // Base impact only: 3+3+1 = 7E -> S2E.
    assert!(out.contains("Defender struck: ZD 4 aimed at ZN1 -> ZN4 torso; LD 2 -> thorax; impact 3+3+1 = 7E - AV0 = 7 -> S2E"), "{out}");
}

#[test]
fn ignore_example_three_stars_precision_and_impact() {
    let s = duel();
    let out = s.ok(&[
        "melee",
        "Attacker",
        "Defender",
        "--weapon",
        "broadsword",
        "--mode",
        "edge",
        "--defence",
        "ignore",
        "--ta",
        "precision",
        "--ta",
        "impact",
        "--dice",
        "attack=36,zone=4/1,location=6,impact=2,shock=12",
    ]);
    assert!(
        out.contains("ignore (no roll); Attacker wins ***; TA precision, impact"),
        "{out}"
    );
    // An extra d6 ZD for the broadsword, and +5E.
    assert!(
        out.contains("ZD 4/1 aimed at ZN1, took 4 -> ZN4 torso"),
        "{out}"
    );
    assert!(out.contains("impact 2+3+1+5 = 11E"), "{out}");
}

#[test]
fn armour_at_the_struck_location_and_the_stunned_defender() {
    let s = duel();
    s.ok(&[
        "character",
        "equip",
        "Defender",
        "--weapon",
        "broadsword",
        "--armour",
        "quilt coat",
        "--melee",
        "60",
        "--dodge",
        "60",
    ]);
    // The quilt coat covers the abdomen (AV4 against edge), as the 2 Impact example's.
    let out = s.ok(&[
        "melee",
        "Attacker",
        "Defender",
        "--weapon",
        "broadsword",
        "--mode",
        "edge",
        "--defence",
        "ignore",
        "--dice",
        "attack=77,zone=5,location=7,impact=8,shock=12",
    ]);
    assert!(
        out.contains("LD 7 -> abdomen; impact 8+3+1+5 = 17E - AV4 = 13 -> S3E"),
        "{out}"
    );
}

#[test]
fn nolora_direct_example_three_d6_zone_dice() {
    let s = Scratch::new();
    s.ok(&["init"]);
    s.ok(&["arms", "load", ARMS]);
    s.ok(&[
        "character",
        "add",
        "Nolora",
        "--str",
        "11",
        "--end",
        "12",
        "--shock",
        "60",
        "--hb",
        "12",
    ]);
    s.ok(&[
        "character",
        "equip",
        "Nolora",
        "--weapon",
        "bow",
        "--archery",
        "75",
    ]);
    s.ok(&[
        "character",
        "add",
        "Brigand",
        "--str",
        "12",
        "--end",
        "12",
        "--shock",
        "60",
        "--hb",
        "12",
    ]);
    let out = s.ok(&[
        "shoot",
        "Nolora",
        "Brigand",
        "--weapon",
        "bow",
        "--range",
        "20",
        "--ta",
        "precision",
        "--dice",
        "attack=45,zone=1/4/6,location=3,impact=5,shock=30",
    ]);
    assert!(out.contains("45 vs EML85 (Archery ML75 +10 direct point blank): CS -> strike **; TA precision, precision"), "{out}");
    assert!(out.contains("ZD 1/4/6 aimed at ZN1"), "{out}");
    // Issue 26, item 8: the terms the impact and the AV fold in are named: the bow's d12+4
    // with +2 for point blank (5+6), and the bow's armour reduction.
    assert!(
        out.contains("Brigand struck (+2 impact for direct point blank; AV less 4 for the projectile's armour reduction)"),
        "{out}"
    );
    assert!(out.contains("impact 5+6 = 11P"), "{out}");
}

#[test]
fn nolora_volley_example_to_the_s2p_flank() {
    let s = nolora_and_horse();
    // 500 ft is volley 3 for the bow's BR200 (-20); a light crosswind in volley -20: EML35.
    let out = s.ok(&[
        "shoot",
        "Nolora",
        "--weapon",
        "bow",
        "--range",
        "500",
        "--windforce",
        "1",
        "--count",
        "7",
        "--struck",
        "Horse",
        "--dice",
        "attack=25,count=7,ta=2,zone=14,location=4,impact=6,shock=30",
    ]);
    assert!(out.contains("25 vs EML35 (Archery ML75 -20 volley 3 -20 crosswind): CS -> potential strike with Volley Precision"), "{out}");
    assert!(
        out.contains("count 7 within target count; d10 2: no Impact TA"),
        "{out}"
    );
    // d20 ZD 14, LD 4: the flank; d12+4 -3 = d12+1 rolls 6: 7P; AR4 removes the AV3 barding.
    assert!(
        out.contains(
            "ZD 14 aimed at ZN1 -> ZN14 body; LD 4 -> flank; impact 6+1 = 7P - AV0 = 7 -> S2P"
        ),
        "{out}"
    );
    assert_eq!(s.show("Horse")["injuries"][0]["code"], "S2P");
    // The second shot: 16 is S; the d20 14 misses the count of seven.
    let out = s.ok(&[
        "shoot",
        "Nolora",
        "--weapon",
        "bow",
        "--range",
        "500",
        "--windforce",
        "1",
        "--count",
        "7",
        "--struck",
        "Horse",
        "--dice",
        "attack=16,count=14",
    ]);
    assert!(
        out.contains("16 vs EML35") && out.contains("count 14 beyond the target count: no hit"),
        "{out}"
    );
    assert_eq!(s.show("Horse")["injuries"].as_array().unwrap().len(), 1);
}

/// The duel with a destrier on the field and the attacker carrying a broadsword, a dagger
/// and a bow.
fn armed_duel() -> Scratch {
    let s = duel();
    s.ok(&["table", "load", DESTRIER]);
    s.ok(&[
        "character",
        "add",
        "Horse",
        "--str",
        "25",
        "--end",
        "20",
        "--shock",
        "80",
        "--hb",
        "15",
        "--body",
        "destrier",
        "--beast",
    ]);
    s.ok(&[
        "character",
        "equip",
        "Attacker",
        "--weapon",
        "broadsword",
        "--weapon",
        "dagger",
        "--weapon",
        "bow",
        "--melee",
        "60",
        "--archery",
        "60",
    ]);
    s
}

#[test]
fn bad_declarations_are_refused_and_record_nothing() {
    let s = armed_duel();
    let before = s.bytes();
    for (args, needle) in [
        (
            vec![
                "melee",
                "Attacker",
                "Defender",
                "--weapon",
                "broadsword",
                "--mode",
                "edge",
                "--defence",
                "block",
                "--with",
                "mace",
                "--dice",
                "attack=50,defence=50",
            ],
            "Defender has no readied mace",
        ),
        (
            vec![
                "melee",
                "Attacker",
                "Defender",
                "--weapon",
                "broadsword",
                "--mode",
                "edge",
                "--defence",
                "block",
            ],
            "a Block needs the readied weapon",
        ),
        (
            vec![
                "melee",
                "Attacker",
                "Horse",
                "--weapon",
                "dagger",
                "--mode",
                "edge",
                "--aim",
                "1",
                "--defence",
                "ignore",
                "--dice",
                "attack=50",
            ],
            "reduces the dagger's reach below 0",
        ),
        (
            vec![
                "melee",
                "Attacker",
                "Defender",
                "--weapon",
                "spear",
                "--mode",
                "point",
                "--defence",
                "ignore",
            ],
            "Attacker has no readied spear",
        ),
        (
            vec![
                "melee",
                "Attacker",
                "Defender",
                "--weapon",
                "broadsword",
                "--mode",
                "slash",
                "--defence",
                "ignore",
            ],
            "no strike mode 'slash'",
        ),
        (
            vec![
                "shoot",
                "Attacker",
                "--weapon",
                "bow",
                "--range",
                "300",
                "--overhead",
                "8",
                "--count",
                "3",
            ],
            "an overhead under ten feet prohibits volley ranges",
        ),
        (
            vec![
                "shoot", "Attacker", "Defender", "--weapon", "bow", "--range", "900",
            ],
            "beyond the weapon's range",
        ),
        (
            vec![
                "shoot",
                "Attacker",
                "Defender",
                "--weapon",
                "broadsword",
                "--range",
                "10",
            ],
            "not a missile weapon",
        ),
    ] {
        let out = s.run(&args);
        assert_eq!(out.code, 1, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(needle), "{args:?}: {}", out.stderr);
        assert_eq!(s.bytes(), before, "{args:?} changed the ledger");
    }
}

/// Runs `melee` with the given arguments after `melee Attacker Defender --weapon broadsword
/// --mode edge`.
fn sword(s: &Scratch, attacker: &str, defender: &str, rest: &[&str]) -> String {
    let mut args = vec![
        "melee",
        attacker,
        defender,
        "--weapon",
        "broadsword",
        "--mode",
        "edge",
    ];
    args.extend_from_slice(rest);
    s.ok(&args)
}

/// Nolora (Archery ML75, the bow), a Brigand, and a barded Horse (the destrier table).
fn nolora_and_horse() -> Scratch {
    let s = Scratch::new();
    s.ok(&["init"]);
    s.ok(&["arms", "load", ARMS]);
    s.ok(&["table", "load", DESTRIER]);
    for n in ["Nolora", "Brigand"] {
        s.ok(&[
            "character",
            "add",
            n,
            "--str",
            "11",
            "--end",
            "12",
            "--shock",
            "60",
            "--hb",
            "12",
        ]);
    }
    s.ok(&[
        "character",
        "add",
        "Horse",
        "--str",
        "25",
        "--end",
        "20",
        "--shock",
        "80",
        "--hb",
        "15",
        "--body",
        "destrier",
        "--beast",
    ]);
    s.ok(&[
        "character",
        "equip",
        "Nolora",
        "--weapon",
        "bow",
        "--archery",
        "75",
    ]);
    s.ok(&["character", "equip", "Horse", "--armour", "barding"]);
    s
}

/// Runs `shoot Nolora` with the bow and the given arguments.
fn bow(s: &Scratch, rest: &[&str]) -> leechbook::Output {
    let mut args = vec!["shoot", "Nolora"];
    args.extend_from_slice(rest);
    args.extend(["--weapon", "bow"]);
    s.run(&args)
}

/// The class of items 3 and 4 on the missile side: a bow is drawn with both arms, so both
/// arms' injuries add up; a stunned archer's test drops one level; an incapacitated one
/// takes no action.
#[test]
fn a_bow_feels_both_arms_and_the_shock_state() {
    let s = nolora_and_horse();
    for side in ["left", "right"] {
        // Effective 7 blunt: S2B in each forearm, 10 impairment each.
        s.ok(&[
            "strike",
            "Nolora",
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
    let out = bow(&s, &["Horse", "--range", "150", "--dice", "attack=51"]);
    assert!(
        out.stdout
            .contains("51 vs EML55 (Archery ML75 -20 impairment): S"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    let s = nolora_and_horse();
    s.ok(&["override", "Nolora", "--shock", "stn", "--reason", "dazed"]);
    let out = bow(&s, &["Horse", "--range", "150", "--dice", "attack=61"]);
    assert!(
        out.stdout
            .contains("61 vs EML75 (Archery ML75): F -> miss; Nolora is stunned: S becomes F"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    s.ok(&["override", "Nolora", "--shock", "inc", "--reason", "down"]);
    let before = s.bytes();
    let out = bow(&s, &["Horse", "--range", "150", "--dice", "attack=61"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("Nolora is INC: no independent actions"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
}

/// A wound the defender took in a melee exchange is told in the defender's history, though
/// the exchange is recorded as the attacker's event (a story steps past the events that do
/// not touch its character, and an exchange touches both).
#[test]
fn a_defenders_history_tells_the_exchange_that_wounded_them() {
    let s = duel();
    let out = block_example(&s);
    assert!(out.contains("G4E"), "{out}");
    let show: serde_json::Value = serde_json::from_str(&s.ok(&["show", "Defender", "--json"]))
        .expect("show --json prints JSON");
    let id = show["injuries"][0]["short_id"]
        .as_str()
        .expect("the defender has an injury")
        .to_string();
    let story: serde_json::Value =
        serde_json::from_str(&s.ok(&["history", "Defender", &id, "--json"])).expect("JSON");
    let entries = story["entries"].as_array().expect("entries");
    assert_eq!(entries[0]["kind"], "hm.melee", "{story}");
    let every: serde_json::Value =
        serde_json::from_str(&s.ok(&["history", "Defender", "--json"])).expect("JSON");
    let kinds: Vec<&str> = every["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter_map(|e| e["kind"].as_str())
        .collect();
    assert_eq!(
        kinds[0], "character-added",
        "the story opens with the joining"
    );
}

mod situations;

/// Issue 40, item 5: "Natural Strike versus armed Block: armed defenders who roll at least a
/// one-star victory may automatically strike their attacker in the natural weapon's body zone
/// (roll d10 for LN). A success tie is still a block" (001 l.420). Attacker's fist (the arm
/// zone) against Defender's broadsword Block: 71 (F) against 35 (CS) is two stars to the
/// blocker, whose broadsword edge (its first mode) strikes Attacker's arm: LD 3, impact 8+3+1.
#[test]
fn an_armed_block_that_wins_strikes_the_natural_weapons_zone() {
    let s = duel();
    let dir = tempfile::tempdir().unwrap();
    let fist = dir.path().join("fist.toml");
    std::fs::write(
        &fist,
        "[[weapons]]\nname = \"fist\"\nzone_die = 6\nreach = 0\nheft = 0\n\
         modes = [{ name = \"punch\", aspect = \"Blunt\", impact = \"d4\" }]\n",
    )
    .unwrap();
    s.ok(&["arms", "load", fist.to_str().unwrap()]);
    s.ok(&[
        "character",
        "equip",
        "Attacker",
        "--weapon",
        "fist",
        "--melee",
        "60",
        "--dodge",
        "60",
    ]);
    let punch = |dice: &str, rest: &[&str]| {
        let mut args = vec![
            "melee",
            "Attacker",
            "Defender",
            "--weapon",
            "fist",
            "--mode",
            "punch",
            "--defence",
            "block",
            "--with",
            "broadsword",
            "--natural",
            "arm",
            "--dice",
            dice,
        ];
        args.extend(rest);
        s.run(&args)
    };
    let out = punch("attack=71,defence=35,location=3,impact=8,shock=12", &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("Defender's armed Block wins by 2 star(s) against a natural weapon: a strike at Attacker's arm (001 l.420)"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("the arm: LD 3"), "{}", out.stdout);
    assert!(out.stdout.contains("impact 8+3+1 = 12E"), "{}", out.stdout);
    let injuries = s.show("Attacker")["injuries"].as_array().unwrap().len();
    assert_eq!(injuries, 1);
    // A success tie is still only a block: no strike, and no die for one.
    let out = punch("attack=41,defence=42", &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stdout.contains("a strike at"), "{}", out.stdout);
    // The blocker may forgo the strike.
    let out = punch("attack=71,defence=35", &["--forgo"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("Defender forgoes the strike at Attacker's arm"),
        "{}",
        out.stdout
    );
    assert_eq!(s.show("Attacker")["injuries"].as_array().unwrap().len(), 1);
    // A zone the attacker's body does not have is refused, whatever the Block's end.
    let before = s.bytes();
    let out = s.run(&[
        "melee",
        "Attacker",
        "Defender",
        "--weapon",
        "fist",
        "--mode",
        "punch",
        "--defence",
        "block",
        "--with",
        "broadsword",
        "--natural",
        "tentacle",
        "--dice",
        "attack=41,defence=42",
    ]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("has no zone 'tentacle'"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    s.ok(&["verify", "--full"]);
}

/// Issue 40, item 4: a bow needs both arms, so a Grievous forearm makes the shot an
/// automatic CF (000 l.626): no die is rolled for it, and a face given is refused.
#[test]
fn a_shot_that_is_an_automatic_cf_rolls_no_die() {
    let s = nolora_and_horse();
    // Effective 16 blunt: G4B in the left forearm.
    s.ok(&[
        "strike",
        "Nolora",
        "--aspect",
        "blunt",
        "--location",
        "forearm",
        "--side",
        "left",
        "--effective",
        "16",
        "--dice",
        "shock=5",
    ]);
    let before = s.bytes();
    let out = bow(&s, &["Horse", "--range", "150", "--dice", "attack=51"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("Nolora's shot is an automatic CF (a zone it needs is unusable: Grievous): it takes no die"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    let out = bow(&s, &["Horse", "--range", "150", "--seed", "3"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("no roll vs EML") && out.stdout.contains("automatic CF"),
        "{}",
        out.stdout
    );
    assert!(
        !out.stderr.contains("rolled by Leechbook: attack"),
        "{}",
        out.stderr
    );
}

/// The aggravation option, "Actions": "an Impaired test that results in Critical Failure
/// (CF) requires a separate Shock SR for each Serious injury whose zone was used in the
/// action" (000 l.1153). Attacker's S2B right forearm is used by the broadsword: an attack of
/// 100 (a CF: 00 ends in 0, over the EML) calls its aggravation roll; a successful attack
/// calls none.
#[test]
fn a_cf_melee_test_calls_the_aggravation_roll_of_the_zone_it_used() {
    let s = duel();
    s.ok(&["option", "aggravation", "on"]);
    // Effective 7 blunt: S2B, 10 impairment in the right arm.
    s.ok(&[
        "strike",
        "Attacker",
        "--aspect",
        "blunt",
        "--location",
        "forearm",
        "--side",
        "right",
        "--effective",
        "7",
        "--dice",
        "shock=5",
    ]);
    let aggravation = |s: &Scratch| -> usize {
        let due: serde_json::Value =
            serde_json::from_str(&s.ok(&["due", "Attacker", "--json"])).unwrap();
        due.as_array()
            .unwrap()
            .iter()
            .filter(|o| o["kind"] == "aggravation")
            .count()
    };
    let attack = |dice: &str| {
        s.ok(&[
            "melee",
            "Attacker",
            "Defender",
            "--weapon",
            "broadsword",
            "--mode",
            "edge",
            "--defence",
            "dodge",
            "--dice",
            dice,
        ])
    };
    attack("attack=22,defence=71,zone=4,location=7,impact=3,shock=12");
    assert_eq!(aggravation(&s), 0, "an S calls none");
    let out = attack("attack=100,defence=71");
    assert!(
        out.contains("100 vs EML50") && out.contains(": CF"),
        "{out}"
    );
    assert_eq!(aggravation(&s), 1, "the CF calls the forearm's");
}

/// Issue 41, item 6: a shot given fewer Zone Die faces than its Precision TAs roll says why
/// before it refuses (a Still target's automatic Precision adds one), and writes nothing.
#[test]
fn a_shot_short_of_zone_dice_says_why() {
    let s = nolora_and_horse();
    let before = s.bytes();
    let out = bow(
        &s,
        &["Brigand", "--range", "20", "--dice", "attack=30,zone=4"],
    );
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("die 'zone' needs 2 face(s)"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("each Precision TA rolls one more Zone Die"),
        "{}",
        out.stderr
    );
    // Its example gives as many faces as the shot takes.
    assert!(
        out.stderr.contains("give a face for each, zone=4/2"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    let out = bow(
        &s,
        &[
            "Brigand",
            "--range",
            "20",
            "--ta",
            "precision",
            "--dice",
            "attack=30,zone=4",
        ],
    );
    assert!(
        out.stderr.contains("die 'zone' needs 3 face(s)"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("give a face for each, zone=4/2/5"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
}
