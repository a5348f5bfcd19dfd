//! One recorded melee exchange: the declarations, both tests with every modifier named, the
//! outcome, the Tactical Advantages chosen, and the strike it delivers into the Injury
//! Sequence (with armour looked up at the struck location).
//!
//! Readings: a stunned combatant's Melee and Dodge tests drop one success level (they are
//! impaired tests); an INC or UNC defender is unaware and must Ignore, and an UNC one is
//! helpless (the attack is a CS); TAs not chosen default to Impact for a strike and Setup
//! for a Block or Dodge, and the narration says so.
//!
//! Aim and posture (Injury Sequence step 1 "Aim Penalty"; Special Melee Rules "prone"), pinned
//! by `aim_by_posture`:
//! - A standing striker aims at any ZN of a prone target without the -10 aim penalty.
//! - A prone striker against a standing, human-sized foe (a ten-zone table aimed at ZN1 by
//!   default) has default aim ZN2-3: no penalty there, and ZN2 when no aim is declared. ZN1
//!   is not a default aim then: it costs the -10 aim penalty *and* -2 RCH, as the zone reach
//!   penalties of tall creatures add to the aim penalty. Larger foes ("similar shifts") are
//!   not shifted: the GM declares the aim.
//! - Both prone, or both standing: the table's default aim.
//! - Mounted (Special Melee Rules "mounted combat"): a rider has -1 RCH to strikes not aimed
//!   at ZN1 of an unmounted, human-sized target; an unmounted striker (or counterstriker) has
//!   -1 RCH aiming at a rider's ZN1.
//!
//! Arms (Injury Sequence step 5): a test uses the arm(s) of its grip; a two-handed grip uses
//! both, so an injury to either impairs it and a Grievous one in either forces the CF. A CF
//! forced by a Grievous zone brings that zone's automatically failed mishap(s) from the INJURY
//! MISHAP table (arm: Fumble; torso and legs: Stumble; head: both) instead of a Fumble or
//! Stumble read off the face.

mod levels;
mod natural;
pub use levels::forced_cfs;
use levels::{face_read, raised, test_with};
pub use natural::{Natural, NaturalMelee};

use super::arms::{armour_at, arms_of, Arms};
use super::body::BodyTable;
use super::effect::{test_trauma, TestTrauma};
use super::healing::{part, EmlPart, Label, TreatmentTable};
use super::injury::{
    resolve_strike_armoured, DiceSource, ImpactInput, RecordedDie, SideRule, Strike, StrikeError,
    StrikeOutcome, Targeting,
};
use super::melee::{self, Defence, Grip, MeleeOutcome, Ta, Victor};
use super::state::{HmCharacter, ShockState};
use crate::dice::{DiceExpr, Die};
use crate::ids::{CharacterId, InjuryId};
use crate::test_roll::{SuccessLevel, TestResult};
use serde::{Deserialize, Serialize};

/// A Melee Strike's declaration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrikeDecl {
    /// The readied weapon.
    pub weapon: String,
    /// The strike mode.
    pub mode: String,
    /// How it is held.
    pub grip: Grip,
    /// The ZN aimed at (None: the target's default aim).
    pub aim: Option<u8>,
}

/// The defender's declaration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DefenceDecl {
    /// Block with a readied weapon or shield.
    Block {
        /// The weapon.
        weapon: String,
        /// How it is held.
        grip: Grip,
        /// The readied weapon whose reach counts against the attacker (default: the blocker).
        reach_weapon: Option<String>,
    },
    /// Dodge, naming a readied weapon for the attacker's Reach and Thrust (or none).
    Dodge {
        /// The weapon (or natural weapon) whose reach counts.
        reach_weapon: Option<String>,
    },
    /// Counterstrike the attacker.
    Counterstrike(StrikeDecl),
    /// Ignore.
    Ignore,
}

