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
use leechbook_store::OrderKey;
use leechbook_store::{codec, ReadLog, Sealed, Store};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The first byte of an entry's plaintext that is sealed for the GM (an encoded envelope's
/// is its codec byte, 1).
pub const STUB: u8 = 0xE5;

/// The numbers a stub states before its sealed part: id, device, number, clock, link, and
/// whether it follows a link (then that link).
const STATED: usize = 16 + 16 + 8 + 8 + 32 + 1 + 32;

/// Which events of a ledger are sealed for the GM.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sealing {
    /// The GM-only characters as the record stands, each with the moment it became so (the
    /// order key of its secrecy event) and whether that was at its creation.
    secret: BTreeMap<CharacterId, Since>,
    /// The events sealed for the GM.
    ids: HashSet<EventId>,
    /// The events about the GM-only characters, each with the characters it touches and
    /// whether it is a secrecy event: what a ruling on one is judged by.
    about: HashMap<EventId, (Vec<CharacterId>, bool)>,
}

/// Since when a character is GM-only: the order key of the event that made it so, and
/// whether that event came with its creation (`character add --gm-only`: its device's next
/// number).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Since {
    at: OrderKey,
    at_creation: bool,
}

impl Sealing {
    /// None sealed (a ledger without GM-only characters, or a test's mirror).
    pub fn none() -> Sealing {
        Sealing::default()
    }

    /// The events of `store`'s log sealed for the GM, as its record stands. A character is
    /// GM-only from its secrecy event on: the events only about it recorded after that event
    /// are sealed, and the rulings on those; a character added GM-only has its creation and
    /// its secrecy sealed too. A character hidden later keeps what came before in the open,
    /// its secrecy event too (so every device's fold refuses an event joining it with the
    /// table's from then, whoever records it); one revealed has nothing sealed.
    pub fn of(store: &Store) -> Result<Sealing, SyncError> {
        Sealing::since(store, secret_since(store)?)
    }

