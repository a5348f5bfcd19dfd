//! Where a campaign's documents are: their automerge-repo ids, derived from the campaign's
//! document secret and each volume's name ([`Places`]), so devices meet on them untold.

use crate::layout::{self, VolumeId};
pub use samod::DocumentId;
use sha2::{Digest, Sha256};

/// Sixteen bytes marked as a version 4 UUID, as automerge-repo's JavaScript side accepts only
/// versions 1 to 5 in a document id.
pub(super) fn v4(bytes: [u8; 16]) -> DocumentId {
    let id = uuid::Builder::from_random_bytes(bytes).into_uuid();
    DocumentId::try_from(id.as_bytes().to_vec()).expect("a UUID is sixteen bytes")
}

/// Where a campaign's documents are on a hub: their ids, derived from a secret that only the
/// campaign's devices hold ([`crate::Keyring::document_secret`]). A hub, or anyone who learns
/// the campaign's id, cannot work them out; the first eight bytes every id shares let a
/// device serving as a hub tell its campaign's documents from strangers'. (The first layout
/// derived them from the campaign's id alone, and each layout has its own: a device syncs its
/// documents anew under these on its first sync, and the old ones stay on the hub, unread.)
#[derive(Clone, Copy)]
pub struct Places {
    secret: [u8; 32],
    generation: u32,
}

impl Places {
    /// The places of the campaign whose keys are `ring`, at the generation of ids it syncs
    /// at (a generation past 0, after a hub's operator squatted the index, mixes into every
    /// id and the prefix: the new ids share nothing a hub can tell from the old).
    pub fn of(ring: &crate::Keyring) -> Places {
        Places {
            secret: ring.document_secret(),
            generation: ring.generation(),
        }
    }

    pub(super) fn hasher(&self) -> Sha256 {
        let mut h = Sha256::new();
        h.update(self.secret);
        if self.generation > 0 {
            h.update(b"generation");
            h.update(self.generation.to_le_bytes());
        }
        h
    }

    pub(super) fn prefix(&self) -> [u8; 8] {
        let mut h = self.hasher();
        h.update(b"prefix");
        let d = h.finalize();
        let mut out = [0u8; 8];
        out.copy_from_slice(&d[..8]);
        out
    }

    pub(super) fn named(&self, name: &str) -> DocumentId {
        let mut h = self.hasher();
        // The layout is in the name: devices of an earlier layout keep to their documents,
        // and never mix entries a device of this one could not read.
        h.update(b"document ");
        h.update([layout::LAYOUT]);
        h.update(name.as_bytes());
        let d = h.finalize();
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&self.prefix());
        bytes[8..].copy_from_slice(&d[..8]);
        v4(bytes)
    }

    /// The document id of the campaign's index.
    pub fn index(&self) -> DocumentId {
        self.named("index")
    }

    /// The document id of one of the campaign's volumes.
    pub fn volume(&self, v: VolumeId) -> DocumentId {
        self.named(&v.name())
    }

    /// Whether a document id is one of the campaign's (its first eight bytes as an id
    /// carries them: the UUID's version bits set).
    pub(super) fn holds(&self, doc: &DocumentId) -> bool {
        doc.as_bytes().get(..8) == self.named("").as_bytes().get(..8)
    }
}
