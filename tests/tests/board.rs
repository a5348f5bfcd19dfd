//! The board (`leechbook board`), drawn on ratatui's test backend for each system's demo
//! campaign: the party with what matters now, and the owed rolls in time order. Ids are
//! masked (they differ on every run).

use leechbook::board::{draw, Board};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn screen(system: &str) -> String {
    screen_after(system, &[])
}

/// The board of a system's demo campaign after `more` commands (each without `--db`).
fn screen_after(system: &str, more: &[&[&str]]) -> String {
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
    let board = Board::of(&ledger);
    let mut terminal = Terminal::new(TestBackend::new(120, 24)).unwrap();
    terminal
        .draw(|f| draw(f, &board, Some(0), "following the ledger"))
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
        s.contains("Osric (HârnMaster)") && s.contains("Owed, in time order"),
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
