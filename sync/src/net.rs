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
    crypt, drop_keys, entries_of, keep, kept, open_entries, put_missing, put_rotations,
    refused_unheld, rotations_in, take_in, Acceptance, Imported, Keyring, SyncError, Transport,
};
use automerge::{ChangeHash, ReadDoc};
use futures::StreamExt;
use leechbook_core::ids::CampaignId;
use leechbook_core::Envelope;
use leechbook_store::ReadLog;
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

/// A sync engine's storage holding the campaign's document as the store keeps it (a whole
/// save, and the changes appended since), where automerge-repo's storage layout puts it.
async fn stored(campaign: CampaignId, seed: Seed) -> Result<InMemoryStorage, SyncError> {
    let storage = InMemoryStorage::new();
    if let Some((base, increments)) = seed {
        let id = document_id(campaign).to_string();
        let key = |kind: &str| {
            StorageKey::from_parts([id.as_str(), kind, "leechbook"])
                .map_err(|_| net("the campaign's document id does not make a storage key"))
        };
        storage.put(key("snapshot")?, base).await;
        if !increments.is_empty() {
            storage.put(key("incremental")?, increments).await;
        }
    }
    Ok(storage)
}

/// A repo that shares the campaign's document with every peer and no other document (so a
/// device serving as a hub is not a store for strangers' documents), seeded with the document
/// as the store keeps it (a whole save and the changes appended since) when there is one.
async fn seeded_repo(
    campaign: CampaignId,
    seed: Option<(Vec<u8>, Vec<u8>)>,
) -> Result<Repo, SyncError> {
    let id = document_id(campaign);
    let storage = stored(campaign, seed).await?;
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
    /// The heads of the document as the store kept it.
    kept: Vec<ChangeHash>,
    /// The heads of what this side offered (the kept document and the local events).
    offered: Vec<ChangeHash>,
    timeout: Duration,
    url: String,
}

