//! A key rotation ([`Rotation`]): the next epoch's key wrapped for each device still on the
//! roster (X25519 from its roster key, then XChaCha20-Poly1305), signed by a GM device; kept
//! in the ledger, adopted from a document, and who a rotation left out.

use super::*;
use crate::SyncError;
use chacha20poly1305::aead::{Aead, Payload};
use chacha20poly1305::XNonce;
use leechbook_core::ids::{CampaignId, DeviceId};
use leechbook_core::roster::{Role, Roster};
use leechbook_store::Store;
use sha2::{Digest, Sha256};

/// A new key, wrapped for each device that is to read on, and signed by the GM device that
/// made it. It travels in the sync document under `keys/EPOCH/DIGEST`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rotation {
    /// The campaign.
    pub campaign: CampaignId,
    /// The new epoch.
    pub epoch: u32,
    /// The GM device that made it.
    pub issuer: DeviceId,
    /// For each device: the ephemeral X25519 public key and the wrapped key.
    pub wraps: Vec<(DeviceId, [u8; 32], Vec<u8>)>,
    /// The issuer's signature over all of the above.
    pub signature: Vec<u8>,
    /// A share of the GM's ring (an epoch's key wrapped for the roster's GM devices alone,
    /// `crate::sealing`), not a campaign key: filed under `keys/gm/`, its first byte
    /// [`GM_SHARE`].
    pub gm: bool,
}

/// The first byte of a share of the GM's ring (a campaign key's rotation: `ROTATION`).
const GM_SHARE: u8 = 0xE6;

/// The key that wraps a campaign key for one device: SHA-256 over the X25519 shared secret
/// and both public keys.
fn wrapping_key(shared: &[u8; 32], ephemeral: &[u8; 32], recipient: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"leechbook campaign key wrap v1");
    h.update(shared);
    h.update(ephemeral);
    h.update(recipient);
    h.finalize().into()
}

/// A device's X25519 public key from its roster key (Ed25519).
fn agreement_public(roster_key: &[u8]) -> Option<[u8; 32]> {
    let key = ed25519_dalek::VerifyingKey::from_bytes(roster_key.try_into().ok()?).ok()?;
    Some(key.to_montgomery().to_bytes())
}

impl Rotation {
    /// The document key it is filed under: `keys/EPOCH/DIGEST`, the digest of its own bytes,
    /// so that no one can take its place in advance. (The first layout filed it under
    /// `keys/EPOCH`, which a peer could fill with junk before the GM's rotation came, and the
    /// rotation was then never put: every key under `keys/` is still read, and a rotation is
    /// judged by its GM signature wherever it lies.)
    pub fn filed_under(&self) -> String {
        let digest = Sha256::digest(self.to_bytes());
        let short: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        let gm = if self.gm { "gm/" } else { "" };
        format!("{ROTATION_PREFIX}{gm}{}/{short}", self.epoch)
    }

    fn signed_part(&self) -> Vec<u8> {
        let mut out = vec![if self.gm { GM_SHARE } else { ROTATION }];
        out.extend_from_slice(self.campaign.as_bytes());
        out.extend_from_slice(&self.epoch.to_le_bytes());
        out.extend_from_slice(self.issuer.as_bytes());
        out.extend_from_slice(&(self.wraps.len() as u32).to_le_bytes());
        for (d, eph, ct) in &self.wraps {
            out.extend_from_slice(d.as_bytes());
            out.extend_from_slice(eph);
            out.extend_from_slice(&(ct.len() as u32).to_le_bytes());
            out.extend_from_slice(ct);
        }
        out
    }

