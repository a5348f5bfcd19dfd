//! The Healing Sequence, steps 1-8 (rules text pages 178-182): blood stoppage and blood loss,
//! Extended Shock, coma, treatment, healing rolls, blood regeneration, infection and
//! impairment; and the grim wound's daily Shock Roll and the Serious-injury aggravation option.
//!
//! Every roll is checked against what is owed and when (`check_*`, read-only) and then
//! applied (`apply_*`, infallible), so the fold stays atomic. A roll the GM *forces* skips the
//! due-time checks (not the existence checks) and is recorded as such.
//!
//! ## Readings of the text (decisions, pinned by tests)
//! - **Step 1.** Blood loss rolls fall due five minutes after the injury and every five
//!   minutes after. Each BP checks a box of the SHOCK STATE table (1 STN, 2 INC, 3 UNC, 4 KIA),
//!   combined with the current state as in Injury step 4 (INC while INC becomes UNC). The
//!   blood-loss state blocks shock rerolls until all bleeding stops; then STN clears and INC or
//!   UNC owes a Shock Reroll (unless in Extended Shock).
//! - **Step 2.** Extended Shock course rolls fall due every four hours from its onset, at
//!   HB x HR - fatigue + the single highest healer bonus. The worked example's "EML50 (HB13 x
//!   HR5 = 15 fatigue)" reads as 65 - 15 = 50, and its "EML55" adds the healer's +5.
//! - **Step 3.** A coma that ends while Extended Shock lasts leaves the character UNC; the
//!   weariness fatigue is the coma's days rounded down to a multiple of 5.
//! - **Step 5.** Treatment needs the patient's bleeding stopped and Extended Shock ended.
//!   The delay penalty counts whole days since the injury. The Grievous HR cap picks the row
//!   of the capped HR, and that row's marks apply.
//! - **Schedules.** Every periodic roll keeps the calendar it started on: the next falls due
//!   one period after the last one *fell due*, not after it was recorded, so a late roll
//!   does not shift the campaign's healing days ("every five days after incurring it").
//! - **Step 6.** An untreated injury heals at its current severity's CF HR. When an infection
//!   ends, every injury's next Healing Roll falls due five days later (the example's day 21).
//! - **Step 7.** Infection course rolls are HB x infection HR + healer bonus; the text names no
//!   fatigue penalty for them, so none applies.
//! - **Step 8.** Permanent impairment accrues 5 per 20 days from the injury until it first
//!   reaches Minor; it then stays, and only the higher of permanent and indefinite applies.

use super::body::{BodyTable, ZoneKind};
use super::injury::Context;
use super::shock::RollError;
use super::state::*;
use crate::ids::{CharacterId, InjuryId};
use crate::test_roll::{d100_test, SuccessLevel, TestResult};
use crate::time::{CampaignTime, DAY, HOUR, MINUTE};
use serde::{Deserialize, Serialize};

/// One term of an EML, for showing how it was made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmlPart {
    /// What the term is (`HB13 x HR4`, `fatigue`).
    pub label: String,
    /// Its value.
    pub value: i32,
}

fn part(label: impl Into<String>, value: i32) -> EmlPart {
    EmlPart {
        label: label.into(),
        value,
    }
}

/// Sums EML parts.
pub fn eml_of(parts: &[EmlPart]) -> i32 {
    parts.iter().map(|p| p.value).sum()
}

// ---------------------------------------------------------------------------------------
// The TREATMENT ROLL tables (step 5) as data.

/// The treatments of the TREATMENTS table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TreatmentKind {
    /// AMP: amputation.
    Amputation,
    /// CAU: cauterisation (blood stoppage).
    Cauterisation,
    /// CLN: clean and dress.
    CleanAndDress,
    /// CMP: compress.
    Compress,
    /// EXT: extraction.
    Extraction,
    /// SET: set and splint.
    SetAndSplint,
    /// STA: staunch (blood stoppage).
    Staunch,
    /// SUR: surgery.
    Surgery,
    /// WRM: warming.
    Warming,
}

impl TreatmentKind {
    /// Returns the book's abbreviation.
    pub fn code(self) -> &'static str {
        match self {
            TreatmentKind::Amputation => "AMP",
            TreatmentKind::Cauterisation => "CAU",
            TreatmentKind::CleanAndDress => "CLN",
            TreatmentKind::Compress => "CMP",
            TreatmentKind::Extraction => "EXT",
            TreatmentKind::SetAndSplint => "SET",
            TreatmentKind::Staunch => "STA",
            TreatmentKind::Surgery => "SUR",
            TreatmentKind::Warming => "WRM",
        }
    }

    /// Returns how long the treatment takes, in minutes, for an injury of `level`.
    pub fn minutes(self, level: u8) -> i64 {
        match self {
            TreatmentKind::Amputation => 1,
            TreatmentKind::Cauterisation | TreatmentKind::Staunch => 5,
            TreatmentKind::CleanAndDress => 5 * i64::from(level.max(1)),
            TreatmentKind::Compress | TreatmentKind::SetAndSplint => 15,
            TreatmentKind::Extraction | TreatmentKind::Surgery => 30,
            TreatmentKind::Warming => 120,
        }
    }

    /// SUR, EXT and AMP (the boxed treatments) add the healer's DEX secondary modifier.
    pub fn uses_dex(self) -> bool {
        matches!(
            self,
            TreatmentKind::Surgery | TreatmentKind::Extraction | TreatmentKind::Amputation
        )
    }
}

/// What one cell of a TREATMENT ROLL table gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CellResult {
    /// A Healing Rate.
    Hr(u8),
    /// HEAL: the treatment heals the injury at once.
    Heal,
    /// Frost amputation: the patient suffers an edge injury of this level instead.
    Amputated(u8),
}

/// One cell: the result and its marks (the boxes the extraction lost; see [`treatment_table`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// The result.
    pub result: CellResult,
    /// The chance of infection (step 7).
    pub infection: bool,
    /// The chance of permanent impairment (step 8).
    pub permanent: bool,
    /// The treatment causes a Bleeder.
    pub bleeder: bool,
}

/// One injury type's column of three severities.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeverityColumn {
    /// CF, F, S, CS.
    pub cells: [Cell; 4],
    /// The required treatment.
    pub treatment: TreatmentKind,
    /// The treatment difficulty modifier.
    pub modifier: i32,
    /// The broadhead modifier (projectiles).
    pub broadhead: i32,
}

