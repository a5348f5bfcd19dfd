//! The Healing Sequence's later steps and its healers: amputation, cautery, permanent
//! impairment, each healer's grievous cap, Extended Shock and staunch bonuses, coma.

use super::*;

#[test]
fn amputating_an_infected_limb_defeats_the_infection() {
    let mut w = World::new();
    let t = w.add("Patient", 95);
    let id = w
        .strike(chosen(
            t,
            Aspect::Edge,
            "forearm",
            Some(Side::Left),
            8,
            &[("shock", &[12])],
        ))
        .unwrap()
        .injury
        .unwrap()
        .id;
    treat(&mut w, t, id, 50, 5, 61).unwrap(); // F: HR4, chance of infection
    w.at = CampaignTime(5 * DAY);
    seq(&mut w, t, SeqRollKind::Healing, Some(id), 100).unwrap(); // CF: infected
    assert!(w.hm(t).infection.is_some());
    let amp = Treatment {
        character: t,
        injury: id,
        healer: "Surgeon".into(),
        physician_ml: 70,
        physician_index: 7,
        dex_mod: 5,
        broadhead: false,
        amputate: true,
        roll: 33,
        forced: false,
    };
    match w
        .apply(Event::HarnMaster(HmEvent::Treatment(amp)))
        .unwrap()
        .into_hm()
    {
        Some(HmApplied::Heal { outcome, .. }) => {
            // AMP on the frost G column: S leaves an S3 edge injury; DEX counts for AMP.
            assert!(
                matches!(
                    outcome.effect,
                    Effect::Treated {
                        amputated: Some(3),
                        kind: TreatmentKind::Amputation,
                        ..
                    }
                ),
                "amputated, leaving S3E: {:?}",
                outcome.effect
            );
            assert!(outcome
                .eml_parts
                .iter()
                .any(|p| p.label == "DEX" && p.value == 5));
        }
        other => panic!("{other:?}"),
    }
    let c = w.hm(t);
    assert!(c.infection.is_none(), "amputation defeats the infection");
    assert!(c.injuries[0].healed());
    let stump = &c.injuries[1];
    assert_eq!((stump.code(), stump.severed), ("S3E".to_string(), true));
}

#[test]
fn cauterised_bleeders_fail_critically_on_3_5_8_0_and_area_fire_is_grim() {
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
    let b = BloodStoppage {
        character: t,
        injury: id,
        method: Stoppage::Cauterise,
        tourniquet: false,
        healer: "Ally".into(),
        physician_ml: 30,
        other_bleeders: 0,
        roll: 45,
        forced: false,
    };
    match w
        .apply(Event::HarnMaster(HmEvent::BloodStoppage(b)))
        .unwrap()
        .into_hm()
    {
        Some(HmApplied::Heal { outcome, .. }) => {
            assert_eq!(outcome.test.unwrap().eml, 60, "ML30 + 30")
        }
        other => panic!("{other:?}"),
    }
    // CS: stopped at once, cauterised.
    assert!(!w.hm(t).bleeding());
    treat(&mut w, t, id, 50, 5, 61).unwrap(); // CLN S3E: 60, 61 is F -> HR4, infection chance
    w.at = CampaignTime(5 * DAY);
    // 63 is a plain failure against EML52, but ends in 3: CF, and the injury is infected.
    let o = seq(&mut w, t, SeqRollKind::Healing, Some(id), 63).unwrap();
    assert_eq!(o.test.unwrap().level, SuccessLevel::CF);
    assert!(w.hm(t).infection.is_some());

    let mut w = World::new();
    let t = w.add("Patient", 95);
    // Area 6 + G4 4 - CS 1 = 9: UNC, alive.
    let mut s = chosen(t, Aspect::Fire, "thorax", None, 0, &[("shock", &[10])]);
    s.targeting = leechbook_core::harnmaster::injury::Targeting::Area;
    s.impact = leechbook_core::harnmaster::injury::ImpactInput::Effective(16);
    let out = w.strike(s).unwrap();
    assert_eq!(
        out.shock.unwrap().location_shock,
        6,
        "area attacks impart Location Shock 6"
    );
    let id = out.injury.unwrap().id;
    treat(&mut w, t, id, 90, 9, 11).unwrap(); // -20 area: still S
    assert!(
        grim(&w.hm(t).injuries[0]),
        "area G4F is always a grim wound"
    );
}

