//! Sync on hostile ground (ARCHITECTURE.md, "Threat model"): the hub, its operator, any peer
//! that reaches it, a rostered player holding their own ledger file and a revoked device are
//! all untrusted. Each test plays one of them and checks that every honest device ends with
//! every honest event, that nothing forged acts, and that what was done is said in a line.

use crate::common;
use common::{connect, identity, join_code, ring_of, run_db, Hub, Scratch};
use leechbook_core::fold::Ledger;
use leechbook_core::ruling::Ruling;
use leechbook_core::{Envelope, Event};
use leechbook_store::Store;
use leechbook_sync::layout::{self, VolumeId};
use std::path::{Path, PathBuf};
use std::time::Duration;

const STRIKE: [&str; 10] = common::thorax_strike("Osric", "6", "shock=12");

fn ok(db: &Path, args: &[&str]) -> String {
    let out = run_db(db, args);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    out.stdout
}

fn log(db: &Path) -> Vec<Envelope> {
    Store::open(db).unwrap().events().unwrap()
}

fn injuries(db: &Path, who: &str) -> usize {
    let v: serde_json::Value = serde_json::from_str(&ok(db, &["show", who, "--json"])).unwrap();
    v["injuries"].as_array().map_or(0, Vec::len)
}

/// Appends `event` to the ledger at `db` as its own device would, signed with its key, past
/// every check the CLI makes (a player who edits their own ledger file, or runs a build of
/// their own). `clock` dates it otherwise than the store would.
fn forge(db: &Path, event: Event, clock: Option<u64>) -> Envelope {
    let mut store = Store::open(db).unwrap();
    let signer = Store::open(db).unwrap();
    let mut w = store.write().unwrap();
    let mut env = w
        .prepare(
            event,
            leechbook_core::time::CampaignTime(0),
            chrono::Utc::now(),
        )
        .unwrap();
    if let Some(c) = clock {
        env.clock = c;
        let sig = signer.sign(&leechbook_store::codec::signed_message(&env));
        leechbook_store::codec::put_signature(&mut env, sig);
    }
    w.append(&env).unwrap();
    w.commit().unwrap();
    env
}

/// A GM with Osric and a second device rostered for him as `role` ("player" or "gm"), both
/// holding the same log.
fn gm_and(role: &str, dir: &Path) -> (Scratch, Scratch) {
    let gm = Scratch::with_osric();
    let file = dir.join("seed.join");
    gm.ok(&["sync", "invite", file.to_str().unwrap()]);
    let other = Scratch::new();
    other.ok(&["init", "--join", file.to_str().unwrap()]);
    let (device, key) = identity(&other.db);
    gm.ok(&[
        "device",
        "add",
        &device,
        &key,
        "--role",
        role,
        "--character",
        "Osric",
    ]);
    assert_eq!(common::carry(&gm.db, &other.db, dir).code, 0);
    (gm, other)
}

/// A player who flips their own ledger to pass as the GM retracts and amends the GM's strike:
/// on the GM's device the rulings are void and the strike still stands, whole.
#[test]
fn a_players_forged_rulings_act_on_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (gm, player) = gm_and("player", dir.path());
    gm.ok(&STRIKE);
    assert_eq!(common::carry(&gm.db, &player.db, dir.path()).code, 0);
    let strike = log(&gm.db)
        .into_iter()
        .find(|e| e.event.kind() == "hm.strike")
        .unwrap();
    let retract = forge(
        &player.db,
        Event::Ruling(Ruling::Retract {
            target: strike.id,
            reason: "I am the GM now".into(),
        }),
        None,
    );
    let out = common::carry(&player.db, &gm.db, dir.path());
    assert_eq!(out.code, 0, "signed events import: {}", out.stderr);
    assert!(log(&gm.db).iter().any(|e| e.id == retract.id));
    assert_eq!(injuries(&gm.db, "Osric"), 1, "the GM's strike stands");
    let ledger = Ledger::fold(&log(&gm.db));
    assert!(ledger.retracted.is_empty());
    assert!(ledger.void.iter().any(|v| v.id == retract.id
        && v.reason
            .contains("is a player's: this is the GM's to record")));
    // Every read agrees: the fold from a checkpoint, `show --at` and `verify`.
    let here = ok(
        &gm.db,
        &["show", "Osric", "--at", &retract.id.to_string(), "--json"],
    );
    let at: serde_json::Value = serde_json::from_str(&here).unwrap();
    assert_eq!(at["injuries"].as_array().map(Vec::len), Some(1), "{at}");
    assert!(ok(&gm.db, &["verify"]).contains("the ledger is sound"));
}

