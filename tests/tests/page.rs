//! Issue 29: the players' page, over HTTP (the browser test drives the same page in
//! Chromium): a link shows its character, records the rolls it owes as the device made for
//! it, follows the ledger live, and once revoked shows and records nothing.

use crate::common;
use common::{http, page_link, run_db, serving_page, Scratch, BRENNA, BRENNA_STRUCK, OSRIC_STRUCK};
use std::io::BufRead;
use std::time::{Duration, Instant};

/// Osric struck as the README strikes him: S2E abdomen, Shock Roll 75 vs EML65 fails, INC;
/// he owes a Shock Reroll at EML45 (Shock ML65 - 20).
fn struck() -> Scratch {
    let s = Scratch::with_osric();
    s.ok(&OSRIC_STRUCK);
    s
}

/// Osric struck as above, and Brenna struck in the shoulder (a bleeder, STN): the ledger
/// and each one's link.
fn both_struck() -> (Scratch, String, String) {
    let s = struck();
    s.ok(&BRENNA);
    s.ok(&BRENNA_STRUCK);
    let osric = page_link(&s.db, "Osric", &[]);
    let brenna = page_link(&s.db, "Brenna", &[]);
    (s, osric, brenna)
}

/// The id of the injury a page's form names for `kind`.
fn form_injury(page: &str, kind: &str) -> String {
    let at = page
        .find(&format!("name=\"kind\" value=\"{kind}\""))
        .unwrap_or_else(|| panic!("no form for {kind} in {page}"));
    let rest = &page[at..];
    let v = rest.find("name=\"injury\" value=\"").unwrap() + "name=\"injury\" value=\"".len();
    rest[v..].split('"').next().unwrap().to_string()
}

/// The id of the injury `name`'s owed roll of `kind` is for (a roll not due yet has no form
/// on the page: issue 41, item 5).
fn owed_injury(db: &std::path::Path, name: &str, kind: &str) -> String {
    let out = run_db(db, &["due", name, "--json"]);
    let due: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    due.as_array()
        .unwrap()
        .iter()
        .find(|o| o["kind"] == kind)
        .and_then(|o| o["injury"].as_str())
        .unwrap_or_else(|| panic!("{name} owes no {kind}: {due}"))
        .to_string()
}

