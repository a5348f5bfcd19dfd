//! The TREATMENT ROLL tables (step 5) as data: built in, overridable, with what they carry
//! (healing rate, bleeder, infection and permanent impairment marks), and a treatment as it
//! applies to an injury.

use crate::state::{Aspect, Cell, CellResult, Injury, Severity};
use crate::test_roll::SuccessLevel;

use serde::{Deserialize, Serialize};

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

pub(crate) fn level_index(level: SuccessLevel) -> usize {
    match level {
        SuccessLevel::CF => 0,
        SuccessLevel::F => 1,
        SuccessLevel::S => 2,
        SuccessLevel::CS => 3,
    }
}

pub(crate) fn severity_index(s: Severity) -> usize {
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
