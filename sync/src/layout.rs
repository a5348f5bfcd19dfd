//! The layout of a campaign's sync documents: what a sync costs follows what changed, not the
//! campaign's history.
//!
//! - **Names.** Nothing a hub or a sync file shows names the campaign, a device or an event
//!   ([`Names`]): an entry is filed under a digest of its event id, a volume under a digest of
//!   its device and number, both keyed by the campaign's document secret; the index's counts
//!   are sealed; every sealed value is padded to a size class ([`crypt::padded_len`]).
//! - **Volumes.** A device's events live in volumes of [`VOLUME`] consecutive numbers: its
//!   events #1-#4096 in volume 0, #4097-#8192 in volume 1, and so on. Each volume is an
//!   automerge document of its own (root map: entry key -> sealed envelope), so a volume is
//!   bounded, has in practice one writer (its device; others only relay the same entries),
//!   and is closed for good once full: a sync never loads, sends or scans a closed volume
//!   the other side already holds.
//! - **The index.** One small document per campaign lists, for every volume, how many events
//!   of it a device has put there (`DEVICE/NUMBER` -> count; concurrent counts resolve to
//!   the largest), and carries the key rotations (`keys/EPOCH/DIGEST`). Its key for a volume
//!   is the volume's name ([`Names::volume`]), its value the volume's device, number and count,
//!   sealed under the campaign's first key. A sync first syncs the index,
//!   then exactly the volumes whose counts differ between the two sides.
//! - **The shelf.** A ledger keeps each document it holds in its store's sync state (a
//!   cache: rebuilt from the log when it is missing) as a whole save plus the changes appended
//!   since (appended, never rewritten, until they reach half the whole), with the count of its
//!   log's events per volume and the last log row the volumes hold (written last, in the same
//!   transaction). An existing ledger's shelf is built from its log on first use, a page of
//!   rows at a time, closing full volumes as it goes, so memory stays bounded by the open
//!   volumes.
//!
//! One automerge change per recorded batch and volume, never per event.

use crate::names::{counts_from_bytes, counts_to_bytes};
pub use crate::names::{Counts, Names, VolumeId, VOLUME};
use crate::{crypt, entry::put_rotations, sealing::Sealing, Keyring, SyncError};
use automerge::{transaction::Transactable, Automerge, ChangeHash, ReadDoc, ScalarValue, ROOT};
use leechbook_core::Envelope;
use leechbook_store::{ReadLog, Store};
use std::collections::{BTreeMap, BTreeSet};

mod sealed;
use sealed::put_stubs;

/// Log rows read at a time when a shelf catches up with its log.
const PAGE: i64 = 20_000;

/// The layout this code writes: entries and volumes under [`Names`], counts sealed, values
/// padded. A ledger whose documents were kept in an earlier layout builds them anew from its
/// log on first use (they are a cache), and meets the others under new document ids.
pub const LAYOUT: u8 = 4;

/// The counts an index document lists (the largest where devices put different ones): each
/// sealed under its volume's name, and naming that volume. Anything else under a key is junk
/// (a peer without keys cannot seal a count), and counts for nothing.
pub fn index_counts(doc: &Automerge, names: &Names) -> Counts {
    let mut out = Counts::new();
    for key in doc.keys(ROOT) {
        if key.len() != 32 {
            continue;
        }
        for (value, _) in doc.get_all(ROOT, key.as_str()).unwrap_or_default() {
            let automerge::Value::Scalar(s) = value else {
                continue;
            };
            let ScalarValue::Bytes(b) = s.as_ref() else {
                continue;
            };
            let Some(c) = names.open_counts(&key, b) else {
                continue;
            };
            for (v, n) in c {
                // A volume holds at most VOLUME events: a larger count is no device's.
                if names.volume(v) == key && n <= VOLUME {
                    let at = out.entry(v).or_default();
                    *at = (*at).max(n);
                }
            }
        }
    }
    out
}

