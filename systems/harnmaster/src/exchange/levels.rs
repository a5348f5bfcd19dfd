//! The levels the opposed tests reach: a test read against its EML, lowered by STN or made an
//! automatic CF by a Grievous zone ([`forced_cfs`], which rolls no die), and raised by a setup.

use super::{declare, impairment, DefenceDecl, ExchangeError, Sides, StrikeDecl};
use crate::healing::EmlPart;
use crate::melee::Grip;
use crate::test_roll::{d100_test, SuccessLevel, TestResult};

pub(super) fn test_with(
    parts: &[EmlPart],
    roll: u16,
    automatic_cf: bool,
    stunned: bool,
    notes: &mut Vec<String>,
    who: &str,
) -> TestResult {
    let raw: i32 = parts.iter().map(|p| p.value).sum();
    let mut t = d100_test(raw, roll);
    if automatic_cf {
        t.level = SuccessLevel::CF;
        notes.push(format!(
            "{who}: a zone the test needs is unusable (Grievous): automatic CF"
        ));
    } else if stunned {
        let before = t.level;
        t.level = t.level.lowered();
        notes.push(format!("{who} is stunned: {before} becomes {}", t.level));
    }
    t
}

pub(super) fn raised(l: SuccessLevel) -> SuccessLevel {
    match l {
        SuccessLevel::CF => SuccessLevel::F,
        SuccessLevel::F => SuccessLevel::S,
        _ => SuccessLevel::CS,
    }
}

/// Which of the attacker's and the defender's tests are automatic CFs before any die: each
/// needs a zone a Grievous injury makes unusable (000 l.626). No d100 is rolled for such a
/// test: its face is recorded as 0.
pub fn forced_cfs(s: &Sides, attack: &StrikeDecl, defence: &DefenceDecl) -> (bool, bool) {
    let attacker = impairment(s, s.attacker, "Melee", attack.grip).unusable;
    let d = s.defender;
    let defender = match defence {
        DefenceDecl::Block { grip, .. } => impairment(s, d, "Melee", *grip).unusable,
        DefenceDecl::Dodge { .. } => impairment(s, d, "Dodge", Grip::Primary).unusable,
        DefenceDecl::Counterstrike(c) => impairment(s, d, "Melee", c.grip).unusable,
        DefenceDecl::Ignore => false,
    };
    (attacker, defender)
}

/// A test's face: 0 only for a forced CF, which rolls none.
pub(super) fn face_read(roll: u16, forced: bool, who: &str) -> Result<u16, ExchangeError> {
    if roll == 0 && !forced {
        return Err(declare(format!("the {who} test needs its d100 face")));
    }
    Ok(roll)
}
