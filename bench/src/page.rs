//! The players' page's figures (issue 29), on a copy of the synthetic ledger served by the
//! real binary (`leechbook sync serve`) on loopback:
//!
//! - `live`: a change recorded by another process (`leechbook advance 1m`) until an open
//!   page hears it (its server-sent event), over 100 changes: the p99 against the target of
//!   one second, the median beside it; the floor is one fold of the ledger's state as the
//!   page folds it after a change (`Replica::state_open`).
//! - `page-load`: the first load of a player's page (request to last byte, median of 11)
//!   and its size with the stylesheet and script it fetches; the floor is the hub's answer for its static stylesheet.

use crate::{ledger, leechbook_binary, median, remove_ledger, Measured};
use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A hub serving a copy of the `n`-event ledger, with a player's link for `c5`; killed
/// when dropped.
struct Served {
    hub: Child,
    host: String,
    link: String,
    db: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.hub.kill();
        let _ = self.hub.wait();
    }
}

fn serve(n: usize, dir: &Path) -> Result<Served> {
    let bin = leechbook_binary()?;
    let copy = dir.join("page.db");
    remove_ledger(&copy);
    std::fs::copy(ledger(n)?, &copy)?;
    let db = copy.display().to_string();
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let host = format!("127.0.0.1:{port}");
    let out = Command::new(&bin)
        .args(["--db", &db, "device", "link", "c5", "--no-qr", "--hub"])
        .arg(format!("http://{host}"))
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let link = text
        .split_whitespace()
        .find_map(|w| w.find("/p/").map(|at| w[at..].to_string()))
        .with_context(|| format!("device link printed no link: {text}"))?;
    let mut hub = Command::new(&bin)
        .args(["--db", &db, "sync", "serve", "--listen", &host])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    // Serving once it says where the page is.
    let mut lines = BufReader::new(hub.stdout.take().context("the hub's output")?).lines();
    loop {
        match lines.next() {
            Some(Ok(l)) if l.starts_with("players' page at") => break,
            Some(Ok(_)) => {}
            _ => bail!("the hub stopped before serving"),
        }
    }
    std::thread::spawn(move || for _ in lines {});
    Ok(Served {
        hub,
        host,
        link,
        db,
    })
}

/// One GET to the hub: the body, read to its end.
fn get(host: &str, path: &str) -> Result<Vec<u8>> {
    let mut s = TcpStream::connect(host)?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)?;
    let at = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .context("an HTTP answer")?;
    Ok(raw[at + 4..].to_vec())
}

/// The first load of a player's page at `n` events.
pub fn page_load(n: usize, dir: &Path) -> Result<Measured> {
    let s = serve(n, dir)?;
    // Everything a first load fetches: the page, its stylesheet and its script.
    let size = get(&s.host, &s.link)?.len()
        + get(&s.host, "/page.css")?.len()
        + get(&s.host, "/page.js")?.len();
    let figure = median(11, || {
        let t = Instant::now();
        get(&s.host, &s.link)?;
        Ok(t.elapsed())
    })?;
    let floor = median(11, || {
        let t = Instant::now();
        get(&s.host, "/page.css")?;
        Ok(t.elapsed())
    })?;
    Ok(Measured {
        name: "players' page, first load".into(),
        events: n,
        figure,
        floor,
        floor_name: "the hub's stylesheet".into(),
        notes: vec![
            ("ms".into(), format!("{:.1}", figure * 1e3)),
            ("KB".into(), format!("{:.1}", size as f64 / 1024.0)),
        ],
    })
}

/// A change recorded elsewhere until an open page hears it, at `n` events.
pub fn live(n: usize, dir: &Path) -> Result<Measured> {
    const CHANGES: usize = 100;
    let s = serve(n, dir)?;
    let bin = leechbook_binary()?;
    let mut stream = TcpStream::connect(&s.host)?;
    write!(
        stream,
        "GET {}live HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
        s.link, s.host
    )?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut events = BufReader::new(stream).lines();
    let mut next_page = || -> Result<String> {
        loop {
            let l = events.next().context("the stream ended")??;
            if let Some(d) = l.strip_prefix("data: ") {
                return Ok(d.to_string());
            }
        }
    };
    next_page()?;
    let mut took = Vec::with_capacity(CHANGES);
    for _ in 0..CHANGES {
        let out = Command::new(&bin)
            .args(["--db", &s.db, "advance", "1m", "--skip-owed"])
            .output()?;
        anyhow::ensure!(
            out.status.success(),
            "advance: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Recorded (the command has exited): the clock it moved to, as the page prints it.
        let t = Instant::now();
        let moved = String::from_utf8_lossy(&out.stdout).to_string();
        let clock = moved
            .lines()
            .next()
            .unwrap_or_default()
            .split("to ")
            .nth(1)
            .map(|c| {
                c.split(&[' ', ';', ','][..])
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default();
        loop {
            let page = next_page()?;
            if clock.is_empty() || page.contains(clock.trim()) {
                break;
            }
        }
        took.push(t.elapsed().as_secs_f64());
    }
    took.sort_by(f64::total_cmp);
    let p99 = took[(took.len() * 99).div_ceil(100) - 1];
    let med = took[took.len() / 2];
    let replica = leechbook_ledger::Replica::open(Path::new(&s.db))?;
    let floor = median(5, || {
        let t = Instant::now();
        replica.state_open()?;
        Ok(t.elapsed())
    })?;
    Ok(Measured {
        name: "players' page, live change (p99)".into(),
        events: n,
        figure: p99,
        floor,
        floor_name: "one fold of the page's state".into(),
        notes: vec![
            ("p99 ms".into(), format!("{:.0}", p99 * 1e3)),
            ("median ms".into(), format!("{:.0}", med * 1e3)),
            ("changes".into(), CHANGES.to_string()),
        ],
    })
}
