//! Rulings and time travel end to end: retract, reinstate, amend, override, what-if, diff,
//! why, show --at and log --until.

use crate::common;
use common::Scratch;
use serde_json::Value;

fn events(s: &Scratch) -> Vec<Value> {
    serde_json::from_str::<Value>(&s.ok(&["log", "--json"]))
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn last_of(s: &Scratch, kind: &str) -> String {
    events(s)
        .iter()
        .rev()
        .find(|e| e["kind"] == kind)
        .map(|e| e["id"].as_str().unwrap().to_string())
        .unwrap()
}

/// Osric with a bleeding G4E right shoulder, staunched, treated, and two healing rolls.
fn wounded() -> Scratch {
    let s = Scratch::with_osric();
    s.ok(&[
        "strike",
        "Osric",
        "--aspect",
        "edge",
        "--location",
        "shoulder",
        "--side",
        "right",
        "--effective",
        "16",
        "--dice",
        "shock=66",
    ]);
    s.ok(&["advance", "5m"]);
    s.ok(&["staunch", "Osric", "--physician", "70", "--dice", "roll=5"]);
    s.ok(&["roll", "Osric", "shock-reroll", "--dice", "roll=15"]);
    s.ok(&[
        "treat",
        "Osric",
        "--physician",
        "70",
        "--index",
        "7",
        "--dice",
        "treatment=21",
    ]);
    s.ok(&["advance", "5d"]);
    s.ok(&["roll", "Osric", "healing", "--dice", "roll=33"]);
    s
}

#[test]
fn retracting_a_strike_removes_its_injury_bleeding_and_shock_and_voids_what_followed() {
    let s = wounded();
    let strike = last_of(&s, "hm.strike");
    let before = s.bytes().len();
    let out = s.ok(&[
        "retract",
        &strike,
        "--reason",
        "that strike should never have hit",
    ]);
    assert!(
        out.contains(
            "struck #4 from the record (that strike should never have hit): Osric struck:"
        ),
        "{out}"
    );
    // Issue 41: what became void is named by number and by its words as it was recorded,
    // not by hex: the healing roll 33 against EML52 (the treatment's HR4 times Osric's
    // Healing Base 13) had healed the wound a level, G4E to S3E.
    assert!(
        out.contains(
            "now void: #10: Osric healing 33 vs EML52: S -> G4E -> S3E (Osric owes no Healing Roll"
        ),
        "{out}"
    );
    let v = s.show("Osric");
    assert_eq!(v["injuries"].as_array().unwrap().len(), 0);
    assert_eq!(v["bleeding"], false);
    assert_eq!(v["shock_state"], "none");
    // Nothing is deleted: the log grew, and shows the strike struck and the roll void.
    assert!(s.bytes().len() >= before);
    let log = s.ok(&["log"]);
    assert!(
        log.contains("STRUCK (retracted: that strike should never have hit)"),
        "{log}"
    );
    assert!(log.contains("VOID (Osric owes no Healing Roll"), "{log}");
    // Reinstating brings everything back.
    s.ok(&["reinstate", &strike, "--reason", "it hit after all"]);
    let v = s.show("Osric");
    assert_eq!(v["injuries"][0]["code"], "S3E");
    assert_eq!(v["shock_state"], "none");
    assert!(!s.ok(&["log"]).contains("VOID"));
    // Retracting the reinstatement undoes it: the strike is struck again.
    let reinstate = last_of(&s, "ruling.reinstate");
    s.ok(&[
        "retract",
        &reinstate,
        "--reason",
        "the reinstatement was a mistake",
    ]);
    assert_eq!(s.show("Osric")["injuries"].as_array().unwrap().len(), 0);
}

#[test]
fn amending_a_healing_roll_changes_the_day_the_wound_healed() {
    let s = Scratch::with_osric();
    s.ok(&common::edge_strike("Osric", "abdomen", "8", "shock=12"));
    s.ok(&[
        "treat",
        "Osric",
        "--physician",
        "50",
        "--dice",
        "treatment=47",
    ]); // S: HR5, EML65
    s.ok(&["advance", "5d"]);
    s.ok(&["roll", "Osric", "healing", "--dice", "roll=33"]); // S: S2 -> M1
    s.ok(&["advance", "5d"]);
    s.ok(&["roll", "Osric", "healing", "--dice", "roll=34"]); // S: healed on day 11
    assert_eq!(s.show("Osric")["injuries"][0]["healed_at"], "day 11 00:00");
    // "That healing roll was a 54... no, an 84": the first roll fails; the second now only
    // reaches M1, and a third roll on day 16 heals it.
    let first = events(&s)
        .iter()
        .find(|e| e["kind"] == "hm.seq-roll")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let out = s.ok(&[
        "amend",
        &first,
        "--dice",
        "roll=84",
        "--reason",
        "it was an 84",
    ]);
    assert!(
        out.contains("(it was an 84); it now reads: Osric healing (abdomen) 84 vs EML65: F"),
        "{out}"
    );
    let v = s.show("Osric");
    assert_eq!(v["injuries"][0]["code"], "M1E");
    assert_eq!(v["injuries"][0]["healed"], false);
    let log = s.ok(&["log"]);
    assert!(
        log.contains("amended: rolled 84 (was 33) against EML65: S becomes F"),
        "{log}"
    );
    assert!(
        log.contains("rolled 34 against EML65, now EML65: S stays S")
            || log.contains("34 vs EML65: S -> S2E -> M1E"),
        "{log}"
    );
    s.ok(&["advance", "5d"]);
    s.ok(&["roll", "Osric", "healing", "--dice", "roll=35"]);
    assert_eq!(s.show("Osric")["injuries"][0]["healed_at"], "day 16 00:00");
    // Undoing the amendment (retracting the ruling) restores the original faces: healed on
    // day 11, and the day-16 roll is void (the wound had healed).
    let amend = last_of(&s, "ruling.amend");
    s.ok(&["retract", &amend, "--reason", "the 33 was right"]);
    assert_eq!(s.show("Osric")["injuries"][0]["healed_at"], "day 11 00:00");
    assert!(s.ok(&["log"]).contains("has healed"));
}

#[test]
fn overrides_decree_outcomes_from_their_moment() {
    let s = wounded();
    let id = s.show("Osric")["injuries"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    s.ok(&[
        "override",
        "Osric",
        "--injury",
        &id,
        "--level",
        "2",
        "--reason",
        "the GM rules it was lighter",
    ]);
    assert_eq!(s.show("Osric")["injuries"][0]["code"], "S2E");
    s.ok(&[
        "override",
        "Osric",
        "--injury",
        &id,
        "--hr",
        "6",
        "--reason",
        "a saint's blessing",
    ]);
    assert_eq!(s.show("Osric")["injuries"][0]["healing_rate"], 6);
    s.ok(&[
        "override",
        "Osric",
        "--shock",
        "stn",
        "--reason",
        "dazed by the news",
    ]);
    assert_eq!(s.show("Osric")["shock_state"], "STN");
    let bad = s.run(&[
        "override", "Osric", "--injury", &id, "--hr", "9", "--reason", "x",
    ]);
    assert_eq!(bad.code, 1);
    assert!(
        bad.stderr.contains("a Healing Rate is 1-6"),
        "{}",
        bad.stderr
    );
}

#[test]
fn what_if_shows_the_change_and_records_nothing() {
    let s = wounded();
    let strike = last_of(&s, "hm.strike");
    let before = s.bytes();
    // Issue 41: what-if needs no reason and says what changes in words, a wound gone in one
    // line and each event made void by its number and words.
    let out = s.run(&["what-if", "retract", &strike]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("Osric:"), "{}", out.stdout);
    // It says which ruling it tries, naming the target as `log` does.
    assert!(
        out.stdout
            .starts_with("what if struck #4 from the record: Osric struck:"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("the right shoulder S3E wound: no longer on the record"),
        "{}",
        out.stdout
    );
    // Yes or no, never a hex id.
    assert!(
        !out.stdout.contains("true") && !out.stdout.contains("false"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("code: S3E -> none"), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("would be void: #10: Osric healing (right shoulder) 33 vs EML"),
        "{}",
        out.stdout
    );
    assert!(out.stderr.contains("nothing was recorded"));
    assert_eq!(s.bytes(), before);
    // A ruling itself still keeps its reason.
    let out = s.run(&["retract", &strike]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("a ruling keeps its reason"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
}

#[test]
fn time_travel_show_at_log_until_and_diff() {
    let s = wounded();
    let all = events(&s);
    let treatment = all.iter().find(|e| e["kind"] == "hm.treatment").unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    // Before the healing roll (as of the treatment event): still S3E untreated... treated.
    let at = serde_json::from_str::<Value>(&s.ok(&["show", "Osric", "--at", &treatment, "--json"]))
        .unwrap();
    assert_eq!(at["injuries"][0]["code"], "G4E");
    assert_eq!(at["injuries"][0]["treatment"], "S HR4");
    let by_day: Value =
        serde_json::from_str(&s.ok(&["show", "Osric", "--at", "day 3", "--json"])).unwrap();
    assert_eq!(by_day["campaign_time"], "day 3 00:00");
    assert_eq!(by_day["injuries"][0]["code"], "G4E");
    let until = s.ok(&["log", "--until", &treatment]);
    assert!(
        until.lines().last().unwrap().contains("treatment"),
        "{until}"
    );
    let d = s.ok(&["diff", "Osric", "--from", &treatment]);
    // In words: the injury by its place, its code (which says its level).
    assert!(
        d.contains("the right shoulder wound's code: G4E -> S3E"),
        "{d}"
    );
    assert!(!d.contains("injuries[") && !d.contains('"'), "{d}");
    assert!(s
        .ok(&["diff", "Osric", "--from", "day 10", "--to", "day 10"])
        .contains("no change"));
    let bad = s.run(&["show", "Osric", "--at", "yesterday"]);
    assert_eq!(bad.code, 1);
    assert!(bad.stderr.contains("is not a moment"), "{}", bad.stderr);
}

#[test]
fn why_tells_the_chain_with_rules_and_rulings() {
    let s = wounded();
    let heal = last_of(&s, "hm.seq-roll");
    s.ok(&[
        "amend",
        &heal,
        "--dice",
        "roll=34",
        "--reason",
        "misread die",
    ]);
    let id = s.show("Osric")["injuries"][0]["short_id"]
        .as_str()
        .unwrap()
        .to_string();
    let out = s.ok(&["why", "Osric", &id]);
    for needle in [
        "Injury Sequence steps 1-5",
        "Healing step 1: Blood Stoppage Roll",
        "Healing step 5: TREATMENT ROLL tables",
        "Healing step 6: Healing Roll",
        "amended by ruling",
        "RULING: amended #",
        "=> now S3E",
    ] {
        assert!(out.contains(needle), "{needle:?} missing from:\n{out}");
    }
}

/// The roll that healed a wound, amended after it healed: the wound's story (which ends
/// where the archive filed it) still tells the roll as amended, with the flag and the
/// ruling, as `log` does; a story cut at the filing left the ruling out and told the roll as
/// first recorded.
#[test]
fn a_ruling_after_a_wound_healed_is_in_its_story() {
    let s = Scratch::with_osric();
    s.ok(&common::edge_strike("Osric", "abdomen", "3", "shock=12"));
    s.ok(&["advance", "5d"]);
    // HB13 x HR4 = EML52: 1 is a success, and M1E heals (so does 4).
    let out = s.ok(&["roll", "Osric", "healing", "abdomen", "--dice", "roll=1"]);
    assert!(out.contains("1 vs EML52: S -> M1E heals"), "{out}");
    let roll = last_of(&s, "hm.seq-roll");
    s.ok(&["amend", &roll, "--dice", "roll=4", "--reason", "misread"]);
    let why = s.ok(&["why", "Osric", "abdomen"]);
    assert!(why.contains("4 vs EML52: S -> M1E heals"), "{why}");
    assert!(why.contains("amended: rolled 4 (was 1)"), "{why}");
    assert!(why.contains("RULING: amended"), "{why}");
    assert!(!why.contains(" 1 vs EML52"), "{why}");
    let history = s.ok(&["history", "Osric", "abdomen"]);
    assert!(
        history.contains("4 vs EML52: S -> M1E heals [amended by a ruling]"),
        "{history}"
    );
}

/// An amendment after a wound healed that makes an exchange between two others strike its
/// bearer: the defender amended to Osric, whose bleeding from it voids the treatment of his
/// healed wound (healers first stop the bleeding). The wound's story is told as the whole
/// record tells it, not cut where it healed as if the exchange were still the others'.
/// (The command line amends dice and inputs only; a GM device's ruling built otherwise
/// arrives by sync.)
#[test]
fn an_amendment_that_reaches_a_healed_wounds_bearer_is_in_its_story() {
    use leechbook_core::harnmaster::HmEvent;
    use leechbook_core::ruling::Ruling;
    use leechbook_core::Event;
    // Three ML60 swordsmen (Osric: STR 12, END 12, Shock ML65, HB13) and an M1E thorax.
    let s = Scratch::new();
    common::swordsmen(&s.db, &["Osric", "Attacker", "Defender"]);
    s.ok(&common::thorax_strike("Osric", "3", "shock=12"));
    // A G5E bleeding abdomen for the defender.
    let out = s.ok(&[
        "melee",
        "Attacker",
        "Defender",
        "--weapon",
        "broadsword",
        "--mode",
        "edge",
        "--defence",
        "dodge",
        "--dice",
        "attack=5,defence=95,zone=4,location=7,impact=10,shock=12",
    ]);
    assert!(out.contains("G5E; bleeder"), "{out}");
    s.ok(&[
        "treat",
        "Osric",
        "--physician",
        "60",
        "--dice",
        "treatment=96",
    ]);
    s.ok(&["advance", "5d", "--skip-owed"]);
    s.ok(&["roll", "Osric", "healing", "thorax", "--dice", "roll=1"]);
    let melee = common::first_of_kind(&s.db, "hm.melee");
    let osric = leechbook_ledger::Replica::open(&s.db)
        .unwrap()
        .state()
        .unwrap()
        .id_named("Osric")
        .unwrap();
    let Event::HarnMaster(HmEvent::Melee(mut exchange)) = melee.event.clone() else {
        panic!("a melee");
    };
    exchange.defender = osric;
    {
        let mut store = leechbook_store::Store::open(&s.db).unwrap();
        let mut w = store.write().unwrap();
        let at = leechbook_core::time::CampaignTime(6 * leechbook_core::time::DAY);
        let amend = Event::Ruling(Ruling::Amend {
            target: melee.id,
            replacement: Box::new(Event::HarnMaster(HmEvent::Melee(exchange))),
            reason: "Osric stepped in".into(),
        });
        let env = w.prepare(amend, at, chrono::Utc::now()).unwrap();
        w.append(&env).unwrap();
        w.commit().unwrap();
    }
    leechbook_ledger::Replica::open(&s.db)
        .unwrap()
        .refresh()
        .unwrap();
    // The whole record: the treatment is void now.
    let log = s.ok(&["log", "--character", "Osric"]);
    assert!(log.contains("stop the bleeding"), "{log}");
    let why = s.ok(&["why", "Osric", "thorax"]);
    assert!(
        why.contains("void (Osric owes no Treatment Roll: healers must first stop the bleeding"),
        "{why}"
    );
    // Untreated, the wound heals at HR4 (HB13 x 4 = 52), as the record now has it.
    assert!(why.contains("rolled 1 against EML65, now EML52"), "{why}");
    let history = s.ok(&["history", "Osric", "thorax"]);
    assert!(history.contains("1 vs EML52: S -> M1E heals"), "{history}");
    assert!(!history.contains("treatment (thorax)"), "{history}");
}

#[test]
fn bad_rulings_are_refused_and_change_nothing() {
    let s = wounded();
    let before = s.bytes();
    for (args, needle) in [
        (
            vec!["retract", "abcdef99", "--reason", "x"],
            "the log holds no event",
        ),
        (
            vec!["retract", "xyz", "--reason", "x"],
            "is not an event id",
        ),
        (
            vec!["reinstate", &last_of(&s, "hm.strike"), "--reason", "x"],
            "is not retracted",
        ),
        (
            vec!["amend", &last_of(&s, "hm.strike"), "--reason", "x"],
            "nothing to amend",
        ),
        (
            vec![
                "amend",
                &last_of(&s, "hm.strike"),
                "--dice",
                "shock=101",
                "--reason",
                "x",
            ],
            "not 101",
        ),
    ] {
        let out = s.run(&args);
        assert_eq!(out.code, 1, "{args:?}");
        assert!(out.stderr.contains(needle), "{args:?}: {}", out.stderr);
        assert_eq!(s.bytes(), before);
    }
    let first = events(&s)[0]["id"].as_str().unwrap().to_string();
    let out = s.run(&["retract", &first, "--reason", "x"]);
    assert!(
        out.stderr
            .contains("the campaign's creation cannot be retracted"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
}

/// Issue 12, item 19: an override acts from its moment: `show --at` an earlier day does not
/// show it, `diff` across it names it, and `log --until` an earlier day does not list it.
#[test]
fn an_override_acts_from_its_moment_in_show_diff_and_log() {
    let s = wounded();
    let id = s.show("Osric")["injuries"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let at = |moment: &str| -> Value {
        serde_json::from_str(&s.ok(&["show", "Osric", "--at", moment, "--json"])).unwrap()
    };
    let day3 = at("day 3");
    s.ok(&["advance", "5d"]); // day 11
    s.ok(&[
        "override",
        "Osric",
        "--injury",
        &id,
        "--level",
        "1",
        "--reason",
        "a miracle on day 11",
    ]);
    assert_eq!(s.show("Osric")["injuries"][0]["level"], 1);
    assert_eq!(at("day 3"), day3, "the override leaked into day 3");
    assert_ne!(day3["injuries"][0]["level"], 1);
    assert_eq!(at("day 12")["injuries"][0]["level"], 1);
    let d = s.ok(&["diff", "Osric", "--from", "day 3", "--to", "day 12"]);
    assert!(d.contains("code: ") && d.contains("-> M1"), "{d}");
    assert!(!s
        .ok(&["log", "--until", "day 3"])
        .contains("a miracle on day 11"));
    assert!(s
        .ok(&["log", "--until", "day 12"])
        .contains("a miracle on day 11"));
}

/// Issue 12, item 20: `log --until` a day before an amended event shows the amendment in
/// force (it acts on nothing in that moment), not as void for want of its target.
#[test]
fn log_until_shows_an_amendment_of_a_later_event_in_force() {
    let s = wounded();
    let roll = last_of(&s, "hm.seq-roll"); // the healing roll on day 6
    s.ok(&[
        "amend",
        &roll,
        "--dice",
        "roll=84",
        "--reason",
        "it was an 84",
    ]);
    let until = s.ok(&["log", "--until", "day 3"]);
    assert!(!until.contains("which the log does not hold"), "{until}");
    assert!(!until.contains("VOID"), "{until}");
    assert!(until.contains("it was an 84"), "{until}");
    let j: Value = serde_json::from_str(&s.ok(&["log", "--until", "day 3", "--json"])).unwrap();
    let amend = j
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "ruling.amend")
        .expect("the amendment is listed");
    assert!(amend["void"].is_null(), "{amend}");
    // Over the whole log the amendment is in force too.
    let whole = s.ok(&["log"]);
    assert!(!whole.contains("VOID"), "{whole}");
}

/// Issue 12, item 21: `amend` checks faces as the recording commands do: a d100 face of 0,
/// 101 or 5000, a treatment face of 0 and a Morale roll of 250 are refused, nothing written.
#[test]
fn amend_refuses_faces_the_die_cannot_show() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    let made = leechbook::run(["leechbook", "demo", "--out", db.to_str().unwrap()]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    let log: Vec<Value> =
        serde_json::from_str(&common::run_db(&db, &["log", "--json"]).stdout).unwrap();
    let first = |kind: &str| {
        log.iter()
            .find(|e| e["kind"] == kind)
            .unwrap_or_else(|| panic!("the demo has no {kind}"))["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let before = std::fs::read(&db).unwrap();
    for (kind, dice, needle) in [
        ("hm.seq-roll", "roll=0", "not 0"),
        ("hm.seq-roll", "roll=101", "not 101"),
        ("hm.seq-roll", "roll=5000", "not 5000"),
        ("hm.shock-reroll", "roll=0", "not 0"),
        ("hm.treatment", "treatment=0", "not 0"),
        ("hm.gm-roll", "roll=250", "not 250"),
    ] {
        let out = common::run_db(
            &db,
            &["amend", &first(kind), "--dice", dice, "--reason", "x"],
        );
        assert_eq!(out.code, 1, "{kind} {dice}: {}", out.stdout);
        let err = out.stderr.trim_end();
        assert_eq!(err.lines().count(), 1, "{kind} {dice}: one line: {err}");
        assert!(err.contains(needle), "{kind} {dice}: {err}");
        assert_eq!(std::fs::read(&db).unwrap(), before, "{kind} {dice} wrote");
    }
    // The recording commands refuse the same faces.
    let out = common::run_db(
        &db,
        &[
            "roll", "Osric", "morale", "--ml", "60", "--dice", "roll=250",
        ],
    );
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(out.stderr.contains("not 250"), "{}", out.stderr);
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

/// The sweep of items 9 and 21 over `amend`: a die the amended event would not read, or a
/// second face for a single roll, is refused and nothing is recorded.
#[test]
fn amend_refuses_dice_the_event_does_not_read() {
    let s = wounded();
    let strike = last_of(&s, "hm.strike");
    let roll = last_of(&s, "hm.seq-roll");
    let before = s.bytes();
    for (args, needle) in [
        (
            vec!["amend", &strike, "--dice", "compound=5", "--reason", "x"],
            "does not use",
        ),
        (
            vec!["amend", &roll, "--dice", "roll=3/4", "--reason", "x"],
            "records one roll",
        ),
    ] {
        let out = s.run(&args);
        assert_eq!(out.code, 1, "{args:?}: {}", out.stdout);
        assert!(out.stderr.contains(needle), "{args:?}: {}", out.stderr);
        assert_eq!(s.bytes(), before, "{args:?} wrote");
    }
}

/// A character's own log (`log --character`, and so `export --csv`) holds the rulings on its
/// events, and a ruling on such a ruling: the audit shows what was struck and restored.
#[test]
fn a_characters_log_holds_the_rulings_on_its_events() {
    let s = wounded();
    s.ok(&[
        "character",
        "add",
        "Brannoc",
        "--str",
        "12",
        "--end",
        "12",
        "--shock",
        "60",
        "--hb",
        "12",
    ]);
    let strike = last_of(&s, "hm.strike");
    s.ok(&["retract", &strike, "--reason", "never hit"]);
    let retract = last_of(&s, "ruling.retract");
    s.ok(&["reinstate", &strike, "--reason", "it did hit after all"]);
    let reinstate = last_of(&s, "ruling.reinstate");
    let kinds = |name: &str| -> Vec<String> {
        serde_json::from_str::<Value>(&s.ok(&["log", "--character", name, "--json"]))
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_str().unwrap().to_string())
            .collect()
    };
    let osric = kinds("Osric");
    assert!(osric.contains(&retract), "the retraction is in Osric's log");
    assert!(osric.contains(&reinstate), "so is the reinstatement");
    let brannoc = kinds("Brannoc");
    assert!(
        !brannoc.contains(&retract) && !brannoc.contains(&reinstate),
        "rulings on Osric's events are not Brannoc's"
    );
}

/// Issue 26, items 3 and 4: a clock typo is undone by retracting the advance (the clock goes
/// back, and the retraction moves no clock of its own), and events are named by the number
/// `log` prints before them (`#4`, or `4`), which a sync never changes.
#[test]
fn retracting_an_advance_takes_the_clock_back_and_events_go_by_their_number() {
    let s = Scratch::with_osric();
    s.ok(&["advance", "40d"]);
    s.ok(&["advance", "50d"]);
    let log = s.ok(&["log"]);
    let line = log
        .lines()
        .find(|l| l.contains("the clock advances 50d"))
        .unwrap_or_else(|| panic!("{log}"));
    let number = line.split_whitespace().next().unwrap().to_string();
    let out = s.ok(&["retract", &format!("#{number}"), "--reason", "meant 50m"]);
    assert!(
        out.contains(&format!(
            "RULING: struck #{number} from the record (meant 50m): the clock advances to day 91 00:00"
        )),
        "{out}"
    );
    assert_eq!(s.show("Osric")["campaign_time"], "day 41 00:00");
    let log = s.ok(&["log"]);
    assert!(
        log.contains("STRUCK (retracted: meant 50m): the clock advances 50d"),
        "a struck event keeps its text: {log}"
    );
    let out = s.ok(&["advance", "--to", "day 41 00:50"]);
    assert!(out.contains("to day 41 00:50"), "{out}");
    // A bare number names it too; one the log does not hold is one line, nothing written.
    let out = s.run(&["reinstate", &number, "--reason", "it was 50d after all"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let before = s.bytes();
    let out = s.run(&["retract", "#9999", "--reason", "no such"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("the log holds no event '#9999'"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
}

/// Issue 26, item 6: commands run at once on one ledger wait for each other: six `advance
/// 1m` in parallel all succeed and move the clock six minutes, never "internal error".
#[test]
fn parallel_advances_wait_for_each_other() {
    let s = Scratch::with_osric();
    let db = s.db.display().to_string();
    let runs: Vec<_> = (0..6)
        .map(|_| {
            let db = db.clone();
            std::thread::spawn(move || {
                leechbook::run(["leechbook", "--db", &db, "advance", "1m"].map(String::from))
            })
        })
        .collect();
    for r in runs {
        let out = r.join().unwrap();
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    assert_eq!(s.show("Osric")["campaign_time"], "day 1 00:06");
}

/// Issue 26, item 3: `undo` retracts the last thing this device recorded that stands, as a
/// ruling in the log (jj-style: nothing erased). Issue 41, item 1: it says what it struck (#N
/// and its words), and `undo` again steps one further back through the device's recordings;
/// an undo is undone only by name. A struck event keeps its text in `log`, marked.
#[test]
fn undo_steps_back_through_the_recordings_and_says_each() {
    let s = Scratch::with_osric();
    s.ok(&common::thorax_strike("Osric", "6", "shock=12"));
    s.ok(&["roll", "Osric", "morale", "--ml", "50", "--dice", "roll=40"]);
    assert_eq!(s.show("Osric")["injuries"].as_array().unwrap().len(), 1);
    let out = s.ok(&["undo", "--reason", "wrong roll"]);
    assert!(
        out.contains(
            "RULING: struck #5 from the record (undone: wrong roll): Osric Morale roll 40 vs EML50: CS"
        ),
        "{out}"
    );
    let out = s.ok(&["undo", "--reason", "wrong target"]);
    assert!(
        out.contains("RULING: struck #4 from the record (undone: wrong target): Osric struck:"),
        "{out}"
    );
    assert_eq!(s.show("Osric")["injuries"].as_array().unwrap().len(), 0);
    let log = s.ok(&["log"]);
    assert!(
        log.lines()
            .any(|l| l.contains("STRUCK (retracted: undone: wrong target): Osric")),
        "{log}"
    );
    // The undo of the strike is undone by name: it is #7.
    let out = s.ok(&["reinstate", "#4", "--reason", "it was Osric after all"]);
    assert!(
        out.contains("RULING: #4 stands again (it was Osric after all): Osric struck:"),
        "{out}"
    );
    assert_eq!(s.show("Osric")["injuries"].as_array().unwrap().len(), 1);
    // Nothing to undo on a ledger whose only events cannot be undone: one line.
    let fresh = Scratch::new();
    fresh.ok(&["init"]);
    let out = fresh.run(&["undo"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
}

/// Issue 41, item 1: a retraction the GM typed is a recording like any other: `undo` right
/// after it takes the retraction back (its target stands again), never an older event.
#[test]
fn undo_after_a_retraction_takes_the_retraction_back() {
    let s = Scratch::with_osric();
    s.ok(&common::thorax_strike("Osric", "6", "shock=12"));
    s.ok(&["roll", "Osric", "morale", "--ml", "50", "--dice", "roll=40"]);
    let out = s.ok(&["retract", "#5", "--reason", "missed"]);
    assert!(
        out.contains("RULING: struck #5 from the record (missed)"),
        "{out}"
    );
    let out = s.ok(&["undo", "--reason", "I retracted the wrong one"]);
    assert!(
        out.contains("RULING: struck #6 from the record (undone: I retracted the wrong one)"),
        "{out}"
    );
    // The strike (#4) and the morale roll (#5) both stand.
    let log = s.ok(&["log"]);
    assert!(!log.contains("STRUCK (retracted: missed)"), "{log}");
    assert_eq!(s.show("Osric")["injuries"].as_array().unwrap().len(), 1);
    assert!(s.ok(&["log", "Osric"]).contains("Morale roll 40"));
}

/// Issue 26, item 3: a fumble recorded without its outcome gets one later, by amendment.
#[test]
fn a_missing_outcome_is_added_by_amend() {
    let s = Scratch::with_osric();
    s.ok(&common::shoulder_strike("Osric"));
    s.ok(&["roll", "Osric", "fumble"]);
    let number = log_number(&s, "hm.gm-roll");
    let out = s.ok(&[
        "amend",
        &number,
        "--outcome",
        "drops the sword",
        "--reason",
        "the GM ruled it",
    ]);
    // Issue 41: the ruling names its target by number and says how it reads now.
    assert!(
        out.contains("RULING: amended #") && out.contains("(the GM ruled it); it now reads: Osric Fumble roll: automatic failure (drops the sword)"),
        "{out}"
    );
    let log = s.ok(&["log"]);
    assert!(log.contains("drops the sword"), "{log}");
    // A strike takes no outcome: said so, not "nothing to amend".
    let strike = log_number(&s, "hm.strike");
    let out = s.run(&["amend", &strike, "--outcome", "x", "--reason", "y"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("the hm.strike takes no --outcome"),
        "{}",
        out.stderr
    );
}

/// `#N` of the last event of `kind`.
fn log_number(s: &Scratch, kind: &str) -> String {
    let log: Vec<Value> = serde_json::from_str(&s.ok(&["log", "--json"])).unwrap();
    let e = log.iter().rev().find(|e| e["kind"] == kind).unwrap();
    format!("#{}", e["clock"])
}

/// Issue 26, item 4: an event is named by a unique prefix of its id too (as copied from
/// `log --json`), wherever an id is taken; a prefix two events share is called ambiguous.
#[test]
fn an_event_is_named_by_a_prefix_of_its_id() {
    let s = wounded();
    let strike = last_of(&s, "hm.strike");
    // Through its random digits: "xxxxxxxx-xxxx-7xxx-yyyy" (the time, then 26 random bits).
    let prefix = &strike[..23];
    let out = s.ok(&[
        "what-if",
        "retract",
        prefix,
        "--reason",
        "suppose it missed",
    ]);
    assert!(out.contains("Osric:"), "{out}");
    let at = s.ok(&["show", "Osric", "--at", prefix, "--json"]);
    assert!(at.contains("\"injuries\""), "{at}");
    // Eight digits are the minute or so the event was recorded in: shared by the others of
    // this quick test (checked, not assumed), so they name no one event.
    let short = &strike[..8];
    let sharing = events(&s)
        .iter()
        .filter(|e| e["id"].as_str().unwrap().starts_with(short))
        .count();
    if sharing > 1 {
        let out = s.run(&["show", "Osric", "--at", short]);
        assert_eq!(out.code, 1);
        assert!(
            out.stderr.contains("matches several events"),
            "{}",
            out.stderr
        );
    }
}