/// A player's device signs fatigue for a character it does not play (Brenna, the GM's): the
/// record holds it void, and `why Brenna` tells it so, in the roster's words, not as fatigue
/// she took (a chain is folded under the log's roster, as the record is).
#[test]
fn why_tells_a_players_forged_event_void_as_the_record_holds_it() {
    let dir = tempfile::tempdir().unwrap();
    let (gm, player) = gm_and("player", dir.path());
    gm.ok(&common::BRENNA);
    assert_eq!(common::carry(&gm.db, &player.db, dir.path()).code, 0);
    let brenna = leechbook_core::ids::CharacterId(
        log(&gm.db)
            .iter()
            .rfind(|e| matches!(e.event, Event::CharacterAdded { .. }))
            .unwrap()
            .id
            .0,
    );
    let forged = forge(
        &player.db,
        Event::HarnMaster(leechbook_core::harnmaster::HmEvent::Fatigue(
            leechbook_core::harnmaster::healing::FatigueChange {
                character: brenna,
                kind: leechbook_core::harnmaster::healing::FatigueKind::Personal,
                points: 3,
            },
        )),
        None,
    );
    assert_eq!(common::carry(&player.db, &gm.db, dir.path()).code, 0);
    let why: serde_json::Value =
        serde_json::from_str(&ok(&gm.db, &["why", "Brenna", "--json"])).unwrap();
    let link = why["chain"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["event"] == forged.id.to_string())
        .unwrap_or_else(|| panic!("the forged event is told: {why}"));
    let summary = link["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("void (") && summary.contains("is a player's"),
        "{summary}"
    );
}

/// A revoked device, offline, dates its events back before its revocation: the revocation
/// names the last number it accepts, so none of them acts, whatever its clock; one dated
/// back below its own previous number is refused at import and named.
#[test]
fn a_revoked_devices_events_dated_back_act_on_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (gm, other) = gm_and("gm", dir.path());
    other.ok(&STRIKE);
    assert_eq!(common::carry(&other.db, &gm.db, dir.path()).code, 0);
    let (device, _) = identity(&other.db);
    let revoked = ok(&gm.db, &["device", "revoke", &device]);
    assert!(
        revoked.contains("every later number of it is void"),
        "{revoked}"
    );
    let before_revocation = log(&gm.db)
        .iter()
        .find(|e| e.event.kind() == "hm.strike")
        .unwrap()
        .clock;
    // Between its last accepted event and the revocation: the order alone would keep it.
    let sneaked = forge(
        &other.db,
        Event::ClockAdvanced {
            to: leechbook_core::time::CampaignTime(86_400),
        },
        Some(before_revocation + 1),
    );
    let out = common::carry(&other.db, &gm.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let ledger = Ledger::fold(&log(&gm.db));
    assert!(
        ledger
            .void
            .iter()
            .any(|v| v.id == sneaked.id && v.reason.contains("revoked")),
        "{:?}",
        ledger.void
    );
    assert_eq!(ledger.now.0, 0, "the clock did not move");
    // Below its own previous number: refused at import, in one line naming it.
    let dated = forge(
        &other.db,
        Event::ClockAdvanced {
            to: leechbook_core::time::CampaignTime(172_800),
        },
        Some(1),
    );
    let out = common::carry(&other.db, &gm.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    // (Its #3 at clock 1 is below its own number too: no device clocks its #n under n, so
    // it is named as its signer's forgery before its previous number is looked up.)
    assert!(
        out.stderr.contains(&format!(
            "refused: the sync data holds event {} as device {}'s #",
            dated.id.short(),
            dated.device.short()
        )) && out.stderr.contains("is above its Lamport clock 1"),
        "{}",
        out.stderr
    );
    assert!(!log(&gm.db).iter().any(|e| e.id == dated.id));
    assert!(ok(&gm.db, &["verify"]).contains("the ledger is sound"));
    // The device's own ledger, which holds it, is told so by `verify`: its #3 at clock 1
    // is below its own #2's clock, and below its own number (no device clocks its #n
    // under n), so it is named as its signer's forgery.
    let out = other.run(&["verify"]);
    assert_ne!(out.code, 0);
    assert!(
        out.stdout.contains("#3 is above its Lamport clock 1") && out.stdout.contains("forged"),
        "{}",
        out.stdout
    );
}

/// What a peer holding `db`'s copy of volume `v` (and its index) does to it, pushed to the
/// hub at `url` as that peer's change.
fn tamper_on_hub(
    db: &Path,
    v: VolumeId,
    url: &str,
    change: impl FnOnce(&mut automerge::Automerge, &mut automerge::Automerge, &layout::Names),
) {
    let store = Store::open(db).unwrap();
    let mut doc = layout::load_kept(&store, &v.name()).unwrap().unwrap().doc;
    let mut index = layout::load_kept(&store, "index").unwrap().unwrap().doc;
    change(&mut doc, &mut index, &layout::Names::of(&ring_of(db)));
    let mut m = leechbook_sync::Mirror::new(ring_of(db));
    m.index = index;
    m.volumes.insert(v, doc);
    leechbook_sync::net::push(url, &mut m, Duration::from_secs(20)).unwrap();
}

/// The GM with Osric, and two players for him.
fn table(dir: &Path, url: &str) -> [PathBuf; 3] {
    common::table(dir, url, &["Osric"], ["Osric", "Osric"])
}

/// Runs the hostile automerge-repo peer (`.ci/sync-server/hostile-peer.mjs`: the real npm
/// client, no key, no join code) against the hub at `url` on document `doc`.
/// Returns how many root keys the document held on the hub when the peer found it.
fn hostile_peer(url: &str, doc: &str, action: &[&str]) -> usize {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.ci/sync-server/hostile-peer.mjs");
    let out = std::process::Command::new("node")
        .arg(&script)
        .args([url, doc])
        .args(action)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "the hostile peer failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| {
            l.strip_prefix("found ")?
                .strip_suffix(" keys")?
                .parse()
                .ok()
        })
        .expect("the peer says what it found")
}

