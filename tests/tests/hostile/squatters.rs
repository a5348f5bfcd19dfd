//! A hub or a file that squats the campaign's index, and a file padded with refused events.

use super::*;

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
