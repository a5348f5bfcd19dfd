//! The campaign key: what keeps a campaign private from the hubs and files it travels through.
//!
//! Every event leaves a ledger sealed (XChaCha20-Poly1305, a random 24-byte nonce per entry)
//! under the campaign's current key, bound to its campaign and to the document key it is
//! filed under; a hub, a sync server or a lost file shows only sizes, counts and timing.
//! Signatures stay inside, as before: the key decides who can *read*, the roster who can
//! *write*.
//!
//! The keys form a [`Keyring`]: epoch 0 is made with the campaign, and each revocation makes
//! the next ([`Rotation`]). A device seals with the newest epoch it holds and opens any epoch
//! it holds. The whole ring reaches a new device inside the GM's invitation (a join file, or
//! a join code for the network). A rotation reaches the devices still on the roster through
//! the sync document itself, under the key `keys/EPOCH/DIGEST`: the new key wrapped for each of them
//! (X25519 from their roster key, then XChaCha20-Poly1305), the whole signed by a GM device,
//! so that a hub can neither read it nor slip in a key of its own. A revoked device is not
//! among the wraps: what is sealed after the rotation is unreadable to it.

use crate::SyncError;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use leechbook_core::ids::CampaignId;
use sha2::{Digest, Sha256};

mod gm;
mod kept;
mod rotation;
pub use gm::{adopt_gm, gm_ring_for_sync, gm_ring_of, keep_gm_ring, rotate_gm};
pub(crate) use kept::state_lines;
pub use kept::{
    generation_of, ignored, is_gm_device, keep_ignored, keep_keyring, keyring_of, keys_proven,
    prove_keys, put_generation, ring_for_sync,
};
pub use rotation::{adopt, keep_gains, keep_rotation, left_out_by, rotations_of, Rotation};

/// The first byte of a sealed entry as the first layouts sealed it, unpadded (still opened).
pub const SEALED_UNPADDED: u8 = 0xE1;
/// The first byte of a sealed entry (a codec byte of its own: a plain envelope's is lower):
/// its plaintext is framed (its length, 4 bytes little-endian) and padded with zeros to a
/// size class ([`padded_len`]), so that a hub learns an entry's size class, not its size.
pub const SEALED: u8 = 0xE3;
/// The first byte of a rotation's bundle.
const ROTATION: u8 = 0xE2;
/// The largest bundle read as a rotation (a key wrapped for 500 devices fits with room).
const MAX_ROTATION: usize = 64 * 1024;
/// The document keys that hold rotations (`keys/EPOCH`); every other key is an event id.
pub const ROTATION_PREFIX: &str = "keys/";
/// Where a ledger keeps its ring (in the store's sync state; unlike the rest of it, not a
/// cache: a ring lost is a campaign this device can no longer read).
const RING_KEY: &str = "campaign-keys";
/// Where a ledger keeps the rotations it issued or took in, to offer them on.
const ROTATIONS_KEY: &str = "key-rotations";
/// A join code's prefix (and version): the ring, then check digits.
const CODE_PREFIX: &str = "lbj2-";
/// The first form of join code: the ring alone (a typo gave a wrong key, found out later).
const OLD_CODE_PREFIX: &str = "lbj1-";
/// The check digits' length, in bytes.
const CHECK: usize = 4;

/// The smallest padded size: a count or a short event fills it.
const PAD_MIN: usize = 64;
/// Past this, sizes go up in steps of it rather than doubling.
const PAD_STEP: usize = 4096;

/// The size a plaintext of `n` bytes is padded to once framed (4 bytes of length before it):
/// the next power of two from [`PAD_MIN`] up to [`PAD_STEP`], then the next multiple of
/// [`PAD_STEP`]. An entry's sealed size then tells a hub one of a few classes (a strike and a
/// healing roll look alike), at a cost under twice the bytes.
pub fn padded_len(n: usize) -> usize {
    let framed = n + 4;
    if framed <= PAD_STEP {
        framed.next_power_of_two().max(PAD_MIN)
    } else {
        framed.div_ceil(PAD_STEP) * PAD_STEP
    }
}

