//! One recorded missile attack (Missile Sequence steps 1-3 and its results), flowing into
//! the Injury Sequence when it strikes.
//!
//! Readings: the range's impact modifier is folded into the impact roll (the volley example's
//! "d12+4 ... reduced by 3 ... rolling d12+1"); the projectile's Armour Reduction lowers the AV
//! at the struck location; TAs won are Impact or Precision ("one of the two special effects");
//! a nearby or volley strike needs the GM to name the creature the count roll indicates.
//!
//! More readings, pinned by tests in `tests/tests/combat.rs`:
//! - A Volley S or CS is a Potential Strike at any EML, EML05 included: "lands harmlessly at
//!   EML05 or less" belongs to Deviation and to the Direct miss only.
//! - Precipitation halves Base Range exactly (BR75 wet is 37.5 ft), reckoned in half feet.
//! - Massive Target is +5 per TAR from TAR2 (TAR1 is no massive target).
//! - Trauma: bows and crossbows are drawn with both arms, so an injury to either counts (and
//!   both add up); slings and throws use the primary (right) arm. A Grievous zone the test
//!   needs forces a CF with that zone's automatically failed mishaps.
//! - A stunned shooter's test (an impaired test) drops one success level; an INC or UNC
//!   shooter takes no independent action.

use super::arms::{armour_at, Arms, MissileKind, StrikeMode, Weapon};
use super::body::BodyTable;
use super::effect::{test_trauma, TestTrauma};
use super::exchange::ExchangeError;
use super::healing::{part, EmlPart, Label, TreatmentTable};
use super::injury::{
    resolve_strike_armoured, DiceSource, ImpactInput, RecordedDie, SideRule, Strike, StrikeOutcome,
    Targeting,
};
use super::melee::{self, Ta};
use super::missile::{self, Band, MissileResult, Movement};
use super::state::{HmCharacter, ShockState};
use crate::dice::{DiceExpr, Die};
use crate::ids::{CharacterId, InjuryId};
use crate::test_roll::{d100_test, TestResult};
use serde::{Deserialize, Serialize};

/// A missile attack, with every die.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shot {
    /// The shooter.
    pub shooter: CharacterId,
    /// The missile weapon.
    pub weapon: String,
    /// Its mode.
    pub mode: String,
    /// The range in feet.
    pub range_ft: i32,
    /// Bows and crossbows wet (Base Range halved).
    pub wet: bool,
    /// The overhead in feet, if low.
    pub overhead_ft: Option<i32>,
    /// The target's movement.
    pub movement: Movement,
    /// An evading target's Dodge index (x5 penalty).
    pub dodge_index: i32,
    /// The shooter moved (-10; not for throwers).
    pub moving_shooter: bool,
    /// The shooter took the Aim action last round (+10).
    pub aimed: bool,
    /// Crosswind Windforce.
    pub windforce: u8,
    /// A massive target's TAR (+5 each, Direct only).
    pub massive_tar: u8,
    /// A moving target area (-10, Volley).
    pub moving_area: bool,
    /// Any other modifier the GM rules.
    pub modifier: i32,
    /// A thrown object rather than a weapon: -10 (-20 if oblong).
    pub thrown_object: Option<bool>,
    /// A thrown weapon after a Charge of 20 ft or more: the CHARGE column's impact.
    pub charge: bool,
    /// The intended target (Direct).
    pub target: Option<CharacterId>,
    /// The ZN aimed at (Direct).
    pub aim: Option<u8>,
    /// The target count: in the area (Volley), or within five feet of the target (a Direct
    /// miss).
    pub target_count: u16,
    /// The creature the count roll indicates, when it hits.
    pub struck: Option<CharacterId>,
    /// The d100.
    pub roll: u16,
    /// TAs chosen (Impact or Precision).
    pub tas: Vec<Ta>,
    /// The other dice: `count` (d20, or d10 with Volley Precision), `ta` (the d10 rolled
    /// with it), `deviation` (d8), and the Injury Sequence's.
    pub dice: Vec<RecordedDie>,
}

