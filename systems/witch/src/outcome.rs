//! What a Witch Iron event did ([`WiStep`], [`Injured`]): numbers and results, no prose.

use crate::conditions::{Care, Condition};
use crate::tables::Cell;
use serde::{Deserialize, Serialize};

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
