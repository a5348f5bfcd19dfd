//! What a GM's amendment may correct in a Witch Iron event ([`Amendable`]): a Quarrel's Hits
//! and its Charge, Brace, Giving Ground and fumbles, the strike's part, units die, weapon
//! damage, AV, RB, critical d6s and battle wear; an injury's part, units die and Net Damage;
//! the end-of-round d6 and the Hardship Quarrel's Hits; a condition's change.

use crate::{Strike, WiEvent};
use leechbook_kernel::amend::{
    faces, known, one_face, value, AmendError, Amendable, Correction, Field,
};

const NUMBER: &str = "a whole number";
const FLAG: &str = "true or false";

fn face_u8(field: &'static str, c: &Correction) -> Result<u8, AmendError> {
    let f = one_face(field, c)?;
    u8::try_from(f).map_err(|_| AmendError::Value {
        name: field,
        value: f.to_string(),
        expected: "a face of the units die (1-10)",
    })
}

fn none_or<T: std::fmt::Display>(v: &Option<T>) -> String {
    v.as_ref().map_or("none".into(), T::to_string)
}

fn strike_fields(s: &Strike) -> Vec<Field> {
    vec![
        Field::die("units", &[u16::from(s.units)]),
        Field::die("critical", &s.critical),
        Field::die("dent", s.dent_armour.as_slice()),
        Field::input("part", &s.part),
        Field::input("weapon-damage", s.weapon_damage),
        Field::input("av", s.av),
        Field::input("rb", s.rb),
        Field::input("clip-weapon", s.clip_weapon),
    ]
}

fn correct_strike(s: &mut Strike, field: &'static str, c: &Correction) -> Result<(), AmendError> {
    match field {
        "units" => s.units = face_u8(field, c)?,
        "critical" => s.critical = faces(field, c)?,
        "dent" => s.dent_armour = Some(one_face(field, c)?),
        "part" => s.part = value::<String>(field, c, "a part")?.trim().to_string(),
        "weapon-damage" => s.weapon_damage = value(field, c, NUMBER)?,
        "av" => s.av = value(field, c, NUMBER)?,
        "rb" => s.rb = value(field, c, NUMBER)?,
        _ => s.clip_weapon = value(field, c, FLAG)?,
    }
    Ok(())
}

impl Amendable for WiEvent {
    fn fields(&self) -> Vec<Field> {
        match self {
            WiEvent::Quarrel {
                attack_hits,
                defence_hits,
                charge,
                brace,
                give_ground,
                attacker_fumble,
                defender_fumble,
                strike,
                ..
            } => {
                let mut f = vec![
                    Field::input("attack-hits", attack_hits),
                    Field::input("defence-hits", defence_hits),
                    Field::input("charge", charge),
                    Field::input("brace", brace),
                    Field::input("give-ground", give_ground),
                    Field::input("attacker-fumble", attacker_fumble),
                    Field::input("defender-fumble", defender_fumble),
                ];
                f.extend(strike.iter().flat_map(strike_fields));
                f
            }
            WiEvent::Injure {
                part,
                units,
                net_damage,
                ..
            } => vec![
                Field::die("units", &[u16::from(*units)]),
                Field::input("part", part),
                Field::input("net-damage", net_damage),
            ],
            WiEvent::EndOfRound {
                d6, hardship_hits, ..
            } => vec![
                Field::die("d6", &[*d6]),
                Field::input("hardship-hits", none_or(hardship_hits)),
            ],
            WiEvent::Condition { delta, .. } => vec![Field::input("delta", none_or(delta))],
            WiEvent::TableDefined(_) | WiEvent::Cared { .. } => vec![],
        }
    }

    fn correct(&mut self, name: &str, c: &Correction) -> Result<(), AmendError> {
        let fields = self.fields();
        let field = known(&fields, name, c)?.name;
        match self {
            WiEvent::Quarrel {
                attack_hits,
                defence_hits,
                charge,
                brace,
                give_ground,
                attacker_fumble,
                defender_fumble,
                strike,
                ..
            } => match field {
                "attack-hits" => *attack_hits = value(field, c, NUMBER)?,
                "defence-hits" => *defence_hits = value(field, c, NUMBER)?,
                "charge" => *charge = value(field, c, FLAG)?,
                "brace" => *brace = value(field, c, FLAG)?,
                "give-ground" => *give_ground = value(field, c, FLAG)?,
                "attacker-fumble" => *attacker_fumble = value(field, c, FLAG)?,
                "defender-fumble" => *defender_fumble = value(field, c, FLAG)?,
                _ => match strike {
                    Some(s) => correct_strike(s, field, c)?,
                    None => return Err(AmendError::NotHere(field)),
                },
            },
            WiEvent::Injure {
                part,
                units,
                net_damage,
                ..
            } => match field {
                "units" => *units = face_u8(field, c)?,
                "part" => *part = value::<String>(field, c, "a part")?.trim().to_string(),
                _ => *net_damage = value(field, c, NUMBER)?,
            },
            WiEvent::EndOfRound {
                d6, hardship_hits, ..
            } => match field {
                "d6" => *d6 = one_face(field, c)?,
                _ => {
                    let text = value::<String>(field, c, NUMBER)?;
                    *hardship_hits = match text.trim() {
                        "none" => None,
                        _ => Some(value(field, c, "a whole number, or none")?),
                    }
                }
            },
            WiEvent::Condition { delta, .. } => {
                let text = value::<String>(field, c, NUMBER)?;
                *delta = match text.trim() {
                    "none" => None,
                    _ => Some(value(field, c, "a whole number, or none (removes it)")?),
                }
            }
            WiEvent::TableDefined(_) | WiEvent::Cared { .. } => {
                unreachable!("an event that lists no field takes no correction")
            }
        }
        Ok(())
    }
}
