//! Property tests of the Healing Sequence: random wounds, treatments, healing rolls and
//! course rolls at random times. Whatever the dice, an injury level never goes below 0 and
//! healing never raises it; a healed injury is never rolled for; while an infection lasts, no
//! injury heals.

use crate::common;
use common::*;
use leechbook_core::harnmaster::healing::*;
use leechbook_core::harnmaster::state::*;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::time::{CampaignTime, DAY, HOUR, MINUTE};
use leechbook_core::*;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Step {
    Wound {
        location: usize,
        aspect: usize,
        effective: i32,
        shock: u16,
    },
    Treat {
        injury: usize,
        roll: u16,
        index: i32,
    },
    Staunch {
        injury: usize,
        roll: u16,
    },
    Roll {
        kind: usize,
        injury: usize,
        roll: u16,
    },
    Wait {
        minutes: i64,
    },
}

const LOCATIONS: [(&str, Option<Side>); 5] = [
    ("abdomen", None),
    ("shoulder", Some(Side::Right)),
    ("thigh", Some(Side::Left)),
    ("thorax", None),
    ("forearm", Some(Side::Left)),
];
const ASPECTS: [Aspect; 4] = [Aspect::Edge, Aspect::Blunt, Aspect::Point, Aspect::Fire];
const KINDS: [SeqRollKind; 6] = [
    SeqRollKind::Healing,
    SeqRollKind::BloodLoss,
    SeqRollKind::Infection,
    SeqRollKind::ExtendedShock,
    SeqRollKind::BloodRegeneration,
    SeqRollKind::GrimShock,
];

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        1 => (0..5usize, 0..4usize, 1..22i32, 1..=100u16).prop_map(|(location, aspect, effective, shock)| Step::Wound { location, aspect, effective, shock }),
        2 => (0..4usize, 1..=100u16, 1..8i32).prop_map(|(injury, roll, index)| Step::Treat { injury, roll, index }),
        1 => (0..4usize, 1..=100u16).prop_map(|(injury, roll)| Step::Staunch { injury, roll }),
        6 => (0..6usize, 0..4usize, 1..=100u16).prop_map(|(kind, injury, roll)| Step::Roll { kind, injury, roll }),
        3 => prop_oneof![Just(5i64), Just(4 * 60), Just(24 * 60), Just(5 * 24 * 60), Just(5 * 24 * 60)].prop_map(|minutes| Step::Wait { minutes }),
    ]
}

/// After every event no injury the rules can never read again is left unfiled: the fold looks
/// only at what each event changed (`Filing`, in `harnmaster/system.rs`) on that promise.
fn nothing_left_to_file(c: &HmCharacter) -> bool {
    let mut filed = c.clone();
    filed.file_healed((0, leechbook_core::ids::DeviceId(uuid::Uuid::nil()), 0));
    filed.injuries.len() == c.injuries.len()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn healing_invariants(steps in prop::collection::vec(step(), 1..60)) {
        let mut w = World::new();
        let t = w.add("Patient", 70);
        for s in steps {
            prop_assert!(nothing_left_to_file(w.hm(t)), "an injury was left to file: {:?}", w.hm(t).injuries);
            let before = w.hm(t).clone();
            let pick = |n: usize| before.injuries.get(n % before.injuries.len().max(1)).map(|i| i.id);
            let event = match s {
                Step::Wound { location, aspect, effective, shock } => {
                    let (loc, side) = LOCATIONS[location];
                    let _ = w.strike(chosen(t, ASPECTS[aspect], loc, side, effective, &[("shock", &[shock]), ("compound", &[5]), ("amputation", &[50])]));
                    continue;
                }
                Step::Treat { injury, roll, index } => match pick(injury) {
                    Some(id) => HmEvent::Treatment(Treatment { character: t, injury: id, healer: format!("h{index}"), physician_ml: 60, physician_index: index, dex_mod: 0, broadhead: false, amputate: false, roll, forced: false }),
                    None => continue,
                },
                Step::Staunch { injury, roll } => match pick(injury) {
                    Some(id) => HmEvent::BloodStoppage(BloodStoppage { character: t, injury: id, method: Stoppage::Staunch, tourniquet: false, healer: "h".into(), physician_ml: 60, other_bleeders: 0, roll, forced: false }),
                    None => continue,
                },
                Step::Roll { kind, injury, roll } => HmEvent::SeqRoll(SeqRoll { character: t, kind: KINDS[kind], injury: pick(injury), roll, period: None, sheltered: true, forced: false }),
                Step::Wait { minutes } => {
                    let to = w.ledger.now.plus(minutes * MINUTE);
                    w.at = to;
                    w.apply(Event::ClockAdvanced { to }).unwrap();
                    continue;
                }
            };
            let healing = matches!(&event, HmEvent::SeqRoll(r) if r.kind == SeqRollKind::Healing);
            let target = match &event { HmEvent::SeqRoll(r) => r.injury, _ => None };
            let applied = w.apply(Event::HarnMaster(event)).is_ok();
            let after = w.hm(t);
            if applied && healing {
                let id = target.unwrap();
                let b = before.injury(id).unwrap();
                let a = after.injury(id).unwrap();
                prop_assert!(!b.healed(), "a healed injury was rolled for: {:?}", b);
                prop_assert!(before.infection.is_none(), "an injury healed during an infection");
                prop_assert!(a.level <= b.level, "healing raised a level");
            }
            if !applied {
                // A refused event changes nothing.
                prop_assert_eq!(&before, after);
            }
            for i in &after.injuries {
                prop_assert!(i.level <= 5);
                prop_assert!(!i.healed() || i.heal.healed_at.is_some() || i.heal.treatment.is_some());
            }
            if after.infection.is_some() {
                prop_assert!(after.injuries.iter().filter(|i| i.heal.infected).count() <= 1);
            }
        }
        prop_assert!(nothing_left_to_file(w.hm(t)), "an injury was left to file: {:?}", w.hm(t).injuries);
        let _ = (DAY, HOUR, CampaignTime::START);
    }
}
