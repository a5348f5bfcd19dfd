//! The checks of each event as `verify` passes it ([`Checker`]): its columns, number,
//! clock, chain and signature, and the devices' chains followed across the entries held
//! sealed for the GM.

use super::class_word;
use crate::LedgerError;
use leechbook_core::ids::{DeviceId, EventId};
use leechbook_core::roster::Roster;
use leechbook_core::Envelope;
use leechbook_store::{Columns, ReadLog, Store};
use std::collections::{BTreeMap, HashMap};

/// What `verify` holds of one device's events as the stream passes them.
#[derive(Default)]
pub(super) struct Chain {
    last_seq: u64,
    last_clock: u64,
    last_id: Option<EventId>,
    /// The link the next number must sign (zeros before the first).
    last_link: [u8; 32],
    /// Whether `last_link` was hashed from the stored payload
    /// (`leechbook_store::codec::link_of_stored`): if the next number names another link,
    /// the link of the event encoded as this build encodes it is tried too.
    last_from_payload: bool,
    /// The device's last event streamed.
    last: Option<Envelope>,
    /// Whether `last`'s signature awaits a later event's vouching (it is on the roster, and
    /// no later event of its chain has vouched for it yet).
    pending: bool,
}

impl Chain {
    /// Whether `link`, which the next number signs, names the last event.
    fn names_last(&self, link: [u8; 32]) -> bool {
        link == self.last_link
            || (self.last_from_payload
                && self
                    .last
                    .as_ref()
                    .is_some_and(|e| leechbook_store::codec::link_of(Some(e)) == link))
    }
}

/// The checks of each event as `verify` passes it, in the total order: its columns against
/// its payload, its number, clock and chain link against its device's previous, and its
/// signature where no later link of its chain vouches for it. Shared by the full stream
/// and the incremental check of the events since the last verify.
pub(super) struct Checker<'a> {
    roster: &'a Roster,
    own: (DeviceId, [u8; 32]),
    devices: HashMap<DeviceId, Chain>,
    /// Devices whose numbers or clocks do not follow one another in the stream (a gap, a
    /// number used twice, an event dated back): named event by event at the end.
    irregular: std::collections::BTreeSet<DeviceId>,
    found: Vec<String>,
    /// Events of other devices on a ledger with no roster (made before rosters): no key to
    /// check them against, which the report says.
    unchecked: usize,
    /// How many events the stream has handed over.
    events: u64,
    /// The numbers out of bounds (told once, and left out of the numbering's check).
    forged: std::collections::HashSet<(DeviceId, u64)>,
    /// Events whose clock ran ahead of the events streamed before them: told at the end if
    /// it runs ahead of the whole log too.
    ahead: Vec<(EventId, DeviceId, u64, u64)>,
    /// The numbers held as entries sealed for the GM (a GM-only character's events on a
    /// player's device): a device's chain is followed across them by the links they state.
    sealed: HashMap<(DeviceId, u64), leechbook_store::Sealed>,
}

/// A device's number as held before the events checked: its clock, its id and its link.
pub(super) type Held = (u64, EventId, [u8; 32]);

impl<'a> Checker<'a> {
    pub(super) fn new(roster: &'a Roster, own: (DeviceId, [u8; 32])) -> Checker<'a> {
        Checker {
            roster,
            own,
            devices: HashMap::new(),
            irregular: Default::default(),
            found: Vec::new(),
            unchecked: 0,
            events: 0,
            forged: Default::default(),
            ahead: Vec::new(),
            sealed: HashMap::new(),
        }
    }

    /// The checker, following chains across the entries sealed for the GM that `store`
    /// holds.
    pub(super) fn across_sealed(mut self, store: &Store) -> Result<Checker<'a>, LedgerError> {
        self.sealed = store
            .sealed_numbers()?
            .into_iter()
            .map(|s| ((s.device, s.seq), s))
            .collect();
        Ok(self)
    }

