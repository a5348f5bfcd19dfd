//! The players' page as a crate of its own: a campaign made through the libraries (no
//! command line anywhere in this test's build), a player's link, its page served on loopback,
//! and a roll posted from the page reaching the ledger through the typed path, signed by the
//! link's device.

mod common;

use common::{campaign, http, http_whole, player_link, serve};
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::Event;
use leechbook_store::Store;

#[test]
fn a_roll_posted_on_the_page_is_recorded_as_the_links_device() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("page.db");
    let mut r = campaign(&db);
    // A player's link: a device of its own, rostered for Osric, whose key stays here.
    let ledger = r.state().unwrap();
    let osric = ledger.id_named("Osric").unwrap();
    let (link, device) = player_link(&mut r, osric);
    let owed = leechbook_views::owed_any(&ledger, ledger.character(osric).unwrap());
    let reroll = owed
        .iter()
        .find(|o| o.kind() == "shock-reroll")
        .expect("Osric owes a Shock Reroll");
    let injury = reroll.injury.clone().unwrap_or_default();
    drop(r);

    let host = serve(&db);

    let page = format!("/p/{}/", link.token);
    let (status, html) = http(&host, "GET", &page, "");
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("data-kind=\"shock-reroll\""), "{html}");
    // Not a face: refused in one line, nothing recorded.
    let before = Store::open(&db).unwrap().events().unwrap().len();
    let (status, said) = http(
        &host,
        "POST",
        &format!("{page}roll"),
        &format!("kind=shock-reroll&injury={injury}&face=4x"),
    );
    assert_eq!(status, 400, "{said}");
    assert_eq!(Store::open(&db).unwrap().events().unwrap().len(), before);
    // A face: the Shock Reroll at EML45 (65 - 20), 30 succeeds.
    let (status, said) = http(
        &host,
        "POST",
        &format!("{page}roll"),
        &format!("kind=shock-reroll&injury={injury}&face=30"),
    );
    assert_eq!(status, 200, "{said}");
    let said: serde_json::Value = serde_json::from_str(&said).unwrap();
    assert_eq!(said["ok"], true, "{said}");
    let events = Store::open(&db).unwrap().events().unwrap();
    let last = events.last().unwrap();
    assert_eq!(last.event.kind(), "hm.shock-reroll");
    assert_eq!(last.device, device, "signed by the link's device");
    let Event::HarnMaster(HmEvent::ShockReroll(roll)) = &last.event else {
        panic!("a Shock Reroll")
    };
    assert_eq!(roll.roll, 30, "the face the player typed");
}

/// Every answer keeps the page to the hub's own script and style, tells no referrer (the URL
/// is the secret), is never cached and never framed; a form larger than a roll's is refused
/// before it is read.
#[test]
fn the_page_is_guarded_and_a_huge_form_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("page.db");
    let mut r = campaign(&db);
    let osric = r.state().unwrap().id_named("Osric").unwrap();
    let (link, _) = player_link(&mut r, osric);
    drop(r);
    let host = serve(&db);
    let page = format!("/p/{}/", link.token);
    for path in [
        page.as_str(),
        "/p/00000000000000000000000000000000/",
        "/page.css",
    ] {
        let (_, head, _) = http_whole(&host, "GET", path, "");
        for header in [
            "content-security-policy: default-src 'none'; script-src 'self'; style-src 'self'",
            "frame-ancestors 'none'",
            "referrer-policy: no-referrer",
            "cache-control: no-store",
            "x-content-type-options: nosniff",
        ] {
            assert!(head.contains(header), "{path}: {header} in\n{head}");
        }
    }
    let before = Store::open(&db).unwrap().events().unwrap().len();
    let huge = format!("kind=shock-reroll&face=30&pad={}", "x".repeat(4096));
    let (status, _) = http(&host, "POST", &format!("{page}roll"), &huge);
    assert_eq!(status, 413, "a form over 2 KB is refused");
    assert_eq!(Store::open(&db).unwrap().events().unwrap().len(), before);
}
