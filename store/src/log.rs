//! The storage contract: the row types a log hands out ([`Numbered`], [`ArchiveRow`],
//! [`SnapshotHead`], [`Skipped`]), the kind filters the partial index needs, and the traits
//! every backend implements ([`ReadLog`], [`WriteLog`], [`Transaction`], [`Log`]). The SQLite
//! store's implementations are `sqlite`; the in-memory one is [`crate::memory`].

use crate::codec;
use crate::error::StoreError;
use chrono::{DateTime, Utc};
use leechbook_core::ids::{CharacterId, DeviceId, EventId};
use leechbook_core::time::CampaignTime;
use leechbook_core::{Envelope, Event};

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

// The partial index `events_rare` holds the campaign's creation, the roster's changes and
// the rulings: the events about the record rather than the story, whose `class` column is
// 1 (migration 16; migration 10 told them apart by where their kinds sort, which every new
// kind had to keep in mind). Every read of those begins with `class = 1`, the index's very
// condition, which SQLite needs to use it.

/// An event's class, as its `class` column keeps it: 1 for the events about the record (the
/// campaign's creation, a roster change, a ruling, a character made GM-only or revealed:
/// who reads what), which the partial index `events_rare` holds; 0 for the story. Derived
/// from the event, whatever its kind is called.
pub fn class_of(event: &Event) -> i64 {
    use leechbook_core::__kernel::envelope::LedgerEvent;
    i64::from(
        event.creates_campaign()
            || event.roster_change().is_some()
            || event.is_ruling()
            || matches!(event, Event::Secret { .. }),
    )
}

/// An event's columns that are derived from its payload and kept apart for lookups, as
/// stored (`verify` compares them with [`Columns::of`] its payload).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Columns<'a> {
    /// Its kind.
    pub kind: &'a str,
    /// The character it is about.
    pub character: Option<CharacterId>,
    /// Its class ([`class_of`]).
    pub class: i64,
    /// Its payload as stored (codec byte, then the event's bytes), where the log stores
    /// bytes (`None` in memory): what its link is hashed from
    /// ([`crate::codec::link_of_stored`]).
    pub payload: Option<&'a [u8]>,
}

impl Columns<'static> {
    /// The columns an event's payload gives.
    pub fn of(event: &Event) -> Columns<'static> {
        Columns {
            kind: event.kind(),
            character: event.character(),
            class: class_of(event),
            payload: None,
        }
    }
}

/// Finds the roster's events (through `events_rare`).
pub const ROSTER_KINDS: &str =
    "WHERE class = 1 AND kind IN ('campaign-created', 'roster.device', 'roster.revoke')";

/// Whether the place `key` lies after `after` and at or before `upto` (each bound when given).
pub fn within(key: OrderKey, after: Option<OrderKey>, upto: Option<OrderKey>) -> bool {
    after.is_none_or(|a| key > a) && upto.is_none_or(|u| key <= u)
}

/// Finds the campaign's own events, the events about no character, in the total order and
/// whole from their covering index (`events_campaign`, migration 19).
pub const CAMPAIGN_EVENTS: &str = "INDEXED BY events_campaign WHERE character IS NULL";

/// Finds the rulings (through `events_rare`).
pub const RULING_KINDS: &str = "WHERE class = 1 \
     AND kind IN ('ruling.retract', 'ruling.reinstate', 'ruling.amend', 'ruling.override')";

/// The condition the SQLite log reads the amendments from a clock on with (bound as `?1`),
/// through the partial index of the record's events, as [`RULING_KINDS`] does.
pub const AMENDMENTS_FROM: &str = "WHERE class = 1 AND kind = 'ruling.amend' AND clock >= ?1";

/// One record of the archive: the character, the order key of the event after which the
/// record was filed, what it is of, and the record as the list of systems encoded it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveRow {
    /// The character.
    pub character: CharacterId,
    /// The order key of the event after which it was filed.
    pub since: OrderKey,
    /// What the record is of (for HârnMaster, the injury's id), which the store does not
    /// read either: it keeps the latest record per key (column `injury`, as migration 11
    /// named it).
    pub key: uuid::Uuid,
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

    /// [`ReadLog::for_each_event`] as a fold reads it: each envelope without its signature
    /// (`None`), which no fold reads (the signatures are verify's and the sync's, which read
    /// them with the rest), so a replay does not copy a hundred bytes an event it drops.
    fn for_each_to_fold(
        &self,
        mut f: impl FnMut(Envelope) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.for_each_event(|mut e| {
            e.signature = None;
            f(e)
        })
    }

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

    /// [`ReadLog::events_about`] after the place `after` and up to and including `upto` in
    /// the total order (each bound when given): what an audit that starts from a checkpoint,
    /// or ends where its wound was filed, reads. The SQLite log reads only those rows (its
    /// index of what events are about is ordered by clock within a character, migration 20).
    fn events_about_within(
        &self,
        who: Option<CharacterId>,
        after: Option<OrderKey>,
        upto: Option<OrderKey>,
    ) -> Result<Vec<Envelope>, StoreError> {
        let mut all = self.events_about(who)?;
        all.retain(|e| within(e.order_key(), after, upto));
        Ok(all)
    }

    /// The GM's amendments after the place `after`, in the total order: what may make an
    /// earlier event touch another character than it did (a story cut short at `after`
    /// checks that none reaches its characters). The SQLite log reads them through the
    /// index of the record's events, by kind.
    fn amendments_after(&self, after: OrderKey) -> Result<Vec<Envelope>, StoreError> {
        let mut all = self.rulings_and_targets()?;
        all.retain(|e| e.event.kind() == "ruling.amend" && e.order_key() > after);
        Ok(all)
    }

    /// The event the log holds as `device`'s number `seq`, if any, with its signature (the
    /// chain link an import checks a neighbouring number against).
    fn event_at(&self, device: DeviceId, seq: u64) -> Result<Option<crate::Numbered>, StoreError>;

    /// Every event stored after the row `after` (0: every event) in the fold's total order,
    /// with its indexed columns as stored ([`Columns`]), which are derived from the payload
    /// and kept apart for lookups, handed to `f` one at a time as it is decoded: `verify`
    /// compares them, streaming (and since its last run, from that run's row).
    fn for_each_event_columns(
        &self,
        after: i64,
        f: impl FnMut(Envelope, Columns<'_>) -> Result<(), StoreError>,
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
    /// Signs a prepared envelope again, keeping its chain link, once its event has changed
    /// before it is appended (a recording writes the faces its rules drew into it).
    fn sign(&self, env: &mut Envelope) -> Result<(), StoreError>;
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