// ---- Time and order (issue 38): a player who edits her own ledger file and lets the binary
// sign, or any device ever rostered, bends neither the clock, nor the order, nor a number.

/// A copy of `env` recorded as device `device`'s next number by a ledger file edited by
/// hand, unsigned: what the local fold reads (it checks roles, not signatures), never what
/// another device takes in.
fn plant(db: &Path, mut env: Envelope, device: leechbook_core::ids::DeviceId) -> Envelope {
    let mut store = Store::open(db).unwrap();
    let next = store.last_number(device).unwrap() + 1;
    env.id = leechbook_core::ids::EventId(uuid::Uuid::now_v7());
    env.device = device;
    env.seq = next;
    env.signature = None;
    let mut w = store.write().unwrap();
    w.append(&env).unwrap();
    w.commit().unwrap();
    env
}

/// Deletes a row from a ledger file by hand (past the trigger that keeps the log
/// append-only, which a user who edits the file drops, and puts back).
fn unplant(db: &Path, id: leechbook_core::ids::EventId) {
    let c = rusqlite::Connection::open(db).unwrap();
    let trigger: String = c
        .query_row(
            "SELECT sql FROM sqlite_master WHERE name = 'events_no_delete'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    c.execute_batch("DROP TRIGGER events_no_delete").unwrap();
    c.execute(
        "DELETE FROM events WHERE id = ?1",
        [id.0.as_bytes().as_slice()],
    )
    .unwrap();
    c.execute_batch(&trigger).unwrap();
    // The caches that held it go too, as a careful forger would have them go.
    c.execute_batch(
        "DELETE FROM projection_mark; DELETE FROM snapshots;
         DELETE FROM sync_state WHERE key LIKE 'doc:%' OR key LIKE 'doc+:%'
             OR key LIKE 'peer-%' OR key IN ('volume-counts', 'volume-row', 'sync-layout');",
    )
    .unwrap();
}

/// Records `event` on `db`'s own device as the binary would, dated `at`.
fn sign_at(db: &Path, event: Event, at: leechbook_core::time::CampaignTime) -> Envelope {
    let mut store = Store::open(db).unwrap();
    let mut w = store.write().unwrap();
    let env = w.prepare(event, at, chrono::Utc::now()).unwrap();
    w.append(&env).unwrap();
    w.commit().unwrap();
    env
}

fn device_of(db: &Path) -> leechbook_core::ids::DeviceId {
    Store::open(db).unwrap().device()
}

fn osric(db: &Path) -> leechbook_core::ids::CharacterId {
    leechbook_core::ids::CharacterId(
        log(db)
            .iter()
            .find(|e| matches!(e.event, Event::CharacterAdded { .. }))
            .unwrap()
            .id
            .0,
    )
}

fn stun_try(db: &Path, roll: u16) -> Event {
    Event::HarnMaster(leechbook_core::harnmaster::HmEvent::StunRecovery(
        leechbook_core::harnmaster::shock::ShockRoll {
            character: osric(db),
            roll,
        },
    ))
}

/// Leaves Osric stunned: shock 5+2+1 = 8, 71 against Shock ML65 is F, INC; the Shock Reroll
/// 31 against EML45 is S, STN.
fn stun_osric(s: &Scratch) {
    s.ok(&[
        "strike",
        "Osric",
        "--aspect",
        "blunt",
        "--location",
        "skull",
        "--effective",
        "5",
        "--dice",
        "shock=71",
    ]);
    s.ok(&["roll", "Osric", "shock-reroll", "--dice", "roll=31"]);
}

/// The table a property test forges against: a GM's ledger with Osric, a player rostered for
/// him, and a second GM device since revoked, each device's ledger holding the campaign.
struct Table {
    _dir: tempfile::TempDir,
    gm: PathBuf,
    player: PathBuf,
    revoked: PathBuf,
}

fn table_of_three() -> Table {
    let dir = tempfile::tempdir().unwrap();
    let (gm, player) = gm_and("player", dir.path());
    let (gm2, revoked) = {
        let file = dir.path().join("seed2.join");
        gm.ok(&["sync", "invite", file.to_str().unwrap()]);
        let other = Scratch::new();
        other.ok(&["init", "--join", file.to_str().unwrap()]);
        let (device, key) = identity(&other.db);
        gm.ok(&["device", "add", &device, &key, "--role", "gm"]);
        assert_eq!(common::carry(&gm.db, &other.db, dir.path()).code, 0);
        gm.ok(&["device", "revoke", &device]);
        (gm, other)
    };
    assert_eq!(common::carry(&gm2.db, &player.db, dir.path()).code, 0);
    let keep = |s: &Scratch, name: &str| {
        let to = dir.path().join(name);
        // A consistent copy of the ledger (its WAL folded in).
        rusqlite::Connection::open(&s.db)
            .unwrap()
            .execute("VACUUM INTO ?1", [to.to_str().unwrap()])
            .unwrap();
        to
    };
    let (gm_db, player_db, revoked_db) = (
        keep(&gm2, "gm.db"),
        keep(&player, "player.db"),
        keep(&revoked, "revoked.db"),
    );
    Table {
        _dir: dir,
        gm: gm_db,
        player: player_db,
        revoked: revoked_db,
    }
}

/// The ends of the integer types and the bounds a field may be forged at.
fn extreme() -> impl proptest::strategy::Strategy<Value = Option<u64>> {
    use proptest::prelude::*;
    prop_oneof![
        5 => Just(None),
        1 => Just(Some(0)),
        1 => Just(Some(1)),
        1 => Just(Some(2)),
        1 => Just(Some(i64::MAX as u64)),
        1 => Just(Some(u64::MAX)),
        1 => Just(Some(leechbook_core::MAX_CLOCK)),
        1 => Just(Some(leechbook_core::MAX_CLOCK + 1)),
        1 => Just(Some(1 << 20)),
        1 => any::<u64>().prop_map(Some),
    ]
}

fn extreme_time() -> impl proptest::strategy::Strategy<Value = i64> {
    use proptest::prelude::*;
    let limit = leechbook_core::time::CampaignTime::LIMIT.0;
    prop_oneof![
        4 => Just(0i64),
        1 => Just(86_400),
        1 => Just(limit),
        1 => Just(limit + 1),
        1 => Just(-limit - 1),
        1 => Just(i64::MIN),
        1 => Just(i64::MAX),
        1 => any::<i64>(),
    ]
}

/// One forged event: who signs it (the player, the revoked device, or a copy of the
/// player's ledger reusing its numbers), what it is, and the fields forged.
#[derive(Clone, Debug)]
struct Forged {
    signer: u8,
    /// 0: a clock advance, 1: a stun recovery try, 2: a fatigue change, 3: a Healing
    /// Sequence roll (each with `number` in its integer field).
    kind: u8,
    number: i64,
    clock: Option<u64>,
    seq: Option<u64>,
    at: i64,
    wall_ms: i64,
}

fn forged() -> impl proptest::strategy::Strategy<Value = Forged> {
    use proptest::prelude::*;
    (
        0u8..3,
        0u8..4,
        prop_oneof![
            Just(i64::from(i32::MIN)),
            Just(i64::from(i32::MAX)),
            Just(i64::from(u16::MAX)),
            Just(0),
            Just(-1),
            0i64..200,
        ],
        extreme(),
        extreme(),
        extreme_time(),
        prop_oneof![
            4 => Just(1_700_000_000_000i64),
            1 => Just(i64::MIN),
            1 => Just(i64::MAX),
            1 => any::<i64>()
        ],
    )
        .prop_map(|(signer, kind, number, clock, seq, at, wall_ms)| Forged {
            signer,
            kind,
            number,
            clock,
            seq,
            at,
            wall_ms,
        })
}

/// Makes `f` as its signer's binary would have signed it after editing its fields.
fn forge_on(t: &Table, f: &Forged, osric: leechbook_core::ids::CharacterId) -> Envelope {
    use leechbook_core::time::CampaignTime;
    let db = match f.signer {
        0 | 2 => &t.player,
        _ => &t.revoked,
    };
    use leechbook_core::harnmaster::{healing, shock, HmEvent};
    let face = u16::try_from(f.number.clamp(0, i64::from(u16::MAX))).unwrap_or(u16::MAX);
    let event = match f.kind {
        0 => Event::ClockAdvanced {
            to: CampaignTime(f.at),
        },
        1 => Event::HarnMaster(HmEvent::StunRecovery(shock::ShockRoll {
            character: osric,
            roll: face,
        })),
        2 => Event::HarnMaster(HmEvent::Fatigue(healing::FatigueChange {
            character: osric,
            kind: healing::FatigueKind::Personal,
            points: i32::try_from(f.number).unwrap_or(i32::MAX),
        })),
        _ => Event::HarnMaster(HmEvent::SeqRoll(healing::SeqRoll {
            character: osric,
            kind: healing::SeqRollKind::BloodLoss,
            injury: None,
            roll: face,
            period: Some(face),
            sheltered: false,
            forced: false,
        })),
    };
    let mut store = Store::open(db).unwrap();
    let signer = Store::open(db).unwrap();
    let mut w = store.write().unwrap();
    let mut env = w
        .prepare(event, CampaignTime(f.at), chrono::Utc::now())
        .unwrap();
    drop(w);
    if f.signer == 2 {
        env.seq = 1; // a copy of the ledger file numbering again
    }
    if let Some(c) = f.clock {
        env.clock = c;
    }
    if let Some(s) = f.seq {
        env.seq = s;
    }
    use chrono::TimeZone;
    if let Some(w) = chrono::Utc.timestamp_millis_opt(f.wall_ms).single() {
        env.wall = w;
    }
    let sig = signer.sign(&leechbook_store::codec::signed_message(&env));
    leechbook_store::codec::put_signature(&mut env, sig);
    env
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 32, ..Default::default() })]

    /// A random mix of events from a rostered player, a revoked device and a copy of the
    /// player's ledger, with the ends of every integer type and times at both ends, sent by
    /// file whole or event by event: nothing panics, the GM's device keeps recording, a
    /// player never moves the clock, and `verify` never calls sound a ledger holding what it
    /// must flag.
    #[test]
    fn no_mix_of_forged_events_stops_a_device(mix in proptest::collection::vec(forged(), 1..6), whole in proptest::prelude::any::<bool>()) {
        use leechbook_core::time::CampaignTime;
        static TABLE: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
        let t = TABLE.get_or_init(table_of_three);
        let dir = tempfile::tempdir().unwrap();
        let gm = dir.path().join("gm.db");
        std::fs::copy(&t.gm, &gm).unwrap();
        let osric = osric(&gm);
        let envelopes: Vec<Envelope> = mix.iter().map(|f| forge_on(t, f, osric)).collect();
        let mut m = leechbook_sync::Mirror::new(ring_of(&gm));
        let mut store = Store::open(&gm).unwrap();
        let before = log(&gm).len();
        if m.add(&envelopes).is_ok() {
            let bytes = m.save();
            let mode = if whole { leechbook_sync::Acceptance::Whole } else { leechbook_sync::Acceptance::EachEvent };
            match leechbook_sync::import_changes(&mut store, &bytes, mode) {
                Ok(_) => {}
                Err(_) => proptest::prop_assert_eq!(log(&gm).len(), before, "a refused file leaves the ledger as it was"),
            }
        }
        drop(store);
        // The clock is the GM's: still where the GM left it.
        let folded = Ledger::fold(&log(&gm));
        proptest::prop_assert_eq!(folded.now, CampaignTime(0));
        // The GM's device records: an advance and a ruling.
        let mut r = leechbook_ledger::Replica::open(&gm).unwrap();
        r.taken_in(0).unwrap();
        let to = CampaignTime(86_400);
        r.record(|_| Ok::<_, leechbook_ledger::LedgerError>(leechbook_ledger::Draft::of(Event::ClockAdvanced { to }, Some(to)))).unwrap();
        proptest::prop_assert_eq!(r.state().unwrap().now, to);
        // `verify` never calls sound what holds an event out of bounds or clocked ahead.
        let mut store = Store::open(&gm).unwrap();
        let verified = leechbook_ledger::verify::verify(&mut store, &gm, true, &mut |_| {}, |_| Ok::<_, leechbook_ledger::LedgerError>(Vec::new())).unwrap();
        let held = log(&gm);
        let flagged = held.iter().any(|e| e.out_of_bounds().is_some() || e.clock > leechbook_core::clock_ceiling(held.len() as u64));
        proptest::prop_assert!(!(verified.sound() && flagged), "{:?}", verified.report);
        proptest::prop_assert!(!flagged, "no import takes in what verify must flag");
    }
}

