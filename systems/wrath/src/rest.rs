//! Recovery (rules text 002): a rest is refused until its hours have passed since rest
//! counts from; a Regroup regains Wounds, a Respite clears Wounds and Shock, and a Combat
//! Action with a point of Wrath restores Shock.

use crate::time::{CampaignTime, HOUR};
use crate::{WgCharacter, WgError, WgStep, REGROUP_HOURS, WRATH_AT_RESPITE};

/// Refuses a rest taken before `hours` of campaign time have passed since rest counts from.
pub(crate) fn rested(
    ch: &WgCharacter,
    rest: &'static str,
    hours: i64,
    from: Option<CampaignTime>,
    now: CampaignTime,
) -> Result<(), WgError> {
    let Some(from) = from else {
        return Ok(());
    };
    let need = from.plus(hours * crate::time::HOUR);
    if now < need {
        return Err(WgError::TooSoon {
            name: ch.name.clone(),
            rest,
            hours,
            from,
            now,
            more: need.0 - now.0,
        });
    }
    Ok(())
}

/// A Regroup: Wounds regained from a Medicae healer; one regained ends Dying.
pub(crate) fn regroup(ch: &mut WgCharacter, regained: i32) -> Result<Vec<WgStep>, WgError> {
    if regained < 0 {
        return Err(WgError::Refused(
            "Wounds regained cannot be negative".into(),
        ));
    }
    // No more Wounds are regained than are held (a pool of 4 heals 2 Wounds of 2).
    let regained = regained.min(ch.wounds);
    ch.wounds -= regained;
    let no_longer_dying = regained > 0 && ch.dying;
    if no_longer_dying {
        ch.dying = false;
    }
    Ok(vec![WgStep::Regroup {
        regained,
        left: ch.wounds,
        no_longer_dying,
    }])
}

/// A Respite: Wounds and Shock to zero and Wrath to its Respite value; refused while Dying.
pub(crate) fn respite(ch: &mut WgCharacter) -> Result<Vec<WgStep>, WgError> {
    if ch.dying {
        return Err(WgError::Refused(format!(
            "{} is Dying and cannot Respite",
            ch.name
        )));
    }
    ch.wounds = 0;
    ch.shock = 0;
    ch.wrath = WRATH_AT_RESPITE;
    Ok(vec![WgStep::Respite])
}

/// A Combat Action and a point of Wrath restore Rank + Tier Shock.
pub(crate) fn restore_shock(ch: &mut WgCharacter) -> Vec<WgStep> {
    let n = ch.sheet.rank + ch.sheet.tier;
    ch.shock = (ch.shock - n).max(0);
    ch.wrath = (ch.wrath - 1).max(0);
    vec![WgStep::RestoreShock {
        restored: n,
        left: ch.shock,
    }]
}

/// A healer of the campaign heals with Medicae during a Regroup at `now`: one character a
/// Regroup ("you can heal a single character during a Regroup", 002 l.63), so a second
/// patient within the Regroup's hour is refused; a dead healer heals no one.
pub(crate) fn heals(healer: &mut WgCharacter, now: CampaignTime) -> Result<(), WgError> {
    if healer.death.is_some() {
        return Err(WgError::Refused(format!("{} is dead", healer.name)));
    }
    if let Some(at) = healer
        .medicae_at
        .filter(|at| now.0 - at.0 < REGROUP_HOURS * HOUR)
    {
        return Err(WgError::Refused(format!(
            "{} healed a character during this Regroup already (at {at}): a healer heals a \
             single character a Regroup (002 l.63)",
            healer.name
        )));
    }
    healer.medicae_at = Some(now);
    Ok(())
}