/// The situation's modifiers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Situation {
    /// Foes threatening the defender (the attacker included); -10 per foe beyond one.
    pub foes: u8,
    /// The attacker is prone (-20).
    pub attacker_prone: bool,
    /// The defender is prone (-20).
    pub defender_prone: bool,
    /// The two are In Close (reach and thrust reversed).
    pub in_close: bool,
    /// The attacker is mounted (Mounted Penalty).
    pub attacker_mounted: bool,
    /// The defender is mounted (Mounted Penalty; -10 to Block or Counterstrike, -20 to Dodge).
    pub defender_mounted: bool,
    /// Any other modifier to the attack the GM rules.
    pub attack_mod: i32,
    /// Any other modifier to the defence the GM rules.
    pub defence_mod: i32,
    /// The attacker spends a Setup TA won earlier: +1 success level.
    pub attack_setup: bool,
    /// The defender spends a Setup TA on a Melee (Block, Counterstrike) or Dodge test.
    pub defence_setup: bool,
}

/// One melee exchange, with every die.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeExchange {
    /// The attacker.
    pub attacker: CharacterId,
    /// The defender.
    pub defender: CharacterId,
    /// The attack.
    pub attack: StrikeDecl,
    /// The defence.
    pub defence: DefenceDecl,
    /// The situation.
    pub situation: Situation,
    /// The attacker's d100.
    pub attack_roll: u16,
    /// The defender's d100 (none when Ignoring).
    pub defence_roll: Option<u16>,
    /// The TAs the winner chose.
    pub tas: Vec<Ta>,
    /// The Injury Sequence's dice for the strike, by the strike's names.
    pub dice: Vec<RecordedDie>,
}

/// Why an exchange cannot be declared or resolved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExchangeError {
    /// A declaration the rules do not allow.
    #[error("{0}")]
    Declaration(String),
    /// A missile's count roll hits a creature near the target, and none was named.
    #[error("the count roll hits: name the creature struck")]
    StruckUnnamed,
    /// The strike cannot be resolved.
    #[error(transparent)]
    Strike(#[from] StrikeError),
}

/// A die not recorded, or a face its die cannot show, refuses the exchange as it refuses
/// the strike.
impl From<crate::dice::DiceError> for ExchangeError {
    fn from(e: crate::dice::DiceError) -> ExchangeError {
        ExchangeError::Strike(e.into())
    }
}

/// What an exchange did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExchangeOutcome {
    /// The attacker's test.
    pub attack: TestResult,
    /// How the attack EML was made.
    pub attack_parts: Vec<EmlPart>,
    /// The defender's test.
    pub defence: Option<TestResult>,
    /// How the defence EML was made.
    pub defence_parts: Vec<EmlPart>,
    /// Notes on levels forced by the rules (automatic CF, stunned, helpless).
    pub notes: Vec<String>,
    /// The opposed test's outcome.
    pub outcome: MeleeOutcome,
    /// The TAs applied, and whether they were defaults.
    pub tas: Vec<Ta>,
    /// The TAs were not chosen: the defaults applied.
    pub default_tas: bool,
    /// The strike delivered, if any: who was struck and the Injury Sequence.
    pub strike: Option<(CharacterId, Box<StrikeOutcome>)>,
    /// The Serious and Grievous injuries whose aggravation Shock SR a CF test calls, the
    /// attacker's and the defender's (the aggravation option, "Actions").
    #[serde(default)]
    pub aggravating: (Vec<InjuryId>, Vec<InjuryId>),
}

/// What the exchange reads from the campaign.
pub struct Sides<'a> {
    /// The attacker.
    pub attacker: &'a HmCharacter,
    /// The defender.
    pub defender: &'a HmCharacter,
    /// The attacker's body table.
    pub attacker_body: &'a BodyTable,
    /// The defender's body table.
    pub defender_body: &'a BodyTable,
    /// Weapons and armour.
    pub arms: &'a Arms,
    /// The treatment tables (impairment).
    pub treatment: &'a TreatmentTable,
    /// The campaign clock.
    pub now: crate::time::CampaignTime,
    /// The attacker strikes with a natural weapon.
    pub natural: Option<&'a Natural>,
}

fn declare(msg: String) -> ExchangeError {
    ExchangeError::Declaration(msg)
}

