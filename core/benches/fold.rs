//! The fold's cost on a synthetic campaign: strikes, treatments and healing rolls for many
//! characters. `cargo bench -p leechbook-core --bench fold` prints events per second.

#![allow(missing_docs)] // criterion_group! generates an undocumented function

use chrono::{TimeZone, Utc};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use leechbook_core::harnmaster::healing::{SeqRoll, SeqRollKind};
use leechbook_core::harnmaster::injury::*;
use leechbook_core::harnmaster::state::*;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ids::*;
use leechbook_core::time::{CampaignTime, DAY};
use leechbook_core::*;
use uuid::Uuid;

/// A seeded synthetic log of about `n` events.
pub fn synthetic(n: usize) -> Vec<Envelope> {
    let mut out = Vec::with_capacity(n);
    let mut clock = 0u64;
    let mut push = |out: &mut Vec<Envelope>, at: i64, event: Event| {
        clock += 1;
        out.push(Envelope {
            id: EventId(Uuid::from_u128(u128::from(clock) << 64 | 0xbeef)),
            campaign: CampaignId(Uuid::from_u128(1)),
            device: DeviceId(Uuid::from_u128(7)),
            seq: clock,
            clock,
            wall: Utc.timestamp_opt(0, 0).unwrap(),
            at: CampaignTime(at),
            schema: SCHEMA_VERSION,
            event,
            signature: None,
        });
    };
    push(
        &mut out,
        0,
        Event::CampaignCreated {
            name: "bench".into(),
            system: SystemId::HarnMaster,
            round_seconds: 10,
        },
    );
    let chars = 100u64;
    let mut ids = Vec::new();
    for c in 0..chars {
        push(
            &mut out,
            0,
            Event::CharacterAdded {
                name: format!("c{c}"),
                sheet: SheetKind::HarnMaster(Sheet {
                    strength: 12,
                    endurance: 12,
                    shock_ml: 95,
                    healing_base: 13,
                    strength_ml: 60,
                    body: "human".into(),
                    beast: false,
                    fatigue: 0,
                }),
            },
        );
        ids.push((
            CharacterId(out.last().unwrap().id.0),
            Vec::<InjuryId>::new(),
        ));
    }
    let mut x: u64 = 42;
    let mut rnd = |m: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % m
    };
    let mut day = 0i64;
    while out.len() < n {
        day += 1;
        for (who, injuries) in ids.iter_mut() {
            if out.len() >= n {
                break;
            }
            if rnd(20) == 0 && injuries.len() < 6 {
                push(
                    &mut out,
                    day * DAY,
                    Event::HarnMaster(HmEvent::Strike(Strike {
                        target: *who,
                        aspect: Aspect::Blunt,
                        targeting: Targeting::Chosen {
                            location: "thorax".into(),
                            side: None,
                        },
                        impact: ImpactInput::Effective(3 + rnd(8) as i32),
                        av: 0,
                        rigid: false,
                        projectile: false,
                        face_option: false,
                        dice: vec![
                            RecordedDie {
                                name: "shock".into(),
                                faces: vec![1 + rnd(50) as u16],
                            },
                            RecordedDie {
                                name: "compound".into(),
                                faces: vec![10],
                            },
                        ],
                    })),
                );
                injuries.push(InjuryId(out.last().unwrap().id.0));
            } else if let Some(inj) = injuries.first().copied() {
                push(
                    &mut out,
                    day * DAY,
                    Event::HarnMaster(HmEvent::SeqRoll(SeqRoll {
                        character: *who,
                        kind: SeqRollKind::Healing,
                        injury: Some(inj),
                        roll: 1 + rnd(100) as u16,
                        period: None,
                        sheltered: true,
                        forced: true,
                    })),
                );
                if rnd(3) == 0 {
                    injuries.remove(0);
                }
            }
        }
    }
    out
}

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