/// A join code's check digits: the first bytes of a digest of what it carries.
fn code_check(bytes: &[u8]) -> [u8; CHECK] {
    let mut h = Sha256::new();
    h.update(b"leechbook join code");
    h.update(bytes);
    let d = h.finalize();
    [d[0], d[1], d[2], d[3]]
}

/// Why an entry does not open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unopened {
    /// It is not sealed (an event in clear, from a device before encryption, or forged).
    InClear,
    /// It is sealed under an epoch this device does not hold (a rotation it was left out of,
    /// or one it has not taken in yet).
    NoKey(u32),
    /// It does not authenticate under the key of its epoch (another campaign's, or a wrong
    /// key, or damaged).
    WrongKey,
}

impl std::fmt::Display for Unopened {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unopened::InClear => write!(f, "it is not sealed under a campaign key"),
            Unopened::NoKey(e) => write!(
                f,
                "it is sealed under campaign key {e}, which this device does not hold"
            ),
            Unopened::WrongKey => write!(
                f,
                "it does not open with this campaign's key (another campaign's data, or a wrong key)"
            ),
        }
    }
}

/// A campaign's keys, by epoch.
#[derive(Clone)]
pub struct Keyring {
    campaign: CampaignId,
    /// Ascending by epoch.
    keys: Vec<(u32, [u8; 32])>,
    /// The generation of the campaign's document ids on hubs this device syncs with
    /// (`net::Places`): kept beside the ring, never in it (a join code or file carries none).
    generation: u32,
    /// The GM's ring, on a GM device that holds it: the keys a GM-only character's events
    /// are sealed under inside their entries (`crate::sealing`). Kept apart from the
    /// campaign's ring and never in its bytes: no join code or file carries it.
    gm: Option<Box<Keyring>>,
}

/// Rings are alike by their campaign and keys; the generation of ids is where they meet.
impl PartialEq for Keyring {
    fn eq(&self, other: &Keyring) -> bool {
        self.campaign == other.campaign && self.keys == other.keys
    }
}

impl Eq for Keyring {}

impl std::fmt::Debug for Keyring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the keys themselves.
        f.debug_struct("Keyring")
            .field("campaign", &self.campaign)
            .field("epochs", &self.keys.iter().map(|k| k.0).collect::<Vec<_>>())
            .finish()
    }
}

fn random<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    rand::Rng::fill(&mut rand::rng(), &mut b[..]);
    b
}

fn cipher(key: &[u8; 32]) -> XChaCha20Poly1305 {
    XChaCha20Poly1305::new(key.into())
}

impl Keyring {
    /// A new ring for a new campaign: epoch 0, a fresh random key.
    pub fn generate(campaign: CampaignId) -> Keyring {
        Keyring {
            campaign,
            keys: vec![(0, random())],
            generation: 0,
            gm: None,
        }
    }

    /// A ring with no key yet (the GM's, before a share reaches this GM device).
    pub(crate) fn empty(campaign: CampaignId) -> Keyring {
        Keyring {
            campaign,
            keys: Vec::new(),
            generation: 0,
            gm: None,
        }
    }

    /// A new GM's ring: one key, under an epoch of random low bits (two GM devices that
    /// make one each offline make two epochs, never two keys under one).
    pub(crate) fn generate_gm(campaign: CampaignId) -> Keyring {
        let low: [u8; 2] = random();
        Keyring {
            campaign,
            keys: vec![(u32::from(u16::from_le_bytes(low)), random())],
            generation: 0,
            gm: None,
        }
    }

    /// Adds the next generation's key (a random low half: two GM devices adding one each
    /// offline make two epochs), the one sealed under from now. Returns its epoch.
    pub(crate) fn add_next(&mut self) -> u32 {
        let low: [u8; 2] = random();
        let generation = (self.current() >> 16).saturating_add(1).min(0xFFFF);
        let epoch = (generation << 16) | u32::from(u16::from_le_bytes(low));
        self.add(epoch, random());
        epoch
    }

