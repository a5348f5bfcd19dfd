//! The roster and signatures: who may record what, and what a sync import refuses.
//!
//! The GM's device creates the campaign and is its first GM; other devices join from a sync
//! file and count once the GM rosters them. A player's device records only for its own
//! characters; a revoked device's later events are void; an unrostered device's events and
//! a tampered event are refused at import, whole, with nothing written.

use crate::common;
use common::{identity, Scratch};
use leechbook_core::fold::Ledger;
use leechbook_core::Event;
use leechbook_store::Store;
use std::path::Path;

/// Osric's edged thorax strike, 6E, shock roll 12.
const STRIKE: [&str; 10] = common::thorax_strike("Osric", "6", "shock=12");

fn carry(from: &Scratch, to: &Scratch, dir: &Path) -> leechbook::Output {
    common::carry(&from.db, &to.db, dir)
}

/// The GM's ledger with Osric, and a second device that joined it (not yet rostered).
fn gm_and_joiner() -> (Scratch, Scratch, tempfile::TempDir) {
    let gm = Scratch::with_osric();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("seed.sync");
    gm.ok(&["sync", "invite", file.to_str().unwrap()]);
    let other = Scratch::new();
    other.ok(&["init", "--join", file.to_str().unwrap()]);
    (gm, other, dir)
}

#[test]
fn the_creating_device_is_the_first_gm_and_a_joiner_is_not_rostered() {
    let (gm, other, _dir) = gm_and_joiner();
    assert!(gm.ok(&["device", "show"]).contains("role   GM"));
    assert!(other
        .ok(&["device", "show"])
        .contains("role   not on the roster yet"));
    // Until the GM rosters it, the joiner records nothing.
    let before = other.bytes();
    let out = other.run(&STRIKE);
    assert_ne!(out.code, 0);
    assert!(
        out.stderr.contains("not on the campaign's roster"),
        "{}",
        out.stderr
    );
    assert_eq!(other.bytes(), before);
}

#[test]
fn an_unrostered_devices_events_are_refused_at_import_with_nothing_written() {
    let (gm, other, dir) = gm_and_joiner();
    // Forge the joiner's event straight into its store, past the CLI's roster check.
    {
        let mut store = Store::open(&other.db).unwrap();
        let mut w = store.write().unwrap();
        let env = w
            .prepare(
                Event::ClockAdvanced {
                    to: leechbook_core::time::CampaignTime(3600),
                },
                leechbook_core::time::CampaignTime(3600),
                chrono::Utc::now(),
            )
            .unwrap();
        w.append(&env).unwrap();
        w.commit().unwrap();
    }
    let before = Store::open(&gm.db).unwrap().events().unwrap();
    let out = carry(&other, &gm, dir.path());
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("not on the roster"), "{}", out.stderr);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert_eq!(Store::open(&gm.db).unwrap().events().unwrap(), before);
}

#[test]
fn a_player_records_only_for_their_own_characters() {
    let (gm, player, dir) = gm_and_joiner();
    gm.ok(&[
        "character",
        "add",
        "Bertil",
        "--str",
        "10",
        "--end",
        "10",
        "--shock",
        "60",
        "--hb",
        "12",
    ]);
    let (device, key) = identity(&player.db);
    let added = gm.ok(&[
        "device",
        "add",
        &device,
        &key,
        "--role",
        "player",
        "--character",
        "Osric",
    ]);
    assert!(
        added.contains("joins the roster as a player, for Osric"),
        "{added}"
    );
    let out = carry(&gm, &player, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(player.ok(&["device", "show"]).contains("role   player"));
    let roster = player.ok(&["device", "list"]);
    assert!(
        roster.contains(&format!("{device}  player for Osric  (this device)")),
        "{roster}"
    );

    // Osric is the player's: a strike on him is recorded.
    player.ok(&STRIKE);
    // Bertil is not, and the clock is the GM's (a treatment that would move it too is
    // refused whole, before it is recorded).
    for args in [
        &common::thorax_strike("Bertil", "6", "shock=12")[..],
        &["advance", "1h"][..],
        &[
            "treat",
            "Osric",
            "--physician",
            "60",
            "--dice",
            "treatment=30",
            "--advance",
        ][..],
    ] {
        let before = player.bytes();
        let out = player.run(args);
        assert_ne!(out.code, 0, "{args:?} was recorded");
        assert!(out.stderr.contains("player"), "{}", out.stderr);
        assert_eq!(player.bytes(), before);
    }
    // The GM takes the player's strike in.
    let out = carry(&player, &gm, dir.path());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with("imported 1 new event from"),
        "{}",
        out.stdout
    );
    assert_eq!(gm.show("Osric")["injuries"].as_array().unwrap().len(), 1);
}

