//! Issue 27: an audit of one character folds only the events about it and those its story
//! reads (`leechbook_ledger::about`), never the whole log. Its fold must give the character
//! exactly the state the whole log's fold gives it: after random strikes, melee exchanges
//! (which read the other side), clock moves, retractions, amendments and syncs between two
//! devices that record offline.

use crate::common;
use common::{identity, run_db};
use leechbook_core::fold::Ledger;
use leechbook_store::Store;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

const NAMES: [&str; 3] = ["Ann", "Bo", "Cy"];

#[derive(Clone, Debug)]
enum Act {
    Strike {
        device: usize,
        who: usize,
        effective: u8,
        seed: u8,
    },
    Melee {
        device: usize,
        attacker: usize,
        defender: usize,
        seed: u8,
    },
    Advance {
        device: usize,
    },
    Undo {
        device: usize,
    },
    Amend {
        device: usize,
        back: usize,
        face: u8,
    },
    Sync {
        from: usize,
    },
}

fn act() -> impl Strategy<Value = Act> {
    prop_oneof![
        3 => (0..2usize, 0..3usize, 1..20u8, any::<u8>())
            .prop_map(|(device, who, effective, seed)| Act::Strike { device, who, effective, seed }),
        3 => (0..2usize, 0..3usize, 1..3usize, any::<u8>()).prop_map(|(device, a, d, seed)| {
            Act::Melee { device, attacker: a, defender: (a + d) % 3, seed }
        }),
        1 => (0..2usize).prop_map(|device| Act::Advance { device }),
        1 => (0..2usize).prop_map(|device| Act::Undo { device }),
        1 => (0..2usize, 0..4usize, 1..100u8)
            .prop_map(|(device, back, face)| Act::Amend { device, back, face }),
        2 => (0..2usize).prop_map(|from| Act::Sync { from }),
    ]
}

fn ok(db: &Path, args: &[&str]) {
    let out = run_db(db, args);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
}

