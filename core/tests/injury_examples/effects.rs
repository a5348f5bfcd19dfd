//! The Injury Sequence's effects: amputation, the unconscious reroll, mishaps, impairment,
//! impaling projectiles, beasts.

use super::*;

#[test]
fn amputation_cf_severs_and_bleeds_even_in_a_hand() {
    let mut w = World::new();
    let t = w.add("Target", 95);
    // Hand: black triangle (-20): Strength ML60-20 = 40; 100 is CF.
    let out = w
        .strike(chosen(
            t,
            Aspect::Edge,
            "hand",
            Some(Side::Left),
            21,
            &[("amputation", &[100]), ("shock", &[10])],
        ))
        .unwrap();
    let a = out.amputation.unwrap();
    assert_eq!((a.test.eml, a.test.level), (40, SuccessLevel::CF));
    assert!(a.severed && a.bleeder);
    let inj = &w.hm(t).injuries[0];
    assert!(inj.severed && inj.bleeder);
    // F in the hand severs without a bleeder (the hand has no circle).
    let mut w = World::new();
    let t = w.add("Target", 95);
    let out = w
        .strike(chosen(
            t,
            Aspect::Edge,
            "hand",
            Some(Side::Left),
            21,
            &[("amputation", &[41]), ("shock", &[10])],
        ))
        .unwrap();
    let a = out.amputation.unwrap();
    assert_eq!(a.test.level, SuccessLevel::F);
    assert!(a.severed && !a.bleeder);
}

#[test]
fn amputation_s_gives_minus_20_to_the_shock_roll_and_a_severed_neck_kills() {
    let mut w = World::new();
    let t = w.add("Target", 70);
    // Thigh: white triangle (+20), ML80; 33 is S.
    let out = w
        .strike(chosen(
            t,
            Aspect::Edge,
            "thigh",
            Some(Side::Left),
            20,
            &[("amputation", &[33]), ("shock", &[12])],
        ))
        .unwrap();
    assert!(!out.amputation.unwrap().severed);
    assert_eq!(out.shock.unwrap().test.eml, 50);
    let mut w = World::new();
    let t = w.add("Target", 70);
    let out = w
        .strike(chosen(
            t,
            Aspect::Edge,
            "neck",
            None,
            25,
            &[("amputation", &[99])],
        ))
        .unwrap();
    assert_eq!(out.death.as_deref(), Some("neck severed"));
    assert!(out.shock.is_none());
    assert!(w.hm(t).dead());
}

#[test]
fn unconscious_reroll_waits_ten_minutes_and_cf_means_coma() {
    let mut w = World::new();
    let t = w.add("Target", 60);
    // Skull (shock 5) S3 (3) + F (+1) = 9: UNC.
    let out = w
        .strike(chosen(
            t,
            Aspect::Blunt,
            "skull",
            None,
            12,
            &[("shock", &[61])],
        ))
        .unwrap();
    assert_eq!(out.shock.unwrap().after, ShockState::Unconscious);
    let reroll = Event::HarnMaster(HmEvent::ShockReroll(ShockRoll {
        character: t,
        roll: 50,
    }));
    assert!(matches!(
        w.apply(reroll.clone()),
        Err(FoldError::HarnMaster(
            leechbook_core::harnmaster::system::HmError::Roll(_)
        ))
    ));
    w.at = CampaignTime(600);
    match w.apply(reroll).unwrap().into_hm() {
        Some(HmApplied::ShockRoll { outcome, .. }) => {
            assert_eq!(outcome.test.eml, 40);
            assert_eq!(outcome.test.level, SuccessLevel::CF);
            assert_eq!(outcome.extended_shock, Some(4));
            assert_eq!(outcome.coma, Some(12 - 5 - 3));
        }
        other => panic!("{other:?}"),
    }
    let c = w.hm(t);
    assert_eq!(c.shock, ShockState::Unconscious);
    assert!(c
        .owed
        .iter()
        .all(|o| !matches!(o, Owed::ShockReroll { .. })));
}

