//! Injury Sequence step 5: what injuries do to actions and movement, zone by zone.
//!
//! Minor injuries impart nothing for ten minutes after a successful Shock Roll, and 5
//! impairment after that (or at once after a failed one); Serious injuries impart 10; Grievous
//! injuries make the zone unusable. Several injuries in one zone add up (a reading, see
//! `injury.rs`). Area injuries impair every zone, like the head.
//!
//! The IMPAIRED TESTS table says which zones' injuries impair which tests; arm injuries count
//! only for the arm the test uses, and both legs count for leg tests. An area injury counts
//! once per test, not once per zone. Initiative and Shock are never impaired tests.

use super::body::{BodyTable, ZoneKind};
use super::healing::{impairment_of, TreatmentTable};
use super::state::{HmCharacter, Injury, MishapKind, Severity, Side};
use crate::time::CampaignTime;
use serde::{Deserialize, Serialize};

/// The impairment of one body zone (with its side for arms and legs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneImpairment {
    /// The zone as it reads (`torso`, `right arm`).
    pub zone: String,
    /// The zone's kind.
    pub kind: ZoneKind,
    /// The side, for sided zones.
    pub side: Option<Side>,
    /// The impairment (a penalty to impaired tests).
    pub impairment: i32,
    /// A Grievous injury makes the zone unusable.
    pub unusable: bool,
}

/// Returns every zone's impairment at campaign time `now`.
pub fn impairment(
    ch: &HmCharacter,
    table: &BodyTable,
    treatment: &TreatmentTable,
    now: CampaignTime,
) -> Vec<ZoneImpairment> {
    let mut zones = Vec::with_capacity(table.zones.len() + 2);
    for z in &table.zones {
        let sides: &[Option<Side>] = if z.sided {
            &[Some(Side::Left), Some(Side::Right)]
        } else {
            &[None]
        };
        for &side in sides {
            zones.push(ZoneImpairment {
                zone: match side {
                    Some(s) => format!("{} {}", s.word(), z.name),
                    None => z.name.clone(),
                },
                kind: z.kind,
                side,
                impairment: 0,
                unusable: false,
            });
        }
    }
    for inj in &ch.injuries {
        let (points, unusable) = injury_impairment(inj, treatment, now);
        if points == 0 && !unusable {
            continue;
        }
        for z in zones.iter_mut() {
            let hit = inj.area || (z.zone == inj.place.zone_label());
            if hit {
                z.impairment += points;
                z.unusable |= unusable;
            }
        }
    }
    zones
}

/// Returns one injury's impairment points and whether it makes its zone unusable (healing
/// step 8 refines step 5: see [`impairment_of`]).
pub fn injury_impairment(
    inj: &Injury,
    treatment: &TreatmentTable,
    now: CampaignTime,
) -> (i32, bool) {
    impairment_of(inj, treatment, now)
}

/// The IMPAIRED TESTS table: each test and whether injuries to the head, arm, torso and leg
/// zones impair it. `Movement` is the zone table's "& MOVEMENT" (head, torso and legs).
pub const IMPAIRED_TESTS: [(&str, [bool; 4]); 19] = [
    ("Acrobatics", [true, true, true, true]),
    ("Agility", [true, false, true, true]),
    ("Archery", [true, true, true, true]),
    ("Awareness", [true, false, false, false]),
    ("Climbing", [true, true, true, true]),
    ("Crafts", [true, true, true, false]),
    ("Dancing", [true, true, true, true]),
    ("Dexterity", [true, true, true, false]),
    ("Dodge", [true, false, true, true]),
    ("Jumping", [true, true, true, true]),
    ("Legerdemain", [true, true, false, false]),
    ("Melee", [true, true, true, true]),
    ("Riding", [true, true, true, true]),
    ("Slings", [true, true, true, true]),
    ("Stealth", [true, false, true, true]),
    ("Strength", [true, true, true, true]),
    ("Swimming", [true, true, true, true]),
    ("Throwing", [true, true, true, true]),
    ("Movement", [true, false, true, true]),
];

