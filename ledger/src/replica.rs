//! A [`Replica`]: one device's ledger of a campaign, and the services over it.

use crate::checkpoint::{fold_latest, fold_latest_after, keep_checkpoint};
use crate::projection::{self, Cover};
use crate::LedgerError;
use leechbook_core::dice::Drawing;
use leechbook_core::fold::{Applied, Fates, Ledger};
use leechbook_core::ids::CharacterId;
use leechbook_core::ruling::Ruling;
use leechbook_core::time::CampaignTime;
use leechbook_core::{Envelope, Event};
use leechbook_store::{Log, OrderKey, Store, Transaction};
use std::path::Path;

/// In a draft's [`Event::Secret`], the character added by a draft before it in the same
/// [`Replica::record_all_for`] (whose id is its event's, known once it is prepared).
pub const NEW_CHARACTER: CharacterId = CharacterId(uuid::Uuid::nil());

/// One device's ledger of a campaign, kept in a [`Log`]: a SQLite file ([`Store`], the
/// default) or memory ([`leechbook_store::memory::MemoryLog`]). Every service works the same
/// on either; `ledger/tests/replica.rs` runs them on both.
pub struct Replica<L: Log = Store> {
    store: L,
}

/// An event to record, at the campaign time given (else the clock's), with the table's dice
/// its rules draw from as it is decided, when it draws any (a strike's Injury Sequence): the
/// rules run once, and the faces they drew are written into the event before it is signed.
/// An event whose rolls are among its fields needs none.
pub struct Draft<'d> {
    /// The event (a drawing one without its faces yet).
    pub event: Event,
    /// When in the campaign, if not now.
    pub at: Option<CampaignTime>,
    /// The table's dice.
    pub dice: Option<&'d mut dyn Drawing>,
}

impl Draft<'_> {
    /// An event that draws no dice.
    pub fn of(event: Event, at: Option<CampaignTime>) -> Draft<'static> {
        Draft {
            event,
            at,
            dice: None,
        }
    }
}

impl From<(Event, Option<CampaignTime>)> for Draft<'_> {
    fn from((event, at): (Event, Option<CampaignTime>)) -> Self {
        Draft {
            event,
            at,
            dice: None,
        }
    }
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

impl Replica<Store> {
    /// Opens the ledger at `path`.
    pub fn open(path: &Path) -> Result<Replica, LedgerError> {
        Ok(Replica {
            store: Store::open(path)?,
        })
    }
}

impl<L: Log> Replica<L> {
    /// A replica over an open store.
    pub fn from_store(store: L) -> Replica<L> {
        Replica { store }
    }

    /// The store underneath (for the services that are the store's own: sync, devices).
    pub fn store(&self) -> &L {
        &self.store
    }

    /// The store underneath, to write to.
    pub fn store_mut(&mut self) -> &mut L {
        &mut self.store
    }

    /// Gives the store back.
    pub fn into_store(self) -> L {
        self.store
    }

    /// The state now, every character held with its archive's records: from the projection
    /// when it is current, else folded from the latest usable checkpoint and the events
    /// after it.
    pub fn state(&self) -> Result<Ledger, LedgerError> {
        state_in(&self.store.read()?)
    }

    /// The state now, every character held with what the rules read but without its
    /// archive's records (healed injuries no rule reads again): for what owes, rolls or
    /// counts (`due`, `advance --roll`, `character list`), which would otherwise read every
    /// healed injury of the campaign. The views that list healed injuries take
    /// [`Replica::state`].
    pub fn state_open(&self) -> Result<Ledger, LedgerError> {
        let r = self.store.read()?;
        match projection::load(&r, None)? {
            Some(l) => Ok(l),
            None => fold_latest(&r, None),
        }
    }

