//! Wrath & Glory (rules text 002): damage against Resilience into Wounds and Shock,
//! Determination, Max Wounds, Wounded, Dying with Memorable and Traumatic Injuries,
//! Annihilation, Mortal Wounds, Exhausted, and recovery by Regroup and Respite.
//!
#![doc = include_str!("readings.md")]
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

/// The kernel's modules this system reads, at the paths its modules name them by.
pub(crate) use leechbook_kernel::{dice, ids, time};

use crate::dice::Die;
use crate::dice::{DiceError, DiceSource};
use crate::ids::CharacterId;
use crate::time::CampaignTime;
use serde::{Deserialize, Serialize};

pub mod amend;
mod rest;
pub mod system;

use rest::{regroup, respite, rested, restore_shock};

/// Leechbook's readings of the text (this module's documentation, `table show readings`).
pub const READINGS: &str = include_str!("readings.md");

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
    /// A replacement was acquired: its penalties are mitigated entirely.
    pub replaced: bool,
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
    /// Wrath points (2 at the start and after a Respite).
    pub wrath: i32,
    /// A Respite counts from here: the last Wound, Traumatic Injury, strenuous hour or
    /// Respite.
    pub rest_from: Option<CampaignTime>,
    /// The last Regroup (a Regroup is an hour of rest after this and `rest_from`).
    pub regrouped: Option<CampaignTime>,
    /// When this character last healed another with Medicae during a Regroup (one patient a
    /// Regroup, 002 l.63).
    #[serde(default)]
    pub medicae_at: Option<CampaignTime>,
}

/// The most Wrath one event gains or spends (the game's pools are a few points).
pub const MAX_WRATH_STEP: i32 = 100;

/// The hours of rest a Regroup needs.
pub const REGROUP_HOURS: i64 = 1;
/// The hours of rest a Respite needs.
pub const RESPITE_HOURS: i64 = 6;
/// The Wrath a Respite resets to (and a character starts with).
pub const WRATH_AT_RESPITE: i32 = 2;

