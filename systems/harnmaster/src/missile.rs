//! The Missile Sequence (rules text pages 163-164): range bands from Base Range, the overhead
//! restriction, the missile test's modifiers, the spoiled attack, and Direct and Volley
//! results with their target counts, deviation and precision dice.
//!
#![doc = include_str!("readings/missile.md")]

use crate::dice::Die;
use crate::test_roll::{SuccessLevel, TestResult};
use serde::{Deserialize, Serialize};

/// The range bands of the MISSILE RANGE table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Band {
    /// Direct, point blank (BR x 1/2).
    DirectPb,
    /// Direct (BR x 1).
    Direct,
    /// Volley 2 (BR x 2).
    Volley2,
    /// Volley 3 (BR x 3).
    Volley3,
    /// Volley 4 (BR x 4).
    Volley4,
}

impl Band {
    /// Returns the band for a range and a Base Range, or None beyond BR x 4.
    pub fn of(range_ft: i32, base_range: i32) -> Option<Band> {
        Band::of_half_feet(range_ft, 2 * base_range.max(1))
    }

    /// Returns the band for a range and a Base Range given in half feet, so that a wet bow's
    /// halved BR stays exact ("simply halve their Base Range": BR75 wet is 37.5 ft, so 75 ft
    /// is Volley 2, 150 ft Volley 4 and 151 ft out of range).
    pub fn of_half_feet(range_ft: i32, br_half_ft: i32) -> Option<Band> {
        let (r, br) = (2 * i64::from(range_ft), i64::from(br_half_ft.max(1)));
        Some(match r {
            r if 2 * r <= br => Band::DirectPb,
            r if r <= br => Band::Direct,
            r if r <= 2 * br => Band::Volley2,
            r if r <= 3 * br => Band::Volley3,
            r if r <= 4 * br => Band::Volley4,
            _ => return None,
        })
    }

    /// Returns true for the volley bands.
    pub fn volley(self) -> bool {
        matches!(self, Band::Volley2 | Band::Volley3 | Band::Volley4)
    }

    /// The test modifier.
    pub fn modifier(self) -> i32 {
        match self {
            Band::DirectPb => 10,
            Band::Direct | Band::Volley2 => 0,
            Band::Volley3 => -20,
            Band::Volley4 => -40,
        }
    }

    /// The Zone Die (thrown weapons at PB use their own).
    pub fn zone_die(self) -> Die {
        match self {
            Band::DirectPb => Die::D6,
            Band::Direct => Die::new(8).unwrap_or(Die::D10),
            _ => Die::D10,
        }
    }

    /// The strike impact modifier.
    pub fn impact(self) -> i32 {
        match self {
            Band::DirectPb => 2,
            Band::Direct => 0,
            Band::Volley2 => -2,
            Band::Volley3 => -3,
            Band::Volley4 => -4,
        }
    }

    /// The impact modifier after a 20-ft Charge (thrown weapons), if any.
    pub fn charge(self) -> Option<i32> {
        match self {
            Band::DirectPb => Some(3),
            Band::Direct => Some(1),
            Band::Volley2 => Some(-2),
            Band::Volley3 => Some(-3),
            Band::Volley4 => None,
        }
    }

    /// Returns the band's name.
    pub fn word(self) -> &'static str {
        match self {
            Band::DirectPb => "direct point blank",
            Band::Direct => "direct",
            Band::Volley2 => "volley 2",
            Band::Volley3 => "volley 3",
            Band::Volley4 => "volley 4",
        }
    }
}

/// A length given in half feet, as the text writes it (`37.5`).
pub fn feet(half_ft: i32) -> String {
    if half_ft % 2 == 0 {
        (half_ft / 2).to_string()
    } else {
        format!("{}.5", half_ft / 2)
    }
}

/// Why a missile attack cannot be declared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MissileError {
    /// Beyond Base Range x 4.
    #[error("{range} ft is beyond the weapon's range (BR {br} x 4 = {max} ft)")]
    OutOfRange {
        /// The range.
        range: i32,
        /// The Base Range in feet (`37.5` when halved by precipitation).
        br: String,
        /// BR x 4 in feet.
        max: String,
    },
    /// A volley under a low overhead.
    #[error("an overhead under ten feet prohibits volley ranges ({0})")]
    LowOverhead(&'static str),
}

