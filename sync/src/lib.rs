//! Sync: the one place that knows automerge. A campaign's events are mirrored in an automerge
//! document (its root map, from event id to the encoded envelope, each event once: the root
//! is the one object every device's document shares, where a nested map made independently
//! on two devices would be two objects in conflict, one of them hidden), so that merging
//! is commutative, associative and idempotent; the local SQLite log stays the source of truth
//! for the fold. The document is persisted in the store's sync state (a cache: rebuilt from
//! the log if it is lost) so that an export to a known peer carries only the changes since the
//! last export to that peer. For files, a peer is assumed to hold what was last exported to
//! it; if it never imported that file, its import of the next one is refused (the changes
//! build on ones it lacks) and a full export catches it up.
//!
//! Transports sit behind [`Transport`]; the file transport is here. An import is refused
//! whole when the data does not load, belongs to another campaign, holds an event that does
//! not decode, or holds a new event that [`verify`] does not accept (unrostered device, bad
//! signature).

#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod crypt;
pub mod net;

pub use crypt::{Keyring, Rotation};

use automerge::{
    transaction::Transactable, AutoCommit, ChangeHash, ReadDoc, ScalarValue, Value, ROOT,
};
use leechbook_core::ids::{DeviceId, EventId};
use leechbook_core::Envelope;
use leechbook_store::codec::{decode_envelope, encode_envelope};
use leechbook_store::{ReadLog, Store, StoreError};
use std::path::Path;

/// What went wrong in a sync.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    /// The sync data does not load as an automerge document or changes.
    #[error("the sync data is not a Leechbook sync file ({0})")]
    NotSync(String),
    /// An event in it does not decode.
    #[error("the sync data holds an event that does not decode: {0}")]
    BadEvent(String),
    /// An event of another campaign.
    #[error("the sync data belongs to another campaign")]
    ForeignCampaign,
    /// The store said no.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// An event whose signature does not check out, or whose device is not on the roster.
    #[error("the sync data holds {0}")]
    Unsigned(String),
    /// Changes that build on changes this ledger does not hold.
    #[error("the sync data builds on changes this ledger does not hold (an earlier sync file was never imported here): it needs a full export")]
    MissingChanges,
    /// The network transport failed (no hub there, the hub went away, a timeout).
    #[error("network sync: {0}")]
    Network(String),
    /// Reading or writing a sync file.
    #[error("sync file: {0}")]
    Io(#[from] std::io::Error),
    /// A join code or join file that does not serve this ledger.
    #[error("{0}")]
    Key(String),
    /// This device holds no key to the campaign.
    #[error("this device holds no key to the campaign's sync data: ask the GM for a join code (`leechbook sync invite` on a GM's device) and run `leechbook sync key CODE`")]
    NoKey,
    /// An entry that does not open under the campaign's keys (refused whole from a file).
    #[error("the sync data holds {0}")]
    Sealed(String),
}

/// Why a document entry gives no envelope.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Undecoded {
    /// Sealed under an epoch this device does not hold: not for this device to judge (the
    /// entry stays in the document for the devices that can read it).
    NoKey(u32),
    /// It does not open under the key of its epoch, or is in clear: garbage, or this
    /// device's key is wrong. Refused, but never dropped from the document: a device with a
    /// wrong key must not delete a campaign's events from every hub.
    Unopened(String),
    /// Opened, but not an event of this campaign filed under its own id.
    Bad(String),
}

impl std::fmt::Display for Undecoded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Undecoded::NoKey(e) => write!(f, "{}", crypt::Unopened::NoKey(*e)),
            Undecoded::Unopened(why) | Undecoded::Bad(why) => write!(f, "{why}"),
        }
    }
}

/// A document entry: its key, and the envelope it decodes to or why it does not.
pub type Entry = (String, Result<Envelope, Undecoded>);

/// Whether a root key files a key rotation rather than an event.
pub(crate) fn is_rotation(key: &str) -> bool {
    key.starts_with(crypt::ROTATION_PREFIX)
}

/// Opens and decodes the value under `key`: an envelope sealed under the campaign's key and
/// filed under its own id.
fn entry(ring: &Keyring, key: &str, value: Option<&Value<'_>>) -> Result<Envelope, Undecoded> {
    let bad = |why: String| Err(Undecoded::Bad(why));
    match value {
        Some(Value::Scalar(s)) => match s.as_ref() {
            ScalarValue::Bytes(b) => match ring.open(key, b) {
                Ok(plain) => match decode_envelope(&plain) {
                    Ok(env) if env.id.to_string() == key => Ok(env),
                    Ok(_) => bad("filed under another id".to_string()),
                    Err(e) => bad(e.to_string()),
                },
                Err(crypt::Unopened::NoKey(epoch)) => Err(Undecoded::NoKey(epoch)),
                Err(why) => Err(Undecoded::Unopened(why.to_string())),
            },
            _ => bad("not bytes".to_string()),
        },
        _ => bad("not an event".to_string()),
    }
}

/// The root-map entries a diff puts (the events a merge brought), and the key rotations it
/// puts (their bytes).
pub(crate) fn entries_of(ring: &Keyring, patches: Vec<automerge::Patch>) -> Vec<Entry> {
    patches
        .into_iter()
        .filter(|p| p.obj == ROOT)
        .filter_map(|p| match p.action {
            automerge::PatchAction::PutMap { key, .. } if is_rotation(&key) => None,
            automerge::PatchAction::PutMap { key, value, .. } => {
                let decoded = entry(ring, &key, Some(&value.0));
                Some((key, decoded))
            }
            _ => None,
        })
        .collect()
}

