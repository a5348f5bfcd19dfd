//! Sync over the network: a GM and two players meet through a hub (the real npm
//! automerge-repo sync server, a relay, or the GM's own device serving) and end with
//! identical logs and folds; forged events pushed to the open hub are refused and reported
//! while the rest still land.

use crate::common;
use common::{add_character, connect, identity, join_code, run_db, serving, Hub};
use leechbook_core::fold::Ledger;
use leechbook_core::Envelope;
use leechbook_store::Store;
use std::path::{Path, PathBuf};

fn ok(db: &Path, args: &[&str]) -> String {
    let out = run_db(db, args);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    out.stdout
}

fn log(db: &Path) -> Vec<Envelope> {
    Store::open(db).unwrap().events().unwrap()
}

/// The GM with Osric and Brannoc, and a player for each.
fn table(dir: &Path, url: &str) -> [PathBuf; 3] {
    common::table(dir, url, &["Osric", "Brannoc"], ["Osric", "Brannoc"])
}

/// Each player strikes their character offline and the GM moves the clock; then everyone
/// syncs until all three hold the same log and fold the same state.
fn play_offline_then_meet(url: &str, [gm, p1, p2]: &[PathBuf; 3]) {
    ok(p1, &common::thorax_strike("Osric", "8", "shock=12"));
    ok(p2, &common::thorax_strike("Brannoc", "11", "shock=30"));
    ok(gm, &["advance", "1h"]);
    for db in [gm, p1, p2, gm, p1] {
        connect(db, url);
    }
    let logs: Vec<Vec<Envelope>> = [gm, p1, p2].map(|d| log(d)).into();
    assert_eq!(logs[0], logs[1]);
    assert_eq!(logs[1], logs[2]);
    let strikes = logs[0]
        .iter()
        .filter(|e| e.event.kind() == "hm.strike")
        .count();
    assert_eq!(strikes, 2, "both players' strikes reached everyone");
    let states: Vec<Ledger> = logs.iter().map(|l| Ledger::fold(l)).collect();
    assert!(states[0] == states[1] && states[1] == states[2]);
    // The players' strikes are in force on the GM's device (signed, in role).
    let osric: serde_json::Value =
        serde_json::from_str(&ok(gm, &["show", "Osric", "--json"])).unwrap();
    assert_eq!(
        osric["injuries"].as_array().map(Vec::len),
        Some(1),
        "{osric}"
    );
    // Syncing again changes nothing.
    for db in [gm, p1, p2] {
        let before = log(db);
        let out = connect(db, url);
        assert!(
            out.stdout.contains("took in 0 new events"),
            "{}",
            out.stdout
        );
        assert_eq!(log(db), before);
    }
}

#[test]
fn a_gm_and_two_players_sync_through_the_automerge_repo_sync_server() {
    let dir = tempfile::tempdir().unwrap();
    let Some(hub) = Hub::node(dir.path()) else {
        return;
    };
    let dbs = table(dir.path(), hub.url());
    play_offline_then_meet(hub.url(), &dbs);
}

#[test]
fn a_gm_and_two_players_sync_through_a_relay() {
    let dir = tempfile::tempdir().unwrap();
    let hub = Hub::relay();
    let dbs = table(dir.path(), hub.url());
    play_offline_then_meet(hub.url(), &dbs);
}

