//! Sync by file (and through a hub): three devices make random changes offline and sync by
//! files or over the network in random order, while a hostile hand among them deletes
//! entries from the files in transit and puts junk in them; in the end all three hold
//! identical logs, with nothing forged, and fold to identical states. Corrupt,
//! truncated and foreign sync files are refused whole, with nothing written.

use crate::common;
use common::{identity, run_db, Scratch};
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
        /// Only the changes `to` lacks (`sync export --to`), else everything.
        incremental: bool,
        /// Through a hub on the network (both connect to it) instead of by file.
        network: bool,
    },
    /// A sync file in transit from `from` to `to`, changed by a hostile hand: the first
    /// `drop` entries of one of its volumes deleted, and junk under a fresh key put beside
    /// them when `junk`.
    Hostile {
        from: usize,
        to: usize,
        drop: usize,
        junk: bool,
    },
}

fn act() -> impl Strategy<Value = Act> {
    prop_oneof![
        3 => (0..3usize, 1..20i32, 1..=100u16).prop_map(|(device, effective, shock)| Act::Strike { device, effective, shock }),
        1 => (0..3usize).prop_map(|device| Act::Advance { device }),
        2 => (0..3usize, 0..3usize, any::<bool>(), any::<bool>()).prop_map(|(from, to, incremental, network)| Act::Sync { from, to, incremental, network }),
        1 => (0..3usize, 0..3usize, 1..4usize, any::<bool>()).prop_map(|(from, to, drop, junk)| Act::Hostile { from, to, drop, junk }),
    ]
}

