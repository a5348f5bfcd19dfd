//! Injury Sequence step 1's data: the BODY LOCATION table of a creature.
//!
//! A table lists zone numbers (ZN) grouped into body zones (Head, Arms, Torso, Legs, or a
//! creature's own), and in each zone the locations a d10 Location Die (LD) selects, each with
//! its Location Shock, its bleeding circle (step 3.3) and its amputation triangle (step 3.4).
//!
//! The human table is built in ([`human`]). Other creatures' tables are data (TOML, format in
//! `fixtures/creatures/`), recorded in the ledger by a `BodyTableDefined` event so that replay
//! never depends on a file that may have changed. A campaign overrides the built-in human table
//! the same way, by defining a table named `human`.
//!
//! ## What the text gives and what Leechbook chose
//! The extraction kept zone numbers, LD ranges, Location Shock, which locations have a circle
//! and which a triangle, but lost the *shades*: every circle except the skull's and the small
//! limb joints' prints as a filled disc, and every triangle prints alike. Recovered from the
//! text: the shoulder's circle is **grey** (the step 3.3 example, "The shoulder location ...
//! contains a grey circle"); hollow circles (`○`) are **white**. Everything else is a default
//! Leechbook chose, marked `chosen` on the location so that `leechbook table show human` says
//! so, and overridable by the campaign.

use serde::{Deserialize, Serialize};

/// The body zone a location belongs to, which sets the impaired actions (step 5) and the
/// mishaps (injury mishap table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ZoneKind {
    /// Head: impaired tests and movement; grievous means automatic fumble and stumble.
    Head,
    /// An arm: that arm's impaired tests.
    Arm,
    /// Torso: impaired tests and movement.
    Torso,
    /// A leg: leg impaired tests and movement.
    Leg,
}

/// A bleeding circle's shade (step 3.3), lightest to darkest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Circle {
    /// The hollow circle: bleeds only from G5.
    White,
    /// The grey circle: E and P bleed from G4.
    Grey,
    /// The black circle: E bleeds from S3.
    Black,
}

/// An amputation triangle's shade (step 3.4): the Strength test's modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Triangle {
    /// The hollow triangle: +20 to the Strength test (beasts ML70).
    White,
    /// The grey triangle: no modifier (beasts ML50).
    Grey,
    /// The black triangle: -20 (beasts ML30).
    Black,
}

impl Triangle {
    /// Returns the Strength test modifier.
    pub fn modifier(self) -> i32 {
        match self {
            Triangle::White => 20,
            Triangle::Grey => 0,
            Triangle::Black => -20,
        }
    }

    /// Returns the fixed amputation ML for beasts ("average relative Strength").
    pub fn beast_ml(self) -> i32 {
        50 + self.modifier()
    }
}

/// One location within a zone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// Its name, as the text gives it (`abdomen`).
    pub name: String,
    /// The LD faces (lowest, highest) that select it.
    pub ld: [u8; 2],
    /// Location Shock (step 4.1).
    pub shock: u8,
    /// The bleeding circle, if any.
    #[serde(default)]
    pub circle: Option<Circle>,
    /// The amputation triangle, if any.
    #[serde(default)]
    pub triangle: Option<Triangle>,
    /// Where a value was chosen by Leechbook rather than read from the text: what and why.
    #[serde(default)]
    pub chosen: Option<String>,
}

/// One body zone: a run of zone numbers and its locations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Zone {
    /// The zone's name (`torso`).
    pub name: String,
    /// Which kind of zone, for impairment and mishaps.
    pub kind: ZoneKind,
    /// The ZNs (lowest, highest) of the zone.
    pub zn: [u8; 2],
    /// Whether locations here come in left and right (arms, legs).
    #[serde(default)]
    pub sided: bool,
    /// Reach penalties of ZNs in this zone against human strikers: (ZN, penalty).
    #[serde(default)]
    pub reach: Vec<[i32; 2]>,
    /// The locations, selected by the LD.
    pub locations: Vec<Location>,
}

/// One entry of the face option's d20 table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaceEntry {
    /// The feature (`eye`).
    pub name: String,
    /// The d20 faces (lowest, highest).
    pub d20: [u8; 2],
    /// Its Location Shock.
    pub shock: u8,
    /// Its amputation triangle, if any.
    #[serde(default)]
    pub triangle: Option<Triangle>,
}

/// The face option: a d20 that refines a strike on one location (the face) into a feature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaceOption {
    /// The location it refines.
    pub location: String,
    /// Its d20 table.
    pub entries: Vec<FaceEntry>,
}

/// A creature's BODY LOCATION table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BodyTable {
    /// The table's name (`human`, `destrier`).
    pub name: String,
    /// The default aim ZN for human strikers (the (A) mark; ZN1 for human-like targets).
    #[serde(default = "one")]
    pub default_aim: u8,
    /// The zones, in ZN order.
    pub zones: Vec<Zone>,
    /// The face option, if the creature has one.
    #[serde(default)]
    pub face: Option<FaceOption>,
}

