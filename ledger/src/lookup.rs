//! Finding what a front end names: a character by its name (of any system, or of the one a
//! rule is for) and an injury by its id or the end of it. Every front end (the terminal's
//! commands, the board, the players' page, the stories) names things the same way and is
//! refused with the same typed [`Lookup`], which names no command: a front end adds its own
//! hint.

use leechbook_core::fold::{CharacterState, Ledger};
use leechbook_core::harnmaster::state::{HmCharacter, Injury};
use leechbook_core::ids::InjuryId;
use leechbook_core::savage::SwCharacter;
use leechbook_core::witch::WiCharacter;
use leechbook_core::wrath::WgCharacter;
use leechbook_core::SystemId;

/// Why a name or an id found nothing, or more than one thing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Lookup {
    /// The campaign has no character by that name; `known` are the names it has.
    #[error("no character named '{name}'{}", known_names(.known))]
    NoCharacter {
        /// The name given.
        name: String,
        /// Every name the campaign has (held or not), in its roll's order.
        known: Vec<String>,
    },
    /// The campaign has the character, but the state read for this service does not hold
    /// it (a bug of the service that chose what to read).
    #[error("{0} was not loaded for this service")]
    NotLoaded(String),
    /// The character is of another rules system than the rule asked for.
    #[error("{name} is not a {} character", title(*.wanted))]
    OtherSystem {
        /// The character's name.
        name: String,
        /// The system the rule is for.
        wanted: SystemId,
    },
    /// No injury of the character matches the text.
    #[error("{character} has no injury '{text}'{}", open_list(.open))]
    NoInjury {
        /// The character's name.
        character: String,
        /// What was given.
        text: String,
        /// Their open injuries, as a person names them (`left forearm S2B`).
        open: Vec<String>,
    },
    /// Several open injuries are at the place named.
    #[error("{character} has several injuries at '{text}': name one ({})", .candidates.join(", "))]
    SeveralAt {
        /// The character's name.
        character: String,
        /// What was given.
        text: String,
        /// Each, as a person names it, with its short id (`left forearm S2B 1a2b3c4d`).
        candidates: Vec<String>,
    },
    /// Several injuries end with the digits given.
    #[error("injury '{text}' matches several of {character}'s injuries: give more of its id")]
    AmbiguousInjury {
        /// The character's name.
        character: String,
        /// What was given.
        text: String,
    },
    /// None was named and none fits what the rule is for.
    #[error("{character} has no injury to {what}")]
    NoInjuryTo {
        /// The character's name.
        character: String,
        /// What the injury would be for ("stop", "treat" ...).
        what: String,
    },
    /// None was named and several fit.
    #[error("{character} has several injuries to {what}: name one ({})", .candidates.join(", "))]
    SeveralInjuriesTo {
        /// The character's name.
        character: String,
        /// What the injury would be for.
        what: String,
        /// The short ids of those that fit.
        candidates: Vec<String>,
    },
}

/// A system's name as its text writes it.
pub fn title(system: SystemId) -> &'static str {
    match system {
        SystemId::HarnMaster => "HârnMaster",
        SystemId::SavageWorlds => "Savage Worlds",
        SystemId::WrathGlory => "Wrath & Glory",
        SystemId::WitchIron => "Witch Iron",
    }
}

fn known_names(known: &[String]) -> String {
    if known.is_empty() {
        ": the campaign has none yet".into()
    } else {
        format!(" (the campaign has: {})", known.join(", "))
    }
}

/// Finds a character of any system by name.
pub fn character<'a>(ledger: &'a Ledger, name: &str) -> Result<&'a CharacterState, Lookup> {
    ledger
        .character_named(name)
        .ok_or_else(|| unknown(ledger, name))
}

/// Why no character named `name` is at hand: the campaign has none by that name (its roll
/// of names lists them all, held or not), or it was not read.
fn unknown(ledger: &Ledger, name: &str) -> Lookup {
    if ledger.id_named(name).is_some() {
        return Lookup::NotLoaded(name.to_string());
    }
    Lookup::NoCharacter {
        name: name.to_string(),
        known: ledger.roll().iter().map(|(_, n)| n.clone()).collect(),
    }
}

fn other(c: &CharacterState, wanted: SystemId) -> Lookup {
    Lookup::OtherSystem {
        name: c.name().to_string(),
        wanted,
    }
}

/// Finds a HârnMaster character by name.
pub fn harnmaster<'a>(ledger: &'a Ledger, name: &str) -> Result<&'a HmCharacter, Lookup> {
    match character(ledger, name)? {
        CharacterState::HarnMaster(c) => Ok(c),
        c => Err(other(c, SystemId::HarnMaster)),
    }
}

/// Finds a Savage Worlds character by name.
pub fn savage<'a>(ledger: &'a Ledger, name: &str) -> Result<&'a SwCharacter, Lookup> {
    match character(ledger, name)? {
        CharacterState::SavageWorlds(c) => Ok(c),
        c => Err(other(c, SystemId::SavageWorlds)),
    }
}

