//! One round of a sync: the index synced, then the volumes either side lacks exchanged,
//! taken in, put back where the log holds more, and this ledger's counts published.
//!
//! What a round decides from the counts alone is a [`Plan`], pure and tested on its own:
//! which volumes to exchange, which the hub listed but did not give, and what to report and
//! flag once the volumes are taken in. [`exchange`] carries it out against the hub.

use super::*;
use crate::bound;
use crate::layout::{self, index_counts, Counts, Shelf, VolumeId};
use crate::{
    crypt, entry::entries_of, entry::open_entries, entry::rotations_in, mirror::drop_refused,
    mirror::Mirror, take::take_in, take::Acceptance, take::Imported, SyncError,
};
use automerge::{Automerge, ChangeHash, ReadDoc};
use leechbook_core::ids::DeviceId;
use leechbook_store::ReadLog;
use leechbook_store::Store;
use samod::{ConnectionId, DocHandle, Repo};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// What a round decides from the counts alone: the hub's index against this ledger's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Plan {
    /// The count of events per volume the hub's index lists.
    pub(super) listed: Counts,
    /// The count this ledger holds.
    pub(super) ours: Counts,
    /// The volumes another device found short on the hub.
    pub(super) short: BTreeSet<VolumeId>,
    /// This device.
    pub(super) own: DeviceId,
    /// Whether this is a long-lived line's first round, which opens every device's latest
    /// volume with the hub (see [`Plan::wanted`]).
    pub(super) opening: bool,
}

impl Plan {
    fn listed(&self, v: &VolumeId) -> u64 {
        self.listed.get(v).copied().unwrap_or(0)
    }

    fn ours(&self, v: &VolumeId) -> u64 {
        self.ours.get(v).copied().unwrap_or(0)
    }

    /// The volumes to exchange: those whose counts differ; this device's latest always (a
    /// count raised on the hub must never make it look as if the hub held what this device
    /// recorded since); and one another device found short that this one holds whole.
    ///
    /// On a long-lived line's first round, every device's latest volume too: the sync
    /// engine keeps its state with the hub for each document it synced on the line, and a
    /// document synced for the first time costs a round trip of heads before its first
    /// change (automerge sends changes only to a peer that said what it has). Opened once,
    /// a volume's later change goes in one message, whichever device's event it carries.
    pub(super) fn wanted(&self) -> Vec<VolumeId> {
        let own_latest = self.ours.keys().filter(|v| v.device == self.own).max();
        let all = self
            .listed
            .keys()
            .chain(self.ours.keys())
            .collect::<BTreeSet<_>>();
        // Each device's latest volume, on a line's first round only (the set is ordered by
        // device, then number: the last of a device's is its latest).
        let mut latest: BTreeMap<DeviceId, &VolumeId> = BTreeMap::new();
        if self.opening {
            latest.extend(all.iter().map(|v| (v.device, *v)));
        }
        all.into_iter()
            .filter(|v| {
                let (o, l) = (self.ours(v), self.listed(v));
                o != l
                    || Some(*v) == own_latest
                    || (self.short.contains(v) && o >= l)
                    || latest.get(&v.device) == Some(v)
            })
            .copied()
            .collect()
    }

    /// Of `wanted`, those the index lists beyond this ledger that the hub did not give at
    /// all (`given`: those it gave).
    pub(super) fn unfound(&self, wanted: &[VolumeId], given: &[VolumeId]) -> Vec<VolumeId> {
        wanted
            .iter()
            .filter(|v| !given.contains(v))
            .filter(|v| self.listed(v) > self.ours(v))
            .copied()
            .collect()
    }

