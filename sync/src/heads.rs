//! Signed heads: nothing withheld in silence.
//!
//! Each device signs its **head**: its newest event number and that event's link (the
//! SHA-256 of the whole envelope, [`leechbook_store::codec::link_of`]), with its own key. The
//! heads travel in the campaign's index (sealed under the first epoch's key, filed under a
//! digest of the device, [`crate::layout::Names::head`]); every device that syncs relays the
//! highest head it has seen of every device, and keeps it. So a hub that lowers a device's
//! count and withholds its newest events must also hide that device's head from every
//! device that syncs through it, or be caught:
//! - a device holding fewer of D's numbers than D signed reports the gap, naming D and the
//!   numbers ([`gaps`]);
//! - a head that names, under a number this ledger holds, another event than the one it
//!   holds is a fork (two ledgers under one identity: a copied ledger file), reported too;
//! - a hole below a device's highest number held (an event given without an earlier one) is
//!   reported even without a head.
//!
//! A head counts only if its device's roster key verifies it: a peer without keys cannot
//! seal one, and a rostered player cannot sign another device's.

use crate::names::{Counts, Names, HEAD_PREFIX as PREFIX};
use crate::SyncError;
use automerge::{transaction::Transactable, Automerge, ReadDoc, ScalarValue, ROOT};
use leechbook_core::ids::{CampaignId, DeviceId};
use leechbook_core::roster::Roster;
use leechbook_store::{ReadLog, Store};
use std::collections::{BTreeMap, BTreeSet};

/// What a head's signature covers first (never the start of an event's signed bytes, which
/// start with a codec byte).
const STATEMENT: &[u8] = b"LEECHBOOK-HEAD-1\n";
/// Where a ledger keeps the highest head it has seen of each device.
const KEPT: &str = "device-heads";
const LEN: usize = 16 + 8 + 32 + 64;

/// A device's signed statement of its newest event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head {
    /// The device.
    pub device: DeviceId,
    /// Its newest event number.
    pub seq: u64,
    /// That event's link.
    pub link: [u8; 32],
    signature: [u8; 64],
}

fn statement(campaign: CampaignId, device: DeviceId, seq: u64, link: &[u8; 32]) -> Vec<u8> {
    let mut m = STATEMENT.to_vec();
    m.extend_from_slice(campaign.as_bytes());
    m.extend_from_slice(device.as_bytes());
    m.extend_from_slice(&seq.to_le_bytes());
    m.extend_from_slice(link);
    m
}

impl Head {
    /// This device's head as its log holds it now, signed (`None`: it recorded nothing).
    pub fn own(store: &Store) -> Result<Option<Head>, SyncError> {
        let device = store.device();
        let seq = store.last_number(device)?;
        let Some(newest) = store.event_at(device, seq)? else {
            return Ok(None);
        };
        let signature = store.sign(&statement(store.campaign(), device, seq, &newest.link));
        Ok(Some(Head {
            device,
            seq,
            link: newest.link,
            signature,
        }))
    }

    /// Whether the roster's key for its device verifies it.
    pub fn vouched(&self, campaign: CampaignId, roster: &Roster) -> bool {
        use ed25519_dalek::{Signature, Verifier, VerifyingKey};
        let Some(key) = roster.key(self.device) else {
            return false;
        };
        let Some(key) = <[u8; 32]>::try_from(key)
            .ok()
            .and_then(|k| VerifyingKey::from_bytes(&k).ok())
        else {
            return false;
        };
        key.verify(
            &statement(campaign, self.device, self.seq, &self.link),
            &Signature::from_bytes(&self.signature),
        )
        .is_ok()
    }

    fn to_bytes(self) -> Vec<u8> {
        let mut out = Vec::with_capacity(LEN);
        out.extend_from_slice(self.device.as_bytes());
        out.extend_from_slice(&self.seq.to_le_bytes());
        out.extend_from_slice(&self.link);
        out.extend_from_slice(&self.signature);
        out
    }

