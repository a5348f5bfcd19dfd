//! The players' page's own figures, in-process and with no command line: a player's page
//! loaded over loopback (request to last byte), and a live update (an event recorded through
//! the ledger's services until the open page hears it). Each beside its floor: the ledger's
//! state folded as the page folds it after a change (`Replica::state_open`).
//!
//! `cargo bench -p leechbook-page`. The end-to-end figures through the binary (`sync serve`,
//! another process recording) are `scale one page-load N` and `scale one live N`.

#![allow(missing_docs)] // criterion_group! generates an undocumented function

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use leechbook_core::Event;
use leechbook_ledger::LedgerError;
use std::io::{BufRead, BufReader, Write};
use std::time::Duration;

fn page(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("page.db");
    let mut r = common::campaign(&db);
    let osric = r.state().unwrap().id_named("Osric").unwrap();
    // A campaign with some history: a thousand minutes of the clock.
    for _ in 0..1000 {
        r.record(|l| {
            Ok::<_, LedgerError>((
                Event::ClockAdvanced { to: l.now.plus(60) },
                Some(l.now.plus(60)),
            ))
        })
        .unwrap();
    }
    let (link, _) = common::player_link(&mut r, osric);
    let host = common::serve(&db);
    let page = format!("/p/{}/", link.token);
    let mut g = c.benchmark_group("page");
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    g.bench_function("load", |b| {
        b.iter(|| {
            let (status, body) = common::http(&host, "GET", &page, "");
            assert_eq!(status, 200);
            body.len()
        })
    });
    g.bench_function("floor: the state folded", |b| {
        b.iter(|| r.state_open().unwrap().characters.len())
    });
    // Live: one stream open; each iteration records a minute and reads until the page's
    // next update arrives.
    let mut live = std::net::TcpStream::connect(&host).unwrap();
    write!(
        live,
        "GET {page}live HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    let mut events = BufReader::new(live);
    let until_update = |events: &mut BufReader<std::net::TcpStream>| {
        let mut line = String::new();
        loop {
            line.clear();
            events.read_line(&mut line).unwrap();
            if line.starts_with("event: page") {
                return;
            }
        }
    };
    until_update(&mut events);
    g.bench_function("live update", |b| {
        b.iter(|| {
            r.record(|l| {
                Ok::<_, LedgerError>((
                    Event::ClockAdvanced { to: l.now.plus(60) },
                    Some(l.now.plus(60)),
                ))
            })
            .unwrap();
            until_update(&mut events);
        })
    });
    g.finish();
}

criterion_group!(benches, page);
criterion_main!(benches);
