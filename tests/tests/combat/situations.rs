//! The Melee and Missile Sequences in the situations around a strike: a prone striker or
//! target, a two-handed grip, volleys, wet bows, massive targets, a spoiled attack.

use super::*;

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
    let block = |dice: &str| {
        s.run(&[
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
            dice,
        ])
    };
    // Issue 40, item 4: the forced CF rolls no die, and a face given for it is refused,
    // nothing written (25 would have read as a Stumble).
    let before = s.bytes();
    let out = block("attack=77,defence=25");
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("Defender's defence test is an automatic CF (a zone it needs is unusable: Grievous): it takes no die"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    // Both fail: no strike.
    let out = block("attack=77");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = out.stdout;
    assert!(out.contains("; block no roll vs EML"), "{out}");
    assert!(
        out.contains("Defender: a zone the test needs is unusable (Grievous): automatic CF"),
        "{out}"
    );
    // Issue 12, item 4: the forced CF brings the arm's automatic Fumble (INJURY MISHAP
    // table), not a Stumble read off the face.
    assert!(out.contains("Defender: automatic fumble (failed)"), "{out}");
    assert!(!out.contains("stumble"), "{out}");
    let owed = s.show("Defender")["owed"].as_array().unwrap().clone();
    let fumbles = owed.iter().filter(|o| o["kind"] == "fumble").count();
    assert_eq!(fumbles, 2, "the G4 arm's own and the Block's: {owed:?}");
    // Issue 40: with two owed, `waive` asks which (the injury's, or the test's by none).
    let before = s.bytes();
    let out = s.run(&["waive", "Defender", "fumble", "--reason", "x"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("Defender owes 2 Fumble rolls: name the injury whose roll is waived"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    assert!(!owed.iter().any(|o| o["kind"] == "stumble"), "{owed:?}");
    // Both are automatic failures: recorded with the outcome only, no ML and no dice.
    s.ok(&["roll", "Defender", "fumble", "--outcome", "drops the sword"]);
    s.ok(&["roll", "Defender", "fumble", "--outcome", "drops it again"]);
    let owed = s.show("Defender")["owed"].as_array().unwrap().clone();
    assert!(!owed.iter().any(|o| o["kind"] == "fumble"), "{owed:?}");
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

/// Issue 12, item 1: a standing striker aims at any ZN of a prone foe without the -10 aim
/// penalty (Injury Sequence step 1 "Aim Penalty"; Special Melee Rules "prone").
#[test]
fn a_standing_striker_aims_anywhere_on_a_prone_foe_without_penalty() {
    let s = duel();
    // 77 against ML60 is F; against Ignore that is two stars. ZD 1 from ZN5 is ZN5.
    let out = sword(
        &s,
        "Attacker",
        "Defender",
        &[
            "--aim",
            "5",
            "--defence",
            "ignore",
            "--defender-prone",
            "--dice",
            "attack=77,zone=1,location=7,impact=1,shock=10",
        ],
    );
    assert!(out.contains("77 vs EML60 (Melee ML60): F"), "{out}");
    assert!(out.contains("ZD 1 aimed at ZN5 -> ZN5"), "{out}");
    // Standing against standing, ZN5 still costs -10.
    let out = sword(
        &s,
        "Attacker",
        "Other",
        &[
            "--aim",
            "5",
            "--defence",
            "ignore",
            "--dice",
            "attack=77,zone=1,location=7,impact=1,shock=10",
        ],
    );
    assert!(out.contains("77 vs EML50 (Melee ML60 -10 aim): F"), "{out}");
}

/// Issue 12, item 2: a prone striker against a standing human has default aim ZN2-3 (no aim
/// penalty, ZN2 when none is declared) and -2 RCH at ZN1 (Special Melee Rules "prone").
#[test]
fn a_prone_striker_aims_at_zn2_or_zn3_and_loses_two_reach_at_zn1() {
    let s = duel();
    // ZN1: not a default aim (-10) and RCH 3 - 2 = 1 against the blocker's 3: -10 reach;
    // -20 prone. 60 - 40 = EML20.
    let out = sword(
        &s,
        "Attacker",
        "Defender",
        &[
            "--aim",
            "1",
            "--attacker-prone",
            "--defence",
            "block",
            "--with",
            "broadsword",
            "--dice",
            "attack=77,defence=71",
        ],
    );
    assert!(
        out.contains("77 vs EML20 (Melee ML60 -10 aim -10 reach -20 prone): F"),
        "{out}"
    );
    // No aim declared: ZN2, no penalty beyond prone (60 - 20 = EML40); ZD 3 from ZN2 is ZN4.
    // ZN3 declared: a default aim too.
    for (aim, target, zd, zn) in [(None, "Defender", 3, 4), (Some("3"), "Other", 1, 3)] {
        let dice = format!("attack=77,zone={zd},location=7,impact=1,shock=10");
        let mut rest = vec!["--defence", "ignore", "--attacker-prone", "--dice", &dice];
        if let Some(a) = aim {
            rest.extend(["--aim", a]);
        }
        let out = sword(&s, "Attacker", target, &rest);
        assert!(
            out.contains("77 vs EML40 (Melee ML60 -20 prone): F"),
            "{aim:?}: {out}"
        );
        let from = aim.unwrap_or("2");
        assert!(
            out.contains(&format!("ZD {zd} aimed at ZN{from} -> ZN{zn}")),
            "{aim:?}: {out}"
        );
    }
}

/// Issue 12, item 3: a two-handed grip uses both arms: an injury to the left arm impairs it,
/// and a Grievous one makes it an automatic CF; the right hand alone does not feel the left.
#[test]
fn a_two_handed_grip_uses_both_arms() {
    let s = duel();
    // Effective 7 blunt to the left forearm: S2B (Serious: 10 impairment).
    s.ok(&[
        "strike",
        "Attacker",
        "--aspect",
        "blunt",
        "--location",
        "forearm",
        "--side",
        "left",
        "--effective",
        "7",
        "--dice",
        "shock=5",
    ]);
    let block = ["--defence", "block", "--with", "broadsword"];
    let mut two = vec!["--grip", "two-handed"];
    two.extend(block);
    two.extend(["--dice", "attack=57,defence=71"]);
    // Two hands: HFT 8 - 5 = 3, no heft penalty; the left arm's 10: EML50; 57 is F.
    let out = sword(&s, "Attacker", "Defender", &two);
    assert!(
        out.contains("57 vs EML50 (Melee ML60 -10 impairment): F"),
        "{out}"
    );
    // The primary (right) hand alone: EML60; 57 is S, a one-star win and a strike.
    let mut one = block.to_vec();
    one.extend([
        "--dice",
        "attack=57,defence=71,zone=1,location=7,impact=1,shock=10",
    ]);
    let out = sword(&s, "Attacker", "Other", &one);
    assert!(out.contains("57 vs EML60 (Melee ML60): S"), "{out}");
    // A Grievous left forearm (effective 16): two hands is an automatic CF, with the arm's
    // automatic Fumble.
    s.ok(&[
        "strike",
        "Other",
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
    let mut two = vec!["--grip", "two-handed"];
    two.extend(block);
    two.extend(["--dice", "defence=71"]);
    let out = sword(&s, "Other", "Defender", &two);
    assert!(
        out.contains("Other: a zone the test needs is unusable (Grievous): automatic CF"),
        "{out}"
    );
    assert!(out.contains("Other: automatic fumble (failed)"), "{out}");
}

/// Issue 12, item 5: a volley that succeeds at EML05 is a Potential Strike and rolls against
/// the target count; "lands harmlessly at EML05 or less" is Deviation's and the Direct miss's.
#[test]
fn a_volley_succeeding_at_eml05_rolls_against_the_target_count() {
    let s = nolora_and_horse();
    // 500 ft at BR200 is Volley 3 (-20); Windforce 3 in a volley -60: 75 - 80 = -5: EML05
    // (not spoiled: above -40). 3 is S: a potential strike; d20 2 is within the count of 7.
    let out = bow(
        &s,
        &[
            "--range",
            "500",
            "--windforce",
            "3",
            "--count",
            "7",
            "--struck",
            "Horse",
            "--dice",
            "attack=3,count=2,ta=2,zone=14,location=4,impact=6,shock=30",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("3 vs EML5 (Archery ML75 -20 volley 3 -60 crosswind): S -> potential strike; count 2 within target count; d10 2: no Impact TA"), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("LD 4 -> flank; impact 6+1 = 7P - AV0 = 7 -> S2P"),
        "{}",
        out.stdout
    );
    // A Volley F at EML05 still lands harmlessly: no d8, no count roll.
    let out = bow(
        &s,
        &[
            "--range",
            "500",
            "--windforce",
            "3",
            "--count",
            "7",
            "--dice",
            "attack=8",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("8 vs EML5") && out.stdout.contains("-> deviation"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("count"), "{}", out.stdout);
}

/// Issue 12, item 6: precipitation halves Base Range exactly: a wet BR75 bow has BR 37.5, so
/// 75 ft is Volley 2, 150 ft Volley 4, and 151 ft is out of range.
#[test]
fn a_wet_br75_bow_has_br_37_and_a_half() {
    let s = nolora_and_horse();
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("shortbow.toml");
    std::fs::write(
        &f,
        "[[weapons]]\nname = \"short bow\"\nzone_die = 6\nreach = 0\nheft = 4\nmissile = \"bow\"\n\
         base_range = 75\nprojectile = true\n\
         modes = [{ name = \"shoot\", aspect = \"Point\", impact = \"d8+2\" }]\n",
    )
    .unwrap();
    s.ok(&["arms", "load", f.to_str().unwrap()]);
    s.ok(&[
        "character",
        "equip",
        "Nolora",
        "--weapon",
        "short bow",
        "--archery",
        "75",
    ]);
    let shoot = |range: &str, dice: &str| {
        s.run(&[
            "shoot",
            "Nolora",
            "--weapon",
            "short bow",
            "--wet",
            "--range",
            range,
            "--dice",
            dice,
        ])
    };
    let out = shoot("75", "attack=52");
    assert!(
        out.stdout
            .contains("shoots (volley 2): 52 vs EML75 (Archery ML75): S -> potential strike"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    // Volley 4 (-40): EML35; 52 is F: deviation, d8 3.
    let out = shoot("150", "attack=52,deviation=3");
    assert!(
        out.stdout.contains(
            "shoots (volley 4): 52 vs EML35 (Archery ML75 -40 volley 4): F -> deviation; d8 3"
        ),
        "{}{}",
        out.stdout,
        out.stderr
    );
    let before = s.bytes();
    let out = shoot("151", "attack=52");
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("151 ft is beyond the weapon's range (BR 37.5 x 4 = 150 ft)"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
}

/// Issue 12, item 7: Massive Target is +5 per TAR from TAR2; TAR1 gives nothing.
#[test]
fn massive_target_counts_from_tar2() {
    let s = nolora_and_horse();
    // 150 ft at BR200 is Direct (not PB): EML75 before the bonus.
    let out = bow(
        &s,
        &[
            "Horse",
            "--range",
            "150",
            "--tar",
            "1",
            "--dice",
            "attack=88",
        ],
    );
    assert!(
        out.stdout.contains("88 vs EML75 (Archery ML75): F -> miss"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    let out = bow(
        &s,
        &[
            "Horse",
            "--range",
            "150",
            "--tar",
            "2",
            "--dice",
            "attack=88",
        ],
    );
    assert!(
        out.stdout
            .contains("88 vs EML85 (Archery ML75 +10 massive target): F -> miss"),
        "{}{}",
        out.stdout,
        out.stderr
    );
}

/// Issue 12, item 8: a spoiled attack that occurs automatically fails, and its roll against
/// EML05 checks for CF, whose mishap is owed.
#[test]
fn a_spoiled_attack_that_occurs_owes_its_mishap_on_a_cf() {
    let s = nolora_and_horse();
    // 800 ft is Volley 4 (-40); Windforce 4 in a volley -80: 75 - 120 = -45: spoiled.
    // 10 against EML05 is a CF ending in 0: a Fumble.
    let out = bow(
        &s,
        &["--range", "800", "--windforce", "4", "--dice", "attack=10"],
    );
    assert!(out.stdout.contains("10 vs EML5 (Archery ML75 -40 volley 4 -80 crosswind): CF -> spoiled (EML -40 or worse): the attack fails; CF against EML05: Nolora owes a fumble roll"), "{}{}", out.stdout, out.stderr);
    let owed = s.show("Nolora")["owed"].as_array().unwrap().clone();
    assert!(owed.iter().any(|o| o["kind"] == "fumble"), "{owed:?}");
    // 3 is a success against EML05, yet the spoiled attack fails, and owes nothing.
    let out = bow(
        &s,
        &["--range", "800", "--windforce", "4", "--dice", "attack=3"],
    );
    assert!(
        out.stdout
            .contains("-> spoiled (EML -40 or worse): the attack fails"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("owes"), "{}", out.stdout);
}

/// Issue 12, item 9: a die given but not used, and a range that is zero or negative, are
/// refused in one line with the ledger unchanged, in `melee`, `shoot` and `strike` alike.
#[test]
fn dice_and_numbers_that_do_not_apply_are_refused_in_one_line() {
    let s = duel();
    s.ok(&[
        "character",
        "equip",
        "Attacker",
        "--weapon",
        "broadsword",
        "--weapon",
        "bow",
        "--melee",
        "60",
        "--archery",
        "60",
    ]);
    let before = s.bytes();
    let cases: [(&[&str], &str); 7] = [
        (
            // A missed attack strikes nothing: the defence die and the strike's die are
            // named together, in one refusal.
            &[
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
                "attack=100,defence=50,zone=3",
            ],
            "the exchange did not need the given 2 die(s): defence, zone",
        ),
        (
            &[
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
                "attack=77,defence=50,zone=1,location=7,impact=1,shock=10",
            ],
            "the exchange did not need the given 1 die(s): defence",
        ),
        (
            &[
                "shoot",
                "Attacker",
                "Defender",
                "--weapon",
                "bow",
                "--range",
                "150",
                "--dice",
                "attack=88,count=3",
            ],
            "the attack did not need the given 1 die(s): count",
        ),
        (
            &[
                "shoot",
                "Attacker",
                "Defender",
                "--weapon",
                "bow",
                "--range",
                "0",
                "--dice",
                "attack=88",
            ],
            "--range 0: the range to the target is at least 1 ft",
        ),
        (
            &[
                "shoot",
                "Attacker",
                "Defender",
                "--weapon",
                "bow",
                "--range",
                "-5",
                "--dice",
                "attack=88",
            ],
            "--range -5: the range to the target is at least 1 ft",
        ),
        (
            &[
                "shoot",
                "Attacker",
                "Defender",
                "--weapon",
                "bow",
                "--range=-5",
                "--dice",
                "attack=88",
            ],
            "--range -5: the range to the target is at least 1 ft",
        ),
        (
            &[
                "strike",
                "Defender",
                "--aspect",
                "edge",
                "--location",
                "thorax",
                "--effective",
                "3",
                "--dice",
                "shock=10,impact=4",
            ],
            "the strike did not need the given 1 die(s): impact",
        ),
    ];
    for (args, needle) in cases {
        let out = s.run(args);
        assert_eq!(out.code, 1, "{args:?}: {}", out.stderr);
        let err = out.stderr.trim_end();
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(needle),
            "{args:?}: {err}"
        );
        assert_eq!(s.bytes(), before, "{args:?} changed the ledger");
    }
}

/// A target with a Grievous injury (a zone it cannot use) is considered Still against
/// missile attacks (000 l.626): the Dodge index the GM gave is not used, the shot says so,
/// and a hit takes the still target's automatic Precision TA.
#[test]
fn a_grievously_injured_target_is_still_against_missiles() {
    let s = nolora_and_horse();
    // 18 blunt to the left thigh: G4B (not a bleeder).
    s.ok(&[
        "strike",
        "Brigand",
        "--aspect",
        "blunt",
        "--location",
        "thigh",
        "--side",
        "left",
        "--effective",
        "18",
        "--dice",
        "shock=12",
    ]);
    // Evading at Dodge 3 would be 75 + 10 - 15 = 70, and 78 a miss; Still it is 75 + 10 = 85,
    // and 78 an S: a strike, with the automatic Precision TA.
    let out = bow(
        &s,
        &[
            "Brigand",
            "--range",
            "20",
            "--evading",
            "3",
            "--seed",
            "7",
            "--dice",
            "attack=78",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("Brigand has a Grievous injury: considered Still against missiles (000 l.626), so --evading is not used"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.contains("78 vs EML85"), "{}", out.stdout);
    assert!(out.stdout.contains("precision"), "{}", out.stdout);
    // Carried by a moving mount, the same target moves: 75 + 10 - 10 = 75.
    let out = bow(
        &s,
        &[
            "Brigand",
            "--range",
            "20",
            "--moving",
            "--carried",
            "--seed",
            "7",
            "--dice",
            "attack=78",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stderr.contains("considered Still"), "{}", out.stderr);
    assert!(out.stdout.contains("78 vs EML75"), "{}", out.stdout);
    // A target whose injuries are only Serious evades as the GM says: 75 + 10 - 15 = 70.
    s.ok(&[
        "character",
        "add",
        "Archer",
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
        "strike",
        "Archer",
        "--aspect",
        "blunt",
        "--location",
        "thigh",
        "--side",
        "left",
        "--effective",
        "8",
        "--dice",
        "shock=12",
    ]);
    let out = bow(
        &s,
        &[
            "Archer",
            "--range",
            "20",
            "--evading",
            "3",
            "--seed",
            "7",
            "--dice",
            "attack=78",
        ],
    );
    assert!(out.stdout.contains("78 vs EML70"), "{}", out.stdout);
}

/// A setup raises a Melee test by one Success Level (000 l.294): the line says what the roll
/// was and what the setup made of it, as it says of a stunned test (issue 40: it printed the
/// raised level alone, as if the roll had made it).
#[test]
fn a_spent_setup_says_what_it_raised() {
    let s = duel();
    // 44 vs EML60 is an S; the setup makes it a CS; the Block's 71 fails.
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
        "--attack-setup",
        "--seed",
        "1",
        "--dice",
        "attack=44,defence=71",
    ]);
    assert!(
        out.contains("Attacker spends a setup: S becomes CS"),
        "{out}"
    );
}