    fn from_bytes(b: &[u8]) -> Option<Head> {
        if b.len() != LEN {
            return None;
        }
        Some(Head {
            device: DeviceId(uuid::Uuid::from_slice(&b[..16]).ok()?),
            seq: u64::from_le_bytes(b[16..24].try_into().ok()?),
            link: b[24..56].try_into().ok()?,
            signature: b[56..].try_into().ok()?,
        })
    }
}

/// The highest head of each device, among `heads`.
pub type Heads = BTreeMap<DeviceId, Head>;

/// What a sync knows to judge gaps by: every device's highest head, the roster that vouched
/// for them, and whether this device was left out of a key rotation.
pub struct Known {
    /// The highest head of each device.
    pub heads: Heads,
    /// The log's roster.
    pub roster: Roster,
    /// Whether a rotation this device was left out of is listed (it was revoked).
    pub left_out: bool,
}

fn best(into: &mut Heads, h: Head) {
    match into.get(&h.device) {
        Some(held) if held.seq >= h.seq => {}
        _ => {
            into.insert(h.device, h);
        }
    }
}

/// The heads an index lists that their devices' roster keys verify, the highest of each.
pub fn in_index(doc: &Automerge, names: &Names, campaign: CampaignId, roster: &Roster) -> Heads {
    let mut out = Heads::new();
    for key in doc.keys(ROOT).filter(|k| k.starts_with(PREFIX)) {
        for (value, _) in doc.get_all(ROOT, key.as_str()).unwrap_or_default() {
            let automerge::Value::Scalar(s) = value else {
                continue;
            };
            let ScalarValue::Bytes(b) = s.as_ref() else {
                continue;
            };
            let Some(h) = names
                .open_index(&key, b)
                .and_then(|plain| Head::from_bytes(&plain))
            else {
                continue;
            };
            if names.head(h.device) == key && h.vouched(campaign, roster) {
                best(&mut out, h);
            }
        }
    }
    out
}

/// The heads a ledger kept (the highest it has seen of each device).
pub fn kept(store: &Store) -> Result<Heads, SyncError> {
    let mut out = Heads::new();
    if let Some(b) = store.sync_state(KEPT)? {
        for c in b.chunks_exact(LEN) {
            if let Some(h) = Head::from_bytes(c) {
                best(&mut out, h);
            }
        }
    }
    Ok(out)
}

/// What a sync knows of every device's head: this device's own (signed now), those it kept,
/// and those `listed` (an index's, vouched for). Kept again, and returned.
pub fn gather(store: &mut Store, listed: &Heads) -> Result<Heads, SyncError> {
    let mut all = kept(store)?;
    let before = all.clone();
    for h in listed.values() {
        best(&mut all, *h);
    }
    if let Some(own) = Head::own(store)? {
        best(&mut all, own);
    }
    if all != before {
        let bytes: Vec<u8> = all.values().flat_map(|h| h.to_bytes()).collect();
        store.put_sync_state(KEPT, &bytes)?;
    }
    Ok(all)
}

/// Puts into the index each head of `heads` higher than it lists (a hub that rolled one back
/// gets it again from every device that saw it), in one change (none when nothing is new).
pub fn publish(
    doc: &mut Automerge,
    names: &Names,
    listed: &Heads,
    heads: &Heads,
) -> Result<(), SyncError> {
    let fresh: Vec<&Head> = heads
        .values()
        .filter(|h| listed.get(&h.device).is_none_or(|l| l.seq < h.seq))
        .collect();
    if fresh.is_empty() {
        return Ok(());
    }
    doc.transact(|tx| {
        for h in &fresh {
            let key = names.head(h.device);
            let sealed = names.seal_index(&key, &h.to_bytes());
            tx.put(ROOT, key.as_str(), ScalarValue::Bytes(sealed))
                .map_err(|e| SyncError::NotSync(e.to_string()))?;
        }
        Ok::<_, SyncError>(())
    })
    .map(|_| ())
    .map_err(|f| f.error)
}

