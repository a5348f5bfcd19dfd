//! The envelope: one event of any rules system with everything the ledger needs to order,
//! attribute and audit it, and the fold's **total order**.
//!
//! The total order is `(clock, device, seq)`: `clock` is a Lamport clock (a new event's
//! clock exceeds every clock its device has seen, so an event that could have caused
//! another sorts before it), ties between devices break by device id, and `seq` orders one
//! device's own events. The order never depends on wall time or campaign time.
//!
//! The envelope is generic over the event it carries: the kernel knows of an event only
//! what [`LedgerEvent`] says (its kind, whether it creates the campaign, changes the roster
//! or rules on the record, and the character it is about): all that the roster's check of
//! who may record it and the judgement of the rulings in force read.
//!
//! **Frozen format:** an envelope's fields, in this order, are what a device signs
//! (the store's codec); never reorder, remove or change them.

pub use crate::event::LedgerEvent;
use crate::ids::{CampaignId, DeviceId, EventId};
use crate::time::CampaignTime;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// The key of the fold's total order: `(clock, device, seq)`.
pub type OrderKey = (u64, DeviceId, u64);

/// One event with its ids, clocks and signature: a row of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope<E> {
    /// A UUIDv7.
    pub id: EventId,
    /// The campaign.
    pub campaign: CampaignId,
    /// The device that recorded it.
    pub device: DeviceId,
    /// The device's sequence number (1, 2, ...).
    pub seq: u64,
    /// The Lamport clock.
    pub clock: u64,
    /// When it was recorded, by the device's clock (information, never order).
    pub wall: DateTime<Utc>,
    /// The campaign time at which it happened.
    pub at: CampaignTime,
    /// The schema version it was written with.
    pub schema: u16,
    /// What happened.
    pub event: E,
    /// The author's signature (reserved for sync).
    pub signature: Option<Vec<u8>>,
}

impl<E> Envelope<E> {
    /// Returns the key of the fold's total order.
    pub fn order_key(&self) -> OrderKey {
        (self.clock, self.device, self.seq)
    }
}

/// The highest Lamport clock and device number an envelope may carry: 2^48, far past what a
/// campaign reaches (a ten-year campaign is about a million events) and far below what a
/// store's signed 64-bit columns or the arithmetic on them can overflow at. Whatever arrives
/// from another device is held to it where it is decoded, and the fold voids an envelope
/// beyond it that is in a log already (one taken in before the bound).
pub const MAX_CLOCK: u64 = 1 << 48;

/// Room above twice the events a log holds for the clocks of events its authors held that
/// have not reached it yet (a hub that delivers one device's volume before another's).
pub const CLOCK_SLACK: u64 = 4096;

/// The highest Lamport clock an event may carry in a log of `events` events. A device clocks
/// each event one past the highest clock it holds, so no honest clock exceeds the number of
/// events its device held; twice the events, plus [`CLOCK_SLACK`], leaves room for a log
/// still missing some. A clock above it was set by hand and signed: an import refuses it and
/// `verify` names it (one such number, 2^63-1 say, would otherwise push every device's next
/// clock past what a store can hold).
pub fn clock_ceiling(events: u64) -> u64 {
    events.saturating_mul(2).saturating_add(CLOCK_SLACK)
}

/// The highest device number an envelope may carry (as [`MAX_CLOCK`]).
pub const MAX_SEQ: u64 = 1 << 48;

/// The earliest and latest wall time (milliseconds since 1970) an envelope may carry: the
/// years 1 to 9999, ten thousand years.
pub const WALL_MS: std::ops::RangeInclusive<i64> = -62_135_596_800_000..=253_402_300_799_999;

/// Why an envelope's numbers or times are out of the span any device writes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OutOfBounds {
    /// Its Lamport clock is 0 or beyond [`MAX_CLOCK`].
    #[error("its Lamport clock {0} is outside 1..={MAX_CLOCK}, which no device reaches: its signer forged it")]
    Clock(u64),
    /// Its device number is 0 or beyond [`MAX_SEQ`].
    #[error("its device number {0} is outside 1..={MAX_SEQ}, which no device reaches: its signer forged it")]
    Seq(u64),
    /// Its device number is above its clock: a device's clock rises by at least one with
    /// each of its numbers, so its #n has a clock of at least n. Only a forger signs it.
    #[error("its device number #{seq} is above its Lamport clock {clock}, which no device reaches (each number raises its clock by at least one): its signer forged it")]
    SeqAboveClock {
        /// The number.
        seq: u64,
        /// The clock.
        clock: u64,
    },
    /// Its campaign time is beyond the ten thousand years the campaign clock spans.
    #[error("its campaign time ({0} seconds) is beyond the ten thousand years the campaign clock spans: it was set by hand")]
    At(i64),
    /// Its wall time is outside the years 1 to 9999.
    #[error(
        "its wall time ({0} ms since 1970) is outside the years 1 to 9999: it was set by hand"
    )]
    Wall(i64),
}

impl<E> Envelope<E> {
    /// Why this envelope's clock, number or times are outside the span any device writes, if
    /// they are: checked where an envelope is decoded from another device, by `verify`, and
    /// by the fold (which voids it).
    pub fn out_of_bounds(&self) -> Option<OutOfBounds> {
        if self.clock == 0 || self.clock > MAX_CLOCK {
            return Some(OutOfBounds::Clock(self.clock));
        }
        if self.seq == 0 || self.seq > MAX_SEQ {
            return Some(OutOfBounds::Seq(self.seq));
        }
        if self.seq > self.clock {
            return Some(OutOfBounds::SeqAboveClock {
                seq: self.seq,
                clock: self.clock,
            });
        }
        if !self.at.in_span() {
            return Some(OutOfBounds::At(self.at.0));
        }
        let wall = self.wall.timestamp_millis();
        if !WALL_MS.contains(&wall) {
            return Some(OutOfBounds::Wall(wall));
        }
        None
    }
}
