//! The Melee and Missile Sequences through the CLI: the Block, Dodge, Counterstrike and Ignore
//! examples, both of Nolora's shots, and bad declarations refused with nothing recorded.

mod common;
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

#[test]
fn block_example_cs_against_f_two_stars_and_an_impact_ta() {
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
        "block",
        "--with",
        "broadsword",
        "--ta",
        "impact",
        "--dice",
        "attack=35,defence=71,zone=4,location=7,impact=8,shock=12",
    ]);
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
}

#[test]
fn nolora_volley_example_to_the_s2p_flank() {
    let s = Scratch::new();
    s.ok(&["init"]);
    s.ok(&["arms", "load", ARMS]);
    s.ok(&["table", "load", DESTRIER]);
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
    s.ok(&["character", "equip", "Horse", "--armour", "barding"]);
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

#[test]
fn bad_declarations_are_refused_and_record_nothing() {
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

#[test]
fn an_incapacitated_defender_must_ignore_and_a_grievous_arm_fails_automatically() {
    let s = duel();
    // Wound the Defender's right arm grievously (G4E shoulder) without shock consequences.
    s.ok(&[
        "strike",
        "Defender",
        "--aspect",
        "blunt",
        "--location",
        "forearm",
        "--side",
        "right",
        "--effective",
        "16",
        "--dice",
        "shock=5",
    ]);
    let out = s.ok(&[
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
        "--dice",
        "attack=77,defence=20,zone=1,location=1,impact=1,shock=10",
    ]);
    assert!(
        out.contains("Defender: a zone the test needs is unusable (Grievous): automatic CF"),
        "{out}"
    );
    s.ok(&[
        "strike",
        "Other",
        "--aspect",
        "blunt",
        "--location",
        "skull",
        "--effective",
        "3",
        "--dice",
        "shock=100",
    ]);
    let out = s.run(&[
        "melee",
        "Attacker",
        "Other",
        "--weapon",
        "broadsword",
        "--mode",
        "edge",
        "--defence",
        "dodge",
        "--dice",
        "attack=50,defence=50",
    ]);
    assert!(
        out.stderr
            .contains("Other is INC: unaware, they must Ignore"),
        "{}",
        out.stderr
    );
}
