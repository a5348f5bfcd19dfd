//! Bad input gets a one-line error naming the problem, a non-zero exit code, and a ledger that
//! is byte-for-byte unchanged.

use crate::common;
use common::{run_db, Scratch};

/// Runs a command that must fail with `code`, and checks the error line and the file bytes.
fn refused(s: &Scratch, args: &[&str], code: i32, needle: &str) {
    let before = s.bytes();
    let out = s.run(args);
    assert_eq!(out.code, code, "leechbook {args:?}: {}", out.stderr);
    assert!(out.stdout.is_empty(), "no data on stdout: {}", out.stdout);
    let err = out.stderr.trim_end();
    if code == 1 {
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.starts_with("error: "), "{err}");
    }
    assert!(err.contains(needle), "{err:?} should mention {needle:?}");
    assert_eq!(s.bytes(), before, "leechbook {args:?} changed the ledger");
}

const STRIKE: [&str; 9] = [
    "strike",
    "Osric",
    "--aspect",
    "edge",
    "--zone-die",
    "d6",
    "--aim",
    "4",
    "--impact",
];

fn strike_with(dice: &str) -> Vec<String> {
    let mut v: Vec<String> = STRIKE.iter().map(|s| s.to_string()).collect();
    v.extend(["d10+4", "--av", "4", "--dice", dice].map(String::from));
    v
}

fn refused_owned(s: &Scratch, args: &[String], code: i32, needle: &str) {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(s, &a, code, needle);
}

#[test]
fn an_unknown_character() {
    let s = Scratch::with_osric();
    let mut a = strike_with("zone=2,location=7,impact=8,shock=75");
    a[1] = "Osrik".into();
    refused_owned(
        &s,
        &a,
        1,
        "no character named 'Osrik' (the campaign has: Osric)",
    );
    refused(&s, &["show", "Nobody"], 1, "no character named 'Nobody'");
    refused(
        &s,
        &["roll", "Nobody", "morale", "--ml", "50"],
        1,
        "'Nobody'",
    );
}

#[test]
fn a_die_face_out_of_range() {
    let s = Scratch::with_osric();
    refused_owned(
        &s,
        &strike_with("zone=7,location=7,impact=8,shock=75"),
        1,
        "die 'zone' is a d6: it shows 1-6, not 7",
    );
    refused_owned(
        &s,
        &strike_with("zone=2,location=11,impact=8,shock=75"),
        1,
        "die 'location' is a d10",
    );
    refused_owned(
        &s,
        &strike_with("zone=2,location=7,impact=8,shock=101"),
        1,
        "die 'shock' is a d100: it shows 1-100, not 101",
    );
    refused_owned(
        &s,
        &strike_with("zone=2,location=7,impact=0,shock=50"),
        1,
        "not 0",
    );
}

#[test]
fn malformed_dice() {
    let s = Scratch::with_osric();
    refused_owned(
        &s,
        &strike_with("zone2"),
        1,
        "--dice 'zone2': expected NAME=FACE",
    );
    refused_owned(&s, &strike_with("zon=2"), 1, "unknown die 'zon'");
    refused_owned(
        &s,
        &strike_with("zone=two"),
        1,
        "'two' is not a face of die 'zone'",
    );
    refused_owned(
        &s,
        &strike_with("zone=2/3"),
        1,
        "die 'zone' needs 1 face(s)",
    );
    refused(
        &s,
        &[
            "strike",
            "Osric",
            "--aspect",
            "edge",
            "--zone-die",
            "d7",
            "--impact",
            "d6",
        ],
        1,
        "there is no d7",
    );
    refused(
        &s,
        &[
            "strike",
            "Osric",
            "--aspect",
            "edge",
            "--zone-die",
            "d6",
            "--impact",
            "d10+x",
        ],
        1,
        "--impact: 'd10+x' is not a dice expression",
    );
    refused(
        &s,
        &["roll", "Osric", "shock-reroll", "--dice", "roll=0"],
        1,
        "die 'roll' is a d100: it shows 1-100, not 0",
    );
}

#[test]
fn rolls_that_are_not_owed() {
    let s = Scratch::with_osric();
    refused(
        &s,
        &["roll", "Osric", "shock-reroll", "--dice", "roll=40"],
        1,
        "Osric owes no Shock Reroll: their Shock State is none",
    );
    refused(
        &s,
        &["roll", "Osric", "morale", "--ml", "60", "--dice", "roll=29"],
        1,
        "owes no Morale roll",
    );
    refused(&s, &["advance", "--to", "day 1 00:00"], 1, "cannot go back");
    refused(&s, &["advance", "5x"], 1, "'5x' is not a duration");
}

#[test]
fn usage_errors_exit_2_and_leave_the_ledger() {
    let s = Scratch::with_osric();
    refused(&s, &["strike", "Osric"], 2, "--aspect");
    refused(&s, &["frobnicate"], 2, "unrecognized subcommand");
}