/// Puts into the index the counts of `ours` that are larger than what it lists, with the
/// rotations it lacks, in one change (none when nothing is new). Returns whether it changed.
pub fn publish(
    doc: &mut Automerge,
    ours: &Counts,
    rotations: &[crypt::Rotation],
    names: &Names,
) -> Result<bool, SyncError> {
    let listed = index_counts(doc, names);
    let larger: Vec<(VolumeId, u64)> = ours
        .iter()
        .filter(|(v, n)| listed.get(v).is_none_or(|l| *n > l))
        .map(|(v, n)| (*v, *n))
        .collect();
    let fresh = rotations.iter().any(|r| {
        doc.get(ROOT, r.filed_under().as_str())
            .ok()
            .flatten()
            .is_none()
    });
    if larger.is_empty() && !fresh {
        return Ok(false);
    }
    doc.transact(|tx| {
        for (v, n) in &larger {
            let key = names.volume(*v);
            let sealed = names.seal_counts(&key, &Counts::from([(*v, *n)]));
            tx.put(ROOT, key, ScalarValue::Bytes(sealed))
                .map_err(|e| SyncError::NotSync(e.to_string()))?;
        }
        put_rotations(tx, rotations)
    })
    .map_err(|f| f.error)?;
    Ok(true)
}

/// Where the index flags a volume a device found short on the hub (`short/NAME`).
const SHORT_PREFIX: &str = "short/";

/// The volumes among `known` that the index flags as short on the hub: a device synced one
/// and got fewer events than the index lists, so a device that holds it whole syncs it to put
/// them back.
pub fn short_volumes(doc: &Automerge, names: &Names, known: &Counts) -> BTreeSet<VolumeId> {
    let flagged: BTreeSet<String> = doc
        .keys(ROOT)
        .filter_map(|k| Some(k.strip_prefix(SHORT_PREFIX)?.to_string()))
        .collect();
    if flagged.is_empty() {
        return BTreeSet::new();
    }
    known
        .keys()
        .filter(|v| flagged.contains(&names.volume(**v)))
        .copied()
        .collect()
}

/// Flags (`true`) or unflags volumes as short on the hub, in one change (none when nothing
/// changes).
pub fn flag_short(
    doc: &mut Automerge,
    flags: &[(VolumeId, bool)],
    names: &Names,
) -> Result<(), SyncError> {
    let known: Counts = flags.iter().map(|(v, _)| (*v, 0)).collect();
    let held = short_volumes(doc, names, &known);
    let todo: Vec<&(VolumeId, bool)> = flags
        .iter()
        .filter(|(v, on)| held.contains(v) != *on)
        .collect();
    if todo.is_empty() {
        return Ok(());
    }
    doc.transact(|tx| {
        for (v, on) in &todo {
            let key = format!("{SHORT_PREFIX}{}", names.volume(*v));
            let done = if *on {
                tx.put(ROOT, key.as_str(), true)
            } else {
                tx.delete(ROOT, key.as_str())
            };
            done.map_err(|e| SyncError::NotSync(e.to_string()))?;
        }
        Ok::<_, SyncError>(())
    })
    .map(|_| ())
    .map_err(|f| f.error)
}

/// An index that lists nothing yet. Its one change is the same on every device and every
/// sync (a fixed actor and time, both from the campaign's document secret, which names
/// nothing a hub could read: not the campaign's id), so offering it to a hub that holds the
/// index adds nothing there; it comes back under a fresh actor for the changes put after.
pub fn fresh_index(ring: &Keyring) -> Result<Automerge, SyncError> {
    let secret = ring.document_secret();
    let mut doc = Automerge::new().with_actor(automerge::ActorId::from(secret[..16].to_vec()));
    doc.transact_with(
        |_| automerge::transaction::CommitOptions::default().with_time(0),
        |tx| {
            let mark: String = secret[16..24].iter().map(|b| format!("{b:02x}")).collect();
            tx.put(ROOT, "leechbook", mark)
                .map_err(|e| SyncError::NotSync(e.to_string()))
        },
    )
    .map_err(|f| f.error)?;
    Automerge::load(&doc.save()).map_err(|e| SyncError::NotSync(e.to_string()))
}

/// Puts the events a volume lacks, sealed under `ring`, in one change (none when it holds
/// them all). Returns how many it put.
pub fn put_events(
    doc: &mut Automerge,
    events: &[Envelope],
    ring: &Keyring,
    names: &Names,
    sealing: &Sealing,
) -> Result<usize, SyncError> {
    let missing: Vec<&Envelope> = events
        .iter()
        .filter(|e| {
            doc.get(ROOT, names.entry_of(e).as_str())
                .ok()
                .flatten()
                .is_none()
        })
        .collect();
    put_over(doc, &missing, ring, names, sealing)
}