fn events(db: &std::path::Path) -> usize {
    let out = run_db(db, &["log", "--json"]);
    serde_json::from_str::<serde_json::Value>(&out.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .len()
}

#[test]
fn a_players_link_shows_its_character_and_records_its_roll_as_its_own_device() {
    let s = struck();
    s.ok(&BRENNA);
    let link = page_link(&s.db, "Osric", &[]);
    let (base, stop, hub) = serving_page(&s.db);
    let (status, page) = http(&base, "GET", &link, "");
    assert_eq!(status, 200, "{page}");
    // The character in full: the wound, its healing rate, the shock state, the owed roll
    // with its EML and terms; the rest of the party as a name and a word.
    assert!(
        page.contains("<h2>Osric <small>HârnMaster</small></h2>"),
        "{page}"
    );
    assert!(page.contains("S2E abdomen"), "{page}");
    // Issue 41, item 5: a Shock State's code has its word beside it.
    assert!(
        page.contains("<dt>Shock</dt><dd>INC (incapacitated)</dd>"),
        "{page}"
    );
    assert!(
        page.contains("<strong>shock-reroll</strong> at <b>EML 45</b>"),
        "{page}"
    );
    assert!(
        page.contains("Brenna — <span class=\"word unhurt\">unhurt</span>"),
        "{page}"
    );
    // The healing roll: HB13 x HR3 = 39 (S2: HR 3), due day 6.
    assert!(page.contains("(HB13 x HR3 = 39)"), "{page}");
    let injury = form_injury(&page, "shock-reroll");
    let before = events(&s.db);
    // 30 vs EML45, a multiple of 5: a critical success; Osric is out of shock.
    let (status, said) = http(
        &base,
        "POST",
        &format!("{link}roll"),
        &format!("kind=shock-reroll&injury={injury}&face=30"),
    );
    assert_eq!(status, 200);
    let said: serde_json::Value = serde_json::from_str(&said).unwrap();
    assert_eq!(said["ok"], true, "{said}");
    assert!(
        said["line"].as_str().unwrap().contains("30 vs EML45: CS"),
        "{said}"
    );
    // Issue 41, item 5: the line is coloured by how the roll went, not by its recording.
    assert_eq!(said["tone"], "good", "{said}");
    assert_eq!(events(&s.db), before + 1);
    assert_eq!(s.show("Osric")["shock_state"], "none");
    // Signed by the link's device, and told as the player's in the log.
    let log = s.ok(&["log"]);
    let last = log
        .lines()
        .rev()
        .find(|l| l.contains("Shock Reroll"))
        .unwrap();
    assert!(last.ends_with("(by Osric's player)"), "{last}");
    let list = s.ok(&["device", "list"]);
    assert!(
        list.contains("player for Osric  (a players' page link)"),
        "{list}"
    );
    let _ = stop.send(());
    hub.join().unwrap();
}

#[test]
fn a_roll_the_page_may_not_record_is_refused_in_one_line_and_nothing_is_written() {
    let (s, link, brenna) = both_struck();
    let (base, stop, hub) = serving_page(&s.db);
    let (_, page) = http(&base, "GET", &link, "");
    let injury = form_injury(&page, "shock-reroll");
    let (_, theirs) = http(&base, "GET", &brenna, "");
    // Not due yet: no form on Brenna's page, which says so.
    assert!(
        !theirs.contains("name=\"kind\" value=\"blood-loss\""),
        "{theirs}"
    );
    assert!(
        theirs.contains("Not due yet: it can be recorded once the GM's clock reaches it."),
        "{theirs}"
    );
    let bleeder = owed_injury(&s.db, "Brenna", "blood-loss");
    let before = events(&s.db);
    let post = |form: &str| {
        let (status, body) = http(&base, "POST", &format!("{link}roll"), form);
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["ok"], false, "{form}: {v}");
        (status, v["line"].as_str().unwrap().to_string())
    };
    // Not a face.
    let (status, line) = post(&format!("kind=shock-reroll&injury={injury}&face=4%2C5"));
    assert_eq!(status, 400);
    assert!(line.contains("is not a face"), "{line}");
    // A list of named dice is a Savage Worlds trait roll's alone: here it would pick a die
    // the page never asked for (the random healing period's).
    let (status, line) = post(&format!(
        "kind=shock-reroll&injury={injury}&face=roll%3D5%2Cperiod%3D1"
    ));
    assert_eq!(status, 400);
    assert!(line.contains("is not a face"), "{line}");
    // Only separators: no face, and not "Roll for me" either (nothing is rolled for it).
    let (status, line) = post(&format!("kind=shock-reroll&injury={injury}&face=%2C"));
    assert_eq!(status, 400);
    assert!(line.contains("is not a face"), "{line}");
    // A chain on a die that does not ace.
    let (status, line) = post(&format!("kind=shock-reroll&injury={injury}&face=4%2B5"));
    assert_eq!(status, 400);
    assert!(line.contains("is not a face"), "{line}");
    // No face and no "roll for me".
    let (_, line) = post(&format!("kind=shock-reroll&injury={injury}"));
    assert!(line.contains("type the face"), "{line}");
    // Another character's roll, through Osric's link: not owed by Osric.
    let (status, line) = post(&format!("kind=blood-loss&injury={bleeder}&face=50"));
    assert_eq!(status, 409);
    assert!(line.contains("Osric owes no such roll now"), "{line}");
    // A roll owed but not due: the page says when, and never to advance the clock (the
    // clock is the GM's).
    let healing = owed_injury(&s.db, "Osric", "healing");
    let (_, line) = post(&format!("kind=healing&injury={healing}&face=12"));
    assert!(
        line.contains("Osric's healing is due at day 6 00:00; the GM's clock is at day 1 00:00: it can be recorded then"),
        "{line}"
    );
    assert!(!line.contains("advance"), "{line}");
    // A Morale roll is the GM's: the page names the command instead.
    let (_, line) = post(&format!("kind=morale&injury={injury}&face=12"));
    assert!(line.contains("the GM's or a healer's to record"), "{line}");
    assert_eq!(events(&s.db), before, "a refused roll wrote nothing");
    let _ = stop.send(());
    hub.join().unwrap();
}