/// One injury type's table: Minor, Serious, Grievous.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeTable {
    /// blunt, edge, point, projectile, fire, frost.
    pub name: String,
    /// M, S, G.
    pub severities: [SeverityColumn; 3],
}

/// The six TREATMENT ROLL tables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreatmentTable {
    /// Blunt, edge, point, projectile, fire, frost, in that order.
    pub types: Vec<TypeTable>,
    /// Which marks Leechbook chose where the text lost them, and why.
    pub chosen: Vec<String>,
}

fn level_index(level: SuccessLevel) -> usize {
    match level {
        SuccessLevel::CF => 0,
        SuccessLevel::F => 1,
        SuccessLevel::S => 2,
        SuccessLevel::CS => 3,
    }
}

fn severity_index(s: Severity) -> usize {
    match s {
        Severity::Minor => 0,
        Severity::Serious => 1,
        Severity::Grievous => 2,
    }
}

impl TreatmentTable {
    /// Returns the column for an injury's type and current severity.
    pub fn column(&self, inj: &Injury) -> &SeverityColumn {
        self.column_at(inj, inj.severity())
    }

    /// Returns the column for an injury's type at `severity`.
    pub fn column_at(&self, inj: &Injury, severity: Severity) -> &SeverityColumn {
        let t = match (inj.aspect, inj.projectile) {
            (Aspect::Blunt, _) => 0,
            (Aspect::Edge, _) => 1,
            (Aspect::Point, false) => 2,
            (Aspect::Point, true) => 3,
            (Aspect::Fire, _) => 4,
            (Aspect::Frost, _) => 5,
        };
        &self.types[t.min(self.types.len() - 1)].severities[severity_index(severity)]
    }

    /// Checks the table's shape.
    pub fn validate(&self) -> Result<(), String> {
        if self.types.len() != 6 {
            return Err(format!(
                "the treatment table needs six injury types, not {}",
                self.types.len()
            ));
        }
        Ok(())
    }
}

/// Returns the built-in TREATMENT ROLL tables.
///
/// HRs, HEAL, treatments, modifiers, broadhead modifiers and the frost amputation results are
/// from the text. The marks are partly recoverable: SUR and EXT on Grievous injuries cause a
/// Bleeder on F and CF (TREATMENTS table); the Grievous HR cap example gives edge G at HR3 a
/// bleeder, infection and impairment; the treatment example gives edge S at F (HR4) the chance
/// of infection and no permanent mark; the impairment example gives edge G HR3 the permanent
/// mark; the HR6 rule of step 8 is the box that "eliminates the 5 impairment". The rest is
/// chosen, as `chosen` lists, and a campaign can override the whole table.
pub fn treatment_table() -> TreatmentTable {
    use CellResult::*;
    use TreatmentKind::*;
    let c = |result, infection, permanent, bleeder| Cell {
        result,
        infection,
        permanent,
        bleeder,
    };
    // Open wounds (edge, point, projectile): infection on CF/F of S and G and on CF of M;
    // permanent on CF of S and on CF/F of G.
    let open = |t: TreatmentKind, m: [i32; 3], brd: [i32; 3], g_treat: TreatmentKind| {
        let g_bleeds = matches!(g_treat, Surgery | Extraction);
        [
            SeverityColumn {
                cells: [
                    c(Hr(4), true, false, false),
                    c(Hr(5), false, false, false),
                    c(Hr(6), false, false, false),
                    c(Heal, false, false, false),
                ],
                treatment: CleanAndDress,
                modifier: m[0],
                broadhead: brd[0],
            },
            SeverityColumn {
                cells: [
                    c(Hr(3), true, true, false),
                    c(Hr(4), true, false, false),
                    c(Hr(5), false, false, false),
                    c(Hr(6), false, false, false),
                ],
                treatment: t,
                modifier: m[1],
                broadhead: brd[1],
            },
            SeverityColumn {
                cells: [
                    c(Hr(2), true, true, g_bleeds),
                    c(Hr(3), true, true, g_bleeds),
                    c(Hr(4), false, false, false),
                    c(Hr(5), false, false, false),
                ],
                treatment: g_treat,
                modifier: m[2],
                broadhead: brd[2],
            },
        ]
    };
    let blunt = [
        SeverityColumn {
            cells: [
                c(Hr(4), false, false, false),
                c(Hr(5), false, false, false),
                c(Hr(6), false, false, false),
                c(Heal, false, false, false),
            ],
            treatment: Compress,
            modifier: 30,
            broadhead: 0,
        },
        SeverityColumn {
            cells: [
                c(Hr(3), false, true, false),
                c(Hr(4), false, false, false),
                c(Hr(5), false, false, false),
                c(Hr(6), false, false, false),
            ],
            treatment: SetAndSplint,
            modifier: 10,
            broadhead: 0,
        },
        SeverityColumn {
            cells: [
                c(Hr(2), true, true, true),
                c(Hr(3), true, true, true),
                c(Hr(4), false, false, false),
                c(Hr(5), false, false, false),
            ],
            treatment: Surgery,
            modifier: 0,
            broadhead: 0,
        },
    ];
    let fire = [
        SeverityColumn {
            cells: [
                c(Hr(4), false, false, false),
                c(Hr(5), false, false, false),
                c(Hr(6), false, false, false),
                c(Heal, false, false, false),
            ],
            treatment: Compress,
            modifier: 20,
            broadhead: 0,
        },
        SeverityColumn {
            cells: [
                c(Hr(2), true, true, false),
                c(Hr(3), true, false, false),
                c(Hr(4), false, false, false),
                c(Hr(5), false, false, false),
            ],
            treatment: CleanAndDress,
            modifier: 10,
            broadhead: 0,
        },
        SeverityColumn {
            cells: [
                c(Hr(1), true, true, false),
                c(Hr(2), true, true, false),
                c(Hr(3), false, false, false),
                c(Hr(4), false, false, false),
            ],
            treatment: CleanAndDress,
            modifier: 0,
            broadhead: 0,
        },
    ];
    let frost = [
        SeverityColumn {
            cells: [
                c(Hr(4), false, false, false),
                c(Hr(5), false, false, false),
                c(Heal, false, false, false),
                c(Heal, false, false, false),
            ],
            treatment: Warming,
            modifier: 40,
            broadhead: 0,
        },
        SeverityColumn {
            cells: [
                c(Hr(3), true, true, false),
                c(Hr(4), false, false, false),
                c(Hr(5), false, false, false),
                c(Hr(6), false, false, false),
            ],
            treatment: Warming,
            modifier: 20,
            broadhead: 0,
        },
        SeverityColumn {
            cells: [
                c(Amputated(5), false, false, false),
                c(Amputated(4), false, false, false),
                c(Amputated(3), false, false, false),
                c(Amputated(2), false, false, false),
            ],
            treatment: Amputation,
            modifier: 0,
            broadhead: 0,
        },
    ];
    let ty = |name: &str, severities| TypeTable {
        name: name.into(),
        severities,
    };
    TreatmentTable {
        types: vec![
            ty("blunt", blunt),
            ty("edge", open(CleanAndDress, [20, 10, 0], [0, 0, 0], Surgery)),
            ty("point", open(CleanAndDress, [10, 0, -10], [0, 0, 0], Surgery)),
            ty("projectile", open(Extraction, [10, 0, -10], [0, -20, -30], Extraction)),
            ty("fire", fire),
            ty("frost", frost),
        ],
        chosen: vec![
            "infection: CF and F of Serious and Grievous open wounds (edge, point, projectile), burns (fire), blunt Grievous (compound fracture, surgery) and frost Serious CF; CF of Minor open wounds".into(),
            "permanent impairment: CF of every Serious type, CF and F of every Grievous type".into(),
            "bleeders: only where the text says (SUR and EXT failures on Grievous injuries)".into(),
            "EXT* (projectile S3 only; S2 uses CLN): applied by the injury's level at treatment".into(),
        ],
    }
}

