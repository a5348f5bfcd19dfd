//! GM-only characters on the wire: which events only the GM's devices read, and how their
//! entries travel.
//!
//! An event only about GM-only characters (their creation, their own rolls and decisions,
//! where they stand, their secrecy) or a ruling on one is **sealed for the GM**: its entry,
//! sealed under the campaign's key like every other (so a hub sees one size class among the
//! rest), holds a [`STUB`]: the numbers every device checks a chain by, in clear to the
//! campaign (its id, device, number, clock, its link and the link it follows), then the
//! envelope sealed again under the GM's ring (`Keyring::gm`), which only the roster's GM
//! devices hold. A device that holds the GM's ring opens the envelope and takes the event
//! in; any other keeps the stub (`leechbook_store::Sealed`): the number counts as held, the
//! device's chain is followed across it by the links it states (the next number's signature
//! vouches for its link), and the stub is offered on as it came.
//!
//! What decides is the GM device's record as it stands when the entry is put: a character
//! revealed has every entry put again openly; one hidden later has its later events sealed
//! (what the players' devices held before stays theirs).

use crate::crypt::Keyring;
use crate::SyncError;
use leechbook_core::ids::{CharacterId, DeviceId, EventId};
use leechbook_core::ruling::Ruling;
use leechbook_core::{Envelope, Event};
use leechbook_store::{codec, ReadLog, Sealed, Store};
use std::collections::{BTreeSet, HashSet};

/// The first byte of an entry's plaintext that is sealed for the GM (an encoded envelope's
/// is its codec byte, 1).
pub const STUB: u8 = 0xE5;

/// The numbers a stub states before its sealed part: id, device, number, clock, link, and
/// whether it follows a link (then that link).
const STATED: usize = 16 + 16 + 8 + 8 + 32 + 1 + 32;

/// Which events of a ledger are sealed for the GM.
#[derive(Clone, Debug, Default)]
pub struct Sealing {
    /// The GM-only characters, as the record stands.
    secret: BTreeSet<CharacterId>,
    /// The events sealed for the GM.
    ids: HashSet<EventId>,
}

impl Sealing {
    /// None sealed (a ledger without GM-only characters, or a test's mirror).
    pub fn none() -> Sealing {
        Sealing::default()
    }

    /// The events of `store`'s log sealed for the GM, as its record stands: every event of a
    /// GM-only character that touches no other (its creation among them), and every ruling
    /// on one of those.
    pub fn of(store: &Store) -> Result<Sealing, SyncError> {
        let secret = secret_characters(store)?;
        let mut s = Sealing {
            secret,
            ids: HashSet::new(),
        };
        if s.secret.is_empty() {
            return Ok(s);
        }
        for c in s.secret.clone() {
            s.ids.insert(EventId(c.0));
            for env in store.events_about(Some(c))? {
                if s.only_secret(&env.event) {
                    s.ids.insert(env.id);
                }
            }
        }
        for env in store.rulings_and_targets()? {
            s.judge(&env);
        }
        Ok(s)
    }

    /// Whether there is anything to seal.
    pub fn is_empty(&self) -> bool {
        self.secret.is_empty()
    }

    /// Whether the event `id` is sealed for the GM.
    pub fn seals(&self, id: EventId) -> bool {
        self.ids.contains(&id)
    }

    /// Takes in events the log gained since (in the total order of their recording): each
    /// sealed as it is judged. A change of secrecy among them judges the whole log again;
    /// returns the events no longer sealed (a character revealed), to be put again openly.
    pub fn update(
        &mut self,
        store: &Store,
        gained: &[Envelope],
    ) -> Result<Vec<EventId>, SyncError> {
        if gained
            .iter()
            .any(|e| matches!(e.event, Event::Secret { .. }))
        {
            let now = Sealing::of(store)?;
            let open: Vec<EventId> = self.ids.difference(&now.ids).copied().collect();
            *self = now;
            return Ok(open);
        }
        if !self.is_empty() {
            for e in gained {
                self.judge(e);
            }
        }
        Ok(Vec::new())
    }

    /// Judges one event, sealing it if it is only about GM-only characters or rules on a
    /// sealed event.
    fn judge(&mut self, env: &Envelope) {
        let sealed = match &env.event {
            Event::CharacterAdded { .. } => self.secret.contains(&CharacterId(env.id.0)),
            Event::Ruling(Ruling::Override { character, .. }) => self.secret.contains(character),
            Event::Ruling(r) => r.target().is_some_and(|t| self.ids.contains(&t)),
            e => self.only_secret(e),
        };
        if sealed {
            self.ids.insert(env.id);
        }
    }