#[test]
fn mishaps_by_zone_and_severity() {
    use leechbook_core::harnmaster::body::ZoneKind::*;
    use MishapKind::*;
    assert_eq!(mishaps(Some(Head), "skull", Severity::Serious), vec![]);
    assert_eq!(
        mishaps(Some(Arm), "forearm", Severity::Serious),
        vec![(Fumble, false)]
    );
    assert_eq!(mishaps(Some(Torso), "abdomen", Severity::Serious), vec![]);
    assert_eq!(
        mishaps(Some(Torso), "pelvis", Severity::Serious),
        vec![(Stumble, false)]
    );
    assert_eq!(
        mishaps(Some(Leg), "calf", Severity::Serious),
        vec![(Stumble, false)]
    );
    assert_eq!(
        mishaps(Some(Head), "skull", Severity::Grievous),
        vec![(Fumble, true), (Stumble, true)]
    );
    assert_eq!(
        mishaps(None, "area", Severity::Grievous),
        vec![(Fumble, true), (Stumble, true)]
    );
    assert_eq!(
        mishaps(Some(Arm), "hand", Severity::Grievous),
        vec![(Fumble, true)]
    );
    assert_eq!(mishaps(Some(Leg), "foot", Severity::Minor), vec![]);
}

#[test]
fn injury_effect_examples_right_shoulder_and_left_thigh() {
    let mut w = World::new();
    let t = w.add("Target", 95);
    w.strike(chosen(
        t,
        Aspect::Edge,
        "shoulder",
        Some(Side::Right),
        6,
        &[("shock", &[10])],
    ))
    .unwrap();
    w.strike(chosen(
        t,
        Aspect::Edge,
        "thigh",
        Some(Side::Left),
        16,
        &[("shock", &[10])],
    ))
    .unwrap();
    let z = impairment(
        w.hm(t),
        &leechbook_core::harnmaster::body::human(),
        w.ledger.treatment_table(),
        w.ledger.now,
    );
    let get = |n: &str| z.iter().find(|x| x.zone == n).unwrap().clone();
    assert_eq!(get("right arm").impairment, 10);
    assert_eq!(get("left arm").impairment, 0);
    assert!(get("left leg").unusable);
    assert!(!get("right leg").unusable);
}

#[test]
fn minor_injury_impairs_after_ten_minutes_or_at_once_on_a_failed_shock_roll() {
    let mut w = World::new();
    let t = w.add("Target", 60);
    w.strike(chosen(
        t,
        Aspect::Edge,
        "forearm",
        Some(Side::Right),
        2,
        &[("shock", &[12])],
    ))
    .unwrap();
    let table = leechbook_core::harnmaster::body::human();
    let arm = |w: &World, now| {
        impairment(w.hm(t), &table, w.ledger.treatment_table(), now)
            .into_iter()
            .find(|z| z.zone == "right arm")
            .unwrap()
            .impairment
    };
    assert_eq!(arm(&w, CampaignTime(599)), 0);
    assert_eq!(arm(&w, CampaignTime(600)), 5);
    w.strike(chosen(
        t,
        Aspect::Edge,
        "forearm",
        Some(Side::Left),
        2,
        &[("shock", &[99])],
    ))
    .unwrap();
    let left = impairment(w.hm(t), &table, w.ledger.treatment_table(), CampaignTime(0))
        .into_iter()
        .find(|z| z.zone == "left arm")
        .unwrap();
    assert_eq!(left.impairment, 5);
}

