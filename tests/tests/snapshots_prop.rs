//! Snapshots are a cache that can never change an answer: for random logs with random
//! rulings, every snapshot the store keeps, plus the events after it, folds to exactly the
//! full fold. And the order in which concurrent rulings were recorded or imported changes
//! nothing but what the total order says.

use crate::common;
use common::Scratch;
use leechbook_core::fold::{Ledger, FOLD_VERSION};
use leechbook_ledger::checkpoint::fold_latest_from;
use leechbook_store::{codec, ReadLog, Snapshot, Store};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Act {
    Strike {
        who: usize,
        loc: usize,
        effective: i32,
        shock: u16,
    },
    Heal {
        who: usize,
        roll: u16,
    },
    Advance,
    Retract {
        pick: usize,
    },
    Reinstate {
        pick: usize,
    },
    Amend {
        pick: usize,
        roll: u16,
    },
}

const WHO: [&str; 2] = ["Osric", "Ysolde"];
const LOC: [&str; 4] = ["abdomen", "thorax", "skull", "pelvis"];

fn act() -> impl Strategy<Value = Act> {
    prop_oneof![
        3 => (0..2usize, 0..4usize, 1..20i32, 1..=100u16).prop_map(|(who, loc, effective, shock)| Act::Strike { who, loc, effective, shock }),
        3 => (0..2usize, 1..=100u16).prop_map(|(who, roll)| Act::Heal { who, roll }),
        2 => Just(Act::Advance),
        1 => any::<usize>().prop_map(|pick| Act::Retract { pick }),
        1 => any::<usize>().prop_map(|pick| Act::Reinstate { pick }),
        1 => (any::<usize>(), 1..=100u16).prop_map(|(pick, roll)| Act::Amend { pick, roll }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn snapshot_plus_tail_is_the_full_fold(acts in prop::collection::vec(act(), 1..30)) {
        let s = Scratch::new();
        s.ok(&["init"]);
        for w in WHO {
            s.ok(&["character", "add", w, "--str", "12", "--end", "12", "--shock", "70", "--hb", "13"]);
        }
        for a in &acts {
            let ids: Vec<String> = Store::open(&s.db).unwrap().events().unwrap().iter().skip(1).map(|e| e.id.to_string()).collect();
            let heals: Vec<String> = Store::open(&s.db).unwrap().events().unwrap().iter()
                .filter(|e| e.event.kind() == "hm.seq-roll").map(|e| e.id.to_string()).collect();
            let pick = |n: usize, from: &Vec<String>| from.get(n % from.len().max(1)).cloned().unwrap_or_else(|| "000000".into());
            let argv: Vec<String> = match a {
                Act::Strike { who, loc, effective, shock } => vec!["strike".into(), WHO[*who].into(), "--aspect".into(), "edge".into(), "--location".into(), LOC[*loc].into(), "--effective".into(), effective.to_string(), "--dice".into(), format!("shock={shock}"), "--seed".into(), "5".into()],
                Act::Heal { who, roll } => vec!["roll".into(), WHO[*who].into(), "healing".into(), "--force".into(), "--dice".into(), format!("roll={roll}")],
                Act::Advance => vec!["advance".into(), "5d".into()],
                Act::Retract { pick: n } => vec!["retract".into(), pick(*n, &ids), "--reason".into(), "r".into()],
                Act::Reinstate { pick: n } => vec!["reinstate".into(), pick(*n, &ids), "--reason".into(), "r".into()],
                Act::Amend { pick: n, roll } => vec!["amend".into(), pick(*n, &heals), "--dice".into(), format!("roll={roll}"), "--reason".into(), "r".into()],
            };
            let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
            let out = s.run(&refs);
            prop_assert!(out.code == 0 || out.code == 1, "{:?}: {}", argv, out.stderr);
            // The state every command starts from (the projection the write path keeps, or
            // a checkpoint and its tail) is the full fold.
            let state = leechbook_ledger::Replica::open(&s.db).unwrap().state().unwrap();
            // Keep a snapshot of the state now, as the write path does every 1000 events.
            let mut store = Store::open(&s.db).unwrap();
            let events = store.events().unwrap();
            let ledger = Ledger::fold(&events);
            prop_assert!(state == ledger, "after {:?} the state differs from the full fold", argv);
            store.save_snapshot(&Snapshot {
                position: events.len() as u64,
                last: events.last().unwrap().order_key(),
                fold_version: FOLD_VERSION,
                payload: codec::encode_ledger(&ledger),
            }).unwrap();
        }
        let store = Store::open(&s.db).unwrap();
        let events = store.events().unwrap();
        let full = Ledger::fold(&events);
        let positions: Vec<u64> = store.snapshots().unwrap().iter().map(|x| x.position).collect();
        drop(store);
        prop_assert!(!positions.is_empty());
        // Each snapshot alone, through the fold every command takes: it must start there and
        // come to the full fold.
        for &position in &positions {
            let dir = tempfile::tempdir().unwrap();
            let copy = dir.path().join("copy.db");
            std::fs::copy(&s.db, &copy).unwrap();
            let mut store = Store::open(&copy).unwrap();
            for &other in positions.iter().filter(|&&p| p != position) {
                store.drop_snapshot(other).unwrap();
            }
            let (got, from) = fold_latest_from(&store, None).unwrap();
            prop_assert_eq!(from, Some(position));
            prop_assert!(got == full, "snapshot at {} + tail differs from the full fold", position);
        }
        // And `verify` agrees.
        s.ok(&["verify"]);
    }
}

#[test]
fn a_ruling_drops_the_snapshots_that_fold_its_target() {
    let s = Scratch::with_osric();
    s.ok(&common::edge_strike("Osric", "abdomen", "8", "shock=12"));
    let mut store = Store::open(&s.db).unwrap();
    let events = store.events().unwrap();
    for n in 1..=events.len() {
        store
            .save_snapshot(&Snapshot {
                position: n as u64,
                last: events[n - 1].order_key(),
                fold_version: FOLD_VERSION,
                payload: codec::encode_ledger(&Ledger::fold(&events[..n])),
            })
            .unwrap();
    }
    drop(store);
    let strike = events.last().unwrap().id.to_string();
    s.ok(&["retract", &strike, "--reason", "never hit"]);
    let kept: Vec<u64> = Store::open(&s.db)
        .unwrap()
        .snapshots()
        .unwrap()
        .iter()
        .map(|x| x.position)
        .collect();
    // The snapshots before the strike survive; the one that folds the strike is gone.
    let before_strike: Vec<u64> = (1..events.len() as u64).rev().collect();
    assert_eq!(kept, before_strike);
    assert_eq!(s.show("Osric")["injuries"].as_array().unwrap().len(), 0);
}

#[test]
fn verify_drops_stale_and_corrupt_snapshots() {
    let s = Scratch::with_osric();
    let mut store = Store::open(&s.db).unwrap();
    let events = store.events().unwrap();
    let last = events.last().unwrap().order_key();
    let good = codec::encode_ledger(&Ledger::fold(&events));
    store
        .save_snapshot(&Snapshot {
            position: events.len() as u64,
            last,
            fold_version: FOLD_VERSION,
            payload: good.clone(),
        })
        .unwrap();
    store
        .save_snapshot(&Snapshot {
            position: 1,
            last: events[0].order_key(),
            fold_version: FOLD_VERSION + 1,
            payload: good,
        })
        .unwrap();
    drop(store);
    // A snapshot that does not decode.
    rusqlite::Connection::open(&s.db)
        .unwrap()
        .execute(
            "INSERT INTO snapshots (position, last_clock, last_device, last_seq, fold_version, payload)
             VALUES (99, 1, x'00', 1, ?1, x'01ff')",
            [FOLD_VERSION],
        )
        .unwrap();
    let out = s.ok(&["verify"]);
    let n = Store::open(&s.db).unwrap().count().unwrap();
    assert!(out.contains(&format!("snapshot at {n}: ok")), "{out}");
    assert!(out.contains("snapshot at 1: made by fold version"), "{out}");
    assert!(out.contains("snapshot at 99: does not decode"), "{out}");
    assert!(out.contains("the ledger is sound"), "{out}");
    let kept: Vec<u64> = Store::open(&s.db)
        .unwrap()
        .snapshots()
        .unwrap()
        .iter()
        .map(|x| x.position)
        .collect();
    assert_eq!(kept, vec![n]);
}

/// A ledger of the synthetic campaign with a snapshot every 1,000 events, as the CLI keeps
/// them.
fn synthetic_ledger(
    dir: &std::path::Path,
    n: usize,
) -> (std::path::PathBuf, Vec<leechbook_core::Envelope>) {
    let path = dir.join("synthetic.db");
    let campaign = leechbook_core::ids::CampaignId(uuid::Uuid::from_u128(1));
    let mut store = Store::create_joining(&path, campaign).unwrap();
    let me = (store.device(), store.public_key().to_vec());
    let log = leechbook_core::synthetic::campaign_keyed(n, |d| vec![d; 32], Some(me));
    store.import(&log).unwrap();
    let snaps = leechbook_bench::cli_snapshots(&log, |made| made.to_vec());
    for s in &snaps {
        store.save_snapshot(s).unwrap();
    }
    leechbook_ledger::archive::save(&mut store, &Ledger::fold(&log)).unwrap();
    (path, log)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// `show --at EVENT` starts from the latest snapshot at or before the event: for any
    /// event, that gives exactly the fold of the log up to it.
    #[test]
    fn the_record_up_to_an_event_from_a_snapshot_is_the_fold_of_the_prefix(picks in prop::collection::vec(0usize..3_500, 1..6)) {
        let dir = tempfile::tempdir().unwrap();
        let (path, log) = synthetic_ledger(dir.path(), 3_500);
        let store = Store::open(&path).unwrap();
        for p in picks {
            let key = log[p].order_key();
            let from_snapshot = leechbook_ledger::fold_latest(&store, Some(key)).unwrap();
            prop_assert!(from_snapshot == Ledger::fold(&log[..=p]), "differs at event {p}");
        }
    }
}

#[test]
fn snapshots_thin_out_with_age() {
    // A snapshot every 1,000 events of a million, but one that a ruling moved to 25,001.
    let mut made: Vec<u64> = (1..=1_000)
        .map(|k| k * leechbook_ledger::SNAPSHOT_EVERY)
        .collect();
    made.retain(|p| *p != 25_000);
    made.push(25_001);
    let kept = leechbook_ledger::snapshots_kept(&made);
    // The last ten thousand events: every snapshot (991,000 to 1,000,000).
    assert!((991..=1000).all(|k| kept.contains(&(k * 1000))));
    // Within the last 100,000: the first of each stretch of 10,000; before: of 25,000.
    assert!(kept.contains(&910_000) && !kept.contains(&915_000));
    assert!(kept.contains(&900_000) && !kept.contains(&890_000) && kept.contains(&875_000));
    assert!(kept.contains(&1_000) && !kept.contains(&24_000));
    // The moved snapshot opens its stretch (25,000 is gone), and takes no other's place.
    assert!(kept.contains(&25_001) && !kept.contains(&26_000) && kept.contains(&50_000));
    // 1,000 to 900,000 fall in 37 stretches of 25,000 (0 to 36); 901,000 to 990,000 in
    // ten of 10,000 (90 to 99); then the last ten.
    assert_eq!(kept.len(), 37 + 10 + 10);
    // Thinning what is kept keeps it.
    assert_eq!(leechbook_ledger::snapshots_kept(&kept), kept);
}

/// The streamed full fold (rulings and roster first, then the log read on one thread and
/// folded on another, a batch at a time) is the fold of the whole log: on the synthetic
/// campaign (retractions in it) and on every fixture ledger (amendments, overrides, rosters).
#[test]
fn the_streamed_full_fold_is_the_fold_of_the_whole_log() {
    let dir = tempfile::tempdir().unwrap();
    let (path, log) = synthetic_ledger(dir.path(), 9_000);
    let store = Store::open(&path).unwrap();
    assert!(leechbook_ledger::full_fold(&store).unwrap() == Ledger::fold(&log));
    // The ledger's reads name no database: the same over the in-memory log.
    let mut memory = leechbook_store::memory::MemoryLog::new(log[0].campaign);
    leechbook_store::WriteLog::import(&mut memory, &log).unwrap();
    assert!(leechbook_ledger::full_fold(&memory).unwrap() == Ledger::fold(&log));
    for system in ["harnmaster", "savage-worlds", "wrath-glory", "witch-iron"] {
        let copy = dir.path().join(format!("{system}.db"));
        std::fs::copy(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("../fixtures/ledgers/v1-{system}.db")),
            &copy,
        )
        .unwrap();
        let store = Store::open(&copy).unwrap();
        let all = store.events().unwrap();
        assert!(
            leechbook_ledger::full_fold(&store).unwrap() == Ledger::fold(&all),
            "{system}"
        );
    }
}

/// The synthetic ledger with its checkpoints kept as the write path keeps them now: a head
/// and one entry per character; its own device rostered as a GM, so commands can record.
fn checkpointed_ledger(
    dir: &std::path::Path,
    n: usize,
) -> (std::path::PathBuf, Vec<leechbook_core::Envelope>) {
    checkpointed_ledger_edited(dir, n, |_, _| {})
}

/// [`checkpointed_ledger`] with every 53rd event entered two months late in the story (an
/// offline device's) and recorded by a clock three hours behind, and every 71st by a clock
/// ten minutes ahead, so that the log is in neither the story's order nor the wall clock's
/// (the log's events are half a minute apart).
fn checkpointed_ledger_with_late_events(
    dir: &std::path::Path,
    n: usize,
) -> (std::path::PathBuf, Vec<leechbook_core::Envelope>) {
    checkpointed_ledger_edited(dir, n, |i, e| {
        if i % 53 == 20 {
            e.at = leechbook_core::time::CampaignTime((e.at.0 - 60 * 86_400).max(0));
            e.wall -= chrono::Duration::hours(3);
        }
        if i % 71 == 30 {
            e.wall += chrono::Duration::minutes(10);
        }
    })
}

/// [`checkpointed_ledger_with_late_events`], every other retraction of a mistaken roll made
/// an amendment of the latest roll on a wound before it instead, its face turned over
/// (`101 - roll`), which the events after it were not written for (and the mistaken roll
/// left standing): `why` flags what such a ruling changed of an outcome as recorded.
fn checkpointed_ledger_with_amendments(
    dir: &std::path::Path,
    n: usize,
) -> (std::path::PathBuf, Vec<leechbook_core::Envelope>) {
    use leechbook_core::harnmaster::HmEvent;
    use leechbook_core::ruling::Ruling;
    use leechbook_core::Event;
    let last_roll = std::cell::RefCell::new(None);
    let rulings = std::cell::Cell::new(0);
    checkpointed_ledger_edited(dir, n, |i, e| {
        if i % 53 == 20 {
            e.at = leechbook_core::time::CampaignTime((e.at.0 - 60 * 86_400).max(0));
            e.wall -= chrono::Duration::hours(3);
        }
        match &e.event {
            Event::HarnMaster(HmEvent::SeqRoll(r)) if r.injury.is_some() => {
                *last_roll.borrow_mut() = Some((e.id, r.clone()));
            }
            Event::Ruling(Ruling::Retract { .. }) => {
                rulings.set(rulings.get() + 1);
                let roll = last_roll.borrow().clone();
                if let (Some((target, mut roll)), 0) = (roll, rulings.get() % 2) {
                    roll.roll = 101 - roll.roll;
                    e.event = Event::Ruling(Ruling::Amend {
                        target,
                        replacement: Box::new(Event::HarnMaster(HmEvent::SeqRoll(roll))),
                        reason: "the die read upside down".into(),
                    });
                }
            }
            _ => {}
        }
    })
}

/// [`checkpointed_ledger`], each event edited by `edit` (its place, the event) first.
fn checkpointed_ledger_edited(
    dir: &std::path::Path,
    n: usize,
    edit: impl Fn(usize, &mut leechbook_core::Envelope),
) -> (std::path::PathBuf, Vec<leechbook_core::Envelope>) {
    let path = dir.join("checkpointed.db");
    let campaign = leechbook_core::ids::CampaignId(uuid::Uuid::from_u128(1));
    let mut store = Store::create_joining(&path, campaign).unwrap();
    let me = (store.device(), store.public_key().to_vec());
    let mut log = leechbook_core::synthetic::campaign_keyed(n, |d| vec![d; 32], Some(me));
    for (i, e) in log.iter_mut().enumerate() {
        edit(i, e);
    }
    leechbook_bench::keep_checkpoints(&mut store, &log, |made| made.to_vec()).unwrap();
    (path, log)
}

/// `show NAME --at "day N"` (or a wall time) from a checkpoint: the latest all of whose
/// events the moment keeps, and only the stretch of the log after it that can hold the
/// moment's other events. On a log entered out of the story's order and out of the wall
/// clock's (late events, which a moment takes in wherever they lie, and rulings, judged with
/// those made later), for many moments and characters, each character and the clock are
/// exactly those of the moment cut from the whole log and folded (the definition), and a
/// checkpoint serves most of them.
#[test]
fn a_character_at_a_time_from_a_checkpoint_is_the_moment_folded() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = checkpointed_ledger_with_late_events(dir.path(), 6_000);
    let store = Store::open(&path).unwrap();
    let all = store.events().unwrap();
    let last = all.iter().map(|e| e.at.0).max().unwrap() / 86_400;
    let mut specs: Vec<String> = Vec::new();
    for day in (1..=last + 1).step_by(usize::try_from(last / 12).unwrap().max(1)) {
        specs.push(format!("day {day}"));
        specs.push(format!("day {day} 12:30"));
    }
    let (first, latest) = (all[0].wall, all.iter().map(|e| e.wall).max().unwrap());
    for k in 0..=12 {
        specs.push((first + (latest - first) * k / 12).to_rfc3339());
    }
    // How many asked and served, by campaign time and by wall time.
    let (mut served, mut asked) = ([0; 2], [0; 2]);
    for spec in &specs {
        let by = usize::from(!spec.starts_with("day"));
        let m = leechbook_ledger::moment::moment(&all, spec).unwrap();
        let want = leechbook_ledger::moment::state_at(&m);
        for ch in want.characters.iter().step_by(3) {
            let name = ch.name();
            asked[by] += 1;
            let (got, label) = leechbook_ledger::moment::state_for_at_time(&store, &[name], spec)
                .unwrap()
                .unwrap();
            assert_eq!(label, m.label);
            assert!(got.character(ch.id()) == Some(ch), "{name} at {spec}");
            assert_eq!(got.now, want.now, "the clock at {spec}");
            let fast =
                leechbook_ledger::moment::state_from_checkpoint(&store, &[name], spec).unwrap();
            if let Some((fast, _)) = fast {
                served[by] += 1;
                assert!(
                    fast.character(ch.id()) == Some(ch),
                    "{name} at {spec}, from a checkpoint"
                );
                assert_eq!(fast.now, want.now, "the clock at {spec}, from a checkpoint");
            }
        }
    }
    // `diff` reads each end as `show --at` does: its changes are those between the two
    // moments folded from the whole log.
    use leechbook_story::diff::{changes, flat_view};
    let mut changed = 0;
    for (from, to) in specs.iter().zip(specs.iter().skip(5)).step_by(4) {
        let at = |spec: &str| {
            leechbook_ledger::moment::state_at(
                &leechbook_ledger::moment::moment(&all, spec).unwrap(),
            )
        };
        for name in ["c5", "c42"] {
            let want = changes(&flat_view(&at(from), name), &flat_view(&at(to), name));
            changed += usize::from(!want.is_empty());
            let out = common::run_db(&path, &["diff", name, "--from", from, "--to", to, "--json"]);
            assert_eq!(out.code, 0, "{}", out.stderr);
            let got: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
            assert_eq!(
                got["changes"],
                serde_json::json!(want),
                "{name} from {from} to {to}"
            );
        }
    }
    assert!(changed > 3, "only {changed} diffs changed anything");
    assert!(asked[0] > 40 && asked[1] > 40, "asked {asked:?}");
    assert!(
        served[0] * 4 > asked[0] * 3 && served[1] * 4 > asked[1] * 3,
        "a checkpoint served {served:?} of {asked:?}"
    );
}