    /// Why the roster (or, on a ledger without one, its own key) does not vouch for `e`.
    fn signature(&self, e: &Envelope) -> Option<String> {
        if self.roster.in_use() {
            leechbook_store::codec::signature_problem(self.roster, e)
        } else if e.device == self.own.0 && !leechbook_store::codec::verify(e, &self.own.1) {
            Some(format!(
                "event {} whose signature does not match its bytes (tampered or forged)",
                e.id.short()
            ))
        } else {
            None
        }
    }

    /// Checks one event. `held` gives a device's number held before the events checked
    /// (the incremental check starts from what the last verify passed).
    pub(super) fn event(
        &mut self,
        env: Envelope,
        columns: Columns<'_>,
        mut held: impl FnMut(DeviceId, u64) -> Option<Held>,
    ) {
        let derived = Columns::of(&env.event);
        if columns.kind != derived.kind {
            self.found.push(format!(
                "event {}: its kind column says {}, its payload is {}",
                env.id, columns.kind, derived.kind
            ));
        }
        if columns.character != derived.character {
            self.found.push(format!(
                "event {}: its character column disagrees with its payload",
                env.id
            ));
        }
        if columns.class != derived.class {
            self.found.push(format!(
                "event {}: its class column says it is {}, its payload that it is {} (the roster's \
                 and the rulings' reads would {} it)",
                env.id,
                class_word(columns.class),
                class_word(derived.class),
                if derived.class == 1 { "miss" } else { "read" },
            ));
        }
        if !self.roster.in_use() && env.device != self.own.0 {
            self.unchecked += 1;
        }
        // Time and order: numbers and times within the span any device writes (a number
        // beyond its clock is told once as its signer's forgery, never as the numbers
        // missing before it), and a clock no further ahead than the events there are.
        self.events += 1;
        if let Some(b) = env.out_of_bounds() {
            self.found.push(format!(
                "event {}: device {}'s #{} is out of bounds: {b} (the fold voids it)",
                env.id,
                env.device.short(),
                env.seq
            ));
            self.forged.insert((env.device, env.seq));
            return;
        }
        // (Kept when ahead of what was streamed so far; judged at the end against the log.)
        if env.clock > leechbook_core::clock_ceiling(self.events) {
            self.ahead.push((env.id, env.device, env.seq, env.clock));
        }
        let stored = columns
            .payload
            .and_then(|p| leechbook_store::codec::link_of_stored(&env, p));
        let link = stored.unwrap_or_else(|| leechbook_store::codec::link_of(Some(&env)));
        if let std::collections::hash_map::Entry::Vacant(slot) = self.devices.entry(env.device) {
            let mut chain = Chain::default();
            if let Some((clock, id, link)) =
                env.seq.checked_sub(1).and_then(|s| held(env.device, s))
            {
                chain.last_seq = env.seq - 1;
                chain.last_clock = clock;
                chain.last_id = Some(id);
                chain.last_link = link;
            }
            slot.insert(chain);
        }
        let Some(chain) = self.devices.get_mut(&env.device) else {
            return;
        };
        // Numbers held sealed for the GM stand between: followed by the links they state
        // (the next event's signature vouches for the last one's link). The event before
        // them is then checked by its own signature.
        let mut bridged = false;
        while chain.last_seq + 1 < env.seq {
            let Some(s) = self.sealed.get(&(env.device, chain.last_seq + 1)) else {
                break;
            };
            if s.clock <= chain.last_clock || s.follows.is_some_and(|f| f != chain.last_link) {
                break;
            }
            chain.last_seq = s.seq;
            chain.last_clock = s.clock;
            chain.last_id = Some(s.id);
            chain.last_link = s.link;
            bridged = true;
        }
        let regular = chain.last_seq + 1 == env.seq && chain.last_clock < env.clock;
        let vouched = !bridged
            && regular
            && match leechbook_store::codec::chain_link(&env) {
                Some(l) if chain.names_last(l) => true,
                Some(_) => {
                    self.found.push(format!(
                        "event {}: device {}'s #{} does not follow its #{} ({}): its signed chain names another event (a replaced event, or a copied ledger's other branch)",
                        env.id,
                        env.device.short(),
                        env.seq,
                        env.seq - 1,
                        chain.last_id.map_or("none".to_string(), |i| i.to_string())
                    ));
                    false
                }
                None => false,
            };
        if !regular {
            self.irregular.insert(env.device);
        }
        let on_roster = !self.roster.in_use() || self.roster.key(env.device).is_some();
        let device = env.device;
        chain.last_seq = env.seq;
        chain.last_clock = env.clock;
        chain.last_id = Some(env.id);
        chain.last_link = link;
        chain.last_from_payload = stored.is_some();
        let was_pending = std::mem::replace(&mut chain.pending, on_roster);
        let prev = chain.last.replace(env);
        // The previous number's signature is checked unless this event vouches for it.
        if let Some(prev) = prev.filter(|_| was_pending && !vouched) {
            if let Some(why) = self.signature(&prev) {
                self.found.push(format!("event {}: {why}", prev.id));
            }
        }
        if !on_roster {
            // Not on the roster: named once per event, whatever its chain.
            let env = self.devices[&device].last.as_ref();
            if let Some(why) = env.and_then(|e| self.signature(e).map(|why| (e.id, why))) {
                self.found.push(format!("event {}: {}", why.0, why.1));
            }
        }
    }