fn carry(dir: &Path, from: &Path, to: &Path) {
    let out = common::carry(from, to, dir);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

/// Each character's state by the audit's fold against the whole log's.
fn audits_agree(db: &Path) -> Result<(), TestCaseError> {
    let store = Store::open(db).unwrap();
    let full = leechbook_ledger::full_fold(&store).unwrap();
    for (id, name) in full.roll() {
        let about = leechbook_ledger::about::replay_about(&store, *id, |l: &mut Ledger, e, r| {
            l.step(e, r, &mut |_, _, _| {});
        })
        .unwrap();
        prop_assert_eq!(about.character(*id), full.character(*id), "{}", name);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    #[test]
    fn an_audit_folds_a_character_as_the_whole_log_does(acts in prop::collection::vec(act(), 1..24)) {
        let dir = tempfile::tempdir().unwrap();
        let dbs: Vec<PathBuf> = (0..2).map(|i| dir.path().join(format!("d{i}.db"))).collect();
        common::swordsmen(&dbs[0], &NAMES);
        let seed = dir.path().join("seed.sync");
        ok(&dbs[0], &["sync", "invite", seed.to_str().unwrap()]);
        ok(&dbs[1], &["init", "--join", seed.to_str().unwrap()]);
        let (device, key) = identity(&dbs[1]);
        ok(&dbs[0], &["device", "add", &device, &key, "--role", "gm"]);
        carry(dir.path(), &dbs[0], &dbs[1]);
        for a in &acts {
            let (db, args): (&PathBuf, Vec<String>) = match a {
                Act::Strike { device, who, effective, seed } => (&dbs[*device], [
                    "--seed", &seed.to_string(), "strike", NAMES[*who], "--aspect", "edge",
                    "--location", "thorax", "--effective", &effective.to_string(),
                ].map(String::from).to_vec()),
                Act::Melee { device, attacker, defender, seed } => (&dbs[*device], [
                    "--seed", &seed.to_string(), "melee", NAMES[*attacker], NAMES[*defender],
                    "--weapon", "broadsword", "--mode", "edge", "--defence", "dodge",
                ].map(String::from).to_vec()),
                Act::Advance { device } => (&dbs[*device], vec!["advance".into(), "2h".into(), "--skip-owed".into()]),
                Act::Undo { device } => (&dbs[*device], vec!["undo".into()]),
                Act::Amend { device, back, face } => {
                    let log = Store::open(&dbs[*device]).unwrap().events().unwrap();
                    let strikes: Vec<_> = log.iter().filter(|e| e.event.kind() == "hm.strike").collect();
                    let Some(e) = strikes.iter().rev().nth(*back) else { continue };
                    (&dbs[*device], vec!["amend".into(), e.id.to_string(), "--reason".into(), "misread".into(), "--dice".into(), format!("shock={}", 3 + face % 16)])
                }
                Act::Sync { from } => {
                    carry(dir.path(), &dbs[*from], &dbs[1 - from]);
                    continue;
                }
            };
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = run_db(db, &args);
            // A refusal (a roll the rules do not allow here, a TA to choose) records nothing.
            prop_assert!(out.code == 0 || out.code == 1, "{:?}: {}", args, out.stderr);
        }
        carry(dir.path(), &dbs[0], &dbs[1]);
        carry(dir.path(), &dbs[1], &dbs[0]);
        for db in &dbs {
            audits_agree(db)?;
        }
    }
}

/// An event amended twice, the later amendment retracted: the earlier one stands, and the
/// character it reaches (here the one who now defends) is read by the audit as the whole
/// log reads it: armed, they counterstrike and cut the attacker in both folds (the audit once
/// looked only at the last amendment, never read the new defender's events, found them
/// unarmed and the exchange void, and left the attacker unhurt).
#[test]
fn an_audit_follows_the_amendment_in_force_not_the_last_one() {
    use leechbook_core::harnmaster::HmEvent;
    use leechbook_core::ruling::Ruling;
    use leechbook_core::Event;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("a.db");
    common::swordsmen(&db, &["Attacker", "Defender", "Other", "Fourth"]);
    // Attacker against Defender, who counterstrikes and wins: Attacker is cut.
    let out = run_db(
        &db,
        &[
            "melee",
            "Attacker",
            "Defender",
            "--weapon",
            "broadsword",
            "--mode",
            "edge",
            "--defence",
            "counterstrike",
            "--with",
            "broadsword",
            "--with-mode",
            "edge",
            "--dice",
            "attack=95,defence=11,zone=4,location=2,impact=9,shock=12",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut store = Store::open(&db).unwrap();
    let log = store.events().unwrap();
    let melee = log
        .iter()
        .rev()
        .find(|e| e.event.kind() == "hm.melee")
        .unwrap()
        .clone();
    let named = |n: &str| {
        leechbook_ledger::full_fold(&store)
            .unwrap()
            .id_named(n)
            .unwrap()
    };
    let (other, fourth, attacker) = (named("Other"), named("Fourth"), named("Attacker"));
    let with_defender = |d| {
        let Event::HarnMaster(HmEvent::Melee(mut x)) = melee.event.clone() else {
            unreachable!()
        };
        x.defender = d;
        Event::HarnMaster(HmEvent::Melee(x))
    };
    let at = melee.at;
    for d in [other, fourth] {
        store
            .append(
                Event::Ruling(Ruling::Amend {
                    target: melee.id,
                    replacement: Box::new(with_defender(d)),
                    reason: "the defender was misnamed".into(),
                }),
                at,
            )
            .unwrap();
    }
    let second = store.events().unwrap().last().unwrap().id;
    store
        .append(
            Event::Ruling(Ruling::Retract {
                target: second,
                reason: "wrong again".into(),
            }),
            at,
        )
        .unwrap();
    let full = leechbook_ledger::full_fold(&store).unwrap();
    let about = leechbook_ledger::about::replay_about(&store, attacker, |l: &mut Ledger, e, r| {
        l.step(e, r, &mut |_, _, _| {});
    })
    .unwrap();
    // The exchange stands as first amended: Other counterstrikes and cuts Attacker.
    assert!(full.void.is_empty(), "{:?}", full.void);
    let cut = |l: &Ledger| {
        l.character(attacker)
            .and_then(|c| c.hm())
            .map(|h| h.injuries.len())
    };
    assert_eq!(cut(&full), Some(1));
    assert_eq!(about.character(attacker), full.character(attacker));
}
