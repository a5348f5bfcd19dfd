//! Savage Worlds outcomes in words.

use leechbook_core::savage::{Attribute, Lasting, Outcome, SwOutcome};

/// Narrates what a Savage Worlds event did.
pub fn outcome(o: &SwOutcome) -> String {
    match o {
        SwOutcome::Damage {
            total,
            toughness,
            raises,
            wounds,
            incapacitated,
        } => {
            if total < toughness {
                return format!("damage {total} vs Toughness {toughness}: no effect");
            }
            let mut s = format!(
                "damage {total} vs Toughness {toughness}: {}",
                match (raises, wounds) {
                    (0, 0) => "Shaken".to_string(),
                    (0, _) => "Shaken again: 1 Wound".to_string(),
                    (r, w) => format!("{r} raise(s): Shaken and {w} Wound(s)"),
                }
            );
            if let Some(n) = incapacitated {
                s.push_str(&format!(
                    "; {n} Wounds: Incapacitated, a Vigor roll is owed"
                ));
            }
            s
        }
        SwOutcome::SpiritRecovery {
            total,
            wound_penalty,
            recovered,
        } => format!(
            "Spirit {total} ({wound_penalty} wound penalty): {}",
            if *recovered {
                "no longer Shaken"
            } else {
                "still Shaken"
            }
        ),
        SwOutcome::Incapacitation {
            total,
            injury: None,
            ..
        } => format!("Vigor {total}: critical failure: dies"),
        SwOutcome::Incapacitation {
            total,
            outcome,
            injury: Some(inj),
        } => {
            let words = match inj.lasting {
                Lasting::Permanent => "permanent, and Bleeding Out",
                Lasting::UntilHealed => "until all Wounds heal",
                Lasting::Day(_) => "for 24 hours or until all Wounds heal",
            };
            format!(
                "Vigor {total} ({outcome:?}): Injury {} {}: {} ({words})",
                inj.roll, inj.what, inj.effect
            )
        }
        SwOutcome::BleedingOut { total, outcome } => match outcome {
            Outcome::CriticalFailure | Outcome::Failure => {
                format!("Vigor {total}: fails: perishes")
            }
            Outcome::Success => format!("Vigor {total}: survives this turn"),
            Outcome::Raise => format!("Vigor {total}: a raise: stabilised"),
        },
        SwOutcome::Stabilise {
            healer,
            total,
            stabilised,
        } => format!(
            "{healer}'s Healing {total}: {}",
            if *stabilised { "stabilised" } else { "fails" }
        ),
        SwOutcome::WoundsHealed { count, left } => {
            format!("{count} Wound(s) healed: {left} left")
        }
        SwOutcome::Attributes(a) => {
            let dice: Vec<String> = Attribute::ALL
                .iter()
                .filter_map(|&x| a.get(x).map(|d| format!("{} d{d}", x.name())))
                .collect();
            format!("attribute dice recorded: {}", dice.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words are those the rules module printed before its outcomes were typed.
    #[test]
    fn damage_and_rolls_read_as_before() {
        // 14 against Toughness 6: (14 - 6) / 4 = 2 raises, 2 Wounds; the fourth Wound of a
        // Wild Card incapacitates.
        let o = SwOutcome::Damage {
            total: 14,
            toughness: 6,
            raises: 2,
            wounds: 2,
            incapacitated: Some(4),
        };
        assert_eq!(
            outcome(&o),
            "damage 14 vs Toughness 6: 2 raise(s): Shaken and 2 Wound(s); 4 Wounds: \
             Incapacitated, a Vigor roll is owed"
        );
        let o = SwOutcome::Damage {
            total: 5,
            toughness: 6,
            raises: 0,
            wounds: 0,
            incapacitated: None,
        };
        assert_eq!(outcome(&o), "damage 5 vs Toughness 6: no effect");
        let o = SwOutcome::SpiritRecovery {
            total: 3,
            wound_penalty: -2,
            recovered: false,
        };
        assert_eq!(outcome(&o), "Spirit 3 (-2 wound penalty): still Shaken");
        let o = SwOutcome::BleedingOut {
            total: 9,
            outcome: Outcome::Raise,
        };
        assert_eq!(outcome(&o), "Vigor 9: a raise: stabilised");
        let o = SwOutcome::WoundsHealed { count: 2, left: 1 };
        assert_eq!(outcome(&o), "2 Wound(s) healed: 1 left");
    }
}