/// A treatment as it applies to an injury.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Treated {
    /// The success level whose row applies (after the Grievous cap, CF if any healer's CF).
    pub level: SuccessLevel,
    /// That row's cell.
    pub cell: Cell,
    /// The healers who rolled, with their Physician Index.
    pub healers: Vec<(String, i32)>,
    /// The best success level among the healers' rolls, each capped by its own healer's
    /// Physician Index on a Grievous injury (before a CF replaces it).
    pub best: SuccessLevel,
    /// Any healer rolled CF (it replaces all other results).
    pub any_cf: bool,
    /// When the last treatment roll was made.
    pub at: CampaignTime,
}

// ---------------------------------------------------------------------------------------
// The events.

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
    effect: Effect,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Effect {
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

// ---------------------------------------------------------------------------------------
// Helpers.

fn not_owed(ch: &HmCharacter, what: &'static str, why: impl Into<String>) -> RollError {
    RollError::NotOwed {
        who: ch.name.clone(),
        what,
        why: why.into(),
    }
}

fn check_due(
    ch: &HmCharacter,
    what: &'static str,
    due: CampaignTime,
    now: CampaignTime,
    forced: bool,
) -> Result<(), RollError> {
    if !forced && now < due {
        return Err(RollError::NotDue {
            who: ch.name.clone(),
            what,
            due,
            now,
        });
    }
    Ok(())
}

fn injury<'a>(
    ch: &'a HmCharacter,
    id: Option<InjuryId>,
    what: &'static str,
) -> Result<&'a Injury, RollError> {
    let id = id.ok_or_else(|| RollError::Roll(format!("a {what} is for one injury: name it")))?;
    ch.injury(id)
        .ok_or_else(|| not_owed(ch, what, format!("they have no injury {}", id.short())))
}

/// Returns the Healing Rate an injury heals at: its treatment's (untreated: its severity's CF
/// cell), less aggravation, at least 1. None when the treatment healed it.
pub fn healing_rate(inj: &Injury, table: &TreatmentTable) -> i32 {
    if let Some(hr) = inj.heal.rate_override {
        return hr;
    }
    let cell = match &inj.heal.treatment {
        Some(t) => t.cell,
        None => table.column(inj).cells[0],
    };
    let hr = match cell.result {
        CellResult::Hr(hr) => i32::from(hr),
        CellResult::Heal => 6,
        CellResult::Amputated(_) => 1,
    };
    (hr - inj.heal.aggravation).max(1)
}

/// Returns the marks that apply to an injury now (its treatment's cell, or CF if untreated).
pub fn marks(inj: &Injury, table: &TreatmentTable) -> Cell {
    match &inj.heal.treatment {
        Some(t) => t.cell,
        None => table.column(inj).cells[0],
    }
}

/// Returns true if the injury is a grim wound: Grievous with a CF treatment (or untreated);
/// and always an area G4F or G5F fire injury, whatever its treatment ("Area injury treatment").
pub fn grim(inj: &Injury) -> bool {
    !inj.healed()
        && inj.severity() == Severity::Grievous
        && ((inj.area && inj.aspect == Aspect::Fire)
            || inj
                .heal
                .treatment
                .as_ref()
                .is_none_or(|t| t.level == SuccessLevel::CF))
}

fn level_change(inj: &Injury, by: u8) -> String {
    let to = inj.level.saturating_sub(by);
    if to == 0 {
        format!("{} heals", inj.code())
    } else {
        format!(
            "{} -> {}{}{}",
            inj.code(),
            Severity::of_level(to).letter(),
            to,
            inj.aspect.letter()
        )
    }
}

fn shift(test: &TestResult) -> i32 {
    match test.level {
        SuccessLevel::CF => -2,
        SuccessLevel::F => -1,
        SuccessLevel::S => 1,
        SuccessLevel::CS => 2,
    }
}

// ---------------------------------------------------------------------------------------
// Checks: what a roll would do, read-only.

