//! The Healing Sequence's worked examples (rules/000 lines 790-1133), each through the fold.

mod common;
use common::*;
use leechbook_core::harnmaster::body::human;
use leechbook_core::harnmaster::effect::impairment;
use leechbook_core::harnmaster::healing::*;
use leechbook_core::harnmaster::shock::ShockRoll;
use leechbook_core::harnmaster::state::*;
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
    match w.apply(Event::HarnMaster(HmEvent::SeqRoll(r)))? {
        Applied::Heal { outcome, .. } => Ok(*outcome),
        other => panic!("{other:?}"),
    }
}

fn staunch(w: &mut World, who: CharacterId, injury: InjuryId, ml: i32, roll: u16) -> HealOutcome {
    let b = BloodStoppage {
        character: who,
        injury,
        method: Stoppage::Staunch,
        tourniquet: false,
        healer: "Ally".into(),
        physician_ml: ml,
        other_bleeders: 0,
        roll,
        forced: false,
    };
    match w
        .apply(Event::HarnMaster(HmEvent::BloodStoppage(b)))
        .unwrap()
    {
        Applied::Heal { outcome, .. } => *outcome,
        other => panic!("{other:?}"),
    }
}

fn treat(
    w: &mut World,
    who: CharacterId,
    injury: InjuryId,
    ml: i32,
    index: i32,
    roll: u16,
) -> Result<HealOutcome, FoldError> {
    let t = Treatment {
        character: who,
        injury,
        healer: "Healer".into(),
        physician_ml: ml,
        physician_index: index,
        dex_mod: 0,
        broadhead: false,
        amputate: false,
        roll,
        forced: false,
    };
    match w.apply(Event::HarnMaster(HmEvent::Treatment(t)))? {
        Applied::Heal { outcome, .. } => Ok(*outcome),
        other => panic!("{other:?}"),
    }
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
        Err(FoldError::Roll(_))
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
    assert!(o.summary.contains("SHK 4+4+0 = 8 -> UNC"), "{}", o.summary);
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