    /// The state now holding the characters named (at least: every character when the
    /// projection is not current), with their archive's records. Names the campaign does not
    /// know are passed over (the command's own lookup says so).
    pub fn state_for(&self, names: &[&str]) -> Result<Ledger, LedgerError> {
        let r = self.store.read()?;
        if let Some(head) = projection::head(&r)? {
            let mut ids: Vec<CharacterId> = names.iter().filter_map(|n| head.id_named(n)).collect();
            ids.sort_unstable();
            ids.dedup();
            if let Some(mut l) = projection::with(&r, head, Some(&ids))? {
                crate::archive::load(&r, &mut l, Some(&ids), None)?;
                return Ok(l);
            }
        }
        fold_latest(&r, None)
    }

    /// What became of events in the record now (void, retracted, amended): read from the
    /// projection when it is current, else from the state folded from the latest checkpoint.
    pub fn fates(&self) -> Result<Fates, LedgerError> {
        let r = self.store.read()?;
        if projection::current(&r)? {
            if let Some(fates) = projection::fates(&r)? {
                return Ok(fates);
            }
        }
        Ok(fold_latest(&r, None)?.take_fates())
    }

    /// The record as it stood up to and including the event with order key `upto`.
    pub fn state_upto(&self, upto: OrderKey) -> Result<Ledger, LedgerError> {
        fold_latest(&self.store.read()?, Some(upto))
    }

    /// Records one event atomically, under the write lock: folds the log, lets `make` build
    /// the event from that state (at the campaign time it returns, else now), checks every
    /// face it records against its die and that it applies, appends it and commits. A ruling
    /// re-derives the record and must be in force. Nothing is written on any error. Then the
    /// checkpoint policy runs (a cache: it never fails the recording).
    pub fn record<'d, D: Into<Draft<'d>>, E: From<LedgerError>>(
        &mut self,
        make: impl FnOnce(&Ledger) -> Result<D, E>,
    ) -> Result<Recorded, E> {
        self.record_for(None, make)
    }

    /// [`Replica::record`] for a command that touches only the characters it names: the
    /// state `make` sees holds those (and the event is applied with every character it
    /// touches), read from the projection when it is current, which is then updated in the
    /// same transaction. `None` holds every character.
    pub fn record_for<'d, D: Into<Draft<'d>>, E: From<LedgerError>>(
        &mut self,
        names: Option<&[&str]>,
        make: impl FnOnce(&Ledger) -> Result<D, E>,
    ) -> Result<Recorded, E> {
        let (ledger, mut done) =
            self.record_all_for(names, |ledger| -> Result<_, E> { Ok(vec![make(ledger)?]) })?;
        let (envelope, applied) = done.pop().ok_or_else(|| E::from(LedgerError::Empty))?;
        Ok(Recorded {
            ledger,
            envelope,
            applied,
        })
    }

