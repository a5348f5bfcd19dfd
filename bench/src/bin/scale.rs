//! Prints the scale table: every figure against its floor, measured in the same run, with
//! the peak memory of a process per scenario.
//!
//! ```sh
//! cargo build --release -p leechbook -p leechbook-bench
//! target/release/scale                       # 10k, 100k and 1M events
//! target/release/scale --sizes 10000,100000  # quicker
//! target/release/scale one replay 1000000    # one scenario, as JSON (append, replay, as-of,
//!                                             # as-of-day, as-of-wall, cli-strike, sync,
//!                                             # verify, history, why, log-character,
//!                                             # export-csv, live, page-load,
//!                                             # watch)
//! ```

use anyhow::{bail, Context, Result};
use leechbook_bench::{
    append, as_of, as_of_day, as_of_wall, audit, cli_strike, ledger, replay, sync, verify,
    Measured, AUDITS,
};

/// The divergent events a side in the sync scenario that compares sizes, and in the one the
/// benchmarks issue names.
const SMALL_DIVERGENCE: usize = 1_000;
const LARGE_DIVERGENCE: usize = 50_000;

fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

fn one(name: &str, n: usize, d: usize) -> Result<Measured> {
    let dir = tempfile_dir()?;
    let m = match name {
        "append" => append(n, &dir),
        "replay" => replay(n),
        "as-of" => as_of(n),
        "as-of-day" => as_of_day(n),
        "as-of-wall" => as_of_wall(n),
        "cli-strike" => cli_strike(n, &dir),
        "sync" => sync(n, d, &dir),
        "verify" => verify(n, &dir),
        "live" => leechbook_bench::page::live(n, &dir),
        "watch" => leechbook_bench::sync::watch(n, &dir),
        "page-load" => leechbook_bench::page::page_load(n, &dir),
        a if AUDITS.iter().any(|(x, _)| *x == a) => audit(a, n, &dir),
        other => bail!(
            "no scenario {other} (append, replay, as-of, as-of-day, as-of-wall, cli-strike, sync, verify, history, why, log-character, export-csv, live, page-load, watch)"
        ),
    };
    let _ = std::fs::remove_dir_all(&dir);
    m
}

