//! The file mirror: the documents a ledger keeps in its sync state (a shelf of volumes and
//! their index), caught up with its log, and what a sync file carries between devices that
//! never meet online ([`FileTransport`], [`export`]).

use crate::{
    bound, crypt, entry::bytes_at, entry::entry_at, entry::is_rotation, entry::rotations_in,
    entry::Entry, entry::Undecoded, heads, layout, Keyring, SyncError, Transport,
};
use automerge::{Automerge, ReadDoc, ROOT};
use layout::{Counts, Shelf, VolumeId};
use leechbook_core::ids::DeviceId;
use leechbook_core::Envelope;
use leechbook_store::codec::signature_problem;
use leechbook_store::{ReadLog, Store};
use std::collections::BTreeMap;
use std::path::Path;

/// The first bytes of a sync file (a join file puts the campaign's keys before them): the
/// layout of names ([`layout::LAYOUT`]), sealed counts and padded entries.
pub(crate) const SYNC_FILE: &[u8] = b"LEECHBOOK-SYNC-3\n";
/// The first bytes of a sync file of the layout before names (refused, with the way on).
pub(crate) const OLD_SYNC_FILE: &[u8] = b"LEECHBOOK-SYNC-2\n";
/// The largest document a sync file may carry: a full volume of 4,096 events, padded, is
/// well under it. What is larger is no Leechbook document, and is refused before it loads.
pub const MAX_DOCUMENT: usize = 64 * 1024 * 1024;
/// The name a sync file's counts are sealed under.
pub(crate) const FILE_COUNTS: &str = "counts";

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
            // (A mirror of envelopes given, for tests and tools: nothing is sealed for the GM.)
            let n = layout::put_events(
                doc,
                &events,
                &self.ring,
                &self.names,
                &crate::sealing::Sealing::none(),
            )?;
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
            Err(Undecoded::NoKey(_) | Undecoded::Unopened(_) | Undecoded::ForGm(_)) => false,
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
pub(crate) fn unheld_entries(
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

pub(crate) const REFUSED_KEY: &str = "sync-refused";

pub(crate) fn peer_key(peer: DeviceId) -> String {
    format!("peer-counts:{peer}")
}

pub(crate) fn peer_heads_key(peer: DeviceId) -> String {
    format!("peer-volume-heads:{peer}")
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
pub(crate) fn shelf_of(store: &mut Store, ring: Keyring) -> Result<Shelf, SyncError> {
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
pub(crate) fn file_of(
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
pub(crate) type Heads = BTreeMap<VolumeId, Vec<automerge::ChangeHash>>;

pub(crate) fn heads_to_bytes(h: &Heads) -> Vec<u8> {
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

pub(crate) fn heads_from_bytes(b: &[u8]) -> Heads {
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
            .and_then(|b| crate::names::counts_from_bytes(&b)),
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
            (peer_key(peer), crate::names::counts_to_bytes(&shelf.counts)),
        ])?;
    }
    Ok(Exported {
        events: store.count()? as usize,
        bytes: bytes.len(),
        incremental: known.is_some(),
    })
}
