//! Wrath & Glory outcomes in words: one phrase per step, joined by semicolons.

use leechbook_core::wrath::{MemorableResult, WgStep};

/// Narrates what a Wrath & Glory event did.
pub fn outcome(steps: &[WgStep]) -> String {
    steps.iter().map(step).collect::<Vec<_>>().join("; ")
}

fn step(s: &WgStep) -> String {
    match s {
        WgStep::Mortal { damage } => format!("{damage} Mortal Wounds"),
        WgStep::Damage {
            damage,
            resilience,
            wounds,
            shock,
        } => format!(
            "damage {damage} vs Resilience {resilience}: {wounds} Wound(s){}",
            if *shock { ", 1 Shock" } else { "" }
        ),
        WgStep::Determination {
            faces,
            icons,
            converted,
        } => format!(
            "Determination {}: {icons} Icon(s), {converted} Wound(s) become Shock",
            faces
                .iter()
                .map(u16::to_string)
                .collect::<Vec<_>>()
                .join("/")
        ),
        WgStep::Annihilated { wounds, max_wounds } => {
            format!("{wounds} Wounds from one attack > 2 x Max Wounds {max_wounds}: Annihilated")
        }
        WgStep::Dying { wounds, max_wounds } => {
            format!("{wounds} Wounds > Max Wounds {max_wounds}: Dying, prone")
        }
        WgStep::Memorable { roll, result } => match result {
            MemorableResult::New(name) => format!("Memorable Injury d6 {roll}: {name}"),
            MemorableResult::Escalates(name) => {
                format!("Memorable Injury d6 {roll}: escalates to {name}")
            }
            MemorableResult::Ignored => {
                format!("Memorable Injury d6 {roll}: already escalated, ignored")
            }
        },
        WgStep::Traumatic {
            roll,
            side,
            part,
            effect,
            dies,
        } => {
            let mut s = format!(
                "Traumatic Injury d6 {roll}: {}{part}: {effect}",
                side.as_deref().map(|x| format!("{x} ")).unwrap_or_default()
            );
            if *dies {
                s.push_str("; more Traumatic Injuries than Tier + 1: dies");
            }
            s
        }
        WgStep::Exhausted { shock, max_shock } => {
            format!("Shock {shock} > Max Shock {max_shock}: Exhausted")
        }
        WgStep::Medicae { healer, pool } => format!("{healer}'s Medicae: {pool} dice"),
        WgStep::Regroup {
            regained,
            left,
            no_longer_dying,
        } => {
            let mut s = format!("Regroup: {regained} Wound(s) regained, {left} left");
            if *no_longer_dying {
                s.push_str("; no longer Dying");
            }
            s
        }
        WgStep::Respite => "Respite: Wounds and Shock restored to zero, Wrath reset to 2".into(),
        WgStep::RestoreShock { restored, left } => {
            format!("a point of Wrath restores {restored} Shock ({left} left)")
        }
        WgStep::BothLost(b) => crate::wrath::both_lost(*b).into(),
        WgStep::Wrath { points, now } if *points > 0 => {
            format!("{points} Wrath gained ({now} now)")
        }
        WgStep::Wrath { points, now } => format!("{} Wrath spent ({now} left)", -points),
        WgStep::Strenuous => "an hour of strenuous activity: a rest begins again from now".into(),
        WgStep::Replaced { part, side } => format!(
            "a replacement for the {}{part}: its penalties are mitigated entirely",
            side.as_deref().map(|x| format!("{x} ")).unwrap_or_default()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words are those the rules module printed before its outcomes were typed.
    #[test]
    fn steps_read_as_before_joined_by_semicolons() {
        let steps = vec![
            WgStep::Damage {
                damage: 9,
                resilience: 6,
                wounds: 3,
                shock: false,
            },
            WgStep::Determination {
                faces: vec![6, 2, 4],
                icons: 3,
                converted: 3,
            },
            WgStep::Exhausted {
                shock: 5,
                max_shock: 4,
            },
        ];
        assert_eq!(
            outcome(&steps),
            "damage 9 vs Resilience 6: 3 Wound(s); Determination 6/2/4: 3 Icon(s), 3 \
             Wound(s) become Shock; Shock 5 > Max Shock 4: Exhausted"
        );
        let steps = vec![WgStep::Traumatic {
            roll: 2,
            side: Some("right".into()),
            part: "Arm".into(),
            effect: "can no longer use that arm".into(),
            dies: true,
        }];
        assert_eq!(
            outcome(&steps),
            "Traumatic Injury d6 2: right Arm: can no longer use that arm; more Traumatic \
             Injuries than Tier + 1: dies"
        );
    }
}
