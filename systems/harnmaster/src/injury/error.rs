//! Why a strike cannot be resolved ([`StrikeError`]).

use super::ShockState;
use crate::dice::{DiceError, Die};

/// Why a strike cannot be resolved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StrikeError {
    /// A die the sequence needs has no recorded face.
    #[error("the strike needs die '{name}' ({die}), which was not recorded")]
    MissingDie {
        /// The die's name.
        name: &'static str,
        /// The die.
        die: Die,
    },
    /// A face or count is wrong.
    #[error(transparent)]
    Dice(DiceError),
    /// A recorded die the sequence never read (replay reads every face it records).
    #[error("the event records die '{0}', which the sequence does not use")]
    UnusedDie(String),
    /// The aim is not a ZN of the table.
    #[error("aim ZN{aim} is not on the {table} table (ZN1-{zones})")]
    BadAim {
        /// The aim.
        aim: u8,
        /// The table.
        table: String,
        /// Its zone count.
        zones: u8,
    },
    /// A location on a side, struck without saying which.
    #[error("the {0} is on a side: say which, left or right")]
    SideNeeded(String),
    /// A pick beyond the dice rolled.
    #[error("{what} pick {pick}: only {count} result(s) to choose from")]
    BadPick {
        /// zone or location.
        what: &'static str,
        /// The pick.
        pick: u8,
        /// How many results there were.
        count: usize,
    },
    /// A chosen location that the table lacks.
    #[error("there is no location '{location}' on the {table} table")]
    UnknownLocation {
        /// The location.
        location: String,
        /// The table.
        table: String,
    },
    /// A side that does not fit the location.
    #[error("{0}")]
    BadSide(String),
    /// The target is dead.
    #[error("{0} is dead")]
    TargetDead(String),
    /// An evasion by a character in a Shock State: "Characters who are not stunned may
    /// select the Evade action" (000 l.360).
    #[error("{name} is {shock}: only a character who is not stunned may evade (000 l.360)")]
    CannotEvade {
        /// Who.
        name: String,
        /// Their Shock State.
        shock: ShockState,
    },
}

/// The kernel's dice errors in the Injury Sequence's words: a die not recorded or not read
/// names the strike.
impl From<DiceError> for StrikeError {
    fn from(e: DiceError) -> StrikeError {
        match e {
            DiceError::NotRecorded { name, die } => StrikeError::MissingDie { name, die },
            DiceError::Unused(name) => StrikeError::UnusedDie(name),
            e => StrikeError::Dice(e),
        }
    }
}
