//! `leechbook advance`: move the campaign clock forward.

use crate::error::CommandError;
use crate::narrate;
use crate::Ctx;
use clap::Args;
use leechbook_core::time::{parse_duration, CampaignTime};
use leechbook_core::Event;

/// Move the clock by a duration (30s, 10m, 4h, 5d, 2r for rounds, 1d4h) or --to an instant.
#[derive(Args, Debug)]
pub struct AdvanceArgs {
    /// How far: 30s, 10m, 4h, 5d, 2r (rounds), or sums like 1d4h.
    #[arg(required_unless_present = "to", conflicts_with = "to")]
    pub by: Option<String>,
    /// The instant to move to: "day 30 08:00".
    #[arg(long)]
    pub to: Option<String>,
}

/// Records the clock's move.
pub fn cmd_advance(a: AdvanceArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let (ledger, env, applied) = ctx.record(|ledger, _| {
        let to = match (&a.by, &a.to) {
            (Some(by), _) => {
                let round = ledger.campaign.as_ref().map_or(10, |c| c.round_seconds);
                let secs =
                    parse_duration(by, round).map_err(|e| CommandError::user(e.to_string()))?;
                if secs <= 0 {
                    return Err(CommandError::user(format!(
                        "advance by {by}: the clock only moves forward"
                    )));
                }
                ledger.now.plus(secs)
            }
            (None, Some(to)) => {
                let t = CampaignTime::parse(to).map_err(|e| CommandError::user(e.to_string()))?;
                if t <= ledger.now {
                    return Err(CommandError::user(format!(
                        "the clock is at {}; it cannot go back or stay at {t}",
                        ledger.now
                    )));
                }
                t
            }
            (None, None) => return Err(CommandError::user("advance by how much?")),
        };
        Ok((Event::ClockAdvanced { to }, Some(to)))
    })?;
    ctx.say(narrate::event(&ledger, &env, &applied));
    Ok(())
}
