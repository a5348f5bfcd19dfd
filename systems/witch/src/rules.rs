//! The rules: an injury looked up in its part's table and suffered, a Quarrel's net hits,
//! and an event applied to the characters it concerns.

use crate::conditions::{rated, Care, Condition, MAX_CONDITION_STEP};
use crate::error::WiError;
use crate::events::{WiDefence, WiEvent};
use crate::outcome::{Injured, WiStep};
use crate::state::{WiCharacter, WiInjury};
use crate::tables::{effects, head, torso, Cell, PartTable};
use crate::time::CampaignTime;

/// Looks up an injury: the part's table, the location by the units die, the row by damage.
pub fn injury(
    tables: &[PartTable],
    part: &str,
    units: u8,
    net_damage: i32,
) -> Result<Option<(String, Cell)>, WiError> {
    let part_l = part.trim().to_ascii_lowercase();
    let (part_name, side) = match part_l.split_once(' ') {
        Some((s @ ("left" | "right"), p)) => (p.to_string(), Some(s)),
        _ => (part_l.clone(), None),
    };
    let table = match part_name.as_str() {
        "head" => head(),
        "torso" => torso(),
        "arm" | "leg" => tables
            .iter()
            .rev()
            .find(|t| t.part == part_name)
            .cloned()
            .ok_or_else(|| WiError::TableNotLoaded {
                part: part_name.clone(),
            })?,
        other => return Err(WiError::NotAPart(other.to_string())),
    };
    let units = if units == 0 { 10 } else { units };
    if !(1..=10).contains(&units) {
        return Err(WiError::UnitsDie(units));
    }
    if net_damage <= 0 {
        return Ok(None);
    }
    let l = table
        .locations
        .iter()
        .find(|l| l.units.contains(&units))
        .ok_or_else(|| WiError::NoLocation {
            part: part_name.clone(),
            units,
        })?;
    let lside = if l.sided {
        Some(if units == *l.units.iter().min().unwrap_or(&units) {
            "left"
        } else {
            "right"
        })
    } else {
        None
    };
    let name = match (side, lside) {
        (Some(s), _) | (None, Some(s)) => format!("{s} {}", l.name),
        _ => l.name.clone(),
    };
    let row = (net_damage.min(10) - 1) as usize;
    Ok(Some((name, l.rows[row].clone())))
}

/// Applies an injury's effects to the character.
pub(crate) fn suffer(
    ch: &mut WiCharacter,
    part: &str,
    location: String,
    net: i32,
    c: Cell,
    now: CampaignTime,
    round: i64,
) -> Injured {
    // Receiving damage removes Helpless (a marked Helpless is its injury's, and stays).
    ch.conditions.remove(&Condition::Helpless);
    for (effect, care) in effects(&c) {
        let marked = care.is_some();
        if let Some((cond, n)) = rated(&effect) {
            // A marked condition is held by the injury (WiInjury::held) until its care.
            if !marked {
                let loc = (cond == Condition::Trauma).then(|| location.clone());
                ch.add(cond, n, now, round, loc);
            }
        } else if effect == "Fall Prone" {
            ch.add(Condition::Prone, 1, now, round, None);
        } else if effect == "Dead" || effect == "Brain Dead" {
            ch.death = Some((format!("{}: {}", location, c.name), now));
        } else if effect == "Disarm" {
            // Momentary: the weapon is dropped; narrated, not a lasting loss.
        } else if !marked {
            ch.lost
                .push(effect.strip_prefix("Lost ").unwrap_or(&effect).to_string());
        }
    }
    let injured = Injured {
        location: location.clone(),
        net_damage: net,
        cell: c.clone(),
    };
    ch.injuries.push(WiInjury {
        part: part.into(),
        location,
        net_damage: net,
        cell: c,
        at: now,
        care: Vec::new(),
    });
    injured
}

/// Exploding d6 faces: every 6 but the last continues.
pub(crate) fn d6e(faces: &[u16]) -> Result<i32, WiError> {
    for (i, &f) in faces.iter().enumerate() {
        if !(1..=6).contains(&f) {
            return Err(WiError::CriticalFace(f));
        }
        let last = i + 1 == faces.len();
        if !last && f != 6 {
            return Err(WiError::OnlySixExplodes);
        }
        if last && f == 6 {
            return Err(WiError::CriticalExploded);
        }
    }
    Ok(faces.iter().map(|&f| i32::from(f)).sum())
}

