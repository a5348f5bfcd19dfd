//! The rules systems Leechbook knows, listed together in one place: [`AllSystems`], the
//! kernel's `Systems` for this campaign's types, written by [`crate::rules_systems!`] from one
//! entry per system. The kernel's fold is generic over it (`leechbook_core::Ledger` is
//! `leechbook_kernel::fold::Ledger<AllSystems>`); from the entries come the campaign's enums
//! (`SystemId`, `SheetKind`, `Event`, `CharacterState`, `SystemOutcome`, `FoldError`),
//! `Settings`, `Applied`, and the dispatch of each event, sheet and decree to its system's
//! `RulesSystem`. Each system's crate says everything else about it.
//!
//! **Frozen format:** the entries' order is the stored encoding's (see [`crate::list`]): a
//! fifth system is appended as a fifth entry.

use crate::harnmaster::system::Decree;

crate::rules_systems! {
    /// HârnMaster, Savage Worlds, Wrath & Glory and Witch Iron: the systems this build knows.
    list AllSystems;
    decree Decree, "injury level, shock state or healing rate";
    /// HârnMaster.
    HarnMaster(crate::harnmaster::system::HarnMaster), hm;
    /// Savage Worlds.
    SavageWorlds(crate::savage::system::SavageWorlds), sw;
    /// Wrath & Glory.
    WrathGlory(crate::wrath::system::WrathGlory), wg;
    /// Witch Iron (its Quarrel rules).
    WitchIron(crate::witch::system::WitchIron), wi;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harnmaster::state::ShockState;
    use crate::ids::CharacterId;
    use crate::ruling::Ruling;
    use crate::time::CampaignTime;

    /// A GM's override on a character of a system that defines none (Savage Worlds) is void,
    /// and the reason names the overrides there are; the character is untouched.
    #[test]
    fn a_system_without_overrides_refuses_one_naming_them() {
        let campaign = crate::ids::CampaignId(uuid::Uuid::from_u128(1));
        let device = crate::ids::DeviceId(uuid::Uuid::from_u128(2));
        let env = |n: u64, event: Event| crate::Envelope {
            id: crate::ids::EventId(uuid::Uuid::from_u128(u128::from(n))),
            campaign,
            device,
            seq: n,
            clock: n,
            wall: chrono::DateTime::<chrono::Utc>::UNIX_EPOCH,
            at: CampaignTime::START,
            schema: crate::SCHEMA_VERSION,
            event,
            signature: None,
        };
        let red = CharacterId(uuid::Uuid::from_u128(2));
        let log = vec![
            env(
                1,
                Event::CampaignCreated {
                    name: "test".into(),
                    system: SystemId::SavageWorlds,
                    round_seconds: 6,
                },
            ),
            env(
                2,
                Event::CharacterAdded {
                    name: "Red".into(),
                    sheet: SheetKind::SavageWorlds(crate::savage::SwSheet {
                        toughness: 6,
                        wild_card: true,
                        pace: 6,
                    }),
                },
            ),
            env(
                3,
                Event::Ruling(Ruling::Override {
                    character: red,
                    decree: Decree::ShockState(ShockState::Stunned),
                    reason: "dazed".into(),
                }),
            ),
        ];
        let l = crate::Ledger::fold(&log);
        assert_eq!(l.applied, 2);
        assert_eq!(
            l.void[0].reason,
            "a savage-worlds character takes no override of injury level, shock state or healing rate"
        );
        let fresh = crate::Ledger::fold(&log[..2]);
        assert_eq!(l.characters, fresh.characters);
    }
}
