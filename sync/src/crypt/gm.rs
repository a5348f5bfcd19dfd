//! The GM's ring on this ledger: a second ring beside the campaign's, whose keys seal a
//! GM-only character's events inside their entries (`crate::sealing`). Only the roster's GM
//! devices hold it: a GM device makes it when the record first holds a GM-only character,
//! shares each of its keys with every GM device of the roster (a [`Rotation`] of the GM's
//! kind, wrapped for each, signed, filed in the index under `keys/gm/`), and adds a key when
//! a GM device is revoked, shared with the others only. No join code or file carries it,
//! and a player's device never takes it in.

use super::{keep_rotation, rotations_of, Keyring, Rotation};
use crate::SyncError;
use leechbook_core::ids::DeviceId;
use leechbook_core::roster::{Role, Roster};
use leechbook_store::{ReadLog, Store};

/// Where a ledger keeps the GM's ring (in the sync state; like the campaign's, not a
/// cache).
const GM_RING_KEY: &str = "gm-keys";

/// The GM's ring this ledger holds, if it holds one.
pub fn gm_ring_of(store: &Store) -> Result<Option<Keyring>, SyncError> {
    match store.sync_state(GM_RING_KEY)? {
        None => Ok(None),
        Some(b) => match Keyring::from_bytes(&b) {
            Some(r) if r.campaign() == store.campaign() => Ok(Some(r)),
            _ => Err(SyncError::KeysUnreadable),
        },
    }
}

/// Keeps the GM's ring.
pub fn keep_gm_ring(store: &mut Store, ring: &Keyring) -> Result<(), SyncError> {
    store.put_sync_state(GM_RING_KEY, &ring.to_bytes())?;
    Ok(())
}

/// The roster's GM devices not revoked, with their roster keys (the readers of the GM's
/// ring), but `leaving`.
fn gm_readers(roster: &Roster, leaving: Option<DeviceId>) -> Vec<(DeviceId, Vec<u8>)> {
    roster
        .entries
        .iter()
        .filter(|(d, e)| e.role == Role::Gm && e.revoked.is_none() && Some(**d) != leaving)
        .map(|(d, e)| (*d, e.key.clone()))
        .collect()
}

/// The GM's ring for a sync: on a GM device, made when the record holds a GM-only character
/// and none is held yet, and each of its keys shared with every GM device of the roster that
/// no share wraps it for yet (kept, to be put into the index). On any other device, what it
/// holds (a revoked GM device keeps what it had; a player's holds none).
pub fn gm_ring_for_sync(store: &mut Store) -> Result<Option<Keyring>, SyncError> {
    let mut ring = gm_ring_of(store)?;
    let roster = Roster::from_log(&store.roster_events()?);
    if !super::kept::gm_on(&roster, store.device()) {
        return Ok(ring);
    }
    if ring.is_none() && !store.secrecy_events()?.is_empty() {
        let made = Keyring::generate_gm(store.campaign());
        keep_gm_ring(store, &made)?;
        ring = Some(made);
    }
    if let Some(gm) = &ring {
        share_missing(store, gm, &roster, None)?;
    }
    Ok(ring)
}

/// Shares each epoch of `gm` with the GM devices of `roster` (but `leaving`) that no share
/// kept here wraps it for: one share of the epoch for all of them.
fn share_missing(
    store: &mut Store,
    gm: &Keyring,
    roster: &Roster,
    leaving: Option<DeviceId>,
) -> Result<(), SyncError> {
    if !roster.in_use() {
        return Ok(());
    }
    let readers = gm_readers(roster, leaving);
    let kept: Vec<Rotation> = rotations_of(store)?.into_iter().filter(|r| r.gm).collect();
    for epoch in gm.epoch_list() {
        let covered: std::collections::BTreeSet<DeviceId> = kept
            .iter()
            .filter(|r| r.epoch == epoch)
            .flat_map(|r| r.readers())
            .collect();
        if readers.iter().all(|(d, _)| covered.contains(d)) {
            continue;
        }
        if let Some(share) = Rotation::share(store, gm, epoch, &readers) {
            keep_rotation(store, &share)?;
        }
    }
    Ok(())
}

/// The shares among `found` (bundles from a document) that a GM device of `roster` made and
/// that wrap a key of the GM's ring for this device, taken into `gm`. Nothing is written:
/// the caller keeps the ring and the shares once what they opened has landed.
pub fn adopt_gm(
    store: &Store,
    gm: &mut Keyring,
    found: &[Vec<u8>],
    roster: &Roster,
) -> Vec<Rotation> {
    let mut gained = Vec::new();
    for b in found {
        let Some(r) = Rotation::from_bytes(b) else {
            continue;
        };
        if !r.gm || r.campaign != gm.campaign() || gm.holds(r.epoch) || !r.vouched(roster) {
            continue;
        }
        if let Some(key) = r.open_for(store) {
            gm.add(r.epoch, key);
            gained.push(r);
        }
    }
    gained
}

/// A GM device leaves (`leaving`, being revoked): the GM's ring gains a key that only the
/// other GM devices are given, so that what is sealed for the GM from now on is unreadable
/// to it. Nothing when this ledger holds no GM's ring.
pub fn rotate_gm(store: &mut Store, leaving: DeviceId) -> Result<(), SyncError> {
    let Some(mut gm) = gm_ring_of(store)? else {
        return Ok(());
    };
    let roster = Roster::from_log(&store.roster_events()?);
    let was_gm = roster
        .entries
        .get(&leaving)
        .is_some_and(|e| e.role == Role::Gm);
    if !was_gm {
        return Ok(());
    }
    // The new key is the one sealed under from now: the ring seals with its highest epoch.
    let epoch = gm.add_next();
    keep_gm_ring(store, &gm)?;
    let readers = gm_readers(&roster, Some(leaving));
    if let Some(share) = Rotation::share(store, &gm, epoch, &readers) {
        keep_rotation(store, &share)?;
    }
    Ok(())
}
