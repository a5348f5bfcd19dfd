//! The Injury Sequence, steps 1-5 (rules text pages 167-172): location, impact, injury (with
//! compound injury, glancing blow, bleeding and amputation), shock and injury effect.
//!
//! [`resolve_strike`] is a pure function of the target's state, the body table, the strike's
//! declared inputs and a [`DiceSource`] (the kernel's: given or rolled faces when recorded,
//! the recorded faces again when replayed).
//!
#![doc = include_str!("readings/injury.md")]

use super::body::{BodyTable, Circle, Triangle, ZoneKind};
use super::state::*;
use crate::dice::{DiceExpr, Die};
use crate::ids::{CharacterId, InjuryId};
use crate::test_roll::{d100_test, SuccessLevel, TestResult};
use crate::time::{CampaignTime, MINUTE};
use serde::{Deserialize, Serialize};

pub use crate::dice::{DiceSource, RecordedDice, RecordedDie, Replayed};

mod error;
mod location;
pub use error::StrikeError;
pub use location::LocationStep;
use location::{locate, Struck};

/// The names of the dice a strike may roll, for validating `--dice`.
pub const STRIKE_DICE: [&str; 9] = [
    "zone",
    "location",
    "side",
    "face",
    "impact",
    "compound",
    "amputation",
    "dodge",
    "shock",
];

/// How a strike's limb side is chosen (step 1, "Limbs").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SideRule {
    /// The LD's parity (the default).
    #[default]
    LocationDie,
    /// The applied ZD's parity.
    ZoneDie,
    /// A separate d10 named `side`.
    Roll,
    /// The left side, declared.
    Left,
    /// The right side, declared.
    Right,
}

/// How step 1 finds the location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Targeting {
    /// The zone die (and any bonus zone dice) aimed at a ZN, then the location die.
    Rolled {
        /// The Zone Die.
        zone_die: Die,
        /// The ZN aimed at; the ZD counts up from it.
        aim: u8,
        /// Bonus zone dice from Precision TAs.
        precision: u8,
        /// Which ZD result applies (1-based; the first by default).
        pick_zone: Option<u8>,
        /// Which LD result applies (1-based; the first by default).
        pick_location: Option<u8>,
        /// How the limb side is found.
        side: SideRule,
    },
    /// A helpless target (or a press or trip): the location is selected, not rolled.
    Chosen {
        /// The location (or face feature) selected.
        location: String,
        /// Its side, for sided zones.
        side: Option<Side>,
    },
    /// An area attack engulfs the whole body: step 1 is skipped.
    Area,
    /// An area attack the target evades (000 l.362, "Evading Area Attacks"): as [`Area`],
    /// and the evader tests Dodge (the die `dodge`), which lowers the Shock State Index by 1
    /// on an S or 2 on a CS; whatever the result, the evader falls prone.
    ///
    /// [`Area`]: Targeting::Area
    EvadedArea {
        /// The evader's Dodge EML, as the GM gives it.
        dodge: i32,
    },
    /// A strike into a named body zone, its location rolled on the Location Die there (the
    /// armed blocker's strike at a natural weapon's zone: "roll d10 for LN", 001 l.420).
    InZone {
        /// The zone's name (`arm`, `head`).
        zone: String,
    },
}

/// How step 2 finds the impact.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ImpactInput {
    /// Strike impact = weapon impact die + modifier + Strength impact modifier + Impact TA.
    Rolled {
        /// The weapon's impact roll (`d10+3`).
        roll: DiceExpr,
        /// The wielder's Strength Impact Modifier.
        strength_mod: i32,
        /// Bonus impact from Impact TAs.
        impact_ta: i32,
    },
    /// Effective impact entered by the GM (press and trip attacks skip steps 1 and 2).
    Effective(i32),
}

/// A strike's declared inputs and the faces its dice showed: the payload of a strike event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strike {
    /// Who is struck.
    pub target: CharacterId,
    /// The strike's aspect.
    pub aspect: Aspect,
    /// Step 1.
    pub targeting: Targeting,
    /// Step 2.
    pub impact: ImpactInput,
    /// The target's armour value at the location for this aspect (Area AV for area attacks).
    pub av: i32,
    /// The armour there is rigid (glancing blows, step 3.2).
    pub rigid: bool,
    /// An arrow or bolt (projectile impalement, step 5).
    pub projectile: bool,
    /// Roll the face option's d20 when the face is struck.
    pub face_option: bool,
    /// The faces the dice showed.
    pub dice: Vec<RecordedDie>,
}

