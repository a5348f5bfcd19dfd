//! The network transport: automerge-repo's sync protocol over WebSocket, through samod.
//!
//! A campaign is many automerge-repo documents (see [`crate::layout`]): its index and its
//! volumes, each with an id derived from a secret of the campaign's key and the volume's name
//! ([`Places`]), so every device of the campaign meets on the same documents without being
//! told their ids, and a hub, or anyone who learns the campaign's id, cannot work them out.
//! A sync ([`sync_with`]) dials a hub and syncs the index; the counts it lists against this
//! ledger's say which volumes either side lacks, and only those are synced (all at once, over
//! the one connection); then this ledger's counts go into the index. What came in is imported
//! event by event ([`Acceptance::EachEvent`]: a hub is open by design, so an event that does
//! not check out is refused and reported, and the rest still land). The hub is either a
//! standard automerge-repo sync server or a device running [`serve`], which imports into its
//! own ledger what its peers send and offers its peers what its ledger gains.
//!
//! The sync state of each document is fresh on each connection, not kept per peer: a
//! document is bounded (a volume) or small (the index), so the protocol's first message (a
//! Bloom filter over the document's changes) is small too, and which documents to sync at
//! all is decided by the index's counts, which is what per-peer state would have saved.
//!
//! The file transport never depends on this module: both sit behind [`crate::Transport`].

use crate::bound;
use crate::layout::{self, index_counts, Counts, Shelf, VolumeId};
use crate::{
    crypt, entry::entries_of, entry::open_entries, entry::rotations_in, mirror::drop_refused,
    mirror::Mirror, take::take_in, take::Acceptance, take::Imported, SyncError,
};
use automerge::{Automerge, ChangeHash, ReadDoc};
use futures::StreamExt;
use leechbook_core::ids::CampaignId;
use leechbook_store::ReadLog;
use leechbook_store::Store;
use samod::storage::{InMemoryStorage, Storage, StorageKey};
pub use samod::DocumentId;
use samod::{BackoffConfig, ConnectionId, DocHandle, Repo, ShareConfig};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Sixteen bytes marked as a version 4 UUID, as automerge-repo's JavaScript side accepts only
/// versions 1 to 5 in a document id.
fn v4(bytes: [u8; 16]) -> DocumentId {
    let id = uuid::Builder::from_random_bytes(bytes).into_uuid();
    DocumentId::try_from(id.as_bytes().to_vec()).expect("a UUID is sixteen bytes")
}

/// Where a campaign's documents are on a hub: their ids, derived from a secret that only the
/// campaign's devices hold ([`crate::Keyring::document_secret`]). A hub, or anyone who learns
/// the campaign's id, cannot work them out; the first eight bytes every id shares let a
/// device serving as a hub tell its campaign's documents from strangers'. (The first layout
/// derived them from the campaign's id alone, and each layout has its own: a device syncs its
/// documents anew under these on its first sync, and the old ones stay on the hub, unread.)
#[derive(Clone, Copy)]
pub struct Places {
    secret: [u8; 32],
    generation: u32,
}

impl Places {
    /// The places of the campaign whose keys are `ring`, at the generation of ids it syncs
    /// at (a generation past 0, after a hub's operator squatted the index, mixes into every
    /// id and the prefix: the new ids share nothing a hub can tell from the old).
    pub fn of(ring: &crate::Keyring) -> Places {
        Places {
            secret: ring.document_secret(),
            generation: ring.generation(),
        }
    }

    fn hasher(&self) -> Sha256 {
        let mut h = Sha256::new();
        h.update(self.secret);
        if self.generation > 0 {
            h.update(b"generation");
            h.update(self.generation.to_le_bytes());
        }
        h
    }

    fn prefix(&self) -> [u8; 8] {
        let mut h = self.hasher();
        h.update(b"prefix");
        let d = h.finalize();
        let mut out = [0u8; 8];
        out.copy_from_slice(&d[..8]);
        out
    }

    fn named(&self, name: &str) -> DocumentId {
        let mut h = self.hasher();
        // The layout is in the name: devices of an earlier layout keep to their documents,
        // and never mix entries a device of this one could not read.
        h.update(b"document ");
        h.update([layout::LAYOUT]);
        h.update(name.as_bytes());
        let d = h.finalize();
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&self.prefix());
        bytes[8..].copy_from_slice(&d[..8]);
        v4(bytes)
    }

    /// The document id of the campaign's index.
    pub fn index(&self) -> DocumentId {
        self.named("index")
    }

    /// The document id of one of the campaign's volumes.
    pub fn volume(&self, v: VolumeId) -> DocumentId {
        self.named(&v.name())
    }

    /// Whether a document id is one of the campaign's (its first eight bytes as an id
    /// carries them: the UUID's version bits set).
    fn holds(&self, doc: &DocumentId) -> bool {
        doc.as_bytes().get(..8) == self.named("").as_bytes().get(..8)
    }
}

/// With `LEECHBOOK_TRACE_SYNC` set, each phase of a sync and its time since the start, on
/// standard error (to see where a slow sync spends its time).
/// With it, the process's peak memory so far where the system tells it (Linux).
fn phase(start: std::time::Instant, what: &str) {
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

fn net(what: impl std::fmt::Display) -> SyncError {
    SyncError::Network(what.to_string())
}

fn runtime() -> Result<tokio::runtime::Runtime, SyncError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(net)
}

/// A sync engine's storage: documents in memory, and (for a device serving as a hub) the
/// documents its ledger keeps, read from the ledger only when a peer asks for one.
#[derive(Clone)]
struct ShelfStorage {
    mem: InMemoryStorage,
    ledger: Option<Arc<Mutex<Store>>>,
    /// Document id -> the name the ledger keeps it under.
    names: Arc<Mutex<HashMap<String, String>>>,
}