    /// What the round reports once it took in, and the volumes it flags in the index (true:
    /// short, for a device that holds it whole to put back; false: a flag this device
    /// answered): each volume exchanged, its count `held` against the index's, then each
    /// volume the hub did not give.
    pub(super) fn gaps(
        &self,
        exchanged: &[VolumeId],
        held: impl Fn(&VolumeId) -> u64,
        unfound: &[VolumeId],
    ) -> (Vec<String>, Vec<(VolumeId, bool)>) {
        let mut gaps = Vec::new();
        let mut flags = Vec::new();
        for v in exchanged {
            let (held, l) = (held(v), self.listed(v));
            if l > held {
                gaps.push(if v.device == self.own {
                    format!(
                        "the hub's index lists {l} events of this device's volume {}, but this device recorded {held}: a count raised on the hub (ignored)",
                        v.number
                    )
                } else {
                    format!(
                        "the hub lists {l} events of device {}'s volume {} but gave {held}: withheld or deleted there; a device that holds them puts them back when it next syncs",
                        v.device.short(),
                        v.number
                    )
                });
                if v.device != self.own {
                    flags.push((*v, true));
                }
            } else if self.short.contains(v) {
                flags.push((*v, false));
            }
        }
        for v in unfound {
            gaps.push(format!(
                "the hub lists {} events of device {}'s volume {} but did not give the volume: a device that holds it puts it back when it next syncs",
                self.listed(v),
                v.device.short(),
                v.number
            ));
            if v.device != self.own {
                flags.push((*v, true));
            }
        }
        (gaps, flags)
    }
}

/// The hub's side of one round: the engine, the connection, where to reach it, how long to
/// wait.
pub(super) struct Hub<'a> {
    pub(super) repo: &'a Repo,
    pub(super) conn: ConnectionId,
    pub(super) storage: &'a ShelfStorage,
    pub(super) url: &'a str,
    pub(super) timeout: Duration,
}

/// The volumes exchanged with the hub: each with its handle, and the heads this ledger held
/// of it before.
struct Exchanged {
    handles: Vec<(VolumeId, DocHandle)>,
    before: BTreeMap<VolumeId, Vec<ChangeHash>>,
}

impl Exchanged {
    fn volumes(&self) -> Vec<VolumeId> {
        self.handles.iter().map(|(v, _)| *v).collect()
    }
}

/// What taking the exchanged volumes in did.
struct TakenIn {
    imported: Imported,
    gained: Vec<crypt::Rotation>,
    /// The event entries each volume held as the hub gave it (whether this device can open
    /// them or not).
    given: BTreeMap<VolumeId, u64>,
    /// The volumes a peer or the hub deleted entries from, as the hub gave them.
    deleted: BTreeSet<VolumeId>,
}

/// The heart of [`sync_with`], on the sync engine's runtime: the index synced, the plan
/// made, the volumes exchanged and taken in, the log's own put back, this ledger's counts
/// published and the hub's receipt of everything sent awaited.
pub(super) async fn exchange(
    store: &mut Store,
    shelf: &mut Shelf,
    ring: &mut crate::Keyring,
    hub: &Hub<'_>,
    opening: bool,
) -> Result<(Imported, Vec<crypt::Rotation>, usize), SyncError> {
    let start = std::time::Instant::now();
    let index = sync_index(store, ring, hub).await?;
    phase(start, "  index synced");
    let names = shelf.names.clone();
    let listed = index.with_document(|d| index_counts(d, &names));
    let short = index.with_document(|d| layout::short_volumes(d, &names, &listed));
    let plan = Plan {
        listed,
        short,
        ours: shelf.counts.clone(),
        own: store.device(),
        opening,
    };
    let wanted = plan.wanted();
    let exchanged = exchange_volumes(store, shelf, ring, hub, &wanted, start).await?;
    let unfound = plan.unfound(&wanted, &exchanged.volumes());
    let taken = take_volumes(store, shelf, ring, &index, &exchanged, start)?;
    let restored = put_back(store, shelf, &exchanged, &taken.deleted)?;
    // Held against the log's count after the sync (what was taken in), not against the
    // hub's entries: junk put beside a withheld entry must not make up its number. A device
    // left out of a key rotation counts the entries it cannot open as given (they are sealed
    // from it, not withheld).
    let left_out = {
        let roster = leechbook_core::roster::Roster::from_log(&store.roster_events()?);
        let rotations = index.with_document(|d| rotations_in(d));
        crypt::left_out_by(store, ring, &rotations, &roster).is_some()
    };
    let held = |v: &VolumeId| {
        let counted = if v.device == plan.own || !left_out {
            &shelf.counts
        } else {
            &taken.given
        };
        counted.get(v).copied().unwrap_or(0)
    };
    let (mut gaps, flags) = plan.gaps(&exchanged.volumes(), held, &unfound);
    gaps.extend(publish(store, shelf, ring, &index, &exchanged, &flags)?);
    confirm(&index, &exchanged, hub).await?;
    phase(start, "  counts listed");
    // Kept only as checked whole (a change that reached the handle since is checked too).
    let doc = index.with_document(|d| d.clone());
    bound::admit(&doc).map_err(|why| poisoned(hub.url, &why))?;
    shelf.index.doc = doc;
    let mut imported = taken.imported;
    imported.gaps = gaps;
    imported.restored = restored;
    Ok((imported, taken.gained, exchanged.handles.len()))
}