/// One test's impairment, with the right arm and with the left arm in use.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestImpairment {
    /// The test (`Melee`).
    pub test: &'static str,
    /// Impairment when the right arm is used.
    pub right: i32,
    /// Impairment when the left arm is used.
    pub left: i32,
    /// Unusable with the right arm (a Grievous injury in a zone the test needs): automatic CF.
    pub right_unusable: bool,
    /// Unusable with the left arm.
    pub left_unusable: bool,
}

/// Returns every impaired test's impairment at campaign time `now`.
pub fn impaired_tests(
    ch: &HmCharacter,
    treatment: &TreatmentTable,
    now: CampaignTime,
) -> Vec<TestImpairment> {
    IMPAIRED_TESTS
        .iter()
        .map(|(test, zones)| {
            let mut t = TestImpairment {
                test,
                right: 0,
                left: 0,
                right_unusable: false,
                left_unusable: false,
            };
            for inj in &ch.injuries {
                let (points, unusable) = injury_impairment(inj, treatment, now);
                let (right, left) = match inj.place.kind {
                    None => (true, true),
                    Some(ZoneKind::Head) => (zones[0], zones[0]),
                    Some(ZoneKind::Torso) => (zones[2], zones[2]),
                    Some(ZoneKind::Leg) => (zones[3], zones[3]),
                    Some(ZoneKind::Arm) => (
                        zones[1] && inj.place.side != Some(Side::Left),
                        zones[1] && inj.place.side != Some(Side::Right),
                    ),
                };
                if right {
                    t.right += points;
                    t.right_unusable |= unusable;
                }
                if left {
                    t.left += points;
                    t.left_unusable |= unusable;
                }
            }
            t
        })
        .collect()
}

/// One test's trauma for the arms it uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TestTrauma {
    /// The impairment (a penalty): every injury in a zone the test needs; arm injuries only
    /// for an arm in use (both arms add up for a two-handed grip or a bow).
    pub impairment: i32,
    /// A zone the test needs is unusable (Grievous): an automatic CF ("Tests with Grievous
    /// Injury").
    pub unusable: bool,
    /// The automatically failed mishaps the INJURY MISHAP table gives those unusable zones
    /// (arm: Fumble; torso and legs: Stumble; head and area: both), which the forced CF
    /// brings instead of a Fumble or Stumble read off the face.
    pub mishaps: Vec<MishapKind>,
    /// The Serious and Grievous injuries in the zones the test uses: a CF calls the
    /// aggravation Shock SR of each (the aggravation option, "Actions").
    pub used: Vec<crate::ids::InjuryId>,
}

/// `test`'s trauma at `now` when it uses the right arm, the left arm, or both (a two-handed
/// grip, a bow). Non-arm zones count as the IMPAIRED TESTS table says.
pub fn test_trauma(
    ch: &HmCharacter,
    treatment: &TreatmentTable,
    now: CampaignTime,
    test: &str,
    (right, left): (bool, bool),
) -> TestTrauma {
    let mut out = TestTrauma::default();
    let Some((_, zones)) = IMPAIRED_TESTS.iter().find(|(t, _)| *t == test) else {
        return out;
    };
    for inj in &ch.injuries {
        let counts = match inj.place.kind {
            None => true,
            Some(ZoneKind::Head) => zones[0],
            Some(ZoneKind::Torso) => zones[2],
            Some(ZoneKind::Leg) => zones[3],
            Some(ZoneKind::Arm) => {
                zones[1]
                    && match inj.place.side {
                        Some(Side::Right) => right,
                        Some(Side::Left) => left,
                        None => right || left,
                    }
            }
        };
        if !counts {
            continue;
        }
        let (points, unusable) = injury_impairment(inj, treatment, now);
        out.impairment += points;
        if !inj.healed() && inj.severity() >= Severity::Serious {
            out.used.push(inj.id);
        }
        if unusable {
            out.unusable = true;
            let kind = if inj.area { None } else { inj.place.kind };
            for (m, _) in super::injury::mishaps(kind, &inj.place.location, Severity::Grievous) {
                if !out.mishaps.contains(&m) {
                    out.mishaps.push(m);
                }
            }
        }
    }
    out
}
