//! Savage Worlds (rules text 004): damage against Toughness, Shaken and Wounds, wound
//! penalties, Incapacitation and its Vigor roll, the Injury Table, and Bleeding Out.
//!
#![doc = include_str!("readings.md")]
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

/// The kernel's modules this system reads, at the paths its modules name them by.
pub(crate) use leechbook_kernel::{ids, time};

use crate::ids::CharacterId;
use crate::time::{CampaignTime, HOUR};
use serde::{Deserialize, Serialize};

pub mod amend;
mod roll;
pub mod system;

pub use roll::{trait_roll, Chain, Outcome, TraitResult, TraitRoll};

/// Leechbook's readings of the text (this module's documentation, `table show readings`).
pub const READINGS: &str = include_str!("readings.md");

/// What is wrong with a die chain.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwError {
    /// A face outside the die, or a broken ace chain.
    #[error("{0}")]
    Dice(String),
    /// The roll is not owed.
    #[error("{0}")]
    NotOwed(String),
}

/// A die the kernel refuses, in the system's words (its events declare their faces, so only
/// a face that does not fit reaches here).
impl From<leechbook_kernel::dice::DiceError> for SwError {
    fn from(e: leechbook_kernel::dice::DiceError) -> SwError {
        SwError::Dice(e.to_string())
    }
}

/// A character's sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwSheet {
    /// Toughness (armour included).
    pub toughness: i32,
    /// A Wild Card (three Wounds before Incapacitation) or an Extra.
    pub wild_card: bool,
    /// Pace in metres.
    pub pace: i32,
}

/// How long an Injury Table result lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lasting {
    /// Permanent (a failed Incapacitation Vigor roll).
    Permanent,
    /// Until all Wounds are healed (a success).
    UntilHealed,
    /// 24 hours, or until all Wounds are healed if sooner (a raise).
    Day(CampaignTime),
}

/// One Injury Table result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwInjury {
    /// The 2d6 total.
    pub roll: u8,
    /// What it is (`Guts: Battered`).
    pub what: String,
    /// Its effect.
    pub effect: String,
    /// The leg result counts for the Slow Hindrance.
    pub leg: bool,
    /// How long it lasts.
    pub lasting: Lasting,
    /// When it went because all Wounds were healed (a success's or a raise's injury): gone
    /// for good, even when new Wounds come.
    #[serde(default)]
    pub ended: Option<CampaignTime>,
}

/// A Savage Worlds character's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwCharacter {
    /// Id.
    pub id: CharacterId,
    /// Name.
    pub name: String,
    /// Sheet.
    pub sheet: SwSheet,
    /// Shaken.
    pub shaken: bool,
    /// Wounds (the fourth, for a Wild Card, Incapacitates).
    pub wounds: u8,
    /// Incapacitated.
    pub incapacitated: bool,
    /// The Incapacitation Vigor roll is owed.
    pub vigor_owed: bool,
    /// Bleeding Out (Vigor at the start of each turn, or each minute out of combat).
    pub bleeding_out: bool,
    /// Death, and when.
    pub death: Option<(String, CampaignTime)>,
    /// Injury Table results.
    pub injuries: Vec<SwInjury>,
    /// The attribute dice, as recorded (none: not recorded).
    pub attributes: SwAttributes,
    /// Bleeding Out since: the roll that began it or the last one survived; the next roll is
    /// due a round after.
    pub bleeding_since: Option<CampaignTime>,
    /// When the last Spirit roll to recover from Shaken was made: the next is due a round
    /// after (fold version 13).
    #[serde(default)]
    pub spirit_tried: Option<CampaignTime>,
}

/// An attribute, as the Injury Table and the trait rolls name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Attribute {
    /// Agility.
    Agility,
    /// Smarts.
    Smarts,
    /// Spirit.
    Spirit,
    /// Strength.
    Strength,
    /// Vigor.
    Vigor,
}

impl Attribute {
    /// All five, in the sheet's order.
    pub const ALL: [Attribute; 5] = [
        Attribute::Agility,
        Attribute::Smarts,
        Attribute::Spirit,
        Attribute::Strength,
        Attribute::Vigor,
    ];

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Attribute::Agility => "Agility",
            Attribute::Smarts => "Smarts",
            Attribute::Spirit => "Spirit",
            Attribute::Strength => "Strength",
            Attribute::Vigor => "Vigor",
        }
    }
}