/// What step 2 found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImpactStep {
    /// The impact dice faces (empty when entered).
    pub faces: Vec<u16>,
    /// The weapon's impact roll, when rolled.
    pub roll: Option<DiceExpr>,
    /// The Strength impact modifier.
    pub strength_mod: i32,
    /// Impact TA bonus.
    pub impact_ta: i32,
    /// Strike impact (None when the GM entered effective impact).
    pub strike: Option<i32>,
    /// The armour value subtracted.
    pub av: i32,
    /// Effective impact.
    pub effective: i32,
}

/// What step 3.1 found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompoundStep {
    /// The target number: total IL of the injuries at the location, the new one included.
    pub tn: u8,
    /// The d10.
    pub roll: u16,
    /// The injury whose IL rose (None when the roll failed).
    pub raised: Option<InjuryId>,
    /// Its IL before.
    pub from: u8,
    /// Its IL after (5 stays 5).
    pub to: u8,
    /// A G5 compounded: Injury Shock 6.
    pub g5: bool,
}

/// What step 3.4 found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmputationStep {
    /// The injury tested.
    pub injury: InjuryId,
    /// The triangle.
    pub triangle: Triangle,
    /// The Strength test.
    pub test: TestResult,
    /// The location was severed.
    pub severed: bool,
    /// The injury became a Bleeder through amputation.
    pub bleeder: bool,
}

/// What step 4 found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShockStep {
    /// Location Shock (4.1).
    pub location_shock: i32,
    /// Injury Shock (4.2).
    pub injury_shock: i32,
    /// The Shock test (4.3).
    pub test: TestResult,
    /// The SHK modifier from the test.
    pub modifier: i32,
    /// The Shock State Index.
    pub index: i32,
    /// The state the table gives.
    pub table_state: ShockState,
    /// The state before.
    pub before: ShockState,
    /// The state after escalation.
    pub after: ShockState,
    /// What evading an area attack took off the index (0, 1 or 2: 000 l.362).
    #[serde(default)]
    pub evaded: i32,
}

/// The whole of one resolved strike.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrikeOutcome {
    /// Step 1.
    pub location: LocationStep,
    /// Where the strike landed (None on a miss).
    pub place: Option<Place>,
    /// Step 2 (None on a miss).
    pub impact: Option<ImpactStep>,
    /// A glancing blow (step 3.2): shock, no injury.
    pub glancing: bool,
    /// The new injury, as it stands after the sequence (None when none was inflicted).
    pub injury: Option<Injury>,
    /// The new injury's IL from the table, before compounding.
    pub table_level: u8,
    /// Step 3.1.
    pub compound: Option<CompoundStep>,
    /// An existing injury that compounding raised: its id, new IL, and whether it now bleeds.
    pub raised: Option<(InjuryId, u8, bool)>,
    /// Step 3.4.
    pub amputation: Option<AmputationStep>,
    /// Step 4.
    pub shock: Option<ShockStep>,
    /// Evading an area attack: the evader's Dodge test, which lowered step 4's index (000
    /// l.362); the evader falls prone whatever its result.
    #[serde(default)]
    pub evasion: Option<TestResult>,
    /// Step 5 mishaps: kind and whether automatic.
    pub mishaps: Vec<(MishapKind, bool)>,
    /// A Morale roll is now owed.
    pub morale: bool,
    /// The target died, and why.
    pub death: Option<String>,
}

impl StrikeOutcome {
    fn miss(location: LocationStep) -> StrikeOutcome {
        StrikeOutcome {
            location,
            place: None,
            impact: None,
            glancing: false,
            injury: None,
            table_level: 0,
            compound: None,
            raised: None,
            amputation: None,
            shock: None,
            evasion: None,
            mishaps: Vec::new(),
            morale: false,
            death: None,
        }
    }
}

/// Returns the Injury Level the INJURY table gives for an effective impact (0 for none).
pub fn injury_level(effective: i32) -> u8 {
    match effective {
        i32::MIN..=0 => 0,
        1..=4 => 1,
        5..=9 => 2,
        10..=14 => 3,
        15..=19 => 4,
        _ => 5,
    }
}

