//! Witch Iron's Quarrel rules (rules text 003): melee and ranged Quarrels decided by Net Hits,
//! the hit location chosen by the defender and the location by the attack's units die, injury
//! severity from Net Damage ((weapon damage + Net Hits) - (AV + RB)) on the Head and Torso
//! tables, critical hits (+d6E) and fumbles, and the Conditions with ratings.
//!
#![doc = include_str!("readings.md")]
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

/// The kernel's modules this system reads, at the paths its modules name them by.
pub(crate) use leechbook_kernel::{ids, time};

use crate::ids::CharacterId;
use crate::time::{CampaignTime, DAY, HOUR};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub mod system;

/// Leechbook's readings of the text (this module's documentation, `table show readings`).
pub const READINGS: &str = include_str!("readings.md");

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

    fn of(s: Option<&str>) -> Option<Care> {
        match s {
            Some("healing") => Some(Care::Healing),
            Some("surgery") => Some(Care::Surgery),
            _ => None,
        }
    }
}

/// A cell's effects, each with the care that removes it (see the module's readings).
pub fn effects(c: &Cell) -> Vec<(String, Option<Care>)> {
    let inline = c.effects.contains(['‡', '*']);
    c.effects
        .split('|')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(|e| {
            let care = if e.contains('‡') {
                Some(Care::Surgery)
            } else if e.contains('*') {
                Some(Care::Healing)
            } else if inline {
                None
            } else {
                Care::of(c.requires.as_deref())
            };
            (e.replace(['‡', '*'], "").trim().to_string(), care)
        })
        .collect()
}

/// A rated effect (`Pain 5`): its condition and rating.
fn rated(effect: &str) -> Option<(Condition, i32)> {
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

/// One injury table cell: the injury's name and effects, and its mark.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// The injury (`Nose Slash`).
    pub name: String,
    /// Its effects as the table prints them (`Bleed 1`, `Lost Nose|Pain 2`).
    pub effects: String,
    /// `healing` (*) or `surgery` (‡) is required to remove it.
    #[serde(default)]
    pub requires: Option<String>,
}

/// One location of a part's table: its units-die range and its ten severity rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WiLocation {
    /// Its name.
    pub name: String,
    /// The units die faces (1-10) that select it; a pair L/R when sided.
    pub units: Vec<u8>,
    /// Sided: the lower face is left, the higher right.
    #[serde(default)]
    pub sided: bool,
    /// The rows 1+ to 10+.
    pub rows: Vec<Cell>,
}

/// A body part's injury table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartTable {
    /// `head`, `torso`, `arm`, `leg`.
    pub part: String,
    /// Its locations.
    pub locations: Vec<WiLocation>,
}

impl PartTable {
    /// Checks: locations cover units 1-10, and each has ten rows.
    pub fn validate(&self) -> Result<(), WiError> {
        let mut seen = [false; 10];
        for l in &self.locations {
            if l.rows.len() != 10 {
                return Err(WiError::Rows {
                    part: self.part.clone(),
                    location: l.name.clone(),
                    rows: l.rows.len(),
                });
            }
            for &u in &l.units {
                if !(1..=10).contains(&u) || seen[usize::from(u - 1)] {
                    return Err(WiError::UnitsFace {
                        part: self.part.clone(),
                        face: u,
                    });
                }
                seen[usize::from(u - 1)] = true;
            }
        }
        if seen.iter().any(|s| !s) {
            return Err(WiError::UnitsUncovered {
                part: self.part.clone(),
            });
        }
        Ok(())
    }
}

fn cell(s: &str) -> Cell {
    let requires = if s.contains('‡') {
        Some("surgery".to_string())
    } else if s.contains('*') {
        Some("healing".to_string())
    } else {
        None
    };
    // The marks stay in the effects, each on the effect it follows.
    let (name, effects) = s.split_once(", ").unwrap_or((s, ""));
    Cell {
        name: name.replace(['‡', '*'], "").trim().into(),
        effects: effects.trim().into(),
        requires,
    }
}

fn loc(name: &str, units: &[u8], sided: bool, rows: [&str; 10]) -> WiLocation {
    WiLocation {
        name: name.into(),
        units: units.to_vec(),
        sided,
        rows: rows.iter().map(|r| cell(r)).collect(),
    }
}

