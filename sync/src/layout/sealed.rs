//! What a shelf does of the entries sealed for the GM ([`crate::sealing`]): it judges the
//! events the log gains, puts a revealed character's events again openly, counts the
//! entries this device holds sealed as held, and puts them back as they came.

use super::{by_volume, put_over, Shelf, VolumeId, VOLUME};
use crate::{names::Names, sealing::Sealing, Keyring, SyncError};
use automerge::{transaction::Transactable, Automerge, ScalarValue, ROOT};
use leechbook_core::Envelope;
use leechbook_store::Store;

/// Puts entries sealed for the GM that this device holds as they came (`stubs`), sealed
/// under `ring`, whatever their keys hold.
pub(super) fn put_stubs(
    doc: &mut Automerge,
    stubs: &[&leechbook_store::Sealed],
    ring: &Keyring,
    names: &Names,
) -> Result<usize, SyncError> {
    doc.transact(|tx| {
        for s in stubs {
            let key = names.entry(s.id, s.seq);
            tx.put(
                ROOT,
                key.as_str(),
                ScalarValue::Bytes(ring.seal(&key, &s.entry)),
            )
            .map_err(|e| SyncError::NotSync(e.to_string()))?;
        }
        Ok::<_, SyncError>(())
    })
    .map_err(|f| f.error)?;
    Ok(stubs.len())
}

/// The log's events of `ids` (each found through the id's index).
fn envelopes_of(
    store: &Store,
    ids: &[leechbook_core::ids::EventId],
) -> Result<Vec<Envelope>, SyncError> {
    let mut out = Vec::new();
    for id in ids {
        if let Some((_, (_, device, seq))) =
            leechbook_store::ReadLog::events_with_id_suffix(store, &id.0.simple().to_string())?
                .into_iter()
                .find(|(i, _)| i == id)
        {
            out.extend(store.events_numbered(device, seq, seq)?);
        }
    }
    Ok(out)
}

impl Shelf {
    /// Judges the events the log gained for sealing ([`Sealing::update`]); returns the
    /// events of the characters revealed among them, to be put again openly.
    pub fn judge(
        &mut self,
        store: &Store,
        gained: &[Envelope],
    ) -> Result<Vec<Envelope>, SyncError> {
        let mut changed = std::mem::take(&mut self.again);
        changed.extend(self.sealing.update(store, gained)?);
        envelopes_of(store, &changed)
    }

    /// Puts events again over what their entries hold (a character revealed: sealed for
    /// the GM before, open now).
    pub fn put_again(&mut self, store: &Store, events: &[Envelope]) -> Result<(), SyncError> {
        self.with_sealing(|shelf, sealing| {
            for (v, events) in by_volume(events.iter().cloned()) {
                let (ring, names) = (shelf.ring.clone(), shelf.names.clone());
                let refs: Vec<&Envelope> = events.iter().collect();
                put_over(
                    &mut shelf.volume(store, v)?.doc,
                    &refs,
                    &ring,
                    &names,
                    sealing,
                )?;
            }
            Ok(())
        })?;
        self.dirty = true;
        Ok(())
    }

    /// Runs `f` with the shelf and its sealing apart (a volume is borrowed mutably while the
    /// sealing is read); the sealing is back in place whatever `f` returns, so that no error
    /// leaves a shelf that seals nothing.
    pub(super) fn with_sealing<T>(
        &mut self,
        f: impl FnOnce(&mut Shelf, &Sealing) -> Result<T, SyncError>,
    ) -> Result<T, SyncError> {
        let sealing = std::mem::take(&mut self.sealing);
        let r = f(self, &sealing);
        self.sealing = sealing;
        r
    }

    /// Counts events the log gained, but those it held as entries sealed for the GM before
    /// (counted then).
    pub(super) fn count(&mut self, store: &Store, events: &[Envelope]) -> Result<(), SyncError> {
        let any_sealed = self.sealed_mark > 0;
        for e in events {
            if any_sealed && store.holds_sealed(e.id)? {
                continue;
            }
            *self.counts.entry(VolumeId::of(e)).or_default() += 1;
        }
        Ok(())
    }

    /// Counts the entries sealed for the GM this device took in since the counts did.
    pub(super) fn count_sealed(&mut self, store: &Store) -> Result<(), SyncError> {
        let (gained, last) = store.sealed_block_counts_after(self.sealed_mark, VOLUME)?;
        for (device, number, n) in gained {
            *self
                .counts
                .entry(VolumeId {
                    device,
                    number: number as u32,
                })
                .or_default() += n;
        }
        if last != self.sealed_mark {
            self.sealed_mark = last;
            self.dirty = true;
        }
        Ok(())
    }
}
