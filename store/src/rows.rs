//! Rows in and out of SQLite: snapshots read and saved, the read and write transactions
//! ([`Reader`], [`Writer`]), inserting an event, invalidating what it makes stale, and
//! decoding a row into an envelope.

use crate::codec;
use crate::error::StoreError;
use crate::log::{ArchiveRow, OrderKey, ReadLog, Snapshot, RULING_KINDS};
use chrono::{DateTime, TimeZone, Utc};
use leechbook_core::ids::{CampaignId, CharacterId, DeviceId, EventId};
use leechbook_core::time::CampaignTime;
use leechbook_core::{Envelope, Event, SCHEMA_VERSION};
use rusqlite::{params, Connection, OptionalExtension};
use uuid::Uuid;

pub(crate) fn read_snapshots(conn: &Connection) -> Result<Vec<Snapshot>, StoreError> {
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
pub(crate) fn save_snapshot_on(conn: &Connection, s: &Snapshot) -> Result<bool, StoreError> {
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

pub(crate) fn read_events_after(
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
pub(crate) fn invalidate_from(conn: &Connection, key: (i64, &[u8], i64)) -> Result<(), StoreError> {
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
    pub(crate) tx: rusqlite::Transaction<'a>,
}

/// The write lock on a ledger: a `BEGIN IMMEDIATE` transaction. Read the log, prepare events,
/// append them, then [`commit`](Writer::commit); dropping the writer rolls everything back.
pub struct Writer<'a> {
    pub(crate) tx: rusqlite::Transaction<'a>,
    pub(crate) device: DeviceId,
    pub(crate) campaign: CampaignId,
    pub(crate) key: &'a ed25519_dalek::SigningKey,
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
                r.key.as_bytes().as_slice(),
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
    /// number, a Lamport clock one past every clock in the log, signed with the heads of the
    /// other device it was clocked from ([`codec::SIGNATURE_SEEN`], [`clocked_from`]).
    pub fn prepare(
        &mut self,
        event: Event,
        at: CampaignTime,
        wall: DateTime<Utc>,
    ) -> Result<Envelope, StoreError> {
        // The device's previous number: the new event's chain link.
        let prev = read_events_where(
            &self.tx,
            "WHERE device = ?1 AND seq = (SELECT MAX(seq) FROM events WHERE device = ?1)",
            [self.device.as_bytes().as_slice()],
        )?
        .pop();
        // (A previous number beyond the bound, set by hand, counts as at it.)
        let since = prev
            .as_ref()
            .map_or(0, |p| p.clock)
            .min(leechbook_core::MAX_CLOCK - 1);
        // The event with the highest clock the log holds (by the order's index, one step),
        // within the bounds (a row taken in before they were held raises nothing: it is
        // void): the new clock is one past it, and when it is another device's, it is the
        // head the event names.
        let mut seen: Vec<(DeviceId, u64, u64)> = Vec::new();
        {
            let mut stmt = self.tx.prepare_cached(
                "SELECT device, seq, clock FROM events
                 WHERE clock <= ?1 AND seq BETWEEN 1 AND MIN(clock, ?2)
                 ORDER BY clock DESC, device DESC, seq DESC LIMIT 1",
            )?;
            let mut rows = stmt.query(rusqlite::params![
                leechbook_core::MAX_CLOCK as i64,
                leechbook_core::MAX_SEQ as i64,
            ])?;
            if let Some(r) = rows.next()? {
                let device = DeviceId(uuid(r.get_ref(0)?.as_blob()?));
                if device != self.device {
                    seen.push((
                        device,
                        r.get::<_, i64>(1)? as u64,
                        r.get::<_, i64>(2)? as u64,
                    ));
                }
            }
        }
        let (clock, heads) = clocked_from(since, &seen)?;
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
            clock,
            wall,
            at,
            schema: SCHEMA_VERSION,
            event,
            signature: None,
        };
        codec::sign_seen(&mut env, codec::link_of(prev.as_ref()), &heads, self.key);
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
pub(crate) fn invalidate_for(
    conn: &Connection,
    env: &Envelope,
    itself: bool,
) -> Result<(), StoreError> {
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
pub(crate) fn note_arrivals(conn: &Connection, events: &[Envelope]) -> Result<(), StoreError> {
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
pub(crate) fn insert_sql(skip_known: bool) -> &'static str {
    if skip_known {
        "INSERT INTO events (id, campaign, device, seq, clock, wall_ms, at, kind,
            character, schema, payload, signature, class)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
         ON CONFLICT (id) DO NOTHING"
    } else {
        "INSERT INTO events (id, campaign, device, seq, clock, wall_ms, at, kind,
            character, schema, payload, signature, class)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
    }
}

pub(crate) fn insert(
    conn: &Connection,
    env: &Envelope,
    skip_known: bool,
) -> Result<usize, StoreError> {
    let mut stmt = conn.prepare_cached(insert_sql(skip_known))?;
    insert_with(conn, &mut stmt, env, &mut Vec::new())
}

/// Inserts one event through a prepared [`insert_sql`], encoding its payload into `payload`
/// (a buffer a bulk append reuses), and its `reach` rows in the same transaction.
pub(crate) fn insert_with(
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
        crate::log::class_of(&env.event),
    ])?;
    if n == 1 {
        write_reach(conn, conn.last_insert_rowid(), &env.event)?;
    }
    Ok(n)
}

