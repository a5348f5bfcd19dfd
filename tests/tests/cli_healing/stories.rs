//! What the healing commands tell afterwards: stories, fatigue, moving, readings, the JSON
//! consequences, the plot, a roll recorded by hand.

use super::*;

/// Issue 26, item 7: `history` is the whole story: the blows a character took (a melee names
/// the attacker as its character), what each event did to them (a death, a Shock State), and
/// an ending that says they died.
#[test]
fn history_tells_the_blows_taken_and_the_death() {
    let s = old_tom_bleeding();
    s.ok(&[
        "character",
        "add",
        "Brannoc",
        "--str",
        "13",
        "--end",
        "12",
        "--shock",
        "70",
        "--hb",
        "13",
    ]);
    s.ok(&["arms", "load", "--starter"]);
    s.ok(&[
        "character",
        "equip",
        "Brannoc",
        "--weapon",
        "broadsword",
        "--melee",
        "70",
    ]);
    s.ok(&[
        "character",
        "equip",
        "Old Tom",
        "--weapon",
        "dagger",
        "--melee",
        "40",
    ]);
    s.ok(&[
        "--seed",
        "3",
        "melee",
        "Brannoc",
        "Old Tom",
        "--weapon",
        "broadsword",
        "--mode",
        "edge",
        "--defence",
        "ignore",
        "--dice",
        "attack=35,zone=4,location=7,impact=2,shock=12",
    ]);
    s.ok(&[
        "--seed",
        "1",
        "advance",
        "1h",
        "--roll",
        "--untended",
        "--run-on",
    ]);
    let story = s.ok(&["history", "Old Tom"]);
    assert!(story.contains("Brannoc attacks Old Tom"), "{story}");
    assert!(story.contains("-> Old Tom DIES (blood loss)"), "{story}");
    assert!(
        story
            .lines()
            .last()
            .is_some_and(|l| l.contains("Old Tom died (blood loss) at day 1")),
        "{story}"
    );
    let shoulder = injury_id(&s, "Old Tom", 0);
    let wound = s.ok(&["history", "Old Tom", &shoulder]);
    assert!(
        wound
            .lines()
            .last()
            .is_some_and(|l| l.contains("when Old Tom died (blood loss)")),
        "{wound}"
    );
}

