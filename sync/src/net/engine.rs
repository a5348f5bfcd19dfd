//! The sync engine's side of a ledger: the runtime, and the storage samod keeps documents
//! in ([`ShelfStorage`]), held from the ledger's shelf.

use super::*;
use crate::layout::{self};
use crate::SyncError;
use leechbook_store::Store;
use samod::storage::{InMemoryStorage, Storage, StorageKey};
pub use samod::DocumentId;
use samod::{Repo, ShareConfig};
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};

/// With `LEECHBOOK_TRACE_SYNC` set, each phase of a sync and its time since the start, on
/// standard error (to see where a slow sync spends its time).
/// With it, the process's peak memory so far where the system tells it (Linux).
pub(super) fn phase(start: std::time::Instant, what: &str) {
    if std::env::var_os("LEECHBOOK_TRACE_SYNC").is_some() {
        let peak = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .map(|v| v.trim().to_string())
            })
            .map(|v| format!(" (peak {v})"))
            .unwrap_or_default();
        eprintln!(
            "sync: {:>8.1} ms {what}{peak}",
            start.elapsed().as_secs_f64() * 1e3
        );
    }
}

pub(super) fn net(what: impl std::fmt::Display) -> SyncError {
    SyncError::Network(what.to_string())
}

pub(super) fn runtime() -> Result<tokio::runtime::Runtime, SyncError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(net)
}

/// A sync engine's storage: documents in memory, and (for a device serving as a hub) the
/// documents its ledger keeps, read from the ledger only when a peer asks for one.
#[derive(Clone)]
pub(super) struct ShelfStorage {
    pub(super) mem: InMemoryStorage,
    pub(super) ledger: Option<Arc<Mutex<Store>>>,
    /// Document id -> the name the ledger keeps it under.
    pub(super) names: Arc<Mutex<HashMap<String, String>>>,
}

pub(super) fn storage_key(doc: &DocumentId, kind: &str) -> Option<StorageKey> {
    StorageKey::from_parts([doc.to_string().as_str(), kind, "leechbook"]).ok()
}

impl ShelfStorage {
    pub(super) fn new(ledger: Option<Store>) -> ShelfStorage {
        ShelfStorage {
            mem: InMemoryStorage::new(),
            ledger: ledger.map(|s| Arc::new(Mutex::new(s))),
            names: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// Holds a document: `whole` a save of it, `appended` changes after it.
    /// Whether it holds a save of the document (in memory: what the ledger keeps is read
    /// only when the engine asks).
    pub(super) async fn holds(&self, doc: &DocumentId) -> bool {
        match storage_key(doc, "snapshot") {
            Some(k) => Storage::load(&self.mem, k).await.is_some(),
            None => false,
        }
    }

    pub(super) async fn hold(&self, doc: &DocumentId, whole: Vec<u8>, appended: Vec<u8>) {
        if let Some(k) = storage_key(doc, "snapshot") {
            Storage::put(&self.mem, k, whole).await;
        }
        if let Some(k) = storage_key(doc, "incremental").filter(|_| !appended.is_empty()) {
            Storage::put(&self.mem, k, appended).await;
        }
    }

    /// Names a document the ledger keeps, to be read when asked for.
    pub(super) fn name(&self, doc: &DocumentId, name: String) {
        if let Ok(mut names) = self.names.lock() {
            names.insert(doc.to_string(), name);
        }
    }
}

impl Storage for ShelfStorage {
    fn load(&self, key: StorageKey) -> impl Future<Output = Option<Vec<u8>>> + Send {
        Storage::load(&self.mem, key)
    }

    fn load_range(
        &self,
        prefix: StorageKey,
    ) -> impl Future<Output = HashMap<StorageKey, Vec<u8>>> + Send {
        let this = self.clone();
        async move {
            let found = Storage::load_range(&this.mem, prefix.clone()).await;
            if !found.is_empty() {
                return found;
            }
            let Some(doc) = prefix.clone().into_iter().next() else {
                return found;
            };
            let name = this.names.lock().ok().and_then(|n| n.get(&doc).cloned());
            let (Some(name), Some(ledger)) = (name, this.ledger.as_ref()) else {
                return found;
            };
            let kept = ledger
                .lock()
                .ok()
                .and_then(|store| layout::kept_bytes(&store, &name).ok().flatten());
            let Some((whole, appended)) = kept else {
                return found;
            };
            let Ok(id) = doc.parse::<DocumentId>() else {
                return found;
            };
            this.hold(&id, whole, appended).await;
            Storage::load_range(&this.mem, prefix).await
        }
    }

    fn put(&self, key: StorageKey, data: Vec<u8>) -> impl Future<Output = ()> + Send {
        Storage::put(&self.mem, key, data)
    }

    fn delete(&self, key: StorageKey) -> impl Future<Output = ()> + Send {
        Storage::delete(&self.mem, key)
    }
}

/// A repo that shares the campaign's documents with every peer and no other document (so a
/// device serving as a hub is not a store for strangers' documents). A hub (`announce`
/// false) only answers for the documents a peer asks for, as the npm sync server does: a
/// device that syncs three volumes is never sent the other three hundred.
pub(super) async fn campaign_repo(places: Places, storage: ShelfStorage, announce: bool) -> Repo {
    Repo::build_tokio()
        .with_storage(storage)
        .with_share_policy(move |doc: DocumentId, _peer| {
            let config = if places.holds(&doc) {
                ShareConfig {
                    announce,
                    ..ShareConfig::read_write()
                }
            } else {
                ShareConfig::none()
            };
            futures::stream::iter([config])
        })
        .load()
        .await
}

/// Why a connection was closed on what a peer sent, kept for the sync to report.
pub(super) type Refusal = Arc<Mutex<Option<String>>>;