/// The most events one change of a volume carries. Automerge's sync sends a peer the whole
/// document instead of the changes it lacks when those are more than a third of the
/// document's changes: a volume built in one change (a join, an export, a first sync) would
/// then go whole over the wire for every event added to it afterwards (585 KB for one event
/// at 4,096 per volume, `scale one watch`). In changes of this many events, one more change is
/// a third of the volume's only while the volume is small.
pub const CHANGE_EVENTS: usize = 64;

/// Puts events under their entry keys, sealed under `ring`, whatever those keys hold (a value
/// a peer put over a genuine entry), in changes of at most [`CHANGE_EVENTS`] (none when
/// `events` is empty). Returns how many it put.
pub(crate) fn put_over(
    doc: &mut Automerge,
    events: &[&Envelope],
    ring: &Keyring,
    names: &Names,
    sealing: &Sealing,
) -> Result<usize, SyncError> {
    for chunk in events.chunks(CHANGE_EVENTS) {
        let missing: Vec<(String, &Envelope)> =
            chunk.iter().map(|e| (names.entry_of(e), *e)).collect();
        doc.transact(|tx| {
            for (key, e) in &missing {
                // An event sealed for the GM goes in as its stub, its envelope sealed again
                // under the GM's ring; never openly, and withheld where that ring is not
                // held (a GM device makes it before its first sync: `gm_ring_for_sync`).
                let plain = if sealing.seals(e.id) {
                    match ring.gm() {
                        Some(gm) => crate::sealing::stub(e, gm, key),
                        None => continue,
                    }
                } else {
                    leechbook_store::codec::encode_envelope(e)
                };
                tx.put(
                    ROOT,
                    key.as_str(),
                    ScalarValue::Bytes(ring.seal(key, &plain)),
                )
                .map_err(|e| SyncError::NotSync(e.to_string()))?;
            }
            Ok::<_, SyncError>(())
        })
        .map_err(|f| f.error)?;
    }
    Ok(events.len())
}

/// The entry keys of the events the log holds of volume `v` (one index read).
pub fn held_keys(
    store: &Store,
    names: &Names,
    v: VolumeId,
) -> Result<std::collections::HashSet<String>, SyncError> {
    let first = u64::from(v.number) * VOLUME + 1;
    Ok(store
        .ids_numbered(v.device, first, first + VOLUME - 1)?
        .into_iter()
        .map(|(seq, id)| names.entry(id, seq))
        .collect())
}

/// Events grouped by the volume each belongs in.
pub fn by_volume(events: impl IntoIterator<Item = Envelope>) -> BTreeMap<VolumeId, Vec<Envelope>> {
    let mut out: BTreeMap<VolumeId, Vec<Envelope>> = BTreeMap::new();
    for e in events {
        out.entry(VolumeId::of(&e)).or_default().push(e);
    }
    out
}

/// Deletes root keys from a document in one change (none when it holds none of them).
pub fn drop_in(doc: &mut Automerge, keys: &[String]) -> Result<(), SyncError> {
    let held: Vec<&String> = keys
        .iter()
        .filter(|k| doc.get(ROOT, k.as_str()).ok().flatten().is_some())
        .collect();
    if held.is_empty() {
        return Ok(());
    }
    doc.transact(|tx| {
        for k in &held {
            tx.delete(ROOT, k.as_str())
                .map_err(|e| SyncError::NotSync(e.to_string()))?;
        }
        Ok::<_, SyncError>(())
    })
    .map(|_| ())
    .map_err(|f| f.error)
}

/// A document as a store keeps it: the document, the heads of what is kept, and the sizes of
/// the whole save and of the changes appended to it.
pub struct Kept {
    /// The document.
    pub doc: Automerge,
    heads: Vec<ChangeHash>,
    sizes: (usize, usize),
}

impl Default for Kept {
    fn default() -> Self {
        Kept::new()
    }
}

impl Kept {
    /// A new, empty document, nothing kept yet.
    pub fn new() -> Kept {
        Kept {
            doc: Automerge::new(),
            heads: Vec::new(),
            sizes: (0, 0),
        }
    }

