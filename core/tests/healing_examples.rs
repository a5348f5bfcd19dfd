//! The Healing Sequence's worked examples (rules/000 lines 790-1133), each through the fold.

use crate::common;
use common::*;
use leechbook_core::harnmaster::body::human;
use leechbook_core::harnmaster::effect::impairment;
use leechbook_core::harnmaster::healing::*;
use leechbook_core::harnmaster::shock::ShockRoll;
use leechbook_core::harnmaster::state::*;
use leechbook_core::harnmaster::system::HmApplied;
use leechbook_core::harnmaster::HmEvent;
use leechbook_core::ids::*;
use leechbook_core::test_roll::SuccessLevel;
use leechbook_core::time::{CampaignTime, DAY, HOUR, MINUTE};
use leechbook_core::*;

fn seq(
    w: &mut World,
    who: CharacterId,
    kind: SeqRollKind,
    injury: Option<InjuryId>,
    roll: u16,
) -> Result<HealOutcome, FoldError> {
    let r = SeqRoll {
        character: who,
        kind,
        injury,
        roll,
        period: None,
        sheltered: true,
        forced: false,
    };
    match w.apply(Event::HarnMaster(HmEvent::SeqRoll(r)))?.into_hm() {
        Some(HmApplied::Heal { outcome, .. }) => Ok(*outcome),
        other => panic!("{other:?}"),
    }
}

fn staunch(w: &mut World, who: CharacterId, injury: InjuryId, ml: i32, roll: u16) -> HealOutcome {
    staunch_by(w, who, injury, "Ally", ml, roll)
}

fn zone(w: &World, who: CharacterId, name: &str) -> (i32, bool) {
    let z = impairment(
        w.hm(who),
        &human(),
        w.ledger.treatment_table(),
        w.ledger.now,
    );
    let z = z.iter().find(|z| z.zone == name).unwrap();
    (z.impairment, z.unusable)
}

/// Examples 1 (bleeding) and 2 (Extended Shock): a G4E right shoulder, Shock and Shock Reroll
/// failed (Extended Shock HR5, INC), then blood loss, staunching, and four-hourly course rolls.
#[test]
fn examples_1_bleeding_and_2_extended_shock() {
    let mut w = World::new();
    let t = w.add("Victim", 65);
    // Shoulder 3 + G4 4 + F (66 vs 65) 1 = 8: INC.
    let out = w
        .strike(chosen(
            t,
            Aspect::Edge,
            "shoulder",
            Some(Side::Right),
            16,
            &[("shock", &[66])],
        ))
        .unwrap();
    let id = out.injury.unwrap().id;
    assert!(
        w.hm(t).injuries[0].bleeder,
        "step 3.3: a G4E shoulder bleeds"
    );
    assert_eq!(w.hm(t).shock, ShockState::Incapacitated);
    // The Shock Reroll fails (46 vs EML45, F): Extended Shock HR5, still INC.
    w.apply(Event::HarnMaster(HmEvent::ShockReroll(ShockRoll {
        character: t,
        roll: 46,
    })))
    .unwrap();
    assert_eq!(w.hm(t).extended_shock.map(|e| e.healing_rate), Some(5));

    // Five minutes on: Strength ML60, F (61): 2 BP. INC while INC is UNC.
    w.at = CampaignTime(5 * MINUTE);
    let o = seq(&mut w, t, SeqRollKind::BloodLoss, Some(id), 61).unwrap();
    assert_eq!(o.test.unwrap().eml, 60);
    assert_eq!(w.hm(t).blood_loss, 2);
    assert_eq!(w.hm(t).shock, ShockState::Unconscious);
    // Five more minutes: the ally staunches at Physician ML40, S (33): stops after one more roll.
    w.at = CampaignTime(10 * MINUTE);
    let s = staunch(&mut w, t, id, 40, 33);
    assert_eq!(s.test.unwrap().level, SuccessLevel::S);
    assert!(w.hm(t).bleeding());
    // The last blood loss roll: S (12) is one more BP, three in all; the bleeding stops.
    seq(&mut w, t, SeqRollKind::BloodLoss, Some(id), 12).unwrap();
    let c = w.hm(t);
    assert_eq!(c.blood_loss, 3);
    assert!(!c.bleeding());
    assert_eq!(c.shock, ShockState::Unconscious);
    assert_eq!(c.fatigue(), 15, "5 weakness fatigue per BP");
    assert!(matches!(
        seq(&mut w, t, SeqRollKind::BloodLoss, Some(id), 12),
        Err(FoldError::HarnMaster(
            leechbook_core::harnmaster::system::HmError::Roll(_)
        ))
    ));

    // Example 2. HB13 x HR5 = 65 - 15 fatigue = 50; the ally's Physician SV5 gives +5: EML55.
    w.apply(Event::HarnMaster(HmEvent::HealerAttends(HealerAttends {
        character: t,
        condition: Attended::ExtendedShock,
        healer: "Ally".into(),
        bonus: 5,
    })))
    .unwrap();
    let start = w.hm(t).extended_shock.unwrap().since;
    // Not before four hours.
    assert!(seq(&mut w, t, SeqRollKind::ExtendedShock, None, 93).is_err());
    w.at = start.plus(4 * HOUR);
    let o = seq(&mut w, t, SeqRollKind::ExtendedShock, None, 93).unwrap();
    assert_eq!(
        (o.test.unwrap().eml, o.test.unwrap().level),
        (55, SuccessLevel::F)
    );
    assert_eq!(w.hm(t).extended_shock.unwrap().healing_rate, 4);
    w.at = start.plus(8 * HOUR);
    let o = seq(&mut w, t, SeqRollKind::ExtendedShock, None, 41).unwrap();
    assert_eq!(
        (o.test.unwrap().eml, o.test.unwrap().level),
        (42, SuccessLevel::S)
    );
    w.at = start.plus(12 * HOUR);
    let o = seq(&mut w, t, SeqRollKind::ExtendedShock, None, 13).unwrap();
    assert_eq!(
        (o.test.unwrap().eml, o.test.unwrap().level),
        (55, SuccessLevel::S)
    );
    // HR6 after twelve hours: recovered, conscious, and treatable.
    let c = w.hm(t);
    assert!(c.extended_shock.is_none());
    assert_eq!(c.shock, ShockState::None);
}

