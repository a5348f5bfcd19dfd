//! The names a hub and a sync file see ([`Names`]): digests keyed by the campaign's
//! document secret, for an event's entry, a device's volume and a device's head; what a
//! volume is ([`VolumeId`]) and the counts the index keeps of each. The vocabulary every
//! module of the sync shares (the documents' layout, their entries, the heads).

use crate::crypt::Keyring;
use leechbook_core::ids::DeviceId;
use leechbook_core::Envelope;
use std::collections::BTreeMap;

/// The prefix of an index key that files a device's signed head ([`Names::head`]).
pub const HEAD_PREFIX: &str = "head/";

/// Events per volume.
pub const VOLUME: u64 = 4096;

/// A volume: one device's events numbered `number * VOLUME + 1 ..= (number + 1) * VOLUME`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VolumeId {
    /// The device whose events it holds.
    pub device: DeviceId,
    /// Its number among that device's volumes.
    pub number: u32,
}

impl VolumeId {
    /// The volume an event belongs in.
    pub fn of(env: &Envelope) -> VolumeId {
        VolumeId {
            device: env.device,
            number: (env.seq.saturating_sub(1) / VOLUME) as u32,
        }
    }

    /// Its name: `DEVICE/NUMBER` (the index's key for it).
    pub fn name(&self) -> String {
        format!("{}/{}", self.device.0, self.number)
    }

    /// Reads [`VolumeId::name`].
    pub fn parse(name: &str) -> Option<VolumeId> {
        let (d, n) = name.split_once('/')?;
        Some(VolumeId {
            device: DeviceId(d.parse().ok()?),
            number: n.parse().ok()?,
        })
    }
}

/// Events per volume.
pub type Counts = BTreeMap<VolumeId, u64>;

/// The names a hub and a sync file see: digests keyed by the campaign's document secret
/// ([`Keyring::document_secret`]), so that an entry's key tells nothing of its event (an
/// event id is a UUIDv7, the millisecond it was recorded) and a volume's nothing of its
/// device; a device of the campaign works each out from what it names.
#[derive(Clone)]
pub struct Names {
    secret: [u8; 32],
    counts: Keyring,
}

impl Names {
    /// The names of the campaign whose keys are `ring`.
    pub fn of(ring: &Keyring) -> Names {
        Names {
            secret: ring.document_secret(),
            counts: ring.first_epoch(),
        }
    }

    fn digest(&self, what: &[u8], data: &[u8]) -> String {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update(self.secret);
        h.update(what);
        h.update(data);
        let d = h.finalize();
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut out = String::with_capacity(32);
        for b in &d[..16] {
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
        out
    }

    /// The key the event `id`, its device's number `seq`, is filed under in its volume: its
    /// place in the volume (three hex digits, 000 to fff), then a digest of its id. The place
    /// tells a hub what it sees anyway (the order entries arrive in); it keeps a volume's keys
    /// in the order they are put, which automerge stores cheaply (a map's operations are kept
    /// sorted by key: keys in random order cost a splice of every column per entry loaded).
    pub fn entry(&self, id: leechbook_core::ids::EventId, seq: u64) -> String {
        let mut key = format!("{:03x}", seq.saturating_sub(1) % VOLUME);
        key.push_str(&self.digest(b"entry", id.0.as_bytes())[..29]);
        key
    }

    /// The key an envelope's entry is filed under ([`Names::entry`]).
    pub fn entry_of(&self, env: &Envelope) -> String {
        self.entry(env.id, env.seq)
    }

    /// The name of a volume: its key in the index, in a sync file and in a hub's document id.
    pub fn volume(&self, v: VolumeId) -> String {
        let mut data = v.device.as_bytes().to_vec();
        data.extend_from_slice(&v.number.to_le_bytes());
        self.digest(b"volume", &data)
    }

    /// The index key of a device's signed head ([`crate::heads`]).
    pub fn head(&self, device: DeviceId) -> String {
        format!("{}{}", HEAD_PREFIX, self.digest(b"head", device.as_bytes()))
    }

    /// A value of the index (a count, a head), sealed under the campaign's first key and
    /// filed under `key`.
    pub fn seal_index(&self, key: &str, plain: &[u8]) -> Vec<u8> {
        self.counts.seal(key, plain)
    }

    /// Opens what [`Names::seal_index`] sealed (`None`: junk, or another campaign's).
    pub fn open_index(&self, key: &str, b: &[u8]) -> Option<Vec<u8>> {
        self.counts.open(key, b).ok()
    }

    /// A volume's count as the index and a sync file keep it: sealed, filed under `key`.
    pub fn seal_counts(&self, key: &str, c: &Counts) -> Vec<u8> {
        self.seal_index(key, &counts_to_bytes(c))
    }

    /// Opens what [`Names::seal_counts`] sealed (`None`: junk, or another campaign's).
    pub fn open_counts(&self, key: &str, b: &[u8]) -> Option<Counts> {
        counts_from_bytes(&self.open_index(key, b)?)
    }

    /// The volume a name names, among `known`.
    pub fn volume_named<'a>(
        &self,
        name: &str,
        known: impl IntoIterator<Item = &'a VolumeId>,
    ) -> Option<VolumeId> {
        known.into_iter().copied().find(|v| self.volume(*v) == name)
    }
}

pub(crate) fn counts_to_bytes(c: &Counts) -> Vec<u8> {
    let mut out = Vec::with_capacity(c.len() * 28);
    for (v, n) in c {
        out.extend_from_slice(v.device.as_bytes());
        out.extend_from_slice(&v.number.to_le_bytes());
        out.extend_from_slice(&n.to_le_bytes());
    }
    out
}

pub(crate) fn counts_from_bytes(b: &[u8]) -> Option<Counts> {
    if b.len() % 28 != 0 {
        return None;
    }
    b.chunks_exact(28)
        .map(|c| {
            let device = DeviceId(uuid::Uuid::from_slice(&c[..16]).ok()?);
            let number = u32::from_le_bytes(c[16..20].try_into().ok()?);
            let n = u64::from_le_bytes(c[20..28].try_into().ok()?);
            Some((VolumeId { device, number }, n))
        })
        .collect()
}