/// `fatigue` records Personal Fatigue and weariness; `show` names each kind; a recovery of
/// more than is held is one line and changes nothing.
#[test]
fn fatigue_is_recorded_by_kind_and_shown() {
    let s = Scratch::with_osric();
    assert!(s
        .ok(&["fatigue", "Osric", "+10"])
        .contains("10 personal fatigue gained (10 now)"));
    s.ok(&["fatigue", "Osric", "5", "--weariness"]);
    let v = s.show("Osric");
    assert_eq!(v["fatigue"], 15);
    assert_eq!(
        v["fatigue_terms"],
        serde_json::json!(["weariness 5", "personal 10"])
    );
    let before = s.bytes();
    let out = s.run(&["fatigue", "Osric", "-15"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("they hold 10 personal fatigue, not 15"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert_eq!(s.bytes(), before);
    assert!(s
        .ok(&["fatigue", "Osric", "-10"])
        .contains("10 personal fatigue recovered (0 left)"));
}

/// The TREATMENTS table's TIME: CLN takes "5 MIN PER IL", so an S2 takes 10 minutes. A
/// treatment leaves the campaign clock alone unless `--advance` asks for its time.
#[test]
fn a_treatment_moves_the_clock_by_its_time_only_when_asked() {
    let (s, id) = s2e_abdomen();
    let out = s.ok(&[
        "treat",
        "Osric",
        &id,
        "--physician",
        "50",
        "--dice",
        "treatment=62",
        "--advance",
    ]);
    assert!(out.contains("(takes 10 min)"), "{out}");
    assert!(
        out.contains("the clock advances 10m to day 1 00:10"),
        "{out}"
    );
    assert_eq!(s.show("Osric")["campaign_time"], "day 1 00:10");
}

/// The Serious-injury aggravation option, Move: "moving while suffering a Serious head,
/// torso, or leg injury requires an Agility test every turn at a full Move ... A CF triggers
/// an aggravation Shock SR ... Double Moves are not allowed."
#[test]
fn moving_with_a_serious_torso_injury_asks_an_agility_test_whose_cf_calls_aggravation() {
    let (s, id) = s2e_abdomen();
    let move_test = |pace: &str, roll: &str| {
        s.run(&[
            "move", "Osric", "--pace", pace, "--ml", "50", "--dice", roll,
        ])
    };
    let before = s.bytes();
    let out = move_test("full", "roll=95");
    assert!(
        out.stderr
            .contains("the Serious-injury aggravation option is off"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    s.ok(&["option", "aggravation", "on"]);
    let out = move_test("double", "roll=33");
    assert!(
        out.stderr.contains("Double Moves are not allowed"),
        "{}",
        out.stderr
    );
    // 33 vs EML50: S, nothing aggravated; 95: CF (ends in 5), the S2 abdomen owes its Shock SR.
    assert!(move_test("half", "roll=33")
        .stdout
        .contains("half Move: no aggravation"));
    let out = move_test("full", "roll=95");
    let short = &id.replace('-', "")[24..]; // the short id: the last 8 hex digits
    assert!(
        out.stdout.contains(&format!(
            "CF -> full Move: a CF: an aggravation Shock SR for injury {short}"
        )),
        "{}",
        out.stdout
    );
    // The narration names no command; the terminal adds the one that records the roll.
    assert!(
        out.stdout.contains(&format!(
            "  record it: leechbook roll Osric aggravation {short}"
        )),
        "{}",
        out.stdout
    );
    // A Grievous zone used anyway "automatically achieves a CF" (text 000, the option's last
    // paragraph): a G4B thigh makes even 33 a CF, and both injuries owe the Shock SR.
    s.ok(&[
        "strike",
        "Osric",
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
    // Dice the rules do not use are not asked for (issue 40, item 4): an automatic CF rolls
    // none, and a face given is refused, nothing written.
    let before = s.bytes();
    let out = move_test("half", "roll=33");
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("Osric's move is an automatic CF (a Grievous head, torso or leg injury): it takes no die"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    let out = s.ok(&[
        "move", "Osric", "--pace", "half", "--ml", "50", "--seed", "1",
    ]);
    assert!(
        out.contains("-> half Move: an automatic CF (a Grievous zone used)")
            && !out.contains("vs EML50"),
        "{out}"
    );
    // The Shock SR: 90 vs Shock ML65 fails (a CF): the injury loses 1 HR to aggravation.
    let out = s.ok(&["roll", "Osric", "aggravation", &id, "--dice", "roll=90"]);
    assert!(
        out.contains("90 vs EML65: CF -> aggravated: HR -1"),
        "{out}"
    );
}

/// HârnMaster's readings, one per sequence, are what `table show readings` prints.
#[test]
fn harnmaster_readings_name_each_sequence() {
    let s = Scratch::with_osric();
    let out = s.ok(&["table", "show", "readings"]);
    for (title, text) in leechbook_core::harnmaster::READINGS {
        assert!(out.contains(&format!("# {title}")), "{title}: {out}");
        assert!(out.contains(text.trim()), "{title}");
    }
    assert!(
        out.contains("The normal rate of recovery is on pages the text lacks"),
        "{out}"
    );
}

/// Issue 26, item 1: a consequence is told where it happens, in `log`, `why` and `history`,
/// in their text and in their `--json` (a `consequences` list).
#[test]
fn log_why_and_history_list_the_consequences_in_json() {
    let s = old_tom_bleeding();
    s.ok(&["--seed", "1", "advance", "1h", "--roll", "--untended"]);
    let death = "Old Tom DIES (blood loss) at day 1 00:20";
    let log: Vec<Value> = serde_json::from_str(&s.ok(&["log", "--json"])).unwrap();
    let told: Vec<&Value> = log
        .iter()
        .filter(|e| {
            e["consequences"]
                .as_array()
                .is_some_and(|c| c.iter().any(|c| c == death))
        })
        .collect();
    assert_eq!(
        told.len(),
        1,
        "the death is told once, at its roll: {log:?}"
    );
    assert_eq!(told[0]["kind"], "hm.seq-roll");
    assert_eq!(told[0]["at"], "day 1 00:20");
    assert!(s.ok(&["log"]).contains(&format!("-> {death}")));
    let tom = s.ok(&["log", "--character", "Old Tom", "--json"]);
    assert!(tom.contains(death), "{tom}");
    let injury = injury_id(&s, "Old Tom", 0);
    let why: Value = serde_json::from_str(&s.ok(&["why", "Old Tom", &injury, "--json"])).unwrap();
    let chain = why["chain"].as_array().unwrap();
    assert!(
        chain.iter().any(|l| l["consequences"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == death)),
        "{why}"
    );
    let why_text = s.ok(&["why", "Old Tom", &injury]);
    assert!(why_text.contains(&format!("-> {death}")), "{why_text}");
    // Its last word is the death, not a wound still healing.
    assert_eq!(
        why_text.lines().last(),
        Some("  => G4E when Old Tom died (blood loss) at day 1 00:20"),
        "{why_text}"
    );
    let history: Value =
        serde_json::from_str(&s.ok(&["history", "Old Tom", &injury, "--json"])).unwrap();
    assert!(
        history
            .to_string()
            .contains(&format!("\"consequences\":[\"{death}\"]")),
        "{history}"
    );
}

/// Issue 26, item 7: the plot can be read by a player: values on each panel's axis, each
/// roll marked with its outcome, the death drawn; a story of twenty minutes is drawn over its
/// minutes, titled "day 1" (not "days 1-1").
#[test]
fn the_plot_of_a_short_fatal_story_shows_its_values_outcomes_and_death() {
    let s = old_tom_bleeding();
    s.ok(&["--seed", "1", "advance", "1h", "--roll", "--untended"]);
    let injury = injury_id(&s, "Old Tom", 0);
    let file = s.db.with_file_name("tom.svg");
    s.ok(&[
        "history",
        "Old Tom",
        &injury,
        "--plot",
        file.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&file).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG parses");
    let texts = |class: &str| -> Vec<String> {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .filter_map(|n| n.text().map(str::to_string))
            .collect()
    };
    let title = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("title"))
        .and_then(|n| n.text())
        .unwrap();
    assert!(title.ends_with(", day 1"), "{title}");
    // Each panel's values: Injury Level's 0, 2.5, 5 among them.
    let ticks = texts("tick");
    assert_eq!(ticks.len(), 3 * 6, "{ticks:?}");
    assert!(ticks.iter().any(|t| t == "2.5"), "{ticks:?}");
    // The blood-loss rolls at 00:05, 00:10, 00:15 (S) and 00:20 (F) are lettered.
    let story: Value =
        serde_json::from_str(&s.ok(&["history", "Old Tom", &injury, "--json"])).unwrap();
    let tests = story["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] != "hm.strike" && e["summary"].as_str().unwrap().contains(" vs EML"))
        .count();
    assert_eq!(
        texts("outcome").len(),
        tests,
        "one letter per roll (the strike is no roll)"
    );
    assert!(
        texts("day").contains(&"day 1 00:05".to_string()),
        "{:?}",
        texts("day")
    );
    assert_eq!(texts("death-label"), vec!["dies"]);
}

/// Issue 26, item 1: a roll recorded by hand says what it did, as `advance --roll` does: the
/// blood loss that leaves Old Tom INC says so under the roll.
#[test]
fn a_roll_recorded_by_hand_says_its_consequences() {
    let s = old_tom_bleeding();
    s.ok(&["advance", "5m", "--skip-owed"]);
    // 99 vs Strength ML60: F, 2 BP: the SHOCK STATE table's INC, over the strike's STN.
    let out = s.ok(&["roll", "Old Tom", "blood-loss", "--dice", "roll=99"]);
    assert_eq!(
        out.lines().last(),
        Some("-> Old Tom is now INC (was STN)"),
        "{out}"
    );
}

/// Issue 26, item 8: two open wounds at one place do not read alike: a roll on one names its
/// short id; and dice rolled for a command then refused are not shown (nothing was recorded).
#[test]
fn like_wounds_read_apart_and_refused_dice_are_not_shown() {
    let (s, edge) = s2e_abdomen();
    let out = s.ok(&[
        "strike",
        "Osric",
        "--aspect",
        "fire",
        "--location",
        "abdomen",
        "--effective",
        "8",
        "--dice",
        "shock=12",
    ]);
    assert!(out.contains("(another is open at the abdomen)"), "{out}");
    let out = s.ok(&[
        "treat",
        "Osric",
        &edge,
        "--physician",
        "50",
        "--dice",
        "treatment=62",
    ]);
    // Issue 41: named as a person types it, by its place and code (the other is S2F).
    assert!(out.starts_with("Osric treatment (abdomen S2E) 62"), "{out}");
    let out = s.run(&["--seed", "3", "roll", "Osric", "healing", &edge]);
    assert_eq!(out.code, 1);
    assert!(
        !out.stderr.contains("rolled by Leechbook"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
}

/// An INC character may make only an assisted, Difficult half move; an UNC one no action at
/// all (000 l.544, l.554): `move` refuses what the shock state forbids, before any die.
#[test]
fn the_shock_state_limits_the_move() {
    // The README's strike: shock 4+2+2 = 8 with the roll 75 a CF against EML65: INC.
    let s = crate::common::Scratch::with_osric();
    s.ok(&crate::common::OSRIC_STRUCK);
    s.ok(&["option", "aggravation", "on"]);
    let before = s.bytes();
    let out = s.run(&[
        "move", "Osric", "--pace", "full", "--ml", "50", "--dice", "roll=33",
    ]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("Osric is INC: only an assisted, Difficult half move is allowed"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before, "nothing was written");
    // A half move is allowed: 33 vs EML50, S.
    s.ok(&[
        "move", "Osric", "--pace", "half", "--ml", "50", "--dice", "roll=33",
    ]);
    // Struck again while INC: a new INC makes UNC (000 l.548), and no move at all.
    s.ok(&[
        "strike",
        "Osric",
        "--aspect",
        "blunt",
        "--location",
        "thigh",
        "--side",
        "left",
        "--effective",
        "10",
        "--dice",
        "shock=75",
    ]);
    assert_eq!(s.show("Osric")["shock_state"], "UNC");
    let out = s.run(&[
        "move", "Osric", "--pace", "half", "--ml", "50", "--dice", "roll=33",
    ]);
    assert!(
        out.stderr.contains("Osric is UNC: no actions are allowed"),
        "{}",
        out.stderr
    );
}

/// STN: "Impaired tests (step 5) are reduced by one Success Level" (000 l.536), and moving on
/// a Serious torso injury is one: a stunned mover's 52 against EML50, an F, becomes a CF,
/// which calls the aggravation Shock SR; the same roll unstunned calls none.
#[test]
fn a_stunned_movers_agility_test_is_one_success_level_lower() {
    let (s, id) = s2e_abdomen();
    s.ok(&["option", "aggravation", "on"]);
    let mv = |s: &Scratch| {
        s.ok(&[
            "move", "Osric", "--pace", "half", "--ml", "50", "--dice", "roll=52",
        ])
    };
    let owed = |s: &Scratch| due(s, "Osric").iter().any(|o| o["kind"] == "aggravation");
    let out = mv(&s);
    assert!(
        out.contains("52 vs EML50: F -> half Move: no aggravation"),
        "{out}"
    );
    assert!(!owed(&s), "an F calls for no aggravation roll");
    s.ok(&["override", "Osric", "--shock", "stn", "--reason", "dazed"]);
    let out = mv(&s);
    assert!(
        out.contains("stunned: F becomes CF; half Move: a CF: an aggravation Shock SR"),
        "{out}"
    );
    assert!(owed(&s), "the CF calls for the aggravation roll");
    // `why` tells the move whose CF called the wound's aggravation roll, and not the one
    // that called none.
    let why: Value = serde_json::from_str(&s.ok(&["why", "Osric", &id, "--json"])).unwrap();
    let moves: Vec<&Value> = why["chain"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["kind"] == "hm.move-test")
        .collect();
    assert_eq!(moves.len(), 1, "{why}");
    assert!(moves[0]["summary"]
        .as_str()
        .unwrap()
        .contains("stunned: F becomes CF"));
}
