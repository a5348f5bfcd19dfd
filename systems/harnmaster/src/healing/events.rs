//! The Healing Sequence's events (what the table recorded) and what checking one found.

use super::tables::TreatmentKind;
use super::EmlPart;
use crate::ids::{CharacterId, InjuryId};
use crate::state::{Aspect, ShockState, Treated};
use crate::test_roll::TestResult;

use serde::{Deserialize, Serialize};

/// A roll of the Healing Sequence that needs no healer: what and the face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SeqRollKind {
    /// Blood Loss Advance Roll (Strength), per bleeder every five minutes.
    BloodLoss,
    /// Injury Healing Roll (HB x HR), per injury every five days.
    Healing,
    /// The d3 of the random healing period option (d3+3 days).
    HealingPeriod,
    /// Blood regeneration (Endurance), every ten days.
    BloodRegeneration,
    /// Infection course roll, daily.
    Infection,
    /// Extended Shock course roll, every four hours.
    ExtendedShock,
    /// Coma course roll, every ten days.
    Coma,
    /// A grim wound's daily Shock Roll.
    GrimShock,
    /// The Serious-injury aggravation option's Shock roll.
    Aggravation,
}

impl SeqRollKind {
    /// Returns the kind as `due` and `roll` name it.
    pub fn name(self) -> &'static str {
        match self {
            SeqRollKind::BloodLoss => "blood-loss",
            SeqRollKind::Healing => "healing",
            SeqRollKind::HealingPeriod => "healing-period",
            SeqRollKind::BloodRegeneration => "blood-regeneration",
            SeqRollKind::Infection => "infection",
            SeqRollKind::ExtendedShock => "extended-shock",
            SeqRollKind::Coma => "coma",
            SeqRollKind::GrimShock => "grim-shock",
            SeqRollKind::Aggravation => "aggravation",
        }
    }

    /// Returns true for kinds that are about one injury.
    pub fn per_injury(self) -> bool {
        matches!(
            self,
            SeqRollKind::BloodLoss
                | SeqRollKind::Healing
                | SeqRollKind::HealingPeriod
                | SeqRollKind::GrimShock
                | SeqRollKind::Aggravation
        )
    }
}

/// A Healing Sequence roll that needs no healer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeqRoll {
    /// Who rolls.
    pub character: CharacterId,
    /// What roll.
    pub kind: SeqRollKind,
    /// The injury, for per-injury kinds.
    pub injury: Option<InjuryId>,
    /// The face (d100, or the d3 for `HealingPeriod`).
    pub roll: u16,
    /// With the random period option: the d3 for the next healing period.
    pub period: Option<u16>,
    /// Coma: the patient rests in a sheltered place (else -20).
    pub sheltered: bool,
    /// The GM forced the roll outside its schedule (a ruling).
    pub forced: bool,
}

/// How a healer tries to stop a bleeder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stoppage {
    /// STA: staunch (a tourniquet on a limb +20).
    Staunch,
    /// CAU: cauterise (+30; infection on healing failures ending 3, 5, 8, 0).
    Cauterise,
}

/// A Blood Stoppage Roll (Physician).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BloodStoppage {
    /// The patient.
    pub character: CharacterId,
    /// The bleeder.
    pub injury: InjuryId,
    /// Staunch or cauterise.
    pub method: Stoppage,
    /// A tourniquet on a limb bleeder (+20 to staunch).
    pub tourniquet: bool,
    /// The healer's name.
    pub healer: String,
    /// The healer's Physician ML.
    pub physician_ml: i32,
    /// Other bleeders the healer treats in the same five minutes (-10 each).
    pub other_bleeders: u8,
    /// The d100.
    pub roll: u16,
    /// The GM forced it outside its schedule.
    pub forced: bool,
}

/// A Treatment Roll (Physician), step 5; also amputation as treatment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Treatment {
    /// The patient.
    pub character: CharacterId,
    /// The injury.
    pub injury: InjuryId,
    /// The healer's name.
    pub healer: String,
    /// The healer's Physician ML.
    pub physician_ml: i32,
    /// The healer's Physician Index (caps a Grievous injury's HR).
    pub physician_index: i32,
    /// The healer's DEX secondary modifier (for SUR, EXT and AMP).
    pub dex_mod: i32,
    /// A broadhead projectile.
    pub broadhead: bool,
    /// Amputate (frost limbs, or to defeat an infection).
    pub amputate: bool,
    /// The d100.
    pub roll: u16,
    /// The GM forced it (for example a treatment while bleeding).
    pub forced: bool,
}