/// Examples 5 (treatment), 6 and 7 (healing and infection): S2E abdomen, F treatment (HR4,
/// chance of infection), healed after 21 days.
#[test]
fn examples_5_treatment_6_healing_7_infection() {
    let mut w = World::new();
    let t = w.add("Patient", 65);
    let id = w
        .strike(chosen(
            t,
            Aspect::Edge,
            "abdomen",
            None,
            8,
            &[("shock", &[12])],
        ))
        .unwrap()
        .injury
        .unwrap()
        .id;
    // Physician ML50 + 10 (CLN on a Serious edge injury) = 60; 61 is F: HR4, infection chance.
    let o = treat(&mut w, t, id, 50, 4, 61).unwrap();
    assert_eq!(
        (o.test.unwrap().eml, o.test.unwrap().level),
        (60, SuccessLevel::F)
    );
    let tr = w.hm(t).injuries[0].heal.treatment.clone().unwrap();
    assert_eq!(tr.cell.result, CellResult::Hr(4));
    assert!(tr.cell.infection);
    assert_eq!(zone(&w, t, "torso"), (10, false), "and 10 impairment");

    // Day 5 (five days after the injury): EML52, 62 is F.
    assert!(
        seq(&mut w, t, SeqRollKind::Healing, Some(id), 62).is_err(),
        "not due yet"
    );
    w.at = CampaignTime(5 * DAY);
    let o = seq(&mut w, t, SeqRollKind::Healing, Some(id), 62).unwrap();
    assert_eq!(
        (o.test.unwrap().eml, o.test.unwrap().level),
        (52, SuccessLevel::F)
    );
    // Day 10: 24 is S: S2 -> M1, 10 impairment -> 5 (HR4).
    w.at = CampaignTime(10 * DAY);
    seq(&mut w, t, SeqRollKind::Healing, Some(id), 24).unwrap();
    assert_eq!(w.hm(t).injuries[0].code(), "M1E");
    assert_eq!(zone(&w, t, "torso"), (5, false));
    // Day 15: 95 is CF: infected. Infection HR5: EML65.
    w.at = CampaignTime(15 * DAY);
    seq(&mut w, t, SeqRollKind::Healing, Some(id), 95).unwrap();
    let inf = w.hm(t).infection.unwrap();
    assert_eq!((inf.injury, inf.healing_rate), (id, 5));
    assert_eq!(w.hm(t).injuries[0].level, 1);
    // Day 16: 42 is S: HR6, the infection is over.
    w.at = CampaignTime(16 * DAY);
    let o = seq(&mut w, t, SeqRollKind::Infection, None, 42).unwrap();
    assert_eq!(
        (o.test.unwrap().eml, o.test.unwrap().level),
        (65, SuccessLevel::S)
    );
    assert!(w.hm(t).infection.is_none());
    // Healing resumes five days later: day 21, 42 is S against EML52: healed after 21 days.
    w.at = CampaignTime(20 * DAY);
    assert!(
        seq(&mut w, t, SeqRollKind::Healing, Some(id), 42).is_err(),
        "not before day 21"
    );
    w.at = CampaignTime(21 * DAY);
    let o = seq(&mut w, t, SeqRollKind::Healing, Some(id), 42).unwrap();
    assert_eq!(o.test.unwrap().eml, 52);
    let inj = &w.hm(t).injuries[0];
    assert!(inj.healed());
    assert_eq!(inj.heal.healed_at, Some(CampaignTime(21 * DAY)));
    assert_eq!(zone(&w, t, "torso"), (0, false));
    // A healed injury is never rolled for.
    w.at = CampaignTime(26 * DAY);
    assert!(seq(&mut w, t, SeqRollKind::Healing, Some(id), 42).is_err());
}

