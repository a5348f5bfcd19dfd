//! [`MemoryLog`]: a campaign's log and what is kept beside it, in memory. The same contract
//! as the SQLite store ([`ReadLog`] and [`WriteLog`]), checked by one conformance suite run
//! against both (`store/tests/conformance.rs`); for tests, and for anything that wants a
//! ledger without a file.

use crate::{
    ArchiveRow, Log, OrderKey, ReadLog, ReadThrough, Snapshot, SnapshotHead, StoreError, Tail,
    Transaction, WriteLog,
};
use chrono::{DateTime, TimeZone, Utc};
use leechbook_core::ids::{CampaignId, CharacterId, DeviceId, EventId};
use leechbook_core::time::CampaignTime;
use leechbook_core::{Envelope, Event, SCHEMA_VERSION};
use std::collections::{BTreeMap, HashMap};

/// A log in memory. Rows are kept in the order they were added (a row number, as SQLite's
/// rowid), and an index in the total order. It records as one device, with its own id and
/// signing key, as a ledger file does.
#[derive(Clone, Debug)]
pub struct MemoryLog {
    campaign: CampaignId,
    device: DeviceId,
    key: ed25519_dalek::SigningKey,
    rows: Vec<Envelope>,
    order: BTreeMap<OrderKey, usize>,
    by_id: HashMap<EventId, usize>,
    snapshots: BTreeMap<u64, Snapshot>,
    projection: BTreeMap<Vec<u8>, Vec<u8>>,
    mark: Option<(i64, u32)>,
    checkpoint_entries: BTreeMap<(u64, Vec<u8>), Vec<u8>>,
    archive: BTreeMap<(CharacterId, OrderKey, uuid::Uuid), ArchiveRow>,
    fates: BTreeMap<Option<u64>, Vec<u8>>,
}

impl MemoryLog {
    /// Whether a ruling after `last` in the log rules on an event at or before it.
    fn ruled_into(&self, last: OrderKey) -> bool {
        self.order
            .range((std::ops::Bound::Excluded(last), std::ops::Bound::Unbounded))
            .filter_map(|(_, &i)| match &self.rows[i].event {
                Event::Ruling(r) => r.target(),
                _ => None,
            })
            .any(|t| {
                self.by_id
                    .get(&t)
                    .is_some_and(|&i| self.rows[i].order_key() <= last)
            })
    }

    /// An empty log of `campaign`, recording as a new device.
    pub fn new(campaign: CampaignId) -> MemoryLog {
        let mut secret = [0u8; 32];
        rand::Rng::fill(&mut rand::rng(), &mut secret);
        MemoryLog::with_device(campaign, DeviceId(uuid::Uuid::now_v7()), secret)
    }

    /// An empty log of `campaign`, recording as `device` with the signing key `secret`.
    pub fn with_device(campaign: CampaignId, device: DeviceId, secret: [u8; 32]) -> MemoryLog {
        MemoryLog {
            campaign,
            device,
            key: ed25519_dalek::SigningKey::from_bytes(&secret),
            rows: Vec::new(),
            order: BTreeMap::new(),
            by_id: HashMap::new(),
            snapshots: BTreeMap::new(),
            projection: BTreeMap::new(),
            mark: None,
            checkpoint_entries: BTreeMap::new(),
            archive: BTreeMap::new(),
            fates: BTreeMap::new(),
        }
    }

    /// Drops what goes with a checkpoint no longer kept (its entries and fates).
    fn drop_orphans(&mut self) {
        let kept: Vec<u64> = self.snapshots.keys().copied().collect();
        self.checkpoint_entries.retain(|(p, _), _| kept.contains(p));
        self.fates
            .retain(|scope, _| scope.is_none_or(|p| kept.contains(&p)));
    }

    fn in_order(&self) -> impl Iterator<Item = &Envelope> {
        self.order.values().map(|&i| &self.rows[i])
    }

    fn where_kind(&self, kinds: &[&str]) -> Vec<Envelope> {
        self.in_order()
            .filter(|e| kinds.contains(&e.event.kind()))
            .cloned()
            .collect()
    }
}