/// Step 3.3: whether an injury of `level` and `aspect` at a location with `circle` bleeds.
pub fn bleeds(circle: Option<Circle>, level: u8, aspect: Aspect) -> bool {
    let Some(circle) = circle else { return false };
    use Aspect::*;
    match (level, circle) {
        (5, _) => matches!(aspect, Edge | Point | Blunt),
        (4, Circle::Grey | Circle::Black) => matches!(aspect, Edge | Point),
        (3, Circle::Black) => aspect == Edge,
        _ => false,
    }
}

/// Which injuries compound with which (step 3.1).
#[derive(PartialEq, Eq)]
enum CompoundClass {
    Physical,
    Thermal,
    Area,
}

fn class(aspect: Aspect, area: bool) -> CompoundClass {
    if area {
        CompoundClass::Area
    } else if aspect.is_thermal() {
        CompoundClass::Thermal
    } else {
        CompoundClass::Physical
    }
}

/// Returns the Shock test's SHK modifier for a success level (step 4.3).
pub fn shock_modifier(level: SuccessLevel) -> i32 {
    match level {
        SuccessLevel::CF => 2,
        SuccessLevel::F => 1,
        SuccessLevel::S => 0,
        SuccessLevel::CS => -1,
    }
}

/// The step 5 injury mishap table: the mishaps a resulting injury owes.
pub fn mishaps(
    kind: Option<ZoneKind>,
    location: &str,
    severity: Severity,
) -> Vec<(MishapKind, bool)> {
    use MishapKind::*;
    match (severity, kind) {
        (Severity::Minor, _) => vec![],
        (Severity::Serious, Some(ZoneKind::Head) | None) => vec![],
        (Severity::Serious, Some(ZoneKind::Arm)) => vec![(Fumble, false)],
        (Severity::Serious, Some(ZoneKind::Torso)) if location == "pelvis" => {
            vec![(Stumble, false)]
        }
        (Severity::Serious, Some(ZoneKind::Torso)) => vec![],
        (Severity::Serious, Some(ZoneKind::Leg)) => vec![(Stumble, false)],
        (Severity::Grievous, Some(ZoneKind::Head) | None) => vec![(Fumble, true), (Stumble, true)],
        (Severity::Grievous, Some(ZoneKind::Arm)) => vec![(Fumble, true)],
        (Severity::Grievous, Some(ZoneKind::Torso | ZoneKind::Leg)) => vec![(Stumble, true)],
    }
}

/// The campaign facts a resolution needs.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    /// When the strike happens.
    pub at: CampaignTime,
    /// The length of a round in seconds (for "the end of the next turn").
    pub round_seconds: i64,
    /// The d3+3 random healing period option is on.
    pub random_healing_period: bool,
}

/// Resolves a strike against `target`: steps 1-5, reading dice from `dice`. The new injury, if
/// any, gets the id `id`.
pub fn resolve_strike(
    target: &HmCharacter,
    table: &BodyTable,
    s: &Strike,
    id: InjuryId,
    dice: &mut dyn DiceSource,
) -> Result<StrikeOutcome, StrikeError> {
    resolve_strike_armoured(target, table, s, id, dice, None)
}

/// The armour worn, as a function of the struck place and the aspect: (AV, rigid).
pub type ArmourAt<'a> = &'a dyn Fn(&Place, Aspect) -> (i32, bool);

/// Injury Sequence step 3.4: the amputation roll on the G5 edge injury a strike left (new,
/// or raised to G5), its severing and bleeding, and a neck severed; gives the Shock Roll's
/// penalty it leaves (20 on an S).
fn amputation(
    target: &HmCharacter,
    struck: &Struck,
    out: &mut StrikeOutcome,
    injury: &mut Option<Injury>,
    dice: &mut dyn DiceSource,
) -> Result<i32, StrikeError> {
    let mut shock_penalty = 0;
    let amp_target: Option<(InjuryId, bool)> = match (&out.raised, &injury) {
        (Some((rid, 5, _)), _) => target
            .injury(*rid)
            .filter(|i| i.aspect == Aspect::Edge && !i.severed)
            .map(|i| (i.id, false)),
        (_, Some(new)) if new.level == 5 && new.aspect == Aspect::Edge => Some((new.id, true)),
        _ => None,
    };
    if let (Some((amp_id, is_new)), Some(triangle)) = (amp_target, struck.triangle) {
        let ml = if target.sheet.beast {
            triangle.beast_ml()
        } else {
            target.sheet.strength_ml + triangle.modifier()
        };
        let roll = dice.faces("amputation", Die::D100, 1)?[0];
        let test = d100_test(ml, roll);
        let severed = !test.level.is_success();
        let bleeder = match test.level {
            SuccessLevel::CF => true,
            SuccessLevel::F => struck.circle.is_some(),
            _ => false,
        };
        if test.level == SuccessLevel::S {
            shock_penalty = 20;
        }
        if severed {
            if is_new {
                if let Some(new) = injury.as_mut() {
                    new.severed = true;
                    new.bleeder |= bleeder;
                }
            } else if let Some(r) = out.raised.as_mut() {
                r.2 |= bleeder;
            }
            if struck.place.location == "neck" {
                out.death = Some("neck severed".into());
            }
        }
        out.amputation = Some(AmputationStep {
            injury: amp_id,
            triangle,
            test,
            severed,
            bleeder,
        });
    }
    Ok(shock_penalty)
}

