//! The d100 test against an Effective Mastery Level, with its four success levels.
//!
//! HârnMaster rule (and the reading the worked examples confirm): the EML is bounded to 5..95;
//! a roll at or under the EML succeeds; a roll whose ones digit is 0 or 5 is critical. So 45
//! against EML85 is CS, 75 against ML65 is CF, 93 against 55 is F.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The lowest EML a test is ever made at.
pub const EML_MIN: i32 = 5;
/// The highest EML a test is ever made at.
pub const EML_MAX: i32 = 95;

/// The four success levels of a d100 test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum SuccessLevel {
    /// Critical failure.
    CF,
    /// Marginal failure.
    F,
    /// Marginal success.
    S,
    /// Critical success.
    CS,
}

impl SuccessLevel {
    /// Returns true for S and CS.
    pub fn is_success(self) -> bool {
        matches!(self, SuccessLevel::S | SuccessLevel::CS)
    }

    /// Returns the level one step lower (CF stays CF), as a Stunned character's impaired tests.
    pub fn lowered(self) -> SuccessLevel {
        match self {
            SuccessLevel::CS => SuccessLevel::S,
            SuccessLevel::S => SuccessLevel::F,
            _ => SuccessLevel::CF,
        }
    }

    /// Returns the book's abbreviation.
    pub fn code(self) -> &'static str {
        match self {
            SuccessLevel::CF => "CF",
            SuccessLevel::F => "F",
            SuccessLevel::S => "S",
            SuccessLevel::CS => "CS",
        }
    }
}

impl fmt::Display for SuccessLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Bounds a raw EML to 5..95.
pub fn bound_eml(raw: i32) -> i32 {
    raw.clamp(EML_MIN, EML_MAX)
}

/// One d100 test: the EML before and after bounding, the roll, and the level it gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestResult {
    /// The EML from all modifiers, before bounding.
    pub raw_eml: i32,
    /// The EML the roll was made against (5..95).
    pub eml: i32,
    /// The d100 face, 1-100.
    pub roll: u16,
    /// The outcome.
    pub level: SuccessLevel,
}

/// Tests a d100 `roll` (1-100, 00 being 100) against `raw_eml`.
pub fn d100_test(raw_eml: i32, roll: u16) -> TestResult {
    let eml = bound_eml(raw_eml);
    let critical = roll % 5 == 0;
    let success = i32::from(roll) <= eml;
    let level = match (success, critical) {
        (true, true) => SuccessLevel::CS,
        (true, false) => SuccessLevel::S,
        (false, true) => SuccessLevel::CF,
        (false, false) => SuccessLevel::F,
    };
    TestResult {
        raw_eml,
        eml,
        roll,
        level,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_readme_examples() {
        assert_eq!(d100_test(85, 45).level, SuccessLevel::CS);
        assert_eq!(d100_test(65, 75).level, SuccessLevel::CF);
        assert_eq!(d100_test(55, 93).level, SuccessLevel::F);
        assert_eq!(d100_test(45, 42).level, SuccessLevel::S);
    }

    #[test]
    fn eml_is_bounded() {
        assert_eq!(d100_test(120, 96).level, SuccessLevel::F);
        assert_eq!(d100_test(-30, 5).level, SuccessLevel::CS);
        assert_eq!(d100_test(-30, 6).level, SuccessLevel::F);
        assert_eq!(d100_test(50, 100).level, SuccessLevel::CF);
    }

    proptest! {
        #[test]
        fn success_iff_at_or_under_bounded_eml(eml in -100i32..200, roll in 1u16..=100) {
            let r = d100_test(eml, roll);
            prop_assert_eq!(r.level.is_success(), i32::from(roll) <= eml.clamp(5, 95));
            prop_assert_eq!(matches!(r.level, SuccessLevel::CF | SuccessLevel::CS), roll % 5 == 0);
        }
    }
}
