//! Dice at the table: the `--dice` option, and a dice source that hands out the faces the GM
//! typed and rolls the rest (OS randomness, or `--seed` for reproducible runs) or, with
//! `--ask`, asks for each on standard input (physical dice), recording every face it handed
//! out.

use crate::error::CommandError;
use leechbook_core::dice::{DiceError, Die, RecordedDie, Roll};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Parses `--dice name=face[/face...],...` against the die names a command knows. `00` is
/// read as 100 (the d100's 00).
pub fn parse_dice(spec: Option<&str>, known: &[&str]) -> Result<Vec<RecordedDie>, CommandError> {
    let mut out: Vec<RecordedDie> = Vec::new();
    let Some(spec) = spec else { return Ok(out) };
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, faces) = part.split_once('=').ok_or_else(|| {
            CommandError::user(format!(
                "--dice '{part}': expected NAME=FACE (several faces as FACE/FACE)"
            ))
        })?;
        let name = name.trim().to_ascii_lowercase();
        if !known.contains(&name.as_str()) {
            return Err(CommandError::user(format!(
                "--dice: unknown die '{name}' (this command's dice: {})",
                known.join(", ")
            )));
        }
        if out.iter().any(|d| d.name == name) {
            return Err(CommandError::user(format!(
                "--dice: die '{name}' given twice"
            )));
        }
        let faces = faces
            .split('/')
            .map(|f| {
                let f = f.trim();
                if f == "00" {
                    return Ok(100);
                }
                f.parse::<u16>().map_err(|_| {
                    CommandError::user(format!("--dice: '{f}' is not a face of die '{name}'"))
                })
            })
            .collect::<Result<Vec<u16>, _>>()?;
        out.push(RecordedDie { name, faces });
    }
    Ok(out)
}

/// The random source for dice nobody gave.
pub fn rng(seed: Option<u64>) -> StdRng {
    match seed {
        Some(s) => StdRng::seed_from_u64(s),
        None => StdRng::from_os_rng(),
    }
}

/// `name=face/face` for each die of `dice` that Leechbook rolled (`rolled` names them), for
/// the "rolled by Leechbook" note.
pub use leechbook_ledger::owed::rolled_faces;

/// The one d100 a command records, named `name`: given in --dice, else rolled here (and the
/// roll said in a note).
pub fn one_d100(
    ctx: &mut crate::ctx::Ctx,
    given: Vec<RecordedDie>,
    name: &'static str,
) -> Result<u16, CommandError> {
    let mut r = roller(ctx, 0);
    let mut dice = TableDice::new("the roll", given, &mut r);
    let roll = dice.one(name, Die::D100)?;
    let rolled = !dice.rolled.is_empty();
    if rolled {
        ctx.note(format!("rolled by Leechbook: {name}={roll}"));
    }
    Ok(roll)
}

/// Where the faces nobody gave on the command line come from: rolled here, or (`--ask`)
/// asked for on standard input.
pub struct Roller {
    rng: StdRng,
    ask: bool,
}

/// The roller of a command: `--seed`, `--ask`. `offset` keeps a command's second stream
/// of rolls (a melee's strike after its attack) apart from its first under one seed.
pub fn roller(ctx: &crate::ctx::Ctx, offset: u64) -> Roller {
    Roller {
        rng: rng(ctx.seed.map(|s| s.wrapping_add(offset))),
        ask: ctx.ask,
    }
}

impl Roller {
    /// One face of `die` for the roll `label`: asked for or rolled.
    pub fn face(&mut self, label: &str, die: Die) -> Result<u16, leechbook_core::dice::DiceError> {
        if self.ask {
            ask_face(label, die)
        } else {
            Ok(self.rng.random_range(1..=die.sides()))
        }
    }
}

/// Asks for one face on standard input, the prompt on standard error; a word or a face the
/// die cannot show is refused and asked again (three tries). `00` is the d100's 100.
pub fn ask_face(label: &str, die: Die) -> Result<u16, leechbook_core::dice::DiceError> {
    use std::io::BufRead;
    let stdin = std::io::stdin();
    let no_face = |why: String| leechbook_core::dice::DiceError::NoFace {
        name: label.to_string(),
        die,
        why,
    };
    for _ in 0..3 {
        eprint!("{label} ({die}): ");
        let mut line = String::new();
        let n = stdin
            .lock()
            .read_line(&mut line)
            .map_err(|e| no_face(format!("reading standard input: {e}")))?;
        if n == 0 {
            return Err(no_face("standard input ended".into()));
        }
        let t = line.trim();
        let face = if t == "00" {
            Some(100)
        } else {
            t.parse::<u32>().ok()
        };
        match face.map(|f| die.check(label, f)) {
            Some(Ok(f)) => return Ok(f),
            Some(Err(e)) => eprintln!("{e}; try again"),
            None => eprintln!("'{t}' is not a face; try again"),
        }
    }
    Err(no_face("three answers were not faces of it".into()))
}

/// The table's dice: the kernel's [`Table`] over the faces given, rolled or asked for by the
/// command's [`Roller`].
pub use leechbook_core::dice::Table as TableDice;

/// The CLI's roller rolls (`--seed`) or asks on standard input (`--ask`).
impl Roll for Roller {
    fn face(&mut self, name: &'static str, die: Die) -> Result<u16, DiceError> {
        Roller::face(self, name, die)
    }

    fn rolls(&self) -> bool {
        !self.ask
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use leechbook_core::dice::DiceSource;

    #[test]
    fn dice_specs_parse_and_fail_clearly() {
        let d = parse_dice(
            Some("zone=2, location=7/3,shock=00"),
            &["zone", "location", "shock"],
        )
        .unwrap();
        assert_eq!(d[1].faces, vec![7, 3]);
        assert_eq!(d[2].faces, vec![100]);
        let e = parse_dice(Some("zone2"), &["zone"]).unwrap_err();
        assert!(e.message.contains("expected NAME=FACE"));
        let e = parse_dice(Some("zon=2"), &["zone"]).unwrap_err();
        assert!(e.message.contains("unknown die 'zon'"));
        let e = parse_dice(Some("zone=x"), &["zone"]).unwrap_err();
        assert!(e.message.contains("'x' is not a face"));
        assert!(parse_dice(Some("zone=1,zone=2"), &["zone"]).is_err());
    }

    #[test]
    fn given_faces_are_checked_and_missing_ones_rolled() {
        let mut r = Roller {
            rng: rng(Some(1)),
            ask: false,
        };
        let given = parse_dice(Some("zone=7"), &["zone"]).unwrap();
        let mut t = TableDice::new("the roll", given, &mut r);
        assert!(t.faces("zone", Die::D6, 1).is_err(), "a d6 never shows 7");
        let f = t.faces("shock", Die::D100, 1).unwrap();
        assert!((1..=100).contains(&f[0]));
        assert_eq!(t.rolled, vec!["shock"]);
    }
}