    /// A document received whole (a sync file's volume), to be kept as new.
    pub fn received(doc: Automerge) -> Kept {
        Kept {
            doc,
            heads: Vec::new(),
            sizes: (0, 0),
        }
    }

    /// Whether the document gained changes since it was kept.
    pub fn changed(&self) -> bool {
        self.doc.get_heads() != self.heads
    }

    /// The heads of what is kept.
    pub fn kept_heads(&self) -> &[ChangeHash] {
        &self.heads
    }
}

fn whole_key(name: &str) -> String {
    format!("doc:{name}")
}

fn appended_key(name: &str) -> String {
    format!("doc+:{name}")
}

/// A kept document's bytes: the whole save and the changes appended to it.
pub type KeptBytes = (Vec<u8>, Vec<u8>);

/// The bytes kept under `name`: the whole save and the changes appended to it.
pub fn kept_bytes(store: &Store, name: &str) -> Result<Option<KeptBytes>, SyncError> {
    let Some(whole) = store
        .sync_state(&whole_key(name))?
        .filter(|b| !b.is_empty())
    else {
        return Ok(None);
    };
    let appended = store.sync_state(&appended_key(name))?.unwrap_or_default();
    Ok(Some((whole, appended)))
}

/// The document kept under `name`, if there is one and it loads (a cache: one that does not
/// load is as good as none).
pub fn load_kept(store: &Store, name: &str) -> Result<Option<Kept>, SyncError> {
    let Some((whole, appended)) = kept_bytes(store, name)? else {
        return Ok(None);
    };
    let Ok(mut doc) = Automerge::load(&whole) else {
        return Ok(None);
    };
    if !appended.is_empty() && doc.load_incremental(&appended).is_err() {
        return Ok(None);
    }
    Ok(Some(Kept {
        heads: doc.get_heads(),
        doc,
        sizes: (whole.len(), appended.len()),
    }))
}

/// A document's whole save as a ledger keeps it and hands it to a sync engine: its columns
/// not deflated. A volume is nearly all sealed values, which do not compress (about 5%
/// larger so), while deflating costs a whole save about twenty times its time and a load
/// twice (BENCHMARKS.md). What goes over a wire or into a file is deflated as automerge
/// chooses; either kind loads.
pub(crate) fn whole_save(doc: &Automerge) -> Vec<u8> {
    doc.save_nocompress()
}

/// What keeping a changed document writes: a whole save when nothing is kept yet or the
/// appended changes have grown to half the whole, else the changes since it was kept
/// appended. The document counts as kept afterwards.
fn keep_items(
    store: &Store,
    name: &str,
    k: &mut Kept,
    items: &mut Vec<(String, Vec<u8>)>,
) -> Result<(), SyncError> {
    let (whole, appended) = k.sizes;
    if whole == 0 || appended > whole / 2 {
        let bytes = whole_save(&k.doc);
        k.sizes = (bytes.len(), 0);
        items.push((whole_key(name), bytes));
        items.push((appended_key(name), Vec::new()));
    } else {
        let chunk = k.doc.save_after(&k.heads);
        let mut all = store.sync_state(&appended_key(name))?.unwrap_or_default();
        all.extend_from_slice(&chunk);
        k.sizes.1 = all.len();
        items.push((appended_key(name), all));
    }
    k.heads = k.doc.get_heads();
    Ok(())
}

const INDEX: &str = "index";
const COUNTS_KEY: &str = "volume-counts";
const MARK_KEY: &str = "volume-row";
/// The last row of the entries sealed for the GM that the counts count.
const SEALED_MARK_KEY: &str = "volume-sealed-row";
/// What the kept documents' sealing was judged from ([`Sealing::summary`]).
const SEALING_KEY: &str = "volume-sealing";
/// The layout the kept documents are in ([`LAYOUT`]; none: the layout before names).
const LAYOUT_KEY: &str = "sync-layout";
/// The single-document layout before volumes: dropped when a shelf is first built.
const OLD_KEYS: [&str; 3] = [
    "automerge-document",
    "automerge-increments",
    "automerge-row",
];
/// What a shelf built anew drops of the sync state: every kept document (of any earlier
/// layout), and what was last sent to each known peer (heads of those documents).
const CACHE_PREFIXES: [&str; 4] = ["doc:", "doc+:", "peer-counts:", "peer-volume-heads:"];

