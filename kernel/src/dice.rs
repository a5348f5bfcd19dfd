//! Dice as values: the die, the face it showed, and dice expressions such as `d10+3` or `2d6`.
//!
//! The kernel never rolls. A face arrives from the table (typed in by the GM) or from the CLI's
//! random source, and is checked here: a d6 never shows 7. The d100 shows 1-100, with the
//! physical "00" entered as 100.
//!
//! A sequence asks a [`DiceSource`] for the faces of the dice it names. When the GM records
//! an event, the CLI's source hands out the faces given on the command line and rolls the
//! rest; the faces actually used are stored in the event as [`RecordedDie`]s. When the fold
//! replays the event, [`RecordedDice`] (or [`Replayed`], which also tells whether every
//! recorded die was read) hands the same faces back: replaying the log never rolls again and
//! always reaches the same outcome, whatever the rules system.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Dice sizes Leechbook accepts. d3 exists for the Healing Sequence's d3+3 period option.
pub const SIZES: [u16; 8] = [3, 4, 6, 8, 10, 12, 20, 100];

/// A single die with a number of sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Die(u16);

/// What is wrong with a die, a face or a dice expression.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// The die size is not one Leechbook knows.
    #[error("there is no d{0} (dice are d3, d4, d6, d8, d10, d12, d20 and d100)")]
    UnknownSize(u32),
    /// A face outside the die's range.
    #[error("die '{name}' is a {die}: it shows 1-{max}, not {face}")]
    FaceOutOfRange {
        /// The die's name in the sequence (`zone`, `shock`, ...).
        name: String,
        /// The die.
        die: Die,
        /// Its highest face.
        max: u16,
        /// The face given.
        face: u32,
    },
    /// The wrong number of faces for a die that rolls several.
    #[error("die '{name}' needs {want} face(s) ({die}), got {got}")]
    WrongCount {
        /// The die's name.
        name: String,
        /// The die.
        die: Die,
        /// How many faces it needs.
        want: usize,
        /// How many were given.
        got: usize,
    },
    /// The source of faces could not give one (the player asked for it gave none).
    #[error("no face for die '{name}' ({die}): {why}")]
    NoFace {
        /// The die's name.
        name: String,
        /// The die.
        die: Die,
        /// Why not.
        why: String,
    },
    /// A dice expression that does not parse.
    #[error("'{0}' is not a dice expression (like d10, d10+3, 2d6-1 or 4)")]
    BadExpression(String),
    /// A die the sequence needs has no recorded face.
    #[error("the event needs die '{name}' ({die}), which was not recorded")]
    NotRecorded {
        /// The die's name.
        name: &'static str,
        /// The die.
        die: Die,
    },
    /// A recorded die the sequence never read (replay reads every face it records).
    #[error("the event records die '{0}', which the sequence does not use")]
    Unused(String),
    /// Faces given for dice the sequence never asked for, when it was recorded: a face meant
    /// for another roll, never silently dropped.
    #[error("{what} did not need the given {} die(s): {} (give only the dice it rolls)", .names.len(), .names.join(", "))]
    NotNeeded {
        /// What was recorded, in words ("the strike").
        what: &'static str,
        /// The dice given and not asked for.
        names: Vec<String>,
    },
}

impl Die {
    /// Returns the die with `sides` sides, if Leechbook knows it.
    pub fn new(sides: u16) -> Result<Die, DiceError> {
        if SIZES.contains(&sides) {
            Ok(Die(sides))
        } else {
            Err(DiceError::UnknownSize(sides.into()))
        }
    }

    /// The d6.
    pub const D6: Die = Die(6);
    /// The d10.
    pub const D10: Die = Die(10);
    /// The d20.
    pub const D20: Die = Die(20);
    /// The d100 (percentile dice).
    pub const D100: Die = Die(100);

    /// Returns the number of sides.
    pub fn sides(self) -> u16 {
        self.0
    }

    /// Checks that `face` can show on this die and returns it.
    pub fn check(self, name: &str, face: u32) -> Result<u16, DiceError> {
        if face >= 1 && face <= u32::from(self.0) {
            Ok(face as u16)
        } else {
            Err(DiceError::FaceOutOfRange {
                name: name.to_string(),
                die: self,
                max: self.0,
                face,
            })
        }
    }

