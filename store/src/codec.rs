//! The stored payload format: one codec byte, then the event encoded by that codec.
//!
//! **Frozen format.** Codec 1 is bincode 2.0.1 (serde, standard configuration) of
//! `leechbook_core::Event`. Bytes written with a codec stay readable for as long as
//! Leechbook exists: a new encoding gets a new codec byte and this module keeps decoding the
//! old ones. The snapshot test in `tests/` pins the bytes of a sample event of each kind.

use leechbook_core::ids::DeviceId;
use leechbook_core::Event;

/// Codec 1: bincode 2.0.1, serde, standard config.
pub const CODEC_BINCODE2: u8 = 1;

/// Why a payload does not decode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    /// An empty payload.
    #[error("the payload is empty")]
    Empty,
    /// A codec this build does not know (written by a newer Leechbook).
    #[error("payload codec {0} is unknown to this Leechbook (it knows codec 1)")]
    UnknownCodec(u8),
    /// A schema version this build does not know.
    #[error("event schema {0} is newer than this Leechbook's")]
    UnknownSchema(u16),
    /// Bytes that do not decode.
    #[error("the payload does not decode: {0}")]
    Corrupt(String),
}

fn config() -> bincode::config::Configuration {
    bincode::config::standard()
}

/// Encodes an event behind the current codec byte.
pub fn encode_event(event: &Event) -> Vec<u8> {
    let mut out = Vec::new();
    encode_event_into(event, &mut out);
    out
}

/// [`encode_event`] into `out` (cleared first), so that a bulk append reuses one buffer.
pub fn encode_event_into(event: &Event, out: &mut Vec<u8>) {
    out.clear();
    out.push(CODEC_BINCODE2);
    // Encoding into a Vec cannot fail for these types: every field is a plain serde value.
    if let Err(e) = bincode::serde::encode_into_std_write(event, out, config()) {
        unreachable!("encoding an event into memory failed: {e}");
    }
}

/// Decodes a payload written with `schema`.
pub fn decode_event(schema: u16, bytes: &[u8]) -> Result<Event, CodecError> {
    if schema > leechbook_core::SCHEMA_VERSION {
        return Err(CodecError::UnknownSchema(schema));
    }
    let (&codec, body) = bytes.split_first().ok_or(CodecError::Empty)?;
    match codec {
        CODEC_BINCODE2 => {
            let (event, used) = bincode::serde::decode_from_slice::<Event, _>(body, config())
                .map_err(|e| CodecError::Corrupt(e.to_string()))?;
            if used != body.len() {
                return Err(CodecError::Corrupt(format!(
                    "{} trailing bytes",
                    body.len() - used
                )));
            }
            Ok(event)
        }
        other => Err(CodecError::UnknownCodec(other)),
    }
}

/// Encodes a folded state for a snapshot, behind the codec byte.
pub fn encode_ledger(ledger: &leechbook_core::Ledger) -> Vec<u8> {
    let mut out = vec![CODEC_BINCODE2];
    match bincode::serde::encode_into_std_write(ledger, &mut out, config()) {
        Ok(_) => out,
        Err(e) => unreachable!("encoding a ledger into memory failed: {e}"),
    }
}

/// Encodes one character's folded state (a projection entry), behind the codec byte.
pub fn encode_character(c: &leechbook_core::fold::CharacterState) -> Vec<u8> {
    let mut out = vec![CODEC_BINCODE2];
    match bincode::serde::encode_into_std_write(c, &mut out, config()) {
        Ok(_) => out,
        Err(e) => unreachable!("encoding a character into memory failed: {e}"),
    }
}

/// Encodes what became of events (a ledger's fates: codec byte, then bincode).
pub fn encode_fates(f: &leechbook_core::fold::Fates) -> Vec<u8> {
    let mut out = vec![CODEC_BINCODE2];
    match bincode::serde::encode_into_std_write(f, &mut out, config()) {
        Ok(_) => out,
        Err(e) => unreachable!("encoding fates into memory failed: {e}"),
    }
}

