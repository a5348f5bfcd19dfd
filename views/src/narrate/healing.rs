//! HârnMaster's Healing Sequence outcomes in words: what a roll or a decision did, from the
//! figures its [`Effect`] carries.

use leechbook_core::harnmaster::healing::{CellResult, Effect, Treated, TreatmentKind};
use leechbook_core::harnmaster::state::Severity;

/// What the roll or decision did, as the GM would say it after its test.
pub(super) fn effect(e: &Effect) -> String {
    match e {
        Effect::MoveTest {
            pace,
            aggravating,
            automatic,
            stunned,
        } => {
            let stunned = stunned
                .map(|was| format!("stunned: {was} becomes {}; ", was.lowered()))
                .unwrap_or_default();
            if aggravating.is_empty() {
                format!("{stunned}{}: no aggravation", pace.word())
            } else {
                let ids: Vec<String> = aggravating.iter().map(|i| i.short()).collect();
                format!(
                    "{stunned}{}: {}: an aggravation Shock SR for injury {}",
                    pace.word(),
                    if *automatic {
                        "an automatic CF (a Grievous zone used)"
                    } else {
                        "a CF"
                    },
                    ids.join(", ")
                )
            }
        }
        Effect::Fatigue {
            kind,
            points,
            total,
        } => {
            if *points > 0 {
                format!("{points} {} fatigue gained ({total} now)", kind.word())
            } else {
                format!(
                    "{} {} fatigue recovered ({total} left)",
                    -points,
                    kind.word()
                )
            }
        }
        Effect::BloodLoss {
            points,
            total,
            stops,
        } => format!(
            "{points} BP (total {total}){}",
            if *stops { "; the bleeding stops" } else { "" }
        ),
        Effect::Stoppage {
            healer,
            bonus,
            stops,
            now,
            ..
        } => {
            if *now {
                "bleeding stopped".to_string()
            } else if *stops {
                "bleeding stops after one more blood loss roll".to_string()
            } else if *bonus > 0 {
                format!("bleeding continues (+{bonus} to {healer}'s next staunch)")
            } else {
                "bleeding continues".to_string()
            }
        }
        Effect::Treated {
            treated,
            kind,
            minutes,
            ..
        } => treatment(treated, *kind, *minutes),
        Effect::Healing {
            by,
            infect,
            level,
            aspect,
            ..
        } => {
            let code = format!(
                "{}{level}{}",
                Severity::of_level(*level).letter(),
                aspect.letter()
            );
            match level.saturating_sub(*by) {
                _ if *by == 0 && *infect => "no healing; the injury is infected".into(),
                _ if *by == 0 => "no healing this period".into(),
                0 => format!("{code} heals"),
                to => format!(
                    "{code} -> {}{to}{}",
                    Severity::of_level(to).letter(),
                    aspect.letter()
                ),
            }
        }
        Effect::Period(d3) => format!("d3 {d3} -> the healing period is {} days", d3 + 3),
        Effect::Regeneration { by, skip, left } => match (by, skip) {
            (0, true) => "no regeneration this period or the next".into(),
            (0, false) => "no regeneration".into(),
            (n, _) => format!("{n} BP regenerated ({left} left)"),
        },
        Effect::Infection { by, from } => match from + by {
            hr if hr <= 0 => "the infection kills".into(),
            hr if hr >= 6 => format!("infection HR{hr}: the infection is defeated"),
            hr => format!("infection HR{from} -> HR{hr}"),
        },
        Effect::ExtendedShock { by, from } => match from + by {
            hr if hr <= 0 => "Extended Shock kills".into(),
            hr if hr >= 6 => format!("HR{hr}: recovered from Extended Shock"),
            hr => format!("HR{from} -> HR{hr}"),
        },
        Effect::Coma { by, from } => match (from + by).max(1) {
            hr if hr >= 6 => format!("HR{hr}: the coma ends"),
            hr => format!("coma HR{from} -> HR{hr}"),
        },
        Effect::Grim {
            state,
            location_shock,
            level,
            modifier,
        } => format!(
            "SHK {location_shock}+{level}{modifier:+} = {} -> {state}",
            i32::from(*location_shock) + i32::from(*level) + modifier
        ),
        Effect::Aggravation { worse } => if *worse {
            "aggravated: HR -1"
        } else {
            "not aggravated"
        }
        .into(),
        Effect::Attend { bonus, healer, .. } => format!("{healer} attends: +{bonus}"),
    }
}