/// The key rotations a document holds (their bytes, unchecked).
pub(crate) fn rotations_in(doc: &impl ReadDoc) -> Vec<Vec<u8>> {
    doc.keys(ROOT)
        .filter(|k| is_rotation(k))
        .filter_map(|k| match doc.get(ROOT, k.as_str()).ok().flatten() {
            Some((Value::Scalar(s), _)) => match s.as_ref() {
                ScalarValue::Bytes(b) => Some(b.clone()),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// Puts each rotation the document lacks under `keys/EPOCH`.
pub(crate) fn put_rotations(
    doc: &mut impl Transactable,
    rotations: &[Rotation],
) -> Result<(), SyncError> {
    for r in rotations {
        let key = r.filed_under();
        let held = doc
            .get(ROOT, key.as_str())
            .map_err(|e| SyncError::NotSync(e.to_string()))?;
        if held.is_none() {
            doc.put(ROOT, key.as_str(), ScalarValue::Bytes(r.to_bytes()))
                .map_err(|e| SyncError::NotSync(e.to_string()))?;
        }
    }
    Ok(())
}

/// The automerge mirror of a campaign's log.
pub struct Mirror {
    doc: AutoCommit,
    /// The campaign's keys: what seals the events put in and opens the events read out.
    ring: Keyring,
    /// The heads of the document as the store keeps it (what the next save adds to).
    saved: Vec<ChangeHash>,
    /// The sizes of what the store keeps: the whole document and the changes appended to it.
    kept: (usize, usize),
}

impl Mirror {
    /// An empty mirror of a campaign whose keys are `ring`.
    pub fn new(ring: Keyring) -> Mirror {
        Mirror {
            doc: AutoCommit::new(),
            ring,
            saved: Vec::new(),
            kept: (0, 0),
        }
    }

    /// Whether the document holds every change of `heads`.
    pub fn holds(&mut self, heads: &[ChangeHash]) -> bool {
        heads
            .iter()
            .all(|h| self.doc.get_change_by_hash(h).is_some())
    }

    /// Loads a mirror saved with [`Mirror::save`].
    pub fn load(bytes: &[u8], ring: Keyring) -> Result<Mirror, SyncError> {
        let mut doc = AutoCommit::load(bytes).map_err(|e| SyncError::NotSync(e.to_string()))?;
        let saved = doc.get_heads();
        Ok(Mirror {
            doc,
            ring,
            saved,
            kept: (bytes.len(), 0),
        })
    }

    /// The whole document.
    pub fn save(&mut self) -> Vec<u8> {
        self.doc.save()
    }

    /// The document's heads (what it has seen).
    pub fn heads(&mut self) -> Vec<ChangeHash> {
        self.doc.get_heads()
    }

    /// The changes since `heads` (what a peer at those heads lacks).
    pub fn changes_since(&mut self, heads: &[ChangeHash]) -> Vec<u8> {
        self.doc.save_after(heads)
    }

    /// The head changes themselves: what a peer that holds these heads already has. An
    /// export with nothing new sends them, so that no sync file is ever empty (an empty file
    /// is refused like a truncated one).
    pub fn head_changes(&mut self) -> Vec<u8> {
        let heads = self.doc.get_heads();
        heads
            .iter()
            .filter_map(|h| self.doc.get_change_by_hash(h))
            .flat_map(|c| c.raw_bytes().to_vec())
            .collect()
    }

    /// Adds envelopes not yet in the document.
    pub fn add(&mut self, envelopes: &[Envelope]) -> Result<usize, SyncError> {
        put_missing(&mut self.doc, envelopes, &self.ring)
    }

    /// The raw value filed under `key` (a sealed envelope), for tests and audits of what a
    /// document shows to one who holds no key.
    pub fn raw(&self, key: &str) -> Option<Vec<u8>> {
        match self.doc.get(ROOT, key).ok().flatten() {
            Some((Value::Scalar(s), _)) => match s.as_ref() {
                ScalarValue::Bytes(b) => Some(b.clone()),
                _ => None,
            },
            _ => None,
        }
    }

    /// Every root key (event ids, and `keys/EPOCH` for rotations).
    pub fn keys(&self) -> Vec<String> {
        self.doc.keys(ROOT).collect()
    }

    /// Every envelope the document holds, decoded (all must decode).
    pub fn envelopes(&mut self) -> Result<Vec<Envelope>, SyncError> {
        self.decoded()?
            .into_iter()
            .map(|(k, d)| d.map_err(|e| SyncError::BadEvent(format!("{k}: {e}"))))
            .collect()
    }

    /// The entries that changed between two sets of heads (what a merge brought), each
    /// decoded or with why it does not decode. Only those entries are read: an import decodes
    /// what is new to it, not the whole document.
    pub fn entries_between(&mut self, before: &[ChangeHash], after: &[ChangeHash]) -> Vec<Entry> {
        entries_of(&self.ring, self.doc.diff(before, after))
    }

    fn decoded(&mut self) -> Result<Vec<Entry>, SyncError> {
        let keys: Vec<String> = self.doc.keys(ROOT).filter(|k| !is_rotation(k)).collect();
        let mut out = Vec::with_capacity(keys.len());
        for k in keys {
            let value = self
                .doc
                .get(ROOT, k.as_str())
                .map_err(|e| SyncError::NotSync(e.to_string()))?;
            let decoded = entry(&self.ring, &k, value.as_ref().map(|(v, _)| v));
            out.push((k, decoded));
        }
        Ok(out)
    }

    /// Merges another mirror's changes (bytes from [`Mirror::save`] or
    /// [`Mirror::changes_since`]) into a copy, checks that they parse whole and that their
    /// base is here, and only then into this one. What the entries hold is the importer's to
    /// check ([`Mirror::unheld`]).
    pub fn merge_bytes(&mut self, bytes: &[u8]) -> Result<(), SyncError> {
        // An empty file is no sync file (automerge would load it as an empty document).
        if bytes.is_empty() {
            return Err(SyncError::NotSync("the file is empty".into()));
        }
        // Strictly parsed first: automerge's incremental load keeps whatever prefix of a
        // damaged file parses, and a sync file is taken whole or not at all. Changes whose
        // base is missing parse; whether this document holds that base is checked below.
        match automerge::Automerge::load_with_options(
            bytes,
            automerge::LoadOptions::new().on_partial_load(automerge::OnPartialLoad::Error),
        ) {
            Ok(_) | Err(automerge::AutomergeError::MissingDeps) => {}
            Err(e) => return Err(SyncError::NotSync(e.to_string())),
        }
        let mut trial = self.doc.fork();
        trial
            .load_incremental(bytes)
            .map_err(|e| SyncError::NotSync(e.to_string()))?;
        if !trial.get_missing_deps(&[]).is_empty() {
            return Err(SyncError::MissingChanges);
        }
        self.doc = trial;
        Ok(())
    }
}

/// Puts each envelope the document lacks under its id in the root map.
pub(crate) fn put_missing(
    doc: &mut impl Transactable,
    envelopes: &[Envelope],
    ring: &Keyring,
) -> Result<usize, SyncError> {
    let mut added = 0;
    for e in envelopes {
        let key = e.id.to_string();
        let held = doc
            .get(ROOT, key.as_str())
            .map_err(|e| SyncError::NotSync(e.to_string()))?;
        if held.is_none() {
            let sealed = ring.seal(&key, &encode_envelope(e));
            doc.put(ROOT, key.as_str(), ScalarValue::Bytes(sealed))
                .map_err(|e| SyncError::NotSync(e.to_string()))?;
            added += 1;
        }
    }
    Ok(added)
}

/// Deletes root keys from a document: entries refused for good, so that they are never
/// offered on. The deletion is a change of its own that travels with the document, so a hub
/// and every device that merges it drop the entry too. A refused entry is one the roster
/// here does not vouch for; a genuine one (a device whose roster event had not arrived) is
/// not put again by its author, whose log keeps it: the GM carries it by a full export.
pub(crate) fn drop_keys(doc: &mut impl Transactable, keys: &[String]) -> Result<(), SyncError> {
    for k in keys {
        let held = doc
            .get(ROOT, k.as_str())
            .map_err(|e| SyncError::NotSync(e.to_string()))?;
        if held.is_some() {
            doc.delete(ROOT, k.as_str())
                .map_err(|e| SyncError::NotSync(e.to_string()))?;
        }
    }
    Ok(())
}

/// The root keys of `doc` whose events the log lacks and that an import refuses (they do
/// not decode, belong to another campaign, or the roster does not vouch for them): a
/// document kept before refused entries were dropped still holds them. Genuine entries the
/// log lacks (another ledger's event under a number this log holds, a deleted row) stay, for
/// `verify` to report. Looked for only when the document has more entries than the log has
/// events, so a sound ledger pays nothing.
pub(crate) fn refused_unheld(
    doc: &impl ReadDoc,
    store: &Store,
    ring: &Keyring,
) -> Result<Vec<String>, SyncError> {
    let rotations = doc.keys(ROOT).filter(|k| is_rotation(k)).count();
    if (doc.length(ROOT) - rotations) as u64 <= store.count()? {
        return Ok(Vec::new());
    }
    let roster = leechbook_core::roster::Roster::from_log(&store.roster_events()?);
    let mut out = Vec::new();
    for key in doc.keys(ROOT).filter(|k| !is_rotation(k)) {
        if let Ok(u) = key.parse::<uuid::Uuid>() {
            if store.holds(EventId(u))? {
                continue;
            }
        }
        let value = doc
            .get(ROOT, key.as_str())
            .map_err(|e| SyncError::NotSync(e.to_string()))?;
        let refused = match entry(ring, &key, value.as_ref().map(|(v, _)| v)) {
            // Not this device's to judge: it stays for those who hold the key.
            Err(Undecoded::NoKey(_) | Undecoded::Unopened(_)) => false,
            Err(Undecoded::Bad(_)) => true,
            Ok(env) => {
                env.campaign != store.campaign()
                    || (roster.in_use() && signature_problem(&roster, &env).is_some())
            }
        };
        if refused {
            out.push(key);
        }
    }
    Ok(out)
}

/// A way to carry changes between devices.
pub trait Transport {
    /// Sends the changes this side has.
    fn send(&mut self, bytes: &[u8]) -> Result<(), SyncError>;
    /// Receives the changes the other side sent, if any.
    fn receive(&mut self) -> Result<Option<Vec<u8>>, SyncError>;
}

/// The file transport: for devices that never meet online.
pub struct FileTransport<'a> {
    /// The sync file.
    pub path: &'a Path,
}

impl Transport for FileTransport<'_> {
    fn send(&mut self, bytes: &[u8]) -> Result<(), SyncError> {
        // Written whole to a neighbour and renamed: a reader never sees half a file.
        let tmp = self.path.with_extension("partial");
        std::fs::write(&tmp, bytes)?;
        std::fs::rename(&tmp, self.path)?;
        Ok(())
    }

    fn receive(&mut self) -> Result<Option<Vec<u8>>, SyncError> {
        if !self.path.exists() {
            return Ok(None);
        }
        Ok(Some(std::fs::read(self.path)?))
    }
}

/// The store keeps the document as a whole save plus the changes appended since (so that a
/// sync writes what it added, not the whole document), and the last row of the log the
/// document holds (so that a sync adds only the events recorded since, without reading the
/// log). The mark is written last: a mark behind the document only means events are offered
/// to it again, which adds nothing.
pub(crate) const DOC_KEY: &str = "automerge-document";
pub(crate) const INCREMENTS_KEY: &str = "automerge-increments";
pub(crate) const MARK_KEY: &str = "automerge-row";
const REFUSED_KEY: &str = "sync-refused";

fn peer_key(peer: DeviceId) -> String {
    format!("peer-heads:{peer}")
}

/// The document as the store keeps it.
pub(crate) struct Kept {
    /// The whole document as last saved (empty when there is none).
    pub base: Vec<u8>,
    /// The changes appended since.
    pub increments: Vec<u8>,
    /// The last row of the log it holds.
    pub mark: i64,
}

pub(crate) fn kept(store: &Store) -> Result<Kept, SyncError> {
    let base = store.sync_state(DOC_KEY)?.unwrap_or_default();
    if base.is_empty() {
        return Ok(Kept {
            base,
            increments: Vec::new(),
            mark: 0,
        });
    }
    let increments = store.sync_state(INCREMENTS_KEY)?.unwrap_or_default();
    let mark = store
        .sync_state(MARK_KEY)?
        .and_then(|b| <[u8; 8]>::try_from(b.as_slice()).ok())
        .map_or(0, i64::from_le_bytes);
    Ok(Kept {
        base,
        increments,
        mark,
    })
}

/// Keeps what the document gained since it was last kept: appended, or saved whole when the
/// appended changes have grown to half the whole. Then the mark.
/// Whether the document is next kept whole (none kept yet, or the appended changes have grown
/// to half the whole).
pub(crate) fn wants_whole((base, increments): (usize, usize)) -> bool {
    base == 0 || increments > base / 2
}

/// `save(true)` gives the whole document, `save(false)` the changes since it was last kept.
pub(crate) fn keep(
    store: &mut Store,
    kept: (usize, usize),
    save: impl FnOnce(bool) -> Vec<u8>,
    mark: i64,
) -> Result<(usize, usize), SyncError> {
    let (base, increments) = kept;
    let now = if wants_whole(kept) {
        let doc = save(true);
        store.put_sync_state(DOC_KEY, &doc)?;
        store.put_sync_state(INCREMENTS_KEY, &[])?;
        (doc.len(), 0)
    } else {
        let chunk = save(false);
        if !chunk.is_empty() {
            let mut all = store.sync_state(INCREMENTS_KEY)?.unwrap_or_default();
            all.extend_from_slice(&chunk);
            store.put_sync_state(INCREMENTS_KEY, &all)?;
        }
        (base, increments + chunk.len())
    };
    store.put_sync_state(MARK_KEY, &mark.to_le_bytes())?;
    Ok(now)
}

impl Mirror {
    /// Keeps the document in the store, holding the log up to row `mark`.
    fn keep_in(&mut self, store: &mut Store, mark: i64) -> Result<(), SyncError> {
        // Pending operations become a change first: `save_after` leaves them out.
        self.doc.commit();
        let (doc, saved) = (&mut self.doc, &self.saved);
        self.kept = keep(
            store,
            self.kept,
            |whole| {
                if whole {
                    doc.save()
                } else {
                    doc.save_after(saved)
                }
            },
            mark,
        )?;
        self.saved = self.doc.get_heads();
        Ok(())
    }
}

/// The store's kept mirror, brought up to date with its log (rebuilt from the log when it is
/// missing or does not load: it is a cache), and the last row of the log it holds.
pub fn mirror_of(store: &Store, ring: Keyring) -> Result<(Mirror, i64), SyncError> {
    let k = kept(store)?;
    let loaded = (!k.base.is_empty())
        .then(|| {
            let mut m = Mirror::load(&k.base, ring.clone()).ok()?;
            m.doc.load_incremental(&k.increments).ok()?;
            m.kept.1 = k.increments.len();
            m.saved = m.doc.get_heads();
            Some(m)
        })
        .flatten();
    let (mut m, mark) = match loaded {
        Some(m) => (m, k.mark),
        None => (Mirror::new(ring), 0),
    };
    let (new, mark) = store.events_after_row(mark)?;
    m.add(&new)?;
    put_rotations(&mut m.doc, &crypt::rotations_of(store)?)?;
    // A document kept before refused entries were dropped drops them now.
    let refused = refused_unheld(&m.doc, store, &m.ring)?;
    drop_keys(&mut m.doc, &refused)?;
    Ok((m, mark))
}

/// What a merge brought, opened: first the key rotations it carries that wrap a key for this
/// device (vouched for by a GM device of the log's roster, or of the roster the readable
/// incoming events make), then the entries, each decoded or with why not. `diff` lists the
/// entries under a ring. Returns them and the rotations taken in (for the caller to keep).
pub(crate) fn open_entries(
    store: &Store,
    ring: &mut Keyring,
    rotations: &[Vec<u8>],
    mut diff: impl FnMut(&Keyring) -> Vec<Entry>,
) -> Result<(Vec<Entry>, Vec<Rotation>), SyncError> {
    let held = store.roster_events()?;
    let mut gained = crypt::adopt(
        store,
        ring,
        rotations,
        &leechbook_core::roster::Roster::from_log(&held),
    );
    let mut entries = diff(ring);
    let unread = entries
        .iter()
        .any(|(_, d)| matches!(d, Err(Undecoded::NoKey(_))));
    if unread && rotations.len() + 1 > ring.epochs() {
        // A rotation by a GM device this log has not rostered yet: the incoming roster
        // events that check out may vouch for it.
        let incoming: Vec<Envelope> = entries
            .iter()
            .filter_map(|(_, d)| d.as_ref().ok())
            .filter(|e| matches!(e.event, leechbook_core::Event::Roster(_)))
            .cloned()
            .collect();
        let mut roster_log = held.clone();
        roster_log.extend(check_signatures(&held, incoming).accepted);
        roster_log.sort_by_key(|e| e.order_key());
        let roster = leechbook_core::roster::Roster::from_log(&roster_log);
        let more = crypt::adopt(store, ring, rotations, &roster);
        if !more.is_empty() {
            gained.extend(more);
            entries = diff(ring);
        }
    }
    Ok((entries, gained))
}

/// What an export sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exported {
    /// The events the ledger holds.
    pub events: usize,
    /// The bytes sent.
    pub bytes: usize,
    /// Whether only the changes the peer lacks were sent (else the whole document).
    pub incremental: bool,
}

/// Exports through a transport: to a known peer, the changes since the last export to it;
/// otherwise the whole document. Records what the peer now holds.
pub fn export(
    store: &mut Store,
    t: &mut dyn Transport,
    to: Option<DeviceId>,
) -> Result<Exported, SyncError> {
    let before = crypt::keyring_of(store)?;
    let ring = crypt::ring_for_sync(store)?;
    let (mut m, mark) = mirror_of(store, ring.clone())?;
    let known = match to {
        Some(peer) => store.sync_state(&peer_key(peer))?.map(|b| {
            b.chunks_exact(32)
                .filter_map(|c| ChangeHash::try_from(c).ok())
                .collect::<Vec<_>>()
        }),
        None => None,
    };
    let (bytes, incremental) = match known {
        Some(heads) if m.holds(&heads) => match m.changes_since(&heads) {
            delta if delta.is_empty() => match m.head_changes() {
                h if h.is_empty() => (m.save(), false),
                h => (h, true),
            },
            delta => (delta, true),
        },
        _ => (m.save(), false),
    };
    t.send(&bytes)?;
    crypt::keep_gains(store, before.as_ref(), &ring, &[])?;
    m.keep_in(store, mark)?;
    if let Some(peer) = to {
        let heads: Vec<u8> = m.heads().iter().flat_map(|h| h.0).collect();
        store.put_sync_state(&peer_key(peer), &heads)?;
    }
    Ok(Exported {
        events: store.count()? as usize,
        bytes: bytes.len(),
        incremental,
    })
}

/// A join file for a new device (`sync invite FILE`): the campaign's keys, then the whole
/// document. Whoever holds it reads the campaign; the GM hands it over like a key.
pub fn invite(store: &mut Store) -> Result<Vec<u8>, SyncError> {
    let before = crypt::keyring_of(store)?;
    let ring = crypt::ring_for_sync(store)?;
    let (mut m, mark) = mirror_of(store, ring.clone())?;
    let bytes = m.save();
    crypt::keep_gains(store, before.as_ref(), &ring, &[])?;
    m.keep_in(store, mark)?;
    Ok(ring.invitation(&bytes))
}

/// The join code for the network (`sync invite` without a file): the campaign's keys.
pub fn join_code(store: &mut Store) -> Result<String, SyncError> {
    let before = crypt::keyring_of(store)?;
    let ring = crypt::ring_for_sync(store)?;
    crypt::keep_gains(store, before.as_ref(), &ring, &[])?;
    Ok(ring.code())
}

/// Takes a join code's keys into this ledger (`sync key CODE`: a device of a campaign begun
/// before encryption, or one the GM gives the keys again). Returns the epochs gained.
pub fn adopt_code(store: &mut Store, code: &str) -> Result<usize, SyncError> {
    let given = Keyring::from_code(code)?;
    if given.campaign() != store.campaign() {
        return Err(SyncError::Key(
            "the join code is for another campaign".into(),
        ));
    }
    let before = crypt::keyring_of(store)?;
    let mut ring = before.clone().unwrap_or_else(|| given.clone());
    let gained = if before.is_some() {
        ring.merge(&given)?
    } else {
        ring.epochs()
    };
    crypt::keep_gains(store, before.as_ref(), &ring, &[])?;
    Ok(gained)
}

/// Rotates the campaign's key after a revocation (a GM device's): a new epoch, wrapped for
/// every device still on the roster and signed by this one, kept with the ring and offered in
/// every document from now on. What is sealed after it is unreadable to the revoked device.
/// Returns the new epoch.
pub fn rotate_key(store: &mut Store) -> Result<u32, SyncError> {
    let before = crypt::keyring_of(store)?;
    let mut ring = crypt::ring_for_sync(store)?;
    let roster = leechbook_core::roster::Roster::from_log(&store.roster_events()?);
    let readers: Vec<(DeviceId, Vec<u8>)> = roster
        .entries
        .iter()
        .filter(|(_, e)| e.revoked.is_none())
        .map(|(d, e)| (*d, e.key.clone()))
        .collect();
    let r = Rotation::issue(store, &mut ring, &readers);
    crypt::keep_gains(store, before.as_ref(), &ring, std::slice::from_ref(&r))?;
    Ok(r.epoch)
}

/// How an import treats an event it cannot accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acceptance {
    /// Refuse the whole import (a sync file: taken whole or not at all).
    Whole,
    /// Take every event that checks out and list the others (the network: a hub is open by
    /// design, and one forged event on it must not stop every device from syncing forever).
    EachEvent,
}

