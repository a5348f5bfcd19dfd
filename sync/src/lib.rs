//! Sync: the one place that knows automerge. A campaign's events travel in automerge
//! documents: each device's events in volumes of 4,096 numbers, and a small index of counts
//! per volume (see [`layout`]); each event once, under its id, sealed under the campaign's
//! key ([`crypt`]), so that merging is commutative, associative and idempotent and a hub
//! reads nothing. The local SQLite log stays the source of truth for the fold; the documents
//! are a cache in the store's sync state, rebuilt from the log when lost.
//!
//! Transports sit behind [`Transport`]; the file transport is here, the network in [`net`].
//! A file to a known peer carries the volumes that gained events since the last file to it,
//! as the changes since what it was sent; if it never imported that file, its import of the
//! next one is refused (the changes build on ones it lacks) and a full export catches it up.
//! An import is refused whole when the data does not load, belongs to another campaign, holds
//! an entry that does not open or decode, or holds a new event that the roster does not
//! vouch for (unrostered device, bad signature).

#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod bound;
pub mod crypt;
pub mod heads;
pub mod layout;
pub mod net;
pub mod order;

pub use crypt::{Keyring, Rotation};

use automerge::{transaction::Transactable, Automerge, ReadDoc, ScalarValue, Value, ROOT};
use layout::{Counts, Shelf, VolumeId};
use leechbook_core::ids::{DeviceId, EventId};
use leechbook_core::Envelope;
use leechbook_store::codec::decode_envelope;
use leechbook_store::{ReadLog, Store, StoreError};
use std::collections::BTreeMap;
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
    /// The hub holds nothing of the campaign under this device's keys (at this generation of
    /// document ids).
    #[error("network sync: {0}")]
    Absent(String),
    /// A hub holds or sends a campaign document no Leechbook device writes (its operator, or
    /// a peer on it, squatted it): a one-shot sync moves to a fresh generation of ids.
    #[error("network sync: {0}")]
    Poisoned(String),
    /// Reading or writing a sync file.
    #[error("sync file: {0}")]
    Io(#[from] std::io::Error),
    /// A join code or join file that does not serve this ledger.
    #[error("{0}")]
    Key(String),
    /// This device holds no key to the campaign.
    #[error("this device holds no key to the campaign's sync data: ask the GM for a join code")]
    NoKey,
    /// Text given as a join code that is not one (the prefix a code starts with).
    #[error("that is not a join code")]
    NotAJoinCode(&'static str),
    /// A join code whose check digits do not match the rest.
    #[error("the join code has a typo: its check digits do not match the rest")]
    CodeTypo,
    /// The campaign keys a ledger keeps do not read.
    #[error("the ledger's campaign keys do not read (damaged?)")]
    KeysUnreadable,
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

/// Opens and decodes a value under `key`: an envelope sealed under the campaign's key and
/// filed under its own entry key ([`layout::Names::entry`]).
fn entry(
    ring: &Keyring,
    names: &layout::Names,
    key: &str,
    value: Option<&Value<'_>>,
) -> Result<Envelope, Undecoded> {
    let bad = |why: String| Err(Undecoded::Bad(why));
    match value {
        Some(Value::Scalar(s)) => match s.as_ref() {
            ScalarValue::Bytes(b) => match ring.open(key, b) {
                Ok(plain) => match decode_envelope(&plain) {
                    Ok(env) if names.entry_of(&env) == key => Ok(env),
                    Ok(_) => bad("filed under another event's key".to_string()),
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

/// The entry under `key` as a document holds it. Where values conflict (a peer put
/// something of its own under the key of a genuine event, concurrently, hoping to win the
/// conflict and hide it), the genuine one is read: the first that opens and decodes, else
/// the winner's reason.
pub(crate) fn entry_at(
    doc: &impl ReadDoc,
    ring: &Keyring,
    names: &layout::Names,
    key: &str,
) -> Result<Envelope, Undecoded> {
    let all = doc.get_all(ROOT, key).unwrap_or_default();
    let mut first = None;
    for (value, _) in &all {
        match entry(ring, names, key, Some(value)) {
            Ok(env) => return Ok(env),
            Err(why) => {
                first.get_or_insert(why);
            }
        }
    }
    Err(first.unwrap_or_else(|| Undecoded::Bad("not an event".to_string())))
}

/// The root-map entries a diff of `doc` puts (the events a merge brought), each read as
/// [`entry_at`] reads it; key rotations are not among them.
pub(crate) fn entries_of(
    doc: &impl ReadDoc,
    ring: &Keyring,
    names: &layout::Names,
    patches: Vec<automerge::Patch>,
) -> Vec<Entry> {
    let keys: std::collections::BTreeSet<String> = patches
        .into_iter()
        .filter(|p| p.obj == ROOT)
        .filter_map(|p| match p.action {
            automerge::PatchAction::PutMap { key, .. } if !is_rotation(&key) => Some(key),
            _ => None,
        })
        .collect();
    keys.into_iter()
        .map(|key| {
            let decoded = entry_at(doc, ring, names, &key);
            (key, decoded)
        })
        .collect()
}

/// Whether the changes of `doc` since `from` delete or overwrite a root key: a peer's
/// deletion or rollback of entries, or a value put over a genuine entry (honest devices only
/// ever put an entry's key once, and relay the same change), which the log puts back.
pub(crate) fn deletes(doc: &Automerge, from: &[automerge::ChangeHash]) -> bool {
    doc.diff(from, &doc.get_heads()).iter().any(|p| {
        p.obj == ROOT
            && match &p.action {
                automerge::PatchAction::DeleteMap { .. } => true,
                automerge::PatchAction::PutMap { key, conflict, .. } => {
                    *conflict
                        || doc
                            .get_at(ROOT, key.as_str(), from)
                            .ok()
                            .flatten()
                            .is_some()
                }
                _ => false,
            }
    })
}

/// The bytes filed under a root key (a sealed envelope, a rotation), if bytes are there.
pub(crate) fn bytes_at(doc: &impl ReadDoc, key: &str) -> Option<Vec<u8>> {
    match doc.get(ROOT, key).ok().flatten() {
        Some((Value::Scalar(s), _)) => match s.as_ref() {
            ScalarValue::Bytes(b) => Some(b.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// The key rotations a document holds (their bytes, unchecked).
pub(crate) fn rotations_in(doc: &impl ReadDoc) -> Vec<Vec<u8>> {
    doc.keys(ROOT)
        .filter(|k| is_rotation(k))
        .filter_map(|k| bytes_at(doc, &k))
        .collect()
}

/// Puts each rotation the document lacks under `keys/EPOCH/DIGEST` (see
/// [`Rotation::filed_under`]): what else lies under `keys/` never stops it.
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

/// The first bytes of a sync file (a join file puts the campaign's keys before them): the
/// layout of names ([`layout::LAYOUT`]), sealed counts and padded entries.
const SYNC_FILE: &[u8] = b"LEECHBOOK-SYNC-3\n";
/// The first bytes of a sync file of the layout before names (refused, with the way on).
const OLD_SYNC_FILE: &[u8] = b"LEECHBOOK-SYNC-2\n";
/// The largest document a sync file may carry: a full volume of 4,096 events, padded, is
/// well under it. What is larger is no Leechbook document, and is refused before it loads.
pub const MAX_DOCUMENT: usize = 64 * 1024 * 1024;
/// The name a sync file's counts are sealed under.
const FILE_COUNTS: &str = "counts";

/// What a sync file carries: the sender's index document, the volumes it sends (each whole:
/// a volume is bounded, and a whole one never builds on changes the receiver lacks), and the
/// sender's count of events per volume (so a receiver can tell a volume the file leaves out
/// because it holds it from one it lacks because an earlier file never arrived).
pub struct Mirror {
    ring: Keyring,
    names: layout::Names,
    /// The index document.
    pub index: Automerge,
    /// The volumes carried whole.
    pub volumes: BTreeMap<VolumeId, Automerge>,
    /// The volumes carried as the changes a known peer lacks (they build on changes it was
    /// sent before).
    pub changes: BTreeMap<VolumeId, Vec<u8>>,
    /// The sender's events per volume.
    pub counts: Counts,
}

impl Mirror {
    /// The campaign's keys the mirror seals under.
    pub fn ring(&self) -> &Keyring {
        &self.ring
    }

    /// An empty mirror of a campaign whose keys are `ring`.
    pub fn new(ring: Keyring) -> Mirror {
        Mirror {
            names: layout::Names::of(&ring),
            ring,
            index: Automerge::new(),
            volumes: BTreeMap::new(),
            changes: BTreeMap::new(),
            counts: Counts::new(),
        }
    }

    /// Puts envelopes into their volumes (sealed), counts them and lists the counts in the
    /// index. Returns how many were new to their volumes.
    pub fn add(&mut self, envelopes: &[Envelope]) -> Result<usize, SyncError> {
        let mut added = 0;
        for (v, events) in layout::by_volume(envelopes.iter().cloned()) {
            let doc = self.volumes.entry(v).or_default();
            let n = layout::put_events(doc, &events, &self.ring, &self.names)?;
            *self.counts.entry(v).or_default() += n as u64;
            added += n;
        }
        layout::publish(&mut self.index, &self.counts, &[], &self.names)?;
        Ok(added)
    }

    /// The sync file's bytes.
    pub fn save(&mut self) -> Vec<u8> {
        let mut out = SYNC_FILE.to_vec();
        let counts = self.names.seal_counts(FILE_COUNTS, &self.counts);
        out.extend_from_slice(&(counts.len() as u32).to_le_bytes());
        out.extend_from_slice(&counts);
        let names = &self.names;
        let docs: Vec<(String, Vec<u8>)> = std::iter::once((String::new(), self.index.save()))
            .chain(
                self.volumes
                    .iter()
                    .map(|(v, d)| (names.volume(*v), d.save())),
            )
            .chain(
                self.changes
                    .iter()
                    .map(|(v, c)| (names.volume(*v), c.clone())),
            )
            .collect();
        out.extend_from_slice(&(docs.len() as u32).to_le_bytes());
        for (name, bytes) in docs {
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            out.extend_from_slice(&bytes);
        }
        out
    }

    /// Reads a sync file strictly: every part must be there and every document must load
    /// whole (automerge's incremental load keeps whatever prefix of a damaged document
    /// parses, and a sync file is taken whole or not at all).
    pub fn load(bytes: &[u8], ring: Keyring) -> Result<Mirror, SyncError> {
        // An empty file is no sync file.
        if bytes.is_empty() {
            return Err(SyncError::NotSync("the file is empty".into()));
        }
        let bad = |why: &str| SyncError::NotSync(why.to_string());
        if bytes.starts_with(OLD_SYNC_FILE) {
            return Err(bad(
                "it is an older Leechbook's sync file, whose names show device and event ids: update Leechbook on the device that wrote it and export again",
            ));
        }
        let rest = bytes
            .strip_prefix(SYNC_FILE)
            .ok_or_else(|| bad("it does not start as one"))?;
        let mut at = 0usize;
        let mut take = |n: usize| -> Result<&[u8], SyncError> {
            let s = rest.get(at..at + n).ok_or_else(|| bad("it is cut short"))?;
            at += n;
            Ok(s)
        };
        let n = u32::from_le_bytes(take(4)?.try_into().map_err(|_| bad("cut short"))?) as usize;
        let mut m = Mirror::new(ring);
        let counts = m.names.open_counts(FILE_COUNTS, take(n)?).ok_or(SyncError::Key(
            "the sync file does not open with this campaign's key (another campaign's file, or a wrong key)".into(),
        ))?;
        let docs = u32::from_le_bytes(take(4)?.try_into().map_err(|_| bad("cut short"))?);
        // Each volume carried is named among the sender's counts: a name that is not is
        // no volume of this campaign's.
        // One meter for the whole file: many small documents buy no more than one large.
        let mut meter = bound::Meter::default();
        let named: BTreeMap<String, VolumeId> =
            counts.keys().map(|v| (m.names.volume(*v), *v)).collect();
        m.counts = counts;
        for i in 0..docs {
            let len = u16::from_le_bytes(take(2)?.try_into().map_err(|_| bad("cut short"))?);
            let name = std::str::from_utf8(take(usize::from(len))?)
                .map_err(|_| bad("a document's name does not read"))?
                .to_string();
            let len = u32::from_le_bytes(take(4)?.try_into().map_err(|_| bad("cut short"))?);
            if len as usize > MAX_DOCUMENT {
                return Err(bad(&format!(
                    "it carries a document of {len} bytes, past the {MAX_DOCUMENT} a Leechbook document can reach"
                )));
            }
            let bytes = take(len as usize)?;
            // Bounded before automerge loads a byte of it: a few kilobytes must not cost
            // gigabytes.
            meter
                .check(bytes)
                .map_err(|why| bad(&format!("a document in it is no Leechbook document: {why}")))?;
            // Changes whose base is missing parse (a delta for a known peer); whether the
            // receiver holds that base is checked when it merges them.
            let doc = match automerge::Automerge::load_with_options(
                bytes,
                automerge::LoadOptions::new().on_partial_load(automerge::OnPartialLoad::Error),
            ) {
                Ok(doc) => Some(doc),
                Err(automerge::AutomergeError::MissingDeps) if i > 0 => None,
                Err(e) => return Err(SyncError::NotSync(e.to_string())),
            };
            match (i, name.is_empty(), doc) {
                (0, true, Some(doc)) => m.index = doc,
                (0, _, _) => return Err(bad("it does not start with the campaign's index")),
                (_, _, doc) => {
                    let v = *named
                        .get(&name)
                        .ok_or_else(|| bad("it carries a volume its counts do not name"))?;
                    if m.volumes.contains_key(&v) || m.changes.contains_key(&v) {
                        return Err(bad("it carries a volume twice"));
                    }
                    match doc {
                        Some(doc) => {
                            m.volumes.insert(v, doc);
                        }
                        None => {
                            m.changes.insert(v, bytes.to_vec());
                        }
                    }
                }
            }
        }
        if at != rest.len() {
            return Err(bad("it runs on past its last document"));
        }
        Ok(m)
    }

    /// Every envelope the volumes hold, opened and decoded (all must).
    pub fn envelopes(&self) -> Result<Vec<Envelope>, SyncError> {
        let mut out = Vec::new();
        for doc in self.volumes.values() {
            for key in doc.keys(ROOT).filter(|k| !is_rotation(k)) {
                let env = entry_at(doc, &self.ring, &self.names, &key)
                    .map_err(|e| SyncError::BadEvent(format!("{key}: {e}")))?;
                out.push(env);
            }
        }
        Ok(out)
    }

    /// The raw value an event is filed as in any volume (a sealed envelope), for tests and
    /// audits of what a file shows to one who holds no key.
    pub fn raw(&self, env: &Envelope) -> Option<Vec<u8>> {
        let key = self.names.entry_of(env);
        self.volumes.values().find_map(|doc| bytes_at(doc, &key))
    }
}

/// The root keys of a volume whose events the log lacks and that an import refuses (they do
/// not decode, belong to another campaign, or the roster does not vouch for them): a
/// document kept before refused entries were dropped still holds them. Genuine entries the
/// log lacks (another ledger's event under a number this log holds, a deleted row) stay, for
/// `verify` to report, and so do entries this device cannot open. Looked for only when the
/// volume has more entries than the log has events of it (`held`), so a sound ledger pays
/// nothing.
pub(crate) fn refused_unheld(
    doc: &impl ReadDoc,
    v: VolumeId,
    held: u64,
    store: &Store,
    ring: &Keyring,
) -> Result<Vec<String>, SyncError> {
    let unheld = unheld_entries(doc, v, held, store, ring)?;
    if unheld.is_empty() {
        return Ok(Vec::new());
    }
    let roster = leechbook_core::roster::Roster::from_log(&store.roster_events()?);
    Ok(unheld
        .into_iter()
        .filter(|(_, decoded)| match decoded {
            // Not this device's to judge: it stays for those who hold the key.
            Err(Undecoded::NoKey(_) | Undecoded::Unopened(_)) => false,
            Err(Undecoded::Bad(_)) => true,
            Ok(env) => {
                env.campaign != store.campaign()
                    || (roster.in_use() && signature_problem(&roster, env).is_some())
            }
        })
        .map(|(key, _)| key)
        .collect())
}

/// The entries of a volume whose events the log lacks, each opened and decoded or with why
/// not. None are looked for when the volume holds no more entries than the log has events
/// of it (`held`): a sound volume costs nothing.
fn unheld_entries(
    doc: &impl ReadDoc,
    v: VolumeId,
    held: u64,
    store: &Store,
    ring: &Keyring,
) -> Result<Vec<Entry>, SyncError> {
    if doc.length(ROOT) as u64 <= held {
        return Ok(Vec::new());
    }
    let names = layout::Names::of(ring);
    let held = layout::held_keys(store, &names, v)?;
    Ok(doc
        .keys(ROOT)
        .filter(|k| !is_rotation(k) && !held.contains(k))
        .map(|key| {
            let decoded = entry_at(doc, ring, &names, &key);
            (key, decoded)
        })
        .collect())
}

/// Drops from the volumes `which` (about to be offered) the entries kept before refused
/// entries were dropped (see [`refused_unheld`]).
pub(crate) fn drop_refused(
    shelf: &mut Shelf,
    store: &Store,
    which: &[VolumeId],
) -> Result<(), SyncError> {
    let ring = shelf.ring.clone();
    for &v in which {
        let held = shelf.counts.get(&v).copied().unwrap_or(0);
        let doc = &mut shelf.volume(store, v)?.doc;
        let keys = refused_unheld(doc, v, held, store, &ring)?;
        layout::drop_in(doc, &keys)?;
    }
    Ok(())
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

const REFUSED_KEY: &str = "sync-refused";

/// A value of the sync state kept as lines (what was refused, what was ignored).
pub(crate) fn state_lines(store: &Store, key: &str) -> Result<Vec<String>, SyncError> {
    Ok(store
        .sync_state(key)?
        .map(|b| {
            String::from_utf8_lossy(&b)
                .lines()
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default())
}

fn peer_key(peer: DeviceId) -> String {
    format!("peer-counts:{peer}")
}

fn peer_heads_key(peer: DeviceId) -> String {
    format!("peer-volume-heads:{peer}")
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

/// Entries sealed under an epoch that no rotation a GM device of the roster signed announces
/// are junk, not a key this device lacks: the epoch is read before an entry is authenticated,
/// so anyone can claim one. Told as entries that do not open (so, once this device's keys
/// are proven, listed once and ignored, never refusing a file or a join for good).
pub(crate) fn unannounced_epochs_as_junk(
    store: &Store,
    rotations: &[Vec<u8>],
    entries: &mut [Entry],
) -> Result<(), SyncError> {
    if !entries
        .iter()
        .any(|(_, d)| matches!(d, Err(Undecoded::NoKey(_))))
    {
        return Ok(());
    }
    let roster = leechbook_core::roster::Roster::from_log(&store.roster_events()?);
    let announced: std::collections::BTreeSet<u32> = rotations
        .iter()
        .filter_map(|b| Rotation::from_bytes(b))
        .filter(|r| r.campaign == store.campaign() && r.vouched(&roster))
        .map(|r| r.epoch)
        .collect();
    for (_, d) in entries.iter_mut() {
        if let Err(Undecoded::NoKey(epoch)) = d {
            if !announced.contains(epoch) {
                *d = Err(Undecoded::Unopened(format!(
                    "it claims campaign key {epoch}, which no rotation signed by a GM device announces"
                )));
            }
        }
    }
    Ok(())
}

/// What an export sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exported {
    /// The events the ledger holds.
    pub events: usize,
    /// The bytes sent.
    pub bytes: usize,
    /// Whether only the volumes the peer lacks were sent (else every volume).
    pub incremental: bool,
}

/// The shelf of `store` under `ring`, caught up with its log and with refused entries kept
/// before dropped, its counts and rotations in the index.
fn shelf_of(store: &mut Store, ring: Keyring) -> Result<Shelf, SyncError> {
    let mut shelf = Shelf::open(store, ring)?;
    shelf.catch_up(store)?;
    shelf.publish(store)?;
    let ring = shelf.ring.clone();
    relay_heads(store, &mut shelf.index.doc, &ring)?;
    Ok(shelf)
}

/// Every device's head as this ledger knows it (its own, signed now; those it kept; those
/// `index` lists, vouched for by the log's roster), kept, and put into `index` where it lists
/// a lower one or none. Returns what [`heads::gaps`] judges by.
pub(crate) fn relay_heads(
    store: &mut Store,
    index: &mut Automerge,
    ring: &Keyring,
) -> Result<heads::Known, SyncError> {
    let names = layout::Names::of(ring);
    let roster = leechbook_core::roster::Roster::from_log(&store.roster_events()?);
    let listed = heads::in_index(index, &names, store.campaign(), &roster);
    let known = heads::gather(store, &listed)?;
    heads::publish(index, &names, &listed, &known)?;
    let left_out = crypt::left_out_by(store, ring, &rotations_in(index), &roster).is_some();
    Ok(heads::Known {
        heads: known,
        roster,
        left_out,
    })
}

/// The sync file of a shelf: its index, its counts and the volumes `send` picks, each whole
/// or (where `peer` gives the heads a known peer was last sent and the volume holds them)
/// as the changes since; each read from the store one at a time and rid first of refused
/// entries kept from before they were dropped. Returns the file and the heads sent.
fn file_of(
    shelf: &mut Shelf,
    store: &Store,
    send: impl Fn(&VolumeId) -> bool,
    peer: &Heads,
) -> Result<(Vec<u8>, Heads), SyncError> {
    let mut m = Mirror::new(shelf.ring.clone());
    m.index = shelf.index.doc.clone();
    m.counts = shelf.counts.clone();
    let mut sent = peer.clone();
    for v in shelf.all_volumes(store)? {
        if !send(&v) {
            continue;
        }
        drop_refused(shelf, store, &[v])?;
        // Built from the log: what a peer deleted from the kept volume goes back in first.
        shelf.restore(store, v, false)?;
        let doc = &shelf.volume(store, v)?.doc;
        match peer.get(&v) {
            Some(h) if !h.is_empty() && h.iter().all(|h| doc.get_change_by_hash(h).is_some()) => {
                m.changes.insert(v, doc.save_after(h));
            }
            _ => {
                m.volumes.insert(v, doc.clone());
            }
        }
        sent.insert(v, doc.get_heads());
    }
    Ok((m.save(), sent))
}

/// Heads per volume (what a known peer was last sent).
type Heads = BTreeMap<VolumeId, Vec<automerge::ChangeHash>>;

fn heads_to_bytes(h: &Heads) -> Vec<u8> {
    let mut out = Vec::new();
    for (v, hs) in h {
        out.extend_from_slice(v.device.as_bytes());
        out.extend_from_slice(&v.number.to_le_bytes());
        out.extend_from_slice(&(hs.len() as u16).to_le_bytes());
        for x in hs {
            out.extend_from_slice(&x.0);
        }
    }
    out
}

fn heads_from_bytes(b: &[u8]) -> Heads {
    let mut out = Heads::new();
    let mut at = 0;
    while at + 22 <= b.len() {
        let Ok(device) = uuid::Uuid::from_slice(&b[at..at + 16]) else {
            break;
        };
        let number = u32::from_le_bytes([b[at + 16], b[at + 17], b[at + 18], b[at + 19]]);
        let n = usize::from(u16::from_le_bytes([b[at + 20], b[at + 21]]));
        at += 22;
        let hs: Vec<automerge::ChangeHash> = (0..n)
            .filter_map(|i| b.get(at + 32 * i..at + 32 * (i + 1)))
            .filter_map(|c| automerge::ChangeHash::try_from(c).ok())
            .collect();
        at += 32 * n;
        out.insert(
            VolumeId {
                device: DeviceId(device),
                number,
            },
            hs,
        );
    }
    out
}

/// Exports through a transport: to a known peer, the volumes that gained events since the
/// last export to it; otherwise every volume. Records what the peer now holds.
pub fn export(
    store: &mut Store,
    t: &mut dyn Transport,
    to: Option<DeviceId>,
) -> Result<Exported, SyncError> {
    let ring = crypt::ring_for_sync(store)?;
    let mut shelf = shelf_of(store, ring)?;
    let known = match to {
        Some(peer) => store
            .sync_state(&peer_key(peer))?
            .and_then(|b| layout::counts_from_bytes(&b)),
        None => None,
    };
    let peer_heads = match (to, &known) {
        (Some(peer), Some(_)) => store
            .sync_state(&peer_heads_key(peer))?
            .map(|b| heads_from_bytes(&b))
            .unwrap_or_default(),
        _ => Heads::new(),
    };
    let counts = shelf.counts.clone();
    let (bytes, sent) = file_of(
        &mut shelf,
        store,
        |v| match &known {
            Some(k) => counts.get(v).copied().unwrap_or(0) > k.get(v).copied().unwrap_or(0),
            None => true,
        },
        &peer_heads,
    )?;
    t.send(&bytes)?;
    shelf.keep(store)?;
    if let Some(peer) = to {
        store.put_sync_states(&[
            (peer_heads_key(peer), heads_to_bytes(&sent)),
            (peer_key(peer), layout::counts_to_bytes(&shelf.counts)),
        ])?;
    }
    Ok(Exported {
        events: store.count()? as usize,
        bytes: bytes.len(),
        incremental: known.is_some(),
    })
}

/// A join file for a new device (`sync invite FILE`): the campaign's keys, then every
/// volume. Whoever holds it reads the campaign; the GM hands it over like a key.
pub fn invite(store: &mut Store) -> Result<Vec<u8>, SyncError> {
    let ring = crypt::ring_for_sync(store)?;
    let mut shelf = shelf_of(store, ring.clone())?;
    let (bytes, _) = file_of(&mut shelf, store, |_| true, &Heads::new())?;
    shelf.keep(store)?;
    Ok(ring.invitation(&bytes))
}

/// The join code for the network (`sync invite` without a file): the campaign's keys.
pub fn join_code(store: &mut Store) -> Result<String, SyncError> {
    Ok(crypt::ring_for_sync(store)?.code())
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
    if before.is_none() {
        // A ledger that lost its keys: the code must open what it already holds.
        if let Some(crypt::Unopened::WrongKey) = first_held_entry(store, &given)? {
            return Err(SyncError::Key(
                "the join code does not open this ledger's sync data (a wrong code, or another GM's key)".into(),
            ));
        }
    }
    let mut ring = before.clone().unwrap_or_else(|| given.clone());
    let gained = if before.is_some() {
        ring.merge(&given)?
    } else {
        ring.epochs()
    };
    crypt::keep_gains(store, before.as_ref(), &ring, &[])?;
    Ok(gained)
}

/// Takes in what the kept volumes hold that the log lacks and that now opens: after this
/// device gained keys (`sync key`, a rotation that reached it late), the entries it could
/// not open before are in volumes whose later syncs start past them. Reads every volume
/// that holds more entries than the log has events of it; rare, and only on a key gained.
pub fn rescan(store: &mut Store) -> Result<Imported, SyncError> {
    let ring = crypt::keyring_of(store)?.ok_or(SyncError::NoKey)?;
    let mut shelf = Shelf::open(store, ring.clone())?;
    let mut entries = Vec::new();
    for v in shelf.all_volumes(store)? {
        let Some(kept) = layout::load_kept(store, &v.name())? else {
            continue;
        };
        let held = shelf.counts.get(&v).copied().unwrap_or(0);
        entries.extend(unheld_entries(&kept.doc, v, held, store, &ring)?);
    }
    if entries.is_empty() {
        return Ok(Imported::default());
    }
    let (imported, _) = take_in(store, entries, Acceptance::EachEvent)?;
    let _ = shelf.catch_up(store).and_then(|_| shelf.keep(store));
    Ok(imported)
}

/// How the first sealed event entry this ledger keeps opens under `ring` (`None`: it opens,
/// or there is none).
fn first_held_entry(store: &Store, ring: &Keyring) -> Result<Option<crypt::Unopened>, SyncError> {
    let shelf = Shelf::open(store, ring.clone())?;
    for v in shelf.all_volumes(store)? {
        let Some(kept) = layout::load_kept(store, &v.name())? else {
            continue;
        };
        for key in kept.doc.keys(ROOT).filter(|k| !is_rotation(k)) {
            if let Some(b) = bytes_at(&kept.doc, &key) {
                return Ok(ring.open(&key, &b).err());
            }
        }
    }
    Ok(None)
}

/// Rotates the campaign's key after a revocation (a GM device's): a new epoch, wrapped for
/// every device still on the roster and signed by this one, kept with the ring and offered in
/// every document from now on. What is sealed after it is unreadable to the revoked device.
/// Returns the new epoch.
/// `leaving` is the device being revoked (left out even before its revocation is recorded).
pub fn rotate_key(store: &mut Store, leaving: Option<DeviceId>) -> Result<u32, SyncError> {
    if !crypt::is_gm_device(store)? {
        return Err(SyncError::Key(
            "only a GM's device revokes a device and rotates the campaign key".into(),
        ));
    }
    let roster = leechbook_core::roster::Roster::from_log(&store.roster_events()?);
    let before = crypt::keyring_of(store)?;
    let mut ring = crypt::ring_for_sync(store)?;
    let readers: Vec<(DeviceId, Vec<u8>)> = roster
        .entries
        .iter()
        .filter(|(d, e)| e.revoked.is_none() && Some(**d) != leaving)
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
    /// What the other side withholds, one line each: a volume whose events the hub's index
    /// lists but the hub did not give (deleted, withheld, or a count raised there).
    pub gaps: Vec<String>,
    /// The events this ledger put back into documents that had lost them (a peer or a hub
    /// deleted them): the log is the truth, and what a device holds it offers again.
    pub restored: usize,
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

/// Imports a sync file (or a join file) into the store, refusing what does not check out as
/// `mode` says. Only the volumes the file carries are loaded, and only the entries its
/// volumes add are decoded.
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
    let file = Mirror::load(bytes, ring.clone())?;
    let mut shelf = Shelf::open(store, ring.clone())?;
    // The log's count per volume, without writing anything (the shelf's, and the rows
    // since its mark counted in the store).
    let mut held = shelf.counts.clone();
    for (device, number, n) in store.block_counts_after_row(shelf.mark, layout::VOLUME)? {
        *held
            .entry(VolumeId {
                device,
                number: number as u32,
            })
            .or_default() += n;
    }
    // A volume the sender holds more of than this ledger, left out of the file: an earlier
    // file to this device never arrived. (Unless this ledger's copy of the volume holds as
    // many entries: events it refused, a copied ledger's, stay in it.)
    for (v, n) in &file.counts {
        if file.volumes.contains_key(v)
            || file.changes.contains_key(v)
            || *n <= held.get(v).copied().unwrap_or(0)
        {
            continue;
        }
        if (shelf.volume(store, *v)?.doc.length(ROOT) as u64) < *n {
            return Err(SyncError::MissingChanges);
        }
    }
    let mut before = BTreeMap::new();
    let mut changed = false;
    for (v, mut doc) in file.volumes {
        let kept = shelf.volume(store, v)?;
        let heads = kept.doc.get_heads();
        kept.doc
            .merge(&mut doc)
            .map_err(|e| SyncError::NotSync(e.to_string()))?;
        changed |= kept.doc.get_heads() != heads;
        before.insert(v, heads);
    }
    for (v, changes) in &file.changes {
        let kept = shelf.volume(store, *v)?;
        let heads = kept.doc.get_heads();
        // Changes that build on changes this ledger lacks: an earlier file never arrived.
        let mut trial = kept.doc.clone();
        trial
            .load_incremental(changes)
            .map_err(|e| SyncError::NotSync(e.to_string()))?;
        if !trial.get_missing_deps(&[]).is_empty() {
            return Err(SyncError::MissingChanges);
        }
        kept.doc = trial;
        changed |= kept.doc.get_heads() != heads;
        before.insert(*v, heads);
    }
    let index_heads = shelf.index.doc.get_heads();
    let mut index = file.index;
    shelf
        .index
        .doc
        .merge(&mut index)
        .map_err(|e| SyncError::NotSync(e.to_string()))?;
    if !changed && shelf.index.doc.get_heads() == index_heads {
        // Nothing the documents lack: nothing to take in and nothing to keep, so an import
        // that adds nothing writes nothing (what the shelf caught up in memory is a cache),
        // but the keys a join file brought.
        crypt::keep_gains(store, held_ring.as_ref(), &ring, &[])?;
        return Ok(Imported::default());
    }
    let rotations = rotations_in(&shelf.index.doc);
    let (entries, gained) = open_entries(store, &mut ring, &rotations, |r| {
        let mut all = Vec::new();
        for (v, from) in &before {
            if let Some(kept) = shelf.loaded(*v) {
                let diff = kept.doc.diff(from, &kept.doc.get_heads());
                all.extend(entries_of(&kept.doc, r, &shelf.names, diff));
            }
        }
        all
    })?;
    // A file none of whose new entries opens, in volumes of which this log holds nothing, is
    // no file of this campaign's (another campaign's, or sealed under another key): refused
    // whole, as ever. Junk among this campaign's volumes is another matter (`take_in`).
    let familiar = before.keys().any(|v| held.get(v).copied().unwrap_or(0) > 0);
    if !familiar && !entries.iter().any(|(_, d)| d.is_ok()) {
        if let Some((key, Err(Undecoded::Unopened(e)))) = entries
            .iter()
            .find(|(_, d)| matches!(d, Err(Undecoded::Unopened(_))))
        {
            return Err(SyncError::Sealed(format!("event {key}: {e}")));
        }
    }
    let mut entries = entries;
    unannounced_epochs_as_junk(store, &rotations, &mut entries)?;
    let (mut imported, dropped) = take_in(store, entries, mode)?;
    crypt::keep_gains(store, held_ring.as_ref(), &ring, &gained)?;
    // What was refused for good never enters the documents kept and offered on.
    for v in before.keys() {
        layout::drop_in(&mut shelf.volume(store, *v)?.doc, &dropped)?;
    }
    // The events are in; the documents are a cache, so failing to keep them loses nothing
    // (the next sync rebuilds what is missing from the log).
    shelf.ring = ring;
    if shelf.catch_up(store).is_ok() {
        let ring = shelf.ring.clone();
        let known = relay_heads(store, &mut shelf.index.doc, &ring)?;
        imported.gaps = heads::gaps(
            store,
            &shelf.counts,
            before.keys().map(|v| v.device),
            &known,
        )?;
    }
    // A file that deleted entries from a volume this ledger holds deletes nothing here: the
    // log's events go back into the kept volume, and into what it offers on.
    for (v, from) in &before {
        let deleted = shelf.loaded(*v).is_some_and(|k| deletes(&k.doc, from));
        imported.restored += shelf.restore(store, *v, deleted).unwrap_or(0);
    }
    let _ = shelf.keep(store);
    if !gained.is_empty() {
        // Keys gained: what could not be opened before may open now.
        imported.added += rescan(store)?.added;
    }
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
    // Whether this device's keys are proven right: an entry of this very import opens, or
    // the ring was made here or has opened another device's entry before (`keys_proven`).
    // Then an entry that does not open under an epoch it holds is junk (the AEAD fails only
    // on bytes never sealed under the key), put by someone without the key: listed by the
    // first import that meets it, then ignored, and never a reason to refuse the rest. It is
    // left in the document all the same: were this device's key the wrong one after all,
    // dropping would delete a campaign's events from every hub. With a key not proven, the
    // key may be what is wrong, and such an entry is refused as before.
    let own = store.device();
    let opens_anothers = entries
        .iter()
        .any(|(_, d)| d.as_ref().is_ok_and(|e| e.device != own));
    if opens_anothers {
        crypt::prove_keys(store)?;
    }
    // Read only when an entry does not open: a sound sync reads neither the roster for the
    // proof nor the (up to 10,000) junk keys listed before.
    let unopened = entries
        .iter()
        .any(|(_, d)| matches!(d, Err(Undecoded::Unopened(_))));
    let proven = unopened && (entries.iter().any(|(_, d)| d.is_ok()) || crypt::keys_proven(store)?);
    let mut ignored = if unopened {
        crypt::ignored(store)?
    } else {
        std::collections::BTreeSet::new()
    };
    let known_ignored = ignored.len();
    let mut junk = Vec::new();
    // Each event's entry key, for the events refused after they decoded.
    let key_of: std::collections::HashMap<EventId, String> = entries
        .iter()
        .filter_map(|(k, d)| Some((d.as_ref().ok()?.id, k.clone())))
        .collect();
    let mut dropped_ids: Vec<EventId> = Vec::new();
    for (key, decoded) in entries {
        if let Ok(env) = &decoded {
            if store.holds(env.id)? {
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
            Err(Undecoded::Unopened(e)) if proven => {
                if ignored.insert(key.clone()) {
                    junk.push(format!(
                        "ignored entry {key}: it does not open under the campaign's key ({e}), so no device of the campaign sealed it (listed once)"
                    ));
                }
                continue;
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
        dropped_ids.push(id);
    }
    // A device numbers its events 1, 2, 3, ...: another event under a number already taken
    // means two ledgers share the device's identity (a copied ledger file). Both events are
    // genuinely signed, so the clash is refused event by event in either mode (refusing a
    // file whole would block the copy's files for good, even after it takes a new identity)
    // and left in the document, where `verify` reports it; dropping it would delete the other
    // copy's genuine event from every document. Past the fork, each event's chain link (the
    // hash of its device's previous number, which it signs) says which branch it follows: an
    // event that does not follow the number this ledger holds before it, or that the number
    // held after it does not follow, is the other branch's and is refused, in this import or
    // any later one. An unchained event (signed before chains) has no link to tell by: the
    // device's later unchained events in the same import are refused.
    let checked_in = order::accounted(store, checked.accepted, &mut refused, &mut dropped_ids)?;
    let checked_in = rising_clocks(store, checked_in, &mut refused, &mut dropped_ids)?;
    dropped.extend(dropped_ids.iter().filter_map(|id| key_of.get(id).cloned()));
    let mut accepted = Vec::with_capacity(checked_in.len());
    let mut claimed: std::collections::HashMap<(DeviceId, u64), leechbook_store::Numbered> =
        std::collections::HashMap::new();
    let mut forked: std::collections::HashMap<DeviceId, u64> = std::collections::HashMap::new();
    let mut last_held: std::collections::HashMap<DeviceId, u64> = std::collections::HashMap::new();
    let copied = |env: &Envelope| {
        format!(
            "two ledgers share device {}'s identity (a copied ledger file). On the copy, run `leechbook device reset --yes` and have the GM roster its new identity (`leechbook device add DEVICE KEY`)",
            env.device.short()
        )
    };
    for env in checked_in {
        let chained = leechbook_store::codec::chain_link(&env).is_some();
        if let Some(&at) = forked
            .get(&env.device)
            .filter(|&&at| env.seq > at && !chained)
        {
            refused.push(format!(
                "the sync data holds event {} as device {}'s #{}, after that device's events parted at #{at}: two ledgers share its identity (a copied ledger file)",
                env.id.short(),
                env.device.short(),
                env.seq
            ));
            continue;
        }
        let at = |seq: u64| -> Result<Option<leechbook_store::Numbered>, SyncError> {
            Ok(match claimed.get(&(env.device, seq)) {
                Some(n) => Some(n.clone()),
                None => store.event_at(env.device, seq)?,
            })
        };
        let held = at(env.seq)?;
        if let Some(held) = held.as_ref().filter(|h| h.id != env.id) {
            forked.entry(env.device).or_insert(env.seq);
            refused.push(format!(
                "the sync data holds event {} as device {}'s #{}, but this ledger holds event {} as that number: {}",
                env.id.short(),
                env.device.short(),
                env.seq,
                held.id.short(),
                copied(&env)
            ));
            continue;
        }
        if held.is_none() {
            let before = match env.seq {
                0 | 1 => None,
                n => at(n - 1)?,
            };
            // The number after it is looked up only where this ledger holds a later number
            // of the device (an event filling a gap); mostly it does not.
            let last = match last_held.get(&env.device) {
                Some(&n) => n,
                None => {
                    let n = store.last_number(env.device)?;
                    last_held.insert(env.device, n);
                    n
                }
            };
            let after = if env.seq < last || claimed.contains_key(&(env.device, env.seq + 1)) {
                at(env.seq + 1)?
            } else {
                None
            };
            let own = leechbook_store::codec::link_of(Some(&env));
            let breaks_before = match (env.seq, &before) {
                (1, _) => leechbook_store::codec::follows(None, &env) == Some(false),
                (_, Some(b)) => {
                    leechbook_store::codec::chain_link(&env).is_some_and(|l| l != b.link)
                }
                _ => false,
            };
            let breaks_after = after
                .as_ref()
                .is_some_and(|a| a.follows.is_some_and(|l| l != own));
            if breaks_before || breaks_after {
                let (n, other) = if breaks_before {
                    (env.seq - 1, before.map(|b| b.id))
                } else {
                    (env.seq + 1, after.map(|a| a.id))
                };
                refused.push(format!(
                    "the sync data holds event {} as device {}'s #{}, which does not follow the chain of this ledger's #{n} (event {}): the device's events parted there, and this one is the other branch's: {}",
                    env.id.short(),
                    env.device.short(),
                    env.seq,
                    other.map(|o| o.short()).unwrap_or_default(),
                    copied(&env)
                ));
                continue;
            }
        }
        claimed.insert((env.device, env.seq), leechbook_store::Numbered::of(&env));
        accepted.push(env);
    }
    // The ceiling counts only what this import takes in (padding it with events refused
    // above raises no ceiling).
    let accepted = order::under_ceiling(store, accepted, &mut refused, &mut dropped_ids)?;
    dropped.extend(
        dropped_ids
            .iter()
            .filter_map(|id| key_of.get(id).cloned())
            .filter(|k| !dropped.contains(k))
            .collect::<Vec<_>>(),
    );
    let added = if accepted.is_empty() {
        0
    } else {
        store.import(&accepted)?
    };
    if mode == Acceptance::EachEvent {
        let mut all = state_lines(store, REFUSED_KEY)?;
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
    // Junk is listed by the sync that met it, never kept to be listed again.
    if ignored.len() != known_ignored {
        crypt::keep_ignored(store, &ignored)?;
    }
    refused.extend(junk);
    Ok((
        Imported {
            added,
            refused,
            ..Imported::default()
        },
        dropped,
    ))
}

/// The events whose Lamport clock rises above that of their device's previous number (in
/// the log, or earlier in this import): a device's clocks rise with its numbers, so an event
/// dated back (a revoked device's clock set before its revocation, the `clock` column edited
/// and the event signed again) is refused and named, and dropped from the document. The
/// lower number is the one that stands: it was recorded first. Returns the others, in the
/// order given.
fn rising_clocks(
    store: &Store,
    events: Vec<Envelope>,
    refused: &mut Vec<String>,
    dropped: &mut Vec<EventId>,
) -> Result<Vec<Envelope>, SyncError> {
    let mut by_number: Vec<usize> = (0..events.len()).collect();
    by_number.sort_by_key(|&i| (events[i].device, events[i].seq));
    let mut clocks: std::collections::HashMap<(DeviceId, u64), u64> =
        std::collections::HashMap::new();
    let mut bad = std::collections::HashSet::new();
    let mut last_held: std::collections::HashMap<DeviceId, u64> = std::collections::HashMap::new();
    for i in by_number {
        let e = &events[i];
        let before = match e.seq.checked_sub(1).filter(|s| *s > 0) {
            Some(prev) => match clocks.get(&(e.device, prev)) {
                Some(c) => Some(*c),
                None => store.clock_at(e.device, prev)?,
            },
            None => None,
        };
        if let Some(c) = before.filter(|c| *c >= e.clock) {
            refused.push(format!(
                "the sync data holds event {} as device {}'s #{} with clock {}, not above its #{}'s clock {c}: a device's clocks rise with its numbers, so it was dated back (refused)",
                e.id.short(),
                e.device.short(),
                e.seq,
                e.clock,
                e.seq - 1
            ));
            dropped.push(e.id);
            bad.insert(i);
            continue;
        }
        // A number filling a gap below one held: the held one's clock must be above it (a
        // number dated forward past its successor would clock every device after it, and
        // float past the GM's clock events). Looked up only where a later number is held.
        let last = match last_held.get(&e.device) {
            Some(&n) => n,
            None => {
                let n = store.last_number(e.device)?;
                last_held.insert(e.device, n);
                n
            }
        };
        if e.seq < last {
            if let Some(c) = store
                .clock_at(e.device, e.seq + 1)?
                .filter(|c| *c <= e.clock)
            {
                refused.push(format!(
                    "the sync data holds event {} as device {}'s #{} with clock {}, not below its #{}'s clock {c}: a device's clocks rise with its numbers, so it was dated forward (refused)",
                    e.id.short(),
                    e.device.short(),
                    e.seq,
                    e.clock,
                    e.seq + 1
                ));
                dropped.push(e.id);
                bad.insert(i);
                continue;
            }
        }
        clocks.insert((e.device, e.seq), e.clock);
    }
    Ok(without(events, &bad))
}

/// `events` without those at the places `bad` lists (the refused), in the order given.
pub(crate) fn without(
    events: Vec<Envelope>,
    bad: &std::collections::HashSet<usize>,
) -> Vec<Envelope> {
    events
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !bad.contains(i))
        .map(|(_, e)| e)
        .collect()
}

/// Why the roster (in use) does not vouch for `e` (the store's codec judges it, for an
/// import here and for `verify` in the ledger alike).
pub use leechbook_store::codec::signature_problem;

/// What the kept sync documents hold that the log does not hold, or holds otherwise, one
/// line per event (`verify`). The volumes are a cache of the log: they never hold an event
/// the log lacks, except what remains of a deleted row, or another ledger's event under a
/// device number this log holds (a copied ledger file).
pub fn document_problems(store: &Store) -> Result<Vec<String>, SyncError> {
    let Some(ring) = crypt::keyring_of(store)? else {
        return Ok(Vec::new());
    };
    let shelf = Shelf::open(store, ring.clone())?;
    if shelf.mark == 0 {
        return Ok(Vec::new());
    }
    // Each entry against the event the log holds under its number (a lookup, not a copy of
    // the log: `verify` streams).
    let roster = leechbook_core::roster::Roster::from_log(&store.roster_events()?);
    let mut out = Vec::new();
    let (mut opened, mut unopened) = (0usize, 0usize);
    for v in shelf.all_volumes(store)? {
        let Some(kept) = layout::load_kept(store, &v.name())? else {
            out.push(format!(
                "the sync volume {} does not load; the next sync rebuilds it",
                v.name()
            ));
            continue;
        };
        let doc = &kept.doc;
        for key in doc.keys(ROOT).filter(|k| !is_rotation(k)) {
            let env = match entry_at(doc, &ring, &shelf.names, &key) {
                Ok(env) => {
                    opened += 1;
                    env
                }
                // Sealed under a key this device was not given: not this device's to check.
                Err(Undecoded::NoKey(_)) => continue,
                // Junk put by someone without the key (the next sync drops it): nothing of
                // the log's, unless nothing opens at all (then the key is what is wrong).
                Err(Undecoded::Unopened(_)) => {
                    unopened += 1;
                    continue;
                }
                Err(e) => {
                    out.push(format!(
                        "the sync document's entry {key} does not decode ({e})"
                    ));
                    continue;
                }
            };
            let held = store.event_at(env.device, env.seq)?;
            match held {
                Some(held) if held.id == env.id => {
                    if held.link != leechbook_store::codec::link_of(Some(&env)) {
                        out.push(format!(
                            "event {}: the log's copy differs from the copy it was synced as (edited in the ledger file?)",
                            env.id
                        ));
                    }
                }
                held => out.push(match held.map(|h| h.id) {
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
    }
    out.extend(heads::forks(store)?);
    if opened == 0 && unopened > 0 {
        out.push(format!(
            "none of the {unopened} entries of the sync documents opens under this device's campaign key: the key is wrong (ask the GM for a join code: `leechbook sync key CODE`)"
        ));
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
        // The roster is worked out from the campaign's creation and the roster changes alone:
        // only those are copied (an import of 50,000 events copies a handful).
        let mut merged: Vec<Envelope> = held
            .iter()
            .chain(candidates.iter().filter(|e| {
                matches!(
                    e.event,
                    leechbook_core::Event::CampaignCreated { .. }
                        | leechbook_core::Event::Roster(_)
                )
            }))
            .cloned()
            .collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A peer that fills every `keys/EPOCH` slot of the next generation before the GM rotates
    /// (the first layout's key) squats nothing: the rotation goes under its own digest, and is
    /// found among the junk.
    #[test]
    fn a_rotation_is_put_whatever_squats_its_epoch() {
        let store = Store::open_in_memory().unwrap();
        let mut ring = Keyring::generate(store.campaign());
        let r = Rotation::issue(&store, &mut ring, &[]);
        let mut doc = Automerge::new();
        doc.transact(|tx| {
            tx.put(
                ROOT,
                format!("{}{}", crypt::ROTATION_PREFIX, r.epoch),
                ScalarValue::Bytes(vec![9; 40]),
            )
        })
        .unwrap();
        doc.transact(|tx| put_rotations(tx, std::slice::from_ref(&r)))
            .unwrap();
        let found = rotations_in(&doc);
        assert_eq!(found.len(), 2, "the junk and the rotation");
        assert!(found.contains(&r.to_bytes()));
        assert_ne!(r.filed_under(), format!("keys/{}", r.epoch));
    }
}
