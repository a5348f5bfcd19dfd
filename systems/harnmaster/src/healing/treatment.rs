//! Blood stoppage (step 1) and the Treatment Roll (step 5), with several healers and the
//! Grievous cap: checked read-only.

use super::events::{BloodStoppage, Effect, HealOutcome, Stoppage, Treatment};
use super::tables::{level_index, TreatmentKind, TreatmentTable};
use super::{check_due, eml_of, injury, not_owed, part, Label};
use crate::body::{BodyTable, ZoneKind};
use crate::shock::RollError;
use crate::state::{CellResult, HmCharacter, Injury, Severity, Treated};
use crate::test_roll::{d100_test, SuccessLevel};
use crate::time::{CampaignTime, DAY, MINUTE};
use std::borrow::Cow;

/// Checks a Blood Stoppage Roll.
pub fn check_stoppage(
    ch: &HmCharacter,
    b: &BloodStoppage,
    now: CampaignTime,
) -> Result<HealOutcome, RollError> {
    const WHAT: &str = "Blood Stoppage Roll";
    if ch.dead() {
        return Err(not_owed(ch, WHAT, "they are dead"));
    }
    let inj = injury(ch, Some(b.injury), WHAT)?;
    if !inj.bleeder || inj.healed() {
        return Err(not_owed(
            ch,
            WHAT,
            format!("{} is not a bleeder", inj.code()),
        ));
    }
    if let Some(last) = inj.heal.last_stoppage {
        check_due(ch, WHAT, last.plus(5 * MINUTE), now, b.forced)?;
    }
    let limb = matches!(inj.place.kind, Some(ZoneKind::Arm | ZoneKind::Leg));
    if b.tourniquet && (!limb || b.method != Stoppage::Staunch) {
        return Err(RollError::Roll(
            "a tourniquet helps only to staunch a limb bleeder".into(),
        ));
    }
    let mut parts = vec![part(
        Label::ml(format!("{} Physician ML", b.healer), b.physician_ml),
        b.physician_ml,
    )];
    match b.method {
        Stoppage::Cauterise => parts.push(part("cauterisation", 30)),
        Stoppage::Staunch => {
            if b.tourniquet {
                parts.push(part("tourniquet", 20));
            }
            // The +10 of a failed roll is the failing healer's own (step 1, F).
            if let Some((_, bonus)) = inj.heal.staunch_bonus.iter().find(|(h, _)| *h == b.healer) {
                parts.push(part(
                    format!("{}'s earlier failed staunch", b.healer),
                    *bonus,
                ));
            }
        }
    }
    if b.other_bleeders > 0 {
        parts.push(part("other bleeders", -10 * i32::from(b.other_bleeders)));
    }
    let test = d100_test(eml_of(&parts), b.roll);
    let (bonus, stops, now_) = match test.level {
        SuccessLevel::CF => (0, false, false),
        SuccessLevel::F => (10, false, false),
        SuccessLevel::S => (0, true, false),
        SuccessLevel::CS => (0, false, true),
    };
    Ok(HealOutcome {
        injury: Some(inj.id),
        test: Some(test),
        eml_parts: parts,
        effect: Effect::Stoppage {
            healer: b.healer.clone(),
            bonus,
            stops,
            now: now_,
            cauterise: b.method == Stoppage::Cauterise,
        },
    })
}

/// Whether `t`'s healer may treat the injury now: an open injury, the bleeding
/// stopped and no Extended Shock (unless the GM forces the roll), and a further healer one
/// who has not treated it and whose Physician Index is above every earlier healer's.
fn may_treat(ch: &HmCharacter, inj: &Injury, t: &Treatment) -> Result<(), RollError> {
    const WHAT: &str = "Treatment Roll";
    if inj.healed() {
        return Err(not_owed(
            ch,
            WHAT,
            format!("injury {} has healed", inj.id.short()),
        ));
    }
    if !t.forced {
        if ch.bleeding() {
            return Err(not_owed(
                ch,
                WHAT,
                "healers must first stop the bleeding (staunch or cauterise)",
            ));
        }
        if ch.extended_shock.is_some() {
            return Err(not_owed(ch, WHAT, "they are in Extended Shock"));
        }
    }
    if let Some(prev) = &inj.heal.treatment {
        if prev
            .healers
            .iter()
            .any(|(h, _)| h.eq_ignore_ascii_case(&t.healer))
        {
            return Err(not_owed(
                ch,
                WHAT,
                format!("{} has already treated this injury", t.healer),
            ));
        }
        let top = prev.healers.iter().map(|(_, i)| *i).max().unwrap_or(0);
        if t.physician_index <= top {
            return Err(not_owed(
                ch,
                WHAT,
                format!("a further healer needs a Physician Index above {top}, the highest so far"),
            ));
        }
    }
    Ok(())
}