/// A treatment's cell of the TREATMENT ROLL table in words.
fn treatment(treated: &Treated, kind: TreatmentKind, minutes: i64) -> String {
    let (code, level) = (kind.code(), treated.level);
    let mut s = match treated.cell.result {
        CellResult::Hr(h) => format!("{code} ({level}): HR{h}"),
        CellResult::Heal => format!("{code} ({level}): healed"),
        CellResult::Amputated(l) => format!(
            "{code} ({level}): amputated, leaving {}{l}E",
            Severity::of_level(l).letter()
        ),
    };
    for (on, what) in [
        (treated.cell.infection, "chance of infection"),
        (treated.cell.permanent, "chance of permanent impairment"),
        (treated.cell.bleeder, "a bleeder"),
    ] {
        if on {
            s.push_str(&format!(", {what}"));
        }
    }
    s.push_str(&format!(" (takes {minutes} min)"));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use leechbook_core::harnmaster::healing::{Attended, Cell, Treated, TreatmentKind};
    use leechbook_core::harnmaster::state::{Aspect, ShockState};
    use leechbook_core::test_roll::SuccessLevel;
    use leechbook_core::time::CampaignTime;

    #[test]
    fn blood_loss_and_stoppage() {
        let loss = |points, total, stops| {
            effect(&Effect::BloodLoss {
                points,
                total,
                stops,
            })
        };
        assert_eq!(loss(2, 3, false), "2 BP (total 3)");
        assert_eq!(loss(1, 1, true), "1 BP (total 1); the bleeding stops");
        let stop = |bonus, stops, now| {
            effect(&Effect::Stoppage {
                healer: "Ann".into(),
                bonus,
                stops,
                now,
                cauterise: false,
            })
        };
        // Step 1's four rows: CF, F (+10 to the next staunch), S, CS.
        assert_eq!(stop(0, false, false), "bleeding continues");
        assert_eq!(
            stop(10, false, false),
            "bleeding continues (+10 to Ann's next staunch)"
        );
        assert_eq!(
            stop(0, true, false),
            "bleeding stops after one more blood loss roll"
        );
        assert_eq!(stop(0, false, true), "bleeding stopped");
    }

    #[test]
    fn treatment_names_its_row_marks_and_time() {
        let treated = |result, infection, permanent, bleeder| {
            Box::new(Treated {
                level: SuccessLevel::S,
                cell: Cell {
                    result,
                    infection,
                    permanent,
                    bleeder,
                },
                healers: vec![("Aldo".into(), 6)],
                best: SuccessLevel::S,
                any_cf: false,
                at: CampaignTime(0),
            })
        };
        let say = |t, kind, minutes| {
            effect(&Effect::Treated {
                treated: t,
                amputated: None,
                kind,
                minutes,
            })
        };
        assert_eq!(
            say(
                treated(CellResult::Hr(4), true, false, false),
                TreatmentKind::Surgery,
                30
            ),
            "SUR (S): HR4, chance of infection (takes 30 min)"
        );
        assert_eq!(
            say(
                treated(CellResult::Heal, false, false, false),
                TreatmentKind::CleanAndDress,
                5
            ),
            "CLN (S): healed (takes 5 min)"
        );
        assert_eq!(
            say(
                treated(CellResult::Amputated(3), false, true, true),
                TreatmentKind::Amputation,
                1
            ),
            "AMP (S): amputated, leaving S3E, chance of permanent impairment, a bleeder \
             (takes 1 min)"
        );
    }

    #[test]
    fn healing_rolls_name_the_levels() {
        let heal = |by, infect, level| {
            effect(&Effect::Healing {
                by,
                infect,
                period: None,
                level,
                aspect: Aspect::Edge,
            })
        };
        assert_eq!(heal(1, false, 3), "S3E -> S2E");
        assert_eq!(heal(2, false, 4), "G4E -> S2E");
        assert_eq!(heal(2, false, 1), "M1E heals");
        assert_eq!(heal(0, false, 2), "no healing this period");
        assert_eq!(heal(0, true, 2), "no healing; the injury is infected");
        assert_eq!(
            effect(&Effect::Period(2)),
            "d3 2 -> the healing period is 5 days"
        );
    }

    #[test]
    fn course_rolls_end_at_hr_0_and_hr_6() {
        let regen = |by, skip, left| effect(&Effect::Regeneration { by, skip, left });
        assert_eq!(regen(2, false, 1), "2 BP regenerated (1 left)");
        assert_eq!(regen(0, false, 3), "no regeneration");
        assert_eq!(regen(0, true, 3), "no regeneration this period or the next");
        let inf = |by, from| effect(&Effect::Infection { by, from });
        assert_eq!(inf(1, 3), "infection HR3 -> HR4");
        assert_eq!(inf(2, 4), "infection HR6: the infection is defeated");
        assert_eq!(inf(-2, 2), "the infection kills");
        let es = |by, from| effect(&Effect::ExtendedShock { by, from });
        assert_eq!(es(-1, 4), "HR4 -> HR3");
        assert_eq!(es(2, 5), "HR7: recovered from Extended Shock");
        assert_eq!(es(-1, 1), "Extended Shock kills");
        // A coma's HR never falls below 1 (step 3).
        let coma = |by, from| effect(&Effect::Coma { by, from });
        assert_eq!(coma(-2, 2), "coma HR2 -> HR1");
        assert_eq!(coma(1, 5), "HR6: the coma ends");
    }

    #[test]
    fn grim_aggravation_and_attendance() {
        assert_eq!(
            effect(&Effect::Grim {
                state: ShockState::Unconscious,
                location_shock: 4,
                level: 4,
                modifier: 0,
            }),
            "SHK 4+4+0 = 8 -> UNC"
        );
        assert_eq!(
            effect(&Effect::Aggravation { worse: true }),
            "aggravated: HR -1"
        );
        assert_eq!(
            effect(&Effect::Aggravation { worse: false }),
            "not aggravated"
        );
        assert_eq!(
            effect(&Effect::Attend {
                condition: Attended::Infection,
                bonus: 7,
                healer: "Aldo".into(),
            }),
            "Aldo attends: +7"
        );
    }
}