fn weapon<'a>(
    arms: &'a Arms,
    ch: &HmCharacter,
    name: &str,
) -> Result<&'a super::arms::Weapon, ExchangeError> {
    if !ch.gear.weapons.iter().any(|w| w.eq_ignore_ascii_case(name)) {
        return Err(declare(format!("{} has no readied {name}", ch.name)));
    }
    arms.weapon(name).ok_or_else(|| {
        declare(format!(
            "there is no weapon '{name}' in the campaign's arms"
        ))
    })
}

/// A test's trauma for a character using the arm(s) of `grip`.
fn impairment(s: &Sides, ch: &HmCharacter, test: &str, grip: Grip) -> TestTrauma {
    test_trauma(ch, s.treatment, s.now, test, arms_of(grip))
}

/// A human-sized body table: ten zones, default aim ZN1.
fn human_sized(body: &BodyTable) -> bool {
    body.default_aim == 1 && body.zone_count() == 10
}

/// The ZN a Melee Strike aims at (the declared one or the default), whether it costs the
/// -10 aim penalty, and the RCH posture takes from it (see the module's readings).
fn aim_of(
    body: &BodyTable,
    aim: Option<u8>,
    striker_prone: bool,
    target_prone: bool,
) -> (u8, bool, i32) {
    if target_prone && !striker_prone {
        return (aim.unwrap_or(body.default_aim), false, 0);
    }
    if striker_prone && !target_prone && human_sized(body) {
        let zn = aim.unwrap_or(2);
        return (zn, !matches!(zn, 2 | 3), if zn == 1 { 2 } else { 0 });
    }
    let zn = aim.unwrap_or(body.default_aim);
    (zn, zn != body.default_aim, 0)
}

/// The RCH mounted combat takes from a strike at `aim` (see the module's readings).
fn mounted_reach_loss(body: &BodyTable, aim: u8, striker: bool, target: bool) -> i32 {
    match (striker, target) {
        (true, false) if human_sized(body) && aim != 1 => 1,
        (false, true) if aim == 1 => 1,
        _ => 0,
    }
}

fn common(parts: &mut Vec<EmlPart>, ch: &HmCharacter, impair: i32, prone: bool, mounted: bool) {
    if prone {
        parts.push(part("prone", -20));
    }
    if ch.fatigue() != 0 {
        parts.push(part("fatigue", -ch.fatigue()));
    }
    if impair != 0 {
        parts.push(part("impairment", -impair));
    }
    if mounted {
        let p = melee::secondary_modifier(ch.gear.skills.riding).min(0);
        if p != 0 {
            parts.push(part("Mounted Penalty", p));
        }
    }
}

/// The EML of a Melee Strike (an attack, or a counterstrike): Melee, aim, Heft, Reach or
/// Thrust against `opponent_reach` (None against Ignore), prone, trauma, mounted. `prone`
/// and `mounted` are (striker, target). Returns the parts, the ZN aimed at and the trauma.
#[allow(clippy::too_many_arguments)]
fn strike_parts(
    s: &Sides,
    ch: &HmCharacter,
    decl: &StrikeDecl,
    target_body: &BodyTable,
    opponent_reach: Option<i32>,
    prone: (bool, bool),
    mounted: (bool, bool),
    in_close: bool,
) -> Result<(Vec<EmlPart>, u8, TestTrauma), ExchangeError> {
    let w = weapon(s.arms, ch, &decl.weapon)?;
    let mode = w
        .modes
        .iter()
        .find(|m| m.name.eq_ignore_ascii_case(&decl.mode))
        .ok_or_else(|| declare(format!("the {} has no strike mode '{}'", w.name, decl.mode)))?;
    let mut parts = vec![part(
        Label::ml("Melee ML", ch.gear.skills.melee),
        ch.gear.skills.melee,
    )];
    if let Some(aim) = decl.aim {
        if aim < 1 || aim > target_body.zone_count() {
            return Err(declare(format!(
                "aim ZN{aim} is not on the {} table",
                target_body.name
            )));
        }
    }
    let (aim, aim_penalty, posture_reach) = aim_of(target_body, decl.aim, prone.0, prone.1);
    let reach = w.reach
        - posture_reach
        - target_body.reach_penalty(aim)
        - mounted_reach_loss(target_body, aim, mounted.0, mounted.1);
    if reach < 0 {
        return Err(declare(format!(
            "aiming at ZN{aim} reduces the {}'s reach below 0: it cannot be aimed at",
            w.name
        )));
    }
    if aim_penalty {
        parts.push(part("aim", -10));
    }
    let heft = melee::heft_penalty(ch.sheet.strength, w.heft, decl.grip, false);
    if heft != 0 {
        parts.push(part("heft", heft));
    }
    if let Some(opp) = opponent_reach {
        let rt = melee::reach_and_thrust(reach, mode.thrust, opp, in_close);
        if rt < 0 {
            parts.push(part("reach", rt));
        } else if rt > 0 {
            parts.push(part("thrust", rt));
        }
    }
    let trauma = impairment(s, ch, "Melee", decl.grip);
    common(&mut parts, ch, trauma.impairment, prone.0, mounted.0);
    Ok((parts, aim, trauma))
}