/// What an import took in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Imported {
    /// The events new to this ledger that it took in.
    pub added: usize,
    /// The events it refused, each with why. Under [`Acceptance::Whole`] only identity
    /// clashes (two ledgers numbering different events alike) are listed here; any other
    /// refusal is the import's error.
    pub refused: Vec<String>,
}

/// Imports what a transport carries into the store: all or nothing, but for identity clashes,
/// which are refused one by one and listed. Returns what was taken in and refused.
pub fn import(store: &mut Store, t: &mut dyn Transport) -> Result<Imported, SyncError> {
    let Some(bytes) = t.receive()? else {
        return Ok(Imported::default());
    };
    import_changes(store, &bytes, Acceptance::Whole)
}

/// Imports sync data (as a transport delivered it) into the store: all or nothing. This is
/// the import path the fuzz target drives; any bytes at all must give `Ok` or an error, with
/// the store untouched on error.
pub fn import_bytes(store: &mut Store, bytes: &[u8]) -> Result<usize, SyncError> {
    import_changes(store, bytes, Acceptance::Whole).map(|i| i.added)
}

/// Imports sync data into the store, refusing what does not check out as `mode` says. Only
/// the entries the data changed are decoded, and only the log's roster events are read.
pub fn import_changes(
    store: &mut Store,
    bytes: &[u8],
    mode: Acceptance,
) -> Result<Imported, SyncError> {
    let held_ring = crypt::keyring_of(store)?;
    // A join file carries the campaign's keys before its document.
    let (mut ring, bytes) = match Keyring::split_invitation(bytes) {
        Some((given, rest)) => {
            if given.campaign() != store.campaign() {
                return Err(SyncError::ForeignCampaign);
            }
            let mut ring = held_ring.clone().unwrap_or_else(|| given.clone());
            ring.merge(&given)?;
            (ring, rest)
        }
        None => (crypt::ring_for_sync(store)?, bytes),
    };
    let (mut m, _) = mirror_of(store, ring.clone())?;
    let before = m.heads();
    m.merge_bytes(bytes)?;
    let after = m.heads();
    if after == before {
        // Nothing the document lacks: nothing to take in and nothing to keep, so an import
        // that adds nothing writes nothing (what mirror_of added in memory is a cache), but
        // the keys a join file brought.
        if held_ring.is_some() {
            crypt::keep_gains(store, held_ring.as_ref(), &ring, &[])?;
        }
        return Ok(Imported::default());
    }
    let rotations = rotations_in(&m.doc);
    let (entries, gained) = {
        let doc = &mut m.doc;
        open_entries(store, &mut ring, &rotations, |r| {
            entries_of(r, doc.diff(&before, &after))
        })?
    };
    m.ring = ring.clone();
    let (imported, dropped) = take_in(store, entries, mode)?;
    crypt::keep_gains(store, held_ring.as_ref(), &ring, &gained)?;
    // What was refused for good never enters the document kept and offered on.
    drop_keys(&mut m.doc, &dropped)?;
    // The events are in; the document is a cache, so failing to keep it loses nothing (the
    // next sync rebuilds what is missing from the log).
    let mark = store.last_row()?;
    let _ = m.keep_in(store, mark);
    Ok(imported)
}