#[test]
fn a_revoked_link_shows_nothing_records_nothing_and_an_unknown_one_learns_nothing() {
    let s = struck();
    let link = page_link(&s.db, "Osric", &[]);
    let gm = page_link(&s.db, "--gm", &[]);
    let (base, stop, hub) = serving_page(&s.db);
    let (_, page) = http(&base, "GET", &link, "");
    let injury = form_injury(&page, "shock-reroll");
    // The same link again while it lives.
    assert_eq!(page_link(&s.db, "Osric", &[]), link);
    s.ok(&["device", "link", "Osric", "--revoke"]);
    let before = events(&s.db);
    let (status, page) = http(&base, "GET", &link, "");
    assert_eq!(status, 410);
    assert!(
        page.contains("The GM revoked this link") && !page.contains("Osric"),
        "{page}"
    );
    let (status, said) = http(
        &base,
        "POST",
        &format!("{link}roll"),
        &format!("kind=shock-reroll&injury={injury}&face=30"),
    );
    assert_eq!(status, 410, "{said}");
    assert_eq!(events(&s.db), before);
    // Its device is revoked on the roster: an event it signed later is void everywhere.
    let list = s.ok(&["device", "list"]);
    assert!(list.contains("(a players' page link)  (revoked)"), "{list}");
    // A link whose device is revoked with `device revoke` ends with it.
    let brenna = {
        s.ok(&BRENNA);
        page_link(&s.db, "Brenna", &[])
    };
    assert_eq!(http(&base, "GET", &brenna, "").0, 200);
    let list = s.ok(&["device", "list"]);
    let device = list
        .lines()
        .find(|l| l.contains("player for Brenna"))
        .and_then(|l| l.split_whitespace().next())
        .unwrap()
        .to_string();
    let said = s.ok(&["device", "revoke", &device]);
    assert!(
        said.contains("its players' page link is revoked too"),
        "{said}"
    );
    assert_eq!(http(&base, "GET", &brenna, "").0, 410);
    // Unknown secrets, near or far, get the same page.
    let mut near = link.clone().into_bytes();
    let i = near.len() - 2;
    near[i] = if near[i] == b'0' { b'1' } else { b'0' };
    let (s1, p1) = http(&base, "GET", std::str::from_utf8(&near).unwrap(), "");
    let (s2, p2) = http(&base, "GET", "/p/zz%3Cscript%3E/", "");
    assert_eq!((s1, s2), (404, 404));
    assert_eq!(p1, p2);
    // The GM's link shows every character and records nothing.
    let (status, page) = http(&base, "GET", &gm, "");
    assert_eq!(status, 200);
    assert!(page.contains("Osric") && !page.contains("<form"), "{page}");
    let (status, _) = http(&base, "POST", &format!("{gm}roll"), "kind=healing&face=1");
    assert_eq!(status, 403);
    let _ = stop.send(());
    hub.join().unwrap();
}

#[test]
fn a_name_a_player_typed_is_text_on_the_page_never_markup() {
    let s = struck();
    s.ok(&[
        "character",
        "add",
        "<img src=x onerror=alert(1)>",
        "--str",
        "11",
        "--end",
        "13",
        "--shock",
        "60",
        "--hb",
        "12",
    ]);
    let link = page_link(&s.db, "Osric", &[]);
    let (base, stop, hub) = serving_page(&s.db);
    let (_, page) = http(&base, "GET", &link, "");
    assert!(!page.contains("<img"), "{page}");
    assert!(
        page.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "{page}"
    );
    let _ = stop.send(());
    hub.join().unwrap();
}

