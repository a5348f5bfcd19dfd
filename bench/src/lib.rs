//! Leechbook at scale: each figure of a long campaign measured, in the same run, against its
//! floor (what the same work costs with nothing of Leechbook's in the way).
//!
//! A synthetic campaign ([`leechbook_core::synthetic`]: a GM's device and four players',
//! 100 characters, strikes, treatments, healing rolls, retracted mistakes) is written once
//! per size to a ledger under `target/bench-ledgers/`, with the snapshots the CLI keeps.
//! The scenarios:
//!
//! - [`append`]: bulk append ([`leechbook_store::Store::import`]) against a raw SQLite insert
//!   of the same encoded bytes;
//! - [`replay`]: open, read, decode and fold the whole log against a raw scan of its rows;
//! - [`as_of`]: `show --at EVENT` at random points (snapshots plus the tail) against the
//!   full replay;
//! - [`cli_strike`]: one `leechbook strike` as a process, against starting the process;
//! - [`verify`]: `leechbook verify` as a process, with its own peak memory, against the full
//!   replay;
//! - [`audit`]: one audit of a character (`history`, `why`, `log --character`, `export
//!   --csv`) as a process, with its own peak memory, against starting the process;
//! - [`sync`]: two devices that each recorded events the other lacks converge through a
//!   relay on loopback, against raw automerge syncing the same two documents in memory.
//!
//! `cargo run --release -p leechbook-bench --bin scale` prints the table (peak memory from a
//! process per scenario); `cargo bench -p leechbook-bench` runs them under criterion.

use anyhow::{Context, Result};
use leechbook_core::fold::FOLD_VERSION;
use leechbook_core::ids::CampaignId;
use leechbook_core::synthetic;
use leechbook_core::{Envelope, Ledger};
use leechbook_store::{codec, Snapshot, Store};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The synthetic campaign's id.
pub fn campaign() -> CampaignId {
    CampaignId(uuid::Uuid::from_u128(1))
}

/// One measured figure and its floor.
#[derive(Clone, Debug, Default)]
pub struct Measured {
    /// What was measured.
    pub name: String,
    /// The events in the ledger.
    pub events: usize,
    /// The figure, in seconds.
    pub figure: f64,
    /// The floor, in seconds.
    pub floor: f64,
    /// What the floor is.
    pub floor_name: String,
    /// Other figures (name, value).
    pub notes: Vec<(String, String)>,
}

impl Measured {
    /// The figure over its floor.
    pub fn ratio(&self) -> f64 {
        self.figure / self.floor
    }

    /// As one JSON line (for the table, from a process per scenario).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.name,
            "events": self.events,
            "figure": self.figure,
            "floor": self.floor,
            "floor_name": self.floor_name,
            "notes": self.notes,
        })
    }

    /// Back from [`Measured::to_json`].
    pub fn from_json(v: &serde_json::Value) -> Option<Measured> {
        Some(Measured {
            name: v["name"].as_str()?.to_string(),
            events: v["events"].as_u64()? as usize,
            figure: v["figure"].as_f64()?,
            floor: v["floor"].as_f64()?,
            floor_name: v["floor_name"].as_str()?.to_string(),
            notes: v["notes"]
                .as_array()?
                .iter()
                .filter_map(|p| Some((p[0].as_str()?.to_string(), p[1].as_str()?.to_string())))
                .collect(),
        })
    }
}

/// The median of several timings of `f`.
pub fn median(runs: usize, mut f: impl FnMut() -> Result<Duration>) -> Result<f64> {
    let mut t: Vec<f64> = (0..runs)
        .map(|_| f().map(|d| d.as_secs_f64()))
        .collect::<Result<_>>()?;
    t.sort_by(f64::total_cmp);
    Ok(t[t.len() / 2])
}

fn timed<T>(f: impl FnOnce() -> Result<T>) -> Result<(T, Duration)> {
    let start = Instant::now();
    let v = f()?;
    Ok((v, start.elapsed()))
}

/// Where the benchmark ledgers are kept.
pub fn ledgers_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-ledgers")
}

