//! Leechbook's event log in SQLite: the one place that knows SQL.
//!
//! A [`Store`] is one ledger file (or an in-memory database for tests): the append-only
//! `events` table (triggers refuse UPDATE and DELETE), a `meta` table with this device's id and
//! the campaign's, and the schema migrations of [`schema`]. Every append runs in its own
//! `BEGIN IMMEDIATE` transaction, so two processes appending at once serialise instead of
//! losing events, and a process killed mid-append leaves the log as of its last commit.
//!
//! Reading and recording go through a [`Writer`]: it holds the write lock while the caller
//! folds the log, decides the next event from that state, and appends it, so no other
//! process can slip an event in between.

#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod codec;
pub mod memory;
pub mod schema;
mod through;

pub use through::ReadThrough;

use chrono::{DateTime, TimeZone, Utc};
use codec::CodecError;
use leechbook_core::ids::{CampaignId, CharacterId, DeviceId, EventId};
use leechbook_core::time::CampaignTime;
use leechbook_core::{Envelope, Event, SCHEMA_VERSION};
use rusqlite::{params, Connection, OpenFlags, OptionalExtension, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::time::Duration;
use uuid::Uuid;

/// What went wrong with the ledger file or a query.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No file at the path.
    #[error("no ledger at {0}")]
    NotFound(PathBuf),
    /// A write to a ledger the file system would only let us read.
    #[error("{0} is read-only (the file or its directory): it can be read, not written")]
    ReadOnly(String),
    /// A file that is not a Leechbook ledger.
    #[error("{path} is not a Leechbook ledger ({why})")]
    NotALedger {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        why: String,
    },
    /// A ledger written by a newer Leechbook.
    #[error("{path} was written by a newer Leechbook (schema {found}; this one knows up to {known}): upgrade Leechbook to open it")]
    TooNew {
        /// The file.
        path: PathBuf,
        /// Its schema version.
        found: i64,
        /// This build's.
        known: i64,
    },
    /// `init` on a path that exists.
    #[error("{0} already exists; choose another path or remove it first")]
    AlreadyExists(PathBuf),
    /// A stored event that does not decode.
    #[error("event {id} does not decode: {source}")]
    Decode {
        /// The event.
        id: String,
        /// Why.
        source: CodecError,
    },
    /// An event from another campaign.
    #[error("event {id} belongs to campaign {campaign}, not this ledger's")]
    ForeignEvent {
        /// The event.
        id: EventId,
        /// Its campaign.
        campaign: CampaignId,
    },
    /// Two different events under one device's sequence number: two ledgers share that
    /// device's identity (a copied ledger file).
    #[error("device {device} numbers both event {held} and event {incoming} #{seq}: two ledgers share its identity (a copied ledger file)")]
    SeqClash {
        /// The device.
        device: DeviceId,
        /// The number both use.
        seq: u64,
        /// The event the log holds.
        held: EventId,
        /// The event that came in.
        incoming: EventId,
    },
    /// The ledger file cannot be opened or created (the file system's cause, in words).
    #[error("cannot open {path}: {why}")]
    CannotOpen {
        /// The file, as given (shortened when it is very long).
        path: String,
        /// Why.
        why: String,
    },
    /// The file system refused a read or a write of the ledger (a full disk, a read-only
    /// file): nothing half-written is kept, as the transaction is not committed.
    #[error("the ledger file could not be {0}")]
    FileSystem(String),
    /// The database said no (its own words: the store's types name no database type).
    #[error("database error: {0}")]
    Database(String),
    /// A column held the wrong type.
    #[error("a stored event has a malformed column: {0}")]
    Column(String),
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        use rusqlite::ErrorCode as C;
        match e.sqlite_error_code() {
            Some(C::DiskFull) => StoreError::FileSystem("written: the disk is full".into()),
            Some(C::ReadOnly) => {
                StoreError::FileSystem("written: the file or its directory is read-only".into())
            }
            Some(C::SystemIoFailure) => StoreError::FileSystem(
                "read or written: the disk refused (full, removed or failing)".into(),
            ),
            Some(C::PermissionDenied) => {
                StoreError::FileSystem("read or written: permission denied".into())
            }
            _ => StoreError::Database(e.to_string()),
        }
    }
}

/// A path as a message shows it: whole, or its ends when it runs past 200 characters.
fn shown(path: &Path) -> String {
    let s = path.display().to_string();
    let n = s.chars().count();
    if n <= 200 {
        return s;
    }
    let head: String = s.chars().take(60).collect();
    let tail: String = s.chars().skip(n - 40).collect();
    format!("{head}...{tail} ({n} characters)")
}

/// Why `path` cannot be opened or created, as far as the file system tells.
fn cannot_open(path: &Path, e: &rusqlite::Error) -> StoreError {
    let long = path
        .components()
        .map(|c| c.as_os_str().len())
        .max()
        .unwrap_or(0);
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    let why = if long > 255 {
        format!("its name is too long ({long} bytes in one part; file systems allow 255)")
    } else if path.is_dir() {
        "it is a directory".to_string()
    } else if parent.is_some_and(|p| !p.is_dir()) {
        format!(
            "its directory {} does not exist",
            shown(parent.unwrap_or(path))
        )
    } else {
        match StoreError::from(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(e.sqlite_error().map_or(1, |f| f.extended_code)),
            None,
        )) {
            StoreError::FileSystem(w) => w,
            _ => format!(
                "the file system would not open or create it: its directory may be read-only, full or not ours ({e})"
            ),
        }
    };
    StoreError::CannotOpen {
        path: shown(path),
        why,
    }
}

impl From<rusqlite::types::FromSqlError> for StoreError {
    fn from(e: rusqlite::types::FromSqlError) -> StoreError {
        StoreError::Column(e.to_string())
    }
}

/// A Leechbook ledger.
pub struct Store {
    conn: Connection,
    device: DeviceId,
    campaign: CampaignId,
    key: ed25519_dalek::SigningKey,
    path: Option<PathBuf>,
    read_only: bool,
}

/// Whether an open or a first read failed because the file (or its directory, where the
/// write-ahead log's files go) cannot be written.
fn unwritable(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::CannotOpen | rusqlite::ErrorCode::ReadOnly)
    )
}

