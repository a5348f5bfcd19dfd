//! A keyless peer on the hub, a copied ledger's chain, a replaced event, documents that load
//! huge, junk claiming a key not yet announced.

use super::*;

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
        out.stderr.contains(&format!("void: #{}: ", strike.clock))
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