/// The Head table, from the text.
pub fn head() -> PartTable {
    PartTable {
        part: "head".into(),
        locations: vec![
            loc(
                "nose",
                &[1],
                false,
                [
                    "Swollen, Pain 1",
                    "Nose Slash, Bleed 1",
                    "Lose Smell, Trauma 2",
                    "Nostril Ripped, Pain 2",
                    "Bridge Gash, Bleed 2",
                    "Bent & Broken, Pain 2‡",
                    "Split Down Middle, Bleed 3",
                    "Mangled, Lost Nose|Pain 2‡",
                    "Removed, Lost Nose|Bleed 3",
                    "Driven into Brain, Dead",
                ],
            ),
            loc(
                "jaw",
                &[2],
                false,
                [
                    "Swollen Cheek, Pain 1",
                    "Missing Teeth, Pain 2|d10 Lost",
                    "Gushing Mouth, Bleed 1",
                    "Hard Hit, Fall Prone",
                    "Dislocated, Pain 2*",
                    "Tongue Cut, Speechless*",
                    "Broken, Trauma 3‡",
                    "Out Cold, Helpless 3",
                    "Detached, Lost Jaw‡|Bleed 3",
                    "Straight to Brain Stem, Dead",
                ],
            ),
            loc(
                "ear",
                &[3, 4],
                true,
                [
                    "Tenderized, Deaf 2",
                    "Ear Infection, Pain 1",
                    "Cauliflower Ear, Deaf 3",
                    "Discombobulated, Stun 1",
                    "Tinnitus, Deaf 2‡",
                    "Half-Severed, Bleed 2",
                    "Ear Drum Burst, Stun 2",
                    "Ripped Off, Lost Ear|Bleed 2",
                    "Hearing Loss, Deaf 6‡",
                    "…And Out the Other, Dead",
                ],
            ),
            loc(
                "eye",
                &[5, 6],
                true,
                [
                    "Black Eye, Blind 1",
                    "Sliced Brow, Bleed 1",
                    "Double-Vision, Blind 2",
                    "Cut Orbit, Bleed 2",
                    "Swollen Shut, Blind 3",
                    "Lid Removed, Pain 2*",
                    "Severe Injury, Blind 3*",
                    "Popped Out, Lost Eye‡",
                    "Destroyed, Lost Eye|Bleed 4",
                    "Run Through, Brain Dead",
                ],
            ),
            loc(
                "neck",
                &[7, 8],
                false,
                [
                    "Bruised, Pain 1",
                    "Nicked, Bleed 2",
                    "Whiplash, Pain 2",
                    "Gashed, Bleed 3",
                    "Gasping, Stun 1",
                    "Open Wound, Bleed 4",
                    "Larynx Shut, Speechless‡",
                    "Trachea Injury, Suffocate*",
                    "Broken, Helpless 5‡",
                    "Head Torn Off, Dead",
                ],
            ),
            loc(
                "skull",
                &[9, 10],
                false,
                [
                    "Vision Blurred, Blind 1",
                    "Shocked, Stun 1",
                    "Brain Bruised, Pain 2",
                    "Amnesia, Stun 2|Forget d6 min",
                    "Black Out, Helpless 1",
                    "Concussion, Stun 3",
                    "Out Cold, Helpless 2",
                    "Brain Damage, Pain 5‡",
                    "Skull Fracture, Helpless 5‡",
                    "Brain Destroyed, Dead",
                ],
            ),
        ],
    }
}

