//! The campaign roster: which devices may record what. Roster changes are events signed by
//! a GM device; the device that created the campaign is its first GM.
//!
//! The roster in force is worked out from the whole log before the fold (as rulings are): a
//! device counts from the moment any roster event adds it (so a player's events recorded
//! before the GM rostered them still count), and a revocation refuses that device's events
//! that come after it in the total order. Signatures are checked where events enter a ledger
//! from outside (a sync import), not on every fold: the fold checks roles.
//!
//! A **player** device records events about the characters the roster gives it (strikes on
//! them, their rolls); everything else (rulings, roster changes, the clock, characters,
//! tables, options) is the GM's. A log with no roster at all (made before signatures, or in
//! tests) is not checked.

use crate::envelope::Envelope;
pub use crate::event::{LedgerEvent, Role, RosterChange};
use crate::ids::{CharacterId, DeviceId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One device's entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Its public key.
    pub key: Vec<u8>,
    /// Its role.
    pub role: Role,
    /// A player's characters.
    pub characters: Vec<CharacterId>,
    /// Revoked at this order key: its events after it are refused (unless `last` names the
    /// last event number accepted, which then decides alone).
    pub revoked: Option<(u64, DeviceId, u64)>,
    /// The last of its event numbers a revocation accepts: every later number is refused,
    /// whatever its clock (a revoked device cannot date its events back).
    pub last: Option<u64>,
}

impl Entry {
    /// Whether the device's event numbered `seq` at order key `at` comes after its revocation.
    fn revoked_at(&self, seq: u64, at: crate::envelope::OrderKey) -> bool {
        match (self.last, self.revoked) {
            (Some(last), _) => seq > last,
            (None, Some(r)) => at > r,
            (None, None) => false,
        }
    }
}

/// The roster in force over a log.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roster {
    /// The entries.
    pub entries: BTreeMap<DeviceId, Entry>,
    /// The device that created the campaign.
    pub creator: Option<DeviceId>,
}

impl Roster {
    /// Works out the roster over a log (in the total order).
    pub fn from_log<E: LedgerEvent>(events: &[Envelope<E>]) -> Roster {
        let mut r = Roster::default();
        for e in events {
            if e.event.creates_campaign() {
                if r.creator.is_none() {
                    r.creator = Some(e.device);
                }
                continue;
            }
            let Some(change) = e.event.roster_change() else {
                continue;
            };
            if r.gm(e.device, e.seq, e.order_key()).is_err() {
                continue;
            }
            match change {
                RosterChange::Device {
                    device,
                    key,
                    role,
                    characters,
                } => {
                    r.entries.insert(
                        *device,
                        Entry {
                            key: key.clone(),
                            role: *role,
                            characters: characters.clone(),
                            revoked: None,
                            last: None,
                        },
                    );
                }
                RosterChange::Revoke { device } => {
                    if let Some(en) = r.entries.get_mut(device) {
                        en.revoked = Some(e.order_key());
                    }
                }
                RosterChange::Places { .. } => {}
                RosterChange::RevokeAfter { device, last } => {
                    if let Some(en) = r.entries.get_mut(device) {
                        en.revoked = Some(e.order_key());
                        // A GM device revoking itself: its revocation is its last event.
                        en.last = Some(if e.device == *device {
                            (*last).max(e.seq)
                        } else {
                            *last
                        });
                    }
                }
            }
        }
        r
    }

    /// Whether the roster is in use at all.
    pub fn in_use(&self) -> bool {
        !self.entries.is_empty()
    }

    /// Whether the roster holds `device` as a player's (not a GM's, and not unknown): the
    /// fold holds a player's events to the campaign clock.
    pub fn is_player(&self, device: DeviceId) -> bool {
        self.entries
            .get(&device)
            .is_some_and(|e| e.role == Role::Player)
    }

    /// Whether a player's device not revoked plays `character` (records for it in the open:
    /// such a character cannot be GM-only).
    pub fn plays(&self, character: crate::ids::CharacterId) -> bool {
        self.entries.values().any(|e| {
            e.role == Role::Player && e.revoked.is_none() && e.characters.contains(&character)
        })
    }

    /// The public key the roster holds for a device.
    pub fn key(&self, device: DeviceId) -> Option<&[u8]> {
        self.entries.get(&device).map(|e| e.key.as_slice())
    }

    fn gm(&self, device: DeviceId, seq: u64, at: (u64, DeviceId, u64)) -> Result<(), String> {
        if self.entries.is_empty() && self.creator == Some(device) {
            return Ok(()); // the creator rosters itself first
        }
        match self.entries.get(&device) {
            Some(e) if e.role == Role::Gm && !e.revoked_at(seq, at) => Ok(()),
            Some(e) if e.role == Role::Gm => Err(format!("device {} was revoked", device.short())),
            Some(_) => Err(format!(
                "device {} is a player's: this is the GM's to record",
                device.short()
            )),
            None if self.creator == Some(device) => Ok(()),
            None => Err(format!(
                "device {} is not on the campaign's roster",
                device.short()
            )),
        }
    }