/// A character's attribute dice (sides: 4-12), each recorded or not.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwAttributes {
    /// Agility.
    pub agility: Option<u16>,
    /// Smarts.
    pub smarts: Option<u16>,
    /// Spirit.
    pub spirit: Option<u16>,
    /// Strength.
    pub strength: Option<u16>,
    /// Vigor.
    pub vigor: Option<u16>,
}

impl SwAttributes {
    /// The die recorded for `a`.
    pub fn get(&self, a: Attribute) -> Option<u16> {
        match a {
            Attribute::Agility => self.agility,
            Attribute::Smarts => self.smarts,
            Attribute::Spirit => self.spirit,
            Attribute::Strength => self.strength,
            Attribute::Vigor => self.vigor,
        }
    }

    fn slot(&mut self, a: Attribute) -> &mut Option<u16> {
        match a {
            Attribute::Agility => &mut self.agility,
            Attribute::Smarts => &mut self.smarts,
            Attribute::Spirit => &mut self.spirit,
            Attribute::Strength => &mut self.strength,
            Attribute::Vigor => &mut self.vigor,
        }
    }
}

/// An attribute's die in effect: the recorded die, lowered by the injuries in effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DieInEffect {
    /// The die recorded on the sheet.
    pub recorded: u16,
    /// The die in effect.
    pub now: u16,
    /// What lowers it (the injuries' names).
    pub lowered_by: Vec<String>,
}

impl SwInjury {
    /// The attribute this result lowers a die type, if any (the Injury Table's Guts and Brain
    /// Damage results).
    pub fn lowers(&self) -> Option<Attribute> {
        match self.what.as_str() {
            "Guts: Broken" => Some(Attribute::Agility),
            "Guts: Battered" => Some(Attribute::Vigor),
            "Guts: Busted" => Some(Attribute::Strength),
            "Head: Brain Damage" => Some(Attribute::Smarts),
            _ => None,
        }
    }
}

impl SwCharacter {
    /// A fresh character.
    pub fn new(id: CharacterId, name: String, sheet: SwSheet) -> SwCharacter {
        SwCharacter {
            id,
            name,
            sheet,
            shaken: false,
            wounds: 0,
            incapacitated: false,
            vigor_owed: false,
            bleeding_out: false,
            death: None,
            injuries: Vec::new(),
            attributes: SwAttributes::default(),
            bleeding_since: None,
            spirit_tried: None,
        }
    }

    /// `a`'s die in effect at `now`, if the sheet's die was recorded.
    pub fn die(&self, a: Attribute, now: CampaignTime) -> Option<DieInEffect> {
        let recorded = self.attributes.get(a)?;
        let lowered_by: Vec<String> = self
            .active_injuries(now)
            .filter(|i| i.lowers() == Some(a))
            .map(|i| i.what.clone())
            .collect();
        let steps = u16::try_from(lowered_by.len()).unwrap_or(u16::MAX);
        Some(DieInEffect {
            recorded,
            now: recorded.saturating_sub(steps.saturating_mul(2)).max(4),
            lowered_by,
        })
    }

    /// When the next Bleeding Out roll is due: a round after it began or was last survived.
    pub fn bleeding_due(&self, round_seconds: i64) -> Option<CampaignTime> {
        if !self.bleeding_out || self.death.is_some() {
            return None;
        }
        self.bleeding_since.map(|t| t.plus(round_seconds.max(1)))
    }

    /// When the next Spirit roll to recover from Shaken is due (004 l.4: "start of turn
    /// only"; l.20: "At the start of their turn, Shaken characters must attempt to recover"):
    /// once a turn. Reading: Leechbook records no initiative, so a turn is a round of the
    /// clock counted from the last try; the first try after becoming Shaken is due at once
    /// (the character's turn may still be to come this round). None while not Shaken.
    pub fn spirit_due(&self, round_seconds: i64) -> Option<CampaignTime> {
        if !self.shaken || self.death.is_some() {
            return None;
        }
        self.spirit_tried.map(|t| t.plus(round_seconds.max(1)))
    }

