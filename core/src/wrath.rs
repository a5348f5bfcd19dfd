//! Wrath & Glory (rules text 002): damage against Resilience into Wounds and Shock,
//! Determination, Max Wounds, Wounded, Dying with Memorable and Traumatic Injuries,
//! Annihilation, Mortal Wounds, Exhausted, and recovery by Regroup and Respite.
//!
//! ## Readings
//! - Determination rolls one d6 per point of Toughness; 4-5 is an Icon and 6 an exalted Icon
//!   worth two (the game's dice-pool rule; the text says only "every Icon").
//! - Annihilation compares the Wounds the attack inflicts *after* Determination.
//! - "Wounds > Max Wounds" is Dying: reaching Max Wounds exactly is not.
//! - A Wound taken while Dying is a Traumatic Injury instead (one per attack); more Traumatic
//!   Injuries than Tier + 1 kill.
//! - A Memorable Injury already suffered escalates once; after that a repeat is ignored.

use crate::dice::Die;
use crate::harnmaster::injury::{DiceSource, StrikeError};
use crate::ids::CharacterId;
use crate::time::CampaignTime;
use serde::{Deserialize, Serialize};

/// A character's sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WgSheet {
    /// Tier.
    pub tier: i32,
    /// Toughness (Determination dice, and Max Wounds).
    pub toughness: i32,
    /// Resilience.
    pub resilience: i32,
    /// Max Shock.
    pub max_shock: i32,
    /// Rank (restoring Shock).
    pub rank: i32,
}

/// A Memorable Injury suffered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Memorable {
    /// The table row (1-5: 1-2, 3, 4, 5, 6).
    pub row: u8,
    /// Its name (escalated, if it escalated).
    pub name: String,
    /// It has escalated.
    pub escalated: bool,
}

/// A Traumatic Injury.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Traumatic {
    /// Hand, Arm, Foot, Leg, Torso or Eye.
    pub part: String,
    /// Left or right (none for the torso).
    pub side: Option<String>,
    /// Its effect.
    pub effect: String,
}

/// A Wrath & Glory character's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WgCharacter {
    /// Id.
    pub id: CharacterId,
    /// Name.
    pub name: String,
    /// Sheet.
    pub sheet: WgSheet,
    /// Wounds.
    pub wounds: i32,
    /// Shock.
    pub shock: i32,
    /// Dying (and prone).
    pub dying: bool,
    /// Memorable Injuries.
    pub memorable: Vec<Memorable>,
    /// Traumatic Injuries.
    pub traumatic: Vec<Traumatic>,
    /// Death, and how.
    pub death: Option<(String, CampaignTime)>,
}

impl WgCharacter {
    /// A fresh character.
    pub fn new(id: CharacterId, name: String, sheet: WgSheet) -> WgCharacter {
        WgCharacter {
            id,
            name,
            sheet,
            wounds: 0,
            shock: 0,
            dying: false,
            memorable: vec![],
            traumatic: vec![],
            death: None,
        }
    }

    /// Max Wounds = Tier x 2 + Toughness.
    pub fn max_wounds(&self) -> i32 {
        self.sheet.tier * 2 + self.sheet.toughness
    }

    /// Wounded: any Wounds, +1 DN to all tests.
    pub fn wounded(&self) -> bool {
        self.wounds > 0
    }

    /// Exhausted: more Shock than Max Shock.
    pub fn exhausted(&self) -> bool {
        self.shock > self.sheet.max_shock
    }

    /// Wrath Dice that replace pool dice on tests while Dying.
    pub fn wrath_dice(&self) -> usize {
        if self.dying {
            self.traumatic.len()
        } else {
            0
        }
    }
}

/// Wrath & Glory events. **Frozen format**: add variants only at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WgEvent {
    /// An attack's damage; `dice` holds `determination` (one d6 per Toughness), and as
    /// needed `memorable`, `traumatic` and `side` d6s.
    Damage {
        /// Who.
        character: CharacterId,
        /// The damage.
        damage: i32,
        /// Mortal Wounds: ignore Resilience and Determination.
        mortal: bool,
        /// The dice.
        dice: Vec<crate::harnmaster::injury::RecordedDie>,
    },
    /// A complication on a Wrath Die while Dying: a Traumatic Injury (`traumatic`, `side`).
    DyingComplication {
        /// Who.
        character: CharacterId,
        /// The dice.
        dice: Vec<crate::harnmaster::injury::RecordedDie>,
    },
    /// A Regroup (one hour): a Medicae healer restores Wounds.
    Regroup {
        /// Who.
        character: CharacterId,
        /// Wounds regained (the healer's Medicae dice pool).
        regained: i32,
    },
    /// A Respite (six hours): Wounds and Shock to zero.
    Respite {
        /// Who.
        character: CharacterId,
    },
    /// A Combat Action and a point of Wrath: restore Rank + Tier Shock.
    RestoreShock {
        /// Who.
        character: CharacterId,
    },
}

