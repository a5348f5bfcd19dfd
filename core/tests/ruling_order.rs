//! Concurrent rulings: two devices rule on the same event without seeing each other. The
//! record depends only on the total order `(clock, device, seq)` (the documented rule: the
//! latest ruling in force decides), never on the order the events were recorded or merged in.

use chrono::{TimeZone, Utc};
use leechbook_core::harnmaster::injury::*;
use leechbook_core::harnmaster::state::*;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ids::*;
use leechbook_core::ruling::Ruling;
use leechbook_core::time::CampaignTime;
use leechbook_core::*;
use proptest::prelude::*;
use uuid::Uuid;

fn env(n: u128, device: u128, clock: u64, event: Event) -> Envelope {
    Envelope {
        id: EventId(Uuid::from_u128(n)),
        campaign: CampaignId(Uuid::from_u128(1)),
        device: DeviceId(Uuid::from_u128(device)),
        seq: n as u64,
        clock,
        wall: Utc.timestamp_opt(0, 0).unwrap(),
        at: CampaignTime::START,
        schema: SCHEMA_VERSION,
        event,
        signature: None,
    }
}

fn base() -> Vec<Envelope> {
    let who = CharacterId(Uuid::from_u128(2));
    vec![
        env(
            1,
            9,
            1,
            Event::CampaignCreated {
                name: "c".into(),
                system: SystemId::HarnMaster,
                round_seconds: 10,
            },
        ),
        env(
            2,
            9,
            2,
            Event::CharacterAdded {
                name: "Osric".into(),
                sheet: SheetKind::HarnMaster(Sheet {
                    strength: 12,
                    endurance: 12,
                    shock_ml: 90,
                    healing_base: 13,
                    strength_ml: 60,
                    body: "human".into(),
                    beast: false,
                    fatigue: 0,
                }),
            },
        ),
        env(
            3,
            9,
            3,
            Event::HarnMaster(HmEvent::Strike(Strike {
                target: who,
                aspect: Aspect::Edge,
                targeting: Targeting::Chosen {
                    location: "abdomen".into(),
                    side: None,
                },
                impact: ImpactInput::Effective(8),
                av: 0,
                rigid: false,
                projectile: false,
                face_option: false,
                dice: vec![RecordedDie {
                    name: "shock".into(),
                    faces: vec![12],
                }],
            })),
        ),
    ]
}

fn injuries(l: &Ledger) -> usize {
    l.characters[0].hm().map_or(0, |h| h.injuries.len())
}

fn retract(n: u128, device: u128, clock: u64, target: u128) -> Envelope {
    env(
        n,
        device,
        clock,
        Event::Ruling(Ruling::Retract {
            target: EventId(Uuid::from_u128(target)),
            reason: "r".into(),
        }),
    )
}

fn reinstate(n: u128, device: u128, clock: u64, target: u128) -> Envelope {
    env(
        n,
        device,
        clock,
        Event::Ruling(Ruling::Reinstate {
            target: EventId(Uuid::from_u128(target)),
            reason: "r".into(),
        }),
    )
}

fn sorted(mut v: Vec<Envelope>) -> Vec<Envelope> {
    v.sort_by_key(|e| e.order_key());
    v
}

#[test]
fn concurrent_retract_and_reinstate_the_later_in_the_total_order_decides() {
    // Same clock on two devices: device 20 sorts after device 10.
    let mut a = base();
    a.push(retract(10, 10, 4, 3));
    a.push(reinstate(11, 20, 4, 3));
    // Retract was never in force against a reinstate that follows it: the strike stands.
    assert_eq!(injuries(&Ledger::fold(&sorted(a))), 1);
    let mut b = base();
    b.push(reinstate(11, 10, 4, 3));
    b.push(retract(10, 20, 4, 3));
    assert_eq!(injuries(&Ledger::fold(&sorted(b))), 0);
}

#[test]
fn a_retracted_ruling_has_no_force() {
    let mut a = base();
    a.push(retract(10, 10, 4, 3));
    a.push(retract(11, 10, 5, 10));
    assert_eq!(
        injuries(&Ledger::fold(&a)),
        1,
        "retracting the retraction restores the strike"
    );
    a.push(reinstate(12, 10, 6, 10));
    assert_eq!(
        injuries(&Ledger::fold(&a)),
        0,
        "reinstating the retraction strikes it again"
    );
}

#[test]
fn rulings_on_unknown_or_later_events_are_void() {
    let mut a = base();
    a.push(retract(10, 10, 4, 999));
    let l = Ledger::fold(&a);
    assert_eq!(injuries(&l), 1);
    assert!(l.void.iter().any(|v| v.reason.contains("does not hold")));
}

proptest! {
    #[test]
    fn merge_order_does_not_matter(
        rulings in prop::collection::vec((any::<bool>(), 10u128..14, 4u64..8, prop::sample::select(vec![3u128, 10, 11, 12, 13])), 1..8),
        shuffle in any::<u64>(),
    ) {
        let mut events = base();
        for (i, (is_retract, device, clock, target)) in rulings.iter().enumerate() {
            let n = 10 + i as u128;
            events.push(if *is_retract { retract(n, *device, *clock, *target) } else { reinstate(n, *device, *clock, *target) });
        }
        let canonical = Ledger::fold(&sorted(events.clone()));
        // Any merge order, once sorted by the total order, derives the same record.
        let mut shuffled = events;
        let len = shuffled.len();
        let mut x = shuffle;
        for i in (1..len).rev() {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            shuffled.swap(i, (x >> 33) as usize % (i + 1));
        }
        prop_assert_eq!(Ledger::fold(&sorted(shuffled)), canonical);
    }
}