fn tempfile_dir() -> Result<std::path::PathBuf> {
    let dir = leechbook_bench::ledgers_dir().join(format!("run-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Runs one scenario in a child process; returns what it measured and its peak memory.
fn child(name: &str, n: usize, d: usize) -> Result<(Measured, u64)> {
    let out = std::process::Command::new(std::env::current_exe()?)
        .args(["one", name, &n.to_string(), &d.to_string()])
        .output()?;
    if !out.status.success() {
        bail!(
            "{name} at {n}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .with_context(|| format!("{name} at {n} printed no JSON"))?;
    let m = Measured::from_json(&v["measured"]).context("the measured figure")?;
    Ok((m, v["peak_kib"].as_u64().unwrap_or(0)))
}

fn target(m: &Measured, peak_mib: f64) -> String {
    let n = m.events;
    match m.name.as_str() {
        "bulk append" => {
            let rate = n as f64 / m.figure;
            verdict(
                rate >= 200_000.0,
                format!("≥ 200k events/s ({:.0}k)", rate / 1e3),
            )
        }
        "full replay" => {
            let mut v = verdict(
                m.ratio() <= 1.5,
                format!("≤ 1.5x raw scan ({:.2}x)", m.ratio()),
            );
            if n >= 1_000_000 {
                v += &format!(
                    "; {}; {}",
                    verdict(m.figure < 1.0, format!("< 1 s ({:.2} s)", m.figure)),
                    verdict(
                        peak_mib <= 256.0,
                        format!("peak ≤ 256 MB ({peak_mib:.0} MB)")
                    )
                );
            }
            v
        }
        "as-of query" | "as-of query, campaign time" | "as-of query, wall time" => verdict(
            m.figure <= 0.020,
            format!("≤ 20 ms ({:.1} ms)", m.figure * 1e3),
        ),
        audit if audit.starts_with("audit: ") => {
            let peak: f64 = m
                .notes
                .iter()
                .find(|(k, _)| k == "command peak MB")
                .and_then(|(_, v)| v.parse().ok())
                .unwrap_or(f64::MAX);
            format!(
                "{}; {}",
                verdict(
                    m.figure <= 0.100,
                    format!("≤ 100 ms ({:.0} ms)", m.figure * 1e3)
                ),
                verdict(peak <= 64.0, format!("≤ 64 MB ({peak:.0} MB)"))
            )
        }
        "verify" => {
            let peak: f64 = m
                .notes
                .iter()
                .find(|(k, _)| k == "command peak MB")
                .and_then(|(_, v)| v.parse().ok())
                .unwrap_or(f64::MAX);
            format!(
                "{}; {}",
                verdict(m.ratio() <= 2.0, format!("≤ 2x replay ({:.2}x)", m.ratio())),
                verdict(peak <= 256.0, format!("≤ 256 MB ({peak:.0} MB)"))
            )
        }
        "players' page, live change (p99)" => verdict(
            m.figure <= 1.0,
            format!("p99 ≤ 1 s ({:.0} ms)", m.figure * 1e3),
        ),
        "players' page, first load" => {
            let kb: f64 = m
                .notes
                .iter()
                .find(|(k, _)| k == "KB")
                .and_then(|(_, v)| v.parse().ok())
                .unwrap_or(f64::MAX);
            format!(
                "{}; {}",
                verdict(
                    m.figure <= 0.200,
                    format!("≤ 200 ms ({:.1} ms)", m.figure * 1e3)
                ),
                verdict(kb < 100.0, format!("< 100 KB ({kb:.1} KB)"))
            )
        }
        "one CLI strike" => verdict(
            m.figure <= 0.010,
            format!("≤ 10 ms ({:.1} ms)", m.figure * 1e3),
        ),
        _ => verdict(
            m.ratio() <= 2.0,
            format!("≤ 2x raw automerge ({:.1}x)", m.ratio()),
        ),
    }
}

fn verdict(met: bool, what: String) -> String {
    format!("{} {what}", if met { "met:" } else { "MISSED:" })
}

fn table(sizes: &[usize]) -> Result<()> {
    for &n in sizes {
        eprintln!("building the {n}-event ledger (once)...");
        ledger(n)?;
    }
    println!("| figure | events | measured | floor | ratio | peak MB | target | notes |");
    println!("|---|---:|---:|---:|---:|---:|---|---|");
    let mut runs: Vec<(&str, usize, usize)> = Vec::new();
    for &n in sizes {
        for s in [
            "append",
            "replay",
            "as-of",
            "as-of-day",
            "as-of-wall",
            "cli-strike",
            "history",
            "why",
            "log-character",
            "export-csv",
            "verify",
            "page-load",
            "live",
            "watch",
        ] {
            runs.push((s, n, 0));
        }
        runs.push(("sync", n, SMALL_DIVERGENCE));
    }
    if let Some(&n) = sizes.iter().filter(|&&n| n > 2 * LARGE_DIVERGENCE).max() {
        runs.push(("sync", n, LARGE_DIVERGENCE));
    }
    for (s, n, d) in runs {
        eprintln!("{s} at {n}...");
        let (m, peak) = child(s, n, d)?;
        let peak_mib = peak as f64 / 1024.0;
        let notes: Vec<String> = m.notes.iter().map(|(k, v)| format!("{k} {v}")).collect();
        println!(
            "| {} | {} | {:.4} s | {:.4} s ({}) | {:.2}x | {:.0} | {} | {} |",
            m.name,
            m.events,
            m.figure,
            m.floor,
            m.floor_name,
            m.ratio(),
            peak_mib,
            target(&m, peak_mib),
            notes.join(", ")
        );
    }
    Ok(())
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("one") => {
            let name = args.get(1).context("one NAME N [D]")?;
            let n: usize = args.get(2).context("one NAME N [D]")?.parse()?;
            let d: usize = args.get(3).map_or(Ok(SMALL_DIVERGENCE), |d| d.parse())?;
            let m = one(name, n, d)?;
            println!(
                "{}",
                serde_json::json!({ "measured": m.to_json(), "peak_kib": peak_kib() })
            );
            Ok(())
        }
        Some("--sizes") => {
            let sizes = args
                .get(1)
                .context("--sizes N,N,...")?
                .split(',')
                .map(|s| s.trim().parse())
                .collect::<Result<Vec<usize>, _>>()?;
            table(&sizes)
        }
        // One device's sync as a process of its own, so that its peak memory is its own
        // (the sync scenario runs each device so).
        Some("sync-once") => {
            let db = args.get(1).context("sync-once DB URL")?;
            let url = args.get(2).context("sync-once DB URL")?;
            let mut store = leechbook_store::Store::open(std::path::Path::new(db))?;
            leechbook_sync::net::sync_with(&mut store, url, std::time::Duration::from_secs(600))?;
            Ok(())
        }
        None | Some("table") => table(&[10_000, 100_000, 1_000_000]),
        Some(other) => bail!("unknown argument {other}: scale [--sizes N,...] | one NAME N [D]"),
    }
}