    /// Carries the GM's ring `gm` from now.
    pub(crate) fn set_gm(&mut self, gm: Keyring) {
        self.gm = (gm.epochs() > 0).then(|| Box::new(gm));
    }

    /// The GM's ring this ring carries, if this device holds it.
    pub fn gm(&self) -> Option<&Keyring> {
        self.gm.as_deref()
    }

    /// This ring carrying the GM's ring `gm`.
    pub(crate) fn with_gm(mut self, gm: Option<Keyring>) -> Keyring {
        if let Some(gm) = gm {
            self.set_gm(gm);
        }
        self
    }

    /// The key of `epoch`, for a share of it (the GM's ring).
    pub(crate) fn key_of(&self, epoch: u32) -> Option<[u8; 32]> {
        self.key(epoch).copied()
    }

    /// The epochs it holds.
    pub(crate) fn epoch_list(&self) -> Vec<u32> {
        self.keys.iter().map(|k| k.0).collect()
    }

    /// The generation of document ids this ring syncs at (0: the campaign's first).
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// This ring syncing at `generation`.
    pub fn at_generation(mut self, generation: u32) -> Keyring {
        self.generation = generation;
        self
    }

    /// The campaign it belongs to.
    pub fn campaign(&self) -> CampaignId {
        self.campaign
    }

    /// The secret the campaign's document ids are derived from: a digest of its first key,
    /// which every device that can read the campaign holds (a rotation adds keys, never drops
    /// one), so that a hub, or anyone who learns the campaign's id, cannot work them out.
    pub fn document_secret(&self) -> [u8; 32] {
        let first = self.keys.iter().min_by_key(|(e, _)| *e).map(|(_, k)| *k);
        let mut h = Sha256::new();
        h.update(b"leechbook document ids v3");
        h.update(self.campaign.as_bytes());
        h.update(first.unwrap_or([0; 32]));
        h.finalize().into()
    }

    /// The ring of the campaign's first key alone, which every device of the campaign holds
    /// (a rotation adds keys, never drops one): what the index's counts are sealed under, so
    /// that a device reads them before it takes in a rotation listed beside them.
    pub fn first_epoch(&self) -> Keyring {
        Keyring {
            campaign: self.campaign,
            keys: self
                .keys
                .iter()
                .min_by_key(|(e, _)| *e)
                .into_iter()
                .copied()
                .collect(),
            generation: self.generation,
            gm: None,
        }
    }

    /// The newest epoch, the one new events are sealed under.
    pub fn current(&self) -> u32 {
        self.keys.last().map_or(0, |k| k.0)
    }

    /// How many epochs it holds.
    pub fn epochs(&self) -> usize {
        self.keys.len()
    }

    /// Whether the ring holds `epoch`.
    pub fn holds(&self, epoch: u32) -> bool {
        self.key(epoch).is_some()
    }

    fn key(&self, epoch: u32) -> Option<&[u8; 32]> {
        self.keys.iter().find(|k| k.0 == epoch).map(|k| &k.1)
    }

    pub(crate) fn add(&mut self, epoch: u32, key: [u8; 32]) {
        if !self.holds(epoch) {
            self.keys.push((epoch, key));
            self.keys.sort_by_key(|k| k.0);
        }
    }

    /// Takes in the epochs of `other` this ring lacks. Another campaign's ring, or a
    /// different key under an epoch held, is refused.
    pub fn merge(&mut self, other: &Keyring) -> Result<usize, SyncError> {
        if other.campaign != self.campaign {
            return Err(SyncError::Key(
                "the join code is for another campaign".into(),
            ));
        }
        if other
            .keys
            .iter()
            .any(|(e, k)| self.key(*e).is_some_and(|held| held != k))
        {
            return Err(SyncError::Key(
                "the join code's keys differ from the keys this ledger holds (a wrong code?)"
                    .into(),
            ));
        }
        let before = self.keys.len();
        for (e, k) in &other.keys {
            self.add(*e, *k);
        }
        Ok(self.keys.len() - before)
    }