/// What a healer attends to, for course-roll bonuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Attended {
    /// Extended Shock (+5 x stars of a Physician SV test).
    ExtendedShock,
    /// Infection (+ the SV of a Physician test).
    Infection,
}

/// A healer's bonus to course rolls; the single highest applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HealerAttends {
    /// The patient.
    pub character: CharacterId,
    /// What the healer attends to.
    pub condition: Attended,
    /// The healer.
    pub healer: String,
    /// The bonus, as the GM worked it out from the healer's test.
    pub bonus: i32,
}

/// How fast a character with a Serious head, torso or leg injury moves (the aggravation
/// option's AGL TEST PERIOD table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MovePace {
    /// A half Move: an Agility test every four hours.
    Half,
    /// A full Move: an Agility test every turn.
    Full,
    /// The Charge action: an Agility test every turn.
    Charge,
    /// A Double Move: not allowed.
    Double,
}

/// Why a shock state (or a coma) allows no move at this pace (000 l.544: INC, "only assisted
/// Difficult Half Move is allowed"; l.554: UNC, "no actions allowed"; l.843: a coma), or
/// None when it allows it.
pub fn move_refused(shock: ShockState, coma: bool, pace: MovePace) -> Option<&'static str> {
    match (shock, pace) {
        // l.843: a coma patient "may neither move themselves nor take actions", whatever a
        // ruling made of the Shock State.
        _ if coma => Some("in a coma: they may neither move nor take actions (000 l.843)"),
        (ShockState::Killed, _) => Some("no move"),
        (ShockState::Unconscious, _) => {
            Some("no actions are allowed, a move among them (000 l.554)")
        }
        (ShockState::Incapacitated, MovePace::Full | MovePace::Charge | MovePace::Double) => {
            Some("only an assisted, Difficult half move is allowed (000 l.544)")
        }
        _ => None,
    }
}

impl MovePace {
    /// Its word.
    pub fn word(self) -> &'static str {
        match self {
            MovePace::Half => "half Move",
            MovePace::Full => "full Move",
            MovePace::Charge => "Charge",
            MovePace::Double => "Double Move",
        }
    }
}

/// The aggravation option's Agility test for moving with a Serious head, torso or leg injury:
/// the GM gives the EML; a CF calls an aggravation Shock SR for each such injury.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveTest {
    /// Who moves.
    pub character: CharacterId,
    /// How fast.
    pub pace: MovePace,
    /// The Agility EML tested against.
    pub ml: i32,
    /// The d100 face.
    pub roll: u16,
}

/// Fatigue the GM can record gaining and recovering (weakness fatigue follows its cause).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FatigueKind {
    /// Personal Fatigue (moving while INC, step 2; exertion).
    Personal,
    /// Weariness (a coma leaves it, step 3).
    Weariness,
}

impl FatigueKind {
    /// Its word.
    pub fn word(self) -> &'static str {
        match self {
            FatigueKind::Personal => "personal",
            FatigueKind::Weariness => "weariness",
        }
    }
}

/// Fatigue gained (positive) or recovered (negative), as the GM records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FatigueChange {
    /// Who.
    pub character: CharacterId,
    /// Which fatigue.
    pub kind: FatigueKind,
    /// Points gained (negative: recovered).
    pub points: i32,
}

/// What a Healing Sequence event did, for narration and history: numbers and results, no
/// prose (the CLI words it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HealOutcome {
    /// The injury concerned, if one.
    pub injury: Option<InjuryId>,
    /// The test made, if one.
    pub test: Option<TestResult>,
    /// How the EML was made.
    pub eml_parts: Vec<EmlPart>,
    /// What the roll or decision does to the character, as the fold applies it, with the
    /// figures from before it that its telling needs.
    pub effect: Effect,
}