/// A ledger's sync documents: the index, the volumes loaded so far, the log's count of events
/// per volume and the last log row the volumes hold.
pub struct Shelf {
    /// The campaign's keys.
    pub ring: Keyring,
    /// The names its documents are filed under.
    pub names: Names,
    /// The index document.
    pub index: Kept,
    /// The log's events per volume (up to `mark`).
    pub counts: Counts,
    /// The last log row the volumes hold.
    pub mark: i64,
    /// Which events are sealed for the GM ([`crate::sealing`]), as the record stands.
    pub sealing: Sealing,
    /// The last row of the entries sealed for the GM held here that the counts count.
    sealed_mark: i64,
    /// Events whose sealing changed since the documents were kept (a reveal recorded while
    /// no sync ran), to be put again at the next catch-up.
    again: Vec<leechbook_core::ids::EventId>,
    volumes: BTreeMap<VolumeId, Kept>,
    dirty: bool,
}

impl Shelf {
    /// The shelf as the store keeps it (empty, and marked at row 0, when none is kept).
    pub fn open(store: &Store, ring: Keyring) -> Result<Shelf, SyncError> {
        let counts = store
            .sync_state(COUNTS_KEY)?
            .and_then(|b| counts_from_bytes(&b));
        let mark = store
            .sync_state(MARK_KEY)?
            .and_then(|b| <[u8; 8]>::try_from(b.as_slice()).ok())
            .map(i64::from_le_bytes);
        let current = store.sync_state(LAYOUT_KEY)?.as_deref() == Some(&[LAYOUT][..]);
        let (counts, mark) = match (counts, mark) {
            (Some(c), Some(m)) if current => (c, m),
            _ => (Counts::new(), 0),
        };
        let sealed_mark = match mark {
            0 => 0,
            _ => store
                .sync_state(SEALED_MARK_KEY)?
                .and_then(|b| <[u8; 8]>::try_from(b.as_slice()).ok())
                .map_or(0, i64::from_le_bytes),
        };
        // A kept index that no Leechbook device writes (junk a hub's operator squatted in,
        // kept by an earlier version) is dropped and built anew: the index is a cache of the
        // log's counts, heads and rotations, which every sync and export publishes again.
        let index = if mark == 0 {
            Kept::new()
        } else {
            load_kept(store, INDEX)?
                .filter(|k| crate::bound::admit(&k.doc).is_ok())
                .unwrap_or_default()
        };
        // The sealing as the record stands, against the one the kept documents were put
        // under: what changed meanwhile is put again.
        let sealing = Sealing::of(store)?;
        let again = match store.sync_state(SEALING_KEY)? {
            Some(kept) if mark > 0 && kept != sealing.summary() => {
                Sealing::of_summary(store, &kept)?
                    .map(|old| old.changed(&sealing))
                    .unwrap_or_default()
            }
            _ => Vec::new(),
        };
        Ok(Shelf {
            names: Names::of(&ring),
            ring,
            index,
            counts,
            mark,
            sealing,
            sealed_mark,
            again,
            volumes: BTreeMap::new(),
            dirty: false,
        })
    }

    /// A volume, if it is loaded.
    pub fn loaded(&self, v: VolumeId) -> Option<&Kept> {
        self.volumes.get(&v)
    }

    /// A volume, loaded from the store (or new) when it is not loaded yet.
    pub fn volume(&mut self, store: &Store, v: VolumeId) -> Result<&mut Kept, SyncError> {
        if !self.volumes.contains_key(&v) {
            let k = if self.mark == 0 {
                None
            } else {
                load_kept(store, &v.name())?
            };
            self.volumes.insert(v, k.unwrap_or_default());
        }
        Ok(self.volumes.get_mut(&v).expect("just loaded"))
    }

    /// A loaded volume as bytes a sync engine loads: what the store keeps of it, and the
    /// changes since appended (no whole save of the document, which costs a compression).
    pub fn engine_bytes(&mut self, store: &Store, v: VolumeId) -> Result<KeptBytes, SyncError> {
        let kept = self.volume(store, v)?;
        let fresh = kept.doc.save_after(&kept.heads);
        match kept_bytes(store, &v.name())? {
            Some((whole, mut appended)) if !kept.heads.is_empty() => {
                appended.extend_from_slice(&fresh);
                Ok((whole, appended))
            }
            _ => Ok((whole_save(&kept.doc), Vec::new())),
        }
    }

