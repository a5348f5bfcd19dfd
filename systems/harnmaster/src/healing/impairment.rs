//! Step 8: impairment with the healing sequence's refinements (indefinite and permanent).

use super::healing_rate;
use super::tables::TreatmentTable;
use crate::state::{Injury, Severity};
use crate::time::{CampaignTime, DAY, MINUTE};

/// Returns the permanent impairment an injury has accrued by `now`: 5 per 20 days from the
/// injury until it first reached Minor, at most 25 (only with the permanent mark).
///
/// Readings (step 8 "Healing Days", pinned by tests): an injury never worse than Minor took
/// no days to heal to Minor, so it accrues none, whatever its cell is marked. The mark read
/// is the one the injury healed under before it reached Minor: its treatment's cell, or
/// (untreated) the CF cell of its worst severity, not of its current one (Minor by then,
/// which would forget what it accrued while Serious).
pub fn permanent_impairment(inj: &Injury, table: &TreatmentTable, now: CampaignTime) -> i32 {
    let permanent = match &inj.heal.treatment {
        Some(t) => t.cell.permanent,
        None => table.column_at(inj, Severity::of_level(inj.worst)).cells[0].permanent,
    };
    if inj.worst <= 1 || !permanent {
        return 0;
    }
    let until = inj.heal.minor_at.unwrap_or(now).min(now);
    let days = (until.0 - inj.inflicted_at.0).max(0) / DAY;
    ((days / 20) as i32 * 5).min(25)
}

/// Returns an injury's impairment at `now` (points, unusable), with step 8's rules: a Minor
/// injury imparts 5 only with HR5 or less (and not in the first ten minutes after a successful
/// shock roll); Serious 10; Grievous unusable; permanent impairment where marked, the higher
/// of the two applying (ignored while Grievous).
pub fn impairment_of(inj: &Injury, table: &TreatmentTable, now: CampaignTime) -> (i32, bool) {
    let permanent = permanent_impairment(inj, table, now);
    if inj.healed() {
        return (permanent, inj.severed);
    }
    let indefinite = match inj.severity() {
        Severity::Grievous => return (0, true),
        Severity::Serious => 10,
        Severity::Minor => {
            let deferred = inj.shock_roll_succeeded && now < inj.inflicted_at.plus(10 * MINUTE);
            if deferred || healing_rate(inj, table) >= 6 {
                0
            } else {
                5
            }
        }
    };
    (indefinite.max(permanent), inj.severed)
}
