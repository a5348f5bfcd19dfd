//! Applying a checked Healing Sequence outcome to the character (infallible, so the fold stays
//! atomic).

use super::events::{Attended, Effect, FatigueKind, HealOutcome};
use super::healing_rate;
use super::tables::TreatmentTable;
use crate::ids::InjuryId;
use crate::injury::Context;
use crate::state::{
    Aspect, CellResult, HealState, HmCharacter, Infection, Injury, Owed, ShockState, Treated,
};
use crate::time::{CampaignTime, DAY, HOUR, MINUTE};

pub(crate) fn injury_mut(ch: &mut HmCharacter, id: Option<InjuryId>) -> Option<&mut Injury> {
    id.and_then(|id| ch.injuries.iter_mut().rev().find(|i| i.id == id))
}

/// Called when bleeding may have stopped: the blood-loss Shock State ends (STN clears; INC
/// and UNC owe a Shock Reroll).
pub(crate) fn bleeding_check(ch: &mut HmCharacter, ctx: Context) {
    if ch.bleeding() || !ch.blood_loss_shock {
        return;
    }
    ch.blood_loss_shock = false;
    if ch.extended_shock.is_some() {
        return;
    }
    if ch.shock == ShockState::Stunned {
        ch.shock = ShockState::None;
    }
    crate::injury::set_shock_owed(ch, ctx);
}

pub(crate) fn set_minor_and_healed(inj: &mut Injury, at: CampaignTime) {
    if inj.level <= 1 && inj.heal.minor_at.is_none() {
        inj.heal.minor_at = Some(at);
    }
    if inj.level == 0 {
        inj.heal.healed_at = Some(at);
        inj.bleeder = false;
        inj.heal.infected = false;
    }
}

