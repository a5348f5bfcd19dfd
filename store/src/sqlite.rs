//! The log's contract ([`crate::log`]) as the SQLite store keeps it: [`Store`] and its
//! write transaction, [`Writer`], are a [`Log`].

use crate::error::StoreError;
use crate::file::Store;
use crate::log::{ArchiveRow, Log, OrderKey, Snapshot, Transaction, WriteLog};
use crate::rows::{save_snapshot_on, Reader, Writer};
use chrono::{DateTime, Utc};
use leechbook_core::ids::CharacterId;
use leechbook_core::time::CampaignTime;
use leechbook_core::{Envelope, Event};

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
    fn sign(&self, env: &mut Envelope) -> Result<(), StoreError> {
        let signed = crate::codec::sign_again(env, self.key);
        crate::error::signed_again(env, signed)
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
