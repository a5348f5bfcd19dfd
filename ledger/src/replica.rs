//! A [`Replica`]: one device's ledger of a campaign, and the services over it.

use crate::checkpoint::{fold_latest, keep_checkpoint};
use crate::LedgerError;
use leechbook_core::fold::{Applied, Ledger};
use leechbook_core::ids::EventId;
use leechbook_core::ruling::Ruling;
use leechbook_core::time::CampaignTime;
use leechbook_core::{Envelope, Event};
use leechbook_store::{OrderKey, Store};
use std::path::Path;

/// One device's ledger of a campaign.
pub struct Replica {
    store: Store,
}

/// What recording an event did: the state after it, the event as appended, and what it did.
pub struct Recorded {
    /// The state after the event (re-derived when the event is a ruling).
    pub ledger: Ledger,
    /// The event as appended (ids, clocks and signature filled in).
    pub envelope: Envelope,
    /// What applying it did.
    pub applied: Applied,
}

impl Replica {
    /// Opens the ledger at `path`.
    pub fn open(path: &Path) -> Result<Replica, LedgerError> {
        Ok(Replica {
            store: Store::open(path)?,
        })
    }

    /// A replica over an open store.
    pub fn from_store(store: Store) -> Replica {
        Replica { store }
    }

    /// The store underneath (for the services that are the store's own: sync, devices).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The store underneath, to write to.
    pub fn store_mut(&mut self) -> &mut Store {
        &mut self.store
    }

    /// Gives the store back.
    pub fn into_store(self) -> Store {
        self.store
    }

    /// The state now: folded from the latest usable checkpoint and the events after it.
    pub fn state(&self) -> Result<Ledger, LedgerError> {
        fold_latest(&self.store, None)
    }

    /// The record as it stood up to and including the event with order key `upto`.
    pub fn state_upto(&self, upto: OrderKey) -> Result<Ledger, LedgerError> {
        fold_latest(&self.store, Some(upto))
    }

    /// Records one event atomically, under the write lock: folds the log, lets `make` build
    /// the event from that state (at the campaign time it returns, else now), checks every
    /// face it records against its die and that it applies, appends it and commits. A ruling
    /// re-derives the record and must be in force. Nothing is written on any error. Then the
    /// checkpoint policy runs (a cache: it never fails the recording).
    pub fn record<E: From<LedgerError>>(
        &mut self,
        make: impl FnOnce(&Ledger) -> Result<(Event, Option<CampaignTime>), E>,
    ) -> Result<Recorded, E> {
        let (ledger, envelope, applied) = {
            let mut w = self.store.write().map_err(LedgerError::from)?;
            let mut ledger = fold_latest(&w, None)?;
            let (event, at) = make(&ledger)?;
            event.check_faces().map_err(LedgerError::from)?;
            let at = at.unwrap_or(ledger.now);
            let env = w
                .prepare(event, at, chrono::Utc::now())
                .map_err(LedgerError::from)?;
            let applied = ledger.apply(&env).map_err(LedgerError::from)?;
            if matches!(env.event, Event::Ruling(_)) {
                // A ruling re-derives the record: it must be in force, and what is shown is
                // the record it leaves.
                let mut all = w.events().map_err(LedgerError::from)?;
                all.push(env.clone());
                let derived = Ledger::fold(&all);
                if let Some(v) = derived.void.iter().find(|v| v.id == env.id) {
                    return Err(LedgerError::RulingCannotStand(v.reason.clone()).into());
                }
                ledger = derived;
            }
            w.append(&env).map_err(LedgerError::from)?;
            w.commit().map_err(LedgerError::from)?;
            (ledger, env, applied)
        };
        keep_checkpoint(&mut self.store, envelope.order_key(), &ledger);
        Ok(Recorded {
            ledger,
            envelope,
            applied,
        })
    }

    /// The record now and as it would be if `ruling` were made (nothing is recorded). The
    /// ruling must be able to stand.
    pub fn what_if(&self, ruling: Ruling) -> Result<(Ledger, Ledger), LedgerError> {
        let events = self.store.events()?;
        let now = Ledger::fold(&events);
        let last = events.last().ok_or(LedgerError::Empty)?;
        let probe = EventId(uuid::Uuid::from_u128(u128::MAX));
        let mut all = events.clone();
        all.push(Envelope {
            id: probe,
            clock: last.clock + 1,
            seq: u64::MAX,
            event: Event::Ruling(ruling),
            ..last.clone()
        });
        let then = Ledger::fold(&all);
        if let Some(v) = then.void.iter().find(|v| v.id == probe) {
            return Err(LedgerError::RulingCannotStand(v.reason.clone()));
        }
        Ok((now, then))
    }
}
