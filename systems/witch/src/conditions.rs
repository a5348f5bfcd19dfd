//! The Conditions (rules text 003): their ratings, what each inflicts, how each is
//! reduced, and what care removes a marked effect.

use serde::{Deserialize, Serialize};

/// The Conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Condition {
    /// Aflame (end-of-round d6).
    Aflame,
    /// Bleed (end-of-round d6).
    Bleed,
    /// Poison (end-of-round d6).
    Poison,
    /// Blind: rating x 10% to sight checks; -1 an hour.
    Blind,
    /// Deaf: rating x 10% to hearing checks; -1 an hour.
    Deaf,
    /// Pain: rating x 10% to all checks; -1 an hour.
    Pain,
    /// Corruption: three stacks call a Quarrel.
    Corruption,
    /// Stress: three stacks call a Quarrel.
    Stress,
    /// Fatigue: takes Enc.
    Fatigue,
    /// Entangle: no movement; -1 a round.
    Entangle,
    /// Helpless: no actions or movement; -1 a round.
    Helpless,
    /// Stun: no actions; -1 a round.
    Stun,
    /// Prone: -20% to checks, +20% to foes.
    Prone,
    /// Trauma: rating x 20% to checks with the location; a month of rest per rating.
    Trauma,
}

/// What removes a marked effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Care {
    /// `*`: Requires Healing to Remove.
    Healing,
    /// `‡`: Requires Surgery to Remove.
    Surgery,
}

impl Care {
    /// The word.
    pub fn word(self) -> &'static str {
        match self {
            Care::Healing => "healing",
            Care::Surgery => "surgery",
        }
    }

    pub(crate) fn of(s: Option<&str>) -> Option<Care> {
        match s {
            Some("healing") => Some(Care::Healing),
            Some("surgery") => Some(Care::Surgery),
            _ => None,
        }
    }
}

/// A rated effect (`Pain 5`): its condition and rating.
pub(crate) fn rated(effect: &str) -> Option<(Condition, i32)> {
    let (head, n) = effect.rsplit_once(' ')?;
    Some((Condition::parse(head)?, n.parse().ok()?))
}

impl Condition {
    /// Every condition, in the text's order.
    pub const ALL: [Condition; 14] = [
        Condition::Aflame,
        Condition::Bleed,
        Condition::Poison,
        Condition::Blind,
        Condition::Deaf,
        Condition::Pain,
        Condition::Corruption,
        Condition::Stress,
        Condition::Fatigue,
        Condition::Entangle,
        Condition::Helpless,
        Condition::Stun,
        Condition::Prone,
        Condition::Trauma,
    ];

    /// Parses a condition's name.
    pub fn parse(s: &str) -> Option<Condition> {
        use Condition::*;
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "aflame" => Aflame,
            "bleed" => Bleed,
            "poison" => Poison,
            "blind" => Blind,
            "deaf" => Deaf,
            "pain" => Pain,
            "corruption" => Corruption,
            "stress" => Stress,
            "fatigue" => Fatigue,
            "entangle" => Entangle,
            "helpless" => Helpless,
            "stun" => Stun,
            "prone" => Prone,
            "trauma" => Trauma,
            _ => return None,
        })
    }

    /// The condition's name.
    pub fn word(self) -> &'static str {
        use Condition::*;
        match self {
            Aflame => "Aflame",
            Bleed => "Bleed",
            Poison => "Poison",
            Blind => "Blind",
            Deaf => "Deaf",
            Pain => "Pain",
            Corruption => "Corruption",
            Stress => "Stress",
            Fatigue => "Fatigue",
            Entangle => "Entangle",
            Helpless => "Helpless",
            Stun => "Stun",
            Prone => "Prone",
            Trauma => "Trauma",
        }
    }
}

/// The most one condition event changes a rating by (the tables give 1-5; a larger number
/// is a typo, refused before it can make the Check penalties meaningless).
pub const MAX_CONDITION_STEP: i32 = 100;