    /// Refuses a trait roll on `a` whose trait die is not the die in effect (when recorded).
    fn check_die(&self, a: Attribute, roll: &TraitRoll, now: CampaignTime) -> Result<(), SwError> {
        let Some(d) = self.die(a, now) else {
            return Ok(());
        };
        if roll.trait_die.sides != d.now {
            let why = if d.lowered_by.is_empty() {
                String::new()
            } else {
                format!(" (d{}, lowered by {})", d.recorded, d.lowered_by.join(", "))
            };
            return Err(SwError::Dice(format!(
                "{}'s {} is d{}{why}: the roll's trait die is d{}",
                self.name,
                a.name(),
                d.now,
                roll.trait_die.sides
            )));
        }
        Ok(())
    }

    /// Why the character takes no action now, only free ones (a Healing roll to stabilise
    /// another is an action, 004 l.50): dead, Incapacitated (reading: the text lets an
    /// Incapacitated character roll only what Incapacitation and Bleeding Out owe), or Shaken
    /// (l.20: "when shaken, a character can only take free actions"). None when it may act.
    pub fn action_prevented(&self) -> Option<&'static str> {
        if self.death.is_some() {
            Some("is dead")
        } else if self.incapacitated {
            Some("is Incapacitated")
        } else if self.shaken {
            Some("is Shaken: only free actions until they recover (004 l.20)")
        } else {
            None
        }
    }

    /// The wound penalty to trait rolls: -1 per Wound, at most -3 (004 l.21).
    pub fn wound_penalty(&self) -> i32 {
        -(i32::from(self.wounds).min(3))
    }

    /// Pace after the wound penalty (-1 per Wound, at most -3).
    pub fn pace(&self) -> i32 {
        self.sheet.pace - i32::from(self.wounds).min(3)
    }

    /// The injuries in effect at `now`: a permanent one always; a success's until all Wounds
    /// heal; a raise's for 24 hours or until all Wounds heal, whichever is sooner. Once gone,
    /// an injury stays gone when new Wounds come.
    pub fn active_injuries(&self, now: CampaignTime) -> impl Iterator<Item = &SwInjury> {
        let healed = self.wounds == 0;
        self.injuries.iter().filter(move |i| match i.lasting {
            Lasting::Permanent => true,
            Lasting::UntilHealed => !healed && i.ended.is_none(),
            Lasting::Day(until) => !healed && i.ended.is_none() && now < until,
        })
    }
}

/// Savage Worlds events. **Frozen format**: add variants only at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SwEvent {
    /// Damage against Toughness: every damage die (acing), plus a modifier.
    Damage {
        /// Who.
        character: CharacterId,
        /// The damage dice.
        dice: Vec<Chain>,
        /// The modifier.
        modifier: i32,
    },
    /// The Spirit roll to recover from Shaken, at the start of the turn.
    SpiritRecovery {
        /// Who.
        character: CharacterId,
        /// The roll.
        roll: TraitRoll,
    },
    /// The Incapacitation Vigor roll, with the Injury Table's 2d6 and its d6 sub-roll.
    Incapacitation {
        /// Who.
        character: CharacterId,
        /// The Vigor roll.
        roll: TraitRoll,
        /// The Injury Table's 2d6.
        injury: [u16; 2],
        /// The sub-roll (arm side, guts, head).
        sub: u16,
    },
    /// A Bleeding Out Vigor roll.
    BleedingOut {
        /// Who.
        character: CharacterId,
        /// The roll.
        roll: TraitRoll,
    },
    /// Another character's Healing roll to stabilise a bleeding character.
    Stabilise {
        /// Who bleeds.
        character: CharacterId,
        /// The healer's name.
        healer: String,
        /// The Healing roll.
        roll: TraitRoll,
    },
    /// Wounds healed (natural healing or the Healing skill, as the GM rules).
    WoundsHealed {
        /// Who.
        character: CharacterId,
        /// How many.
        count: u8,
    },
    /// The sheet's attribute dice (those given; the others stay as they were).
    Attributes {
        /// Who.
        character: CharacterId,
        /// The dice.
        dice: SwAttributes,
    },
}

impl SwEvent {
    /// What the roll stakes, if the rules allow it once a turn (see the kernel's `claim`):
    /// the Spirit roll to recover from Shaken and the Bleeding Out Vigor roll, each at the
    /// start of the turn (a turn is one moment of the campaign clock).
    pub fn claim(&self, at: CampaignTime) -> Option<leechbook_kernel::claim::Claim> {
        use leechbook_kernel::claim::Claim;
        match self {
            SwEvent::SpiritRecovery { character, .. } => {
                Some(Claim::at(*character, "spirit-recovery", None, at, 1))
            }
            SwEvent::BleedingOut { character, .. } => {
                Some(Claim::at(*character, "bleeding-out", None, at, 1))
            }
            _ => None,
        }
    }