/// A wall-time moment's clock is the latest campaign time applied, and a ruling is applied
/// even when the event it strikes is another character's: another device's strike on c1
/// ten days ahead of the campaign, then the GM's retraction of it (recorded at that time).
/// The view of c5 never decodes the strike, so it cannot judge the retraction: it must still
/// give the clock the whole log gives (the time before both: a ruling moves no clock, and the
/// strike is struck), here by folding the moment as the log streams.
#[test]
fn a_wall_time_clock_counts_a_ruling_on_another_characters_event() {
    let dir = tempfile::tempdir().unwrap();
    let (path, log) = checkpointed_ledger(dir.path(), 3_500);
    let mut store = Store::open(&path).unwrap();
    let me = store.device();
    let last = log.last().unwrap().clone();
    let c1 = log
        .iter()
        .find_map(|e| match &e.event {
            leechbook_core::Event::CharacterAdded { name, .. } if name == "c1" => {
                Some(leechbook_core::ids::CharacterId(e.id.0))
            }
            _ => None,
        })
        .unwrap();
    let strike = log
        .iter()
        .rev()
        .find(|e| e.event.kind() == "hm.strike" && e.event.character() == Some(c1))
        .unwrap()
        .event
        .clone();
    let ahead = leechbook_core::time::CampaignTime(last.at.0 + 10 * 86_400);
    let env = |n: u64, event: leechbook_core::Event| leechbook_core::Envelope {
        id: leechbook_core::ids::EventId(uuid::Uuid::from_u128(0xABC0 + u128::from(n))),
        device: me,
        seq: n,
        clock: last.clock + n,
        wall: last.wall + chrono::Duration::minutes(n as i64),
        at: ahead,
        event,
        signature: None,
        ..last.clone()
    };
    let x = env(1, strike);
    let ruling = env(
        2,
        leechbook_core::Event::Ruling(leechbook_core::ruling::Ruling::Retract {
            target: x.id,
            reason: "the wrong day".into(),
        }),
    );
    store.import(&[x, ruling]).unwrap();
    let all = store.events().unwrap();
    let spec = (last.wall + chrono::Duration::minutes(5)).to_rfc3339();
    let want =
        leechbook_ledger::moment::state_at(&leechbook_ledger::moment::moment(&all, &spec).unwrap());
    // A ruling moves no clock, and the strike it retracts is struck: the clock is the one
    // before them both.
    assert!(want.now < ahead, "a ruling moves no clock: {:?}", want.now);
    let (got, _) = leechbook_ledger::moment::state_for_at_time(&store, &["c5"], &spec)
        .unwrap()
        .unwrap();
    assert_eq!(got.now, want.now);
    let c5 = want.character_named("c5").unwrap();
    assert!(got.character(c5.id()) == Some(c5));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    /// `show NAME --at EVENT` reads the character's checkpoint entry and only the events
    /// about it (or about no character): the character and the clock are exactly those of
    /// the fold of the log up to the event, for any event and any character.
    #[test]
    fn a_character_at_an_event_from_its_entry_is_the_fold_of_the_prefix(
        picks in prop::collection::vec((0usize..3_500, 0usize..100), 1..6)
    ) {
        let dir = tempfile::tempdir().unwrap();
        let (path, log) = checkpointed_ledger(dir.path(), 3_500);
        let store = Store::open(&path).unwrap();
        for (p, c) in picks {
            let full = Ledger::fold(&log[..=p]);
            let Some(ch) = full.characters.get(c % full.characters.len().max(1)) else { continue };
            let name = ch.name().to_string();
            let got = leechbook_ledger::checkpoint::state_for_upto(&store, &[&name], log[p].order_key()).unwrap();
            prop_assert!(got.character(ch.id()) == Some(ch), "{name} differs at event {p}");
            prop_assert_eq!(got.now, full.now);
            // And the whole record through a checkpoint kept per character is the fold.
            let whole = leechbook_ledger::fold_latest(&store, Some(log[p].order_key())).unwrap();
            prop_assert!(whole == full, "the whole record differs at event {p}");
        }
    }
}

