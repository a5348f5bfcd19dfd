//! The GM's changes to the roster, built from typed requests and checked against the ledger
//! before they are recorded: a device rostered (or its role and characters changed) and a
//! device revoked. Every front end builds them here and records them through the replica;
//! what the key rings must do around them (a GM device demoted, a device revoked) is said by
//! what these return, for the front end to carry out with the sync's keys before it records.
//! The refusals are [`RosterError`]s, which name no command.

use leechbook_core::fold::Ledger;
use leechbook_core::ids::{CharacterId, DeviceId};
use leechbook_core::roster::{Role, RosterChange};

/// Why a roster change was not built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RosterError {
    /// A player's device given a GM-only character: it would show the character, whom the
    /// GM hid from the players' devices.
    #[error("{name} is GM-only: a player's device would show them")]
    GmOnly {
        /// The character.
        character: CharacterId,
        /// Its name.
        name: String,
    },
    /// The revocation of the campaign's last GM device that is not revoked: no one could
    /// record anything again, a ruling to undo it included.
    #[error("device {0} is the campaign's last GM device: revoking it would leave no one able to record")]
    LastGm(DeviceId),
    /// A player's device asked to move the campaign clock, which is the GM's.
    #[error("device {} is a player's: the campaign clock is the GM's to move", .0.short())]
    PlayersClock(DeviceId),
}

/// A device rostered, and whether the GM's ring must turn first.
#[derive(Debug, Clone, PartialEq)]
pub struct Rostered {
    /// The change to record.
    pub change: RosterChange,
    /// A GM device given a player's role: from now on it takes no key of the GM's ring, so
    /// the ring is rotated away from it before the change is recorded.
    pub demoted: bool,
}

/// A device rostered with `role` (a player's for `characters`), or its entry changed.
/// A player's device is never given a GM-only character: the GM reveals the character
/// first.
pub fn roster_device(
    ledger: &Ledger,
    device: DeviceId,
    key: Vec<u8>,
    role: Role,
    characters: Vec<CharacterId>,
) -> Result<Rostered, RosterError> {
    if role == Role::Player {
        if let Some(&c) = characters.iter().find(|c| ledger.is_secret(**c)) {
            return Err(RosterError::GmOnly {
                character: c,
                name: ledger.name_of(c).unwrap_or("that character").to_string(),
            });
        }
    }
    let demoted = role == Role::Player
        && ledger
            .roster
            .entries
            .get(&device)
            .is_some_and(|e| e.role == Role::Gm && e.revoked.is_none());
    Ok(Rostered {
        change: RosterChange::Device {
            device,
            key,
            role,
            characters,
        },
        demoted,
    })
}

/// Whether `device` may move the campaign clock: not a player's (the fold refuses a
/// player's clock events). Asked before anything else is looked at, so that a player is
/// never told, say, what a GM-only character owes on the way to that refusal.
pub fn may_move_clock(ledger: &Ledger, device: DeviceId) -> Result<(), RosterError> {
    if ledger.roster.is_player(device) {
        return Err(RosterError::PlayersClock(device));
    }
    Ok(())
}

/// A device revoked after `last`, the last of its event numbers this ledger holds (what it
/// recorded later is void whatever clock it claims). The campaign's last GM device that is
/// not revoked is not revoked. The front end rotates the campaign's key for the devices
/// still on the roster before it records the change.
pub fn revoke_device(
    ledger: &Ledger,
    device: DeviceId,
    last: u64,
) -> Result<RosterChange, RosterError> {
    let mut live_gms = ledger
        .roster
        .entries
        .iter()
        .filter(|(_, e)| e.role == Role::Gm && e.revoked.is_none())
        .map(|(d, _)| *d);
    if live_gms.next() == Some(device) && live_gms.next().is_none() {
        return Err(RosterError::LastGm(device));
    }
    Ok(RosterChange::RevokeAfter { device, last })
}

#[cfg(test)]
mod tests {
    use super::*;
    use leechbook_core::roster::Roster;

    fn device(n: u8) -> DeviceId {
        DeviceId(uuid::Uuid::from_bytes([n; 16]))
    }

    fn ledger_with(entries: &[(DeviceId, Role)]) -> Ledger {
        let mut l = Ledger::default();
        l.roster = Roster::default();
        for &(d, role) in entries {
            l.roster.entries.insert(
                d,
                leechbook_core::roster::Entry {
                    key: vec![0; 32],
                    role,
                    characters: Vec::new(),
                    revoked: None,
                    last: None,
                },
            );
        }
        l
    }

    #[test]
    fn the_last_gm_device_is_not_revoked_but_one_of_two_is() {
        let one = ledger_with(&[(device(1), Role::Gm), (device(2), Role::Player)]);
        assert_eq!(
            revoke_device(&one, device(1), 7),
            Err(RosterError::LastGm(device(1)))
        );
        // A player's device goes whatever the GMs.
        assert_eq!(
            revoke_device(&one, device(2), 3),
            Ok(RosterChange::RevokeAfter {
                device: device(2),
                last: 3
            })
        );
        let two = ledger_with(&[(device(1), Role::Gm), (device(2), Role::Gm)]);
        assert!(revoke_device(&two, device(1), 7).is_ok());
    }

    #[test]
    fn a_gm_device_given_a_players_role_is_demoted_and_a_new_one_is_not() {
        let l = ledger_with(&[(device(1), Role::Gm), (device(2), Role::Player)]);
        let r = |d, role| roster_device(&l, d, vec![1; 32], role, Vec::new()).unwrap();
        assert!(r(device(1), Role::Player).demoted);
        assert!(!r(device(1), Role::Gm).demoted);
        assert!(!r(device(2), Role::Player).demoted);
        assert!(!r(device(3), Role::Player).demoted);
    }
}