/// The overhead restriction: no volley under 10 ft; bows and crossbows -20 at Direct (not
/// PB) under 5 ft.
pub fn overhead(band: Band, overhead_ft: Option<i32>, bow: bool) -> Result<i32, MissileError> {
    match overhead_ft {
        Some(h) if h < 10 && band.volley() => Err(MissileError::LowOverhead(band.word())),
        Some(h) if h < 5 && bow && band == Band::Direct => Ok(-20),
        _ => Ok(0),
    }
}

/// How the target moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Movement {
    /// Still: no penalty; a hit gains the automatic Precision TA (Direct).
    #[default]
    Still,
    /// Moving: -10.
    Moving,
    /// Evading: -5 x the target's Dodge index.
    Evading,
}

/// The result of a Direct or Volley missile test.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MissileResult {
    /// The attack was spoiled (EML -40 or worse) and occurs: it automatically fails, and its
    /// roll against EML05 checks for CF, whose Fumble (0) or Stumble (5) roll is owed. (A
    /// spoiled attack that does not take place is a wasted action: nothing to record.)
    Spoiled(Option<super::state::MishapKind>),
    /// A CF: a Fumble (0) or Stumble (5) roll; the attack does not take place.
    Mishap(super::state::MishapKind),
    /// A CF forced by a Grievous zone the test needs: that zone's automatically failed
    /// mishaps (the INJURY MISHAP table); the attack does not take place.
    AutomaticMishap(Vec<super::state::MishapKind>),
    /// Direct F: a miss; a nearby target may be struck (d20 against the target count).
    Miss,
    /// Volley F: deviation into an adjacent area (d8).
    Deviation,
    /// Direct S/CS: a strike with this many stars.
    Strike(u8),
    /// Volley S/CS: a potential strike (d20, or d10 with Volley Precision).
    PotentialStrike {
        /// Volley Precision (CS): roll d10 instead of d20.
        precision: bool,
    },
}

/// Reads a missile test. A spoiled test (raw EML -40 or worse) is already bounded to EML05,
/// so its level is the roll against EML05 that checks for CF.
pub fn result(test: &TestResult, raw_eml: i32, volley: bool) -> MissileResult {
    let mishap = || {
        if test.roll % 10 == 5 {
            super::state::MishapKind::Stumble
        } else {
            super::state::MishapKind::Fumble
        }
    };
    if raw_eml <= -40 {
        return MissileResult::Spoiled((test.level == SuccessLevel::CF).then(mishap));
    }
    match (test.level, volley) {
        (SuccessLevel::CF, _) => MissileResult::Mishap(mishap()),
        (SuccessLevel::F, false) => MissileResult::Miss,
        (SuccessLevel::F, true) => MissileResult::Deviation,
        (SuccessLevel::S, false) => MissileResult::Strike(1),
        (SuccessLevel::CS, false) => MissileResult::Strike(2),
        (level, true) => MissileResult::PotentialStrike {
            precision: level == SuccessLevel::CS,
        },
    }
}

/// Whether a d20 (or Volley Precision d10) hits among `count` targets, and the d10 that gives
/// the projectile's Impact TA on a 5 or 0.
pub fn potential_strike(roll: u16, count: u16) -> bool {
    roll <= count
}

/// The d10 rolled with the d20: a 5 or 0 adds the projectile's Impact TA.
pub fn impact_ta_d10(d10: u16) -> bool {
    d10 % 5 == 0
}