    /// The character.
    pub fn character(&self) -> CharacterId {
        match self {
            SwEvent::Damage { character, .. }
            | SwEvent::SpiritRecovery { character, .. }
            | SwEvent::Incapacitation { character, .. }
            | SwEvent::BleedingOut { character, .. }
            | SwEvent::Stabilise { character, .. }
            | SwEvent::WoundsHealed { character, .. }
            | SwEvent::Attributes { character, .. } => *character,
        }
    }

    /// The kind.
    pub fn kind(&self) -> &'static str {
        match self {
            SwEvent::Damage { .. } => "sw.damage",
            SwEvent::SpiritRecovery { .. } => "sw.spirit-recovery",
            SwEvent::Incapacitation { .. } => "sw.incapacitation",
            SwEvent::BleedingOut { .. } => "sw.bleeding-out",
            SwEvent::Stabilise { .. } => "sw.stabilise",
            SwEvent::WoundsHealed { .. } => "sw.wounds-healed",
            SwEvent::Attributes { .. } => "sw.attributes",
        }
    }
}

/// Whether the Injury Table's row for a 2d6 total rolls the sub-table's d6: an arm (3-4,
/// which side), the guts (5-9) and the head (12) do; Unmentionables (2) and a leg (10-11)
/// do not (004 l.33-40).
pub fn injury_rolls_sub(total: u16) -> bool {
    matches!(total, 3..=9 | 12)
}

/// Reads the Injury Table: 2d6 and, for the rows that roll one, the d6 sub-roll.
pub fn injury_table(
    d: [u16; 2],
    sub: u16,
    has_leg: bool,
    lasting: Lasting,
) -> Result<SwInjury, SwError> {
    // The sub-roll d6 is read only by the rows that roll it (004 l.35-40: an arm's side, the
    // guts, the head); Unmentionables and a leg roll none, and record none (0).
    let roll_sum = d[0].saturating_add(d[1]);
    let sub_used = injury_rolls_sub(roll_sum);
    for f in d.iter().chain(sub_used.then_some(&sub)) {
        if !(1..=6).contains(f) {
            return Err(SwError::Dice(format!(
                "the Injury Table's dice are d6s, not {f}"
            )));
        }
    }
    let roll = roll_sum as u8;
    let side = if sub <= 3 { "left" } else { "right" };
    let (what, effect, leg) = match roll {
        2 => (
            "Unmentionables".to_string(),
            "if permanent, reproduction is out of the question without miracle surgery or magic"
                .to_string(),
            false,
        ),
        3 | 4 => (
            format!("Arm ({side})"),
            format!("can no longer use the {side} arm"),
            false,
        ),
        5..=9 => match sub {
            1 | 2 => (
                "Guts: Broken".into(),
                "Agility reduced a die type (minimum d4)".into(),
                false,
            ),
            3 | 4 => (
                "Guts: Battered".into(),
                "Vigor reduced a die type (minimum d4)".into(),
                false,
            ),
            _ => (
                "Guts: Busted".into(),
                "Strength reduced a die type (minimum d4)".into(),
                false,
            ),
        },
        10 | 11 => (
            "Leg".into(),
            if has_leg {
                "the Slow Hindrance (Major): already injured in a leg".into()
            } else {
                "the Slow Hindrance (Minor)".into()
            },
            true,
        ),
        _ => match sub {
            1..=3 => (
                "Head: Hideous Scar".into(),
                "the Ugly (Major) Hindrance".into(),
                false,
            ),
            4 | 5 => (
                "Head: Blinded".into(),
                "the One Eye Hindrance (Blind if only one good eye)".into(),
                false,
            ),
            _ => (
                "Head: Brain Damage".into(),
                "Smarts reduced one die type (minimum d4)".into(),
                false,
            ),
        },
    };
    Ok(SwInjury {
        roll,
        what,
        effect,
        leg,
        lasting,
        ended: None,
    })
}

