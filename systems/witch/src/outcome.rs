//! What a Witch Iron event did ([`WiStep`], [`Injured`]) and why one does not apply
//! ([`WiError`]): numbers and results, no prose.

use crate::conditions::{Care, Condition};
use crate::rules::MAX_CONDITION_STEP;
use crate::tables::Cell;
use serde::{Deserialize, Serialize};

/// Why a Witch Iron event does not apply, or a table the GM gives does not load. The words
/// name no command: the CLI adds its hints.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WiError {
    /// A table location without its ten severity rows.
    #[error("{part} table, {location}: {rows} severity rows, not 10")]
    Rows {
        /// The part.
        part: String,
        /// The location.
        location: String,
        /// The rows it has.
        rows: usize,
    },
    /// A units face out of range or in two locations.
    #[error("{part} table: units face {face} is missing or taken twice")]
    UnitsFace {
        /// The part.
        part: String,
        /// The face.
        face: u8,
    },
    /// A units face no location takes.
    #[error("{part} table: the units die's faces 1-10 are not all covered")]
    UnitsUncovered {
        /// The part.
        part: String,
    },
    /// The Arms & Legs tables, cut off in the text, not loaded.
    #[error("the {part} table is not loaded: the text cuts it off, so load the GM's")]
    TableNotLoaded {
        /// The part.
        part: String,
    },
    /// Not a part.
    #[error("'{0}' is not a part (head, torso, arm, leg)")]
    NotAPart(String),
    /// A units die face out of range.
    #[error("the units die shows 1-10, not {0}")]
    UnitsDie(u8),
    /// A table without a location for the face.
    #[error("the {part} table has no location for {units}")]
    NoLocation {
        /// The part.
        part: String,
        /// The units face.
        units: u8,
    },
    /// A critical d6E face out of range.
    #[error("the critical d6E shows 1-6, not {0}")]
    CriticalFace(u16),
    /// A face before the last that is not a 6.
    #[error("only a 6 explodes")]
    OnlySixExplodes,
    /// The last face a 6.
    #[error("the critical d6E exploded: give the next face")]
    CriticalExploded,
    /// A dead character.
    #[error("{0} is dead")]
    Dead(String),
    /// A Quarrel without its attacker.
    #[error("a Quarrel needs its attacker")]
    NoAttacker,
    /// A Quarrel against oneself.
    #[error("a character cannot quarrel with themselves")]
    SelfQuarrel,
    /// An event that names no character.
    #[error("the event names no character")]
    NoCharacter,
    /// A die the kernel refuses.
    #[error(transparent)]
    Dice(#[from] leechbook_kernel::dice::DiceError),
    /// A Quarrel that injures without its strike.
    #[error("the Quarrel injures: give the strike (part, units, damage, AV, RB)")]
    NoStrike,
    /// A dent's d6 out of range.
    #[error("the dent's d6 shows 1-6, not {0}")]
    DentFace(u16),
    /// An end-of-round d6 out of range.
    #[error("a d6 shows 1-6, not {0}")]
    D6Face(u16),
    /// No Aflame, Bleed or Poison to roll against.
    #[error("{0} has no Aflame, Bleed or Poison")]
    NoHardship(String),
    /// Hardship Hits given when the d6 was over the rating.
    #[error("the d6 {d6} is over the rating {rating}: no Hardship Quarrel")]
    NoHardshipQuarrel {
        /// The d6.
        d6: u16,
        /// The rating.
        rating: i32,
    },
    /// Hardship Hits missing when the d6 was within the rating.
    #[error("the d6 {d6} is within the rating {rating}: give the Hardship Quarrel's Hits")]
    HardshipHitsMissing {
        /// The d6.
        d6: u16,
        /// The rating.
        rating: i32,
    },
    /// A condition to remove that the character does not have.
    #[error("{name} has no {} to remove", condition.word())]
    NoCondition {
        /// The character.
        name: String,
        /// The condition.
        condition: Condition,
    },
    /// A condition to remove that an injury's marked effect holds: it ends only with the care
    /// the mark asks for ("*Requires Healing to Remove, ‡ Requires Surgery to Remove").
    #[error("{name}'s {} {rating} is held by the {location} injury, which requires {} to remove it", condition.word(), care.word())]
    HeldByInjury {
        /// The character.
        name: String,
        /// The condition.
        condition: Condition,
        /// What the injury holds of it.
        rating: i32,
        /// The injury's location.
        location: String,
        /// The care it awaits.
        care: Care,
    },
    /// Care for a location with no injury awaiting it.
    #[error("{name} has no injury at the {location} that awaits {}", care.word())]
    NothingAwaits {
        /// The character.
        name: String,
        /// The location.
        location: String,
        /// The care.
        care: Care,
    },
    /// A condition's change out of any table's range.
    #[error("a condition changes by at most {MAX_CONDITION_STEP} at once, not {0}")]
    ConditionStep(i32),
}