/// The snapshots the CLI would have made while recording `log`: one whenever
/// [`leechbook_ledger::SNAPSHOT_EVERY`] events have passed since the last one that still stands (a
/// snapshot that a later ruling reaches into is dropped when the ruling lands, so the next
/// one comes after it). Folding the whole log once gives each of them, since no later ruling
/// changes what a standing snapshot folds. Keeps those `keep` picks.
pub fn cli_snapshots(log: &[Envelope], keep: impl Fn(&[u64]) -> Vec<u64>) -> Vec<Snapshot> {
    let position_of: std::collections::HashMap<_, _> = log
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id, i as u64 + 1))
        .collect();
    // For each position, the earliest event that a ruling recorded after it targets.
    let mut earliest_later_target = vec![u64::MAX; log.len() + 1];
    for (i, e) in log.iter().enumerate().rev() {
        let target = match &e.event {
            leechbook_core::Event::Ruling(r) => r.target().and_then(|t| position_of.get(&t)),
            _ => None,
        };
        let here = target.copied().unwrap_or(u64::MAX);
        earliest_later_target[i] = earliest_later_target[i + 1].min(here);
    }
    let stands = |p: u64| earliest_later_target[p as usize] > p;
    // Which positions get a snapshot, then which of those are kept.
    let mut made = Vec::new();
    let mut last = 0u64;
    for p in 1..=log.len() as u64 {
        if p >= last + leechbook_ledger::SNAPSHOT_EVERY && stands(p) {
            made.push(p);
            last = p;
        }
    }
    let kept: std::collections::HashSet<u64> = keep(&made).into_iter().collect();
    let mut snapshots = Vec::new();
    let mut position = 0u64;
    Ledger::derive(log, |ledger, env, _| {
        position += 1;
        if kept.contains(&position) {
            snapshots.push(Snapshot {
                position,
                last: env.order_key(),
                fold_version: FOLD_VERSION,
                payload: codec::encode_ledger(ledger),
            });
        }
    });
    snapshots
}

/// Imports `log` (into a store that holds none of it, in batches of at most 10,000 events)
/// and keeps what the write path would have kept while recording it: the checkpoints `keep`
/// picks (see [`cli_snapshots`]), each a head and one entry per character, each kept when the
/// log reaches it (as the write path keeps them: the store then tracks the earliest campaign
/// time after each as the rest arrives), and the archive's records of healed injuries, which
/// the entries leave out.
pub fn keep_checkpoints(
    store: &mut Store,
    log: &[Envelope],
    keep: impl Fn(&[u64]) -> Vec<u64>,
) -> Result<()> {
    let mut done = 0usize;
    let mut import_upto = |store: &mut Store, end: usize| -> Result<()> {
        for chunk in log[done..end].chunks(10_000) {
            store.import(chunk)?;
        }
        done = end;
        Ok(())
    };
    for s in cli_snapshots(log, keep) {
        import_upto(store, s.position as usize)?;
        let state = codec::decode_ledger(&s.payload)?;
        leechbook_ledger::checkpoint::save_checkpoint(store, s.position, s.last, &state)?;
    }
    import_upto(store, log.len())?;
    leechbook_ledger::archive::save(store, &Ledger::fold(log))?;
    Ok(())
}

pub(crate) fn remove_ledger(path: &Path) {
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
}

/// The ledger of the synthetic campaign of `n` events, with its snapshots: built once, then
/// reused (its name carries the fold version).
pub fn ledger(n: usize) -> Result<PathBuf> {
    let dir = ledgers_dir();
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(format!("synthetic-{n}-fold{FOLD_VERSION}-ckpt3-chained.db"));
    if path.exists() {
        return Ok(path);
    }
    let building = dir.join(format!("synthetic-{n}.building"));
    remove_ledger(&building);
    let mut store = Store::create_joining(&building, campaign())?;
    // The ledger's own device is on the roster as a GM, so that commands can record on it.
    let me = (store.device(), store.public_key().to_vec());
    // Signed as real devices sign: each device's events a chain, under its roster key.
    let mut log = synthetic::campaign_keyed(n, sync::public_key, Some(me));
    sync::sign_chained(&mut log);
    keep_checkpoints(&mut store, &log, leechbook_ledger::snapshots_kept)?;
    // And the projection the write path keeps (as the CLI leaves a ledger after a sync).
    let mut replica = leechbook_ledger::Replica::from_store(store);
    replica.refresh()?;
    drop(replica);
    std::fs::rename(&building, &path)?;
    Ok(path)
}

