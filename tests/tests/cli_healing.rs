//! The Healing Sequence end to end through the CLI: the scripting contract, the worked
//! examples with their dice given, refusals and forced rulings, and `advance --roll`.

use crate::common;
use common::Scratch;
use leechbook_core::fold::Ledger;
use leechbook_store::Store;
use serde_json::Value;

fn injury_id(s: &Scratch, name: &str, n: usize) -> String {
    s.show(name)["injuries"][n]["id"]
        .as_str()
        .unwrap()
        .to_string()
}

fn due(s: &Scratch, name: &str) -> Vec<Value> {
    serde_json::from_str::<Value>(&s.ok(&["due", name, "--json"]))
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// Osric with the S2E abdomen of the treatment example.
fn s2e_abdomen() -> (Scratch, String) {
    let s = Scratch::with_osric();
    s.ok(&common::abdomen_strike("Osric"));
    let id = injury_id(&s, "Osric", 0);
    (s, id)
}

#[test]
fn the_scripting_contract_and_the_healing_infection_example() {
    let (s, id) = s2e_abdomen();
    // Example 5: Physician ML50, CLN +10: 62 is F -> HR4 with the chance of infection.
    let out = s.ok(&[
        "treat",
        "Osric",
        &id,
        "--physician",
        "50",
        "--dice",
        "treatment=62",
    ]);
    assert!(
        out.contains("62 vs EML60: F -> CLN (F): HR4, chance of infection"),
        "{out}"
    );
    s.ok(&["advance", "5d"]);
    let d = due(&s, "Osric");
    let healing = d
        .iter()
        .find(|o| o["kind"] == "healing")
        .expect("a healing roll is owed");
    assert_eq!(healing["target"], id.as_str());
    assert_eq!(healing["due_at"], "day 6 00:00");
    assert_eq!(healing["eml"], 52);
    assert_eq!(healing["eml_parts"][0], "HB13 x HR4 = 52");
    // Examples 6-7: day 5 62 F; day 10 24 S (M1, 5 impairment); day 15 95 CF: infected.
    s.ok(&["roll", "Osric", "healing", &id, "--dice", "roll=62"]);
    s.ok(&["advance", "5d"]);
    s.ok(&["roll", "Osric", "healing", &id, "--dice", "roll=24"]);
    let v = s.show("Osric");
    assert_eq!(v["injuries"][0]["code"], "M1E");
    assert_eq!(v["impairment"]["torso"]["impairment"], 5);
    s.ok(&["advance", "5d"]);
    s.ok(&["roll", "Osric", "healing", &id, "--dice", "roll=95"]);
    assert_eq!(s.show("Osric")["infection_hr"], 5);
    // Infection course at HB13 x HR5 = 65 a day later: 42 is S, HR6, defeated.
    s.ok(&["advance", "1d"]);
    let inf = due(&s, "Osric");
    assert!(
        inf.iter().all(|o| o["kind"] != "healing"),
        "healing halts while infected"
    );
    let out = s.ok(&["roll", "Osric", "infection", "--dice", "roll=42"]);
    assert!(
        out.contains("42 vs EML65: S -> infection HR6: the infection is defeated"),
        "{out}"
    );
    // Healing resumes five days later: 42 against EML52 heals it, 21 days after the strike.
    s.ok(&["advance", "5d"]);
    s.ok(&["roll", "Osric", "healing", &id, "--dice", "roll=42"]);
    let story: Value = serde_json::from_str(&s.ok(&["history", "Osric", &id, "--json"])).unwrap();
    assert_eq!(story["type"], "history");
    assert_eq!(story["injury"]["healed"], true);
    assert_eq!(story["injury"]["healed_at"], "day 22 00:00");
    assert_eq!(
        story["ending"],
        "healed on day 22 (21 days after it was inflicted)"
    );
    let kinds: Vec<&str> = story["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "hm.strike",
            "hm.treatment",
            "hm.seq-roll",
            "hm.seq-roll",
            "hm.seq-roll",
            "hm.seq-roll",
            "hm.seq-roll"
        ]
    );
}