#[test]
fn a_change_from_the_terminal_reaches_an_open_page_within_a_second() {
    let s = struck();
    let link = page_link(&s.db, "Osric", &[]);
    let (base, stop, hub) = serving_page(&s.db);
    let host = base.trim_start_matches("http://").to_string();
    let mut live = std::net::TcpStream::connect(&host).unwrap();
    std::io::Write::write_all(
        &mut live,
        format!("GET {link}live HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n")
            .as_bytes(),
    )
    .unwrap();
    live.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut lines = std::io::BufReader::new(live).lines();
    // The page as it is now comes first.
    let mut next_page = || loop {
        let l = lines
            .next()
            .expect("the stream goes on")
            .expect("within 5 s");
        if let Some(d) = l.strip_prefix("data: ") {
            return d.to_string();
        }
    };
    let first = next_page();
    assert!(
        first.contains("S2E abdomen") && !first.contains("day 1 04:00"),
        "{first}"
    );
    // The GM moves the clock in the terminal; the open page hears it.
    let t = Instant::now();
    s.ok(&["advance", "4h", "--skip-owed"]);
    let second = loop {
        let p = next_page();
        if p.contains("day 1 04:00") {
            break p;
        }
    };
    let took = t.elapsed();
    assert!(took < Duration::from_secs(1), "took {took:?}");
    assert!(
        second.contains("Campaign clock: <time>day 1 04:00</time>"),
        "{second}"
    );
    let _ = stop.send(());
    hub.join().unwrap();
}

#[test]
fn a_wounds_history_and_plot_are_one_tap_away_and_only_for_the_links_own_wounds() {
    let (s, link, brenna) = both_struck();
    let (base, stop, hub) = serving_page(&s.db);
    let (_, page) = http(&base, "GET", &link, "");
    let at = page.find("href=\"wound/").expect("a history link") + "href=\"wound/".len();
    let short = &page[at..at + 8];
    let (status, story) = http(&base, "GET", &format!("{link}wound/{short}"), "");
    assert_eq!(status, 200, "{story}");
    assert!(story.contains("Osric's S2E abdomen"), "{story}");
    assert!(story.contains("Osric struck: ZD 2 aimed at ZN4"), "{story}");
    assert!(story.contains("<svg"), "the plot is drawn: {story}");
    // Brenna's wound is not Osric's page's to show.
    let (_, theirs) = http(&base, "GET", &brenna, "");
    let at = theirs.find("href=\"wound/").unwrap() + "href=\"wound/".len();
    let hers = &theirs[at..at + 8];
    let (status, _) = http(&base, "GET", &format!("{link}wound/{hers}"), "");
    assert_eq!(status, 404);
    let _ = stop.send(());
    hub.join().unwrap();
}

/// Runs each line on a fresh ledger, as the README's lines for the other three systems.
fn campaign(lines: &[&[&str]]) -> Scratch {
    let s = Scratch::new();
    for l in lines {
        s.ok(l);
    }
    s
}