#[test]
fn projectile_s3_impales_and_precision_rolls_extra_location_dice() {
    let mut w = World::new();
    let t = w.add("Target", 95);
    let s = Strike {
        target: t,
        aspect: Aspect::Point,
        targeting: Targeting::Rolled {
            zone_die: Die::D6,
            aim: 1,
            precision: 2,
            pick_zone: Some(2),
            pick_location: Some(2),
            side: SideRule::LocationDie,
        },
        impact: ImpactInput::Rolled {
            roll: "d8+6".parse().unwrap(),
            strength_mod: 0,
            impact_ta: 0,
        },
        av: 0,
        rigid: false,
        projectile: true,
        face_option: false,
        // ZD 1 -> ZN1 head; 5 -> ZN5 torso; 6 -> ZN6 torso. Picking the torso: two LDs.
        dice: dice(&[
            ("zone", &[1, 5, 6]),
            ("location", &[2, 6]),
            ("impact", &[5]),
            ("shock", &[10]),
        ]),
    };
    let out = w.strike(s).unwrap();
    let inj = out.injury.unwrap();
    assert_eq!(inj.place.location, "abdomen");
    assert_eq!(inj.code(), "S3P");
    assert!(inj.impaled);
}

#[test]
fn a_strike_missing_a_die_is_void_and_changes_nothing() {
    let mut w = World::new();
    let t = w.add("Target", 95);
    let before = w.hm(t).clone();
    let err = w
        .strike(broadsword(
            t,
            &[("zone", &[2]), ("location", &[7]), ("impact", &[8])],
        ))
        .unwrap_err();
    assert!(err.to_string().contains("'shock'"), "{err}");
    assert_eq!(w.hm(t), &before);
    assert_eq!(w.ledger.void.len(), 1);
}

#[test]
fn impaired_tests_follow_the_table_and_the_arm_in_use() {
    use leechbook_core::harnmaster::effect::impaired_tests;
    let mut w = World::new();
    let t = w.add("Target", 95);
    // Right shoulder S2 (10), left thigh S2 (10).
    w.strike(chosen(
        t,
        Aspect::Edge,
        "shoulder",
        Some(Side::Right),
        6,
        &[("shock", &[10])],
    ))
    .unwrap();
    w.strike(chosen(
        t,
        Aspect::Edge,
        "thigh",
        Some(Side::Left),
        6,
        &[("shock", &[10])],
    ))
    .unwrap();
    let tests = impaired_tests(w.hm(t), w.ledger.treatment_table(), w.ledger.now);
    let get = |n: &str| tests.iter().find(|x| x.test == n).unwrap().clone();
    // Melee: every zone; the right arm's injury only when the right arm strikes.
    assert_eq!((get("Melee").right, get("Melee").left), (20, 10));
    // Awareness: the head only.
    assert_eq!((get("Awareness").right, get("Awareness").left), (0, 0));
    // Dodge: not the arms; the thigh counts.
    assert_eq!((get("Dodge").right, get("Dodge").left), (10, 10));
    // Legerdemain: head and arms only.
    assert_eq!((get("Legerdemain").right, get("Legerdemain").left), (10, 0));
    assert_eq!(get("Movement").right, 10);
}

#[test]
fn beasts_amputate_at_fixed_mls() {
    let mut w = World::new();
    let beast = match w
        .apply(Event::CharacterAdded {
            name: "Wolf".into(),
            sheet: SheetKind::HarnMaster(Sheet {
                strength: 30,
                endurance: 12,
                shock_ml: 95,
                healing_base: 13,
                strength_ml: 150,
                body: "human".into(),
                beast: true,
                fatigue: 0,
            }),
        })
        .unwrap()
    {
        Applied::CharacterAdded(id) => id,
        other => panic!("{other:?}"),
    };
    // The hand's triangle is black: beasts test at ML30 whatever their Strength.
    let out = w
        .strike(chosen(
            beast,
            Aspect::Edge,
            "hand",
            Some(Side::Left),
            21,
            &[("amputation", &[31]), ("shock", &[10])],
        ))
        .unwrap();
    let a = out.amputation.unwrap();
    assert_eq!(a.test.eml, 30);
    assert!(a.severed);
}
