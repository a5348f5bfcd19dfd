//! The rolls that need no healer's treatment (blood loss, healing, course rolls, regeneration,
//! infection, the grim wound's Shock Roll, aggravation) and a healer's attendance: checked
//! read-only.

use super::events::{
    Attended, Effect, FatigueChange, FatigueKind, HealOutcome, HealerAttends, MovePace, MoveTest,
    SeqRoll, SeqRollKind,
};
use super::tables::TreatmentTable;
use super::{
    check_due, eml_of, grim, healing_rate, injury, marks, not_owed, part, shift, EmlPart, Label,
};
use crate::ids::InjuryId;
use crate::injury::Context;
use crate::shock::RollError;
use crate::state::{HmCharacter, Injury, Severity, ShockState};
use crate::test_roll::{d100_test, SuccessLevel, TestResult};
use crate::time::CampaignTime;

/// Checks a Healing Sequence roll and works out its outcome.
pub fn check_seq(
    ch: &HmCharacter,
    r: &SeqRoll,
    table: &TreatmentTable,
    ctx: Context,
) -> Result<HealOutcome, RollError> {
    if ch.dead() {
        return Err(not_owed(ch, "roll", "they are dead"));
    }
    let now = ctx.at;
    match r.kind {
        SeqRollKind::BloodLoss => blood_loss(ch, r, table, now),
        SeqRollKind::Healing => healing(ch, r, table, now),
        SeqRollKind::HealingPeriod => healing_period(ch, r, table, now),
        SeqRollKind::BloodRegeneration => blood_regeneration(ch, r, table, now),
        SeqRollKind::Infection => infection(ch, r, table, now),
        SeqRollKind::ExtendedShock => extended_shock(ch, r, table, now),
        SeqRollKind::Coma => coma(ch, r, table, now),
        SeqRollKind::GrimShock => grim_shock(ch, r, table, now),
        SeqRollKind::Aggravation => aggravation(ch, r, table, now),
    }
}

/// What a Healing Sequence roll found.
fn outcome(
    injury: Option<InjuryId>,
    test: Option<TestResult>,
    eml_parts: Vec<EmlPart>,
    effect: Effect,
) -> HealOutcome {
    HealOutcome {
        injury,
        test,
        eml_parts,
        effect,
    }
}

/// A Blood Loss Advance Roll: the bleeder's Strength test.
fn blood_loss(
    ch: &HmCharacter,
    r: &SeqRoll,
    _table: &TreatmentTable,
    now: CampaignTime,
) -> Result<HealOutcome, RollError> {
    let inj = injury(ch, r.injury, "Blood Loss Advance Roll")?;
    if !inj.bleeder || inj.healed() {
        return Err(not_owed(
            ch,
            "Blood Loss Advance Roll",
            format!("{} is not a bleeder", inj.code()),
        ));
    }
    check_due(
        ch,
        "Blood Loss Advance Roll",
        inj.heal.next_blood_loss,
        now,
        r.forced,
    )?;
    let parts = if ch.sheet.beast {
        vec![part("beast Strength ML50", 50)]
    } else {
        vec![part(
            Label::ml("Strength ML", ch.sheet.strength_ml),
            ch.sheet.strength_ml,
        )]
    };
    let test = d100_test(eml_of(&parts), r.roll);
    let points = match test.level {
        SuccessLevel::CF => 3,
        SuccessLevel::F => 2,
        SuccessLevel::S => 1,
        SuccessLevel::CS => 0,
    };
    Ok(outcome(
        Some(inj.id),
        Some(test),
        parts,
        Effect::BloodLoss {
            points,
            total: ch.blood_loss.saturating_add(points),
            stops: inj.heal.stops_after_next_loss,
        },
    ))
}