/// Checks a Treatment Roll.
pub fn check_treatment(
    ch: &HmCharacter,
    t: &Treatment,
    table: &TreatmentTable,
    body: &BodyTable,
    now: CampaignTime,
) -> Result<HealOutcome, RollError> {
    const WHAT: &str = "Treatment Roll";
    if ch.dead() {
        return Err(not_owed(ch, WHAT, "they are dead"));
    }
    let inj = injury(ch, Some(t.injury), WHAT)?;
    may_treat(ch, &inj, t)?;
    let col = table.column(&inj);
    let amputable = body
        .find_location(&inj.place.location)
        .and_then(|(_, l)| l.triangle)
        .is_some()
        || body.face.as_ref().is_some_and(|f| {
            f.entries
                .iter()
                .any(|e| e.name == inj.place.location && e.triangle.is_some())
        });
    let kind = if t.amputate {
        if !amputable {
            return Err(RollError::Roll(format!(
                "the {} cannot be amputated",
                inj.place.label()
            )));
        }
        TreatmentKind::Amputation
    } else if col.treatment == TreatmentKind::Amputation && !amputable {
        return Err(not_owed(
            ch,
            WHAT,
            format!(
                "a Grievous frost injury to the {} has no treatment: it is a grim wound",
                inj.place.label()
            ),
        ));
    } else if col.treatment == TreatmentKind::Extraction && inj.level == 2 {
        TreatmentKind::CleanAndDress
    } else {
        col.treatment
    };
    let mut parts = vec![part(
        Label::ml(format!("{} Physician ML", t.healer), t.physician_ml),
        t.physician_ml,
    )];
    if col.modifier != 0 {
        parts.push(part(format!("{} difficulty", kind.code()), col.modifier));
    }
    let days = (now.0 - inj.inflicted_at.0).max(0) / DAY;
    if days > 0 {
        parts.push(part(
            Label::Figure(Cow::Borrowed(""), days as i32, " days' delay"),
            -5 * days as i32,
        ));
    }
    if kind.uses_dex() && t.dex_mod != 0 {
        parts.push(part("DEX", t.dex_mod));
    }
    if t.broadhead && inj.projectile && col.broadhead != 0 {
        parts.push(part("broadhead", col.broadhead));
    }
    if inj.area {
        parts.push(part("area injury", -20));
    }
    let test = d100_test(eml_of(&parts), t.roll);
    // Amputation as treatment (infection) uses the frost G column's results.
    let column = if kind == TreatmentKind::Amputation {
        &table.types[5].severities[2]
    } else {
        col
    };
    let prev = inj.heal.treatment.as_ref();
    let any_cf = prev.is_some_and(|p| p.any_cf) || test.level == SuccessLevel::CF;
    // The Grievous cap is each healer's own (step 5: "the maximum attainable HR for a
    // Grievous Injury equals the healer's Physician Index", or the CF HR if higher): this
    // roll is capped by this healer's Index; the earlier healers' were capped by theirs. Then
    // only the highest of those levels applies ("Only the highest Success Level applies").
    let mut mine = test.level;
    if inj.severity() == Severity::Grievous && kind != TreatmentKind::Amputation {
        let cap = t.physician_index.max(match column.cells[0].result {
            CellResult::Hr(h) => i32::from(h),
            _ => 0,
        });
        while let CellResult::Hr(h) = column.cells[level_index(mine)].result {
            if i32::from(h) <= cap || mine == SuccessLevel::CF {
                break;
            }
            mine = mine.lowered();
        }
    }
    let best = prev.map_or(mine, |p| p.best.max(mine));
    let level = if any_cf { SuccessLevel::CF } else { best };
    let cell = column.cells[level_index(level)];
    let mut healers = prev.map(|p| p.healers.clone()).unwrap_or_default();
    healers.push((t.healer.clone(), t.physician_index));
    let amputated = match cell.result {
        CellResult::Amputated(l) => Some(l),
        _ => None,
    };
    Ok(HealOutcome {
        injury: Some(inj.id),
        test: Some(test),
        eml_parts: parts,
        effect: Effect::Treated {
            treated: Box::new(Treated {
                level,
                cell,
                healers,
                best,
                any_cf,
                at: now,
            }),
            amputated,
            kind,
            minutes: kind.minutes(inj.level),
        },
    })
}
