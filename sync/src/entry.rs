//! A document's entries: each event sealed under the campaign's key of its epoch and filed
//! under its own id ([`crate::names::Names::entry`]), opened and decoded or with why not
//! ([`Undecoded`]); the key rotations filed beside them; which entries a device may read.

use crate::{crypt, names, signed::check_signatures, Keyring, Rotation, SyncError};
use automerge::{transaction::Transactable, Automerge, ReadDoc, ScalarValue, Value, ROOT};
use leechbook_core::Envelope;
use leechbook_store::codec::decode_envelope;
use leechbook_store::{ReadLog, Store};

/// Why a document entry gives no envelope.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Undecoded {
    /// Sealed under an epoch this device does not hold: not for this device to judge (the
    /// entry stays in the document for the devices that can read it).
    NoKey(u32),
    /// It does not open under the key of its epoch, or is in clear: garbage, or this
    /// device's key is wrong. Refused, but never dropped from the document: a device with a
    /// wrong key must not delete a campaign's events from every hub.
    Unopened(String),
    /// Opened, but not an event of this campaign filed under its own id.
    Bad(String),
    /// Sealed for the GM's devices (a GM-only character's event), whose ring this device
    /// does not hold: kept as it came (`leechbook_store::Sealed`), its number held, and
    /// offered on ([`crate::sealing`]).
    ForGm(Box<leechbook_store::Sealed>),
}

impl std::fmt::Display for Undecoded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Undecoded::NoKey(e) => write!(f, "{}", crypt::Unopened::NoKey(*e)),
            Undecoded::Unopened(why) | Undecoded::Bad(why) => write!(f, "{why}"),
            Undecoded::ForGm(s) => {
                write!(f, "event {} is sealed for the GM's devices", s.id.short())
            }
        }
    }
}

/// A document entry: its key, and the envelope it decodes to or why it does not.
pub type Entry = (String, Result<Envelope, Undecoded>);

/// Whether a root key files a key rotation rather than an event.
pub(crate) fn is_rotation(key: &str) -> bool {
    key.starts_with(crypt::ROTATION_PREFIX)
}

/// Opens and decodes a value under `key`: an envelope sealed under the campaign's key and
/// filed under its own entry key ([`names::Names::entry`]).
pub(crate) fn entry(
    ring: &Keyring,
    names: &names::Names,
    key: &str,
    value: Option<&Value<'_>>,
) -> Result<Envelope, Undecoded> {
    let bad = |why: String| Err(Undecoded::Bad(why));
    match value {
        Some(Value::Scalar(s)) => match s.as_ref() {
            ScalarValue::Bytes(b) => match ring.open(key, b) {
                Ok(plain) if plain.first() == Some(&crate::sealing::STUB) => {
                    sealed_for_gm(ring, names, key, &plain)
                }
                Ok(plain) => match decode_envelope(&plain) {
                    Ok(env) if names.entry_of(&env) == key => Ok(env),
                    Ok(_) => bad("filed under another event's key".to_string()),
                    Err(e) => bad(e.to_string()),
                },
                Err(crypt::Unopened::NoKey(epoch)) => Err(Undecoded::NoKey(epoch)),
                Err(why) => Err(Undecoded::Unopened(why.to_string())),
            },
            _ => bad("not bytes".to_string()),
        },
        _ => bad("not an event".to_string()),
    }
}

/// An entry sealed for the GM ([`crate::sealing`]): its event where this device holds the
/// GM's ring, else its stub; either filed under its own id and number.
fn sealed_for_gm(
    ring: &Keyring,
    names: &names::Names,
    key: &str,
    plain: &[u8],
) -> Result<Envelope, Undecoded> {
    let Some(stated) = crate::sealing::stated(plain) else {
        return Err(Undecoded::Bad(
            "an entry sealed for the GM that does not read".into(),
        ));
    };
    if names.entry(stated.id, stated.seq) != key {
        return Err(Undecoded::Bad(
            "filed under another event's key".to_string(),
        ));
    }
    match ring
        .gm()
        .and_then(|gm| crate::sealing::open(plain, gm, key))
    {
        Some(Ok(env)) => Ok(env),
        Some(Err(why)) => Err(Undecoded::Bad(why)),
        None => Err(Undecoded::ForGm(Box::new(stated))),
    }
}

