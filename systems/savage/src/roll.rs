//! Trait rolls (rules text 004): a die and its aces as a chain of faces, the trait die with
//! the Wild Die, and how the roll came out (under 4, 4 or more, a raise at 8, both dice on
//! 1).

use crate::SwError;
use serde::{Deserialize, Serialize};

/// One die's faces, aces included (every face but the last is the die's highest).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chain {
    /// The die's sides.
    pub sides: u16,
    /// Its faces in the order rolled.
    pub faces: Vec<u16>,
}

impl Chain {
    /// Returns the chain's total, checking that every face fits and that only aces continue.
    pub fn total(&self, name: &str) -> Result<i32, SwError> {
        if ![4, 6, 8, 10, 12].contains(&self.sides) {
            return Err(SwError::Dice(format!(
                "{name}: Savage Worlds dice are d4-d12, not d{}",
                self.sides
            )));
        }
        if self.faces.is_empty() {
            return Err(SwError::Dice(format!("{name}: no face given")));
        }
        for (i, &f) in self.faces.iter().enumerate() {
            if f < 1 || f > self.sides {
                return Err(SwError::Dice(format!(
                    "{name}: a d{} shows 1-{}, not {f}",
                    self.sides, self.sides
                )));
            }
            let last = i + 1 == self.faces.len();
            if !last && f != self.sides {
                return Err(SwError::Dice(format!(
                    "{name}: only an ace ({}) is rolled again",
                    self.sides
                )));
            }
            if last && f == self.sides {
                return Err(SwError::Dice(format!(
                    "{name}: {f} aces on a d{}: give the next face too",
                    self.sides
                )));
            }
        }
        Ok(self.faces.iter().map(|&f| i32::from(f)).sum())
    }
}

/// A trait roll: the trait die and the wild die, each acing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraitRoll {
    /// The trait die.
    pub trait_die: Chain,
    /// The wild die (a d6).
    pub wild_die: Chain,
    /// Other modifiers (not the wound penalty, which the fold applies).
    pub modifier: i32,
}

/// How a trait roll came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Both dice showed 1.
    CriticalFailure,
    /// Under 4.
    Failure,
    /// 4 or more.
    Success,
    /// 8 or more (a raise).
    Raise,
}

/// A trait roll's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraitResult {
    /// The total kept, with modifiers.
    pub total: i32,
    /// The wound penalty applied.
    pub wound_penalty: i32,
    /// The outcome.
    pub outcome: Outcome,
}

/// Reads a trait roll with a wound penalty.
pub fn trait_roll(r: &TraitRoll, wound_penalty: i32) -> Result<TraitResult, SwError> {
    let t = r.trait_die.total("trait die")?;
    if r.wild_die.sides != 6 {
        return Err(SwError::Dice("the wild die is a d6".into()));
    }
    let w = r.wild_die.total("wild die")?;
    let total = t.max(w) + r.modifier + wound_penalty;
    let outcome = if r.trait_die.faces[0] == 1 && r.wild_die.faces[0] == 1 {
        Outcome::CriticalFailure
    } else if total >= 8 {
        Outcome::Raise
    } else if total >= 4 {
        Outcome::Success
    } else {
        Outcome::Failure
    };
    Ok(TraitResult {
        total,
        wound_penalty,
        outcome,
    })
}
