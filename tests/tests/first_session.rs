//! Issue 41, item 6: the smaller things a new GM met at the first session, each as the GM
//! typed it.

use crate::common;
use common::Scratch;

/// `log NAME` is a character's log, as `log --character NAME` is.
#[test]
fn log_takes_the_character_by_name() {
    let s = Scratch::with_osric();
    s.ok(&common::OSRIC_STRUCK);
    assert_eq!(
        s.ok(&["log", "Osric"]),
        s.ok(&["log", "--character", "Osric"])
    );
    let out = s.run(&["log", "Nobody"]);
    assert_eq!(out.code, 1);
}

/// A fatigue recovery of more than is held says what cannot be done, not that nothing is owed.
#[test]
fn a_recovery_of_more_fatigue_than_held_says_so() {
    let s = Scratch::with_osric();
    let out = s.run(&["fatigue", "Osric", "-500"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains(
            "Osric cannot change their fatigue so: they hold 0 personal fatigue, not 500"
        ),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("owes no"), "{}", out.stderr);
}

/// `character add --help` groups each system's sheet under its own heading.
#[test]
fn character_add_help_groups_each_systems_sheet() {
    let out = Scratch::new().ok(&["character", "add", "--help"]);
    let at = |h: &str| out.find(h).unwrap_or_else(|| panic!("{h} missing: {out}"));
    let (hm, sw, wg, wi) = (
        at("HârnMaster sheet:"),
        at("Savage Worlds sheet:"),
        at("Wrath & Glory sheet:"),
        at("Witch Iron sheet:"),
    );
    assert!(hm < sw && sw < wg && wg < wi, "{out}");
    // Each flag under its system's heading: --hb before Savage Worlds', --rb after Witch Iron's.
    assert!(at("--hb") > hm && at("--hb") < sw, "{out}");
    assert!(at("--rb") > wi, "{out}");
}

/// `arms show` and `table show treatment` print tables a person reads, not TOML.
#[test]
fn arms_and_the_treatment_tables_print_as_tables() {
    let s = Scratch::with_osric();
    s.ok(&[
        "arms",
        "load",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/arms/starter.toml"),
    ]);
    let arms = s.ok(&["arms", "show"]);
    assert!(!arms.contains("[[weapons]]"), "{arms}");
    assert!(
        arms.lines()
            .any(|l| l.trim_start().starts_with("broadsword") && l.contains("edge (Edge d10+3)")),
        "{arms}"
    );
    let t = s.ok(&["table", "show", "treatment"]);
    assert!(!t.contains("[[types]]"), "{t}");
    // The text's example: an S2 edge wound treated CLN, +10; a CF is HR3 with infection
    // and permanent-impairment chances (the marks this table chose).
    let edge_serious = t
        .lines()
        .find(|l| l.starts_with("edge") && l.contains("Serious"))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(
        edge_serious.contains("CLN") && edge_serious.contains("+10"),
        "{edge_serious}"
    );
    assert!(t.lines().all(|l| l == l.trim_end()), "no trailing blanks");
}

/// The hints name the port the hub is on, not a default.
#[test]
fn the_link_hints_name_the_hubs_own_port() {
    let s = Scratch::with_osric();
    let out = s.run(&[
        "device",
        "link",
        "Osric",
        "--no-qr",
        "--hub",
        "http://127.0.0.1:3031",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let all = format!("{}{}", out.stdout, out.stderr);
    assert!(all.contains("--listen 0.0.0.0:3031"), "{all}");
    assert!(!all.contains("3030"), "{all}");
}

/// A shock sum's terms and a treatment's EML terms are named: Location Shock 4 (abdomen),
/// Injury Shock 2 (S2), the test's CF +2; Physician ML50 and CLN's +10 make EML60.
#[test]
fn shock_and_treatment_terms_are_labelled() {
    let s = Scratch::with_osric();
    let out = s.ok(&common::OSRIC_STRUCK);
    assert!(
        out.contains("shock 4+2+2 = 8 -> INC (roll 75 vs EML65: CF) [Location Shock 4, Injury Shock 2, test CF +2]"),
        "{out}"
    );
    let out = s.ok(&[
        "treat",
        "Osric",
        "abdomen",
        "--physician",
        "50",
        "--dice",
        "treatment=62",
    ]);
    assert!(out.contains("62 vs EML60: F"), "{out}");
    assert!(
        out.contains("[EML: healer Physician ML50 +10 CLN difficulty]"),
        "{out}"
    );
}

/// Issue 41, item 3: a foe set aside (captured) is out of the story: `due` and `advance
/// --roll` stop asking for their rolls, and a player's page lists the party alone; the GM
/// brings them back by a command, and every change is an event of the log.
#[test]
fn a_captured_foe_is_set_aside_and_the_party_page_lists_the_party() {
    let s = Scratch::with_osric();
    s.ok(&common::BRENNA);
    s.ok(&common::BRENNA_STRUCK); // G4E right shoulder, a bleeder: rolls owed every 5 min
    let out = s.ok(&["character", "side", "Brenna", "foe"]);
    assert!(out.contains("Brenna is a foe"), "{out}");
    // A foe alone (not set aside) is already off a player's page.
    let link = common::page_link(&s.db, "Osric", &["--party", "names"]);
    let (base, stop, hub) = common::serving_page(&s.db);
    let (_, page) = common::http(&base, "GET", &link, "");
    assert!(page.contains("Osric") && !page.contains("Brenna"), "{page}");
    let _ = stop.send(());
    hub.join().unwrap();
    let due = s.ok(&["due"]);
    assert!(due.contains("Brenna"), "{due}");
    let out = s.ok(&["character", "aside", "Brenna", "--why", "captured"]);
    assert!(out.contains("Brenna is set aside (captured)"), "{out}");
    let due = s.ok(&["due"]);
    assert!(!due.contains("Brenna"), "{due}");
    // By name, what she owes is still there to read.
    assert!(s.ok(&["due", "Brenna"]).contains("blood-loss"));
    // Ten days on, nothing of hers is rolled; the clock reaches its end.
    let out = s.ok(&["--seed", "3", "advance", "10d", "--roll"]);
    assert!(!out.contains("Brenna"), "{out}");
    assert_eq!(s.show("Osric")["campaign_time"], "day 11 00:00");
    // Setting aside again changes nothing, and says so; nothing is written.
    let before = s.bytes();
    let out = s.run(&["character", "aside", "Brenna", "--why", "captured"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("Brenna is already a foe, set aside (captured)"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    // Back on the party's side but still set aside: still off the page.
    s.ok(&["character", "side", "Brenna", "party"]);
    let (base, stop, hub) = common::serving_page(&s.db);
    let (_, page) = common::http(&base, "GET", &link, "");
    assert!(!page.contains("Brenna"), "{page}");
    let _ = stop.send(());
    hub.join().unwrap();
    // Back in the story: asked for again; the log holds each change.
    // A new reason for one set aside is said as such.
    let out = s.ok(&["character", "aside", "Brenna", "--why", "fled"]);
    assert!(out.contains("Brenna is set aside (fled)"), "{out}");
    let out = s.ok(&["character", "back", "Brenna"]);
    assert!(out.contains("Brenna is back in the story"), "{out}");
    let (base, stop, hub) = common::serving_page(&s.db);
    let (_, page) = common::http(&base, "GET", &link, "");
    assert!(
        page.contains("Brenna"),
        "one of the party in the story again: {page}"
    );
    let _ = stop.send(());
    hub.join().unwrap();
    assert!(s.ok(&["due"]).contains("Brenna"));
    let log = s.ok(&["log", "Brenna"]);
    for line in [
        "Brenna is a foe",
        "Brenna is set aside (captured)",
        "Brenna is back in the story",
    ] {
        assert!(log.contains(line), "{line}: {log}");
    }
}

/// Issue 41, item 1: a struck event keeps its words in `history` and `why`, marked with the
/// ruling's reason.
#[test]
fn a_struck_roll_keeps_its_words_in_the_story() {
    let s = Scratch::with_osric();
    s.ok(&common::abdomen_strike("Osric"));
    s.ok(&["roll", "Osric", "morale", "--ml", "50", "--dice", "roll=40"]);
    s.ok(&["undo", "--reason", "rolled twice"]);
    let history = s.ok(&["history", "Osric"]);
    assert!(
        history.contains("STRUCK (undone: rolled twice): Osric Morale roll 40 vs EML50: CS"),
        "{history}"
    );
    let why = s.ok(&["why", "Osric"]);
    assert!(
        why.contains(
            "struck from the record (undone: rolled twice): Osric Morale roll 40 vs EML50: CS"
        ),
        "{why}"
    );
}

/// Issue 41, item 6: an `advance` that lands exactly on the moment a roll falls due says so.
#[test]
fn an_advance_landing_on_a_due_moment_names_the_roll() {
    let s = Scratch::with_osric();
    s.ok(&common::abdomen_strike("Osric"));
    // The Healing Roll falls due five days after the strike: day 6 00:00.
    let out = s.ok(&["advance", "--to", "day 6 00:00"]);
    assert!(
        out.contains(
            "due now: Osric owes a healing roll; record it (leechbook roll Osric healing abdomen)"
        ),
        "{out}"
    );
}

/// Issue 41, items 1 and 2, as the outside check found them: two wounds at one place are
/// named by place and code; a roll's candidates and `advance --roll`'s hints name wounds as
/// a person types them; reinstating an undo says what to reinstate instead.
#[test]
fn wounds_at_one_place_are_named_by_place_and_code_and_an_undo_is_taken_back_by_its_target() {
    let s = Scratch::with_osric();
    // Effective impact 6 edge and blunt at the thigh: S2E and S2B (the INJURY table's 5-9
    // row). The second, at a place already wounded, rolls the compound d10: 7 against TN5
    // changes nothing.
    for (aspect, dice) in [("edge", "shock=12"), ("blunt", "compound=7,shock=12")] {
        s.ok(&[
            "strike",
            "Osric",
            "--aspect",
            aspect,
            "--location",
            "thigh",
            "--side",
            "left",
            "--effective",
            "6",
            "--dice",
            dice,
        ]);
    }
    let before = s.bytes();
    let out = s.run(&[
        "treat",
        "Osric",
        "left thigh",
        "--physician",
        "50",
        "--dice",
        "treatment=30",
    ]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("name one (left thigh S2E, left thigh S2B)"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    let out = s.ok(&[
        "treat",
        "Osric",
        "left thigh S2B",
        "--physician",
        "50",
        "--dice",
        "treatment=30",
    ]);
    assert!(out.contains("Osric treatment (left thigh S2B) 30"), "{out}");
    // The treatment is part of why the wound stands as it does.
    let why = s.ok(&["why", "Osric"]);
    assert!(why.contains("Osric treatment (left thigh S2B) 30"), "{why}");
    // `advance --roll` stops at the untreated one and names it so.
    let out = s.run(&["advance", "5d", "--roll"]);
    assert!(
        out.stdout
            .contains("leechbook treat Osric 'left thigh S2E' --physician ML")
            || out
                .stderr
                .contains("leechbook treat Osric 'left thigh S2E' --physician ML"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    // An undo is taken back by reinstating what it struck: the refusal says which.
    let said = s.ok(&["undo"]);
    let struck: u64 = said
        .strip_prefix("RULING: struck #")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{said}"));
    let log: Vec<serde_json::Value> = serde_json::from_str(&s.ok(&["log", "--json"])).unwrap();
    let undo = log.last().unwrap()["clock"].as_u64().unwrap();
    let out = s.run(&["reinstate", &format!("#{undo}"), "--reason", "back"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains(&format!(
            "#{undo} is not retracted: it stands (it is a retraction: to take it back, reinstate what it struck, #{struck})"
        )),
        "{}",
        out.stderr
    );
}

/// Issue 41, item 1: `what-if amend` tells the reading now and what would change; an
/// amendment struck from the record is named by what it was, not by how its target reads.
#[test]
fn what_if_amend_and_a_struck_amendment_say_what_they_did() {
    let s = Scratch::with_osric();
    s.ok(&common::thorax_strike("Osric", "6", "shock=12"));
    s.ok(&["roll", "Osric", "morale", "--ml", "50", "--dice", "roll=40"]);
    let out = s.ok(&["what-if", "amend", "#5", "--dice", "roll=90"]);
    assert!(
        out.contains("what if #5 were amended (it reads now: Osric Morale roll 40 vs EML50: CS)"),
        "{out}"
    );
    s.ok(&["amend", "#5", "--dice", "roll=90", "--reason", "misread"]);
    s.ok(&["undo"]);
    let log = s.ok(&["log"]);
    let line = log
        .lines()
        .find(|l| l.contains("the ruling amending #5"))
        .unwrap_or("");
    assert!(
        line.contains("STRUCK") && line.contains("(misread)"),
        "{log}"
    );
    assert!(!line.contains("now reads"), "{log}");
    assert!(log.contains("Osric Morale roll 40 vs EML50: CS"), "{log}");
}

/// An effective impact past any the INJURY table reads (a typo's 2147483647) is refused in
/// one line, and nothing is written.
#[test]
fn an_effective_impact_at_the_end_of_the_integers_is_refused() {
    let s = Scratch::with_osric();
    let before = s.bytes();
    let out = s.run(&common::thorax_strike("Osric", "2147483647", "shock=12"));
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(
        out.stderr.contains("2147483647 is not in -1000..=1000"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
}

/// Issue 41, item 2, as the second outside check found it: two wounds alike at one place
/// are named by their order (`left calf S2E (2)`), which every command takes, and a roll two
/// of them owe is asked for by name, never picked in silence.
#[test]
fn wounds_alike_at_one_place_are_named_by_their_order() {
    let s = Scratch::with_osric();
    // Effective impact 8 edge at the left calf, twice: S2E both (the INJURY table's 5-9);
    // the second rolls the compound d10, 7 against TN4: no change. Each owes a Stumble roll.
    for dice in ["shock=12", "compound=7,shock=12"] {
        s.ok(&[
            "strike",
            "Osric",
            "--aspect",
            "edge",
            "--location",
            "calf",
            "--side",
            "left",
            "--effective",
            "8",
            "--dice",
            dice,
        ]);
    }
    let before = s.bytes();
    let out = s.run(&[
        "roll", "Osric", "stumble", "--ml", "50", "--dice", "roll=30",
    ]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains(
            "several of Osric's injuries owe a Stumble roll: name one (left calf S2E (1), left calf S2E (2))"
        ),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    let out = s.ok(&[
        "roll",
        "Osric",
        "stumble",
        "left calf S2E (2)",
        "--ml",
        "50",
        "--dice",
        "roll=30",
    ]);
    assert!(out.contains("Stumble roll 30 vs EML50"), "{out}");
    let out = s.ok(&[
        "treat",
        "Osric",
        "left calf S2E (1)",
        "--physician",
        "50",
        "--dice",
        "treatment=30",
    ]);
    assert!(
        out.contains("Osric treatment (left calf S2E (1)) 30"),
        "{out}"
    );
}