/// The entry under `key` as a document holds it. Where values conflict (a peer put
/// something of its own under the key of a genuine event, concurrently, hoping to win the
/// conflict and hide it), the genuine one is read: the first that opens and decodes, else
/// the winner's reason.
pub(crate) fn entry_at(
    doc: &impl ReadDoc,
    ring: &Keyring,
    names: &names::Names,
    key: &str,
) -> Result<Envelope, Undecoded> {
    let all = doc.get_all(ROOT, key).unwrap_or_default();
    let mut first = None;
    for (value, _) in &all {
        match entry(ring, names, key, Some(value)) {
            Ok(env) => return Ok(env),
            // A genuine entry this device cannot open comes before any junk.
            Err(why @ Undecoded::ForGm(_)) => first = Some(why),
            Err(why) => {
                first.get_or_insert(why);
            }
        }
    }
    Err(first.unwrap_or_else(|| Undecoded::Bad("not an event".to_string())))
}

/// The root-map entries a diff of `doc` puts (the events a merge brought), each read as
/// [`entry_at`] reads it; key rotations are not among them.
pub(crate) fn entries_of(
    doc: &impl ReadDoc,
    ring: &Keyring,
    names: &names::Names,
    patches: Vec<automerge::Patch>,
) -> Vec<Entry> {
    let keys: std::collections::BTreeSet<String> = patches
        .into_iter()
        .filter(|p| p.obj == ROOT)
        .filter_map(|p| match p.action {
            automerge::PatchAction::PutMap { key, .. } if !is_rotation(&key) => Some(key),
            _ => None,
        })
        .collect();
    keys.into_iter()
        .map(|key| {
            let decoded = entry_at(doc, ring, names, &key);
            (key, decoded)
        })
        .collect()
}

/// Whether the changes of `doc` since `from` delete or overwrite a root key: a peer's
/// deletion or rollback of entries, or a value put over a genuine entry (honest devices only
/// ever put an entry's key once, and relay the same change), which the log puts back.
pub(crate) fn deletes(doc: &Automerge, from: &[automerge::ChangeHash]) -> bool {
    doc.diff(from, &doc.get_heads()).iter().any(|p| {
        p.obj == ROOT
            && match &p.action {
                automerge::PatchAction::DeleteMap { .. } => true,
                automerge::PatchAction::PutMap { key, conflict, .. } => {
                    *conflict
                        || doc
                            .get_at(ROOT, key.as_str(), from)
                            .ok()
                            .flatten()
                            .is_some()
                }
                _ => false,
            }
    })
}

