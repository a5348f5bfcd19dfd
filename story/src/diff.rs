//! What changed about a character between two moments (event ids, campaign times or wall
//! times): each end as a view reads it, flattened to `path -> value`, and the changes in
//! words. What `diff` and `what-if` print.

use crate::StoryError;
use leechbook_core::fold::Ledger;
use leechbook_ledger::lookup;
use leechbook_ledger::moment::{event_key, is_event_spec, state_from_checkpoint, states_at_times};
use leechbook_ledger::{LedgerError, Replica};
use leechbook_store::Log;
use leechbook_views as views;
use serde_json::Value;
use std::collections::BTreeMap;

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
                    // A wound by its id; an entry that names itself (an attribute's `name`)
                    // by its name, which a reader reads; else by its place in the list.
                    let named = x.get("name").and_then(Value::as_str);
                    match (x.get("short_id").and_then(Value::as_str), named) {
                        (Some(id), _) => walk(&format!("{prefix}[{id}]"), x, out),
                        (None, Some(name)) => {
                            let mut x = x.clone();
                            if let Some(m) = x.as_object_mut() {
                                m.remove("name");
                            }
                            walk(&format!("{prefix}.{name}"), &x, out)
                        }
                        (None, None) => walk(&format!("{prefix}[{i}]"), x, out),
                    }
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