    /// Records several events in one transaction, all or nothing: `make` gives them from
    /// the state (holding the characters `names`, every character when None); each is
    /// applied to the state the ones before it left, and any that cannot be (a name taken,
    /// a sheet the campaign cannot hold) leaves the log as it was. Returns the state after
    /// the last, and each event as appended with what applying it did.
    pub fn record_all_for<'d, D: Into<Draft<'d>>, E: From<LedgerError>>(
        &mut self,
        names: Option<&[&str]>,
        make: impl FnOnce(&Ledger) -> Result<Vec<D>, E>,
    ) -> Result<(Ledger, Vec<(Envelope, Applied)>), E> {
        let mut w = self.store.write().map_err(LedgerError::from)?;
        let head = projection::head(&w)?;
        let held = match (&head, names) {
            (Some(h), Some(names)) => {
                let mut ids: Vec<CharacterId> =
                    names.iter().filter_map(|n| h.id_named(n)).collect();
                ids.sort_unstable();
                ids.dedup();
                projection::with(&w, h.clone(), Some(&ids))?
            }
            (Some(h), None) => projection::with(&w, h.clone(), None)?,
            (None, _) => None,
        };
        // A stale projection (a sync, another fold version) is written whole again below,
        // with the archive's records filed after the checkpoint it was folded from.
        let (mut ledger, mut whole) = match held {
            Some(l) => (l, None),
            None => {
                let (l, from) = fold_latest_after(&w, None)?;
                (l, Some(from.map(|h| h.last)))
            }
        };
        let events = make(&ledger)?;
        let mut done = Vec::with_capacity(events.len());
        // One wall time for the transaction's events: they were recorded together (what
        // tells a character added GM-only from one hidden by a later command).
        let wall = chrono::Utc::now();
        for draft in events {
            let Draft {
                mut event,
                at,
                dice,
            } = draft.into();
            // `character add --gm-only`: the creation and its secrecy in one transaction, so
            // no sync can take the character in before it is GM-only.
            if let Event::Secret { character, .. } = &mut event {
                if *character == NEW_CHARACTER {
                    *character = done
                        .iter()
                        .rev()
                        .find(|(e, _): &&(Envelope, Applied)| {
                            matches!(e.event, Event::CharacterAdded { .. })
                        })
                        .map(|(e, _)| CharacterId(e.id.0))
                        .ok_or(LedgerError::Empty)?;
                }
            }
            event.check_faces().map_err(LedgerError::from)?;
            // Hold every character the event touches before it is applied.
            let missing: Vec<CharacterId> = event
                .characters()
                .into_iter()
                .filter(|id| {
                    ledger.character(*id).is_none() && ledger.roll().iter().any(|(r, _)| r == id)
                })
                .collect();
            if !missing.is_empty() {
                let mut ids: Vec<CharacterId> = ledger.characters.iter().map(|c| c.id()).collect();
                ids.extend(missing);
                ids.sort_unstable();
                ids.dedup();
                ledger = match projection::with(&w, ledger.head(), Some(&ids))? {
                    Some(l) => l,
                    None => {
                        let (l, from) = fold_latest_after(&w, None)?;
                        whole = Some(from.map(|h| h.last));
                        l
                    }
                };
            }
            // An override may reopen an archived injury: its character's records are read
            // first (the other rulings touch no character).
            if let Event::Ruling(Ruling::Override { character, .. }) = &event {
                crate::archive::load(&w, &mut ledger, Some(&[*character]), None)?;
            }
            let at = at.unwrap_or(ledger.now);
            let mut env = w.prepare(event, at, wall).map_err(LedgerError::from)?;
            let applied = match dice {
                None => ledger.apply(&env).map_err(LedgerError::from)?,
                Some(dice) => {
                    // Decided once, drawing the table's dice; the event now holds the faces
                    // drawn, and is signed as it now reads.
                    let applied = ledger
                        .apply_drawing(&mut env, dice)
                        .map_err(LedgerError::from)?;
                    env.event.check_faces().map_err(LedgerError::from)?;
                    w.sign(&mut env).map_err(LedgerError::from)?;
                    applied
                }
            };
            w.append(&env).map_err(LedgerError::from)?;
            if matches!(env.event, Event::Ruling(_) | Event::Roster(_)) {
                // A ruling re-derives the record: it must be in force, and what is shown is
                // the record it leaves. A roster change does too: the roster in force is
                // worked out from the whole log before the fold. The append dropped every
                // checkpoint from the ruling's target on, so the record is folded from the
                // latest one before it (the whole log only for a roster change); a refusal
                // drops the transaction, and the append with it.
                let (derived, from) = fold_latest_after(&w, None)?;
                stands(&derived, &env)?;
                ledger = derived;
                whole = Some(from.map(|h| h.last));
            }
            done.push((env, applied));
        }
        let (Some((first, _)), Some((last, _))) = (done.first(), done.last()) else {
            return Ok((ledger, done));
        };
        let cover = match whole {
            Some(from) => Cover::Whole(from),
            None => Cover::Held(first.order_key()),
        };
        projection::write(&mut w, &ledger, cover)?;
        keep_checkpoint(&mut w, last.order_key(), &ledger, whole.is_some());
        w.commit().map_err(LedgerError::from)?;
        Ok((ledger, done))
    }