/// Opens the ledger at `path` for reading only, and reads its application id: read-only,
/// else (a directory where not even the write-ahead log's index can be made) as immutable,
/// which is sound only while its write-ahead log holds nothing: that case is refused.
fn open_read_only(path: &Path) -> Result<(Connection, i32), rusqlite::Error> {
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

const META_DEVICE: &str = "device";
const META_CAMPAIGN: &str = "campaign";
const META_KEY: &str = "device_key";

fn configure(conn: &Connection) -> Result<(), rusqlite::Error> {
    conn.busy_timeout(Duration::from_secs(10))?;
    // A 32 MiB page cache (the default is 2 MiB): appending keeps five indexes of a log
    // that grows to a million events, and replay reads all of it.
    conn.execute_batch(
        "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -32768;",
    )?;
    Ok(())
}

fn migrate(conn: &mut Connection) -> Result<(), rusqlite::Error> {
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
fn reaching_kinds_sql() -> String {
    leechbook_core::event::REACHING_KINDS
        .iter()
        .map(|k| format!("'{k}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes the `reach` rows of the reaching events a ledger held before migration 15: one
/// pass over the events of those kinds, decoding only them. A payload that does not decode
/// is left for `verify` to name (it names every such event).
fn fill_reach(conn: &Connection) -> Result<(), rusqlite::Error> {
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

/// Writes the `reach` rows of the event at `row`: the characters it touches besides the one
/// it is about (none for most kinds).
fn write_reach(conn: &Connection, row: i64, event: &Event) -> Result<(), rusqlite::Error> {
    if !leechbook_core::event::REACHING_KINDS.contains(&event.kind()) {
        return Ok(());
    }
    let about = event.character();
    let mut stmt =
        conn.prepare_cached("INSERT OR IGNORE INTO reach (character, event) VALUES (?1, ?2)")?;
    for c in event.characters().into_iter().filter(|c| Some(*c) != about) {
        stmt.execute(params![c.as_bytes().as_slice(), row])?;
    }
    Ok(())
}

/// Sets every checkpoint's bounds (the earliest campaign and wall times of the events after
/// it, the latest wall time of those at or before it) from the log, for the checkpoints kept
/// before the store tracked them: one pass over the events' order keys and times from the
/// end (and one from the start), never their payloads.
fn fill_checkpoint_bounds(conn: &Connection) -> Result<(), rusqlite::Error> {
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

fn new_id() -> Uuid {
    Uuid::now_v7()
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
    fn writable(&self) -> Result<(), StoreError> {
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

/// A snapshot of the folded state after the first `position` events of the total order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// How many events it folds.
    pub position: u64,
    /// The order key of the last event it folds.
    pub last: (u64, DeviceId, u64),
    /// The fold version that made it.
    pub fold_version: u32,
    /// The encoded state (see [`codec::encode_ledger`]).
    pub payload: Vec<u8>,
}

impl Store {
    /// The Lamport clock of `device`'s event number `seq`, if the log holds it (an import
    /// checks that a device's clocks rise with its numbers).
    pub fn clock_at(&self, device: DeviceId, seq: u64) -> Result<Option<u64>, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT clock FROM events WHERE device = ?1 AND seq = ?2")?
            .query_row(
                rusqlite::params![device.as_bytes().as_slice(), seq as i64],
                |r| r.get::<_, i64>(0),
            )
            .optional()?
            .map(|c| c as u64))
    }

    /// The highest event number of `device` the log holds (0: none): what a revocation
    /// accepts of it.
    pub fn last_number(&self, device: DeviceId) -> Result<u64, StoreError> {
        Ok(self.conn.query_row(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE device = ?1",
            [device.as_bytes().as_slice()],
            |r| r.get::<_, i64>(0),
        )? as u64)
    }

    /// A value of the sync state (a cache the sync crate keeps beside the log: its automerge
    /// document, what each peer holds). Never part of the record.
    pub fn sync_state(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT value FROM sync_state WHERE key = ?1", [key], |r| {
                r.get(0)
            })
            .optional()?)
    }

    /// Keeps a value of the sync state.
    pub fn put_sync_state(&mut self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        self.writable()?;
        self.conn.execute(
            "INSERT INTO sync_state (key, value) VALUES (?1, ?2)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            rusqlite::params![key, value],
        )?;
        Ok(())
    }

    /// Keeps several values of the sync state in one transaction, in the order given (so a
    /// mark written last is never ahead of what it marks).
    pub fn put_sync_states(&mut self, items: &[(String, Vec<u8>)]) -> Result<(), StoreError> {
        self.writable()?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT INTO sync_state (key, value) VALUES (?1, ?2)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            )?;
            for (k, v) in items {
                stmt.execute(rusqlite::params![k, v])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// The keys of the sync state that start with `prefix`.
    pub fn sync_state_keys(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT key FROM sync_state WHERE substr(key, 1, ?2) = ?1")?;
        let keys = stmt
            .query_map(rusqlite::params![prefix, prefix.len() as i64], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(keys)
    }

    /// Drops values of the sync state (a cache laid out anew).
    pub fn drop_sync_state(&mut self, keys: &[&str]) -> Result<(), StoreError> {
        for k in keys {
            self.conn
                .execute("DELETE FROM sync_state WHERE key = ?1", [k])?;
        }
        Ok(())
    }

    /// How many events each device's block of `block` consecutive numbers gained in the rows
    /// after `after` (a sync's volumes, counted without reading the events).
    pub fn block_counts_after_row(
        &self,
        after: i64,
        block: u64,
    ) -> Result<Vec<(DeviceId, u64, u64)>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT device, (seq - 1) / ?2, count(*) FROM events WHERE rowid > ?1 GROUP BY 1, 2",
        )?;
        let rows = stmt.query_map(rusqlite::params![after, block as i64], |r| {
            Ok((
                r.get::<_, Vec<u8>>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (d, b, n) = row?;
            let device = DeviceId(
                uuid::Uuid::from_slice(&d).map_err(|e| StoreError::Column(e.to_string()))?,
            );
            out.push((device, b.max(0) as u64, n.max(0) as u64));
        }
        Ok(out)
    }

    /// The events stored in rows `after + 1 ..= upto` (a page of what was recorded or
    /// imported since row `after`), in the total order.
    pub fn events_in_rows(&self, after: i64, upto: i64) -> Result<Vec<Envelope>, StoreError> {
        read_events_where(
            &self.conn,
            "WHERE rowid > ?1 AND rowid <= ?2",
            rusqlite::params![after, upto],
        )
    }

    /// The ids of `device`'s events numbered `first..=last`, each with its number (what a sync
    /// volume must hold).
    pub fn ids_numbered(
        &self,
        device: DeviceId,
        first: u64,
        last: u64,
    ) -> Result<Vec<(u64, EventId)>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT seq, id FROM events WHERE device = ?1 AND seq >= ?2 AND seq <= ?3",
        )?;
        let rows = stmt.query_map(
            rusqlite::params![device.as_bytes().as_slice(), first as i64, last as i64],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?.max(0) as u64,
                    EventId(uuid(r.get_ref(1)?.as_blob()?)),
                ))
            },
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The events of `device` numbered `first..=last`, by number (a sync volume's events,
    /// read back from the log when a peer deleted them from the volume).
    pub fn events_numbered(
        &self,
        device: DeviceId,
        first: u64,
        last: u64,
    ) -> Result<Vec<Envelope>, StoreError> {
        read_events_where(
            &self.conn,
            "WHERE device = ?1 AND seq >= ?2 AND seq <= ?3",
            rusqlite::params![device.as_bytes().as_slice(), first as i64, last as i64],
        )
    }

    /// Returns the snapshots, latest first.
    pub fn snapshots(&self) -> Result<Vec<Snapshot>, StoreError> {
        read_snapshots(&self.conn)
    }

    /// Keeps a snapshot (replacing one at the same position).
    pub fn save_snapshot(&mut self, s: &Snapshot) -> Result<(), StoreError> {
        save_snapshot_on(&self.conn, s).map(|_| ())
    }

    /// Drops the snapshot at `position` (stale, or one that does not decode).
    pub fn drop_snapshot(&mut self, position: u64) -> Result<(), StoreError> {
        self.conn.execute(
            "DELETE FROM snapshots WHERE position = ?1",
            [position as i64],
        )?;
        Ok(())
    }
}

/// What [`ReadLog::tail_for`] reads of a range: the events decoded, and the id and
/// campaign time of each other event.
pub type Tail = (Vec<Envelope>, Vec<Skipped>);

/// An event of a range that [`ReadLog::tail_for`] did not decode: its id and times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The event.
    pub id: EventId,
    /// Its campaign time (seconds).
    pub at: i64,
    /// Its wall time (milliseconds since the epoch).
    pub wall_ms: i64,
}

/// An order key: (Lamport clock, device, sequence number).
pub type OrderKey = (u64, DeviceId, u64);

// The partial index `events_rare` (migration 10) holds the campaign's creation, the
// roster's changes and the rulings, under the condition
// `kind = 'campaign-created' OR (kind > 'r' AND kind < 's')`. Every read of those begins
// with that very text, which SQLite needs to use the index; a new kind of event must not
// fall between 'r' and 's' unless it is one of them.

/// Finds the roster's events (through `events_rare`).
pub const ROSTER_KINDS: &str = "WHERE (kind = 'campaign-created' OR (kind > 'r' AND kind < 's')) \
     AND kind IN ('campaign-created', 'roster.device', 'roster.revoke')";

/// Finds the rulings (through `events_rare`).
pub const RULING_KINDS: &str = "WHERE (kind = 'campaign-created' OR (kind > 'r' AND kind < 's')) \
     AND kind IN ('ruling.retract', 'ruling.reinstate', 'ruling.amend', 'ruling.override')";

/// One record of the archive of healed injuries: the character, the order key of the event
/// after which the injury was filed, the injury's id, and its encoded record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveRow {
    /// The character.
    pub character: CharacterId,
    /// The order key of the event after which it was filed.
    pub since: OrderKey,
    /// The injury.
    pub injury: leechbook_core::ids::InjuryId,
    /// The record (`codec::encode_record`), which the store does not read.
    pub payload: Vec<u8>,
    /// The order key of the GM's decree that reopened it, if one did: it was filed from
    /// `since` until then.
    pub reopened: Option<OrderKey>,
}

/// The event a log holds under one of a device's numbers, with what its neighbours in the
/// device's chain are checked against: its own link ([`codec::link_of`]) and the link it
/// signs to the number before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Numbered {
    /// The event's id.
    pub id: EventId,
    /// Its Lamport clock (the next number's must be above it).
    pub clock: u64,
    /// Its link: what the next number must sign.
    pub link: [u8; 32],
    /// The link it signs to the number before it (`None`: unchained).
    pub follows: Option<[u8; 32]>,
}

impl Numbered {
    /// The number as held by the envelope `env`.
    pub fn of(env: &Envelope) -> Numbered {
        Numbered {
            id: env.id,
            clock: env.clock,
            link: codec::link_of(Some(env)),
            follows: codec::chain_link(env),
        }
    }
}

/// A snapshot's place in the log, without its payload (which may be large: read it only for
/// the snapshot that is used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SnapshotHead {
    /// How many events it folds.
    pub position: u64,
    /// The order key of the last event it folds.
    pub last: OrderKey,
    /// The fold version that made it.
    pub fold_version: u32,
    /// The earliest campaign time of any event after it in the total order
    /// (`CampaignTime(i64::MAX)` while there is none): every event after it happened in the
    /// story at or after this time.
    pub earliest_after: CampaignTime,
    /// The latest wall time (milliseconds since the epoch) of any event at or before it.
    pub latest_wall_upto_ms: i64,
    /// The earliest wall time (milliseconds since the epoch) of any event after it
    /// (`i64::MAX` while there is none).
    pub earliest_wall_after_ms: i64,
}

/// Reading a campaign's log and what is kept beside it (checkpoints, the projection): the
/// store's read side, which names no database type. [`Store`] and [`Writer`] read it from
/// SQLite; [`memory::MemoryLog`] keeps it in memory; one conformance suite runs on both.
pub trait ReadLog {
    /// Every event in the fold's total order.
    fn events(&self) -> Result<Vec<Envelope>, StoreError>;