/// Example 8 (impairment): G4E right shoulder with HR3 and the permanent mark: S3 after 15
/// days (10), S2 at 20 (5 permanent accrued, 10 applies), M1 at 25: 5 permanent remains.
#[test]
fn example_8_permanent_impairment() {
    let mut w = World::new();
    let t = w.add("Patient", 95);
    let id = w
        .strike(chosen(
            t,
            Aspect::Edge,
            "shoulder",
            Some(Side::Right),
            16,
            &[("shock", &[12])],
        ))
        .unwrap()
        .injury
        .unwrap()
        .id;
    // Stop the bleeding first (CS), then treat: surgery F (HR3, bleeder, infection, permanent).
    w.at = CampaignTime(5 * MINUTE);
    staunch(&mut w, t, id, 60, 5);
    let o = treat(&mut w, t, id, 40, 3, 56).unwrap();
    assert_eq!(o.test.unwrap().level, SuccessLevel::F);
    let cell = w.hm(t).injuries[0].heal.treatment.clone().unwrap().cell;
    assert_eq!(cell.result, CellResult::Hr(3));
    assert!(cell.permanent && cell.infection && cell.bleeder);
    assert!(w.hm(t).bleeding(), "a failed surgery causes a bleeder");
    w.at = CampaignTime(10 * MINUTE);
    staunch(&mut w, t, id, 60, 5);
    assert_eq!(zone(&w, t, "right arm"), (0, true));
    // HB13 x HR3 = 39: F, F, then S at day 15 -> S3.
    for (day, roll) in [(5, 51), (10, 52), (15, 11)] {
        w.at = CampaignTime(day * DAY);
        seq(&mut w, t, SeqRollKind::Healing, Some(id), roll).unwrap();
    }
    assert_eq!(w.hm(t).injuries[0].code(), "S3E");
    assert_eq!(zone(&w, t, "right arm"), (10, false));
    w.at = CampaignTime(20 * DAY);
    seq(&mut w, t, SeqRollKind::Healing, Some(id), 12).unwrap();
    assert_eq!(w.hm(t).injuries[0].code(), "S2E");
    let tt = w.ledger.treatment_table();
    assert_eq!(
        permanent_impairment(&w.hm(t).injuries[0], tt, w.ledger.now),
        5
    );
    assert_eq!(
        zone(&w, t, "right arm"),
        (10, false),
        "the higher of 10 and 5"
    );
    w.at = CampaignTime(25 * DAY);
    seq(&mut w, t, SeqRollKind::Healing, Some(id), 13).unwrap();
    assert_eq!(w.hm(t).injuries[0].code(), "M1E");
    assert_eq!(zone(&w, t, "right arm"), (5, false));
    // Healed: the 5 permanent impairment remains, and stays 5 (it stopped accruing at Minor).
    w.at = CampaignTime(30 * DAY);
    seq(&mut w, t, SeqRollKind::Healing, Some(id), 14).unwrap();
    assert!(w.hm(t).injuries[0].healed());
    w.at = CampaignTime(90 * DAY);
    w.apply(Event::ClockAdvanced {
        to: CampaignTime(90 * DAY),
    })
    .unwrap();
    assert_eq!(zone(&w, t, "right arm"), (5, false));
}