/// The bytes filed under a root key (a sealed envelope, a rotation), if bytes are there.
pub(crate) fn bytes_at(doc: &impl ReadDoc, key: &str) -> Option<Vec<u8>> {
    match doc.get(ROOT, key).ok().flatten() {
        Some((Value::Scalar(s), _)) => match s.as_ref() {
            ScalarValue::Bytes(b) => Some(b.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// The key rotations a document holds (their bytes, unchecked).
pub(crate) fn rotations_in(doc: &impl ReadDoc) -> Vec<Vec<u8>> {
    doc.keys(ROOT)
        .filter(|k| is_rotation(k))
        .filter_map(|k| bytes_at(doc, &k))
        .collect()
}

/// Puts each rotation the document lacks under `keys/EPOCH/DIGEST` (see
/// [`Rotation::filed_under`]): what else lies under `keys/` never stops it.
pub(crate) fn put_rotations(
    doc: &mut impl Transactable,
    rotations: &[Rotation],
) -> Result<(), SyncError> {
    for r in rotations {
        let key = r.filed_under();
        let held = doc
            .get(ROOT, key.as_str())
            .map_err(|e| SyncError::NotSync(e.to_string()))?;
        if held.is_none() {
            doc.put(ROOT, key.as_str(), ScalarValue::Bytes(r.to_bytes()))
                .map_err(|e| SyncError::NotSync(e.to_string()))?;
        }
    }
    Ok(())
}

/// What a merge brought, opened: first the key rotations it carries that wrap a key for this
/// device (vouched for by a GM device of the log's roster, or of the roster the readable
/// incoming events make), then the entries, each decoded or with why not. `diff` lists the
/// entries under a ring. Returns them and the rotations taken in (for the caller to keep).
pub(crate) fn open_entries(
    store: &Store,
    ring: &mut Keyring,
    rotations: &[Vec<u8>],
    mut diff: impl FnMut(&Keyring) -> Vec<Entry>,
) -> Result<(Vec<Entry>, Vec<Rotation>), SyncError> {
    let held = store.roster_events()?;
    let roster = leechbook_core::roster::Roster::from_log(&held);
    let mut gained = crypt::adopt(store, ring, rotations, &roster);
    // A GM device takes in the shares of the GM's ring wrapped for it (a player's device is
    // never among their readers).
    let mut gm = ring
        .gm()
        .cloned()
        .unwrap_or_else(|| Keyring::empty(ring.campaign()));
    let shares = crypt::adopt_gm(store, &mut gm, rotations, &roster);
    if !shares.is_empty() {
        ring.set_gm(gm);
        gained.extend(shares);
    }
    let mut entries = diff(ring);
    let unread = entries
        .iter()
        .any(|(_, d)| matches!(d, Err(Undecoded::NoKey(_))));
    if unread && rotations.len() + 1 > ring.epochs() {
        // A rotation by a GM device this log has not rostered yet: the incoming roster
        // events that check out may vouch for it.
        let incoming: Vec<Envelope> = entries
            .iter()
            .filter_map(|(_, d)| d.as_ref().ok())
            .filter(|e| matches!(e.event, leechbook_core::Event::Roster(_)))
            .cloned()
            .collect();
        let mut roster_log = held.clone();
        roster_log.extend(check_signatures(&held, incoming).accepted);
        roster_log.sort_by_key(|e| e.order_key());
        let roster = leechbook_core::roster::Roster::from_log(&roster_log);
        let more = crypt::adopt(store, ring, rotations, &roster);
        if !more.is_empty() {
            gained.extend(more);
            entries = diff(ring);
        }
    }
    Ok((entries, gained))
}

/// Entries sealed under an epoch that no rotation a GM device of the roster signed announces
/// are junk, not a key this device lacks: the epoch is read before an entry is authenticated,
/// so anyone can claim one. Told as entries that do not open (so, once this device's keys
/// are proven, listed once and ignored, never refusing a file or a join for good).
pub(crate) fn unannounced_epochs_as_junk(
    store: &Store,
    rotations: &[Vec<u8>],
    entries: &mut [Entry],
) -> Result<(), SyncError> {
    if !entries
        .iter()
        .any(|(_, d)| matches!(d, Err(Undecoded::NoKey(_))))
    {
        return Ok(());
    }
    let roster = leechbook_core::roster::Roster::from_log(&store.roster_events()?);
    let announced: std::collections::BTreeSet<u32> = rotations
        .iter()
        .filter_map(|b| Rotation::from_bytes(b))
        .filter(|r| !r.gm && r.campaign == store.campaign() && r.vouched(&roster))
        .map(|r| r.epoch)
        .collect();
    for (_, d) in entries.iter_mut() {
        if let Err(Undecoded::NoKey(epoch)) = d {
            if !announced.contains(epoch) {
                *d = Err(Undecoded::Unopened(format!(
                    "it claims campaign key {epoch}, which no rotation signed by a GM device announces"
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use automerge::{Automerge, ScalarValue, ROOT};
    use leechbook_store::Store;

    /// A peer that fills every `keys/EPOCH` slot of the next generation before the GM rotates
    /// (the first layout's key) squats nothing: the rotation goes under its own digest, and is
    /// found among the junk.
    #[test]
    fn a_rotation_is_put_whatever_squats_its_epoch() {
        let store = Store::open_in_memory().unwrap();
        let mut ring = Keyring::generate(store.campaign());
        let r = Rotation::issue(&store, &mut ring, &[]);
        let mut doc = Automerge::new();
        doc.transact(|tx| {
            tx.put(
                ROOT,
                format!("{}{}", crypt::ROTATION_PREFIX, r.epoch),
                ScalarValue::Bytes(vec![9; 40]),
            )
        })
        .unwrap();
        doc.transact(|tx| put_rotations(tx, std::slice::from_ref(&r)))
            .unwrap();
        let found = rotations_in(&doc);
        assert_eq!(found.len(), 2, "the junk and the rotation");
        assert!(found.contains(&r.to_bytes()));
        assert_ne!(r.filed_under(), format!("keys/{}", r.epoch));
    }
}
