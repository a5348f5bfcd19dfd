//! The ledger file: [`Store`], opening and creating it (its pragmas, its migrations, the
//! indexes a migration fills), this device's identity and signing key, and the whole-log
//! reads and writes outside a transaction.

use crate::codec;
use crate::error::{cannot_open, shown, StoreError};
use crate::rows::{new_id, read_events, uuid, write_reach, Reader, Writer};
use crate::schema;
use chrono::Utc;
use leechbook_core::ids::{CampaignId, CharacterId, DeviceId, EventId};
use leechbook_core::time::CampaignTime;
use leechbook_core::{Envelope, Event};
use rusqlite::{params, Connection, OpenFlags, OptionalExtension, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::time::Duration;
use uuid::Uuid;

/// A Leechbook ledger.
pub struct Store {
    pub(crate) conn: Connection,
    pub(crate) device: DeviceId,
    pub(crate) campaign: CampaignId,
    pub(crate) key: ed25519_dalek::SigningKey,
    pub(crate) path: Option<PathBuf>,
    pub(crate) read_only: bool,
}

/// Whether an open or a first read failed because the file (or its directory, where the
/// write-ahead log's files go) cannot be written.
pub(crate) fn unwritable(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::CannotOpen | rusqlite::ErrorCode::ReadOnly)
    )
}

/// Opens the ledger at `path` for reading only, and reads its application id: read-only,
/// else (a directory where not even the write-ahead log's index can be made) as immutable,
/// which is sound only while its write-ahead log holds nothing: that case is refused.
pub(crate) fn open_read_only(path: &Path) -> Result<(Connection, i32), rusqlite::Error> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let app = |c: &Connection| c.query_row("PRAGMA application_id", [], |r| r.get::<_, i32>(0));
    let first = Connection::open_with_flags(path, flags).and_then(|c| app(&c).map(|a| (c, a)));
    match first {
        Err(e) if unwritable(&e) => {
            let mut wal = path.as_os_str().to_owned();
            wal.push("-wal");
            if std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0) {
                return Err(e);
            }
            let escaped: String = path
                .to_string_lossy()
                .chars()
                .map(|c| match c {
                    '%' => "%25".to_string(),
                    '?' => "%3f".to_string(),
                    '#' => "%23".to_string(),
                    c => c.to_string(),
                })
                .collect();
            let c = Connection::open_with_flags(
                format!("file:{escaped}?immutable=1"),
                flags | OpenFlags::SQLITE_OPEN_URI,
            )?;
            let a = app(&c)?;
            Ok((c, a))
        }
        other => other,
    }
}

pub(crate) const META_DEVICE: &str = "device";
pub(crate) const META_CAMPAIGN: &str = "campaign";
pub(crate) const META_KEY: &str = "device_key";

pub(crate) fn configure(conn: &Connection) -> Result<(), rusqlite::Error> {
    conn.busy_timeout(Duration::from_secs(10))?;
    // SQLite's default page cache (2,000 KiB), said here so it is chosen: a replay reads
    // the log once through, an audit reads its subject's pages once, and an append writes
    // each index near its end: past the trees' upper levels, which the default holds, few
    // pages are read twice. A 32 MiB cache cost more than it kept: every page it held was
    // fresh memory to fault in (a million events: replay 1.08-1.12 s against 0.93 s,
    // `log --character` 196-208 ms against 169 ms, a one-shot sync 1.04-1.13 s against
    // 0.96-0.98 s; appends the same).
    conn.execute_batch(
        "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -2000;",
    )?;
    Ok(())
}

pub(crate) fn migrate(conn: &mut Connection) -> Result<(), rusqlite::Error> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    for (i, m) in schema::MIGRATIONS.iter().enumerate().skip(version as usize) {
        tx.execute_batch(m)?;
        tx.execute_batch(&format!("PRAGMA user_version = {}", i + 1))?;
    }
    if (version as usize) < schema::CHECKPOINT_BOUNDS {
        fill_checkpoint_bounds(&tx)?;
    }
    if (version as usize) < schema::REACH {
        fill_reach(&tx)?;
    }
    tx.commit()
}

