//! Competing rolls settled by authority, and said.
//!
//! Two events of different devices that make the same claim (`leechbook_kernel::claim`:
//! one healing roll for an injury at a moment, one stun recovery try, one blood stoppage in
//! five minutes, ...) compete for one roll the rules owe once. The fold keeps the first in
//! the total order and voids the other; the order cannot tell who saw what (a player who
//! hides the GM's failed roll in her own file before rolling her own sorts before it). So
//! the table's authority decides: **the GM's roll stands over a player's, then the first in
//! the order**. When a sync brings a contest the fold settled otherwise (a player's roll
//! standing, the GM's void), a GM's device strikes the player's with a ruling, recorded
//! and reversible like any (`reinstate` brings it back), naming the GM's roll in its reason;
//! a player's device says that the GM's roll will stand once a GM's device has taken both
//! in. Every contest a sync brings is told in one line naming both rolls and which stands.
//! (A device's own second try at one moment is refused by the rules where they say so:
//! HârnMaster's stun recovery waits its round.)

use crate::{Draft, LedgerError, Replica};
use leechbook_core::claim::Claim;
use leechbook_core::ids::{DeviceId, EventId};
use leechbook_core::roster::{Role, Roster};
use leechbook_core::ruling::Ruling;
use leechbook_core::{Envelope, Event};
use leechbook_store::{ReadLog, Store};

/// The widest window a claim's slot spans (a blood stoppage's five minutes): the rivals of
/// an event are looked for this far either side of it.
const WIDEST: i64 = 5 * 60;

/// One contest a sync brought: rolls of different devices for one claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contest {
    /// What they claim.
    pub claim: Claim,
    /// The roll that stands by authority (the GM's, else the first in the order).
    pub stands: EventId,
    /// Whether `stands` is a GM device's.
    pub by_gm: bool,
    /// The other rolls, which the rules void.
    pub others: Vec<EventId>,
    /// A player's roll the fold kept over the GM's, struck here by a ruling this GM device
    /// recorded.
    pub struck: Option<EventId>,
    /// A player's roll the fold keeps over the GM's on this player's device until a GM's
    /// device takes both in.
    pub pending: Option<EventId>,
}

impl std::fmt::Display for Contest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let others: Vec<String> = self.others.iter().map(|o| o.short().to_string()).collect();
        write!(
            f,
            "{} rolls {} and {} claim one roll: {} {} stands, {} {} void",
            self.claim.roll,
            self.stands.short(),
            others.join(" and "),
            if self.by_gm { "the GM's" } else { "the first," },
            self.stands.short(),
            others.join(" and "),
            if others.len() == 1 { "is" } else { "are" }
        )?;
        if let Some(s) = self.struck {
            write!(
                f,
                " ({} struck by this GM device's ruling, which a reinstatement undoes)",
                s.short()
            )?;
        }
        if let Some(p) = self.pending {
            write!(
                f,
                " once a GM's device takes both in (until then {} stands here)",
                p.short()
            )?;
        }
        Ok(())
    }
}

/// What a sync's events did to the record, told a line each: the events the fold now voids
/// that it did not before, and the contests they entered.
#[derive(Clone, Debug, Default)]
pub struct TakenIn {
    /// Void now and not before (what the sync brought that the rules or the roster refuse,
    /// or what of this ledger's it voided), with the fold's reason.
    pub voided: Vec<leechbook_core::fold::VoidEvent>,
    /// The contests of claims it entered, settled by authority.
    pub contests: Vec<Contest>,
}

impl Replica<Store> {
    /// Strikes each of `players` with a retraction naming the GM's roll `gm`, if the GM's
    /// roll then stands (what-if first: nothing is recorded otherwise). Whether it did.
    fn strikes_for(
        &mut self,
        players: &[EventId],
        gm: EventId,
        roll: &str,
    ) -> Result<bool, LedgerError> {
        let reason = format!(
            "overruled: the GM's {roll} roll {} for the same moment stands over this one (the GM's roll stands over a player's)",
            gm.short()
        );
        let mut struck = false;
        for &target in players {
            let ruling = Ruling::Retract {
                target,
                reason: reason.clone(),
            };
            let Ok((_, then)) = self.what_if(ruling.clone()) else {
                continue;
            };
            if then.void.iter().any(|v| v.id == gm) && players.len() == 1 {
                return Ok(false);
            }
            self.record(|_| Ok::<_, LedgerError>(Draft::of(Event::Ruling(ruling), None)))?;
            struck = true;
        }
        Ok(struck && !self.fates()?.void.iter().any(|v| v.id == gm))
    }

