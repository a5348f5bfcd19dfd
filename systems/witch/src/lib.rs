//! Witch Iron's Quarrel rules (rules text 003): melee and ranged Quarrels decided by Net Hits,
//! the hit location chosen by the defender and the location by the attack's units die, injury
//! severity from Net Damage ((weapon damage + Net Hits) - (AV + RB)) on the Head and Torso
//! tables, critical hits (+d6E) and fumbles, and the Conditions with ratings.
//!
#![doc = include_str!("readings.md")]
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

/// The kernel's modules this system reads, at the paths its modules name them by.
pub(crate) use leechbook_kernel::{ids, time};

pub mod amend;
mod conditions;
mod error;
mod events;
mod outcome;
mod rules;
mod state;
pub mod system;
mod tables;

pub use conditions::*;
pub use error::*;
pub use events::*;
pub use outcome::*;
pub use rules::*;
pub use state::*;
pub use tables::*;

/// Leechbook's readings of the text (this module's documentation, `table show readings`).
pub const READINGS: &str = include_str!("readings.md");

/// Witch Iron's campaign-wide settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WiSettings {
    /// The Arms & Legs tables the GM supplied.
    pub tables: Vec<PartTable>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::CharacterId;
    use crate::time::{CampaignTime, HOUR};
    use uuid::Uuid;

    #[test]
    fn the_tables_are_whole() {
        head().validate().unwrap();
        torso().validate().unwrap();
    }

    #[test]
    fn locations_and_severity_from_the_text() {
        let (l, c) = injury(&[], "head", 1, 2).unwrap().unwrap();
        assert_eq!(
            (l.as_str(), c.name.as_str(), c.effects.as_str()),
            ("nose", "Nose Slash", "Bleed 1")
        );
        let (l, c) = injury(&[], "head", 6, 8).unwrap().unwrap();
        assert_eq!(
            (l.as_str(), c.name.as_str(), c.requires.as_deref()),
            ("right eye", "Popped Out", Some("surgery"))
        );
        let (l, c) = injury(&[], "torso", 0, 15).unwrap().unwrap();
        assert_eq!(
            (l.as_str(), c.name.as_str()),
            ("heart/lung", "Heart Ripped Out")
        );
        assert!(injury(&[], "torso", 3, 0).unwrap().is_none());
        let e = injury(&[], "left arm", 3, 4).unwrap_err();
        assert_eq!(e, WiError::TableNotLoaded { part: "arm".into() });
    }

    #[test]
    fn conditions_add_reduce_and_the_end_of_round_hardship() {
        let mut c = WiCharacter::new(
            CharacterId(Uuid::from_u128(1)),
            "Ana".into(),
            WiSheet::default(),
        );
        let t0 = CampaignTime::START;
        suffer(
            &mut c,
            "torso",
            "guts".into(),
            5,
            injury(&[], "torso", 7, 5).unwrap().unwrap().1,
            t0,
            10,
        );
        assert_eq!(
            c.rating(Condition::Bleed, t0, 10),
            2,
            "Punctured Gut, Bleed 2"
        );
        c.add(Condition::Pain, 3, t0, 10, None);
        assert_eq!(
            c.rating(Condition::Pain, t0.plus(2 * HOUR), 10),
            1,
            "Pain falls one an hour"
        );
        c.add(Condition::Stun, 2, t0, 10, None);
        assert_eq!(
            c.rating(Condition::Stun, t0.plus(10), 10),
            1,
            "Stun falls one a round"
        );
        assert_eq!(
            c.rating(Condition::Stun, t0.plus(30), 10),
            0,
            "to zero, not below"
        );
        // d6 within Bleed 2: the Hardship Quarrel at 2 Hits removes it.
        let e = WiEvent::EndOfRound {
            character: c.id,
            d6: 2,
            hardship_hits: Some(2),
        };
        apply(&mut c, None, &[], &e, t0, 10).unwrap();
        assert_eq!(c.rating(Condition::Bleed, t0, 10), 0);
    }

    #[test]
    fn quarrel_net_hits_decide_who_injures() {
        assert_eq!(net_hits(3, 3, false, false, false, WiDefence::Melee), 0);
        assert_eq!(net_hits(3, 2, false, false, true, WiDefence::LightFoot), -1);
        assert_eq!(net_hits(1, 2, true, false, false, WiDefence::Melee), 1);
        assert_eq!(d6e(&[6, 3]), Ok(9));
        assert!(d6e(&[6]).is_err());
    }
}
