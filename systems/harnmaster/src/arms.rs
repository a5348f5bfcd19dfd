//! Weapons and armour as data (a campaign records them with `ArmsDefined`; fixtures/ has a
//! starter set), and what a character carries and can do (`Equipped`).
//!
//! Armour value at a location is the sum of the pieces covering it (layers add); the
//! location counts as rigidly armoured when any covering piece is rigid. A missile's Armour
//! Reduction lowers that AV, not below zero. A character's primary hand is the right one.

use super::state::{Aspect, Place};
/// What a character carries and can do with it: kept with the character's state.
pub use super::state::{Gear, Skills};
use serde::{Deserialize, Serialize};

/// One strike mode of a weapon (`edge`, `point`, `bash`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrikeMode {
    /// The mode's name.
    pub name: String,
    /// Its aspect.
    pub aspect: Aspect,
    /// Its impact die and modifier (`d10+3`).
    pub impact: String,
    /// A thrust (T): the Thrust Bonus applies.
    #[serde(default)]
    pub thrust: bool,
}

/// Missile weapons' kinds, for the missile skill and modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MissileKind {
    /// Bow: Archery.
    Bow,
    /// Crossbow: Archery.
    Crossbow,
    /// Sling: Slings.
    Sling,
    /// Thrown weapon or object: Throwing.
    Thrown,
}

/// A weapon.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapon {
    /// Its name.
    pub name: String,
    /// Its Zone Die's sides.
    pub zone_die: u16,
    /// Reach (RCH).
    pub reach: i32,
    /// Heft (HFT).
    pub heft: i32,
    /// Its strike modes.
    pub modes: Vec<StrikeMode>,
    /// A shield (blocks at its own HFT off-hand).
    #[serde(default)]
    pub shield: bool,
    /// The Impact TA trait, where it differs from 3B/5E/4P/2F.
    #[serde(default)]
    pub impact_ta: Option<i32>,
    /// Missile weapons: the kind.
    #[serde(default)]
    pub missile: Option<MissileKind>,
    /// Missile weapons: Base Range in feet.
    #[serde(default)]
    pub base_range: Option<i32>,
    /// Missile weapons: the projectile's Armour Reduction.
    #[serde(default)]
    pub armour_reduction: i32,
    /// Missile weapons: shoots arrows or bolts (impalement, extraction).
    #[serde(default)]
    pub projectile: bool,
}

/// A piece of armour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmourPiece {
    /// Its name.
    pub name: String,
    /// Rigid (glancing blows).
    #[serde(default)]
    pub rigid: bool,
    /// Armour value against blunt, edge, point, fire/frost.
    pub av: [i32; 4],
    /// The locations it covers (`thorax`, `abdomen`, `face` covers its features).
    pub covers: Vec<String>,
}

/// A campaign's weapons and armour.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arms {
    /// The weapons.
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    /// The armour.
    #[serde(default)]
    pub armour: Vec<ArmourPiece>,
}

impl Arms {
    /// Finds a weapon by name, case-insensitively.
    pub fn weapon(&self, name: &str) -> Option<&Weapon> {
        self.weapons
            .iter()
            .find(|w| w.name.eq_ignore_ascii_case(name))
    }

    /// Finds an armour piece by name.
    pub fn armour(&self, name: &str) -> Option<&ArmourPiece> {
        self.armour
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(name))
    }

    /// Merges definitions: a later definition of a name replaces the earlier.
    pub fn merge(&mut self, more: &Arms) {
        for w in &more.weapons {
            self.weapons
                .retain(|x| !x.name.eq_ignore_ascii_case(&w.name));
            self.weapons.push(w.clone());
        }
        for a in &more.armour {
            self.armour
                .retain(|x| !x.name.eq_ignore_ascii_case(&a.name));
            self.armour.push(a.clone());
        }
    }

    /// Checks the data.
    pub fn validate(&self) -> Result<(), String> {
        for w in &self.weapons {
            crate::dice::Die::new(w.zone_die).map_err(|e| format!("weapon '{}': {e}", w.name))?;
            if w.modes.is_empty() {
                return Err(format!("weapon '{}' has no strike mode", w.name));
            }
            for m in &w.modes {
                m.impact
                    .parse::<crate::dice::DiceExpr>()
                    .map_err(|e| format!("weapon '{}' mode '{}': {e}", w.name, m.name))?;
            }
            if w.missile.is_some() && w.base_range.is_none() {
                return Err(format!("missile weapon '{}' needs a base_range", w.name));
            }
        }
        Ok(())
    }
}

/// Returns the AV and rigidity at `place` against `aspect`, less `reduction`, from the
/// armour worn.
pub fn armour_at(
    arms: &Arms,
    gear: &Gear,
    place: &Place,
    aspect: Aspect,
    reduction: i32,
    face_features: &[String],
) -> (i32, bool) {
    let col = match aspect {
        Aspect::Blunt => 0,
        Aspect::Edge => 1,
        Aspect::Point => 2,
        Aspect::Fire | Aspect::Frost => 3,
    };
    let mut av = 0;
    let mut rigid = false;
    for piece in gear.armour.iter().filter_map(|n| arms.armour(n)) {
        let covers = piece.covers.iter().any(|c| {
            c.eq_ignore_ascii_case(&place.location)
                || (c == "face" && face_features.iter().any(|f| f == &place.location))
        });
        if covers {
            av += piece.av[col];
            rigid |= piece.rigid;
        }
    }
    ((av - reduction).max(0), rigid)
}

/// The arms a grip uses, as (right, left): the primary hand is the right, the off hand the
/// left, and a two-handed grip uses both (so an injury to either counts).
pub fn arms_of(grip: super::melee::Grip) -> (bool, bool) {
    match grip {
        super::melee::Grip::Primary => (true, false),
        super::melee::Grip::OffHand => (false, true),
        super::melee::Grip::TwoHanded => (true, true),
    }
}