/// What a Quarrel decided, read-only: net hits and who injures whom.
pub fn net_hits(
    attack: i32,
    defence: i32,
    charge: bool,
    brace: bool,
    give_ground: bool,
    d: WiDefence,
) -> i32 {
    let a = attack + if charge { 2 } else { 0 };
    let mut def = defence + if brace { 2 } else { 0 };
    if give_ground && d == WiDefence::LightFoot {
        def += 2;
    }
    a - def
}

/// Applies an event to the characters it concerns (the caller applies to copies, so an error
/// leaves nothing changed). `attacker` is the Quarrel's attacker when there is one.
pub fn apply(
    target: &mut WiCharacter,
    attacker: Option<&mut WiCharacter>,
    tables: &[PartTable],
    e: &WiEvent,
    now: CampaignTime,
    round: i64,
) -> Result<Vec<WiStep>, WiError> {
    if target.death.is_some() {
        return Err(WiError::Dead(target.name.clone()));
    }
    match e {
        WiEvent::Quarrel {
            defence,
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
            let att = attacker.ok_or(WiError::NoAttacker)?;
            if att.death.is_some() {
                return Err(WiError::Dead(att.name.clone()));
            }
            let net = net_hits(
                *attack_hits,
                *defence_hits,
                *charge,
                *brace,
                *give_ground,
                *defence,
            );
            let mut parts = vec![WiStep::Attacked {
                by: att.name.clone(),
                net_hits: net,
            }];
            // Giving Ground on two Checks in a row: Prone instead of the move (the +2 stays).
            let gives = *give_ground && *defence == WiDefence::LightFoot;
            let twice = gives && target.gave_ground;
            target.gave_ground = gives && !twice;
            att.gave_ground = false;
            if twice {
                target.add(Condition::Prone, 1, now, round, None);
                parts.push(WiStep::GaveGroundTwice {
                    who: target.name.clone(),
                });
            }
            if *attacker_fumble {
                att.add(Condition::Prone, 1, now, round, None);
                parts.push(WiStep::Fumbled {
                    who: att.name.clone(),
                });
            }
            if *defender_fumble {
                target.add(Condition::Prone, 1, now, round, None);
                parts.push(WiStep::Fumbled {
                    who: target.name.clone(),
                });
            }
            let (who, hits): (&mut WiCharacter, i32) = if net >= 0 {
                (&mut *target, net)
            } else if *defence == WiDefence::Melee && !*brace {
                (&mut *att, -net)
            } else {
                parts.push(WiStep::Dodged);
                return Ok(parts);
            };
            let s = strike.as_ref().ok_or(WiError::NoStrike)?;
            let crit = if s.critical.is_empty() {
                0
            } else {
                d6e(&s.critical)?
            };
            if let Some(d) = s.dent_armour {
                if !(1..=6).contains(&d) {
                    return Err(WiError::DentFace(d));
                }
            }
            let weapon = s.weapon_damage + i32::from(s.clip_weapon);
            let av = s.av + s.dent_armour.map_or(0, i32::from);
            let nd = (weapon + hits) - (av + s.rb) + crit;
            if s.clip_weapon {
                parts.push(WiStep::WeaponClipped);
            }
            if let Some(d) = s.dent_armour {
                parts.push(WiStep::ArmourDented { d6: d });
            }
            parts.push(WiStep::NetDamage {
                weapon,
                hits,
                av,
                rb: s.rb,
                critical: crit,
                net: nd,
            });
            let name = who.name.clone();
            match injury(tables, &s.part, s.units, nd)? {
                None => parts.push(WiStep::Unhurt { who: Some(name) }),
                Some((loc, c)) => parts.push(WiStep::Injured {
                    who: Some(name),
                    injury: suffer(who, &s.part, loc, nd, c, now, round),
                }),
            }
            Ok(parts)
        }
        WiEvent::Injure {
            part,
            units,
            net_damage,
            ..
        } => match injury(tables, part, *units, *net_damage)? {
            None => Ok(vec![WiStep::Unhurt { who: None }]),
            Some((loc, c)) => Ok(vec![WiStep::Injured {
                who: None,
                injury: suffer(target, part, loc, *net_damage, c, now, round),
            }]),
        },
        WiEvent::EndOfRound {
            d6, hardship_hits, ..
        } => end_of_round(target, d6, hardship_hits, now, round),
        WiEvent::Condition {
            condition,
            delta,
            by,
            ..
        } => condition_changed(target, condition, delta, by, now, round),
        WiEvent::TableDefined(t) => {
            t.validate()?;
            Ok(vec![WiStep::TableDefined {
                part: t.part.clone(),
            }])
        }
        WiEvent::Cared {
            location, care, by, ..
        } => cared(target, location, care, by),
    }
}