    /// The events after `after` (from the start when `None`) up to and including `upto`.
    fn events_between(
        &self,
        after: Option<OrderKey>,
        upto: OrderKey,
    ) -> Result<Vec<Envelope>, StoreError>;

    /// The events after the order key `last`, in the total order.
    fn events_after(&self, last: OrderKey) -> Result<Vec<Envelope>, StoreError>;

    /// The events stored after row `mark` (every event recorded or imported since the log
    /// held `mark` rows: rows are only ever added), and the last row now.
    fn events_after_row(&self, mark: i64) -> Result<(Vec<Envelope>, i64), StoreError>;

    /// The last row of the log (0 when it is empty).
    fn last_row(&self) -> Result<i64, StoreError>;

    /// Whether the log holds the event `id`.
    fn holds(&self, id: EventId) -> Result<bool, StoreError>;

    /// The events the roster is worked out from (the campaign's creation and the roster
    /// changes), in the total order: found by kind, without reading the rest of the log.
    fn roster_events(&self) -> Result<Vec<Envelope>, StoreError>;

    /// Every event in the fold's total order, handed to `f` one at a time as it is decoded
    /// (a streaming read: no list of the whole log is made).
    fn for_each_event(
        &self,
        f: impl FnMut(Envelope) -> Result<(), StoreError>,
    ) -> Result<(), StoreError>;

    /// The rulings and the events they rule on, in the total order: all that working out the
    /// rulings in force needs (found by kind and by id, without reading the rest of the log).
    fn rulings_and_targets(&self) -> Result<Vec<Envelope>, StoreError>;

    /// The projection's mark: the last row of the log it holds and the fold version that made
    /// it (None when there is none).
    fn projection_mark(&self) -> Result<Option<(i64, u32)>, StoreError>;

    /// The projection's head (the campaign's state without its characters).
    fn projection_head(&self) -> Result<Option<Vec<u8>>, StoreError>;

    /// The projection's entries for the characters `ids` (those it has), or for every
    /// character when `ids` is None.
    fn projection_characters(
        &self,
        ids: Option<&[CharacterId]>,
    ) -> Result<Vec<Vec<u8>>, StoreError>;

    /// The events about the character `who` in the fold's total order: those whose
    /// character it is, and those that reach it besides the one they are about (an exchange
    /// it defends, a shot that strikes it); with `None`, the events about no character (the
    /// campaign's creation, its characters joining, the clock, its settings, the roster and
    /// the rulings but overrides). What an audit of one character reads (issue 27).
    fn events_about(&self, who: Option<CharacterId>) -> Result<Vec<Envelope>, StoreError>;

    /// The event the log holds as `device`'s number `seq`, if any, with its signature (the
    /// chain link an import checks a neighbouring number against).
    fn event_at(&self, device: DeviceId, seq: u64) -> Result<Option<crate::Numbered>, StoreError>;

    /// Every event stored after the row `after` (0: every event) in the fold's total order,
    /// with its indexed columns as stored (kind, character), which are derived from the
    /// payload and kept apart for lookups, handed to `f` one at a time as it is decoded:
    /// `verify` compares them, streaming (and since its last run, from that run's row).
    fn for_each_event_columns(
        &self,
        after: i64,
        f: impl FnMut(Envelope, &str, Option<CharacterId>) -> Result<(), StoreError>,
    ) -> Result<(), StoreError>;

    /// The snapshots' places, latest first.
    fn snapshot_heads(&self) -> Result<Vec<SnapshotHead>, StoreError>;

    /// The encoded state of the snapshot at `position`.
    fn snapshot_payload(&self, position: u64) -> Result<Option<Vec<u8>>, StoreError>;

    /// The events whose id ends with the hex digits `suffix` (six or more; dashes ignored),
    /// each with its order key: a whole id through the ids' index, a shorter suffix by a scan
    /// of the ids (no index of random suffixes slows every append).
    fn events_with_id_suffix(&self, suffix: &str) -> Result<Vec<(EventId, OrderKey)>, StoreError>;

    /// What became of events (void, retracted, amended) as the projection (`checkpoint`
    /// None) or the checkpoint at that position holds it, kept apart from its head.
    fn fates(&self, checkpoint: Option<u64>) -> Result<Option<Vec<u8>>, StoreError>;

    /// The archive's records of the characters `ids` (every character when None) filed at or
    /// before the order key `upto` (all when None), each character's in the order filed.
    fn archived(
        &self,
        ids: Option<&[CharacterId]>,
        upto: Option<OrderKey>,
    ) -> Result<Vec<ArchiveRow>, StoreError>;

    /// The entries of the checkpoint at `position` for the characters `ids` (those it has),
    /// or for every character when `ids` is None.
    fn checkpoint_characters(
        &self,
        position: u64,
        ids: Option<&[CharacterId]>,
    ) -> Result<Vec<Vec<u8>>, StoreError>;

    /// The events after `after` up to and including `upto` that a view of the characters
    /// `ids` needs: those about no character, about one of them, or of a kind that touches
    /// several (`multi`); only those are decoded. With the id and campaign time of every
    /// other event of the range (the clock moves with them, unless a ruling struck them).
    fn tail_for(
        &self,
        after: OrderKey,
        upto: OrderKey,
        ids: &[CharacterId],
        multi: &[&str],
    ) -> Result<Tail, StoreError>;
}

/// Writing a campaign's log and what is kept beside it: the store's write side, which names
/// no database type. Each call is atomic: it writes whole or not at all.
pub trait WriteLog: ReadLog {
    /// Adds envelopes made elsewhere (an import), all or nothing: an event of another
    /// campaign, or another event under a device number the log holds, refuses the whole;
    /// events already in the log are skipped. Checkpoints that fold the target of a ruling
    /// among them, or lie after any of them, are dropped. Returns how many were new.
    fn import(&mut self, envelopes: &[Envelope]) -> Result<usize, StoreError>;
    /// Keeps a checkpoint of the folded state, unless a ruling after it in the log rules on
    /// an event it folds (what it folds is stale: the store would have dropped it when that
    /// ruling arrived). A checkpoint kept at the log's end, as the write path keeps them, is
    /// always kept.
    fn save_snapshot(&mut self, s: &Snapshot) -> Result<(), StoreError>;
    /// Drops the checkpoint at `position`.
    fn drop_snapshot(&mut self, position: u64) -> Result<(), StoreError>;
    /// Keeps a checkpoint as a head (the snapshot's payload) and one entry per character
    /// (replacing one at the same position), unless a ruling after it rules into it (as
    /// [`WriteLog::save_snapshot`]).
    fn save_checkpoint(
        &mut self,
        s: &Snapshot,
        characters: &[(CharacterId, Vec<u8>)],
    ) -> Result<(), StoreError>;
    /// Writes the projection: the head, the characters given (all of them when `whole`, the
    /// others dropped), and the mark (the log's last row and the fold version).
    fn put_projection(
        &mut self,
        head: &[u8],
        characters: &[(CharacterId, Vec<u8>)],
        whole: bool,
        mark: (i64, u32),
    ) -> Result<(), StoreError>;
    /// Keeps what became of events for the projection (`checkpoint` None) or the checkpoint
    /// at that position (which must be kept; it goes with it).
    fn put_fates(&mut self, checkpoint: Option<u64>, payload: &[u8]) -> Result<(), StoreError>;
    /// Files records in the archive (a record filed again, by its character, order key and
    /// injury, is replaced), first dropping every record filed after the order key `after`
    /// and forgetting every reopening after it when `rewrite` (every record when `after` is
    /// None): a re-derived record replaces what happened after the checkpoint it was folded
    /// from.
    fn put_archive(
        &mut self,
        rows: &[ArchiveRow],
        rewrite: Option<Option<OrderKey>>,
    ) -> Result<(), StoreError>;
}

/// A write transaction on a log: its reads see its writes; [`Transaction::commit`] keeps
/// them all, and dropping it keeps none. What a replica records through, whatever the store.
/// Within a transaction a [`WriteLog`] call that fails may leave it part-written (an import
/// refused at its tenth event): drop the transaction then, as the replica does on any error.
pub trait Transaction: WriteLog {
    /// Makes the envelope of a new local event: a fresh id, the device's next sequence
    /// number, a Lamport clock one past every clock in the log, and the device's signature.
    fn prepare(
        &mut self,
        event: Event,
        at: CampaignTime,
        wall: DateTime<Utc>,
    ) -> Result<Envelope, StoreError>;
    /// Appends a prepared envelope, dropping the checkpoints it makes stale (from a ruling's
    /// target on, and from the event itself on). An id the log holds is refused.
    fn append(&mut self, env: &Envelope) -> Result<(), StoreError>;
    /// Keeps everything written.
    fn commit(self) -> Result<(), StoreError>;
}

/// A campaign's log as a replica keeps it: consistent reads, and one write transaction at a
/// time. [`Store`] keeps it in SQLite, [`memory::MemoryLog`] in memory.
pub trait Log: WriteLog {
    /// A consistent view for several reads.
    type Reader<'a>: ReadLog
    where
        Self: 'a;
    /// The write lock.
    type Writer<'a>: Transaction
    where
        Self: 'a;
    /// A consistent view of the log for several reads.
    fn read(&self) -> Result<Self::Reader<'_>, StoreError>;
    /// Takes the write lock.
    fn write(&mut self) -> Result<Self::Writer<'_>, StoreError>;
}