/// A Healing Roll: one injury's HR test.
fn healing(
    ch: &HmCharacter,
    r: &SeqRoll,
    table: &TreatmentTable,
    now: CampaignTime,
) -> Result<HealOutcome, RollError> {
    let inj = injury(ch, r.injury, "Healing Roll")?;
    if inj.healed() {
        return Err(not_owed(
            ch,
            "Healing Roll",
            format!("injury {} has healed", inj.id.short()),
        ));
    }
    if let Some(inf) = &ch.infection {
        if !r.forced {
            return Err(not_owed(
                ch,
                "Healing Roll",
                format!(
                    "an infection (in {}) halts all healing until it is defeated",
                    ch.injury(inf.injury)
                        .map(|i| i.place.label())
                        .unwrap_or_default()
                ),
            ));
        }
    }
    if inj.heal.period_unrolled && !r.forced {
        return Err(not_owed(
            ch,
            "Healing Roll",
            "its d3+3 period is not rolled yet (roll healing-period)",
        ));
    }
    check_due(ch, "Healing Roll", inj.heal.next_healing, now, r.forced)?;
    let hr = healing_rate(&inj, table);
    let parts = vec![hb_times(ch, hr)];
    let mut test = d100_test(eml_of(&parts), r.roll);
    // Cauterised bleeders and area injuries: failures ending 3, 5, 8, 0 are CF.
    if (inj.heal.cauterised || inj.area)
        && test.level == SuccessLevel::F
        && matches!(r.roll % 10, 3 | 5 | 8 | 0)
    {
        test.level = SuccessLevel::CF;
    }
    let by = match test.level {
        SuccessLevel::CS => 2,
        SuccessLevel::S => 1,
        _ => 0,
    };
    let infect =
        test.level == SuccessLevel::CF && marks(&inj, table).infection && ch.infection.is_none();
    Ok(outcome(
        Some(inj.id),
        Some(test),
        parts,
        Effect::Healing {
            by,
            infect,
            period: r.period,
            level: inj.level,
            aspect: inj.aspect,
        },
    ))
}

/// The healing period's own die (the random healing period option).
fn healing_period(
    ch: &HmCharacter,
    r: &SeqRoll,
    _table: &TreatmentTable,
    _now: CampaignTime,
) -> Result<HealOutcome, RollError> {
    let inj = injury(ch, r.injury, "healing period roll")?;
    // A healed injury has no period left to roll, forced or not.
    if inj.healed() {
        return Err(not_owed(
            ch,
            "healing period roll",
            format!("injury {} has healed", inj.id.short()),
        ));
    }
    if !inj.heal.period_unrolled && !r.forced {
        return Err(not_owed(
            ch,
            "healing period roll",
            "its period is already set",
        ));
    }
    if !(1..=3).contains(&r.roll) {
        return Err(RollError::Roll(format!(
            "the healing period is a d3: it shows 1-3, not {}",
            r.roll
        )));
    }
    Ok(outcome(Some(inj.id), None, vec![], Effect::Period(r.roll)))
}

/// A blood regeneration roll.
fn blood_regeneration(
    ch: &HmCharacter,
    r: &SeqRoll,
    _table: &TreatmentTable,
    now: CampaignTime,
) -> Result<HealOutcome, RollError> {
    let due = ch
        .next_regeneration
        .filter(|_| ch.blood_loss > 0)
        .ok_or_else(|| {
            not_owed(
                ch,
                "blood regeneration test",
                "they have no Blood Loss Points",
            )
        })?;
    check_due(ch, "blood regeneration test", due, now, r.forced)?;
    let mut parts = vec![part(
        Label::Product(("END", ch.sheet.endurance), ("", 5)),
        ch.sheet.endurance * 5,
    )];
    let weak = ch.infection_weakness();
    if weak > 0 {
        parts.push(part("infection weakness", -weak));
    }
    let test = d100_test(eml_of(&parts), r.roll);
    let (by, skip) = match test.level {
        SuccessLevel::CS => (2, false),
        SuccessLevel::S => (1, false),
        SuccessLevel::F => (0, false),
        SuccessLevel::CF => (0, true),
    };
    Ok(outcome(
        None,
        Some(test),
        parts,
        Effect::Regeneration {
            by,
            skip,
            left: ch.blood_loss.saturating_sub(by),
        },
    ))
}