/// Bulk append of `n` events (in transactions of 10,000) against a raw SQLite insert of the
/// same encoded bytes into a table of one blob column, with the same pragmas and batches.
pub fn append(n: usize, dir: &Path) -> Result<Measured> {
    let log = synthetic::campaign(n);
    let encoded: Vec<Vec<u8>> = log.iter().map(codec::encode_envelope).collect();
    let figure = median(3, || {
        let path = dir.join("append.db");
        remove_ledger(&path);
        let mut store = Store::create_joining(&path, campaign())?;
        let (_, t) = timed(|| {
            for chunk in log.chunks(10_000) {
                store.import(chunk)?;
            }
            Ok(())
        })?;
        Ok(t)
    })?;
    let floor = median(3, || {
        let path = dir.join("raw.db");
        remove_ledger(&path);
        let mut conn = rusqlite::Connection::open(&path)?;
        conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0))?;
        conn.execute_batch(
            "PRAGMA synchronous = NORMAL;
             CREATE TABLE raw (rowid INTEGER PRIMARY KEY, bytes BLOB NOT NULL);",
        )?;
        let (_, t) = timed(|| {
            for chunk in encoded.chunks(10_000) {
                let tx = conn.transaction()?;
                {
                    let mut stmt = tx.prepare_cached("INSERT INTO raw (bytes) VALUES (?1)")?;
                    for b in chunk {
                        stmt.execute([b])?;
                    }
                }
                tx.commit()?;
            }
            Ok(())
        })?;
        Ok(t)
    })?;
    Ok(Measured {
        name: "bulk append".into(),
        events: n,
        figure,
        floor,
        floor_name: "raw SQLite insert of the same bytes".into(),
        notes: vec![
            ("events/s".into(), format!("{:.0}", n as f64 / figure)),
            ("floor events/s".into(), format!("{:.0}", n as f64 / floor)),
        ],
    })
}

/// Reads every row of the log in the total order, touching every byte, decoding nothing.
fn raw_scan(path: &Path) -> Result<usize> {
    let conn = rusqlite::Connection::open(path)?;
    let mut stmt = conn.prepare(
        "SELECT id, campaign, device, seq, clock, wall_ms, at, schema, payload, signature
         FROM events ORDER BY clock, device, seq",
    )?;
    let mut rows = stmt.query([])?;
    let mut bytes = 0usize;
    while let Some(r) = rows.next()? {
        for i in [0, 1, 2, 8] {
            bytes += r
                .get_ref(i)?
                .as_blob()?
                .iter()
                .map(|b| usize::from(*b))
                .sum::<usize>();
        }
        bytes += r.get::<_, i64>(4)? as usize;
    }
    Ok(bytes)
}

/// Opens the ledger, reads and decodes its whole log and folds it: the full replay, as the
/// ledger's service streams it.
fn fold_whole(path: &Path) -> Result<Ledger> {
    let store = Store::open(path)?;
    Ok(leechbook_ledger::full_fold(&store)?)
}

/// Full replay of the ledger of `n` events (open, read, decode, fold) against a raw scan of
/// the same rows.
pub fn replay(n: usize) -> Result<Measured> {
    let path = ledger(n)?;
    let mut applied = 0;
    let figure = median(3, || {
        let (ledger, t) = timed(|| fold_whole(&path))?;
        applied = ledger.applied as usize + ledger.retracted.len();
        anyhow::ensure!(
            ledger.void.is_empty(),
            "the synthetic log folds with void events"
        );
        Ok(t)
    })?;
    anyhow::ensure!(applied == n, "replay folded {applied} of {n} events");
    let floor = median(3, || Ok(timed(|| raw_scan(&path))?.1))?;
    Ok(Measured {
        name: "full replay".into(),
        events: n,
        figure,
        floor,
        floor_name: "raw scan of the rows".into(),
        notes: vec![("events/s".into(), format!("{:.0}", n as f64 / figure))],
    })
}

/// `show CHARACTER --at EVENT --json` at twenty points spread over the log (the median),
/// against the full replay.
pub fn as_of(n: usize) -> Result<Measured> {
    let path = ledger(n)?;
    let log = Store::open(&path)?.events()?;
    let mut x: u64 = 7;
    let points: Vec<String> = (0..20)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            log[(x >> 33) as usize % log.len()].id.to_string()
        })
        .collect();
    drop(log);
    show_at(n, &path, &points, "as-of query")
}

/// `show CHARACTER --at "day N" --json` (in-process) at ten campaign times spread over the
/// campaign (the median), against the full replay: a moment of the story, which no
/// checkpoint serves yet (the as-of query above is a moment of the log, given as an event).
pub fn as_of_day(n: usize) -> Result<Measured> {
    let path = ledger(n)?;
    // The campaign's clock, from the projection's head.
    let last = leechbook_ledger::Replica::open(&path)?
        .state_for(&[])?
        .now
        .0
        / leechbook_core::time::DAY;
    let points: Vec<String> = (1..=10)
        .map(|k| format!("day {}", 1 + last * k / 11))
        .collect();
    show_at(n, &path, &points, "as-of query, campaign time")
}