    /// Its bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.signed_part();
        out.extend_from_slice(&self.signature);
        out
    }

    /// Reads [`Rotation::to_bytes`].
    pub fn from_bytes(b: &[u8]) -> Option<Rotation> {
        let mut at = 0usize;
        let mut take = |n: usize| -> Option<&[u8]> {
            let s = b.get(at..at + n)?;
            at += n;
            Some(s)
        };
        let gm = match take(1)? {
            [ROTATION] => false,
            [GM_SHARE] => true,
            _ => return None,
        };
        let campaign = CampaignId(uuid::Uuid::from_slice(take(16)?).ok()?);
        let epoch = u32::from_le_bytes(take(4)?.try_into().ok()?);
        let issuer = DeviceId(uuid::Uuid::from_slice(take(16)?).ok()?);
        let n = u32::from_le_bytes(take(4)?.try_into().ok()?) as usize;
        let mut wraps = Vec::with_capacity(n.min(1024));
        for _ in 0..n {
            let d = DeviceId(uuid::Uuid::from_slice(take(16)?).ok()?);
            let eph: [u8; 32] = take(32)?.try_into().ok()?;
            let len = u32::from_le_bytes(take(4)?.try_into().ok()?) as usize;
            wraps.push((d, eph, take(len)?.to_vec()));
        }
        let signature = take(64)?.to_vec();
        (at == b.len()).then_some(Rotation {
            campaign,
            epoch,
            issuer,
            wraps,
            signature,
            gm,
        })
    }

    /// Makes the ring's next epoch and wraps it for each of `readers` (device and roster key),
    /// signed by `store`'s device. The ring gains the epoch; the caller keeps both.
    pub fn issue(store: &Store, ring: &mut Keyring, readers: &[(DeviceId, Vec<u8>)]) -> Rotation {
        // The next generation in the high bits, a random low half: two GM devices rotating
        // at once (offline) make two epochs, never two keys under one epoch.
        let low: [u8; 2] = random();
        let generation = (ring.current() >> 16).saturating_add(1).min(0xFFFF);
        let epoch = (generation << 16) | u32::from(u16::from_le_bytes(low));
        let key: [u8; 32] = random();
        let r = Rotation::wrap(store, ring.campaign, epoch, &key, readers, false);
        ring.add(epoch, key);
        r
    }

    /// A share of the GM's ring's `epoch` (its key `key`) for `readers`, the roster's GM
    /// devices, signed by `store`'s device.
    pub fn share(
        store: &Store,
        gm: &Keyring,
        epoch: u32,
        readers: &[(DeviceId, Vec<u8>)],
    ) -> Option<Rotation> {
        let key = gm.key_of(epoch)?;
        Some(Rotation::wrap(
            store,
            gm.campaign,
            epoch,
            &key,
            readers,
            true,
        ))
    }

    /// `key` of `epoch`, wrapped for each of `readers` and signed by `store`'s device.
    fn wrap(
        store: &Store,
        campaign: CampaignId,
        epoch: u32,
        key: &[u8; 32],
        readers: &[(DeviceId, Vec<u8>)],
        gm: bool,
    ) -> Rotation {
        let wraps = readers
            .iter()
            .filter_map(|(d, roster_key)| {
                let recipient = agreement_public(roster_key)?;
                let eph = x25519_dalek::StaticSecret::from(random::<32>());
                let eph_pub = x25519_dalek::PublicKey::from(&eph).to_bytes();
                let shared = eph
                    .diffie_hellman(&x25519_dalek::PublicKey::from(recipient))
                    .to_bytes();
                let wk = wrapping_key(&shared, &eph_pub, &recipient);
                let ct = cipher(&wk)
                    .encrypt(
                        XNonce::from_slice(&[0u8; 24]), // each wrapping key seals once
                        Payload {
                            msg: key,
                            aad: &wrap_aad(campaign, epoch, *d),
                        },
                    )
                    .ok()?;
                Some((*d, eph_pub, ct))
            })
            .collect();
        let mut r = Rotation {
            campaign,
            epoch,
            issuer: store.device(),
            wraps,
            signature: Vec::new(),
            gm,
        };
        r.signature = store.sign(&r.signed_part()).to_vec();
        r
    }

    /// The devices it wraps a key for.
    pub fn readers(&self) -> std::collections::BTreeSet<DeviceId> {
        self.wraps.iter().map(|w| w.0).collect()
    }

    /// Whether a GM device of `roster` made it (and it is not altered since).
    pub fn vouched(&self, roster: &Roster) -> bool {
        // A GM device still on the roster: a revoked one (a lost laptop) must not hand the
        // others a key it holds.
        let gm = roster
            .entries
            .get(&self.issuer)
            .is_some_and(|e| e.role == Role::Gm && e.revoked.is_none());
        let Some(key) = roster.key(self.issuer).filter(|_| gm) else {
            return false;
        };
        let Ok(key) = <[u8; 32]>::try_from(key) else {
            return false;
        };
        let Ok(key) = ed25519_dalek::VerifyingKey::from_bytes(&key) else {
            return false;
        };
        let Ok(sig) = <[u8; 64]>::try_from(self.signature.as_slice()) else {
            return false;
        };
        key.verify_strict(
            &self.signed_part(),
            &ed25519_dalek::Signature::from_bytes(&sig),
        )
        .is_ok()
    }

    /// The key wrapped for `store`'s device, if it is among the readers.
    pub fn open_for(&self, store: &Store) -> Option<[u8; 32]> {
        let (_, eph, ct) = self.wraps.iter().find(|w| w.0 == store.device())?;
        let secret = x25519_dalek::StaticSecret::from(store.agreement_secret());
        let mine = x25519_dalek::PublicKey::from(&secret).to_bytes();
        let shared = secret
            .diffie_hellman(&x25519_dalek::PublicKey::from(*eph))
            .to_bytes();
        let wk = wrapping_key(&shared, eph, &mine);
        let key = cipher(&wk)
            .decrypt(
                XNonce::from_slice(&[0u8; 24]),
                Payload {
                    msg: ct,
                    aad: &wrap_aad(self.campaign, self.epoch, store.device()),
                },
            )
            .ok()?;
        <[u8; 32]>::try_from(key.as_slice()).ok()
    }
}

