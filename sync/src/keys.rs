//! The campaign's keys on this ledger: invitations (a join file or code) that hand them
//! over, adopting them, reading again what they open, and rotating them when a device
//! leaves.

use crate::{
    crypt, entry::bytes_at, entry::is_rotation, layout, mirror::file_of, mirror::shelf_of,
    mirror::Heads, Keyring, Rotation, SyncError,
};
use automerge::{ReadDoc, ROOT};
use layout::Shelf;
use leechbook_core::ids::DeviceId;
use leechbook_store::{ReadLog, Store};

/// A join file for a new device (`sync invite FILE`): the campaign's keys, then every
/// volume. Whoever holds it reads the campaign; the GM hands it over like a key.
pub fn invite(store: &mut Store) -> Result<Vec<u8>, SyncError> {
    let ring = crypt::ring_for_sync(store)?;
    let mut shelf = shelf_of(store, ring.clone())?;
    let (bytes, _) = file_of(&mut shelf, store, |_| true, &Heads::new())?;
    shelf.keep(store)?;
    Ok(ring.invitation(&bytes))
}

/// The join code for the network (`sync invite` without a file): the campaign's keys.
pub fn join_code(store: &mut Store) -> Result<String, SyncError> {
    Ok(crypt::ring_for_sync(store)?.code())
}

/// Takes a join code's keys into this ledger (`sync key CODE`: a device of a campaign begun
/// before encryption, or one the GM gives the keys again). Returns the epochs gained.
pub fn adopt_code(store: &mut Store, code: &str) -> Result<usize, SyncError> {
    let given = Keyring::from_code(code)?;
    if given.campaign() != store.campaign() {
        return Err(SyncError::Key(
            "the join code is for another campaign".into(),
        ));
    }
    let before = crypt::keyring_of(store)?;
    if before.is_none() {
        // A ledger that lost its keys: the code must open what it already holds.
        if let Some(crypt::Unopened::WrongKey) = first_held_entry(store, &given)? {
            return Err(SyncError::Key(
                "the join code does not open this ledger's sync data (a wrong code, or another GM's key)".into(),
            ));
        }
    }
    let mut ring = before.clone().unwrap_or_else(|| given.clone());
    let gained = if before.is_some() {
        ring.merge(&given)?
    } else {
        ring.epochs()
    };
    crypt::keep_gains(store, before.as_ref(), &ring, &[])?;
    Ok(gained)
}

/// How the first sealed event entry this ledger keeps opens under `ring` (`None`: it opens,
/// or there is none).
pub(crate) fn first_held_entry(
    store: &Store,
    ring: &Keyring,
) -> Result<Option<crypt::Unopened>, SyncError> {
    let shelf = Shelf::open(store, ring.clone())?;
    for v in shelf.all_volumes(store)? {
        let Some(kept) = layout::load_kept(store, &v.name())? else {
            continue;
        };
        for key in kept.doc.keys(ROOT).filter(|k| !is_rotation(k)) {
            if let Some(b) = bytes_at(&kept.doc, &key) {
                return Ok(ring.open(&key, &b).err());
            }
        }
    }
    Ok(None)
}

/// Rotates the campaign's key after a revocation (a GM device's): a new epoch, wrapped for
/// every device still on the roster and signed by this one, kept with the ring and offered in
/// every document from now on. What is sealed after it is unreadable to the revoked device.
/// Returns the new epoch.
/// `leaving` is the device being revoked (left out even before its revocation is recorded).
pub fn rotate_key(store: &mut Store, leaving: Option<DeviceId>) -> Result<u32, SyncError> {
    if !crypt::is_gm_device(store)? {
        return Err(SyncError::Key(
            "only a GM's device revokes a device and rotates the campaign key".into(),
        ));
    }
    let roster = leechbook_core::roster::Roster::from_log(&store.roster_events()?);
    let before = crypt::keyring_of(store)?;
    let mut ring = crypt::ring_for_sync(store)?;
    let readers: Vec<(DeviceId, Vec<u8>)> = roster
        .entries
        .iter()
        .filter(|(d, e)| e.revoked.is_none() && Some(**d) != leaving)
        .map(|(d, e)| (*d, e.key.clone()))
        .collect();
    let r = Rotation::issue(store, &mut ring, &readers);
    crypt::keep_gains(store, before.as_ref(), &ring, std::slice::from_ref(&r))?;
    // A GM device leaving takes no key of the GM's ring made from now.
    if let Some(leaving) = leaving {
        crypt::rotate_gm(store, leaving)?;
    }
    Ok(r.epoch)
}