/// The campaign's index found on the hub and synced both ways; refused whole unless it is
/// one a Leechbook device writes (a squatted index costs no key-by-key scans).
async fn sync_index(
    store: &Store,
    ring: &crate::Keyring,
    hub: &Hub<'_>,
) -> Result<DocHandle, SyncError> {
    let (repo, conn, url, timeout) = (hub.repo, hub.conn, hub.url, hub.timeout);
    let campaign = store.campaign();
    let index = on_hub(
        repo,
        conn,
        timeout,
        url,
        "sending the campaign's index",
        find(repo, Places::of(ring).index()),
    )
    .await??
    .ok_or_else(|| {
        SyncError::Absent(format!(
            "the hub at {url} holds no campaign {campaign} under this device's keys (a wrong or old join code, or no device of the campaign has synced with this hub yet)"
        ))
    })?;
    on_hub(
        repo,
        conn,
        timeout,
        url,
        "sending the campaign's index",
        index.we_have_their_changes(conn),
    )
    .await?;
    index
        .with_document(|d| bound::admit(d).map(|_| ()))
        .map_err(|why| poisoned(url, &why))?;
    Ok(index)
}

/// The volumes `wanted` exchanged with the hub: each as this ledger holds it (rid of refused
/// entries kept from before they were dropped) put in the engine, then all of them found and
/// synced at once.
async fn exchange_volumes(
    store: &mut Store,
    shelf: &mut Shelf,
    ring: &crate::Keyring,
    hub: &Hub<'_>,
    wanted: &[VolumeId],
    start: std::time::Instant,
) -> Result<Exchanged, SyncError> {
    let (repo, conn, url, timeout) = (hub.repo, hub.conn, hub.url, hub.timeout);
    drop_refused(shelf, store, wanted)?;
    let mut before: BTreeMap<VolumeId, Vec<ChangeHash>> = BTreeMap::new();
    for v in wanted {
        let heads = shelf.volume(store, *v)?.doc.get_heads();
        if !heads.is_empty() {
            let (whole, appended) = shelf.engine_bytes(store, *v)?;
            hub.storage
                .hold(&Places::of(ring).volume(*v), whole, appended)
                .await;
        }
        before.insert(*v, heads);
    }
    phase(start, "  volumes held");
    let finds = futures::future::join_all(
        wanted
            .iter()
            .map(|v| find(repo, Places::of(ring).volume(*v))),
    );
    let handles: Vec<(VolumeId, DocHandle)> =
        on_hub(repo, conn, timeout, url, "sending volumes", finds)
            .await?
            .into_iter()
            .zip(wanted)
            .filter_map(|(h, v)| Some((*v, h.ok()??)))
            .collect();
    // The hub may have announced a volume before this side held its copy: whatever the
    // engine holds, this side's copy goes in.
    for (v, h) in &handles {
        let Some(ours) = before.get(v) else { continue };
        let lacks = h.with_document(|d| ours.iter().any(|x| d.get_change_by_hash(x).is_none()));
        if let (true, Some(kept)) = (lacks, shelf.loaded(*v)) {
            let mut ours = kept.doc.clone();
            h.with_document(|d| d.merge(&mut ours))
                .map_err(|e| SyncError::NotSync(e.to_string()))?;
        }
    }
    for (v, _) in &handles {
        shelf.release(*v);
    }
    let syncs = futures::future::join_all(handles.iter().map(|(_, h)| async move {
        h.we_have_their_changes(conn).await;
        h.they_have_our_changes(conn).await;
    }));
    phase(start, "  volumes found");
    on_hub(repo, conn, timeout, url, "exchanging volumes", syncs).await?;
    phase(start, "  volumes synced");
    Ok(Exchanged { handles, before })
}