fn sync(dir: &std::path::Path, dbs: &[PathBuf], from: usize, to: usize) {
    let out = common::carry(&dbs[from], &dbs[to], dir);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

/// Carries only what `to` (device id `to_id`) lacks.
fn sync_to(dir: &std::path::Path, from: &std::path::Path, to: &std::path::Path, to_id: &str) {
    let file = dir.join("to.sync");
    let out = run_db(
        from,
        &["sync", "export", file.to_str().unwrap(), "--to", to_id],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = run_db(to, &["sync", "import", file.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
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
        assert_eq!(run_db(&dbs[0], &["sync", "invite", seed.to_str().unwrap()]).code, 0);
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
        let ids: Vec<String> = dbs.iter().map(|d| identity(d).0).collect();
        let hub = common::Hub::relay();
        for a in &acts {
            match a {
                Act::Strike { device, effective, shock } => {
                    let e = effective.to_string();
                    let d = format!("shock={shock}");
                    let out = run_db(&dbs[*device], &common::thorax_strike_seeded("Osric", &e, &d));
                    prop_assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
                }
                Act::Advance { device } => {
                    let out = run_db(&dbs[*device], &["advance", "1h"]);
                    prop_assert_eq!(out.code, 0, "{}", out.stderr);
                }
                Act::Hostile { from, to, drop, junk } => {
                    if from != to {
                        let file = dir.path().join("hostile.sync");
                        let out = run_db(&dbs[*from], &["sync", "export", file.to_str().unwrap()]);
                        prop_assert_eq!(out.code, 0, "{}", out.stderr);
                        let mut m = leechbook_sync::Mirror::load(&std::fs::read(&file).unwrap(), common::ring_of(&dbs[*from])).unwrap();
                        if let Some(doc) = m.volumes.values_mut().next() {
                            let keys: Vec<String> = automerge::ReadDoc::keys(&*doc, automerge::ROOT).take(*drop).collect();
                            leechbook_sync::layout::drop_in(doc, &keys).unwrap();
                            if *junk {
                                use automerge::transaction::Transactable;
                                let mut tx = doc.transaction();
                                tx.put(automerge::ROOT, uuid::Uuid::now_v7().to_string().as_str(), automerge::ScalarValue::Bytes(vec![0xE1, 0, 0, 0, 0, 7, 7, 7])).unwrap();
                                tx.commit();
                            }
                        }
                        std::fs::write(&file, m.save()).unwrap();
                        // Taken in whole but for the junk, which is listed; the deleted
                        // entries are a gap the honest syncs after it fill.
                        let out = run_db(&dbs[*to], &["sync", "import", file.to_str().unwrap()]);
                        prop_assert_eq!(out.code, 0, "{}", out.stderr);
                    }
                }
                Act::Sync { from, to, incremental, network } => {
                    if from == to {
                    } else if *network {
                        for d in [*from, *to] {
                            let out = common::connect(&dbs[d], hub.url());
                            prop_assert_eq!(out.code, 0, "{}", out.stderr);
                        }
                    } else if *incremental {
                        sync_to(dir.path(), &dbs[*from], &dbs[*to], &ids[*to]);
                    } else {
                        sync(dir.path(), &dbs, *from, *to);
                    }
                }
            }
        }
        // Everyone meets: a round of syncs in both directions, by file and through the hub.
        for (f, t) in [(0, 1), (1, 2), (2, 0), (0, 1), (1, 2)] {
            sync(dir.path(), &dbs, f, t);
        }
        for db in &dbs {
            let out = common::connect(db, hub.url());
            prop_assert!(out.stdout.contains("took in 0 new events"), "{}", out.stdout);
        }
        let logs: Vec<Vec<leechbook_core::Envelope>> = dbs.iter().map(|d| Store::open(d).unwrap().events().unwrap()).collect();
        prop_assert_eq!(&logs[0], &logs[1]);
        prop_assert_eq!(&logs[1], &logs[2]);
        // Nothing forged or lost stands unseen: every device's whole check is sound (each
        // chain, signature and sync document against its log; junk listed, never counted).
        for db in &dbs {
            let out = run_db(db, &["verify", "--full"]);
            prop_assert_eq!(out.code, 0, "{}", out.stdout);
        }
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
    a.ok(&common::thorax_strike("Osric", "6", "shock=12"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.sync");
    a.ok(&["sync", "invite", file.to_str().unwrap()]);
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

/// How a sync file is damaged.
#[derive(Debug, Clone)]
enum Damage {
    Flip {
        at: prop::sample::Index,
        bits: u8,
    },
    Truncate {
        to: prop::sample::Index,
    },
    Insert {
        at: prop::sample::Index,
        bytes: Vec<u8>,
    },
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        3 => (any::<prop::sample::Index>(), 1..=255u8).prop_map(|(at, bits)| Damage::Flip { at, bits }),
        1 => any::<prop::sample::Index>().prop_map(|to| Damage::Truncate { to }),
        1 => (any::<prop::sample::Index>(), prop::collection::vec(any::<u8>(), 1..16)).prop_map(|(at, bytes)| Damage::Insert { at, bytes }),
    ]
}

/// A good sync file (Osric struck twice) and a ledger that joined before the strikes.
fn good_file_and_joiner(
    dir: &std::path::Path,
) -> (Vec<u8>, PathBuf, Vec<leechbook_core::Envelope>) {
    let a = dir.join("a.db");
    assert_eq!(run_db(&a, &["init"]).code, 0);
    assert_eq!(
        run_db(
            &a,
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
                "13"
            ]
        )
        .code,
        0
    );
    let seed = dir.join("seed.sync");
    assert_eq!(
        run_db(&a, &["sync", "invite", seed.to_str().unwrap()]).code,
        0
    );
    let b = dir.join("b.db");
    assert_eq!(
        run_db(&b, &["init", "--join", seed.to_str().unwrap()]).code,
        0
    );
    for effective in ["6", "11"] {
        let out = run_db(
            &a,
            &common::thorax_strike_seeded("Osric", effective, "shock=12"),
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    let file = dir.join("good.sync");
    assert_eq!(
        run_db(&a, &["sync", "export", file.to_str().unwrap()]).code,
        0
    );
    let events = Store::open(&a).unwrap().events().unwrap();
    (std::fs::read(&file).unwrap(), b, events)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// The import path under damaged input (the fuzz target's property, in every test run):
    /// it never panics; it either refuses, leaving the ledger exactly as it was, or takes in
    /// only events byte-for-byte as their devices signed them.
    #[test]
    fn damaged_sync_files_are_refused_or_harmless(damages in prop::collection::vec(damage(), 1..4)) {
        let dir = tempfile::tempdir().unwrap();
        let (good, b, signed) = good_file_and_joiner(dir.path());
        let mut bytes = good.clone();
        for d in &damages {
            match d {
                // Nothing left to flip or cut (an earlier cut took it all); `index` of an
                // empty range panics.
                Damage::Flip { .. } | Damage::Truncate { .. } if bytes.is_empty() => {}
                Damage::Flip { at, bits } => {
                    let i = at.index(bytes.len());
                    bytes[i] ^= bits;
                }
                Damage::Truncate { to } => bytes.truncate(to.index(bytes.len())),
                Damage::Insert { at, bytes: extra } => {
                    let i = at.index(bytes.len() + 1);
                    bytes.splice(i..i, extra.iter().copied());
                }
            }
        }
        let mut store = Store::open(&b).unwrap();
        let before = store.events().unwrap();
        match leechbook_sync::import_bytes(&mut store, &bytes) {
            Err(_) => prop_assert_eq!(store.events().unwrap(), before),
            Ok(_) => {
                for e in store.events().unwrap() {
                    prop_assert!(signed.contains(&e), "an event not as signed got in: {:?}", e);
                }
            }
        }
    }
}

#[test]
fn an_export_to_a_known_device_carries_only_what_it_lacks() {
    let a = Scratch::with_osric();
    let dir = tempfile::tempdir().unwrap();
    let seed = dir.path().join("seed.sync");
    a.ok(&["sync", "invite", seed.to_str().unwrap()]);
    let b = Scratch::new();
    b.ok(&["init", "--join", seed.to_str().unwrap()]);
    let (b_id, b_key) = identity(&b.db);
    a.ok(&["device", "add", &b_id, &b_key, "--role", "gm"]);
    for (i, effective) in ["4", "6", "8", "10", "12"].into_iter().enumerate() {
        // A strike to an injured thorax rolls for a compound injury; the first does not.
        let dice = if i == 0 {
            "shock=12"
        } else {
            "shock=12,compound=5"
        };
        a.ok(&common::thorax_strike("Osric", effective, dice));
    }
    // The first export to b knows nothing of it: everything.
    let file = dir.path().join("to-b.sync");
    let out = a.ok(&["sync", "export", file.to_str().unwrap(), "--to", &b_id]);
    assert!(out.starts_with("exported all "), "{out}");
    let full = std::fs::read(&file).unwrap().len();
    b.ok(&["sync", "import", file.to_str().unwrap()]);
    // One more strike: the next export to b carries only it.
    a.ok(&common::thorax_strike("Osric", "5", "shock=12,compound=5"));
    let out = a.ok(&["sync", "export", file.to_str().unwrap(), "--to", &b_id]);
    assert!(out.starts_with("exported the changes device"), "{out}");
    let delta = std::fs::read(&file).unwrap().len();
    assert!(
        delta * 2 < full,
        "the delta ({delta} bytes) is not much smaller than everything ({full} bytes)"
    );
    let out = b.ok(&["sync", "import", file.to_str().unwrap()]);
    assert!(out.starts_with("imported 1 new event"), "{out}");
    assert_eq!(
        Store::open(&a.db).unwrap().events().unwrap(),
        Store::open(&b.db).unwrap().events().unwrap()
    );

    // A delta whose base b never imported is refused whole; a full export catches b up.
    a.ok(&["advance", "1h"]);
    a.ok(&["sync", "export", file.to_str().unwrap(), "--to", &b_id]); // lost on the way
    a.ok(&["advance", "1h"]);
    a.ok(&["sync", "export", file.to_str().unwrap(), "--to", &b_id]);
    let before = b.bytes();
    let out = b.run(&["sync", "import", file.to_str().unwrap()]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("builds on changes this ledger does not hold"),
        "{}",
        out.stderr
    );
    assert_eq!(b.bytes(), before);
    a.ok(&["sync", "export", file.to_str().unwrap()]);
    let out = b.ok(&["sync", "import", file.to_str().unwrap()]);
    assert!(out.starts_with("imported 2 new events"), "{out}");
}

/// Issue 12, item 22: an empty sync file is refused like a truncated one, and no export is
/// ever empty (an export to a device that lacks nothing still imports).
#[test]
fn an_empty_sync_file_is_refused_and_no_export_is_empty() {
    let a = Scratch::with_osric();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.sync");
    a.ok(&["sync", "invite", file.to_str().unwrap()]);
    let b = Scratch::new();
    b.ok(&["init", "--join", file.to_str().unwrap()]);
    let empty = dir.path().join("empty.sync");
    std::fs::write(&empty, b"").unwrap();
    let before = b.bytes();
    let out = b.run(&["sync", "import", empty.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    let err = out.stderr.trim_end();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("not a Leechbook sync file"), "{err}");
    assert!(err.contains("empty"), "{err}");
    assert_eq!(b.bytes(), before);
    let c = dir.path().join("c.db");
    let out = run_db(&c, &["init", "--join", empty.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(!c.exists(), "a refused join leaves no file");
    // An export to a device that lacks nothing is still a file, and imports as nothing new.
    let (b_id, b_key) = identity(&b.db);
    a.ok(&["device", "add", &b_id, &b_key, "--role", "gm"]);
    let to_b = dir.path().join("to-b.sync");
    a.ok(&["sync", "export", to_b.to_str().unwrap(), "--to", &b_id]);
    b.ok(&["sync", "import", to_b.to_str().unwrap()]);
    a.ok(&["sync", "export", to_b.to_str().unwrap(), "--to", &b_id]);
    assert!(!std::fs::read(&to_b).unwrap().is_empty());
    let out = b.ok(&["sync", "import", to_b.to_str().unwrap()]);
    assert!(out.starts_with("imported 0 new events"), "{out}");
}

/// Issue 12, item 26: an import that adds nothing writes nothing: the ledger file stays
/// byte-identical, on the device that made the file and on one that already took it in.
#[test]
fn an_import_that_adds_nothing_writes_nothing() {
    let a = Scratch::with_osric();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.sync");
    a.ok(&["sync", "invite", file.to_str().unwrap()]);
    let b = Scratch::new();
    b.ok(&["init", "--join", file.to_str().unwrap()]);
    let before = b.bytes();
    let out = b.ok(&["sync", "import", file.to_str().unwrap()]);
    assert!(out.starts_with("imported 0 new events"), "{out}");
    assert_eq!(
        b.bytes(),
        before,
        "an import that added nothing wrote the ledger"
    );
    // The maker has recorded since: its sync document lags its log, and still the import
    // of its own old file writes nothing.
    a.ok(&["advance", "1h"]);
    let before = a.bytes();
    let out = a.ok(&["sync", "import", file.to_str().unwrap()]);
    assert!(out.starts_with("imported 0 new events"), "{out}");
    assert_eq!(
        a.bytes(),
        before,
        "an import that added nothing wrote the ledger"
    );
}

/// Issue 12, item 24: a sync document kept before refused entries were dropped (here: one
/// holding a forged event beside the log's) drops it at the next sync, so the next file
/// holds no forgery and the GM takes it whole; `verify` reports it until then.
#[test]
fn a_document_that_holds_a_refused_event_drops_it() {
    let gm = Scratch::with_osric();
    let dir = tempfile::tempdir().unwrap();
    let seed = dir.path().join("seed.sync");
    gm.ok(&["sync", "invite", seed.to_str().unwrap()]);
    let player = Scratch::new();
    player.ok(&["init", "--join", seed.to_str().unwrap()]);
    let (id, key) = identity(&player.db);
    gm.ok(&["device", "add", &id, &key, "--role", "gm"]);
    // The player's document: the log's events plus a forged one (a replay under a new id).
    let mut events = Store::open(&player.db).unwrap().events().unwrap();
    let mut forged = events[0].clone();
    forged.id = leechbook_core::ids::EventId(uuid::Uuid::now_v7());
    events.push(forged.clone());
    {
        // Kept the way a sync keeps it: in the forged event's volume, beside the log's.
        let mut store = Store::open(&player.db).unwrap();
        let ring = common::ring_of(&player.db);
        let mut shelf = leechbook_sync::layout::Shelf::open(&store, ring.clone()).unwrap();
        shelf.catch_up(&mut store).unwrap();
        let v = leechbook_sync::layout::VolumeId::of(&forged);
        let doc = &mut shelf.volume(&store, v).unwrap().doc;
        leechbook_sync::layout::put_events(
            doc,
            std::slice::from_ref(&forged),
            &ring,
            &leechbook_sync::layout::Names::of(&ring),
            &leechbook_sync::sealing::Sealing::none(),
        )
        .unwrap();
        shelf.keep(&mut store).unwrap();
    }
    let out = player.run(&["verify"]);
    assert!(
        out.stdout.contains(&forged.id.to_string()),
        "{}",
        out.stdout
    );
    let file = dir.path().join("p.sync");
    player.ok(&["sync", "export", file.to_str().unwrap()]);
    let sent =
        leechbook_sync::Mirror::load(&std::fs::read(&file).unwrap(), common::ring_of(&player.db))
            .unwrap();
    assert!(sent.envelopes().unwrap().iter().all(|e| e.id != forged.id));
    let out = gm.run(&["sync", "import", file.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(player.ok(&["verify"]).contains("the ledger is sound"));
}

/// Issue 12, item 23: two ledgers that share a device identity (a copied ledger file) and
/// record different events under one number never merge silently: the second is refused,
/// naming the device, the number and what to do; `verify` reports it; `device reset` gives
/// the copy a new identity for the GM to roster, after which its new events land.
#[test]
fn a_copied_ledger_is_refused_by_number_and_can_take_a_new_identity() {
    let gm = Scratch::with_osric();
    let dir = tempfile::tempdir().unwrap();
    let seed = dir.path().join("seed.sync");
    gm.ok(&["sync", "invite", seed.to_str().unwrap()]);
    let p = Scratch::new();
    p.ok(&["init", "--join", seed.to_str().unwrap()]);
    let (p_id, p_key) = identity(&p.db);
    gm.ok(&["device", "add", &p_id, &p_key, "--role", "gm"]);
    assert_eq!(common::carry(&gm.db, &p.db, dir.path()).code, 0);
    // The copy: the player's ledger file, copied whole.
    let copy = Scratch::new();
    std::fs::copy(&p.db, &copy.db).unwrap();
    assert_eq!(identity(&copy.db).0, p_id);
    p.ok(&["advance", "1h"]);
    // The copy records #1 and #2, the original #1 only: both of the copy's are refused (past
    // the fork nothing tells the copies' events apart).
    copy.ok(&["advance", "2h"]);
    copy.ok(&["advance", "3h"]);
    let out = common::carry(&p.db, &gm.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with("imported 1 new event"),
        "{}",
        out.stdout
    );
    let held = Store::open(&gm.db).unwrap().events().unwrap();
    let out = common::carry(&copy.db, &gm.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let short = &p_id[p_id.len() - 8..]; // ids are shown by their last eight digits
    assert!(
        out.stderr.contains(&format!("as device {short}'s #1"))
            && out.stderr.contains("two ledgers share device")
            && out.stderr.contains("device reset"),
        "{}",
        out.stderr
    );
    assert_eq!(Store::open(&gm.db).unwrap().events().unwrap(), held);
    let v = gm.run(&["verify"]);
    assert_eq!(v.code, 1, "{}", v.stdout);
    assert!(
        v.stdout.contains("two ledgers share device"),
        "{}",
        v.stdout
    );
    // The copy takes a new identity; the GM rosters it; its new events land.
    let out = copy.run(&["device", "reset"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("--yes"), "{}", out.stderr);
    copy.ok(&["device", "reset", "--yes"]);
    let (c_id, c_key) = identity(&copy.db);
    assert_ne!(c_id, p_id);
    gm.ok(&["device", "add", &c_id, &c_key, "--role", "gm"]);
    common::carry(&gm.db, &copy.db, dir.path());
    copy.ok(&["advance", "30m"]);
    let out = common::carry(&copy.db, &gm.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with("imported 1 new event"),
        "{}",
        out.stdout
    );
    let last = Store::open(&gm.db).unwrap().events().unwrap();
    assert!(last.iter().any(|e| e.device.to_string() == c_id));
}

/// Devices that meet through a hub, recording between meetings, then all by file: every log
/// ends the same (cases the property test found).
#[test]
fn devices_that_met_through_a_hub_then_by_file_converge() {
    // (device, effective impact) strikes; `None` a meeting of devices 2 and 1 at the hub.
    let script: [Option<(usize, &str, &str)>; 11] = [
        Some((2, "5", "shock=84")),
        None,
        Some((2, "18", "shock=17")),
        Some((2, "17", "shock=6")),
        Some((2, "16", "shock=12")),
        Some((1, "16", "shock=35")),
        Some((1, "6", "shock=60")),
        Some((0, "10", "shock=78")),
        None,
        Some((1, "3", "shock=3")),
        None,
    ];
    let dir = tempfile::tempdir().unwrap();
    let dbs: Vec<PathBuf> = (0..3)
        .map(|i| dir.path().join(format!("d{i}.db")))
        .collect();
    assert_eq!(run_db(&dbs[0], &["init"]).code, 0);
    assert_eq!(run_db(&dbs[0], &common::OSRIC).code, 0);
    let seed = dir.path().join("seed.sync");
    assert_eq!(
        run_db(&dbs[0], &["sync", "invite", seed.to_str().unwrap()]).code,
        0
    );
    for db in &dbs[1..] {
        assert_eq!(
            run_db(db, &["init", "--join", seed.to_str().unwrap()]).code,
            0
        );
        let (device, key) = identity(db);
        assert_eq!(
            run_db(&dbs[0], &["device", "add", &device, &key, "--role", "gm"]).code,
            0
        );
    }
    sync(dir.path(), &dbs, 0, 1);
    sync(dir.path(), &dbs, 0, 2);
    let hub = common::Hub::relay();
    let count = |d: &PathBuf| Store::open(d).unwrap().count().unwrap();
    for step in script {
        match step {
            Some((d, e, shock)) => {
                let out = run_db(&dbs[d], &common::thorax_strike_seeded("Osric", e, shock));
                assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
            }
            None => {
                for d in [2, 1] {
                    let out = common::connect(&dbs[d], hub.url());
                    assert_eq!(out.code, 0, "{}", out.stderr);
                }
            }
        }
        eprintln!("{step:?}: {:?}", dbs.iter().map(count).collect::<Vec<_>>());
    }
    for (f, t) in [(0, 1), (1, 2), (2, 0), (0, 1), (1, 2)] {
        sync(dir.path(), &dbs, f, t);
        eprintln!(
            "after {f}->{t}: {:?}",
            dbs.iter().map(count).collect::<Vec<_>>()
        );
    }
    let logs: Vec<_> = dbs
        .iter()
        .map(|d| Store::open(d).unwrap().events().unwrap())
        .collect();
    assert_eq!(logs[0], logs[1]);
    assert_eq!(logs[1], logs[2]);
}

/// A ledger synced before volumes keeps its one document under the old keys: the first sync
/// builds its volumes from the log and lets the old document go.
#[test]
fn a_ledger_synced_before_volumes_is_laid_out_anew_from_its_log() {
    let gm = Scratch::with_osric();
    gm.ok(&common::thorax_strike("Osric", "6", "shock=12"));
    {
        let mut store = Store::open(&gm.db).unwrap();
        for key in [
            "automerge-document",
            "automerge-increments",
            "automerge-row",
        ] {
            store
                .put_sync_state(key, b"a document of the old layout")
                .unwrap();
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.sync");
    gm.ok(&["sync", "export", file.to_str().unwrap()]);
    let store = Store::open(&gm.db).unwrap();
    for key in [
        "automerge-document",
        "automerge-increments",
        "automerge-row",
    ] {
        assert_eq!(store.sync_state(key).unwrap(), None, "{key} is gone");
    }
    let m = leechbook_sync::Mirror::load(&std::fs::read(&file).unwrap(), common::ring_of(&gm.db))
        .unwrap();
    let mut sent: Vec<_> = m.envelopes().unwrap().into_iter().map(|e| e.id).collect();
    let mut held: Vec<_> = store.events().unwrap().into_iter().map(|e| e.id).collect();
    sent.sort();
    held.sort();
    assert_eq!(sent, held);
}