fn build_strike(
    arms: &Arms,
    striker: &HmCharacter,
    decl: &StrikeDecl,
    aim: u8,
    target: &HmCharacter,
    tas: &[Ta],
) -> Result<Strike, ExchangeError> {
    let w = arms
        .weapon(&decl.weapon)
        .ok_or_else(|| declare(format!("there is no weapon '{}'", decl.weapon)))?;
    let mode = w
        .modes
        .iter()
        .find(|m| m.name.eq_ignore_ascii_case(&decl.mode))
        .ok_or_else(|| declare(format!("the {} has no strike mode '{}'", w.name, decl.mode)))?;
    let roll: DiceExpr = mode
        .impact
        .parse()
        .map_err(|e| declare(format!("{}: {e}", w.name)))?;
    let impacts = tas.iter().filter(|t| **t == Ta::Impact).count() as i32;
    let precision = tas.iter().filter(|t| **t == Ta::Precision).count() as u8;
    Ok(Strike {
        target: target.id,
        aspect: mode.aspect,
        targeting: Targeting::Rolled {
            zone_die: Die::new(w.zone_die).map_err(|e| declare(e.to_string()))?,
            aim,
            precision,
            pick_zone: None,
            pick_location: None,
            side: SideRule::LocationDie,
        },
        impact: ImpactInput::Rolled {
            roll,
            strength_mod: striker.gear.skills.str_impact,
            impact_ta: impacts * w.impact_ta.unwrap_or_else(|| melee::impact_ta(mode.aspect)),
        },
        av: 0,
        rigid: false,
        projectile: false,
        face_option: false,
        dice: Vec::new(),
    })
}

/// What the defender's side of an exchange found: its test (none for an Ignore), the test's
/// terms, the defender's impairment and a Counterstrike's aim.
type DefenceSide = (Option<TestResult>, Vec<EmlPart>, TestTrauma, Option<u8>);

