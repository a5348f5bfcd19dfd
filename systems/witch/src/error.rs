//! Why a Witch Iron event does not apply, or a table the GM gives does not load
//! ([`WiError`]).

use crate::conditions::{Care, Condition, MAX_CONDITION_STEP};

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