/// Decodes what became of events.
pub fn decode_fates(bytes: &[u8]) -> Result<leechbook_core::fold::Fates, CodecError> {
    decode_whole(bytes)
}

/// Encodes one record of the archive (codec byte, then bincode): what the list of systems
/// files (`leechbook_core::archive::Record`), which the store keeps without reading.
pub fn encode_record(r: &leechbook_core::archive::Record) -> Vec<u8> {
    let mut out = vec![CODEC_BINCODE2];
    match bincode::serde::encode_into_std_write(r, &mut out, config()) {
        Ok(_) => out,
        Err(e) => unreachable!("encoding a record into memory failed: {e}"),
    }
}

/// Decodes one record of the archive.
pub fn decode_record(bytes: &[u8]) -> Result<leechbook_core::archive::Record, CodecError> {
    decode_whole(bytes)
}

/// Decodes one character's folded state.
pub fn decode_character(bytes: &[u8]) -> Result<leechbook_core::fold::CharacterState, CodecError> {
    decode_whole(bytes)
}

fn decode_whole<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    let (&codec, body) = bytes.split_first().ok_or(CodecError::Empty)?;
    if codec != CODEC_BINCODE2 {
        return Err(CodecError::UnknownCodec(codec));
    }
    let (v, used) = bincode::serde::decode_from_slice(body, config())
        .map_err(|e| CodecError::Corrupt(e.to_string()))?;
    if used != body.len() {
        return Err(CodecError::Corrupt(format!(
            "{} trailing bytes",
            body.len() - used
        )));
    }
    Ok(v)
}

/// Decodes a snapshot's folded state.
pub fn decode_ledger(bytes: &[u8]) -> Result<leechbook_core::Ledger, CodecError> {
    decode_whole(bytes)
}

/// Encodes a whole envelope (for sync), behind the codec byte. **Frozen format**: codec 1 is
/// bincode of the envelope's fields in declaration order, the event encoded as above.
pub fn encode_envelope(env: &leechbook_core::Envelope) -> Vec<u8> {
    let mut out = vec![CODEC_BINCODE2];
    match bincode::serde::encode_into_std_write(env, &mut out, config()) {
        Ok(_) => out,
        Err(e) => unreachable!("encoding an envelope into memory failed: {e}"),
    }
}

/// The bytes a device signs: the whole envelope with no signature.
pub fn signing_bytes(env: &leechbook_core::Envelope) -> Vec<u8> {
    let unsigned = leechbook_core::Envelope {
        signature: None,
        ..env.clone()
    };
    encode_envelope(&unsigned)
}

/// A signature's layout, by its length: 64 bytes are codec 1, an ed25519 signature of
/// [`signing_bytes`] alone (events recorded before chains: they upcast as *unchained*, their
/// link to their device's previous event unknown); 97 bytes starting with
/// [`SIGNATURE_CHAINED`] are codec 2, the **chain**: the link (32 bytes, see [`link_of`]) to
/// the device's previous number, then an ed25519 signature of [`signing_bytes`] followed by
/// that link. A device's events so form a chain, each signing its number and its link, so
/// that past a fork (a copied ledger file) each event says which branch it follows, and a
/// replaced event breaks the chain of the one after it.
pub const SIGNATURE_CHAINED: u8 = 2;

/// The link that names an event in its device's chain: SHA-256 of the whole envelope as
/// [`encode_envelope`] writes it, signature included. So the event after it, in signing the
/// link, vouches for every byte of it: a device's chain is checked by its links (a hash an
/// event) and one signature, its head's, not one signature per event. The first number of
/// a device links to 32 zero bytes (`None`).
pub fn link_of(env: Option<&leechbook_core::Envelope>) -> [u8; 32] {
    env.map_or([0; 32], crate::link::link)
}

pub use crate::link::link_of_stored;

