//! The network transport: automerge-repo's sync protocol over WebSocket, through samod.
//!
//! A campaign's document has the automerge-repo document id made of the campaign id's sixteen
//! bytes, so every device, and any automerge-repo sync server, meets on the same document
//! without being told its id. A device syncs by dialling a hub ([`sync_with`]): its mirror is
//! offered, the sync protocol exchanges what each side lacks, and what came back is imported
//! event by event ([`Acceptance::EachEvent`]: a hub is open by design, so an event that does
//! not check out is refused and reported, and the rest still land). The hub is either a
//! standard automerge-repo sync server or a device running [`serve`], which imports into its
//! own ledger what its peers send and offers its peers what its ledger gains.
//!
//! The file transport never depends on this module: both sit behind [`Transport`].

use crate::{
    import_changes, mirror_of, put_missing, Acceptance, Imported, SyncError, Transport, DOC_KEY,
};
use automerge::ChangeHash;
use futures::StreamExt;
use leechbook_core::ids::CampaignId;
use leechbook_store::Store;
use samod::storage::{InMemoryStorage, Storage, StorageKey};
use samod::{BackoffConfig, ConnectionId, DocHandle, DocumentId, Repo, ShareConfig};
use std::future::Future;
use std::time::Duration;

/// The automerge-repo document id of a campaign's document: the campaign id's bytes marked
/// as a version 4 UUID. automerge-repo's JavaScript side accepts only versions 1 to 5 in a
/// document id, and a campaign id is a version 7 UUID; in a v7 id the version and variant
/// bits are constant, so overwriting them loses nothing and two campaigns never share a
/// document.
pub fn document_id(campaign: CampaignId) -> DocumentId {
    let v4 = uuid::Builder::from_random_bytes(*campaign.as_bytes()).into_uuid();
    DocumentId::try_from(v4.as_bytes().to_vec()).expect("a UUID is sixteen bytes")
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

/// A repo that shares the campaign's document with every peer and no other document (so a
/// device serving as a hub is not a store for strangers' documents), seeded with `offer` (a
/// saved mirror) when there is one.
async fn seeded_repo(campaign: CampaignId, offer: Option<Vec<u8>>) -> Result<Repo, SyncError> {
    let id = document_id(campaign);
    let storage = InMemoryStorage::new();
    if let Some(offer) = offer {
        let key = StorageKey::from_parts([id.to_string().as_str(), "snapshot", "leechbook"])
            .map_err(|_| net("the campaign's document id does not make a storage key"))?;
        storage.put(key, offer).await;
    }
    Ok(Repo::build_tokio()
        .with_storage(storage)
        .with_share_policy(move |doc: DocumentId, _peer| {
            let config = if doc == id {
                ShareConfig::read_write()
            } else {
                ShareConfig::none()
            };
            futures::stream::iter([config])
        })
        .load()
        .await)
}

/// The campaign's document: from the repo's storage, or else from its peers.
async fn find(repo: &Repo, campaign: CampaignId) -> Result<DocHandle, SyncError> {
    repo.find(document_id(campaign))
        .await
        .map_err(|_| net("the sync engine stopped"))?
        .ok_or_else(|| net(format!("the hub holds no campaign {campaign}")))
}

/// A connection to a hub, carrying one campaign's document.
pub struct NetworkTransport {
    rt: tokio::runtime::Runtime,
    repo: Repo,
    doc: DocHandle,
    conn: ConnectionId,
    offered: Vec<ChangeHash>,
    timeout: Duration,
    url: String,
}

impl NetworkTransport {
    /// Dials the hub at `url` (`ws://` or `wss://`) and offers `offer` (a saved mirror whose
    /// heads are `offered`) as the campaign's document; with no offer (a device joining), the
    /// hub must hold the campaign. Gives up after `timeout`.
    pub fn connect(
        url: &str,
        campaign: CampaignId,
        offer: Option<Vec<u8>>,
        offered: Vec<ChangeHash>,
        timeout: Duration,
    ) -> Result<NetworkTransport, SyncError> {
        let parsed = url::Url::parse(url)
            .map_err(|e| net(format!("{url} is not a WebSocket address ({e})")))?;
        if !matches!(parsed.scheme(), "ws" | "wss") {
            return Err(net(format!(
                "{url} is not a WebSocket address (it starts with ws:// or wss://)"
            )));
        }
        let rt = runtime()?;
        let (repo, doc, conn) = rt.block_on(async {
            let repo = seeded_repo(campaign, offer).await?;
            let dialer = repo
                .dial_websocket(
                    parsed,
                    BackoffConfig {
                        initial_delay: Duration::from_millis(100),
                        max_delay: Duration::from_secs(1),
                        max_retries: Some(3),
                    },
                )
                .map_err(|_| net("the sync engine stopped"))?;
            let unreachable = || net(format!("could not reach a sync hub at {url}"));
            tokio::time::timeout(timeout, dialer.established())
                .await
                .map_err(|_| unreachable())?
                .map_err(|_| unreachable())?;
            let conn = dialer.connection_id().ok_or_else(unreachable)?;
            let doc = tokio::time::timeout(timeout, find(&repo, campaign))
                .await
                .map_err(|_| unreachable())??;
            Ok::<_, SyncError>((repo, doc, conn))
        })?;
        Ok(NetworkTransport {
            rt,
            repo,
            doc,
            conn,
            offered,
            timeout,
            url: url.to_string(),
        })
    }

    fn wait(&self, what: &str, f: impl Future<Output = ()>) -> Result<(), SyncError> {
        self.rt
            .block_on(async { tokio::time::timeout(self.timeout, f).await })
            .map_err(|_| {
                net(format!(
                    "the hub at {} did not finish {what} within {} s; nothing half-done was kept, sync again",
                    self.url,
                    self.timeout.as_secs()
                ))
            })
    }

    /// Waits until the hub holds everything this side holds, then hangs up.
    pub fn finish(self) -> Result<(), SyncError> {
        self.wait(
            "taking our changes",
            self.doc.they_have_our_changes(self.conn),
        )?;
        self.rt.block_on(self.repo.stop());
        Ok(())
    }
}

impl Transport for NetworkTransport {
    fn send(&mut self, bytes: &[u8]) -> Result<(), SyncError> {
        self.doc
            .with_document(|d| d.load_incremental(bytes))
            .map_err(|e| SyncError::NotSync(e.to_string()))?;
        self.wait(
            "taking our changes",
            self.doc.they_have_our_changes(self.conn),
        )
    }

    /// The changes the hub holds beyond what this side offered.
    fn receive(&mut self) -> Result<Option<Vec<u8>>, SyncError> {
        self.wait(
            "sending its changes",
            self.doc.we_have_their_changes(self.conn),
        )?;
        let bytes = self.doc.with_document(|d| d.save_after(&self.offered));
        Ok((!bytes.is_empty()).then_some(bytes))
    }
}

/// What a network sync did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetSynced {
    /// What came in.
    pub imported: Imported,
    /// The events the ledger holds now.
    pub events: u64,
}

