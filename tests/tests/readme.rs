//! The README runs as written (issue 26, item 10): every command of its "Using it" section,
//! in order, on fresh ledgers in a scratch directory, must succeed. So the walkthrough a
//! newcomer types can never drift from what Leechbook does.
//!
//! What the test cannot type as a newcomer would, it stands in for, and says so here:
//! - the words in capitals that the README asks the reader to fill in: `INJURY` (the short
//!   id of the named character's first open injury, as `show` prints it), `STRIKE` and
//!   `ROLL` (the number `log` prints before the campaign's first strike, and before its
//!   latest Healing Sequence roll), `ANN-DEVICE ANN-KEY` and
//!   `BO-DEVICE BO-KEY` (what `device show` prints on those ledgers);
//! - a file name: written in the scratch directory; `fixtures/...`: the repository's own;
//! - `> FILE`: standard output written to that file;
//! - the dice Leechbook rolls where a line gives no `--seed`: seeded (`--seed 11`), so that
//!   the walk is the same on every run;
//! - lines it skips, each for a stated reason: a terminal program (`board`, `--ask`, `man`),
//!   the network block (a hub on another machine: `ws://GM-LAPTOP`, `sync serve`, whose own
//!   tests are `sync_network.rs`), and the shell set-up lines (`echo ... >> ~/.bashrc`).

use std::path::{Path, PathBuf};

/// The README's "Using it" section.
fn using_it() -> String {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .expect("the README");
    let start = readme.find("\n## Using it").expect("a 'Using it' section");
    let rest = &readme[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    rest[..end].to_string()
}

/// The command lines of the section's `sh` blocks, in order: continuation lines joined,
/// comments dropped, `a && b` split in two; the network block (the one with `ws://`) left
/// out.
fn commands(section: &str) -> Vec<String> {
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    let mut in_block = false;
    for line in section.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block && line.trim() == "```sh";
            if in_block {
                blocks.push(Vec::new());
            }
            continue;
        }
        if in_block {
            blocks.last_mut().expect("a block").push(line);
        }
    }
    let mut out = Vec::new();
    let mut pending = String::new();
    for block in blocks
        .iter()
        .filter(|b| !b.iter().any(|l| l.contains("ws://")))
    {
        for line in block {
            let line = strip_comment(line);
            let (line, more) = match line.strip_suffix('\\') {
                Some(l) => (l, true),
                None => (line.as_str(), false),
            };
            pending.push_str(line.trim());
            pending.push(' ');
            if !more {
                for part in pending.split("&&") {
                    let part = part.trim();
                    if !part.is_empty() {
                        out.push(part.to_string());
                    }
                }
                pending.clear();
            }
        }
    }
    out
}

/// A line without its `# comment` (a `#` outside quotes that starts a word).
fn strip_comment(line: &str) -> String {
    let mut quoted = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match (quoted, c) {
            (None, '"' | '\'') => quoted = Some(c),
            (Some(q), c) if c == q => quoted = None,
            (None, '#') if prev.is_whitespace() => return line[..i].trim_end().to_string(),
            _ => {}
        }
        prev = c;
    }
    line.trim_end().to_string()
}