impl Log for Store {
    type Reader<'a> = Reader<'a>;
    type Writer<'a> = Writer<'a>;
    fn read(&self) -> Result<Reader<'_>, StoreError> {
        Store::read(self)
    }
    fn write(&mut self) -> Result<Writer<'_>, StoreError> {
        Store::write(self)
    }
}

impl Transaction for Writer<'_> {
    fn prepare(
        &mut self,
        event: Event,
        at: CampaignTime,
        wall: DateTime<Utc>,
    ) -> Result<Envelope, StoreError> {
        Writer::prepare(self, event, at, wall)
    }
    fn append(&mut self, env: &Envelope) -> Result<(), StoreError> {
        Writer::append(self, env)
    }
    fn commit(self) -> Result<(), StoreError> {
        Writer::commit(self)
    }
}

impl WriteLog for Writer<'_> {
    fn import(&mut self, envelopes: &[Envelope]) -> Result<usize, StoreError> {
        Writer::import(self, envelopes)
    }
    fn save_snapshot(&mut self, s: &Snapshot) -> Result<(), StoreError> {
        save_snapshot_on(&self.tx, s).map(|_| ())
    }
    fn drop_snapshot(&mut self, position: u64) -> Result<(), StoreError> {
        Writer::drop_snapshot(self, position)
    }
    fn save_checkpoint(
        &mut self,
        s: &Snapshot,
        characters: &[(CharacterId, Vec<u8>)],
    ) -> Result<(), StoreError> {
        Writer::save_checkpoint(self, s, characters)
    }
    fn put_projection(
        &mut self,
        head: &[u8],
        characters: &[(CharacterId, Vec<u8>)],
        whole: bool,
        mark: (i64, u32),
    ) -> Result<(), StoreError> {
        Writer::put_projection(self, head, characters, whole, mark)
    }
    fn put_fates(&mut self, checkpoint: Option<u64>, payload: &[u8]) -> Result<(), StoreError> {
        Writer::put_fates(self, checkpoint, payload)
    }
    fn put_archive(
        &mut self,
        rows: &[ArchiveRow],
        rewrite: Option<Option<OrderKey>>,
    ) -> Result<(), StoreError> {
        Writer::put_archive(self, rows, rewrite)
    }
}

impl WriteLog for Store {
    fn import(&mut self, envelopes: &[Envelope]) -> Result<usize, StoreError> {
        Store::import(self, envelopes)
    }

    fn save_snapshot(&mut self, s: &Snapshot) -> Result<(), StoreError> {
        Store::save_snapshot(self, s)
    }

    fn drop_snapshot(&mut self, position: u64) -> Result<(), StoreError> {
        Store::drop_snapshot(self, position)
    }

    fn save_checkpoint(
        &mut self,
        s: &Snapshot,
        characters: &[(CharacterId, Vec<u8>)],
    ) -> Result<(), StoreError> {
        let w = self.write()?;
        w.save_checkpoint(s, characters)?;
        w.commit()
    }

    fn put_projection(
        &mut self,
        head: &[u8],
        characters: &[(CharacterId, Vec<u8>)],
        whole: bool,
        mark: (i64, u32),
    ) -> Result<(), StoreError> {
        let w = self.write()?;
        w.put_projection(head, characters, whole, mark)?;
        w.commit()
    }

    fn put_archive(
        &mut self,
        rows: &[ArchiveRow],
        rewrite: Option<Option<OrderKey>>,
    ) -> Result<(), StoreError> {
        let w = self.write()?;
        w.put_archive(rows, rewrite)?;
        w.commit()
    }

    fn put_fates(&mut self, checkpoint: Option<u64>, payload: &[u8]) -> Result<(), StoreError> {
        let w = self.write()?;
        w.put_fates(checkpoint, payload)?;
        w.commit()
    }
}

mod sql {
    //! The SQL behind [`super::ReadLog`]: kept in its own module so that its methods and the
    //! trait's never meet in one scope.
    use super::{
        each_event_where, envelope_of, read_events, read_events_after, read_events_where, uuid,
        ArchiveRow, CharacterId, DeviceId, Envelope, Event, EventId, OrderKey, SnapshotHead,
        StoreError, ROSTER_KINDS, RULING_KINDS,
    };
    use rusqlite::{params, Connection, OptionalExtension};
    use uuid::Uuid;

    /// The SQL behind [`ReadLog`] for the SQLite store and its write transaction.
    pub(crate) trait SqlRead {
        /// The connection (or transaction) to read through.
        fn conn(&self) -> &Connection;

        /// Every event in the fold's total order.
        fn events(&self) -> Result<Vec<Envelope>, StoreError> {
            read_events(self.conn())
        }

        /// The events after `after` (from the start when `None`) up to and including `upto`.
        fn events_between(
            &self,
            after: Option<OrderKey>,
            upto: OrderKey,
        ) -> Result<Vec<Envelope>, StoreError> {
            let (c, d, q) = after.unwrap_or((0, DeviceId(Uuid::nil()), 0));
            read_events_where(
            self.conn(),
            "WHERE (clock, device, seq) > (?1, ?2, ?3) AND (clock, device, seq) <= (?4, ?5, ?6)",
            params![
                c as i64,
                d.as_bytes().as_slice(),
                q as i64,
                upto.0 as i64,
                upto.1.as_bytes().as_slice(),
                upto.2 as i64
            ],
        )
        }

        /// The events after the order key `last`, in the total order.
        fn events_after(&self, last: OrderKey) -> Result<Vec<Envelope>, StoreError> {
            read_events_after(self.conn(), last)
        }

        /// The events stored after row `mark` (every event recorded or imported since the log
        /// held `mark` rows: rows are only ever added), and the last row now.
        fn events_after_row(&self, mark: i64) -> Result<(Vec<Envelope>, i64), StoreError> {
            let events = read_events_where(self.conn(), "WHERE rowid > ?1", [mark])?;
            Ok((events, self.last_row()?.max(mark)))
        }

        /// The last row of the log (0 when it is empty).
        fn last_row(&self) -> Result<i64, StoreError> {
            let last: Option<i64> =
                self.conn()
                    .query_row("SELECT max(rowid) FROM events", [], |r| r.get(0))?;
            Ok(last.unwrap_or(0))
        }

        /// Whether the log holds the event `id`.
        fn holds(&self, id: EventId) -> Result<bool, StoreError> {
            Ok(self
                .conn()
                .prepare_cached("SELECT 1 FROM events WHERE id = ?1")?
                .query_row([id.as_bytes().as_slice()], |_| Ok(()))
                .optional()?
                .is_some())
        }

        /// The events the roster is worked out from (the campaign's creation and the roster
        /// changes), in the total order: found by kind, without reading the rest of the log.
        fn roster_events(&self) -> Result<Vec<Envelope>, StoreError> {
            read_events_where(self.conn(), ROSTER_KINDS, [])
        }

        /// Every event in the fold's total order, handed to `f` one at a time as it is decoded
        /// (a streaming read: no list of the whole log is made).
        fn for_each_event(
            &self,
            f: impl FnMut(Envelope) -> Result<(), StoreError>,
        ) -> Result<(), StoreError> {
            each_event_where(self.conn(), "", [], f)
        }

        /// The rulings and the events they rule on, in the total order: all that working out the
        /// rulings in force needs (found by kind and by id, without reading the rest of the log).
        fn rulings_and_targets(&self) -> Result<Vec<Envelope>, StoreError> {
            let mut out = read_events_where(self.conn(), RULING_KINDS, [])?;
            let mut held: std::collections::HashSet<EventId> = out.iter().map(|e| e.id).collect();
            let targets: Vec<EventId> = out
                .iter()
                .filter_map(|e| match &e.event {
                    Event::Ruling(r) => r.target(),
                    _ => None,
                })
                .collect();
            for t in targets {
                if !held.insert(t) {
                    continue;
                }
                out.extend(read_events_where(
                    self.conn(),
                    "WHERE id = ?1",
                    [t.as_bytes().as_slice()],
                )?);
            }
            out.sort_by_key(|e| e.order_key());
            Ok(out)
        }