    /// The heads: each device's last event checked vouches for its chain by its own
    /// signature. A head that does not check out vouches for nothing: its device's events are
    /// checked one by one; so are the numbers of a device found irregular. Returns every
    /// problem found, then a line for what could not be checked (none when all was).
    pub(super) fn finish(
        mut self,
        store: &impl ReadLog,
    ) -> Result<(Vec<String>, Option<String>), LedgerError> {
        // The whole log's rows bound its count (a plain verify streams only the new ones).
        // (and the numbers held sealed for the GM, numbers of the campaign all the same).
        let held = self
            .events
            .max(u64::try_from(store.last_row()?).unwrap_or(0))
            + self.sealed.len() as u64;
        let top = leechbook_core::clock_ceiling(held);
        for (id, device, seq, clock) in std::mem::take(&mut self.ahead) {
            if clock > top {
                self.found.push(format!(
                    "event {id}: device {}'s #{seq} has clock {clock}, beyond what the log's {held} events can reach (at most {top}): its signer forged it",
                    device.short()
                ));
                // Told once, as its forgery: never also as numbers missing before it.
                self.forged.insert((device, seq));
            }
        }
        let unchecked = (self.unchecked > 0).then(|| {
            format!(
                "not checked: the signatures of {} events of other devices (this ledger has no roster, made before rosters: only this device's key is known)",
                self.unchecked
            )
        });
        let mut untrusted = Vec::new();
        let heads: Vec<Envelope> = self
            .devices
            .values_mut()
            .filter_map(|c| std::mem::take(&mut c.pending).then(|| c.last.take())?)
            .collect();
        for head in heads {
            if let Some(why) = self.signature(&head) {
                self.found.push(format!("event {}: {why}", head.id));
                untrusted.push(head.device);
            }
        }
        if !untrusted.is_empty() || !self.irregular.is_empty() {
            let mut by_device: BTreeMap<DeviceId, Vec<Envelope>> = BTreeMap::new();
            store.for_each_event(|e| {
                if untrusted.contains(&e.device) || self.irregular.contains(&e.device) {
                    by_device.entry(e.device).or_default().push(e);
                }
                Ok(())
            })?;
            for (device, events) in &by_device {
                if untrusted.contains(device) {
                    for e in events.iter().take(events.len().saturating_sub(1)) {
                        if let Some(why) = self.signature(e) {
                            self.found.push(format!("event {}: {why}", e.id));
                        }
                    }
                }
                if self.irregular.contains(device) {
                    let numbered: Vec<Envelope> = events
                        .iter()
                        .filter(|e| !self.forged.contains(&(e.device, e.seq)))
                        .cloned()
                        .collect();
                    self.found
                        .extend(crate::numbering::sequence_problems(&numbered));
                }
            }
            self.found.sort();
            self.found.dedup();
        }
        Ok((self.found, unchecked))
    }
}
