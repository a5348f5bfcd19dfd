//! `leechbook diff NAME --from A --to B`: what changed about a character between two moments.

use crate::ctx::Ctx;
use crate::error::CommandError;
use crate::views;
use clap::Args;
use leechbook_story::diff::{changes, flat_view, in_words};

/// Compare a character at two moments (event ids, campaign times or wall times).
#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The character.
    pub name: String,
    /// The earlier moment.
    #[arg(long, value_name = "MOMENT")]
    pub from: String,
    /// The later moment (default: now).
    #[arg(long, value_name = "MOMENT")]
    pub to: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Prints the changes.
pub fn cmd_diff(a: DiffArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let (from, to) =
        leechbook_story::diff::ends(&ctx.replica()?, &a.name, &a.from, a.to.as_deref())?;
    let (before, after) = (flat_view(&from, &a.name), flat_view(&to, &a.name));
    let list = changes(&before, &after);
    if a.json {
        return ctx.json(&serde_json::json!({
            "type": "diff",
            "schema_version": views::JSON_SCHEMA,
            "character": a.name,
            "changes": list,
        }));
    }
    if list.is_empty() {
        ctx.say("no change");
    }
    for c in in_words(&before, &after) {
        ctx.say(c);
    }
    Ok(())
}