    /// The record up to the event with order key `upto`, holding the characters named, read
    /// as a view of them needs (see [`crate::checkpoint::state_for_upto`]).
    pub fn state_for_upto(&self, names: &[&str], upto: OrderKey) -> Result<Ledger, LedgerError> {
        crate::checkpoint::state_for_upto(&self.store.read()?, names, upto)
    }

    /// Brings the projection up to date when it is not (after a sync imported events, or on
    /// a ledger made before projections): folds from the latest checkpoint and writes it
    /// whole. Nothing to do when it is current.
    pub fn refresh(&mut self) -> Result<(), LedgerError> {
        let mut w = self.store.write()?;
        if projection::current(&w)? {
            return Ok(());
        }
        let (ledger, from) = fold_latest_after(&w, None)?;
        projection::write(&mut w, &ledger, Cover::Whole(from.map(|h| h.last)))?;
        w.commit()?;
        Ok(())
    }

    /// The record now and as it would be if `ruling` were made (nothing is recorded). The
    /// ruling must be able to stand. It is appended in a write transaction that is never
    /// committed, so the record after it is folded as a recording's is: from the latest
    /// checkpoint before its target, not from the whole log.
    pub fn what_if(&mut self, ruling: Ruling) -> Result<(Ledger, Ledger), LedgerError> {
        let now = self.state()?;
        let mut w = self.store.write()?;
        let env = w.prepare(Event::Ruling(ruling), now.now, chrono::Utc::now())?;
        w.append(&env)?;
        let (then, _) = fold_latest_after(&w, None)?;
        // Dropping the transaction rolls the ruling back: nothing was recorded.
        drop(w);
        stands(&then, &env)?;
        Ok((now, then))
    }
}

/// Whether the state every command starts from, read through `r`, is `full` (a fold of the
/// whole log read through the same transaction): from a current projection, its head and
/// fates, then one character at a time with its archive's records, so that only one
/// character's state is held beside `full`; else (no current projection) the state from the
/// latest checkpoint, whole.
pub fn starts_from(r: &impl leechbook_store::ReadLog, full: &Ledger) -> Result<bool, LedgerError> {
    let Some(mut head) = projection::head(r)? else {
        return Ok(state_in(r)? == *full);
    };
    let Some(fates) = projection::fates(r)? else {
        return Ok(false);
    };
    head.set_fates(fates);
    if head != full.head() {
        return Ok(false);
    }
    for (id, _) in full.roll() {
        let Some(mut one) = projection::with(r, head.head(), Some(&[*id]))? else {
            return Ok(false);
        };
        crate::archive::load(r, &mut one, Some(&[*id]), None)?;
        if one.character(*id) != full.character(*id) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The state now, every character held with its archive's records, read through `r` (one
/// read transaction: `verify` compares it with its own fold of the same snapshot of the
/// log): the projection when it is current, else the fold from the latest checkpoint.
pub fn state_in(r: &impl leechbook_store::ReadLog) -> Result<Ledger, LedgerError> {
    match projection::load(r, None)? {
        Some(mut l) => {
            crate::archive::load(r, &mut l, None, None)?;
            Ok(l)
        }
        None => fold_latest(r, None),
    }
}

/// Whether the ruling or roster change `env` stands in the record `derived` it leaves: it
/// is not void, and an amendment's amended event is not void either.
fn stands(derived: &Ledger, env: &Envelope) -> Result<(), LedgerError> {
    let void = |id| {
        derived
            .void
            .iter()
            .find(|v| v.id == id)
            .map(|v| v.reason.clone())
    };
    if let Some(why) = void(env.id) {
        return Err(match env.event {
            Event::Roster(_) => LedgerError::RosterChangeCannotStand(why),
            _ => LedgerError::RulingCannotStand(why),
        });
    }
    if let Event::Ruling(Ruling::Amend { target, .. }) = &env.event {
        if let Some(why) = void(*target) {
            return Err(LedgerError::AmendmentCannotStand(why));
        }
    }
    Ok(())
}