/// What a ledger lacks or holds otherwise of the devices `synced` and of every device whose
/// head is known, one line each: events a device signed that this ledger does not hold (held
/// back), a head naming another event than the one held under its number (a fork), and
/// holes below a device's highest number held. `counts` is the log's events per volume,
/// caught up.
/// A revoked device's head says nothing a ledger needs (its later numbers are void); nor does
/// another device's to a device left out of a key rotation (what it cannot read is sealed
/// from it, not withheld, and its sync says so).
pub fn gaps(
    store: &Store,
    counts: &Counts,
    synced: impl IntoIterator<Item = DeviceId>,
    known: &Known,
) -> Result<Vec<String>, SyncError> {
    let own = store.device();
    let heads = &known.heads;
    let devices: BTreeSet<DeviceId> = synced.into_iter().chain(heads.keys().copied()).collect();
    let mut out = Vec::new();
    // No device numbers past its clock, and no clock runs past the events there are: a
    // head beyond that is its signer's forgery, told as one, never as the numbers missing
    // before it.
    let ceiling = leechbook_core::clock_ceiling(store.numbers_held()?);
    for d in devices {
        if known
            .roster
            .entries
            .get(&d)
            .is_some_and(|e| e.revoked.is_some())
        {
            continue;
        }
        let last = store.last_number(d)?;
        if let Some(h) = heads.get(&d).filter(|_| d == own || !known.left_out) {
            if h.seq > ceiling {
                out.push(format!(
                    "device {} signed a head at #{}, a number no device reaches (its clock would run past the {ceiling} the campaign's events allow): its signer forged it, and it is ignored",
                    d.short(),
                    h.seq
                ));
                continue;
            }
            if h.seq > last {
                out.push(if d == own {
                    format!(
                        "a ledger under this device's identity ({}) signed its #{}, but this ledger's last is #{last}: a copy of this ledger file records as this device (a copied ledger file); reset the identity of one of them and have the GM roster the new one",
                        d.short(),
                        h.seq
                    )
                } else {
                    format!(
                        "device {} signed its #{}, but this ledger holds its events only up to #{last}: #{}-#{} are held back by the hub (or have not reached it yet); a device that holds them puts them back when it next syncs",
                        d.short(),
                        h.seq,
                        last + 1,
                        h.seq
                    )
                });
                continue;
            }
            if let Some(fork) = fork(store, h)? {
                out.push(fork);
                continue;
            }
        }
        let held: u64 = counts
            .iter()
            .filter(|(v, _)| v.device == d)
            .map(|(_, n)| n)
            .sum();
        if held < last {
            let lacking = last - held;
            out.push(format!(
                "this ledger holds device {}'s #{last} but lacks {lacking} of its earlier event{}: withheld or damaged on the way; a device that holds them puts them back when it next syncs",
                d.short(),
                if lacking == 1 { "" } else { "s" }
            ));
        }
    }
    Ok(out)
}

/// The line for a head that names, under a number this ledger holds, another event than the
/// one it holds (`None`: it names the same, or a number not held).
fn fork(store: &Store, h: &Head) -> Result<Option<String>, SyncError> {
    Ok(store
        .event_at(h.device, h.seq)?
        .filter(|held| held.link != h.link)
        .map(|_| {
            format!(
                "device {} signed another event as its #{} than the one this ledger holds: two ledgers share its identity (a copied ledger file); on the copy, reset the device's identity and have the GM roster the new one",
                h.device.short(),
                h.seq
            )
        }))
}

/// The forks the heads a ledger kept show against its log, one line each (`verify`).
pub fn forks(store: &Store) -> Result<Vec<String>, SyncError> {
    let mut out = Vec::new();
    for h in kept(store)?.values() {
        out.extend(fork(store, h)?);
    }
    Ok(out)
}
