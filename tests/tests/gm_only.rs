//! Issue 42: GM-only characters. A character added `--gm-only` (or hidden later with
//! `character hide`) is marked so in the record; an event that joins it with a character the
//! table sees is refused (its fold reads the GM-only one's sheet and state, which no player's
//! device may hold); a player's page never shows it, whatever the link's `--party`, and the
//! GM's page marks it; its events travel sealed for the GM's devices, by file and by hub.

use crate::common;
use common::{http, identity, page_link, run_db, serving_page, Scratch, OSRIC_STRUCK};
use std::path::{Path, PathBuf};

const ARMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/arms/starter.toml");

fn equip(s: &Scratch, name: &str) {
    s.ok(&[
        "character",
        "equip",
        name,
        "--weapon",
        "broadsword",
        "--melee",
        "60",
        "--dodge",
        "60",
    ]);
}

/// Osric of the party and a GM-only Brigand, both armed.
fn with_brigand() -> Scratch {
    let s = Scratch::with_osric();
    s.ok(&["arms", "load", ARMS]);
    let out = s.ok(&[
        "character",
        "add",
        "Brigand",
        "--gm-only",
        "--str",
        "12",
        "--end",
        "12",
        "--shock",
        "60",
        "--hb",
        "10",
    ]);
    assert!(out.contains("added Brigand (GM-only)"), "{out}");
    equip(&s, "Osric");
    equip(&s, "Brigand");
    s
}

