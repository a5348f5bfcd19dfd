//! A device's connection to a hub ([`sync_with`], [`watch`]): dial, one round or a round
//! whenever either side moves, the keys gained kept, moving past a poisoned generation.

use super::*;
use crate::layout::{self, index_counts, Counts, Shelf};
use crate::{crypt, entry::rotations_in, take::Imported, SyncError};
use leechbook_store::ReadLog;
use leechbook_store::Store;
use samod::{ConnectionId, Repo};
use std::future::Future;
use std::time::Duration;

/// What a network sync did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetSynced {
    /// What came in.
    pub imported: Imported,
    /// The events the ledger holds now.
    pub events: u64,
    /// The volumes exchanged (sent or received).
    pub volumes: usize,
    /// The GM device that left this device out of a key rotation (it was revoked), if one did.
    pub left_out_by: Option<leechbook_core::ids::DeviceId>,
    /// The generation of document ids this sync moved to, and why (the hub's squatted index).
    pub moved: Option<(u32, String)>,
}

/// Syncs the store with the hub at `url`: the index first, then the volumes whose counts
/// differ between the two sides (this ledger's and what the index lists), each both ways;
/// takes in what came (each event checked; the refused are listed), then lists this ledger's
/// counts in the index and waits until the hub holds everything. Only the volumes exchanged
/// are loaded; only the events recorded since the last sync are read from the log.
///
/// A hub whose campaign index no Leechbook device writes (its operator squatted it) is met by
/// moving: the sync tries the next generations of document ids ([`Places`], derived from the
/// campaign's secret, which the operator does not hold), at most [`MOVES`] of them, and keeps
/// the first where a round succeeds (a device with documents puts them there; a device
/// joining finds them where another moved). `moved` then tells the squatted index and the
/// generation moved to.
pub fn sync_with(store: &mut Store, url: &str, timeout: Duration) -> Result<NetSynced, SyncError> {
    let start = std::time::Instant::now();
    let held = crypt::generation_of(store, url)?;
    let mut first_error = None;
    for generation in held..=held.saturating_add(MOVES) {
        if generation != held {
            crypt::put_generation(store, url, generation)?;
        }
        let result = Line::dial(store, url, timeout).and_then(|mut line| {
            phase(start, "connected");
            let result = line.round(store, url, timeout, false);
            line.hang_up();
            phase(start, "exchanged");
            result
        });
        match result {
            Ok(mut done) => {
                if let Some(SyncError::Poisoned(why)) = &first_error {
                    done.moved = Some((generation, why.clone()));
                }
                return Ok(done);
            }
            // Squatted here: on to the next generation. A moved generation where the hub
            // holds nothing of the campaign yet (no device has moved there): the next. Any
            // other failure (the hub went away, a timeout) ends the sync where it was, so a
            // hub that is merely slow never splits the table across generations.
            Err(e @ SyncError::Poisoned(_)) => {
                first_error.get_or_insert(e);
            }
            Err(SyncError::Absent(_)) if generation != held => {}
            Err(e) => {
                // (A sync that changed nothing writes nothing: the ledger stays as it was.)
                if generation != held {
                    crypt::put_generation(store, url, held)?;
                }
                return Err(e);
            }
        }
    }
    // Nowhere to go: back to the generation held, and the squat said.
    crypt::put_generation(store, url, held)?;
    Err(first_error.unwrap_or_else(|| net(format!("the hub at {url} could not be synced with"))))
}

/// How many generations of document ids a sync tries past a squatted index.
pub const MOVES: u32 = 3;

/// Keeps the store in sync with the hub at `url` over one connection until `until`
/// completes: a round of [`sync_with`] at once, then another whenever this ledger gains an
/// event (another process recorded it), the hub's index moves (a peer sent something) or
/// lists more than this ledger holds, looked for every `every`, and at least every
/// [`HEARTBEAT`] (so that a hub gone away is noticed). The sync engine keeps its state with
/// the hub between rounds, so a round sends what changed, not the documents again. `report`
/// hears every round; a round that fails ends the watch with its error.
pub fn watch(
    store: &mut Store,
    url: &str,
    timeout: Duration,
    every: Duration,
    until: impl Future<Output = ()>,
    report: &mut dyn FnMut(&NetSynced),
) -> Result<(), SyncError> {
    let mut line = Line::dial(store, url, timeout)?;
    let result = line.follow(store, url, timeout, every, until, report);
    line.hang_up();
    result
}