#[test]
fn grievous_cap_index_3_cs_on_g4_edge_gives_the_hr3_row() {
    let mut w = World::new();
    let t = w.add("Patient", 95);
    let id = w
        .strike(chosen(
            t,
            Aspect::Edge,
            "thorax",
            None,
            16,
            &[("shock", &[12])],
        ))
        .unwrap()
        .injury
        .unwrap()
        .id;
    w.at = CampaignTime(5 * MINUTE);
    staunch(&mut w, t, id, 60, 5);
    let o = treat(&mut w, t, id, 80, 3, 25).unwrap();
    assert_eq!(o.test.unwrap().level, SuccessLevel::CS);
    let tr = w.hm(t).injuries[0].heal.treatment.clone().unwrap();
    assert_eq!(tr.level, SuccessLevel::F);
    assert_eq!(tr.cell.result, CellResult::Hr(3));
    assert!(tr.cell.bleeder && tr.cell.infection && tr.cell.permanent);
}

#[test]
fn untreated_injuries_heal_as_cf_and_grievous_ones_are_grim() {
    let mut w = World::new();
    let t = w.add("Patient", 95);
    let id = w
        .strike(chosen(
            t,
            Aspect::Blunt,
            "thorax",
            None,
            16,
            &[("shock", &[12])],
        ))
        .unwrap()
        .injury
        .unwrap()
        .id;
    let inj = w.hm(t).injuries[0].clone();
    assert!(grim(&inj));
    assert_eq!(
        healing_rate(&inj, w.ledger.treatment_table()),
        2,
        "blunt G CF: HR2"
    );
    // The strike left INC (4 + 4 + 0). The grim wound's daily Shock Roll: thorax 4 + G4 4
    // + S 0 = 8, INC while INC: UNC.
    assert!(
        seq(&mut w, t, SeqRollKind::GrimShock, Some(id), 31).is_err(),
        "not before a day"
    );
    w.at = CampaignTime(DAY);
    let o = seq(&mut w, t, SeqRollKind::GrimShock, Some(id), 31).unwrap();
    assert_eq!(
        o.effect,
        Effect::Grim {
            state: ShockState::Unconscious,
            location_shock: 4,
            level: 4,
            modifier: 0
        },
        "SHK 4+4+0 = 8 -> UNC"
    );
    assert_eq!(w.hm(t).shock, ShockState::Unconscious);
}

#[test]
fn treatment_needs_the_bleeding_stopped_and_healers_in_rising_index() {
    let mut w = World::new();
    let t = w.add("Patient", 95);
    let id = w
        .strike(chosen(
            t,
            Aspect::Edge,
            "thigh",
            Some(Side::Left),
            12,
            &[("shock", &[12])],
        ))
        .unwrap()
        .injury
        .unwrap()
        .id;
    // S3E in a black-circled thigh bleeds: no treatment before it is stopped.
    assert!(w.hm(t).bleeding());
    let err = treat(&mut w, t, id, 50, 3, 30).unwrap_err();
    assert!(err.to_string().contains("stop the bleeding"), "{err}");
    w.at = CampaignTime(5 * MINUTE);
    staunch(&mut w, t, id, 60, 5);
    treat(&mut w, t, id, 50, 3, 56).unwrap();
    // The same healer may not try again; a second healer needs a higher index.
    assert!(treat(&mut w, t, id, 50, 4, 30).is_err());
    let second = Treatment {
        character: t,
        injury: id,
        healer: "Master".into(),
        physician_ml: 70,
        physician_index: 3,
        dex_mod: 0,
        broadhead: false,
        amputate: false,
        roll: 30,
        forced: false,
    };
    assert!(w
        .apply(Event::HarnMaster(HmEvent::Treatment(second.clone())))
        .is_err());
    let better = Treatment {
        physician_index: 5,
        roll: 31,
        ..second
    };
    w.apply(Event::HarnMaster(HmEvent::Treatment(better)))
        .unwrap();
    let tr = w.hm(t).injuries[0].heal.treatment.clone().unwrap();
    assert_eq!(
        tr.level,
        SuccessLevel::S,
        "the highest success level applies"
    );
}