/// A part lost on both sides, and what it means (rules text 002, Traumatic Injury).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BothLost {
    /// Both hands or arms: unable to hold any weapons or similar gear.
    Hands,
    /// Both feet or legs: unable to walk, Run or Sprint; may only Crawl.
    Legs,
    /// Both eyes: Blinded.
    Eyes,
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
            wrath: WRATH_AT_RESPITE,
            rest_from: None,
            regrouped: None,
            medicae_at: None,
        }
    }

    /// The parts lost on both sides (a replaced part is not lost).
    pub fn both_lost(&self) -> Vec<BothLost> {
        let lost = |parts: &[&str], side: &str| {
            self.traumatic.iter().any(|t| {
                !t.replaced && parts.contains(&t.part.as_str()) && t.side.as_deref() == Some(side)
            })
        };
        [
            (BothLost::Hands, &["Hand", "Arm"][..]),
            (BothLost::Legs, &["Foot", "Leg"][..]),
            (BothLost::Eyes, &["Eye"][..]),
        ]
        .into_iter()
        .filter(|(_, parts)| lost(parts, "left") && lost(parts, "right"))
        .map(|(b, _)| b)
        .collect()
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
        dice: Vec<crate::dice::RecordedDie>,
    },
    /// A complication on a Wrath Die while Dying: a Traumatic Injury (`traumatic`, `side`).
    DyingComplication {
        /// Who.
        character: CharacterId,
        /// The dice.
        dice: Vec<crate::dice::RecordedDie>,
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
    /// A Combat Action and a point of Wrath: restore Rank + Tier Shock. Recorded before
    /// Wrath was counted: applies with no Wrath left too (see [`WgEvent::SpendWrath`]).
    RestoreShock {
        /// Who.
        character: CharacterId,
    },
    /// Wrath gained (a Wrath Critical, a GM's award) or, negative, spent on what the text
    /// leaves to the table.
    Wrath {
        /// Who.
        character: CharacterId,
        /// Points gained (negative: spent).
        points: i32,
    },
    /// A Combat Action and a point of Wrath: restore Rank + Tier Shock; refused with no Wrath.
    SpendWrath {
        /// Who.
        character: CharacterId,
    },
    /// An hour or more of strenuous activity: a rest begins again.
    Strenuous {
        /// Who.
        character: CharacterId,
    },
    /// A Regroup after an hour's rest: a Medicae healer restores Wounds.
    RestedRegroup {
        /// Who.
        character: CharacterId,
        /// Wounds regained (the healer's Medicae dice pool).
        regained: i32,
    },
    /// A Respite after six hours' rest: Wounds and Shock to zero, Wrath to 2.
    RestedRespite {
        /// Who.
        character: CharacterId,
    },
    /// A replacement for a Traumatic Injury's part (a bionic, a prosthetic): its penalties are
    /// mitigated entirely.
    Replacement {
        /// Who.
        character: CharacterId,
        /// The part (Hand, Arm, Foot, Leg, Torso, Eye).
        part: String,
        /// The side, for a part with one.
        side: Option<String>,
    },
    /// A Regroup after an hour's rest in which a healer with a Medicae rating heals the
    /// character: "They regain Wounds equal to your Medicae (Int) dice pool" (002 l.63-64).
    /// A healer heals a single character during a Regroup.
    MedicaeRegroup {
        /// Who is healed.
        character: CharacterId,
        /// The healer's name.
        healer: String,
        /// The healer, when a character of the campaign (held to one patient a Regroup).
        by: Option<CharacterId>,
        /// The healer's Medicae (Int) dice pool: the Wounds regained.
        pool: i32,
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
            | WgEvent::RestoreShock { character }
            | WgEvent::Wrath { character, .. }
            | WgEvent::SpendWrath { character }
            | WgEvent::Strenuous { character }
            | WgEvent::RestedRegroup { character, .. }
            | WgEvent::RestedRespite { character }
            | WgEvent::Replacement { character, .. }
            | WgEvent::MedicaeRegroup { character, .. } => *character,
        }
    }

    /// The kind.
    pub fn kind(&self) -> &'static str {
        match self {
            WgEvent::Damage { .. } => "wg.damage",
            WgEvent::DyingComplication { .. } => "wg.dying-complication",
            WgEvent::Regroup { .. } | WgEvent::RestedRegroup { .. } => "wg.regroup",
            // Its own kind: it reaches the healer too (`REACHING`), which no other Regroup does.
            WgEvent::MedicaeRegroup { .. } => "wg.medicae",
            WgEvent::Respite { .. } | WgEvent::RestedRespite { .. } => "wg.respite",
            WgEvent::RestoreShock { .. } | WgEvent::SpendWrath { .. } => "wg.restore-shock",
            WgEvent::Wrath { .. } => "wg.wrath",
            WgEvent::Strenuous { .. } => "wg.strenuous",
            WgEvent::Replacement { .. } => "wg.replacement",
        }
    }

    /// The recorded dice, for events that roll.
    pub fn dice(&self) -> &[crate::dice::RecordedDie] {
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
    Dice(#[from] DiceError),
    /// Not allowed now.
    #[error("{0}")]
    Refused(String),
    /// A rest taken before its hours of rest have passed.
    #[error(
        "{name}'s {rest} needs {hours} hour(s) of rest since {from} (the last Wound, strenuous \
         hour or rest); it is {now}: {} more",
        crate::time::format_duration(*more)
    )]
    TooSoon {
        /// Who.
        name: String,
        /// Regroup or Respite.
        rest: &'static str,
        /// The hours it needs.
        hours: i64,
        /// Rest counts from here.
        from: CampaignTime,
        /// The time of the rest.
        now: CampaignTime,
        /// Seconds still to pass.
        more: i64,
    },
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