    fn only_secret(&self, e: &Event) -> bool {
        let touched = e.characters();
        !touched.is_empty() && touched.iter().all(|c| self.secret.contains(c))
    }
}

/// The GM-only characters as the record stands: each secrecy event in the order, but those
/// a ruling struck.
fn secret_characters(store: &Store) -> Result<BTreeSet<CharacterId>, SyncError> {
    let events = store.secrecy_events()?;
    if events.is_empty() {
        return Ok(BTreeSet::new());
    }
    let rulings = leechbook_core::ruling::Rulings::from_log(&store.rulings_and_targets()?);
    let mut secret = BTreeSet::new();
    for e in &events {
        if rulings.retracted.contains_key(&e.id) {
            continue;
        }
        if let Event::Secret {
            character,
            secret: s,
        } = e.event
        {
            if s {
                secret.insert(character);
            } else {
                secret.remove(&character);
            }
        }
    }
    Ok(secret)
}

/// The plaintext of `env`'s entry sealed for the GM under `gm`: the stated numbers, then
/// the envelope sealed under the GM's ring (unpadded: the campaign's seal around it pads).
pub fn stub(env: &Envelope, gm: &Keyring, filed_under: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(1 + STATED + 512);
    out.push(STUB);
    out.extend_from_slice(env.id.0.as_bytes());
    out.extend_from_slice(env.device.as_bytes());
    out.extend_from_slice(&env.seq.to_le_bytes());
    out.extend_from_slice(&env.clock.to_le_bytes());
    out.extend_from_slice(&codec::link_of(Some(env)));
    match codec::chain_link(env) {
        Some(l) => {
            out.push(1);
            out.extend_from_slice(&l);
        }
        None => out.extend_from_slice(&[0; 33]),
    }
    out.extend_from_slice(&gm.seal_bare(filed_under, &codec::encode_envelope(env)));
    out
}

/// Reads a stub's stated numbers (`plain` is the entry's plaintext, [`STUB`] first).
pub fn stated(plain: &[u8]) -> Option<Sealed> {
    let b = plain.strip_prefix(&[STUB])?;
    if b.len() < STATED {
        return None;
    }
    let id = EventId(uuid::Uuid::from_slice(&b[..16]).ok()?);
    let device = DeviceId(uuid::Uuid::from_slice(&b[16..32]).ok()?);
    let seq = u64::from_le_bytes(b[32..40].try_into().ok()?);
    let clock = u64::from_le_bytes(b[40..48].try_into().ok()?);
    let link: [u8; 32] = b[48..80].try_into().ok()?;
    let follows = match b[80] {
        0 => None,
        1 => Some(<[u8; 32]>::try_from(&b[81..113]).ok()?),
        _ => return None,
    };
    Some(Sealed {
        device,
        seq,
        id,
        clock,
        link,
        follows,
        entry: plain.to_vec(),
    })
}

/// Opens a stub's sealed part under the GM's ring: the envelope, checked against what the
/// stub states (a stub whose numbers lie about its envelope is refused), or `None` when
/// this ring does not open it.
pub fn open(plain: &[u8], gm: &Keyring, filed_under: &str) -> Option<Result<Envelope, String>> {
    let s = stated(plain)?;
    let sealed = &plain[1 + STATED..];
    let inner = gm.open(filed_under, sealed).ok()?;
    Some(match codec::decode_envelope(&inner) {
        Ok(env)
            if env.id == s.id
                && env.device == s.device
                && env.seq == s.seq
                && env.clock == s.clock
                && codec::link_of(Some(&env)) == s.link
                && codec::chain_link(&env) == s.follows =>
        {
            Ok(env)
        }
        Ok(_) => Err("its stated numbers are not its event's".to_string()),
        Err(e) => Err(e.to_string()),
    })
}

/// Whether `device`'s entries of numbers `seq` are within what any device writes (a stub's
/// stated numbers, which no signature checks).
pub fn in_bounds(s: &Sealed) -> bool {
    s.seq >= 1
        && s.seq <= leechbook_core::MAX_SEQ
        && s.clock >= s.seq
        && s.clock <= leechbook_core::MAX_CLOCK
}