impl WgEvent {
    /// The character.
    pub fn character(&self) -> CharacterId {
        match self {
            WgEvent::Damage { character, .. }
            | WgEvent::DyingComplication { character, .. }
            | WgEvent::Regroup { character, .. }
            | WgEvent::Respite { character }
            | WgEvent::RestoreShock { character } => *character,
        }
    }

    /// The kind.
    pub fn kind(&self) -> &'static str {
        match self {
            WgEvent::Damage { .. } => "wg.damage",
            WgEvent::DyingComplication { .. } => "wg.dying-complication",
            WgEvent::Regroup { .. } => "wg.regroup",
            WgEvent::Respite { .. } => "wg.respite",
            WgEvent::RestoreShock { .. } => "wg.restore-shock",
        }
    }

    /// The recorded dice, for events that roll.
    pub fn dice(&self) -> &[crate::harnmaster::injury::RecordedDie] {
        match self {
            WgEvent::Damage { dice, .. } | WgEvent::DyingComplication { dice, .. } => dice,
            _ => &[],
        }
    }
}

/// Why an event cannot apply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WgError {
    /// A die.
    #[error(transparent)]
    Dice(#[from] StrikeError),
    /// Not allowed now.
    #[error("{0}")]
    Refused(String),
}

const MEMORABLE: [(&str, &str); 5] = [
    ("Battle Scar", "Missing Fingers"),
    ("Focused Burn", "Severe Burn"),
    ("Broken Jaw", "Cut Tongue"),
    ("Twitch", "Bad Knee"),
    ("Torn Ear", "Nagging Wound"),
];

fn d6(dice: &mut dyn DiceSource, name: &'static str) -> Result<u16, WgError> {
    Ok(dice.faces(name, Die::D6, 1)?[0])
}

fn memorable(ch: &mut WgCharacter, roll: u16) -> String {
    let row = match roll {
        1 | 2 => 0u8,
        3 => 1,
        4 => 2,
        5 => 3,
        _ => 4,
    };
    match ch.memorable.iter_mut().find(|m| m.row == row) {
        Some(m) if !m.escalated => {
            m.escalated = true;
            m.name = MEMORABLE[usize::from(row)].1.to_string();
            format!("Memorable Injury d6 {roll}: escalates to {}", m.name)
        }
        Some(_) => format!("Memorable Injury d6 {roll}: already escalated, ignored"),
        None => {
            let name = MEMORABLE[usize::from(row)].0.to_string();
            ch.memorable.push(Memorable {
                row,
                name: name.clone(),
                escalated: false,
            });
            format!("Memorable Injury d6 {roll}: {name}")
        }
    }
}

fn traumatic(
    ch: &mut WgCharacter,
    dice: &mut dyn DiceSource,
    now: CampaignTime,
) -> Result<String, WgError> {
    let roll = d6(dice, "traumatic")?;
    let (part, effect) = match roll {
        1 => ("Hand", "can no longer use that hand"),
        2 => ("Arm", "can no longer use that arm"),
        3 => ("Foot", "a severe foot injury"),
        4 => ("Leg", "a severe leg injury"),
        5 => ("Torso", "organs impaired: Toughness tests at least +1 DN"),
        _ => ("Eye", "an eye damaged beyond repair (+2 DN to sight)"),
    };
    let side = if part == "Torso" {
        None
    } else {
        Some(
            if d6(dice, "side")? <= 3 {
                "left"
            } else {
                "right"
            }
            .to_string(),
        )
    };
    let mut s = format!(
        "Traumatic Injury d6 {roll}: {}{part}: {effect}",
        side.as_deref().map(|x| format!("{x} ")).unwrap_or_default()
    );
    ch.traumatic.push(Traumatic {
        part: part.into(),
        side,
        effect: effect.into(),
    });
    if ch.traumatic.len() as i32 > ch.sheet.tier + 1 {
        ch.death = Some(("more Traumatic Injuries than Tier + 1".into(), now));
        s.push_str("; more Traumatic Injuries than Tier + 1: dies");
    }
    Ok(s)
}