#[test]
fn rolls_not_due_are_refused_unchanged_unless_forced_as_a_ruling() {
    let (s, id) = s2e_abdomen();
    let before = s.bytes();
    let out = s.run(&["roll", "Osric", "healing", &id, "--dice", "roll=30"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("Osric's Healing Roll is not due until day 6 00:00"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    let out = s.run(&["roll", "Osric", "blood-loss", &id, "--dice", "roll=30"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("is not a bleeder"), "{}", out.stderr);
    let out = s.run(&["roll", "Osric", "infection", "--dice", "roll=30"]);
    assert!(
        out.stderr.contains("they have no infection"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    // Forced: recorded, and shown as the GM's ruling.
    // Untreated S2E heals at the CF rate, HR3: EML39; 31 is S.
    let out = s.ok(&[
        "roll", "Osric", "healing", &id, "--dice", "roll=31", "--force",
    ]);
    assert!(
        out.contains("31 vs EML39: S -> S2E -> M1E [forced by the GM]"),
        "{out}"
    );
    assert!(s.ok(&["log"]).contains("[forced by the GM]"));
    s.ok(&[
        "roll", "Osric", "healing", &id, "--dice", "roll=32", "--force",
    ]);
    assert_eq!(s.show("Osric")["injuries"][0]["healed"], true);
    // A healed injury is never rolled for, forced or not.
    let before = s.bytes();
    let out = s.run(&[
        "roll", "Osric", "healing", &id, "--dice", "roll=33", "--force",
    ]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("has healed"), "{}", out.stderr);
    assert_eq!(s.bytes(), before);
}

#[test]
fn bleeding_stoppage_and_advance_stops_for_decisions() {
    let s = Scratch::with_osric();
    // G4E right shoulder: a bleeder.
    s.ok(&common::shoulder_strike("Osric"));
    let out = s.ok(&["--seed", "1", "advance", "1h", "--roll"]);
    assert!(
        out.contains("stopped at day 1 00:05: Osric's G4E right shoulder bleeds"),
        "{out}"
    );
    // Tend it: staunch S (stops after one more blood loss roll).
    let out = s.ok(&[
        "staunch",
        "Osric",
        "--physician",
        "40",
        "--healer",
        "Ally",
        "--dice",
        "roll=33",
    ]);
    assert!(
        out.contains("33 vs EML40: S -> bleeding stops after one more blood loss roll"),
        "{out}"
    );
    // Treatment waits until the bleeding has stopped.
    let before = s.bytes();
    let out = s.run(&[
        "treat",
        "Osric",
        "--physician",
        "60",
        "--dice",
        "treatment=44",
    ]);
    assert!(
        out.stderr.contains("must first stop the bleeding"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
    // The last blood loss roll: Strength ML60, 5 is CS: no BP; the bleeding stops.
    let out = s.ok(&["roll", "Osric", "blood-loss", "--dice", "roll=5"]);
    assert!(
        out.contains("5 vs EML60: CS -> 0 BP (total 0); the bleeding stops"),
        "{out}"
    );
    assert_eq!(s.show("Osric")["bleeding"], false);
    // Physician ML60, SUR on a Grievous edge injury (0): 44 is S -> HR4.
    let out = s.ok(&[
        "treat",
        "Osric",
        "--physician",
        "60",
        "--index",
        "6",
        "--dice",
        "treatment=44",
    ]);
    assert!(out.contains("44 vs EML60: S -> SUR (S): HR4"), "{out}");
}

#[test]
fn advance_sixty_days_on_the_demo_is_complete_and_replayable() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    let out = leechbook::run(["leechbook", "demo", "--out", db.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("roll(s) made"));
    let store = Store::open(&db).unwrap();
    let events = store.events().unwrap();
    let a = Ledger::fold(&events);
    assert!(a.void.is_empty(), "{:?}", a.void);
    // Every injury healed within the sixty days (or is still on its schedule).
    for c in &a.characters {
        let h = c.hm().unwrap();
        for i in &h.injuries {
            assert!(i.healed() || i.heal.next_healing > a.now, "{:?}", i);
        }
    }
    let b = Ledger::fold(&events);
    assert_eq!(a.characters, b.characters);
    // due and history show it.
    let due = common::run_db(&db, &["due", "--json"]);
    assert_eq!(due.code, 0);
    let h = common::run_db(&db, &["history", "Osric"]);
    assert!(h.stdout.contains("healing (abdomen)"), "{}", h.stdout);
}

/// Issue 12, item 11: `due --json` gives the EML the roll is made against (bounded 5..95) and
/// keeps the unbounded terms in `eml_parts`.
#[test]
fn due_reports_the_bounded_eml_and_the_raw_parts() {
    let s = Scratch::new();
    s.ok(&["init", "--name", "test"]);
    for (who, hb) in [("Hale", "25"), ("Frail", "1")] {
        s.ok(&[
            "character",
            "add",
            who,
            "--str",
            "12",
            "--end",
            "12",
            "--shock",
            "65",
            "--hb",
            hb,
        ]);
        // Effective 3 on the abdomen, edged: M1E, untreated (the M column's CF cell: HR4).
        s.ok(&[
            "strike",
            who,
            "--aspect",
            "edge",
            "--location",
            "abdomen",
            "--effective",
            "3",
            "--dice",
            "shock=12",
        ]);
    }
    let healing = |who: &str| {
        due(&s, who)
            .into_iter()
            .find(|o| o["kind"] == "healing")
            .expect("a healing roll is owed")
    };
    let h = healing("Hale");
    assert_eq!(h["eml_parts"][0], "HB25 x HR4 = 100", "{h}");
    assert_eq!(h["eml"], 95, "{h}"); // 100, bounded to 95
    let f = healing("Frail");
    assert_eq!(f["eml_parts"][0], "HB1 x HR4 = 4", "{f}");
    assert_eq!(f["eml"], 5, "{f}"); // 4, bounded to 5
    let text = s.ok(&["due", "Hale"]);
    assert!(
        text.contains("healing at EML95 (HB25 x HR4 = 100)"),
        "{text}"
    );
}

/// Issue 12, item 18, swept: the commands `advance --roll` hints at run as printed, for
/// characters whose names have a space.
#[test]
fn the_advance_hints_run_as_printed() {
    let run_hint = |s: &Scratch, out: &str| {
        let mut args = common::hinted_command(out, &[("ML", "60")]);
        args.extend(["--seed".to_string(), "3".to_string()]);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        s.ok(&refs)
    };
    let add = |s: &Scratch, name: &str| {
        s.ok(&["init", "--name", "test"]);
        s.ok(&[
            "character",
            "add",
            name,
            "--str",
            "12",
            "--end",
            "12",
            "--shock",
            "65",
            "--hb",
            "13",
        ]);
    };
    // A bleeding G4E right shoulder: advancing stops to staunch it.
    let s = old_tom_bleeding();
    let out = s.ok(&["--seed", "1", "advance", "1h", "--roll"]);
    assert!(out.contains("leechbook staunch 'Old Tom' "), "{out}");
    assert!(run_hint(&s, &out).contains("Old Tom"));
    // An untreated S2E abdomen (no bleeder): advancing to its healing roll stops to treat it.
    let t = Scratch::new();
    add(&t, "Young Ann");
    t.ok(&common::abdomen_strike("Young Ann"));
    let out = t.ok(&["--seed", "1", "advance", "6d", "--roll"]);
    assert!(out.contains("leechbook treat 'Young Ann' "), "{out}");
    assert!(run_hint(&t, &out).contains("treatment"));
}

/// Issue 25: `due` lists the owed rolls in the order they fall due, whoever owes them:
/// Bertil's blood loss roll five minutes on comes before Osric's healing roll days away,
/// though Osric joined first.
#[test]
fn due_lists_owed_rolls_in_time_order() {
    let (s, _) = s2e_abdomen();
    bleeding_shoulder(&s, "Bertil");
    let all: Vec<Value> = serde_json::from_str(&s.ok(&["due", "--json"])).unwrap();
    let at = |who: &str, kind: &str| {
        all.iter()
            .position(|o| o["character"] == who && o["kind"] == kind)
            .unwrap_or_else(|| panic!("{who} owes no {kind}: {all:?}"))
    };
    assert!(
        at("Bertil", "blood-loss") < at("Osric", "healing"),
        "{all:#?}"
    );
    let text = s.ok(&["due"]);
    let line = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap();
    assert!(line("Bertil") < line("Osric: healing"), "{text}");
}

/// Issue 25: `treat NAME` without an injury picks the only open one even once a healer has
/// treated it: a second healer of a higher Physician Index may still treat it (step 5), and
/// the same healer is refused by the rules, not by "has no injury to treat".
#[test]
fn treat_without_an_injury_serves_a_second_healer() {
    let (s, _) = s2e_abdomen();
    s.ok(&[
        "treat",
        "Osric",
        "--physician",
        "50",
        "--index",
        "2",
        "--healer",
        "Ann",
        "--dice",
        "treatment=62",
    ]);
    let out = s.run(&[
        "treat",
        "Osric",
        "--physician",
        "50",
        "--index",
        "2",
        "--healer",
        "Ann",
        "--dice",
        "treatment=30",
    ]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        !out.stderr.contains("has no injury to treat"),
        "{}",
        out.stderr
    );
    let out = s.ok(&[
        "treat",
        "Osric",
        "--physician",
        "70",
        "--index",
        "5",
        "--healer",
        "Master",
        "--dice",
        "treatment=31",
    ]);
    assert!(out.contains("31 vs EML"), "{out}");
}

/// `name` joins (STR 12, Shock ML65) and takes a bleeding G4E right shoulder that stuns.
fn bleeding_shoulder(s: &Scratch, name: &str) {
    s.ok(&[
        "character",
        "add",
        name,
        "--str",
        "12",
        "--end",
        "12",
        "--shock",
        "65",
        "--hb",
        "13",
    ]);
    s.ok(&common::shoulder_strike(name));
}

/// Old Tom, alone in a new campaign, with a bleeding G4E right shoulder.
fn old_tom_bleeding() -> Scratch {
    let s = Scratch::new();
    s.ok(&["init"]);
    bleeding_shoulder(&s, "Old Tom");
    s
}

/// Issue 26, item 2: time never passes a roll in silence. A plain `advance 1d` over a
/// bleeder stops where the first roll falls due and names it; `--skip-owed` runs on and
/// leaves the rolls owed; a jump of more than a year asks for --yes, with nothing written.
#[test]
fn a_plain_advance_stops_at_the_first_owed_roll() {
    let s = old_tom_bleeding();
    let out = s.ok(&["advance", "1d"]);
    assert!(
        out.contains("stopped at day 1 00:00:10: Old Tom owes a stun-recovery roll"),
        "{out}"
    );
    assert!(
        out.contains("--roll") && out.contains("--skip-owed"),
        "{out}"
    );
    assert_eq!(s.show("Old Tom")["blood_loss"], 0, "no roll was made");
    let due: Vec<Value> = serde_json::from_str(&s.ok(&["due", "Old Tom", "--json"])).unwrap();
    assert!(due.iter().any(|d| d["kind"] == "blood-loss"), "{due:?}");
    let out = s.ok(&["advance", "1d", "--skip-owed"]);
    assert!(out.contains("to day 2 00:00:10"), "{out}");
    // Backwards is one line saying how to take an advance back, not clap's usage block.
    let out = s.run(&["advance", "-5d"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .trim()
            .starts_with("error: the clock only moves forward (-5d is back)"),
        "{}",
        out.stderr
    );
    let before = s.bytes();
    // Beyond the ten thousand years the clock spans: refused in one line, whatever --yes.
    let out = s.run(&["advance", "99999999d", "--yes"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("at most ten thousand years"),
        "{}",
        out.stderr
    );
    let out = s.run(&["advance", "3000000d"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("pass --yes if it is meant"),
        "{}",
        out.stderr
    );
    assert_eq!(s.bytes(), before);
}

/// Issue 26, item 1: a death during `advance --roll` is announced with its cause, and the
/// advance stops there unless told to run on; every change of Shock State is said on the way.
#[test]
fn advance_roll_announces_a_death_and_stops_there() {
    let s = old_tom_bleeding();
    let out = s.ok(&["--seed", "1", "advance", "1h", "--roll", "--untended"]);
    let dies = out
        .lines()
        .position(|l| l.contains("-> Old Tom DIES (blood loss) at day 1 00:20"))
        .unwrap_or_else(|| panic!("{out}"));
    // A Shock State the roll's own words do not tell (blood loss) is said; one they do
    // (a stun recovery's "S -> none") is not said twice.
    assert!(out.contains("-> Old Tom is now STN"), "{out}");
    assert!(!out.contains("-> Old Tom is no longer STN"), "{out}");
    assert!(
        out.lines()
            .nth(dies + 1)
            .is_some_and(|l| l.starts_with("stopped: Old Tom died")),
        "{out}"
    );
    let v = s.show("Old Tom");
    assert_eq!(
        v["campaign_time"], "day 1 00:20",
        "the clock stays at the death: {v}"
    );
    // Run on: the clock reaches the hour.
    let s = old_tom_bleeding();
    let out = s.ok(&[
        "--seed",
        "1",
        "advance",
        "1h",
        "--roll",
        "--untended",
        "--run-on",
    ]);
    assert!(out.contains("DIES (blood loss)"), "{out}");
    assert!(out.contains("roll(s) made"), "{out}");
    assert_eq!(s.show("Old Tom")["campaign_time"], "day 1 01:00");
}

/// The owed list is what the rules owe now (issue 40): no treatment while the patient bleeds
/// or is in Extended Shock (000 l.737, l.890: `treat` refuses it), and no second blood
/// stoppage once one has succeeded (l.747: the bleeding stops after one more Blood Loss
/// roll, which stays owed).
#[test]
fn the_owed_list_holds_no_treatment_or_stoppage_the_rules_refuse() {
    let kinds = |s: &Scratch| -> Vec<String> {
        due(s, "Osric")
            .iter()
            .map(|o| o["kind"].as_str().unwrap().to_string())
            .collect()
    };
    // A: right shoulder, 16 edge: G4E, a bleeder; Shock Roll 72 vs 65 fails: 3 + 4 + 1 = 8,
    // INC. A round later the Shock Reroll (65 - 20 = 45) of 62 fails: Extended Shock. A
    // staunch of 35 vs 40 ending in 5 is a CS: the bleeding stops at once.
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
        "shock=72",
    ]);
    assert!(kinds(&s).contains(&"blood-stoppage".to_string()));
    assert!(
        !kinds(&s).contains(&"treatment".to_string()),
        "not while it bleeds"
    );
    s.ok(&["advance", "1r"]);
    s.ok(&["roll", "Osric", "shock-reroll", "--dice", "roll=62"]);
    assert_eq!(s.show("Osric")["extended_shock_hr"], 5);
    s.ok(&[
        "staunch",
        "Osric",
        "--physician",
        "40",
        "--healer",
        "Ally",
        "--dice",
        "roll=35",
    ]);
    let owed = kinds(&s);
    assert!(owed.contains(&"extended-shock".to_string()), "{owed:?}");
    assert!(
        !owed.contains(&"treatment".to_string()),
        "not in Extended Shock: {owed:?}"
    );
    let out = s.run(&[
        "treat",
        "Osric",
        "--physician",
        "60",
        "--dice",
        "treatment=44",
    ]);
    assert_eq!(out.code, 1, "and treat refuses it: {}", out.stdout);

    // B: the same strike with a Shock Roll of 12 (S): STN. Five minutes on, a staunch of 33
    // vs 40 succeeds: one more Blood Loss roll is owed, no other stoppage.
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
        "shock=12",
    ]);
    s.ok(&["advance", "5m", "--skip-owed"]);
    s.ok(&[
        "staunch",
        "Osric",
        "--physician",
        "40",
        "--healer",
        "Ally",
        "--dice",
        "roll=33",
    ]);
    let owed = kinds(&s);
    assert!(owed.contains(&"blood-loss".to_string()), "{owed:?}");
    assert!(!owed.contains(&"blood-stoppage".to_string()), "{owed:?}");
}

mod stories;