/// The end of a round for a character with a Hardship (Aflame, Bleed, Poison): its d6
/// against the rating, and the Hardship Quarrel it may lose.
fn end_of_round(
    target: &mut WiCharacter,
    d6: &u16,
    hardship_hits: &Option<i32>,
    now: CampaignTime,
    round: i64,
) -> Result<Vec<WiStep>, WiError> {
    if !(1..=6).contains(d6) {
        return Err(WiError::D6Face(*d6));
    }
    let rating = target.hardship(now, round);
    if rating == 0 {
        return Err(WiError::NoHardship(target.name.clone()));
    }
    if i32::from(*d6) > rating {
        if hardship_hits.is_some() {
            return Err(WiError::NoHardshipQuarrel { d6: *d6, rating });
        }
        return Ok(vec![WiStep::HardshipSpared { d6: *d6, rating }]);
    }
    let hits = hardship_hits.ok_or(WiError::HardshipHitsMissing { d6: *d6, rating })?;
    let dies = hits < rating;
    if dies {
        target.death = Some((
            "Aflame, Bleed or Poison (a lost Hardship Quarrel)".into(),
            now,
        ));
    } else {
        for c in [Condition::Aflame, Condition::Bleed, Condition::Poison] {
            target.conditions.remove(&c);
        }
    }
    Ok(vec![WiStep::Hardship {
        d6: *d6,
        rating,
        hits,
        dies,
    }])
}

/// A Condition raised, lowered or removed (a marked effect's rating stays the injury's
/// until its care).
fn condition_changed(
    target: &mut WiCharacter,
    condition: &Condition,
    delta: &Option<i32>,
    by: &str,
    now: CampaignTime,
    round: i64,
) -> Result<Vec<WiStep>, WiError> {
    match delta {
        None => {
            let had = if *condition == Condition::Trauma {
                let had = !target.trauma.is_empty();
                target.trauma.clear();
                had
            } else {
                target.conditions.remove(condition).is_some()
            };
            if !had {
                // A marked effect's rating is the injury's until its care: say which.
                let held = target.injuries.iter().find_map(|i| {
                    let rating = i.held(*condition);
                    let care = i
                        .awaiting()
                        .into_iter()
                        .find(|(e, _)| rated(e).is_some_and(|(k, _)| k == *condition))
                        .map(|(_, k)| k)?;
                    (rating > 0).then(|| (i.location.clone(), rating, care))
                });
                if let Some((location, rating, care)) = held {
                    return Err(WiError::HeldByInjury {
                        name: target.name.clone(),
                        condition: *condition,
                        rating,
                        location,
                        care,
                    });
                }
                return Err(WiError::NoCondition {
                    name: target.name.clone(),
                    condition: *condition,
                });
            }
            Ok(vec![WiStep::ConditionRemoved {
                condition: *condition,
                by: by.to_string(),
            }])
        }
        Some(d) if d.unsigned_abs() > MAX_CONDITION_STEP.unsigned_abs() => {
            Err(WiError::ConditionStep(*d))
        }
        Some(d) => {
            target.add(*condition, *d, now, round, None);
            Ok(vec![WiStep::ConditionChanged {
                condition: *condition,
                delta: *d,
                by: by.to_string(),
                now: target.rating(*condition, now, round),
            }])
        }
    }
}

/// Care given to an injury at a location, ending the marked effects that awaited it.
fn cared(
    target: &mut WiCharacter,
    location: &str,
    care: &Care,
    by: &str,
) -> Result<Vec<WiStep>, WiError> {
    let loc = location.trim().to_ascii_lowercase();
    let name = target.name.clone();
    let inj = target
        .injuries
        .iter_mut()
        .find(|i| i.location == loc && i.awaiting().iter().any(|(_, k)| k == care))
        .ok_or_else(|| WiError::NothingAwaits {
            name,
            location: loc.clone(),
            care: *care,
        })?;
    let ended: Vec<String> = inj
        .awaiting()
        .into_iter()
        .filter(|(_, k)| k == care)
        .map(|(e, _)| e)
        .collect();
    inj.care.push(*care);
    Ok(vec![WiStep::Cared {
        care: *care,
        location: loc,
        by: by.to_string(),
        ended,
    }])
}
