//! The Injury Sequence's worked examples (rules/000 lines 442-680), each through the fold.

use crate::common;
use common::*;
use leechbook_core::dice::{DiceExpr, Die};
use leechbook_core::harnmaster::effect::impairment;
use leechbook_core::harnmaster::injury::*;
use leechbook_core::harnmaster::shock::{GmRoll, GmRollKind, ShockRoll};
use leechbook_core::harnmaster::state::*;
use leechbook_core::harnmaster::system::HmApplied;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ids::*;
use leechbook_core::test_roll::SuccessLevel;
use leechbook_core::time::CampaignTime;
use leechbook_core::*;

/// The broadsword strike of examples 1 (location), 2 (impact), 3 (injury) and 4 (shock).
fn broadsword(target: CharacterId, d: &[(&str, &[u16])]) -> Strike {
    Strike {
        target,
        aspect: Aspect::Edge,
        targeting: Targeting::Rolled {
            zone_die: Die::D6,
            aim: 4,
            precision: 0,
            pick_zone: None,
            pick_location: None,
            side: SideRule::LocationDie,
        },
        impact: ImpactInput::Rolled {
            roll: "d10+3".parse::<DiceExpr>().unwrap(),
            strength_mod: 1,
            impact_ta: 0,
        },
        av: 4,
        rigid: false,
        projectile: false,
        face_option: false,
        dice: dice(d),
    }
}

#[test]
fn example_1_location_and_2_impact_and_3_injury() {
    let mut w = World::new();
    let t = w.add("Target", 65);
    // "The target already has an M1B thorax injury": no compound roll for the abdomen.
    w.strike(chosen(
        t,
        Aspect::Blunt,
        "thorax",
        None,
        3,
        &[("shock", &[20])],
    ))
    .unwrap();
    let out = w
        .strike(broadsword(
            t,
            &[
                ("zone", &[2]),
                ("location", &[7]),
                ("impact", &[8]),
                ("shock", &[20]),
            ],
        ))
        .unwrap();
    let place = out.place.unwrap();
    assert_eq!(
        (place.zone.as_str(), place.location.as_str()),
        ("torso", "abdomen")
    );
    match out.location {
        LocationStep::Rolled { zn, .. } => assert_eq!(zn, 5),
        other => panic!("{other:?}"),
    }
    let imp = out.impact.unwrap();
    assert_eq!((imp.strike, imp.effective), (Some(12), 8));
    let inj = out.injury.unwrap();
    assert_eq!(inj.code(), "S2E");
    assert!(out.compound.is_none(), "thorax and abdomen do not compound");
    assert_eq!(w.hm(t).injuries.len(), 2);
}