/// A view through a checkpoint after the campaign moved on: a character who joined after the
/// latest checkpoint (its wounds are in no checkpoint entry) and a clock advance retracted
/// after it (a ruling must not leave its time on the clock), and another character's event
/// struck by a retraction (the view never decodes it).  At every event after the checkpoint, each character and the clock are those of
/// the fold of the prefix.
#[test]
fn a_view_after_a_new_character_and_a_retracted_advance_is_the_fold_of_the_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let (path, log) = checkpointed_ledger(dir.path(), 3_500);
    let old = log
        .iter()
        .find_map(|e| match &e.event {
            leechbook_core::Event::CharacterAdded { name, .. } => Some(name.clone()),
            _ => None,
        })
        .unwrap();
    let ok = |args: &[&str]| {
        let out = common::run_db(&path, args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        out.stdout
    };
    ok(&[
        "character",
        "add",
        "Newbie",
        "--str",
        "12",
        "--end",
        "12",
        "--shock",
        "65",
        "--hb",
        "13",
    ]);
    let strike = [
        "strike",
        "Newbie",
        "--aspect",
        "edge",
        "--location",
        "abdomen",
        "--effective",
        "8",
        "--dice",
        "shock=12",
    ];
    ok(&strike);
    ok(&["advance", "30d"]);
    let all = Store::open(&path).unwrap().events().unwrap();
    let advance = all.last().unwrap().id.0.to_string();
    ok(&["retract", &advance, "--reason", "the wrong month"]);
    ok(&strike);
    // Another character's strike recorded a month on, then struck with the advance that
    // put it there: Newbie's view never decodes it, and its time must not be the clock.
    ok(&["advance", "30d"]);
    let advance = Store::open(&path)
        .unwrap()
        .events()
        .unwrap()
        .last()
        .unwrap()
        .id
        .0
        .to_string();
    let mut other = strike;
    other[1] = old.as_str();
    ok(&other);
    let struck = Store::open(&path)
        .unwrap()
        .events()
        .unwrap()
        .last()
        .unwrap()
        .id
        .0
        .to_string();
    ok(&["retract", &struck, "--reason", "not that one"]);
    ok(&["retract", &advance, "--reason", "not that month either"]);
    ok(&strike);
    let store = Store::open(&path).unwrap();
    let all = store.events().unwrap();
    for p in log.len()..all.len() {
        let full = Ledger::fold(&all[..=p]);
        for name in ["Newbie", old.as_str()] {
            let got =
                leechbook_ledger::checkpoint::state_for_upto(&store, &[name], all[p].order_key())
                    .unwrap();
            let want = full.characters.iter().find(|c| c.name() == name);
            if let Some(ch) = want {
                assert!(
                    got.character(ch.id()) == Some(ch),
                    "{name} differs at event {p}"
                );
            }
            assert_eq!(got.now, full.now, "the clock at event {p} ({name})");
        }
    }
}