/// Why a Wrath & Glory event does not apply: the rules' refusal, or a recorded die its
/// sequence does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WgApplyError {
    /// The rules refused.
    #[error(transparent)]
    Rules(#[from] WgError),
    /// A recorded die.
    #[error(transparent)]
    Dice(#[from] DiceError),
}

/// What a Wrath & Glory event did, step by step: the numbers and results the rules found,
/// which the CLI puts into words (the core formats no prose).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WgStep {
    /// Mortal Wounds, which Resilience does not reduce.
    Mortal {
        /// How many.
        damage: i32,
    },
    /// Damage against Resilience.
    Damage {
        /// The damage.
        damage: i32,
        /// The character's Resilience.
        resilience: i32,
        /// Wounds before Determination.
        wounds: i32,
        /// Whether it dealt 1 Shock (damage equal to Resilience).
        shock: bool,
    },
    /// The Determination roll.
    Determination {
        /// The faces rolled.
        faces: Vec<u16>,
        /// Icons among them.
        icons: i32,
        /// Wounds that became Shock.
        converted: i32,
    },
    /// More Wounds from one attack than twice Max Wounds.
    Annihilated {
        /// The Wounds.
        wounds: i32,
        /// Max Wounds.
        max_wounds: i32,
    },
    /// More Wounds than Max Wounds: Dying, prone.
    Dying {
        /// The Wounds now.
        wounds: i32,
        /// Max Wounds.
        max_wounds: i32,
    },
    /// The Memorable Injury roll.
    Memorable {
        /// The d6.
        roll: u16,
        /// What it did.
        result: MemorableResult,
    },
    /// A Traumatic Injury.
    Traumatic {
        /// The d6.
        roll: u16,
        /// The side, for a hand, arm, foot, leg or eye.
        side: Option<String>,
        /// The part.
        part: String,
        /// Its effect.
        effect: String,
        /// Whether it was one more than Tier + 1, which kills.
        dies: bool,
    },
    /// More Shock than Max Shock: Exhausted.
    Exhausted {
        /// Shock now.
        shock: i32,
        /// Max Shock.
        max_shock: i32,
    },
    /// A healer's Medicae during a Regroup (the Regroup step follows).
    Medicae {
        /// The healer.
        healer: String,
        /// Their Medicae (Int) dice pool.
        pool: i32,
    },
    /// A Regroup.
    Regroup {
        /// Wounds regained.
        regained: i32,
        /// Wounds left.
        left: i32,
        /// Whether it ended Dying.
        no_longer_dying: bool,
    },
    /// A Respite: Wounds and Shock to zero, Wrath to 2.
    Respite,
    /// A point of Wrath spent to restore Shock.
    RestoreShock {
        /// Shock restored (Rank + Tier).
        restored: i32,
        /// Shock left.
        left: i32,
    },
    /// A part now lost on both sides.
    BothLost(BothLost),
    /// Wrath gained or spent.
    Wrath {
        /// Points gained (negative: spent).
        points: i32,
        /// Wrath now.
        now: i32,
    },
    /// An hour of strenuous activity: rest begins again.
    Strenuous,
    /// A replacement mitigates a Traumatic Injury.
    Replaced {
        /// The part.
        part: String,
        /// The side.
        side: Option<String>,
    },
}

/// What the Memorable Injury roll did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MemorableResult {
    /// A new Memorable Injury.
    New(String),
    /// The same row again: it escalates.
    Escalates(String),
    /// The same row, already escalated: ignored.
    Ignored,
}

fn memorable(ch: &mut WgCharacter, roll: u16) -> WgStep {
    let row = match roll {
        1 | 2 => 0u8,
        3 => 1,
        4 => 2,
        5 => 3,
        _ => 4,
    };
    let result = match ch.memorable.iter_mut().find(|m| m.row == row) {
        Some(m) if !m.escalated => {
            m.escalated = true;
            m.name = MEMORABLE[usize::from(row)].1.to_string();
            MemorableResult::Escalates(m.name.clone())
        }
        Some(_) => MemorableResult::Ignored,
        None => {
            let name = MEMORABLE[usize::from(row)].0.to_string();
            ch.memorable.push(Memorable {
                row,
                name: name.clone(),
                escalated: false,
            });
            MemorableResult::New(name)
        }
    };
    WgStep::Memorable { roll, result }
}

