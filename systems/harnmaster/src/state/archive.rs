//! A character's archive: the healed injuries no rule reads again, filed out of the
//! character so that a recording costs what it touches. The character keeps what is filed
//! (enough to name it in a refusal); the records themselves are read from the store only by
//! the views that list them.

use super::{Aspect, HealState, HmCharacter, Injury, OrderKey, Place};
use crate::ids::InjuryId;
use crate::time::CampaignTime;
use serde::{Deserialize, Serialize};

/// A healed injury filed in the archive, as the character keeps it: enough to name it in a
/// refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Filed {
    /// The injury's id.
    pub id: InjuryId,
    /// The highest Injury Level it reached.
    pub worst: u8,
    /// Its aspect.
    pub aspect: Aspect,
}

impl Filed {
    /// What the character keeps of `inj` once it is filed.
    pub fn of(inj: &Injury) -> Filed {
        Filed {
            id: inj.id,
            worst: inj.worst,
            aspect: inj.aspect,
        }
    }

    /// The injury as an event that names it sees it: healed, with its id and code (the
    /// record itself is in the archive).
    pub fn as_healed(&self) -> Injury {
        Injury {
            id: self.id,
            place: Place {
                location: String::new(),
                side: None,
                zone: String::new(),
                kind: None,
            },
            aspect: self.aspect,
            area: false,
            projectile: false,
            level: 0,
            worst: self.worst,
            location_shock: 0,
            bleeder: false,
            severed: false,
            impaled: false,
            shock_roll_succeeded: false,
            inflicted_at: CampaignTime::START,
            heal: HealState::default(),
            n: 0,
        }
    }
}

/// One archived injury's whole record, and the event that filed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Archived {
    /// The order key of the event after which it was filed.
    pub since: OrderKey,
    /// The injury as it was filed (it never changes while filed).
    pub injury: Injury,
    /// The order key of the GM's decree that reopened it, if one did: the record stays, as
    /// what the archive held from `since` until then (a checkpoint of that time lists it).
    pub reopened: Option<OrderKey>,
}

/// The archived injuries' records a character holds in memory.
#[derive(Clone, Debug, Default)]
pub struct Archive {
    /// Whether every record is held: a character folded from the start holds them all; one
    /// read from the projection or a checkpoint holds none until they are read
    /// (`leechbook-ledger` reads them for the views that list them).
    pub held: bool,
    /// The records, in the order filed (only those filed since it was read, when not held),
    /// with the reopened ones a fold met.
    pub records: Vec<Archived>,
}

impl Archive {
    /// The records of the injuries filed now (not reopened), in the order filed.
    pub fn filed(&self) -> impl DoubleEndedIterator<Item = &Archived> {
        self.records.iter().filter(|a| a.reopened.is_none())
    }
}

/// A character's archive taken out of it (its records, its list of what is filed, and
/// whether the records are all held), to be put back ([`HmCharacter::put_archive`]).
#[derive(Debug, Default)]
pub struct TakenArchive {
    records: Vec<Archived>,
    archived: Vec<Filed>,
    held: bool,
}

impl HmCharacter {
    /// Fills the archive and the list of what is filed from the records filed at the moment
    /// read (`latest`: for each injury its latest record, in any order), then those it
    /// filed since it was read, and marks the records held.
    pub fn fill_archive(&mut self, latest: Vec<(OrderKey, Injury)>) {
        let since_read = std::mem::take(&mut self.archive.records);
        let mut records: Vec<Archived> = latest
            .into_iter()
            .map(|(since, injury)| Archived {
                since,
                injury,
                reopened: None,
            })
            .collect();
        // The order the fold filed them in: by the event that filed them, then as they
        // stood among the character's injuries (the order inflicted).
        records.sort_by_key(|a| (a.since, a.injury.n));
        self.archived = records.iter().map(|a| Filed::of(&a.injury)).collect();
        for a in since_read {
            if a.reopened.is_none() {
                self.archived.push(Filed::of(&a.injury));
            }
            records.push(a);
        }
        self.archive.records = records;
        self.archive.held = true;
    }

    /// Takes the archive out (the records, the list of what is filed and whether the
    /// records are held), leaving none: the state without it, as a checkpoint's entry
    /// holds it.
    pub fn take_archive(&mut self) -> TakenArchive {
        TakenArchive {
            records: std::mem::take(&mut self.archive.records),
            archived: std::mem::take(&mut self.archived),
            held: std::mem::replace(&mut self.archive.held, false),
        }
    }

    /// Puts back an archive [`HmCharacter::take_archive`] took.
    pub fn put_archive(&mut self, taken: TakenArchive) {
        self.archive.records = taken.records;
        self.archived = taken.archived;
        self.archive.held = taken.held;
    }

    /// Gives this character (a copy kept before the event at `key`) the records as they
    /// stood then, taken from `now` (the same character later, under rulings that agree
    /// before `key`, so it filed the same records by then, in the order of the log): those
    /// filed before `key`, with the reopenings from it on undone. `now` is left without
    /// records.
    pub fn archive_before(&mut self, now: &mut HmCharacter, key: OrderKey) {
        let mut records = std::mem::take(&mut now.archive.records);
        records.truncate(records.partition_point(|a| a.since < key));
        for a in records.iter_mut() {
            if a.reopened.is_some_and(|r| r >= key) {
                a.reopened = None;
            }
        }
        self.archive.records = records;
    }
}

/// Two archives are the same when they hold the same records of the injuries filed now: a
/// reopened record is history kept for the store, which a read of the archive at a later
/// moment does not bring back.
impl PartialEq for Archive {
    fn eq(&self, other: &Archive) -> bool {
        self.held == other.held && self.filed().eq(other.filed())
    }
}

impl Eq for Archive {}