/// A ruling is re-derived from the latest checkpoint before its target (the append drops
/// every later one), not from the whole log: after a retraction deep in a checkpointed log,
/// its reinstatement, an amendment and a what-if, the record (state, void list and the
/// projection, which `verify` compares with a fold from scratch) is the fold of the whole
/// log.
#[test]
fn a_ruling_on_a_checkpointed_log_is_the_fold_of_the_whole_log() {
    let dir = tempfile::tempdir().unwrap();
    let (path, log) = checkpointed_ledger(dir.path(), 3_500);
    let run = |args: &[&str]| common::run_db(&path, args);
    let ok = |args: &[&str]| {
        let out = run(args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        out.stdout
    };
    let whole = || {
        let all = Store::open(&path).unwrap().events().unwrap();
        (Ledger::fold(&all), all.len())
    };
    let record = || {
        leechbook_ledger::Replica::open(&path)
            .unwrap()
            .state()
            .unwrap()
    };
    // A healing roll a thousand events back (before the latest checkpoints) and a strike
    // near the end.
    let struck = leechbook_core::ruling::Rulings::from_log(&log).retracted;
    let pick = |events: &[leechbook_core::Envelope], kind: &str| {
        events
            .iter()
            .rev()
            .find(|e| e.event.kind() == kind && !struck.contains_key(&e.id))
            .unwrap()
            .id
            .0
            .to_string()
    };
    let deep = pick(&log[..2_400], "hm.seq-roll");
    let late = pick(&log, "hm.strike");
    let what = ok(&["what-if", "retract", &deep, "--reason", "asked"]);
    assert!(!what.is_empty());
    assert_eq!(whole().1, log.len(), "a what-if records nothing");
    for args in [
        vec!["retract", deep.as_str(), "--reason", "the wrong day"],
        vec!["retract", late.as_str(), "--reason", "never happened"],
        vec![
            "reinstate",
            deep.as_str(),
            "--reason",
            "it was the right day",
        ],
    ] {
        ok(&args);
        let (full, _) = whole();
        let got = record();
        assert!(
            got == full,
            "{args:?}: the record is not the fold of the whole log"
        );
        assert_eq!(got.void, full.void, "{args:?}");
    }
    // An amendment of the healing roll deep in the log re-derives everything after it.
    ok(&["amend", &deep, "--dice", "roll=99", "--reason", "misread"]);
    let (full, _) = whole();
    assert!(record() == full, "after the amendment");
    // `verify` refolds from scratch and checks every snapshot and the projection against it
    // (the synthetic log's signatures are made up, so only those lines are looked at).
    let verified = run(&["verify"]).stdout;
    let problems: Vec<&str> = verified
        .lines()
        .filter(|l| !l.contains("signature does not match"))
        .filter(|l| !l.ends_with(": ok"))
        .filter(|l| !l.contains(" events, "))
        .filter(|l| !l.starts_with("checked everything"))
        .collect();
    assert!(problems.is_empty(), "{verified}");
    // Checkpoints before the deep target survived the rulings, so they were folded from.
    assert!(
        verified
            .lines()
            .any(|l| l.starts_with("snapshot at 1000: ok")),
        "{verified}"
    );
}

/// `history NAME WOUND` from the newest checkpoint before the wound's first event (issue
/// 43): on a log entered out of the story's order and the wall clock's, with rulings, for
/// wounds inflicted all along it (healed and open), the story and the plot's samples are
/// those told from the whole story, the same ledger with no checkpoint; and a checkpoint
/// serves most of them.
#[test]
fn a_wounds_history_from_a_checkpoint_is_the_whole_storys() {
    let dir = tempfile::tempdir().unwrap();
    let (path, log) = checkpointed_ledger_with_amendments(dir.path(), 6_000);
    let (with, without) = with_and_without_checkpoints(dir.path(), &path);
    assert!(!with.store().snapshot_heads().unwrap().is_empty());
    assert!(without.store().snapshot_heads().unwrap().is_empty());
    let heads = with.store().snapshot_heads().unwrap();
    let names = Ledger::fold(&log);
    // Every seventh wound, and each wound a ruling reaches (a roll on it retracted or
    // amended).
    let by_id: std::collections::HashMap<_, _> = log.iter().map(|e| (e.id, e)).collect();
    let ruled_wounds: std::collections::HashSet<leechbook_core::ids::EventId> = log
        .iter()
        .filter_map(|e| match &e.event {
            leechbook_core::Event::Ruling(leechbook_core::ruling::Ruling::Amend {
                replacement,
                ..
            }) => replacement.injury(),
            leechbook_core::Event::Ruling(r) => by_id.get(&r.target()?)?.event.injury(),
            _ => None,
        })
        .map(|i| leechbook_core::ids::EventId(i.0))
        .collect();
    let (mut told, mut served, mut flagged, mut ruled) = (0, 0, 0, 0);
    for e in log
        .iter()
        .filter(|e| e.event.kind() == "hm.strike")
        .enumerate()
        .filter(|(i, e)| i % 7 == 0 || ruled_wounds.contains(&e.id))
        .map(|(_, e)| e)
    {
        let Some(name) = e.event.character().and_then(|c| names.name_of(c)) else {
            continue;
        };
        let wound = e.id.to_string();
        let a = leechbook_story::history::story(&with, name, Some(&wound));
        let b = leechbook_story::history::story(&without, name, Some(&wound));
        match (a, b) {
            (Ok((sa, pa)), Ok((sb, pb))) => {
                assert_eq!(
                    serde_json::to_value(&sa).unwrap(),
                    serde_json::to_value(&sb).unwrap(),
                    "{name} {wound}"
                );
                assert_eq!(format!("{pa:?}"), format!("{pb:?}"), "{name} {wound}");
                told += 1;
                served += usize::from(heads.iter().any(|h| h.last < e.order_key()));
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            (a, b) => panic!("{name} {wound}: {:?} against {:?}", a.is_ok(), b.is_ok()),
        }
        // `why` tells the wound from the same stretch, its flags (what a ruling changed of
        // an outcome as recorded) worked out from the checkpoint too.
        let a = leechbook_story::why::why(&with, name, Some(&wound));
        let b = leechbook_story::why::why(&without, name, Some(&wound));
        match (a, b) {
            (Ok(a), Ok(b)) => {
                let (a, b) = (
                    serde_json::to_value(&a).unwrap(),
                    serde_json::to_value(&b).unwrap(),
                );
                assert_eq!(a, b, "why {name} {wound}");
                // Counted where a checkpoint serves the stretch.
                if heads.iter().any(|h| h.last < e.order_key()) {
                    let text = b.to_string();
                    flagged += usize::from(
                        ["amended: rolled", "since a ruling", "now EML"]
                            .iter()
                            .any(|f| text.contains(f)),
                    );
                    ruled += usize::from(!b["rulings"].as_array().unwrap().is_empty());
                }
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            (a, b) => panic!(
                "why {name} {wound}: {:?} against {:?}",
                a.is_ok(),
                b.is_ok()
            ),
        }
    }
    assert!(told >= 20, "{told} wounds told");
    assert!(served * 2 > told, "{served} of {told} from a checkpoint");
    assert!(flagged > 0 && ruled > 0, "{flagged} flagged, {ruled} ruled");
    // Beneath the story: the stretch a wound's story folds (from a checkpoint, up to where
    // the archive filed it for good) steps each of its events to the outcome and the
    // character the whole story steps it to, and holds every event that changed the wound.
    let (mut ended, mut stretched) = (0, 0);
    for e in log
        .iter()
        .filter(|e| e.event.kind() == "hm.strike")
        .step_by(23)
    {
        let Some(who) = e.event.character() else {
            continue;
        };
        let id = leechbook_core::ids::InjuryId(e.id.0);
        let wound = |l: &Ledger| {
            let held = match l.character(who) {
                Some(leechbook_core::CharacterState::HarnMaster(h)) => h.any_injury(id),
                _ => None,
            };
            format!("{held:?}")
        };
        let (whole, part) = stepped_alike(&with, who, e.id, &wound);
        for (id, _, changed) in &whole {
            assert!(
                !changed || part.iter().any(|(p, _, _)| p == id),
                "{id} changed wound {} outside its stretch",
                e.id
            );
        }
        ended += usize::from(part.last().map(|p| p.0) != whole.last().map(|w| w.0));
        stretched += usize::from(part.len() < whole.len());
    }
    assert!(
        ended > 0 && stretched > ended,
        "{ended} ended, {stretched} stretched"
    );
}

/// A roster change after the checkpoints: at the log's end the GM rosters player device 1
/// for none of its characters, which voids every event it recorded (the roster in force is
/// the whole log's, over every event before it too), while the checkpoints were folded
/// under the roster of their day. They are passed over then: each wound's `history` and
/// `why` are the whole story's, told without a checkpoint.
#[test]
fn a_wounds_story_after_a_roster_change_is_the_whole_storys() {
    use leechbook_core::roster::{Role, RosterChange};
    use leechbook_core::Event;
    let n = 4_000;
    let dir = tempfile::tempdir().unwrap();
    let (path, mut log) = checkpointed_ledger(dir.path(), n);
    let gm = log
        .iter()
        .rfind(|e| matches!(e.event, Event::ClockAdvanced { .. }))
        .unwrap();
    let change = leechbook_core::Envelope {
        id: leechbook_core::ids::EventId(uuid::Uuid::from_u128(u128::MAX)),
        seq: log.iter().filter(|e| e.device == gm.device).count() as u64 + 1,
        clock: log.iter().map(|e| e.clock).max().unwrap() + 1,
        event: Event::Roster(RosterChange::Device {
            device: leechbook_core::synthetic::device(1),
            key: vec![1; 32],
            role: Role::Player,
            characters: Vec::new(),
        }),
        ..gm.clone()
    };
    Store::open(&path)
        .unwrap()
        .import(std::slice::from_ref(&change))
        .unwrap();
    log.push(change);
    let voided = Ledger::fold(&log)
        .void
        .iter()
        .filter(|v| v.reason.contains("is a player's"))
        .count();
    assert!(voided > 100, "{voided} of the player's events void");
    let (with, without) = with_and_without_checkpoints(dir.path(), &path);
    let heads = with.store().snapshot_heads().unwrap();
    assert!(heads.len() > 1);
    let names = Ledger::fold(&log);
    let mut told = 0;
    for e in log
        .iter()
        .filter(|e| e.event.kind() == "hm.strike" && heads.iter().any(|h| h.last < e.order_key()))
        .step_by(5)
    {
        let Some(name) = e.event.character().and_then(|c| names.name_of(c)) else {
            continue;
        };
        let wound = e.id.to_string();
        let json = |r: &leechbook_ledger::Replica, history: bool| {
            if history {
                leechbook_story::history::story(r, name, Some(&wound))
                    .map(|(s, _)| serde_json::to_value(&s).unwrap())
                    .map_err(|e| e.to_string())
            } else {
                leechbook_story::why::why(r, name, Some(&wound))
                    .map(|w| serde_json::to_value(&w).unwrap())
                    .map_err(|e| e.to_string())
            }
        };
        for history in [true, false] {
            assert_eq!(
                json(&with, history),
                json(&without, history),
                "{name} {wound}"
            );
        }
        // Beneath: each event of the stretch steps to the outcome and the whole character
        // (every wound of theirs) that the whole story steps it to.
        let who = e.event.character().unwrap();
        stepped_alike(&with, who, e.id, &|_: &Ledger| String::new());
        told += 1;
    }
    assert!(told >= 10, "{told} wounds told");
}

/// The ledger at `path` with its projection (and the archive written with it) current, as a
/// ledger's own commands leave it (where the archive filed a wound is read only then), and
/// a copy of it in `dir` with no checkpoint: the whole story's teller.
fn with_and_without_checkpoints(
    dir: &std::path::Path,
    path: &std::path::Path,
) -> (leechbook_ledger::Replica, leechbook_ledger::Replica) {
    leechbook_ledger::Replica::open(path)
        .unwrap()
        .refresh()
        .unwrap();
    let bare = dir.join("bare.db");
    std::fs::copy(path, &bare).unwrap();
    rusqlite::Connection::open(&bare)
        .unwrap()
        .execute_batch("DELETE FROM snapshots")
        .unwrap();
    (
        leechbook_ledger::Replica::open(path).unwrap(),
        leechbook_ledger::Replica::open(&bare).unwrap(),
    )
}

/// The story of `who` stepped whole and from the stretch of the event `first` (its
/// checkpoint on, to where the archive filed the wound): each event of the stretch steps
/// to the outcome and the character the whole story steps it to. Both, as [`Steps`].
fn stepped_alike(
    replica: &leechbook_ledger::Replica,
    who: leechbook_core::ids::CharacterId,
    first: leechbook_core::ids::EventId,
    wound: &impl Fn(&Ledger) -> String,
) -> (Steps, Steps) {
    let (mut whole, mut part) = (Vec::new(), Vec::new());
    leechbook_ledger::about::replay_about(replica.store(), who, steps(&mut whole, who, wound))
        .unwrap();
    leechbook_ledger::about::replay_about_from(
        replica.store(),
        who,
        first,
        steps(&mut part, who, wound),
    )
    .unwrap();
    for (id, fate, _) in &part {
        let at = whole
            .iter()
            .find(|(w, _, _)| w == id)
            .expect("stepped whole");
        assert_eq!(&at.1, fate, "{id} in the story of {first}");
    }
    (whole, part)
}

/// Each event a story steps: its id, its outcome with the character after it, and whether
/// it changed what `wound` reads of the state.
type Steps = Vec<(leechbook_core::ids::EventId, String, bool)>;

/// The step of a story that records what each event did into `all` ([`Steps`]).
fn steps<'a>(
    all: &'a mut Steps,
    who: leechbook_core::ids::CharacterId,
    wound: &'a impl Fn(&Ledger) -> String,
) -> impl FnMut(&mut Ledger, &leechbook_core::Envelope, &leechbook_core::ruling::Rulings) + 'a {
    move |l, env, r| {
        let before = wound(l);
        let mut fate = String::new();
        l.step(env, r, &mut |l: &Ledger, _: &_, f: &_| {
            fate = format!("{f:?} {:?}", l.character(who));
        });
        all.push((env.id, fate, wound(l) != before));
    }
}