#[test]
fn a_gm_only_character_is_marked_and_never_joined_with_the_tables() {
    let s = with_brigand();
    let list = s.ok(&["character", "list"]);
    let line = list.lines().find(|l| l.starts_with("Brigand")).unwrap();
    assert!(line.ends_with("[GM-only]"), "{list}");
    assert!(!list
        .lines()
        .find(|l| l.starts_with("Osric"))
        .unwrap()
        .contains("GM-only"));
    let log = s.ok(&["log"]);
    assert!(log.contains("Brigand is GM-only from now"), "{log}");
    // An exchange between the two is refused in one line and nothing is written.
    let before = s.bytes();
    let out = s.run(&[
        "melee",
        "Brigand",
        "Osric",
        "--weapon",
        "broadsword",
        "--mode",
        "edge",
        "--defence",
        "dodge",
        "--dice",
        "attack=20,defence=90,zone=4,location=7,impact=8,shock=12",
    ]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("Brigand is GM-only and Osric is seen by the table"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    // Each side's blow on its own is recorded.
    s.ok(&OSRIC_STRUCK);
    s.ok(&common::thorax_strike("Brigand", "6", "shock=12"));
    // Revealed, the two may meet in an exchange; revealing twice says so.
    let out = s.ok(&["character", "reveal", "Brigand"]);
    assert!(out.contains("Brigand is revealed"), "{out}");
    let out = s.run(&["character", "reveal", "Brigand"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("Brigand is already seen by the table"),
        "{}",
        out.stderr
    );
    s.ok(&["character", "hide", "brigand"]);
    assert!(s.ok(&["character", "list"]).contains("[GM-only]"));
}

#[test]
fn no_players_page_shows_a_gm_only_character_and_the_gms_marks_it() {
    let s = with_brigand();
    s.ok(&OSRIC_STRUCK);
    // A player's link for a GM-only character is refused.
    let out = s.run(&[
        "device",
        "link",
        "Brigand",
        "--no-qr",
        "--hub",
        "http://127.0.0.1:1",
    ]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("Brigand is GM-only"), "{}", out.stderr);
    let osric = page_link(&s.db, "Osric", &["--party", "everything"]);
    let gm = page_link(&s.db, "--gm", &[]);
    let (base, stop, hub) = serving_page(&s.db);
    let (status, page) = http(&base, "GET", &osric, "");
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains("Osric") && !page.contains("Brigand"),
        "{page}"
    );
    let (status, page) = http(&base, "GET", &gm, "");
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("<h2>Brigand"), "{page}");
    assert!(page.contains("class=\"gm-only\""), "{page}");
    // Where a character stands, on the GM's page: a foe set aside owes nothing there.
    s.ok(&["character", "side", "Osric", "npc"]);
    s.ok(&["character", "aside", "Osric", "--why", "fled"]);
    let started = std::time::Instant::now();
    let page = loop {
        let (_, page) = http(&base, "GET", &gm, "");
        if page.contains("set aside (fled)") || started.elapsed().as_secs() > 5 {
            break page;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(
        page.contains("an NPC, set aside (fled): nothing of theirs is asked for"),
        "{page}"
    );
    let osric = &page[page.find("data-name=\"Osric\"").unwrap()..];
    let osric = &osric[..osric.find("</section></section>").unwrap_or(osric.len())];
    assert!(osric.contains("Nothing owed."), "{osric}");
    let _ = stop.send(());
    hub.join().unwrap();
}

fn ok_db(db: &Path, args: &[&str]) -> String {
    let out = run_db(db, args);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    out.stdout
}

/// A device joined from `gm`'s join file, rostered with `role` (and `--character Osric` for
/// a player).
fn joined(gm: &Path, dir: &Path, name: &str, role: &str) -> PathBuf {
    let file = dir.join(format!("{name}.join"));
    ok_db(gm, &["sync", "invite", file.to_str().unwrap()]);
    let db = dir.join(format!("{name}.db"));
    ok_db(&db, &["init", "--join", file.to_str().unwrap()]);
    roster(gm, &db, role);
    db
}

/// Rosters the device of `db` on `gm` with `role` (a player's for Osric).
fn roster(gm: &Path, db: &Path, role: &str) {
    let (device, key) = identity(db);
    let mut args = vec!["device", "add", &device, &key, "--role", role];
    if role == "player" {
        args.extend(["--character", "Osric"]);
    }
    ok_db(gm, &args);
}

/// A sync file from `from` imported by `to`.
fn carry(from: &Path, to: &Path, dir: &Path) -> String {
    let file = dir.join("carried.sync");
    ok_db(from, &["sync", "export", file.to_str().unwrap()]);
    let out = run_db(to, &["sync", "import", file.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

/// Nothing a player's device holds or says names the foe: its ledger file, every file it
/// wrote or was given, and what it shows.
fn nothing_names(foe: &str, player: &Path, files: &[&Path]) {
    for f in files {
        let bytes = std::fs::read(f).unwrap();
        assert!(
            !bytes.windows(foe.len()).any(|w| w == foe.as_bytes()),
            "{} holds {foe}",
            f.display()
        );
    }
    for args in [
        &["character", "list"][..],
        &["log"],
        &["due"],
        &["show", "Osric"],
        &["export"],
        &["history", "Osric"],
    ] {
        let out = run_db(player, args);
        assert!(
            !out.stdout.contains(foe) && !out.stderr.contains(foe),
            "{args:?} names {foe}: {}{}",
            out.stdout,
            out.stderr
        );
    }
}

/// Issue 42, done means (by file): a GM-only foe's events travel sealed for the GM's devices.
/// A rostered player holds them as entries it cannot open (counted, offered on, `verify`
/// sound and saying how many) and nothing it holds or shows names the foe; what the player
/// records still reaches the GM; a second GM device reads everything; a GM device revoked
/// reads nothing recorded after its revocation.
#[test]
fn a_gm_only_foe_stays_sealed_on_a_players_device_and_open_on_the_gms() {
    let dir = tempfile::tempdir().unwrap();
    let gm = dir.path().join("gm.db");
    ok_db(&gm, &["init", "--name", "Kaldor"]);
    common::add_character(&gm, "Osric");
    add_hm(&gm, "Brigand", true);
    ok_db(&gm, &common::thorax_strike("Brigand", "8", "shock=12"));
    let ann = joined(&gm, dir.path(), "ann", "player");
    carry(&gm, &ann, dir.path());
    // The player's own roll reaches the GM; the GM's later foe rolls reach the player sealed.
    ok_db(&ann, &common::thorax_strike("Osric", "8", "shock=12"));
    carry(&ann, &gm, dir.path());
    assert!(ok_db(&gm, &["log", "Osric"]).contains("(by Osric's player)"));
    ok_db(&gm, &["fatigue", "Brigand", "5"]);
    carry(&gm, &ann, dir.path());
    let verified = ok_db(&ann, &["verify", "--full"]);
    // Sealed: the foe's joining, its secrecy, its strike and its fatigue.
    assert!(
        verified.contains("holds 4 entries sealed for the GM's devices"),
        "{verified}"
    );
    assert!(verified.contains("the ledger is sound"), "{verified}");
    let carried = dir.path().join("carried.sync");
    let join = dir.path().join("ann.join");
    nothing_names("Brigand", &ann, &[&ann, &carried, &join]);
    // The player's device offers the sealed entries on: a second GM device that only ever
    // meets the player's files reads the foe once it is rostered and given its share.
    let gm2 = joined(&gm, dir.path(), "gm2", "gm");
    carry(&gm, &gm2, dir.path());
    let list = ok_db(&gm2, &["character", "list"]);
    assert!(
        list.contains("Brigand") && list.contains("[GM-only]"),
        "{list}"
    );
    assert!(ok_db(&gm2, &["verify", "--full"]).contains("the ledger is sound"));
    // Revoked, the second GM device reads nothing recorded after.
    let (device, _) = identity(&gm2);
    ok_db(&gm, &["device", "revoke", &device]);
    ok_db(&gm, &["fatigue", "Brigand", "3"]);
    let file = dir.path().join("after.sync");
    ok_db(&gm, &["sync", "export", file.to_str().unwrap()]);
    let _ = run_db(&gm2, &["sync", "import", file.to_str().unwrap()]);
    assert!(!ok_db(&gm2, &["log", "Brigand"]).contains("8 now"));
    // The player, still on the roster, takes the rotation and the sealed entry in.
    carry(&gm, &ann, dir.path());
    assert!(ok_db(&ann, &["verify", "--full"]).contains("holds 5 entries sealed"));
    nothing_names("Brigand", &ann, &[&ann]);
}

/// Issue 42, done means (through a hub): a player syncing with the GM's `sync serve` holds
/// nothing that names the foe, and what it records lands with the GM.
#[test]
fn a_gm_only_foe_stays_sealed_through_a_hub() {
    let dir = tempfile::tempdir().unwrap();
    let gm = dir.path().join("gm.db");
    ok_db(&gm, &["init", "--name", "Kaldor"]);
    common::add_character(&gm, "Osric");
    add_hm(&gm, "Brigand", true);
    let (url, stop, hub) = common::serving(&gm);
    let ann = dir.path().join("ann.db");
    ok_db(
        &ann,
        &[
            "init",
            "--join",
            &url,
            "--campaign",
            &common::join_code(&gm),
        ],
    );
    roster(&gm, &ann, "player");
    ok_db(&gm, &common::thorax_strike("Brigand", "8", "shock=12"));
    std::thread::sleep(std::time::Duration::from_millis(150));
    common::connect(&ann, &url);
    ok_db(&ann, &common::thorax_strike("Osric", "8", "shock=12"));
    common::connect(&ann, &url);
    let verified = ok_db(&ann, &["verify", "--full"]);
    assert!(verified.contains("holds 3 entries sealed"), "{verified}");
    nothing_names("Brigand", &ann, &[&ann]);
    let started = std::time::Instant::now();
    while !ok_db(&gm, &["log", "Osric"]).contains("(by Osric's player)") {
        assert!(
            started.elapsed().as_secs() < 20,
            "the player's strike never landed"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    stop.send(()).unwrap();
    hub.join().unwrap();
}

/// Osric's and Ann's state as their devices fold it (`show Osric --json`, the campaign
/// time left out).
fn osric(db: &Path) -> serde_json::Value {
    let mut v: serde_json::Value =
        serde_json::from_str(&ok_db(db, &["show", "Osric", "--json"])).unwrap();
    v.as_object_mut().unwrap().remove("campaign_time");
    v
}

/// Issue 42, the adversary's cases: a foe fought in the open and hidden before the next sync
/// keeps what came before in the open, so a player's device folds Osric as the GM's does; a
/// reveal recorded while no sync ran reaches the player by file with the foe's whole record;
/// a player's own character cannot be hidden; a GM device made a player's reads nothing the
/// GM seals after.
#[test]
fn hiding_and_revealing_keep_every_device_folding_alike() {
    let dir = tempfile::tempdir().unwrap();
    let gm = dir.path().join("gm.db");
    ok_db(&gm, &["init", "--name", "Kaldor"]);
    ok_db(&gm, &["arms", "load", ARMS]);
    common::add_character(&gm, "Osric");
    add_hm(&gm, "Brute", false);
    equip_db(&gm, "Osric");
    equip_db(&gm, "Brute");
    let ann = joined(&gm, dir.path(), "ann", "player");
    // The exchange in the open, then the hide, all before the player's next sync.
    let melee = [
        "melee",
        "Brute",
        "Osric",
        "--weapon",
        "broadsword",
        "--mode",
        "edge",
        "--defence",
        "ignore",
        "--dice",
        "attack=35,zone=4,location=7,impact=8,shock=12",
    ];
    ok_db(&gm, &melee);
    ok_db(&gm, &["character", "hide", "Brute"]);
    ok_db(&gm, &["fatigue", "Brute", "5"]);
    carry(&gm, &ann, dir.path());
    assert_eq!(osric(&ann), osric(&gm), "the player's fold is the GM's");
    // The hide is seen (what came before stays the player's), what follows is sealed.
    let verified = ok_db(&ann, &["verify", "--full"]);
    assert!(verified.contains("holds 1 entry sealed"), "{verified}");
    assert!(verified.contains("0 void"), "{verified}");
    // An exchange joining them after the hide is refused on the GM's device.
    let out = run_db(&gm, &melee);
    assert_eq!(out.code, 1, "{}", out.stdout);
    // Revealed with no sync running: the next sync file carries the whole record openly.
    ok_db(&gm, &["character", "reveal", "Brute"]);
    carry(&gm, &ann, dir.path());
    let log = ok_db(&ann, &["log", "Brute"]);
    assert!(log.contains("Brute fatigue"), "{log}");
    assert!(ok_db(&ann, &["verify", "--full"]).contains("0 void"));
    // A player's own character cannot be hidden; a GM-only one cannot be a player's.
    let out = run_db(&gm, &["character", "hide", "Osric"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("a player's character cannot be GM-only"),
        "{}",
        out.stderr
    );
    ok_db(&gm, &["character", "hide", "Brute"]);
    let (device, key) = identity(&ann);
    let out = run_db(
        &gm,
        &[
            "device",
            "add",
            &device,
            &key,
            "--role",
            "player",
            "--character",
            "Brute",
        ],
    );
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("Brute is GM-only"), "{}", out.stderr);
    // A second GM device reads what is sealed (5 + 1: 6 now); demoted to a player's, it
    // takes no key sealed after (5 + 1 + 3: 9 now).
    ok_db(&gm, &["fatigue", "Brute", "1"]);
    let gm2 = joined(&gm, dir.path(), "gm2", "gm");
    carry(&gm, &gm2, dir.path());
    assert!(ok_db(&gm2, &["log", "Brute"]).contains("(6 now)"));
    roster(&gm, &gm2, "player");
    ok_db(&gm, &["fatigue", "Brute", "3"]);
    carry(&gm, &gm2, dir.path());
    assert!(ok_db(&gm, &["log", "Brute"]).contains("(9 now)"));
    assert!(!ok_db(&gm2, &["log", "Brute"]).contains("(9 now)"));
    assert!(ok_db(&gm2, &["verify", "--full"]).contains("the ledger is sound"));
}

fn equip_db(db: &Path, name: &str) {
    ok_db(
        db,
        &[
            "character",
            "equip",
            name,
            "--weapon",
            "broadsword",
            "--melee",
            "60",
            "--dodge",
            "60",
        ],
    );
}

/// Issue 42, the second attack: a reveal struck makes the foe GM-only again on every device
/// (an exchange joined after is void on the player's too); a hide recorded right after an
/// open creation is a hide, not a creation GM-only (what the player held stays, and an
/// exchange after it is void on every device).
#[test]
fn a_reveal_struck_and_a_hide_after_an_open_creation_keep_devices_alike() {
    let dir = tempfile::tempdir().unwrap();
    let gm = dir.path().join("gm.db");
    ok_db(&gm, &["init", "--name", "Kaldor"]);
    ok_db(&gm, &["arms", "load", ARMS]);
    common::add_character(&gm, "Osric");
    equip_db(&gm, "Osric");
    add_hm(&gm, "Shade", true);
    equip_db(&gm, "Shade");
    let ann = joined(&gm, dir.path(), "ann", "player");
    carry(&gm, &ann, dir.path());
    ok_db(&gm, &["character", "reveal", "Shade"]);
    carry(&gm, &ann, dir.path());
    let melee = [
        "melee",
        "Shade",
        "Osric",
        "--weapon",
        "broadsword",
        "--mode",
        "edge",
        "--defence",
        "ignore",
        "--dice",
        "attack=10,zone=4,location=7,impact=8,shock=12",
    ];
    ok_db(&gm, &melee);
    carry(&gm, &ann, dir.path());
    assert_eq!(osric(&ann), osric(&gm));
    // The reveal struck: Shade is GM-only again from its creation, the exchange void.
    let log: Vec<serde_json::Value> =
        serde_json::from_str(&ok_db(&gm, &["log", "--json"])).unwrap();
    let reveal = log
        .iter()
        .rev()
        .find(|e| e["kind"] == "character-secret")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    ok_db(&gm, &["retract", &reveal, "--reason", "not yet"]);
    carry(&gm, &ann, dir.path());
    assert_eq!(osric(&ann), osric(&gm), "the exchange is void on both");
    assert!(ok_db(&ann, &["verify", "--full"]).contains("the ledger is sound"));
    // A character added in the open and hidden by the next command: the player holds it, and
    // learns of the hide, so an exchange after it is void there too.
    add_hm(&gm, "Foe", false);
    // Struck in the open: Foe owes a Morale roll, which the player's device holds.
    ok_db(&gm, &common::thorax_strike("Foe", "8", "shock=12"));
    carry(&gm, &ann, dir.path());
    assert!(ok_db(&ann, &["due"]).contains("Foe: morale"));
    ok_db(&gm, &["character", "hide", "Foe"]);
    carry(&gm, &ann, dir.path());
    assert!(ok_db(&ann, &["log"]).contains("Foe is GM-only from now"));
    assert!(ok_db(&ann, &["character", "list"]).contains("[GM-only]"));
    // What the foe owed when hidden is the GM's to follow: never listed as owed now.
    let out = run_db(&ann, &["due", "Foe"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("Foe is GM-only"), "{}", out.stderr);
    assert!(!ok_db(&ann, &["due"]).contains("Foe"));
}

/// Issue 42, the second attack: a GM-only healer's name would reach the players with a
/// Savage Worlds stabilisation: refused, nothing written.
#[test]
fn a_gm_only_healer_is_refused_for_a_character_the_table_sees() {
    let s = Scratch::new();
    s.ok(&["init", "--system", "savage-worlds"]);
    s.ok(&["character", "add", "Red", "--toughness", "6"]);
    s.ok(&[
        "character",
        "add",
        "Wraith",
        "--toughness",
        "6",
        "--gm-only",
    ]);
    s.ok(&["sw", "attributes", "Red", "--vigor", "d4", "--spirit", "d6"]);
    // 18 against Toughness 6, twice: three raises each, six Wounds: Incapacitated.
    for _ in 0..2 {
        s.ok(&[
            "sw",
            "damage",
            "Red",
            "--damage",
            "2d10",
            "--dice",
            "damage=9/9",
        ]);
    }
    s.ok(&[
        "sw",
        "roll",
        "Red",
        "incapacitation",
        "--dice",
        "trait=2,wild=1,injury=3/4,sub=5",
    ]);
    let before = s.bytes();
    let out = s.run(&[
        "sw",
        "stabilise",
        "Red",
        "--healer",
        "Wraith",
        "--trait",
        "d8",
        "--dice",
        "trait=5,wild=2",
    ]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(out.stderr.contains("Wraith is GM-only"), "{}", out.stderr);
    assert_eq!(s.bytes(), before);
}

/// A HârnMaster character of `db` (STR 12, END 12, Shock ML60, HB10), GM-only or not.
fn add_hm(db: &Path, name: &str, gm_only: bool) {
    let mut args = vec!["character", "add", name];
    if gm_only {
        args.push("--gm-only");
    }
    args.extend(["--str", "12", "--end", "12", "--shock", "60", "--hb", "10"]);
    ok_db(db, &args);
}

/// The owed list and the board as a device that is not a GM's reads them: a GM-only
/// character's record stops where the GM hid them, so neither they nor what they owe are
/// listed, and `due NAME` refuses them; the GM's device lists both. (One rule,
/// `views::owed_list`, for `due` and the board.)
#[test]
fn a_players_due_list_and_board_leave_out_what_the_gm_hid() {
    use leechbook::views::{owed_list, OwedHidden};
    let s = with_brigand();
    s.ok(&OSRIC_STRUCK);
    s.ok(&common::thorax_strike("Brigand", "6", "shock=12"));
    let ledger = leechbook_ledger::Replica::open(&s.db)
        .unwrap()
        .state()
        .unwrap();
    let brigand = ledger
        .characters
        .iter()
        .find(|c| c.name() == "Brigand")
        .unwrap();
    let owers = |gm: bool| -> Vec<String> {
        let mut names: Vec<String> = owed_list(&ledger, None, gm)
            .unwrap()
            .into_iter()
            .map(|o| o.character)
            .collect();
        names.sort();
        names.dedup();
        names
    };
    // Both owe their wounds' rolls (a thorax blow's bleeding and healing, by the rules).
    assert_eq!(owers(true), ["Brigand", "Osric"]);
    assert_eq!(owers(false), ["Osric"]);
    assert_eq!(
        owed_list(&ledger, Some(brigand), false).unwrap_err(),
        OwedHidden("Brigand".into())
    );
    assert!(!owed_list(&ledger, Some(brigand), true).unwrap().is_empty());
    let on = |gm: bool| {
        let b = leechbook::board::Board::of(&ledger, gm);
        let party = b.party.iter().any(|m| m.title.starts_with("Brigand"));
        let agenda = b.agenda.iter().any(|o| o.character == "Brigand");
        (party, agenda)
    };
    assert_eq!(on(true), (true, true));
    assert_eq!(on(false), (false, false));
}

/// A player's device asked to move the clock (the GM's) is refused before anything else is
/// looked at, in one line that says whose the clock is: it never stops first on a roll
/// that falls due on the way (a GM-only character's, which the GM's device stops on), and
/// the ledger is left as it was.
#[test]
fn a_players_advance_is_refused_without_naming_what_the_gm_hid() {
    let dir = tempfile::tempdir().unwrap();
    let gm = dir.path().join("gm.db");
    ok_db(&gm, &["init", "--name", "Kaldor"]);
    common::add_character(&gm, "Osric");
    add_hm(&gm, "Brute", false);
    ok_db(&gm, &common::thorax_strike("Brute", "8", "shock=12"));
    let ann = joined(&gm, dir.path(), "ann", "player");
    ok_db(&gm, &["character", "hide", "Brute"]);
    carry(&gm, &ann, dir.path());
    // On the GM's device the clock stops where the foe's Healing Roll falls due (day 6).
    let out = run_db(&gm, &["advance", "6d"]);
    assert!(out.stdout.contains("Brute owes"), "{}", out.stdout);
    let before = std::fs::read(&ann).unwrap();
    let out = run_db(&ann, &["advance", "6d"]);
    assert_eq!(out.code, 1);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("is a player's: the campaign clock is the GM's to move"),
        "{}",
        out.stderr
    );
    assert!(!out.stdout.contains("Brute") && !out.stderr.contains("Brute"));
    assert_eq!(std::fs::read(&ann).unwrap(), before);
}