    /// Checks that `faces` are `count` faces this die can show, for the die named `name`.
    pub fn check_faces(self, name: &str, count: usize, faces: &[u16]) -> Result<(), DiceError> {
        if faces.len() != count {
            return Err(DiceError::WrongCount {
                name: name.into(),
                die: self,
                want: count,
                got: faces.len(),
            });
        }
        for &f in faces {
            self.check(name, f.into())?;
        }
        Ok(())
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.0)
    }
}

impl FromStr for Die {
    type Err = DiceError;
    fn from_str(s: &str) -> Result<Die, DiceError> {
        let t = s.trim().to_ascii_lowercase();
        let n = t
            .strip_prefix('d')
            .and_then(|n| n.parse::<u32>().ok())
            .ok_or_else(|| DiceError::BadExpression(s.to_string()))?;
        let sides = u16::try_from(n).map_err(|_| DiceError::UnknownSize(n))?;
        Die::new(sides).map_err(|_| DiceError::UnknownSize(n))
    }
}

/// A dice expression `NdX+M`: `count` dice of one size plus a modifier. `count` may be 0 for a
/// flat number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceExpr {
    /// How many dice.
    pub count: u8,
    /// Which die (ignored when `count` is 0).
    pub die: Die,
    /// The flat modifier.
    pub modifier: i32,
}

impl DiceExpr {
    /// Returns the total of the expression with the given faces, checked against the die.
    pub fn total(&self, name: &str, faces: &[u16]) -> Result<i32, DiceError> {
        if faces.len() != usize::from(self.count) {
            return Err(DiceError::WrongCount {
                name: name.to_string(),
                die: self.die,
                want: self.count.into(),
                got: faces.len(),
            });
        }
        let mut sum = self.modifier;
        for &f in faces {
            sum += i32::from(self.die.check(name, f.into())?);
        }
        Ok(sum)
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return write!(f, "{}", self.modifier);
        }
        if self.count > 1 {
            write!(f, "{}", self.count)?;
        }
        write!(f, "{}", self.die)?;
        match self.modifier {
            0 => Ok(()),
            m if m > 0 => write!(f, "+{m}"),
            m => write!(f, "{m}"),
        }
    }
}

impl FromStr for DiceExpr {
    type Err = DiceError;
    fn from_str(s: &str) -> Result<DiceExpr, DiceError> {
        let bad = || DiceError::BadExpression(s.to_string());
        let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        let t = t.to_ascii_lowercase();
        if t.is_empty() {
            return Err(bad());
        }
        if let Ok(flat) = t.parse::<i32>() {
            return Ok(DiceExpr {
                count: 0,
                die: Die::D6,
                modifier: flat,
            });
        }
        let d = t.find('d').ok_or_else(bad)?;
        let count: u8 = if d == 0 {
            1
        } else {
            t[..d].parse().map_err(|_| bad())?
        };
        if count == 0 || count > 20 {
            return Err(bad());
        }
        let rest = &t[d + 1..];
        let split = rest.find(['+', '-']).unwrap_or(rest.len());
        let sides: u32 = rest[..split].parse().map_err(|_| bad())?;
        let die = u16::try_from(sides)
            .map_err(|_| DiceError::UnknownSize(sides))
            .and_then(Die::new)
            .map_err(|_| DiceError::UnknownSize(sides))?;
        let modifier = if split == rest.len() {
            0
        } else {
            rest[split..].parse::<i32>().map_err(|_| bad())?
        };
        Ok(DiceExpr {
            count,
            die,
            modifier,
        })
    }
}

/// The faces one named die of a sequence showed. **Frozen format:** events of every system
/// embed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedDie {
    /// The die's name in the sequence (`zone`, `location`, `impact`, `shock`, ...).
    pub name: String,
    /// Its faces, in the order rolled.
    pub faces: Vec<u16>,
}