/// The kinds of event that reach characters besides the one they are about, as SQL.
pub(crate) fn reaching_kinds_sql() -> String {
    leechbook_core::event::reaching_kinds()
        .iter()
        .map(|k| format!("'{k}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes the `reach` rows of the reaching events a ledger held before migration 15: one
/// pass over the events of those kinds, decoding only them. A payload that does not decode
/// is left for `verify` to name (it names every such event).
pub(crate) fn fill_reach(conn: &Connection) -> Result<(), rusqlite::Error> {
    let mut stmt = conn.prepare(&format!(
        "SELECT rowid, schema, payload FROM events WHERE kind IN ({})",
        reaching_kinds_sql()
    ))?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let (row, schema): (i64, i64) = (r.get(0)?, r.get(1)?);
        if let Ok(event) = codec::decode_event(schema as u16, r.get_ref(2)?.as_blob()?) {
            write_reach(conn, row, &event)?;
        }
    }
    Ok(())
}

/// Sets every checkpoint's bounds (the earliest campaign and wall times of the events after
/// it, the latest wall time of those at or before it) from the log, for the checkpoints kept
/// before the store tracked them: one pass over the events' order keys and times from the
/// end (and one from the start), never their payloads.
pub(crate) fn fill_checkpoint_bounds(conn: &Connection) -> Result<(), rusqlite::Error> {
    /// A row's order key as stored: clock, device, number.
    type Key = (i64, Vec<u8>, i64);
    let heads: Vec<(i64, Key)> = conn
        .prepare("SELECT position, last_clock, last_device, last_seq FROM snapshots")?
        .query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?))))?
        .collect::<Result<_, _>>()?;
    if heads.is_empty() {
        return Ok(());
    }
    // From the end: the earliest times after each checkpoint.
    let mut pending = heads.clone();
    pending.sort_by(|a, b| a.1.cmp(&b.1));
    let (mut at, mut wall) = (i64::MAX, i64::MAX);
    let mut after = conn.prepare(
        "UPDATE snapshots SET earliest_after = ?1, earliest_wall_after = ?2 WHERE position = ?3",
    )?;
    let mut stmt = conn.prepare(
        "SELECT clock, device, seq, at, wall_ms FROM events
         ORDER BY clock DESC, device DESC, seq DESC",
    )?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let key: Key = (r.get(0)?, r.get(1)?, r.get(2)?);
        // Every checkpoint at or after this event has seen all that follows it.
        while let Some((position, last)) = pending.last() {
            if *last < key {
                break;
            }
            after.execute(params![at, wall, position])?;
            pending.pop();
        }
        at = at.min(r.get(3)?);
        wall = wall.min(r.get(4)?);
    }
    for (position, _) in pending {
        after.execute(params![at, wall, position])?;
    }
    // From the start: the latest wall time at or before each.
    let mut pending = heads;
    pending.sort_by(|a, b| b.1.cmp(&a.1));
    let mut latest = i64::MIN;
    let mut upto =
        conn.prepare("UPDATE snapshots SET latest_wall_upto = ?1 WHERE position = ?2")?;
    let mut stmt =
        conn.prepare("SELECT clock, device, seq, wall_ms FROM events ORDER BY clock, device, seq")?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let key: Key = (r.get(0)?, r.get(1)?, r.get(2)?);
        // Every checkpoint before this event has seen all up to it.
        while let Some((position, last)) = pending.last() {
            if *last >= key {
                break;
            }
            upto.execute(params![latest, position])?;
            pending.pop();
        }
        latest = latest.max(r.get(3)?);
    }
    for (position, _) in pending {
        upto.execute(params![latest, position])?;
    }
    Ok(())
}

