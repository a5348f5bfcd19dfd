//! Witch Iron's events (**frozen format**: variants appended only): a Quarrel, an injury,
//! a condition, care, a table the GM supplies.

use crate::conditions::{Care, Condition};
use crate::ids::CharacterId;
use crate::tables::PartTable;
use serde::{Deserialize, Serialize};

/// Which defence a Quarrel meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WiDefence {
    /// Melee: the defender injures the attacker at Net Hits -1 or less.
    Melee,
    /// Light-Foot: the defender dodges.
    LightFoot,
}

/// Where a strike lands and how hard: the defender's chosen part, the units die, the damage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strike {
    /// `head`, `torso`, `arm` or `leg`.
    pub part: String,
    /// The units die of the attack (or a d10), 1-10 (a 0 is 10).
    pub units: u8,
    /// The striker's weapon damage.
    pub weapon_damage: i32,
    /// The struck one's AV there.
    pub av: i32,
    /// The struck one's Resilience Bonus.
    pub rb: i32,
    /// A critical hit's d6E faces (each 6 explodes).
    pub critical: Vec<u16>,
    /// Battle wear: the striker clips their weapon for +1 Damage (the weapon keeps the loss).
    #[serde(default)]
    pub clip_weapon: bool,
    /// Battle wear: the struck one dents their armour for +d6 AV (this d6; the armour loses
    /// one AV for good).
    #[serde(default)]
    pub dent_armour: Option<u16>,
}

/// Witch Iron events. **Frozen format**: add variants only at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WiEvent {
    /// A melee or ranged Quarrel and the injury it inflicts.
    Quarrel {
        /// The attacker.
        attacker: CharacterId,
        /// The defender.
        defender: CharacterId,
        /// The defence.
        defence: WiDefence,
        /// The attacker's Hits (criticals and fumbles counted).
        attack_hits: i32,
        /// The defender's Hits.
        defence_hits: i32,
        /// Hits modifiers: Charge +2 to the attack.
        charge: bool,
        /// Brace +2 to the defence (and the bracer deals no damage).
        brace: bool,
        /// Giving Ground +2 to Light-Foot.
        give_ground: bool,
        /// The attacker fumbled (falls Prone).
        attacker_fumble: bool,
        /// The defender fumbled (falls Prone).
        defender_fumble: bool,
        /// The strike, if one lands (the winner's weapon against the loser).
        strike: Option<Strike>,
    },
    /// An injury inflicted outside a Quarrel (a fall, a trap): Net Damage given directly.
    Injure {
        /// Who.
        character: CharacterId,
        /// The part.
        part: String,
        /// The units die.
        units: u8,
        /// The Net Damage.
        net_damage: i32,
    },
    /// The end-of-round d6 against Aflame, Bleed and Poison, and the Hardship Quarrel's Hits.
    EndOfRound {
        /// Who.
        character: CharacterId,
        /// The d6.
        d6: u16,
        /// The Hardship Quarrel's Hits, when the d6 called for it.
        hardship_hits: Option<i32>,
    },
    /// A condition gained, reduced or removed by an action.
    Condition {
        /// Who.
        character: CharacterId,
        /// Which.
        condition: Condition,
        /// The change to its rating (negative reduces); None removes it.
        delta: Option<i32>,
        /// How (bandages, an antidote, smelling salts, a month's rest ...).
        by: String,
    },
    /// The Arms & Legs table the GM supplies (`arm` or `leg`).
    TableDefined(PartTable),
    /// Healing (for `*` effects) or Surgery (for `‡` effects) given to an injury: its marked
    /// effects that awaited that care are removed.
    Cared {
        /// Who.
        character: CharacterId,
        /// The injury's location as recorded (`skull`, `right eye`).
        location: String,
        /// Healing or Surgery.
        care: Care,
        /// Who gave it, or how.
        by: String,
    },
}

impl WiEvent {
    /// The character the event is about.
    pub fn character(&self) -> Option<CharacterId> {
        match self {
            WiEvent::Quarrel { defender, .. } => Some(*defender),
            WiEvent::Injure { character, .. }
            | WiEvent::EndOfRound { character, .. }
            | WiEvent::Condition { character, .. }
            | WiEvent::Cared { character, .. } => Some(*character),
            WiEvent::TableDefined(_) => None,
        }
    }

    /// The kind.
    pub fn kind(&self) -> &'static str {
        match self {
            WiEvent::Quarrel { .. } => "wi.quarrel",
            WiEvent::Injure { .. } => "wi.injure",
            WiEvent::EndOfRound { .. } => "wi.end-of-round",
            WiEvent::Condition { .. } => "wi.condition",
            WiEvent::TableDefined(_) => "wi.table-defined",
            WiEvent::Cared { .. } => "wi.care",
        }
    }
}
