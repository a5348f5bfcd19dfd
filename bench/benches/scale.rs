//! The scale scenarios under criterion, at sizes that run in minutes: replay against the raw
//! scan of the same rows, the as-of query, and bulk append against a raw insert.
//! `cargo bench -p leechbook-bench`; the full table with 1M events and memory is the `scale`
//! binary's (see BENCHMARKS.md).

#![allow(missing_docs)] // criterion_group! generates an undocumented function

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use leechbook_bench::ledger;
use leechbook_core::Ledger;
use leechbook_store::Store;

fn replay(c: &mut Criterion) {
    let mut g = c.benchmark_group("replay");
    g.sample_size(10);
    for n in [10_000usize, 100_000] {
        let path = ledger(n).expect("the bench ledger");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("fold", n), &path, |b, path| {
            b.iter(|| {
                let store = Store::open(path).expect("opens");
                Ledger::fold(&store.events().expect("reads"))
            })
        });
        g.bench_with_input(BenchmarkId::new("raw-scan", n), &path, |b, path| {
            b.iter(|| {
                let conn = rusqlite::Connection::open(path).expect("opens");
                let mut stmt = conn
                    .prepare("SELECT payload FROM events ORDER BY clock, device, seq")
                    .expect("prepares");
                let mut rows = stmt.query([]).expect("queries");
                let mut bytes = 0usize;
                while let Some(r) = rows.next().expect("a row") {
                    bytes += r
                        .get_ref(0)
                        .expect("payload")
                        .as_blob()
                        .expect("blob")
                        .len();
                }
                bytes
            })
        });
    }
    g.finish();
}

fn as_of(c: &mut Criterion) {
    let mut g = c.benchmark_group("as-of");
    g.sample_size(20);
    let n = 100_000;
    let path = ledger(n).expect("the bench ledger");
    let at = Store::open(&path).expect("opens").events().expect("reads")[n * 2 / 3]
        .id
        .to_string();
    let db = path.display().to_string();
    g.bench_function(BenchmarkId::new("show-at", n), |b| {
        b.iter(|| {
            let out = leechbook::run(["leechbook", "--db", &db, "show", "c5", "--at", &at]);
            assert_eq!(out.code, 0, "{}", out.stderr);
        })
    });
    g.finish();
}

fn append(c: &mut Criterion) {
    let mut g = c.benchmark_group("append");
    g.sample_size(10);
    let n = 10_000;
    let log = leechbook_core::synthetic::campaign(n);
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function(BenchmarkId::new("import", n), |b| {
        b.iter_batched(
            || tempfile::tempdir().expect("a temp dir"),
            |dir| {
                let mut store =
                    Store::create_joining(&dir.path().join("a.db"), leechbook_bench::campaign())
                        .expect("creates");
                store.import(&log).expect("imports");
            },
            criterion::BatchSize::PerIteration,
        )
    });
    g.finish();
}

criterion_group!(benches, replay, as_of, append);
criterion_main!(benches);
