//! The SQL behind [`crate::ReadLog`]: kept in its own module so that its methods and the
//! trait's never meet in one scope, and the one forwarding impl of the trait for the store,
//! its read transaction and its write transaction.

use crate::error::StoreError;
use crate::file::Store;
use crate::log::{
    ArchiveRow, Columns, OrderKey, ReadLog, SnapshotHead, Tail, AMENDMENTS_FROM, ROSTER_KINDS,
    RULING_KINDS,
};
use crate::rows::{
    each_event_where, envelope_of, read_events, read_events_after, read_events_sorted_here,
    read_events_where, uuid, Reader, Writer, EVENT_COLUMNS, UNSIGNED_COLUMNS,
};
use leechbook_core::ids::{CharacterId, DeviceId, EventId};
use leechbook_core::{Envelope, Event};
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
        each_event_where(self.conn(), EVENT_COLUMNS, "", [], f)
    }

    fn for_each_to_fold(
        &self,
        f: impl FnMut(Envelope) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        each_event_where(self.conn(), UNSIGNED_COLUMNS, "", [], f)
    }

    /// The rulings and the events they rule on, in the total order: all that working out the
    /// rulings in force needs (found by kind and by id, without reading the rest of the log).
    fn amendments_after(&self, after: OrderKey) -> Result<Vec<Envelope>, StoreError> {
        let mut out = read_events_where(self.conn(), AMENDMENTS_FROM, [after.0 as i64])?;
        out.retain(|e| e.order_key() > after);
        Ok(out)
    }

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
        self.events_about_within(who, None, None)
    }

    /// As `events_about`, the clocks from `after`'s to `upto`'s read through the indexes
    /// (the campaign's covering index by clock; a character's by character and clock), the
    /// rest of each place compared here.
    fn events_about_within(
        &self,
        who: Option<CharacterId>,
        after: Option<OrderKey>,
        upto: Option<OrderKey>,
    ) -> Result<Vec<Envelope>, StoreError> {
        // The campaign's events in the total order already, from one index (migration 19).
        let from = after.map_or(i64::MIN, |k| k.0 as i64);
        let to = upto.map_or(i64::MAX, |k| k.0 as i64);
        let mut out = match who {
            None => read_events_where(
                self.conn(),
                &format!("{} AND clock BETWEEN ?1 AND ?2", crate::CAMPAIGN_EVENTS),
                [from, to],
            )?,
            Some(who) => {
                let id = who.as_bytes().as_slice();
                let mut out = read_events_sorted_here(
                    self.conn(),
                    "WHERE character = ?1 AND clock BETWEEN ?2 AND ?3",
                    params![id, from, to],
                )?;
                let reached = read_events_sorted_here(
                    self.conn(),
                    "WHERE rowid IN (SELECT event FROM reach WHERE character = ?1) \
                     AND clock BETWEEN ?2 AND ?3",
                    params![id, from, to],
                )?;
                if !reached.is_empty() {
                    out.extend(reached);
                    out.sort_by_key(|e| e.order_key());
                    out.dedup_by_key(|e| e.id);
                }
                out
            }
        };
        out.retain(|e| crate::log::within(e.order_key(), after, upto));
        Ok(out)
    }

    fn event_at(&self, device: DeviceId, seq: u64) -> Result<Option<crate::Numbered>, StoreError> {
        let held = read_events_where(
            self.conn(),
            "WHERE device = ?1 AND seq = ?2",
            params![device.as_bytes().as_slice(), seq as i64],
        )?
        .first()
        .map(crate::Numbered::of);
        if held.is_some() {
            return Ok(held);
        }
        // A number held as an entry sealed for the GM (migration 18) is held all the same:
        // its device's chain is checked across it by the links its entry states.
        Ok(self
            .conn()
            .prepare_cached(
                "SELECT id, clock, link, follows FROM sealed WHERE device = ?1 AND seq = ?2",
            )?
            .query_row(params![device.as_bytes().as_slice(), seq as i64], |r| {
                let blob32 = |i: usize| -> rusqlite::Result<Option<[u8; 32]>> {
                    Ok(r.get_ref(i)?
                        .as_blob_or_null()?
                        .and_then(|b| <[u8; 32]>::try_from(b).ok()))
                };
                Ok(crate::Numbered {
                    id: EventId(uuid(r.get_ref(0)?.as_blob()?)),
                    clock: r.get::<_, i64>(1)?.max(0) as u64,
                    link: blob32(2)?.unwrap_or([0; 32]),
                    follows: blob32(3)?,
                })
            })
            .optional()?)
    }

    fn for_each_event_columns(
        &self,
        after: i64,
        mut f: impl FnMut(Envelope, Columns<'_>) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mut stmt = self.conn().prepare_cached(
            "SELECT id, campaign, device, seq, clock, wall_ms, at, schema, payload, signature,
                kind, character, class
             FROM events WHERE rowid > ?1 ORDER BY clock, device, seq",
        )?;
        let mut rows = stmt.query([after])?;
        while let Some(r) = rows.next()? {
            let env = envelope_of(r)?;
            let columns = Columns {
                kind: r.get_ref(10)?.as_str()?,
                character: r
                    .get_ref(11)?
                    .as_blob_or_null()?
                    .map(|b| CharacterId(uuid(b))),
                class: r.get(12)?,
                payload: Some(r.get_ref(8)?.as_blob()?),
            };
            f(env, columns)?;
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
    fn events_with_id_suffix(&self, suffix: &str) -> Result<Vec<(EventId, OrderKey)>, StoreError> {
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
                    .map(|i| u8::from_str_radix(&t[t.len() - 6 + 2 * i..t.len() - 4 + 2 * i], 16))
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
                key: uuid(r.get_ref(4)?.as_blob()?),
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
                let mut stmt = conn
                    .prepare_cached("SELECT payload FROM checkpoint_entries WHERE position = ?1")?;
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

/// Forwards [`ReadLog`] to the SQL reads.
macro_rules! read_log_by_sql {
    ($t:ty) => {
        impl ReadLog for $t {
            fn events(&self) -> Result<Vec<Envelope>, StoreError> {
                SqlRead::events(self)
            }

            fn events_between(
                &self,
                after: Option<OrderKey>,
                upto: OrderKey,
            ) -> Result<Vec<Envelope>, StoreError> {
                SqlRead::events_between(self, after, upto)
            }

            fn events_after(&self, last: OrderKey) -> Result<Vec<Envelope>, StoreError> {
                SqlRead::events_after(self, last)
            }

            fn events_after_row(&self, mark: i64) -> Result<(Vec<Envelope>, i64), StoreError> {
                SqlRead::events_after_row(self, mark)
            }

            fn last_row(&self) -> Result<i64, StoreError> {
                SqlRead::last_row(self)
            }

            fn holds(&self, id: EventId) -> Result<bool, StoreError> {
                SqlRead::holds(self, id)
            }

            fn roster_events(&self) -> Result<Vec<Envelope>, StoreError> {
                SqlRead::roster_events(self)
            }

            fn for_each_event(
                &self,
                f: impl FnMut(Envelope) -> Result<(), StoreError>,
            ) -> Result<(), StoreError> {
                SqlRead::for_each_event(self, f)
            }

            fn for_each_to_fold(
                &self,
                f: impl FnMut(Envelope) -> Result<(), StoreError>,
            ) -> Result<(), StoreError> {
                SqlRead::for_each_to_fold(self, f)
            }

            fn rulings_and_targets(&self) -> Result<Vec<Envelope>, StoreError> {
                SqlRead::rulings_and_targets(self)
            }

            fn amendments_after(&self, after: OrderKey) -> Result<Vec<Envelope>, StoreError> {
                SqlRead::amendments_after(self, after)
            }

            fn projection_mark(&self) -> Result<Option<(i64, u32)>, StoreError> {
                SqlRead::projection_mark(self)
            }

            fn projection_head(&self) -> Result<Option<Vec<u8>>, StoreError> {
                SqlRead::projection_head(self)
            }

            fn projection_characters(
                &self,
                ids: Option<&[CharacterId]>,
            ) -> Result<Vec<Vec<u8>>, StoreError> {
                SqlRead::projection_characters(self, ids)
            }

            fn events_about(&self, who: Option<CharacterId>) -> Result<Vec<Envelope>, StoreError> {
                SqlRead::events_about(self, who)
            }

            fn events_about_within(
                &self,
                who: Option<CharacterId>,
                after: Option<OrderKey>,
                upto: Option<OrderKey>,
            ) -> Result<Vec<Envelope>, StoreError> {
                SqlRead::events_about_within(self, who, after, upto)
            }

            fn event_at(
                &self,
                device: DeviceId,
                seq: u64,
            ) -> Result<Option<crate::Numbered>, StoreError> {
                SqlRead::event_at(self, device, seq)
            }

            fn for_each_event_columns(
                &self,
                after: i64,
                f: impl FnMut(Envelope, Columns<'_>) -> Result<(), StoreError>,
            ) -> Result<(), StoreError> {
                SqlRead::for_each_event_columns(self, after, f)
            }

            fn snapshot_heads(&self) -> Result<Vec<SnapshotHead>, StoreError> {
                SqlRead::snapshot_heads(self)
            }

            fn snapshot_payload(&self, position: u64) -> Result<Option<Vec<u8>>, StoreError> {
                SqlRead::snapshot_payload(self, position)
            }

            fn checkpoint_characters(
                &self,
                position: u64,
                ids: Option<&[CharacterId]>,
            ) -> Result<Vec<Vec<u8>>, StoreError> {
                SqlRead::checkpoint_characters(self, position, ids)
            }

            fn archived(
                &self,
                ids: Option<&[CharacterId]>,
                upto: Option<OrderKey>,
            ) -> Result<Vec<ArchiveRow>, StoreError> {
                SqlRead::archived(self, ids, upto)
            }

            fn fates(&self, checkpoint: Option<u64>) -> Result<Option<Vec<u8>>, StoreError> {
                SqlRead::fates(self, checkpoint)
            }

            fn tail_for(
                &self,
                after: OrderKey,
                upto: OrderKey,
                ids: &[CharacterId],
                multi: &[&str],
            ) -> Result<Tail, StoreError> {
                SqlRead::tail_for(self, after, upto, ids, multi)
            }

            fn events_with_id_suffix(
                &self,
                suffix: &str,
            ) -> Result<Vec<(EventId, OrderKey)>, StoreError> {
                SqlRead::events_with_id_suffix(self, suffix)
            }
        }
    };
}

read_log_by_sql!(Store);
read_log_by_sql!(Writer<'_>);
read_log_by_sql!(Reader<'_>);

impl SqlRead for Store {
    fn conn(&self) -> &Connection {
        &self.conn
    }
}

impl SqlRead for Reader<'_> {
    fn conn(&self) -> &Connection {
        &self.tx
    }
}

impl SqlRead for Writer<'_> {
    fn conn(&self) -> &Connection {
        &self.tx
    }
}