/// The link a chained event signs to its device's previous number, or `None` for an
/// unchained (codec 1) signature.
pub fn chain_link(env: &leechbook_core::Envelope) -> Option<[u8; 32]> {
    chain_link_of_signature(env.signature.as_deref())
}

/// A signature's layout 3, **what its device had seen**: [`SIGNATURE_CHAINED`]'s link,
/// then the heads its device names of other devices it held when it recorded the event (a
/// two-byte count, then for each device its 16-byte id and its highest number held, eight
/// bytes little-endian, sorted by device), then an ed25519 signature of [`signing_bytes`]
/// followed by the link and the heads. A device names the head it clocked the event from:
/// the event with the highest clock it held, when that is another device's (the store's
/// `prepare`); so the event's Lamport clock follows from
/// what it signs, one more than its previous number's clock and every head's, and a
/// receiver holding them checks it: an event clocked below an event it names cannot be
/// signed. Events signed in layout 1 or 2 upcast as they are: their heads unknown.
pub const SIGNATURE_SEEN: u8 = 3;

/// The most heads one event may name (a campaign's devices, links included, are far fewer).
pub const MAX_SEEN: usize = 4096;

/// What a layout-3 signature says its device had seen: `(device, highest number held)`,
/// sorted by device. `None` for layouts 1 and 2 and for bytes that are not layout 3.
pub fn seen(env: &leechbook_core::Envelope) -> Option<Vec<(DeviceId, u64)>> {
    seen_of_signature(env.signature.as_deref())
}

/// [`seen`] by an event's signature bytes alone.
pub fn seen_of_signature(signature: Option<&[u8]>) -> Option<Vec<(DeviceId, u64)>> {
    let heads = seen_bytes(signature?)?;
    Some(
        heads[2..]
            .chunks_exact(24)
            .map(|c| {
                let mut id = [0u8; 16];
                id.copy_from_slice(&c[..16]);
                let mut n = [0u8; 8];
                n.copy_from_slice(&c[16..]);
                (DeviceId(uuid::Uuid::from_bytes(id)), u64::from_le_bytes(n))
            })
            .collect(),
    )
}

/// The heads' bytes of a layout-3 signature (count and entries), if it is one and its
/// length adds up.
fn seen_bytes(sig: &[u8]) -> Option<&[u8]> {
    let (&layout, rest) = sig.split_first()?;
    if layout != SIGNATURE_SEEN || rest.len() < 32 + 2 + 64 {
        return None;
    }
    let count = usize::from(u16::from_le_bytes([rest[32], rest[33]]));
    (count <= MAX_SEEN && rest.len() == 32 + 2 + 24 * count + 64)
        .then(|| &rest[32..rest.len() - 64])
}

/// Encodes heads as a layout-3 signature carries them.
fn seen_to_bytes(seen: &[(DeviceId, u64)]) -> Vec<u8> {
    let count = seen.len().min(MAX_SEEN);
    let mut out = Vec::with_capacity(2 + 24 * count);
    out.extend_from_slice(&(count as u16).to_le_bytes());
    for (d, n) in &seen[..count] {
        out.extend_from_slice(d.as_bytes());
        out.extend_from_slice(&n.to_le_bytes());
    }
    out
}

/// [`chain_link`] by an event's signature bytes alone (what the log's column holds).
pub fn chain_link_of_signature(signature: Option<&[u8]>) -> Option<[u8; 32]> {
    let sig = signature?;
    match sig.split_first() {
        Some((&SIGNATURE_CHAINED, rest)) if rest.len() == 96 => rest[..32].try_into().ok(),
        Some((&SIGNATURE_SEEN, rest)) if seen_bytes(sig).is_some() => rest[..32].try_into().ok(),
        _ => None,
    }
}

