//! What a GM's amendment may correct in a recorded event: the faces of its dice and its
//! inputs, each by the name the event's system gives it. One trait ([`Amendable`]), which
//! every system's events implement, so that a ruling corrects an event of any system the
//! same way and the fold re-derives what follows from the corrected event.

use crate::dice::RecordedDie;

/// What a correction names, and the value it gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Correction {
    /// The faces the dice of one name showed: each die's chain of faces in the order rolled
    /// (one face for a die that does not ace; `[[6, 6, 2], [4]]` for two acing dice).
    Faces(Vec<Vec<u16>>),
    /// An input's value, as the GM typed it (`12`, `true`, `d10+3`, `left`).
    Value(String),
}

/// One thing an event records that a correction may name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Its name (`roll`, `wild`, `av`, `net-damage`).
    pub name: &'static str,
    /// A die (corrected by its faces) or an input (by a value).
    pub die: bool,
    /// Its value as recorded, in words (`4`, `6,3`, `d10+3`, `none`).
    pub now: String,
}

impl Field {
    /// A die of the event and the faces it recorded (one each).
    pub fn die(name: &'static str, faces: &[u16]) -> Field {
        Field {
            name,
            die: true,
            now: faces
                .iter()
                .map(u16::to_string)
                .collect::<Vec<_>>()
                .join("/"),
        }
    }

    /// Dice of the event that ace, and the chain each recorded (`6+2/4`).
    pub fn chains<'a>(name: &'static str, chains: impl IntoIterator<Item = &'a [u16]>) -> Field {
        Field {
            name,
            die: true,
            now: chains
                .into_iter()
                .map(|c| c.iter().map(u16::to_string).collect::<Vec<_>>().join("+"))
                .collect::<Vec<_>>()
                .join("/"),
        }
    }

    /// An input of the event and its value.
    pub fn input(name: &'static str, now: impl std::fmt::Display) -> Field {
        Field {
            name,
            die: false,
            now: now.to_string(),
        }
    }
}

/// Why a correction does not fit the event.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AmendError {
    /// The event records nothing of that name.
    #[error("records no {what} '{name}' (it records: {})", .known.join(", "))]
    Unknown {
        /// `die` or `input`.
        what: &'static str,
        /// The name given.
        name: String,
        /// What it records, by name.
        known: Vec<&'static str>,
    },
    /// A value that does not read as the field's.
    #[error("takes {expected} as {name}, not '{value}'")]
    Value {
        /// The field.
        name: &'static str,
        /// What was given.
        value: String,
        /// What it takes, in words (`a whole number`, `true or false`).
        expected: &'static str,
    },
    /// A die that records one face given several (or none).
    #[error("records one {0} face: give one")]
    OneFace(&'static str),
    /// A die that does not ace given a chain of faces, or dice given no face.
    #[error("takes one face per {0} die (only Savage Worlds dice ace, as 6+2)")]
    NoChain(&'static str),
    /// Acing dice given a different number of dice than they were rolled with.
    #[error("rolled {wanted} {name} dice, not {got}")]
    Count {
        /// The field.
        name: &'static str,
        /// The dice the event rolled.
        wanted: usize,
        /// The dice given.
        got: usize,
    },
    /// The field exists but this event does not use it (a rolled aim on an entered location).
    #[error("has no {0} to amend")]
    NotHere(&'static str),
}

/// A recorded event a ruling may correct. Implemented by every system's event type; an event
/// that records neither dice nor inputs lists no fields and takes no correction.
pub trait Amendable {
    /// What it records that a correction may name, with each value as recorded.
    fn fields(&self) -> Vec<Field>;
    /// Applies one correction to the field `name`.
    fn correct(&mut self, name: &str, c: &Correction) -> Result<(), AmendError>;
}

/// The faces the die `name` recorded among `dice` (none if it did not record it).
pub fn recorded<'a>(dice: &'a [RecordedDie], name: &str) -> &'a [u16] {
    dice.iter()
        .find(|d| d.name == name)
        .map_or(&[], |d| d.faces.as_slice())
}

