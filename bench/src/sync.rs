//! The sync scenario: two devices hold a shared base (and the same automerge document of it,
//! as an earlier sync left them) and each has recorded `d` events the other lacks. They
//! converge through a relay on loopback (`sync connect` from A, then B, then A), every byte
//! counted by a proxy in front of the relay. The floor is raw automerge: the same two
//! documents, already in memory with their changes, synced by automerge's sync protocol
//! with nothing in between.

use crate::{campaign, median, remove_ledger, timed, Measured};
use anyhow::Result;
use automerge::sync::SyncDoc;
use automerge::transaction::Transactable;
use leechbook_core::synthetic;
use leechbook_store::{codec, Store};
use leechbook_sync::layout::{self, VolumeId};
use leechbook_sync::FileTransport;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The signing key of the synthetic campaign's device `d`.
fn key(d: u8) -> ed25519_dalek::SigningKey {
    ed25519_dalek::SigningKey::from_bytes(&[d + 1; 32])
}

/// Signs every event of `log` (in the total order) as its device would: each a link of its
/// device's chain, with the device's key (the synthetic devices' keys, [`key`]).
pub fn sign_chained(log: &mut [leechbook_core::Envelope]) {
    let keys: Vec<_> = (0..synthetic::DEVICES).map(key).collect();
    let mut links: std::collections::HashMap<leechbook_core::ids::DeviceId, [u8; 32]> =
        std::collections::HashMap::new();
    for e in log.iter_mut() {
        let d = (0..synthetic::DEVICES)
            .find(|d| synthetic::device(*d) == e.device)
            .unwrap_or(0);
        let link = links.get(&e.device).copied().unwrap_or([0; 32]);
        codec::sign_chained(e, link, &keys[usize::from(d)]);
        links.insert(e.device, codec::link_of(Some(e)));
    }
}

/// The synthetic campaign's roster key of device `d` (its real public key).
pub fn public_key(d: u8) -> Vec<u8> {
    key(d).verifying_key().to_bytes().to_vec()
}

/// The synthetic log of `n` events with real keys on its roster; the last `signed` events
/// signed by their devices (the ones a sync will check).
pub fn signed_log(n: usize, signed: usize) -> Vec<leechbook_core::Envelope> {
    let mut log =
        synthetic::campaign_keyed(n, |d| key(d).verifying_key().to_bytes().to_vec(), None);
    let keys: Vec<_> = (0..synthetic::DEVICES).map(key).collect();
    // Each device's highest number and clock so far, and its previous event: the heads a
    // device names as it signs (layout 3), as it would after holding the log before it.
    let mut tops: std::collections::BTreeMap<leechbook_core::ids::DeviceId, (u64, u64)> =
        Default::default();
    let mut prev: std::collections::HashMap<leechbook_core::ids::DeviceId, (u64, [u8; 32])> =
        Default::default();
    for (i, e) in log.iter_mut().enumerate() {
        let (since, link) = prev.get(&e.device).copied().unwrap_or((0, [0; 32]));
        if i >= n - signed {
            let d = (0..synthetic::DEVICES)
                .find(|d| synthetic::device(*d) == e.device)
                .unwrap_or(0);
            // The head it was clocked from, as a device names it: the other device whose
            // highest number held has the highest clock, when above its own previous one.
            let heads: Vec<_> = tops
                .iter()
                .filter(|(dev, (_, c))| **dev != e.device && *c > since)
                .max_by_key(|(dev, (_, c))| (*c, **dev))
                .map(|(dev, (seq, _))| (*dev, *seq))
                .into_iter()
                .collect();
            // The link is to the previous number as signed (the base's are unsigned).
            codec::sign_seen(e, link, &heads, &keys[usize::from(d)]);
        }
        let t = tops.entry(e.device).or_insert((0, 0));
        *t = (t.0.max(e.seq), t.1.max(e.clock));
        prev.insert(e.device, (e.clock, codec::link_of(Some(e))));
    }
    log
}

