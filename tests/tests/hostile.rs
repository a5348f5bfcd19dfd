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

/// Junk put beside the GM's rotation slot, and junk under a fresh key in a volume, change
/// nothing: the rotation is put under its own digest and found by its signature, the junk is
/// listed by the import that met it and dropped, and a join file and `verify` still work.
#[test]
fn junk_in_a_sync_file_is_listed_once_and_never_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let (gm, player) = gm_and("player", dir.path());
    let (player_id, _) = identity(&player.db);
    // The player's file, with junk under fresh keys in its volume and in the next rotation
    // slots of its index.
    let file = dir.path().join("p.sync");
    player.ok(&["sync", "export", file.to_str().unwrap()]);
    let mut m =
        leechbook_sync::Mirror::load(&std::fs::read(&file).unwrap(), ring_of(&player.db)).unwrap();
    use automerge::transaction::Transactable;
    let junk_key = uuid::Uuid::now_v7().to_string();
    let v = *m.volumes.keys().next().unwrap();
    let doc = m.volumes.get_mut(&v).unwrap();
    let mut tx = doc.transaction();
    tx.put(
        automerge::ROOT,
        junk_key.as_str(),
        automerge::ScalarValue::Bytes(vec![0xE1, 0, 0, 0, 0, 7, 7, 7]),
    )
    .unwrap();
    tx.commit();
    let mut tx = m.index.transaction();
    for epoch in [65_536u32, 1, 2, 3] {
        tx.put(
            automerge::ROOT,
            format!("keys/{epoch}").as_str(),
            automerge::ScalarValue::Bytes(vec![1; 64]),
        )
        .unwrap();
    }
    tx.commit();
    std::fs::write(&file, m.save()).unwrap();
    let out = gm.run(&["sync", "import", file.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr
            .contains(&format!("refused: ignored entry {junk_key}")),
        "{}",
        out.stderr
    );
    assert!(ok(&gm.db, &["verify"]).contains("the ledger is sound"));
    // The GM revokes nobody yet rotates past the squatted slots: the rotation still reaches
    // the player, whose key opens what the GM records after it.
    let stranger = Scratch::with_osric();
    let (sid, skey) = identity(&stranger.db);
    gm.ok(&["device", "add", &sid, &skey, "--role", "player"]);
    gm.ok(&["device", "revoke", &sid]);
    gm.ok(&STRIKE);
    let file2 = dir.path().join("gm.sync");
    gm.ok(&["sync", "export", file2.to_str().unwrap()]);
    // Squat the slots in the GM's file too, as a hub would.
    let mut m =
        leechbook_sync::Mirror::load(&std::fs::read(&file2).unwrap(), ring_of(&gm.db)).unwrap();
    let mut tx = m.index.transaction();
    for epoch in [1u32, 65_536, 65_537] {
        tx.put(
            automerge::ROOT,
            format!("keys/{epoch}").as_str(),
            automerge::ScalarValue::Bytes(vec![2; 64]),
        )
        .unwrap();
    }
    tx.commit();
    std::fs::write(&file2, m.save()).unwrap();
    let out = player.run(&["sync", "import", file2.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(log(&player.db), log(&gm.db));
    assert_eq!(injuries(&player.db, "Osric"), 1);
    // A newcomer joins from the GM's join file, which carries no junk.
    let joiner = Scratch::new();
    let join = dir.path().join("again.join");
    gm.ok(&["sync", "invite", join.to_str().unwrap()]);
    joiner.ok(&["init", "--join", join.to_str().unwrap()]);
    assert_eq!(log(&joiner.db), log(&gm.db));
    let _ = player_id;
}

/// The GM's first events deleted from their volume on the hub by a peer that reaches it
/// (here one holding a player's copy of the documents): no device loses them, the GM's next
/// sync puts them back, a newcomer who joined in between is told of the gap and then gets
/// them, and the GM's own export still carries them.
#[test]
fn entries_deleted_on_the_hub_come_back_and_the_gap_is_told() {
    let dir = tempfile::tempdir().unwrap();
    let hub = Hub::relay();
    let [gm, p1, _p2] = table(dir.path(), hub.url());
    let first = log(&gm)[0].clone();
    let gm_store = Store::open(&gm).unwrap();
    let v = VolumeId {
        device: gm_store.device(),
        number: 0,
    };
    drop(gm_store);
    tamper_on_hub(&p1, v, hub.url(), |doc, _, names| {
        layout::drop_in(doc, &[names.entry_of(&first)]).unwrap();
    });
    // A newcomer joining now gets the volume without the campaign's creation: told, in a line.
    let p3 = dir.path().join("p3.db");
    let out = run_db(
        &p3,
        &["init", "--join", hub.url(), "--campaign", &join_code(&gm)],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("gap: the hub lists") && out.stderr.contains("withheld or deleted"),
        "{}",
        out.stderr
    );
    // The GM's next sync puts it back, and says so.
    let out = connect(&gm, hub.url());
    assert!(out.stderr.contains("put back 1 event"), "{}", out.stderr);
    assert!(log(&gm).iter().any(|e| e.id == first.id));
    // The newcomer now gets it, and holds the GM's log.
    connect(&p3, hub.url());
    assert_eq!(log(&p3), log(&gm));
    // No device lost it, and the GM's export still carries it.
    assert!(log(&p1).iter().any(|e| e.id == first.id));
    let file = dir.path().join("gm.sync");
    ok(&gm, &["sync", "export", file.to_str().unwrap()]);
    let sent = leechbook_sync::Mirror::load(&std::fs::read(&file).unwrap(), ring_of(&gm)).unwrap();
    assert!(sent.envelopes().unwrap().iter().any(|e| e.id == first.id));
    assert!(ok(&gm, &["verify"]).contains("the ledger is sound"));
}

/// A peer puts junk over a genuine entry of the GM's volume (a causal overwrite, not a
/// deletion: the volume keeps as many entries as before, and the hub lists what it holds). A
/// newcomer joining then lacks that event: it is told, in a line naming the device and the
/// numbers, not left with a hole in silence. The GM's next sync finds its entry overwritten
/// and puts it back; the newcomer then holds the GM's whole log.
#[test]
fn junk_put_over_a_genuine_entry_is_told_and_put_back() {
    let dir = tempfile::tempdir().unwrap();
    let hub = Hub::relay();
    let [gm, p1, _p2] = table(dir.path(), hub.url());
    let gm_store = Store::open(&gm).unwrap();
    // Not a roster event (without one, the devices it rosters are refused outright).
    let second = log(&gm)
        .into_iter()
        .filter(|e| e.device == gm_store.device() && !matches!(e.event, Event::Roster(_)))
        .nth(1)
        .unwrap();
    let v = VolumeId {
        device: gm_store.device(),
        number: 0,
    };
    assert_eq!(second.device, v.device);
    drop(gm_store);
    tamper_on_hub(&p1, v, hub.url(), |doc, _, names| {
        use automerge::transaction::Transactable;
        let mut tx = doc.transaction();
        tx.put(
            automerge::ROOT,
            names.entry_of(&second).as_str(),
            automerge::ScalarValue::Bytes(b"not the GM's event".to_vec()),
        )
        .unwrap();
        tx.commit();
    });
    let p3 = dir.path().join("p3.db");
    let out = run_db(
        &p3,
        &["init", "--join", hub.url(), "--campaign", &join_code(&gm)],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!log(&p3).iter().any(|e| e.id == second.id));
    let hole = format!("holds device {}'s #", v.device.short());
    assert!(
        out.stderr.contains(&hole) && out.stderr.contains("lacks 1 of its earlier event"),
        "{}",
        out.stderr
    );
    let out = connect(&gm, hub.url());
    assert!(out.stderr.contains("put back 1 event"), "{}", out.stderr);
    let out = connect(&p3, hub.url());
    assert!(!out.stderr.contains(&hole), "{}", out.stderr);
    assert_eq!(log(&p3), log(&gm));
    for db in [&gm, &p1, &p3] {
        assert!(ok(db, &["verify"]).contains("the ledger is sound"));
    }
}

/// A hub withholds a player's newest event from another player: it deletes that event's
/// entry and the volume's count from the index (as its operator can, holding no key). The
/// other player, who holds the roster, is not fooled: the player's signed head, in the index
/// since that player's sync, names a number it does not hold, and its sync says so in one
/// line naming the device and the numbers. The player's next sync puts the event back; the
/// other then gets it, and the line goes.
#[test]
fn a_signed_head_tells_a_device_of_events_the_hub_withholds() {
    let dir = tempfile::tempdir().unwrap();
    let hub = Hub::relay();
    let [_gm, p1, p2] = table(dir.path(), hub.url());
    ok(&p1, &common::thorax_strike("Osric", "8", "shock=12"));
    connect(&p1, hub.url());
    let newest = log(&p1).into_iter().max_by_key(|e| e.order_key()).unwrap();
    let v = VolumeId::of(&newest);
    tamper_on_hub(&p1, v, hub.url(), |doc, index, names| {
        layout::drop_in(doc, &[names.entry_of(&newest)]).unwrap();
        layout::drop_in(index, &[names.volume(v)]).unwrap();
    });
    let out = connect(&p2, hub.url());
    let line = format!(
        "device {} signed its #{}, but this ledger holds its events only up to #{}",
        v.device.short(),
        newest.seq,
        newest.seq - 1
    );
    assert!(out.stderr.contains(&line), "{}", out.stderr);
    assert!(!log(&p2).iter().any(|e| e.id == newest.id));
    connect(&p1, hub.url());
    let out = connect(&p2, hub.url());
    assert!(!out.stderr.contains("signed its"), "{}", out.stderr);
    assert!(log(&p2).iter().any(|e| e.id == newest.id));
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

/// A count raised in the hub's index for a device's volume holds none of its later events
/// back: the device always offers its latest volume, and says the count was raised.
#[test]
fn a_count_raised_on_the_hub_holds_nothing_back() {
    let dir = tempfile::tempdir().unwrap();
    let hub = Hub::relay();
    let [gm, p1, p2] = table(dir.path(), hub.url());
    let p1_store = Store::open(&p1).unwrap();
    let v = VolumeId {
        device: p1_store.device(),
        number: 0,
    };
    drop(p1_store);
    ok(&p1, &common::thorax_strike("Osric", "8", "shock=12"));
    {
        // The hub's index, as a rostered peer sees it, with p1's count raised by one, sealed
        // as a device of the campaign can (a hub without the keys cannot seal a count).
        let store = Store::open(&gm).unwrap();
        let mut index = layout::load_kept(&store, "index").unwrap().unwrap().doc;
        let names = layout::Names::of(&ring_of(&gm));
        use automerge::transaction::Transactable;
        let mut tx = index.transaction();
        let key = names.volume(v);
        tx.put(
            automerge::ROOT,
            key.as_str(),
            automerge::ScalarValue::Bytes(names.seal_counts(&key, &[(v, 1)].into())),
        )
        .unwrap();
        tx.commit();
        let mut m = leechbook_sync::Mirror::new(ring_of(&gm));
        m.index = index;
        leechbook_sync::net::push(hub.url(), &mut m, Duration::from_secs(20)).unwrap();
    }
    connect(&p1, hub.url());
    let out = connect(&p2, hub.url());
    assert!(out.stdout.contains("took in 1 new event"), "{}", out.stdout);
    assert_eq!(injuries(&p2, "Osric"), 1);
    let _ = gm;
}

/// The GM with Osric, and two players for him.
fn table(dir: &Path, url: &str) -> [PathBuf; 3] {
    common::table(dir, url, &["Osric"], ["Osric", "Osric"])
}

/// A hub killed (kill -9) while a device pushes to it is reported within seconds, in one
/// line, with a non-zero exit, and never as "synced": the sync waits for the hub to say it
/// holds each document, and a dropped connection ends the wait at once (not the --timeout).
#[test]
fn a_hub_killed_mid_push_is_reported_within_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let gm = dir.path().join("gm.db");
    ok(&gm, &["init", "--name", "Kaldor"]);
    {
        // 6,000 events, appended straight (the CLI would take minutes in a debug build).
        let mut store = Store::open(&gm).unwrap();
        let mut w = store.write().unwrap();
        for i in 1..=6_000i64 {
            let to = leechbook_core::time::CampaignTime(i * 60);
            let env = w
                .prepare(Event::ClockAdvanced { to }, to, chrono::Utc::now())
                .unwrap();
            w.append(&env).unwrap();
        }
        w.commit().unwrap();
    }
    // Its sync documents built first (a file export), so that the push starts at once.
    let warm = dir.path().join("warm.sync");
    ok(&gm, &["sync", "export", warm.to_str().unwrap()]);
    let mut seen = None;
    for delay in [700u64, 350, 150, 60, 20] {
        let here = dir.path().join(format!("hub-{delay}"));
        std::fs::create_dir_all(&here).unwrap();
        let Some(hub) = Hub::node(&here) else {
            return; // not installed, and not CI: Hub::node said so
        };
        let common::Hub::Node { child, .. } = &hub else {
            unreachable!()
        };
        let pid = child.id().to_string();
        let url = hub.url().to_string();
        let killer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(delay));
            let _ = std::process::Command::new("kill")
                .args(["-9", &pid])
                .status();
        });
        let start = std::time::Instant::now();
        let out = run_db(&gm, &["sync", "connect", &url, "--timeout", "60"]);
        let took = start.elapsed();
        killer.join().unwrap();
        drop(hub);
        if out.code == 0 {
            continue; // it finished before the kill: try sooner
        }
        assert!(took < Duration::from_secs(10), "{took:?}: {}", out.stderr);
        assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
        assert!(!out.stdout.contains("synced"), "{}", out.stdout);
        eprintln!("killed after {delay} ms: {took:?}: {}", out.stderr.trim());
        seen = Some(out.stderr);
        break;
    }
    let said = seen.expect("a kill landed before a sync ended");
    assert!(
        said.contains("went away") || said.contains("could not reach"),
        "{said}"
    );
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