/// Issue 12, item 10: permanent impairment counts the days until the injury first reaches
/// Minor, so an injury Minor from the start accrues none, even where a loaded treatment
/// table marks its cell.
#[test]
fn a_minor_injury_accrues_no_permanent_impairment() {
    let mut w = World::new();
    let t = w.add("Patient", 95);
    let mut table = treatment_table();
    for c in table.types[1].severities[0].cells.iter_mut() {
        c.permanent = true; // edged, Minor: every row marked
    }
    w.apply(Event::HarnMaster(HmEvent::TreatmentTableDefined(table)))
        .unwrap();
    // Effective 3 to the abdomen: M1E, untreated.
    let id = w
        .strike(chosen(
            t,
            Aspect::Edge,
            "abdomen",
            None,
            3,
            &[("shock", &[12])],
        ))
        .unwrap()
        .injury
        .unwrap()
        .id;
    assert_eq!(w.hm(t).injuries[0].code(), "M1E");
    // Twenty days go by with no healing roll recorded: the M1 never took a day to reach
    // Minor, so it accrues nothing (before the fix: 5, counted from the strike to now).
    w.at = CampaignTime(20 * DAY);
    w.apply(Event::ClockAdvanced { to: w.at }).unwrap();
    let tt = w.ledger.treatment_table();
    assert_eq!(
        permanent_impairment(&w.hm(t).injuries[0], tt, w.ledger.now),
        0
    );
    w.at = CampaignTime(25 * DAY);
    seq(&mut w, t, SeqRollKind::Healing, Some(id), 1).unwrap();
    assert!(w.hm(t).all_injuries()[0].healed());
    w.at = CampaignTime(90 * DAY);
    w.apply(Event::ClockAdvanced { to: w.at }).unwrap();
    assert_eq!(zone(&w, t, "torso"), (0, false));
}

/// The class of item 10: an untreated Serious injury whose (CF) cell carries the permanent
/// mark keeps what it accrued while Serious once it reaches Minor: the mark is the one it
/// healed under, not the Minor cell's.
#[test]
fn an_untreated_serious_injury_keeps_its_permanent_impairment() {
    let mut w = World::new();
    let t = w.add("Patient", 95);
    let mut table = treatment_table();
    table.types[1].severities[1].cells[0].permanent = true; // edged, Serious, CF row
    table.types[1].severities[0].cells[0].permanent = false; // edged, Minor, CF row
    w.apply(Event::HarnMaster(HmEvent::TreatmentTableDefined(table)))
        .unwrap();
    // Effective 8 to the abdomen: S2E, untreated.
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
    assert_eq!(w.hm(t).injuries[0].code(), "S2E");
    for (day, roll) in [(5, 96), (10, 97), (15, 98), (20, 99)] {
        w.at = CampaignTime(day * DAY);
        seq(&mut w, t, SeqRollKind::Healing, Some(id), roll).unwrap();
    }
    // Day 25: S, S2 -> M1 after 25 days: 25 / 20 = 1 stretch of twenty days: 5.
    w.at = CampaignTime(25 * DAY);
    seq(&mut w, t, SeqRollKind::Healing, Some(id), 1).unwrap();
    assert_eq!(w.hm(t).injuries[0].code(), "M1E");
    let tt = w.ledger.treatment_table();
    assert_eq!(
        permanent_impairment(&w.hm(t).injuries[0], tt, w.ledger.now),
        5
    );
    w.at = CampaignTime(30 * DAY);
    seq(&mut w, t, SeqRollKind::Healing, Some(id), 1).unwrap();
    assert!(w.hm(t).injuries[0].healed());
    assert_eq!(zone(&w, t, "torso"), (5, false));
}

