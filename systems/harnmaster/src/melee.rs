//! The Melee Sequence (rules text pages 164-166): the opposed Melee test, its outcome by the
//! defence option, victory stars and Tactical Advantages, mishaps, the free Press Roll, and the
//! test modifiers.
//!
#![doc = include_str!("readings/melee.md")]

use crate::test_roll::{SuccessLevel, TestResult};
use serde::{Deserialize, Serialize};

/// The defender's option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Defence {
    /// Block with a readied weapon or shield (Melee test).
    Block,
    /// Dodge (Dodge test).
    Dodge,
    /// Counterstrike the attacker (Melee test).
    Counterstrike,
    /// Ignore: the attacker's test is unopposed.
    Ignore,
}

impl Defence {
    /// Returns the word.
    pub fn word(self) -> &'static str {
        match self {
            Defence::Block => "block",
            Defence::Dodge => "dodge",
            Defence::Counterstrike => "counterstrike",
            Defence::Ignore => "ignore",
        }
    }
}

/// The four Tactical Advantages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ta {
    /// A bonus action.
    Action,
    /// Extra impact (3B, 5E, 4P, 2F or the weapon's trait).
    Impact,
    /// An extra Zone Die.
    Precision,
    /// +1 success level to a Melee or Dodge test within the next round.
    Setup,
}

impl Ta {
    /// Returns the word.
    pub fn word(self) -> &'static str {
        match self {
            Ta::Action => "action",
            Ta::Impact => "impact",
            Ta::Precision => "precision",
            Ta::Setup => "setup",
        }
    }
}

/// Who won the exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Victor {
    /// The attacker.
    Attacker,
    /// The defender.
    Defender,
    /// Nobody (both failed).
    Nobody,
}

/// Who made a mishap roll, and which.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mishap {
    /// The attacker (true) or the defender.
    pub attacker: bool,
    /// Fumble or stumble.
    pub kind: super::state::MishapKind,
    /// Automatically failed: the INJURY MISHAP table's mishap after a CF forced by a
    /// Grievous zone (no roll).
    pub automatic: bool,
}

/// What the opposed test decided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeOutcome {
    /// Who won.
    pub victor: Victor,
    /// The winner's victory stars.
    pub stars: u8,
    /// The tie was broken (Dodge) or decided by the defence (Block, Counterstrike).
    pub tie: bool,
    /// The attacker's weapon strikes the defender.
    pub attacker_strikes: bool,
    /// The defender's counterstrike strikes the attacker.
    pub defender_strikes: bool,
    /// The TAs the winner may choose among (one per star beyond the first).
    pub ta_options: Vec<Ta>,
    /// A Block tie: check for Weapon Damage (page 191, the GM resolves it).
    pub weapon_damage: bool,
    /// Mishap rolls owed.
    pub mishaps: Vec<Mishap>,
    /// Who may call a free Press Roll (attacker true, defender false).
    pub free_press: Option<bool>,
}

fn rank(l: SuccessLevel) -> i8 {
    match l {
        SuccessLevel::CF => 0,
        SuccessLevel::F => 1,
        SuccessLevel::S => 2,
        SuccessLevel::CS => 3,
    }
}

fn mishap_of(test: &TestResult, attacker: bool, dodge: bool) -> Option<Mishap> {
    use super::state::MishapKind::*;
    if test.level != SuccessLevel::CF {
        return None;
    }
    let kind = if dodge || test.roll % 10 == 5 {
        Stumble
    } else {
        Fumble
    };
    Some(Mishap {
        attacker,
        kind,
        automatic: false,
    })
}

