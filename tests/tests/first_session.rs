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