#[test]
fn each_system_has_its_page_and_a_savage_worlds_trait_roll_is_recorded_from_it() {
    // Savage Worlds: 27 damage vs Toughness 6 is five raises: five Wounds, Incapacitated, a
    // Vigor roll owed.
    let sw = campaign(&[
        &["init", "--system", "savage-worlds"],
        &["character", "add", "Red", "--toughness", "6"],
        &[
            "sw",
            "damage",
            "Red",
            "--damage",
            "d8+d6",
            "--dice",
            "damage=8+8+6/5",
        ],
    ]);
    let link = page_link(&sw.db, "Red", &[]);
    let (base, stop, hub) = serving_page(&sw.db);
    let (_, page) = http(&base, "GET", &link, "");
    assert!(
        page.contains("<h2>Red <small>Savage Worlds</small></h2>"),
        "{page}"
    );
    assert!(
        page.contains("<dt>Wounds</dt><dd>5 (penalty -3)</dd>"),
        "{page}"
    );
    assert!(page.contains("Incapacitated"), "{page}");
    // A field for each die, in the order to type them: trait, wild, then the Injury
    // Table's (issue 41, item 5: a trait die and a wild die are two fields).
    // The dice that ace take `+`: a text field, not a phone's number pad.
    for (label, name, mode) in [
        ("Trait die", "face", "text"),
        ("Wild die (d6)", "face2", "text"),
        ("Injury Table d6 1", "face3", "numeric"),
        ("Injury Table d6 2", "face4", "numeric"),
        ("sub-table die", "face5", "numeric"),
    ] {
        assert!(
            page.contains(&format!(
                "<label>{label} <input name=\"{name}\" inputmode=\"{mode}\""
            )),
            "{label}: {page}"
        );
    }
    // Without the sheet's Vigor the rules' own refusal, naming what is missing.
    let form = "kind=incapacitation&injury=&face=4+2+3+4+4";
    let (_, said) = http(&base, "POST", &format!("{link}roll"), form);
    assert!(said.contains("which die is Red's Vigor?"), "{said}");
    sw.ok(&["sw", "attributes", "Red", "--vigor", "d6", "--spirit", "d6"]);
    // Vigor 4 (wild 2) - 3 wounds' penalty fails: the Injury Table's 3/4 is Guts, sub 4
    // Battered (Vigor d4), and Red is Bleeding Out (the README's line).
    let (_, said) = http(&base, "POST", &format!("{link}roll"), form);
    let said: serde_json::Value = serde_json::from_str(&said).unwrap();
    assert_eq!(said["ok"], true, "{said}");
    assert!(
        said["line"].as_str().unwrap().contains("Bleeding Out"),
        "{said}"
    );
    let _ = stop.send(());
    hub.join().unwrap();

    // Wrath & Glory: 12 damage past Resilience 6 is Wounds; Dying is a state, the GM's.
    let wg = campaign(&[
        &["init", "--system", "wrath-glory"],
        &[
            "character",
            "add",
            "Vex",
            "--tier",
            "1",
            "--wg-toughness",
            "3",
            "--resilience",
            "6",
            "--max-shock",
            "4",
        ],
        &[
            "wg",
            "damage",
            "Vex",
            "--damage",
            "12",
            "--dice",
            "determination=1/1/2,memorable=3",
        ],
    ]);
    let link = page_link(&wg.db, "Vex", &[]);
    let (base, stop, hub) = serving_page(&wg.db);
    let (_, page) = http(&base, "GET", &link, "");
    let v = wg.show("Vex");
    assert!(
        page.contains("<h2>Vex <small>Wrath &amp; Glory</small></h2>"),
        "{page}"
    );
    assert!(
        page.contains(&format!(
            "<dt>Wounds</dt><dd>{} / {}</dd>",
            v["wounds"], v["max_wounds"]
        )),
        "{page}"
    );
    assert!(
        !page.contains("<form"),
        "nothing of a Wrath & Glory sheet is the player's to roll here"
    );
    let _ = stop.send(());
    hub.join().unwrap();

    // Witch Iron: the skull's Brain Damage and Pain; the end-of-round d6 is recorded from it.
    let wi = campaign(&[
        &["init", "--system", "witch-iron"],
        &["character", "add", "Gerd", "--rb", "2"],
        &[
            "wi",
            "injure",
            "Gerd",
            "--part",
            "head",
            "--net-damage",
            "8",
            "--dice",
            "units=9",
        ],
    ]);
    let link = page_link(&wi.db, "Gerd", &[]);
    let (base, stop, hub) = serving_page(&wi.db);
    let (_, page) = http(&base, "GET", &link, "");
    assert!(
        page.contains("<h2>Gerd <small>Witch Iron</small></h2>"),
        "{page}"
    );
    assert!(page.contains("skull: <b>Brain Damage</b>"), "{page}");
    assert!(page.contains("<dt>Pain</dt><dd>5</dd>"), "{page}");
    let _ = stop.send(());
    hub.join().unwrap();
}