impl NetworkTransport {
    /// Dials the hub at `url` (`ws://` or `wss://`) and offers `seed` (a saved document and
    /// changes appended to it) with `local` (events not yet in it) put in, sealed under
    /// `ring`, as the campaign's document, with the key rotations this ledger knows
    /// (`rotations`); with no seed (a device joining), the hub must hold the campaign. Gives
    /// up after `timeout`.
    pub fn connect(
        url: &str,
        seed: Seed,
        local: &[Envelope],
        ring: &Keyring,
        rotations: &[crate::Rotation],
        timeout: Duration,
    ) -> Result<NetworkTransport, SyncError> {
        let campaign = ring.campaign();
        let parsed = url::Url::parse(url)
            .map_err(|e| net(format!("{url} is not a WebSocket address ({e})")))?;
        if !matches!(parsed.scheme(), "ws" | "wss") {
            return Err(net(format!(
                "{url} is not a WebSocket address (it starts with ws:// or wss://)"
            )));
        }
        let rt = runtime()?;
        let seeded = seed.is_some();
        let (repo, doc, conn, kept, offered) = rt.block_on(async {
            let repo = seeded_repo(campaign, seed).await?;
            // A seeded document is found, and the local events put in it, before any peer is
            // connected: its heads then are exactly what this side offers, and nothing the hub
            // sends can be mistaken for ours.
            let local = if seeded {
                let doc = find(&repo, campaign).await?;
                let heads = doc.with_document(|d| {
                    let kept = d.get_heads();
                    put_in(d, local, ring, rotations)?;
                    Ok::<_, SyncError>((kept, d.get_heads()))
                })?;
                Some((doc, heads))
            } else {
                None
            };
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
            let (doc, (kept, offered)) = match local {
                Some(found) => found,
                None => {
                    let doc = tokio::time::timeout(timeout, find(&repo, campaign))
                        .await
                        .map_err(|_| unreachable())??;
                    (doc, (Vec::new(), Vec::new()))
                }
            };
            Ok::<_, SyncError>((repo, doc, conn, kept, offered))
        })?;
        Ok(NetworkTransport {
            rt,
            repo,
            doc,
            conn,
            kept,
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

/// What to seed the sync engine with, given the document the store keeps and the events
/// recorded since: the kept document, or (when none is kept) a new one of those events; and
/// the events still to put in it. `None` for a ledger with no events at all (joining).
type Seed = Option<(Vec<u8>, Vec<u8>)>;

fn seed_of(
    k: crate::Kept,
    local: Vec<Envelope>,
    ring: &Keyring,
) -> Result<(Seed, Vec<Envelope>), SyncError> {
    if !k.base.is_empty() {
        return Ok((Some((k.base, k.increments)), local));
    }
    if local.is_empty() {
        return Ok((None, local));
    }
    let mut m = crate::Mirror::new(ring.clone());
    m.add(&local)?;
    Ok((Some((m.save(), Vec::new())), Vec::new()))
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
/// holds everything. The document is loaded once (by the sync engine, from what the store
/// keeps); only the events recorded since the last sync are read from the log, only the
/// entries the hub sent are decoded, and only what the document gained is written back.
pub fn sync_with(store: &mut Store, url: &str, timeout: Duration) -> Result<NetSynced, SyncError> {
    let held_ring = crypt::keyring_of(store)?;
    let mut ring = crypt::ring_for_sync(store)?;
    let k = kept(store)?;
    let kept_sizes = (k.base.len(), k.increments.len());
    let (local, _) = store.events_after_row(k.mark)?;
    let (seed, local) = seed_of(k, local, &ring)?;
    let rotations = crypt::rotations_of(store)?;
    let t = NetworkTransport::connect(url, seed, &local, &ring, &rotations, timeout)?;
    // A document kept before refused entries were dropped drops them now (and offers the
    // deletion to the hub with everything else).
    t.doc.with_document(|d| {
        let keys = refused_unheld(d, store, &ring)?;
        drop_in(d, &keys)
    })?;
    let kept_heads = t.kept.clone();
    t.wait("sending its changes", t.doc.we_have_their_changes(t.conn))?;
    // Take in what the hub sent, then keep the document exactly as taken in: if more arrived
    // meanwhile, take that in too first (the kept document never holds an entry the log has
    // not been offered).
    let whole = crate::wants_whole(kept_sizes);
    let mut from = t.offered.clone();
    let mut imported = Imported::default();
    let mut gained = Vec::new();
    loop {
        let (now, found) = t.doc.with_document(|d| (d.get_heads(), rotations_in(d)));
        let (entries, more) = open_entries(store, &mut ring, &found, |r| {
            t.doc.with_document(|d| entries_of(r, d.diff(&from, &now)))
        })?;
        gained.extend(more);
        let (got, dropped) = take_in(store, entries, Acceptance::EachEvent)?;
        imported.added += got.added;
        imported.refused = got.refused;
        // Refused: out of the document kept and offered back. The heads move, so the loop
        // goes round once more on a diff of deletions, which takes in nothing.
        t.doc.with_document(|d| drop_in(d, &dropped))?;
        let saved = t.doc.with_document(|d| {
            (d.get_heads() == now).then(|| {
                if whole {
                    d.save()
                } else {
                    d.save_after(&kept_heads)
                }
            })
        });
        if let Some(bytes) = saved {
            // A cache: failing to keep it loses nothing (the next sync offers the events
            // again).
            crypt::keep_gains(store, held_ring.as_ref(), &ring, &gained)?;
            let mark = store.last_row()?;
            let _ = keep(store, kept_sizes, |_| bytes, mark);
            break;
        }
        from = now;
    }
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
    let held_ring = crypt::keyring_of(store)?;
    let ring = crypt::ring_for_sync(store)?;
    crypt::keep_gains(store, held_ring.as_ref(), &ring, &[])?;
    let k = kept(store)?;
    let (local, mut mark) = store.events_after_row(k.mark)?;
    let (seed, local) = seed_of(k, local, &ring)?;
    let rt = runtime()?;
    rt.block_on(async {
        let repo = seeded_repo(store.campaign(), seed).await?;
        let doc = find(&repo, store.campaign()).await?;
        let rotations = crypt::rotations_of(store)?;
        doc.with_document(|d| put_in(d, &local, &ring, &rotations))?;
        doc.with_document(|d| {
            let keys = refused_unheld(d, store, &ring)?;
            drop_in(d, &keys)
        })?;
        let mut seen = doc.with_document(|d| d.get_heads());
        let (url, server) = listen(&repo, listener)?;
        report(HubReport::Listening {
            url,
            campaign: store.campaign(),
        });
        let mut changes = doc.changes();
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        let until = std::pin::pin!(until);
        let mut until = until;
        loop {
            tokio::select! {
                _ = &mut until => break,
                _ = changes.next() => {}
                _ = tick.tick() => {}
            }
            match offer_gains(store, &doc, &mut mark) {
                Ok(0) => {}
                Ok(n) => report(HubReport::Offered(n)),
                Err(e) => report(HubReport::Trouble(e.to_string())),
            }
            match take_in_since(store, &doc, &mut seen) {
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
/// automerge-repo sync server does, until `until` completes; `holding` is a campaign's
/// document it starts with (a saved document, as a hub restarted from its storage holds
/// it). For a hub on a machine that plays no part in the campaign, and for tests and
/// benchmarks of devices that meet only through a hub.
pub fn relay(
    listener: std::net::TcpListener,
    holding: Option<(CampaignId, Vec<u8>)>,
    until: impl Future<Output = ()>,
    on_listening: impl FnOnce(&str),
) -> Result<(), SyncError> {
    runtime()?.block_on(async {
        let storage = match holding {
            Some((campaign, doc)) => stored(campaign, Some((doc, Vec::new()))).await?,
            None => InMemoryStorage::new(),
        };
        let repo = Repo::build_tokio().with_storage(storage).load().await;
        let (url, server) = listen(&repo, listener)?;
        on_listening(&url);
        until.await;
        repo.stop().await;
        server.abort();
        Ok(())
    })
}

/// Takes in what peers added to the document since `seen`; `seen` moves on only if it
/// landed.
fn take_in_since(
    store: &mut Store,
    doc: &DocHandle,
    seen: &mut Vec<ChangeHash>,
) -> Result<Option<Imported>, SyncError> {
    // The ring as the ledger holds it now (a revocation in another terminal rotates it).
    let held_ring = crypt::keyring_of(store)?;
    let mut ring = crypt::ring_for_sync(store)?;
    let (heads, found) = doc.with_document(|d| (d.get_heads(), rotations_in(d)));
    let (entries, gained) = open_entries(store, &mut ring, &found, |r| {
        doc.with_document(|d| entries_of(r, d.diff(seen, &heads)))
    })?;
    if entries.is_empty() {
        *seen = heads;
        return Ok(None);
    }
    let (imported, dropped) = take_in(store, entries, Acceptance::EachEvent)?;
    crypt::keep_gains(store, held_ring.as_ref(), &ring, &gained)?;
    doc.with_document(|d| drop_in(d, &dropped))?;
    *seen = heads;
    Ok((imported.added > 0).then_some(imported))
}

/// Puts the events the document lacks into it, sealed under `ring`, with the rotations it
/// lacks, in one change (none when there is nothing to put).
fn put_in(
    d: &mut automerge::Automerge,
    events: &[Envelope],
    ring: &Keyring,
    rotations: &[crate::Rotation],
) -> Result<usize, SyncError> {
    let fresh: Vec<&crate::Rotation> = rotations
        .iter()
        .filter(|r| {
            d.get(automerge::ROOT, r.filed_under().as_str())
                .ok()
                .flatten()
                .is_none()
        })
        .collect();
    if events.is_empty() && fresh.is_empty() {
        return Ok(0);
    }
    d.transact(|tx| {
        put_rotations(tx, rotations)?;
        put_missing(tx, events, ring)
    })
    .map(|ok| ok.result)
    .map_err(|f| f.error)
}

/// Deletes refused keys from the document, in one change (none when there are none).
fn drop_in(d: &mut automerge::Automerge, keys: &[String]) -> Result<(), SyncError> {
    if keys.is_empty() {
        return Ok(());
    }
    d.transact(|tx| drop_keys(tx, keys))
        .map(|_| ())
        .map_err(|f| f.error)
}

/// Puts the events the ledger gained since row `mark` (recorded by another process while
/// serving) into the document, which shares them with the peers.
fn offer_gains(store: &Store, doc: &DocHandle, mark: &mut i64) -> Result<usize, SyncError> {
    let (events, last) = store.events_after_row(*mark)?;
    let ring = crypt::ring_for_sync(store)?;
    let rotations = crypt::rotations_of(store)?;
    let added = doc.with_document(|d| put_in(d, &events, &ring, &rotations))?;
    *mark = last;
    Ok(added)
}