/// Whether `next` follows `prev` in their device's chain: `None` when `next` is unchained
/// (nothing to tell), else whether its link names `prev` (`None` for `prev`: the device's
/// first number).
pub fn follows(
    prev: Option<&leechbook_core::Envelope>,
    next: &leechbook_core::Envelope,
) -> Option<bool> {
    chain_link(next).map(|l| l == link_of(prev))
}

/// Signs an envelope with its device's key as a link of its device's chain (layout 2, as
/// events were signed before they named what their device had seen; kept for the tools and
/// tests that make such events): `link` is [`link_of`] its device's previous number.
pub fn sign_chained(
    env: &mut leechbook_core::Envelope,
    link: [u8; 32],
    key: &ed25519_dalek::SigningKey,
) {
    use ed25519_dalek::Signer;
    let mut message = signing_bytes(env);
    message.extend_from_slice(&link);
    let mut sig = Vec::with_capacity(97);
    sig.push(SIGNATURE_CHAINED);
    sig.extend_from_slice(&link);
    sig.extend_from_slice(&key.sign(&message).to_bytes());
    env.signature = Some(sig);
}

/// Signs an envelope with its device's key in layout 3 ([`SIGNATURE_SEEN`]): a link of its
/// device's chain that names the heads its device had seen (sorted by device here).
pub fn sign_seen(
    env: &mut leechbook_core::Envelope,
    link: [u8; 32],
    seen: &[(DeviceId, u64)],
    key: &ed25519_dalek::SigningKey,
) {
    let mut sorted = seen.to_vec();
    sorted.sort_unstable();
    sorted.dedup_by_key(|(d, _)| *d);
    sign_seen_bytes(env, link, &seen_to_bytes(&sorted), key);
}

/// Lays out a layout-3 signature naming `heads` with its signature bytes zero, for a key
/// held elsewhere to sign [`signed_message`] and [`put_signature`] to fill in (tools, and
/// the adversary tests that forge with a device's own key).
pub fn lay_out_seen(env: &mut leechbook_core::Envelope, link: [u8; 32], heads: &[(DeviceId, u64)]) {
    let mut sorted = heads.to_vec();
    sorted.sort_unstable();
    sorted.dedup_by_key(|(d, _)| *d);
    let bytes = seen_to_bytes(&sorted);
    let mut sig = Vec::with_capacity(1 + 32 + bytes.len() + 64);
    sig.push(SIGNATURE_SEEN);
    sig.extend_from_slice(&link);
    sig.extend_from_slice(&bytes);
    sig.extend_from_slice(&[0; 64]);
    env.signature = Some(sig);
}

fn sign_seen_bytes(
    env: &mut leechbook_core::Envelope,
    link: [u8; 32],
    heads: &[u8],
    key: &ed25519_dalek::SigningKey,
) {
    use ed25519_dalek::Signer;
    let mut message = signing_bytes(env);
    message.extend_from_slice(&link);
    message.extend_from_slice(heads);
    let mut sig = Vec::with_capacity(1 + 32 + heads.len() + 64);
    sig.push(SIGNATURE_SEEN);
    sig.extend_from_slice(&link);
    sig.extend_from_slice(heads);
    sig.extend_from_slice(&key.sign(&message).to_bytes());
    env.signature = Some(sig);
}

/// Signs a prepared envelope again with the chain link (and the heads) its signature
/// holds, once its event has changed (the faces a recording drew written into it). An
/// envelope that holds no chained signature was not prepared by this log, and is refused
/// (`false`: nothing was signed).
#[must_use]
pub fn sign_again(env: &mut leechbook_core::Envelope, key: &ed25519_dalek::SigningKey) -> bool {
    let Some(link) = chain_link(env) else {
        return false;
    };
    match env
        .signature
        .as_deref()
        .and_then(seen_bytes)
        .map(<[u8]>::to_vec)
    {
        Some(heads) => sign_seen_bytes(env, link, &heads, key),
        None => sign_chained(env, link, key),
    }
    true
}