/// Takes the entries a merge brought into the store: those the log lacks, checked (decoded,
/// of this campaign, signed by a rostered device) and refused as `mode` says. Under
/// [`Acceptance::EachEvent`] the refusals are kept and listed again on every sync. Returns
/// also the keys of the refused entries, which the caller drops from the document.
pub(crate) fn take_in(
    store: &mut Store,
    entries: Vec<Entry>,
    mode: Acceptance,
) -> Result<(Imported, Vec<String>), SyncError> {
    let mut refused = Vec::new();
    let mut dropped = Vec::new();
    let mut incoming = Vec::new();
    for (key, decoded) in entries {
        if let Ok(u) = key.parse::<uuid::Uuid>() {
            if store.holds(EventId(u))? {
                continue;
            }
        }
        let why = match decoded {
            Ok(env) if env.campaign == store.campaign() => {
                incoming.push(env);
                continue;
            }
            Ok(_) => SyncError::ForeignCampaign,
            Err(Undecoded::NoKey(epoch)) => {
                let why = SyncError::Sealed(format!(
                    "event {key}, sealed under a campaign key this device does not hold (epoch {epoch}): the GM revoked this device, or it has not taken in a key rotation yet; nothing was taken in"
                ));
                match mode {
                    Acceptance::Whole => return Err(why),
                    // Listed, and left in the document for the devices that can read it.
                    Acceptance::EachEvent => {
                        refused.push(why.to_string());
                        continue;
                    }
                }
            }
            Err(Undecoded::Unopened(e)) => {
                let why = SyncError::Sealed(format!("event {key}: {e}"));
                match mode {
                    Acceptance::Whole => return Err(why),
                    // Listed, and left in the document: the key may be what is wrong.
                    Acceptance::EachEvent => {
                        refused.push(why.to_string());
                        continue;
                    }
                }
            }
            Err(Undecoded::Bad(e)) => SyncError::BadEvent(format!("{key}: {e}")),
        };
        match mode {
            Acceptance::Whole => return Err(why),
            Acceptance::EachEvent => {
                refused.push(why.to_string());
                dropped.push(key);
            }
        }
    }
    incoming.sort_by_key(|e| e.order_key());
    let checked = check_signatures(&store.roster_events()?, incoming);
    if let (Acceptance::Whole, Some((_, first))) = (mode, checked.refused.first()) {
        return Err(SyncError::Unsigned(first.clone()));
    }
    for (id, r) in checked.refused {
        refused.push(format!("the sync data holds {r}"));
        dropped.push(id.to_string());
    }
    // A device numbers its events 1, 2, 3, ...: another event under a number already taken
    // means two ledgers share the device's identity (a copied ledger file). Both events are
    // genuinely signed, so the clash is refused event by event in either mode (refusing a
    // file whole would block the copy's files for good, even after it takes a new identity)
    // and left in the document, where `verify` reports it; dropping it would delete the other
    // copy's genuine event from every document. The device's later events in the same import
    // are refused too: past the fork nothing tells the two copies' events apart (a per-device
    // chain of event hashes would; see ARCHITECTURE.md).
    let mut accepted = Vec::with_capacity(checked.accepted.len());
    let mut claimed: std::collections::HashMap<(DeviceId, u64), EventId> =
        std::collections::HashMap::new();
    let mut forked: std::collections::HashMap<DeviceId, u64> = std::collections::HashMap::new();
    for env in checked.accepted {
        if let Some(&at) = forked.get(&env.device).filter(|&&at| env.seq > at) {
            refused.push(format!(
                "the sync data holds event {} as device {}'s #{}, after that device's events parted at #{at}: two ledgers share its identity (a copied ledger file)",
                env.id.short(),
                env.device.short(),
                env.seq
            ));
            continue;
        }
        let held = match claimed.get(&(env.device, env.seq)) {
            Some(id) => Some(*id),
            None => store.event_at(env.device, env.seq)?,
        };
        if held.is_some_and(|h| h != env.id) {
            forked.entry(env.device).or_insert(env.seq);
        }
        match held {
            Some(held) if held != env.id => refused.push(format!(
                "the sync data holds event {} as device {}'s #{}, but this ledger holds event {} as that number: two ledgers share device {}'s identity (a copied ledger file). On the copy, run `leechbook device reset --yes` and have the GM roster its new identity (`leechbook device add DEVICE KEY`)",
                env.id.short(),
                env.device.short(),
                env.seq,
                held.short(),
                env.device.short()
            )),
            _ => {
                claimed.insert((env.device, env.seq), env.id);
                accepted.push(env);
            }
        }
    }
    let added = if accepted.is_empty() {
        0
    } else {
        store.import(&accepted)?
    };
    if mode == Acceptance::EachEvent {
        let mut all: Vec<String> = store
            .sync_state(REFUSED_KEY)?
            .map(|b| {
                String::from_utf8_lossy(&b)
                    .lines()
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let known = all.len();
        for r in &refused {
            if !all.contains(r) {
                all.push(r.clone());
            }
        }
        if all.len() != known {
            store.put_sync_state(REFUSED_KEY, all.join("\n").as_bytes())?;
        }
        refused = all;
    }
    Ok((Imported { added, refused }, dropped))
}

/// Why the roster (in use) does not vouch for `e`: its device is not on it, or the signature
/// is not over its bytes. The one judgement an import and `verify` both make.
pub fn signature_problem(roster: &leechbook_core::roster::Roster, e: &Envelope) -> Option<String> {
    match roster.key(e.device) {
        None => Some(format!(
            "event {} from device {}, which is not on the roster (the GM adds it with `leechbook device add DEVICE KEY`)",
            e.id.short(),
            e.device.short()
        )),
        Some(key) if !leechbook_store::codec::verify(e, key) => Some(format!(
            "event {} whose signature does not match its bytes (tampered or forged)",
            e.id.short()
        )),
        Some(_) => None,
    }
}

/// Every event of a log that the log's own roster does not vouch for, with why (`verify`).
/// A ledger with no roster (made before rosters) checks its own device's events against
/// its own key, `own`.
pub fn signature_problems(
    events: &[Envelope],
    own: (DeviceId, [u8; 32]),
) -> Vec<(EventId, String)> {
    let roster = leechbook_core::roster::Roster::from_log(events);
    events
        .iter()
        .filter_map(|e| {
            let why = if roster.in_use() {
                signature_problem(&roster, e)
            } else if e.device == own.0 && !leechbook_store::codec::verify(e, &own.1) {
                Some(format!(
                    "event {} whose signature does not match its bytes (tampered or forged)",
                    e.id.short()
                ))
            } else {
                None
            };
            why.map(|w| (e.id, w))
        })
        .collect()
}

/// What the kept sync document holds that the log does not hold, or holds otherwise, one
/// line per event (`verify`). The document is a cache of the log: it never holds an event
/// the log lacks, except what remains of a deleted row, or another ledger's event under a
/// device number this log holds (a copied ledger file).
pub fn document_problems(store: &Store, log: &[Envelope]) -> Result<Vec<String>, SyncError> {
    use std::collections::HashMap;
    let k = kept(store)?;
    let Some(ring) = crypt::keyring_of(store)? else {
        return Ok(Vec::new());
    };
    if k.base.is_empty() {
        return Ok(Vec::new());
    }
    let loaded = Mirror::load(&k.base, ring).and_then(|mut m| {
        m.doc
            .load_incremental(&k.increments)
            .map_err(|e| SyncError::NotSync(e.to_string()))?;
        Ok(m)
    });
    let mut m = match loaded {
        Ok(m) => m,
        Err(e) => {
            return Ok(vec![format!(
                "the sync document does not load ({e}); the next sync rebuilds it"
            )])
        }
    };
    let by_id: HashMap<EventId, &Envelope> = log.iter().map(|e| (e.id, e)).collect();
    let by_seq: HashMap<(DeviceId, u64), EventId> =
        log.iter().map(|e| ((e.device, e.seq), e.id)).collect();
    let roster = leechbook_core::roster::Roster::from_log(log);
    let mut out = Vec::new();
    for (key, decoded) in m.decoded()? {
        let env = match decoded {
            Ok(env) => env,
            // Sealed under a key this device was not given: not this device's to check.
            Err(Undecoded::NoKey(_)) => continue,
            Err(e) => {
                out.push(format!(
                    "the sync document's entry {key} does not decode ({e})"
                ));
                continue;
            }
        };
        match by_id.get(&env.id) {
            Some(held) if encode_envelope(held) != encode_envelope(&env) => out.push(format!(
                "event {}: the log's copy differs from the copy it was synced as (edited in the ledger file?)",
                env.id
            )),
            Some(_) => {}
            None => out.push(match by_seq.get(&(env.device, env.seq)) {
                Some(held) => format!(
                    "event {} (device {} #{}) is in the sync document, but the log holds event {held} as that number: two ledgers share device {}'s identity (a copied ledger file); on the copy, run `leechbook device reset --yes` and have the GM roster its new identity",
                    env.id,
                    env.device.short(),
                    env.seq,
                    env.device.short()
                ),
                None if env.campaign != store.campaign()
                    || (roster.in_use() && signature_problem(&roster, &env).is_some()) =>
                {
                    format!(
                        "event {} is in the sync document but was refused (another campaign's, tampered, forged or unrostered): the next sync drops it",
                        env.id
                    )
                }
                None => format!(
                    "event {} (device {} #{}) is in the sync document but not in the log (a deleted row?)",
                    env.id,
                    env.device.short(),
                    env.seq
                ),
            }),
        }
    }
    Ok(out)
}

/// Incoming events sorted into those a ledger may take and those it must refuse (with why).
struct Checked {
    accepted: Vec<Envelope>,
    refused: Vec<(EventId, String)>,
}

/// Checks each new event: it must be signed by its device's key as the roster of the merged
/// log holds it (forged or tampered events fail here). `held` is the log's roster events
/// (all the roster is worked out from). The roster is worked out again without the refused
/// events until nothing more is refused, so that a forged roster event cannot vouch for a
/// forged device. Signatures are checked on two threads.
fn check_signatures(held: &[Envelope], mut candidates: Vec<Envelope>) -> Checked {
    let mut refused = Vec::new();
    loop {
        let mut merged: Vec<Envelope> = held.iter().chain(&candidates).cloned().collect();
        merged.sort_by_key(|e| e.order_key());
        let roster = leechbook_core::roster::Roster::from_log(&merged);
        if !roster.in_use() {
            break;
        }
        let before = refused.len();
        let why = |e: &Envelope| signature_problem(&roster, e);
        let half = candidates.len() / 2;
        let verdicts: Vec<Option<String>> = std::thread::scope(|s| {
            let (a, b) = candidates.split_at(half);
            let first = s.spawn(|| a.iter().map(why).collect::<Vec<_>>());
            let mut second: Vec<_> = b.iter().map(why).collect();
            let mut all = first.join().unwrap_or_else(|_| vec![None; half]);
            all.append(&mut second);
            all
        });
        let mut verdicts = verdicts.into_iter();
        candidates.retain(|e| match verdicts.next().flatten() {
            Some(r) => {
                refused.push((e.id, r));
                false
            }
            None => true,
        });
        if refused.len() == before {
            break;
        }
    }
    Checked {
        accepted: candidates,
        refused,
    }
}
