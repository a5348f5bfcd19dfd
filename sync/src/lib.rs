//! Sync: the one place that knows automerge. A campaign's events are mirrored in an automerge
//! document (a map from event id to the encoded envelope, each event once), so that merging
//! is commutative, associative and idempotent; the local SQLite log stays the source of truth
//! for the fold. Today the document is built from the log for each export and a sync file is
//! the whole document; [`Mirror::changes_since`] is the seam for a transport that sends only
//! what the other side lacks.
//!
//! Transports sit behind [`Transport`]; the file transport is here. An import is refused
//! whole when the data does not load, belongs to another campaign, holds an event that does
//! not decode, or holds a new event that [`verify`] does not accept (unrostered device, bad
//! signature).

#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

use automerge::{
    transaction::Transactable, AutoCommit, ChangeHash, ObjType, ReadDoc, ScalarValue, Value, ROOT,
};
use leechbook_core::Envelope;
use leechbook_store::codec::{decode_envelope, encode_envelope};
use leechbook_store::{Store, StoreError};
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
    /// Reading or writing a sync file.
    #[error("sync file: {0}")]
    Io(#[from] std::io::Error),
}

const EVENTS: &str = "events";

/// The automerge mirror of a campaign's log.
pub struct Mirror {
    doc: AutoCommit,
}

impl Mirror {
    /// An empty mirror.
    pub fn new() -> Mirror {
        Mirror {
            doc: AutoCommit::new(),
        }
    }

    /// Loads a mirror saved with [`Mirror::save`].
    pub fn load(bytes: &[u8]) -> Result<Mirror, SyncError> {
        let doc = AutoCommit::load(bytes).map_err(|e| SyncError::NotSync(e.to_string()))?;
        Ok(Mirror { doc })
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

    fn events_obj(&mut self) -> Result<automerge::ObjId, SyncError> {
        match self
            .doc
            .get(ROOT, EVENTS)
            .map_err(|e| SyncError::NotSync(e.to_string()))?
        {
            Some((Value::Object(ObjType::Map), id)) => Ok(id),
            _ => self
                .doc
                .put_object(ROOT, EVENTS, ObjType::Map)
                .map_err(|e| SyncError::NotSync(e.to_string())),
        }
    }

    /// Adds envelopes not yet in the document.
    pub fn add(&mut self, envelopes: &[Envelope]) -> Result<usize, SyncError> {
        let obj = self.events_obj()?;
        let mut added = 0;
        for e in envelopes {
            let key = e.id.to_string();
            if self
                .doc
                .get(&obj, key.as_str())
                .map_err(|e| SyncError::NotSync(e.to_string()))?
                .is_none()
            {
                self.doc
                    .put(&obj, key.as_str(), ScalarValue::Bytes(encode_envelope(e)))
                    .map_err(|e| SyncError::NotSync(e.to_string()))?;
                added += 1;
            }
        }
        Ok(added)
    }

    /// Every envelope the document holds, decoded (all must decode).
    pub fn envelopes(&mut self) -> Result<Vec<Envelope>, SyncError> {
        let Some((Value::Object(ObjType::Map), obj)) = self
            .doc
            .get(ROOT, EVENTS)
            .map_err(|e| SyncError::NotSync(e.to_string()))?
        else {
            return Ok(Vec::new());
        };
        let keys: Vec<String> = self.doc.keys(&obj).collect();
        let mut out = Vec::with_capacity(keys.len());
        for k in keys {
            match self
                .doc
                .get(&obj, k.as_str())
                .map_err(|e| SyncError::NotSync(e.to_string()))?
            {
                Some((Value::Scalar(s), _)) => match s.as_ref() {
                    ScalarValue::Bytes(b) => {
                        let env = decode_envelope(b)
                            .map_err(|e| SyncError::BadEvent(format!("{k}: {e}")))?;
                        if env.id.to_string() != k {
                            return Err(SyncError::BadEvent(format!(
                                "{k}: filed under another id"
                            )));
                        }
                        out.push(env);
                    }
                    _ => return Err(SyncError::BadEvent(format!("{k}: not bytes"))),
                },
                _ => return Err(SyncError::BadEvent(format!("{k}: not an event"))),
            }
        }
        Ok(out)
    }

    /// Merges another mirror's changes (bytes from [`Mirror::save`] or
    /// [`Mirror::changes_since`]) into a copy, checks them, and only then into this one.
    pub fn merge_bytes(&mut self, bytes: &[u8]) -> Result<(), SyncError> {
        let mut trial = self.doc.fork();
        trial
            .load_incremental(bytes)
            .map_err(|e| SyncError::NotSync(e.to_string()))?;
        let mut check = Mirror { doc: trial };
        check.envelopes()?;
        self.doc = check.doc;
        Ok(())
    }
}

impl Default for Mirror {
    fn default() -> Self {
        Mirror::new()
    }
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

/// Brings a store's log into a mirror.
pub fn mirror_of(store: &Store) -> Result<Mirror, SyncError> {
    let mut m = Mirror::new();
    m.add(&store.events()?)?;
    Ok(m)
}

/// Exports everything the store holds (as an automerge document) through a transport.
pub fn export(store: &Store, t: &mut dyn Transport) -> Result<usize, SyncError> {
    let mut m = mirror_of(store)?;
    let n = store.count()? as usize;
    t.send(&m.save())?;
    Ok(n)
}

/// Imports what a transport carries into the store: all or nothing. Returns how many events
/// were new.
pub fn import(store: &mut Store, t: &mut dyn Transport) -> Result<usize, SyncError> {
    let Some(bytes) = t.receive()? else {
        return Ok(0);
    };
    import_bytes(store, &bytes)
}

/// Imports sync data (as a transport delivered it) into the store: all or nothing. This is
/// the import path the fuzz target drives; any bytes at all must give `Ok` or an error, with
/// the store untouched on error.
pub fn import_bytes(store: &mut Store, bytes: &[u8]) -> Result<usize, SyncError> {
    let mut m = Mirror::new();
    m.merge_bytes(bytes)?;
    let envs = m.envelopes()?;
    if envs.iter().any(|e| e.campaign != store.campaign()) {
        return Err(SyncError::ForeignCampaign);
    }
    verify(store, &envs)?;
    Ok(store.import(&envs)?)
}

/// Checks every event the store does not hold yet: it must be signed by its device's key, as
/// the roster of the merged log holds it (forged or tampered events fail here).
pub fn verify(store: &Store, incoming: &[Envelope]) -> Result<(), SyncError> {
    let mut merged = store.events()?;
    let known: std::collections::HashSet<_> = merged.iter().map(|e| e.id).collect();
    let new: Vec<&Envelope> = incoming.iter().filter(|e| !known.contains(&e.id)).collect();
    merged.extend(new.iter().map(|e| (*e).clone()));
    merged.sort_by_key(|e| e.order_key());
    let roster = leechbook_core::roster::Roster::from_log(&merged);
    if !roster.in_use() {
        return Ok(());
    }
    for e in new {
        let key = roster.key(e.device).ok_or_else(|| {
            SyncError::Unsigned(format!(
                "event {} from device {}, which is not on the roster (the GM adds it with `leechbook device add`)",
                e.id.short(),
                e.device.short()
            ))
        })?;
        if !leechbook_store::codec::verify(e, key) {
            return Err(SyncError::Unsigned(format!(
                "event {} whose signature does not match its bytes (tampered or forged)",
                e.id.short()
            )));
        }
    }
    Ok(())
}