/// Resolves the opposed (or unopposed) Melee test by the MELEE TEST table.
pub fn resolve(defence: Defence, attack: &TestResult, def: Option<&TestResult>) -> MeleeOutcome {
    let mut mishaps: Vec<Mishap> = mishap_of(attack, true, false).into_iter().collect();
    let attack_tas = vec![Ta::Action, Ta::Impact, Ta::Precision, Ta::Setup];
    let (def, defence) = match (defence, def) {
        (Defence::Ignore, _) | (_, None) => {
            // Unopposed: the defender counts one level below CF.
            if attack.level == SuccessLevel::CF {
                return MeleeOutcome {
                    victor: Victor::Nobody,
                    stars: 0,
                    tie: false,
                    attacker_strikes: false,
                    defender_strikes: false,
                    ta_options: vec![],
                    weapon_damage: false,
                    mishaps,
                    free_press: None,
                };
            }
            let stars = (rank(attack.level) + 1) as u8;
            return MeleeOutcome {
                victor: Victor::Attacker,
                stars,
                tie: false,
                attacker_strikes: true,
                defender_strikes: false,
                ta_options: vec![Ta::Impact, Ta::Precision],
                weapon_damage: false,
                mishaps,
                free_press: attack.level.is_success().then_some(true),
            };
        }
        (d, Some(t)) => (t, d),
    };
    mishaps.extend(mishap_of(def, false, defence == Defence::Dodge));
    let (a, d) = (rank(attack.level), rank(def.level));
    let both_fail = !attack.level.is_success() && !def.level.is_success();
    let mut out = MeleeOutcome {
        victor: Victor::Nobody,
        stars: 0,
        tie: false,
        attacker_strikes: false,
        defender_strikes: false,
        ta_options: vec![],
        weapon_damage: false,
        mishaps,
        free_press: None,
    };
    if both_fail {
        return out;
    }
    let attacker_wins = if a != d {
        a > d
    } else {
        out.tie = true;
        match defence {
            Defence::Block => {
                out.weapon_damage = true;
                false
            }
            Defence::Counterstrike => true,
            Defence::Dodge => attack.roll > def.roll,
            Defence::Ignore => true,
        }
    };
    out.stars = if out.tie { 1 } else { (a - d).unsigned_abs() };
    if attacker_wins {
        out.victor = Victor::Attacker;
        out.attacker_strikes = true;
        out.ta_options = attack_tas;
    } else {
        out.victor = Victor::Defender;
        out.defender_strikes = defence == Defence::Counterstrike;
        out.ta_options = match defence {
            Defence::Counterstrike => vec![Ta::Impact, Ta::Precision],
            _ => vec![Ta::Action, Ta::Setup],
        };
    }
    // The free Press Roll: a successful Melee test with a higher level, no tiebreak; never
    // for a Dodge.
    if !out.tie {
        if attacker_wins && attack.level.is_success() {
            out.free_press = Some(true);
        } else if !attacker_wins && def.level.is_success() && defence != Defence::Dodge {
            out.free_press = Some(false);
        }
    }
    out
}

/// The default Impact TA bonus by aspect: 3B, 5E, 4P, 2F.
pub fn impact_ta(aspect: super::state::Aspect) -> i32 {
    use super::state::Aspect::*;
    match aspect {
        Blunt => 3,
        Edge => 5,
        Point => 4,
        Fire | Frost => 2,
    }
}

/// The Secondary Modifier of an ML: (ML / 10) x 5 - 25.
pub fn secondary_modifier(ml: i32) -> i32 {
    (ml / 10) * 5 - 25
}

/// How a weapon is held, for the Heft Penalty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Grip {
    /// In the primary hand.
    #[default]
    Primary,
    /// Two-handed: HFT -5.
    TwoHanded,
    /// Off-handed: HFT +5, at least -10 (not for shields blocking or pressing).
    OffHand,
}

/// The Heft Penalty: -5 per point of STR below the weapon's HFT.
pub fn heft_penalty(strength: i32, heft: i32, grip: Grip, shield_block: bool) -> i32 {
    let hft = match grip {
        Grip::Primary => heft,
        Grip::TwoHanded => heft - 5,
        Grip::OffHand if shield_block => heft,
        Grip::OffHand => heft + 5,
    };
    let p = -5 * (hft - strength).max(0);
    if grip == Grip::OffHand && !shield_block {
        p.min(-10)
    } else {
        p
    }
}

