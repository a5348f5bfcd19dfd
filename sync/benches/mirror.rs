//! The sync documents' cost on the synthetic campaign (`leechbook_core::synthetic`): building
//! the volumes and index from a log and saving them as a sync file (an export), and loading a
//! sync file and opening its events (an import). `cargo bench -p leechbook-sync --bench
//! mirror`; the file's bytes per event are printed once per size.

#![allow(missing_docs)] // criterion_group! generates an undocumented function

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use leechbook_core::synthetic::campaign;
use leechbook_sync::{Keyring, Mirror};

fn mirror(c: &mut Criterion) {
    let mut g = c.benchmark_group("mirror");
    g.sample_size(10);
    let ring = Keyring::generate(campaign(1)[0].campaign);
    for n in [1_000usize, 10_000] {
        let log = campaign(n);
        let mut m = Mirror::new(ring.clone());
        m.add(&log).expect("the synthetic log mirrors");
        let saved = m.save();
        let raw: usize = log
            .iter()
            .map(|e| leechbook_store::codec::encode_envelope(e).len())
            .sum();
        eprintln!(
            "mirror/{n}: sync file {} bytes, {:.1} bytes per event (encoded envelopes alone: {:.1})",
            saved.len(),
            saved.len() as f64 / n as f64,
            raw as f64 / n as f64
        );
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("export", n), &log, |b, log| {
            b.iter(|| {
                let mut m = Mirror::new(ring.clone());
                m.add(log).expect("mirrors");
                m.save()
            })
        });
        g.bench_with_input(BenchmarkId::new("import", n), &saved, |b, saved| {
            b.iter(|| {
                let m = Mirror::load(saved, ring.clone()).expect("loads");
                m.envelopes().expect("opens")
            })
        });
    }
    g.finish();
}

criterion_group!(benches, mirror);
criterion_main!(benches);
