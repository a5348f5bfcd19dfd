//! The rules' worked examples and their edges, each against the text.

use super::*;
use crate::dice::{RecordedDice, RecordedDie};
use uuid::Uuid;

fn ch() -> WgCharacter {
    WgCharacter::new(
        CharacterId(Uuid::from_u128(1)),
        "Vex".into(),
        WgSheet {
            tier: 1,
            toughness: 3,
            resilience: 6,
            max_shock: 4,
            rank: 1,
        },
    )
}

fn d(list: &[(&str, &[u16])]) -> Vec<RecordedDie> {
    list.iter()
        .map(|(n, f)| RecordedDie {
            name: n.to_string(),
            faces: f.to_vec(),
        })
        .collect()
}

fn hit(c: &mut WgCharacter, damage: i32, dice: &[(&str, &[u16])]) -> Result<Vec<WgStep>, WgError> {
    let dice = d(dice);
    let e = WgEvent::Damage {
        character: c.id,
        damage,
        mortal: false,
        dice: dice.clone(),
    };
    let mut copy = c.clone();
    let r = apply(&mut copy, &e, &mut RecordedDice(&dice), CampaignTime::START);
    if r.is_ok() {
        *c = copy;
    }
    r
}

/// Damage that owes Determination with no faces recorded for it is refused in the
/// kernel's words, naming the die (an amendment or a synced event can lack one).
#[test]
fn damage_without_its_determination_dice_is_refused_naming_the_die() {
    let mut c = ch();
    let e = hit(&mut c, 9, &[]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the event needs die 'determination' (d6), which was not recorded"
    );
    assert_eq!((c.wounds, c.shock), (0, 0), "nothing applied");
}

#[test]
fn resilience_shock_wounds_and_determination() {
    let mut c = ch();
    hit(&mut c, 5, &[]).unwrap();
    assert_eq!((c.wounds, c.shock), (0, 0));
    hit(&mut c, 6, &[]).unwrap();
    assert_eq!((c.wounds, c.shock), (0, 1), "equal to Resilience: 1 Shock");
    // 9 - 6 = 3 Wounds; Determination 3d6: 6 (2 icons), 2, 4 (1): all 3 become Shock.
    let steps = hit(&mut c, 9, &[("determination", &[6, 2, 4])]).unwrap();
    assert_eq!(
        steps,
        vec![
            WgStep::Damage {
                damage: 9,
                resilience: 6,
                wounds: 3,
                shock: false
            },
            WgStep::Determination {
                faces: vec![6, 2, 4],
                icons: 3,
                converted: 3
            },
        ]
    );
    assert_eq!((c.wounds, c.shock), (0, 4));
    assert!(!c.exhausted(), "4 is Max Shock: not over it");
    hit(&mut c, 6, &[]).unwrap();
    assert!(c.exhausted());
}

#[test]
fn reaching_max_wounds_is_not_dying_exceeding_it_is() {
    let mut c = ch(); // Max Wounds 1 x 2 + 3 = 5
    hit(&mut c, 11, &[("determination", &[1, 1, 1])]).unwrap();
    assert_eq!(c.wounds, 5);
    assert!(!c.dying && c.wounded());
    hit(
        &mut c,
        7,
        &[("determination", &[1, 2, 3]), ("memorable", &[3])],
    )
    .unwrap();
    assert!(c.dying);
    assert_eq!(c.memorable[0].name, "Focused Burn");
    // Wounds while Dying: a Traumatic Injury instead.
    hit(
        &mut c,
        8,
        &[
            ("determination", &[1, 1, 1]),
            ("traumatic", &[2]),
            ("side", &[5]),
        ],
    )
    .unwrap();
    assert_eq!(c.traumatic[0].part, "Arm");
    assert_eq!(c.traumatic[0].side.as_deref(), Some("right"));
    assert_eq!(c.wrath_dice(), 1);
    // Tier 1 + 1 = 2: a third Traumatic Injury kills.
    hit(
        &mut c,
        8,
        &[("determination", &[1, 1, 1]), ("traumatic", &[5])],
    )
    .unwrap();
    assert!(c.death.is_none());
    hit(
        &mut c,
        8,
        &[
            ("determination", &[1, 1, 1]),
            ("traumatic", &[6]),
            ("side", &[1]),
        ],
    )
    .unwrap();
    assert!(c.death.is_some());
}

