//! The injury tables: a cell (the injury's name, effects and mark), a part's locations
//! and severity rows, and the Head and Torso tables from the text (the other parts' the GM
//! supplies).

use crate::conditions::Care;
use crate::error::WiError;
use serde::{Deserialize, Serialize};

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

pub(crate) fn cell(s: &str) -> Cell {
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

pub(crate) fn loc(name: &str, units: &[u8], sided: bool, rows: [&str; 10]) -> WiLocation {
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