/// Injury Sequence step 2: the impact, rolled (its faces, the Strength modifier and an
/// impact TA) or given as an effective figure, less the armour's AV.
fn impact_step(
    input: &ImpactInput,
    av: i32,
    dice: &mut dyn DiceSource,
) -> Result<ImpactStep, StrikeError> {
    Ok(match input {
        ImpactInput::Rolled {
            roll,
            strength_mod,
            impact_ta,
        } => {
            let faces = if roll.count == 0 {
                Vec::new()
            } else {
                dice.faces("impact", roll.die, roll.count.into())?
            };
            let strike = roll.total("impact", &faces)? + strength_mod + impact_ta;
            ImpactStep {
                faces,
                roll: Some(*roll),
                strength_mod: *strength_mod,
                impact_ta: *impact_ta,
                strike: Some(strike),
                av,
                effective: strike - av,
            }
        }
        ImpactInput::Effective(e) => ImpactStep {
            faces: Vec::new(),
            roll: None,
            strength_mod: 0,
            impact_ta: 0,
            strike: None,
            av,
            effective: *e,
        },
    })
}

/// Step 3.1, a compound injury: an open injury of the same class at the same place calls
/// for a d10 against the sum of their levels; at or under it, the highest (the most recent
/// of equals) rises one level, G5 staying G5 with Injury Shock 6. Writes the step into
/// `out` (and an older injury it raised). Gives, when the roll raised one, the Injury Shock
/// and the resulting severity.
fn compound(
    target: &HmCharacter,
    struck: &Struck,
    new: &mut Injury,
    out: &mut StrikeOutcome,
    dice: &mut dyn DiceSource,
) -> Result<Option<(i32, Option<Severity>)>, StrikeError> {
    let cls = class(new.aspect, new.area);
    let existing: Vec<&Injury> = target
        .injuries
        .iter()
        .filter(|i| {
            !i.healed()
                && i.place.location == new.place.location
                && i.place.side == new.place.side
                && class(i.aspect, i.area) == cls
        })
        .collect();
    if existing.is_empty() {
        return Ok(None);
    }
    let tn: u8 = existing.iter().map(|i| i.level).sum::<u8>() + new.level;
    let roll = dice.faces("compound", Die::D10, 1)?[0];
    let mut step = CompoundStep {
        tn,
        roll,
        raised: None,
        from: 0,
        to: 0,
        g5: false,
    };
    let mut raised = None;
    if i32::from(roll) <= i32::from(tn) {
        // Candidates oldest first, the new injury last: the last of the highest IL is the
        // most recent, which wins ties.
        let top = existing
            .iter()
            .map(|i| i.level)
            .chain(std::iter::once(new.level))
            .max()
            .unwrap_or(new.level);
        let to = if top >= 5 { 5 } else { top + 1 };
        step.from = top;
        step.to = to;
        step.g5 = top >= 5;
        let shock = if step.g5 { 6 } else { i32::from(to) };
        let mut severity = None;
        if new.level == top {
            new.level = to;
            new.worst = to;
            step.raised = Some(new.id);
            severity = Some(Severity::of_level(to));
        } else if let Some(old) = existing.iter().rev().find(|i| i.level == top) {
            step.raised = Some(old.id);
            let bleeder = old.bleeder || bleeds(struck.circle, to, old.aspect);
            out.raised = Some((old.id, to, bleeder));
            severity = Some(Severity::of_level(to));
        }
        raised = Some((shock, severity));
    }
    out.compound = Some(step);
    Ok(raised)
}

