//! The board (`leechbook board`), drawn on ratatui's test backend for each system's demo
//! campaign: the party with what matters now, and the owed rolls in time order. Ids are
//! masked (they differ on every run).

use crate::common;

use leechbook::board::{draw, Board};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn screen(system: &str) -> String {
    screen_after(system, &[])
}

/// The board of a system's demo campaign after `more` commands, 120x24.
fn screen_after(system: &str, more: &[&[&str]]) -> String {
    screen_sized(system, more, 120, 24)
}

/// The board of a system's demo campaign after `more` commands (each without `--db`), on a
/// terminal of `width` x `height`.
fn screen_sized(system: &str, more: &[&[&str]], width: u16, height: u16) -> String {
    screen_picking(system, more, width, height, None)
}

/// [`screen_sized`] with the first owed roll of the character `owner` selected (else the
/// first roll).
fn screen_picking(
    system: &str,
    more: &[&[&str]],
    width: u16,
    height: u16,
    owner: Option<&str>,
) -> String {
    screen_scrolled(system, more, (width, height), owner, 0)
}

/// [`screen_picking`] with the party pane scrolled to its `party_from`th character.
fn screen_scrolled(
    system: &str,
    more: &[&[&str]],
    (width, height): (u16, u16),
    owner: Option<&str>,
    party_from: usize,
) -> String {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    let out = leechbook::run([
        "leechbook",
        "demo",
        "--system",
        system,
        "--out",
        db.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for args in more {
        let mut argv = vec!["leechbook", "--db", db.to_str().unwrap()];
        argv.extend_from_slice(args);
        let out = leechbook::run(argv);
        assert_eq!(out.code, 0, "{:?}: {}", args, out.stderr);
    }
    let ledger = leechbook_ledger::Replica::open(&db)
        .unwrap()
        .state()
        .unwrap();
    let mut board = Board::of(&ledger, true);
    board.party_from = party_from;
    let selected = owner
        .and_then(|n| board.agenda.iter().position(|o| o.character == n))
        .unwrap_or(0);
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|f| draw(f, &board, Some(selected), "following the ledger"))
        .unwrap();
    let buffer = terminal.backend().buffer().clone();
    let mut text = String::new();
    for y in 0..buffer.area.height {
        let line: String = (0..buffer.area.width)
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect();
        text.push_str(line.trim_end());
        text.push('\n');
    }
    mask_ids(&text)
}

/// Replaces every eight-hex-digit word (a short id) with XXXXXXXX.
fn mask_ids(text: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word.len() == 8
            && word.chars().all(|c| c.is_ascii_hexdigit())
            && word.chars().any(|c| c.is_ascii_digit())
        {
            out.push_str("XXXXXXXX");
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[test]
fn the_harnmaster_board() {
    // The README's strike: ZN5 torso, abdomen, 12E - AV4 = 8 -> S2E, shock 8 rolled 75
    // against EML65 -> incapacitated, owing a shock reroll and a Morale roll.
    let s = screen_after(
        "harnmaster",
        &[&[
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
        ]],
    );
    assert!(
        s.contains("Osric (HârnMaster)") && s.contains("Owed, now first"),
        "{s}"
    );
    assert!(s.contains("S2E"), "the abdomen wound is listed: {s}");
    assert!(
        s.contains("Osric: shock-reroll"),
        "the owed shock reroll: {s}"
    );
    insta::assert_snapshot!(s);
}

#[test]
fn the_savage_worlds_board() {
    let s = screen("savage-worlds");
    assert!(s.contains("(Savage Worlds)"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn the_wrath_glory_board() {
    let s = screen("wrath-glory");
    assert!(s.contains("(Wrath & Glory)"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn the_witch_iron_board() {
    let s = screen("witch-iron");
    assert!(s.contains("(Witch Iron)"), "{s}");
    insta::assert_snapshot!(s);
}

/// The characters of a system's demo campaign, by name.
fn party(system: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    let out = leechbook::run([
        "leechbook",
        "demo",
        "--system",
        system,
        "--out",
        db.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let ledger = leechbook_ledger::Replica::open(&db)
        .unwrap()
        .state()
        .unwrap();
    ledger.roll().iter().map(|(_, n)| n.clone()).collect()
}

/// Issue 26, item 5: at 80x24 the board keeps its key help (`[q]` included) and never drops
/// a character without a word: each is shown, or counted in a "+N more" marker; at 160x45
/// it uses the room it has. Every system's demo, drawn both ways.
#[test]
fn the_board_fits_80x24_and_uses_160x45() {
    for system in ["harnmaster", "savage-worlds", "wrath-glory", "witch-iron"] {
        let small = screen_sized(system, &[], 80, 24);
        assert!(small.contains("[q] quit"), "{system} at 80x24:\n{small}");
        let names = party(system);
        let shown = names.iter().filter(|n| small.contains(n.as_str())).count();
        if shown < names.len() {
            assert!(
                small.contains(&format!("+{} more", names.len() - shown))
                    || small.contains(" more characters"),
                "{system}: {} of {} characters shown, and no marker:\n{small}",
                shown,
                names.len()
            );
        }
        let large = screen_sized(system, &[], 160, 45);
        assert!(large.contains("[q] quit"), "{large}");
        for n in &names {
            assert!(
                large.contains(n.as_str()),
                "{system} at 160x45 shows {n}:\n{large}"
            );
        }
        insta::assert_snapshot!(format!("{system}_80x24"), small);
        insta::assert_snapshot!(format!("{system}_160x45"), large);
    }
}

/// Nine wounded characters at 80x24: the party that does not fit is counted in its marker,
/// so every character is shown or counted.
#[test]
fn a_party_too_big_for_the_terminal_is_counted_not_dropped() {
    let names: Vec<String> = (1..=7).map(|i| format!("Guard{i}")).collect();
    let mut more: Vec<Vec<&str>> = Vec::new();
    for n in &names {
        more.push(vec![
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
        more.push(vec![
            "strike",
            n,
            "--aspect",
            "edge",
            "--location",
            "shoulder",
            "--side",
            "right",
            "--effective",
            "16",
            "--dice",
            "shock=12",
        ]);
    }
    let more: Vec<&[&str]> = more.iter().map(Vec::as_slice).collect();
    // Picking the last guard's roll brings the last guard into view, the ones above counted.
    let picked = screen_picking("harnmaster", &more, 80, 24, Some("Guard7"));
    assert!(picked.contains("Guard7 (HârnMaster)"), "{picked}");
    assert!(picked.contains("more above)"), "{picked}");
    let small = screen_sized("harnmaster", &more, 80, 24);
    let all = 2 + names.len();
    let shown = ["Osric", "Brannoc"]
        .iter()
        .map(|s| s.to_string())
        .chain(names.iter().cloned())
        .filter(|n| small.contains(&format!("{n} (HârnMaster)")))
        .count();
    assert!(shown < all, "it does not all fit: {small}");
    assert!(
        small.contains(&format!("+{} more characters", all - shown)),
        "{shown} of {all} shown:\n{small}"
    );
    assert!(small.contains("[q] quit"), "{small}");
    // Issue 41, item 4: the party pane scrolls ([ and ], named in the keys' line) to the
    // characters below, the ones above counted.
    assert!(small.contains("[[ ]] party"), "{small}");
    let scrolled = screen_scrolled("harnmaster", &more, (80, 24), None, 6);
    assert!(scrolled.contains("(6 more above)"), "{scrolled}");
    assert!(scrolled.contains("Guard7 (HârnMaster)"), "{scrolled}");
    // Issue 41, item 4: each character's next timed roll shows at 80x24, with its EML
    // before the cut, its wound by place (no hex id).
    for n in &names {
        let line = small
            .lines()
            .find(|l| l.contains(&format!("{n}: ")) && l.contains(" EML"))
            .unwrap_or_else(|| panic!("{n}'s next timed roll is not shown:\n{small}"));
        // Its wound by place or cut before it, never by an id.
        assert!(!line.contains("XXXXXXXX"), "no id: {line}");
    }
}

/// Issue 26, item 5: a dead character shows once as DEAD, not again as a bleeder whose
/// blood loss falls due.
#[test]
fn a_dead_bleeder_shows_once_as_dead() {
    let text = screen_sized(
        "harnmaster",
        &[
            &[
                "character",
                "add",
                "Tom",
                "--str",
                "12",
                "--end",
                "12",
                "--shock",
                "65",
                "--hb",
                "13",
            ],
            &common::shoulder_strike("Tom"),
            &["advance", "5m", "--skip-owed"],
            &["roll", "Tom", "blood-loss", "--dice", "roll=99"], // F: 2 BP
            &["advance", "5m", "--skip-owed"],
            &["roll", "Tom", "blood-loss", "--dice", "roll=99"], // 4 BP: dies
        ],
        160,
        45,
    );
    assert_eq!(text.matches("DEAD").count(), 1, "{text}");
    let dead = text.lines().find(|l| l.contains("DEAD")).unwrap();
    assert!(!dead.contains("bleeder"), "{text}");
}

/// A terminal narrower than the party's least width (54 columns give 24) draws the board
/// anyway, the party as wide as there is room for.
#[test]
fn a_narrow_terminal_draws_the_board() {
    for width in [20, 40, 53] {
        let text = screen_sized("harnmaster", &[], width, 20);
        assert!(text.lines().count() >= 20, "{width}: {text}");
    }
}