#[test]
fn a_missing_database_is_not_created() {
    let s = Scratch::new();
    let out = s.run(&["show", "Osric"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("no ledger at"), "{}", out.stderr);
    assert!(out.stderr.contains("leechbook init"), "{}", out.stderr);
    assert!(!s.db.exists());
}

#[test]
fn a_foreign_file_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.db");
    std::fs::write(&text, "a shopping list, not a ledger\n").unwrap();
    let out = run_db(&text, &["show", "Osric"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("is not a Leechbook ledger"),
        "{}",
        out.stderr
    );
    assert_eq!(
        std::fs::read(&text).unwrap(),
        b"a shopping list, not a ledger\n"
    );
    // init refuses to overwrite it too.
    let out = run_db(&text, &["init"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("already exists"), "{}", out.stderr);
    assert_eq!(
        std::fs::read(&text).unwrap(),
        b"a shopping list, not a ledger\n"
    );
}

#[test]
fn a_duplicate_character_and_a_bad_sheet() {
    let s = Scratch::with_osric();
    refused(
        &s,
        &[
            "character",
            "add",
            "osric",
            "--str",
            "10",
            "--end",
            "10",
            "--shock",
            "50",
            "--hb",
            "10",
        ],
        1,
        "there is already a character named 'Osric': 'osric' would answer to the same name",
    );
    refused(
        &s,
        &[
            "character",
            "add",
            "Ann",
            "--str",
            "99",
            "--end",
            "10",
            "--shock",
            "50",
            "--hb",
            "10",
        ],
        1,
        "--str 99 is out of range",
    );
    refused(
        &s,
        &[
            "character",
            "add",
            "Ann",
            "--str",
            "9",
            "--end",
            "10",
            "--shock",
            "50",
            "--hb",
            "10",
            "--body",
            "dragon",
        ],
        1,
        "no body table named 'dragon'",
    );
}

#[test]
fn a_bad_body_table_is_refused_whole() {
    let s = Scratch::with_osric();
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.toml");
    std::fs::write(&f, "name = \"bad\"\n[[zones]]\nname = \"body\"\nkind = \"torso\"\nzn = [1, 1]\n[[zones.locations]]\nname = \"x\"\nld = [1, 9]\nshock = 3\n").unwrap();
    refused(
        &s,
        &["table", "load", f.to_str().unwrap()],
        1,
        "covers LD 1-9",
    );
    std::fs::write(&f, "this is = = not toml").unwrap();
    refused(
        &s,
        &["table", "load", f.to_str().unwrap()],
        1,
        "is not a body table",
    );
}

/// Issue 12, item 17: systems are exclusive: a sheet option of another system is refused in
/// every campaign, naming it, and nothing is recorded.
#[test]
fn sheet_options_of_another_system_are_refused() {
    let wi = Scratch::new();
    wi.ok(&["init", "--system", "witch-iron"]);
    refused(
        &wi,
        &[
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
        ],
        1,
        "--str (harnmaster)",
    );
    refused(
        &wi,
        &["character", "add", "Red", "--toughness", "6"],
        1,
        "--toughness (savage-worlds)",
    );
    wi.ok(&["character", "add", "Ana", "--rb", "1"]);
    let hm = Scratch::with_osric();
    refused(
        &hm,
        &[
            "character",
            "add",
            "Ana",
            "--str",
            "12",
            "--end",
            "12",
            "--shock",
            "65",
            "--hb",
            "13",
            "--rb",
            "1",
        ],
        1,
        "--rb (witch-iron)",
    );
    let sw = Scratch::new();
    sw.ok(&["init", "--system", "savage-worlds"]);
    refused(
        &sw,
        &["character", "add", "Red", "--toughness", "6", "--tier", "2"],
        1,
        "--tier (wrath-glory)",
    );
    let wg = Scratch::new();
    wg.ok(&["init", "--system", "wrath-glory"]);
    refused(
        &wg,
        &[
            "character",
            "add",
            "Kel",
            "--tier",
            "1",
            "--wg-toughness",
            "4",
            "--resilience",
            "8",
            "--max-shock",
            "5",
            "--pace",
            "6",
        ],
        1,
        "--pace (savage-worlds)",
    );
}

/// Issue 26, item 6: a file-system failure is one line naming the file and the cause, exit
/// 1, never "internal error": a name too long (shown by its ends), a path the system will not
/// open.
#[test]
fn a_file_that_cannot_be_opened_is_one_line_naming_the_cause() {
    let dir = tempfile::tempdir().unwrap();
    let long = dir.path().join(format!("{}.db", "a".repeat(70_000)));
    let out = common::run_db(&long, &["init"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.stderr.trim().lines().count(), 1);
    assert!(
        out.stderr
            .contains("its name is too long (70003 bytes in one part"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.len() < 400,
        "the path is shortened: {}",
        out.stderr.len()
    );
    // A directory given as the ledger is said to be one (not "no ledger").
    let out = common::run_db(dir.path(), &["log"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("it is a directory (give the ledger file in it)"),
        "{}",
        out.stderr
    );
    let out = common::run_db(std::path::Path::new("/proc/leechbook.db"), &["init"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .starts_with("error: cannot open /proc/leechbook.db: "),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("internal"), "{}", out.stderr);
}

/// Makes a directory and the files in it read-only for as long as it lives: by their mode,
/// and where that does not bind (root), by the immutable attribute. None when neither can.
struct ReadOnly {
    dir: std::path::PathBuf,
    immutable: bool,
}

impl ReadOnly {
    fn make(dir: &std::path::Path) -> Option<ReadOnly> {
        use std::os::unix::fs::PermissionsExt;
        let files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
            .ok()?
            .map(|e| e.unwrap().path())
            .collect();
        for f in &files {
            std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o444)).ok()?;
        }
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).ok()?;
        let probe = dir.join("probe");
        if std::fs::write(&probe, b"x").is_err() {
            return Some(ReadOnly {
                dir: dir.to_path_buf(),
                immutable: false,
            });
        }
        // Root writes through modes: the immutable attribute binds it.
        let _ = std::fs::remove_file(&probe);
        let chattr = |on: &str, p: &std::path::Path| {
            std::process::Command::new("chattr")
                .arg(on)
                .arg(p)
                .status()
                .is_ok_and(|s| s.success())
        };
        if files.iter().all(|f| chattr("+i", f)) && chattr("+i", dir) {
            return Some(ReadOnly {
                dir: dir.to_path_buf(),
                immutable: true,
            });
        }
        None
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        if self.immutable {
            let _ = std::process::Command::new("chattr")
                .arg("-i")
                .arg(&self.dir)
                .status();
        }
        for f in std::fs::read_dir(&self.dir).into_iter().flatten().flatten() {
            if self.immutable {
                let _ = std::process::Command::new("chattr")
                    .arg("-i")
                    .arg(f.path())
                    .status();
            }
            let _ = std::fs::set_permissions(f.path(), std::fs::Permissions::from_mode(0o644));
        }
        let _ = std::fs::set_permissions(&self.dir, std::fs::Permissions::from_mode(0o755));
    }
}

/// Issue 26, item 6: a ledger the file system lets us read but not write (a read-only file in
/// a read-only directory: a share, a backup, a copy handed to a player) is read by every
/// command that only reads; a command that writes is one line naming the file, and nothing
/// changes.
#[test]
fn a_read_only_ledger_is_read_and_a_write_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    let db = ro.join("camp.db");
    run_db(&db, &["init"]);
    common::add_character(&db, "Osric");
    let before = std::fs::read(&db).unwrap();
    let Some(_guard) = ReadOnly::make(&ro) else {
        eprintln!("skipped: this file system can make nothing read-only");
        return;
    };
    for args in [
        &["show", "Osric"][..],
        &["log"],
        &["export", "Osric"],
        &["history", "Osric"],
        &["due"],
        &["verify", "--full"],
    ] {
        let out = run_db(&db, args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    }
    assert!(run_db(&db, &["show", "Osric"]).stdout.contains("Osric"));
    let out = run_db(&db, &common::abdomen_strike("Osric"));
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("camp.db is read-only (the file or its directory)"),
        "{}",
        out.stderr
    );
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

/// Issue 26, smaller items: a name differing only by case in any script, or by how an accent
/// is encoded, is the same name (refused for a new character, found for a lookup); a negative
/// number where a positive one is needed is the command's one line, not clap's usage block.
#[test]
fn names_in_any_case_or_encoding_and_negative_numbers_are_one_line() {
    let s = Scratch::new();
    s.ok(&["init"]);
    let sheet = ["--str", "10", "--end", "10", "--shock", "60", "--hb", "12"];
    let add = |name: &str| {
        let mut args = vec!["character", "add", name];
        args.extend(sheet);
        s.run(&args)
    };
    assert_eq!(add("Ærwyn").code, 0);
    assert_eq!(add("Caf\u{e9}").code, 0);
    let before = s.bytes();
    for (name, like) in [("ærwyn", "Ærwyn"), ("Cafe\u{301}", "Caf\u{e9}")] {
        let out = add(name);
        assert_eq!(out.code, 1, "{name}: {}", out.stdout);
        assert_eq!(
            out.stderr.trim(),
            format!(
                "error: there is already a character named '{like}': '{name}' would answer to the same name (neither case nor the encoding of accents tells names apart)"
            )
        );
    }
    assert_eq!(s.bytes(), before);
    assert!(s.ok(&["show", "æRWYN"]).starts_with("Ærwyn "));
    assert!(s.ok(&["show", "CAFE\u{301}"]).starts_with("Caf\u{e9} "));
    s.ok(&common::abdomen_strike("Ærwyn"));
    let out = s.run(&["treat", "Ærwyn", "--physician", "-40"]);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr.trim(),
        "error: --physician -40 is out of range (0-200)"
    );
}