#[test]
fn example_4_shock_and_its_reroll_and_5_injury_effect() {
    let mut w = World::new();
    let t = w.add("Target", 65);
    let out = w
        .strike(broadsword(
            t,
            &[
                ("zone", &[2]),
                ("location", &[7]),
                ("impact", &[8]),
                ("shock", &[75]),
            ],
        ))
        .unwrap();
    let shock = out.shock.unwrap();
    assert_eq!(shock.test.level, SuccessLevel::CF);
    assert_eq!(
        (
            shock.location_shock,
            shock.injury_shock,
            shock.modifier,
            shock.index
        ),
        (4, 2, 2, 8)
    );
    assert_eq!(w.hm(t).shock, ShockState::Incapacitated);

    // Shock Reroll at EML45: 42 is S, so STN.
    let r = w
        .apply(Event::HarnMaster(HmEvent::ShockReroll(ShockRoll {
            character: t,
            roll: 42,
        })))
        .unwrap();
    match r.into_hm() {
        Some(HmApplied::ShockRoll { outcome, .. }) => {
            assert_eq!(outcome.test.eml, 45);
            assert_eq!(outcome.test.level, SuccessLevel::S);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(w.hm(t).shock, ShockState::Stunned);
    // The Morale roll waits for the stun to end.
    let early = GmRoll {
        character: t,
        kind: GmRollKind::Morale,
        injury: None,
        ml: Some(60),
        roll: Some(29),
        outcome: None,
    };
    assert!(w
        .apply(Event::HarnMaster(HmEvent::GmRoll(early.clone())))
        .is_err());
    // 61 against Shock ML65: no longer stunned.
    w.apply(Event::HarnMaster(HmEvent::StunRecovery(ShockRoll {
        character: t,
        roll: 61,
    })))
    .unwrap();
    assert_eq!(w.hm(t).shock, ShockState::None);

    // Example 5: 10 impairment to the torso, and the Morale roll (Initiative ML60, 29 = S).
    let table = leechbook_core::harnmaster::body::human();
    let zones = impairment(w.hm(t), &table, w.ledger.treatment_table(), w.ledger.now);
    let torso = zones.iter().find(|z| z.zone == "torso").unwrap();
    assert_eq!((torso.impairment, torso.unusable), (10, false));
    assert!(zones
        .iter()
        .filter(|z| z.zone != "torso")
        .all(|z| z.impairment == 0));
    match w
        .apply(Event::HarnMaster(HmEvent::GmRoll(early)))
        .unwrap()
        .into_hm()
    {
        Some(HmApplied::GmRoll { outcome, .. }) => {
            assert_eq!(outcome.test.unwrap().level, SuccessLevel::S)
        }
        other => panic!("{other:?}"),
    }
    assert!(w.hm(t).owed.is_empty());
}

#[test]
fn compound_example_g4_blunt_on_m1_edge_shoulder_becomes_g5() {
    let mut w = World::new();
    let t = w.add("Target", 65);
    let side = Some(Side::Right);
    w.strike(chosen(
        t,
        Aspect::Edge,
        "shoulder",
        side,
        2,
        &[("shock", &[10])],
    ))
    .unwrap();
    let out = w
        .strike(chosen(
            t,
            Aspect::Blunt,
            "shoulder",
            side,
            16,
            &[("compound", &[4]), ("shock", &[10])],
        ))
        .unwrap();
    let c = out.compound.unwrap();
    assert_eq!((c.tn, c.roll, c.from, c.to), (5, 4, 4, 5));
    let codes: Vec<String> = w.hm(t).injuries.iter().map(|i| i.code()).collect();
    assert_eq!(codes, ["M1E", "G5B"]);
    // Step 4.2: the compounded IL (5) is the Injury Shock.
    assert_eq!(out.shock.unwrap().injury_shock, 5);
}

#[test]
fn compound_roll_over_the_tn_changes_nothing() {
    let mut w = World::new();
    let t = w.add("Target", 65);
    w.strike(chosen(
        t,
        Aspect::Edge,
        "shoulder",
        Some(Side::Left),
        2,
        &[("shock", &[10])],
    ))
    .unwrap();
    let out = w
        .strike(chosen(
            t,
            Aspect::Blunt,
            "shoulder",
            Some(Side::Left),
            16,
            &[("compound", &[6]), ("shock", &[10])],
        ))
        .unwrap();
    assert_eq!(out.compound.unwrap().raised, None);
    let codes: Vec<String> = w.hm(t).injuries.iter().map(|i| i.code()).collect();
    assert_eq!(codes, ["M1E", "G4B"]);
}

#[test]
fn other_side_and_fire_do_not_compound() {
    let mut w = World::new();
    let t = w.add("Target", 95);
    w.strike(chosen(
        t,
        Aspect::Edge,
        "shoulder",
        Some(Side::Left),
        6,
        &[("shock", &[10])],
    ))
    .unwrap();
    // The right shoulder is another location; a fire injury compounds only with fire/frost.
    let a = w
        .strike(chosen(
            t,
            Aspect::Edge,
            "shoulder",
            Some(Side::Right),
            6,
            &[("shock", &[10])],
        ))
        .unwrap();
    assert!(a.compound.is_none());
    let b = w
        .strike(chosen(
            t,
            Aspect::Fire,
            "shoulder",
            Some(Side::Left),
            6,
            &[("shock", &[10])],
        ))
        .unwrap();
    assert!(b.compound.is_none());
    let c = w
        .strike(chosen(
            t,
            Aspect::Frost,
            "shoulder",
            Some(Side::Left),
            2,
            &[("compound", &[9]), ("shock", &[10])],
        ))
        .unwrap();
    assert_eq!(
        c.compound.unwrap().tn,
        3,
        "frost compounds with fire: S2 + M1"
    );
}

#[test]
fn compound_tie_raises_the_most_recent_and_g5_gives_injury_shock_6() {
    let mut w = World::new();
    let t = w.add("Target", 95);
    w.strike(chosen(
        t,
        Aspect::Blunt,
        "thorax",
        None,
        6,
        &[("shock", &[10])],
    ))
    .unwrap();
    // S2 new on S2 old: tie, the new one rises to S3.
    let out = w
        .strike(chosen(
            t,
            Aspect::Blunt,
            "thorax",
            None,
            6,
            &[("compound", &[1]), ("shock", &[10])],
        ))
        .unwrap();
    assert_eq!(
        out.compound.unwrap().raised,
        out.injury.as_ref().map(|i| i.id)
    );
    let levels: Vec<u8> = w.hm(t).injuries.iter().map(|i| i.level).collect();
    assert_eq!(levels, [2, 3]);
    // A G5 that compounds stays G5 and contributes Injury Shock 6.
    let mut w = World::new();
    let t = w.add("Target", 95);
    w.strike(chosen(
        t,
        Aspect::Blunt,
        "thorax",
        None,
        2,
        &[("shock", &[10])],
    ))
    .unwrap();
    let out = w
        .strike(chosen(
            t,
            Aspect::Blunt,
            "thorax",
            None,
            22,
            &[("compound", &[2]), ("shock", &[10])],
        ))
        .unwrap();
    let c = out.compound.unwrap();
    assert!(c.g5);
    assert_eq!(out.injury.unwrap().level, 5);
    assert_eq!(out.shock.unwrap().injury_shock, 6);
}

#[test]
fn bleeding_example_g4_blunt_shoulder_is_not_a_bleeder_but_edge_is() {
    let mut w = World::new();
    let t = w.add("Target", 95);
    let b = w
        .strike(chosen(
            t,
            Aspect::Blunt,
            "shoulder",
            Some(Side::Right),
            15,
            &[("shock", &[10])],
        ))
        .unwrap();
    assert!(!b.injury.unwrap().bleeder);
    let e = w
        .strike(chosen(
            t,
            Aspect::Edge,
            "shoulder",
            Some(Side::Left),
            15,
            &[("shock", &[10])],
        ))
        .unwrap();
    assert!(
        e.injury.unwrap().bleeder,
        "the step 1 healing example: G4E shoulder bleeds"
    );
}

#[test]
fn bleeding_table_by_shade_severity_and_aspect() {
    use leechbook_core::harnmaster::body::Circle::*;
    use Aspect::*;
    assert!(!bleeds(Some(White), 4, Edge));
    assert!(bleeds(Some(White), 5, Blunt));
    assert!(!bleeds(Some(Grey), 3, Edge));
    assert!(bleeds(Some(Grey), 4, Point));
    assert!(!bleeds(Some(Grey), 4, Blunt));
    assert!(bleeds(Some(Black), 3, Edge));
    assert!(!bleeds(Some(Black), 3, Point));
    assert!(!bleeds(Some(Black), 2, Edge));
    assert!(!bleeds(None, 5, Edge));
    assert!(!bleeds(Some(Black), 5, Fire));
}

#[test]
fn glancing_blow_against_rigid_armour_leaves_no_injury_but_shock_1_and_plus_10() {
    let mut w = World::new();
    let t = w.add("Target", 50);
    let mut s = chosen(t, Aspect::Point, "thorax", None, 3, &[("shock", &[55])]);
    s.rigid = true;
    let out = w.strike(s).unwrap();
    assert!(out.glancing);
    assert!(out.injury.is_none());
    let shock = out.shock.unwrap();
    assert_eq!(shock.injury_shock, 1);
    assert_eq!(shock.test.eml, 60, "Shock ML50 +10 for the glancing blow");
    assert_eq!(shock.test.level, SuccessLevel::CS);
    assert!(w.hm(t).injuries.is_empty());
    // Blunt is never glancing.
    let mut s = chosen(t, Aspect::Blunt, "thorax", None, 3, &[("shock", &[55])]);
    s.rigid = true;
    assert!(!w.strike(s).unwrap().glancing);
}

#[test]
fn injury_table_boundaries() {
    let expect = [
        (0, 0),
        (1, 1),
        (4, 1),
        (5, 2),
        (9, 2),
        (10, 3),
        (14, 3),
        (15, 4),
        (19, 4),
        (20, 5),
        (40, 5),
    ];
    for (impact, level) in expect {
        assert_eq!(injury_level(impact), level, "impact {impact}");
    }
}

#[test]
fn shock_state_table_and_escalation() {
    use ShockState::*;
    assert_eq!(ShockState::of_index(6), None);
    assert_eq!(ShockState::of_index(7), Stunned);
    assert_eq!(ShockState::of_index(8), Incapacitated);
    assert_eq!(ShockState::of_index(9), Unconscious);
    assert_eq!(ShockState::of_index(10), Killed);
    assert_eq!(Stunned.escalate(Stunned), Incapacitated);
    assert_eq!(Incapacitated.escalate(Incapacitated), Unconscious);
    assert_eq!(Incapacitated.escalate(Stunned), Incapacitated);
    assert_eq!(Stunned.escalate(Unconscious), Unconscious);
    assert_eq!(None.escalate(Stunned), Stunned);
}

#[test]
fn zone_die_miss_records_no_injury() {
    let mut w = World::new();
    let t = w.add("Target", 50);
    let mut s = broadsword(t, &[("zone", &[4])]);
    s.targeting = Targeting::Rolled {
        zone_die: "d4".parse().unwrap(),
        aim: 8,
        precision: 0,
        pick_zone: None,
        pick_location: None,
        side: SideRule::LocationDie,
    };
    let out = w.strike(s).unwrap();
    assert!(matches!(out.location, LocationStep::Miss { zn: 11, .. }));
    assert!(w.hm(t).injuries.is_empty());
}

mod effects;