impl ReadLog for MemoryLog {
    fn fates(&self, checkpoint: Option<u64>) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.fates.get(&checkpoint).cloned())
    }

    fn archived(
        &self,
        ids: Option<&[CharacterId]>,
        upto: Option<OrderKey>,
    ) -> Result<Vec<ArchiveRow>, StoreError> {
        Ok(self
            .archive
            .iter()
            .filter(|((c, since, _), _)| {
                ids.is_none_or(|ids| ids.contains(c)) && upto.is_none_or(|u| *since <= u)
            })
            .map(|(_, r)| r.clone())
            .collect())
    }

    fn events(&self) -> Result<Vec<Envelope>, StoreError> {
        Ok(self.in_order().cloned().collect())
    }

    fn events_between(
        &self,
        after: Option<OrderKey>,
        upto: OrderKey,
    ) -> Result<Vec<Envelope>, StoreError> {
        let from = match after {
            Some(a) => std::ops::Bound::Excluded(a),
            None => std::ops::Bound::Unbounded,
        };
        Ok(self
            .order
            .range((from, std::ops::Bound::Included(upto)))
            .map(|(_, &i)| self.rows[i].clone())
            .collect())
    }

    fn events_after(&self, last: OrderKey) -> Result<Vec<Envelope>, StoreError> {
        Ok(self
            .order
            .range((std::ops::Bound::Excluded(last), std::ops::Bound::Unbounded))
            .map(|(_, &i)| self.rows[i].clone())
            .collect())
    }

    fn events_after_row(&self, mark: i64) -> Result<(Vec<Envelope>, i64), StoreError> {
        let from = usize::try_from(mark.max(0))
            .unwrap_or(0)
            .min(self.rows.len());
        let mut out: Vec<Envelope> = self.rows[from..].to_vec();
        out.sort_by_key(|e| e.order_key());
        Ok((out, self.last_row()?.max(mark)))
    }

    fn last_row(&self) -> Result<i64, StoreError> {
        Ok(self.rows.len() as i64)
    }

    fn holds(&self, id: EventId) -> Result<bool, StoreError> {
        Ok(self.by_id.contains_key(&id))
    }

    fn roster_events(&self) -> Result<Vec<Envelope>, StoreError> {
        Ok(self.where_kind(&["campaign-created", "roster.device", "roster.revoke"]))
    }

    fn for_each_event(
        &self,
        mut f: impl FnMut(Envelope) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        for e in self.in_order() {
            f(e.clone())?;
        }
        Ok(())
    }

    fn rulings_and_targets(&self) -> Result<Vec<Envelope>, StoreError> {
        let rulings = self.where_kind(&[
            "ruling.retract",
            "ruling.reinstate",
            "ruling.amend",
            "ruling.override",
        ]);
        let mut out: BTreeMap<OrderKey, Envelope> =
            rulings.iter().map(|e| (e.order_key(), e.clone())).collect();
        for r in &rulings {
            if let Event::Ruling(ruling) = &r.event {
                if let Some(&i) = ruling.target().and_then(|t| self.by_id.get(&t)) {
                    let e = &self.rows[i];
                    out.insert(e.order_key(), e.clone());
                }
            }
        }
        Ok(out.into_values().collect())
    }

    fn projection_mark(&self) -> Result<Option<(i64, u32)>, StoreError> {
        Ok(self.mark)
    }

    fn projection_head(&self) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.projection.get(&Vec::new()).cloned())
    }

    fn projection_characters(
        &self,
        ids: Option<&[CharacterId]>,
    ) -> Result<Vec<Vec<u8>>, StoreError> {
        Ok(match ids {
            None => self
                .projection
                .iter()
                .filter(|(k, _)| !k.is_empty())
                .map(|(_, v)| v.clone())
                .collect(),
            Some(ids) => ids
                .iter()
                .filter_map(|id| self.projection.get(id.as_bytes().as_slice()).cloned())
                .collect(),
        })
    }

    fn events_about(&self, who: Option<CharacterId>) -> Result<Vec<Envelope>, StoreError> {
        let mut out: Vec<Envelope> = self
            .rows
            .iter()
            .filter(|e| match who {
                Some(c) => e.event.touches(c),
                None => e.event.character().is_none(),
            })
            .cloned()
            .collect();
        out.sort_by_key(|e| e.order_key());
        Ok(out)
    }

    fn event_at(&self, device: DeviceId, seq: u64) -> Result<Option<crate::Numbered>, StoreError> {
        Ok(self
            .rows
            .iter()
            .find(|e| e.device == device && e.seq == seq)
            .map(crate::Numbered::of))
    }

    fn for_each_event_columns(
        &self,
        after: i64,
        mut f: impl FnMut(Envelope, crate::log::Columns<'_>) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        // Rows count from 1 in the order stored, as SQLite's do.
        let mut all: Vec<&Envelope> = self.rows.iter().skip(after.max(0) as usize).collect();
        all.sort_by_key(|e| e.order_key());
        for e in all {
            f(e.clone(), crate::log::Columns::of(&e.event))?;
        }
        Ok(())
    }

    fn snapshot_heads(&self) -> Result<Vec<SnapshotHead>, StoreError> {
        Ok(self
            .snapshots
            .values()
            .rev()
            .map(|s| SnapshotHead {
                position: s.position,
                last: s.last,
                fold_version: s.fold_version,
                // By definition, from the log itself (the SQLite store keeps it as it goes).
                earliest_after: self
                    .order
                    .range((
                        std::ops::Bound::Excluded(s.last),
                        std::ops::Bound::Unbounded,
                    ))
                    .map(|(_, &i)| self.rows[i].at)
                    .min()
                    .unwrap_or(CampaignTime(i64::MAX)),
                latest_wall_upto_ms: self
                    .order
                    .range(..=s.last)
                    .map(|(_, &i)| self.rows[i].wall.timestamp_millis())
                    .max()
                    .unwrap_or(i64::MIN),
                earliest_wall_after_ms: self
                    .order
                    .range((
                        std::ops::Bound::Excluded(s.last),
                        std::ops::Bound::Unbounded,
                    ))
                    .map(|(_, &i)| self.rows[i].wall.timestamp_millis())
                    .min()
                    .unwrap_or(i64::MAX),
            })
            .collect())
    }

    fn snapshot_payload(&self, position: u64) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.snapshots.get(&position).map(|s| s.payload.clone()))
    }

    fn checkpoint_characters(
        &self,
        position: u64,
        ids: Option<&[CharacterId]>,
    ) -> Result<Vec<Vec<u8>>, StoreError> {
        Ok(match ids {
            None => self
                .checkpoint_entries
                .range((position, Vec::new())..(position + 1, Vec::new()))
                .map(|(_, v)| v.clone())
                .collect(),
            Some(ids) => ids
                .iter()
                .filter_map(|id| {
                    self.checkpoint_entries
                        .get(&(position, id.as_bytes().to_vec()))
                        .cloned()
                })
                .collect(),
        })
    }

    fn tail_for(
        &self,
        after: OrderKey,
        upto: OrderKey,
        ids: &[CharacterId],
        multi: &[&str],
    ) -> Result<Tail, StoreError> {
        let range = (
            std::ops::Bound::Excluded(after),
            std::ops::Bound::Included(upto),
        );
        let (mut out, mut skipped) = (Vec::new(), Vec::new());
        for (_, &i) in self.order.range(range) {
            let e = &self.rows[i];
            let wanted = match e.event.character() {
                None => true,
                Some(c) => ids.contains(&c),
            } || multi.contains(&e.event.kind());
            if wanted {
                out.push(e.clone());
            } else {
                skipped.push(crate::Skipped {
                    id: e.id,
                    at: e.at.0,
                    wall_ms: e.wall.timestamp_millis(),
                });
            }
        }
        Ok((out, skipped))
    }

    fn events_with_id_suffix(&self, suffix: &str) -> Result<Vec<(EventId, OrderKey)>, StoreError> {
        let suffix = suffix.trim().to_ascii_lowercase().replace('-', "");
        // As the SQLite store: six hex digits at least, else nothing matches.
        if suffix.len() < 6 || !suffix.chars().all(|c| c.is_ascii_hexdigit()) {
            return Ok(Vec::new());
        }
        Ok(self
            .in_order()
            .filter(|e| e.id.named_by(&suffix))
            .map(|e| (e.id, e.order_key()))
            .collect())
    }
}