/// `show c5 --at TIME --json`, a wall time, at ten times spread over the log's recording
/// (the synthetic events are recorded half a minute apart), the median against the full
/// replay.
pub fn as_of_wall(n: usize) -> Result<Measured> {
    let path = ledger(n)?;
    let (first, last) = (synthetic::wall_of(1), synthetic::wall_of(n as u64));
    let points: Vec<String> = (1..=10)
        .map(|k| (first + (last - first) * k / 11).to_rfc3339())
        .collect();
    show_at(n, &path, &points, "as-of query, wall time")
}

/// `show c5 --at POINT --json` (in-process) at each point, the median, against the full
/// replay of the ledger at `path`.
fn show_at(n: usize, path: &Path, points: &[String], name: &str) -> Result<Measured> {
    let db = path.display().to_string();
    let mut i = 0;
    let figure = median(points.len(), || {
        let at = &points[i];
        i += 1;
        let (out, t) = timed(|| {
            Ok(leechbook::run([
                "leechbook",
                "--db",
                &db,
                "show",
                "c5",
                "--at",
                at,
                "--json",
            ]))
        })?;
        anyhow::ensure!(out.code == 0, "show --at {at}: {}", out.stderr);
        Ok(t)
    })?;
    let floor = median(3, || Ok(timed(|| fold_whole(path))?.1))?;
    Ok(Measured {
        name: name.into(),
        events: n,
        figure,
        floor,
        floor_name: "full replay".into(),
        notes: vec![("ms".into(), format!("{:.1}", figure * 1e3))],
    })
}

/// The `leechbook` binary beside this one (`cargo build --release -p leechbook`).
pub fn leechbook_binary() -> Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let dir = exe.parent().context("the bench binary has a directory")?;
    for d in [dir, dir.parent().unwrap_or(dir)] {
        let p = d.join("leechbook");
        if p.exists() {
            return Ok(p);
        }
    }
    anyhow::bail!(
        "no leechbook binary beside {}: run cargo build --release -p leechbook first",
        exe.display()
    )
}

/// One `leechbook strike` on the ledger of `n` events, as a process (start to exit), against
/// starting the same binary for `--version`.
pub fn cli_strike(n: usize, dir: &Path) -> Result<Measured> {
    let bin = leechbook_binary()?;
    let copy = dir.join("strike.db");
    remove_ledger(&copy);
    std::fs::copy(ledger(n)?, &copy)?;
    let run = |args: &[&str]| -> Result<Duration> {
        let (out, t) = timed(|| Ok(std::process::Command::new(&bin).args(args).output()?))?;
        anyhow::ensure!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Ok(t)
    };
    let db = copy.display().to_string();
    let figure = median(11, || {
        run(&[
            "--db",
            &db,
            "strike",
            "c5",
            "--aspect",
            "blunt",
            "--location",
            "thorax",
            "--effective",
            "4",
            "--dice",
            "shock=3",
            // A compound roll, when an earlier thorax injury calls for one, is rolled.
            "--seed",
            "1",
        ])
    })?;
    let floor = median(11, || run(&["--version"]))?;
    Ok(Measured {
        name: "one CLI strike".into(),
        events: n,
        figure,
        floor,
        floor_name: "process start (--version)".into(),
        notes: vec![("ms".into(), format!("{:.1}", figure * 1e3))],
    })
}

/// Runs the binary `bin` with `args` to its end, watching its peak memory: its time from
/// start to exit and the highest resident size read from `/proc` while it ran (read every
/// millisecond; a process's high-water mark only grows, so the last reading before its exit
/// is its peak, but for what it took in its last millisecond).
fn run_watched(bin: &Path, args: &[&str]) -> Result<(Duration, u64)> {
    let start = Instant::now();
    let mut child = std::process::Command::new(bin)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()?;
    let status = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0u64;
    let exit = loop {
        if let Some(kib) = std::fs::read_to_string(&status).ok().and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        }) {
            peak_kib = peak_kib.max(kib);
        }
        if let Some(exit) = child.try_wait()? {
            break exit;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let took = start.elapsed();
    if !exit.success() {
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            std::io::Read::read_to_string(&mut e, &mut err)?;
        }
        anyhow::bail!("{args:?}: {}", err.trim());
    }
    Ok((took, peak_kib))
}