/// Hands out the faces of the dice a sequence needs.
pub trait DiceSource {
    /// Returns `count` faces of `die` for the die named `name`.
    fn faces(&mut self, name: &'static str, die: Die, count: usize) -> Result<Vec<u16>, DiceError>;
}

/// A [`DiceSource`] that keeps what it handed out: the source an event is decided with when
/// it is recorded. The rules run once, drawing their dice from it (faces given at the table,
/// the others rolled or asked for); then [`Drawing::drawn`] gives the faces, in the order
/// drawn, to record in the event, so that replaying it reads the same faces again.
pub trait Drawing: DiceSource {
    /// The faces drawn, each die under its name; refuses (naming them) dice given for the
    /// event that the sequence never asked for.
    fn drawn(&mut self) -> Result<Vec<RecordedDie>, DiceError>;
}

/// Where the faces of the dice nobody gave come from: a random source, or a person asked.
/// The kernel never rolls: the CLI's `Roller` is one.
pub trait Roll {
    /// One face of `die` for the die named `name`.
    fn face(&mut self, name: &'static str, die: Die) -> Result<u16, DiceError>;
    /// The faces are rolled by Leechbook (and said so), not typed in by a person.
    fn rolls(&self) -> bool;
}

/// The table's dice for one recording: hands out the faces given (checked against their
/// die), rolls or asks for the others, and keeps every die handed out, in order. The
/// [`Drawing`] an event is decided with as it is recorded, and the source of the rolls a
/// command records as an event's fields.
pub struct Table<'r> {
    what: &'static str,
    given: Vec<RecordedDie>,
    roll: &'r mut dyn Roll,
    /// Every die handed out, in order.
    pub recorded: Vec<RecordedDie>,
    /// The names of the dice rolled by Leechbook rather than given or typed in.
    pub rolled: Vec<&'static str>,
}

impl<'r> Table<'r> {
    /// The dice of `what` is recorded ("the strike", for a refusal of dice it did not need):
    /// the faces `given`, then `roll`.
    pub fn new(what: &'static str, given: Vec<RecordedDie>, roll: &'r mut dyn Roll) -> Table<'r> {
        Table {
            what,
            given,
            roll,
            recorded: Vec::new(),
            rolled: Vec::new(),
        }
    }

    /// One face of one die.
    pub fn one(&mut self, name: &'static str, die: Die) -> Result<u16, DiceError> {
        self.faces(name, die, 1).map(|f| f[0])
    }

    /// The names of the dice given that nothing asked for.
    pub fn unused(&self) -> Vec<String> {
        self.given
            .iter()
            .filter(|g| !self.recorded.iter().any(|r| r.name == g.name))
            .map(|g| g.name.clone())
            .collect()
    }

    /// Refuses the dice given that nothing asked for, naming them.
    pub fn refuse_unused(&self) -> Result<(), DiceError> {
        let names = self.unused();
        match names.is_empty() {
            true => Ok(()),
            false => Err(DiceError::NotNeeded {
                what: self.what,
                names,
            }),
        }
    }
}

impl DiceSource for Table<'_> {
    fn faces(&mut self, name: &'static str, die: Die, count: usize) -> Result<Vec<u16>, DiceError> {
        let faces = match self.given.iter().find(|g| g.name == name) {
            Some(g) => {
                die.check_faces(name, count, &g.faces)?;
                g.faces.clone()
            }
            None => {
                if self.roll.rolls() {
                    self.rolled.push(name);
                }
                (0..count)
                    .map(|_| self.roll.face(name, die))
                    .collect::<Result<Vec<u16>, _>>()?
            }
        };
        self.recorded.push(RecordedDie {
            name: name.into(),
            faces: faces.clone(),
        });
        Ok(faces)
    }
}

/// The faces drawn as the event was decided; dice given that it never asked for refuse it.
impl Drawing for Table<'_> {
    fn drawn(&mut self) -> Result<Vec<RecordedDie>, DiceError> {
        self.refuse_unused()?;
        Ok(self.recorded.clone())
    }
}

/// A [`DiceSource`] over faces recorded in an event.
pub struct RecordedDice<'a>(pub &'a [RecordedDie]);

impl DiceSource for RecordedDice<'_> {
    fn faces(&mut self, name: &'static str, die: Die, count: usize) -> Result<Vec<u16>, DiceError> {
        let rec = self
            .0
            .iter()
            .find(|d| d.name == name)
            .ok_or(DiceError::NotRecorded { name, die })?;
        die.check_faces(name, count, &rec.faces)?;
        Ok(rec.faces.clone())
    }
}