impl WriteLog for MemoryLog {
    fn import(&mut self, envelopes: &[Envelope]) -> Result<usize, StoreError> {
        // All or nothing: every check first.
        let mut seen: HashMap<(DeviceId, u64), EventId> = HashMap::new();
        for env in envelopes {
            if env.campaign != self.campaign {
                return Err(StoreError::ForeignEvent {
                    id: env.id,
                    campaign: env.campaign,
                });
            }
            let held = seen
                .get(&(env.device, env.seq))
                .copied()
                .or(self.event_at(env.device, env.seq)?.map(|n| n.id));
            if let Some(held) = held.filter(|h| *h != env.id) {
                return Err(StoreError::SeqClash {
                    device: env.device,
                    seq: env.seq,
                    held,
                    incoming: env.id,
                });
            }
            seen.insert((env.device, env.seq), env.id);
        }
        let mut added = 0;
        for env in envelopes {
            // A ruling makes stale every checkpoint that folds its target; any event every
            // checkpoint at or after it (held ones too, as the SQLite store does).
            if let Event::Ruling(r) = &env.event {
                if let Some(&i) = r.target().and_then(|t| self.by_id.get(&t)) {
                    let key = self.rows[i].order_key();
                    self.snapshots.retain(|_, s| s.last < key);
                    self.drop_orphans();
                }
            }
            let key = env.order_key();
            self.snapshots.retain(|_, s| s.last < key);
            self.drop_orphans();
            if self.by_id.contains_key(&env.id) {
                continue;
            }
            self.by_id.insert(env.id, self.rows.len());
            self.order.insert(key, self.rows.len());
            self.rows.push(env.clone());
            added += 1;
        }
        Ok(added)
    }