/// Checks a Healing Sequence roll and works out its outcome.
pub fn check_seq(
    ch: &HmCharacter,
    r: &SeqRoll,
    table: &TreatmentTable,
    ctx: Context,
) -> Result<HealOutcome, RollError> {
    if ch.dead() {
        return Err(not_owed(ch, "roll", "they are dead"));
    }
    let now = ctx.at;
    let out = |injury, test, eml_parts, summary, effect| HealOutcome {
        injury,
        test,
        eml_parts,
        summary,
        effect,
    };
    match r.kind {
        SeqRollKind::BloodLoss => {
            let inj = injury(ch, r.injury, "Blood Loss Advance Roll")?;
            if !inj.bleeder || inj.healed() {
                return Err(not_owed(
                    ch,
                    "Blood Loss Advance Roll",
                    format!("{} is not a bleeder", inj.code()),
                ));
            }
            check_due(
                ch,
                "Blood Loss Advance Roll",
                inj.heal.next_blood_loss,
                now,
                r.forced,
            )?;
            let parts = if ch.sheet.beast {
                vec![part("beast Strength ML50", 50)]
            } else {
                vec![part(
                    format!("Strength ML{}", ch.sheet.strength_ml),
                    ch.sheet.strength_ml,
                )]
            };
            let test = d100_test(eml_of(&parts), r.roll);
            let points = match test.level {
                SuccessLevel::CF => 3,
                SuccessLevel::F => 2,
                SuccessLevel::S => 1,
                SuccessLevel::CS => 0,
            };
            let summary = format!(
                "{points} BP (total {}){}",
                ch.blood_loss + points,
                if inj.heal.stops_after_next_loss {
                    "; the bleeding stops"
                } else {
                    ""
                }
            );
            Ok(out(
                Some(inj.id),
                Some(test),
                parts,
                summary,
                Effect::BloodLoss { points },
            ))
        }
        SeqRollKind::Healing => {
            let inj = injury(ch, r.injury, "Healing Roll")?;
            if inj.healed() {
                return Err(not_owed(
                    ch,
                    "Healing Roll",
                    format!("injury {} has healed", inj.id.short()),
                ));
            }
            if let Some(inf) = &ch.infection {
                if !r.forced {
                    return Err(not_owed(
                        ch,
                        "Healing Roll",
                        format!(
                            "an infection (in {}) halts all healing until it is defeated",
                            ch.injury(inf.injury)
                                .map(|i| i.place.label())
                                .unwrap_or_default()
                        ),
                    ));
                }
            }
            if inj.heal.period_unrolled && !r.forced {
                return Err(not_owed(
                    ch,
                    "Healing Roll",
                    "its d3+3 period is not rolled yet (roll healing-period)",
                ));
            }
            check_due(ch, "Healing Roll", inj.heal.next_healing, now, r.forced)?;
            let hr = healing_rate(inj, table);
            let parts = vec![part(
                format!("HB{} x HR{hr}", ch.sheet.healing_base),
                ch.sheet.healing_base * hr,
            )];
            let mut test = d100_test(eml_of(&parts), r.roll);
            // Cauterised bleeders and area injuries: failures ending 3, 5, 8, 0 are CF.
            if (inj.heal.cauterised || inj.area)
                && test.level == SuccessLevel::F
                && matches!(r.roll % 10, 3 | 5 | 8 | 0)
            {
                test.level = SuccessLevel::CF;
            }
            let by = match test.level {
                SuccessLevel::CS => 2,
                SuccessLevel::S => 1,
                _ => 0,
            };
            let infect = test.level == SuccessLevel::CF
                && marks(inj, table).infection
                && ch.infection.is_none();
            let summary = if by > 0 {
                level_change(inj, by)
            } else if infect {
                "no healing; the injury is infected".into()
            } else {
                "no healing this period".into()
            };
            Ok(out(
                Some(inj.id),
                Some(test),
                parts,
                summary,
                Effect::Healing {
                    by,
                    infect,
                    period: r.period,
                },
            ))
        }
        SeqRollKind::HealingPeriod => {
            let inj = injury(ch, r.injury, "healing period roll")?;
            if !inj.heal.period_unrolled && !r.forced {
                return Err(not_owed(
                    ch,
                    "healing period roll",
                    "its period is already set",
                ));
            }
            if !(1..=3).contains(&r.roll) {
                return Err(RollError::Roll(format!(
                    "the healing period is a d3: it shows 1-3, not {}",
                    r.roll
                )));
            }
            Ok(out(
                Some(inj.id),
                None,
                vec![],
                format!("d3 {} -> the healing period is {} days", r.roll, r.roll + 3),
                Effect::Period(r.roll),
            ))
        }
        SeqRollKind::BloodRegeneration => {
            let due = ch
                .next_regeneration
                .filter(|_| ch.blood_loss > 0)
                .ok_or_else(|| {
                    not_owed(
                        ch,
                        "blood regeneration test",
                        "they have no Blood Loss Points",
                    )
                })?;
            check_due(ch, "blood regeneration test", due, now, r.forced)?;
            let mut parts = vec![part(
                format!("END{} x 5", ch.sheet.endurance),
                ch.sheet.endurance * 5,
            )];
            let weak = ch.infection_weakness();
            if weak > 0 {
                parts.push(part("infection weakness", -weak));
            }
            let test = d100_test(eml_of(&parts), r.roll);
            let (by, skip) = match test.level {
                SuccessLevel::CS => (2, false),
                SuccessLevel::S => (1, false),
                SuccessLevel::F => (0, false),
                SuccessLevel::CF => (0, true),
            };
            let summary = match (by, skip) {
                (0, true) => "no regeneration this period or the next".to_string(),
                (0, false) => "no regeneration".to_string(),
                (n, _) => format!(
                    "{n} BP regenerated ({} left)",
                    ch.blood_loss.saturating_sub(n)
                ),
            };
            Ok(out(
                None,
                Some(test),
                parts,
                summary,
                Effect::Regeneration { by, skip },
            ))
        }
        SeqRollKind::Infection => {
            let inf = ch
                .infection
                .ok_or_else(|| not_owed(ch, "infection course roll", "they have no infection"))?;
            check_due(ch, "infection course roll", inf.next_roll, now, r.forced)?;
            let mut parts = vec![part(
                format!("HB{} x HR{}", ch.sheet.healing_base, inf.healing_rate),
                ch.sheet.healing_base * inf.healing_rate,
            )];
            if ch.infection_bonus != 0 {
                parts.push(part("healer", ch.infection_bonus));
            }
            let test = d100_test(eml_of(&parts), r.roll);
            let by = shift(&test);
            let hr = inf.healing_rate + by;
            let summary = if hr <= 0 {
                "the infection kills".to_string()
            } else if hr >= 6 {
                format!("infection HR{hr}: the infection is defeated")
            } else {
                format!("infection HR{} -> HR{hr}", inf.healing_rate)
            };
            Ok(out(
                Some(inf.injury),
                Some(test),
                parts,
                summary,
                Effect::Infection { by },
            ))
        }
        SeqRollKind::ExtendedShock => {
            let es = ch.extended_shock.ok_or_else(|| {
                not_owed(
                    ch,
                    "Extended Shock course roll",
                    "they are not in Extended Shock",
                )
            })?;
            check_due(
                ch,
                "Extended Shock course roll",
                es.next_roll,
                now,
                r.forced,
            )?;
            let mut parts = vec![part(
                format!("HB{} x HR{}", ch.sheet.healing_base, es.healing_rate),
                ch.sheet.healing_base * es.healing_rate,
            )];
            if ch.fatigue() != 0 {
                parts.push(part("fatigue", -ch.fatigue()));
            }
            if ch.extended_shock_bonus != 0 {
                parts.push(part("healer", ch.extended_shock_bonus));
            }
            let test = d100_test(eml_of(&parts), r.roll);
            let by = shift(&test);
            let hr = es.healing_rate + by;
            let summary = if hr <= 0 {
                "Extended Shock kills".to_string()
            } else if hr >= 6 {
                format!("HR{hr}: recovered from Extended Shock")
            } else {
                format!("HR{} -> HR{hr}", es.healing_rate)
            };
            Ok(out(
                None,
                Some(test),
                parts,
                summary,
                Effect::ExtendedShock { by },
            ))
        }
        SeqRollKind::Coma => {
            let coma = ch
                .coma
                .ok_or_else(|| not_owed(ch, "coma course roll", "they are not in a coma"))?;
            check_due(ch, "coma course roll", coma.next_roll, now, r.forced)?;
            let mut parts = vec![part(
                format!("HB{} x HR{}", ch.sheet.healing_base, coma.healing_rate),
                ch.sheet.healing_base * coma.healing_rate,
            )];
            if ch.fatigue() != 0 {
                parts.push(part("fatigue", -ch.fatigue()));
            }
            if !r.sheltered {
                parts.push(part("unsheltered", -20));
            }
            let test = d100_test(eml_of(&parts), r.roll);
            let by = shift(&test);
            let hr = (coma.healing_rate + by).max(1);
            let summary = if hr >= 6 {
                format!("HR{hr}: the coma ends")
            } else {
                format!("coma HR{} -> HR{hr}", coma.healing_rate)
            };
            Ok(out(None, Some(test), parts, summary, Effect::Coma { by }))
        }
        SeqRollKind::GrimShock => {
            let inj = injury(ch, r.injury, "grim wound Shock Roll")?;
            if !grim(inj) {
                return Err(not_owed(
                    ch,
                    "grim wound Shock Roll",
                    format!("{} is not a grim wound", inj.code()),
                ));
            }
            check_due(
                ch,
                "grim wound Shock Roll",
                inj.heal.next_grim,
                now,
                r.forced,
            )?;
            let mut parts = vec![part(
                format!("Shock ML{}", ch.sheet.shock_ml),
                ch.sheet.shock_ml,
            )];
            if ch.fatigue() != 0 {
                parts.push(part("fatigue", -ch.fatigue()));
            }
            let test = d100_test(eml_of(&parts), r.roll);
            let index = i32::from(inj.location_shock)
                + i32::from(inj.level)
                + super::injury::shock_modifier(test.level);
            let state = ch.shock.escalate(ShockState::of_index(index));
            let summary = format!(
                "SHK {}+{}{:+} = {index} -> {}",
                inj.location_shock,
                inj.level,
                super::injury::shock_modifier(test.level),
                state
            );
            Ok(out(
                Some(inj.id),
                Some(test),
                parts,
                summary,
                Effect::Grim { state },
            ))
        }
        SeqRollKind::Aggravation => {
            let inj = injury(ch, r.injury, "aggravation check")?;
            if inj.healed() || inj.severity() == Severity::Minor {
                return Err(not_owed(
                    ch,
                    "aggravation check",
                    format!("{} is not Serious or Grievous", inj.code()),
                ));
            }
            let mut parts = vec![part(
                format!("Shock ML{}", ch.sheet.shock_ml),
                ch.sheet.shock_ml,
            )];
            if ch.fatigue() != 0 {
                parts.push(part("fatigue", -ch.fatigue()));
            }
            let test = d100_test(eml_of(&parts), r.roll);
            let worse = !test.level.is_success();
            let summary = if worse {
                "aggravated: HR -1".into()
            } else {
                "not aggravated".into()
            };
            Ok(out(
                Some(inj.id),
                Some(test),
                parts,
                summary,
                Effect::Aggravation { worse },
            ))
        }
    }
}

