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