/// Applies an event; on error the character is left as it was (the caller applies to a copy).
pub fn apply(
    ch: &mut WgCharacter,
    e: &WgEvent,
    dice: &mut dyn DiceSource,
    now: CampaignTime,
) -> Result<String, WgError> {
    if ch.death.is_some() {
        return Err(WgError::Refused(format!("{} is dead", ch.name)));
    }
    Ok(match e {
        WgEvent::Damage { damage, mortal, .. } => {
            let r = ch.sheet.resilience;
            let mut parts = Vec::new();
            let (mut wounds, mut shock) = if *mortal {
                (*damage, 0)
            } else if *damage > r {
                (damage - r, 0)
            } else if *damage == r {
                (0, 1)
            } else {
                (0, 0)
            };
            parts.push(if *mortal {
                format!("{damage} Mortal Wounds")
            } else {
                format!(
                    "damage {damage} vs Resilience {r}: {wounds} Wound(s){}",
                    if shock > 0 { ", 1 Shock" } else { "" }
                )
            });
            if wounds > 0 && !*mortal {
                let n = ch.sheet.toughness.max(0) as usize;
                let faces = dice.faces("determination", Die::D6, n)?;
                let icons: i32 = faces
                    .iter()
                    .map(|&f| match f {
                        4 | 5 => 1,
                        6 => 2,
                        _ => 0,
                    })
                    .sum();
                let converted = icons.min(wounds);
                wounds -= converted;
                shock += converted;
                parts.push(format!(
                    "Determination {}: {icons} Icon(s), {converted} Wound(s) become Shock",
                    faces
                        .iter()
                        .map(u16::to_string)
                        .collect::<Vec<_>>()
                        .join("/")
                ));
            }
            ch.shock += shock;
            if wounds > 2 * ch.max_wounds() {
                ch.wounds += wounds;
                ch.death = Some(("Annihilated".into(), now));
                parts.push(format!(
                    "{wounds} Wounds from one attack > 2 x Max Wounds {}: Annihilated",
                    ch.max_wounds()
                ));
            } else if wounds > 0 && ch.dying {
                parts.push(traumatic(ch, dice, now)?);
            } else {
                ch.wounds += wounds;
                if ch.wounds > ch.max_wounds() && !ch.dying {
                    ch.dying = true;
                    parts.push(format!(
                        "{} Wounds > Max Wounds {}: Dying, prone",
                        ch.wounds,
                        ch.max_wounds()
                    ));
                    let roll = d6(dice, "memorable")?;
                    parts.push(memorable(ch, roll));
                }
            }
            if ch.exhausted() {
                parts.push(format!(
                    "Shock {} > Max Shock {}: Exhausted",
                    ch.shock, ch.sheet.max_shock
                ));
            }
            parts.join("; ")
        }
        WgEvent::DyingComplication { .. } => {
            if !ch.dying {
                return Err(WgError::Refused(format!("{} is not Dying", ch.name)));
            }
            traumatic(ch, dice, now)?
        }
        WgEvent::Regroup { regained, .. } => {
            if *regained < 0 {
                return Err(WgError::Refused(
                    "Wounds regained cannot be negative".into(),
                ));
            }
            ch.wounds = (ch.wounds - regained).max(0);
            let mut s = format!("Regroup: {regained} Wound(s) regained, {} left", ch.wounds);
            if *regained > 0 && ch.dying {
                ch.dying = false;
                s.push_str("; no longer Dying");
            }
            s
        }
        WgEvent::Respite { .. } => {
            if ch.dying {
                return Err(WgError::Refused(format!(
                    "{} is Dying and cannot Respite",
                    ch.name
                )));
            }
            ch.wounds = 0;
            ch.shock = 0;
            "Respite: Wounds and Shock restored to zero, Wrath reset to 2".into()
        }
        WgEvent::RestoreShock { .. } => {
            let n = ch.sheet.rank + ch.sheet.tier;
            ch.shock = (ch.shock - n).max(0);
            format!("a point of Wrath restores {n} Shock ({} left)", ch.shock)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harnmaster::injury::{RecordedDice, RecordedDie};
    use uuid::Uuid;

    fn ch() -> WgCharacter {
        WgCharacter::new(
            CharacterId(Uuid::from_u128(1)),
            "Vex".into(),
            WgSheet {
                tier: 1,
                toughness: 3,
                resilience: 6,
                max_shock: 4,
                rank: 1,
            },
        )
    }

    fn d(list: &[(&str, &[u16])]) -> Vec<RecordedDie> {
        list.iter()
            .map(|(n, f)| RecordedDie {
                name: n.to_string(),
                faces: f.to_vec(),
            })
            .collect()
    }

    fn hit(c: &mut WgCharacter, damage: i32, dice: &[(&str, &[u16])]) -> Result<String, WgError> {
        let dice = d(dice);
        let e = WgEvent::Damage {
            character: c.id,
            damage,
            mortal: false,
            dice: dice.clone(),
        };
        let mut copy = c.clone();
        let r = apply(&mut copy, &e, &mut RecordedDice(&dice), CampaignTime::START);
        if r.is_ok() {
            *c = copy;
        }
        r
    }

    #[test]
    fn resilience_shock_wounds_and_determination() {
        let mut c = ch();
        hit(&mut c, 5, &[]).unwrap();
        assert_eq!((c.wounds, c.shock), (0, 0));
        hit(&mut c, 6, &[]).unwrap();
        assert_eq!((c.wounds, c.shock), (0, 1), "equal to Resilience: 1 Shock");
        // 9 - 6 = 3 Wounds; Determination 3d6: 6 (2 icons), 2, 4 (1): all 3 become Shock.
        hit(&mut c, 9, &[("determination", &[6, 2, 4])]).unwrap();
        assert_eq!((c.wounds, c.shock), (0, 4));
        assert!(!c.exhausted(), "4 is Max Shock: not over it");
        hit(&mut c, 6, &[]).unwrap();
        assert!(c.exhausted());
    }

    #[test]
    fn reaching_max_wounds_is_not_dying_exceeding_it_is() {
        let mut c = ch(); // Max Wounds 1 x 2 + 3 = 5
        hit(&mut c, 11, &[("determination", &[1, 1, 1])]).unwrap();
        assert_eq!(c.wounds, 5);
        assert!(!c.dying && c.wounded());
        hit(
            &mut c,
            7,
            &[("determination", &[1, 2, 3]), ("memorable", &[3])],
        )
        .unwrap();
        assert!(c.dying);
        assert_eq!(c.memorable[0].name, "Focused Burn");
        // Wounds while Dying: a Traumatic Injury instead.
        hit(
            &mut c,
            8,
            &[
                ("determination", &[1, 1, 1]),
                ("traumatic", &[2]),
                ("side", &[5]),
            ],
        )
        .unwrap();
        assert_eq!(c.traumatic[0].part, "Arm");
        assert_eq!(c.traumatic[0].side.as_deref(), Some("right"));
        assert_eq!(c.wrath_dice(), 1);
        // Tier 1 + 1 = 2: a third Traumatic Injury kills.
        hit(
            &mut c,
            8,
            &[("determination", &[1, 1, 1]), ("traumatic", &[5])],
        )
        .unwrap();
        assert!(c.death.is_none());
        hit(
            &mut c,
            8,
            &[
                ("determination", &[1, 1, 1]),
                ("traumatic", &[6]),
                ("side", &[1]),
            ],
        )
        .unwrap();
        assert!(c.death.is_some());
    }

    #[test]
    fn memorable_injuries_escalate_once() {
        let mut c = ch();
        assert!(memorable(&mut c, 1).contains("Battle Scar"));
        assert!(memorable(&mut c, 2).contains("escalates to Missing Fingers"));
        assert!(memorable(&mut c, 1).contains("ignored"));
        assert_eq!(c.memorable.len(), 1);
    }

    #[test]
    fn annihilation_and_mortal_wounds_and_recovery() {
        let mut c = ch();
        let e = WgEvent::Damage {
            character: c.id,
            damage: 11,
            mortal: true,
            dice: vec![],
        };
        apply(&mut c, &e, &mut RecordedDice(&[]), CampaignTime::START).unwrap();
        assert_eq!(
            c.death.as_ref().map(|d| d.0.as_str()),
            Some("Annihilated"),
            "11 > 2 x 5"
        );
        let mut c = ch();
        hit(
            &mut c,
            12,
            &[("determination", &[1, 1, 1]), ("memorable", &[6])],
        )
        .unwrap(); // 6 Wounds: Dying
        assert!(c.dying);
        let r = apply(
            &mut c.clone(),
            &WgEvent::Respite { character: c.id },
            &mut RecordedDice(&[]),
            CampaignTime::START,
        );
        assert!(r.is_err(), "no Respite while Dying");
        let id = c.id;
        apply(
            &mut c,
            &WgEvent::Regroup {
                character: id,
                regained: 2,
            },
            &mut RecordedDice(&[]),
            CampaignTime::START,
        )
        .unwrap();
        assert!(!c.dying && c.wounds == 4);
        apply(
            &mut c,
            &WgEvent::Respite { character: id },
            &mut RecordedDice(&[]),
            CampaignTime::START,
        )
        .unwrap();
        assert_eq!((c.wounds, c.shock), (0, 0));
    }
}
