//! Issue 42 (part): GM-only characters in the fold and on the GM's own device. A character
//! added `--gm-only` (or hidden later with `character hide`) is marked so in the record; an
//! event that joins it with a character the table sees is refused (its fold reads the GM-only
//! one's sheet and state, which no player's device may hold); a player's page never shows it,
//! whatever the link's `--party`, and the GM's page marks it.

use crate::common;
use common::{http, page_link, serving_page, Scratch, OSRIC_STRUCK};

const ARMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/arms/starter.toml");

fn equip(s: &Scratch, name: &str) {
    s.ok(&[
        "character",
        "equip",
        name,
        "--weapon",
        "broadsword",
        "--melee",
        "60",
        "--dodge",
        "60",
    ]);
}

/// Osric of the party and a GM-only Brigand, both armed.
fn with_brigand() -> Scratch {
    let s = Scratch::with_osric();
    s.ok(&["arms", "load", ARMS]);
    let out = s.ok(&[
        "character",
        "add",
        "Brigand",
        "--gm-only",
        "--str",
        "12",
        "--end",
        "12",
        "--shock",
        "60",
        "--hb",
        "10",
    ]);
    assert!(out.contains("added Brigand (GM-only)"), "{out}");
    equip(&s, "Osric");
    equip(&s, "Brigand");
    s
}

#[test]
fn a_gm_only_character_is_marked_and_never_joined_with_the_tables() {
    let s = with_brigand();
    let list = s.ok(&["character", "list"]);
    let line = list.lines().find(|l| l.starts_with("Brigand")).unwrap();
    assert!(line.ends_with("[GM-only]"), "{list}");
    assert!(!list
        .lines()
        .find(|l| l.starts_with("Osric"))
        .unwrap()
        .contains("GM-only"));
    let log = s.ok(&["log"]);
    assert!(log.contains("Brigand is GM-only from now"), "{log}");
    // An exchange between the two is refused in one line and nothing is written.
    let before = s.bytes();
    let out = s.run(&[
        "melee",
        "Brigand",
        "Osric",
        "--weapon",
        "broadsword",
        "--mode",
        "edge",
        "--defence",
        "dodge",
        "--dice",
        "attack=20,defence=90,zone=4,location=7,impact=8,shock=12",
    ]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("Brigand is GM-only and Osric is seen by the table"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    // Each side's blow on its own is recorded.
    s.ok(&OSRIC_STRUCK);
    s.ok(&common::thorax_strike("Brigand", "6", "shock=12"));
    // Revealed, the two may meet in an exchange; revealing twice says so.
    let out = s.ok(&["character", "reveal", "Brigand"]);
    assert!(out.contains("Brigand is revealed"), "{out}");
    let out = s.run(&["character", "reveal", "Brigand"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("Brigand is already seen by the table"),
        "{}",
        out.stderr
    );
    s.ok(&["character", "hide", "brigand"]);
    assert!(s.ok(&["character", "list"]).contains("[GM-only]"));
}

#[test]
fn no_players_page_shows_a_gm_only_character_and_the_gms_marks_it() {
    let s = with_brigand();
    s.ok(&OSRIC_STRUCK);
    // A player's link for a GM-only character is refused.
    let out = s.run(&[
        "device",
        "link",
        "Brigand",
        "--no-qr",
        "--hub",
        "http://127.0.0.1:1",
    ]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("Brigand is GM-only"), "{}", out.stderr);
    let osric = page_link(&s.db, "Osric", &["--party", "everything"]);
    let gm = page_link(&s.db, "--gm", &[]);
    let (base, stop, hub) = serving_page(&s.db);
    let (status, page) = http(&base, "GET", &osric, "");
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains("Osric") && !page.contains("Brigand"),
        "{page}"
    );
    let (status, page) = http(&base, "GET", &gm, "");
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("<h2>Brigand"), "{page}");
    assert!(page.contains("class=\"gm-only\""), "{page}");
    let _ = stop.send(());
    hub.join().unwrap();
}