/// An injury suffered: where, by how much Net Damage, and the table's cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Injured {
    /// The location (`left eye`).
    pub location: String,
    /// The Net Damage.
    pub net_damage: i32,
    /// The cell read (its name, effects and the care it requires).
    pub cell: Cell,
}

/// What a Witch Iron event did, step by step: the numbers and results the rules found,
/// which the CLI puts into words (the core formats no prose).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WiStep {
    /// A Quarrel's attack and its Net Hits.
    Attacked {
        /// The attacker's name.
        by: String,
        /// Net Hits (negative: the defender's).
        net_hits: i32,
    },
    /// Giving ground on a second Check in a row: Prone instead.
    GaveGroundTwice {
        /// Who.
        who: String,
    },
    /// A fumble: Prone.
    Fumbled {
        /// Who.
        who: String,
    },
    /// The defender dodged: no one is injured.
    Dodged,
    /// The weapon is clipped (+1 Damage now, one less for good).
    WeaponClipped,
    /// The armour is dented.
    ArmourDented {
        /// The d6: AV now.
        d6: u16,
    },
    /// Net Damage: (weapon + hits) - (AV + RB) + critical.
    NetDamage {
        /// Weapon Damage (clipped included).
        weapon: i32,
        /// The hits.
        hits: i32,
        /// AV (dented included).
        av: i32,
        /// The RB.
        rb: i32,
        /// The critical d6E (0: none).
        critical: i32,
        /// The Net Damage.
        net: i32,
    },
    /// No Net Damage: unhurt.
    Unhurt {
        /// Who (None: the event's character).
        who: Option<String>,
    },
    /// An injury.
    Injured {
        /// Who (None: the event's character).
        who: Option<String>,
        /// The injury.
        injury: Injured,
    },
    /// The end-of-round d6 over the Aflame/Bleed/Poison rating: nothing this round.
    HardshipSpared {
        /// The d6.
        d6: u16,
        /// The rating.
        rating: i32,
    },
    /// The Hardship Quarrel.
    Hardship {
        /// The d6.
        d6: u16,
        /// The rating.
        rating: i32,
        /// The Hardship Quarrel's Hits.
        hits: i32,
        /// Whether the character dies (else every Aflame, Bleed and Poison is removed).
        dies: bool,
    },
    /// A condition removed.
    ConditionRemoved {
        /// Which.
        condition: Condition,
        /// By whom or what.
        by: String,
    },
    /// A condition's rating changed.
    ConditionChanged {
        /// Which.
        condition: Condition,
        /// By how much.
        delta: i32,
        /// By whom or what.
        by: String,
        /// Its rating now.
        now: i32,
    },
    /// An Arms & Legs table defined.
    TableDefined {
        /// The part.
        part: String,
    },
    /// Care given to a location's injury: the effects it ended.
    Cared {
        /// Healing or surgery.
        care: Care,
        /// The location.
        location: String,
        /// By whom.
        by: String,
        /// The effects it removed.
        ended: Vec<String>,
    },
}