/// The defender's test of an exchange (none for an Ignore): its roll against the EML its
/// terms make, with the defender's impairment and a Counterstrike's aim.
fn defence_test(
    s: &Sides,
    x: &MeleeExchange,
    defence: Defence,
    notes: &mut Vec<String>,
) -> Result<DefenceSide, ExchangeError> {
    let (a, d) = (s.attacker, s.defender);
    let sit = &x.situation;
    let outnumbered = -10 * i32::from(sit.foes.saturating_sub(1));
    Ok(match &x.defence {
        DefenceDecl::Ignore => {
            if x.defence_roll.is_some() {
                return Err(declare("an Ignoring defender makes no roll".into()));
            }
            (None, Vec::new(), TestTrauma::default(), None)
        }
        decl => {
            let roll = x.defence_roll.ok_or_else(|| {
                declare(format!("the {} needs the defender's roll", defence.word()))
            })?;
            let (mut parts, trauma, counter_aim) = match decl {
                DefenceDecl::Block {
                    weapon: w, grip, ..
                } => {
                    let wp = weapon(s.arms, d, w)?;
                    let mut p = vec![part(
                        Label::ml("Melee ML", d.gear.skills.melee),
                        d.gear.skills.melee,
                    )];
                    let heft = melee::heft_penalty(d.sheet.strength, wp.heft, *grip, wp.shield);
                    if heft != 0 {
                        p.push(part("heft", heft));
                    }
                    let trauma = impairment(s, d, "Melee", *grip);
                    common(
                        &mut p,
                        d,
                        trauma.impairment,
                        sit.defender_prone,
                        sit.defender_mounted,
                    );
                    if sit.defender_mounted {
                        p.push(part("rider blocks", -10));
                    }
                    (p, trauma, None)
                }
                DefenceDecl::Dodge { .. } => {
                    let mut p = vec![part(
                        Label::ml("Dodge ML", d.gear.skills.dodge),
                        d.gear.skills.dodge,
                    )];
                    let trauma = impairment(s, d, "Dodge", Grip::Primary);
                    common(
                        &mut p,
                        d,
                        trauma.impairment,
                        sit.defender_prone,
                        sit.defender_mounted,
                    );
                    if sit.defender_mounted {
                        p.push(part("rider dodges", -20));
                    }
                    (p, trauma, None)
                }
                DefenceDecl::Counterstrike(c) => {
                    let att_reach = weapon(s.arms, a, &x.attack.weapon)?.reach;
                    let (mut p, aim, trauma) = strike_parts(
                        s,
                        d,
                        c,
                        s.attacker_body,
                        Some(att_reach),
                        (sit.defender_prone, sit.attacker_prone),
                        (sit.defender_mounted, sit.attacker_mounted),
                        sit.in_close,
                    )?;
                    if sit.defender_mounted {
                        p.push(part("rider counterstrikes", -10));
                    }
                    (p, trauma, Some(aim))
                }
                DefenceDecl::Ignore => unreachable!("handled above"),
            };
            if outnumbered != 0 {
                parts.push(part("outnumbered", outnumbered));
            }
            if sit.defence_mod != 0 {
                parts.push(part("situation", sit.defence_mod));
            }
            let mut t = test_with(
                &parts,
                face_read(roll, trauma.unusable, "defence")?,
                trauma.unusable,
                d.shock == ShockState::Stunned,
                notes,
                &d.name,
            );
            if sit.defence_setup && !trauma.unusable {
                let before = t.level;
                t.level = raised(t.level);
                notes.push(format!(
                    "{} spends a setup: {before} becomes {}",
                    d.name, t.level
                ));
            }
            (Some(t), parts, trauma, counter_aim)
        }
    })
}

