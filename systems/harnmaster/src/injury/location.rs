//! Step 1 of the Injury Sequence: where a strike lands. A location is named, the whole
//! body is struck (an area attack), or the Zone Die is rolled against the aim (with Precision's extra dice and the pick among them), then the Location Die within
//! the zone, the side, and the face feature when the face option is used.

use super::{DiceSource, Side, SideRule, Strike, StrikeError, Targeting};
use crate::body::{BodyTable, Circle, Triangle};
use crate::dice::Die;
use crate::state::Place;
use serde::{Deserialize, Serialize};

/// What step 1 found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LocationStep {
    /// Rolled: the ZD faces, the ZN each reached, the applied one, the LDs, the applied one.
    Rolled {
        /// The Zone Die.
        zone_die: Die,
        /// The aim.
        aim: u8,
        /// Every ZD face.
        zone_faces: Vec<u16>,
        /// The applied ZD face's index.
        zone_pick: usize,
        /// The ZN struck.
        zn: i32,
        /// Every LD face.
        location_faces: Vec<u16>,
        /// The applied LD face's index.
        location_pick: usize,
        /// The side die, when one was rolled.
        side_face: Option<u16>,
        /// The face option's d20, when rolled.
        face_roll: Option<u16>,
    },
    /// The zone die went off the table: the strike misses.
    Miss {
        /// The Zone Die.
        zone_die: Die,
        /// The aim.
        aim: u8,
        /// The ZD face applied.
        face: u16,
        /// The ZN it reached.
        zn: i32,
    },
    /// A zone named, its location rolled: the LD face, and the side die's when one was
    /// rolled.
    InZone {
        /// The LD face.
        location_face: u16,
    },
    /// Selected, not rolled.
    Chosen,
    /// An area attack.
    Area,
}

/// The location facts step 1 hands on.
pub(super) struct Struck {
    pub(super) place: Place,
    pub(super) shock: u8,
    pub(super) circle: Option<Circle>,
    pub(super) triangle: Option<Triangle>,
}

fn pick(what: &'static str, pick: Option<u8>, count: usize) -> Result<usize, StrikeError> {
    let p = pick.unwrap_or(1);
    if p == 0 || usize::from(p) > count {
        return Err(StrikeError::BadPick {
            what,
            pick: p,
            count,
        });
    }
    Ok(usize::from(p) - 1)
}

/// Step 1 for a location named rather than rolled: the location or face feature named, on
/// the side given where its zone has sides.
fn chosen(
    table: &BodyTable,
    location: &str,
    side: Option<Side>,
) -> Result<(LocationStep, Option<Struck>), StrikeError> {
    let unknown = || StrikeError::UnknownLocation {
        location: location.to_string(),
        table: table.name.clone(),
    };
    let feature = table.face.as_ref().and_then(|f| {
        f.entries
            .iter()
            .find(|e| e.name.eq_ignore_ascii_case(location))
            .map(|e| (f, e))
    });
    let (zone, loc, name, shock, triangle) = match feature {
        Some((f, e)) => {
            let (z, l) = table.find_location(&f.location).ok_or_else(unknown)?;
            (z, l, e.name.clone(), e.shock, e.triangle)
        }
        None => {
            let (z, l) = table.find_location(location).ok_or_else(unknown)?;
            (z, l, l.name.clone(), l.shock, l.triangle)
        }
    };
    let z = &table.zones[zone];
    match (z.sided, side) {
        (true, None) => return Err(StrikeError::SideNeeded(name.to_string())),
        (false, Some(_)) => return Err(StrikeError::BadSide(format!("the {} has no side", name))),
        _ => {}
    }
    Ok((
        LocationStep::Chosen,
        Some(Struck {
            place: Place {
                location: name,
                side,
                zone: z.name.clone(),
                kind: Some(z.kind),
            },
            shock,
            circle: loc.circle,
            triangle,
        }),
    ))
}