/// The exchanged volumes as they are now taken in: exactly what is kept (changes that arrive
/// later stay on the hub for the next sync, never in a kept volume the log was not offered);
/// what is refused dropped from the documents kept and offered back (the hub takes the
/// deletions), and only from the volumes that brought it.
fn take_volumes(
    store: &mut Store,
    shelf: &mut Shelf,
    ring: &mut crate::Keyring,
    index: &DocHandle,
    exchanged: &Exchanged,
    start: std::time::Instant,
) -> Result<TakenIn, SyncError> {
    let names = shelf.names.clone();
    let Exchanged { handles, before } = exchanged;
    let mut docs: BTreeMap<VolumeId, Automerge> = handles
        .iter()
        .map(|(v, h)| (*v, h.with_document(|d| d.clone())))
        .collect();
    let deleted: BTreeSet<VolumeId> = docs
        .iter()
        .filter(|(v, d)| crate::entry::deletes(d, before.get(v).map_or(&[][..], |h| &h[..])))
        .map(|(v, _)| *v)
        .collect();
    let given: BTreeMap<VolumeId, u64> = docs
        .iter()
        .map(|(v, d)| {
            (
                *v,
                d.keys(automerge::ROOT)
                    .filter(|k| !crate::entry::is_rotation(k))
                    .count() as u64,
            )
        })
        .collect();
    let rotations = index.with_document(|d| rotations_in(d));
    let (mut entries, gained) = open_entries(store, ring, &rotations, |r| {
        docs.iter()
            .flat_map(|(v, d)| {
                let from = before.get(v).cloned().unwrap_or_default();
                entries_of(d, r, &names, d.diff(&from, &d.get_heads()))
            })
            .collect()
    })?;
    phase(start, "  entries opened");
    crate::entry::unannounced_epochs_as_junk(store, &rotations, &mut entries)?;
    let (imported, dropped) = take_in(store, entries, Acceptance::EachEvent)?;
    phase(start, "  taken in");
    let dropped = held_back(store, &names, handles.iter().map(|(v, _)| *v), dropped)?;
    for (v, h) in handles {
        h.with_document(|d| layout::drop_in(d, &dropped))?;
        if let Some(mut doc) = docs.remove(v) {
            layout::drop_in(&mut doc, &dropped)?;
            shelf.set_volume(*v, doc);
        }
    }
    shelf.ring = ring.clone();
    Ok(TakenIn {
        imported,
        gained,
        given,
        deleted,
    })
}

/// The log is the truth: the rows since the mark (what was just taken in, which its volumes
/// hold already, and whatever another process recorded meanwhile, a GM's second terminal)
/// go into the volumes exchanged, and what a peer or the hub deleted from one (`deleted`)
/// goes back in;
/// the changes reach the engine's handles. Returns how many events were put back.
fn put_back(
    store: &mut Store,
    shelf: &mut Shelf,
    exchanged: &Exchanged,
    deleted: &BTreeSet<VolumeId>,
) -> Result<usize, SyncError> {
    let handles = &exchanged.handles;
    let before_put: BTreeMap<VolumeId, Vec<ChangeHash>> = handles
        .iter()
        .map(|(v, _)| {
            (
                *v,
                shelf
                    .loaded(*v)
                    .map(|k| k.doc.get_heads())
                    .unwrap_or_default(),
            )
        })
        .collect();
    shelf.catch_up(store)?;
    let mut restored = 0;
    for (v, _) in handles {
        restored += shelf.restore(store, *v, deleted.contains(v))?;
    }
    for (v, h) in handles {
        let from = before_put.get(v).cloned().unwrap_or_default();
        let fresh = shelf.volume(store, *v)?.doc.save_after(&from);
        if !fresh.is_empty() {
            h.with_document(|d| d.load_incremental(&fresh))
                .map_err(|e| SyncError::NotSync(e.to_string()))?;
        }
    }
    Ok(restored)
}