/// The Reach Penalty and Thrust Bonus of a Melee Strike (Ignore: none): with the shorter
/// reach, -5 per point of difference; with a thrust weapon and the longer reach, +5 per point.
/// In Close reverses both.
pub fn reach_and_thrust(own: i32, thrust: bool, opponent: i32, in_close: bool) -> i32 {
    // Reaches come from the arms a device recorded: saturating, never an overflow.
    let diff = own.saturating_sub(opponent);
    let (shorter, longer) = if in_close {
        (diff > 0, diff < 0)
    } else {
        (diff < 0, diff > 0)
    };
    if shorter {
        diff.saturating_abs().saturating_mul(-5)
    } else if longer && thrust {
        diff.saturating_abs().saturating_mul(5)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_roll::d100_test;
    use Defence::*;

    #[test]
    fn block_example_cs_against_f_is_a_two_star_strike() {
        let o = resolve(Block, &d100_test(60, 35), Some(&d100_test(60, 71)));
        assert_eq!((o.victor, o.stars), (Victor::Attacker, 2));
        assert!(o.attacker_strikes);
        assert!(o.ta_options.contains(&Ta::Impact));
    }

    #[test]
    fn dodge_example_tie_broken_by_the_higher_roll() {
        // 36 (or 37, the text's typo) S against 51 S: the defender's higher roll wins.
        for roll in [36, 37] {
            let o = resolve(Dodge, &d100_test(60, roll), Some(&d100_test(60, 51)));
            assert_eq!((o.victor, o.stars, o.tie), (Victor::Defender, 1, true));
            assert!(!o.attacker_strikes);
            assert_eq!(
                o.free_press, None,
                "no free Press Roll after a tiebreak or a Dodge"
            );
        }
    }

    #[test]
    fn counterstrike_example_attackers_win_ties() {
        let o = resolve(Counterstrike, &d100_test(60, 36), Some(&d100_test(60, 51)));
        assert_eq!((o.victor, o.stars), (Victor::Attacker, 1));
        assert!(o.attacker_strikes && !o.defender_strikes);
        // A counterstrike that wins strikes the attacker.
        let o = resolve(Counterstrike, &d100_test(60, 71), Some(&d100_test(60, 51)));
        assert!(o.defender_strikes);
        assert_eq!(o.ta_options, vec![Ta::Impact, Ta::Precision]);
    }

    #[test]
    fn ignore_example_s_is_a_three_star_strike() {
        let o = resolve(Ignore, &d100_test(60, 36), None);
        assert_eq!((o.victor, o.stars), (Victor::Attacker, 3));
        assert_eq!(o.ta_options, vec![Ta::Impact, Ta::Precision]);
        // F still strikes an Ignoring defender; CF is a mishap and no strike.
        assert!(resolve(Ignore, &d100_test(60, 77), None).attacker_strikes);
        let cf = resolve(Ignore, &d100_test(60, 80), None);
        assert!(!cf.attacker_strikes);
        assert_eq!(cf.mishaps[0].kind, super::super::state::MishapKind::Fumble);
    }

    #[test]
    fn free_press_roll_examples() {
        // 1: S against a blocking F: the attacker may press.
        assert_eq!(
            resolve(Block, &d100_test(60, 41), Some(&d100_test(75, 82))).free_press,
            Some(true)
        );
        // 2: S against a blocking CS: the defender may press.
        assert_eq!(
            resolve(Block, &d100_test(60, 41), Some(&d100_test(75, 65))).free_press,
            Some(false)
        );
        // 3: S against a blocking S: the block wins the tie, and nobody presses.
        let o = resolve(Block, &d100_test(60, 41), Some(&d100_test(75, 66)));
        assert_eq!(
            (o.victor, o.free_press, o.weapon_damage),
            (Victor::Defender, None, true)
        );
    }

    #[test]
    fn both_failing_strikes_nobody_but_mishaps_stand() {
        let o = resolve(Block, &d100_test(40, 70), Some(&d100_test(40, 85)));
        assert_eq!(o.victor, Victor::Nobody);
        assert_eq!(o.mishaps.len(), 2);
        assert_eq!(o.mishaps[1].kind, super::super::state::MishapKind::Stumble);
        // A Dodge CF is always a stumble.
        let o = resolve(Dodge, &d100_test(40, 70), Some(&d100_test(40, 90)));
        assert_eq!(o.mishaps[1].kind, super::super::state::MishapKind::Stumble);
    }

    #[test]
    fn modifiers() {
        assert_eq!(secondary_modifier(65), 5);
        assert_eq!(secondary_modifier(26), -15);
        assert_eq!(secondary_modifier(60), 5);
        assert_eq!(heft_penalty(10, 12, Grip::Primary, false), -10);
        assert_eq!(heft_penalty(10, 12, Grip::TwoHanded, false), 0);
        assert_eq!(heft_penalty(14, 12, Grip::OffHand, false), -15);
        assert_eq!(
            heft_penalty(20, 12, Grip::OffHand, false),
            -10,
            "at least -10 off-hand"
        );
        assert_eq!(
            heft_penalty(10, 12, Grip::OffHand, true),
            -10,
            "shields block at their HFT"
        );
        assert_eq!(reach_and_thrust(2, false, 4, false), -10);
        assert_eq!(reach_and_thrust(5, true, 3, false), 10);
        assert_eq!(reach_and_thrust(5, false, 3, false), 0);
        assert_eq!(reach_and_thrust(5, true, 3, true), -10, "In Close reverses");
        assert_eq!(reach_and_thrust(2, true, 4, true), 10);
    }
}
