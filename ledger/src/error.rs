//! Why a ledger service refused.

use leechbook_core::fold::FoldError;
use leechbook_store::StoreError;

/// What went wrong in a ledger service. No variant names a command or a flag: a front end
/// adds its own hints.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    /// The ledger file or a query.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The event does not apply to the state it was built from.
    #[error(transparent)]
    Fold(#[from] FoldError),
    /// A recorded face its die cannot show.
    #[error(transparent)]
    Dice(#[from] leechbook_core::dice::DiceError),
    /// A ruling that would be void the moment it is made.
    #[error("the ruling cannot stand: {0}")]
    RulingCannotStand(String),
    /// An amendment whose amended event would be void in the record it leaves.
    #[error("the amended event would not stand: {0}")]
    AmendmentCannotStand(String),
    /// A roster change that would be void the moment it is made.
    #[error("the roster change cannot stand: {0}")]
    RosterChangeCannotStand(String),
    /// Text that names no moment.
    #[error("'{0}' is not a moment")]
    NotAMoment(String),
    /// Text that is not an event id or enough of one.
    #[error("'{0}' is not an event id")]
    NotAnEventId(String),
    /// No event with that id.
    #[error("the log holds no event '{0}'")]
    NoSuchEvent(String),
    /// Several events end with those digits.
    #[error("'{0}' matches several events: give more of the id")]
    AmbiguousEvent(String),
    /// Several events share the number given (devices that recorded offline at one
    /// moment): each by the end of its id, which names it.
    #[error("#{number} is {} events recorded at one moment on different devices: name one by the end of its id ({})", .ids.len(), .ids.join(", "))]
    SharedNumber {
        /// The number.
        number: u64,
        /// Each event's id's last eight hex digits.
        ids: Vec<String>,
    },
    /// The log is empty.
    #[error("the ledger is empty")]
    Empty,
    /// A bug: a service's own thread failed.
    #[error("internal: {0}")]
    Internal(String),
}