/// What a missile attack did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShotOutcome {
    /// The range band.
    pub band: Band,
    /// The test.
    pub test: TestResult,
    /// How the EML was made.
    pub parts: Vec<EmlPart>,
    /// The result.
    pub result: MissileResult,
    /// The TAs applied (with the automatic Precision against a still target).
    pub tas: Vec<Ta>,
    /// The count roll and whether it hit.
    pub count: Option<(u16, bool)>,
    /// The impact d10 rolled with the count roll.
    pub ta_d10: Option<u16>,
    /// The deviation d8 of a Volley F.
    pub deviation: Option<u16>,
    /// The strike, if any: who, and the Injury Sequence.
    pub strike: Option<(CharacterId, Box<StrikeOutcome>)>,
    /// What changed the test's level (a forced CF, stun), for narration.
    pub notes: Vec<String>,
    /// The terms folded into the impact roll besides the weapon's (the range band's
    /// modifier, or a charge's): what the narration names.
    pub impact_terms: Vec<(String, i32)>,
    /// The projectile's Armour Reduction, taken off the AV at the struck location.
    pub armour_reduction: i32,
    /// The shooter's Serious and Grievous injuries whose aggravation Shock SR a CF calls
    /// (the aggravation option, "Actions").
    #[serde(default)]
    pub aggravating: Vec<InjuryId>,
}

/// The striker's body to strike, and its table.
type Hit<'a> = (&'a HmCharacter, &'a BodyTable);

/// How a hit is struck: stars, automatic precision, zone die, aim, and the creature.
type Plan<'a> = (u8, bool, Die, u8, Option<Hit<'a>>);

fn err(s: impl Into<String>) -> ExchangeError {
    ExchangeError::Declaration(s.into())
}

/// The shooter's missile test before its roll: the terms of its EML (the skill's
/// ML; the range band, overhead, the target's movement, a moving shooter, a thrown weapon's
/// heft and object, crosswind, aim, a massive target or a moving area, fatigue, impairment
/// and the situation) and the shooter's impairment. A thrown object or a charge with a
/// weapon that is not thrown, or a charging throw out of its reach, is refused.
#[allow(clippy::too_many_arguments)]
fn shot_parts(
    shooter: &HmCharacter,
    x: &Shot,
    w: &Weapon,
    kind: MissileKind,
    band: Band,
    overhead: i32,
    treatment: &TreatmentTable,
    now: crate::time::CampaignTime,
) -> Result<(Vec<EmlPart>, TestTrauma), ExchangeError> {
    let bowlike = matches!(kind, MissileKind::Bow | MissileKind::Crossbow);
    let s = &shooter.gear.skills;
    let (skill, label, ml) = match kind {
        MissileKind::Bow | MissileKind::Crossbow => ("Archery", "Archery ML", s.archery),
        MissileKind::Sling => ("Slings", "Slings ML", s.slings),
        MissileKind::Thrown => ("Throwing", "Throwing ML", s.throwing),
    };
    let mut parts = vec![part(Label::ml(label, ml), ml)];
    let mut push = |label: &'static str, v: i32| {
        if v != 0 {
            parts.push(part(label, v));
        }
    };
    push(band.word(), band.modifier());
    push("overhead", overhead);
    push(
        "target",
        match x.movement {
            Movement::Still => 0,
            Movement::Moving => -10,
            Movement::Evading => -5 * x.dodge_index,
        },
    );
    if x.moving_shooter && kind != MissileKind::Thrown {
        push("moving shooter", -10);
    }
    if kind == MissileKind::Thrown {
        push(
            "heft",
            melee::heft_penalty(shooter.sheet.strength, w.heft, melee::Grip::Primary, false),
        );
        match x.thrown_object {
            Some(true) => push("oblong thrown object", -20),
            Some(false) => push("thrown object", -10),
            None => {}
        }
    } else if x.thrown_object.is_some() || x.charge {
        return Err(err(format!("the {} is not thrown", w.name)));
    }
    if x.charge && band.charge().is_none() {
        return Err(err(format!(
            "a charging throw does not reach {}",
            band.word()
        )));
    }
    let wf = i32::from(x.windforce);
    push(
        "crosswind",
        if band.volley() {
            -20 * wf
        } else if wf >= 2 {
            -10 * wf
        } else {
            0
        },
    );
    if x.aimed {
        push("aim", 10);
    }
    if !band.volley() {
        // TAR2+ only: +5 per TAR (TAR2 is +10); TAR1 is no massive target.
        if x.massive_tar >= 2 {
            push("massive target", 5 * i32::from(x.massive_tar));
        }
    } else if x.moving_area {
        push("moving area", -10);
    }
    push("fatigue", -shooter.fatigue());
    let trauma = test_trauma(shooter, treatment, now, skill, (true, bowlike));
    push("impairment", -trauma.impairment);
    push("situation", x.modifier);
    Ok((parts, trauma))
}