/// Sets the faces of the die `name` among `dice`, adding it if the event did not record it
/// (the fold then says whether its sequence reads it).
pub fn set_die(dice: &mut Vec<RecordedDie>, name: &str, faces: Vec<u16>) {
    match dice.iter_mut().find(|d| d.name == name) {
        Some(d) => d.faces = faces,
        None => dice.push(RecordedDie {
            name: name.to_string(),
            faces,
        }),
    }
}

/// The field of `fields` named `name`, as a correction of kind `c` needs it, or why not.
pub fn known<'a>(fields: &'a [Field], name: &str, c: &Correction) -> Result<&'a Field, AmendError> {
    let die = matches!(c, Correction::Faces(_));
    fields
        .iter()
        .find(|f| f.name == name && f.die == die)
        .ok_or_else(|| AmendError::Unknown {
            what: if die { "die" } else { "input" },
            name: name.to_string(),
            known: fields
                .iter()
                .filter(|f| f.die == die)
                .map(|f| f.name)
                .collect(),
        })
}

/// The faces a correction gives dice that do not ace: one per die.
pub fn faces(name: &'static str, c: &Correction) -> Result<Vec<u16>, AmendError> {
    match c {
        Correction::Faces(f) if !f.is_empty() && f.iter().all(|c| c.len() == 1) => {
            Ok(f.iter().map(|c| c[0]).collect())
        }
        Correction::Faces(_) => Err(AmendError::NoChain(name)),
        Correction::Value(_) => Err(AmendError::OneFace(name)),
    }
}

/// The one face a single die's correction gives.
pub fn one_face(name: &'static str, c: &Correction) -> Result<u16, AmendError> {
    match faces(name, c)?.as_slice() {
        [f] => Ok(*f),
        _ => Err(AmendError::OneFace(name)),
    }
}

/// The chains a correction gives `wanted` acing dice (each a non-empty chain).
pub fn chains(
    name: &'static str,
    c: &Correction,
    wanted: usize,
) -> Result<Vec<Vec<u16>>, AmendError> {
    match c {
        Correction::Faces(f) if f.iter().any(Vec::is_empty) => Err(AmendError::NoChain(name)),
        Correction::Faces(f) if f.len() == wanted => Ok(f.clone()),
        Correction::Faces(f) => Err(AmendError::Count {
            name,
            wanted,
            got: f.len(),
        }),
        Correction::Value(_) => Err(AmendError::OneFace(name)),
    }
}

/// An input's value read as `T` (`expected` says what it takes, in words).
pub fn value<T: std::str::FromStr>(
    name: &'static str,
    c: &Correction,
    expected: &'static str,
) -> Result<T, AmendError> {
    let s = match c {
        Correction::Value(s) => s,
        Correction::Faces(f) => {
            return Err(AmendError::Value {
                name,
                value: format!("{f:?}"),
                expected,
            })
        }
    };
    s.trim().parse().map_err(|_| AmendError::Value {
        name,
        value: s.clone(),
        expected,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_correction_names_a_field_of_its_kind_or_is_refused_with_the_known_ones() {
        let fields = vec![Field::die("roll", &[40]), Field::input("ml", 55)];
        let three = Correction::Faces(vec![vec![3]]);
        assert_eq!(known(&fields, "roll", &three).map(|f| f.name), Ok("roll"));
        // An input named as a die is not that die.
        let e = known(&fields, "ml", &three).unwrap_err();
        assert_eq!(e.to_string(), "records no die 'ml' (it records: roll)");
        let two = Correction::Faces(vec![vec![1], vec![2]]);
        assert_eq!(one_face("roll", &two), Err(AmendError::OneFace("roll")));
        // A chain is an acing die's: a d100 takes none.
        let chain = Correction::Faces(vec![vec![6, 2]]);
        assert_eq!(one_face("roll", &chain), Err(AmendError::NoChain("roll")));
        assert_eq!(chains("trait", &chain, 1), Ok(vec![vec![6, 2]]));
        assert!(matches!(
            chains("damage", &chain, 2),
            Err(AmendError::Count {
                wanted: 2,
                got: 1,
                ..
            })
        ));
        assert_eq!(
            value::<i32>("ml", &Correction::Value(" 61 ".into()), "a whole number"),
            Ok(61)
        );
        assert!(value::<i32>("ml", &Correction::Value("x".into()), "a whole number").is_err());
    }
}