/// A TCP proxy in front of `to` that counts the bytes both ways.
struct Proxy {
    addr: std::net::SocketAddr,
    bytes: Arc<AtomicU64>,
}

impl Proxy {
    fn start(to: std::net::SocketAddr) -> Result<Proxy> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let bytes = Arc::new(AtomicU64::new(0));
        let counted = bytes.clone();
        std::thread::spawn(move || {
            for client in listener.incoming().map_while(Result::ok) {
                let Ok(server) = TcpStream::connect(to) else {
                    continue;
                };
                for (mut from, mut into) in [
                    (client.try_clone(), server.try_clone()),
                    (server.try_clone(), client.try_clone()),
                ]
                .into_iter()
                .filter_map(|(a, b)| Some((a.ok()?, b.ok()?)))
                {
                    let counted = counted.clone();
                    std::thread::spawn(move || {
                        let mut buf = [0u8; 64 * 1024];
                        while let Ok(k) = from.read(&mut buf) {
                            if k == 0 || into.write_all(&buf[..k]).is_err() {
                                break;
                            }
                            counted.fetch_add(k as u64, Ordering::Relaxed);
                        }
                        let _ = into.shutdown(std::net::Shutdown::Write);
                    });
                }
            }
        });
        Ok(Proxy { addr, bytes })
    }
}

/// What a hub that saw the base's sync holds: every document with its id.
type Held = Vec<(leechbook_sync::net::DocumentId, Vec<u8>, Vec<u8>)>;

/// Two ledgers of the same base (with the base's documents kept in both, as after an earlier
/// sync) and a tail each. Returns the base's documents (for the hub to hold) and its volumes
/// by id (for the floor).
fn two_devices(
    base: &[leechbook_core::Envelope],
    x: &[leechbook_core::Envelope],
    y: &[leechbook_core::Envelope],
    a: &Path,
    b: &Path,
    dir: &Path,
    ring: &leechbook_sync::Keyring,
) -> Result<(Held, BTreeMap<VolumeId, Vec<u8>>)> {
    remove_ledger(a);
    remove_ledger(b);
    {
        let mut store = Store::create_joining(a, campaign())?;
        for chunk in base.chunks(10_000) {
            store.import(chunk)?;
        }
        // The campaign's keys, as a join file gives them (b is a copy, so it holds them too).
        leechbook_sync::crypt::keep_keyring(&mut store, ring)?;
        // An export keeps the document of the base; a sync puts it on the hub.
        let file = dir.join("base.sync");
        leechbook_sync::export(&mut store, &mut FileTransport { path: &file }, None)?;
    }
    std::fs::copy(a, b)?;
    let (held, volumes) = {
        let store = Store::open(a)?;
        let held = leechbook_sync::net::kept_documents(&store)?;
        let mut volumes = BTreeMap::new();
        for v in x.iter().chain(y).map(VolumeId::of) {
            if let Some((whole, appended)) = layout::kept_bytes(&store, &v.name())? {
                let mut doc = automerge::Automerge::load(&whole)?;
                doc.load_incremental(&appended)?;
                volumes.insert(v, doc.save());
            }
        }
        (held, volumes)
    };
    for (p, tail) in [(a, x), (b, y)] {
        let mut store = Store::open(p)?;
        store.import(tail)?;
    }
    Ok((held, volumes))
}