/// Syncs the store with the hub at `url`: offers everything it holds, takes in what the hub
/// holds that it lacks (each event checked; the refused are listed), and waits until the hub
/// holds everything.
pub fn sync_with(store: &mut Store, url: &str, timeout: Duration) -> Result<NetSynced, SyncError> {
    let mut m = mirror_of(store)?;
    let offer = if store.count()? == 0 {
        None
    } else {
        let offer = m.save();
        store.put_sync_state(DOC_KEY, &offer)?;
        Some(offer)
    };
    let mut t = NetworkTransport::connect(url, store.campaign(), offer, m.heads(), timeout)?;
    let bytes = t.receive()?.unwrap_or_default();
    let imported = import_changes(store, &bytes, Acceptance::EachEvent)?;
    t.finish()?;
    Ok(NetSynced {
        imported,
        events: store.count()?,
    })
}

/// What a hub reports while it serves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubReport {
    /// It is listening.
    Listening {
        /// Where.
        url: String,
        /// The campaign it serves (a device joins it with `init --join URL --campaign ID`).
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
/// dial in sync the campaign's document through it, what they send is taken into this
/// ledger (each event checked), and what this ledger gains is offered to them. `report` hears
/// what happens.
pub fn serve(
    store: &mut Store,
    listener: std::net::TcpListener,
    until: impl Future<Output = ()>,
    report: &mut dyn FnMut(HubReport),
) -> Result<(), SyncError> {
    let mut m = mirror_of(store)?;
    let offer = m.save();
    store.put_sync_state(DOC_KEY, &offer)?;
    let mut seen = m.heads();
    let rt = runtime()?;
    rt.block_on(async {
        let repo = seeded_repo(store.campaign(), Some(offer)).await?;
        let doc = find(&repo, store.campaign()).await?;
        let (url, server) = listen(&repo, listener)?;
        report(HubReport::Listening {
            url,
            campaign: store.campaign(),
        });
        let mut changes = doc.changes();
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        let mut offered_count = store.count()?;
        let until = std::pin::pin!(until);
        let mut until = until;
        loop {
            tokio::select! {
                _ = &mut until => break,
                _ = changes.next() => {}
                _ = tick.tick() => {}
            }
            match offer_gains(store, &doc, &mut offered_count) {
                Ok(0) => {}
                Ok(n) => report(HubReport::Offered(n)),
                Err(e) => report(HubReport::Trouble(e.to_string())),
            }
            match take_in(store, &doc, &mut seen) {
                Ok(Some(i)) => report(HubReport::TookIn(i)),
                Ok(None) => {}
                Err(e) => report(HubReport::Trouble(e.to_string())),
            }
        }
        repo.stop().await;
        server.abort();
        Ok(())
    })
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
fn listen(
    repo: &Repo,
    listener: std::net::TcpListener,
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
            let acceptor = acceptor.clone();
            async move {
                upgrade.on_upgrade(move |socket| async move {
                    // A refused connection only ends that connection.
                    let _ = acceptor.accept_axum(socket, None);
                })
            }
        }),
    );
    let listener = tokio::net::TcpListener::from_std(listener).map_err(net)?;
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    Ok((url, server))
}