/// What a Savage Worlds event did: the numbers and results the rules found, which the CLI
/// puts into words (the core formats no prose).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SwOutcome {
    /// Damage against Toughness.
    Damage {
        /// The damage total.
        total: i32,
        /// The character's Toughness.
        toughness: i32,
        /// Raises over Toughness (each 4 points).
        raises: u8,
        /// Wounds taken (a raise each, or 1 for a Shaken character Shaken again).
        wounds: u8,
        /// The Wounds held when this damage Incapacitated the character (None when it did
        /// not).
        incapacitated: Option<u8>,
    },
    /// A Spirit roll to recover from Shaken.
    SpiritRecovery {
        /// The roll's total.
        total: i32,
        /// The wound penalty it included.
        wound_penalty: i32,
        /// Whether the character is no longer Shaken.
        recovered: bool,
    },
    /// The Incapacitation Vigor roll and, unless it killed, the Injury Table's result.
    Incapacitation {
        /// The roll's total.
        total: i32,
        /// How it came out.
        outcome: Outcome,
        /// The injury (None when a critical failure killed the character).
        injury: Option<SwInjury>,
    },
    /// A Bleeding Out Vigor roll.
    BleedingOut {
        /// The roll's total.
        total: i32,
        /// How it came out (a failure perishes, a raise stabilises).
        outcome: Outcome,
    },
    /// Another's Healing roll to stabilise.
    Stabilise {
        /// The healer.
        healer: String,
        /// The roll's total.
        total: i32,
        /// Whether it stabilised the character.
        stabilised: bool,
    },
    /// Wounds healed.
    WoundsHealed {
        /// How many the event healed.
        count: u8,
        /// How many are left.
        left: u8,
    },
    /// The attribute dice recorded.
    Attributes(SwAttributes),
}

/// Applies an event to a character, or says why it cannot apply (leaving it unchanged).
pub fn apply(ch: &mut SwCharacter, e: &SwEvent, now: CampaignTime) -> Result<SwOutcome, SwError> {
    if ch.death.is_some() {
        return Err(SwError::NotOwed(format!("{} is dead", ch.name)));
    }
    Ok(match e {
        SwEvent::Damage { dice, modifier, .. } => damage(ch, dice, *modifier)?,
        SwEvent::SpiritRecovery { roll, .. } => {
            if !ch.shaken {
                return Err(SwError::NotOwed(format!("{} is not Shaken", ch.name)));
            }
            ch.check_die(Attribute::Spirit, roll, now)?;
            let r = trait_roll(roll, ch.wound_penalty())?;
            let recovered = matches!(r.outcome, Outcome::Success | Outcome::Raise);
            if recovered {
                ch.shaken = false;
            }
            ch.spirit_tried = Some(now);
            SwOutcome::SpiritRecovery {
                total: r.total,
                wound_penalty: r.wound_penalty,
                recovered,
            }
        }
        SwEvent::Incapacitation {
            roll, injury, sub, ..
        } => incapacitation(ch, roll, (*injury, *sub), now)?,
        SwEvent::BleedingOut { roll, .. } => {
            if !ch.bleeding_out {
                return Err(SwError::NotOwed(format!("{} is not Bleeding Out", ch.name)));
            }
            ch.check_die(Attribute::Vigor, roll, now)?;
            let r = trait_roll(roll, ch.wound_penalty())?;
            match r.outcome {
                Outcome::CriticalFailure | Outcome::Failure => {
                    ch.death = Some(("bled out".into(), now));
                }
                Outcome::Success => ch.bleeding_since = Some(now),
                Outcome::Raise => ch.bleeding_out = false,
            }
            SwOutcome::BleedingOut {
                total: r.total,
                outcome: r.outcome,
            }
        }
        SwEvent::Stabilise { healer, roll, .. } => {
            if !ch.bleeding_out {
                return Err(SwError::NotOwed(format!("{} is not Bleeding Out", ch.name)));
            }
            let r = trait_roll(roll, 0)?;
            let stabilised = matches!(r.outcome, Outcome::Success | Outcome::Raise);
            if stabilised {
                ch.bleeding_out = false;
            }
            SwOutcome::Stabilise {
                healer: healer.clone(),
                total: r.total,
                stabilised,
            }
        }
        SwEvent::WoundsHealed { count, .. } => {
            if ch.wounds == 0 {
                return Err(SwError::NotOwed(format!("{} has no Wounds", ch.name)));
            }
            ch.wounds = ch.wounds.saturating_sub(*count);
            if ch.wounds == 0 {
                for i in ch
                    .injuries
                    .iter_mut()
                    .filter(|i| i.lasting != Lasting::Permanent && i.ended.is_none())
                {
                    i.ended = Some(now);
                }
            }
            let limit = if ch.sheet.wild_card { 4 } else { 1 };
            if ch.wounds < limit {
                ch.incapacitated = false;
            }
            SwOutcome::WoundsHealed {
                count: *count,
                left: ch.wounds,
            }
        }
        SwEvent::Attributes { dice, .. } => {
            let mut given = 0;
            for a in Attribute::ALL {
                if let Some(d) = dice.get(a) {
                    if ![4, 6, 8, 10, 12].contains(&d) {
                        return Err(SwError::Dice(format!(
                            "{}: Savage Worlds dice are d4-d12, not d{d}",
                            a.name()
                        )));
                    }
                    *ch.attributes.slot(a) = Some(d);
                    given += 1;
                }
            }
            if given == 0 {
                return Err(SwError::Dice("no attribute die given".into()));
            }
            SwOutcome::Attributes(ch.attributes.clone())
        }
    })
}