/// The class of item 10's marks, the Grievous HR cap: each healer's roll is capped by their
/// own Physician Index, then only the highest applies. Healer A (Index 3) rolls CS, capped
/// to the HR3 row (F); healer B (Index 5) rolls F (HR3): HR3, not A's CS under B's cap (HR5).
#[test]
fn the_grievous_cap_is_each_healers_own() {
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
    assert_eq!(w.hm(t).injuries[0].severity(), Severity::Grievous);
    w.at = CampaignTime(5 * MINUTE);
    staunch(&mut w, t, id, 60, 5);
    // A: 25 against EML80 is CS; Index 3 caps it to the HR3 row.
    let a = treat(&mut w, t, id, 80, 3, 25).unwrap();
    assert_eq!(a.test.unwrap().level, SuccessLevel::CS);
    let tr = w.hm(t).injuries[0].heal.treatment.clone().unwrap();
    assert_eq!(tr.cell.result, CellResult::Hr(3), "{tr:?}");
    let after_a = tr.level;
    w.at = CampaignTime(10 * MINUTE);
    if w.hm(t).bleeding() {
        staunch(&mut w, t, id, 60, 5);
    }
    // B: 62 against EML60 is F.
    let b = Treatment {
        character: t,
        injury: id,
        healer: "Second".into(),
        physician_ml: 60,
        physician_index: 5,
        dex_mod: 0,
        broadhead: false,
        amputate: false,
        roll: 62,
        forced: false,
    };
    w.apply(Event::HarnMaster(HmEvent::Treatment(b))).unwrap();
    let tr = w.hm(t).injuries[0].heal.treatment.clone().unwrap();
    assert_eq!(tr.cell.result, CellResult::Hr(3), "{tr:?}");
    assert_eq!(tr.level, after_a.max(SuccessLevel::F));
}

/// Healing Sequence step 2, Extended Shock, Treatment: "one test per healer per patient;
/// apply single highest healer's bonus". A second test by the same healer is refused and the
/// course roll keeps the first; another healer's higher bonus replaces it.
#[test]
fn extended_shock_one_test_per_healer_per_patient() {
    let mut w = World::new();
    // No fatigue yet: HB13 x HR5 = 65.
    let t = in_extended_shock(&mut w);
    attends(&mut w, t, "Ann", 5).unwrap();
    let err = attends(&mut w, t, "Ann", 10).unwrap_err();
    assert!(
        err.to_string().contains("one test per healer per patient"),
        "{err}"
    );
    assert_eq!(w.hm(t).extended_shock_bonus, 5);
    let start = w.hm(t).extended_shock.unwrap().since;
    w.at = start.plus(4 * HOUR);
    let o = seq(&mut w, t, SeqRollKind::ExtendedShock, None, 71).unwrap();
    assert_eq!(
        (o.test.unwrap().eml, o.test.unwrap().level),
        (70, SuccessLevel::F),
        "HB13 x HR5 = 65, +5 from Ann's one test"
    );
    // Another healer's test counts; the single highest applies.
    attends(&mut w, t, "Bo", 10).unwrap();
    assert_eq!(w.hm(t).extended_shock_bonus, 10);
    attends(&mut w, t, "Cy", 5).unwrap();
    assert_eq!(w.hm(t).extended_shock_bonus, 10);
}

/// Healing Sequence step 1, Physician test, F: "the healer receives +10 bonus to the next
/// Staunch treatment roll for the same bleeder". Ann fails; Bo's roll is at his own ML40 (44
/// is F); Ann's next roll has her +10 (44 at EML50 is S).
#[test]
fn staunch_bonus_belongs_to_the_healer_who_failed() {
    let mut w = World::new();
    let (t, id) = shoulder_bleeder(&mut w, 12);
    w.at = CampaignTime(5 * MINUTE);
    let ann = staunch_by(&mut w, t, id, "Ann", 40, 62);
    assert_eq!(ann.test.unwrap().level, SuccessLevel::F);
    seq(&mut w, t, SeqRollKind::BloodLoss, Some(id), 30).unwrap();
    w.at = CampaignTime(10 * MINUTE);
    let bo = staunch_by(&mut w, t, id, "Bo", 40, 44);
    assert_eq!(
        (bo.test.unwrap().eml, bo.test.unwrap().level),
        (40, SuccessLevel::F),
        "Ann's bonus is not Bo's"
    );
    seq(&mut w, t, SeqRollKind::BloodLoss, Some(id), 30).unwrap();
    w.at = CampaignTime(15 * MINUTE);
    let again = staunch_by(&mut w, t, id, "Ann", 40, 44);
    assert_eq!(
        (again.test.unwrap().eml, again.test.unwrap().level),
        (50, SuccessLevel::S),
        "Ann keeps her +10 for her next Staunch of this bleeder"
    );
}