    fn save_snapshot(&mut self, s: &Snapshot) -> Result<(), StoreError> {
        if !self.ruled_into(s.last) {
            self.snapshots.insert(s.position, s.clone());
        }
        Ok(())
    }

    fn drop_snapshot(&mut self, position: u64) -> Result<(), StoreError> {
        self.snapshots.remove(&position);
        self.drop_orphans();
        Ok(())
    }

    fn put_fates(&mut self, checkpoint: Option<u64>, payload: &[u8]) -> Result<(), StoreError> {
        self.fates.insert(checkpoint, payload.to_vec());
        Ok(())
    }

    fn save_checkpoint(
        &mut self,
        s: &Snapshot,
        characters: &[(CharacterId, Vec<u8>)],
    ) -> Result<(), StoreError> {
        self.checkpoint_entries.retain(|(p, _), _| *p != s.position);
        if self.ruled_into(s.last) {
            return Ok(());
        }
        self.snapshots.insert(s.position, s.clone());
        for (id, payload) in characters {
            self.checkpoint_entries
                .insert((s.position, id.as_bytes().to_vec()), payload.clone());
        }
        Ok(())
    }

    fn put_projection(
        &mut self,
        head: &[u8],
        characters: &[(CharacterId, Vec<u8>)],
        whole: bool,
        mark: (i64, u32),
    ) -> Result<(), StoreError> {
        if whole {
            self.projection.clear();
        }
        self.projection.insert(Vec::new(), head.to_vec());
        for (id, payload) in characters {
            self.projection
                .insert(id.as_bytes().to_vec(), payload.clone());
        }
        self.mark = Some(mark);
        Ok(())
    }

    fn put_archive(
        &mut self,
        rows: &[ArchiveRow],
        rewrite: Option<Option<OrderKey>>,
    ) -> Result<(), StoreError> {
        match rewrite {
            Some(None) => self.archive.clear(),
            Some(Some(after)) => {
                self.archive.retain(|(_, since, _), _| *since <= after);
                for r in self.archive.values_mut() {
                    if r.reopened.is_some_and(|k| k > after) {
                        r.reopened = None;
                    }
                }
            }
            None => {}
        }
        for r in rows {
            self.archive
                .insert((r.character, r.since, r.key), r.clone());
        }
        Ok(())
    }
}

/// A write transaction on a [`MemoryLog`]: it writes to the log itself and keeps a copy of
/// the log as it was, put back when the transaction is dropped without a commit.
pub struct MemoryTransaction<'a> {
    log: &'a mut MemoryLog,
    undo: Option<Box<MemoryLog>>,
}

impl Drop for MemoryTransaction<'_> {
    fn drop(&mut self) {
        if let Some(before) = self.undo.take() {
            *self.log = *before;
        }
    }
}

impl ReadThrough for MemoryTransaction<'_> {
    type Inner = MemoryLog;
    fn inner(&self) -> &MemoryLog {
        self.log
    }
}