/// The longest a watching device goes without a round: a hub that went away is told within
/// this (a round with nothing to send costs the index's sync messages).
pub const HEARTBEAT: Duration = Duration::from_secs(20);

/// One connection to a hub: the sync engine with the campaign's documents, the shelf of
/// this ledger's, and the keys.
pub(super) struct Line {
    pub(super) rt: tokio::runtime::Runtime,
    pub(super) repo: Repo,
    pub(super) conn: ConnectionId,
    pub(super) shelf: Shelf,
    pub(super) ring: crate::Keyring,
    pub(super) storage: ShelfStorage,
    pub(super) refusal: Refusal,
    /// The generation of document ids on this hub (see [`sync_with`]).
    pub(super) generation: u32,
}

impl Line {
    /// Dials the hub at `url` with the store's documents.
    pub(super) fn dial(store: &mut Store, url: &str, timeout: Duration) -> Result<Line, SyncError> {
        let start = std::time::Instant::now();
        let generation = crypt::generation_of(store, url)?;
        let ring = crypt::ring_for_sync(store)?.at_generation(generation);
        let mut shelf = Shelf::open(store, ring.clone())?;
        shelf.catch_up(store)?;
        phase(start, "caught up with the log");
        // (Whether the log holds any event: its last row, not a count of a million rows.)
        let joining = leechbook_store::ReadLog::last_row(store)? == 0;
        let places = Places::of(&ring);
        let storage = ShelfStorage::new(None);
        let rt = runtime()?;
        let refusal = Refusal::default();
        let connected = rt.block_on(async {
            if !joining {
                // An index that lists nothing: merged with the hub's, it is the hub's own
                // (what devices that pushed their volumes to this hub listed there; what this
                // ledger listed on another hub says nothing of this one). A hub new to the
                // campaign takes it, and then every volume.
                storage
                    .hold(
                        &places.index(),
                        layout::fresh_index(&ring)?.save(),
                        Vec::new(),
                    )
                    .await;
            }
            let repo = campaign_repo(places, storage.clone(), true).await;
            let conn = dial(&repo, url, timeout, &refusal).await?;
            Ok::<_, SyncError>((repo, conn))
        });
        let (repo, conn) = connected.map_err(|e| refused_by_hub(&refusal, url).unwrap_or(e))?;
        Ok(Line {
            rt,
            repo,
            conn,
            shelf,
            ring,
            storage,
            refusal,
            generation,
        })
    }

    /// The hub holds what it was sent (each round waited for it to say so) and nothing here
    /// is kept by the engine: hangs up without waiting for its tasks to wind down.
    pub(super) fn hang_up(self) {
        drop(self.repo);
        self.rt.shutdown_background();
    }

