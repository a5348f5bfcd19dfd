//! The entries sealed for the GM's devices that a device holds and cannot open: a GM-only
//! character's events on a player's device (migration 18). Each stands under its device's
//! number, so that the number counts as held, the device's chain is checked across it (its
//! link and the link it follows, as its entry states them; the next number's signature
//! vouches for the link), and the device offers it on as it came.

use crate::error::StoreError;
use crate::file::Store;
use crate::rows::uuid;
use leechbook_core::ids::{DeviceId, EventId};
use rusqlite::OptionalExtension;

/// One entry sealed for the GM's devices, as a device that cannot open it holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sealed {
    /// The device that recorded the event.
    pub device: DeviceId,
    /// Its number on that device.
    pub seq: u64,
    /// The event's id (its entry is filed under it).
    pub id: EventId,
    /// Its Lamport clock.
    pub clock: u64,
    /// Its link (what the device's next number signs).
    pub link: [u8; 32],
    /// The link it signs to the number before it (`None`: unchained).
    pub follows: Option<[u8; 32]>,
    /// The entry's plaintext under the campaign's key (the stated numbers and the part
    /// sealed for the GM), kept to be offered on.
    pub entry: Vec<u8>,
}

impl Sealed {
    /// The number as a chain check reads it.
    pub fn numbered(&self) -> crate::Numbered {
        crate::Numbered {
            id: self.id,
            clock: self.clock,
            link: self.link,
            follows: self.follows,
        }
    }
}

/// A device, a block of its numbers, and how many of them.
pub type BlockCount = (DeviceId, u64, u64);

const COLUMNS: &str = "device, seq, id, clock, link, follows, entry";

fn sealed_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<Sealed> {
    let blob32 = |i: usize| -> rusqlite::Result<Option<[u8; 32]>> {
        Ok(r.get_ref(i)?
            .as_blob_or_null()?
            .and_then(|b| <[u8; 32]>::try_from(b).ok()))
    };
    Ok(Sealed {
        device: DeviceId(uuid(r.get_ref(0)?.as_blob()?)),
        seq: r.get::<_, i64>(1)?.max(0) as u64,
        id: EventId(uuid(r.get_ref(2)?.as_blob()?)),
        clock: r.get::<_, i64>(3)?.max(0) as u64,
        link: blob32(4)?.unwrap_or([0; 32]),
        follows: blob32(5)?,
        entry: r.get(6)?,
    })
}

impl Store {
    /// Keeps entries sealed for the GM (those whose number or id it holds already are left
    /// out). Returns how many it kept.
    pub fn put_sealed(&mut self, entries: &[Sealed]) -> Result<usize, StoreError> {
        let tx = self.conn.transaction()?;
        let mut kept = 0;
        {
            let mut stmt = tx.prepare_cached(&format!(
                "INSERT OR IGNORE INTO sealed ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
            ))?;
            for s in entries {
                kept += stmt.execute(rusqlite::params![
                    s.device.as_bytes().as_slice(),
                    s.seq as i64,
                    s.id.0.as_bytes().as_slice(),
                    s.clock as i64,
                    s.link.as_slice(),
                    s.follows.as_ref().map(|f| f.as_slice()),
                    s.entry,
                ])?;
            }
        }
        tx.commit()?;
        Ok(kept)
    }

    /// The entry sealed for the GM held under `device`'s number `seq`, if one is.
    pub fn sealed_at(&self, device: DeviceId, seq: u64) -> Result<Option<Sealed>, StoreError> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM sealed WHERE device = ?1 AND seq = ?2"
            ))?
            .query_row(
                rusqlite::params![device.as_bytes().as_slice(), seq as i64],
                sealed_of,
            )
            .optional()?)
    }

    /// The entries sealed for the GM held of `device`'s numbers `first..=last` (a volume's).
    pub fn sealed_numbered(
        &self,
        device: DeviceId,
        first: u64,
        last: u64,
    ) -> Result<Vec<Sealed>, StoreError> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM sealed WHERE device = ?1 AND seq >= ?2 AND seq <= ?3"
        ))?;
        let rows = stmt.query_map(
            rusqlite::params![device.as_bytes().as_slice(), first as i64, last as i64],
            sealed_of,
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Every entry sealed for the GM held, without the entries themselves (what a check of
    /// the devices' chains reads across).
    pub fn sealed_numbers(&self) -> Result<Vec<Sealed>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT device, seq, id, clock, link, follows, x'' FROM sealed")?;
        let rows = stmt.query_map([], sealed_of)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The entries sealed for the GM held whose events the log lacks, whole (what a device
    /// that gains the GM's ring opens).
    pub fn sealed_unopened(&self) -> Result<Vec<Sealed>, StoreError> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM sealed s
             WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.id = s.id)"
        ))?;
        let rows = stmt.query_map([], sealed_of)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Whether an entry sealed for the GM is held under the event id `id`.
    pub fn holds_sealed(&self, id: EventId) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM sealed WHERE id = ?1")?
            .query_row([id.0.as_bytes().as_slice()], |_| Ok(()))
            .optional()?
            .is_some())
    }

    /// How many entries sealed for the GM (whose events the log lacks) each device's block
    /// of `block` numbers gained in the rows after `after`, and the last row (a sync's
    /// volumes count them as held).
    pub fn sealed_block_counts_after(
        &self,
        after: i64,
        block: u64,
    ) -> Result<(Vec<BlockCount>, i64), StoreError> {
        let last: i64 =
            self.conn
                .query_row("SELECT COALESCE(MAX(row), 0) FROM sealed", [], |r| r.get(0))?;
        let mut stmt = self.conn.prepare_cached(
            "SELECT s.device, (s.seq - 1) / ?2, count(*) FROM sealed s
             WHERE s.row > ?1 AND NOT EXISTS (SELECT 1 FROM events e WHERE e.id = s.id)
             GROUP BY 1, 2",
        )?;
        let rows = stmt.query_map(rusqlite::params![after, block as i64], |r| {
            Ok((
                DeviceId(uuid(r.get_ref(0)?.as_blob()?)),
                r.get::<_, i64>(1)?.max(0) as u64,
                r.get::<_, i64>(2)?.max(0) as u64,
            ))
        })?;
        Ok((rows.collect::<Result<_, _>>()?, last))
    }

    /// The events that make a character GM-only or reveal one, in the total order (which
    /// events only the GM's devices read): of the record's class, read through its index.
    pub fn secrecy_events(&self) -> Result<Vec<leechbook_core::Envelope>, StoreError> {
        crate::rows::read_events_where(
            &self.conn,
            "WHERE class = 1 AND kind = 'character-secret'",
            [],
        )
    }

    /// How many numbers of the campaign this device holds in all: the log's highest row and
    /// every entry sealed for the GM (what the clock ceiling counts).
    pub fn numbers_held(&self) -> Result<u64, StoreError> {
        Ok(self.extent()?
            + self
                .conn
                .query_row("SELECT count(*) FROM sealed", [], |r| r.get::<_, i64>(0))?
                .max(0) as u64)
    }

    /// How many entries sealed for the GM this device holds that its log lacks (`verify`
    /// says so).
    pub fn sealed_count(&self) -> Result<u64, StoreError> {
        Ok(self.conn.query_row(
            "SELECT count(*) FROM sealed s WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.id = s.id)",
            [],
            |r| r.get::<_, i64>(0),
        )? as u64)
    }
}