#[test]
fn blood_regeneration_every_ten_days() {
    let mut w = World::new();
    let t = w.add("Patient", 95);
    let id = w
        .strike(chosen(
            t,
            Aspect::Edge,
            "thigh",
            Some(Side::Left),
            12,
            &[("shock", &[12])],
        ))
        .unwrap()
        .injury
        .unwrap()
        .id;
    w.at = CampaignTime(5 * MINUTE);
    seq(&mut w, t, SeqRollKind::BloodLoss, Some(id), 44).unwrap(); // S: 1 BP
    staunch(&mut w, t, id, 60, 5);
    assert_eq!(w.hm(t).blood_loss, 1);
    assert_eq!(
        w.hm(t).shock,
        ShockState::None,
        "STN from blood loss clears when it stops"
    );
    assert!(seq(&mut w, t, SeqRollKind::BloodRegeneration, None, 20).is_err());
    w.at = CampaignTime(5 * MINUTE + 10 * DAY);
    let o = seq(&mut w, t, SeqRollKind::BloodRegeneration, None, 20).unwrap();
    assert_eq!(o.test.unwrap().eml, 60, "END12 x 5");
    assert_eq!(w.hm(t).blood_loss, 0);
    assert_eq!(w.hm(t).fatigue(), 0);
}

fn opt(w: &mut World, name: &str, on: bool) {
    w.apply(Event::HarnMaster(HmEvent::OptionSet {
        name: name.into(),
        on,
    }))
    .unwrap();
}

#[test]
fn coma_course_rolls_every_ten_days_and_waking_leaves_weariness() {
    let mut w = World::new();
    let t = w.add("Patient", 60);
    // Skull (5) S3 (3) + F (+1) = 9: UNC; ten minutes on, the reroll is CF: Extended Shock HR4
    // and a coma with HR 12 - 5 - 3 = 4.
    w.strike(chosen(
        t,
        Aspect::Blunt,
        "skull",
        None,
        12,
        &[("shock", &[61])],
    ))
    .unwrap();
    w.at = CampaignTime(10 * MINUTE);
    w.apply(Event::HarnMaster(HmEvent::ShockReroll(ShockRoll {
        character: t,
        roll: 50,
    })))
    .unwrap();
    assert_eq!(w.hm(t).coma.map(|c| c.healing_rate), Some(4));
    // Extended Shock ends first (HR4 + S + S -> 6), leaving the coma: still UNC.
    for (h, roll) in [(4, 11), (8, 12)] {
        w.at = CampaignTime(10 * MINUTE + h * HOUR);
        seq(&mut w, t, SeqRollKind::ExtendedShock, None, roll).unwrap();
    }
    assert!(w.hm(t).extended_shock.is_none());
    assert_eq!(w.hm(t).shock, ShockState::Unconscious);
    // Coma rolls every ten days: HB13 x HR4 = 52 (unsheltered -20 would be 32).
    w.at = CampaignTime(10 * MINUTE + 10 * DAY);
    let o = seq(&mut w, t, SeqRollKind::Coma, None, 45).unwrap(); // CS: HR6
    assert_eq!(o.test.unwrap().eml, 52);
    let c = w.hm(t);
    assert!(c.coma.is_none());
    assert_eq!(c.shock, ShockState::None);
    assert_eq!(c.weariness, 10, "ten days of coma: 10 weariness fatigue");
}

#[test]
fn the_random_period_option_rolls_d3_plus_3_days() {
    let mut w = World::new();
    opt(&mut w, "random-healing-period", true);
    let t = w.add("Patient", 95);
    let id = w
        .strike(chosen(
            t,
            Aspect::Blunt,
            "thorax",
            None,
            6,
            &[("shock", &[12])],
        ))
        .unwrap()
        .injury
        .unwrap()
        .id;
    assert!(
        seq(&mut w, t, SeqRollKind::Healing, Some(id), 12).is_err(),
        "the period is rolled first"
    );
    let o = seq(&mut w, t, SeqRollKind::HealingPeriod, Some(id), 2).unwrap();
    assert_eq!(o.effect, Effect::Period(2), "d3 2: 5 days");
    assert_eq!(w.hm(t).injuries[0].heal.next_healing, CampaignTime(5 * DAY));
    let mut w2 = World::new();
    opt(&mut w2, "random-healing-period", true);
    let t2 = w2.add("Patient", 95);
    let id2 = w2
        .strike(chosen(
            t2,
            Aspect::Blunt,
            "thorax",
            None,
            6,
            &[("shock", &[12])],
        ))
        .unwrap()
        .injury
        .unwrap()
        .id;
    seq(&mut w2, t2, SeqRollKind::HealingPeriod, Some(id2), 1).unwrap();
    w2.at = CampaignTime(4 * DAY);
    // The next period's d3 rides on the healing roll: 3 -> six days on.
    let r = SeqRoll {
        character: t2,
        kind: SeqRollKind::Healing,
        injury: Some(id2),
        roll: 99,
        period: Some(3),
        sheltered: true,
        forced: false,
    };
    w2.apply(Event::HarnMaster(HmEvent::SeqRoll(r))).unwrap();
    assert_eq!(
        w2.hm(t2).injuries[0].heal.next_healing,
        CampaignTime(10 * DAY)
    );
}