/// One device's sync with the hub at `url`, as a process of its own (this binary's
/// `sync-once`, which runs exactly `sync_with`); returns its peak memory in KiB, read from
/// /proc while it runs (the high-water mark only rises, so the last reading is the peak but
/// for the last few milliseconds of its life).
fn device_sync(db: &Path, url: &str) -> Result<u64> {
    let mut child = std::process::Command::new(std::env::current_exe()?)
        .arg("sync-once")
        .arg(db)
        .arg(url)
        .spawn()?;
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0u64;
    loop {
        if let Ok(s) = std::fs::read_to_string(&status) {
            if let Some(kib) = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak = peak.max(kib);
            }
        }
        if let Some(done) = child.try_wait()? {
            anyhow::ensure!(done.success(), "a device's sync failed");
            return Ok(peak);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Automerge's own sync protocol between each pair of documents, in memory, until both
/// sides are quiet: the floor a Leechbook sync is measured against. Gives the bytes the
/// messages took.
fn raw_sync(pairs: &mut [[automerge::Automerge; 2]]) -> Result<usize> {
    let mut wire = 0;
    for [da, db] in pairs.iter_mut() {
        let (mut sa, mut sb) = (automerge::sync::State::new(), automerge::sync::State::new());
        loop {
            let mut quiet = true;
            if let Some(m) = da.generate_sync_message(&mut sa) {
                quiet = false;
                let bytes = m.encode();
                wire += bytes.len();
                db.receive_sync_message(&mut sb, automerge::sync::Message::decode(&bytes)?)?;
            }
            if let Some(m) = db.generate_sync_message(&mut sb) {
                quiet = false;
                let bytes = m.encode();
                wire += bytes.len();
                da.receive_sync_message(&mut sa, automerge::sync::Message::decode(&bytes)?)?;
            }
            if quiet {
                break;
            }
        }
    }
    Ok(wire)
}

/// Two devices of a ledger of `n` events, `d` of them recorded on each device alone, converge
/// through a relay; against raw automerge syncing the same documents.
pub fn sync(n: usize, d: usize, dir: &Path) -> Result<Measured> {
    anyhow::ensure!(2 * d < n, "the divergent events must leave a base");
    let log = signed_log(n, 2 * d);
    let (base, tails) = log.split_at(n - 2 * d);
    let (x, y) = tails.split_at(d);
    let (a, b) = (dir.join("sync-a.db"), dir.join("sync-b.db"));

    let ring = leechbook_sync::Keyring::generate(campaign());
    let mut device_peak = 0u64;
    let mut wire = 0u64;
    let mut doc_bytes = 0usize;
    let mut held: Held = Vec::new();
    let mut base_volumes: BTreeMap<VolumeId, Vec<u8>> = BTreeMap::new();
    // A fresh pair of ledgers for each run (a sync changes them), built outside the timing.
    // One run at a million events (each builds two ledgers and a document of them).
    let runs = if n >= 500_000 { 1 } else { 3 };
    let figure = median(runs, || {
        (held, base_volumes) = two_devices(base, x, y, &a, &b, dir, &ring)?;
        // A fresh relay for each run, so that no run finds another's changes on it; it holds
        // the base, as a hub that saw the earlier sync does.
        let holding = held.clone();
        let relay = TcpListener::bind("127.0.0.1:0")?;
        let relay_addr = relay.local_addr()?;
        let (stop, stopped) = futures::channel::oneshot::channel::<()>();
        let relay = std::thread::spawn(move || {
            let _ = leechbook_sync::net::relay(
                relay,
                holding,
                async {
                    let _ = stopped.await;
                },
                |_| {},
            );
        });
        let proxy = Proxy::start(relay_addr)?;
        let url = format!("ws://{}", proxy.addr);
        let before = proxy.bytes.load(Ordering::Relaxed);
        let (_, t) = timed(|| {
            for p in [&a, &b, &a] {
                device_peak = device_peak.max(device_sync(p, &url)?);
            }
            Ok(())
        })?;
        wire = proxy.bytes.load(Ordering::Relaxed) - before;
        let _ = stop.send(());
        let _ = relay.join();
        let (sa, sb) = (Store::open(&a)?, Store::open(&b)?);
        anyhow::ensure!(sa.count()? as usize == n && sb.count()? as usize == n);
        anyhow::ensure!(sa.events()? == sb.events()?, "the two devices differ");
        doc_bytes = sa
            .sync_state_keys("doc")?
            .iter()
            .map(|k| sa.sync_state(k).map(|v| v.map_or(0, |v| v.len())))
            .sum::<Result<usize, _>>()?;
        Ok(t)
    })?;

    // The floor: the same base volumes, each side's events put in them as a sync does, then
    // automerge's sync protocol between the two in memory, volume by volume.
    let mut raw_wire = 0usize;
    let mut raw_doc = 0usize;
    let floor = median(runs, || {
        let mut pairs = Vec::new();
        let touched: std::collections::BTreeSet<VolumeId> =
            x.iter().chain(y).map(VolumeId::of).collect();
        for v in touched {
            let base = match base_volumes.get(&v) {
                Some(b) => automerge::Automerge::load(b)?,
                None => automerge::Automerge::new(),
            };
            let mut docs = [base.fork(), base.fork()];
            for (doc, tail) in docs.iter_mut().zip([x, y]) {
                let mine: Vec<_> = tail.iter().filter(|e| VolumeId::of(e) == v).collect();
                if mine.is_empty() {
                    continue;
                }
                doc.transact(|tx| {
                    for e in &mine {
                        let key = e.id.to_string();
                        let sealed = ring.seal(&key, &codec::encode_envelope(e));
                        tx.put(automerge::ROOT, key, automerge::ScalarValue::Bytes(sealed))?;
                    }
                    Ok::<_, automerge::AutomergeError>(())
                })
                .map_err(|f| f.error)?;
            }
            pairs.push(docs);
        }
        let ((), t) = timed(|| {
            raw_wire = raw_sync(&mut pairs)?;
            Ok(())
        })?;
        anyhow::ensure!(
            pairs
                .iter()
                .all(|[da, db]| da.get_heads() == db.get_heads()),
            "raw automerge did not converge"
        );
        raw_doc = pairs.iter_mut().map(|[da, _]| da.save().len()).sum();
        Ok(t)
    })?;
    let exchanged = 2 * d;
    Ok(Measured {
        name: format!("sync, {d} divergent events a side"),
        events: n,
        figure,
        floor,
        floor_name: "raw automerge sync of the same documents".into(),
        notes: vec![
            (
                "µs/event exchanged".into(),
                format!("{:.1}", figure * 1e6 / exchanged as f64),
            ),
            (
                "floor µs/event".into(),
                format!("{:.1}", floor * 1e6 / exchanged as f64),
            ),
            ("bytes on the wire".into(), wire.to_string()),
            (
                "device peak MB".into(),
                format!("{:.0}", device_peak as f64 / 1024.0),
            ),
            ("raw automerge bytes".into(), raw_wire.to_string()),
            (
                "doc bytes/event".into(),
                format!("{:.1}", doc_bytes as f64 / n as f64),
            ),
            (
                "raw doc bytes/event".into(),
                format!("{:.1}", raw_doc as f64 / n as f64),
            ),
            (
                "raw bytes/event of the volumes exchanged".into(),
                format!("{:.1}", raw_doc as f64 / exchanged as f64),
            ),
        ],
    })
}

/// A long-lived sync (`sync connect --watch`) of one new event, at `n` events: a device
/// watching a hub (a device serving its copy of the ledger, `sync serve`) through a proxy
/// that counts every byte; once both are quiet, one event is recorded on the watching
/// device (by another connection, as another process would). The figure is the bytes both
/// ways until the hub holds it and both are quiet again; the floor, automerge's own sync
/// protocol carrying the same change between the volume before and after it, in memory.
pub fn watch(n: usize, dir: &Path) -> Result<Measured> {
    use std::sync::atomic::AtomicUsize;
    let log = signed_log(n, 1);
    let (base, new) = log.split_at(n - 1);
    let (a, b) = (dir.join("watch-a.db"), dir.join("watch-b.db"));
    let ring = leechbook_sync::Keyring::generate(campaign());
    two_devices(base, &[], &[], &a, &b, dir, &ring)?;
    let v = VolumeId::of(&new[0]);
    let before = {
        let store = Store::open(&a)?;
        match layout::kept_bytes(&store, &v.name())? {
            Some((whole, appended)) => {
                let mut doc = automerge::Automerge::load(&whole)?;
                doc.load_incremental(&appended)?;
                doc
            }
            None => automerge::Automerge::new(),
        }
    };
    // The hub: a device serving its ledger; the watching device dials it through the proxy.
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let hub_addr = listener.local_addr()?;
    let (stop_hub, hub_stopped) = futures::channel::oneshot::channel::<()>();
    let served = b.clone();
    let hub = std::thread::spawn(move || -> Result<()> {
        let mut store = Store::open(&served)?;
        leechbook_sync::net::serve(
            &mut store,
            listener,
            async {
                let _ = hub_stopped.await;
            },
            &mut |_| {},
        )?;
        Ok(())
    });
    let proxy = Proxy::start(hub_addr)?;
    let url = format!("ws://{}", proxy.addr);
    let rounds = Arc::new(AtomicUsize::new(0));
    let counted = rounds.clone();
    let (stop_watch, watch_stopped) = futures::channel::oneshot::channel::<()>();
    let watched = a.clone();
    let watcher = std::thread::spawn(move || -> Result<()> {
        let mut store = Store::open(&watched)?;
        leechbook_sync::net::watch(
            &mut store,
            &url,
            Duration::from_secs(60),
            Duration::from_millis(100),
            async {
                let _ = watch_stopped.await;
            },
            &mut |_| {
                counted.fetch_add(1, Ordering::Relaxed);
            },
        )?;
        Ok(())
    });
    // Quiet: the first round done and no byte for half a second.
    let quiet = |proxy: &Proxy| {
        let mut last = proxy.bytes.load(Ordering::Relaxed);
        loop {
            std::thread::sleep(Duration::from_millis(500));
            let now = proxy.bytes.load(Ordering::Relaxed);
            if now == last {
                return now;
            }
            last = now;
        }
    };
    let t = std::time::Instant::now();
    while rounds.load(Ordering::Relaxed) == 0 {
        anyhow::ensure!(
            t.elapsed() < Duration::from_secs(120),
            "the watch never synced"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let start = quiet(&proxy);
    let t = std::time::Instant::now();
    Store::open(&a)?.import(new)?;
    let hub_store = Store::open(&b)?;
    while (hub_store.count()? as usize) < n {
        anyhow::ensure!(
            t.elapsed() < Duration::from_secs(60),
            "the event never reached the hub"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let landed = t.elapsed();
    let wire = quiet(&proxy) - start;
    let _ = stop_watch.send(());
    let _ = stop_hub.send(());
    watcher
        .join()
        .map_err(|_| anyhow::anyhow!("the watch panicked"))??;
    hub.join()
        .map_err(|_| anyhow::anyhow!("the hub panicked"))??;
    // The floor: the same change between the volume before and after it.
    let mut after = before.fork();
    after
        .transact(|tx| {
            let key = new[0].id.to_string();
            let sealed = ring.seal(&key, &codec::encode_envelope(&new[0]));
            tx.put(automerge::ROOT, key, automerge::ScalarValue::Bytes(sealed))?;
            Ok::<_, automerge::AutomergeError>(())
        })
        .map_err(|f| f.error)?;
    let mut pairs = [[after, before]];
    let raw = raw_sync(&mut pairs)?;
    Ok(Measured {
        name: "long-lived sync of one event (bytes)".into(),
        events: n,
        figure: wire as f64,
        floor: raw as f64,
        floor_name: "raw automerge sync of the same change (bytes)".into(),
        notes: vec![
            ("bytes on the wire".into(), wire.to_string()),
            ("raw automerge bytes".into(), raw.to_string()),
            ("bytes of the watch's first round".into(), start.to_string()),
            (
                "ms until the hub held it".into(),
                format!("{:.0}", landed.as_secs_f64() * 1e3),
            ),
        ],
    })
}