fn one() -> u8 {
    1
}

/// What is wrong with a body location table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("body table '{table}': {problem}")]
pub struct TableError {
    /// The table's name.
    pub table: String,
    /// What is wrong.
    pub problem: String,
}

impl BodyTable {
    /// Returns the highest ZN on the table.
    pub fn zone_count(&self) -> u8 {
        self.zones.last().map(|z| z.zn[1]).unwrap_or(0)
    }

    /// Returns the index of the zone that holds `zn`, or None for a zone-die miss.
    pub fn zone_of(&self, zn: i32) -> Option<usize> {
        self.zones
            .iter()
            .position(|z| zn >= i32::from(z.zn[0]) && zn <= i32::from(z.zn[1]))
    }

    /// Returns the location within zone `zone` that the LD face selects.
    pub fn location_of(&self, zone: usize, ld: u16) -> Option<&Location> {
        self.zones.get(zone)?.locations.iter().find(|l| {
            let ld = ld as u8;
            ld >= l.ld[0] && ld <= l.ld[1]
        })
    }

    /// Finds a location by name, returning its zone index and the location.
    pub fn find_location(&self, name: &str) -> Option<(usize, &Location)> {
        self.zones.iter().enumerate().find_map(|(i, z)| {
            z.locations
                .iter()
                .find(|l| l.name.eq_ignore_ascii_case(name))
                .map(|l| (i, l))
        })
    }

    /// Returns the reach penalty for aiming at `zn` (0 when the table gives none).
    pub fn reach_penalty(&self, zn: u8) -> i32 {
        self.zones
            .iter()
            .flat_map(|z| z.reach.iter())
            .find(|r| r[0] == i32::from(zn))
            .map(|r| r[1])
            .unwrap_or(0)
    }

    /// Checks the table's shape: zones cover 1..=N without gaps or overlaps, each zone's
    /// locations cover LD 1-10 exactly, the default aim is on the table, the face option's
    /// d20 covers 1-20.
    pub fn validate(&self) -> Result<(), TableError> {
        let err = |problem: String| TableError {
            table: self.name.clone(),
            problem,
        };
        if self.name.trim().is_empty() {
            return Err(err("the table needs a name".into()));
        }
        if self.zones.is_empty() {
            return Err(err("the table has no zones".into()));
        }
        let mut next = 1u8;
        for z in &self.zones {
            if z.zn[0] != next || z.zn[1] < z.zn[0] {
                return Err(err(format!(
                    "zone '{}' covers ZN {}-{}, but ZN {} comes next",
                    z.name, z.zn[0], z.zn[1], next
                )));
            }
            next = z.zn[1].saturating_add(1);
            let mut ld = 1u8;
            for l in &z.locations {
                if l.ld[0] != ld || l.ld[1] < l.ld[0] {
                    return Err(err(format!(
                        "location '{}' in zone '{}' covers LD {}-{}, but LD {} comes next",
                        l.name, z.name, l.ld[0], l.ld[1], ld
                    )));
                }
                ld = l.ld[1].saturating_add(1);
            }
            if ld != 11 {
                return Err(err(format!(
                    "zone '{}' covers LD 1-{} of the d10 location die, not 1-10",
                    z.name,
                    ld - 1
                )));
            }
        }
        if self.default_aim < 1 || self.default_aim > self.zone_count() {
            return Err(err(format!(
                "default aim ZN{} is not on the table",
                self.default_aim
            )));
        }
        if let Some(face) = &self.face {
            if self.find_location(&face.location).is_none() {
                return Err(err(format!(
                    "the face option refines '{}', which is not a location",
                    face.location
                )));
            }
            let mut n = 1u8;
            for e in &face.entries {
                if e.d20[0] != n || e.d20[1] < e.d20[0] {
                    return Err(err(format!("face entry '{}' breaks the d20 run", e.name)));
                }
                n = e.d20[1].saturating_add(1);
            }
            if n != 21 {
                return Err(err("the face option's d20 does not cover 1-20".into()));
            }
        }
        Ok(())
    }
}

fn loc(
    name: &str,
    ld: [u8; 2],
    shock: u8,
    circle: Option<Circle>,
    triangle: Option<Triangle>,
    chosen: Option<&str>,
) -> Location {
    Location {
        name: name.into(),
        ld,
        shock,
        circle,
        triangle,
        chosen: chosen.map(str::to_string),
    }
}