fn storage_key(doc: &DocumentId, kind: &str) -> Option<StorageKey> {
    StorageKey::from_parts([doc.to_string().as_str(), kind, "leechbook"]).ok()
}

impl ShelfStorage {
    fn new(ledger: Option<Store>) -> ShelfStorage {
        ShelfStorage {
            mem: InMemoryStorage::new(),
            ledger: ledger.map(|s| Arc::new(Mutex::new(s))),
            names: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// Holds a document: `whole` a save of it, `appended` changes after it.
    /// Whether it holds a save of the document (in memory: what the ledger keeps is read
    /// only when the engine asks).
    async fn holds(&self, doc: &DocumentId) -> bool {
        match storage_key(doc, "snapshot") {
            Some(k) => Storage::load(&self.mem, k).await.is_some(),
            None => false,
        }
    }

    async fn hold(&self, doc: &DocumentId, whole: Vec<u8>, appended: Vec<u8>) {
        if let Some(k) = storage_key(doc, "snapshot") {
            Storage::put(&self.mem, k, whole).await;
        }
        if let Some(k) = storage_key(doc, "incremental").filter(|_| !appended.is_empty()) {
            Storage::put(&self.mem, k, appended).await;
        }
    }

    /// Names a document the ledger keeps, to be read when asked for.
    fn name(&self, doc: &DocumentId, name: String) {
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
async fn campaign_repo(places: Places, storage: ShelfStorage, announce: bool) -> Repo {
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
type Refusal = Arc<Mutex<Option<String>>>;

/// The largest WebSocket message taken from a peer: a whole volume of 4,096 padded events
/// sent at once is well under it.
const MAX_MESSAGE: usize = crate::mirror::MAX_DOCUMENT;

/// What a peer sent that no Leechbook device could have (see [`crate::bound`]).
#[derive(Debug)]
struct Refused(String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// A peer's wire messages, each checked by one [`crate::bound::Meter`] before the sync engine
/// reads it: the first that would cost far more to load than its size ends the connection
/// (every message after it is refused too), and why is kept in `refusal`.
fn metered<S, E>(
    inbound: S,
    refusal: Refusal,
) -> impl futures::Stream<Item = Result<Vec<u8>, Refused>> + Send + Unpin + 'static
where
    S: futures::Stream<Item = Result<Vec<u8>, E>> + Send + Unpin + 'static,
    E: std::fmt::Display,
{
    let mut meter = crate::bound::Meter::default();
    let mut refused = false;
    inbound.map(move |m| {
        let bytes = m.map_err(|e| Refused(e.to_string()))?;
        if refused {
            return Err(Refused("the connection was closed on refused data".into()));
        }
        meter.wire(&bytes).map_err(|why| {
            refused = true;
            if let Ok(mut slot) = refusal.lock() {
                slot.get_or_insert_with(|| why.clone());
            }
            Refused(why)
        })?;
        Ok(bytes)
    })
}

/// The error a sync ends with when it closed the connection on what the hub sent.
fn refused_by_hub(refusal: &Refusal, url: &str) -> Option<SyncError> {
    let why = refusal.lock().ok()?.take()?;
    Some(SyncError::Poisoned(format!(
        "the hub at {url} sent data that no Leechbook device writes, refused before it was loaded: {why}; nothing from it was taken in (the hub, or a peer on it, is hostile or broken)"
    )))
}

/// A WebSocket message as a sync connection reads it: the binary messages carry the sync
/// engine's; a text message has no place there; the rest (ping, pong, close) are the
/// socket's own.
enum Frame {
    Binary(Vec<u8>),
    Text,
    Other,
}

/// The WebSocket messages of the client and of the server (two crates' types for one thing).
trait WsMessage: Sized {
    fn frame(self) -> Frame;
    fn binary(bytes: Vec<u8>) -> Self;
}

impl WsMessage for tokio_tungstenite::tungstenite::Message {
    fn frame(self) -> Frame {
        match self {
            Self::Binary(b) => Frame::Binary(b.to_vec()),
            Self::Text(_) => Frame::Text,
            _ => Frame::Other,
        }
    }

    fn binary(bytes: Vec<u8>) -> Self {
        Self::Binary(bytes.into())
    }
}

impl WsMessage for axum::extract::ws::Message {
    fn frame(self) -> Frame {
        match self {
            Self::Binary(b) => Frame::Binary(b.to_vec()),
            Self::Text(_) => Frame::Text,
            _ => Frame::Other,
        }
    }

    fn binary(bytes: Vec<u8>) -> Self {
        Self::Binary(bytes.into())
    }
}

/// The sync engine's transport over a WebSocket (a hub dialled, or a peer accepted), with
/// every message the other side sends checked first ([`metered`]).
fn socket_transport<S, M, E>(socket: S, refusal: Refusal) -> samod::Transport
where
    S: futures::Stream<Item = Result<M, E>> + futures::Sink<M, Error = E> + Send + 'static,
    M: WsMessage + Send + 'static,
    E: std::error::Error + Send + Sync + 'static,
{
    use futures::SinkExt;
    let (sink, stream) = socket.split();
    let inbound = stream
        .filter_map(|m| async move {
            match m.map(WsMessage::frame) {
                Ok(Frame::Binary(b)) => Some(Ok(b)),
                Ok(Frame::Text) => Some(Err("a text message on the sync socket".to_string())),
                Ok(Frame::Other) => None,
                Err(e) => Some(Err(e.to_string())),
            }
        })
        .boxed();
    let outbound = sink.with(|bytes: Vec<u8>| futures::future::ready(Ok::<_, E>(M::binary(bytes))));
    samod::Transport::new(metered(inbound, refusal), Box::pin(outbound))
}

/// Dials a hub over WebSocket as samod's own dialer does, with every message the hub sends
/// checked before the engine reads it ([`metered`]) and no message over [`MAX_MESSAGE`].
struct BoundedDialer {
    url: url::Url,
    refusal: Refusal,
}

impl samod::Dialer for BoundedDialer {
    type Error = std::convert::Infallible;

    fn url(&self) -> url::Url {
        self.url.clone()
    }

    fn connect(
        &self,
    ) -> std::pin::Pin<
        Box<dyn Future<Output = Result<samod::Transport, samod::DialError<Self::Error>>> + Send>,
    > {
        use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
        let (url, refusal) = (self.url.clone(), self.refusal.clone());
        Box::pin(async move {
            let config = WebSocketConfig::default()
                .max_message_size(Some(MAX_MESSAGE))
                .max_frame_size(Some(MAX_MESSAGE));
            let (ws, _) =
                tokio_tungstenite::connect_async_with_config(url.as_str(), Some(config), false)
                    .await
                    .map_err(samod::DialError::transient)?;
            Ok(socket_transport(ws, refusal))
        })
    }
}

/// A document: from the repo's storage, or else from its peers (`None` when none has it).
async fn find(repo: &Repo, id: DocumentId) -> Result<Option<DocHandle>, SyncError> {
    repo.find(id)
        .await
        .map_err(|_| net("the sync engine stopped"))
}

/// Waits for `f` for at most `timeout`, naming `what` in the error.
async fn within<T>(
    timeout: Duration,
    url: &str,
    what: &str,
    f: impl Future<Output = T>,
) -> Result<T, SyncError> {
    tokio::time::timeout(timeout, f).await.map_err(|_| {
        net(format!(
            "the hub at {url} did not finish {what} within {} s; nothing half-done was kept, sync again",
            timeout.as_secs()
        ))
    })
}

/// Resolves when the connection `conn` is gone from `repo` (the hub died or hung up).
async fn gone(repo: &Repo, conn: ConnectionId) {
    let (now, mut changes) = repo.connected_peers();
    if !now.iter().any(|c| c.id == conn) {
        return;
    }
    while let Some(list) = changes.next().await {
        if !list.iter().any(|c| c.id == conn) {
            return;
        }
    }
}

/// [`within`] on the connection `conn` to the hub: a hub that goes away (killed, or its
/// machine off the table's network) is reported as soon as the connection drops, not when
/// the whole `timeout` has passed.
async fn on_hub<T>(
    repo: &Repo,
    conn: ConnectionId,
    timeout: Duration,
    url: &str,
    what: &str,
    f: impl Future<Output = T>,
) -> Result<T, SyncError> {
    let work = Box::pin(within(timeout, url, what, f));
    let lost = Box::pin(gone(repo, conn));
    match futures::future::select(work, lost).await {
        futures::future::Either::Left((done, _)) => done,
        futures::future::Either::Right(_) => Err(net(format!(
            "the hub at {url} went away while {what}; nothing half-done was kept, sync again"
        ))),
    }
}

/// Whether the hub said it holds the changes `sent` of `h` (samod's wait also ends when the
/// connection does, which is no acknowledgement): none of them lies beyond the heads the
/// two sides share (changes the hub brought meanwhile may).
fn acked(h: &DocHandle, conn: ConnectionId, sent: &[ChangeHash]) -> bool {
    let Some(shared) = h.peers().0.get(&conn).and_then(|p| p.shared_heads.clone()) else {
        return sent.is_empty();
    };
    h.with_document(|d| {
        d.get_changes(&shared)
            .iter()
            .all(|c| !sent.contains(&c.hash()))
    })
}

/// Dials the hub at `url` (`ws://` or `wss://`) into `repo`. Returns the connection.
async fn dial(
    repo: &Repo,
    url: &str,
    timeout: Duration,
    refusal: &Refusal,
) -> Result<ConnectionId, SyncError> {
    let parsed =
        url::Url::parse(url).map_err(|e| net(format!("{url} is not a WebSocket address ({e})")))?;
    if !matches!(parsed.scheme(), "ws" | "wss") {
        return Err(net(format!(
            "{url} is not a WebSocket address (it starts with ws:// or wss://)"
        )));
    }
    let dialer = repo
        .dial(
            BackoffConfig {
                initial_delay: Duration::from_millis(100),
                max_delay: Duration::from_secs(1),
                max_retries: Some(3),
            },
            Arc::new(BoundedDialer {
                url: parsed,
                refusal: refusal.clone(),
            }),
        )
        .map_err(|_| net("the sync engine stopped"))?;
    let unreachable = || net(format!("could not reach a sync hub at {url}"));
    tokio::time::timeout(timeout, dialer.established())
        .await
        .map_err(|_| unreachable())?
        .map_err(|_| unreachable())?;
    dialer.connection_id().ok_or_else(unreachable)
}

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
            let result = line.round(store, url, timeout);
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
struct Line {
    rt: tokio::runtime::Runtime,
    repo: Repo,
    conn: ConnectionId,
    shelf: Shelf,
    ring: crate::Keyring,
    storage: ShelfStorage,
    refusal: Refusal,
    /// The generation of document ids on this hub (see [`sync_with`]).
    generation: u32,
}

impl Line {
    /// Dials the hub at `url` with the store's documents.
    fn dial(store: &mut Store, url: &str, timeout: Duration) -> Result<Line, SyncError> {
        let start = std::time::Instant::now();
        let generation = crypt::generation_of(store, url)?;
        let ring = crypt::ring_for_sync(store)?.at_generation(generation);
        let mut shelf = Shelf::open(store, ring.clone())?;
        shelf.catch_up(store)?;
        phase(start, "caught up with the log");
        let joining = store.count()? == 0;
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
    fn hang_up(self) {
        drop(self.repo);
        self.rt.shutdown_background();
    }

    /// One round: the exchange, then what it gained kept.
    fn round(
        &mut self,
        store: &mut Store,
        url: &str,
        timeout: Duration,
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
        let result = rt
            .block_on(exchange(
                store, shelf, ring, repo, *conn, storage, url, timeout,
            ))
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
    fn follow(
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
        loop {
            let done = self.round(store, url, timeout)?;
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

/// The heart of [`sync_with`], on the sync engine's runtime.
#[allow(clippy::too_many_arguments)]
async fn exchange(
    store: &mut Store,
    shelf: &mut Shelf,
    ring: &mut crate::Keyring,
    repo: &Repo,
    conn: ConnectionId,
    storage: &ShelfStorage,
    url: &str,
    timeout: Duration,
) -> Result<(Imported, Vec<crypt::Rotation>, usize), SyncError> {
    let start = std::time::Instant::now();
    let campaign = store.campaign();
    let index = on_hub(
        repo,
        conn,
        timeout,
        url,
        "sending the campaign's index",
        find(repo, Places::of(ring).index()),
    )
    .await??
    .ok_or_else(|| {
        SyncError::Absent(format!(
            "the hub at {url} holds no campaign {campaign} under this device's keys (a wrong or old join code, or no device of the campaign has synced with this hub yet)"
        ))
    })?;
    on_hub(
        repo,
        conn,
        timeout,
        url,
        "sending the campaign's index",
        index.we_have_their_changes(conn),
    )
    .await?;
    phase(start, "  index synced");
    // The index as the hub gave it must be one a Leechbook device writes, whole: else nothing
    // of it is read, kept or published from (a squatted index costs no key-by-key scans).
    index
        .with_document(|d| bound::admit(d).map(|_| ()))
        .map_err(|why| poisoned(url, &why))?;
    let names = shelf.names.clone();
    let listed = index.with_document(|d| index_counts(d, &names));
    let short = index.with_document(|d| layout::short_volumes(d, &names, &listed));
    let ours = shelf.counts.clone();
    let own = store.device();
    // This device's latest volume always: a count raised on the hub must never make it look
    // as if the hub held what this device recorded since.
    let own_latest = ours.keys().filter(|v| v.device == own).max().copied();
    let wanted: Vec<VolumeId> = listed
        .keys()
        .chain(ours.keys())
        .copied()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .filter(|v| {
            let (o, l) = (
                ours.get(v).copied().unwrap_or(0),
                listed.get(v).copied().unwrap_or(0),
            );
            // A volume another device found short on the hub, which this one holds whole.
            o != l || Some(*v) == own_latest || (short.contains(v) && o >= l)
        })
        .collect();
    // Each volume as this ledger holds it (rid of refused entries kept from before they
    // were dropped), then all of them found and synced at once.
    drop_refused(shelf, store, &wanted)?;
    let mut before: BTreeMap<VolumeId, Vec<ChangeHash>> = BTreeMap::new();
    for v in &wanted {
        let heads = shelf.volume(store, *v)?.doc.get_heads();
        if !heads.is_empty() {
            let (whole, appended) = shelf.engine_bytes(store, *v)?;
            storage
                .hold(&Places::of(ring).volume(*v), whole, appended)
                .await;
        }
        before.insert(*v, heads);
    }
    phase(start, "  volumes held");
    let finds = futures::future::join_all(
        wanted
            .iter()
            .map(|v| find(repo, Places::of(ring).volume(*v))),
    );
    let handles: Vec<(VolumeId, DocHandle)> =
        on_hub(repo, conn, timeout, url, "sending volumes", finds)
            .await?
            .into_iter()
            .zip(&wanted)
            .filter_map(|(h, v)| Some((*v, h.ok()??)))
            .collect();
    // A volume the index lists beyond this ledger that the hub did not give at all: told
    // below, as a volume it gave short is.
    let unfound: Vec<VolumeId> = wanted
        .iter()
        .filter(|v| !handles.iter().any(|(h, _)| h == *v))
        .filter(|v| listed.get(v).copied().unwrap_or(0) > ours.get(v).copied().unwrap_or(0))
        .copied()
        .collect();
    // The hub may have announced a volume before this side held its copy: whatever the
    // engine holds, this side's copy goes in.
    for (v, h) in &handles {
        let Some(ours) = before.get(v) else { continue };
        let lacks = h.with_document(|d| ours.iter().any(|x| d.get_change_by_hash(x).is_none()));
        if let (true, Some(kept)) = (lacks, shelf.loaded(*v)) {
            let mut ours = kept.doc.clone();
            h.with_document(|d| d.merge(&mut ours))
                .map_err(|e| SyncError::NotSync(e.to_string()))?;
        }
    }
    for (v, _) in &handles {
        shelf.release(*v);
    }
    let syncs = futures::future::join_all(handles.iter().map(|(_, h)| async move {
        h.we_have_their_changes(conn).await;
        h.they_have_our_changes(conn).await;
    }));
    phase(start, "  volumes found");
    on_hub(repo, conn, timeout, url, "exchanging volumes", syncs).await?;
    phase(start, "  volumes synced");
    // The volumes as they are now: what is taken in is exactly what is kept (changes that
    // arrive later stay on the hub for the next sync, never in a kept volume the log was not
    // offered).
    let mut docs: BTreeMap<VolumeId, Automerge> = handles
        .iter()
        .map(|(v, h)| (*v, h.with_document(|d| d.clone())))
        .collect();
    // The volumes a peer or the hub deleted entries from: checked entry by entry below.
    let deleted: std::collections::BTreeSet<VolumeId> = docs
        .iter()
        .filter(|(v, d)| crate::entry::deletes(d, before.get(v).map_or(&[][..], |h| &h[..])))
        .map(|(v, _)| *v)
        .collect();
    // The event entries each volume holds as the hub gave it (whether this device can open
    // them or not): what the index's counts are held against.
    let given: BTreeMap<VolumeId, u64> = docs
        .iter()
        .map(|(v, d)| {
            (
                *v,
                d.keys(automerge::ROOT)
                    .filter(|k| !crate::entry::is_rotation(k))
                    .count() as u64,
            )
        })
        .collect();
    let rotations = index.with_document(|d| rotations_in(d));
    let (entries, gained) = open_entries(store, ring, &rotations, |r| {
        docs.iter()
            .flat_map(|(v, d)| {
                let from = before.get(v).cloned().unwrap_or_default();
                entries_of(d, r, &names, d.diff(&from, &d.get_heads()))
            })
            .collect()
    })?;
    phase(start, "  entries opened");
    let mut entries = entries;
    crate::entry::unannounced_epochs_as_junk(store, &rotations, &mut entries)?;
    let (imported, dropped) = take_in(store, entries, Acceptance::EachEvent)?;
    phase(start, "  taken in");
    // Refused: out of the documents kept and offered back (the hub takes the deletions), and
    // only from the volumes that brought them (never an event the log now holds).
    let dropped = held_back(store, &names, handles.iter().map(|(v, _)| *v), dropped)?;
    for (v, h) in &handles {
        h.with_document(|d| layout::drop_in(d, &dropped))?;
        if let Some(mut doc) = docs.remove(v) {
            layout::drop_in(&mut doc, &dropped)?;
            shelf.set_volume(*v, doc);
        }
    }
    shelf.ring = ring.clone();
    // The rows since the mark: what was just taken in (its volumes hold it already) and
    // whatever another process recorded meanwhile (a GM's second terminal), which goes into
    // the volumes exchanged too, so that every count listed below is on the hub.
    let before_put: BTreeMap<VolumeId, Vec<ChangeHash>> = handles
        .iter()
        .map(|(v, _)| {
            (
                *v,
                shelf
                    .loaded(*v)
                    .map(|k| k.doc.get_heads())
                    .unwrap_or_default(),
            )
        })
        .collect();
    shelf.catch_up(store)?;
    // The log is the truth: what a peer or the hub deleted from a volume goes back in.
    let mut restored = 0;
    for (v, _) in &handles {
        restored += shelf.restore(store, *v, deleted.contains(v))?;
    }
    for (v, h) in &handles {
        let from = before_put.get(v).cloned().unwrap_or_default();
        let fresh = shelf.volume(store, *v)?.doc.save_after(&from);
        if !fresh.is_empty() {
            h.with_document(|d| d.load_incremental(&fresh))
                .map_err(|e| SyncError::NotSync(e.to_string()))?;
        }
    }
    // This ledger's counts (and rotations) into the index, for the others to see: only for
    // the volumes just exchanged (the others are not on this hub any newer than it lists).
    let rotations = crypt::rotations_of(store)?;
    let counts: Counts = handles
        .iter()
        .filter_map(|(v, _)| Some((*v, *shelf.counts.get(v)?)))
        .collect();
    // What the hub lists but did not give: reported, and flagged in the index for a device
    // that holds the volume whole to put back; a flag this device answered goes.
    // Held against the log's count after the sync (what was taken in), not against the
    // hub's entries: junk put beside a withheld entry must not make up its number. A device
    // left out of a key rotation counts the entries it cannot open as given (they are sealed
    // from it, not withheld).
    let left_out = {
        let roster = leechbook_core::roster::Roster::from_log(&store.roster_events()?);
        let rotations = index.with_document(|d| rotations_in(d));
        crypt::left_out_by(store, ring, &rotations, &roster).is_some()
    };
    let mut gaps = Vec::new();
    let mut flags: Vec<(VolumeId, bool)> = Vec::new();
    for (v, _) in &handles {
        let (held, l) = (
            if v.device == own || !left_out {
                shelf.counts.get(v).copied().unwrap_or(0)
            } else {
                given.get(v).copied().unwrap_or(0)
            },
            listed.get(v).copied().unwrap_or(0),
        );
        if l > held {
            gaps.push(if v.device == own {
                format!(
                    "the hub's index lists {l} events of this device's volume {}, but this device recorded {held}: a count raised on the hub (ignored)",
                    v.number
                )
            } else {
                format!(
                    "the hub lists {l} events of device {}'s volume {} but gave {held}: withheld or deleted there; a device that holds them puts them back when it next syncs",
                    v.device.short(),
                    v.number
                )
            });
            if v.device != own {
                flags.push((*v, true));
            }
        } else if short.contains(v) {
            flags.push((*v, false));
        }
    }
    for v in &unfound {
        gaps.push(format!(
            "the hub lists {} events of device {}'s volume {} but did not give the volume: a device that holds it puts it back when it next syncs",
            listed.get(v).copied().unwrap_or(0),
            v.device.short(),
            v.number
        ));
        if v.device != own {
            flags.push((*v, true));
        }
    }
    let known = index.with_document(|d| -> Result<_, SyncError> {
        layout::publish(d, &counts, &rotations, &names)?;
        layout::flag_short(d, &flags, &names)?;
        crate::mirror::relay_heads(store, d, ring)
    })?;
    gaps.extend(crate::heads::gaps(
        store,
        &shelf.counts,
        handles.iter().map(|(v, _)| v.device),
        &known,
    )?);
    let all: Vec<&DocHandle> = std::iter::once(&index)
        .chain(handles.iter().map(|(_, h)| h))
        .collect();
    let sent: Vec<Vec<ChangeHash>> = all
        .iter()
        .map(|h| h.with_document(|d| d.get_heads()))
        .collect();
    let syncs = futures::future::join_all(all.iter().map(|h| h.they_have_our_changes(conn)));
    on_hub(repo, conn, timeout, url, "taking our changes", syncs).await?;
    // "synced" only once the hub said it holds what was sent.
    let unconfirmed = all
        .iter()
        .zip(&sent)
        .filter(|(h, sent)| !acked(h, conn, sent))
        .count();
    if unconfirmed > 0 {
        return Err(net(format!(
            "the hub at {url} went away before it confirmed {unconfirmed} of the documents sent; nothing is lost here, sync again"
        )));
    }
    phase(start, "  counts listed");
    // Kept only as checked whole (a change that reached the handle since is checked too).
    let doc = index.with_document(|d| d.clone());
    bound::admit(&doc).map_err(|why| poisoned(url, &why))?;
    shelf.index.doc = doc;
    let mut imported = imported;
    imported.gaps = gaps;
    imported.restored = restored;
    Ok((imported, gained, handles.len()))
}

/// The refused keys that may be dropped from `volumes`: never the key of an event the log
/// holds (a bad value put beside a genuine event's, under its key).
fn held_back(
    store: &Store,
    names: &layout::Names,
    volumes: impl IntoIterator<Item = VolumeId>,
    mut dropped: Vec<String>,
) -> Result<Vec<String>, SyncError> {
    if dropped.is_empty() {
        return Ok(dropped);
    }
    for v in volumes {
        let held = layout::held_keys(store, names, v)?;
        dropped.retain(|k| !held.contains(k));
    }
    Ok(dropped)
}

/// Pushes a mirror's documents (its index and volumes, as they are) to the hub at `url`, and
/// waits until the hub holds them. For tests and tools that put documents on a hub without a
/// ledger (a forger, in the tests).
pub fn push(url: &str, m: &mut Mirror, timeout: Duration) -> Result<(), SyncError> {
    let places = Places::of(m.ring());
    let rt = runtime()?;
    rt.block_on(async {
        let storage = ShelfStorage::new(None);
        let mut ids = vec![places.index()];
        storage.hold(&ids[0], m.index.save(), Vec::new()).await;
        for (v, d) in m.volumes.iter_mut() {
            let id = places.volume(*v);
            storage.hold(&id, d.save(), Vec::new()).await;
            ids.push(id);
        }
        let repo = campaign_repo(places, storage, true).await;
        let conn = dial(&repo, url, timeout, &Refusal::default()).await?;
        for id in ids {
            if let Some(h) = find(&repo, id).await? {
                within(
                    timeout,
                    url,
                    "taking our changes",
                    h.they_have_our_changes(conn),
                )
                .await?;
            }
        }
        repo.stop().await;
        Ok(())
    })
}

/// What a hub reports while it serves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubReport {
    /// It is listening.
    Listening {
        /// Where.
        url: String,
        /// The campaign it serves.
        campaign: CampaignId,
    },
    /// Peers sent events; these were taken into its ledger.
    TookIn(Imported),
    /// Its ledger gained events (recorded here while serving); they were offered to peers.
    Offered(usize),
    /// Something went wrong that the next round may mend (the ledger busy, say).
    Trouble(String),
}

/// Serves the store's campaign as a hub on `listener` until `until` completes: peers that
/// dial in sync the campaign's documents through it, what they send is taken into this
/// ledger (each event checked), and what this ledger gains is offered to them. Volumes are
/// read from the ledger only when a peer asks for one. `report` hears what happens.
pub fn serve(
    store: &mut Store,
    listener: std::net::TcpListener,
    until: impl Future<Output = ()>,
    report: &mut dyn FnMut(HubReport),
) -> Result<(), SyncError> {
    serve_with(store, listener, until, report, axum::Router::new())
}

/// [`serve`], answering `also`'s routes (the players' page) on the same address beside the
/// sync's WebSocket at `/`. The routes run on the hub's runtime; they read and write the
/// ledger through connections of their own.
pub fn serve_with(
    store: &mut Store,
    listener: std::net::TcpListener,
    until: impl Future<Output = ()>,
    report: &mut dyn FnMut(HubReport),
    also: axum::Router,
) -> Result<(), SyncError> {
    let ring = crypt::ring_for_sync(store)?;
    let campaign = store.campaign();
    let places = Places::of(&ring);
    let mut shelf = Shelf::open(store, ring)?;
    shelf.catch_up(store)?;
    shelf.keep(store)?;
    // The hub's index lists what this ledger holds, and nothing it listed elsewhere.
    let mut own = layout::fresh_index(&shelf.ring)?;
    layout::publish(
        &mut own,
        &shelf.counts,
        &crypt::rotations_of(store)?,
        &shelf.names,
    )?;
    crate::mirror::relay_heads(store, &mut own, &shelf.ring)?;
    let second = store.path().map(Store::open).transpose()?;
    let storage = ShelfStorage::new(second);
    for v in shelf.all_volumes(store)? {
        storage.name(&places.volume(v), v.name());
    }
    let rt = runtime()?;
    rt.block_on(async {
        storage.hold(&places.index(), own.save(), Vec::new()).await;
        let repo = campaign_repo(places, storage.clone(), false).await;
        let index = find(&repo, places.index())
            .await?
            .ok_or_else(|| net("the campaign's index does not load"))?;
        let refusal = Refusal::default();
        let (url, server) = listen(&repo, listener, refusal.clone(), also)?;
        report(HubReport::Listening { url, campaign });
        let mut changes = index.changes();
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        let until = std::pin::pin!(until);
        let mut until = until;
        loop {
            tokio::select! {
                _ = &mut until => break,
                _ = changes.next() => {}
                _ = tick.tick() => {}
            }
            let closed = refusal.lock().ok().and_then(|mut r| r.take());
            if let Some(why) = closed {
                report(HubReport::Trouble(format!(
                    "closed a peer's connection on data that no Leechbook device writes, before loading it: {why}"
                )));
            }
            match hub_round(store, &mut shelf, &repo, &index, &storage).await {
                Ok((took, offered)) => {
                    if offered > 0 {
                        report(HubReport::Offered(offered));
                    }
                    if let Some(i) = took {
                        report(HubReport::TookIn(i));
                    }
                }
                Err(e) => report(HubReport::Trouble(e.to_string())),
            }
        }
        repo.stop().await;
        server.abort();
        Ok(())
    })
}

/// The volume's handle in the hub's repo: found (in memory, in the ledger, or from a peer
/// that pushed it), or made from the shelf's copy.
async fn handle_of(
    repo: &Repo,
    storage: &ShelfStorage,
    shelf: &mut Shelf,
    store: &Store,
    v: VolumeId,
) -> Result<Option<DocHandle>, SyncError> {
    let id = Places::of(&shelf.ring).volume(v);
    storage.name(&id, v.name());
    // A volume begun here since the hub started (a device's first events, recorded by a
    // players' page or a new volume's first) is in neither the engine nor the ledger's kept
    // documents: the shelf's copy goes in before the engine looks, since an engine that
    // found nothing once does not look again.
    if !storage.holds(&id).await && layout::kept_bytes(store, &v.name())?.is_none() {
        let doc = shelf.volume(store, v)?.doc.save();
        storage.hold(&id, doc, Vec::new()).await;
    }
    find(repo, id).await
}

/// Puts the events the ledger gained since the shelf's mark (recorded here, or just taken
/// in) into the shelf's volumes, and the same changes into the engine's, so that both hold
/// exactly the log's events and every count is on the hub. Returns how many were new to the
/// engine's volumes.
async fn offer(
    store: &mut Store,
    shelf: &mut Shelf,
    repo: &Repo,
    storage: &ShelfStorage,
) -> Result<usize, SyncError> {
    let (gains, last) = store.events_after_row(shelf.mark)?;
    let (ring, names) = (shelf.ring.clone(), shelf.names.clone());
    let mut offered = 0;
    for (v, events) in layout::by_volume(gains.iter().cloned()) {
        let kept = shelf.volume(store, v)?;
        let from = kept.doc.get_heads();
        let put = layout::put_events(&mut kept.doc, &events, &ring, &names)?;
        let fresh = kept.doc.save_after(&from);
        let Some(h) = handle_of(repo, storage, shelf, store, v).await? else {
            // Never in silence: the round fails, says so, and the next one tries again.
            return Err(net(format!(
                "the sync engine could not load device {}'s volume {} to offer {put} new event(s)",
                v.device.short(),
                v.number
            )));
        };
        if !fresh.is_empty() {
            h.with_document(|d| d.load_incremental(&fresh))
                .map_err(|e| SyncError::NotSync(e.to_string()))?;
        }
        offered += put;
    }
    shelf.counted(&gains, last);
    Ok(offered)
}

/// One round of a hub: offers what the ledger gained (recorded here), takes in what peers
/// listed in the index beyond what the ledger holds, offers again what that and any other
/// process added, lists the ledger's counts, keeps.
async fn hub_round(
    store: &mut Store,
    shelf: &mut Shelf,
    repo: &Repo,
    index: &DocHandle,
    storage: &ShelfStorage,
) -> Result<(Option<Imported>, usize), SyncError> {
    // The ring as the ledger holds it now (a revocation in another terminal rotates it).
    let held_ring = crypt::ring_for_sync(store)?;
    let mut ring = held_ring.clone();
    shelf.ring = ring.clone();
    let mut offered = offer(store, shelf, repo, storage).await?;
    // Taken in: what the index lists beyond the ledger's counts.
    let names = shelf.names.clone();
    let listed = index.with_document(|d| index_counts(d, &names));
    let behind: Vec<VolumeId> = listed
        .iter()
        .filter(|(v, n)| **n > shelf.counts.get(v).copied().unwrap_or(0))
        .map(|(v, _)| *v)
        .collect();
    let mut took = None;
    if !behind.is_empty() {
        let mut docs = BTreeMap::new();
        for v in &behind {
            let from = shelf.volume(store, *v)?.doc.get_heads();
            if let Some(h) = handle_of(repo, storage, shelf, store, *v).await? {
                // As it is now: what is taken in is exactly what is kept.
                let doc = h.with_document(|d| d.clone());
                docs.insert(*v, (from, h, doc));
            }
        }
        let rotations = index.with_document(|d| rotations_in(d));
        let (entries, gained) = open_entries(store, &mut ring, &rotations, |r| {
            docs.values()
                .flat_map(|(from, _, d)| entries_of(d, r, &names, d.diff(from, &d.get_heads())))
                .collect()
        })?;
        let (imported, dropped) = take_in(store, entries, Acceptance::EachEvent)?;
        crypt::keep_gains(store, Some(&held_ring), &ring, &gained)?;
        let dropped = held_back(store, &names, docs.keys().copied(), dropped)?;
        for (v, (_, h, mut doc)) in docs {
            h.with_document(|d| layout::drop_in(d, &dropped))?;
            layout::drop_in(&mut doc, &dropped)?;
            shelf.set_volume(v, doc);
        }
        shelf.ring = ring.clone();
        offered += offer(store, shelf, repo, storage).await?;
        if imported.added > 0 {
            took = Some(imported);
        }
    }
    let rotations = crypt::rotations_of(store)?;
    let counts = shelf.counts.clone();
    index.with_document(|d| -> Result<_, SyncError> {
        layout::publish(d, &counts, &rotations, &names)?;
        crate::mirror::relay_heads(store, d, &ring)
    })?;
    // Kept only as checked whole: a peer's junk in the served index is never kept.
    let doc = index.with_document(|d| d.clone());
    bound::admit(&doc).map_err(|why| poisoned("this device's own hub", &why))?;
    shelf.index.doc = doc;
    shelf.keep(store)?;
    Ok((took, offered))
}

/// The line for a campaign index that no Leechbook device writes, as a hub holds it.
fn poisoned(url: &str, why: &str) -> SyncError {
    SyncError::Poisoned(format!(
        "the hub at {url} holds the campaign's index as a document no Leechbook device writes ({why}): nothing of it was read or kept here"
    ))
}

/// Completes when the process is interrupted (Ctrl-C): the usual end of [`serve`].
pub async fn interrupted() {
    // If the signal cannot be watched, serve until the process is killed.
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// Accepts WebSocket connections on `listener` into `repo`'s sync. Returns the address peers
/// dial and the server's task.
/// Each peer's messages are checked before the engine reads them ([`metered`]); a
/// connection closed on refused data says why in `refusal`.
fn listen(
    repo: &Repo,
    listener: std::net::TcpListener,
    refusal: Refusal,
    also: axum::Router,
) -> Result<(String, tokio::task::JoinHandle<std::io::Result<()>>), SyncError> {
    use axum::extract::ws::WebSocketUpgrade;
    let addr = listener.local_addr().map_err(net)?;
    listener.set_nonblocking(true).map_err(net)?;
    let url = format!("ws://{addr}/");
    let acceptor = repo
        .make_acceptor(url::Url::parse(&url).map_err(net)?)
        .map_err(|_| net("the sync engine stopped"))?;
    let app = axum::Router::new().route(
        "/",
        axum::routing::get(move |upgrade: WebSocketUpgrade| {
            let (acceptor, refusal) = (acceptor.clone(), refusal.clone());
            async move {
                upgrade
                    .max_message_size(MAX_MESSAGE)
                    .max_frame_size(MAX_MESSAGE)
                    .on_upgrade(move |socket| async move {
                        // A refused connection only ends that connection.
                        let _ = acceptor.accept(socket_transport(socket, refusal));
                    })
            }
        }),
    );
    let app = app.merge(also);
    let listener = tokio::net::TcpListener::from_std(listener).map_err(net)?;
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    Ok((url, server))
}

/// A document a hub holds: its id, a whole save and changes appended to it.
pub type HeldDocument = (DocumentId, Vec<u8>, Vec<u8>);

/// The documents a ledger keeps (its index and every volume), with their ids: what a hub
/// that saw the ledger's last sync holds (for benchmarks and tests of devices that meet only
/// through a hub).
pub fn kept_documents(store: &Store) -> Result<Vec<HeldDocument>, SyncError> {
    let Some(ring) = crypt::keyring_of(store)? else {
        return Ok(Vec::new());
    };
    let places = Places::of(&ring);
    let shelf = Shelf::open(store, ring)?;
    let mut out = Vec::new();
    if let Some((w, a)) = layout::kept_bytes(store, "index")? {
        out.push((places.index(), w, a));
    }
    for v in shelf.all_volumes(store)? {
        if let Some((w, a)) = layout::kept_bytes(store, &v.name())? {
            out.push((places.volume(v), w, a));
        }
    }
    Ok(out)
}

/// A hub that keeps no ledger: it relays every document its peers sync through it, as any
/// automerge-repo sync server does, until `until` completes; `holding` are documents it
/// starts with (as [`kept_documents`] gives them: a hub restarted from its storage). For a
/// hub on a machine that plays no part in the campaign, and for tests and benchmarks of
/// devices that meet only through a hub.
pub fn relay(
    listener: std::net::TcpListener,
    holding: Vec<HeldDocument>,
    until: impl Future<Output = ()>,
    on_listening: impl FnOnce(&str),
) -> Result<(), SyncError> {
    runtime()?.block_on(async {
        let storage = ShelfStorage::new(None);
        for (id, whole, appended) in holding {
            storage.hold(&id, whole, appended).await;
        }
        // Answers for what peers ask for; never announces (as the npm sync server).
        let repo = Repo::build_tokio()
            .with_storage(storage)
            .with_share_policy(ShareConfig {
                announce: false,
                ..ShareConfig::read_write()
            })
            .load()
            .await;
        let (url, server) = listen(&repo, listener, Refusal::default(), axum::Router::new())?;
        on_listening(&url);
        until.await;
        repo.stop().await;
        server.abort();
        Ok(())
    })
}