/// What a Healing Sequence roll or decision does, by step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    /// The aggravation option's Agility test on moving: on a CF, the injuries each owing an
    /// aggravation Shock SR (the Serious head, torso and leg injuries, and the Grievous ones the
    /// move might plausibly aggravate).
    MoveTest {
        /// How fast.
        pace: MovePace,
        /// The injuries whose aggravation Shock SR the CF calls (none unless a CF).
        aggravating: Vec<InjuryId>,
        /// The CF is automatic: a Grievous head, torso or leg zone was used.
        automatic: bool,
        /// The mover was stunned: the level the roll made before STN lowered it one Success
        /// Level (000 l.536).
        stunned: Option<crate::test_roll::SuccessLevel>,
    },
    /// Fatigue gained or recovered: `total` of that kind after it.
    Fatigue {
        /// Which.
        kind: FatigueKind,
        /// Points gained (negative: recovered).
        points: i32,
        /// That fatigue after it.
        total: i32,
    },
    /// Step 1, a Blood Loss Advance Roll: `points` BP lost, `total` BP after it; `stops`: the
    /// bleeding stops with this roll (a staunch succeeded before it).
    BloodLoss {
        /// Blood Loss Points lost.
        points: u8,
        /// The character's Blood Loss Points after the roll.
        total: u8,
        /// The bleeding stops with this roll.
        stops: bool,
    },
    /// Step 1, a Blood Stoppage Roll.
    Stoppage {
        /// The healer who rolled.
        healer: String,
        /// The bonus to this healer's next staunch of the bleeder (+10 on a failure).
        bonus: i32,
        /// The bleeding stops after one more Blood Loss Advance Roll.
        stops: bool,
        /// The bleeding stops now.
        now: bool,
        /// The stoppage was by cauterisation.
        cauterise: bool,
    },
    /// Step 5, a Treatment Roll: the row that applies, and the level an amputation leaves.
    Treated {
        /// The treatment as it applies to the injury.
        treated: Box<Treated>,
        /// The new edge injury's level, when the treatment amputates.
        amputated: Option<u8>,
        /// The treatment given.
        kind: TreatmentKind,
        /// How long it takes, in minutes.
        minutes: i64,
    },
    /// Step 6, a Healing Roll: the injury heals `by` levels from `level`.
    Healing {
        /// Levels healed (0-2).
        by: u8,
        /// The injury becomes infected (a CF on an infection-marked injury).
        infect: bool,
        /// The d3 of a d3+3-day period, when the injury heals on one.
        period: Option<u16>,
        /// The injury's level before the roll.
        level: u8,
        /// The injury's aspect.
        aspect: Aspect,
    },
    /// The d3 of a d3+3-day healing period.
    Period(u16),
    /// Blood regeneration (step 1): `by` BP regenerated, `left` after it; `skip`: none this
    /// period or the next.
    Regeneration {
        /// Blood Loss Points regenerated.
        by: u8,
        /// A CF: no regeneration this period or the next.
        skip: bool,
        /// Blood Loss Points left.
        left: u8,
    },
    /// Step 7, an infection course roll: its HR moves `by` from `from`.
    Infection {
        /// The change to the infection's HR.
        by: i32,
        /// The infection's HR before the roll.
        from: i32,
    },
    /// Step 2, an Extended Shock course roll: its HR moves `by` from `from`.
    ExtendedShock {
        /// The change to the HR.
        by: i32,
        /// The HR before the roll.
        from: i32,
    },
    /// Step 3, a coma course roll: its HR moves `by` from `from` (never below 1).
    Coma {
        /// The change to the HR.
        by: i32,
        /// The HR before the roll.
        from: i32,
    },
    /// A grim wound's daily Shock Roll: the Shock Index `location_shock + level + modifier`
    /// and the state it gives.
    Grim {
        /// The shock state after the roll.
        state: ShockState,
        /// The location's shock value.
        location_shock: u8,
        /// The injury's level.
        level: u8,
        /// The test's modifier to the Shock Index.
        modifier: i32,
    },
    /// The Serious-injury aggravation option: `worse` costs the injury 1 HR.
    Aggravation {
        /// The injury is aggravated.
        worse: bool,
    },
    /// A healer attends a condition, for a bonus to its course rolls.
    Attend {
        /// What the healer attends to.
        condition: Attended,
        /// The bonus.
        bonus: i32,
        /// The healer.
        healer: String,
    },
}