/// Signs `env` (its fields edited) with `db`'s device key in layout 3, naming `heads`.
fn resign_naming(db: &Path, env: &mut Envelope, heads: &[(leechbook_core::ids::DeviceId, u64)]) {
    let link = leechbook_store::codec::chain_link(env).unwrap_or([0; 32]);
    leechbook_store::codec::lay_out_seen(env, link, heads);
    let sig = Store::open(db)
        .unwrap()
        .sign(&leechbook_store::codec::signed_message(env));
    leechbook_store::codec::put_signature(env, sig);
}

mod chains_and_sizes;
mod documents;
mod time_and_order;

mod squatters;

/// Issue 41 review: where a character stands is the GM's to say. A player's device that
/// sets its own bleeding character aside (so that nothing of theirs is asked for) records an
/// event every device voids.
#[test]
fn a_players_device_cannot_set_its_own_character_aside() {
    let dir = tempfile::tempdir().unwrap();
    let (gm, player) = gm_and("player", dir.path());
    gm.ok(&STRIKE);
    assert_eq!(common::carry(&gm.db, &player.db, dir.path()).code, 0);
    let osric = leechbook_core::ids::CharacterId(
        log(&gm.db)
            .into_iter()
            .find(|e| e.event.kind() == "character-added")
            .unwrap()
            .id
            .0,
    );
    let aside = forge(
        &player.db,
        Event::Standing {
            character: osric,
            standing: leechbook_core::standing::Standing {
                side: leechbook_core::standing::Side::Party,
                aside: Some("hiding".into()),
            },
        },
        None,
    );
    assert_eq!(common::carry(&player.db, &gm.db, dir.path()).code, 0);
    let ledger = Ledger::fold(&log(&gm.db));
    assert!(ledger.void.iter().any(|v| v.id == aside.id
        && v.reason
            .contains("is a player's: this is the GM's to record")));
    assert!(ledger.standing_of(osric).in_story());
}