/// The base of every Healing Sequence course roll's EML: the character's Healing Base
/// times the Healing Rate rolled for.
fn hb_times(ch: &HmCharacter, hr: i32) -> EmlPart {
    part(
        Label::Product(("HB", ch.sheet.healing_base), ("HR", hr)),
        ch.sheet.healing_base * hr,
    )
}

/// An infection roll.
fn infection(
    ch: &HmCharacter,
    r: &SeqRoll,
    _table: &TreatmentTable,
    now: CampaignTime,
) -> Result<HealOutcome, RollError> {
    let inf = ch
        .infection
        .ok_or_else(|| not_owed(ch, "infection course roll", "they have no infection"))?;
    check_due(ch, "infection course roll", inf.next_roll, now, r.forced)?;
    let mut parts = vec![hb_times(ch, inf.healing_rate)];
    if ch.infection_bonus != 0 {
        parts.push(part("healer", ch.infection_bonus));
    }
    let test = d100_test(eml_of(&parts), r.roll);
    Ok(outcome(
        Some(inf.injury),
        Some(test),
        parts,
        Effect::Infection {
            by: shift(&test),
            from: inf.healing_rate,
        },
    ))
}

/// An Extended Shock course roll.
fn extended_shock(
    ch: &HmCharacter,
    r: &SeqRoll,
    _table: &TreatmentTable,
    now: CampaignTime,
) -> Result<HealOutcome, RollError> {
    let es = ch.extended_shock.ok_or_else(|| {
        not_owed(
            ch,
            "Extended Shock course roll",
            "they are not in Extended Shock",
        )
    })?;
    check_due(
        ch,
        "Extended Shock course roll",
        es.next_roll,
        now,
        r.forced,
    )?;
    let mut parts = vec![hb_times(ch, es.healing_rate)];
    if ch.fatigue() != 0 {
        parts.push(part("fatigue", -ch.fatigue()));
    }
    if ch.extended_shock_bonus != 0 {
        parts.push(part("healer", ch.extended_shock_bonus));
    }
    let test = d100_test(eml_of(&parts), r.roll);
    Ok(outcome(
        None,
        Some(test),
        parts,
        Effect::ExtendedShock {
            by: shift(&test),
            from: es.healing_rate,
        },
    ))
}

/// A coma course roll.
fn coma(
    ch: &HmCharacter,
    r: &SeqRoll,
    _table: &TreatmentTable,
    now: CampaignTime,
) -> Result<HealOutcome, RollError> {
    let coma = ch
        .coma
        .ok_or_else(|| not_owed(ch, "coma course roll", "they are not in a coma"))?;
    check_due(ch, "coma course roll", coma.next_roll, now, r.forced)?;
    let mut parts = vec![hb_times(ch, coma.healing_rate)];
    if ch.fatigue() != 0 {
        parts.push(part("fatigue", -ch.fatigue()));
    }
    if !r.sheltered {
        parts.push(part("unsheltered", -20));
    }
    let test = d100_test(eml_of(&parts), r.roll);
    Ok(outcome(
        None,
        Some(test),
        parts,
        Effect::Coma {
            by: shift(&test),
            from: coma.healing_rate,
        },
    ))
}

/// The grim wound's daily Shock Roll.
fn grim_shock(
    ch: &HmCharacter,
    r: &SeqRoll,
    _table: &TreatmentTable,
    now: CampaignTime,
) -> Result<HealOutcome, RollError> {
    let inj = injury(ch, r.injury, "grim wound Shock Roll")?;
    if !grim(&inj) {
        return Err(not_owed(
            ch,
            "grim wound Shock Roll",
            format!("{} is not a grim wound", inj.code()),
        ));
    }
    check_due(
        ch,
        "grim wound Shock Roll",
        inj.heal.next_grim,
        now,
        r.forced,
    )?;
    let mut parts = vec![part(
        Label::ml("Shock ML", ch.sheet.shock_ml),
        ch.sheet.shock_ml,
    )];
    if ch.fatigue() != 0 {
        parts.push(part("fatigue", -ch.fatigue()));
    }
    let test = d100_test(eml_of(&parts), r.roll);
    let modifier = crate::injury::shock_modifier(test.level);
    let index = i32::from(inj.location_shock) + i32::from(inj.level) + modifier;
    let state = ch.shock.escalate(ShockState::of_index(index));
    Ok(outcome(
        Some(inj.id),
        Some(test),
        parts,
        Effect::Grim {
            state,
            location_shock: inj.location_shock,
            level: inj.level,
            modifier,
        },
    ))
}

