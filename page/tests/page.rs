//! The players' page as a crate of its own: a campaign made through the libraries (no
//! command line anywhere in this test's build), a player's link, its page served on loopback,
//! and a roll posted from the page reaching the ledger through the typed path, signed by the
//! link's device.

use leechbook_core::dice::RecordedDie;
use leechbook_core::harnmaster::injury::{ImpactInput, Strike, Targeting};
use leechbook_core::harnmaster::state::{Aspect, Sheet};
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::roster::{Role, RosterChange};
use leechbook_core::time::CampaignTime;
use leechbook_core::{Event, SheetKind, SystemId};
use leechbook_ledger::{LedgerError, Replica};
use leechbook_store::Store;
use std::io::{Read, Write};
use std::path::Path;

/// A HârnMaster campaign with Osric (Shock ML65), struck in the abdomen and failing his
/// Shock Roll (99): he owes a Shock Reroll.
fn campaign(path: &Path) -> Replica {
    let mut store = Store::create(path).unwrap();
    let (device, key) = (store.device(), store.public_key().to_vec());
    let mut w = store.write().unwrap();
    for event in [
        Event::CampaignCreated {
            name: "page".into(),
            system: SystemId::HarnMaster,
            round_seconds: 10,
        },
        Event::Roster(RosterChange::Device {
            device,
            key,
            role: Role::Gm,
            characters: Vec::new(),
        }),
    ] {
        let env = w
            .prepare(event, CampaignTime::START, chrono::Utc::now())
            .unwrap();
        w.append(&env).unwrap();
    }
    w.commit().unwrap();
    let mut r = Replica::from_store(store);
    let sheet = Sheet {
        strength: 12,
        endurance: 12,
        shock_ml: 65,
        healing_base: 13,
        strength_ml: 60,
        body: "human".into(),
        beast: false,
        fatigue: 0,
    };
    let added = r
        .record(|_| {
            Ok::<_, LedgerError>((
                Event::CharacterAdded {
                    name: "Osric".into(),
                    sheet: SheetKind::HarnMaster(sheet),
                },
                None,
            ))
        })
        .unwrap();
    let osric = added.ledger.id_named("Osric").unwrap();
    r.record(|_| {
        Ok::<_, LedgerError>((
            Event::HarnMaster(HmEvent::Strike(Strike {
                target: osric,
                aspect: Aspect::Edge,
                targeting: Targeting::Chosen {
                    location: "abdomen".into(),
                    side: None,
                },
                impact: ImpactInput::Effective(12),
                av: 0,
                rigid: false,
                projectile: false,
                face_option: false,
                dice: vec![RecordedDie {
                    name: "shock".into(),
                    faces: vec![99],
                }],
            })),
            None,
        ))
    })
    .unwrap();
    r
}

/// One HTTP/1.1 request on loopback: the status and the body.
fn http(host: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(host).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out[9..12].parse().unwrap();
    let body = out
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

#[test]
fn a_roll_posted_on_the_page_is_recorded_as_the_links_device() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("page.db");
    let mut r = campaign(&db);
    // A player's link: a device of its own, rostered for Osric, whose key stays here.
    let ledger = r.state().unwrap();
    let osric = ledger.id_named("Osric").unwrap();
    let (device, secret) = Store::link_identity();
    r.record(|_| {
        Ok::<_, LedgerError>((
            Event::Roster(RosterChange::Device {
                device,
                key: Store::public_key_of(&secret).to_vec(),
                role: Role::Player,
                characters: vec![osric],
            }),
            None,
        ))
    })
    .unwrap();
    let link = r
        .store_mut()
        .add_link(Some(osric), Some((device, secret)), "names")
        .unwrap();
    let owed = leechbook_views::owed_any(&ledger, ledger.character(osric).unwrap());
    let reroll = owed
        .iter()
        .find(|o| o.kind() == "shock-reroll")
        .expect("Osric owes a Shock Reroll");
    let injury = reroll.injury.clone().unwrap_or_default();
    drop(r);

    let routes = leechbook_page::routes(&db).unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let host = listener.local_addr().unwrap().to_string();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Runtime::new().unwrap();
        rt.block_on(async {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            axum::serve(listener, routes).await.unwrap();
        });
    });

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