/// As [`resolve_strike`], with the AV and rigidity looked up at the struck location from the
/// armour worn instead of taken from the strike's declared `av` and `rigid`.
pub fn resolve_strike_armoured(
    target: &HmCharacter,
    table: &BodyTable,
    s: &Strike,
    id: InjuryId,
    dice: &mut dyn DiceSource,
    armour: Option<ArmourAt<'_>>,
) -> Result<StrikeOutcome, StrikeError> {
    if target.dead() {
        return Err(StrikeError::TargetDead(target.name.clone()));
    }
    // Step 1: location.
    let (location, struck) = locate(table, s, dice)?;
    let Some(struck) = struck else {
        return Ok(StrikeOutcome::miss(location));
    };
    let area = matches!(s.targeting, Targeting::Area | Targeting::EvadedArea { .. });
    // "Characters who are not stunned may select the Evade action" (000 l.360).
    if let (Targeting::EvadedArea { .. }, true) = (&s.targeting, target.shock != ShockState::None) {
        return Err(StrikeError::CannotEvade {
            name: target.name.clone(),
            shock: target.shock,
        });
    }
    let (av, rigid) = match armour {
        Some(f) => f(&struck.place, s.aspect),
        None => (s.av, s.rigid),
    };

    // Step 2: impact.
    let impact = impact_step(&s.impact, av, dice)?;

    // Step 3: injury.
    let table_level = injury_level(impact.effective);
    let glancing =
        table_level == 1 && rigid && !area && matches!(s.aspect, Aspect::Edge | Aspect::Point);
    let mut out = StrikeOutcome {
        location,
        place: Some(struck.place.clone()),
        impact: Some(impact),
        glancing,
        injury: None,
        table_level,
        compound: None,
        raised: None,
        amputation: None,
        shock: None,
        evasion: None,
        mishaps: Vec::new(),
        morale: false,
        death: None,
    };
    if table_level == 0 {
        return Ok(out);
    }

    let mut injury = (!glancing).then(|| Injury {
        id,
        place: struck.place.clone(),
        aspect: s.aspect,
        area,
        projectile: s.projectile,
        level: table_level,
        worst: table_level,
        location_shock: struck.shock,
        bleeder: false,
        severed: false,
        impaled: false,
        shock_roll_succeeded: false,
        inflicted_at: CampaignTime::START,
        heal: HealState::default(),
        n: target.injuries_suffered(),
    });

    // 3.1 Compound injury.
    let mut injury_shock = if glancing { 1 } else { i32::from(table_level) };
    let mut resulting: Option<Severity> = injury.as_ref().map(|i| i.severity());
    if let Some(new) = injury.as_mut() {
        if let Some((shock, severity)) = compound(target, &struck, new, &mut out, dice)? {
            injury_shock = shock;
            resulting = severity.or(resulting);
        }
        // 3.3 Bleeding.
        new.bleeder = bleeds(struck.circle, new.level, new.aspect);
    }

    // 3.4 Amputation, on the G5 edge injury this strike left (new or raised).
    let shock_penalty = amputation(target, &struck, &mut out, &mut injury, dice)?;

    // Step 4: shock (none once the neck is severed: the target is already dead).
    if out.death.is_none() {
        let raw = target.sheet.shock_ml - target.fatigue() + if glancing { 10 } else { 0 }
            - shock_penalty;
        // Evading an area attack: the Dodge test takes 1 (S) or 2 (CS) off the index.
        let evaded = match s.targeting {
            Targeting::EvadedArea { dodge } => {
                let t = d100_test(dodge, dice.faces("dodge", Die::D100, 1)?[0]);
                out.evasion = Some(t);
                match t.level {
                    SuccessLevel::CS => 2,
                    SuccessLevel::S => 1,
                    _ => 0,
                }
            }
            _ => 0,
        };
        let roll = dice.faces("shock", Die::D100, 1)?[0];
        let test = d100_test(raw, roll);
        let modifier = shock_modifier(test.level);
        let index = i32::from(struck.shock) + injury_shock + modifier - evaded;
        let table_state = ShockState::of_index(index);
        let after = target.shock.escalate(table_state);
        if after == ShockState::Killed {
            out.death = Some(format!("killed in action (SHK {index})"));
        }
        if let Some(new) = injury.as_mut() {
            new.shock_roll_succeeded = test.level.is_success();
        }
        out.shock = Some(ShockStep {
            location_shock: i32::from(struck.shock),
            injury_shock,
            test,
            modifier,
            index,
            table_state,
            before: target.shock,
            after,
            evaded,
        });
    }

    // Step 5: effects of the resulting injury.
    if let (Some(severity), Some(new)) = (resulting, injury.as_mut()) {
        new.impaled = s.projectile && new.level >= 3;
        if out.death.is_none() {
            out.mishaps = mishaps(struck.place.kind, &struck.place.location, severity);
            out.morale = severity >= Severity::Serious;
        }
    }
    out.injury = injury;
    Ok(out)
}