/// The Serious-injury aggravation option's check.
fn aggravation(
    ch: &HmCharacter,
    r: &SeqRoll,
    _table: &TreatmentTable,
    _now: CampaignTime,
) -> Result<HealOutcome, RollError> {
    let inj = injury(ch, r.injury, "aggravation check")?;
    if inj.healed() || inj.severity() == Severity::Minor {
        return Err(not_owed(
            ch,
            "aggravation check",
            format!("{} is not Serious or Grievous", inj.code()),
        ));
    }
    let mut parts = vec![part(
        Label::ml("Shock ML", ch.sheet.shock_ml),
        ch.sheet.shock_ml,
    )];
    if ch.fatigue() != 0 {
        parts.push(part("fatigue", -ch.fatigue()));
    }
    let test = d100_test(eml_of(&parts), r.roll);
    let worse = !test.level.is_success();
    Ok(outcome(
        Some(inj.id),
        Some(test),
        parts,
        Effect::Aggravation { worse },
    ))
}

/// Whether moving is an automatic CF for `ch`: "A character who chooses to take action
/// anyway [with a Grievous zone] automatically achieves a CF" (000, the aggravation option's
/// last paragraph; l.626), so moving on a Grievous head, torso or leg is a CF with no roll.
pub fn move_is_automatic_cf(ch: &HmCharacter) -> bool {
    use crate::body::ZoneKind;
    ch.injuries.iter().any(|i| {
        !i.healed()
            && matches!(
                i.place.kind,
                Some(ZoneKind::Head | ZoneKind::Torso | ZoneKind::Leg)
            )
            && i.severity() == Severity::Grievous
    })
}

/// Checks the aggravation option's Agility test on moving: owed while a Serious head, torso
/// or leg injury is open; a Double Move is not allowed. On a CF, every open Serious or
/// Grievous head, torso or leg injury owes an aggravation Shock SR.
pub fn check_move_test(ch: &HmCharacter, m: &MoveTest) -> Result<HealOutcome, RollError> {
    use crate::body::ZoneKind;
    let what = "Agility test on moving";
    let moving = |i: &&Injury| {
        !i.healed()
            && matches!(
                i.place.kind,
                Some(ZoneKind::Head | ZoneKind::Torso | ZoneKind::Leg)
            )
    };
    if !ch
        .injuries
        .iter()
        .filter(moving)
        .any(|i| i.severity() != Severity::Minor)
    {
        return Err(not_owed(
            ch,
            what,
            "they have no Serious or Grievous head, torso or leg injury: moving asks no Agility test",
        ));
    }
    let automatic = move_is_automatic_cf(ch);
    if m.pace == MovePace::Double {
        return Err(not_owed(
            ch,
            what,
            "Double Moves are not allowed with a Serious head, torso or leg injury (the aggravation option)",
        ));
    }
    // An automatic CF rolls no die (recorded as 0); a move recorded before that with a face
    // keeps it, as a CF.
    if m.roll == 0 && !automatic {
        return Err(not_owed(ch, what, "the Agility test needs its d100 face"));
    }
    let mut test = (m.roll != 0).then(|| d100_test(m.ml, m.roll));
    // STN: "Impaired tests (step 5) are reduced by one Success Level" (000 l.536). The move
    // test is one: it tests moving on an impaired head, torso or leg (the reading is in
    // readings.md), as `melee` lowers a stunned attacker's.
    let mut stunned = None;
    if let Some(t) = &mut test {
        if automatic {
            t.level = SuccessLevel::CF;
        } else if ch.shock == crate::state::ShockState::Stunned {
            stunned = Some(t.level);
            t.level = t.level.lowered();
        }
    }
    let cf = automatic || test.is_some_and(|t| t.level == SuccessLevel::CF);
    let aggravating = if cf {
        ch.injuries
            .iter()
            .filter(moving)
            .filter(|i| i.severity() != Severity::Minor)
            .map(|i| i.id)
            .collect()
    } else {
        vec![]
    };
    Ok(HealOutcome {
        injury: None,
        test,
        eml_parts: vec![part(Label::ml("Agility EML", m.ml), m.ml)],
        effect: Effect::MoveTest {
            pace: m.pace,
            aggravating,
            automatic,
            stunned,
        },
    })
}