        /// The projection's mark: the last row of the log it holds and the fold version that made
        /// it (None when there is none).
        fn projection_mark(&self) -> Result<Option<(i64, u32)>, StoreError> {
            Ok(self
                .conn()
                .query_row(
                    "SELECT last_row, fold_version FROM projection_mark WHERE one = 1",
                    [],
                    |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)? as u32)),
                )
                .optional()?)
        }

        /// The projection's head (the campaign's state without its characters).
        fn projection_head(&self) -> Result<Option<Vec<u8>>, StoreError> {
            Ok(self
                .conn()
                .prepare_cached("SELECT payload FROM projection WHERE key = x''")?
                .query_row([], |r| r.get(0))
                .optional()?)
        }

        /// The projection's entries for the characters `ids` (those it has), or for every
        /// character when `ids` is None.
        fn projection_characters(
            &self,
            ids: Option<&[CharacterId]>,
        ) -> Result<Vec<Vec<u8>>, StoreError> {
            let conn = self.conn();
            match ids {
                None => {
                    let mut stmt =
                        conn.prepare_cached("SELECT payload FROM projection WHERE key != x''")?;
                    let rows = stmt.query_map([], |r| r.get(0))?;
                    Ok(rows.collect::<Result<Vec<_>, _>>()?)
                }
                Some(ids) => {
                    let mut stmt =
                        conn.prepare_cached("SELECT payload FROM projection WHERE key = ?1")?;
                    let mut out = Vec::with_capacity(ids.len());
                    for id in ids {
                        if let Some(p) = stmt
                            .query_row([id.as_bytes().as_slice()], |r| r.get(0))
                            .optional()?
                        {
                            out.push(p);
                        }
                    }
                    Ok(out)
                }
            }
        }

        /// The event the log holds as `device`'s number `seq`, if any.
        fn events_about(&self, who: Option<CharacterId>) -> Result<Vec<Envelope>, StoreError> {
            let Some(who) = who else {
                return read_events_where(self.conn(), "WHERE character IS NULL", []);
            };
            let id = who.as_bytes().as_slice();
            let mut out = read_events_where(self.conn(), "WHERE character = ?1", [id])?;
            let reached = read_events_where(
                self.conn(),
                "WHERE rowid IN (SELECT event FROM reach WHERE character = ?1)",
                [id],
            )?;
            if !reached.is_empty() {
                out.extend(reached);
                out.sort_by_key(|e| e.order_key());
                out.dedup_by_key(|e| e.id);
            }
            Ok(out)
        }

        fn event_at(
            &self,
            device: DeviceId,
            seq: u64,
        ) -> Result<Option<crate::Numbered>, StoreError> {
            Ok(read_events_where(
                self.conn(),
                "WHERE device = ?1 AND seq = ?2",
                params![device.as_bytes().as_slice(), seq as i64],
            )?
            .first()
            .map(crate::Numbered::of))
        }

        fn for_each_event_columns(
            &self,
            after: i64,
            mut f: impl FnMut(Envelope, &str, Option<CharacterId>) -> Result<(), StoreError>,
        ) -> Result<(), StoreError> {
            let mut stmt = self.conn().prepare_cached(
                "SELECT id, campaign, device, seq, clock, wall_ms, at, schema, payload, signature,
                    kind, character
                 FROM events WHERE rowid > ?1 ORDER BY clock, device, seq",
            )?;
            let mut rows = stmt.query([after])?;
            while let Some(r) = rows.next()? {
                let env = envelope_of(r)?;
                let kind = r.get_ref(10)?.as_str()?;
                let character = r
                    .get_ref(11)?
                    .as_blob_or_null()?
                    .map(|b| CharacterId(uuid(b)));
                f(env, kind, character)?;
            }
            Ok(())
        }

        /// The snapshots' places, latest first.
        fn snapshot_heads(&self) -> Result<Vec<SnapshotHead>, StoreError> {
            let mut stmt = self.conn().prepare_cached(
                "SELECT position, last_clock, last_device, last_seq, fold_version, earliest_after,
                    latest_wall_upto, earliest_wall_after
             FROM snapshots ORDER BY position DESC",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(SnapshotHead {
                    position: r.get::<_, i64>(0)? as u64,
                    last: (
                        r.get::<_, i64>(1)? as u64,
                        DeviceId(uuid(&r.get::<_, Vec<u8>>(2)?)),
                        r.get::<_, i64>(3)? as u64,
                    ),
                    fold_version: r.get::<_, i64>(4)? as u32,
                    earliest_after: leechbook_core::time::CampaignTime(r.get(5)?),
                    latest_wall_upto_ms: r.get(6)?,
                    earliest_wall_after_ms: r.get(7)?,
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        }

        /// The encoded state of the snapshot at `position`.
        fn snapshot_payload(&self, position: u64) -> Result<Option<Vec<u8>>, StoreError> {
            Ok(self
                .conn()
                .prepare_cached("SELECT payload FROM snapshots WHERE position = ?1")?
                .query_row([position as i64], |r| r.get(0))
                .optional()?)
        }

        /// The events whose id ends with the hex digits `suffix` (six or more; dashes ignored),
        /// each with its order key: a whole id through the ids' index, a shorter suffix by a scan
        /// of the ids (no index of random suffixes slows every append).
        fn events_with_id_suffix(
            &self,
            suffix: &str,
        ) -> Result<Vec<(EventId, OrderKey)>, StoreError> {
            let t = suffix.trim().to_ascii_lowercase().replace('-', "");
            if t.len() < 6 || !t.chars().all(|c| c.is_ascii_hexdigit()) {
                return Ok(Vec::new());
            }
            let (sql, key): (&str, Vec<u8>) = match Uuid::try_parse(&t) {
                Ok(id) if t.len() == 32 => (
                    "SELECT id, clock, device, seq FROM events WHERE id = ?1",
                    id.as_bytes().to_vec(),
                ),
                _ => (
                    "SELECT id, clock, device, seq FROM events WHERE substr(id, 14, 3) = ?1",
                    (0..3)
                        .map(|i| {
                            u8::from_str_radix(&t[t.len() - 6 + 2 * i..t.len() - 4 + 2 * i], 16)
                        })
                        .collect::<Result<_, _>>()
                        .unwrap_or_default(),
                ),
            };
            let mut stmt = self.conn().prepare_cached(sql)?;
            let rows = stmt.query_map([key], |r| {
                Ok((
                    EventId(uuid(r.get_ref(0)?.as_blob()?)),
                    (
                        r.get::<_, i64>(1)? as u64,
                        DeviceId(uuid(r.get_ref(2)?.as_blob()?)),
                        r.get::<_, i64>(3)? as u64,
                    ),
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (id, key) = row?;
                if id.named_by(&t) {
                    out.push((id, key));
                }
            }
            // A prefix (as copied from `log --json`): a range of the ids' index.
            if t.len() < 32 {
                let bound = |pad: char| -> Vec<u8> {
                    let full: String = t.chars().chain(std::iter::repeat(pad)).take(32).collect();
                    Uuid::try_parse(&full)
                        .map(|u| u.as_bytes().to_vec())
                        .unwrap_or_default()
                };
                let mut stmt = self.conn().prepare_cached(
                    "SELECT id, clock, device, seq FROM events WHERE id BETWEEN ?1 AND ?2",
                )?;
                let rows = stmt.query_map([bound('0'), bound('f')], |r| {
                    Ok((
                        EventId(uuid(r.get_ref(0)?.as_blob()?)),
                        (
                            r.get::<_, i64>(1)? as u64,
                            DeviceId(uuid(r.get_ref(2)?.as_blob()?)),
                            r.get::<_, i64>(3)? as u64,
                        ),
                    ))
                })?;
                for row in rows {
                    let (id, key) = row?;
                    if !out.iter().any(|(o, _)| *o == id) {
                        out.push((id, key));
                    }
                }
            }
            Ok(out)
        }

        fn fates(&self, checkpoint: Option<u64>) -> Result<Option<Vec<u8>>, StoreError> {
            Ok(self
                .conn()
                .prepare_cached("SELECT payload FROM fates WHERE scope = ?1")?
                .query_row([checkpoint.map_or(-1, |p| p as i64)], |r| r.get(0))
                .optional()?)
        }

        fn archived(
            &self,
            ids: Option<&[CharacterId]>,
            upto: Option<OrderKey>,
        ) -> Result<Vec<ArchiveRow>, StoreError> {
            let (c, d, q) = upto.unwrap_or((u64::MAX >> 1, DeviceId(Uuid::max()), u64::MAX >> 1));
            let row = |r: &rusqlite::Row<'_>| -> rusqlite::Result<ArchiveRow> {
                Ok(ArchiveRow {
                    character: CharacterId(uuid(r.get_ref(0)?.as_blob()?)),
                    since: (
                        r.get::<_, i64>(1)? as u64,
                        DeviceId(uuid(r.get_ref(2)?.as_blob()?)),
                        r.get::<_, i64>(3)? as u64,
                    ),
                    injury: leechbook_core::ids::InjuryId(uuid(r.get_ref(4)?.as_blob()?)),
                    payload: r.get(5)?,
                    reopened: match r.get::<_, Option<i64>>(6)? {
                        None => None,
                        Some(clock) => Some((
                            clock as u64,
                            DeviceId(uuid(r.get_ref(7)?.as_blob()?)),
                            r.get::<_, i64>(8)? as u64,
                        )),
                    },
                })
            };
            const COLUMNS: &str = "SELECT character, since_clock, since_device, since_seq, injury,
                 payload, reopened_clock, reopened_device, reopened_seq FROM archive";
            let mut out = Vec::new();
            match ids {
                None => {
                    let mut stmt = self.conn().prepare_cached(&format!(
                        "{COLUMNS} WHERE (since_clock, since_device, since_seq) <= (?1, ?2, ?3)
                         ORDER BY character, since_clock, since_device, since_seq"
                    ))?;
                    let rows =
                        stmt.query_map(params![c as i64, d.as_bytes().as_slice(), q as i64], row)?;
                    for r in rows {
                        out.push(r?);
                    }
                }
                Some(ids) => {
                    let mut stmt = self.conn().prepare_cached(&format!(
                        "{COLUMNS} WHERE character = ?1
                         AND (since_clock, since_device, since_seq) <= (?2, ?3, ?4)
                         ORDER BY since_clock, since_device, since_seq"
                    ))?;
                    for id in ids {
                        let rows = stmt.query_map(
                            params![
                                id.as_bytes().as_slice(),
                                c as i64,
                                d.as_bytes().as_slice(),
                                q as i64
                            ],
                            row,
                        )?;
                        for r in rows {
                            out.push(r?);
                        }
                    }
                }
            }
            Ok(out)
        }

        fn checkpoint_characters(
            &self,
            position: u64,
            ids: Option<&[CharacterId]>,
        ) -> Result<Vec<Vec<u8>>, StoreError> {
            let conn = self.conn();
            match ids {
                None => {
                    let mut stmt = conn.prepare_cached(
                        "SELECT payload FROM checkpoint_entries WHERE position = ?1",
                    )?;
                    let rows = stmt.query_map([position as i64], |r| r.get(0))?;
                    Ok(rows.collect::<Result<Vec<_>, _>>()?)
                }
                Some(ids) => {
                    let mut stmt = conn.prepare_cached(
                        "SELECT payload FROM checkpoint_entries WHERE position = ?1 AND key = ?2",
                    )?;
                    let mut out = Vec::with_capacity(ids.len());
                    for id in ids {
                        if let Some(p) = stmt
                            .query_row(params![position as i64, id.as_bytes().as_slice()], |r| {
                                r.get(0)
                            })
                            .optional()?
                        {
                            out.push(p);
                        }
                    }
                    Ok(out)
                }
            }
        }

        fn tail_for(
            &self,
            after: OrderKey,
            upto: OrderKey,
            ids: &[CharacterId],
            multi: &[&str],
        ) -> Result<crate::Tail, StoreError> {
            // Two passes: the range's small columns first (its payloads are most of its
            // bytes, and most rows are other characters'), then the wanted rows whole, by row.
            let mut stmt = self.conn().prepare_cached(
                "SELECT rowid, id, at, character, kind, wall_ms
             FROM events
             WHERE (clock, device, seq) > (?1, ?2, ?3) AND (clock, device, seq) <= (?4, ?5, ?6)
             ORDER BY clock, device, seq",
            )?;
            let mut rows = stmt.query(params![
                after.0 as i64,
                after.1.as_bytes().as_slice(),
                after.2 as i64,
                upto.0 as i64,
                upto.1.as_bytes().as_slice(),
                upto.2 as i64
            ])?;
            let (mut wanted_rows, mut skipped) = (Vec::new(), Vec::new());
            while let Some(r) = rows.next()? {
                let wanted = match r.get_ref(3)?.as_blob_or_null()? {
                    None => true,
                    Some(c) => ids.iter().any(|id| id.as_bytes().as_slice() == c),
                } || multi.contains(&r.get_ref(4)?.as_str()?);
                if wanted {
                    wanted_rows.push(r.get::<_, i64>(0)?);
                } else {
                    skipped.push(crate::Skipped {
                        id: EventId(uuid(r.get_ref(1)?.as_blob()?)),
                        at: r.get(2)?,
                        wall_ms: r.get(5)?,
                    });
                }
            }
            let mut whole = self.conn().prepare_cached(
                "SELECT id, campaign, device, seq, clock, wall_ms, at, schema, payload, signature
             FROM events WHERE rowid = ?1",
            )?;
            let mut out = Vec::with_capacity(wanted_rows.len());
            for row in wanted_rows {
                out.push(whole.query_row([row], |r| Ok(envelope_of(r)))??);
            }
            Ok((out, skipped))
        }
    }
}

/// Forwards [`ReadLog`] to the SQL reads.
macro_rules! read_log_by_sql {
    ($t:ty) => {
        impl ReadLog for $t {
            fn events(&self) -> Result<Vec<Envelope>, StoreError> {
                sql::SqlRead::events(self)
            }

            fn events_between(
                &self,
                after: Option<OrderKey>,
                upto: OrderKey,
            ) -> Result<Vec<Envelope>, StoreError> {
                sql::SqlRead::events_between(self, after, upto)
            }

            fn events_after(&self, last: OrderKey) -> Result<Vec<Envelope>, StoreError> {
                sql::SqlRead::events_after(self, last)
            }

            fn events_after_row(&self, mark: i64) -> Result<(Vec<Envelope>, i64), StoreError> {
                sql::SqlRead::events_after_row(self, mark)
            }

            fn last_row(&self) -> Result<i64, StoreError> {
                sql::SqlRead::last_row(self)
            }

            fn holds(&self, id: EventId) -> Result<bool, StoreError> {
                sql::SqlRead::holds(self, id)
            }

            fn roster_events(&self) -> Result<Vec<Envelope>, StoreError> {
                sql::SqlRead::roster_events(self)
            }

            fn for_each_event(
                &self,
                f: impl FnMut(Envelope) -> Result<(), StoreError>,
            ) -> Result<(), StoreError> {
                sql::SqlRead::for_each_event(self, f)
            }

            fn rulings_and_targets(&self) -> Result<Vec<Envelope>, StoreError> {
                sql::SqlRead::rulings_and_targets(self)
            }

            fn projection_mark(&self) -> Result<Option<(i64, u32)>, StoreError> {
                sql::SqlRead::projection_mark(self)
            }

            fn projection_head(&self) -> Result<Option<Vec<u8>>, StoreError> {
                sql::SqlRead::projection_head(self)
            }

            fn projection_characters(
                &self,
                ids: Option<&[CharacterId]>,
            ) -> Result<Vec<Vec<u8>>, StoreError> {
                sql::SqlRead::projection_characters(self, ids)
            }

            fn events_about(&self, who: Option<CharacterId>) -> Result<Vec<Envelope>, StoreError> {
                sql::SqlRead::events_about(self, who)
            }

            fn event_at(
                &self,
                device: DeviceId,
                seq: u64,
            ) -> Result<Option<crate::Numbered>, StoreError> {
                sql::SqlRead::event_at(self, device, seq)
            }

            fn for_each_event_columns(
                &self,
                after: i64,
                f: impl FnMut(Envelope, &str, Option<CharacterId>) -> Result<(), StoreError>,
            ) -> Result<(), StoreError> {
                sql::SqlRead::for_each_event_columns(self, after, f)
            }

            fn snapshot_heads(&self) -> Result<Vec<SnapshotHead>, StoreError> {
                sql::SqlRead::snapshot_heads(self)
            }

            fn snapshot_payload(&self, position: u64) -> Result<Option<Vec<u8>>, StoreError> {
                sql::SqlRead::snapshot_payload(self, position)
            }

            fn checkpoint_characters(
                &self,
                position: u64,
                ids: Option<&[CharacterId]>,
            ) -> Result<Vec<Vec<u8>>, StoreError> {
                sql::SqlRead::checkpoint_characters(self, position, ids)
            }

            fn archived(
                &self,
                ids: Option<&[CharacterId]>,
                upto: Option<OrderKey>,
            ) -> Result<Vec<ArchiveRow>, StoreError> {
                sql::SqlRead::archived(self, ids, upto)
            }

            fn fates(&self, checkpoint: Option<u64>) -> Result<Option<Vec<u8>>, StoreError> {
                sql::SqlRead::fates(self, checkpoint)
            }

            fn tail_for(
                &self,
                after: OrderKey,
                upto: OrderKey,
                ids: &[CharacterId],
                multi: &[&str],
            ) -> Result<Tail, StoreError> {
                sql::SqlRead::tail_for(self, after, upto, ids, multi)
            }

            fn events_with_id_suffix(
                &self,
                suffix: &str,
            ) -> Result<Vec<(EventId, OrderKey)>, StoreError> {
                sql::SqlRead::events_with_id_suffix(self, suffix)
            }
        }
    };
}

read_log_by_sql!(Store);
read_log_by_sql!(Writer<'_>);
read_log_by_sql!(Reader<'_>);

impl sql::SqlRead for Store {
    fn conn(&self) -> &Connection {
        &self.conn
    }
}

impl sql::SqlRead for Reader<'_> {
    fn conn(&self) -> &Connection {
        &self.tx
    }
}

impl sql::SqlRead for Writer<'_> {
    fn conn(&self) -> &Connection {
        &self.tx
    }
}

fn read_snapshots(conn: &Connection) -> Result<Vec<Snapshot>, StoreError> {
    {
        let mut stmt = conn.prepare_cached(
            "SELECT position, last_clock, last_device, last_seq, fold_version, payload
             FROM snapshots ORDER BY position DESC",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(Snapshot {
                position: r.get::<_, i64>(0)? as u64,
                last: (
                    r.get::<_, i64>(1)? as u64,
                    DeviceId(uuid(&r.get::<_, Vec<u8>>(2)?)),
                    r.get::<_, i64>(3)? as u64,
                ),
                fold_version: r.get::<_, i64>(4)? as u32,
                payload: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}

/// Keeps a checkpoint (see [`WriteLog::save_snapshot`]); whether it was kept.
fn save_snapshot_on(conn: &Connection, s: &Snapshot) -> Result<bool, StoreError> {
    let last = (
        s.last.0 as i64,
        s.last.1.as_bytes().as_slice(),
        s.last.2 as i64,
    );
    // The rulings after it (none, at the log's end), through the rulings' partial index.
    let after = read_events_where(
        conn,
        &format!("{RULING_KINDS} AND (clock, device, seq) > (?1, ?2, ?3)"),
        params![last.0, last.1, last.2],
    )?;
    let mut key_of = conn.prepare_cached("SELECT clock, device, seq FROM events WHERE id = ?1")?;
    for r in &after {
        let Event::Ruling(ruling) = &r.event else {
            continue;
        };
        let Some(target) = ruling.target() else {
            continue;
        };
        let key: Option<(i64, Vec<u8>, i64)> = key_of
            .query_row([target.as_bytes().as_slice()], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .optional()?;
        if key.is_some_and(|(c, d, q)| (c, d.as_slice(), q) <= last) {
            return Ok(false);
        }
    }
    {
        // Its bounds: for a checkpoint at the log's end (the write path's) nothing after it
        // and the log's latest wall time; a checkpoint kept further back reads the log once.
        conn.prepare_cached(
            "INSERT OR REPLACE INTO snapshots
             (position, last_clock, last_device, last_seq, fold_version, payload,
              earliest_after, earliest_wall_after, latest_wall_upto)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6,
                COALESCE((SELECT MIN(at) FROM events
                    WHERE (clock, device, seq) > (?2, ?3, ?4)), 9223372036854775807),
                COALESCE((SELECT MIN(wall_ms) FROM events
                    WHERE (clock, device, seq) > (?2, ?3, ?4)), 9223372036854775807),
                CASE WHEN EXISTS (SELECT 1 FROM events WHERE (clock, device, seq) > (?2, ?3, ?4))
                    THEN COALESCE((SELECT MAX(wall_ms) FROM events
                        WHERE (clock, device, seq) <= (?2, ?3, ?4)), -9223372036854775808)
                    ELSE (SELECT latest_wall FROM log_bounds) END)",
        )?
        .execute(params![
            s.position as i64,
            s.last.0 as i64,
            s.last.1.as_bytes().as_slice(),
            s.last.2 as i64,
            i64::from(s.fold_version),
            s.payload
        ])?;
        Ok(true)
    }
}

fn read_events_after(
    conn: &Connection,
    last: (u64, DeviceId, u64),
) -> Result<Vec<Envelope>, StoreError> {
    read_events_where(
        conn,
        "WHERE (clock, device, seq) > (?1, ?2, ?3)",
        params![last.0 as i64, last.1.as_bytes().as_slice(), last.2 as i64],
    )
}

/// Drops every snapshot whose folded prefix includes the event with order key `key`: a
/// ruling about that event, or an event arriving late before it, changes what they fold.
fn invalidate_from(conn: &Connection, key: (i64, &[u8], i64)) -> Result<(), StoreError> {
    conn.prepare_cached(
        "DELETE FROM snapshots WHERE (last_clock, last_device, last_seq) >= (?1, ?2, ?3)",
    )?
    .execute(params![key.0, key.1, key.2])?;
    Ok(())
}

/// A read of a ledger in one (deferred) transaction: every read through it sees the log as
/// it stood at the first, whatever another process commits meanwhile (a state read from the
/// projection's mark, head and entries is never torn). Dropping it ends the transaction.
pub struct Reader<'a> {
    tx: rusqlite::Transaction<'a>,
}

/// The write lock on a ledger: a `BEGIN IMMEDIATE` transaction. Read the log, prepare events,
/// append them, then [`commit`](Writer::commit); dropping the writer rolls everything back.
pub struct Writer<'a> {
    tx: rusqlite::Transaction<'a>,
    device: DeviceId,
    campaign: CampaignId,
    key: &'a ed25519_dalek::SigningKey,
}

impl Writer<'_> {
    /// Keeps a checkpoint in this transaction: the head (the snapshot's payload) and one
    /// entry per character, replacing one at the same position.
    pub fn save_checkpoint(
        &self,
        s: &Snapshot,
        characters: &[(CharacterId, Vec<u8>)],
    ) -> Result<(), StoreError> {
        self.tx.execute(
            "DELETE FROM checkpoint_entries WHERE position = ?1",
            [s.position as i64],
        )?;
        if !save_snapshot_on(&self.tx, s)? {
            return Ok(());
        }
        let mut put = self.tx.prepare_cached(
            "INSERT INTO checkpoint_entries (position, key, payload) VALUES (?1, ?2, ?3)",
        )?;
        for (id, payload) in characters {
            put.execute(params![
                s.position as i64,
                id.as_bytes().as_slice(),
                payload
            ])?;
        }
        Ok(())
    }

    /// Drops the checkpoint at `position` in this transaction (its entries go with it).
    pub fn drop_snapshot(&self, position: u64) -> Result<(), StoreError> {
        self.tx.execute(
            "DELETE FROM snapshots WHERE position = ?1",
            [position as i64],
        )?;
        Ok(())
    }

    /// Writes the projection in this transaction: the head, the characters given (all of
    /// them when `whole`, the others dropped), and the mark.
    pub fn put_projection(
        &self,
        head: &[u8],
        characters: &[(CharacterId, Vec<u8>)],
        whole: bool,
        mark: (i64, u32),
    ) -> Result<(), StoreError> {
        if whole {
            self.tx.execute("DELETE FROM projection", [])?;
        }
        let mut put = self.tx.prepare_cached(
            "INSERT INTO projection (key, payload) VALUES (?1, ?2)
             ON CONFLICT (key) DO UPDATE SET payload = excluded.payload",
        )?;
        put.execute(params![&[] as &[u8], head])?;
        for (id, payload) in characters {
            put.execute(params![id.as_bytes().as_slice(), payload])?;
        }
        self.tx.execute(
            "INSERT INTO projection_mark (one, last_row, fold_version) VALUES (1, ?1, ?2)
             ON CONFLICT (one) DO UPDATE SET last_row = excluded.last_row,
                 fold_version = excluded.fold_version",
            params![mark.0, i64::from(mark.1)],
        )?;
        Ok(())
    }

    /// Keeps what became of events for the projection (`checkpoint` None) or the checkpoint
    /// at that position, in this transaction.
    pub fn put_fates(&self, checkpoint: Option<u64>, payload: &[u8]) -> Result<(), StoreError> {
        self.tx.execute(
            "INSERT INTO fates (scope, payload) VALUES (?1, ?2)
             ON CONFLICT (scope) DO UPDATE SET payload = excluded.payload",
            params![checkpoint.map_or(-1, |p| p as i64), payload],
        )?;
        Ok(())
    }

    /// Files records in the archive in this transaction, first dropping every record filed
    /// after `after` when `rewrite` (every record when `after` is None).
    pub fn put_archive(
        &self,
        rows: &[ArchiveRow],
        rewrite: Option<Option<OrderKey>>,
    ) -> Result<(), StoreError> {
        match rewrite {
            Some(None) => {
                self.tx.execute("DELETE FROM archive", [])?;
            }
            Some(Some((c, d, q))) => {
                self.tx.execute(
                    "DELETE FROM archive
                     WHERE (since_clock, since_device, since_seq) > (?1, ?2, ?3)",
                    params![c as i64, d.as_bytes().as_slice(), q as i64],
                )?;
                self.tx.execute(
                    "UPDATE archive
                     SET reopened_clock = NULL, reopened_device = NULL, reopened_seq = NULL
                     WHERE (reopened_clock, reopened_device, reopened_seq) > (?1, ?2, ?3)",
                    params![c as i64, d.as_bytes().as_slice(), q as i64],
                )?;
            }
            None => {}
        }
        let mut put = self.tx.prepare_cached(
            "INSERT INTO archive (character, since_clock, since_device, since_seq, injury, payload,
                 reopened_clock, reopened_device, reopened_seq)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
             ON CONFLICT DO UPDATE SET payload = excluded.payload,
                 reopened_clock = excluded.reopened_clock,
                 reopened_device = excluded.reopened_device,
                 reopened_seq = excluded.reopened_seq",
        )?;
        for r in rows {
            let reopened = r.reopened.map(|(c, d, q)| (c as i64, d, q as i64));
            put.execute(params![
                r.character.as_bytes().as_slice(),
                r.since.0 as i64,
                r.since.1.as_bytes().as_slice(),
                r.since.2 as i64,
                r.injury.0.as_bytes().as_slice(),
                r.payload,
                reopened.map(|k| k.0),
                reopened.as_ref().map(|k| k.1.as_bytes().to_vec()),
                reopened.map(|k| k.2),
            ])?;
        }
        Ok(())
    }

    /// Returns every event in the fold's total order, as of this transaction.
    pub fn events(&self) -> Result<Vec<Envelope>, StoreError> {
        read_events(&self.tx)
    }

    /// Returns the snapshots, latest first, as of this transaction.
    pub fn snapshots(&self) -> Result<Vec<Snapshot>, StoreError> {
        read_snapshots(&self.tx)
    }

    /// Makes the envelope of a new local event: a fresh UUIDv7, the device's next sequence
    /// number, and a Lamport clock one past every clock in the log.
    pub fn prepare(
        &mut self,
        event: Event,
        at: CampaignTime,
        wall: DateTime<Utc>,
    ) -> Result<Envelope, StoreError> {
        let clock: i64 = self.tx.query_row(
            "SELECT COALESCE((SELECT MAX(clock) FROM events), 0) + 1",
            [],
            |r| r.get(0),
        )?;
        // The device's previous number: the new event's chain link.
        let prev = read_events_where(
            &self.tx,
            "WHERE device = ?1 AND seq = (SELECT MAX(seq) FROM events WHERE device = ?1)",
            [self.device.as_bytes().as_slice()],
        )?
        .pop();
        let seq = prev.as_ref().map_or(1, |p| p.seq as i64 + 1);
        // Wall time is stored to the millisecond: sign what will be read back.
        let wall = Utc
            .timestamp_millis_opt(wall.timestamp_millis())
            .single()
            .unwrap_or(wall);
        let mut env = Envelope {
            id: EventId(new_id()),
            campaign: self.campaign,
            device: self.device,
            seq: seq as u64,
            clock: clock as u64,
            wall,
            at,
            schema: SCHEMA_VERSION,
            event,
            signature: None,
        };
        codec::sign_chained(&mut env, codec::link_of(prev.as_ref()), self.key);
        Ok(env)
    }

    /// Adds envelopes made elsewhere (an import) in this transaction; events already in the
    /// log are skipped. Returns how many were new.
    pub fn import(&mut self, envelopes: &[Envelope]) -> Result<usize, StoreError> {
        let w = self;
        let mut added = 0;
        {
            // One statement and one payload buffer for the batch (a bulk append's hot path).
            let mut stmt = w.tx.prepare_cached(insert_sql(true))?;
            let mut payload = Vec::new();
            for env in envelopes {
                if env.campaign != w.campaign {
                    return Err(StoreError::ForeignEvent {
                        id: env.id,
                        campaign: env.campaign,
                    });
                }
                invalidate_for(&w.tx, env, false)?;
                // A known id is skipped; another event under a number the log holds fails
                // the (device, seq) constraint, and is never dropped silently: the clash is
                // named. (Looked up only then: a lookup per event cost a tenth of a bulk
                // import.)
                match insert_with(&w.tx, &mut stmt, env, &mut payload) {
                    Ok(n) => added += n,
                    Err(e) => {
                        return Err(match w.event_at(env.device, env.seq)? {
                            Some(held) if held.id != env.id => StoreError::SeqClash {
                                device: env.device,
                                seq: env.seq,
                                held: held.id,
                                incoming: env.id,
                            },
                            _ => e,
                        })
                    }
                }
            }
        }
        // Everything after the earliest event of the batch is stale: one statement for all.
        if let Some(first) = envelopes.iter().min_by_key(|e| e.order_key()) {
            invalidate_for(&w.tx, first, true)?;
        }
        // The checkpoints left lie before every event of the batch: the earliest times
        // after each are at most the batch's (one statement for all).
        note_arrivals(&w.tx, envelopes)?;
        Ok(added)
    }

    /// Appends a prepared envelope.
    pub fn append(&mut self, env: &Envelope) -> Result<(), StoreError> {
        invalidate_for(&self.tx, env, true)?;
        insert(&self.tx, env, false)?;
        note_arrivals(&self.tx, std::slice::from_ref(env))
    }

    /// Commits everything appended.
    pub fn commit(self) -> Result<(), StoreError> {
        Ok(self.tx.commit()?)
    }
}

