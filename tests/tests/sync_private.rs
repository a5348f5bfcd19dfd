//! Issue 14: a campaign is private from the hubs and files it travels through. Events leave a
//! ledger sealed under the campaign's key; the key reaches a new device in the GM's invitation;
//! revoking a device rotates the key; a wrong or missing key is one clear line and nothing
//! written.

use crate::common;
use common::{identity, ring_of, run_db, Hub, Scratch};
use leechbook_store::codec::decode_envelope;
use leechbook_store::Store;
use std::path::Path;

const STRIKE: [&str; 10] = common::thorax_strike("Osric", "6", "shock=12");

/// Every value of an automerge document (a sync file, or what a hub stored), by root key.
fn values(doc: &automerge::Automerge) -> Vec<(String, Vec<u8>)> {
    use automerge::ReadDoc;
    doc.keys(automerge::ROOT)
        .filter_map(|k| match doc.get(automerge::ROOT, k.as_str()).ok()?? {
            (automerge::Value::Scalar(s), _) => match s.as_ref() {
                automerge::ScalarValue::Bytes(b) => Some((k, b.clone())),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// Checks that a document shows nothing in clear: every value is sealed and padded to a size
/// class (none decodes as an envelope, none holds a name of the campaign), every key is a
/// digest, and the GM's keys open each event entry to exactly the event the GM's log holds
/// under that entry key.
fn holds_nothing_in_clear(doc: &automerge::Automerge, gm: &Path, names: &[&str]) {
    let log = Store::open(gm).unwrap().events().unwrap();
    let ring = ring_of(gm);
    let keys = leechbook_sync::layout::Names::of(&ring);
    let entries: Vec<_> = values(doc)
        .into_iter()
        .filter(|(k, _)| !k.starts_with("keys/"))
        .collect();
    assert!(
        !entries.is_empty(),
        "the document holds the campaign's events"
    );
    let mut opened = 0;
    for (key, value) in &entries {
        assert_eq!(value[0], leechbook_sync::crypt::SEALED, "{key} is sealed");
        // Tag, nonce, epoch and codec byte aside, a size class: a power of two from 64, or
        // a multiple of 4096.
        let body = value.len() - (1 + 4 + 24 + 16);
        assert!(
            body >= 64 && (body.is_power_of_two() || body % 4096 == 0),
            "{key}'s sealed size {body} is a size class"
        );
        let digest = key.strip_prefix("head/").unwrap_or(key);
        assert!(
            digest.len() == 32 && digest.bytes().all(|b| b.is_ascii_hexdigit()),
            "{key} is a digest"
        );
        assert!(
            decode_envelope(value).is_err(),
            "{key} does not decode as it is"
        );
        for name in names {
            assert!(
                !value.windows(name.len()).any(|w| w == name.as_bytes()),
                "{name} shows in {key}"
            );
        }
        if let Some(held) = log.iter().find(|e| keys.entry_of(e) == *key) {
            let opened_as = decode_envelope(&ring.open(key, value).unwrap()).unwrap();
            assert_eq!(
                &opened_as, held,
                "the GM's keys open {key} to the log's event"
            );
            opened += 1;
        }
    }
    assert_eq!(opened, log.len(), "every event of the log is there, sealed");
}

/// Joins `player` to `gm`'s campaign from a join file and rosters it as a player of Osric.
fn join(gm: &Scratch, player: &Scratch, dir: &Path, name: &str) {
    let file = dir.join(format!("{name}.join"));
    gm.ok(&["sync", "invite", file.to_str().unwrap()]);
    player.ok(&["init", "--join", file.to_str().unwrap()]);
    let (device, key) = identity(&player.db);
    gm.ok(&["device", "add", &device, &key, "--role", "gm"]);
}

#[test]
fn a_sync_file_shows_no_event_in_clear() {
    let gm = Scratch::with_osric();
    gm.ok(&STRIKE);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.sync");
    gm.ok(&["sync", "export", file.to_str().unwrap()]);
    let bytes = std::fs::read(&file).unwrap();
    assert!(!bytes.windows(5).any(|w| w == b"Osric"));
    // The file's documents, merged as one (reading its layout needs no key).
    let m = leechbook_sync::Mirror::load(&bytes, ring_of(&gm.db)).unwrap();
    let mut doc = m.index.clone();
    for v in m.volumes.values() {
        doc.merge(&mut v.clone()).unwrap();
    }
    holds_nothing_in_clear(&doc, &gm.db, &["Osric"]);
}

/// The real npm automerge-repo sync server: after a GM and a player sync through it, the
/// bytes it stored hold no event in clear.
#[test]
fn the_sync_servers_stored_bytes_hold_no_event_in_clear() {
    let dir = tempfile::tempdir().unwrap();
    let Some(hub) = Hub::node(dir.path()) else {
        return;
    };
    let gm = dir.path().join("gm.db");
    assert_eq!(run_db(&gm, &["init", "--name", "Kaldor"]).code, 0);
    assert_eq!(run_db(&gm, &common::OSRIC).code, 0);
    assert_eq!(run_db(&gm, &STRIKE).code, 0);
    assert_eq!(common::connect(&gm, hub.url()).code, 0);
    let p1 = dir.path().join("p1.db");
    let code = common::join_code(&gm);
    let out = run_db(&p1, &["init", "--join", hub.url(), "--campaign", &code]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Everything the server keeps, merged as one document (it writes a moment after a sync).
    let stored = || {
        let mut doc = automerge::Automerge::new();
        let mut files = vec![dir.path().join("sync-server-data")];
        while let Some(p) = files.pop() {
            if p.is_dir() {
                files.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
            } else {
                let _ = doc.load_incremental(&std::fs::read(&p).unwrap());
            }
        }
        doc
    };
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let log = Store::open(&gm).unwrap().count().unwrap() as usize;
    let mut doc = stored();
    while values(&doc).len() < log && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(200));
        doc = stored();
    }
    drop(hub);
    assert!(
        values(&doc).len() >= log,
        "the server stored the campaign's events"
    );
    holds_nothing_in_clear(&doc, &gm, &["Osric", "Kaldor"]);
    // Issue 24, item 6: nothing the server keeps names the campaign: its id is in no file
    // name and no file, in any form (document ids come from a secret of the campaign's key,
    // entry and volume keys are digests under it, counts are sealed).
    // Nor any device's id, nor any event's (a UUIDv7: the millisecond it was recorded).
    let campaign = Store::open(&gm).unwrap().campaign();
    let mut ids: Vec<uuid::Uuid> = vec![
        campaign.0,
        Store::open(&gm).unwrap().device().0,
        Store::open(&p1).unwrap().device().0,
    ];
    ids.extend(
        Store::open(&gm)
            .unwrap()
            .events()
            .unwrap()
            .iter()
            .map(|e| e.id.0),
    );
    let forms: Vec<Vec<u8>> = ids
        .iter()
        .flat_map(|u| {
            [
                u.to_string().into_bytes(),
                u.simple().to_string().into_bytes(),
                u.as_bytes().to_vec(),
            ]
        })
        .collect();
    let mut files = vec![dir.path().join("sync-server-data")];
    while let Some(p) = files.pop() {
        let name = p.display().to_string().into_bytes();
        for f in &forms {
            assert!(
                !name.windows(f.len()).any(|w| w == f.as_slice()),
                "{}",
                p.display()
            );
        }
        if p.is_dir() {
            files.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else {
            let bytes = std::fs::read(&p).unwrap();
            for f in &forms {
                assert!(
                    !bytes.windows(f.len()).any(|w| w == f.as_slice()),
                    "an identifier is in {}",
                    p.display()
                );
            }
        }
    }
}

#[test]
fn a_revoked_device_cannot_read_what_is_recorded_after_its_revocation() {
    let dir = tempfile::tempdir().unwrap();
    let gm = Scratch::with_osric();
    let (p1, p2) = (Scratch::new(), Scratch::new());
    join(&gm, &p1, dir.path(), "p1");
    join(&gm, &p2, dir.path(), "p2");
    // Both take in the roster that names them.
    for p in [&p1, &p2] {
        assert_eq!(common::carry(&gm.db, &p.db, dir.path()).code, 0);
    }
    let (p2_id, _) = identity(&p2.db);
    let out = gm.ok(&["device", "revoke", &p2_id]);
    assert!(out.contains("rotated the campaign key"), "{out}");
    gm.ok(&STRIKE);
    // The GM's file after the revocation: p1 reads it whole (the new key comes with it,
    // wrapped for p1)...
    let file = dir.path().join("after.sync");
    gm.ok(&["sync", "export", file.to_str().unwrap()]);
    let out = p1.ok(&["sync", "import", file.to_str().unwrap()]);
    assert!(out.starts_with("imported 2 new events"), "{out}");
    assert_eq!(p1.show("Osric")["injuries"].as_array().unwrap().len(), 1);
    assert_eq!(ring_of(&p1.db), ring_of(&gm.db), "p1 holds the new key");
    // ...and p2 cannot: one line naming why, and nothing written.
    let before = p2.bytes();
    let out = p2.run(&["sync", "import", file.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("does not hold"), "{}", out.stderr);
    assert_eq!(p2.bytes(), before);
    assert_ne!(ring_of(&p2.db), ring_of(&gm.db));
    // The strike's entry in the file does not open with anything p2 holds.
    let m = leechbook_sync::Mirror::load(&std::fs::read(&file).unwrap(), ring_of(&gm.db)).unwrap();
    let strike = common::first_of_kind(&gm.db, "hm.strike");
    let key = leechbook_sync::layout::Names::of(&ring_of(&gm.db)).entry_of(&strike);
    let value = m.raw(&strike).unwrap();
    assert!(ring_of(&p2.db).open(&key, &value).is_err());
    // Through a hub too: p2 takes in nothing recorded after the revocation.
    let hub = Hub::relay();
    assert_eq!(common::connect(&gm.db, hub.url()).code, 0);
    let out = run_db(&p2.db, &["sync", "connect", hub.url(), "--timeout", "20"]);
    assert_eq!(out.code, 1, "a revoked device is told: {}", out.stderr);
    assert!(out.stderr.contains("does not hold"), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("was left out of the campaign key's rotation"),
        "{}",
        out.stderr
    );
    assert!(
        !out.stderr.contains("gap:"),
        "what p2 cannot open is no gap: {}",
        out.stderr
    );
    let held = Store::open(&p2.db).unwrap().events().unwrap();
    assert!(held.iter().all(|e| e.id != strike.id));
    // And p1 still reads everything through the hub after p2 met it (p2 dropped nothing).
    let p3 = dir.path().join("p3.db");
    let code = common::join_code(&gm.db);
    let out = run_db(&p3, &["init", "--join", hub.url(), "--campaign", &code]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(Store::open(&p3)
        .unwrap()
        .events()
        .unwrap()
        .iter()
        .any(|e| e.id == strike.id));
}

#[test]
fn a_wrong_or_missing_key_is_one_line_and_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    let gm = Scratch::with_osric();
    let player = Scratch::new();
    let file = dir.path().join("p.join");
    gm.ok(&["sync", "invite", file.to_str().unwrap()]);
    player.ok(&["init", "--join", file.to_str().unwrap()]);
    gm.ok(&STRIKE);
    let sync = dir.path().join("a.sync");
    gm.ok(&["sync", "export", sync.to_str().unwrap()]);

    let one_line = |out: &leechbook::Output, says: &str| {
        assert_eq!(out.code, 1, "{}", out.stdout);
        assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
        assert!(out.stderr.contains(says), "{}", out.stderr);
    };
    // A plain sync file is no invitation: it carries no key.
    let fresh = Scratch::new();
    one_line(
        &fresh.run(&["init", "--join", sync.to_str().unwrap()]),
        "sync invite",
    );
    assert!(!fresh.db.exists());
    // Another campaign's file does not open with this campaign's key.
    let other = Scratch::with_osric();
    let foreign = dir.path().join("other.sync");
    other.ok(&["sync", "export", foreign.to_str().unwrap()]);
    let before = player.bytes();
    one_line(
        &player.run(&["sync", "import", foreign.to_str().unwrap()]),
        "does not open",
    );
    assert_eq!(player.bytes(), before);
    // A device whose keys are gone (a player's: it cannot make the campaign's key).
    common::forget_keys(&player.db);
    let before = player.bytes();
    one_line(
        &player.run(&["sync", "import", sync.to_str().unwrap()]),
        "holds no key",
    );
    assert_eq!(player.bytes(), before);
    // A join code of the right campaign with a wrong key, at a hub: one line, no ledger.
    let hub = Hub::relay();
    assert_eq!(common::connect(&gm.db, hub.url()).code, 0);
    let code = common::join_code(&gm.db);
    let wrong = wrong_key(&code);
    // A typo in a code is told as a typo.
    let joiner = dir.path().join("j.db");
    let typo = format!(
        "{}{}",
        &code[..code.len() - 2],
        if code.ends_with("00") { "11" } else { "00" }
    );
    let out = run_db(&joiner, &["init", "--join", hub.url(), "--campaign", &typo]);
    one_line(&out, "the join code has a typo");
    assert!(!joiner.exists());
    let out = run_db(
        &joiner,
        &["init", "--join", hub.url(), "--campaign", &wrong],
    );
    // Its keys find none of the campaign's documents (their ids come from the key).
    one_line(&out, "holds no campaign");
    assert!(!joiner.exists());
    // Not a join code at all; a campaign id alone is not one either.
    let out = run_db(
        &joiner,
        &["init", "--join", hub.url(), "--campaign", "nonsense"],
    );
    one_line(&out, "not a join code");
    let id = common::campaign_of(&gm.db);
    let out = run_db(&joiner, &["init", "--join", hub.url(), "--campaign", &id]);
    one_line(&out, "not a join code");
    assert!(!joiner.exists());
    // The hub still holds the campaign whole: the wrong key deleted nothing.
    let out = run_db(&joiner, &["init", "--join", hub.url(), "--campaign", &code]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        Store::open(&joiner).unwrap().count().unwrap(),
        Store::open(&gm.db).unwrap().count().unwrap()
    );
}

#[test]
fn only_a_gm_device_invites_and_a_join_code_gives_a_device_its_keys() {
    let dir = tempfile::tempdir().unwrap();
    let gm = Scratch::with_osric();
    let player = Scratch::new();
    let file = dir.path().join("p.join");
    gm.ok(&["sync", "invite", file.to_str().unwrap()]);
    player.ok(&["init", "--join", file.to_str().unwrap()]);
    let (device, key) = identity(&player.db);
    gm.ok(&[
        "device",
        "add",
        &device,
        &key,
        "--role",
        "player",
        "--character",
        "Osric",
    ]);
    assert_eq!(common::carry(&gm.db, &player.db, dir.path()).code, 0);
    let out = player.run(&["sync", "invite"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("only a GM"), "{}", out.stderr);
    // A device that lost its keys takes them again from the GM's code.
    common::forget_keys(&player.db);
    let code = common::join_code(&gm.db);
    let out = player.ok(&["sync", "key", &code]);
    assert!(out.contains("took in"), "{out}");
    assert_eq!(ring_of(&player.db), ring_of(&gm.db));
    // Another campaign's code is refused.
    let other = Scratch::with_osric();
    let out = player.run(&["sync", "key", &common::join_code(&other.db)]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("another campaign"), "{}", out.stderr);
}

/// A GM device revoked (a lost laptop) cannot hand the others a key it holds: a rotation it
/// signs after its revocation is refused by every device that knows of the revocation.
#[test]
fn a_rotation_from_a_revoked_gm_device_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let gm = Scratch::with_osric();
    let (lost, player) = (Scratch::new(), Scratch::new());
    join(&gm, &lost, dir.path(), "lost");
    join(&gm, &player, dir.path(), "player");
    for p in [&lost, &player] {
        assert_eq!(common::carry(&gm.db, &p.db, dir.path()).code, 0);
    }
    let (lost_id, _) = identity(&lost.db);
    let (player_id, _) = identity(&player.db);
    gm.ok(&["device", "revoke", &lost_id]);
    assert_eq!(common::carry(&gm.db, &player.db, dir.path()).code, 0);
    let player_ring = ring_of(&player.db);
    // The lost laptop, not knowing, revokes the player and rotates under its own signature.
    lost.ok(&["device", "revoke", &player_id]);
    assert_ne!(ring_of(&lost.db), ring_of(&gm.db));
    // The GM's co-device rosters nothing new for the player: the player takes the lost
    // device's file and its events are refused, and its key is not taken in.
    let file = dir.path().join("lost.sync");
    lost.ok(&["sync", "export", file.to_str().unwrap()]);
    let _ = player.run(&["sync", "import", file.to_str().unwrap()]);
    assert_eq!(
        ring_of(&player.db),
        player_ring,
        "no key from a revoked device"
    );
}

/// A GM ledger from before encryption makes its key on its first sync and keeps it at once,
/// even when that sync fails: what it sealed stays readable.
#[test]
fn a_key_made_for_an_old_ledger_is_kept_even_when_its_first_sync_fails() {
    let gm = Scratch::with_osric();
    gm.ok(&STRIKE);
    common::forget_keys(&gm.db);
    let out = gm.run(&["sync", "connect", "ws://127.0.0.1:1", "--timeout", "2"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    let ring = ring_of(&gm.db);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.sync");
    gm.ok(&["sync", "export", file.to_str().unwrap()]);
    let m = leechbook_sync::Mirror::load(&std::fs::read(&file).unwrap(), ring).unwrap();
    assert_eq!(
        m.envelopes().unwrap().len() as u64,
        Store::open(&gm.db).unwrap().count().unwrap()
    );
}

/// `sync key` with a code whose key does not open what the ledger holds: one line, and the
/// ledger keeps no key.
#[test]
fn a_wrong_join_code_for_sync_key_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let gm = Scratch::with_osric();
    let player = Scratch::new();
    join(&gm, &player, dir.path(), "p");
    common::forget_keys(&player.db);
    let code = common::join_code(&gm.db);
    let wrong = wrong_key(&code);
    let before = player.bytes();
    let out = player.run(&["sync", "key", &wrong]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("does not open"), "{}", out.stderr);
    assert_eq!(player.bytes(), before);
    player.ok(&["sync", "key", &code]);
    assert_eq!(ring_of(&player.db), ring_of(&gm.db));
}

/// A join code of the right campaign whose last key byte is wrong, in the first form
/// (`lbj1-`, no check digits), so that it reads: what a GM's wrong key would be.
fn wrong_key(code: &str) -> String {
    let body = &code["lbj2-".len()..code.len() - 8];
    format!(
        "lbj1-{}{}",
        &body[..body.len() - 2],
        if body.ends_with("00") { "11" } else { "00" }
    )
}