/// The Tactical Advantages of an exchange: one per star beyond the first, chosen among the
/// winner's options (Impact by default when it is offered, else Setup). Gives them, and
/// whether they are the default.
fn tactical_advantages(
    x: &MeleeExchange,
    outcome: &melee::MeleeOutcome,
) -> Result<(Vec<Ta>, bool), ExchangeError> {
    let earned = outcome.stars.saturating_sub(1) as usize;
    if outcome.victor == Victor::Nobody || earned == 0 {
        if !x.tas.is_empty() {
            return Err(declare("no Tactical Advantage was won".into()));
        }
        return Ok((Vec::new(), false));
    }
    if x.tas.is_empty() {
        let d = if outcome.ta_options.contains(&Ta::Impact) {
            Ta::Impact
        } else {
            Ta::Setup
        };
        return Ok((vec![d; earned], true));
    }
    if x.tas.len() > earned {
        return Err(declare(format!("{earned} TA won, {} chosen", x.tas.len())));
    }
    if let Some(bad) = x.tas.iter().find(|t| !outcome.ta_options.contains(t)) {
        return Err(declare(format!(
            "{} is not a TA this victory offers ({})",
            bad.word(),
            outcome
                .ta_options
                .iter()
                .map(|t| t.word())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok((x.tas.clone(), false))
}

/// The strike an exchange's victor lands (`striker` with its declaration, at `aim`) on the
/// `struck` character with its body table, through the Injury Sequence with the struck
/// one's armour.
fn strike_at(
    s: &Sides,
    (striker, decl, aim): (&HmCharacter, &StrikeDecl, u8),
    (struck, body): (&HmCharacter, &BodyTable),
    tas: &[Ta],
    id: InjuryId,
    dice: &mut dyn DiceSource,
) -> Result<(CharacterId, Box<StrikeOutcome>), ExchangeError> {
    let st = build_strike(s.arms, striker, decl, aim, struck, tas)?;
    strike_with(s, st, (struck, body), id, dice)
}

/// Resolves a built strike against `struck`, armour found on them.
pub(super) fn strike_with(
    s: &Sides,
    st: crate::injury::Strike,
    (struck, body): (&HmCharacter, &BodyTable),
    id: InjuryId,
    dice: &mut dyn DiceSource,
) -> Result<(CharacterId, Box<StrikeOutcome>), ExchangeError> {
    let ff: Vec<String> = body
        .face
        .iter()
        .flat_map(|f| f.entries.iter().map(|e| e.name.clone()))
        .collect();
    let armour = |p: &super::state::Place, asp| armour_at(s.arms, &struck.gear, p, asp, 0, &ff);
    let outcome = resolve_strike_armoured(struck, body, &st, id, dice, Some(&armour))?;
    Ok((struck.id, Box::new(outcome)))
}

/// Resolves an exchange, read-only. `id` becomes the id of any injury it inflicts.
pub fn resolve(
    s: &Sides,
    x: &MeleeExchange,
    id: InjuryId,
    dice: &mut dyn DiceSource,
) -> Result<ExchangeOutcome, ExchangeError> {
    let (a, d) = (s.attacker, s.defender);
    if a.id == d.id {
        return Err(declare("a character cannot attack themselves".into()));
    }
    // A natural weapon's zone is one of the attacker's body zones, whatever the Block's end.
    if let Some(n) = s.natural {
        if !s
            .attacker_body
            .zones
            .iter()
            .any(|z| z.name.eq_ignore_ascii_case(&n.zone))
        {
            return Err(declare(format!(
                "{}'s body table '{}' has no zone '{}' (its zones: {})",
                a.name,
                s.attacker_body.name,
                n.zone,
                s.attacker_body
                    .zones
                    .iter()
                    .map(|z| z.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    for c in [a, d] {
        if c.dead() {
            return Err(declare(format!("{} is dead", c.name)));
        }
    }
    if matches!(a.shock, ShockState::Incapacitated | ShockState::Unconscious) {
        return Err(declare(format!(
            "{} is {}: no independent actions",
            a.name, a.shock
        )));
    }
    let unaware = matches!(d.shock, ShockState::Incapacitated | ShockState::Unconscious);
    if unaware && x.defence != DefenceDecl::Ignore {
        return Err(declare(format!(
            "{} is {}: unaware, they must Ignore",
            d.name, d.shock
        )));
    }
    let sit = &x.situation;
    let mut notes = Vec::new();
    // The defender's weapon that the attacker's reach and thrust are judged against.
    let reach_of = |name: &Option<String>| -> Result<Option<i32>, ExchangeError> {
        match name {
            Some(n) => Ok(Some(weapon(s.arms, d, n)?.reach)),
            None => Ok(None),
        }
    };
    let (defence, opp_reach) = match &x.defence {
        DefenceDecl::Block {
            weapon: w,
            reach_weapon,
            ..
        } => {
            let blocker = weapon(s.arms, d, w)?.reach;
            (Defence::Block, reach_of(reach_weapon)?.or(Some(blocker)))
        }
        DefenceDecl::Dodge { reach_weapon } => (Defence::Dodge, reach_of(reach_weapon)?),
        DefenceDecl::Counterstrike(c) => (
            Defence::Counterstrike,
            Some(weapon(s.arms, d, &c.weapon)?.reach),
        ),
        DefenceDecl::Ignore => (Defence::Ignore, None),
    };
    let (mut attack_parts, attack_aim, a_trauma) = strike_parts(
        s,
        a,
        &x.attack,
        s.defender_body,
        opp_reach,
        (sit.attacker_prone, sit.defender_prone),
        (sit.attacker_mounted, sit.defender_mounted),
        sit.in_close,
    )?;
    if sit.attack_mod != 0 {
        attack_parts.push(part("situation", sit.attack_mod));
    }
    let mut attack = test_with(
        &attack_parts,
        face_read(x.attack_roll, a_trauma.unusable, "attack")?,
        a_trauma.unusable,
        a.shock == ShockState::Stunned,
        &mut notes,
        &a.name,
    );
    if sit.attack_setup && !a_trauma.unusable {
        let before = attack.level;
        attack.level = raised(attack.level);
        notes.push(format!(
            "{} spends a setup: {before} becomes {}",
            a.name, attack.level
        ));
    }
    if d.shock == ShockState::Unconscious && attack.level != SuccessLevel::CF {
        attack.level = SuccessLevel::CS;
        notes.push(format!("{} is helpless: a CS Ignore result", d.name));
    }
    let (defence_test, defence_parts, d_trauma, counter_aim) =
        defence_test(s, x, defence, &mut notes)?;
    let mut outcome = melee::resolve(defence, &attack, defence_test.as_ref());
    // A CF forced by a Grievous zone brings that zone's automatically failed mishap(s) (the
    // INJURY MISHAP table), not a Fumble or Stumble read off the face's ones digit.
    for (attacker, t) in [(true, &a_trauma), (false, &d_trauma)] {
        if t.unusable {
            outcome.mishaps.retain(|m| m.attacker != attacker);
            outcome
                .mishaps
                .extend(t.mishaps.iter().map(|&kind| melee::Mishap {
                    attacker,
                    kind,
                    automatic: true,
                }));
        }
    }
    let (tas, default_tas) = tactical_advantages(x, &outcome)?;
    let strike = if outcome.attacker_strikes {
        let aim = attack_aim;
        Some(strike_at(
            s,
            (a, &x.attack, aim),
            (d, s.defender_body),
            &tas,
            id,
            dice,
        )?)
    } else if outcome.defender_strikes {
        let DefenceDecl::Counterstrike(c) = &x.defence else {
            return Err(declare("a counterstrike without its declaration".into()));
        };
        let aim = counter_aim.unwrap_or(s.attacker_body.default_aim);
        Some(strike_at(
            s,
            (d, c, aim),
            (a, s.attacker_body),
            &tas,
            id,
            dice,
        )?)
    } else {
        natural::strike_back(s, x, &outcome, &mut notes, id, dice)?
    };
    let cf = |t: Option<&TestResult>| t.is_some_and(|t| t.level == SuccessLevel::CF);
    let aggravating = (
        if cf(Some(&attack)) {
            a_trauma.used.clone()
        } else {
            vec![]
        },
        if cf(defence_test.as_ref()) {
            d_trauma.used.clone()
        } else {
            vec![]
        },
    );
    Ok(ExchangeOutcome {
        aggravating,
        attack,
        attack_parts,
        defence: defence_test,
        defence_parts,
        notes,
        outcome,
        tas,
        default_tas,
        strike,
    })
}

/// Applies a resolved exchange: the strike's injury and shock, and the mishaps owed.
pub fn apply(
    attacker: &mut HmCharacter,
    defender: &mut HmCharacter,
    out: &ExchangeOutcome,
    ctx: super::injury::Context,
) {
    use super::state::Owed;
    // A new fight's rolls: an earlier fight's that lapsed are dropped first.
    attacker.drop_lapsed(ctx.at);
    defender.drop_lapsed(ctx.at);
    for m in &out.outcome.mishaps {
        let who = if m.attacker {
            &mut *attacker
        } else {
            &mut *defender
        };
        who.owed.push(Owed::TestMishap {
            kind: m.kind,
            automatic: m.automatic,
            at: ctx.at,
        });
    }
    attacker.call_aggravation(&out.aggravating.0);
    defender.call_aggravation(&out.aggravating.1);
    if let Some((target, strike)) = &out.strike {
        let who = if *target == attacker.id {
            attacker
        } else {
            defender
        };
        super::injury::apply_strike(who, strike, ctx);
    }
}

#[cfg(test)]
mod tests;