/// A roll recorded on the page, by a link's device that recorded nothing before the hub
/// started, reaches the other devices while the hub serves (its volume begun on the hub is
/// offered), and `why` names the player as `log` does.
#[test]
fn a_roll_recorded_on_the_page_reaches_the_other_devices_while_the_hub_serves() {
    let s = struck();
    let (base, stop, hub) = serving_page(&s.db);
    let url = base.replace("http://", "ws://");
    let other = Scratch::new();
    let code = s.ok(&["sync", "invite"]);
    other.ok(&["init", "--join", &url, "--campaign", code.trim()]);
    // The link is made while the hub serves: its device has no volume yet.
    let link = page_link(&s.db, "Osric", &[]);
    let (_, page) = http(&base, "GET", &link, "");
    let injury = form_injury(&page, "shock-reroll");
    let (_, said) = http(
        &base,
        "POST",
        &format!("{link}roll"),
        &format!("kind=shock-reroll&injury={injury}&face=30"),
    );
    assert!(said.contains("\"ok\":true"), "{said}");
    let t = Instant::now();
    loop {
        let out = other.run(&["sync", "connect", &url]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(!out.stderr.contains("gap:"), "{}", out.stderr);
        if other
            .ok(&["log"])
            .contains("Shock Reroll 30 vs EML45: CS -> none (by Osric's player)")
        {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "the page's roll never reached the other device"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    let short = &injury[injury.len() - 8..];
    let why = s.ok(&["why", "Osric", short]);
    assert!(why.contains("(by Osric's player)"), "{why}");
    let _ = stop.send(());
    hub.join().unwrap();
}

/// A link keeps at most eight live pages open (each costs the hub a render per change, on
/// the threads that carry its sync): a ninth is refused in one page, and one closed makes
/// room again.
#[test]
fn a_link_keeps_at_most_eight_live_pages_open() {
    let s = struck();
    let link = page_link(&s.db, "Osric", &[]);
    let (base, stop, hub) = serving_page(&s.db);
    let host = base.trim_start_matches("http://").to_string();
    let open = || {
        let mut live = std::net::TcpStream::connect(&host).unwrap();
        std::io::Write::write_all(
            &mut live,
            format!("GET {link}live HTTP/1.1\r\nHost: {host}\r\n\r\n").as_bytes(),
        )
        .unwrap();
        live.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut first = String::new();
        std::io::BufReader::new(live.try_clone().unwrap())
            .read_line(&mut first)
            .unwrap();
        (live, first)
    };
    let mut pages: Vec<std::net::TcpStream> = Vec::new();
    for _ in 0..8 {
        let (live, first) = open();
        assert!(first.starts_with("HTTP/1.1 200"), "{first}");
        pages.push(live);
    }
    let (_, ninth) = open();
    assert!(ninth.starts_with("HTTP/1.1 429"), "{ninth}");
    // The page itself still opens; a live page closed makes room for another.
    assert_eq!(http(&base, "GET", &link, "").0, 200);
    let closed = pages.pop().unwrap();
    closed.shutdown(std::net::Shutdown::Both).unwrap();
    drop(closed);
    let t = Instant::now();
    loop {
        let (live, first) = open();
        if first.starts_with("HTTP/1.1 200") {
            pages.push(live);
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "a closed page never made room"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    drop(pages);
    let _ = stop.send(());
    hub.join().unwrap();
}

/// The page takes every die a Savage Worlds Incapacitation roll may read before its result
/// is known; those its result did not read are set aside, not refused (a critical failure
/// reads no Injury Table; Unmentionables rolls no sub-roll), and not recorded.
#[test]
fn the_injury_table_faces_a_result_did_not_read_are_set_aside_on_the_page() {
    let setup = |who: &str| {
        campaign(&[
            &["init", "--system", "savage-worlds"],
            &["character", "add", who, "--toughness", "6"],
            &["sw", "attributes", who, "--vigor", "d6", "--spirit", "d6"],
            &[
                "sw",
                "damage",
                who,
                "--damage",
                "d8+d6",
                "--dice",
                "damage=8+8+6/5",
            ],
        ])
    };
    let incapacitation = |s: &Scratch| -> serde_json::Value {
        let log: Vec<serde_json::Value> = serde_json::from_str(&s.ok(&["log", "--json"])).unwrap();
        log.into_iter()
            .find(|e| e["kind"] == "sw.incapacitation")
            .expect("the roll was recorded")
    };
    for (faces, what) in [
        // Both dice 1: a critical failure kills and reads no table.
        ("1+1+1+3+4", "dies"),
        // Vigor 5 - 3 = 2 fails; the table's 1 + 1 = 2 is Unmentionables: no sub-roll.
        ("5+2+1+1+4", "Unmentionables"),
    ] {
        let s = setup("Red");
        let link = page_link(&s.db, "Red", &[]);
        let (base, stop, hub) = serving_page(&s.db);
        let (_, said) = http(
            &base,
            "POST",
            &format!("{link}roll"),
            &format!("kind=incapacitation&injury=&face={faces}"),
        );
        let said: serde_json::Value = serde_json::from_str(&said).unwrap();
        assert_eq!(said["ok"], true, "{faces}: {said}");
        let _ = stop.send(());
        hub.join().unwrap();
        let event = incapacitation(&s);
        assert!(
            event["summary"].as_str().unwrap().contains(what),
            "{faces}: {event}"
        );
    }
}

/// Issue 41, item 5: a failed roll is not shown as good news (its line's tone is `bad`), and
/// a roll of two dice takes a face for each: one typed is refused, nothing rolled unseen.
#[test]
fn a_failed_roll_reads_as_bad_news_and_two_dice_take_two_faces() {
    let (s, _osric, brenna) = both_struck();
    let (base, stop, hub) = serving_page(&s.db);
    let (_, page) = http(&base, "GET", &brenna, "");
    let injury = form_injury(&page, "stun-recovery");
    // 99 against Shock ML60: an F; Brenna stays stunned.
    let (_, said) = http(
        &base,
        "POST",
        &format!("{brenna}roll"),
        &format!("kind=stun-recovery&injury={injury}&face=99"),
    );
    let said: serde_json::Value = serde_json::from_str(&said).unwrap();
    assert_eq!(said["ok"], true, "{said}");
    assert!(
        said["line"].as_str().unwrap().contains("99 vs EML60: F"),
        "{said}"
    );
    assert_eq!(said["tone"], "bad", "{said}");
    let _ = stop.send(());
    hub.join().unwrap();

    // Savage Worlds' Spirit roll: the trait die and the wild die are two fields.
    let sw = campaign(&[
        &["init", "--system", "savage-worlds"],
        &["character", "add", "Red", "--toughness", "6"],
        &["sw", "attributes", "Red", "--spirit", "d6"],
        &[
            "sw",
            "damage",
            "Red",
            "--damage",
            "d4+d4",
            "--dice",
            "damage=3/3",
        ],
    ]);
    let link = page_link(&sw.db, "Red", &[]);
    let (base, stop, hub) = serving_page(&sw.db);
    let before = events(&sw.db);
    let (status, said) = http(
        &base,
        "POST",
        &format!("{link}roll"),
        "kind=spirit-recovery&injury=&face=5",
    );
    assert_eq!(status, 400, "{said}");
    assert!(
        said.contains("type a face for each die (trait, wild)"),
        "{said}"
    );
    assert_eq!(events(&sw.db), before);
    let (_, said) = http(
        &base,
        "POST",
        &format!("{link}roll"),
        "kind=spirit-recovery&injury=&face=5&face2=3",
    );
    let said: serde_json::Value = serde_json::from_str(&said).unwrap();
    assert_eq!(said["ok"], true, "{said}");
    assert_eq!(events(&sw.db), before + 1);
    let _ = stop.send(());
    hub.join().unwrap();
}

/// Issue 41, item 5, as the outside check found it: an EML has its words beside it, and a
/// character the GM set aside owes nothing the page records (its link shows it, no form).
#[test]
fn an_eml_is_worded_and_a_character_set_aside_records_nothing() {
    let s = struck();
    let link = page_link(&s.db, "Osric", &[]);
    let (base, stop, hub) = serving_page(&s.db);
    let (_, page) = http(&base, "GET", &link, "");
    let injury = form_injury(&page, "shock-reroll");
    // The Shock Reroll at EML45 (Shock ML65 - 20 for INC): success on 45 or under.
    assert!(
        page.contains("<b>EML 45</b> <span class=\"quiet\">(roll 45 or under)</span>"),
        "{page}"
    );
    s.ok(&["character", "aside", "Osric", "--why", "captured"]);
    // The page follows the ledger within a second.
    let started = Instant::now();
    let page = loop {
        let (status, page) = http(&base, "GET", &link, "");
        assert_eq!(status, 200);
        if !page.contains("<form") || started.elapsed() > Duration::from_secs(5) {
            break page;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        page.contains("<h2>Osric") && !page.contains("<form"),
        "{page}"
    );
    assert!(page.contains("Nothing owed."), "{page}");
    // A form posted all the same (a page loaded before) records nothing.
    let before = events(&s.db);
    let (status, said) = http(
        &base,
        "POST",
        &format!("{link}roll"),
        &format!("kind=shock-reroll&injury={injury}&face=30"),
    );
    assert_eq!(status, 409, "{said}");
    assert!(
        said.contains("the GM has set Osric aside (captured)"),
        "{said}"
    );
    assert_eq!(events(&s.db), before);
    let _ = stop.send(());
    hub.join().unwrap();
}
