//! A seeded synthetic campaign, for benchmarks and load tests: 100 HârnMaster characters,
//! day by day, each with a one-in-twenty chance of a thorax strike (shock and compound dice
//! recorded) and otherwise a forced healing roll for its oldest injury. Deterministic: the
//! same `n` gives the same log, ids included, on every machine.

use crate::harnmaster::healing::{SeqRoll, SeqRollKind};
use crate::harnmaster::injury::*;
use crate::harnmaster::state::*;
use crate::harnmaster::HmEvent;
use crate::ids::*;
use crate::time::{CampaignTime, DAY};
use crate::*;
use chrono::{DateTime, Utc};
use uuid::Uuid;

/// A seeded synthetic log of about `n` events.
pub fn campaign(n: usize) -> Vec<Envelope> {
    let mut out = Vec::with_capacity(n);
    let mut clock = 0u64;
    let mut push = |out: &mut Vec<Envelope>, at: i64, event: Event| -> Uuid {
        clock += 1;
        let id = Uuid::from_u128(u128::from(clock) << 64 | 0xbeef);
        out.push(Envelope {
            id: EventId(id),
            campaign: CampaignId(Uuid::from_u128(1)),
            device: DeviceId(Uuid::from_u128(7)),
            seq: clock,
            clock,
            wall: DateTime::<Utc>::UNIX_EPOCH,
            at: CampaignTime(at),
            schema: SCHEMA_VERSION,
            event,
            signature: None,
        });
        id
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
        let id = push(
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
        ids.push((CharacterId(id), Vec::<InjuryId>::new()));
    }
    let mut x: u64 = 42;
    let mut rnd = |m: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % m
    };
    let mut day = 0i64;
    // The campaign so far, so that no roll is generated for an injury that has healed.
    let mut so_far = crate::fold::Ledger::fold(&out);
    while out.len() < n {
        day += 1;
        for (who, injuries) in ids.iter_mut() {
            if out.len() >= n {
                break;
            }
            injuries.retain(|i| {
                so_far
                    .character(*who)
                    .and_then(|c| c.hm())
                    .and_then(|c| c.injury(*i))
                    .is_some_and(|j| !j.healed())
            });
            if rnd(20) == 0 && injuries.len() < 6 {
                let id = push(
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
                injuries.push(InjuryId(id));
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
            } else {
                continue;
            }
            if let Some(e) = out.last() {
                let _ = so_far.apply(e);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_synthetic_campaign_is_deterministic_and_every_event_applies() {
        let log = campaign(5_000);
        assert_eq!(log.len(), 5_000);
        assert_eq!(log, campaign(5_000));
        let ledger = crate::fold::Ledger::fold(&log);
        assert!(
            ledger.void.is_empty(),
            "void: {:?}",
            &ledger.void[..3.min(ledger.void.len())]
        );
        assert_eq!(ledger.applied, 5_000);
        assert_eq!(ledger.characters.len(), 100);
    }
}