/// Applies a checked outcome.
pub fn apply(ch: &mut HmCharacter, out: &HealOutcome, ctx: Context, table: &TreatmentTable) {
    let at = ctx.at;
    match &out.effect {
        Effect::BloodLoss { points, .. } => blood_loss(ch, out, *points, ctx),
        Effect::Stoppage {
            healer,
            bonus,
            stops,
            now,
            cauterise,
        } => stoppage(ch, out, healer, *bonus, (*stops, *now, *cauterise), ctx),
        Effect::Treated {
            treated, amputated, ..
        } => apply_treatment(ch, out, treated, *amputated, at),
        Effect::Healing {
            by, infect, period, ..
        } => {
            let days = match period {
                Some(d3) => i64::from(*d3) + 3,
                None => 5,
            };
            let mut infected = None;
            if let Some(inj) = injury_mut(ch, out.injury) {
                inj.level = inj.level.saturating_sub(*by);
                inj.heal.next_healing = inj.heal.next_healing.plus(days * DAY);
                set_minor_and_healed(inj, at);
                if *infect {
                    inj.heal.infected = true;
                    infected = Some((inj.id, healing_rate(inj, table)));
                }
            }
            if let Some((id, hr)) = infected {
                ch.infection = Some(Infection {
                    injury: id,
                    healing_rate: (hr + 1).min(5),
                    since: at,
                    next_roll: at.plus(DAY),
                });
            }
        }
        Effect::Period(d3) => {
            if let Some(inj) = injury_mut(ch, out.injury) {
                inj.heal.period_unrolled = false;
                inj.heal.next_healing = inj.inflicted_at.plus((i64::from(*d3) + 3) * DAY);
            }
        }
        Effect::Regeneration { by, skip, .. } => {
            ch.blood_loss = ch.blood_loss.saturating_sub(*by);
            ch.next_regeneration = if ch.blood_loss == 0 {
                None
            } else {
                ch.next_regeneration
                    .map(|due| due.plus(if *skip { 20 } else { 10 } * DAY))
            };
        }
        Effect::Infection { by, .. } => {
            if let Some(inf) = ch.infection.as_mut() {
                inf.healing_rate += by;
                inf.next_roll = inf.next_roll.plus(DAY);
                let hr = inf.healing_rate;
                if hr <= 0 {
                    crate::injury::kill(ch, "infection", at);
                } else if hr >= 6 {
                    end_infection(ch, at);
                }
            }
        }
        Effect::ExtendedShock { by, .. } => {
            if let Some(es) = ch.extended_shock.as_mut() {
                es.healing_rate += by;
                es.next_roll = es.next_roll.plus(4 * HOUR);
                let hr = es.healing_rate;
                if hr <= 0 {
                    crate::injury::kill(ch, "Extended Shock", at);
                } else if hr >= 6 {
                    ch.extended_shock = None;
                    ch.extended_shock_bonus = 0;
                    ch.extended_shock_healers.clear();
                    if ch.coma.is_none() {
                        ch.shock = ShockState::None;
                        ch.shock_injury = None;
                        ch.blood_loss_shock = false;
                    }
                }
            }
        }
        Effect::Coma { by, .. } => {
            if let Some(c) = ch.coma.as_mut() {
                c.healing_rate = (c.healing_rate + by).max(1);
                c.next_roll = c.next_roll.plus(10 * DAY);
                if c.healing_rate >= 6 {
                    let days = (at.0 - c.since.0) / DAY;
                    ch.weariness += (days as i32 / 5) * 5;
                    ch.coma = None;
                    if ch.extended_shock.is_none() {
                        ch.shock = ShockState::None;
                        ch.shock_injury = None;
                    }
                }
            }
        }
        Effect::Grim { state, .. } => {
            if let Some(inj) = injury_mut(ch, out.injury) {
                inj.heal.next_grim = inj.heal.next_grim.plus(DAY);
            }
            if *state != ch.shock {
                ch.shock = *state;
                ch.shock_injury = out.injury;
                if *state == ShockState::Killed {
                    crate::injury::kill(ch, "a grim wound's shock", at);
                } else {
                    crate::injury::set_shock_owed(ch, ctx);
                }
            }
        }
        // The CF calls the aggravation Shock SRs; each is its own roll, owed from now.
        Effect::MoveTest { aggravating, .. } => ch.call_aggravation(aggravating),
        Effect::Fatigue { kind, total, .. } => match kind {
            FatigueKind::Personal => ch.personal_fatigue = *total,
            FatigueKind::Weariness => ch.weariness = *total,
        },
        Effect::Aggravation { worse } => {
            if let Some(id) = out.injury {
                ch.aggravation_called.retain(|i| *i != id);
            }
            if let Some(inj) = injury_mut(ch, out.injury) {
                if *worse {
                    inj.heal.aggravation += 1;
                }
            }
        }
        Effect::Attend {
            condition,
            bonus,
            healer,
        } => match condition {
            Attended::ExtendedShock => {
                ch.extended_shock_bonus = ch.extended_shock_bonus.max(*bonus);
                ch.extended_shock_healers.push(healer.clone());
            }
            Attended::Infection => ch.infection_bonus = ch.infection_bonus.max(*bonus),
        },
    }
}

/// A treatment: its cell on the injury, and an amputation's new severed edge injury.
fn apply_treatment(
    ch: &mut HmCharacter,
    out: &HealOutcome,
    treated: &Treated,
    amputated: Option<u8>,
    at: CampaignTime,
) {
    let id = out.injury;
    if let Some(inj) = injury_mut(ch, id) {
        inj.heal.treatment = Some(treated.clone());
        inj.impaled = false;
        match treated.cell.result {
            CellResult::Heal => {
                inj.level = 0;
                set_minor_and_healed(inj, at);
            }
            CellResult::Amputated(_) => {}
            CellResult::Hr(_) => {}
        }
        if treated.cell.bleeder && !inj.bleeder {
            inj.bleeder = true;
            inj.heal.next_blood_loss = at.plus(5 * MINUTE);
        }
    }
    if let (Some(level), Some(id)) = (amputated, id) {
        // The amputation ends the old injury (and any infection in it) and inflicts an
        // edge injury at the same location, severed; it bleeds by the bleeding table.
        let old = ch.injuries.iter().rev().find(|i| i.id == id).cloned();
        if let Some(old) = old {
            if let Some(i) = injury_mut(ch, Some(id)) {
                i.level = 0;
                set_minor_and_healed(i, at);
            }
            if ch.infection.is_some_and(|inf| inf.injury == id) {
                end_infection(ch, at);
            }
            let mut new = old.clone();
            new.n = ch.injuries_suffered();
            new.id = InjuryId(uuid_for(id));
            new.aspect = Aspect::Edge;
            new.projectile = false;
            new.level = level;
            new.worst = level;
            new.severed = true;
            new.impaled = false;
            new.bleeder = level >= 4;
            new.inflicted_at = at;
            new.heal = HealState {
                next_healing: at.plus(5 * DAY),
                next_blood_loss: at.plus(5 * MINUTE),
                next_grim: at.plus(DAY),
                ..HealState::default()
            };
            ch.injuries.push(new);
        }
    }
}