    fn aad(&self, filed_under: &str) -> Vec<u8> {
        let mut aad = self.campaign.as_bytes().to_vec();
        aad.extend_from_slice(filed_under.as_bytes());
        aad
    }

    /// What a padded entry's tag also covers: its codec byte and epoch, so that neither can
    /// be changed without the entry failing to open.
    fn aad_with_header(&self, filed_under: &str, header: &[u8]) -> Vec<u8> {
        let mut aad = self.aad(filed_under);
        aad.extend_from_slice(header);
        aad
    }

    /// Seals `plain` (an encoded envelope) under the current epoch, bound to this campaign and
    /// to the document key it is filed under: `SEALED`, the epoch (4 bytes, little-endian),
    /// the nonce (24 bytes), the ciphertext of the framed and padded plaintext, and its tag.
    pub fn seal(&self, filed_under: &str, plain: &[u8]) -> Vec<u8> {
        let (epoch, key) = self.keys.last().map_or((0, [0u8; 32]), |k| (k.0, k.1));
        let nonce: [u8; 24] = random();
        let mut framed = Vec::with_capacity(padded_len(plain.len()));
        framed.extend_from_slice(&(plain.len() as u32).to_le_bytes());
        framed.extend_from_slice(plain);
        framed.resize(padded_len(plain.len()), 0);
        let mut header = vec![SEALED];
        header.extend_from_slice(&epoch.to_le_bytes());
        let sealed = cipher(&key)
            .encrypt(
                XNonce::from_slice(&nonce),
                Payload {
                    msg: &framed,
                    aad: &self.aad_with_header(filed_under, &header),
                },
            )
            .unwrap_or_default(); // XChaCha20-Poly1305 fails only past 256 GiB
        let mut out = Vec::with_capacity(1 + 4 + 24 + sealed.len());
        out.push(SEALED);
        out.extend_from_slice(&epoch.to_le_bytes());
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        out
    }

    /// Seals `plain` unpadded, under the current epoch ([`SEALED_UNPADDED`]): what goes
    /// inside an entry the campaign's seal pads (the GM's part of an entry sealed for the
    /// GM), so that it costs its own size and no padding twice.
    pub(crate) fn seal_bare(&self, filed_under: &str, plain: &[u8]) -> Vec<u8> {
        let (epoch, key) = self.keys.last().map_or((0, [0u8; 32]), |k| (k.0, k.1));
        let nonce: [u8; 24] = random();
        let sealed = cipher(&key)
            .encrypt(
                XNonce::from_slice(&nonce),
                Payload {
                    msg: plain,
                    aad: &self.aad(filed_under),
                },
            )
            .unwrap_or_default();
        let mut out = Vec::with_capacity(1 + 4 + 24 + sealed.len());
        out.push(SEALED_UNPADDED);
        out.extend_from_slice(&epoch.to_le_bytes());
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        out
    }