/// Checks a Blood Stoppage Roll.
pub fn check_stoppage(
    ch: &HmCharacter,
    b: &BloodStoppage,
    now: CampaignTime,
) -> Result<HealOutcome, RollError> {
    const WHAT: &str = "Blood Stoppage Roll";
    if ch.dead() {
        return Err(not_owed(ch, WHAT, "they are dead"));
    }
    let inj = injury(ch, Some(b.injury), WHAT)?;
    if !inj.bleeder || inj.healed() {
        return Err(not_owed(
            ch,
            WHAT,
            format!("{} is not a bleeder", inj.code()),
        ));
    }
    if let Some(last) = inj.heal.last_stoppage {
        check_due(ch, WHAT, last.plus(5 * MINUTE), now, b.forced)?;
    }
    let limb = matches!(inj.place.kind, Some(ZoneKind::Arm | ZoneKind::Leg));
    if b.tourniquet && (!limb || b.method != Stoppage::Staunch) {
        return Err(RollError::Roll(
            "a tourniquet helps only to staunch a limb bleeder".into(),
        ));
    }
    let mut parts = vec![part(
        format!("{} Physician ML{}", b.healer, b.physician_ml),
        b.physician_ml,
    )];
    match b.method {
        Stoppage::Cauterise => parts.push(part("cauterisation", 30)),
        Stoppage::Staunch => {
            if b.tourniquet {
                parts.push(part("tourniquet", 20));
            }
            if inj.heal.staunch_bonus != 0 {
                parts.push(part("earlier staunch", inj.heal.staunch_bonus));
            }
        }
    }
    if b.other_bleeders > 0 {
        parts.push(part("other bleeders", -10 * i32::from(b.other_bleeders)));
    }
    let test = d100_test(eml_of(&parts), b.roll);
    let (bonus, stops, now_, summary) = match test.level {
        SuccessLevel::CF => (0, false, false, "bleeding continues"),
        SuccessLevel::F => (
            10,
            false,
            false,
            "bleeding continues (+10 to the next staunch)",
        ),
        SuccessLevel::S => (
            0,
            true,
            false,
            "bleeding stops after one more blood loss roll",
        ),
        SuccessLevel::CS => (0, false, true, "bleeding stopped"),
    };
    Ok(HealOutcome {
        injury: Some(inj.id),
        test: Some(test),
        eml_parts: parts,
        summary: summary.into(),
        effect: Effect::Stoppage {
            bonus,
            stops,
            now: now_,
            cauterise: b.method == Stoppage::Cauterise,
        },
    })
}