/// The Zone Die of a nearby or volley strike: the larger of a d10 and the target's zone count.
pub fn strike_zone_die(zones: u8) -> Die {
    [20u16, 12]
        .into_iter()
        .find(|&s| u16::from(zones) >= s)
        .and_then(|s| Die::new(s).ok())
        .unwrap_or(Die::D10)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_roll::d100_test;

    #[test]
    fn bands_from_base_range() {
        assert_eq!(Band::of(50, 100), Some(Band::DirectPb));
        assert_eq!(Band::of(51, 100), Some(Band::Direct));
        assert_eq!(Band::of(200, 100), Some(Band::Volley2));
        assert_eq!(Band::of(500, 200), Some(Band::Volley3));
        assert_eq!(Band::of(401, 100), None);
        // Precipitation halves BR: 150 ft at BR 200 is Direct; wet (BR 100) it is Volley 2.
        assert_eq!(Band::of(150, 200 / 2), Some(Band::Volley2));
        // Exactly: BR75 wet is 37.5 ft (75 half feet). 75 ft is within 2 x 37.5: Volley 2;
        // 150 ft = 4 x 37.5: Volley 4; 151 ft is beyond; PB is up to 18.75 ft.
        assert_eq!(Band::of_half_feet(75, 75), Some(Band::Volley2));
        assert_eq!(Band::of_half_feet(150, 75), Some(Band::Volley4));
        assert_eq!(Band::of_half_feet(151, 75), None);
        assert_eq!(Band::of_half_feet(18, 75), Some(Band::DirectPb));
        assert_eq!(Band::of_half_feet(19, 75), Some(Band::Direct));
        assert_eq!(feet(75), "37.5");
        assert_eq!(feet(300), "150");
    }

    #[test]
    fn nolora_direct_example() {
        // Archery ML75 + 10 point blank = EML85; 45 is CS: a two-star strike.
        let t = d100_test(75 + Band::DirectPb.modifier(), 45);
        assert_eq!(t.eml, 85);
        assert_eq!(result(&t, 85, false), MissileResult::Strike(2));
        assert_eq!(Band::DirectPb.zone_die(), Die::D6);
    }

    #[test]
    fn nolora_volley_example() {
        // 500 ft at volley 3 (-20), a light crosswind (-20 per Windforce 1 in volley): EML35.
        let raw = 75 + Band::Volley3.modifier() - 20;
        let t = d100_test(raw, 25);
        assert_eq!((t.eml, t.level), (35, SuccessLevel::CS));
        assert_eq!(
            result(&t, raw, true),
            MissileResult::PotentialStrike { precision: true }
        );
        // Target count 7 (four brigands and a horse counting 2): the precision d10 7 hits.
        assert!(potential_strike(7, 7));
        assert!(!impact_ta_d10(2));
        assert_eq!(strike_zone_die(20), Die::D20);
        assert_eq!(Band::Volley3.impact(), -3);
        // The second shot: 16 is S; the d20 14 misses the count of seven.
        let t = d100_test(raw, 16);
        assert_eq!(
            result(&t, raw, true),
            MissileResult::PotentialStrike { precision: false }
        );
        assert!(!potential_strike(14, 7));
    }

    #[test]
    fn spoiled_overhead_and_mishaps() {
        use super::super::state::MishapKind::{Fumble, Stumble};
        // Spoiled, occurring: the roll against EML05 checks for CF. 3 is S, yet the attack
        // fails; 10 is a CF ending in 0 (Fumble); 35 a CF ending in 5 (Stumble).
        assert_eq!(
            result(&d100_test(-45, 3), -45, false),
            MissileResult::Spoiled(None)
        );
        assert_eq!(
            result(&d100_test(-45, 10), -45, true),
            MissileResult::Spoiled(Some(Fumble))
        );
        assert_eq!(
            result(&d100_test(-45, 35), -45, false),
            MissileResult::Spoiled(Some(Stumble))
        );
        assert!(overhead(Band::Volley2, Some(8), true).is_err());
        assert_eq!(overhead(Band::Direct, Some(4), true), Ok(-20));
        assert_eq!(overhead(Band::DirectPb, Some(4), true), Ok(0));
        assert_eq!(overhead(Band::Direct, Some(4), false), Ok(0));
        assert_eq!(
            result(&d100_test(50, 95), 50, true),
            MissileResult::Mishap(super::super::state::MishapKind::Stumble)
        );
        assert_eq!(
            result(&d100_test(50, 77), 50, true),
            MissileResult::Deviation
        );
        assert_eq!(result(&d100_test(50, 77), 50, false), MissileResult::Miss);
    }
}
