//! A hub or a peer that tampers with the campaign's documents: junk, deleted and withheld
//! entries, raised counts, a hub that dies mid-push.

use super::*;

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