/// The built-in human BODY LOCATION table (Injury Sequence step 1), with the defaults this
/// module's docs describe.
pub fn human() -> BodyTable {
    use Circle::*;
    use Triangle as T;
    const DISC: &str = "circle printed filled, shade lost in the text";
    const TRI: &str = "triangle shade lost in the text";
    BodyTable {
        name: "human".into(),
        default_aim: 1,
        zones: vec![
            Zone {
                name: "head".into(),
                kind: ZoneKind::Head,
                zn: [1, 1],
                sided: false,
                reach: vec![],
                locations: vec![
                    loc("skull", [1, 5], 5, Some(White), None, None),
                    loc(
                        "face",
                        [6, 8],
                        4,
                        Some(Grey),
                        None,
                        Some(&format!("grey: {DISC}")),
                    ),
                    loc(
                        "neck",
                        [9, 10],
                        5,
                        Some(Black),
                        Some(T::White),
                        Some(&format!(
                            "black circle: {DISC} (the great vessels); white triangle (+20): \
                             {TRI}, the thickest part"
                        )),
                    ),
                ],
            },
            Zone {
                name: "arm".into(),
                kind: ZoneKind::Arm,
                zn: [2, 3],
                sided: true,
                reach: vec![],
                locations: vec![
                    loc("shoulder", [1, 3], 3, Some(Grey), None, None),
                    loc(
                        "upper arm",
                        [4, 6],
                        1,
                        Some(White),
                        Some(T::White),
                        Some(&format!("white triangle (+20): {TRI}, a thick limb part")),
                    ),
                    loc(
                        "elbow",
                        [7, 7],
                        2,
                        Some(White),
                        Some(T::Grey),
                        Some(&format!("grey triangle (0): {TRI}")),
                    ),
                    loc(
                        "forearm",
                        [8, 9],
                        1,
                        Some(White),
                        Some(T::Grey),
                        Some(&format!("grey triangle (0): {TRI}")),
                    ),
                    loc(
                        "hand",
                        [10, 10],
                        2,
                        None,
                        Some(T::Black),
                        Some(&format!("black triangle (-20): {TRI}, a thin extremity")),
                    ),
                ],
            },
            Zone {
                name: "torso".into(),
                kind: ZoneKind::Torso,
                zn: [4, 7],
                sided: false,
                reach: vec![],
                locations: vec![
                    loc(
                        "thorax",
                        [1, 4],
                        4,
                        Some(Black),
                        None,
                        Some(&format!("black: {DISC} (heart and lungs)")),
                    ),
                    loc(
                        "abdomen",
                        [5, 7],
                        4,
                        Some(Grey),
                        None,
                        Some(&format!("grey: {DISC}")),
                    ),
                    loc(
                        "pelvis",
                        [8, 10],
                        4,
                        Some(Grey),
                        None,
                        Some(&format!("grey: {DISC}")),
                    ),
                ],
            },
            Zone {
                name: "leg".into(),
                kind: ZoneKind::Leg,
                zn: [8, 10],
                sided: true,
                reach: vec![],
                locations: vec![
                    loc(
                        "thigh",
                        [1, 4],
                        3,
                        Some(Black),
                        Some(T::White),
                        Some(&format!(
                            "black circle: {DISC} (the femoral artery); white triangle (+20): \
                             {TRI}, a thick limb part"
                        )),
                    ),
                    loc(
                        "knee",
                        [5, 5],
                        2,
                        Some(White),
                        Some(T::Grey),
                        Some(&format!("grey triangle (0): {TRI}")),
                    ),
                    loc(
                        "calf",
                        [6, 8],
                        1,
                        Some(White),
                        Some(T::Grey),
                        Some(&format!("grey triangle (0): {TRI}")),
                    ),
                    loc(
                        "foot",
                        [9, 10],
                        2,
                        None,
                        Some(T::Black),
                        Some(&format!("black triangle (-20): {TRI}, a thin extremity")),
                    ),
                ],
            },
        ],
        face: Some(FaceOption {
            location: "face".into(),
            entries: vec![
                face("eye", [1, 2], 5, Some(T::Black)),
                face("nose", [3, 4], 5, Some(T::Black)),
                face("cheek", [5, 12], 4, None),
                face("ear", [13, 14], 5, Some(T::Black)),
                face("mouth", [15, 16], 4, None),
                face("jaw", [17, 20], 4, None),
            ],
        }),
    }
}

fn face(name: &str, d20: [u8; 2], shock: u8, triangle: Option<Triangle>) -> FaceEntry {
    FaceEntry {
        name: name.into(),
        d20,
        shock,
        triangle,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_human_table_is_well_formed() {
        human().validate().unwrap();
    }

    #[test]
    fn location_example_zd2_aimed_at_zn4_ld7_is_the_abdomen() {
        // Injury Sequence, "1 Location example" (000:442).
        let t = human();
        let zone = t.zone_of(4 + 2 - 1).unwrap();
        assert_eq!(t.zones[zone].name, "torso");
        assert_eq!(t.location_of(zone, 7).unwrap().name, "abdomen");
    }

    #[test]
    fn zone_die_miss_off_the_table() {
        // "aiming for ZN8 with a d4 ZD and rolling a 4 ... results in a miss (8 → 11)".
        assert_eq!(human().zone_of(8 + 4 - 1), None);
    }

    #[test]
    fn a_gap_in_the_location_die_is_refused() {
        let mut t = human();
        t.zones[0].locations[1].ld = [7, 8];
        assert!(t.validate().is_err());
    }
}