/// A command line's words, as a shell splits them (quotes kept together).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = None;
    let mut any = false;
    for c in line.chars() {
        match (quoted, c) {
            (None, '"' | '\'') => {
                quoted = Some(c);
                any = true;
            }
            (Some(q), c) if c == q => quoted = None,
            (None, c) if c.is_whitespace() => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            (_, c) => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

/// Why the test does not run a line, if it does not.
fn skipped(line: &str) -> Option<&'static str> {
    if !line.starts_with("leechbook") {
        return Some("a shell set-up line");
    }
    if line.contains("ws://") || line.contains("sync serve") {
        return Some("the network block (sync_network.rs)");
    }
    if line.contains(" board") || line.contains("--ask") || line.contains(" man") {
        return Some("a terminal program");
    }
    if line.contains(" completions ") {
        return Some("writes into the home directory");
    }
    None
}

struct Walk {
    dir: PathBuf,
    repo: PathBuf,
}

impl Walk {
    fn run(&self, args: &[String]) -> leechbook::Output {
        let mut all = vec!["leechbook".to_string()];
        all.extend(args.iter().cloned());
        leechbook::run(all)
    }

    fn ok(&self, args: &[&str]) -> String {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let out = self.run(&args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        out.stdout
    }

    /// A file the README names: the repository's fixtures as they are, anything else in the
    /// scratch directory.
    fn file(&self, name: &str) -> String {
        let p = if name.starts_with("fixtures/") {
            self.repo.join(name)
        } else {
            self.dir.join(name)
        };
        p.display().to_string()
    }

    fn db_of<'a>(&self, args: &'a [String]) -> Option<&'a str> {
        let i = args.iter().position(|a| a == "--db")?;
        args.get(i + 1).map(String::as_str)
    }

    /// The placeholders of a command, filled in from the ledgers as they stand.
    fn fill(&self, args: Vec<String>) -> Vec<String> {
        let db = self.db_of(&args).map(str::to_string);
        let character = args
            .iter()
            .position(|a| !a.starts_with('-') && a != "leechbook" && Some(a) != db.as_ref())
            .and_then(|i| args.get(i + 1))
            .cloned();
        args.into_iter()
            .map(|a| match a.as_str() {
                "INJURY" => {
                    let db = db.as_deref().expect("a --db");
                    let who = character.as_deref().expect("a character");
                    let v: serde_json::Value =
                        serde_json::from_str(&self.ok(&["--db", db, "show", who, "--json"]))
                            .unwrap();
                    v["injuries"]
                        .as_array()
                        .and_then(|a| a.iter().find(|i| i["healed"] == false))
                        .and_then(|i| i["short_id"].as_str())
                        .unwrap_or_else(|| panic!("{who} has no open injury: {v}"))
                        .to_string()
                }
                "STRIKE" | "ROLL" => {
                    let db = db.as_deref().expect("a --db");
                    let log: Vec<serde_json::Value> =
                        serde_json::from_str(&self.ok(&["--db", db, "log", "--json"])).unwrap();
                    let event = if a == "STRIKE" {
                        log.iter().find(|e| e["kind"] == "hm.strike")
                    } else {
                        log.iter()
                            .rev()
                            .find(|e| e["kind"] == "hm.seq-roll" || e["kind"] == "sw.bleeding-out")
                    };
                    let event = event.unwrap_or_else(|| panic!("no {a} in {log:?}"));
                    format!("#{}", event["clock"])
                }
                "ANN-DEVICE" | "ANN-KEY" | "BO-DEVICE" | "BO-KEY" => {
                    let who = if a.starts_with("ANN") {
                        "ann.db"
                    } else {
                        "bo.db"
                    };
                    let out = self.ok(&["--db", &self.file(who), "device", "show"]);
                    let field = if a.ends_with("DEVICE") {
                        "device"
                    } else {
                        "key"
                    };
                    out.lines()
                        .find_map(|l| l.strip_prefix(field))
                        .map(|v| v.trim().to_string())
                        .unwrap_or_else(|| panic!("no {field} in {out}"))
                }
                _ => a,
            })
            .collect()
    }
}

#[test]
fn the_readme_walkthrough_runs_as_written() {
    let section = using_it();
    let lines = commands(&section);
    assert!(lines.len() > 40, "the section's commands: {lines:?}");
    let dir = tempfile::tempdir().unwrap();
    let walk = Walk {
        dir: dir.path().to_path_buf(),
        repo: Path::new(env!("CARGO_MANIFEST_DIR")).join(".."),
    };
    let files = [
        ".db", ".sync", ".join", ".json", ".csv", ".svg", ".png", ".toml",
    ];
    let mut ran = 0;
    for line in &lines {
        if skipped(line).is_some() {
            continue;
        }
        let mut args = words(line);
        args.remove(0); // leechbook
                        // `> FILE`: standard output into a file.
        let redirect = args.iter().position(|a| a == ">").map(|i| {
            let to = args[i + 1].clone();
            args.truncate(i);
            to
        });
        let args: Vec<String> = args
            .into_iter()
            .map(|a| {
                if files.iter().any(|e| a.ends_with(e)) && !a.starts_with('-') {
                    walk.file(&a)
                } else {
                    a
                }
            })
            .collect();
        let mut args = walk.fill(args);
        // The dice Leechbook rolls: seeded, so that the walk is the same on every run.
        if !args.iter().any(|a| a == "--seed") {
            args.splice(0..0, ["--seed".to_string(), "11".to_string()]);
        }
        let out = walk.run(&args);
        // The walk so far, shown when a line fails.
        eprintln!("$ {line}\n{}{}", out.stdout, out.stderr);
        assert_eq!(
            out.code, 0,
            "the README's line `{line}` fails:\n{}{}",
            out.stdout, out.stderr
        );
        if let Some(to) = redirect {
            std::fs::write(walk.file(&to), &out.stdout).unwrap();
        }
        ran += 1;
    }
    assert!(ran > 40, "ran {ran} lines");
}