/// Drops the snapshots that `env` makes stale: a ruling changes its target and everything
/// after; an event arriving late changes everything after it.
fn invalidate_for(conn: &Connection, env: &Envelope, itself: bool) -> Result<(), StoreError> {
    if let Event::Ruling(r) = &env.event {
        if let Some(t) = r.target() {
            let key: Option<(i64, Vec<u8>, i64)> = conn
                .prepare_cached("SELECT clock, device, seq FROM events WHERE id = ?1")?
                .query_row([t.as_bytes().as_slice()], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
                .optional()?;
            if let Some((c, d, q)) = key {
                invalidate_from(conn, (c, &d, q))?;
            }
        }
    }
    if itself {
        invalidate_from(
            conn,
            (
                env.clock as i64,
                env.device.as_bytes().as_slice(),
                env.seq as i64,
            ),
        )?;
    }
    Ok(())
}

/// `events` now lie after every checkpoint kept (those at or after any of them were
/// dropped): none has later earliest times after it than theirs; and the log's latest wall
/// time is at least theirs.
fn note_arrivals(conn: &Connection, events: &[Envelope]) -> Result<(), StoreError> {
    let (Some(at), Some(wall), Some(latest)) = (
        events.iter().map(|e| e.at.0).min(),
        events.iter().map(|e| e.wall.timestamp_millis()).min(),
        events.iter().map(|e| e.wall.timestamp_millis()).max(),
    ) else {
        return Ok(());
    };
    conn.prepare_cached(
        "UPDATE snapshots SET earliest_after = MIN(earliest_after, ?1),
            earliest_wall_after = MIN(earliest_wall_after, ?2)
         WHERE earliest_after > ?1 OR earliest_wall_after > ?2",
    )?
    .execute([at, wall])?;
    conn.prepare_cached("UPDATE log_bounds SET latest_wall = MAX(latest_wall, ?1)")?
        .execute([latest])?;
    Ok(())
}

/// The insert of one event; with `ON CONFLICT (id) DO NOTHING`, a known id is skipped.
fn insert_sql(skip_known: bool) -> &'static str {
    if skip_known {
        "INSERT INTO events (id, campaign, device, seq, clock, wall_ms, at, kind,
            character, schema, payload, signature)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
         ON CONFLICT (id) DO NOTHING"
    } else {
        "INSERT INTO events (id, campaign, device, seq, clock, wall_ms, at, kind,
            character, schema, payload, signature)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
    }
}

