//! Witch Iron outcomes in words: one phrase per step, joined by semicolons.

use leechbook_core::witch::{Injured, WiStep};

/// Narrates what a Witch Iron event did.
pub fn outcome(steps: &[WiStep]) -> String {
    steps.iter().map(step).collect::<Vec<_>>().join("; ")
}

/// An injury as the table reads it: `left eye 4: Eye Gouge (Blind 1, Bleed 1), requires
/// surgery`.
fn injured(i: &Injured) -> String {
    format!(
        "{} {}: {} ({}){}",
        i.location,
        i.net_damage,
        i.cell.name,
        i.cell.effects,
        i.cell
            .requires
            .as_deref()
            .map(|r| format!(", requires {r}"))
            .unwrap_or_default()
    )
}

fn step(s: &WiStep) -> String {
    match s {
        WiStep::Attacked { by, net_hits } => format!("is attacked by {by}: Net Hits {net_hits:+}"),
        WiStep::GaveGroundTwice { who } => {
            format!("{who} gives ground on a second Check in a row: Prone instead")
        }
        WiStep::Fumbled { who } => format!("{who} fumbles and falls Prone"),
        WiStep::Dodged => "dodged".into(),
        WiStep::WeaponClipped => "the weapon is clipped: +1 Damage now, one less for good".into(),
        WiStep::ArmourDented { d6 } => {
            format!("the armour is dented: +{d6} AV now, one less for good")
        }
        WiStep::NetDamage {
            weapon,
            hits,
            av,
            rb,
            critical,
            net,
        } => format!(
            "Net Damage ({weapon} + {hits}) - ({av} + {rb}){} = {net}",
            if *critical > 0 {
                format!(" + {critical} critical")
            } else {
                String::new()
            }
        ),
        WiStep::Unhurt { who: Some(who) } => format!("{who} unhurt"),
        WiStep::Unhurt { who: None } => "no injury".into(),
        WiStep::Injured {
            who: Some(who),
            injury,
        } => format!("{who}: {}", injured(injury)),
        WiStep::Injured { who: None, injury } => injured(injury),
        WiStep::HardshipSpared { d6, rating } => {
            format!("d6 {d6} over Aflame/Bleed/Poison {rating}: nothing this round")
        }
        WiStep::Hardship {
            d6,
            rating,
            hits,
            dies,
        } => format!(
            "d6 {d6} within {rating}: Hardship {hits} Hits vs {rating}: {}",
            if *dies {
                "dies"
            } else {
                "all Aflame, Bleed and Poison removed"
            }
        ),
        WiStep::ConditionRemoved { condition, by } => {
            format!("{} removed ({by})", condition.word())
        }
        WiStep::ConditionChanged {
            condition,
            delta,
            by,
            now,
        } => format!("{} {delta:+} ({by}): now {now}", condition.word()),
        WiStep::TableDefined { part } => format!("{part} table defined"),
        WiStep::Cared {
            care,
            location,
            by,
            ended,
        } => format!(
            "{} for the {location} ({by}): {} removed",
            care.word(),
            ended.join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use leechbook_core::witch::{Care, Cell};

    /// The words are those the rules module printed before its outcomes were typed.
    #[test]
    fn a_quarrel_and_care_read_as_before() {
        let steps = vec![
            WiStep::Attacked {
                by: "Greta".into(),
                net_hits: 2,
            },
            WiStep::NetDamage {
                weapon: 4,
                hits: 2,
                av: 1,
                rb: 1,
                critical: 3,
                net: 7,
            },
            WiStep::Injured {
                who: Some("Hans".into()),
                injury: Injured {
                    location: "left eye".into(),
                    net_damage: 7,
                    cell: Cell {
                        name: "Eye Gouge".into(),
                        effects: "Lost Eye".into(),
                        requires: Some("surgery".into()),
                    },
                },
            },
        ];
        assert_eq!(
            outcome(&steps),
            "is attacked by Greta: Net Hits +2; Net Damage (4 + 2) - (1 + 1) + 3 critical = \
             7; Hans: left eye 7: Eye Gouge (Lost Eye), requires surgery"
        );
        let steps = vec![WiStep::Cared {
            care: Care::Surgery,
            location: "left eye".into(),
            by: "Doktor".into(),
            ended: vec!["Lost Eye".into()],
        }];
        assert_eq!(
            outcome(&steps),
            "surgery for the left eye (Doktor): Lost Eye removed"
        );
    }
}