/// Healing Sequence step 3, Coma: "subtract the Location Shock and Injury Level of the injury
/// that induced the coma from twelve". A G4E shoulder bleeder whose blood loss leaves the
/// character UNC, the bleeding stopped, then a Shock Reroll CF: coma HR 12 - 3 - 4 = 5 (the
/// bleeder induced the UNC the coma grows from), never HR12.
#[test]
fn a_coma_from_blood_loss_starts_from_the_bleeder() {
    let mut w = World::new();
    // The strike stuns (shock roll 12); the stun ends at once (stun recovery 12 vs ML65, S).
    let (t, id) = shoulder_bleeder(&mut w, 12);
    assert_eq!(w.hm(t).shock, ShockState::Stunned);
    w.at = CampaignTime(10);
    w.apply(Event::HarnMaster(HmEvent::StunRecovery(ShockRoll {
        character: t,
        roll: 12,
    })))
    .unwrap();
    assert_eq!(w.hm(t).shock, ShockState::None);
    // Blood loss CF (Strength ML60, 100): 3 BP, UNC.
    w.at = CampaignTime(5 * MINUTE);
    seq(&mut w, t, SeqRollKind::BloodLoss, Some(id), 100).unwrap();
    assert_eq!(w.hm(t).shock, ShockState::Unconscious);
    // A healer stops the bleeding at once (Physician ML40, 5: CS); the UNC character now owes
    // the Shock Reroll, ten minutes on: CF (100).
    w.at = CampaignTime(10 * MINUTE);
    let cs = staunch_by(&mut w, t, id, "Ann", 40, 5);
    assert_eq!(cs.test.unwrap().level, SuccessLevel::CS);
    assert!(!w.hm(t).bleeding());
    w.at = CampaignTime(20 * MINUTE);
    w.apply(Event::HarnMaster(HmEvent::ShockReroll(ShockRoll {
        character: t,
        roll: 100,
    })))
    .unwrap();
    let coma = w.hm(t).coma.expect("a CF while UNC: a coma");
    assert_eq!(coma.healing_rate, 5, "12 - Location Shock 3 - G4");
}

/// Healing Sequence step 2: "Personal Fatigue is accrued ... characters do not recover from
/// fatigue while suffering Extended Shock, and any accrued fatigue applies as a penalty to the
/// Course Roll"; step 3: they "recover from fatigue normally" once out of it.
#[test]
fn no_fatigue_is_recovered_during_extended_shock_and_it_weighs_on_the_course_roll() {
    let mut w = World::new();
    let t = in_extended_shock(&mut w); // HB13 x HR5 = 65
                                       // A supported half Move while INC: the GM records 10 Personal Fatigue.
    fatigue(&mut w, t, FatigueKind::Personal, 10).unwrap();
    assert_eq!(w.hm(t).fatigue(), 10);
    let err = fatigue(&mut w, t, FatigueKind::Personal, -5).unwrap_err();
    assert!(
        err.contains("do not recover from fatigue while suffering it"),
        "{err}"
    );
    let err = fatigue(&mut w, t, FatigueKind::Weariness, 0).unwrap_err();
    assert!(err.contains("changes nothing"), "{err}");
    let start = w.hm(t).extended_shock.unwrap().since;
    w.at = start.plus(4 * HOUR);
    let o = seq(&mut w, t, SeqRollKind::ExtendedShock, None, 13).unwrap();
    assert_eq!(
        o.test.unwrap().eml,
        55,
        "HB13 x HR5 = 65 - 10 personal fatigue"
    );
    // 13 is a success: HR5 rises to 6 and Extended Shock ends; recovery is recorded now.
    assert!(w.hm(t).extended_shock.is_none(), "HR rose to 6");
    fatigue(&mut w, t, FatigueKind::Personal, -5).unwrap();
    assert_eq!(w.hm(t).personal_fatigue, 5);
    let err = fatigue(&mut w, t, FatigueKind::Personal, -10).unwrap_err();
    assert!(
        err.contains("they hold 5 personal fatigue, not 10"),
        "{err}"
    );
}