    /// One round: the exchange, then what it gained kept. `opening`: the first round of a
    /// line kept open, which opens every device's latest volume with the hub.
    pub(super) fn round(
        &mut self,
        store: &mut Store,
        url: &str,
        timeout: Duration,
        opening: bool,
    ) -> Result<NetSynced, SyncError> {
        let held_ring = crypt::ring_for_sync(store)?.at_generation(self.generation);
        self.ring = held_ring.clone();
        // What the log gained since the last round (recorded here meanwhile) goes into the
        // volumes first, so that it is offered, sealed under the ring as the ledger holds it
        // now (a revocation in another terminal rotates it).
        self.shelf.ring = held_ring.clone();
        self.shelf.catch_up(store)?;
        let Line {
            rt,
            repo,
            conn,
            shelf,
            ring,
            storage,
            refusal,
            generation: _,
        } = self;
        let hub = Hub {
            repo,
            conn: *conn,
            storage,
            url,
            timeout,
        };
        let result = rt
            .block_on(exchange(store, shelf, ring, &hub, opening))
            .map_err(|e| refused_by_hub(refusal, url).unwrap_or(e));
        let (mut imported, gained, volumes) = result?;
        crypt::keep_gains(store, Some(&held_ring), ring, &gained)?;
        // The documents are a cache: failing to keep them loses nothing (the next sync
        // offers the events again).
        let _ = shelf.keep(store);
        if !gained.is_empty() {
            // Keys gained: what could not be opened before may open now.
            imported.added += crate::take::rescan(store)?.added;
        }
        let roster = leechbook_core::roster::Roster::from_log(&store.roster_events()?);
        let ring = crypt::keyring_of(store)?
            .map(|r| r.at_generation(ring.generation()))
            .unwrap_or(ring.clone());
        let left_out_by =
            crypt::left_out_by(store, &ring, &rotations_in(&shelf.index.doc), &roster);
        Ok(NetSynced {
            imported,
            events: store.count()?,
            volumes,
            left_out_by,
            moved: None,
        })
    }

    /// Rounds until `until`: one now, then one whenever the ledger's last row or the hub's
    /// index moved since the last round.
    pub(super) fn follow(
        &mut self,
        store: &mut Store,
        url: &str,
        timeout: Duration,
        every: Duration,
        until: impl Future<Output = ()>,
        report: &mut dyn FnMut(&NetSynced),
    ) -> Result<(), SyncError> {
        use leechbook_store::ReadLog;
        let index_id = Places::of(&self.ring).index();
        let mut until = std::pin::pin!(until);
        // What the hub listed beyond this ledger after the last round, by volume: a volume
        // two rounds in a row found short by the same count (withheld) is asked for again
        // only at a heartbeat, not at every look; any other is asked for at once.
        let mut short_before = Counts::new();
        let mut opening = true;
        loop {
            let done = self.round(store, url, timeout, std::mem::take(&mut opening))?;
            report(&done);
            if done.left_out_by.is_some() {
                return Ok(());
            }
            let index = self
                .rt
                .block_on(find(&self.repo, index_id.clone()))?
                .ok_or_else(|| net("the campaign's index is gone from the sync engine"))?;
            let names = self.shelf.names.clone();
            let short = |shelf: &Shelf| -> Counts {
                index
                    .with_document(|d| index_counts(d, &names))
                    .into_iter()
                    .filter(|(v, n)| *n > shelf.counts.get(v).copied().unwrap_or(0))
                    .collect()
            };
            let short_now = short(&self.shelf);
            let withheld: Counts = short_now
                .iter()
                .filter(|(v, n)| short_before.get(v) == Some(n))
                .map(|(v, n)| (*v, *n))
                .collect();
            short_before = short_now;
            let rotations = index.with_document(|d| rotations_in(d).len());
            let shelf = &self.shelf;
            let moved = self.rt.block_on(async {
                let since = tokio::time::Instant::now();
                let mut tick = tokio::time::interval(every);
                let mut seen = Vec::new();
                loop {
                    tokio::select! {
                        _ = &mut until => return false,
                        _ = tick.tick() => {}
                    }
                    // Recorded here since the last round put the log into the volumes (the
                    // mark), the hub's index lists what this ledger lacks (but what it
                    // withholds) or a key rotation it had not, or a heartbeat is due. The
                    // hub's answer to a round (its own counts, equal to these) moves the
                    // index but asks for nothing. The index is read only when it moved.
                    let recorded = store.last_row().map_or(true, |r| r > shelf.mark);
                    let heads = index.with_document(|d| d.get_heads());
                    let lacking = heads != seen
                        && (short(shelf).iter().any(|(v, n)| withheld.get(v) != Some(n))
                            || index.with_document(|d| rotations_in(d).len()) != rotations);
                    seen = heads;
                    if recorded || lacking || since.elapsed() >= HEARTBEAT {
                        return true;
                    }
                }
            });
            if !moved {
                return Ok(());
            }
        }
    }
}