    /// Checks that an event's device may record it.
    pub fn allows<E: LedgerEvent>(&self, env: &Envelope<E>) -> Result<(), String> {
        if !self.in_use() || env.event.creates_campaign() {
            return Ok(());
        }
        let at = env.order_key();
        let entry = match self.entries.get(&env.device) {
            Some(e) => e,
            None if self.creator == Some(env.device) => return Ok(()),
            None => {
                return Err(format!(
                    "device {} is not on the campaign's roster",
                    env.device.short()
                ))
            }
        };
        if entry.revoked_at(env.seq, at) {
            return Err(format!(
                "device {} was revoked before this event",
                env.device.short()
            ));
        }
        match entry.role {
            Role::Gm => Ok(()),
            Role::Player => match env.event.character() {
                _ if env.event.gm_only() => Err(format!(
                    "device {} is a player's: this is the GM's to record",
                    env.device.short()
                )),
                Some(c) if entry.characters.contains(&c) && env.event.roster_change().is_none() => {
                    Ok(())
                }
                Some(_) => Err(format!(
                    "device {} is a player's and may record only for its own characters",
                    env.device.short()
                )),
                None => Err(format!(
                    "device {} is a player's: this is the GM's to record",
                    env.device.short()
                )),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::{device, env, Hit, Toy};

    /// A device joining with `role` (and, for a player, `characters`).
    fn joins(device: DeviceId, role: Role, characters: Vec<CharacterId>) -> Toy {
        let key = vec![device.0.as_bytes()[7]; 32];
        Toy::Roster(RosterChange::Device {
            device,
            key,
            role,
            characters,
        })
    }

    /// Over an event type that is no rules system's: the campaign's creator is its first GM;
    /// a player records only about the characters it is given, never a ruling or a roster
    /// change; a revoked device's events after its revocation are refused; a roster change
    /// by a device that is not a GM does not count.
    #[test]
    fn who_may_record_what_over_any_event_type() {
        let (gm, player, stranger) = (device(1), device(2), device(3));
        let mine = CharacterId(uuid::Uuid::from_u128(7));
        let theirs = CharacterId(uuid::Uuid::from_u128(8));
        let log = vec![
            env(1, gm, Toy::Created),
            env(2, gm, joins(gm, Role::Gm, vec![])),
            env(3, gm, joins(player, Role::Player, vec![mine])),
            env(4, gm, Toy::Roster(RosterChange::Revoke { device: player })),
        ];
        let roster = Roster::from_log(&log);
        assert_eq!(roster.creator, Some(gm));
        assert_eq!(roster.key(player), Some(&[2u8; 32][..]));
        // Before the revocation (order key 4): the player's own character only.
        let before = |event| env(3, player, event);
        assert!(roster
            .allows(&before(Toy::Roll(Hit(50, mine, vec![]))))
            .is_ok());
        assert!(roster
            .allows(&before(Toy::Roll(Hit(50, theirs, vec![]))))
            .is_err());
        assert!(roster
            .allows(&before(Toy::Roster(RosterChange::Revoke { device: gm })))
            .is_err());
        // A ruling about the player's own character is still the GM's.
        let decree = Toy::Ruled(crate::ruling::Ruling::Override {
            character: mine,
            decree: 3,
            reason: "mine".into(),
        });
        assert!(roster.allows(&before(decree.clone())).is_err());
        assert!(roster.allows(&env(3, gm, decree)).is_ok());
        assert!(roster
            .allows(&env(5, player, Toy::Roll(Hit(50, mine, vec![]))))
            .is_err());
        assert!(roster
            .allows(&env(5, stranger, Toy::Roll(Hit(50, mine, vec![]))))
            .is_err());
        assert!(roster
            .allows(&env(5, gm, Toy::Roll(Hit(50, theirs, vec![]))))
            .is_ok());
        let mut forged = log.clone();
        forged.push(env(5, stranger, joins(stranger, Role::Gm, vec![])));
        assert!(Roster::from_log(&forged).key(stranger).is_none());
        // Nor by a player, before its revocation.
        let mut forged = log[..3].to_vec();
        forged.push(env(4, player, joins(stranger, Role::Gm, vec![])));
        assert!(Roster::from_log(&forged).key(stranger).is_none());
    }

    /// A revocation that names the last number it accepts voids every later number of the
    /// device whatever clock it claims (a revoked device dating its events back before the
    /// revocation), and keeps every number up to it, even one that arrives late with a clock
    /// past the revocation.
    #[test]
    fn a_revocation_by_number_holds_whatever_the_clock() {
        let (gm, player) = (device(1), device(2));
        let mine = CharacterId(uuid::Uuid::from_u128(7));
        let mut log = vec![
            env(1, gm, Toy::Created),
            env(2, gm, joins(gm, Role::Gm, vec![])),
            env(3, gm, joins(player, Role::Player, vec![mine])),
        ];
        log.push(env(
            10,
            gm,
            Toy::Roster(RosterChange::RevokeAfter {
                device: player,
                last: 2,
            }),
        ));
        let roster = Roster::from_log(&log);
        let by_player = |seq: u64, clock: u64| {
            let mut e = env(seq, player, Toy::Roll(Hit(50, mine, vec![])));
            e.seq = seq;
            e.clock = clock;
            e
        };
        // Number 3, dated back to clock 4 (before the revocation at 10): void.
        assert_eq!(
            roster.allows(&by_player(3, 4)),
            Err(format!(
                "device {} was revoked before this event",
                player.short()
            ))
        );
        // Number 2, arriving late with clock 12 (after the revocation): it stands.
        assert!(roster.allows(&by_player(2, 12)).is_ok());
        // The first form, by the total order, is dodged by a clock dated back: the reason the
        // revocation now names a number.
        let mut old = log.clone();
        old[3] = env(10, gm, Toy::Roster(RosterChange::Revoke { device: player }));
        assert!(Roster::from_log(&old).allows(&by_player(3, 4)).is_ok());
    }
}