/// Finds a Wrath & Glory character by name.
pub fn wrath<'a>(ledger: &'a Ledger, name: &str) -> Result<&'a WgCharacter, Lookup> {
    match character(ledger, name)? {
        CharacterState::WrathGlory(c) => Ok(c),
        c => Err(other(c, SystemId::WrathGlory)),
    }
}

/// Finds a Witch Iron character by name.
pub fn witch<'a>(ledger: &'a Ledger, name: &str) -> Result<&'a WiCharacter, Lookup> {
    match character(ledger, name)? {
        CharacterState::WitchIron(c) => Ok(c),
        c => Err(other(c, SystemId::WitchIron)),
    }
}

/// Finds an injury of `ch` by its full id or the end of it (four digits or more); the
/// healed injuries of its archive are found too (the rules refuse them as healed).
pub fn injury(ch: &HmCharacter, text: &str) -> Result<InjuryId, Lookup> {
    // A wound is named by its place when that is unambiguous (`thorax`, `left forearm`),
    // else by its id or the id's last digits.
    let place = text.trim().to_ascii_lowercase();
    let at: Vec<&Injury> = ch
        .injuries
        .iter()
        .filter(|i| !i.healed())
        .filter(|i| {
            i.place.label().eq_ignore_ascii_case(&place)
                || i.place.location.eq_ignore_ascii_case(&place)
                || format!("{} {}", i.place.label(), i.code()).eq_ignore_ascii_case(&place)
                || ch.injury_name(i.id).eq_ignore_ascii_case(&place)
        })
        .collect();
    // A name that tells one wound apart (`left calf S2E (2)`) names that one.
    if let Some(one) = at
        .iter()
        .find(|i| ch.injury_name(i.id).eq_ignore_ascii_case(&place) && at.len() > 1)
    {
        return Ok(one.id);
    }
    match at.as_slice() {
        [one] => return Ok(one.id),
        // None open there: a healed one of the archive (where it is held) by its place.
        [] => {
            let healed: Vec<&Injury> = ch
                .archive
                .filed()
                .map(|a| &a.injury)
                .filter(|i| {
                    i.place.label().eq_ignore_ascii_case(&place)
                        || i.place.location.eq_ignore_ascii_case(&place)
                })
                .collect();
            if let [one] = healed.as_slice() {
                return Ok(one.id);
            }
        }
        many => {
            return Err(Lookup::SeveralAt {
                character: ch.name.clone(),
                text: text.to_string(),
                candidates: many.iter().map(|i| injury_name(ch, i.id)).collect(),
            })
        }
    }
    let t = text.trim().to_ascii_lowercase().replace('-', "");
    let hits: Vec<InjuryId> = ch
        .injuries
        .iter()
        .map(|i| i.id)
        .chain(ch.archived.iter().map(|f| f.id))
        .filter(|id| {
            let full = id.0.simple().to_string();
            full == t || (t.len() >= 4 && full.ends_with(&t))
        })
        .collect();
    match hits.as_slice() {
        [one] => Ok(*one),
        [] => Err(no_injury(ch, text)),
        _ => Err(Lookup::AmbiguousInjury {
            character: ch.name.clone(),
            text: text.to_string(),
        }),
    }
}

/// The injury named, or, when none is named, the only open injury that `fits` (to `what`:
/// "stop", "treat" ...).
pub fn injury_or_only(
    ch: &HmCharacter,
    named: Option<&str>,
    what: &str,
    fits: impl Fn(&Injury) -> bool,
) -> Result<InjuryId, Lookup> {
    if let Some(n) = named {
        return injury(ch, n);
    }
    let hits: Vec<InjuryId> = ch
        .injuries
        .iter()
        .filter(|i| fits(i))
        .map(|i| i.id)
        .collect();
    match hits.as_slice() {
        [one] => Ok(*one),
        [] => Err(Lookup::NoInjuryTo {
            character: ch.name.clone(),
            what: what.to_string(),
        }),
        many => Err(Lookup::SeveralInjuriesTo {
            character: ch.name.clone(),
            what: what.to_string(),
            candidates: many.iter().map(|i| injury_name(ch, *i)).collect(),
        }),
    }
}

/// How a person names the open injury `id` of `ch`, as [`injury`] finds it (see
/// `HmCharacter::injury_name`).
pub fn injury_name(ch: &HmCharacter, id: InjuryId) -> String {
    ch.injury_name(id)
}

/// `ch` has no injury `text`: the refusal names the open ones as a person names them.
pub fn no_injury(ch: &HmCharacter, text: &str) -> Lookup {
    Lookup::NoInjury {
        character: ch.name.clone(),
        text: text.to_string(),
        open: ch
            .injuries
            .iter()
            .filter(|i| !i.healed())
            .map(|i| format!("{} {}", i.place.label(), i.code()))
            .collect(),
    }
}

/// ` (open: a, b)`, or ` (no open injury)`.
fn open_list(open: &[String]) -> String {
    if open.is_empty() {
        " (no open injury)".into()
    } else {
        format!(" (open: {})", open.join(", "))
    }
}