impl WriteLog for MemoryTransaction<'_> {
    fn import(&mut self, envelopes: &[Envelope]) -> Result<usize, StoreError> {
        self.log.import(envelopes)
    }
    fn save_snapshot(&mut self, s: &Snapshot) -> Result<(), StoreError> {
        self.log.save_snapshot(s)
    }
    fn drop_snapshot(&mut self, position: u64) -> Result<(), StoreError> {
        self.log.drop_snapshot(position)
    }
    fn save_checkpoint(
        &mut self,
        s: &Snapshot,
        characters: &[(CharacterId, Vec<u8>)],
    ) -> Result<(), StoreError> {
        self.log.save_checkpoint(s, characters)
    }
    fn put_projection(
        &mut self,
        head: &[u8],
        characters: &[(CharacterId, Vec<u8>)],
        whole: bool,
        mark: (i64, u32),
    ) -> Result<(), StoreError> {
        self.log.put_projection(head, characters, whole, mark)
    }
    fn put_fates(&mut self, checkpoint: Option<u64>, payload: &[u8]) -> Result<(), StoreError> {
        self.log.put_fates(checkpoint, payload)
    }
    fn put_archive(
        &mut self,
        rows: &[ArchiveRow],
        rewrite: Option<Option<OrderKey>>,
    ) -> Result<(), StoreError> {
        self.log.put_archive(rows, rewrite)
    }
}

impl Transaction for MemoryTransaction<'_> {
    fn prepare(
        &mut self,
        event: Event,
        at: CampaignTime,
        wall: DateTime<Utc>,
    ) -> Result<Envelope, StoreError> {
        let log = &*self.log;
        let prev = log
            .rows
            .iter()
            .filter(|e| e.device == log.device)
            .max_by_key(|e| e.seq);
        let since = prev
            .map_or(0, |e| e.clock)
            .min(leechbook_core::MAX_CLOCK - 1);
        // As the SQLite store: the event with the highest clock within the bounds, named
        // when it is another device's.
        let seen: Vec<(DeviceId, u64, u64)> = log
            .rows
            .iter()
            .filter(|e| {
                e.clock <= leechbook_core::MAX_CLOCK
                    && (1..=e.clock.min(leechbook_core::MAX_SEQ)).contains(&e.seq)
            })
            .max_by_key(|e| e.order_key())
            .filter(|e| e.device != log.device)
            .map(|e| (e.device, e.seq, e.clock))
            .into_iter()
            .collect();
        let (clock, heads) = crate::rows::clocked_from(since, &seen)?;
        let seq = prev.map_or(0, |e| e.seq) + 1;
        let link = crate::codec::link_of(prev);
        // Wall time is kept to the millisecond, as the SQLite store keeps it.
        let wall = Utc
            .timestamp_millis_opt(wall.timestamp_millis())
            .single()
            .unwrap_or(wall);
        let mut env = Envelope {
            id: EventId(uuid::Uuid::now_v7()),
            campaign: log.campaign,
            device: log.device,
            seq,
            clock,
            wall,
            at,
            schema: SCHEMA_VERSION,
            event,
            signature: None,
        };
        crate::codec::sign_seen(&mut env, link, &heads, &log.key);
        Ok(env)
    }

    fn sign(&self, env: &mut Envelope) -> Result<(), StoreError> {
        let signed = crate::codec::sign_again(env, &self.log.key);
        crate::error::signed_again(env, signed)
    }

    fn append(&mut self, env: &Envelope) -> Result<(), StoreError> {
        // An import skips a held id; an append refuses it, as SQLite's unique id does.
        if self.log.by_id.contains_key(&env.id) {
            return Err(StoreError::Database(format!(
                "event {} is already in the log",
                env.id
            )));
        }
        self.log.import(std::slice::from_ref(env)).map(|_| ())
    }

    fn commit(mut self) -> Result<(), StoreError> {
        self.undo = None;
        Ok(())
    }
}

impl Log for MemoryLog {
    type Reader<'a> = &'a MemoryLog;
    type Writer<'a> = MemoryTransaction<'a>;
    fn read(&self) -> Result<&MemoryLog, StoreError> {
        Ok(self)
    }
    fn write(&mut self) -> Result<MemoryTransaction<'_>, StoreError> {
        Ok(MemoryTransaction {
            undo: Some(Box::new(self.clone())),
            log: self,
        })
    }
}
