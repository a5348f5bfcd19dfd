//! The players' page's links, kept beside the log on [`Store`] and never synced: each is a
//! secret in a URL that shows one character (or, the GM's, everything), and a device made
//! for it whose signing key lives only in this ledger: what a player's page records is
//! signed by that device, as any device's events are. A request is looked up by the
//! secret's SHA-256, never by the secret itself.

use crate::error::StoreError;
use crate::file::Store;
use crate::rows::new_id;
use crate::rows::uuid;
use leechbook_core::ids::{CharacterId, DeviceId};
use rusqlite::{params, OptionalExtension};
use sha2::{Digest, Sha256};

/// One link of the players' page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The secret: the URL's last part (32 hex digits, 128 random bits).
    pub token: String,
    /// The character it shows; `None`: the GM's link, which shows everything.
    pub character: Option<CharacterId>,
    /// The device made for it, and that device's signing key (`None` for the GM's link,
    /// which records nothing).
    pub device: Option<(DeviceId, [u8; 32])>,
    /// What it shows of the rest of the party (a word the page reads: `none`, `names`,
    /// `conditions`, `everything`).
    pub party: String,
    /// When it was made (UTC, RFC 3339).
    pub made: String,
    /// When it was revoked, if it was: it then shows nothing and records nothing.
    pub revoked: Option<String>,
}

impl Link {
    /// Whether it still shows and records.
    pub fn live(&self) -> bool {
        self.revoked.is_none()
    }
}

fn hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.trim().as_bytes()).to_vec()
}

fn random<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    rand::Rng::fill(&mut rand::rng(), &mut b[..]);
    b
}

type LinkRow = (
    String,
    Option<Vec<u8>>,
    Option<Vec<u8>>,
    Option<Vec<u8>>,
    String,
    String,
    Option<String>,
);

fn link_of(r: LinkRow) -> Result<Link, StoreError> {
    let (token, character, device, secret, party, made, revoked) = r;
    let character = character.map(|c| CharacterId(uuid(&c)));
    let device = match (device, secret) {
        (Some(d), Some(s)) => Some((
            DeviceId(uuid(&d)),
            <[u8; 32]>::try_from(s.as_slice())
                .map_err(|_| StoreError::Column("a link's device key is not 32 bytes".into()))?,
        )),
        _ => None,
    };
    Ok(Link {
        token,
        character,
        device,
        party,
        made,
        revoked,
    })
}

const COLUMNS: &str = "token, character, device, secret, party, made, revoked";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<LinkRow> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
    ))
}

const PAGE_ADDRESS: &str = "page-address";

impl Store {
    /// A new identity for a link's device: an id and a signing key, not yet kept anywhere
    /// (the GM rosters it, then [`Store::add_link`] keeps it).
    pub fn link_identity() -> (DeviceId, [u8; 32]) {
        (DeviceId(new_id()), random())
    }

    /// The public key of a link device's signing key (what the roster holds).
    pub fn public_key_of(secret: &[u8; 32]) -> [u8; 32] {
        ed25519_dalek::SigningKey::from_bytes(secret)
            .verifying_key()
            .to_bytes()
    }

    /// Where the players' page was last served (kept by `sync serve`): the start of every
    /// link's URL.
    pub fn page_address(&self) -> Result<Option<String>, StoreError> {
        Ok(self
            .sync_state(PAGE_ADDRESS)?
            .and_then(|b| String::from_utf8(b).ok()))
    }

    /// Keeps where the players' page is served.
    pub fn keep_page_address(&mut self, address: &str) -> Result<(), StoreError> {
        self.put_sync_state(PAGE_ADDRESS, address.as_bytes())
    }