/// Checks a Treatment Roll.
pub fn check_treatment(
    ch: &HmCharacter,
    t: &Treatment,
    table: &TreatmentTable,
    body: &BodyTable,
    now: CampaignTime,
) -> Result<HealOutcome, RollError> {
    const WHAT: &str = "Treatment Roll";
    if ch.dead() {
        return Err(not_owed(ch, WHAT, "they are dead"));
    }
    let inj = injury(ch, Some(t.injury), WHAT)?;
    if inj.healed() {
        return Err(not_owed(
            ch,
            WHAT,
            format!("injury {} has healed", inj.id.short()),
        ));
    }
    if !t.forced {
        if ch.bleeding() {
            return Err(not_owed(
                ch,
                WHAT,
                "healers must first stop the bleeding (staunch or cauterise)",
            ));
        }
        if ch.extended_shock.is_some() {
            return Err(not_owed(ch, WHAT, "they are in Extended Shock"));
        }
    }
    if let Some(prev) = &inj.heal.treatment {
        if prev
            .healers
            .iter()
            .any(|(h, _)| h.eq_ignore_ascii_case(&t.healer))
        {
            return Err(not_owed(
                ch,
                WHAT,
                format!("{} has already treated this injury", t.healer),
            ));
        }
        let top = prev.healers.iter().map(|(_, i)| *i).max().unwrap_or(0);
        if t.physician_index <= top {
            return Err(not_owed(
                ch,
                WHAT,
                format!("a further healer needs a Physician Index above {top}, the highest so far"),
            ));
        }
    }
    let col = table.column(inj);
    let amputable = body
        .find_location(&inj.place.location)
        .and_then(|(_, l)| l.triangle)
        .is_some()
        || body.face.as_ref().is_some_and(|f| {
            f.entries
                .iter()
                .any(|e| e.name == inj.place.location && e.triangle.is_some())
        });
    let kind = if t.amputate {
        if !amputable {
            return Err(RollError::Roll(format!(
                "the {} cannot be amputated",
                inj.place.label()
            )));
        }
        TreatmentKind::Amputation
    } else if col.treatment == TreatmentKind::Amputation && !amputable {
        return Err(not_owed(
            ch,
            WHAT,
            format!(
                "a Grievous frost injury to the {} has no treatment: it is a grim wound",
                inj.place.label()
            ),
        ));
    } else if col.treatment == TreatmentKind::Extraction && inj.level == 2 {
        TreatmentKind::CleanAndDress
    } else {
        col.treatment
    };
    let mut parts = vec![part(
        format!("{} Physician ML{}", t.healer, t.physician_ml),
        t.physician_ml,
    )];
    if col.modifier != 0 {
        parts.push(part(format!("{} difficulty", kind.code()), col.modifier));
    }
    let days = (now.0 - inj.inflicted_at.0).max(0) / DAY;
    if days > 0 {
        parts.push(part(format!("{days} days' delay"), -5 * days as i32));
    }
    if kind.uses_dex() && t.dex_mod != 0 {
        parts.push(part("DEX", t.dex_mod));
    }
    if t.broadhead && inj.projectile && col.broadhead != 0 {
        parts.push(part("broadhead", col.broadhead));
    }
    if inj.area {
        parts.push(part("area injury", -20));
    }
    let test = d100_test(eml_of(&parts), t.roll);
    // Amputation as treatment (infection) uses the frost G column's results.
    let column = if kind == TreatmentKind::Amputation {
        &table.types[5].severities[2]
    } else {
        col
    };
    let prev = inj.heal.treatment.as_ref();
    let any_cf = prev.is_some_and(|p| p.any_cf) || test.level == SuccessLevel::CF;
    // The Grievous cap is each healer's own (step 5: "the maximum attainable HR for a
    // Grievous Injury equals the healer's Physician Index", or the CF HR if higher): this
    // roll is capped by this healer's Index; the earlier healers' were capped by theirs. Then
    // only the highest of those levels applies ("Only the highest Success Level applies").
    let mut mine = test.level;
    if inj.severity() == Severity::Grievous && kind != TreatmentKind::Amputation {
        let cap = t.physician_index.max(match column.cells[0].result {
            CellResult::Hr(h) => i32::from(h),
            _ => 0,
        });
        while let CellResult::Hr(h) = column.cells[level_index(mine)].result {
            if i32::from(h) <= cap || mine == SuccessLevel::CF {
                break;
            }
            mine = mine.lowered();
        }
    }
    let best = prev.map_or(mine, |p| p.best.max(mine));
    let level = if any_cf { SuccessLevel::CF } else { best };
    let cell = column.cells[level_index(level)];
    let mut healers = prev.map(|p| p.healers.clone()).unwrap_or_default();
    healers.push((t.healer.clone(), t.physician_index));
    let amputated = match cell.result {
        CellResult::Amputated(l) => Some(l),
        _ => None,
    };
    let mut summary = match cell.result {
        CellResult::Hr(h) => format!("{} ({}): HR{h}", kind.code(), level),
        CellResult::Heal => format!("{} ({}): healed", kind.code(), level),
        CellResult::Amputated(l) => format!(
            "{} ({}): amputated, leaving {}{}E",
            kind.code(),
            level,
            Severity::of_level(l).letter(),
            l
        ),
    };
    for (on, what) in [
        (cell.infection, "chance of infection"),
        (cell.permanent, "chance of permanent impairment"),
        (cell.bleeder, "a bleeder"),
    ] {
        if on {
            summary.push_str(&format!(", {what}"));
        }
    }
    summary.push_str(&format!(" (takes {} min)", kind.minutes(inj.level)));
    Ok(HealOutcome {
        injury: Some(inj.id),
        test: Some(test),
        eml_parts: parts,
        summary,
        effect: Effect::Treated(
            Box::new(Treated {
                level,
                cell,
                healers,
                best,
                any_cf,
                at: now,
            }),
            amputated,
        ),
    })
}