/// The audits of one character ([`audit`]): a scenario's name and the command's arguments
/// after the character (`INJURY` stands for the character's first injury).
pub const AUDITS: [(&str, &[&str]); 4] = [
    ("history", &["history", "c5", "INJURY"]),
    ("why", &["why", "c5", "INJURY"]),
    ("log-character", &["log", "--character", "c5"]),
    ("export-csv", &["export", "c5", "--csv"]),
];

/// One audit of a character (issue 27: `history c5 INJURY`, `why c5 INJURY`, `log --character
/// c5`, `export c5 --csv`, by [`AUDITS`]' name) on the ledger of `n` events, as a process
/// from start to exit, with that process's own peak memory, against starting the same binary
/// for `--version`.
pub fn audit(name: &str, n: usize, dir: &Path) -> Result<Measured> {
    let bin = leechbook_binary()?;
    let (_, args) = AUDITS
        .iter()
        .find(|(a, _)| *a == name)
        .with_context(|| format!("no audit {name}"))?;
    let copy = dir.join("audit.db");
    remove_ledger(&copy);
    std::fs::copy(ledger(n)?, &copy)?;
    let db = copy.display().to_string();
    let shown = std::process::Command::new(&bin)
        .args(["--db", &db, "show", "c5", "--json"])
        .output()?;
    let v: serde_json::Value = serde_json::from_slice(&shown.stdout)
        .with_context(|| format!("show c5: {}", String::from_utf8_lossy(&shown.stderr)))?;
    let injury = v["injuries"][0]["id"]
        .as_str()
        .context("c5 holds an injury")?
        .to_string();
    let mut full: Vec<&str> = vec!["--db", &db];
    full.extend(
        args.iter()
            .map(|a| if *a == "INJURY" { injury.as_str() } else { a }),
    );
    let mut peak = 0u64;
    let figure = median(5, || {
        let (t, kib) = run_watched(&bin, &full)?;
        peak = peak.max(kib);
        Ok(t)
    })?;
    let floor = median(5, || Ok(run_watched(&bin, &["--version"])?.0))?;
    Ok(Measured {
        name: format!("audit: {}", args.join(" ")),
        events: n,
        figure,
        floor,
        floor_name: "process start (--version)".into(),
        notes: vec![
            ("ms".into(), format!("{:.1}", figure * 1e3)),
            (
                "command peak MB".into(),
                format!("{:.0}", peak as f64 / 1024.0),
            ),
        ],
    })
}

/// `leechbook verify --full` on the ledger of `n` events (a copy), as a process from start
/// to exit with its own peak memory, against the full replay of the same ledger (issue 27:
/// verify streams, at most twice the replay); and the plain `verify` after 1,000 events
/// recorded since the last one (the incremental check), in the notes.
pub fn verify(n: usize, dir: &Path) -> Result<Measured> {
    let bin = leechbook_binary()?;
    let copy = dir.join("verify.db");
    remove_ledger(&copy);
    std::fs::copy(ledger(n)?, &copy)?;
    let db = copy.display().to_string();
    let mut peak = 0u64;
    let figure = median(3, || {
        let (t, kib) = run_watched(&bin, &["--db", &db, "verify", "--full"])?;
        peak = peak.max(kib);
        Ok(t)
    })?;
    let floor = median(3, || Ok(timed(|| fold_whole(&copy))?.1))?;
    // 1,000 events since the last verify, then the plain verify.
    let mut since_peak = 0u64;
    let since = median(3, || {
        let mut store = Store::open(&copy)?;
        let now = leechbook_ledger::full_fold(&store)?.now;
        let mut w = store.write()?;
        for i in 1..=1_000 {
            let to = leechbook_core::time::CampaignTime(now.0 + 60 * i);
            let env = w.prepare(
                leechbook_core::Event::ClockAdvanced { to },
                to,
                std::time::SystemTime::now().into(),
            )?;
            w.append(&env)?;
        }
        w.commit()?;
        drop(store);
        let (t, kib) = run_watched(&bin, &["--db", &db, "verify"])?;
        since_peak = since_peak.max(kib);
        Ok(t)
    })?;
    Ok(Measured {
        name: "verify".into(),
        events: n,
        figure,
        floor,
        floor_name: "full replay".into(),
        notes: vec![
            (
                "command peak MB".into(),
                format!("{:.0}", peak as f64 / 1024.0),
            ),
            (
                "plain verify after 1,000 new events ms".into(),
                format!("{:.0}", since * 1e3),
            ),
            (
                "its peak MB".into(),
                format!("{:.0}", since_peak as f64 / 1024.0),
            ),
        ],
    })
}

pub mod page;
pub mod sync;
pub use sync::sync;