impl Store {
    /// Creates a new ledger at `path` for a new campaign, with a new device id. Refuses a path
    /// that exists.
    pub fn create(path: &Path) -> Result<Store, StoreError> {
        if path.exists() {
            return Err(StoreError::AlreadyExists(path.to_path_buf()));
        }
        let conn = Connection::open(path).map_err(|e| cannot_open(path, &e))?;
        conn.query_row("PRAGMA application_id", [], |_| Ok(()))
            .map_err(|e| cannot_open(path, &e))?;
        conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0))?;
        Store::initialise(conn, Some(path.to_path_buf()), None)
    }

    /// Creates a new ledger at `path` for a device joining the campaign `campaign` (its events
    /// arrive by sync).
    pub fn create_joining(path: &Path, campaign: CampaignId) -> Result<Store, StoreError> {
        if path.exists() {
            return Err(StoreError::AlreadyExists(path.to_path_buf()));
        }
        let conn = Connection::open(path).map_err(|e| cannot_open(path, &e))?;
        conn.query_row("PRAGMA application_id", [], |_| Ok(()))
            .map_err(|e| cannot_open(path, &e))?;
        conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0))?;
        Store::initialise(conn, Some(path.to_path_buf()), Some(campaign))
    }

    /// Opens a fresh in-memory ledger (for tests and what-if work).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        Store::initialise(Connection::open_in_memory()?, None, None)
    }

    fn initialise(
        mut conn: Connection,
        path: Option<PathBuf>,
        campaign: Option<CampaignId>,
    ) -> Result<Store, StoreError> {
        configure(&conn)?;
        conn.execute_batch(&format!(
            "PRAGMA application_id = {}",
            schema::APPLICATION_ID
        ))?;
        migrate(&mut conn)?;
        let device = DeviceId(new_id());
        let campaign = campaign.unwrap_or_else(|| CampaignId(new_id()));
        let mut secret = [0u8; 32];
        rand::Rng::fill(&mut rand::rng(), &mut secret);
        let key = ed25519_dalek::SigningKey::from_bytes(&secret);
        conn.execute(
            "INSERT INTO meta (key, value) VALUES (?1, ?2), (?3, ?4), (?5, ?6)",
            params![
                META_DEVICE,
                device.as_bytes().as_slice(),
                META_CAMPAIGN,
                campaign.as_bytes().as_slice(),
                META_KEY,
                secret.as_slice()
            ],
        )?;
        Ok(Store {
            conn,
            device,
            campaign,
            key,
            path,
            read_only: false,
        })
    }

    /// The rows of the index of what each event reaches besides the character it is about
    /// (`reach`, migration 15): each character with the event's id. `verify` compares them
    /// with the events' payloads.
    pub fn reach_rows(&self) -> Result<Vec<(CharacterId, EventId)>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT reach.character, events.id FROM reach JOIN events ON events.rowid = reach.event",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                CharacterId(uuid(r.get_ref(0)?.as_blob()?)),
                EventId(uuid(r.get_ref(1)?.as_blob()?)),
            ))
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// How many migrations opening the ledger at `path` will apply (0 for a current ledger,
    /// a missing file or one that is not a ledger: opening says what is wrong), and how many
    /// events it holds: what a front end needs to say that the first open of a long
    /// campaign's ledger under a new Leechbook takes a moment. Writes nothing.
    pub fn migrations_pending(path: &Path) -> (usize, u64) {
        let Ok(conn) = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY) else {
            return (0, 0);
        };
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap_or(i64::MAX);
        let pending = schema::MIGRATIONS
            .len()
            .saturating_sub(usize::try_from(version).unwrap_or(usize::MAX));
        if pending == 0 || version == 0 {
            return (0, 0);
        }
        let events: i64 = conn
            .query_row("SELECT COALESCE(MAX(rowid), 0) FROM events", [], |r| {
                r.get(0)
            })
            .unwrap_or(0);
        (pending, events as u64)
    }

    /// Opens the ledger at `path`. Refuses a missing file, a file that is not a Leechbook
    /// ledger, and a ledger written by a newer Leechbook; opening writes nothing.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        if path.is_dir() {
            return Err(StoreError::CannotOpen {
                path: shown(path),
                why: "it is a directory (give the ledger file in it)".into(),
            });
        }
        if !path.is_file() {
            return Err(StoreError::NotFound(path.to_path_buf()));
        }
        let not_ledger = |why: String| StoreError::NotALedger {
            path: path.to_path_buf(),
            why,
        };
        // A ledger the file system will not let us write is read: the commands that only
        // read work on it, and a write says the file is read-only.
        let rw = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .and_then(|c| {
            c.query_row("PRAGMA application_id", [], |r| r.get::<_, i32>(0))
                .map(|app| (c, app))
        });
        let (conn, app, read_only) = match rw {
            Ok((c, app)) => (c, app, false),
            Err(e) if unwritable(&e) => {
                let (c, app) = open_read_only(path).map_err(|e| cannot_open(path, &e))?;
                (c, app, true)
            }
            Err(e) => return Err(not_ledger(e.to_string())),
        };
        configure(&conn)?;
        if app != schema::APPLICATION_ID {
            return Err(not_ledger(if app == 0 {
                "a SQLite database of something else".into()
            } else {
                format!("SQLite application id {app:#x}")
            }));
        }
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        let known = schema::MIGRATIONS.len() as i64;
        if version > known {
            return Err(StoreError::TooNew {
                path: path.to_path_buf(),
                found: version,
                known,
            });
        }
        let mut conn = conn;
        if version < known {
            if read_only {
                return Err(StoreError::CannotOpen {
                    path: shown(path),
                    why: format!(
                        "it is read-only, and this Leechbook must first update it (schema {version} to {known}): open it once where it can be written"
                    ),
                });
            }
            migrate(&mut conn)?;
        }
        let meta = |key: &str| -> Result<Uuid, StoreError> {
            let bytes: Option<Vec<u8>> = conn
                .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
                .optional()?;
            bytes
                .and_then(|b| Uuid::from_slice(&b).ok())
                .ok_or_else(|| not_ledger(format!("its {key} id is missing")))
        };
        let device = DeviceId(meta(META_DEVICE)?);
        let campaign = CampaignId(meta(META_CAMPAIGN)?);
        let secret: Option<Vec<u8>> = conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [META_KEY], |r| {
                r.get(0)
            })
            .optional()?;
        let secret = secret
            .and_then(|b| <[u8; 32]>::try_from(b.as_slice()).ok())
            .ok_or_else(|| not_ledger("its device key is missing".into()))?;
        Ok(Store {
            conn,
            device,
            campaign,
            key: ed25519_dalek::SigningKey::from_bytes(&secret),
            path: Some(path.to_path_buf()),
            read_only,
        })
    }

    /// Whether the ledger was opened for reading only (the file system would not let it be
    /// written): every write fails with [`StoreError::ReadOnly`].
    pub fn read_only(&self) -> bool {
        self.read_only
    }

    /// Refuses a write to a ledger opened for reading only, naming the file.
    pub(crate) fn writable(&self) -> Result<(), StoreError> {
        if self.read_only {
            return Err(StoreError::ReadOnly(
                self.path.as_deref().map(shown).unwrap_or_default(),
            ));
        }
        Ok(())
    }

    /// Gives this ledger a new device identity: a new id and signing key (for a ledger copied
    /// from another device's file, which shares that device's). Events already recorded keep
    /// the old identity; this device records nothing the fold accepts until the GM rosters
    /// the new one. Returns the new id and public key.
    pub fn new_identity(&mut self) -> Result<(DeviceId, [u8; 32]), StoreError> {
        let device = DeviceId(new_id());
        let mut secret = [0u8; 32];
        rand::Rng::fill(&mut rand::rng(), &mut secret);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "UPDATE meta SET value = ?2 WHERE key = ?1",
            params![META_DEVICE, device.as_bytes().as_slice()],
        )?;
        tx.execute(
            "UPDATE meta SET value = ?2 WHERE key = ?1",
            params![META_KEY, secret.as_slice()],
        )?;
        tx.commit()?;
        self.device = device;
        self.key = ed25519_dalek::SigningKey::from_bytes(&secret);
        Ok((device, self.public_key()))
    }

    /// Signs `message` with this device's key (a campaign key's rotation is signed so).
    pub fn sign(&self, message: &[u8]) -> [u8; 64] {
        use ed25519_dalek::Signer;
        self.key.sign(message).to_bytes()
    }

    /// This device's secret for key agreement (X25519), derived from its signing key: what
    /// opens a campaign key wrapped for this device's public key. Never leaves the device.
    pub fn agreement_secret(&self) -> [u8; 32] {
        self.key.to_scalar_bytes()
    }

    /// Returns this device's id.
    pub fn device(&self) -> DeviceId {
        self.device
    }

    /// Returns the campaign's id.
    pub fn campaign(&self) -> CampaignId {
        self.campaign
    }

    /// Returns this device's ed25519 public key.
    pub fn public_key(&self) -> [u8; 32] {
        self.key.verifying_key().to_bytes()
    }

    /// Returns the file's path (None in memory).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Returns every event in the fold's total order.
    pub fn events(&self) -> Result<Vec<Envelope>, StoreError> {
        read_events(&self.conn)
    }

    /// Returns how many events the log holds.
    pub fn count(&self) -> Result<u64, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT COUNT(*) FROM events", [], |r| r.get::<_, i64>(0))?
            as u64)
    }

    /// Runs SQLite's integrity check; returns its complaints (empty when sound).
    pub fn integrity_check(&self) -> Result<Vec<String>, StoreError> {
        let mut stmt = self.conn.prepare("PRAGMA integrity_check")?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
        let mut out = Vec::new();
        for r in rows {
            let r = r?;
            if r != "ok" {
                out.push(r);
            }
        }
        Ok(out)
    }

    /// A consistent view of the log for several reads: see [`Reader`].
    pub fn read(&self) -> Result<Reader<'_>, StoreError> {
        Ok(Reader {
            tx: self.conn.unchecked_transaction()?,
        })
    }

    /// Takes the write lock: see [`Writer`].
    pub fn write(&mut self) -> Result<Writer<'_>, StoreError> {
        self.writable()?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        Ok(Writer {
            tx,
            device: self.device,
            campaign: self.campaign,
            key: &self.key,
        })
    }

    /// Appends one event now, in its own transaction, and returns its envelope.
    pub fn append(&mut self, event: Event, at: CampaignTime) -> Result<Envelope, StoreError> {
        let mut w = self.write()?;
        let env = w.prepare(event, at, Utc::now())?;
        w.append(&env)?;
        w.commit()?;
        Ok(env)
    }

    /// Appends envelopes made elsewhere (an import) in one transaction; events already in the
    /// log are skipped. Returns how many were new. All or nothing.
    pub fn import(&mut self, envelopes: &[Envelope]) -> Result<usize, StoreError> {
        let mut w = self.write()?;
        let added = w.import(envelopes)?;
        w.commit()?;
        Ok(added)
    }
}
