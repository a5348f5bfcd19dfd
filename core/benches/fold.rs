//! The fold's cost on a synthetic campaign (`leechbook_core::synthetic`): strikes and
//! healing rolls for many characters. `cargo bench -p leechbook-core --bench fold` prints
//! events per second.

#![allow(missing_docs)] // criterion_group! generates an undocumented function

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use leechbook_core::synthetic::campaign as synthetic;
use leechbook_core::*;

fn fold(c: &mut Criterion) {
    let mut g = c.benchmark_group("fold");
    g.sample_size(10);
    for n in [10_000usize, 100_000] {
        let log = synthetic(n);
        g.throughput(Throughput::Elements(log.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(n), &log, |b, log| {
            b.iter(|| Ledger::fold(log))
        });
    }
    g.finish();
}

criterion_group!(benches, fold);
criterion_main!(benches);