#[test]
fn aggravation_needs_the_option_and_lowers_the_hr() {
    let mut w = World::new();
    let t = w.add("Patient", 50);
    let id = w
        .strike(chosen(
            t,
            Aspect::Blunt,
            "thorax",
            None,
            6,
            &[("shock", &[12])],
        ))
        .unwrap()
        .injury
        .unwrap()
        .id;
    assert!(matches!(
        seq(&mut w, t, SeqRollKind::Aggravation, Some(id), 77),
        Err(FoldError::HarnMaster(
            leechbook_core::harnmaster::system::HmError::Setting(_)
        ))
    ));
    opt(&mut w, "aggravation", true);
    seq(&mut w, t, SeqRollKind::Aggravation, Some(id), 77).unwrap(); // F against Shock ML50
    let inj = &w.hm(t).injuries[0];
    assert_eq!(inj.heal.aggravation, 1);
    // Untreated S2B heals at HR3 (CF); aggravated, HR2; it carries into a later treatment.
    assert_eq!(healing_rate(inj, w.ledger.treatment_table()), 2);
}

/// A healer's bonus to Extended Shock course rolls, as `attend` records it.
fn attends(
    w: &mut World,
    who: CharacterId,
    healer: &str,
    bonus: i32,
) -> Result<Applied, FoldError> {
    w.apply(Event::HarnMaster(HmEvent::HealerAttends(HealerAttends {
        character: who,
        condition: Attended::ExtendedShock,
        healer: healer.into(),
        bonus,
    })))
}

/// A Blood Stoppage Roll by `healer` (Staunch, Physician `ml`).
fn staunch_by(
    w: &mut World,
    who: CharacterId,
    injury: InjuryId,
    healer: &str,
    ml: i32,
    roll: u16,
) -> HealOutcome {
    let b = BloodStoppage {
        character: who,
        injury,
        method: Stoppage::Staunch,
        tourniquet: false,
        healer: healer.into(),
        physician_ml: ml,
        other_bleeders: 0,
        roll,
        forced: false,
    };
    match w
        .apply(Event::HarnMaster(HmEvent::BloodStoppage(b)))
        .unwrap()
        .into_hm()
    {
        Some(HmApplied::Heal { outcome, .. }) => *outcome,
        other => panic!("{other:?}"),
    }
}

/// A G4E right shoulder (Location Shock 3) on a character with Shock ML 65 whose shock roll
/// is `shock`: the bleeder of examples 1 and 2.
fn shoulder_bleeder(w: &mut World, shock: u16) -> (CharacterId, InjuryId) {
    let t = w.add("Victim", 65);
    let out = w
        .strike(chosen(
            t,
            Aspect::Edge,
            "shoulder",
            Some(Side::Right),
            16,
            &[("shock", &[shock])],
        ))
        .unwrap();
    (t, out.injury.unwrap().id)
}

/// A shoulder bleeder whose Shock Reroll fails (46 vs EML45): Extended Shock HR5.
fn in_extended_shock(w: &mut World) -> CharacterId {
    let (t, _) = shoulder_bleeder(w, 66);
    w.apply(Event::HarnMaster(HmEvent::ShockReroll(ShockRoll {
        character: t,
        roll: 46,
    })))
    .unwrap();
    t
}

fn fatigue(w: &mut World, t: CharacterId, kind: FatigueKind, points: i32) -> Result<(), String> {
    w.apply(Event::HarnMaster(HmEvent::Fatigue(FatigueChange {
        character: t,
        kind,
        points,
    })))
    .map(|_| ())
    .map_err(|e| e.to_string())
}

mod healers;