    /// Opens what [`Keyring::seal`] sealed under `filed_under`.
    /// (An entry sealed unpadded by an earlier layout, [`SEALED_UNPADDED`], opens too.)
    pub fn open(&self, filed_under: &str, bytes: &[u8]) -> Result<Vec<u8>, Unopened> {
        if bytes.len() < 1 + 4 + 24 + 16 || !matches!(bytes[0], SEALED | SEALED_UNPADDED) {
            return Err(Unopened::InClear);
        }
        let epoch = u32::from_le_bytes([bytes[1], bytes[2], bytes[3], bytes[4]]);
        let key = self.key(epoch).ok_or(Unopened::NoKey(epoch))?;
        let aad = if bytes[0] == SEALED {
            self.aad_with_header(filed_under, &bytes[..5])
        } else {
            self.aad(filed_under)
        };
        let mut plain = cipher(key)
            .decrypt(
                XNonce::from_slice(&bytes[5..29]),
                Payload {
                    msg: &bytes[29..],
                    aad: &aad,
                },
            )
            .map_err(|_| Unopened::WrongKey)?;
        if bytes[0] == SEALED_UNPADDED {
            return Ok(plain);
        }
        // Authenticated, so sealed by a holder of the key: a frame that does not read is a
        // device's bug, told as what does not open.
        let n = plain
            .get(..4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .filter(|n| 4 + n <= plain.len())
            .ok_or(Unopened::WrongKey)?;
        plain.truncate(4 + n);
        plain.drain(..4);
        Ok(plain)
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.campaign.as_bytes().to_vec();
        for (e, k) in &self.keys {
            out.extend_from_slice(&e.to_le_bytes());
            out.extend_from_slice(k);
        }
        out
    }

    fn from_bytes(b: &[u8]) -> Option<Keyring> {
        if b.len() < 16 + 36 || (b.len() - 16) % 36 != 0 {
            return None;
        }
        let campaign = CampaignId(uuid::Uuid::from_slice(&b[..16]).ok()?);
        let mut ring = Keyring {
            campaign,
            keys: Vec::new(),
            generation: 0,
            gm: None,
        };
        for c in b[16..].chunks_exact(36) {
            let epoch = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            ring.add(epoch, <[u8; 32]>::try_from(&c[4..]).ok()?);
        }
        Some(ring)
    }

    /// The join code for the network: the campaign and every key, as one word a player
    /// types or pastes (`init --join URL --campaign CODE`). Whoever holds it reads the
    /// campaign: it is handed over like a key.
    pub fn code(&self) -> String {
        let bytes = self.to_bytes();
        let hex: String = bytes
            .iter()
            .chain(&code_check(&bytes))
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("{CODE_PREFIX}{hex}")
    }

    /// Reads a join code ([`Keyring::code`]; a first-form `lbj1-` code, which carries no
    /// check digits, still reads).
    pub fn from_code(code: &str) -> Result<Keyring, SyncError> {
        // The code is not repeated: a nearly right one holds the campaign's keys.
        let bad = || SyncError::NotAJoinCode(CODE_PREFIX);
        let code = code.trim();
        let (hex, checked) = match (
            code.strip_prefix(CODE_PREFIX),
            code.strip_prefix(OLD_CODE_PREFIX),
        ) {
            (Some(hex), _) => (hex, true),
            (None, Some(hex)) => (hex, false),
            (None, None) => return Err(bad()),
        };
        if hex.len() % 2 != 0 || !hex.is_ascii() {
            return Err(bad());
        }
        let mut bytes = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16))
            .collect::<Result<Vec<u8>, _>>()
            .map_err(|_| bad())?;
        if checked {
            let at = bytes.len().checked_sub(CHECK).ok_or_else(bad)?;
            let check = bytes.split_off(at);
            if check != code_check(&bytes) {
                return Err(SyncError::CodeTypo);
            }
        }
        Keyring::from_bytes(&bytes).ok_or_else(bad)
    }

    /// The ring a join file carries, and the sync data after it.
    pub(crate) fn split_invitation(bytes: &[u8]) -> Option<(Keyring, &[u8])> {
        let rest = bytes.strip_prefix(INVITATION)?;
        let n = u32::from_le_bytes(rest.get(..4)?.try_into().ok()?) as usize;
        let ring = Keyring::from_bytes(rest.get(4..4 + n)?)?;
        Some((ring, &rest[4 + n..]))
    }

    /// A join file: the ring, then the sync data (`sync invite FILE`).
    pub fn invitation(&self, sync: &[u8]) -> Vec<u8> {
        let ring = self.to_bytes();
        let mut out = INVITATION.to_vec();
        out.extend_from_slice(&(ring.len() as u32).to_le_bytes());
        out.extend_from_slice(&ring);
        out.extend_from_slice(sync);
        out
    }
}

/// A join file's first bytes (never an automerge document's, which start with its magic).
const INVITATION: &[u8] = b"LEECHBOOK-JOIN-1\n";

