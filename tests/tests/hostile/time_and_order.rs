//! An insider who bends time and order: the GM's clock, numbers and clocks at the ends of
//! their range, an event sorted before what its device saw, two rolls for one moment.

use super::*;

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
