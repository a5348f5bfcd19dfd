//! Injury Sequence step 5: what injuries do to actions and movement, zone by zone.
//!
//! Minor injuries impart nothing for ten minutes after a successful Shock Roll, and 5
//! impairment after that (or at once after a failed one); Serious injuries impart 10; Grievous
//! injuries make the zone unusable. Several injuries in one zone add up (a reading, see
//! `injury.rs`). Area injuries impair every zone, like the head.

use super::body::{BodyTable, ZoneKind};
use super::state::{HmCharacter, Severity, Side};
use crate::time::{CampaignTime, MINUTE};
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
pub fn impairment(ch: &HmCharacter, table: &BodyTable, now: CampaignTime) -> Vec<ZoneImpairment> {
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
    for inj in ch.injuries.iter().filter(|i| !i.healed()) {
        let (points, unusable) = match inj.severity() {
            Severity::Minor => {
                let deferred = inj.shock_roll_succeeded && now < inj.inflicted_at.plus(10 * MINUTE);
                (if deferred { 0 } else { 5 }, false)
            }
            Severity::Serious => (10, false),
            Severity::Grievous => (0, true),
        };
        let unusable = unusable || inj.severed;
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
