//! What a ledger keeps of the campaign's keys beside its log: its ring, whether the ring is
//! proven right, and the junk entries it has listed; and the ring a sync seals with (made at
//! once on a GM device of a campaign that has none).

use super::{Keyring, RING_KEY};
use crate::SyncError;
use leechbook_core::roster::{Role, Roster};
use leechbook_store::{ReadLog, Store};

/// The ledger's ring, if it holds one.
pub fn keyring_of(store: &Store) -> Result<Option<Keyring>, SyncError> {
    match store.sync_state(RING_KEY)? {
        None => Ok(None),
        Some(b) if b.is_empty() => Ok(None),
        Some(b) => match Keyring::from_bytes(&b) {
            // With the GM's ring, on a device that holds it.
            Some(r) if r.campaign == store.campaign() => {
                Ok(Some(r.with_gm(super::gm_ring_of(store)?)))
            }
            // Never silently replaced: a new key would leave this device unable to read
            // what it sealed before.
            _ => Err(SyncError::KeysUnreadable),
        },
    }
}

/// Keeps the ring in the ledger.
pub fn keep_keyring(store: &mut Store, ring: &Keyring) -> Result<(), SyncError> {
    store.put_sync_state(RING_KEY, &ring.to_bytes())?;
    Ok(())
}

/// Whether this ledger's device is a GM device still on the roster (or the campaign's
/// creator, before any roster): the devices that make keys, rotate them and invite.
pub fn is_gm_device(store: &Store) -> Result<bool, SyncError> {
    let roster = Roster::from_log(&store.roster_events()?);
    Ok(gm_on(&roster, store.device()))
}

/// Whether `device` is a GM device of `roster` not revoked (or the campaign's creator,
/// before any roster).
pub(crate) fn gm_on(roster: &Roster, device: leechbook_core::ids::DeviceId) -> bool {
    match roster.entries.get(&device) {
        Some(e) => e.role == Role::Gm && e.revoked.is_none(),
        None => !roster.in_use() && roster.creator == Some(device),
    }
}

/// The ledger's ring; or, for a GM device of a campaign that has none yet (a campaign begun
/// before encryption), a new one, kept at once (the first GM device to sync makes the
/// campaign's key). Any other device without one must be given it.
pub fn ring_for_sync(store: &mut Store) -> Result<Keyring, SyncError> {
    if let Some(ring) = keyring_of(store)? {
        // A GM device makes the GM's ring once a GM-only character needs it, and shares it
        // with the roster's GM devices.
        return Ok(ring.with_gm(super::gm_ring_for_sync(store)?));
    }
    if !is_gm_device(store)? {
        return Err(SyncError::NoKey);
    }
    // Kept at once: documents sealed under it may be kept before the sync lands, and a key
    // lost while they stay would leave them unreadable to everyone.
    let ring = Keyring::generate(store.campaign());
    keep_keyring(store, &ring)?;
    prove_keys(store)?;
    Ok(ring.with_gm(super::gm_ring_for_sync(store)?))
}

/// Where a ledger marks its ring as proven: made here, or it opened another device's entry.
const PROVEN_KEY: &str = "campaign-keys-proven";
/// Where a ledger keeps the keys of the junk entries it has listed (never listed again).
const IGNORED_KEY: &str = "sync-ignored";

/// Marks this ledger's ring as proven right (made here, or it opened another device's entry):
/// from now on an entry that does not open under it is junk, not a sign of a wrong key.
pub fn prove_keys(store: &mut Store) -> Result<(), SyncError> {
    if !keys_proven(store)? {
        store.put_sync_state(PROVEN_KEY, &[1])?;
    }
    Ok(())
}

/// Whether this ledger's ring is proven right (see [`prove_keys`]); the campaign's creator
/// made its ring (a ledger from before the mark holds none).
pub fn keys_proven(store: &Store) -> Result<bool, SyncError> {
    if store.sync_state(PROVEN_KEY)?.is_some_and(|b| b == [1]) {
        return Ok(true);
    }
    Ok(Roster::from_log(&store.roster_events()?).creator == Some(store.device()))
}

/// The keys of the junk entries this ledger has listed.
pub fn ignored(store: &Store) -> Result<std::collections::BTreeSet<String>, SyncError> {
    Ok(state_lines(store, IGNORED_KEY)?.into_iter().collect())
}

/// The most junk keys kept as listed: a flood of junk must not grow the ledger without end
/// (past it, the oldest are forgotten, and may be listed again).
const MAX_IGNORED: usize = 10_000;

/// Keeps the keys of the junk entries listed (see [`ignored`]), at most [`MAX_IGNORED`].
pub fn keep_ignored(
    store: &mut Store,
    keys: &std::collections::BTreeSet<String>,
) -> Result<(), SyncError> {
    let skip = keys.len().saturating_sub(MAX_IGNORED);
    let joined: Vec<&str> = keys.iter().skip(skip).map(String::as_str).collect();
    store.put_sync_state(IGNORED_KEY, joined.join("\n").as_bytes())?;
    Ok(())
}

/// Where a ledger keeps the generation of document ids it syncs at on the hub at a URL.
fn generation_key(url: &str) -> String {
    format!("places-generation:{url}")
}

/// The generation of document ids this ledger syncs at on the hub at `url` (0 until it meets
/// a squatted document there and moves). A move is the hub's alone: another hub, or this
/// device serving as one, keeps its own.
pub fn generation_of(store: &Store, url: &str) -> Result<u32, SyncError> {
    Ok(store
        .sync_state(&generation_key(url))?
        .and_then(|b| <[u8; 4]>::try_from(b.as_slice()).ok())
        .map_or(0, u32::from_le_bytes))
}

/// Sets the generation of document ids this ledger syncs at on the hub at `url`.
pub fn put_generation(store: &mut Store, url: &str, generation: u32) -> Result<(), SyncError> {
    store.put_sync_state(&generation_key(url), &generation.to_le_bytes())?;
    Ok(())
}

/// A value of the sync state kept as lines (what was refused, what was ignored).
pub(crate) fn state_lines(store: &Store, key: &str) -> Result<Vec<String>, SyncError> {
    Ok(store
        .sync_state(key)?
        .map(|b| {
            String::from_utf8_lossy(&b)
                .lines()
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default())
}
