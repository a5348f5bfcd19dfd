//! `leechbook diff NAME --from A --to B`: what changed about a character between two moments.

use crate::error::CommandError;
use crate::views;
use crate::Ctx;
use clap::Args;
use leechbook_core::fold::Ledger;
use leechbook_ledger::moment::{moment_of, state_at as ledger_at, states_at_times};
use serde_json::Value;
use std::collections::BTreeMap;

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

/// Flattens a character view into `path -> value`, injuries keyed by their short id.
pub fn flatten(v: &Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    fn walk(prefix: &str, v: &Value, out: &mut BTreeMap<String, String>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    if matches!(
                        k.as_str(),
                        "owed" | "campaign_time" | "impaired_tests" | "type" | "schema_version"
                    ) && prefix.is_empty()
                    {
                        continue;
                    }
                    let p = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&p, x, out);
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    let key = x
                        .get("short_id")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .unwrap_or_else(|| i.to_string());
                    walk(&format!("{prefix}[{key}]"), x, out);
                }
            }
            other => {
                out.insert(prefix.to_string(), other.to_string());
            }
        }
    }
    walk("", v, &mut out);
    out
}

/// Lists the changes between two flattened views as `path: old -> new`.
pub fn changes(a: &BTreeMap<String, String>, b: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    for (k, new) in b {
        match a.get(k) {
            Some(old) if old == new => {}
            Some(old) => out.push(format!("{k}: {old} -> {new}")),
            None => out.push(format!("{k}: (none) -> {new}")),
        }
    }
    for (k, old) in a {
        if !b.contains_key(k) {
            out.push(format!("{k}: {old} -> (none)"));
        }
    }
    out
}

/// The view of a character in a ledger, flattened (empty if they had not joined).
pub fn flat_view(ledger: &Ledger, name: &str) -> BTreeMap<String, String> {
    match ledger.character_named(name) {
        Some(c) => flatten(&views::view(ledger, c)),
        None => BTreeMap::new(),
    }
}

/// Prints the changes.
pub fn cmd_diff(a: DiffArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    // The whole state now only when it is one end of the diff; the name is checked on the
    // roll either way.
    let (store, now) = match a.to {
        Some(_) => ctx.load_head()?,
        None => ctx.load()?,
    };
    if now.id_named(&a.name).is_none() {
        super::find_any(&now, &a.name)?;
    }
    // Campaign or wall times are read from one pass of the streamed log; a moment given as
    // an event holds the log up to it. `now` is a diff's end only when there is no --to.
    let specs: Vec<&str> = std::iter::once(a.from.as_str())
        .chain(a.to.as_deref())
        .collect();
    let (from, to) = match states_at_times(&store, &specs)? {
        Some(mut at) => {
            let to = match a.to {
                Some(_) => at.pop().map(|(l, _)| l),
                None => None,
            };
            let from = at.pop().map(|(l, _)| l).unwrap_or_default();
            (from, to.unwrap_or(now))
        }
        None => {
            let from = ledger_at(&moment_of(&store, &a.from)?);
            let to = match &a.to {
                Some(spec) => ledger_at(&moment_of(&store, spec)?),
                None => now,
            };
            (from, to)
        }
    };
    let list = changes(&flat_view(&from, &a.name), &flat_view(&to, &a.name));
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
    for c in list {
        ctx.say(c);
    }
    Ok(())
}