/// Whether the shot is an automatic CF before any die: the test needs a zone a Grievous
/// injury makes unusable (000 l.626), so no d100 is rolled for it (recorded as 0).
pub fn forced_cf(
    shooter: &HmCharacter,
    arms: &Arms,
    treatment: &TreatmentTable,
    now: crate::time::CampaignTime,
    x: &Shot,
) -> bool {
    let Ok((_, kind, _)) = readied(shooter, arms, x) else {
        return false;
    };
    let bowlike = matches!(kind, MissileKind::Bow | MissileKind::Crossbow);
    let skill = match kind {
        MissileKind::Bow | MissileKind::Crossbow => "Archery",
        MissileKind::Sling => "Slings",
        MissileKind::Thrown => "Throwing",
    };
    test_trauma(shooter, treatment, now, skill, (true, bowlike)).unusable
}

/// The shooter's readied missile weapon named by the shot, its kind and the mode it is
/// used in.
fn readied<'a>(
    shooter: &HmCharacter,
    arms: &'a Arms,
    x: &Shot,
) -> Result<(&'a Weapon, MissileKind, &'a StrikeMode), ExchangeError> {
    if !shooter
        .gear
        .weapons
        .iter()
        .any(|w| w.eq_ignore_ascii_case(&x.weapon))
    {
        return Err(err(format!("{} has no readied {}", shooter.name, x.weapon)));
    }
    let w = arms
        .weapon(&x.weapon)
        .ok_or_else(|| err(format!("there is no weapon '{}'", x.weapon)))?;
    let kind = w
        .missile
        .ok_or_else(|| err(format!("the {} is not a missile weapon", w.name)))?;
    let mode = w
        .modes
        .iter()
        .find(|m| m.name.eq_ignore_ascii_case(&x.mode))
        .ok_or_else(|| err(format!("the {} has no mode '{}'", w.name, x.mode)))?;
    Ok((w, kind, mode))
}

/// The TAs of a missile strike: one per star beyond the first, Impact or Precision (Impact
/// by default), with the automatic Precision of a still target and the Impact of a
/// projectile's d10.
fn missile_tas(
    x: &Shot,
    stars: u8,
    auto_precision: bool,
    projectile_ta: bool,
) -> Result<Vec<Ta>, ExchangeError> {
    let earned = stars.saturating_sub(1) as usize;
    if x.tas.len() > earned {
        return Err(err(format!("{earned} TA won, {} chosen", x.tas.len())));
    }
    if x.tas
        .iter()
        .any(|t| !matches!(t, Ta::Impact | Ta::Precision))
    {
        return Err(err("a missile's TAs are Impact or Precision"));
    }
    let mut tas = if x.tas.is_empty() {
        vec![Ta::Impact; earned]
    } else {
        x.tas.clone()
    };
    if auto_precision {
        tas.push(Ta::Precision);
    }
    if projectile_ta {
        tas.push(Ta::Impact);
    }
    Ok(tas)
}

