//! What a GM's amendment may correct in a Savage Worlds event ([`Amendable`]): every die's
//! chain of faces (`trait`, `wild`, `damage`, the Injury Table's `injury` and `sub`), the
//! trait's die, the modifier and the wounds healed.

use crate::{Chain, SwEvent, TraitRoll};
use leechbook_kernel::amend::{
    chains, faces, known, one_face, value, AmendError, Amendable, Correction, Field,
};

const NUMBER: &str = "a whole number";

fn roll_fields(r: &TraitRoll) -> Vec<Field> {
    vec![
        Field::chains("trait", [r.trait_die.faces.as_slice()]),
        Field::chains("wild", [r.wild_die.faces.as_slice()]),
        Field::input("trait-die", format!("d{}", r.trait_die.sides)),
        Field::input("mod", r.modifier),
    ]
}

fn correct_roll(r: &mut TraitRoll, field: &'static str, c: &Correction) -> Result<(), AmendError> {
    match field {
        "trait" => r.trait_die.faces = chains(field, c, 1)?.remove(0),
        "wild" => r.wild_die.faces = chains(field, c, 1)?.remove(0),
        "trait-die" => {
            let text = value::<String>(field, c, "a die")?;
            r.trait_die.sides = text
                .trim()
                .trim_start_matches(['d', 'D'])
                .parse::<u16>()
                .ok()
                .filter(|n| [4, 6, 8, 10, 12].contains(n))
                .ok_or(AmendError::Value {
                    name: field,
                    value: text,
                    expected: "a die of d4-d12",
                })?;
        }
        _ => r.modifier = value(field, c, NUMBER)?,
    }
    Ok(())
}

impl Amendable for SwEvent {
    fn fields(&self) -> Vec<Field> {
        match self {
            SwEvent::Damage { dice, modifier, .. } => vec![
                Field::chains("damage", dice.iter().map(|c| c.faces.as_slice())),
                Field::input("mod", modifier),
            ],
            SwEvent::SpiritRecovery { roll, .. } | SwEvent::BleedingOut { roll, .. } => {
                roll_fields(roll)
            }
            SwEvent::Incapacitation {
                roll, injury, sub, ..
            } => {
                let mut f = roll_fields(roll);
                f.push(Field::die("injury", injury));
                f.push(Field::die("sub", &[*sub]));
                f
            }
            // The healer is not corrected by a ruling: who may heal is checked as the roll
            // is recorded (their state, their wound penalty in `mod`); retract and record
            // again for another healer.
            SwEvent::Stabilise { roll, .. } => roll_fields(roll),
            SwEvent::WoundsHealed { count, .. } => vec![Field::input("wounds", count)],
            SwEvent::Attributes { .. } => vec![],
        }
    }

    fn correct(&mut self, name: &str, c: &Correction) -> Result<(), AmendError> {
        let fields = self.fields();
        let field = known(&fields, name, c)?.name;
        match self {
            SwEvent::Damage { dice, modifier, .. } => match field {
                "damage" => {
                    let new = chains(field, c, dice.len())?;
                    for (Chain { faces, .. }, f) in dice.iter_mut().zip(new) {
                        *faces = f;
                    }
                }
                _ => *modifier = value(field, c, NUMBER)?,
            },
            SwEvent::SpiritRecovery { roll, .. } | SwEvent::BleedingOut { roll, .. } => {
                correct_roll(roll, field, c)?
            }
            SwEvent::Incapacitation {
                roll, injury, sub, ..
            } => match field {
                "injury" => match faces(field, c)?.as_slice() {
                    [a, b] => *injury = [*a, *b],
                    got => {
                        return Err(AmendError::Count {
                            name: field,
                            wanted: 2,
                            got: got.len(),
                        })
                    }
                },
                "sub" => *sub = one_face(field, c)?,
                _ => correct_roll(roll, field, c)?,
            },
            SwEvent::Stabilise { roll, .. } => correct_roll(roll, field, c)?,
            SwEvent::WoundsHealed { count, .. } => *count = value(field, c, "a count of wounds")?,
            SwEvent::Attributes { .. } => unreachable!("an attributes event lists no field"),
        }
        Ok(())
    }
}