/// The most fatigue one event gains or recovers (a typo past it is refused, not added up).
pub const MAX_FATIGUE_STEP: i32 = 1000;

/// `ch` cannot do `what`: `why`.
fn cannot(ch: &HmCharacter, what: &'static str, why: impl Into<String>) -> RollError {
    RollError::Cannot {
        who: ch.name.clone(),
        what,
        why: why.into(),
    }
}

/// Checks fatigue gained or recovered: no recovery during Extended Shock (step 2), none of
/// more than is held, and no change of nothing.
pub fn check_fatigue(ch: &HmCharacter, f: &FatigueChange) -> Result<HealOutcome, RollError> {
    let what = "change their fatigue so";
    let held = match f.kind {
        FatigueKind::Personal => ch.personal_fatigue,
        FatigueKind::Weariness => ch.weariness,
    };
    if ch.dead() {
        return Err(cannot(ch, what, "they are dead"));
    }
    if f.points == 0 {
        return Err(cannot(ch, what, "a change of 0 changes nothing"));
    }
    if f.points.unsigned_abs() > MAX_FATIGUE_STEP.unsigned_abs() {
        return Err(cannot(
            ch,
            what,
            format!(
                "fatigue changes by at most {MAX_FATIGUE_STEP} at once, not {}",
                f.points
            ),
        ));
    }
    if f.points < 0 && ch.extended_shock.is_some() {
        return Err(cannot(
            ch,
            what,
            "they are in Extended Shock, and characters do not recover from fatigue while suffering it (Healing Sequence step 2)",
        ));
    }
    if held.saturating_add(f.points) < 0 {
        return Err(cannot(
            ch,
            what,
            format!(
                "they hold {held} {} fatigue, not {}",
                f.kind.word(),
                -f.points
            ),
        ));
    }
    Ok(HealOutcome {
        injury: None,
        test: None,
        eml_parts: vec![],
        effect: Effect::Fatigue {
            kind: f.kind,
            points: f.points,
            total: held.saturating_add(f.points),
        },
    })
}

/// Checks a healer's attendance.
pub fn check_attends(ch: &HmCharacter, a: &HealerAttends) -> Result<HealOutcome, RollError> {
    let what = "healer's attendance";
    match a.condition {
        Attended::ExtendedShock if ch.extended_shock.is_none() => {
            return Err(not_owed(ch, what, "they are not in Extended Shock"))
        }
        Attended::Infection if ch.infection.is_none() => {
            return Err(not_owed(ch, what, "they have no infection"))
        }
        // Step 2, Treatment: "one test per healer per patient; apply single highest healer's
        // bonus". (Step 7 sets no such limit on infection: an attending healer's bonus there
        // may be tested again, the highest applying, as the text gives it.)
        Attended::ExtendedShock if ch.extended_shock_healers.contains(&a.healer) => {
            return Err(not_owed(
                ch,
                what,
                format!(
                    "{} has already tested for this Extended Shock: one test per healer per patient (Healing Sequence step 2); another healer may test, and the single highest bonus applies",
                    a.healer
                ),
            ))
        }
        _ => {}
    }
    Ok(HealOutcome {
        injury: None,
        test: None,
        eml_parts: vec![],
        effect: Effect::Attend {
            condition: a.condition,
            bonus: a.bonus,
            healer: a.healer.clone(),
        },
    })
}