/// The Incapacitation Vigor roll: death on a critical failure, else an injury from the
/// Injury Table, lasting by the roll, and Bleeding Out on a failure.
fn incapacitation(
    ch: &mut SwCharacter,
    roll: &TraitRoll,
    (injury, sub): ([u16; 2], u16),
    now: CampaignTime,
) -> Result<SwOutcome, SwError> {
    Ok({
        if !ch.vigor_owed {
            return Err(SwError::NotOwed(format!(
                "{} owes no Incapacitation roll",
                ch.name
            )));
        }
        ch.check_die(Attribute::Vigor, roll, now)?;
        let r = trait_roll(roll, ch.wound_penalty())?;
        // Only a leg injury still in effect makes the new one Major ("injured in either
        // leg"): one whose Wounds healed or whose 24 hours passed does not.
        let has_leg = ch.active_injuries(now).any(|i| i.leg);
        let lasting = match r.outcome {
            Outcome::CriticalFailure => {
                ch.vigor_owed = false;
                ch.death = Some((
                    "a critical failure on the Incapacitation Vigor roll".into(),
                    now,
                ));
                return Ok(SwOutcome::Incapacitation {
                    total: r.total,
                    outcome: r.outcome,
                    injury: None,
                });
            }
            Outcome::Failure => Lasting::Permanent,
            Outcome::Success => Lasting::UntilHealed,
            Outcome::Raise => Lasting::Day(now.plus(24 * HOUR)),
        };
        let inj = injury_table(injury, sub, has_leg, lasting)?;
        ch.vigor_owed = false;
        if lasting == Lasting::Permanent {
            ch.bleeding_out = true;
            ch.bleeding_since = Some(now);
        }
        ch.injuries.push(inj.clone());
        SwOutcome::Incapacitation {
            total: r.total,
            outcome: r.outcome,
            injury: Some(inj),
        }
    })
}

/// Damage against Toughness: Shaken, a Wound per raise (a Shaken character takes one on a
/// success), and Incapacitation at the character's limit.
fn damage(ch: &mut SwCharacter, dice: &[Chain], modifier: i32) -> Result<SwOutcome, SwError> {
    Ok({
        let mut total = modifier;
        for (i, d) in dice.iter().enumerate() {
            total += d.total(&format!("damage die {}", i + 1))?;
        }
        let t = ch.sheet.toughness;
        if total < t {
            SwOutcome::Damage {
                total,
                toughness: t,
                raises: 0,
                wounds: 0,
                incapacitated: None,
            }
        } else {
            let raises = ((total - t) / 4) as u8;
            let wounds = if raises > 0 {
                raises
            } else if ch.shaken {
                1
            } else {
                0
            };
            ch.shaken = true;
            ch.wounds = ch.wounds.saturating_add(wounds);
            let limit = if ch.sheet.wild_card { 4 } else { 1 };
            let mut incapacitated = None;
            if wounds > 0 && ch.wounds >= limit && !ch.incapacitated {
                ch.incapacitated = true;
                ch.vigor_owed = true;
                incapacitated = Some(ch.wounds);
            }
            SwOutcome::Damage {
                total,
                toughness: t,
                raises,
                wounds,
                incapacitated,
            }
        }
    })
}

#[cfg(test)]
mod tests;