pub(crate) fn uuid(bytes: &[u8]) -> Uuid {
    Uuid::from_slice(bytes).unwrap_or(Uuid::nil())
}

pub(crate) fn read_events(conn: &Connection) -> Result<Vec<Envelope>, StoreError> {
    read_events_where(conn, "", [])
}

pub(crate) fn read_events_where(
    conn: &Connection,
    filter: &str,
    args: impl rusqlite::Params,
) -> Result<Vec<Envelope>, StoreError> {
    let mut out = Vec::new();
    each_event_where(conn, EVENT_COLUMNS, filter, args, |e| {
        out.push(e);
        Ok(())
    })?;
    Ok(out)
}

/// Reads the events `filter` selects, as [`read_events_where`] does, for a filter an index
/// answers (one character's events): the rows come in the index's order and are put in the
/// total order here, since SQLite would otherwise sort the whole rows in a temporary b-tree
/// (157 ms of 45,000 rows at a million events, against 54 ms to read them).
pub(crate) fn read_events_sorted_here(
    conn: &Connection,
    filter: &str,
    args: impl rusqlite::Params,
) -> Result<Vec<Envelope>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!("{EVENT_COLUMNS} {filter}"))?;
    let mut rows = stmt.query(args)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        out.push(envelope_of(r)?);
    }
    out.sort_by_key(Envelope::order_key);
    Ok(out)
}

/// What [`envelope_of`] reads, from the events table.
pub(crate) const EVENT_COLUMNS: &str =
    "SELECT id, campaign, device, seq, clock, wall_ms, at, schema, payload, signature FROM events";

/// [`EVENT_COLUMNS`] without the signature (read as `NULL`): what a fold reads.
pub(crate) const UNSIGNED_COLUMNS: &str =
    "SELECT id, campaign, device, seq, clock, wall_ms, at, schema, payload, NULL FROM events";

/// Reads the events `filter` selects in the total order (their `columns`, one of
/// [`EVENT_COLUMNS`] and [`UNSIGNED_COLUMNS`]), handing each to `f` as it is decoded (no
/// list of the whole log is ever made).
pub(crate) fn each_event_where(
    conn: &Connection,
    columns: &str,
    filter: &str,
    args: impl rusqlite::Params,
    mut f: impl FnMut(Envelope) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let mut stmt =
        conn.prepare_cached(&format!("{columns} {filter} ORDER BY clock, device, seq"))?;
    let mut rows = stmt.query(args)?;
    while let Some(r) = rows.next()? {
        f(envelope_of(r)?)?;
    }
    Ok(())
}

/// The envelope a row holds (columns id, campaign, device, seq, clock, wall_ms, at, schema,
/// payload, signature, in that order), decoded.
pub(crate) fn envelope_of(r: &rusqlite::Row<'_>) -> Result<Envelope, StoreError> {
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

/// The clock of a new event after the highest clock `top` it has seen: one more, within the
/// bound every envelope is held to (a log that reached it can record no more, and says so,
/// rather than overflow: no import lets a log reach it, see the sync's checks).
pub(crate) fn clock_after(top: u64) -> Result<u64, StoreError> {
    top.checked_add(1)
        .filter(|c| *c <= leechbook_core::MAX_CLOCK)
        .ok_or_else(|| {
            StoreError::Database(format!(
                "the log's Lamport clock is at its bound ({}): no event can be ordered after it",
                leechbook_core::MAX_CLOCK
            ))
        })
}

/// A new event's clock and the heads it signs, from its device's previous clock `since` and
/// the other devices' events it may be clocked from with their clocks (`seen`): one past the
/// highest clock held, naming the event it was clocked from when that is another device's
/// (none when its own previous number is the highest). One head is enough: the clock must
/// follow from it exactly, and naming more would prove no more (a device that hides an event
/// from itself names none of it), at 24 bytes a head on every event.
pub(crate) fn clocked_from(
    since: u64,
    seen: &[(DeviceId, u64, u64)],
) -> Result<(u64, Vec<(DeviceId, u64)>), StoreError> {
    let top = seen
        .iter()
        .max_by_key(|s| (s.2, s.0))
        .filter(|s| s.2 > since);
    let clock = clock_after(top.map_or(since, |s| s.2))?;
    Ok((clock, top.map(|s| (s.0, s.1)).into_iter().collect()))
}

/// Writes the `reach` rows of the event at `row`: the characters it touches besides the one
/// it is about (none for most kinds).
pub(crate) fn write_reach(
    conn: &Connection,
    row: i64,
    event: &Event,
) -> Result<(), rusqlite::Error> {
    if !leechbook_core::event::reaching_kinds().contains(&event.kind()) {
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

pub(crate) fn new_id() -> Uuid {
    Uuid::now_v7()
}
