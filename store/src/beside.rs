//! What a ledger keeps beside its log on [`Store`]: device numbers and clocks, the sync
//! state (a cache of the sync documents, never part of the record), the rows a sync reads by
//! number, and the snapshots (checkpoints).

use crate::error::StoreError;
use crate::file::Store;
use crate::log::Snapshot;
use crate::rows::{read_events_where, read_snapshots, save_snapshot_on, uuid};
use leechbook_core::ids::{CharacterId, DeviceId, EventId};
use leechbook_core::time::CampaignTime;
use leechbook_core::Envelope;
use rusqlite::{OptionalExtension, TransactionBehavior};

impl Store {
    /// The Lamport clock of `device`'s event number `seq`, if the log (or an entry sealed for
    /// the GM) holds it (an import checks that a device's clocks rise with its numbers).
    pub fn clock_at(&self, device: DeviceId, seq: u64) -> Result<Option<u64>, StoreError> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT clock FROM events WHERE device = ?1 AND seq = ?2
                 UNION ALL SELECT clock FROM sealed WHERE device = ?1 AND seq = ?2 LIMIT 1",
            )?
            .query_row(
                rusqlite::params![device.as_bytes().as_slice(), seq as i64],
                |r| r.get::<_, i64>(0),
            )
            .optional()?
            .map(|c| c as u64))
    }

    /// The events about `character` dated from `from` to `to` (campaign time, both
    /// included), in the total order: the rivals of a claimed roll.
    pub fn events_of_character_dated(
        &self,
        character: CharacterId,
        from: CampaignTime,
        to: CampaignTime,
    ) -> Result<Vec<Envelope>, StoreError> {
        crate::rows::read_events_where(
            &self.conn,
            "WHERE character = ?1 AND at BETWEEN ?2 AND ?3",
            rusqlite::params![character.as_bytes().as_slice(), from.0, to.0],
        )
    }

    /// How many rows the log has ever held, at most (its highest row number: a bound on its
    /// count read without counting).
    pub fn extent(&self) -> Result<u64, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT COALESCE(MAX(rowid), 0) FROM events", [], |r| {
                r.get::<_, i64>(0)
            })? as u64)
    }

    /// The Lamport clock of `device`'s event number `seq`, if the log holds it, and whether
    /// its signature names what its device had seen (layout 3): what an import checks a
    /// clock against, read without decoding the event.
    pub fn clock_and_layout(
        &self,
        device: DeviceId,
        seq: u64,
    ) -> Result<Option<(u64, bool)>, StoreError> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT clock, substr(signature, 1, 1), length(signature) >= 99
                 FROM events WHERE device = ?1 AND seq = ?2",
            )?
            .query_row(
                rusqlite::params![device.as_bytes().as_slice(), seq as i64],
                |r| {
                    // Layout 3 by its byte and its length (a 64-byte layout-1 signature may
                    // begin with any byte).
                    let layout: Option<Vec<u8>> = r.get(1)?;
                    let long: Option<bool> = r.get(2)?;
                    Ok((
                        r.get::<_, i64>(0)? as u64,
                        layout.as_deref() == Some(&[crate::codec::SIGNATURE_SEEN][..])
                            && long == Some(true),
                    ))
                },
            )
            .optional()?)
    }

    /// The highest event number of `device` the log holds, or an entry sealed for the GM
    /// holds (0: none): what a revocation accepts of it.
    pub fn last_number(&self, device: DeviceId) -> Result<u64, StoreError> {
        Ok(self.conn.query_row(
            "SELECT max((SELECT COALESCE(MAX(seq), 0) FROM events WHERE device = ?1),
                        (SELECT COALESCE(MAX(seq), 0) FROM sealed WHERE device = ?1))",
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