/// The strike a missile lands on `target`: the mode's impact with the range band's (or a
/// charge's) term, the TAs' Impact and Precision, and the zone die and aim of its plan.
/// Gives the impact's term beside it (none when it adds nothing).
fn missile_strike(
    target: CharacterId,
    (w, mode): (&Weapon, &StrikeMode),
    band: Band,
    x: &Shot,
    tas: &[Ta],
    (zone_die, aim): (Die, u8),
) -> Result<(Strike, Option<(String, i32)>), ExchangeError> {
    let mut roll: DiceExpr = mode
        .impact
        .parse()
        .map_err(|e: crate::dice::DiceError| err(e.to_string()))?;
    let (term, by) = if x.charge {
        ("charge".to_string(), band.charge().unwrap_or(0))
    } else {
        (band.word().to_string(), band.impact())
    };
    roll.modifier += by;
    let impacts = tas.iter().filter(|t| **t == Ta::Impact).count() as i32;
    let strike = Strike {
        target,
        aspect: mode.aspect,
        targeting: Targeting::Rolled {
            zone_die,
            aim,
            precision: tas.iter().filter(|t| **t == Ta::Precision).count() as u8,
            pick_zone: None,
            pick_location: None,
            side: SideRule::LocationDie,
        },
        impact: ImpactInput::Rolled {
            roll,
            strength_mod: 0,
            impact_ta: impacts * w.impact_ta.unwrap_or_else(|| melee::impact_ta(mode.aspect)),
        },
        av: 0,
        rigid: false,
        projectile: w.projectile,
        face_option: false,
        dice: Vec::new(),
    };
    Ok((strike, (by != 0).then_some((term, by))))
}