fn traumatic(
    ch: &mut WgCharacter,
    dice: &mut dyn DiceSource,
    now: CampaignTime,
) -> Result<Vec<WgStep>, WgError> {
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
    let lost_before = ch.both_lost();
    ch.traumatic.push(Traumatic {
        part: part.into(),
        side: side.clone(),
        effect: effect.into(),
        replaced: false,
    });
    ch.rest_from = Some(now);
    let newly_lost = ch
        .both_lost()
        .into_iter()
        .find(|b| !lost_before.contains(b));
    let dies = ch.traumatic.len() as i32 > ch.sheet.tier + 1;
    if dies {
        ch.death = Some(("more Traumatic Injuries than Tier + 1".into(), now));
    }
    let mut steps = vec![WgStep::Traumatic {
        roll,
        side,
        part: part.into(),
        effect: effect.into(),
        dies,
    }];
    steps.extend(newly_lost.map(WgStep::BothLost));
    Ok(steps)
}

/// Applies an event; on error the character is left as it was (the caller applies to a copy).
/// Returns what it did, step by step.
pub fn apply(
    ch: &mut WgCharacter,
    e: &WgEvent,
    dice: &mut dyn DiceSource,
    now: CampaignTime,
) -> Result<Vec<WgStep>, WgError> {
    if ch.death.is_some() {
        return Err(WgError::Refused(format!("{} is dead", ch.name)));
    }
    Ok(match e {
        WgEvent::Damage { damage, mortal, .. } => damage_taken(ch, *damage, *mortal, dice, now)?,
        WgEvent::DyingComplication { .. } => {
            if !ch.dying {
                return Err(WgError::Refused(format!("{} is not Dying", ch.name)));
            }
            traumatic(ch, dice, now)?
        }
        WgEvent::Regroup { regained, .. } => regroup(ch, *regained)?,
        WgEvent::Respite { .. } => respite(ch)?,
        WgEvent::RestoreShock { .. } => restore_shock(ch),
        WgEvent::RestedRegroup { regained, .. } => {
            // A Regroup is an hour's rest after the last exertion and the last Regroup; it
            // does not interrupt a Respite (only strenuous activity does).
            let from = ch.rest_from.max(ch.regrouped);
            rested(ch, "Regroup", REGROUP_HOURS, from, now)?;
            let steps = regroup(ch, *regained)?;
            ch.regrouped = Some(now);
            steps
        }
        WgEvent::MedicaeRegroup { healer, pool, .. } => {
            if *pool < 1 {
                return Err(WgError::Refused(format!(
                    "a Medicae (Int) dice pool is at least 1 die, not {pool}"
                )));
            }
            let from = ch.rest_from.max(ch.regrouped);
            rested(ch, "Regroup", REGROUP_HOURS, from, now)?;
            let mut steps = vec![WgStep::Medicae {
                healer: healer.clone(),
                pool: *pool,
            }];
            steps.extend(regroup(ch, *pool)?);
            ch.regrouped = Some(now);
            steps
        }
        WgEvent::RestedRespite { .. } => {
            if !ch.dying {
                rested(ch, "Respite", RESPITE_HOURS, ch.rest_from, now)?;
            }
            let steps = respite(ch)?;
            ch.rest_from = Some(now);
            steps
        }
        WgEvent::SpendWrath { .. } => {
            if ch.shock == 0 {
                return Err(WgError::Refused(format!(
                    "{} has no Shock to restore",
                    ch.name
                )));
            }
            if ch.wrath < 1 {
                return Err(WgError::Refused(format!(
                    "{} has no Wrath to spend (a Respite resets it to {WRATH_AT_RESPITE})",
                    ch.name
                )));
            }
            restore_shock(ch)
        }
        WgEvent::Wrath { points, .. } => {
            if *points == 0 {
                return Err(WgError::Refused(
                    "a Wrath change of 0 changes nothing".into(),
                ));
            }
            if points.unsigned_abs() > MAX_WRATH_STEP.unsigned_abs() {
                return Err(WgError::Refused(format!(
                    "Wrath changes by at most {MAX_WRATH_STEP} at once, not {points}"
                )));
            }
            if ch.wrath + points < 0 {
                return Err(WgError::Refused(format!(
                    "{} has {} Wrath and cannot spend {}",
                    ch.name, ch.wrath, -points
                )));
            }
            ch.wrath += points;
            vec![WgStep::Wrath {
                points: *points,
                now: ch.wrath,
            }]
        }
        WgEvent::Strenuous { .. } => {
            ch.rest_from = Some(now);
            vec![WgStep::Strenuous]
        }
        WgEvent::Replacement { part, side, .. } => {
            let t = ch
                .traumatic
                .iter_mut()
                .find(|t| !t.replaced && &t.part == part && &t.side == side)
                .ok_or_else(|| {
                    WgError::Refused(format!(
                        "{} has no unreplaced Traumatic Injury to the {}{part}",
                        ch.name,
                        side.as_deref().map(|s| format!("{s} ")).unwrap_or_default()
                    ))
                })?;
            t.replaced = true;
            vec![WgStep::Replaced {
                part: part.clone(),
                side: side.clone(),
            }]
        }
    })
}