fn insert(conn: &Connection, env: &Envelope, skip_known: bool) -> Result<usize, StoreError> {
    let mut stmt = conn.prepare_cached(insert_sql(skip_known))?;
    insert_with(conn, &mut stmt, env, &mut Vec::new())
}

/// Inserts one event through a prepared [`insert_sql`], encoding its payload into `payload`
/// (a buffer a bulk append reuses), and its `reach` rows in the same transaction.
fn insert_with(
    conn: &Connection,
    stmt: &mut rusqlite::Statement<'_>,
    env: &Envelope,
    payload: &mut Vec<u8>,
) -> Result<usize, StoreError> {
    codec::encode_event_into(&env.event, payload);
    let character: Option<CharacterId> = env.event.character();
    let n = stmt.execute(params![
        env.id.as_bytes().as_slice(),
        env.campaign.as_bytes().as_slice(),
        env.device.as_bytes().as_slice(),
        env.seq as i64,
        env.clock as i64,
        env.wall.timestamp_millis(),
        env.at.0,
        env.event.kind(),
        character.as_ref().map(|c| c.as_bytes().as_slice()),
        i64::from(env.schema),
        payload.as_slice(),
        env.signature.as_deref(),
    ])?;
    if n == 1 {
        write_reach(conn, conn.last_insert_rowid(), &env.event)?;
    }
    Ok(n)
}