/// Resolves a missile attack. `target` is the intended target of a direct shot and `nearby`
/// the creature a count roll strikes, each with their body table.
#[allow(clippy::too_many_arguments)]
pub fn resolve(
    shooter: &HmCharacter,
    target: Option<Hit<'_>>,
    nearby: Option<Hit<'_>>,
    arms: &Arms,
    treatment: &TreatmentTable,
    now: crate::time::CampaignTime,
    x: &Shot,
    id: InjuryId,
    dice: &mut dyn DiceSource,
) -> Result<ShotOutcome, ExchangeError> {
    if shooter.dead() {
        return Err(err(format!("{} is dead", shooter.name)));
    }
    if matches!(
        shooter.shock,
        ShockState::Incapacitated | ShockState::Unconscious
    ) {
        return Err(err(format!(
            "{} is {}: no independent actions",
            shooter.name, shooter.shock
        )));
    }
    let (w, kind, mode) = readied(shooter, arms, x)?;
    let bowlike = matches!(kind, MissileKind::Bow | MissileKind::Crossbow);
    // In half feet: precipitation halves BR exactly (37.5 ft, not 37).
    let br2 = 2 * w.base_range.unwrap_or(1).max(1);
    let br2 = if x.wet && bowlike { br2 / 2 } else { br2 };
    let band = Band::of_half_feet(x.range_ft, br2).ok_or_else(|| {
        err(missile::MissileError::OutOfRange {
            range: x.range_ft,
            br: missile::feet(br2),
            max: missile::feet(4 * br2),
        }
        .to_string())
    })?;
    let overhead =
        missile::overhead(band, x.overhead_ft, bowlike).map_err(|e| err(e.to_string()))?;
    let (parts, trauma) = shot_parts(shooter, x, w, kind, band, overhead, treatment, now)?;
    if x.roll == 0 && !trauma.unusable {
        return Err(err("the shot needs its d100 face".to_string()));
    }
    let raw: i32 = parts.iter().map(|p| p.value).sum();
    let mut test = d100_test(raw, x.roll);
    let mut notes = Vec::new();
    let result = if trauma.unusable {
        test.level = crate::test_roll::SuccessLevel::CF;
        notes.push(format!(
            "{}: a zone the test needs is unusable (Grievous): automatic CF",
            shooter.name
        ));
        MissileResult::AutomaticMishap(trauma.mishaps.clone())
    } else {
        if shooter.shock == ShockState::Stunned {
            let before = test.level;
            test.level = test.level.lowered();
            notes.push(format!(
                "{} is stunned: {before} becomes {}",
                shooter.name, test.level
            ));
        }
        missile::result(&test, raw, band.volley())
    };
    let mut out = ShotOutcome {
        band,
        test,
        parts,
        result: result.clone(),
        tas: Vec::new(),
        count: None,
        ta_d10: None,
        deviation: None,
        strike: None,
        notes,
        impact_terms: Vec::new(),
        armour_reduction: 0,
        aggravating: if test.level == crate::test_roll::SuccessLevel::CF {
            trauma.used.clone()
        } else {
            vec![]
        },
    };
    if result == MissileResult::Deviation && raw > 5 {
        out.deviation =
            Some(dice.faces("deviation", Die::new(8).map_err(|e| err(e.to_string()))?, 1)?[0]);
    }
    // Which strike, if any: (stars for TAs, automatic precision, impact TA from the d10,
    // zone die, aim).
    let mut projectile_ta = false;
    let plan: Option<Plan<'_>> = match result {
        MissileResult::Strike(stars) => {
            if target.is_none() {
                return Err(err("a direct shot names its target"));
            }
            let zd = if kind == MissileKind::Thrown && band == Band::DirectPb {
                Die::new(w.zone_die).map_err(|e| err(e.to_string()))?
            } else {
                band.zone_die()
            };
            Some((
                stars,
                x.movement == Movement::Still,
                zd,
                x.aim.unwrap_or(1),
                target,
            ))
        }
        // EML05 or less: a Direct miss strikes nobody near and a Deviation lands harmlessly;
        // a Potential Strike rolls against the count at any EML.
        MissileResult::Miss | MissileResult::Deviation | MissileResult::PotentialStrike { .. }
            if x.target_count > 0
                && (raw > 5 || matches!(result, MissileResult::PotentialStrike { .. })) =>
        {
            let precision = matches!(result, MissileResult::PotentialStrike { precision: true });
            let die = if precision { Die::D10 } else { Die::D20 };
            let roll = dice.faces("count", die, 1)?[0];
            let hit = missile::potential_strike(roll, x.target_count);
            out.count = Some((roll, hit));
            if hit {
                let t = dice.faces("ta", Die::D10, 1)?[0];
                out.ta_d10 = Some(t);
                projectile_ta = missile::impact_ta_d10(t);
                let zones = nearby.map(|(_, b)| b.zone_count()).unwrap_or(10);
                Some((1, false, missile::strike_zone_die(zones), 1, nearby))
            } else {
                None
            }
        }
        _ => None,
    };
    if let Some((stars, auto_precision, zone_die, aim, hit)) = plan {
        let (target, body) = hit.ok_or(ExchangeError::StruckUnnamed)?;
        let tas = missile_tas(x, stars, auto_precision, projectile_ta)?;
        let (strike, term) = missile_strike(target.id, (w, mode), band, x, &tas, (zone_die, aim))?;
        out.impact_terms.extend(term);
        out.armour_reduction = w.armour_reduction;
        let ff: Vec<String> = body
            .face
            .iter()
            .flat_map(|f| f.entries.iter().map(|e| e.name.clone()))
            .collect();
        let armour = |p: &super::state::Place, a| {
            armour_at(arms, &target.gear, p, a, w.armour_reduction, &ff)
        };
        let o = resolve_strike_armoured(target, body, &strike, id, dice, Some(&armour))?;
        out.tas = tas;
        out.strike = Some((target.id, Box::new(o)));
    }
    Ok(out)
}
