//! What a character owes because of the Injury Sequence ([`Owed`]): the shock rolls, and
//! the rolls of a fight's moment, which lapse with it ([`MOMENT`]); and the aggravation rolls
//! a CF called.

use super::{HmCharacter, MishapKind, ShockState};
use crate::ids::InjuryId;
use crate::time::CampaignTime;
use serde::{Deserialize, Serialize};

/// A roll the character owes because of the Injury Sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Owed {
    /// The Shock Reroll of an INC (end of next turn) or UNC (ten minutes) character.
    ShockReroll {
        /// When it falls due.
        due_at: CampaignTime,
    },
    /// The Shock test that ends STN, due at the end of the next turn and retried each round.
    StunRecovery {
        /// When it falls due.
        due_at: CampaignTime,
        /// When the failed try this one retries was made (None: the first try). A retry
        /// waits for its round (fold version 12): one try a round, never two at one moment.
        tried: Option<CampaignTime>,
    },
    /// A Morale Roll after a Serious or Grievous injury (page 162; the GM resolves it). Due
    /// once the character has no Shock State.
    Morale {
        /// The injury that triggered it.
        injury: InjuryId,
        /// The moment the injury called for it (it lapses with the fight: [`MOMENT`]).
        #[serde(default)]
        at: CampaignTime,
    },
    /// A Fumble or Stumble Roll after a CF in a Melee, Dodge or missile test (page 161; the
    /// GM resolves it), or its automatic failure when the CF was forced by a Grievous zone
    /// (the INJURY MISHAP table's automatically failed mishap).
    TestMishap {
        /// Fumble or stumble.
        kind: MishapKind,
        /// True when the INJURY MISHAP table makes it an automatic failure (no roll).
        automatic: bool,
        /// The moment the test called for it (it lapses with the fight: [`MOMENT`]).
        #[serde(default)]
        at: CampaignTime,
    },
    /// A Fumble or Stumble Roll (page 161; the GM resolves it), or its automatic failure.
    Mishap {
        /// The injury that triggered it.
        injury: InjuryId,
        /// Fumble or stumble.
        kind: MishapKind,
        /// True when the table makes it an automatic failure (no roll).
        automatic: bool,
        /// The moment the injury called for it (it lapses with the fight: [`MOMENT`]).
        #[serde(default)]
        at: CampaignTime,
    },
}

/// How long a roll of the fight's moment stays owed: a Morale Roll "to continue" fighting
/// (000 l.642, l.646) and a Fumble or Stumble Roll (l.115, l.329, l.616-622) belong to the
/// fight they came from. The text gives a fight no length; Leechbook reads it as the ten
/// minutes the text gives the adrenaline of a fight (l.636, "about 10 minutes"), so such a
/// roll not recorded within ten minutes of campaign time of the moment that called for it
/// lapses: `due` no longer lists it (the GM may still record it, or `waive` it before).
pub const MOMENT: i64 = 10 * crate::time::MINUTE;

impl Owed {
    /// Whether a roll of the fight's moment has lapsed by `now` ([`MOMENT`]); a timed roll
    /// (a Shock Reroll, the stun recovery) never does.
    pub fn lapsed(&self, now: CampaignTime) -> bool {
        match self {
            Owed::Morale { at, .. } | Owed::TestMishap { at, .. } | Owed::Mishap { at, .. } => {
                now.0 - at.0 > MOMENT
            }
            Owed::ShockReroll { .. } | Owed::StunRecovery { .. } => false,
        }
    }
}

impl HmCharacter {
    /// A CF Impaired test (or a CF on moving) calls the aggravation Shock SR of `injuries`.
    pub fn call_aggravation(&mut self, injuries: &[InjuryId]) {
        for id in injuries {
            if !self.aggravation_called.contains(id) {
                self.aggravation_called.push(*id);
            }
        }
    }

    /// Drops the rolls of a fight's moment that have lapsed by `now` (none while in a Shock
    /// State: the fight is not over for the character): done as a new fight calls its own,
    /// so that the later fight neither lists them again when its Shock State ends nor is
    /// kept from owing its own Morale Roll by them.
    pub fn drop_lapsed(&mut self, now: CampaignTime) {
        if self.shock == ShockState::None {
            self.owed.retain(|o| !o.lapsed(now));
        }
    }

    /// The character came out of its Shock State at `at`: the fight goes on for them from
    /// there (a Morale Roll comes "after recovering from being Stunned", 000 l.682), so the
    /// rolls of the fight's moment they still owe count their ten minutes from `at`.
    pub fn fight_resumes(&mut self, now: CampaignTime) {
        // (Entries of a fight that lapsed before this one began were dropped then.)
        for o in &mut self.owed {
            if let Owed::Morale { at, .. } | Owed::TestMishap { at, .. } | Owed::Mishap { at, .. } =
                o
            {
                *at = now;
            }
        }
    }

    /// What the character owes at `now` that has not lapsed: while in a Shock State, no roll
    /// of the fight's moment lapses (the fight is not over for them).
    pub fn owed_now(&self, now: CampaignTime) -> impl Iterator<Item = &Owed> {
        let shocked = self.shock != ShockState::None;
        self.owed.iter().filter(move |o| shocked || !o.lapsed(now))
    }
}
