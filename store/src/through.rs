//! [`ReadThrough`]: a log that reads through another (a reference to a log, the in-memory
//! store's transaction), so that each is a [`ReadLog`] without restating its 22 reads.

use crate::{ArchiveRow, OrderKey, ReadLog, SnapshotHead, StoreError, Tail};
use leechbook_core::ids::{CharacterId, DeviceId, EventId};
use leechbook_core::Envelope;

/// A log whose every read is another log's.
pub trait ReadThrough {
    /// The log read.
    type Inner: ReadLog + ?Sized;
    /// The log read.
    fn inner(&self) -> &Self::Inner;
}

impl<T: ReadLog + ?Sized> ReadThrough for &T {
    type Inner = T;
    fn inner(&self) -> &T {
        self
    }
}

impl<T: ReadThrough> ReadLog for T {
    fn events(&self) -> Result<Vec<Envelope>, StoreError> {
        self.inner().events()
    }
    fn events_between(
        &self,
        after: Option<OrderKey>,
        upto: OrderKey,
    ) -> Result<Vec<Envelope>, StoreError> {
        self.inner().events_between(after, upto)
    }
    fn events_after(&self, last: OrderKey) -> Result<Vec<Envelope>, StoreError> {
        self.inner().events_after(last)
    }
    fn events_after_row(&self, mark: i64) -> Result<(Vec<Envelope>, i64), StoreError> {
        self.inner().events_after_row(mark)
    }
    fn last_row(&self) -> Result<i64, StoreError> {
        self.inner().last_row()
    }
    fn holds(&self, id: EventId) -> Result<bool, StoreError> {
        self.inner().holds(id)
    }
    fn roster_events(&self) -> Result<Vec<Envelope>, StoreError> {
        self.inner().roster_events()
    }
    fn for_each_event(
        &self,
        f: impl FnMut(Envelope) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.inner().for_each_event(f)
    }
    fn for_each_to_fold(
        &self,
        f: impl FnMut(Envelope) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.inner().for_each_to_fold(f)
    }
    fn rulings_and_targets(&self) -> Result<Vec<Envelope>, StoreError> {
        self.inner().rulings_and_targets()
    }
    fn projection_mark(&self) -> Result<Option<(i64, u32)>, StoreError> {
        self.inner().projection_mark()
    }
    fn projection_head(&self) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner().projection_head()
    }
    fn projection_characters(
        &self,
        ids: Option<&[CharacterId]>,
    ) -> Result<Vec<Vec<u8>>, StoreError> {
        self.inner().projection_characters(ids)
    }
    fn events_about(&self, who: Option<CharacterId>) -> Result<Vec<Envelope>, StoreError> {
        self.inner().events_about(who)
    }
    fn events_about_within(
        &self,
        who: Option<CharacterId>,
        after: Option<crate::OrderKey>,
        upto: Option<crate::OrderKey>,
    ) -> Result<Vec<Envelope>, StoreError> {
        self.inner().events_about_within(who, after, upto)
    }
    fn event_at(&self, device: DeviceId, seq: u64) -> Result<Option<crate::Numbered>, StoreError> {
        self.inner().event_at(device, seq)
    }
    fn for_each_event_columns(
        &self,
        after: i64,
        f: impl FnMut(Envelope, crate::log::Columns<'_>) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.inner().for_each_event_columns(after, f)
    }
    fn snapshot_heads(&self) -> Result<Vec<SnapshotHead>, StoreError> {
        self.inner().snapshot_heads()
    }
    fn snapshot_payload(&self, position: u64) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner().snapshot_payload(position)
    }
    fn events_with_id_suffix(&self, suffix: &str) -> Result<Vec<(EventId, OrderKey)>, StoreError> {
        self.inner().events_with_id_suffix(suffix)
    }
    fn fates(&self, checkpoint: Option<u64>) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner().fates(checkpoint)
    }
    fn archived(
        &self,
        ids: Option<&[CharacterId]>,
        upto: Option<OrderKey>,
    ) -> Result<Vec<ArchiveRow>, StoreError> {
        self.inner().archived(ids, upto)
    }
    fn checkpoint_characters(
        &self,
        position: u64,
        ids: Option<&[CharacterId]>,
    ) -> Result<Vec<Vec<u8>>, StoreError> {
        self.inner().checkpoint_characters(position, ids)
    }
    fn tail_for(
        &self,
        after: OrderKey,
        upto: OrderKey,
        ids: &[CharacterId],
        multi: &[&str],
    ) -> Result<Tail, StoreError> {
        self.inner().tail_for(after, upto, ids, multi)
    }
}
