//! Leechbook's kernel: what every rules system and the ledger itself speak in, and nothing
//! of any one system: ids, campaign time, dice with the faces they showed (and the source
//! that hands recorded faces back, so that replaying the log never rolls again), the d100
//! test, the envelope with the fold's total order, the roster of devices, and the rulings
//! in force over a log.
//!
//! **Architecture invariant:** this crate depends on no rules system and no system's type
//! appears in it (its docs may say where a rule comes from, as the d100 test's do); it is
//! pure (no I/O, no clock, no random source: faces, times and ids arrive as values). A rules
//! system's crate or module builds on it, never the other way.

#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod dice;
pub mod envelope;
pub mod ids;
pub mod roster;
pub mod ruling;
pub mod test_roll;
pub mod time;

/// A toy event type for the kernel's own tests: the kernel works for any event that is a
/// [`envelope::LedgerEvent`], with no rules system in sight.
#[cfg(test)]
pub(crate) mod toy {
    use crate::envelope::{Envelope, LedgerEvent};
    use crate::ids::{CampaignId, CharacterId, DeviceId, EventId};
    use crate::roster::RosterChange;
    use crate::ruling::Ruling;
    use crate::time::CampaignTime;

    /// The events of a toy system: a campaign, a roll about a character, rulings (decreeing
    /// a number), roster changes.
    #[derive(Clone, Debug, PartialEq)]
    pub enum Toy {
        Created,
        Roll(u16, CharacterId),
        Ruled(Ruling<Toy, u8>),
        Roster(RosterChange),
    }

    impl LedgerEvent for Toy {
        type Decree = u8;
        fn kind(&self) -> &'static str {
            match self {
                Toy::Created => "created",
                Toy::Roll(..) => "roll",
                Toy::Ruled(_) => "ruling",
                Toy::Roster(_) => "roster",
            }
        }
        fn creates_campaign(&self) -> bool {
            matches!(self, Toy::Created)
        }
        fn roster_change(&self) -> Option<&RosterChange> {
            match self {
                Toy::Roster(c) => Some(c),
                _ => None,
            }
        }
        fn ruling(&self) -> Option<&Ruling<Toy, u8>> {
            match self {
                Toy::Ruled(r) => Some(r),
                _ => None,
            }
        }
        fn character(&self) -> Option<CharacterId> {
            match self {
                Toy::Roll(_, c) => Some(*c),
                Toy::Ruled(Ruling::Override { character, .. }) => Some(*character),
                _ => None,
            }
        }
    }

    /// The id of the `n`th toy event.
    pub fn id(n: u64) -> EventId {
        EventId(uuid::Uuid::from_u128(u128::from(n)))
    }

    /// A device.
    pub fn device(n: u8) -> DeviceId {
        DeviceId(uuid::Uuid::from_u128(u128::from(n) << 64))
    }

    /// The `n`th event of the log, recorded by `by`: its number is its place.
    pub fn env(n: u64, by: DeviceId, event: Toy) -> Envelope<Toy> {
        Envelope {
            id: id(n),
            campaign: CampaignId(uuid::Uuid::from_u128(1)),
            device: by,
            seq: n,
            clock: n,
            wall: chrono::DateTime::<chrono::Utc>::UNIX_EPOCH,
            at: CampaignTime::START,
            schema: 1,
            event,
            signature: None,
        }
    }
}