    /// Runs `import` (a sync taking events into the log), then the ledger's own bookkeeping
    /// after it: the projection brought up to date and the contests settled
    /// ([`Replica::taken_in`]). What the import gave comes back with what that did, or why
    /// the bookkeeping failed (the events taken in stay: the next command catches up).
    pub fn import<T, E: From<LedgerError>>(
        &mut self,
        import: impl FnOnce(&mut Store) -> Result<T, E>,
    ) -> Result<(T, Result<TakenIn, LedgerError>), E> {
        let after = self.store().extent().map_err(LedgerError::from)?;
        let got = import(self.store_mut())?;
        // An import that took nothing in leaves the ledger as it was, unwritten.
        let taken = match self.store().extent() {
            Ok(now) if now == after => Ok(TakenIn::default()),
            _ => self.taken_in(after),
        };
        Ok((got, taken))
    }

    /// After a sync took in the log's rows after `after`: the projection brought up to date,
    /// the contests settled, and what that did (see [`TakenIn`]). A ledger that had no
    /// projection before (one that has just joined) tells no void events.
    pub fn taken_in(&mut self, after: u64) -> Result<TakenIn, LedgerError> {
        let before: Option<std::collections::HashSet<EventId>> = {
            let r = self.store().read()?;
            crate::projection::fates(&r)?.map(|f| f.void.iter().map(|v| v.id).collect())
        };
        self.refresh()?;
        let contests = self.settle_claims(after)?;
        let now = self.fates()?;
        Ok(TakenIn {
            voided: match before {
                Some(before) => now
                    .void
                    .into_iter()
                    .filter(|v| !before.contains(&v.id))
                    .collect(),
                None => Vec::new(),
            },
            contests,
        })
    }

    /// Settles the contests that the events in the log's rows after `after` (what a sync
    /// just took in) enter, by authority (see the module), and gives each. The projection
    /// should be current (a sync refreshes it first).
    pub fn settle_claims(&mut self, after: u64) -> Result<Vec<Contest>, LedgerError> {
        let upto = self.store().extent()?;
        if upto <= after {
            return Ok(Vec::new());
        }
        let new = self.store().events_in_rows(after as i64, upto as i64)?;
        let mut groups: Vec<(Claim, Vec<Envelope>)> = Vec::new();
        for e in &new {
            let Some(claim) = e.event.claim(e.at) else {
                continue;
            };
            if groups.iter().any(|(c, _)| *c == claim) {
                continue;
            }
            let rivals: Vec<Envelope> = self
                .store()
                .events_of_character_dated(claim.character, e.at.plus(-WIDEST), e.at.plus(WIDEST))?
                .into_iter()
                .filter(|r| r.event.claim(r.at) == Some(claim))
                .collect();
            let devices: std::collections::BTreeSet<DeviceId> =
                rivals.iter().map(|r| r.device).collect();
            if devices.len() > 1 {
                groups.push((claim, rivals));
            }
        }
        if groups.is_empty() {
            return Ok(Vec::new());
        }
        let roster = Roster::from_log(&self.store().roster_events()?);
        let own = self.store().device();
        let gm = |d: DeviceId| match roster.entries.get(&d) {
            Some(e) => e.role == Role::Gm,
            None => roster.creator == Some(d) || !roster.in_use(),
        };
        let mut out = Vec::new();
        for (claim, rivals) in groups {
            let fates = self.fates()?;
            let void = |id: EventId| fates.void.iter().any(|v| v.id == id);
            // A contest the GM has ruled on already is the GM's ruling's.
            if rivals
                .iter()
                .any(|r| fates.retracted.iter().any(|(x, _, _)| *x == r.id))
            {
                continue;
            }
            let winner = rivals
                .iter()
                .find(|r| gm(r.device))
                .unwrap_or(&rivals[0])
                .clone();
            let kept = rivals.iter().find(|r| !void(r.id)).map(|r| r.id);
            let mut contest = Contest {
                claim,
                stands: winner.id,
                by_gm: gm(winner.device),
                others: rivals
                    .iter()
                    .filter(|r| r.id != winner.id)
                    .map(|r| r.id)
                    .collect(),
                struck: None,
                pending: None,
            };
            match kept {
                Some(k) if k != winner.id && contest.by_gm && gm(own) => {
                    // Every player's rival that stands or could once another is struck, and
                    // only if the GM's roll then stands (void for a reason of its own, it
                    // is left to the fold and the GM).
                    let players: Vec<EventId> = rivals
                        .iter()
                        .filter(|r| r.id != winner.id && !gm(r.device))
                        .map(|r| r.id)
                        .collect();
                    if self.strikes_for(&players, winner.id, claim.roll)? {
                        contest.struck = Some(k);
                    } else {
                        contest.pending = Some(k);
                    }
                }
                Some(k) if k != winner.id && contest.by_gm => contest.pending = Some(k),
                _ => {}
            }
            out.push(contest);
        }
        Ok(out)
    }
}