/// Polls until `f` holds, for at most twenty seconds.
fn eventually(what: &str, f: impl Fn() -> bool) {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !f() {
        assert!(std::time::Instant::now() < until, "{what} never happened");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn the_gm_device_serving_as_hub_takes_in_and_offers_as_it_goes() {
    let dir = tempfile::tempdir().unwrap();
    let gm = dir.path().join("gm.db");
    let p1 = dir.path().join("p1.db");
    ok(&gm, &["init", "--name", "Kaldor"]);
    add_character(&gm, "Osric");
    let (url, stop, hub) = serving(&gm);
    let campaign = join_code(&gm);
    ok(&p1, &["init", "--join", &url, "--campaign", &campaign]);
    let (device, key) = identity(&p1);
    // The GM goes on recording while serving: the hub offers it to the player.
    ok(
        &gm,
        &[
            "device",
            "add",
            &device,
            &key,
            "--role",
            "player",
            "--character",
            "Osric",
        ],
    );
    // The hub looks at the ledger every 50 ms: a player who connects a moment after the
    // GM rosters them takes the roster in at once (it took a second connect when the hub
    // looked every 250 ms).
    std::thread::sleep(std::time::Duration::from_millis(150));
    connect(&p1, &url);
    assert!(ok(&p1, &["device", "show"]).contains("role   player"));
    // The player's strike lands in the GM's ledger without the GM doing anything.
    ok(&p1, &common::thorax_strike("Osric", "8", "shock=12"));
    connect(&p1, &url);
    eventually("the strike reaching the GM", || log(&gm) == log(&p1));
    stop.send(()).unwrap();
    let reports = hub.join().unwrap();
    use leechbook_sync::net::HubReport;
    assert!(matches!(&reports[0], HubReport::Listening { .. }));
    assert!(reports
        .iter()
        .any(|r| matches!(r, HubReport::Offered(n) if *n >= 1)));
    assert!(reports
        .iter()
        .any(|r| matches!(r, HubReport::TookIn(i) if i.added >= 1 && i.refused.is_empty())));
}

/// Issue 29, item 3: a device watching the hub (`sync connect --watch`) over one
/// connection takes in what the GM records while serving, and sends what it records, each
/// without a new `sync connect`; a round that moved nothing is not reported.
#[test]
fn a_watching_device_stays_in_sync_both_ways_without_connecting_again() {
    let dir = tempfile::tempdir().unwrap();
    let gm = dir.path().join("gm.db");
    let p1 = dir.path().join("p1.db");
    ok(&gm, &["init", "--name", "Kaldor"]);
    add_character(&gm, "Osric");
    let (url, stop, hub) = serving(&gm);
    let campaign = join_code(&gm);
    ok(&p1, &["init", "--join", &url, "--campaign", &campaign]);
    let (device, key) = identity(&p1);
    let (quit, quitting) = futures::channel::oneshot::channel::<()>();
    let (watch_url, watched) = (url.clone(), p1.clone());
    let watcher = std::thread::spawn(move || {
        let mut store = Store::open(&watched).unwrap();
        let mut rounds = Vec::new();
        leechbook_sync::net::watch(
            &mut store,
            &watch_url,
            std::time::Duration::from_secs(20),
            std::time::Duration::from_millis(100),
            async {
                let _ = quitting.await;
            },
            &mut |d| rounds.push(d.imported.added),
        )
        .unwrap();
        rounds
    });
    // The GM rosters the player while serving: it reaches the watching player.
    ok(
        &gm,
        &[
            "device",
            "add",
            &device,
            &key,
            "--role",
            "player",
            "--character",
            "Osric",
        ],
    );
    eventually("the roster reaching the watching player", || {
        ok(&p1, &["device", "show"]).contains("role   player")
    });
    // The player's strike reaches the GM; the GM's clock reaches the player.
    ok(&p1, &common::thorax_strike("Osric", "8", "shock=12"));
    eventually("the player's strike reaching the GM", || {
        log(&gm).len() == log(&p1).len()
    });
    ok(&gm, &["advance", "1m", "--skip-owed"]);
    eventually("the GM's advance reaching the player", || {
        log(&gm) == log(&p1)
    });
    quit.send(()).unwrap();
    let rounds = watcher.join().unwrap();
    // The first round, then one per change that came in (the roster and the advance), and
    // one per change that went out.
    assert!(rounds.iter().filter(|n| **n > 0).count() >= 2, "{rounds:?}");
    stop.send(()).unwrap();
    hub.join().unwrap();
}

/// The player records a strike; a forger copies it, changes its time and keeps the
/// signature, and replays the GM's first event under a new id: both go onto the hub.
/// Returns the genuine strike and the two forgeries.
fn forge_onto_hub(p1: &Path, url: &str) -> (Envelope, Envelope, Envelope) {
    ok(p1, &common::thorax_strike("Osric", "8", "shock=12"));
    let mut events = log(p1);
    let strike = events
        .iter()
        .find(|e| e.event.kind() == "hm.strike")
        .unwrap()
        .clone();
    let mut tampered = strike.clone();
    tampered.id = leechbook_core::ids::EventId(uuid::Uuid::now_v7());
    tampered.at = leechbook_core::time::CampaignTime(tampered.at.0 + 60);
    let mut replayed = events[0].clone();
    replayed.id = leechbook_core::ids::EventId(uuid::Uuid::now_v7());
    events.push(tampered.clone());
    events.push(replayed.clone());
    let ring = common::ring_of(p1);
    let mut mirror = leechbook_sync::Mirror::new(ring);
    mirror.add(&events).unwrap();
    leechbook_sync::net::push(url, &mut mirror, std::time::Duration::from_secs(20)).unwrap();
    (strike, tampered, replayed)
}

/// Issue 12, item 24: an event refused on import never enters the device's own sync
/// document: its next sync file holds neither forgery and the GM takes it whole, and the hub
/// no longer offers them to a device that joins later.
#[test]
fn a_refused_event_never_spreads_from_a_device_that_met_it() {
    let dir = tempfile::tempdir().unwrap();
    let hub = Hub::relay();
    let [gm, p1, p2] = table(dir.path(), hub.url());
    let (strike, tampered, replayed) = forge_onto_hub(&p1, hub.url());
    let out = connect(&p2, hub.url());
    assert!(out.stderr.contains("tampered or forged"), "{}", out.stderr);
    let file = dir.path().join("p2.sync");
    ok(&p2, &["sync", "export", file.to_str().unwrap()]);
    let sent =
        leechbook_sync::Mirror::load(&std::fs::read(&file).unwrap(), common::ring_of(&p2)).unwrap();
    let ids: Vec<_> = sent.envelopes().unwrap().iter().map(|e| e.id).collect();
    assert!(ids.contains(&strike.id));
    assert!(!ids.contains(&tampered.id) && !ids.contains(&replayed.id));
    let out = run_db(&gm, &["sync", "import", file.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(log(&gm).iter().any(|e| e.id == strike.id));
    // The hub took p2's deletions: a device joining now meets no forgery.
    let p3 = dir.path().join("p3.db");
    let out = run_db(
        &p3,
        &["init", "--join", hub.url(), "--campaign", &join_code(&gm)],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stderr.contains("refused"), "{}", out.stderr);
    assert!(ok(&p2, &["verify"]).contains("the ledger is sound"));
}

#[test]
fn forged_events_on_an_open_hub_are_refused_and_reported_and_the_rest_land() {
    let dir = tempfile::tempdir().unwrap();
    let hub = Hub::relay();
    let [gm, p1, _p2] = table(dir.path(), hub.url());
    let (strike, tampered, replayed) = forge_onto_hub(&p1, hub.url());
    // The GM takes in the genuine strike and refuses the two forgeries, naming them.
    let out = connect(&gm, hub.url());
    assert!(out.stdout.contains("took in 1 new event"), "{}", out.stdout);
    for forged in [&tampered, &replayed] {
        assert!(
            out.stderr.contains(&format!(
                "refused: the sync data holds event {} whose signature does not match its bytes (tampered or forged)",
                forged.id.short()
            )),
            "{}",
            out.stderr
        );
    }
    let held = log(&gm);
    assert!(held.iter().any(|e| e.id == strike.id));
    assert!(!held
        .iter()
        .any(|e| e.id == tampered.id || e.id == replayed.id));
    // And the refusal is reported again on the next sync, never silently taken.
    let again = connect(&gm, hub.url());
    assert!(
        again.stderr.contains("tampered or forged"),
        "{}",
        again.stderr
    );
    assert_eq!(log(&gm), held);
}

#[test]
fn a_hub_that_is_not_there_or_a_bad_address_is_one_line_and_changes_nothing() {
    let s = common::Scratch::with_osric();
    let dead = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let before = s.bytes();
    for (url, says) in [
        (
            format!("ws://{dead}"),
            "could not reach a sync hub at ws://",
        ),
        (
            "http://example.invalid:3030".to_string(),
            "is not a WebSocket address",
        ),
        ("not a url".to_string(), "is not a WebSocket address"),
    ] {
        let out = s.run(&["sync", "connect", &url, "--timeout", "5"]);
        assert_eq!(out.code, 1, "{url}: {}", out.stderr);
        assert!(out.stderr.contains(says), "{url}: {}", out.stderr);
        assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
        assert_eq!(s.bytes(), before, "{url} changed the ledger");
    }
    // Joining from a hub that is not there leaves no ledger behind.
    let fresh = common::Scratch::new();
    let campaign = join_code(&s.db);
    let url = format!("ws://{dead}");
    let out = fresh.run(&["init", "--join", &url, "--campaign", &campaign]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("could not reach a sync hub"),
        "{}",
        out.stderr
    );
    assert!(!fresh.db.exists());
}

/// Two devices whose new events cross a volume's boundary (a device's #4096 and #4097 fall
/// in different documents) converge through a hub that starts empty: every volume goes up,
/// the full ones and the new ones, and each side takes exactly what it lacks.
#[test]
fn devices_whose_events_cross_a_volume_boundary_converge_through_a_hub() {
    use leechbook_sync::layout::{VolumeId, VOLUME};
    let (n, d) = (22_000usize, 600usize);
    let signed = leechbook_bench::sync::signed_log(n, 2 * d);
    let (base, tails) = signed.split_at(n - 2 * d);
    let (x, y) = tails.split_at(d);
    assert!(
        tails.iter().any(|e| e.seq == VOLUME) && tails.iter().any(|e| e.seq == VOLUME + 1),
        "the tails cross a volume boundary"
    );
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.db"), dir.path().join("b.db"));
    {
        let mut store = Store::create_joining(&a, signed[0].campaign).unwrap();
        store.import(base).unwrap();
        let ring = leechbook_sync::Keyring::generate(signed[0].campaign);
        leechbook_sync::crypt::keep_keyring(&mut store, &ring).unwrap();
    }
    std::fs::copy(&a, &b).unwrap();
    for (p, tail) in [(&a, x), (&b, y)] {
        Store::open(p).unwrap().import(tail).unwrap();
    }
    let hub = Hub::relay();
    for p in [&a, &b, &a] {
        let mut store = Store::open(p).unwrap();
        leechbook_sync::net::sync_with(&mut store, hub.url(), std::time::Duration::from_secs(120))
            .unwrap();
    }
    let (la, lb) = (log(&a), log(&b));
    assert_eq!(la.len(), n);
    assert_eq!(la, lb);
    let volumes: std::collections::BTreeSet<VolumeId> = la.iter().map(VolumeId::of).collect();
    assert!(volumes.iter().any(|v| v.number == 1));
}

/// Revoking a device while the GM serves: the rotation reaches the devices still on the
/// roster through the hub, and what the GM records after it stays unreadable to the revoked
/// device, which is told so and takes nothing of it in.
#[test]
fn a_revocation_while_serving_rotates_the_key_for_the_others_only() {
    let dir = tempfile::tempdir().unwrap();
    let gm = dir.path().join("gm.db");
    let [p1, p2] = ["p1", "p2"].map(|n| dir.path().join(format!("{n}.db")));
    ok(&gm, &["init", "--name", "Kaldor"]);
    add_character(&gm, "Osric");
    let (url, stop, hub) = serving(&gm);
    let code = join_code(&gm);
    for p in [&p1, &p2] {
        ok(p, &["init", "--join", &url, "--campaign", &code]);
        let (device, key) = identity(p);
        ok(&gm, &["device", "add", &device, &key, "--role", "gm"]);
    }
    for p in [&p1, &p2] {
        eventually("the roster reaching the device", || {
            connect(p, &url);
            ok(p, &["device", "show"]).contains("role   GM")
        });
    }
    let (p2_id, _) = identity(&p2);
    ok(&gm, &["device", "revoke", &p2_id]);
    ok(&gm, &common::thorax_strike("Osric", "8", "shock=12"));
    let strike = log(&gm)
        .into_iter()
        .find(|e| e.event.kind() == "hm.strike")
        .unwrap();
    eventually("the strike reaching p1 under the new key", || {
        connect(&p1, &url);
        log(&p1).iter().any(|e| e.id == strike.id)
    });
    // The revoked device is told, in a line, and the sync exits non-zero.
    let out = run_db(&p2, &["sync", "connect", &url, "--timeout", "20"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("does not hold"), "{}", out.stderr);
    assert!(
        out.stderr
            .lines()
            .any(|l| l.starts_with("error: this device (")
                && l.contains("was left out of the campaign key's rotation by GM device")),
        "{}",
        out.stderr
    );
    assert!(log(&p2).iter().all(|e| e.id != strike.id));
    stop.send(()).unwrap();
    hub.join().unwrap();
}
