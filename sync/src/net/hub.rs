//! The hub a device runs ([`serve`]): peers' documents taken in round by round, the ledger's
//! gains offered, and the documents kept for a relay.

use super::*;
use crate::bound;
use crate::layout::{self, index_counts, Shelf, VolumeId};
use crate::{
    crypt, entry::entries_of, entry::open_entries, entry::rotations_in, take::take_in,
    take::Acceptance, take::Imported, SyncError,
};
use futures::StreamExt;
use leechbook_core::ids::CampaignId;
use leechbook_store::ReadLog;
use leechbook_store::Store;
pub use samod::DocumentId;
use samod::{DocHandle, Repo, ShareConfig};
use std::collections::BTreeMap;
use std::future::Future;
use std::time::Duration;

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
        // The ledger is looked at every 50 ms (its last row: one indexed read), and a round
        // runs when it gained events (recorded in another terminal: a device rostered just
        // before its player connects must be offered by then), when a peer changed the
        // index, and at least every second (a ring rotated elsewhere).
        let mut tick = tokio::time::interval(Duration::from_millis(50));
        let mut last_round = std::time::Instant::now();
        let until = std::pin::pin!(until);
        let mut until = until;
        loop {
            tokio::select! {
                _ = &mut until => break,
                _ = changes.next() => {}
                _ = tick.tick() => {
                    let gained = store.last_row().map_or(true, |r| r != shelf.mark);
                    if !gained && last_round.elapsed() < Duration::from_secs(1) {
                        continue;
                    }
                }
            }
            last_round = std::time::Instant::now();
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
pub(super) async fn handle_of(
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
        let doc = layout::whole_save(&shelf.volume(store, v)?.doc);
        storage.hold(&id, doc, Vec::new()).await;
    }
    find(repo, id).await
}

/// Puts the events the ledger gained since the shelf's mark (recorded here, or just taken
/// in) into the shelf's volumes, and the same changes into the engine's, so that both hold
/// exactly the log's events and every count is on the hub. Returns how many were new to the
/// engine's volumes.
pub(super) async fn offer(
    store: &mut Store,
    shelf: &mut Shelf,
    repo: &Repo,
    storage: &ShelfStorage,
) -> Result<usize, SyncError> {
    let (gains, last) = store.events_after_row(shelf.mark)?;
    let (ring, names) = (shelf.ring.clone(), shelf.names.clone());
    let mut offered = 0;
    // A character revealed among them: its events go in again openly (`Sealing::update`).
    let again = layout::by_volume(shelf.judge(store, &gains)?);
    // (A copy: an early return must never leave the shelf sealing nothing.)
    let sealing = shelf.sealing.clone();
    let mut volumes = layout::by_volume(gains.iter().cloned());
    for v in again.keys() {
        volumes.entry(*v).or_default();
    }
    for (v, events) in volumes {
        let kept = shelf.volume(store, v)?;
        let from = kept.doc.get_heads();
        let mut put = layout::put_events(&mut kept.doc, &events, &ring, &names, &sealing)?;
        if let Some(open) = again.get(&v) {
            let open: Vec<&leechbook_core::Envelope> = open.iter().collect();
            put += layout::put_over(&mut kept.doc, &open, &ring, &names, &sealing)?;
        }
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
    shelf.counted(store, &gains, last)?;
    Ok(offered)
}

/// One round of a hub: offers what the ledger gained (recorded here), takes in what peers
/// listed in the index beyond what the ledger holds, offers again what that and any other
/// process added, lists the ledger's counts, keeps.
pub(super) async fn hub_round(
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
        let (mut imported, dropped) = take_in(store, entries, Acceptance::EachEvent)?;
        crypt::keep_gains(store, Some(&held_ring), &ring, &gained)?;
        if !gained.is_empty() {
            // Keys gained: what could not be opened before may open now.
            if let Ok(more) = crate::take::rescan(store) {
                imported.added += more.added;
            }
        }
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
pub(super) fn poisoned(url: &str, why: &str) -> SyncError {
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
pub(super) fn listen(
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
