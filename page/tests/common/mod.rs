//! A campaign made through the libraries, a player's link and a served page, for the page
//! crate's test and its benchmark (no command line in either).

#![allow(dead_code)]

use leechbook_core::dice::RecordedDie;
use leechbook_core::harnmaster::injury::{ImpactInput, Strike, Targeting};
use leechbook_core::harnmaster::state::{Aspect, Sheet};
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ids::{CharacterId, DeviceId};
use leechbook_core::roster::{Role, RosterChange};
use leechbook_core::time::CampaignTime;
use leechbook_core::{Event, SheetKind, SystemId};
use leechbook_ledger::{LedgerError, Replica};
use leechbook_store::{Link, Store};
use std::io::{Read, Write};
use std::path::Path;

/// A HârnMaster campaign with Osric (Shock ML65), struck in the abdomen and failing his
/// Shock Roll (99): he owes a Shock Reroll.
pub fn campaign(path: &Path) -> Replica {
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
pub fn http(host: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let (status, _, body) = http_whole(host, method, path, body);
    (status, body)
}

/// One HTTP/1.1 request on loopback: the status, the headers (lower-cased names) and the
/// body.
pub fn http_whole(host: &str, method: &str, path: &str, body: &str) -> (u16, String, String) {
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
    let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    (status, head.to_ascii_lowercase(), body.to_string())
}

/// A player's link for `who`: a device of its own, rostered for the character, whose key
/// stays in the ledger.
pub fn player_link(r: &mut Replica, who: CharacterId) -> (Link, DeviceId) {
    let (device, secret) = Store::link_identity();
    r.record(|_| {
        Ok::<_, LedgerError>((
            Event::Roster(RosterChange::Device {
                device,
                key: Store::public_key_of(&secret).to_vec(),
                role: Role::Player,
                characters: vec![who],
            }),
            None,
        ))
    })
    .unwrap();
    let link = r
        .store_mut()
        .add_link(Some(who), Some((device, secret)), "names")
        .unwrap();
    (link, device)
}

/// The page's routes for the ledger at `db`, served on loopback in a thread of their own:
/// the address.
pub fn serve(db: &Path) -> String {
    let routes = leechbook_page::routes(db).unwrap();
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
    host
}