#[test]
fn a_revoked_devices_later_events_are_void() {
    let (gm, other, dir) = gm_and_joiner();
    let (device, key) = identity(&other.db);
    gm.ok(&["device", "add", &device, &key, "--role", "gm"]);
    assert_eq!(carry(&gm, &other, dir.path()).code, 0);
    // The other device strikes before the revocation (and the GM has it) ...
    other.ok(&STRIKE);
    assert_eq!(carry(&other, &gm, dir.path()).code, 0);
    // ... then the GM revokes it; offline, it moves the clock on and strikes again.
    gm.ok(&["device", "revoke", &device]);
    let roster = gm.ok(&["device", "list"]);
    let (gm_device, _) = identity(&gm.db);
    assert!(
        roster.contains(&format!("{gm_device}  GM  (this device)")),
        "{roster}"
    );
    assert!(
        roster.contains(&format!("{device}  GM  (revoked)")),
        "{roster}"
    );
    other.ok(&["advance", "1h"]);
    other.ok(&STRIKE);
    let out = carry(&other, &gm, dir.path());
    assert_eq!(
        out.code, 0,
        "signed events import (the record keeps them): {}",
        out.stderr
    );
    let ledger = Ledger::fold(&Store::open(&gm.db).unwrap().events().unwrap());
    let revoked: Vec<_> = ledger
        .void
        .iter()
        .filter(|v| v.reason.contains("revoked"))
        .map(|v| v.kind.as_str())
        .collect();
    assert_eq!(revoked, ["clock-advanced", "hm.strike"]);
    assert_eq!(gm.show("Osric")["injuries"].as_array().unwrap().len(), 1);
}

#[test]
fn a_tampered_event_is_refused_at_import_with_nothing_written() {
    let (gm, other, dir) = gm_and_joiner();
    gm.ok(&STRIKE);
    // Change the shock roll of the GM's signed strike and carry the forged log over.
    let mut events = Store::open(&gm.db).unwrap().events().unwrap();
    let forged = events
        .iter_mut()
        .find(|e| e.event.kind() == "hm.strike")
        .unwrap();
    let before_bytes = leechbook_store::codec::encode_envelope(forged);
    forged.at = leechbook_core::time::CampaignTime(forged.at.0 + 1);
    assert_ne!(
        leechbook_store::codec::encode_envelope(forged),
        before_bytes
    );
    let mut mirror = leechbook_sync::Mirror::new(common::ring_of(&gm.db));
    mirror.add(&events).unwrap();
    let file = dir.path().join("forged.sync");
    std::fs::write(&file, mirror.save()).unwrap();
    let before = other.bytes();
    let out = other.run(&["sync", "import", file.to_str().unwrap()]);
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("tampered or forged"), "{}", out.stderr);
    assert_eq!(other.bytes(), before);
    // Joining from the forged file (as a join file, with the campaign's keys) fails the
    // same check, and creates no ledger.
    let join = dir.path().join("forged.join");
    std::fs::write(&join, common::ring_of(&gm.db).invitation(&mirror.save())).unwrap();
    let fresh = Scratch::new();
    let out = fresh.run(&["init", "--join", join.to_str().unwrap()]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("tampered or forged"), "{}", out.stderr);
    assert!(!fresh.db.exists());
}

/// Revoking the campaign's last GM device would leave no one able to record (not even a
/// ruling to undo it): refused, one line, nothing written. With a second GM rostered, the
/// first may be revoked.
#[test]
fn the_last_gm_device_cannot_be_revoked() {
    let (gm, other, _dir) = gm_and_joiner();
    let (gm_device, _) = identity(&gm.db);
    let before = gm.bytes();
    let out = gm.run(&["device", "revoke", &gm_device]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("last GM device"), "{}", out.stderr);
    assert_eq!(gm.bytes(), before);
    let (device, key) = identity(&other.db);
    gm.ok(&["device", "add", &device, &key, "--role", "gm"]);
    gm.ok(&["device", "revoke", &gm_device]);
}