    fn since(store: &Store, secret: BTreeMap<CharacterId, Since>) -> Result<Sealing, SyncError> {
        let mut s = Sealing {
            secret,
            ids: HashSet::new(),
            about: HashMap::new(),
        };
        if s.secret.is_empty() {
            return Ok(s);
        }
        for (c, since) in s.secret.clone() {
            if since.at_creation {
                s.ids.insert(EventId(c.0));
            }
            for env in store.events_about(Some(c))? {
                let secrecy = matches!(env.event, Event::Secret { .. });
                s.about.insert(env.id, (env.event.characters(), secrecy));
                // A secrecy event is the table's (every fold must know who is GM-only from
                // when), but the one that came with the creation; a ruling is judged below.
                let at_creation = since.at_creation && env.order_key() == since.at;
                if (secrecy && !at_creation) || matches!(env.event, Event::Ruling(_)) {
                    continue;
                }
                let after = env.order_key() > since.at || at_creation;
                if after && s.only_secret(&env.event) {
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

    /// Takes in events the log gained since (in the order of their recording): each sealed
    /// as it is judged. A secrecy event or a ruling among them judges the whole log again;
    /// returns the events whose sealing changed (a character revealed, a secrecy struck), to
    /// be put again.
    pub fn update(
        &mut self,
        store: &Store,
        gained: &[Envelope],
    ) -> Result<Vec<EventId>, SyncError> {
        if gained
            .iter()
            .any(|e| matches!(e.event, Event::Secret { .. } | Event::Ruling(_)))
        {
            let now = Sealing::of(store)?;
            let changed = self.changed(&now);
            *self = now;
            return Ok(changed);
        }
        if !self.is_empty() {
            for e in gained {
                self.judge(e);
            }
        }
        Ok(Vec::new())
    }

    /// The events sealed by one of `self` and `other` and not the other.
    pub fn changed(&self, other: &Sealing) -> Vec<EventId> {
        self.ids.symmetric_difference(&other.ids).copied().collect()
    }

    /// Judges one event, sealing it if it is only about GM-only characters or rules on a
    /// sealed event.
    fn judge(&mut self, env: &Envelope) {
        let at = env.order_key();
        let after_all = |cs: &[CharacterId]| {
            !cs.is_empty()
                && cs
                    .iter()
                    .all(|c| self.secret.get(c).is_some_and(|s| at > s.at))
        };
        let sealed = match &env.event {
            Event::CharacterAdded { .. } => self.ids.contains(&env.id),
            // Who is GM-only from when is the table's.
            Event::Secret { .. } => false,
            Event::Ruling(Ruling::Override { character, .. }) => after_all(&[*character]),
            // A ruling on a sealed event, or made after the hide on an event only about the
            // GM-only characters; never one on a secrecy event.
            Event::Ruling(r) => r.target().is_some_and(|t| {
                self.ids.contains(&t)
                    || self
                        .about
                        .get(&t)
                        .is_some_and(|(cs, secrecy)| !secrecy && after_all(cs))
            }),
            e => self.only_secret(e) && after_all(&e.characters()),
        };
        if sealed {
            self.ids.insert(env.id);
        }
    }

    fn only_secret(&self, e: &Event) -> bool {
        let touched = e.characters();
        !touched.is_empty() && touched.iter().all(|c| self.secret.contains_key(c))
    }

    /// What the sealing was judged from, as bytes a shelf keeps: each GM-only character and
    /// since when. A shelf opened later compares it with the record's, and puts again the
    /// entries whose sealing changed meanwhile (a reveal recorded while no sync ran).
    pub fn summary(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.secret.len() * 49);
        for (c, s) in &self.secret {
            out.extend_from_slice(c.0.as_bytes());
            out.extend_from_slice(&s.at.0.to_le_bytes());
            out.extend_from_slice(s.at.1.as_bytes());
            out.extend_from_slice(&s.at.2.to_le_bytes());
            out.push(u8::from(s.at_creation));
        }
        out
    }

    /// The sealing a [`Sealing::summary`] was judged from, judged again over `store`'s log
    /// (`None` when the bytes do not read).
    pub fn of_summary(store: &Store, b: &[u8]) -> Result<Option<Sealing>, SyncError> {
        if b.len() % 49 != 0 {
            return Ok(None);
        }
        let mut secret = BTreeMap::new();
        for c in b.chunks_exact(49) {
            let (Ok(id), Ok(device)) = (
                uuid::Uuid::from_slice(&c[..16]),
                uuid::Uuid::from_slice(&c[24..40]),
            ) else {
                return Ok(None);
            };
            let n = |r: &[u8]| u64::from_le_bytes(r.try_into().unwrap_or([0; 8]));
            secret.insert(
                CharacterId(id),
                Since {
                    at: (n(&c[16..24]), DeviceId(device), n(&c[40..48])),
                    at_creation: c[48] == 1,
                },
            );
        }
        Sealing::since(store, secret).map(Some)
    }
}

/// The GM-only characters as the record stands, and since when: each secrecy event in the
/// order, but those a ruling struck.
fn secret_since(store: &Store) -> Result<BTreeMap<CharacterId, Since>, SyncError> {
    let events = store.secrecy_events()?;
    if events.is_empty() {
        return Ok(BTreeMap::new());
    }
    let rulings = leechbook_core::ruling::Rulings::from_log(&store.rulings_and_targets()?);
    let roster = leechbook_core::roster::Roster::from_log(&store.roster_events()?);
    let mut secret: BTreeMap<CharacterId, Since> = BTreeMap::new();
    for e in &events {
        // What the fold voids counts for nothing: struck, from a device the roster does not
        // let record it, hiding a character a player's device plays, or about no character.
        if rulings.retracted.contains_key(&e.id) || roster.allows(e).is_err() {
            continue;
        }
        let Event::Secret {
            character,
            secret: s,
        } = e.event
        else {
            continue;
        };
        if !s {
            secret.remove(&character);
            continue;
        }
        if secret.contains_key(&character) || roster.plays(character) {
            continue;
        }
        let Some(created) = store
            .events_with_id_suffix(&character.0.simple().to_string())?
            .into_iter()
            .find(|(id, _)| id.0 == character.0)
            .and_then(|(_, (_, d, seq))| store.events_numbered(d, seq, seq).ok()?.pop())
        else {
            continue;
        };
        // Made GM-only with its creation: in its transaction, the creating device's next
        // number at the same wall time (a hide is a later command).
        let at_creation =
            created.device == e.device && created.seq + 1 == e.seq && created.wall == e.wall;
        secret.insert(
            character,
            Since {
                at: e.order_key(),
                at_creation,
            },
        );
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

/// Whether a stub's stated number and clock are within what any device writes (they are
/// stated, and no signature checks them).
pub fn in_bounds(s: &Sealed) -> bool {
    s.seq >= 1
        && s.seq <= leechbook_core::MAX_SEQ
        && s.clock >= s.seq
        && s.clock <= leechbook_core::MAX_CLOCK
}