/// The changes between two flattened views in words, for a reader: `injury ab12 (right
/// shoulder) code: G4E -> S3E`, `blood loss: 0 -> 2`. An injury's level, severity and worst
/// level are left to its code, which says them; values lose their JSON quotes.
pub fn in_words(a: &BTreeMap<String, String>, b: &BTreeMap<String, String>) -> Vec<String> {
    let value = |v: Option<&String>| match v.map(String::as_str) {
        None | Some("null") => "none".to_string(),
        Some(v) => v.trim_matches('"').to_string(),
    };
    let mut keys: Vec<&String> = b.keys().chain(a.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut out = Vec::new();
    // An injury on one side only is one line, not a line per field.
    let injury_of = |k: &String| {
        k.strip_prefix("injuries[")
            .and_then(|r| r.split_once("]."))
            .map(|(id, _)| id.to_string())
    };
    let ids = |m: &BTreeMap<String, String>| -> std::collections::BTreeSet<String> {
        m.keys().filter_map(injury_of).collect()
    };
    let (before, after) = (ids(a), ids(b));
    // A wound by its place and code (`abdomen S2E`), or what it is where a system names it
    // so (a Savage Worlds injury's `Guts: Battered`): never a hex id or a list's place.
    let whole = |m: &BTreeMap<String, String>, id: &str| {
        let at = |f: &str| {
            m.get(&format!("injuries[{id}].{f}"))
                .map(|v| value(Some(v)))
        };
        let place = match (at("side"), at("location")) {
            (Some(s), Some(l)) if s != "none" => format!("{s} {l}"),
            (_, Some(l)) => l,
            _ => String::new(),
        };
        match (place.as_str(), at("code"), at("what")) {
            ("", None, Some(what)) => what,
            (place, code, _) => format!("{place} {}", code.unwrap_or_default())
                .trim()
                .to_string(),
        }
    };
    for id in before.difference(&after) {
        out.push(format!(
            "the {} wound: no longer on the record",
            whole(a, id)
        ));
    }
    for id in after.difference(&before) {
        out.push(format!("the {} wound: new", whole(b, id)));
    }
    for k in keys {
        let (old, new) = (a.get(k), b.get(k));
        // A key on one side only that says nothing ("none") is no change.
        if value(old) == value(new) {
            continue;
        }
        if injury_of(k).is_some_and(|id| !before.contains(&id) || !after.contains(&id)) {
            continue;
        }
        let (what, field) = match k.strip_prefix("injuries[").and_then(|r| r.split_once("].")) {
            Some((id, field)) => {
                if matches!(field, "level" | "severity" | "worst" | "short_id" | "id") {
                    continue;
                }
                // By its place, and its code as it was where another wound shares the place.
                let place_of = |m: &BTreeMap<String, String>, id: &str| {
                    let w = whole(m, id);
                    match w.rsplit_once(' ') {
                        Some((place, _)) if m.contains_key(&format!("injuries[{id}].code")) => {
                            place.to_string()
                        }
                        _ => w,
                    }
                };
                let place = place_of(b, id);
                let shared = after.iter().filter(|o| place_of(b, o) == place).count() > 1;
                let name = if shared { whole(a, id) } else { place };
                (format!("the {name} wound's "), field.to_string())
            }
            None => (String::new(), k.clone()),
        };
        // A list's place (`[0]`) says nothing to a reader: the values say which.
        let mut words = String::new();
        let mut in_index = false;
        for c in field.chars() {
            match c {
                '[' => in_index = true,
                ']' => in_index = false,
                '_' | '.' if !in_index => words.push(' '),
                c if !in_index => words.push(c),
                _ => {}
            }
        }
        // A yes-or-no says so.
        let said = |v: String| match v.as_str() {
            "true" => "yes".to_string(),
            "false" => "no".to_string(),
            _ => v,
        };
        out.push(format!(
            "{what}{}: {} -> {}",
            words.trim(),
            said(value(old)),
            said(value(new))
        ));
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

/// The ledger at the two moments `from` and `to` (None: now), holding the character
/// `name`: each end as a view of it reads it (now, from the projection; at an event, from
/// the latest checkpoint before it; at a campaign or wall time, from a checkpoint and the
/// stretch that can hold the moment, else the log streamed once for both ends).
pub fn ends<L: Log>(
    replica: &Replica<L>,
    name: &str,
    from: &str,
    to: Option<&str>,
) -> Result<(Ledger, Ledger), StoryError> {
    let (from_spec, to_spec) = (from, to);
    // Each end is the character as a view of it reads it: now, from the projection; at an
    // event, from the latest checkpoint before it; at a campaign or wall time, from a
    // checkpoint and the stretch that can hold the moment (else the log streamed once for
    // both ends). The name is checked on the roll.
    let now = replica.state_for(&[name])?;
    let store = replica.store();
    if now.id_named(name).is_none() {
        lookup::character(&now, name)?;
    }
    // The moments in one read transaction: a recording meanwhile never tears them.
    let store = store.read()?;
    let at = |spec: &str| -> Result<Option<Ledger>, StoryError> {
        if is_event_spec(spec) {
            let key = event_key(&store, spec)?;
            return Ok(Some(leechbook_ledger::checkpoint::state_for_upto(
                &store,
                &[name],
                key,
            )?));
        }
        Ok(state_from_checkpoint(&store, &[name], spec)?.map(|(l, _)| l))
    };
    let from = at(from)?;
    let to = match to {
        Some(spec) => at(spec)?,
        None => Some(now),
    };
    let (from, to) = match (from, to) {
        (Some(from), Some(to)) => (from, to),
        (from, to) => {
            // What no checkpoint served: the times left, in one pass of the streamed log.
            let specs: Vec<&str> = [(&from, Some(from_spec)), (&to, to_spec)]
                .into_iter()
                .filter(|(l, _)| l.is_none())
                .filter_map(|(_, s)| s)
                .collect();
            let mut streamed = states_at_times(&store, &specs)?
                .ok_or_else(|| {
                    LedgerError::Internal("a moment is neither an event nor a time".into())
                })?
                .into_iter()
                .map(|(l, _)| l);
            let mut next = || streamed.next().unwrap_or_default();
            let from = from.unwrap_or_else(&mut next);
            let to = to.unwrap_or_else(&mut next);
            (from, to)
        }
    };
    Ok((from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 26, item 8: `diff` in words: an injury by its place (issue 41: no id), its code
    /// standing for its level and severity, no JSON paths or quotes.
    #[test]
    fn changes_read_as_words() {
        let view = |code: &str, level: u8, bp: u8, terms: Value| {
            flatten(&serde_json::json!({
                "blood_loss": bp,
                "fatigue_terms": terms,
                "injuries": [{"short_id": "ab12", "location": "shoulder", "side": "right",
                              "code": code, "level": level, "severity": "grievous"}],
            }))
        };
        let before = view("G4E", 4, 0, serde_json::json!([]));
        let after = view("S3E", 3, 2, serde_json::json!(["anaemia 10"]));
        assert_eq!(
            in_words(&before, &after),
            vec![
                "blood loss: 0 -> 2",
                "fatigue terms: none -> anaemia 10",
                "the right shoulder wound's code: G4E -> S3E",
            ]
        );
    }
}