/// Damage taken: Wounds past Resilience (all of it when mortal), Shock at exactly
/// Resilience, Determination's Icons turning Wounds into Shock, and what the Wounds then
/// bring (Annihilation, a Traumatic Injury while Dying, Dying and its Memorable Injury,
/// Exhaustion).
fn damage_taken(
    ch: &mut WgCharacter,
    damage: i32,
    mortal: bool,
    dice: &mut dyn DiceSource,
    now: CampaignTime,
) -> Result<Vec<WgStep>, WgError> {
    Ok({
        if damage < 0 {
            return Err(WgError::Refused(format!(
                "damage cannot be negative ({damage})"
            )));
        }
        let r = ch.sheet.resilience;
        let mut steps = Vec::new();
        let (mut wounds, mut shock) = if mortal {
            (damage, 0)
        } else if damage > r {
            (damage - r, 0)
        } else if damage == r {
            (0, 1)
        } else {
            (0, 0)
        };
        steps.push(if mortal {
            WgStep::Mortal { damage }
        } else {
            WgStep::Damage {
                damage,
                resilience: r,
                wounds,
                shock: shock > 0,
            }
        });
        if wounds > 0 && !mortal {
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
            steps.push(WgStep::Determination {
                faces,
                icons,
                converted,
            });
        }
        ch.shock = ch.shock.saturating_add(shock);
        if wounds > 2 * ch.max_wounds() {
            ch.wounds = ch.wounds.saturating_add(wounds);
            ch.death = Some(("Annihilated".into(), now));
            steps.push(WgStep::Annihilated {
                wounds,
                max_wounds: ch.max_wounds(),
            });
        } else if wounds > 0 && ch.dying {
            steps.extend(traumatic(ch, dice, now)?);
        } else {
            if wounds > 0 {
                ch.rest_from = Some(now);
            }
            ch.wounds = ch.wounds.saturating_add(wounds);
            if ch.wounds > ch.max_wounds() && !ch.dying {
                ch.dying = true;
                steps.push(WgStep::Dying {
                    wounds: ch.wounds,
                    max_wounds: ch.max_wounds(),
                });
                let roll = d6(dice, "memorable")?;
                steps.push(memorable(ch, roll));
            }
        }
        if ch.exhausted() {
            steps.push(WgStep::Exhausted {
                shock: ch.shock,
                max_shock: ch.sheet.max_shock,
            });
        }
        steps
    })
}

#[cfg(test)]
mod tests;
