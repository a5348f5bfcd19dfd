//! Helpers shared by the end-to-end tests: a scratch ledger and the CLI run in-process.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// A scratch directory holding one ledger path.
pub struct Scratch {
    _dir: tempfile::TempDir,
    /// The ledger's path (not created until `init`).
    pub db: PathBuf,
}

impl Scratch {
    /// A fresh directory with no ledger yet.
    pub fn new() -> Scratch {
        let dir = tempfile::tempdir().expect("tempdir");
        let db = dir.path().join("ledger.db");
        Scratch { _dir: dir, db }
    }

    /// A ledger with Osric, the text's example target (Shock ML65, STR 12, HB13).
    pub fn with_osric() -> Scratch {
        let s = Scratch::new();
        s.ok(&["init", "--name", "test"]);
        s.ok(&[
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
        ]);
        s
    }

    /// Runs `leechbook --db DB ARGS...`.
    pub fn run(&self, args: &[&str]) -> leechbook::Output {
        run_db(&self.db, args)
    }

    /// Runs and asserts success, returning standard output.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert_eq!(
            out.code, 0,
            "leechbook {args:?} failed:\n{}{}",
            out.stdout, out.stderr
        );
        out.stdout
    }

    /// Runs `show NAME --json` and parses it.
    pub fn show(&self, name: &str) -> serde_json::Value {
        serde_json::from_str(&self.ok(&["show", name, "--json"])).expect("show --json parses")
    }

    /// The ledger file's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        std::fs::read(&self.db).expect("ledger file")
    }
}

/// Runs `leechbook --db DB ARGS...` in-process.
pub fn run_db(db: &Path, args: &[&str]) -> leechbook::Output {
    let mut all = vec![
        "leechbook".to_string(),
        "--db".into(),
        db.display().to_string(),
    ];
    all.extend(args.iter().map(|s| s.to_string()));
    leechbook::run(all)
}

/// A device's id and public key, as `device show` prints them.
pub fn identity(db: &std::path::Path) -> (String, String) {
    let out = run_db(db, &["device", "show"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let field = |name: &str| {
        out.stdout
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .map(|v| v.trim().to_string())
            .unwrap_or_else(|| panic!("no {name} in {}", out.stdout))
    };
    (field("device"), field("key"))
}

/// Carries one ledger's log to another by a sync file in `dir`: exports (which must succeed)
/// and returns what the import said.
pub fn carry(from: &Path, to: &Path, dir: &Path) -> leechbook::Output {
    let file = dir.join("carry.sync");
    let out = run_db(
        from,
        &["sync", "export", file.to_str().expect("utf-8 path")],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    run_db(to, &["sync", "import", file.to_str().expect("utf-8 path")])
}

/// The arguments of an edged strike to `who`'s thorax with the effective impact entered
/// (steps 1-2 skipped) and the given dice.
pub const fn thorax_strike<'a>(who: &'a str, effective: &'a str, dice: &'a str) -> [&'a str; 10] {
    [
        "strike",
        who,
        "--aspect",
        "edge",
        "--location",
        "thorax",
        "--effective",
        effective,
        "--dice",
        dice,
    ]
}
