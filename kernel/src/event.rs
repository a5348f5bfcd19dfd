//! What the kernel reads of an event ([`LedgerEvent`]), and the events the kernel defines
//! itself, whatever the rules system: a GM's [`Ruling`] about the record and a
//! [`RosterChange`]. What rulings are in force is `ruling`'s to judge and who may record
//! what is `roster`'s; both read events only through [`LedgerEvent`], and this module
//! imports neither, so that none of them imports another back.

use crate::ids::{CharacterId, DeviceId, EventId};
use serde::{Deserialize, Serialize};

/// What the kernel reads of an event: enough to order it, check who may record it and
/// work out the roster.
pub trait LedgerEvent: Sized {
    /// What the GM's override decrees in the systems the event belongs to.
    type Decree;
    /// The event's kind, as the log's `kind` column holds it (an amendment must keep it).
    fn kind(&self) -> &'static str;
    /// Whether it is the campaign's creation (the first event of every ledger).
    fn creates_campaign(&self) -> bool;
    /// The roster change it is, if it is one.
    fn roster_change(&self) -> Option<&RosterChange>;
    /// The ruling it is, if it is one.
    fn ruling(&self) -> Option<&Ruling<Self, Self::Decree>>;
    /// The character it is about, if it is about one.
    fn character(&self) -> Option<CharacterId>;
    /// Whether it is a ruling about the record (the GM's alone).
    fn is_ruling(&self) -> bool {
        self.ruling().is_some()
    }
    /// Whether only a GM's device may record it, though it is about one character: a
    /// ruling, or where a character stands in the story (a player's device setting its own
    /// character aside would stop what the rules owe of it being asked for).
    fn gm_only(&self) -> bool {
        self.is_ruling()
    }
    /// Every character it touches, the one it is about first (none by default): the fold
    /// refuses an event that joins a GM-only character with one the table sees.
    fn touched(&self) -> crate::system::Touched {
        crate::system::Touched::none()
    }
}

/// A GM's ruling about the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ruling<E, D> {
    /// Strike an event from the record.
    Retract {
        /// The event.
        target: EventId,
        /// Why.
        reason: String,
    },
    /// Undo a retraction.
    Reinstate {
        /// The event.
        target: EventId,
        /// Why.
        reason: String,
    },
    /// Replace an event's content with a corrected one of the same kind.
    Amend {
        /// The event.
        target: EventId,
        /// The corrected event.
        replacement: Box<E>,
        /// Why.
        reason: String,
    },
    /// Decree an outcome from this moment on.
    Override {
        /// Whose.
        character: CharacterId,
        /// What.
        decree: D,
        /// Why.
        reason: String,
    },
}

impl<E, D> Ruling<E, D> {
    /// Returns the event the ruling is about, if it is about one.
    pub fn target(&self) -> Option<EventId> {
        match self {
            Ruling::Retract { target, .. }
            | Ruling::Reinstate { target, .. }
            | Ruling::Amend { target, .. } => Some(*target),
            Ruling::Override { .. } => None,
        }
    }

    /// Returns the reason given.
    pub fn reason(&self) -> &str {
        match self {
            Ruling::Retract { reason, .. }
            | Ruling::Reinstate { reason, .. }
            | Ruling::Amend { reason, .. }
            | Ruling::Override { reason, .. } => reason,
        }
    }
}

/// A device's role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// The GM: everything.
    Gm,
    /// A player: events about their own characters.
    Player,
}

/// A roster event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RosterChange {
    /// A device joins (or its entry is replaced).
    Device {
        /// The device.
        device: DeviceId,
        /// Its ed25519 public key.
        key: Vec<u8>,
        /// Its role.
        role: Role,
        /// The characters a player device records for.
        characters: Vec<CharacterId>,
    },
    /// A device is revoked from this point of the log on (the first form: by the total
    /// order, which a revoked device can dodge by dating its clock back; kept for the
    /// revocations recorded with it).
    Revoke {
        /// The device.
        device: DeviceId,
    },
    /// A device is revoked after its event number `last`: every later number of that device
    /// is void whatever its clock, and every number up to it stands (recorded before the
    /// revocation, even if it arrives after it).
    RevokeAfter {
        /// The device.
        device: DeviceId,
        /// The last of its event numbers the GM accepts (0: none).
        last: u64,
    },
    /// The campaign's documents on hubs move to a fresh generation of ids: derived from the
    /// campaign's document secret and `generation`, so a hub's operator who squatted the old
    /// ones (junk in the index) knows none of the new. Recorded by a GM device when it moves;
    /// devices that meet the squatted index move by themselves (see the sync crate's `net`).
    Places {
        /// The generation (0: the ids the campaign began with).
        generation: u32,
    },
}