/// A hub that keeps no ledger: it relays every document its peers sync through it, as any
/// automerge-repo sync server does, until `until` completes. For a hub on a machine that
/// plays no part in the campaign, and for tests of devices that meet only through a hub.
pub fn relay(
    listener: std::net::TcpListener,
    until: impl Future<Output = ()>,
    on_listening: impl FnOnce(&str),
) -> Result<(), SyncError> {
    runtime()?.block_on(async {
        let repo = Repo::build_tokio().load().await;
        let (url, server) = listen(&repo, listener)?;
        on_listening(&url);
        until.await;
        repo.stop().await;
        server.abort();
        Ok(())
    })
}

/// Imports what peers added to the document since `seen`; `seen` moves on only if it landed.
fn take_in(
    store: &mut Store,
    doc: &DocHandle,
    seen: &mut Vec<ChangeHash>,
) -> Result<Option<Imported>, SyncError> {
    let (bytes, heads) = doc.with_document(|d| (d.save_after(seen), d.get_heads()));
    if bytes.is_empty() {
        *seen = heads;
        return Ok(None);
    }
    let imported = import_changes(store, &bytes, Acceptance::EachEvent)?;
    *seen = heads;
    Ok((imported.added > 0 || !imported.refused.is_empty()).then_some(imported))
}

/// Puts the events the ledger gained (recorded by another process while serving) into the
/// document, which shares them with the peers.
fn offer_gains(store: &Store, doc: &DocHandle, offered: &mut u64) -> Result<usize, SyncError> {
    let count = store.count()?;
    if count == *offered {
        return Ok(0);
    }
    let events = store.events()?;
    let added = doc.with_document(|d| {
        d.transact(|tx| put_missing(tx, &events))
            .map(|ok| ok.result)
            .map_err(|f| f.error)
    })?;
    *offered = count;
    Ok(added)
}
