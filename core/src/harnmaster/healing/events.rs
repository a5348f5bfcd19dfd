//! The Healing Sequence's events (what the table recorded) and what checking one found.

use super::*;

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

/// What a Healing Sequence event did, for narration and history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HealOutcome {
    /// The injury concerned, if one.
    pub injury: Option<InjuryId>,
    /// The test made, if one.
    pub test: Option<TestResult>,
    /// How the EML was made.
    pub eml_parts: Vec<EmlPart>,
    /// What happened, in words.
    pub summary: String,
    /// Changes to apply.
    pub(crate) effect: Effect,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Effect {
    BloodLoss {
        points: u8,
    },
    Stoppage {
        bonus: i32,
        stops: bool,
        now: bool,
        cauterise: bool,
    },
    Treated(Box<Treated>, Option<u8>),
    Healing {
        by: u8,
        infect: bool,
        period: Option<u16>,
    },
    Period(u16),
    Regeneration {
        by: u8,
        skip: bool,
    },
    Infection {
        by: i32,
    },
    ExtendedShock {
        by: i32,
    },
    Coma {
        by: i32,
    },
    Grim {
        state: ShockState,
    },
    Aggravation {
        worse: bool,
    },
    Attend(Attended, i32),
}