    /// Lets a loaded volume's document go while keeping what is known of how it is kept (its
    /// kept heads and sizes): the engine holds a copy, which comes back by
    /// [`Shelf::set_volume`]. One copy fewer of each volume in memory during a sync.
    pub fn release(&mut self, v: VolumeId) {
        if let Some(k) = self.volumes.get_mut(&v) {
            k.doc = Automerge::new();
        }
    }

    /// Sets a loaded volume's document (one a hub or file brought whole).
    pub fn set_volume(&mut self, v: VolumeId, doc: Automerge) {
        match self.volumes.get_mut(&v) {
            Some(k) => k.doc = doc,
            None => {
                self.volumes.insert(v, Kept::received(doc));
            }
        }
    }

    /// Every volume the store keeps (for a full export, and `verify`).
    pub fn all_volumes(&self, store: &Store) -> Result<Vec<VolumeId>, SyncError> {
        let mut out: BTreeSet<VolumeId> = store
            .sync_state_keys("doc:")?
            .iter()
            .filter_map(|k| VolumeId::parse(k.strip_prefix("doc:")?))
            .collect();
        out.extend(self.volumes.keys().copied());
        out.extend(self.counts.keys().copied());
        Ok(out.into_iter().collect())
    }

    /// Puts the events the log gained since the mark into their volumes (one change per
    /// volume and page) and counts them; a page at a time, keeping and closing full volumes
    /// as it goes when there are many. Returns the events it read.
    pub fn catch_up(&mut self, store: &mut Store) -> Result<usize, SyncError> {
        let last = store.last_row()?;
        if self.mark == 0 && last > 0 {
            // A shelf built anew: whatever an earlier layout kept goes (a cache).
            let mut old: Vec<String> = OLD_KEYS.iter().map(|k| k.to_string()).collect();
            for prefix in CACHE_PREFIXES {
                old.extend(store.sync_state_keys(prefix)?);
            }
            let old: Vec<&str> = old.iter().map(String::as_str).collect();
            store.drop_sync_state(&old)?;
        }
        let mut read = 0;
        // What changed its sealing since the documents were kept goes in again first.
        if !self.again.is_empty() {
            let again = self.judge(store, &[])?;
            self.put_again(store, &again)?;
        }
        while self.mark < last {
            let upto = (self.mark + PAGE).min(last);
            let events = store.events_in_rows(self.mark, upto)?;
            read += events.len();
            let again = self.judge(store, &events)?;
            self.count(store, &events)?;
            self.with_sealing(|shelf, sealing| {
                for (v, events) in by_volume(events) {
                    let (ring, names) = (shelf.ring.clone(), shelf.names.clone());
                    let doc = &mut shelf.volume(store, v)?.doc;
                    put_events(doc, &events, &ring, &names, sealing)?;
                }
                Ok(())
            })?;
            self.put_again(store, &again)?;
            self.mark = upto;
            self.dirty = true;
            if upto < last {
                // A long catch-up (a shelf built from a big log): keep what is done and let
                // the full volumes go, so memory holds only the open ones.
                self.keep(store)?;
                let full: Vec<VolumeId> = self
                    .volumes
                    .keys()
                    .filter(|v| self.counts.get(v).is_some_and(|n| *n >= VOLUME))
                    .copied()
                    .collect();
                for v in full {
                    self.volumes.remove(&v);
                }
            }
        }
        self.count_sealed(store)?;
        Ok(read)
    }