#[test]
fn memorable_injuries_escalate_once() {
    let mut c = ch();
    let result = |step| match step {
        WgStep::Memorable { result, .. } => result,
        other => panic!("not a Memorable Injury roll: {other:?}"),
    };
    assert_eq!(
        result(memorable(&mut c, 1)),
        MemorableResult::New("Battle Scar".into())
    );
    assert_eq!(
        result(memorable(&mut c, 2)),
        MemorableResult::Escalates("Missing Fingers".into())
    );
    assert_eq!(result(memorable(&mut c, 1)), MemorableResult::Ignored);
    assert_eq!(c.memorable.len(), 1);
}

#[test]
fn annihilation_and_mortal_wounds_and_recovery() {
    let mut c = ch();
    let e = WgEvent::Damage {
        character: c.id,
        damage: 11,
        mortal: true,
        dice: vec![],
    };
    apply(&mut c, &e, &mut RecordedDice(&[]), CampaignTime::START).unwrap();
    assert_eq!(
        c.death.as_ref().map(|d| d.0.as_str()),
        Some("Annihilated"),
        "11 > 2 x 5"
    );
    let mut c = ch();
    hit(
        &mut c,
        12,
        &[("determination", &[1, 1, 1]), ("memorable", &[6])],
    )
    .unwrap(); // 6 Wounds: Dying
    assert!(c.dying);
    let r = apply(
        &mut c.clone(),
        &WgEvent::Respite { character: c.id },
        &mut RecordedDice(&[]),
        CampaignTime::START,
    );
    assert!(r.is_err(), "no Respite while Dying");
    let id = c.id;
    apply(
        &mut c,
        &WgEvent::Regroup {
            character: id,
            regained: 2,
        },
        &mut RecordedDice(&[]),
        CampaignTime::START,
    )
    .unwrap();
    assert!(!c.dying && c.wounds == 4);
    apply(
        &mut c,
        &WgEvent::Respite { character: id },
        &mut RecordedDice(&[]),
        CampaignTime::START,
    )
    .unwrap();
    assert_eq!((c.wounds, c.shock), (0, 0));
}

/// Events recorded before Wrath was counted and rests were timed apply as they were
/// recorded: a Regroup at the moment of the Wound, a Shock restored with no Wrath left.
#[test]
fn events_recorded_before_rests_were_timed_apply_as_recorded() {
    let mut c = ch();
    hit(&mut c, 8, &[("determination", &[1, 1, 1])]).unwrap(); // 2 Wounds
    let id = c.id;
    let now = CampaignTime::START;
    let legacy =
        |c: &mut WgCharacter, e: WgEvent| apply(c, &e, &mut RecordedDice(&[]), now).map(|_| ());
    legacy(
        &mut c,
        WgEvent::Regroup {
            character: id,
            regained: 1,
        },
    )
    .unwrap();
    assert_eq!(c.wounds, 1);
    for _ in 0..3 {
        legacy(&mut c, WgEvent::RestoreShock { character: id }).unwrap();
    }
    assert_eq!(c.wrath, 0, "spent down to none, never below");
    assert!(legacy(&mut c.clone(), WgEvent::SpendWrath { character: id }).is_err());
    assert!(legacy(
        &mut c.clone(),
        WgEvent::RestedRegroup {
            character: id,
            regained: 1
        }
    )
    .is_err());
    legacy(&mut c, WgEvent::Respite { character: id }).unwrap();
    assert_eq!((c.wounds, c.wrath), (0, WRATH_AT_RESPITE));
}