fn wrap_aad(campaign: CampaignId, epoch: u32, device: DeviceId) -> Vec<u8> {
    let mut aad = campaign.as_bytes().to_vec();
    aad.extend_from_slice(&epoch.to_le_bytes());
    aad.extend_from_slice(device.as_bytes());
    aad
}

/// The rotations this ledger issued or took in (to put in every document it offers).
pub fn rotations_of(store: &Store) -> Result<Vec<Rotation>, SyncError> {
    let b = store.sync_state(ROTATIONS_KEY)?.unwrap_or_default();
    let mut out = Vec::new();
    let mut at = 0usize;
    while at + 4 <= b.len() {
        let n = u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]) as usize;
        if let Some(r) = b.get(at + 4..at + 4 + n).and_then(Rotation::from_bytes) {
            out.push(r);
        }
        at += 4 + n;
    }
    Ok(out)
}

/// Keeps a rotation with the others (once).
pub fn keep_rotation(store: &mut Store, r: &Rotation) -> Result<(), SyncError> {
    let mut all = rotations_of(store)?;
    // (A share of the GM's ring is issued again for the same epoch when the GM devices
    // change: kept while it wraps for others.)
    if all.iter().any(|k| {
        k.gm == r.gm
            && k.epoch == r.epoch
            && k.issuer == r.issuer
            && (!r.gm || k.readers() == r.readers())
    }) {
        return Ok(());
    }
    all.push(r.clone());
    let mut b = Vec::new();
    for k in &all {
        let bytes = k.to_bytes();
        b.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        b.extend_from_slice(&bytes);
    }
    store.put_sync_state(ROTATIONS_KEY, &b)?;
    Ok(())
}

/// The rotations among `found` (bundles from a document) that a GM device of `roster` made
/// and that wrap a key for this device, taken into `ring`. Nothing is written: the caller
/// keeps the ring and the rotations once what they opened has landed.
pub fn adopt(
    store: &Store,
    ring: &mut Keyring,
    found: &[Vec<u8>],
    roster: &Roster,
) -> Vec<Rotation> {
    let mut gained = Vec::new();
    for b in found {
        // A rotation wraps a key for each device of a table: junk the size of a novel is not
        // one, and is not even parsed.
        if b.len() > MAX_ROTATION {
            continue;
        }
        let Some(r) = Rotation::from_bytes(b) else {
            continue;
        };
        // A rotation is the next generation or a later one a device missed the ones between;
        // one that jumps far ahead (towards the last generation) is refused. (A share of the
        // GM's ring is not the campaign's: `adopt_gm`.)
        let ahead = (r.epoch >> 16).saturating_sub(ring.current() >> 16);
        if r.gm
            || r.campaign != ring.campaign
            || ring.holds(r.epoch)
            || ahead > 64
            || !r.vouched(roster)
        {
            continue;
        }
        if let Some(key) = r.open_for(store) {
            ring.add(r.epoch, key);
            gained.push(r);
        }
    }
    gained
}

/// The GM device that left this device out of a key rotation, if one did: a rotation
/// among `found` that a GM device of `roster` signed, of a later generation than any key this
/// device holds, with no key wrapped for it. What the others record from then on is sealed
/// from this device: it was revoked (a revocation it cannot read, sealed under the new key).
pub fn left_out_by(
    store: &Store,
    ring: &Keyring,
    found: &[Vec<u8>],
    roster: &Roster,
) -> Option<DeviceId> {
    found
        .iter()
        .filter(|b| b.len() <= MAX_ROTATION)
        .filter_map(|b| Rotation::from_bytes(b))
        .find(|r| {
            !r.gm
                && r.campaign == ring.campaign
                && (r.epoch >> 16) > (ring.current() >> 16)
                && !r.wraps.iter().any(|(d, _, _)| *d == store.device())
                && r.vouched(roster)
        })
        .map(|r| r.issuer)
}

/// Keeps a ring that changed (a join file's keys merged, a rotation taken in, a ring made),
/// and the rotations taken in, to offer on.
pub fn keep_gains(
    store: &mut Store,
    before: Option<&Keyring>,
    ring: &Keyring,
    rotations: &[Rotation],
) -> Result<(), SyncError> {
    if before != Some(ring) {
        keep_keyring(store, ring)?;
    }
    // The GM's ring, where shares of it were taken in.
    if let Some(gm) = ring.gm() {
        if before.and_then(Keyring::gm) != Some(gm) {
            super::keep_gm_ring(store, gm)?;
        }
    }
    for r in rotations {
        keep_rotation(store, r)?;
    }
    Ok(())
}
