//! Dialling a hub and waiting on it: a document found, an exchange within its time, a
//! connection gone, what the hub acknowledged.

use super::*;
use crate::SyncError;
use automerge::ChangeHash;
use futures::StreamExt;
pub use samod::DocumentId;
use samod::{BackoffConfig, ConnectionId, DocHandle, Repo};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// A document: from the repo's storage, or else from its peers (`None` when none has it).
pub(super) async fn find(repo: &Repo, id: DocumentId) -> Result<Option<DocHandle>, SyncError> {
    repo.find(id)
        .await
        .map_err(|_| net("the sync engine stopped"))
}

/// Waits for `f` for at most `timeout`, naming `what` in the error.
pub(super) async fn within<T>(
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
pub(super) async fn gone(repo: &Repo, conn: ConnectionId) {
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
pub(super) async fn on_hub<T>(
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
pub(super) fn acked(h: &DocHandle, conn: ConnectionId, sent: &[ChangeHash]) -> bool {
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
pub(super) async fn dial(
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
    let failed = Arc::new(std::sync::Mutex::new(None));
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
                failed: failed.clone(),
            }),
        )
        .map_err(|_| net("the sync engine stopped"))?;
    let unreachable = || {
        let why = failed
            .lock()
            .ok()
            .and_then(|f| f.clone())
            .map(|w| format!(" ({w})"))
            .unwrap_or_default();
        net(format!("could not reach a sync hub at {url}{why}"))
    };
    tokio::time::timeout(timeout, dialer.established())
        .await
        .map_err(|_| unreachable())?
        .map_err(|_| unreachable())?;
    dialer.connection_id().ok_or_else(unreachable)
}