/// Applies a resolved strike to the character at campaign time `at`.
pub fn apply_strike(ch: &mut HmCharacter, out: &StrikeOutcome, ctx: Context) {
    // A new fight's rolls: an earlier fight's that lapsed are dropped first, before this
    // strike's Shock State (a stale Morale Roll must not stand in for this one's).
    if !out.mishaps.is_empty() || out.morale {
        ch.drop_lapsed(ctx.at);
    }
    if let Some(new) = &out.injury {
        let mut new = new.clone();
        new.inflicted_at = ctx.at;
        new.heal.next_healing = ctx.at.plus(5 * crate::time::DAY);
        new.heal.period_unrolled = ctx.random_healing_period;
        new.heal.next_blood_loss = ctx.at.plus(5 * MINUTE);
        new.heal.next_grim = ctx.at.plus(crate::time::DAY);
        ch.injuries.push(new);
    }
    if let Some((rid, level, bleeder)) = out.raised {
        if let Some(old) = ch.injuries.iter_mut().rev().find(|i| i.id == rid) {
            old.level = level;
            old.worst = old.worst.max(level);
            if bleeder && !old.bleeder {
                old.heal.next_blood_loss = ctx.at.plus(5 * MINUTE);
            }
            old.bleeder = bleeder;
        }
    }
    if let Some(amp) = &out.amputation {
        if amp.severed {
            if let Some(i) = ch.injuries.iter_mut().rev().find(|i| i.id == amp.injury) {
                i.severed = true;
            }
        }
    }
    let cause = out
        .compound
        .as_ref()
        .and_then(|c| c.raised)
        .or(out.injury.as_ref().map(|i| i.id));
    if let Some(shock) = &out.shock {
        if shock.after != shock.before {
            ch.shock = shock.after;
            ch.shock_injury = cause;
            set_shock_owed(ch, ctx);
        }
    }
    if let Some(id) = cause {
        for &(kind, automatic) in &out.mishaps {
            ch.owed.push(Owed::Mishap {
                injury: id,
                kind,
                automatic,
                at: ctx.at,
            });
        }
        if out.morale && !ch.owed.iter().any(|o| matches!(o, Owed::Morale { .. })) {
            ch.owed.push(Owed::Morale {
                injury: id,
                at: ctx.at,
            });
        }
    }
    if let Some(cause) = &out.death {
        kill(ch, cause, ctx.at);
    }
}

/// Marks the character dead and clears what a dead character no longer owes.
pub fn kill(ch: &mut HmCharacter, cause: &str, at: CampaignTime) {
    ch.shock = ShockState::Killed;
    ch.death = Some((cause.to_string(), at));
    ch.owed.clear();
}

/// Resets the shock roll owed for the current Shock State: a Shock Reroll at the end of the next
/// turn (INC) or ten minutes on (UNC), a stun recovery test at the end of the next turn (STN).
/// A character in Extended Shock makes course rolls instead (Healing Sequence step 2).
pub fn set_shock_owed(ch: &mut HmCharacter, ctx: Context) {
    ch.owed
        .retain(|o| !matches!(o, Owed::ShockReroll { .. } | Owed::StunRecovery { .. }));
    if ch.extended_shock.is_some() {
        return;
    }
    match ch.shock {
        ShockState::Incapacitated => ch.owed.push(Owed::ShockReroll {
            due_at: ctx.at.plus(ctx.round_seconds),
        }),
        ShockState::Unconscious => ch.owed.push(Owed::ShockReroll {
            due_at: ctx.at.plus(10 * MINUTE),
        }),
        ShockState::Stunned => ch.owed.push(Owed::StunRecovery {
            due_at: ctx.at.plus(ctx.round_seconds),
            tried: None,
        }),
        _ => {}
    }
}