/// Step 1: finds where the strike lands, or that it misses.
pub(super) fn locate(
    table: &BodyTable,
    s: &Strike,
    dice: &mut dyn DiceSource,
) -> Result<(LocationStep, Option<Struck>), StrikeError> {
    match &s.targeting {
        Targeting::Area | Targeting::EvadedArea { .. } => Ok((
            LocationStep::Area,
            Some(Struck {
                place: Place {
                    location: "area".into(),
                    side: None,
                    zone: "whole body".into(),
                    kind: None,
                },
                shock: 6,
                circle: None,
                triangle: None,
            }),
        )),
        Targeting::Chosen { location, side } => chosen(table, location, *side),
        Targeting::InZone { zone } => in_zone(table, zone, dice),
        Targeting::Rolled {
            zone_die,
            aim,
            precision,
            pick_zone,
            pick_location,
            side,
        } => {
            if *aim < 1 || *aim > table.zone_count() {
                return Err(StrikeError::BadAim {
                    aim: *aim,
                    table: table.name.clone(),
                    zones: table.zone_count(),
                });
            }
            let zone_faces = dice.faces("zone", *zone_die, 1 + usize::from(*precision))?;
            let zp = pick("zone", *pick_zone, zone_faces.len())?;
            let zn_of = |f: u16| i32::from(*aim) + i32::from(f) - 1;
            let zn = zn_of(zone_faces[zp]);
            let Some(zone) = table.zone_of(zn) else {
                return Ok((
                    LocationStep::Miss {
                        zone_die: *zone_die,
                        aim: *aim,
                        face: zone_faces[zp],
                        zn,
                    },
                    None,
                ));
            };
            let same = zone_faces
                .iter()
                .filter(|&&f| table.zone_of(zn_of(f)) == Some(zone))
                .count();
            let location_faces = dice.faces("location", Die::D10, same)?;
            let lp = pick("location", *pick_location, location_faces.len())?;
            let ld = location_faces[lp];
            let z = &table.zones[zone];
            let loc = table
                .location_of(zone, ld)
                .ok_or_else(|| StrikeError::UnknownLocation {
                    location: format!("LD {ld} in zone {}", z.name),
                    table: table.name.clone(),
                })?;
            let mut side_face = None;
            let side = if z.sided {
                Some(match side {
                    SideRule::LocationDie => Side::of_face(ld),
                    SideRule::ZoneDie => Side::of_face(zone_faces[zp]),
                    SideRule::Left => Side::Left,
                    SideRule::Right => Side::Right,
                    SideRule::Roll => {
                        let f = dice.faces("side", Die::D10, 1)?[0];
                        side_face = Some(f);
                        Side::of_face(f)
                    }
                })
            } else {
                None
            };
            let (mut name, mut shock, mut triangle) = (loc.name.clone(), loc.shock, loc.triangle);
            let mut face_roll = None;
            if s.face_option {
                if let Some(f) = table.face.as_ref().filter(|f| f.location == loc.name) {
                    let r = dice.faces("face", Die::D20, 1)?[0];
                    face_roll = Some(r);
                    if let Some(e) = f
                        .entries
                        .iter()
                        .find(|e| r as u8 >= e.d20[0] && r as u8 <= e.d20[1])
                    {
                        name = e.name.clone();
                        shock = e.shock;
                        triangle = e.triangle;
                    }
                }
            }
            Ok((
                LocationStep::Rolled {
                    zone_die: *zone_die,
                    aim: *aim,
                    zone_faces,
                    zone_pick: zp,
                    zn,
                    location_faces,
                    location_pick: lp,
                    side_face,
                    face_roll,
                },
                Some(Struck {
                    place: Place {
                        location: name,
                        side,
                        zone: z.name.clone(),
                        kind: Some(z.kind),
                    },
                    shock,
                    circle: loc.circle,
                    triangle,
                }),
            ))
        }
    }
}

/// Step 1 for a zone named: the Location Die there (one d10, "roll d10 for LN"), its side by
/// the Location Die as a rolled strike's.
fn in_zone(
    table: &BodyTable,
    zone: &str,
    dice: &mut dyn DiceSource,
) -> Result<(LocationStep, Option<Struck>), StrikeError> {
    let unknown = |what: String| StrikeError::UnknownLocation {
        location: what,
        table: table.name.clone(),
    };
    let at = table
        .zones
        .iter()
        .position(|z| z.name.eq_ignore_ascii_case(zone.trim()))
        .ok_or_else(|| unknown(format!("zone {zone}")))?;
    let ld = dice.faces("location", Die::D10, 1)?[0];
    let z = &table.zones[at];
    let loc = table
        .location_of(at, ld)
        .ok_or_else(|| unknown(format!("LD {ld} in zone {}", z.name)))?;
    Ok((
        LocationStep::InZone { location_face: ld },
        Some(Struck {
            place: Place {
                location: loc.name.clone(),
                side: z.sided.then(|| Side::of_face(ld)),
                zone: z.name.clone(),
                kind: Some(z.kind),
            },
            shock: loc.shock,
            circle: loc.circle,
            triangle: loc.triangle,
        }),
    ))
}
