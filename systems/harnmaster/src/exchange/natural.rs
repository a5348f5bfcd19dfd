//! A natural weapon's strike against an armed Block (001 l.418-420): the blocker who wins by
//! a star strikes back at the natural weapon's body zone.

use super::{build_strike, strike_with, DefenceDecl, MeleeExchange, Sides, StrikeDecl};
use crate::dice::DiceSource;
use crate::ids::{CharacterId, InjuryId};
use crate::injury::StrikeOutcome;
use serde::{Deserialize, Serialize};

/// A natural weapon's strike (a fist, a claw, a bite) against an armed defender: "armed
/// defenders who roll at least a one-star victory may automatically strike their attacker
/// in the natural weapon's body zone (roll d10 for LN). A success tie is still a block"
/// (001 l.420).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Natural {
    /// The natural weapon's body zone on the attacker's body table (`arm`, `head`).
    pub zone: String,
    /// The blocker's strike when their Block wins by a star: the blocking weapon's strike
    /// mode, or None when they forgo it.
    pub strike_back: Option<String>,
}

/// A melee exchange whose attacker strikes with a natural weapon ([`Natural`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NaturalMelee {
    /// The exchange, as any other.
    pub exchange: MeleeExchange,
    /// The natural weapon.
    pub natural: Natural,
}

/// The armed blocker's strike at a natural weapon's zone, when their Block wins by a star
/// or more (a tie is still only a block: 001 l.420), unless they forgo it.
pub(super) fn strike_back(
    s: &Sides,
    x: &MeleeExchange,
    outcome: &super::melee::MeleeOutcome,
    notes: &mut Vec<String>,
    id: InjuryId,
    dice: &mut dyn DiceSource,
) -> Result<Option<(CharacterId, Box<StrikeOutcome>)>, super::ExchangeError> {
    let (Some(n), DefenceDecl::Block { weapon, grip, .. }) = (s.natural, &x.defence) else {
        return Ok(None);
    };
    if outcome.victor != super::melee::Victor::Defender || outcome.tie || outcome.stars < 1 {
        return Ok(None);
    }
    let (a, d) = (s.attacker, s.defender);
    let Some(mode) = &n.strike_back else {
        notes.push(format!(
            "{} forgoes the strike at {}'s {} the Block won (001 l.420)",
            d.name, a.name, n.zone
        ));
        return Ok(None);
    };
    notes.push(format!(
        "{}'s armed Block wins by {} star(s) against a natural weapon: a strike at {}'s {} \
         (001 l.420)",
        d.name, outcome.stars, a.name, n.zone
    ));
    let decl = StrikeDecl {
        weapon: weapon.clone(),
        mode: mode.clone(),
        grip: *grip,
        aim: None,
    };
    let mut st = build_strike(s.arms, d, &decl, s.attacker_body.default_aim, a, &[])?;
    st.targeting = crate::injury::Targeting::InZone {
        zone: n.zone.clone(),
    };
    Ok(Some(strike_with(s, st, (a, s.attacker_body), id, dice)?))
}