/// Checks a healer's attendance.
pub fn check_attends(ch: &HmCharacter, a: &HealerAttends) -> Result<HealOutcome, RollError> {
    let what = "healer's attendance";
    match a.condition {
        Attended::ExtendedShock if ch.extended_shock.is_none() => {
            return Err(not_owed(ch, what, "they are not in Extended Shock"))
        }
        Attended::Infection if ch.infection.is_none() => {
            return Err(not_owed(ch, what, "they have no infection"))
        }
        _ => {}
    }
    Ok(HealOutcome {
        injury: None,
        test: None,
        eml_parts: vec![],
        summary: format!("{} attends: +{}", a.healer, a.bonus),
        effect: Effect::Attend(a.condition, a.bonus),
    })
}

// ---------------------------------------------------------------------------------------
// Applying.

fn injury_mut(ch: &mut HmCharacter, id: Option<InjuryId>) -> Option<&mut Injury> {
    id.and_then(|id| ch.injuries.iter_mut().rev().find(|i| i.id == id))
}

/// Called when bleeding may have stopped: the blood-loss Shock State ends (STN clears; INC
/// and UNC owe a Shock Reroll).
fn bleeding_check(ch: &mut HmCharacter, ctx: Context) {
    if ch.bleeding() || !ch.blood_loss_shock {
        return;
    }
    ch.blood_loss_shock = false;
    if ch.extended_shock.is_some() {
        return;
    }
    if ch.shock == ShockState::Stunned {
        ch.shock = ShockState::None;
    }
    super::injury::set_shock_owed(ch, ctx);
}

fn set_minor_and_healed(inj: &mut Injury, at: CampaignTime) {
    if inj.level <= 1 && inj.heal.minor_at.is_none() {
        inj.heal.minor_at = Some(at);
    }
    if inj.level == 0 {
        inj.heal.healed_at = Some(at);
        inj.bleeder = false;
        inj.heal.infected = false;
    }
}

/// Applies a checked outcome.
pub fn apply(ch: &mut HmCharacter, out: &HealOutcome, ctx: Context, table: &TreatmentTable) {
    let at = ctx.at;
    match &out.effect {
        Effect::BloodLoss { points } => {
            if ch.blood_loss == 0 && *points > 0 {
                ch.next_regeneration = Some(at.plus(10 * DAY));
            }
            ch.blood_loss = ch.blood_loss.saturating_add(*points);
            if let Some(inj) = injury_mut(ch, out.injury) {
                inj.heal.next_blood_loss = inj.heal.next_blood_loss.plus(5 * MINUTE);
                if inj.heal.stops_after_next_loss {
                    inj.bleeder = false;
                    inj.heal.stops_after_next_loss = false;
                }
            }
            if *points > 0 {
                let state = match ch.blood_loss {
                    1 => ShockState::Stunned,
                    2 => ShockState::Incapacitated,
                    3 => ShockState::Unconscious,
                    _ => ShockState::Killed,
                };
                let after = ch.shock.escalate(state);
                if after != ch.shock {
                    ch.shock = after;
                    ch.blood_loss_shock = true;
                    ch.owed.retain(|o| {
                        !matches!(o, Owed::ShockReroll { .. } | Owed::StunRecovery { .. })
                    });
                }
                if ch.blood_loss >= 4 {
                    super::injury::kill(ch, "blood loss", at);
                    return;
                }
            }
            bleeding_check(ch, ctx);
        }
        Effect::Stoppage {
            bonus,
            stops,
            now,
            cauterise,
        } => {
            if let Some(inj) = injury_mut(ch, out.injury) {
                inj.heal.last_stoppage = Some(at);
                inj.heal.staunch_bonus = *bonus;
                inj.heal.cauterised |= *cauterise && (*stops || *now);
                if *stops {
                    inj.heal.stops_after_next_loss = true;
                }
                if *now {
                    inj.bleeder = false;
                }
            }
            bleeding_check(ch, ctx);
        }
        Effect::Treated(treated, amputated) => {
            let id = out.injury;
            if let Some(inj) = injury_mut(ch, id) {
                inj.heal.treatment = Some((**treated).clone());
                inj.impaled = false;
                match treated.cell.result {
                    CellResult::Heal => {
                        inj.level = 0;
                        set_minor_and_healed(inj, at);
                    }
                    CellResult::Amputated(_) => {}
                    CellResult::Hr(_) => {}
                }
                if treated.cell.bleeder && !inj.bleeder {
                    inj.bleeder = true;
                    inj.heal.next_blood_loss = at.plus(5 * MINUTE);
                }
            }
            if let (Some(level), Some(id)) = (amputated, id) {
                // The amputation ends the old injury (and any infection in it) and inflicts an
                // edge injury at the same location, severed; it bleeds by the bleeding table.
                let old = ch.injuries.iter().rev().find(|i| i.id == id).cloned();
                if let Some(old) = old {
                    if let Some(i) = injury_mut(ch, Some(id)) {
                        i.level = 0;
                        set_minor_and_healed(i, at);
                    }
                    if ch.infection.is_some_and(|inf| inf.injury == id) {
                        end_infection(ch, at);
                    }
                    let mut new = old.clone();
                    new.id = InjuryId(uuid_for(id));
                    new.aspect = Aspect::Edge;
                    new.projectile = false;
                    new.level = *level;
                    new.worst = *level;
                    new.severed = true;
                    new.impaled = false;
                    new.bleeder = *level >= 4;
                    new.inflicted_at = at;
                    new.heal = HealState {
                        next_healing: at.plus(5 * DAY),
                        next_blood_loss: at.plus(5 * MINUTE),
                        next_grim: at.plus(DAY),
                        ..HealState::default()
                    };
                    ch.injuries.push(new);
                }
            }
        }
        Effect::Healing { by, infect, period } => {
            let days = match period {
                Some(d3) => i64::from(*d3) + 3,
                None => 5,
            };
            let mut infected = None;
            if let Some(inj) = injury_mut(ch, out.injury) {
                inj.level = inj.level.saturating_sub(*by);
                inj.heal.next_healing = inj.heal.next_healing.plus(days * DAY);
                set_minor_and_healed(inj, at);
                if *infect {
                    inj.heal.infected = true;
                    infected = Some((inj.id, healing_rate(inj, table)));
                }
            }
            if let Some((id, hr)) = infected {
                ch.infection = Some(Infection {
                    injury: id,
                    healing_rate: (hr + 1).min(5),
                    since: at,
                    next_roll: at.plus(DAY),
                });
            }
        }
        Effect::Period(d3) => {
            if let Some(inj) = injury_mut(ch, out.injury) {
                inj.heal.period_unrolled = false;
                inj.heal.next_healing = inj.inflicted_at.plus((i64::from(*d3) + 3) * DAY);
            }
        }
        Effect::Regeneration { by, skip } => {
            ch.blood_loss = ch.blood_loss.saturating_sub(*by);
            ch.next_regeneration = if ch.blood_loss == 0 {
                None
            } else {
                ch.next_regeneration
                    .map(|due| due.plus(if *skip { 20 } else { 10 } * DAY))
            };
        }
        Effect::Infection { by } => {
            if let Some(inf) = ch.infection.as_mut() {
                inf.healing_rate += by;
                inf.next_roll = inf.next_roll.plus(DAY);
                let hr = inf.healing_rate;
                if hr <= 0 {
                    super::injury::kill(ch, "infection", at);
                } else if hr >= 6 {
                    end_infection(ch, at);
                }
            }
        }
        Effect::ExtendedShock { by } => {
            if let Some(es) = ch.extended_shock.as_mut() {
                es.healing_rate += by;
                es.next_roll = es.next_roll.plus(4 * HOUR);
                let hr = es.healing_rate;
                if hr <= 0 {
                    super::injury::kill(ch, "Extended Shock", at);
                } else if hr >= 6 {
                    ch.extended_shock = None;
                    ch.extended_shock_bonus = 0;
                    if ch.coma.is_none() {
                        ch.shock = ShockState::None;
                        ch.shock_injury = None;
                        ch.blood_loss_shock = false;
                    }
                }
            }
        }
        Effect::Coma { by } => {
            if let Some(c) = ch.coma.as_mut() {
                c.healing_rate = (c.healing_rate + by).max(1);
                c.next_roll = c.next_roll.plus(10 * DAY);
                if c.healing_rate >= 6 {
                    let days = (at.0 - c.since.0) / DAY;
                    ch.weariness += (days as i32 / 5) * 5;
                    ch.coma = None;
                    if ch.extended_shock.is_none() {
                        ch.shock = ShockState::None;
                        ch.shock_injury = None;
                    }
                }
            }
        }
        Effect::Grim { state } => {
            if let Some(inj) = injury_mut(ch, out.injury) {
                inj.heal.next_grim = inj.heal.next_grim.plus(DAY);
            }
            if *state != ch.shock {
                ch.shock = *state;
                ch.shock_injury = out.injury;
                if *state == ShockState::Killed {
                    super::injury::kill(ch, "a grim wound's shock", at);
                } else {
                    super::injury::set_shock_owed(ch, ctx);
                }
            }
        }
        Effect::Aggravation { worse } => {
            if *worse {
                if let Some(inj) = injury_mut(ch, out.injury) {
                    inj.heal.aggravation += 1;
                }
            }
        }
        Effect::Attend(what, bonus) => match what {
            Attended::ExtendedShock => {
                ch.extended_shock_bonus = ch.extended_shock_bonus.max(*bonus)
            }
            Attended::Infection => ch.infection_bonus = ch.infection_bonus.max(*bonus),
        },
    }
}

