//! The rules' worked examples and their edges, each against the text.

use super::*;
use uuid::Uuid;

fn ch(wild: bool) -> SwCharacter {
    SwCharacter::new(
        CharacterId(Uuid::from_u128(1)),
        "Hero".into(),
        SwSheet {
            toughness: 6,
            wild_card: wild,
            pace: 6,
        },
    )
}

fn dmg(faces: &[&[u16]]) -> SwEvent {
    SwEvent::Damage {
        character: CharacterId(Uuid::from_u128(1)),
        dice: faces
            .iter()
            .map(|f| Chain {
                sides: 6,
                faces: f.to_vec(),
            })
            .collect(),
        modifier: 0,
    }
}

fn tr(t: &[u16], w: &[u16]) -> TraitRoll {
    TraitRoll {
        trait_die: Chain {
            sides: 8,
            faces: t.to_vec(),
        },
        wild_die: Chain {
            sides: 6,
            faces: w.to_vec(),
        },
        modifier: 0,
    }
}

#[test]
fn damage_shakes_raises_wound_and_shaken_again_wounds() {
    let mut c = ch(true);
    apply(&mut c, &dmg(&[&[5]]), CampaignTime::START).unwrap(); // 5 < 6: nothing
    assert!(!c.shaken);
    apply(&mut c, &dmg(&[&[6, 1]]), CampaignTime::START).unwrap(); // 7: Shaken
    assert!(c.shaken && c.wounds == 0);
    apply(&mut c, &dmg(&[&[4], &[2]]), CampaignTime::START).unwrap(); // 6 while Shaken: a Wound
    assert_eq!(c.wounds, 1);
    apply(&mut c, &dmg(&[&[6, 6, 2]]), CampaignTime::START).unwrap(); // 14: two raises
    assert_eq!(c.wounds, 3);
    assert_eq!(c.wound_penalty(), -3);
    assert_eq!(c.pace(), 3);
}

#[test]
fn the_fourth_wound_incapacitates_a_wild_card_and_the_first_an_extra() {
    let mut c = ch(true);
    c.wounds = 3;
    c.shaken = true;
    let o = apply(&mut c, &dmg(&[&[5], &[1]]), CampaignTime::START).unwrap();
    assert!(c.incapacitated && c.vigor_owed, "{o:?}");
    // 6 against Toughness 6 while Shaken: Shaken again, one Wound, the fourth.
    assert_eq!(
        o,
        SwOutcome::Damage {
            total: 6,
            toughness: 6,
            raises: 0,
            wounds: 1,
            incapacitated: Some(4),
        }
    );
    assert_eq!(c.wound_penalty(), -3, "the penalty stays at -3");
    let mut e = ch(false);
    apply(&mut e, &dmg(&[&[6, 4]]), CampaignTime::START).unwrap(); // 10: one raise
    assert!(e.incapacitated);
}

#[test]
fn incapacitation_vigor_outcomes() {
    let now = CampaignTime(100);
    let id = CharacterId(Uuid::from_u128(1));
    let mut c = ch(true);
    c.wounds = 4;
    c.vigor_owed = true;
    // Trait 3, wild 2, -3 wounds: 0: failure: permanent and Bleeding Out. 2d6 = 7: guts, 4: battered.
    apply(
        &mut c,
        &SwEvent::Incapacitation {
            character: id,
            roll: tr(&[3], &[2]),
            injury: [3, 4],
            sub: 4,
        },
        now,
    )
    .unwrap();
    assert!(c.bleeding_out);
    assert_eq!(c.injuries[0].what, "Guts: Battered");
    assert_eq!(c.injuries[0].lasting, Lasting::Permanent);
    // A raise on the bleeding-out roll stabilises: trait 8+6 (aced) -3 = 11.
    apply(
        &mut c,
        &SwEvent::BleedingOut {
            character: id,
            roll: tr(&[8, 6], &[1]),
        },
        now,
    )
    .unwrap();
    assert!(!c.bleeding_out);
    // Snake eyes on the Vigor roll kills.
    let mut d = ch(true);
    d.vigor_owed = true;
    apply(
        &mut d,
        &SwEvent::Incapacitation {
            character: id,
            roll: tr(&[1], &[1]),
            injury: [1, 1],
            sub: 1,
        },
        now,
    )
    .unwrap();
    assert!(d.death.is_some());
    // A raise: the injury lasts a day, or until the wounds heal.
    let mut e = ch(true);
    e.wounds = 4;
    e.vigor_owed = true;
    apply(
        &mut e,
        &SwEvent::Incapacitation {
            character: id,
            roll: tr(&[8, 7], &[2]),
            injury: [6, 5],
            sub: 1,
        },
        now,
    )
    .unwrap();
    assert_eq!(e.injuries[0].what, "Leg");
    assert_eq!(e.active_injuries(now).count(), 1);
    assert_eq!(e.active_injuries(now.plus(24 * HOUR)).count(), 0);
}

#[test]
fn broken_ace_chains_are_refused() {
    assert!(
        Chain {
            sides: 6,
            faces: vec![6]
        }
        .total("d")
        .is_err(),
        "an ace needs its next face"
    );
    assert!(
        Chain {
            sides: 6,
            faces: vec![3, 2]
        }
        .total("d")
        .is_err(),
        "only aces roll again"
    );
    assert!(Chain {
        sides: 6,
        faces: vec![7]
    }
    .total("d")
    .is_err());
    assert_eq!(
        Chain {
            sides: 6,
            faces: vec![6, 6, 1]
        }
        .total("d"),
        Ok(13)
    );
}

/// 004 l.34-46: the arm (3-4, its side), the guts (5-9) and the head (12) roll the sub-table's
/// d6; Unmentionables (2) and a leg (10-11) roll none.
#[test]
fn the_injury_table_rows_that_roll_a_sub_die() {
    for (total, rolls) in [
        (2, false),
        (3, true),
        (4, true),
        (5, true),
        (9, true),
        (10, false),
        (11, false),
        (12, true),
    ] {
        assert_eq!(injury_rolls_sub(total), rolls, "{total}");
    }
}