/// This ledger's counts (and rotations) into the index for the others to see, only for the
/// volumes just exchanged (the others are not on this hub any newer than it lists); the
/// short volumes flagged; every device's head relayed. Returns the gaps the heads show.
fn publish(
    store: &mut Store,
    shelf: &Shelf,
    ring: &crate::Keyring,
    index: &DocHandle,
    exchanged: &Exchanged,
    flags: &[(VolumeId, bool)],
) -> Result<Vec<String>, SyncError> {
    let names = &shelf.names;
    let rotations = crypt::rotations_of(store)?;
    let counts: Counts = exchanged
        .handles
        .iter()
        .filter_map(|(v, _)| Some((*v, *shelf.counts.get(v)?)))
        .collect();
    let known = index.with_document(|d| -> Result<_, SyncError> {
        layout::publish(d, &counts, &rotations, names)?;
        layout::flag_short(d, flags, names)?;
        crate::mirror::relay_heads(store, d, ring)
    })?;
    crate::heads::gaps(
        store,
        &shelf.counts,
        exchanged.handles.iter().map(|(v, _)| v.device),
        &known,
    )
}

/// Sends the index and the volumes, and waits until the hub said it holds what was sent
/// ("synced" only then).
async fn confirm(index: &DocHandle, exchanged: &Exchanged, hub: &Hub<'_>) -> Result<(), SyncError> {
    let all: Vec<&DocHandle> = std::iter::once(index)
        .chain(exchanged.handles.iter().map(|(_, h)| h))
        .collect();
    let sent: Vec<Vec<ChangeHash>> = all
        .iter()
        .map(|h| h.with_document(|d| d.get_heads()))
        .collect();
    let syncs = futures::future::join_all(all.iter().map(|h| h.they_have_our_changes(hub.conn)));
    on_hub(
        hub.repo,
        hub.conn,
        hub.timeout,
        hub.url,
        "taking our changes",
        syncs,
    )
    .await?;
    let unconfirmed = all
        .iter()
        .zip(&sent)
        .filter(|(h, sent)| !acked(h, hub.conn, sent))
        .count();
    if unconfirmed > 0 {
        return Err(net(format!(
            "the hub at {} went away before it confirmed {unconfirmed} of the documents sent; nothing is lost here, sync again",
            hub.url
        )));
    }
    Ok(())
}

/// The refused keys that may be dropped from `volumes`: never the key of an event the log
/// holds (a bad value put beside a genuine event's, under its key).
pub(super) fn held_back(
    store: &Store,
    names: &layout::Names,
    volumes: impl IntoIterator<Item = VolumeId>,
    mut dropped: Vec<String>,
) -> Result<Vec<String>, SyncError> {
    if dropped.is_empty() {
        return Ok(dropped);
    }
    for v in volumes {
        let held = layout::held_keys(store, names, v)?;
        dropped.retain(|k| !held.contains(k));
    }
    Ok(dropped)
}

