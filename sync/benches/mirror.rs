//! The automerge mirror's cost on the synthetic campaign (`leechbook_core::synthetic`):
//! building the document from a log and saving it (an export), and loading a saved document
//! and decoding its events (an import). `cargo bench -p leechbook-sync --bench mirror`; the
//! document's bytes per event are printed once per size.

#![allow(missing_docs)] // criterion_group! generates an undocumented function

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use leechbook_core::synthetic::campaign;
use leechbook_sync::{Keyring, Mirror};

fn mirror(c: &mut Criterion) {
    let mut g = c.benchmark_group("mirror");
    let ring = Keyring::generate(leechbook_core::synthetic::campaign(1)[0].campaign);
    g.sample_size(10);
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
            "mirror/{n}: document {} bytes, {:.1} bytes per event (encoded envelopes alone: {:.1})",
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
                let mut m = Mirror::new(ring.clone());
                m.merge_bytes(saved).expect("loads");
                m.envelopes().expect("decodes")
            })
        });
    }
    // An import of a small delta as `import_changes` does it: load the kept document, merge
    // 100 new events, decode only the entries the merge brought.
    for n in [1_000usize, 10_000] {
        let log = campaign(n + 100);
        let mut m = Mirror::new(ring.clone());
        m.add(&log[..n]).expect("mirrors");
        let base = m.save();
        let heads = m.heads();
        m.add(&log[n..]).expect("mirrors");
        let delta = m.changes_since(&heads);
        eprintln!("delta/{n}: 100 events in {} bytes", delta.len());
        g.throughput(Throughput::Elements(100));
        g.bench_with_input(
            BenchmarkId::new("import-100-into", n),
            &(base, delta),
            |b, (base, delta)| {
                b.iter(|| {
                    let mut m = Mirror::load(base, ring.clone()).expect("loads");
                    let before = m.heads();
                    m.merge_bytes(delta).expect("merges");
                    let after = m.heads();
                    m.entries_between(&before, &after)
                })
            },
        );
    }
    g.finish();
}

criterion_group!(benches, mirror);
criterion_main!(benches);