fn end_infection(ch: &mut HmCharacter, at: CampaignTime) {
    if let Some(inf) = ch.infection.take() {
        if let Some(i) = ch.injuries.iter_mut().rev().find(|i| i.id == inf.injury) {
            i.heal.infected = false;
        }
    }
    ch.infection_bonus = 0;
    let resume = at.plus(5 * DAY);
    for i in ch.injuries.iter_mut().filter(|i| !i.healed()) {
        if i.heal.next_healing < resume {
            i.heal.next_healing = resume;
        }
    }
}

/// A deterministic id for the edge injury an amputation leaves: the old id with its last bit
/// flipped, so replay gives the same id.
fn uuid_for(old: InjuryId) -> uuid::Uuid {
    let mut b = *old.0.as_bytes();
    b[15] ^= 0x01;
    b[14] ^= 0xa5;
    uuid::Uuid::from_bytes(b)
}

// ---------------------------------------------------------------------------------------
// Step 8: impairment with the healing sequence's refinements.

/// Returns the permanent impairment an injury has accrued by `now`: 5 per 20 days from the
/// injury until it first reached Minor, at most 25 (only with the permanent mark).
///
/// Readings (step 8 "Healing Days", pinned by tests): an injury never worse than Minor took
/// no days to heal to Minor, so it accrues none, whatever its cell is marked. The mark read
/// is the one the injury healed under before it reached Minor: its treatment's cell, or
/// (untreated) the CF cell of its worst severity, not of its current one (Minor by then,
/// which would forget what it accrued while Serious).
pub fn permanent_impairment(inj: &Injury, table: &TreatmentTable, now: CampaignTime) -> i32 {
    let permanent = match &inj.heal.treatment {
        Some(t) => t.cell.permanent,
        None => table.column_at(inj, Severity::of_level(inj.worst)).cells[0].permanent,
    };
    if inj.worst <= 1 || !permanent {
        return 0;
    }
    let until = inj.heal.minor_at.unwrap_or(now).min(now);
    let days = (until.0 - inj.inflicted_at.0).max(0) / DAY;
    ((days / 20) as i32 * 5).min(25)
}

/// Returns an injury's impairment at `now` (points, unusable), with step 8's rules: a Minor
/// injury imparts 5 only with HR5 or less (and not in the first ten minutes after a successful
/// shock roll); Serious 10; Grievous unusable; permanent impairment where marked, the higher
/// of the two applying (ignored while Grievous).
pub fn impairment_of(inj: &Injury, table: &TreatmentTable, now: CampaignTime) -> (i32, bool) {
    let permanent = permanent_impairment(inj, table, now);
    if inj.healed() {
        return (permanent, inj.severed);
    }
    let indefinite = match inj.severity() {
        Severity::Grievous => return (0, true),
        Severity::Serious => 10,
        Severity::Minor => {
            let deferred = inj.shock_roll_succeeded && now < inj.inflicted_at.plus(10 * MINUTE);
            if deferred || healing_rate(inj, table) >= 6 {
                0
            } else {
                5
            }
        }
    };
    (indefinite.max(permanent), inj.severed)
}
