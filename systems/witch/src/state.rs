//! A Witch Iron character's state: its sheet, the Conditions it holds, its injuries, and the
//! Check penalties they inflict at a moment.

use crate::conditions::{rated, Care, Condition};
use crate::ids::CharacterId;
use crate::tables::effects;
use crate::tables::Cell;
use crate::time::{CampaignTime, DAY, HOUR};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A Condition held, with when its rating was last set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    /// The rating when set.
    pub rating: i32,
    /// When it was set (passive reduction counts from here).
    pub since: CampaignTime,
    /// The location, for Trauma.
    pub location: Option<String>,
}

/// An injury suffered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WiInjury {
    /// The part.
    pub part: String,
    /// The location (with its side).
    pub location: String,
    /// The Net Damage.
    pub net_damage: i32,
    /// The table cell.
    pub cell: Cell,
    /// When.
    pub at: CampaignTime,
    /// The care recorded for its marked effects.
    #[serde(default)]
    pub care: Vec<Care>,
}

impl WiInjury {
    /// The marked effects still awaiting their care, with the care each needs.
    pub fn awaiting(&self) -> Vec<(String, Care)> {
        effects(&self.cell)
            .into_iter()
            .filter_map(|(e, k)| k.filter(|k| !self.care.contains(k)).map(|k| (e, k)))
            .collect()
    }

    /// The rating of `c` this injury's marked effects hold until their care.
    pub fn held(&self, c: Condition) -> i32 {
        self.awaiting()
            .iter()
            .filter_map(|(e, _)| rated(e))
            .filter(|(k, _)| *k == c)
            .map(|(_, n)| n)
            .sum()
    }
}

/// A Witch Iron character's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WiCharacter {
    /// Id.
    pub id: CharacterId,
    /// Name.
    pub name: String,
    /// Conditions held (the rating as set; see [`WiCharacter::rating`] for now).
    pub conditions: BTreeMap<Condition, Held>,
    /// Injuries.
    pub injuries: Vec<WiInjury>,
    /// Lost body parts and other lasting losses.
    pub lost: Vec<String>,
    /// Death.
    pub death: Option<(String, CampaignTime)>,
    /// Trauma, one condition per location ("" for Trauma given without one).
    pub trauma: BTreeMap<String, Held>,
    /// The sheet.
    pub sheet: WiSheet,
    /// The last Check was a Light-Foot defence that gave ground (a second in a row falls
    /// Prone instead).
    pub gave_ground: bool,
}

/// What passive reduction leaves at `now` of a rating as set.
pub(crate) fn decayed(c: Condition, h: &Held, now: CampaignTime, round_seconds: i64) -> i32 {
    let elapsed = (now.0 - h.since.0).max(0);
    let drop = match c {
        Condition::Blind | Condition::Deaf | Condition::Pain => elapsed / HOUR,
        Condition::Entangle | Condition::Helpless | Condition::Stun => {
            elapsed / round_seconds.max(1)
        }
        Condition::Trauma => elapsed / (30 * DAY),
        _ => 0,
    };
    (h.rating - drop as i32).max(0)
}

/// A Witch Iron sheet (nothing the Quarrel reads is fixed on it: each Quarrel gives its AV,
/// RB and weapon damage).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WiSheet {
    /// Resilience Bonus, the default when a Quarrel gives none.
    pub rb: i32,
}

/// The Check penalties a character's conditions inflict at a moment (rules text 003,
/// Conditions), in percent (negative: a penalty).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckPenalties {
    /// On every Check: Pain (rating x 10%) and Prone (20%), each named with its rating.
    pub all: Vec<(String, i32)>,
    /// More on sight-based Checks: Blind (rating x 10%).
    pub sight: i32,
    /// More on hearing-based Checks: Deaf (rating x 10%).
    pub hearing: i32,
    /// More on Checks involving a location: Trauma (rating x 20%) per location.
    pub locations: Vec<(String, i32)>,
    /// What opponents' Checks against the character gain (Prone: +20%).
    pub opponents: i32,
}

impl CheckPenalties {
    /// The penalty on every Check, in percent.
    pub fn total(&self) -> i32 {
        self.all
            .iter()
            .fold(0, |sum, (_, p)| sum.saturating_add(*p))
    }

    /// No penalty on any Check, and no bonus to foes.
    pub fn is_empty(&self) -> bool {
        *self == CheckPenalties::default()
    }
}