/// A Blood Stoppage Roll: the healer's bonus for their next roll, the bleeder stopped now
/// or after its next loss, a cauterised wound.
fn stoppage(
    ch: &mut HmCharacter,
    out: &HealOutcome,
    healer: &str,
    bonus: i32,
    (stops, now, cauterise): (bool, bool, bool),
    ctx: Context,
) {
    let at = ctx.at;
    if let Some(inj) = injury_mut(ch, out.injury) {
        inj.heal.last_stoppage = Some(at);
        // This healer's roll spends their bonus and may earn another; another healer's
        // bonus waits for their own next roll.
        inj.heal.staunch_bonus.retain(|(h, _)| h.as_str() != healer);
        if bonus != 0 {
            inj.heal.staunch_bonus.push((healer.to_string(), bonus));
        }
        inj.heal.cauterised |= cauterise && (stops || now);
        if stops {
            inj.heal.stops_after_next_loss = true;
        }
        if now {
            inj.bleeder = false;
        }
    }
    bleeding_check(ch, ctx);
}

/// A Blood Loss Advance Roll's points: the loss, the Shock State it raises, death at four.
fn blood_loss(ch: &mut HmCharacter, out: &HealOutcome, points: u8, ctx: Context) {
    let at = ctx.at;
    if ch.blood_loss == 0 && points > 0 {
        ch.next_regeneration = Some(at.plus(10 * DAY));
    }
    ch.blood_loss = ch.blood_loss.saturating_add(points);
    if let Some(inj) = injury_mut(ch, out.injury) {
        inj.heal.next_blood_loss = inj.heal.next_blood_loss.plus(5 * MINUTE);
        if inj.heal.stops_after_next_loss {
            inj.bleeder = false;
            inj.heal.stops_after_next_loss = false;
        }
    }
    if points > 0 {
        let state = match ch.blood_loss {
            1 => ShockState::Stunned,
            2 => ShockState::Incapacitated,
            3 => ShockState::Unconscious,
            _ => ShockState::Killed,
        };
        let after = ch.shock.escalate(state);
        if after != ch.shock {
            ch.shock = after;
            // Step 3: a coma's HR is worked from "the injury that induced" it; a state
            // blood loss raised was induced by the bleeder.
            ch.shock_injury = out.injury;
            ch.blood_loss_shock = true;
            ch.owed
                .retain(|o| !matches!(o, Owed::ShockReroll { .. } | Owed::StunRecovery { .. }));
        }
        if ch.blood_loss >= 4 {
            crate::injury::kill(ch, "blood loss", at);
            return;
        }
    }
    bleeding_check(ch, ctx);
}

pub(crate) fn end_infection(ch: &mut HmCharacter, at: CampaignTime) {
    if let Some(inf) = ch.infection.take() {
        if let Some(i) = ch.injuries.iter_mut().rev().find(|i| i.id == inf.injury) {
            i.heal.infected = false;
        }
    }
    ch.infection_bonus = 0;
    let resume = at.plus(5 * DAY);
    for i in ch.injuries.iter_mut().filter(|i| !i.healed()) {
        if i.heal.next_healing < resume {
            i.heal.next_healing = resume;
        }
    }
}

/// A deterministic id for the edge injury an amputation leaves: the old id with its last bit
/// flipped, so replay gives the same id.
pub(crate) fn uuid_for(old: InjuryId) -> uuid::Uuid {
    let mut b = *old.0.as_bytes();
    b[15] ^= 0x01;
    b[14] ^= 0xa5;
    uuid::Uuid::from_bytes(b)
}