/// A [`DiceSource`] over faces recorded in an event that tells, when the sequence is done,
/// whether it read every die recorded: replay reads every face an event records, so an
/// event holding a die its sequence never asks for is refused, however it arrived (a
/// command refuses such a die before it records; an amendment or a synced event is refused
/// by the fold).
pub struct Replayed<'a> {
    dice: &'a [RecordedDie],
    asked: Vec<&'static str>,
}

impl<'a> Replayed<'a> {
    /// Over the faces `dice` recorded.
    pub fn new(dice: &'a [RecordedDie]) -> Replayed<'a> {
        Replayed {
            dice,
            asked: Vec::new(),
        }
    }

    /// Every recorded die was read.
    pub fn all_read(&self) -> Result<(), DiceError> {
        match self
            .dice
            .iter()
            .find(|d| !self.asked.contains(&d.name.as_str()))
        {
            Some(d) => Err(DiceError::Unused(d.name.clone())),
            None => Ok(()),
        }
    }
}

impl DiceSource for Replayed<'_> {
    fn faces(&mut self, name: &'static str, die: Die, count: usize) -> Result<Vec<u16>, DiceError> {
        self.asked.push(name);
        RecordedDice(self.dice).faces(name, die, count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_d6_never_shows_seven() {
        assert!(Die::D6.check("zone", 7).is_err());
        assert!(Die::D6.check("zone", 0).is_err());
        assert_eq!(Die::D6.check("zone", 6), Ok(6));
    }

    #[test]
    fn d100_shows_one_to_hundred() {
        assert_eq!(Die::D100.check("shock", 100), Ok(100));
        assert!(Die::D100.check("shock", 101).is_err());
    }

    #[test]
    fn expressions_parse_and_total() {
        let e: DiceExpr = "d10+3".parse().unwrap();
        assert_eq!((e.count, e.die, e.modifier), (1, Die::D10, 3));
        assert_eq!(e.total("impact", &[8]).unwrap(), 11);
        let e: DiceExpr = "2d6-1".parse().unwrap();
        assert_eq!(e.total("impact", &[3, 4]).unwrap(), 6);
        assert_eq!(e.to_string(), "2d6-1");
        assert!(e.total("impact", &[3]).is_err());
        assert!("d7".parse::<DiceExpr>().is_err());
        assert!("x".parse::<DiceExpr>().is_err());
        assert_eq!(
            "5".parse::<DiceExpr>()
                .unwrap()
                .total("impact", &[])
                .unwrap(),
            5
        );
    }

    /// Replay hands back exactly the recorded faces, and refuses a die it lacks, a wrong
    /// count, a face its die cannot show, and (through `Replayed`) a die never read.
    #[test]
    fn recorded_faces_come_back_and_nothing_else() {
        let rec = [
            RecordedDie {
                name: "zone".into(),
                faces: vec![4],
            },
            RecordedDie {
                name: "impact".into(),
                faces: vec![2, 6],
            },
        ];
        let mut dice = RecordedDice(&rec);
        assert_eq!(dice.faces("impact", Die::D6, 2), Ok(vec![2, 6]));
        assert_eq!(
            dice.faces("shock", Die::D100, 1),
            Err(DiceError::NotRecorded {
                name: "shock",
                die: Die::D100
            })
        );
        assert!(matches!(
            dice.faces("impact", Die::D6, 1),
            Err(DiceError::WrongCount {
                want: 1,
                got: 2,
                ..
            })
        ));
        assert!(matches!(
            dice.faces("zone", Die::new(3).unwrap(), 1),
            Err(DiceError::FaceOutOfRange {
                face: 4,
                max: 3,
                ..
            })
        ));
        let mut replayed = Replayed::new(&rec);
        assert_eq!(replayed.faces("zone", Die::D6, 1), Ok(vec![4]));
        assert_eq!(replayed.all_read(), Err(DiceError::Unused("impact".into())));
        replayed.faces("impact", Die::D6, 2).unwrap();
        assert_eq!(replayed.all_read(), Ok(()));
    }
}