impl WiCharacter {
    /// The Check penalties its conditions inflict at `now`.
    pub fn check_penalties(&self, now: CampaignTime, round: i64) -> CheckPenalties {
        let pain = self.rating(Condition::Pain, now, round);
        let prone = self.rating(Condition::Prone, now, round) > 0;
        let mut all = Vec::new();
        if pain > 0 {
            all.push((format!("Pain {pain}"), pain.saturating_mul(-10)));
        }
        if prone {
            all.push(("Prone".to_string(), -20));
        }
        CheckPenalties {
            all,
            sight: self
                .rating(Condition::Blind, now, round)
                .saturating_mul(-10),
            hearing: self.rating(Condition::Deaf, now, round).saturating_mul(-10),
            locations: self
                .traumas(now)
                .into_iter()
                .map(|(l, n)| (l, n.saturating_mul(-20)))
                .collect(),
            opponents: if prone { 20 } else { 0 },
        }
    }

    /// A fresh character.
    pub fn new(id: CharacterId, name: String, sheet: WiSheet) -> WiCharacter {
        WiCharacter {
            id,
            name,
            conditions: BTreeMap::new(),
            injuries: vec![],
            lost: vec![],
            death: None,
            trauma: BTreeMap::new(),
            sheet,
            gave_ground: false,
        }
    }

    /// What keeps the character from taking an Action now, an attack among them: a Stun or a
    /// Helpless rating above 0 (003 l.24: attacking is an Action; l.179-184: Stun prevents
    /// Actions, Helpless Actions and Movement). The condition and its rating; None when it
    /// may act. Reading: every Quarrel the character starts is its Action, the free attack
    /// on a foe who disengages (l.125) too (a Quarrel records no such distinction).
    pub fn action_prevented(
        &self,
        now: CampaignTime,
        round_seconds: i64,
    ) -> Option<(Condition, i32)> {
        [Condition::Helpless, Condition::Stun]
            .into_iter()
            .map(|c| (c, self.rating(c, now, round_seconds)))
            .find(|(_, n)| *n > 0)
    }

    /// A condition's rating at `now`: what passive reduction left of it (Trauma: at every
    /// location together), plus what injuries hold by a mark until their care.
    pub fn rating(&self, c: Condition, now: CampaignTime, round_seconds: i64) -> i32 {
        let passive = if c == Condition::Trauma {
            self.trauma
                .values()
                .map(|h| decayed(c, h, now, round_seconds))
                .sum()
        } else {
            self.conditions
                .get(&c)
                .map_or(0, |h| decayed(c, h, now, round_seconds))
        };
        self.injuries
            .iter()
            .fold(passive, |sum, i| sum.saturating_add(i.held(c)))
    }

    /// Trauma per location at `now` (each its own condition: rating x 20% to checks with
    /// that location), marked Trauma its injury holds included.
    pub fn traumas(&self, now: CampaignTime) -> Vec<(String, i32)> {
        let mut at: BTreeMap<String, i32> = self
            .trauma
            .iter()
            .map(|(l, h)| (l.clone(), decayed(Condition::Trauma, h, now, 1)))
            .collect();
        for i in &self.injuries {
            let held = i.held(Condition::Trauma);
            if held > 0 {
                *at.entry(i.location.clone()).or_default() += held;
            }
        }
        at.into_iter().filter(|(_, n)| *n > 0).collect()
    }

    /// Lasting losses: the unmarked ones, and marked effects that are no condition
    /// (`Lost Eye‡`, `Speechless*`) until their care.
    pub fn losses(&self) -> Vec<String> {
        let mut out = self.lost.clone();
        for i in &self.injuries {
            for (e, _) in i.awaiting() {
                if rated(&e).is_none() {
                    out.push(e.strip_prefix("Lost ").unwrap_or(&e).to_string());
                }
            }
        }
        out
    }

    /// The combined Aflame, Bleed and Poison rating at `now`.
    pub fn hardship(&self, now: CampaignTime, round: i64) -> i32 {
        [Condition::Aflame, Condition::Bleed, Condition::Poison]
            .iter()
            .map(|c| self.rating(*c, now, round))
            .sum()
    }

    pub(crate) fn add(
        &mut self,
        c: Condition,
        n: i32,
        now: CampaignTime,
        round: i64,
        location: Option<String>,
    ) {
        if c == Condition::Trauma {
            let key = location.unwrap_or_default();
            let current = self
                .trauma
                .get(&key)
                .map_or(0, |h| decayed(c, h, now, round));
            let location = (!key.is_empty()).then(|| key.clone());
            self.trauma.insert(
                key,
                Held {
                    rating: current.saturating_add(n),
                    since: now,
                    location,
                },
            );
            return;
        }
        // The passive part only: what a mark holds is the injury's.
        let current = self
            .conditions
            .get(&c)
            .map_or(0, |h| decayed(c, h, now, round));
        // Prone has no rating: falling again leaves it Prone.
        let rating = if c == Condition::Prone {
            1
        } else {
            current.saturating_add(n)
        };
        self.conditions.insert(
            c,
            Held {
                rating,
                since: now,
                location,
            },
        );
    }
}
