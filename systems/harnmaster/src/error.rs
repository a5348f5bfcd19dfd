//! Why a HârnMaster event does not apply: [`HmError`], the refusals of every sequence
//! (a body table, a strike's dice and declarations, a roll not owed, a setting). Apart from
//! the system's `decide` and `apply` so that the fold's own error type can hold it without
//! importing the system back.

use super::body::TableError;
use super::exchange::ExchangeError;
use super::injury::StrikeError;
use super::shock::RollError;
use crate::ids::CharacterId;

/// Why a HârnMaster event does not apply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HmError {
    /// The event names a character the ledger does not hold as a HârnMaster character.
    #[error("its character ({}) is not on the record: their joining was struck, or never recorded", .0.short())]
    UnknownCharacter(CharacterId),
    /// A body table the campaign does not know.
    #[error("there is no body table named '{0}'")]
    UnknownTable(String),
    /// A body table that is malformed.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The strike cannot be resolved (a die, a declaration).
    #[error(transparent)]
    Strike(#[from] StrikeError),
    /// The roll is not owed or not due.
    #[error(transparent)]
    Roll(#[from] RollError),
    /// A setting the campaign does not have, or a declaration the rules do not allow.
    #[error("{0}")]
    Setting(String),
    /// A melee exchange's or a missile attack's declarations the rules do not allow.
    #[error(transparent)]
    Exchange(ExchangeError),
}

impl From<ExchangeError> for HmError {
    fn from(e: ExchangeError) -> HmError {
        match e {
            ExchangeError::Strike(s) => HmError::Strike(s),
            other => HmError::Exchange(other),
        }
    }
}

impl From<crate::dice::DiceError> for HmError {
    fn from(e: crate::dice::DiceError) -> HmError {
        HmError::Strike(StrikeError::from(e))
    }
}