    /// Puts back into volume `v` the log's events it lacks: a peer or a hub deleted them,
    /// rolled the volume back or put something over them (`tampered`), and the log is the
    /// truth, so what a device holds it always offers again. A volume with as many entries as
    /// the log has events of it, which no merge just tampered with, is sound and costs a
    /// count; otherwise the log's ids of the volume (one index read) are looked up in it (and
    /// after tampering, each entry opened), and only a short one reads its events from the
    /// log. Returns how many it put back.
    pub fn restore(
        &mut self,
        store: &Store,
        v: VolumeId,
        tampered: bool,
    ) -> Result<usize, SyncError> {
        let held = self.counts.get(&v).copied().unwrap_or(0);
        if held == 0 {
            return Ok(0);
        }
        let first = u64::from(v.number) * VOLUME + 1;
        let last = first + VOLUME - 1;
        let (ring, names) = (self.ring.clone(), self.names.clone());
        let doc = &self.volume(store, v)?.doc;
        let entries = doc
            .keys(ROOT)
            .filter(|k| !crate::entry::is_rotation(k))
            .count() as u64;
        if entries >= held && !tampered {
            return Ok(0);
        }
        let ids = store.ids_numbered(v.device, first, last)?;
        let stubs = store.sealed_numbered(v.device, first, last)?;
        let stubs: Vec<&leechbook_store::Sealed> = stubs
            .iter()
            .filter(|s| {
                let key = names.entry(s.id, s.seq);
                doc.get(ROOT, key.as_str()).ok().flatten().is_none()
                    || (tampered
                        && !matches!(
                            crate::entry::entry_at(doc, &ring, &names, &key),
                            Err(crate::entry::Undecoded::ForGm(_)) | Ok(_)
                        ))
            })
            .collect();
        let put = if stubs.is_empty() {
            0
        } else {
            put_stubs(
                &mut self.volumes.get_mut(&v).expect("loaded").doc,
                &stubs,
                &ring,
                &names,
            )?
        };
        let doc = &self.volume(store, v)?.doc;
        let wrong = |id: leechbook_core::ids::EventId, seq: u64| {
            let key = names.entry(id, seq);
            doc.get(ROOT, key.as_str()).ok().flatten().is_none()
                || (tampered
                    && crate::entry::entry_at(doc, &ring, &names, &key).map(|e| e.id) != Ok(id))
        };
        if !ids.iter().any(|(seq, id)| wrong(*id, *seq)) {
            return Ok(put);
        }
        let events = store.events_numbered(v.device, first, last)?;
        let lacking: Vec<&Envelope> = events.iter().filter(|e| wrong(e.id, e.seq)).collect();
        let put_back = self.with_sealing(|shelf, sealing| {
            put_over(
                &mut shelf.volume(store, v)?.doc,
                &lacking,
                &ring,
                &names,
                sealing,
            )
        })?;
        Ok(put + put_back)
    }

    /// Counts events the log gained without reading them (their volumes already hold them:
    /// they came from those volumes) and moves the mark to `last`.
    pub fn counted(
        &mut self,
        store: &Store,
        events: &[Envelope],
        last: i64,
    ) -> Result<(), SyncError> {
        self.count(store, events)?;
        self.count_sealed(store)?;
        self.mark = last;
        self.dirty = true;
        Ok(())
    }

    /// Puts this ledger's counts and rotations into the index (one change, when anything is
    /// new).
    pub fn publish(&mut self, store: &Store) -> Result<bool, SyncError> {
        publish(
            &mut self.index.doc,
            &self.counts,
            &crypt::rotations_of(store)?,
            &self.names,
        )
    }

    /// Keeps every changed document, the counts and then the mark, in one transaction.
    pub fn keep(&mut self, store: &mut Store) -> Result<(), SyncError> {
        let mut items = Vec::new();
        for (v, k) in self.volumes.iter_mut() {
            if k.changed() {
                keep_items(store, &v.name(), k, &mut items)?;
            }
        }
        // (Never an index that is not a Leechbook device's, whole: see `bound::admit`.)
        if self.index.changed() && crate::bound::admit(&self.index.doc).is_ok() {
            keep_items(store, INDEX, &mut self.index, &mut items)?;
        }
        if items.is_empty() && !self.dirty {
            return Ok(());
        }
        items.push((COUNTS_KEY.to_string(), counts_to_bytes(&self.counts)));
        items.push((LAYOUT_KEY.to_string(), vec![LAYOUT]));
        items.push((
            SEALED_MARK_KEY.to_string(),
            self.sealed_mark.to_le_bytes().to_vec(),
        ));
        items.push((SEALING_KEY.to_string(), self.sealing.summary()));
        items.push((MARK_KEY.to_string(), self.mark.to_le_bytes().to_vec()));
        store.put_sync_states(&items)?;
        self.dirty = false;
        Ok(())
    }
}
