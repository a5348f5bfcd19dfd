//! The socket: automerge-repo's messages over a WebSocket, each metered against the largest
//! document before it loads, and the dialler that bounds what a hub may send.

use super::*;
use crate::SyncError;
use futures::StreamExt;
use std::future::Future;

/// The largest WebSocket message taken from a peer: a whole volume of 4,096 padded events
/// sent at once is well under it.
pub(super) const MAX_MESSAGE: usize = crate::mirror::MAX_DOCUMENT;

/// What a peer sent that no Leechbook device could have (see [`crate::bound`]).
#[derive(Debug)]
pub(super) struct Refused(String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// A peer's wire messages, each checked by one [`crate::bound::Meter`] before the sync engine
/// reads it: the first that would cost far more to load than its size ends the connection
/// (every message after it is refused too), and why is kept in `refusal`.
pub(super) fn metered<S, E>(
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
pub(super) fn refused_by_hub(refusal: &Refusal, url: &str) -> Option<SyncError> {
    let why = refusal.lock().ok()?.take()?;
    Some(SyncError::Poisoned(format!(
        "the hub at {url} sent data that no Leechbook device writes, refused before it was loaded: {why}; nothing from it was taken in (the hub, or a peer on it, is hostile or broken)"
    )))
}

/// A WebSocket message as a sync connection reads it: the binary messages carry the sync
/// engine's; a text message has no place there; the rest (ping, pong, close) are the
/// socket's own.
pub(super) enum Frame {
    Binary(Vec<u8>),
    Text,
    Other,
}

/// The WebSocket messages of the client and of the server (two crates' types for one thing).
pub(super) trait WsMessage: Sized {
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
pub(super) fn socket_transport<S, M, E>(socket: S, refusal: Refusal) -> samod::Transport
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
pub(super) struct BoundedDialer {
    pub(super) url: url::Url,
    pub(super) refusal: Refusal,
    /// Why the last dial failed (a refused connection, a certificate `wss://` does not
    /// trust), for the one line a sync that could not reach its hub says.
    pub(super) failed: std::sync::Arc<std::sync::Mutex<Option<String>>>,
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
        let (url, refusal, failed) = (self.url.clone(), self.refusal.clone(), self.failed.clone());
        Box::pin(async move {
            let config = WebSocketConfig::default()
                .max_message_size(Some(MAX_MESSAGE))
                .max_frame_size(Some(MAX_MESSAGE));
            let (ws, _) =
                tokio_tungstenite::connect_async_with_config(url.as_str(), Some(config), false)
                    .await
                    .map_err(|e| {
                        if let Ok(mut f) = failed.lock() {
                            *f = Some(e.to_string());
                        }
                        samod::DialError::transient(e)
                    })?;
            Ok(socket_transport(ws, refusal))
        })
    }
}