    /// Keeps a new link showing `character` (`None`: the GM's) with its device, and returns
    /// it with its fresh secret.
    pub fn add_link(
        &mut self,
        character: Option<CharacterId>,
        device: Option<(DeviceId, [u8; 32])>,
        party: &str,
    ) -> Result<Link, StoreError> {
        self.writable()?;
        let token: String = random::<16>().iter().map(|b| format!("{b:02x}")).collect();
        let made = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        self.conn.execute(
            "INSERT INTO links (hash, token, character, device, secret, party, made)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                hash(&token),
                token,
                character.map(|c| c.0.as_bytes().to_vec()),
                device.map(|(d, _)| d.0.as_bytes().to_vec()),
                device.map(|(_, s)| s.to_vec()),
                party,
                made,
            ],
        )?;
        Ok(Link {
            token,
            character,
            device,
            party: party.to_string(),
            made,
            revoked: None,
        })
    }

    /// The link whose secret is `token`, revoked or not (`None`: no such link).
    pub fn link(&self, token: &str) -> Result<Option<Link>, StoreError> {
        let found = self
            .conn
            .prepare_cached(&format!("SELECT {COLUMNS} FROM links WHERE hash = ?1"))?
            .query_row([hash(token)], row)
            .optional()?;
        found.map(link_of).transpose()
    }

    /// Every link, in the order they were made.
    pub fn links(&self) -> Result<Vec<Link>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!("SELECT {COLUMNS} FROM links ORDER BY rowid"))?;
        let rows = stmt.query_map([], row)?;
        let mut out = Vec::new();
        for r in rows {
            out.push(link_of(r?)?);
        }
        Ok(out)
    }

    /// Revokes the live link with the secret `token`: it shows and records nothing from now
    /// on. Returns whether one was live.
    pub fn revoke_link(&mut self, token: &str) -> Result<bool, StoreError> {
        self.writable()?;
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let n = self.conn.execute(
            "UPDATE links SET revoked = ?2 WHERE hash = ?1 AND revoked IS NULL",
            params![hash(token), now],
        )?;
        Ok(n > 0)
    }

    /// Revokes every live link whose device is `device` (its device revoked on the roster
    /// by `device revoke`): they show and record nothing from now on. Returns how many.
    pub fn revoke_links_of(&mut self, device: DeviceId) -> Result<usize, StoreError> {
        self.writable()?;
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        Ok(self.conn.execute(
            "UPDATE links SET revoked = ?2 WHERE device = ?1 AND revoked IS NULL",
            params![device.0.as_bytes().to_vec(), now],
        )?)
    }

    /// Changes what the live link with the secret `token` shows of the party.
    pub fn set_link_party(&mut self, token: &str, party: &str) -> Result<(), StoreError> {
        self.writable()?;
        self.conn.execute(
            "UPDATE links SET party = ?2 WHERE hash = ?1 AND revoked IS NULL",
            params![hash(token), party],
        )?;
        Ok(())
    }

    /// Records as the device `device` with the signing key `secret` from now on, in this
    /// open ledger only (the file's own identity is unchanged): what a link's page records is
    /// signed so, numbered and chained as that device's events.
    pub fn act_as(&mut self, device: DeviceId, secret: [u8; 32]) {
        self.device = device;
        self.key = ed25519_dalek::SigningKey::from_bytes(&secret);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_is_found_by_its_secret_alone_and_revoked_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.db");
        let mut store = Store::create(&path).unwrap();
        let who = CharacterId(new_id());
        let id = Store::link_identity();
        let made = store.add_link(Some(who), Some(id), "conditions").unwrap();
        assert_eq!(made.token.len(), 32);
        let other = store.add_link(None, None, "everything").unwrap();
        assert_ne!(made.token, other.token);
        assert_eq!(store.link(&made.token).unwrap(), Some(made.clone()));
        // A near miss finds nothing: one digit changed.
        let mut wrong = made.token.clone().into_bytes();
        wrong[0] = if wrong[0] == b'0' { b'1' } else { b'0' };
        let wrong = String::from_utf8(wrong).unwrap();
        assert_eq!(store.link(&wrong).unwrap(), None);
        assert!(store.revoke_link(&made.token).unwrap());
        assert!(!store.revoke_link(&made.token).unwrap());
        let after = store.link(&made.token).unwrap().unwrap();
        assert!(!after.live());
        assert_eq!(store.links().unwrap().len(), 2);
        assert_eq!(store.links().unwrap()[1].character, None);
    }
}
