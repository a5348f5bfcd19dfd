//! Sync by file: three devices make random changes offline and sync by files in random
//! order; in the end all three hold identical logs and fold to identical states. Corrupt,
//! truncated and foreign sync files are refused whole, with nothing written.

mod common;
use common::{run_db, Scratch};
use leechbook_core::fold::Ledger;
use leechbook_store::Store;
use proptest::prelude::*;
use std::path::PathBuf;

#[derive(Debug, Clone)]
enum Act {
    Strike {
        device: usize,
        effective: i32,
        shock: u16,
    },
    Advance {
        device: usize,
    },
    Sync {
        from: usize,
        to: usize,
    },
}

fn act() -> impl Strategy<Value = Act> {
    prop_oneof![
        3 => (0..3usize, 1..20i32, 1..=100u16).prop_map(|(device, effective, shock)| Act::Strike { device, effective, shock }),
        1 => (0..3usize).prop_map(|device| Act::Advance { device }),
        2 => (0..3usize, 0..3usize).prop_map(|(from, to)| Act::Sync { from, to }),
    ]
}

fn sync(dir: &std::path::Path, dbs: &[PathBuf], from: usize, to: usize) {
    let file = dir.join(format!("{from}-{to}.sync"));
    let out = run_db(&dbs[from], &["sync", "export", file.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = run_db(&dbs[to], &["sync", "import", file.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

/// A device's id and public key, as `device show` prints them.
fn identity(db: &std::path::Path) -> (String, String) {
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    #[test]
    fn three_devices_converge(acts in prop::collection::vec(act(), 1..20)) {
        let dir = tempfile::tempdir().unwrap();
        let dbs: Vec<PathBuf> = (0..3).map(|i| dir.path().join(format!("d{i}.db"))).collect();
        assert_eq!(run_db(&dbs[0], &["init"]).code, 0);
        assert_eq!(run_db(&dbs[0], &["character", "add", "Osric", "--str", "12", "--end", "12", "--shock", "90", "--hb", "13"]).code, 0);
        let seed = dir.path().join("seed.sync");
        assert_eq!(run_db(&dbs[0], &["sync", "export", seed.to_str().unwrap()]).code, 0);
        for db in &dbs[1..] {
            let out = run_db(db, &["init", "--join", seed.to_str().unwrap()]);
            prop_assert_eq!(out.code, 0, "{}", out.stderr);
            // The GM's device rosters the new device as a co-GM.
            let (device, key) = identity(db);
            let out = run_db(&dbs[0], &["device", "add", &device, &key, "--role", "gm"]);
            prop_assert_eq!(out.code, 0, "{}", out.stderr);
        }
        sync(dir.path(), &dbs, 0, 1);
        sync(dir.path(), &dbs, 0, 2);
        for a in &acts {
            match a {
                Act::Strike { device, effective, shock } => {
                    let e = effective.to_string();
                    let d = format!("shock={shock},compound=5");
                    let out = run_db(&dbs[*device], &["strike", "Osric", "--aspect", "edge", "--location", "thorax", "--effective", &e, "--dice", &d]);
                    prop_assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
                }
                Act::Advance { device } => {
                    let out = run_db(&dbs[*device], &["advance", "1h"]);
                    prop_assert_eq!(out.code, 0, "{}", out.stderr);
                }
                Act::Sync { from, to } => {
                    if from != to {
                        sync(dir.path(), &dbs, *from, *to);
                    }
                }
            }
        }
        // Everyone meets: a round of syncs in both directions.
        for (f, t) in [(0, 1), (1, 2), (2, 0), (0, 1), (1, 2)] {
            sync(dir.path(), &dbs, f, t);
        }
        let logs: Vec<Vec<leechbook_core::Envelope>> = dbs.iter().map(|d| Store::open(d).unwrap().events().unwrap()).collect();
        prop_assert_eq!(&logs[0], &logs[1]);
        prop_assert_eq!(&logs[1], &logs[2]);
        let states: Vec<Ledger> = logs.iter().map(|l| Ledger::fold(l)).collect();
        prop_assert!(states[0] == states[1] && states[1] == states[2]);
        // Syncing again changes nothing.
        let before = Store::open(&dbs[1]).unwrap().count().unwrap();
        sync(dir.path(), &dbs, 0, 1);
        prop_assert_eq!(Store::open(&dbs[1]).unwrap().count().unwrap(), before);
    }
}

#[test]
fn corrupt_truncated_and_foreign_sync_files_are_refused_whole() {
    let a = Scratch::with_osric();
    a.ok(&[
        "strike",
        "Osric",
        "--aspect",
        "edge",
        "--location",
        "thorax",
        "--effective",
        "6",
        "--dice",
        "shock=12",
    ]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.sync");
    a.ok(&["sync", "export", file.to_str().unwrap()]);
    let good = std::fs::read(&file).unwrap();
    let b = Scratch::new();
    b.ok(&["init", "--join", file.to_str().unwrap()]);
    // A foreign campaign's file.
    let other = Scratch::with_osric();
    let before = b.bytes();
    let out = b.run(&["sync", "import", file.to_str().unwrap()]);
    assert_eq!(out.code, 0, "the same campaign imports: {}", out.stderr);
    let foreign = dir.path().join("foreign.sync");
    other.ok(&["sync", "export", foreign.to_str().unwrap()]);
    let out = b.run(&["sync", "import", foreign.to_str().unwrap()]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("another campaign"), "{}", out.stderr);
    // Truncated and corrupt files.
    let cut = dir.path().join("cut.sync");
    std::fs::write(&cut, &good[..good.len() / 2]).unwrap();
    let out = b.run(&["sync", "import", cut.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stderr.contains("not a Leechbook sync file"),
        "{}",
        out.stderr
    );
    let junk = dir.path().join("junk.sync");
    std::fs::write(&junk, b"hello, this is not automerge").unwrap();
    let out = b.run(&["sync", "import", junk.to_str().unwrap()]);
    assert_eq!(out.code, 1);
    assert_eq!(b.bytes(), before, "nothing was written");
    // Joining with a bad file creates nothing.
    let c = Scratch::new();
    let out = c.run(&["init", "--join", junk.to_str().unwrap()]);
    assert_eq!(out.code, 1);
    assert!(!c.db.exists());
}