/// The Torso table, from the text.
pub fn torso() -> PartTable {
    PartTable {
        part: "torso".into(),
        locations: vec![
            loc(
                "shoulder",
                &[1, 2],
                true,
                [
                    "Tenderized, Pain 1",
                    "Beaten, Disarm",
                    "Chipped, Pain 2",
                    "Torn Rotator Cuff, Trauma 1",
                    "Nerve Damage, Disarm|Pain 3",
                    "Fractured, Trauma 2",
                    "Dislocated, Lost Arm*",
                    "Shattered, Lost Arm‡",
                    "Torn Off, Lost Arm|Bleed 5",
                    "Deflect into Neck, Dead",
                ],
            ),
            loc(
                "pelvis",
                &[3, 4],
                false,
                [
                    "Bruised, Pain 1",
                    "Checked, Fall Prone",
                    "Chipped, Trauma 1",
                    "Nerve Struck, Stun 1",
                    "Hairline Fracture, Trauma 2",
                    "Smashed Groin, Stun 2",
                    "Major Break, Trauma 3",
                    "Torn Artery, Bleed 3",
                    "Shattered, Lost Legs‡|Pain 5",
                    "Cut Abdominal Aorta, Dead",
                ],
            ),
            loc(
                "rib cage",
                &[5, 6],
                false,
                [
                    "Throbbing Hit, Pain 1",
                    "Organ Press, Fall Prone",
                    "Fractured Rib, Trauma 1",
                    "Nerve Struck, Stun 1",
                    "Few Broken Ribs, Trauma 2",
                    "Vessel Rip, Bleed 2",
                    "Many Broken Ribs, Trauma 3",
                    "Bone Shrapnel, Bleed 4",
                    "Severed Spine, Helpless 5‡",
                    "Chopped in Half, Dead",
                ],
            ),
            loc(
                "guts",
                &[7, 8],
                false,
                [
                    "Bruised, Pain 1",
                    "Checked, Fall Prone",
                    "Internal Bleed, Bleed 1",
                    "Vomiting, Stun 1",
                    "Punctured Gut, Bleed 2",
                    "Lining Damage, Pain 3",
                    "Ripped Abs, Pain 2‡|Bleed 2",
                    "Exposed Intestine, Bleed 4",
                    "Fecal Seep, Poison 5",
                    "Disemboweled, Dead",
                ],
            ),
            loc(
                "liver/kidney",
                &[9],
                false,
                [
                    "Bruised, Pain 1",
                    "Shocked, Fall Prone",
                    "Nick, Bleed 1",
                    "Spasmed, Stun 1",
                    "Profuse Bleeding, Bleed 2",
                    "Organ Leak, Poison 2",
                    "Rupture, Bleed 3",
                    "Toxic Shock, Poison 4",
                    "Extraction, Bleed 5",
                    "Lacerated Vena Cava, Dead",
                ],
            ),
            loc(
                "heart/lung",
                &[10],
                false,
                [
                    "Knocked out Wind, Stun 1",
                    "Heart Bounce, Fall Prone",
                    "Interrupt Breathing, Stun 2",
                    "Bruised Heart, Trauma 1",
                    "Paralyzed Diaphragm, Stun 3",
                    "Heart Damage, Trauma 2",
                    "Bleeding Lung, Bleed 5",
                    "Nicked Heart, Bleed 7",
                    "Punctured Lung, Suffocate‡",
                    "Heart Ripped Out, Dead",
                ],
            ),
        ],
    }
}

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
fn decayed(c: Condition, h: &Held, now: CampaignTime, round_seconds: i64) -> i32 {
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

    fn add(
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

/// Looks up an injury: the part's table, the location by the units die, the row by damage.
pub fn injury(
    tables: &[PartTable],
    part: &str,
    units: u8,
    net_damage: i32,
) -> Result<Option<(String, Cell)>, WiError> {
    let part_l = part.trim().to_ascii_lowercase();
    let (part_name, side) = match part_l.split_once(' ') {
        Some((s @ ("left" | "right"), p)) => (p.to_string(), Some(s)),
        _ => (part_l.clone(), None),
    };
    let table = match part_name.as_str() {
        "head" => head(),
        "torso" => torso(),
        "arm" | "leg" => tables
            .iter()
            .rev()
            .find(|t| t.part == part_name)
            .cloned()
            .ok_or_else(|| WiError::TableNotLoaded {
                part: part_name.clone(),
            })?,
        other => return Err(WiError::NotAPart(other.to_string())),
    };
    let units = if units == 0 { 10 } else { units };
    if !(1..=10).contains(&units) {
        return Err(WiError::UnitsDie(units));
    }
    if net_damage <= 0 {
        return Ok(None);
    }
    let l = table
        .locations
        .iter()
        .find(|l| l.units.contains(&units))
        .ok_or_else(|| WiError::NoLocation {
            part: part_name.clone(),
            units,
        })?;
    let lside = if l.sided {
        Some(if units == *l.units.iter().min().unwrap_or(&units) {
            "left"
        } else {
            "right"
        })
    } else {
        None
    };
    let name = match (side, lside) {
        (Some(s), _) | (None, Some(s)) => format!("{s} {}", l.name),
        _ => l.name.clone(),
    };
    let row = (net_damage.min(10) - 1) as usize;
    Ok(Some((name, l.rows[row].clone())))
}

/// Applies an injury's effects to the character.
fn suffer(
    ch: &mut WiCharacter,
    part: &str,
    location: String,
    net: i32,
    c: Cell,
    now: CampaignTime,
    round: i64,
) -> Injured {
    // Receiving damage removes Helpless (a marked Helpless is its injury's, and stays).
    ch.conditions.remove(&Condition::Helpless);
    for (effect, care) in effects(&c) {
        let marked = care.is_some();
        if let Some((cond, n)) = rated(&effect) {
            // A marked condition is held by the injury (WiInjury::held) until its care.
            if !marked {
                let loc = (cond == Condition::Trauma).then(|| location.clone());
                ch.add(cond, n, now, round, loc);
            }
        } else if effect == "Fall Prone" {
            ch.add(Condition::Prone, 1, now, round, None);
        } else if effect == "Dead" || effect == "Brain Dead" {
            ch.death = Some((format!("{}: {}", location, c.name), now));
        } else if effect == "Disarm" {
            // Momentary: the weapon is dropped; narrated, not a lasting loss.
        } else if !marked {
            ch.lost
                .push(effect.strip_prefix("Lost ").unwrap_or(&effect).to_string());
        }
    }
    let injured = Injured {
        location: location.clone(),
        net_damage: net,
        cell: c.clone(),
    };
    ch.injuries.push(WiInjury {
        part: part.into(),
        location,
        net_damage: net,
        cell: c,
        at: now,
        care: Vec::new(),
    });
    injured
}

/// The most one condition event changes a rating by (the tables give 1-5; a larger number
/// is a typo, refused before it can make the Check penalties meaningless).
pub const MAX_CONDITION_STEP: i32 = 100;

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

/// Exploding d6 faces: every 6 but the last continues.
fn d6e(faces: &[u16]) -> Result<i32, WiError> {
    for (i, &f) in faces.iter().enumerate() {
        if !(1..=6).contains(&f) {
            return Err(WiError::CriticalFace(f));
        }
        let last = i + 1 == faces.len();
        if !last && f != 6 {
            return Err(WiError::OnlySixExplodes);
        }
        if last && f == 6 {
            return Err(WiError::CriticalExploded);
        }
    }
    Ok(faces.iter().map(|&f| i32::from(f)).sum())
}

/// What a Quarrel decided, read-only: net hits and who injures whom.
pub fn net_hits(
    attack: i32,
    defence: i32,
    charge: bool,
    brace: bool,
    give_ground: bool,
    d: WiDefence,
) -> i32 {
    let a = attack + if charge { 2 } else { 0 };
    let mut def = defence + if brace { 2 } else { 0 };
    if give_ground && d == WiDefence::LightFoot {
        def += 2;
    }
    a - def
}

/// Applies an event to the characters it concerns (the caller applies to copies, so an error
/// leaves nothing changed). `attacker` is the Quarrel's attacker when there is one.
pub fn apply(
    target: &mut WiCharacter,
    attacker: Option<&mut WiCharacter>,
    tables: &[PartTable],
    e: &WiEvent,
    now: CampaignTime,
    round: i64,
) -> Result<Vec<WiStep>, WiError> {
    if target.death.is_some() {
        return Err(WiError::Dead(target.name.clone()));
    }
    match e {
        WiEvent::Quarrel {
            defence,
            attack_hits,
            defence_hits,
            charge,
            brace,
            give_ground,
            attacker_fumble,
            defender_fumble,
            strike,
            ..
        } => {
            let att = attacker.ok_or(WiError::NoAttacker)?;
            if att.death.is_some() {
                return Err(WiError::Dead(att.name.clone()));
            }
            let net = net_hits(
                *attack_hits,
                *defence_hits,
                *charge,
                *brace,
                *give_ground,
                *defence,
            );
            let mut parts = vec![WiStep::Attacked {
                by: att.name.clone(),
                net_hits: net,
            }];
            // Giving Ground on two Checks in a row: Prone instead of the move (the +2 stays).
            let gives = *give_ground && *defence == WiDefence::LightFoot;
            let twice = gives && target.gave_ground;
            target.gave_ground = gives && !twice;
            att.gave_ground = false;
            if twice {
                target.add(Condition::Prone, 1, now, round, None);
                parts.push(WiStep::GaveGroundTwice {
                    who: target.name.clone(),
                });
            }
            if *attacker_fumble {
                att.add(Condition::Prone, 1, now, round, None);
                parts.push(WiStep::Fumbled {
                    who: att.name.clone(),
                });
            }
            if *defender_fumble {
                target.add(Condition::Prone, 1, now, round, None);
                parts.push(WiStep::Fumbled {
                    who: target.name.clone(),
                });
            }
            let (who, hits): (&mut WiCharacter, i32) = if net >= 0 {
                (&mut *target, net)
            } else if *defence == WiDefence::Melee && !*brace {
                (&mut *att, -net)
            } else {
                parts.push(WiStep::Dodged);
                return Ok(parts);
            };
            let s = strike.as_ref().ok_or(WiError::NoStrike)?;
            let crit = if s.critical.is_empty() {
                0
            } else {
                d6e(&s.critical)?
            };
            if let Some(d) = s.dent_armour {
                if !(1..=6).contains(&d) {
                    return Err(WiError::DentFace(d));
                }
            }
            let weapon = s.weapon_damage + i32::from(s.clip_weapon);
            let av = s.av + s.dent_armour.map_or(0, i32::from);
            let nd = (weapon + hits) - (av + s.rb) + crit;
            if s.clip_weapon {
                parts.push(WiStep::WeaponClipped);
            }
            if let Some(d) = s.dent_armour {
                parts.push(WiStep::ArmourDented { d6: d });
            }
            parts.push(WiStep::NetDamage {
                weapon,
                hits,
                av,
                rb: s.rb,
                critical: crit,
                net: nd,
            });
            let name = who.name.clone();
            match injury(tables, &s.part, s.units, nd)? {
                None => parts.push(WiStep::Unhurt { who: Some(name) }),
                Some((loc, c)) => parts.push(WiStep::Injured {
                    who: Some(name),
                    injury: suffer(who, &s.part, loc, nd, c, now, round),
                }),
            }
            Ok(parts)
        }
        WiEvent::Injure {
            part,
            units,
            net_damage,
            ..
        } => match injury(tables, part, *units, *net_damage)? {
            None => Ok(vec![WiStep::Unhurt { who: None }]),
            Some((loc, c)) => Ok(vec![WiStep::Injured {
                who: None,
                injury: suffer(target, part, loc, *net_damage, c, now, round),
            }]),
        },
        WiEvent::EndOfRound {
            d6, hardship_hits, ..
        } => {
            if !(1..=6).contains(d6) {
                return Err(WiError::D6Face(*d6));
            }
            let rating = target.hardship(now, round);
            if rating == 0 {
                return Err(WiError::NoHardship(target.name.clone()));
            }
            if i32::from(*d6) > rating {
                if hardship_hits.is_some() {
                    return Err(WiError::NoHardshipQuarrel { d6: *d6, rating });
                }
                return Ok(vec![WiStep::HardshipSpared { d6: *d6, rating }]);
            }
            let hits = hardship_hits.ok_or(WiError::HardshipHitsMissing { d6: *d6, rating })?;
            let dies = hits < rating;
            if dies {
                target.death = Some((
                    "Aflame, Bleed or Poison (a lost Hardship Quarrel)".into(),
                    now,
                ));
            } else {
                for c in [Condition::Aflame, Condition::Bleed, Condition::Poison] {
                    target.conditions.remove(&c);
                }
            }
            Ok(vec![WiStep::Hardship {
                d6: *d6,
                rating,
                hits,
                dies,
            }])
        }
        WiEvent::Condition {
            condition,
            delta,
            by,
            ..
        } => match delta {
            None => {
                let had = if *condition == Condition::Trauma {
                    let had = !target.trauma.is_empty();
                    target.trauma.clear();
                    had
                } else {
                    target.conditions.remove(condition).is_some()
                };
                if !had {
                    // A marked effect's rating is the injury's until its care: say which.
                    let held = target.injuries.iter().find_map(|i| {
                        let rating = i.held(*condition);
                        let care = i
                            .awaiting()
                            .into_iter()
                            .find(|(e, _)| rated(e).is_some_and(|(k, _)| k == *condition))
                            .map(|(_, k)| k)?;
                        (rating > 0).then(|| (i.location.clone(), rating, care))
                    });
                    if let Some((location, rating, care)) = held {
                        return Err(WiError::HeldByInjury {
                            name: target.name.clone(),
                            condition: *condition,
                            rating,
                            location,
                            care,
                        });
                    }
                    return Err(WiError::NoCondition {
                        name: target.name.clone(),
                        condition: *condition,
                    });
                }
                Ok(vec![WiStep::ConditionRemoved {
                    condition: *condition,
                    by: by.clone(),
                }])
            }
            Some(d) if d.abs() > MAX_CONDITION_STEP => Err(WiError::ConditionStep(*d)),
            Some(d) => {
                target.add(*condition, *d, now, round, None);
                Ok(vec![WiStep::ConditionChanged {
                    condition: *condition,
                    delta: *d,
                    by: by.clone(),
                    now: target.rating(*condition, now, round),
                }])
            }
        },
        WiEvent::TableDefined(t) => {
            t.validate()?;
            Ok(vec![WiStep::TableDefined {
                part: t.part.clone(),
            }])
        }
        WiEvent::Cared {
            location, care, by, ..
        } => {
            let loc = location.trim().to_ascii_lowercase();
            let name = target.name.clone();
            let inj = target
                .injuries
                .iter_mut()
                .find(|i| i.location == loc && i.awaiting().iter().any(|(_, k)| k == care))
                .ok_or_else(|| WiError::NothingAwaits {
                    name,
                    location: loc.clone(),
                    care: *care,
                })?;
            let ended: Vec<String> = inj
                .awaiting()
                .into_iter()
                .filter(|(_, k)| k == care)
                .map(|(e, _)| e)
                .collect();
            inj.care.push(*care);
            Ok(vec![WiStep::Cared {
                care: *care,
                location: loc,
                by: by.clone(),
                ended,
            }])
        }
    }
}

/// Witch Iron's campaign-wide settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WiSettings {
    /// The Arms & Legs tables the GM supplied.
    pub tables: Vec<PartTable>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use uuid::Uuid;

    #[test]
    fn the_tables_are_whole() {
        head().validate().unwrap();
        torso().validate().unwrap();
    }

    #[test]
    fn locations_and_severity_from_the_text() {
        let (l, c) = injury(&[], "head", 1, 2).unwrap().unwrap();
        assert_eq!(
            (l.as_str(), c.name.as_str(), c.effects.as_str()),
            ("nose", "Nose Slash", "Bleed 1")
        );
        let (l, c) = injury(&[], "head", 6, 8).unwrap().unwrap();
        assert_eq!(
            (l.as_str(), c.name.as_str(), c.requires.as_deref()),
            ("right eye", "Popped Out", Some("surgery"))
        );
        let (l, c) = injury(&[], "torso", 0, 15).unwrap().unwrap();
        assert_eq!(
            (l.as_str(), c.name.as_str()),
            ("heart/lung", "Heart Ripped Out")
        );
        assert!(injury(&[], "torso", 3, 0).unwrap().is_none());
        let e = injury(&[], "left arm", 3, 4).unwrap_err();
        assert_eq!(e, WiError::TableNotLoaded { part: "arm".into() });
    }

    #[test]
    fn conditions_add_reduce_and_the_end_of_round_hardship() {
        let mut c = WiCharacter::new(
            CharacterId(Uuid::from_u128(1)),
            "Ana".into(),
            WiSheet::default(),
        );
        let t0 = CampaignTime::START;
        suffer(
            &mut c,
            "torso",
            "guts".into(),
            5,
            injury(&[], "torso", 7, 5).unwrap().unwrap().1,
            t0,
            10,
        );
        assert_eq!(
            c.rating(Condition::Bleed, t0, 10),
            2,
            "Punctured Gut, Bleed 2"
        );
        c.add(Condition::Pain, 3, t0, 10, None);
        assert_eq!(
            c.rating(Condition::Pain, t0.plus(2 * HOUR), 10),
            1,
            "Pain falls one an hour"
        );
        c.add(Condition::Stun, 2, t0, 10, None);
        assert_eq!(
            c.rating(Condition::Stun, t0.plus(10), 10),
            1,
            "Stun falls one a round"
        );
        assert_eq!(
            c.rating(Condition::Stun, t0.plus(30), 10),
            0,
            "to zero, not below"
        );
        // d6 within Bleed 2: the Hardship Quarrel at 2 Hits removes it.
        let e = WiEvent::EndOfRound {
            character: c.id,
            d6: 2,
            hardship_hits: Some(2),
        };
        apply(&mut c, None, &[], &e, t0, 10).unwrap();
        assert_eq!(c.rating(Condition::Bleed, t0, 10), 0);
    }

    #[test]
    fn quarrel_net_hits_decide_who_injures() {
        assert_eq!(net_hits(3, 3, false, false, false, WiDefence::Melee), 0);
        assert_eq!(net_hits(3, 2, false, false, true, WiDefence::LightFoot), -1);
        assert_eq!(net_hits(1, 2, true, false, false, WiDefence::Melee), 1);
        assert_eq!(d6e(&[6, 3]), Ok(9));
        assert!(d6e(&[6]).is_err());
    }
}