/// The adversary suite through the real npm client against the real npm sync server: a
/// peer with no key deletes every entry of the GM's volume and every count of the index,
/// then puts junk in the volume. No honest device loses anything; the GM's next sync puts
/// it all back and lists the junk once; a newcomer then joins whole; `verify` stays true.
#[test]
fn a_keyless_npm_peer_deletes_and_injects_and_nothing_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let Some(hub) = Hub::node(dir.path()) else {
        return; // not installed, and not CI: Hub::node said so
    };
    let url = hub.url().to_string();
    let [gm, p1, _p2] = table(dir.path(), &url);
    ok(&p1, &common::thorax_strike("Osric", "8", "shock=12"));
    connect(&p1, &url);
    connect(&gm, &url);
    let held = log(&gm);
    let store = Store::open(&gm).unwrap();
    let v = VolumeId {
        device: store.device(),
        number: 0,
    };
    drop(store);
    let places = leechbook_sync::net::Places::of(&ring_of(&gm));
    let volume = places.volume(v).to_string();
    let index = places.index().to_string();
    assert!(
        hostile_peer(&url, &volume, &["delete-all"]) > 0,
        "the volume was on the hub"
    );
    assert!(
        hostile_peer(&url, &index, &["delete-all"]) > 0,
        "the index was on the hub"
    );
    let junk = uuid::Uuid::now_v7().to_string();
    hostile_peer(&url, &volume, &["junk", &junk, "not a sealed event"]);
    // A player syncing now loses nothing of what it holds, and puts back the GM's events it
    // holds (the log is the truth: what a device holds, it offers).
    let before = log(&p1);
    let out = connect(&p1, &url);
    assert!(
        out.stderr.contains("put back"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    assert_eq!(log(&p1), before);
    // The GM's sync lists the junk, once.
    let out = connect(&gm, &url);
    assert!(
        out.stderr.contains(&format!("ignored entry {junk}")),
        "{}",
        out.stderr
    );
    let again = connect(&gm, &url);
    assert!(
        !again.stderr.contains(&junk),
        "listed once: {}",
        again.stderr
    );
    assert_eq!(log(&gm), held);
    // A newcomer joining through the hub gets every event.
    let p3 = dir.path().join("p3.db");
    let out = run_db(
        &p3,
        &["init", "--join", &url, "--campaign", &join_code(&gm)],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(log(&p3), held);
    for db in [&gm, &p1, &p3] {
        assert!(ok(db, &["verify"]).contains("the ledger is sound"));
    }
}

/// A copied ledger file, past its fork, sent its events one sync at a time: each device's
/// events form a chain (each signs the link to its previous number), so the copy's later
/// events are told apart from the original's even when they arrive alone, after the clash
/// was refused in an earlier sync. Nothing of either branch merges blindly, and `verify`
/// names the fork.
#[test]
fn a_copied_ledgers_later_events_are_told_apart_by_their_chain() {
    let dir = tempfile::tempdir().unwrap();
    let (gm, p) = gm_and("gm", dir.path());
    let copy = Scratch::new();
    std::fs::copy(&p.db, &copy.db).unwrap();
    let p_id = identity(&p.db).0;
    p.ok(&["advance", "1h"]);
    copy.ok(&["advance", "2h"]);
    assert_eq!(common::carry(&p.db, &gm.db, dir.path()).code, 0);
    // The copy's #1 clashes with the original's #1: refused, named.
    let out = common::carry(&copy.db, &gm.db, dir.path());
    assert!(out.stderr.contains("two ledgers share"), "{}", out.stderr);
    // The copy's #2 comes alone (its #1 is already in the GM's documents): it follows the
    // copy's #1, not the original's, and is refused as the fork's.
    copy.ok(&["advance", "3h"]);
    let out = common::carry(&copy.db, &gm.db, dir.path());
    assert!(
        out.stderr.contains("#2") && out.stderr.contains("does not follow"),
        "{}\n{}",
        out.stdout,
        out.stderr
    );
    let mine: Vec<u64> = log(&gm.db)
        .iter()
        .filter(|e| e.device.to_string() == p_id)
        .map(|e| e.seq)
        .collect();
    assert_eq!(mine, vec![1], "only the original's #1 stands");
    // The original's #2 then lands: its chain follows its #1.
    p.ok(&["advance", "1h"]);
    let out = common::carry(&p.db, &gm.db, dir.path());
    assert!(
        out.stdout.starts_with("imported 1 new event"),
        "{}",
        out.stdout
    );
    let v = gm.run(&["verify"]);
    assert_eq!(v.code, 1, "{}", v.stdout);
    assert!(
        v.stdout.contains("two ledgers share device"),
        "{}",
        v.stdout
    );
}

/// Someone holding a ledger file and its device's key re-signs one of the device's events
/// (here the same event, signed anew as before chains): every signature still checks out,
/// but the next number's signed link names the event that stood there, and `verify` says
/// where the chain breaks.
#[test]
fn a_replaced_event_breaks_its_devices_chain_in_verify() {
    let gm = Scratch::with_osric();
    gm.ok(&["advance", "1h"]);
    gm.ok(&["advance", "1h"]);
    assert!(gm.ok(&["verify"]).contains("the ledger is sound"));
    let events = log(&gm.db);
    let own = identity(&gm.db).0;
    let second = events
        .iter()
        .find(|e| e.device.to_string() == own && e.seq == 2)
        .unwrap()
        .clone();
    let sig = Store::open(&gm.db)
        .unwrap()
        .sign(&leechbook_store::codec::signing_bytes(&second));
    let conn = rusqlite::Connection::open(&gm.db).unwrap();
    conn.execute_batch("DROP TRIGGER events_no_update").unwrap();
    conn.execute(
        "UPDATE events SET signature = ?1 WHERE id = ?2",
        rusqlite::params![sig.to_vec(), second.id.0.as_bytes().as_slice()],
    )
    .unwrap();
    drop(conn);
    let v = gm.run(&["verify", "--full"]);
    assert_eq!(v.code, 1, "{}", v.stdout);
    assert!(
        v.stdout.contains("#3 does not follow its #2")
            && !v.stdout.contains("signature does not match"),
        "{}",
        v.stdout
    );
}

/// A sync file whose index slot holds a foreign automerge document of a few kilobytes that
/// loads to 300,000 operations (a text of that many characters) is refused before automerge
/// loads it, in one line, quickly, and the ledger is left as it was; so is a join file
/// carrying it.
#[test]
fn a_small_foreign_document_that_loads_huge_is_refused_before_it_loads() {
    let dir = tempfile::tempdir().unwrap();
    let gm = Scratch::with_osric();
    let player = Scratch::new();
    let join = dir.path().join("p.join");
    gm.ok(&["sync", "invite", join.to_str().unwrap()]);
    player.ok(&["init", "--join", join.to_str().unwrap()]);
    let mut bomb = automerge::Automerge::new();
    {
        use automerge::transaction::Transactable;
        let mut tx = bomb.transaction();
        let text = tx
            .put_object(automerge::ROOT, "t", automerge::ObjType::Text)
            .unwrap();
        tx.splice_text(&text, 0, 0, &"a".repeat(300_000)).unwrap();
        tx.commit();
    }
    let mut m = leechbook_sync::Mirror::new(ring_of(&gm.db));
    m.index = bomb;
    let file = dir.path().join("bomb.sync");
    let bytes = m.save();
    assert!(bytes.len() < 64 * 1024, "{} bytes", bytes.len());
    std::fs::write(&file, &bytes).unwrap();
    let before = player.bytes();
    let started = std::time::Instant::now();
    let out = player.run(&["sync", "import", file.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("no Leechbook document") && out.stderr.contains("more operations"),
        "{}",
        out.stderr
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(player.bytes(), before);
    // As a join file: refused the same way, and no ledger made.
    let ring = ring_of(&gm.db);
    let joined = dir.path().join("bomb.join");
    std::fs::write(&joined, ring.invitation(&bytes)).unwrap();
    let fresh = Scratch::new();
    let out = fresh.run(&["init", "--join", joined.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stderr.contains("no Leechbook document"),
        "{}",
        out.stderr
    );
    assert!(!fresh.db.exists());
}

/// Through the real npm sync server, a peer with no key puts a string of 300,000 characters
/// (a few kilobytes on the wire, 300,000 operations once loaded) into the campaign's index. A
/// device that syncs refuses it before the sync engine loads it, says so in a line, and moves
/// the campaign's documents on that hub to a fresh generation of ids within seconds; the GM's
/// device records the move, and nothing else of its record changed. The same data
/// pushed to a device serving as the hub (`sync serve`) closes that peer's connection, and
/// the hub's ledger stays whole and keeps serving.
#[test]
fn a_keyless_peers_document_that_loads_huge_is_refused_before_the_engine_loads_it() {
    let dir = tempfile::tempdir().unwrap();
    let Some(hub) = Hub::node(dir.path()) else {
        return; // not installed, and not CI: Hub::node said so
    };
    let url = hub.url().to_string();
    let [gm, p1, _p2] = table(dir.path(), &url);
    connect(&gm, &url);
    let held = log(&gm);
    let index = leechbook_sync::net::Places::of(&ring_of(&gm))
        .index()
        .to_string();
    hostile_peer(&url, &index, &["text", "padding", "300000"]);
    let started = std::time::Instant::now();
    let out = run_db(&gm, &["sync", "connect", &url, "--timeout", "30"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let moved: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("moved:"))
        .collect();
    assert_eq!(moved.len(), 1, "{}", out.stderr);
    assert!(
        moved[0].contains("no Leechbook device writes")
            && moved[0].contains("more operations")
            && moved[0].contains(&format!("document {index}"))
            && moved[0].contains("generation 1"),
        "{}",
        out.stderr
    );
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    let now = log(&gm);
    assert_eq!(now.len(), held.len() + 1);
    assert_eq!(now.last().unwrap().event.kind(), "roster.places");
    assert!(ok(&gm, &["verify", "--full"]).contains("the ledger is sound"));
    // The same data pushed to the GM's device serving as the hub: it closes that peer's
    // connection before its engine loads the data, says so, and serves on.
    let (served, stop, serve) = common::serving(&gm);
    let index_at_gm = leechbook_sync::net::Places::of(&ring_of(&gm))
        .index()
        .to_string();
    hostile_peer(&served, &index_at_gm, &["text", "padding", "300000"]);
    ok(&p1, &common::thorax_strike("Osric", "8", "shock=12"));
    assert_eq!(connect(&p1, &served).code, 0);
    stop.send(()).unwrap();
    let reports = serve.join().unwrap();
    assert!(
        reports.iter().any(|r| matches!(r,
            leechbook_sync::net::HubReport::Trouble(t) if t.contains("no Leechbook device writes"))),
        "{reports:?}"
    );
    assert_eq!(
        log(&gm).len(),
        held.len() + 2,
        "the player's strike came in"
    );
    let verified = ok(&gm, &["verify", "--full"]);
    assert!(verified.contains("the ledger is sound"), "{verified}");
}

/// Junk that claims a campaign key no rotation announces (the epoch is read before an entry
/// is authenticated, so anyone can write one) never refuses a sync file: it is listed once
/// as an entry that does not open, and the file's events land.
#[test]
fn junk_claiming_an_unannounced_key_never_refuses_a_sync_file() {
    let dir = tempfile::tempdir().unwrap();
    let (gm, player) = gm_and("player", dir.path());
    gm.ok(&STRIKE);
    let file = dir.path().join("gm.sync");
    gm.ok(&["sync", "export", file.to_str().unwrap()]);
    let mut m =
        leechbook_sync::Mirror::load(&std::fs::read(&file).unwrap(), ring_of(&gm.db)).unwrap();
    let mut junk = vec![leechbook_sync::crypt::SEALED, 0xE7, 0x03, 0, 0];
    junk.extend_from_slice(&[0x5a; 24 + 64 + 16]);
    let key = "fff0123456789abcdef0123456789abc";
    {
        use automerge::transaction::Transactable;
        let doc = m.volumes.values_mut().next().unwrap();
        let mut tx = doc.transaction();
        tx.put(automerge::ROOT, key, automerge::ScalarValue::Bytes(junk))
            .unwrap();
        tx.commit();
    }
    std::fs::write(&file, m.save()).unwrap();
    let out = player.run(&["sync", "import", file.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains(&format!("ignored entry {key}"))
            && out
                .stderr
                .contains("which no rotation signed by a GM device announces"),
        "{}",
        out.stderr
    );
    assert_eq!(log(&player.db), log(&gm.db));
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

/// Row 1 of the issue: a player plants a clock advance under the GM's device in her own
/// file, lets the binary record a strike on her character at day 10001, removes the planted
/// row and exports. On the GM's device the clock stays where the GM put it, the strike is
/// void and the import names it; the GM advances as before and `verify` is sound.
#[test]
fn a_player_cannot_move_the_gms_clock() {
    let dir = tempfile::tempdir().unwrap();
    let (gm, player) = gm_and("player", dir.path());
    let advance = sign_at(
        &player.db,
        Event::ClockAdvanced {
            to: leechbook_core::time::CampaignTime(10_000 * 86_400),
        },
        leechbook_core::time::CampaignTime(10_000 * 86_400),
    );
    // The player's device signed that advance, so its own fold voids it; planted under the
    // GM's device, it is read as the GM's.
    unplant(&player.db, advance.id);
    let planted = plant(&player.db, advance, device_of(&gm.db));
    player.ok(&STRIKE);
    let strike = log(&player.db)
        .into_iter()
        .find(|e| e.event.kind() == "hm.strike")
        .unwrap();
    assert_eq!(
        strike.at.day(),
        10_001,
        "the binary signed it at the planted clock"
    );
    unplant(&player.db, planted.id);
    let out = common::carry(&player.db, &gm.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr
            .contains(&format!("void: hm.strike {}", strike.id.short()))
            && out.stderr.contains("beyond the campaign clock"),
        "the import names it: {}",
        out.stderr
    );
    let ledger = Ledger::fold(&log(&gm.db));
    assert_eq!(ledger.now.0, 0, "the clock is the GM's");
    assert!(ledger.void.iter().any(|v| v.id == strike.id));
    assert_eq!(injuries(&gm.db, "Osric"), 0);
    let out = ok(&gm.db, &["advance", "1d"]);
    assert!(out.contains("day 2"), "{out}");
    let verified = ok(&gm.db, &["verify"]);
    assert!(verified.contains("the ledger is sound"), "{verified}");
    // At the last instant the clock holds, the same; past it, refused at import.
    let last = sign_at(
        &player.db,
        stun_try(&player.db, 50),
        leechbook_core::time::CampaignTime::LIMIT,
    );
    let out = common::carry(&player.db, &gm.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        Ledger::fold(&log(&gm.db))
            .void
            .iter()
            .any(|v| v.id == last.id),
        "{}",
        out.stderr
    );
    let beyond = sign_at(
        &player.db,
        stun_try(&player.db, 50),
        leechbook_core::time::CampaignTime(i64::MAX),
    );
    let out = common::carry(&player.db, &gm.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains(&beyond.id.short().to_string())
            && out.stderr.contains("ten thousand years"),
        "{}",
        out.stderr
    );
    assert!(!log(&gm.db).iter().any(|e| e.id == beyond.id));
    let out = ok(&gm.db, &["advance", "1d"]);
    assert!(out.contains("day 3"), "{out}");
    assert!(ok(&gm.db, &["show", "Osric"]).contains("Osric"));
    let verified = ok(&gm.db, &["verify", "--full"]);
    assert!(verified.contains("the ledger is sound"), "{verified}");
}

/// Row 3: any device ever on the roster, a revoked one included, signs one event whose
/// Lamport clock is 2^63-1 (or 2^47, within the bound but beyond any clock the campaign's
/// events reach). Refused at import and named; every device keeps recording, rulings
/// included, and `verify` is sound.
#[test]
fn no_clock_from_another_device_stops_the_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let (gm, other) = gm_and("gm", dir.path());
    gm.ok(&STRIKE);
    assert_eq!(common::carry(&gm.db, &other.db, dir.path()).code, 0);
    let (device, _) = identity(&other.db);
    ok(&gm.db, &["device", "revoke", &device]);
    let huge = forge(
        &other.db,
        Event::ClockAdvanced {
            to: leechbook_core::time::CampaignTime(86_400),
        },
        Some(i64::MAX as u64),
    );
    let ahead = forge(
        &other.db,
        Event::ClockAdvanced {
            to: leechbook_core::time::CampaignTime(2 * 86_400),
        },
        Some(1 << 47),
    );
    let out = common::carry(&other.db, &gm.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    for (e, why) in [(&huge, "Lamport clock"), (&ahead, "forged")] {
        assert!(
            out.stderr.contains(&format!("event {}", e.id.short())) && out.stderr.contains(why),
            "{}",
            out.stderr
        );
        assert!(!log(&gm.db).iter().any(|x| x.id == e.id));
    }
    gm.ok(&["advance", "1d"]);
    let strike = log(&gm.db)
        .into_iter()
        .find(|e| e.event.kind() == "hm.strike")
        .unwrap();
    let n = log(&gm.db).iter().position(|e| e.id == strike.id).unwrap() + 1;
    gm.ok(&[
        "retract",
        &n.to_string(),
        "--reason",
        "a test of the record",
    ]);
    assert_eq!(injuries(&gm.db, "Osric"), 0);
    assert!(ok(&gm.db, &["verify"]).contains("the ledger is sound"));
    // The device that holds them is told so, and still records.
    let out = other.run(&["verify"]);
    assert_ne!(out.code, 0);
    assert!(out.stdout.contains("forged"), "{}", out.stdout);
    other.ok(&["show", "Osric"]);
}

/// Row 5: an event under number 2^63-1 (or any number above its own clock) is told once as
/// its signer's forgery, never as billions of missing events, and no import takes it in.
#[test]
fn a_number_far_ahead_is_one_forgery_not_a_gap() {
    let dir = tempfile::tempdir().unwrap();
    let (gm, player) = gm_and("player", dir.path());
    let mut store = Store::open(&player.db).unwrap();
    let signer = Store::open(&player.db).unwrap();
    let mut w = store.write().unwrap();
    let mut env = w
        .prepare(
            stun_try(&player.db, 50),
            leechbook_core::time::CampaignTime(0),
            chrono::Utc::now(),
        )
        .unwrap();
    env.seq = i64::MAX as u64;
    let sig = signer.sign(&leechbook_store::codec::signed_message(&env));
    leechbook_store::codec::put_signature(&mut env, sig);
    w.append(&env).unwrap();
    w.commit().unwrap();
    let out = common::carry(&player.db, &gm.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains(&env.id.short().to_string()) && out.stderr.contains("forged"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("held back"), "{}", out.stderr);
    assert!(!log(&gm.db).iter().any(|x| x.id == env.id));
    assert!(ok(&gm.db, &["verify"]).contains("the ledger is sound"));
    let out = player.run(&["verify"]);
    assert_ne!(out.code, 0);
    let problems: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains(&env.id.to_string()) || l.contains("missing"))
        .collect();
    assert_eq!(problems.len(), 1, "told once: {}", out.stdout);
    assert!(problems[0].contains("forged"), "{}", out.stdout);
    // A second sync tells no missing numbers either.
    let out = common::carry(&player.db, &gm.db, dir.path());
    assert!(!out.stderr.contains("held back"), "{}", out.stderr);
}

/// Row 4, where the signature holds it: an event names the heads its device held, so a clock
/// set below one of them (to sort before the GM's roll its device had taken in) is refused
/// and named, and the GM's roll stands.
#[test]
fn an_event_cannot_sort_before_what_its_device_had_seen() {
    let dir = tempfile::tempdir().unwrap();
    let (gm, player) = gm_and("player", dir.path());
    gm.ok(&STRIKE);
    assert_eq!(common::carry(&gm.db, &player.db, dir.path()).code, 0);
    let gms = log(&gm.db).last().unwrap().clone();
    // Dated back, below the GM's strike it names as seen (the player's first event names
    // every device it held).
    let before = forge(&player.db, stun_try(&player.db, 1), Some(gms.clock - 1));
    let seen = leechbook_store::codec::seen(&before).unwrap();
    assert!(
        seen.iter().any(|(d, n)| *d == gms.device && *n == gms.seq),
        "it names the GM's strike as seen: {seen:?}"
    );
    let out = common::carry(&player.db, &gm.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains(&before.id.short().to_string())
            && out
                .stderr
                .contains("would sort before an event its device had taken in"),
        "{}",
        out.stderr
    );
    assert!(!log(&gm.db).iter().any(|x| x.id == before.id));
    assert_eq!(injuries(&gm.db, "Osric"), 1, "the GM's strike stands");
    // The player's honest event after it is taken in: her device keeps recording.
    let honest = sign_at(
        &player.db,
        stun_try(&player.db, 1),
        leechbook_core::time::CampaignTime(0),
    );
    let out = common::carry(&player.db, &gm.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        log(&gm.db).iter().any(|x| x.id == honest.id),
        "{}",
        out.stderr
    );
    // Pushed ahead: a clock that does not follow from what it names (the GM's advance it
    // had taken in, and its own previous number).
    gm.ok(&["advance", "1r"]);
    assert_eq!(common::carry(&gm.db, &player.db, dir.path()).code, 0);
    let pushed = forge(&player.db, stun_try(&player.db, 1), Some(honest.clock + 50));
    let out = common::carry(&player.db, &gm.db, dir.path());
    assert!(
        out.stderr.contains(&pushed.id.short().to_string())
            && out.stderr.contains("does not follow from what it names"),
        "{}",
        out.stderr
    );
    assert!(!log(&gm.db).iter().any(|x| x.id == pushed.id));
}

/// Row 6: a stun recovery test is tried once a round. A second try at the moment of a
/// failed one (a double tap on the page, a second face typed at once) is refused with the
/// time of the next try; after a round it is taken.
#[test]
fn a_stun_recovery_is_tried_once_a_round() {
    let s = Scratch::with_osric();
    stun_osric(&s);
    assert_eq!(s.show("Osric")["shock_state"], "STN");
    s.ok(&["roll", "Osric", "stun-recovery", "--dice", "roll=99"]);
    let out = s.run(&["roll", "Osric", "stun-recovery", "--dice", "roll=01"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stderr.contains("already rolled the stun recovery test")
            && out.stderr.contains("next try is due at day 1 00:00:10"),
        "{}",
        out.stderr
    );
    assert_eq!(s.show("Osric")["shock_state"], "STN");
    s.ok(&["advance", "1r"]);
    s.ok(&["roll", "Osric", "stun-recovery", "--dice", "roll=01"]);
    assert_eq!(s.show("Osric")["shock_state"], "none");
}

/// Row 4: a player saw the GM's failed stun recovery try, hid it in her own file and rolled
/// her own success at the same moment, clocked before the GM's. On the GM's device the GM's
/// roll stands: the player's is struck by the GM device's ruling (reversible), the sync says
/// so in a line naming both, and the player's device, told the same, keeps the GM's once it
/// takes the ruling in.
#[test]
fn the_gms_roll_stands_over_a_players_for_the_same_moment() {
    let dir = tempfile::tempdir().unwrap();
    let (gm, player) = gm_and("player", dir.path());
    stun_osric(&gm);
    assert_eq!(common::carry(&gm.db, &player.db, dir.path()).code, 0);
    gm.ok(&["roll", "Osric", "stun-recovery", "--dice", "roll=99"]);
    assert_eq!(common::carry(&gm.db, &player.db, dir.path()).code, 0);
    let gms = log(&gm.db).last().unwrap().clone();
    assert_eq!(gms.event.kind(), "hm.stun-recovery");
    unplant(&player.db, gms.id);
    player.ok(&["roll", "Osric", "stun-recovery", "--dice", "roll=01"]);
    let hers = log(&player.db)
        .into_iter()
        .find(|e| e.event.kind() == "hm.stun-recovery" && e.device != gms.device)
        .unwrap();
    assert!(
        hers.order_key() < gms.order_key() || hers.clock <= gms.clock,
        "hers claims to come first"
    );
    let out = common::carry(&player.db, &gm.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let line = out
        .stderr
        .lines()
        .find(|l| l.starts_with("contest:"))
        .unwrap_or_else(|| panic!("one line names the contest: {}", out.stderr));
    assert!(
        line.contains(&gms.id.short().to_string())
            && line.contains(&hers.id.short().to_string())
            && line.contains(&format!("the GM's {} stands", gms.id.short())),
        "{line}"
    );
    assert_eq!(
        gm.show("Osric")["shock_state"],
        "STN",
        "the GM's failure stands"
    );
    let ledger = Ledger::fold(&log(&gm.db));
    // Their clocks tie (each one past the GM's shock reroll), so the device ids order them:
    // where hers sorts first the GM's device strikes it, else the fold voids it.
    if hers.order_key() < gms.order_key() {
        assert!(
            ledger
                .retracted
                .iter()
                .any(|(x, _, why)| *x == hers.id && why.contains("overruled")),
            "{:?}",
            ledger.retracted
        );
        assert!(line.contains("struck by this GM device's ruling"), "{line}");
    } else {
        assert!(ledger.void.iter().any(|v| v.id == hers.id));
    }
    assert!(!ledger.void.iter().any(|v| v.id == gms.id));
    // The next sync brings nothing new to settle.
    let out = common::carry(&player.db, &gm.db, dir.path());
    assert!(!out.stderr.contains("contest:"), "{}", out.stderr);
    // The player's device takes the ruling in: the GM's roll stands there too.
    let out = common::carry(&gm.db, &player.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(player.show("Osric")["shock_state"], "STN");
    assert!(ok(&gm.db, &["verify", "--full"]).contains("the ledger is sound"));
}

/// The same contest made honestly: after the GM's advance, the player rolls her stun
/// recovery on her phone while the GM records another event and then rolls it too. Hers
/// sorts first (her clock is lower), so the fold kept hers; the GM's device strikes it by a
/// ruling when it takes it in, naming both, and `reinstate` undoes that like any ruling.
#[test]
fn a_gm_device_strikes_a_concurrent_players_roll_for_the_same_moment() {
    let dir = tempfile::tempdir().unwrap();
    let (gm, player) = gm_and("player", dir.path());
    stun_osric(&gm);
    gm.ok(&["advance", "1r"]);
    assert_eq!(common::carry(&gm.db, &player.db, dir.path()).code, 0);
    player.ok(&["roll", "Osric", "stun-recovery", "--dice", "roll=01"]);
    gm.ok(&[
        "character",
        "add",
        "Wat",
        "--str",
        "10",
        "--end",
        "10",
        "--shock",
        "50",
        "--hb",
        "10",
    ]);
    gm.ok(&["roll", "Osric", "stun-recovery", "--dice", "roll=99"]);
    let gms = log(&gm.db).last().unwrap().clone();
    let hers = log(&player.db).last().unwrap().clone();
    assert!(hers.order_key() < gms.order_key());
    let out = common::carry(&player.db, &gm.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let line = out
        .stderr
        .lines()
        .find(|l| l.starts_with("contest:"))
        .unwrap_or_else(|| panic!("one line names the contest: {}", out.stderr));
    assert!(
        line.contains(&format!("the GM's {} stands", gms.id.short()))
            && line.contains(&format!(
                "{} struck by this GM device's ruling",
                hers.id.short()
            )),
        "{line}"
    );
    assert_eq!(
        gm.show("Osric")["shock_state"],
        "STN",
        "the GM's failure stands"
    );
    // The player's device hears the same once it takes the ruling in.
    let out = common::carry(&gm.db, &player.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(player.show("Osric")["shock_state"], "STN");
    // Reversible as any ruling: reinstating hers lets it stand again (and the GM's is void).
    assert_eq!(log(&gm.db).last().unwrap().event.kind(), "ruling.retract");
    gm.ok(&[
        "reinstate",
        &hers.id.to_string(),
        "--reason",
        "her roll was first at the table",
    ]);
    assert_eq!(gm.show("Osric")["shock_state"], "none");
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

/// Issue 38, item 5: junk squatted into the campaign's index on a hub (tens of thousands of
/// short keys, in changes each small enough to pass a connection's meter) and kept by an
/// earlier version never reaches what the GM's device writes: its join file and sync file
/// are taken, and the kept index is built anew from the log.
#[test]
fn a_squatted_index_never_reaches_a_join_file_or_a_sync_file() {
    use automerge::transaction::Transactable;
    let dir = tempfile::tempdir().unwrap();
    let (gm, player) = gm_and("player", dir.path());
    gm.ok(&STRIKE);
    let mut store = Store::open(&gm.db).unwrap();
    let whole = store.sync_state("doc:index").unwrap().unwrap();
    let mut doc = automerge::Automerge::load(&whole).unwrap();
    if let Some(appended) = store.sync_state("doc+:index").unwrap() {
        doc.load_incremental(&appended).unwrap();
    }
    let heads = doc.get_heads();
    let mut junk = doc.fork();
    for chunk in 0..30 {
        let mut tx = junk.transaction();
        for k in 0..1000 {
            tx.put(automerge::ROOT, format!("j{chunk:02}{k:04}"), 0i64)
                .unwrap();
        }
        tx.commit();
    }
    // The premise: each change passes a connection's meter, the whole does not.
    for change in junk.get_changes(&heads) {
        assert!(leechbook_sync::bound::check(change.raw_bytes()).is_ok());
    }
    assert!(leechbook_sync::bound::check(&junk.save()).is_err());
    store.put_sync_state("doc:index", &junk.save()).unwrap();
    store.put_sync_state("doc+:index", &[]).unwrap();
    drop(store);
    // The GM's join file and sync file are taken whole.
    let join = dir.path().join("after.join");
    gm.ok(&["sync", "invite", join.to_str().unwrap()]);
    let newcomer = Scratch::new();
    newcomer.ok(&["init", "--join", join.to_str().unwrap()]);
    assert_eq!(injuries(&newcomer.db, "Osric"), 1);
    let out = common::carry(&gm.db, &player.db, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(injuries(&player.db, "Osric"), 1);
    // What the GM's device keeps is a Leechbook index again.
    let store = Store::open(&gm.db).unwrap();
    let kept =
        automerge::Automerge::load(&store.sync_state("doc:index").unwrap().unwrap()).unwrap();
    assert!(leechbook_sync::bound::admit(&kept).is_ok());
    assert!(ok(&gm.db, &["verify"]).contains("sound"));
}

/// The same squat on a real hub (the npm sync server): junk keys pushed into the campaign's
/// index there. Nothing of it is read or kept: each device's sync says so in one line and
/// moves the campaign's documents on that hub to a fresh generation of ids (derived from the
/// campaign's secret, which the operator does not hold), the GM's device puts the move on the
/// record, and the table syncs there, a newcomer joining by code included.
#[test]
fn a_squatted_index_on_a_hub_is_never_kept_and_the_table_moves_past_it() {
    use automerge::transaction::Transactable;
    let dir = tempfile::tempdir().unwrap();
    let Some(hub) = Hub::node(dir.path()) else {
        return; // not installed, and not CI: Hub::node said so
    };
    let [gm, p1, _p2] = common::table(dir.path(), hub.url(), &["Osric", "Wat"], ["Osric", "Wat"]);
    {
        let store = Store::open(&gm).unwrap();
        let mut index = layout::load_kept(&store, "index").unwrap().unwrap().doc;
        for chunk in 0..30 {
            let mut tx = index.transaction();
            for k in 0..1000 {
                tx.put(automerge::ROOT, format!("j{chunk:02}{k:04}"), 0i64)
                    .unwrap();
            }
            tx.commit();
        }
        let mut m = leechbook_sync::Mirror::new(ring_of(&gm));
        m.index = index;
        leechbook_sync::net::push(hub.url(), &mut m, Duration::from_secs(30)).unwrap();
    }
    ok(&gm, &common::thorax_strike("Osric", "6", "shock=12"));
    let out = run_db(&gm, &["sync", "connect", hub.url()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("holds the campaign's index as a document no Leechbook device writes")
            && out
                .stderr
                .contains("moved the campaign's documents on that hub to generation 1"),
        "{}",
        out.stderr
    );
    assert!(log(&gm).iter().any(|e| e.event.kind() == "roster.places"));
    let kept = layout::load_kept(&Store::open(&gm).unwrap(), "index")
        .unwrap()
        .unwrap();
    assert!(
        leechbook_sync::bound::admit(&kept.doc).is_ok(),
        "nothing of the junk was kept"
    );
    // Once moved, a sync says nothing more of it (and carries the record of the move).
    let out = run_db(&gm, &["sync", "connect", hub.url()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stderr.contains("moved"), "{}", out.stderr);
    // A player's device meets the same squat and follows; it takes the GM's strike and the
    // record of the move.
    let out = run_db(&p1, &["sync", "connect", hub.url()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("generation 1"), "{}", out.stderr);
    assert_eq!(injuries(&p1, "Osric"), 1);
    assert!(log(&p1).iter().any(|e| e.event.kind() == "roster.places"));
    // A newcomer joining by code finds the campaign where the table moved.
    let code = join_code(&gm);
    let newcomer = Scratch::new();
    newcomer.ok(&["init", "--join", hub.url(), "--campaign", &code]);
    assert_eq!(injuries(&newcomer.db, "Osric"), 1);
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

/// The ceiling counts only what an import takes in: a file padded with thousands of events
/// refused on the way (out of bounds) raises no ceiling for the one clocked past it, and a
/// number dated forward past the successor this ledger holds is refused.
#[test]
fn padding_a_file_raises_no_ceiling_and_no_number_floats_past_its_successor() {
    let dir = tempfile::tempdir().unwrap();
    let (gm, player) = gm_and("player", dir.path());
    let gm_device = device_of(&gm.db);
    let n = log(&gm.db).len() as u64;
    let mut store = Store::open(&player.db).unwrap();
    let mut w = store.write().unwrap();
    let base = w
        .prepare(
            stun_try(&player.db, 50),
            leechbook_core::time::CampaignTime(0),
            chrono::Utc::now(),
        )
        .unwrap();
    drop(w);
    drop(store);
    let mut padded = Vec::new();
    for i in 0..3_000u64 {
        let mut e = base.clone();
        e.id = leechbook_core::ids::EventId(uuid::Uuid::now_v7());
        e.seq = 2 + i;
        e.clock = 0; // out of bounds: refused
        resign_naming(&player.db, &mut e, &[]);
        padded.push(e);
    }
    // Under the ceiling a padded count would allow, over the honest one; it names a head the
    // GM does not hold, so only the ceiling can refuse it.
    let mut far = base.clone();
    far.clock = leechbook_core::clock_ceiling(n + 1) + 100;
    resign_naming(&player.db, &mut far, &[(gm_device, 999)]);
    padded.push(far.clone());
    let mut m = leechbook_sync::Mirror::new(ring_of(&gm.db));
    m.add(&padded).unwrap();
    let file = dir.path().join("padded.sync");
    std::fs::write(&file, m.save()).unwrap();
    let out = gm.run(&["sync", "import", file.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains(&format!("event {}", far.id.short()))
            && out.stderr.contains("no device's clock runs that far ahead"),
        "{}",
        out.stderr.lines().last().unwrap_or_default()
    );
    assert!(!log(&gm.db).iter().any(|e| e.id == far.id));
    gm.ok(&["advance", "1d"]);
    assert!(ok(&gm.db, &["verify", "--full"]).contains("the ledger is sound"));
    // A number arriving after the one above it, clocked past it: dated forward, refused
    // (else every device would clock after it, and it would float past the GM's clock).
    let a = sign_at(
        &player.db,
        stun_try(&player.db, 50),
        leechbook_core::time::CampaignTime(0),
    );
    let b = sign_at(
        &player.db,
        stun_try(&player.db, 51),
        leechbook_core::time::CampaignTime(0),
    );
    let send = |events: &[Envelope], name: &str| {
        let mut m = leechbook_sync::Mirror::new(ring_of(&gm.db));
        m.add(events).unwrap();
        let file = dir.path().join(name);
        std::fs::write(&file, m.save()).unwrap();
        gm.run(&["sync", "import", file.to_str().unwrap()])
    };
    // (The padded and far events above are the player's own #2..: the player's ledger
    // numbers a and b after them; the GM holds none of its numbers yet.)
    let out = send(std::slice::from_ref(&b), "b.sync");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut forward = a.clone();
    forward.clock = b.clock + 10;
    // (Naming a head the GM does not hold, so that only its successor can refuse it.)
    resign_naming(&player.db, &mut forward, &[(gm_device, 999)]);
    let out = send(std::slice::from_ref(&forward), "a.sync");
    assert!(
        out.stderr.contains(&forward.id.short().to_string())
            && out.stderr.contains("dated forward"),
        "{}",
        out.stderr
    );
    assert!(!log(&gm.db).iter().any(|e| e.id == forward.id));
}