fn uuid(bytes: &[u8]) -> Uuid {
    Uuid::from_slice(bytes).unwrap_or(Uuid::nil())
}

fn read_events(conn: &Connection) -> Result<Vec<Envelope>, StoreError> {
    read_events_where(conn, "", [])
}

fn read_events_where(
    conn: &Connection,
    filter: &str,
    args: impl rusqlite::Params,
) -> Result<Vec<Envelope>, StoreError> {
    let mut out = Vec::new();
    each_event_where(conn, filter, args, |e| {
        out.push(e);
        Ok(())
    })?;
    Ok(out)
}

/// Reads the events `filter` selects in the total order, handing each to `f` as it is
/// decoded (no list of the whole log is ever made).
fn each_event_where(
    conn: &Connection,
    filter: &str,
    args: impl rusqlite::Params,
    mut f: impl FnMut(Envelope) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT id, campaign, device, seq, clock, wall_ms, at, schema, payload, signature
         FROM events {filter} ORDER BY clock, device, seq"
    ))?;
    let mut rows = stmt.query(args)?;
    while let Some(r) = rows.next()? {
        f(envelope_of(r)?)?;
    }
    Ok(())
}

/// The envelope a row holds (columns id, campaign, device, seq, clock, wall_ms, at, schema,
/// payload, signature, in that order), decoded.
fn envelope_of(r: &rusqlite::Row<'_>) -> Result<Envelope, StoreError> {
    let id = EventId(uuid(r.get_ref(0)?.as_blob()?));
    let schema = r.get::<_, i64>(7)? as u16;
    let event = codec::decode_event(schema, r.get_ref(8)?.as_blob()?).map_err(|source| {
        StoreError::Decode {
            id: id.to_string(),
            source,
        }
    })?;
    let wall_ms: i64 = r.get(5)?;
    Ok(Envelope {
        id,
        campaign: CampaignId(uuid(r.get_ref(1)?.as_blob()?)),
        device: DeviceId(uuid(r.get_ref(2)?.as_blob()?)),
        seq: r.get::<_, i64>(3)? as u64,
        clock: r.get::<_, i64>(4)? as u64,
        wall: Utc
            .timestamp_millis_opt(wall_ms)
            .single()
            .unwrap_or_default(),
        at: CampaignTime(r.get(6)?),
        schema,
        event,
        signature: r.get(9)?,
    })
}