/// Pushes a mirror's documents (its index and volumes, as they are) to the hub at `url`, and
/// waits until the hub holds them. For tests and tools that put documents on a hub without a
/// ledger (a forger, in the tests).
pub fn push(url: &str, m: &mut Mirror, timeout: Duration) -> Result<(), SyncError> {
    let places = Places::of(m.ring());
    let rt = runtime()?;
    rt.block_on(async {
        let storage = ShelfStorage::new(None);
        let mut ids = vec![places.index()];
        storage.hold(&ids[0], m.index.save(), Vec::new()).await;
        for (v, d) in m.volumes.iter_mut() {
            let id = places.volume(*v);
            storage.hold(&id, d.save(), Vec::new()).await;
            ids.push(id);
        }
        let repo = campaign_repo(places, storage, true).await;
        let conn = dial(&repo, url, timeout, &Refusal::default()).await?;
        for id in ids {
            if let Some(h) = find(&repo, id).await? {
                within(
                    timeout,
                    url,
                    "taking our changes",
                    h.they_have_our_changes(conn),
                )
                .await?;
            }
        }
        repo.stop().await;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use uuid::Uuid;

    fn device(n: u8) -> DeviceId {
        DeviceId(Uuid::from_bytes([n; 16]))
    }

    fn v(d: u8, number: u32) -> VolumeId {
        VolumeId {
            device: device(d),
            number,
        }
    }

    fn plan(listed: &[(VolumeId, u64)], ours: &[(VolumeId, u64)], short: &[VolumeId]) -> Plan {
        Plan {
            listed: listed.iter().copied().collect(),
            ours: ours.iter().copied().collect(),
            short: short.iter().copied().collect(),
            own: device(1),
            opening: false,
        }
    }

    /// Equal counts are not exchanged, but this device's latest volume always is, and one
    /// another device found short that this one holds whole.
    #[test]
    fn the_plan_exchanges_what_differs_and_this_devices_latest() {
        let p = plan(
            &[
                (v(1, 0), 4096),
                (v(1, 1), 3),
                (v(2, 0), 10),
                (v(3, 0), 5),
                (v(4, 0), 8),
            ],
            &[
                (v(1, 0), 4096),
                (v(1, 1), 3),
                (v(2, 0), 7),
                (v(3, 0), 5),
                (v(4, 0), 8),
            ],
            &[v(3, 0)],
        );
        assert_eq!(p.wanted(), vec![v(1, 1), v(2, 0), v(3, 0)]);
    }

    /// A long-lived line's first round opens every device's latest volume (equal counts
    /// too), and no closed volume a later one follows; later rounds only what differs.
    #[test]
    fn a_lines_first_round_opens_every_devices_latest_volume() {
        let mut p = plan(
            &[
                (v(1, 0), 4096),
                (v(1, 1), 3),
                (v(2, 0), 4096),
                (v(2, 1), 4096),
                (v(2, 2), 12),
                (v(3, 0), 5),
                (v(4, 0), 8),
            ],
            &[
                (v(1, 0), 4096),
                (v(1, 1), 3),
                (v(2, 0), 4096),
                (v(2, 1), 4096),
                (v(2, 2), 12),
                (v(3, 0), 5),
                (v(4, 0), 7),
                (v(5, 0), 1),
            ],
            &[],
        );
        assert_eq!(p.wanted(), vec![v(1, 1), v(4, 0), v(5, 0)]);
        p.opening = true;
        assert_eq!(
            p.wanted(),
            vec![v(1, 1), v(2, 2), v(3, 0), v(4, 0), v(5, 0)]
        );
    }

    /// What the hub lists beyond this ledger and did not give is a gap, flagged for a device
    /// that holds it; a raised count of this device's own volume is told, never flagged; a
    /// short flag this device answered goes.
    #[test]
    fn the_plan_reports_what_the_hub_withheld() {
        let p = plan(
            &[(v(1, 0), 9), (v(2, 0), 10), (v(3, 0), 5), (v(5, 0), 2)],
            &[(v(1, 0), 7), (v(2, 0), 7), (v(3, 0), 5)],
            &[v(3, 0)],
        );
        let wanted = p.wanted();
        let unfound = p.unfound(&wanted, &[v(1, 0), v(2, 0), v(3, 0)]);
        assert_eq!(unfound, vec![v(5, 0)]);
        let held = |x: &VolumeId| p.ours.get(x).copied().unwrap_or(0);
        let (gaps, flags) = p.gaps(&[v(1, 0), v(2, 0), v(3, 0)], held, &unfound);
        assert_eq!(gaps.len(), 3, "{gaps:?}");
        assert!(gaps[0]
            .contains("lists 9 events of this device's volume 0, but this device recorded 7"));
        assert!(gaps[1].contains("lists 10 events of device") && gaps[1].contains("but gave 7"));
        assert!(gaps[2].contains("did not give the volume"));
        assert_eq!(
            flags,
            vec![(v(2, 0), true), (v(3, 0), false), (v(5, 0), true)]
        );
    }
}