/// Signs an envelope with its device's key, unchained (codec 1: how events were signed
/// before chains; kept for tests and tools that make such events).
pub fn sign(env: &mut leechbook_core::Envelope, key: &ed25519_dalek::SigningKey) {
    use ed25519_dalek::Signer;
    env.signature = Some(key.sign(&signing_bytes(env)).to_bytes().to_vec());
}

/// The bytes an envelope's signature covers, in its signature's layout: [`signing_bytes`],
/// then the chain link and the heads where the layout has them.
pub fn signed_message(env: &leechbook_core::Envelope) -> Vec<u8> {
    let mut message = signing_bytes(env);
    if let Some(link) = chain_link(env) {
        message.extend_from_slice(&link);
        if let Some(heads) = env.signature.as_deref().and_then(seen_bytes) {
            message.extend_from_slice(heads);
        }
    }
    message
}

/// Puts `signature` (an ed25519 signature of [`signed_message`]) in place of the one the
/// envelope's signature holds, keeping its layout, link and heads (a tool that signs with a
/// key held elsewhere; the adversary tests forge with it).
pub fn put_signature(env: &mut leechbook_core::Envelope, signature: [u8; 64]) {
    match env.signature.as_mut() {
        Some(sig) if chain_link_of_signature(Some(sig)).is_some() => {
            let at = sig.len() - 64;
            sig[at..].copy_from_slice(&signature);
        }
        _ => env.signature = Some(signature.to_vec()),
    }
}

/// Checks an envelope's ed25519 signature against a public key, in any layout.
pub fn verify(env: &leechbook_core::Envelope, key: &[u8]) -> bool {
    use ed25519_dalek::{Signature, Verifier, VerifyingKey};
    let Ok(key) = <[u8; 32]>::try_from(key) else {
        return false;
    };
    let Ok(key) = VerifyingKey::from_bytes(&key) else {
        return false;
    };
    let Some(sig) = env.signature.as_deref() else {
        return false;
    };
    let message = signed_message(env);
    let sig = match chain_link(env) {
        Some(_) => &sig[sig.len() - 64..],
        None => sig,
    };
    let Ok(sig) = <[u8; 64]>::try_from(sig) else {
        return false;
    };
    key.verify(&message, &Signature::from_bytes(&sig)).is_ok()
}

/// Decodes a whole envelope.
pub fn decode_envelope(bytes: &[u8]) -> Result<leechbook_core::Envelope, CodecError> {
    let (&codec, body) = bytes.split_first().ok_or(CodecError::Empty)?;
    if codec != CODEC_BINCODE2 {
        return Err(CodecError::UnknownCodec(codec));
    }
    let (env, used): (leechbook_core::Envelope, usize) =
        bincode::serde::decode_from_slice(body, config())
            .map_err(|e| CodecError::Corrupt(e.to_string()))?;
    if used != body.len() {
        return Err(CodecError::Corrupt(format!(
            "{} trailing bytes",
            body.len() - used
        )));
    }
    if env.schema > leechbook_core::SCHEMA_VERSION {
        return Err(CodecError::UnknownSchema(env.schema));
    }
    Ok(env)
}

/// What [`signature_problem`] names when an event's device is not on the roster: a front
/// end adds how a GM rosters one.
pub const NOT_ROSTERED: &str = "which is not on the roster";

/// Why the roster (in use) does not vouch for `e`: its device is not on it, or the signature
/// is not over its bytes. The one judgement an import and `verify` both make.
pub fn signature_problem(
    roster: &leechbook_core::roster::Roster,
    e: &leechbook_core::Envelope,
) -> Option<String> {
    match roster.key(e.device) {
        None => Some(format!(
            "event {} from device {}, {NOT_ROSTERED} (a GM device rosters it)",
            e.id.short(),
            e.device.short()
        )),
        Some(key) if !verify(e, key) => Some(format!(
            "event {} whose signature does not match its bytes (tampered or forged)",
            e.id.short()
        )),
        Some(_) => None,
    }
}