/// The campaign of a join file (an invitation: the campaign's keys with its events), or
/// `None` if `bytes` are not one.
pub fn invitation_campaign(bytes: &[u8]) -> Option<CampaignId> {
    Keyring::split_invitation(bytes).map(|(ring, _)| ring.campaign())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_entry_opens_with_its_ring_only_under_its_own_key() {
        let campaign = CampaignId(uuid::Uuid::now_v7());
        let ring = Keyring::generate(campaign);
        let sealed = ring.seal("k", b"an encoded envelope");
        assert_eq!(sealed[0], SEALED);
        assert!(!sealed.windows(b"encoded".len()).any(|w| w == b"encoded"));
        assert_eq!(ring.open("k", &sealed).unwrap(), b"an encoded envelope");
        // Filed under another key: refused.
        assert_eq!(ring.open("other", &sealed), Err(Unopened::WrongKey));
        // Another campaign's ring: refused.
        let other = Keyring::generate(campaign);
        assert_eq!(other.open("k", &sealed), Err(Unopened::WrongKey));
        // In clear: refused.
        assert_eq!(ring.open("k", b"plain"), Err(Unopened::InClear));
        // A later epoch this ring lacks.
        let mut later = sealed.clone();
        later[1] = 7;
        assert_eq!(ring.open("k", &later), Err(Unopened::NoKey(7)));
    }

    #[test]
    fn sealed_sizes_fall_in_a_few_classes_and_an_unpadded_entry_still_opens() {
        let ring = Keyring::generate(CampaignId(uuid::Uuid::now_v7()));
        // Framed (4 bytes of length), then the next power of two from 64, then steps of 4096.
        assert_eq!(padded_len(0), 64);
        assert_eq!(padded_len(60), 64);
        assert_eq!(padded_len(61), 128);
        assert_eq!(padded_len(200), 256);
        assert_eq!(padded_len(4092), 4096);
        assert_eq!(padded_len(4093), 8192);
        assert_eq!(padded_len(9000), 12288);
        // Two plaintexts of different lengths in one class seal to the same size.
        let (a, b) = (ring.seal("k", &[1; 130]), ring.seal("k", &[2; 250]));
        assert_eq!(a.len(), b.len());
        assert_eq!(a.len(), 1 + 4 + 24 + 256 + 16);
        assert_eq!(ring.open("k", &b).unwrap(), vec![2; 250]);
        // An entry sealed by the first layouts (no frame, no padding) opens as it was.
        let key = *ring.key(0).unwrap();
        let nonce = [9u8; 24];
        let ct = cipher(&key)
            .encrypt(
                XNonce::from_slice(&nonce),
                Payload {
                    msg: b"old entry",
                    aad: &ring.aad("k"),
                },
            )
            .unwrap();
        let mut old = vec![SEALED_UNPADDED, 0, 0, 0, 0];
        old.extend_from_slice(&nonce);
        old.extend_from_slice(&ct);
        assert_eq!(ring.open("k", &old).unwrap(), b"old entry");
    }

    #[test]
    fn a_join_code_round_trips_and_a_bad_one_is_refused() {
        let ring = Keyring::generate(CampaignId(uuid::Uuid::now_v7()));
        let back = Keyring::from_code(&ring.code()).unwrap();
        assert_eq!(back, ring);
        assert!(Keyring::from_code("lbj1-00").is_err());
        // One digit wrong: told as a typo, never taken as another key.
        let code = ring.code();
        let i = code.len() - 20;
        let typo = format!(
            "{}{}{}",
            &code[..i],
            if &code[i..=i] == "0" { "1" } else { "0" },
            &code[i + 1..]
        );
        match Keyring::from_code(&typo) {
            Err(SyncError::CodeTypo) => {}
            other => panic!("{other:?}"),
        }
        // A first-form code, without check digits, still reads.
        let old = format!("lbj1-{}", &code[5..code.len() - 2 * CHECK]);
        assert_eq!(Keyring::from_code(&old).unwrap(), ring);
        assert!(Keyring::from_code(&ring.campaign().0.to_string()).is_err());
        let mut other = Keyring::generate(ring.campaign());
        assert!(other.merge(&ring).is_err(), "a different key under epoch 0");
    }
}
