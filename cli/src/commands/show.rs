//! `leechbook show NAME`: a character's injuries, shock state, impairment and owed rolls.

use crate::ctx::Ctx;
use crate::error::CommandError;
use crate::views;
use clap::Args;

/// Show a character.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The character.
    pub name: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Show the state at a moment: an event id, a campaign time ("day 3 08:00") or a wall
    /// time (RFC 3339).
    #[arg(long, value_name = "MOMENT")]
    pub at: Option<String>,
}

/// Prints the character.
pub fn cmd_show(a: ShowArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    cmd_show_any(a, ctx)
}

fn cmd_show_any(a: ShowArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let ledger = match &a.at {
        None => ctx.load_for(&[a.name.as_str()])?.1,
        Some(spec) => {
            let (l, label) = if leechbook_ledger::moment::is_event_spec(spec) {
                // An event: the record up to it, from the latest snapshot at or before it.
                let replica = ctx.replica()?;
                let key = leechbook_ledger::moment::event_key(replica.store(), spec)?;
                let label = format!("event {}", spec.trim());
                (replica.state_for_upto(&[a.name.as_str()], key)?, label)
            } else {
                // A campaign or wall time (what is not an event): from a checkpoint and the
                // stretch of the log after it, or the cut folded as the log streams, in one
                // read transaction (a recording meanwhile never tears it).
                let store = ctx.open()?;
                let read = store.read()?;
                leechbook_ledger::moment::state_for_at_time(&read, &[a.name.as_str()], spec)?
                    .ok_or_else(|| {
                        CommandError::internal(format!("'{spec}' is neither an event nor a time"))
                    })?
            };
            if l.character_named(&a.name).is_none()
                && ctx.load_head()?.1.id_named(&a.name).is_some()
            {
                return Err(CommandError::user(format!(
                    "{} had not joined the campaign by {label}",
                    a.name
                )));
            }
            l
        }
    };
    let ch = super::find_any(&ledger, &a.name)?;
    if a.json {
        let text = views::view_json(&ledger, ch)?;
        ctx.say(text);
        Ok(())
    } else {
        let text = views::render_any(&ledger, ch);
        ctx.out.push_str(&text);
        Ok(())
    }
}
