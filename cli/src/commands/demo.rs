//! `leechbook demo`: records the sample fight of `fixtures/demo/harnmaster.txt` into a fresh
//! ledger and shows the wounded character and the log. The fight gives every die, so the demo
//! prints the same every time.

use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::Args;
use leechbook_core::SystemId;
use leechbook_store::Store;
use std::path::PathBuf;

/// The demo fight: one `leechbook` command line per line (`#` starts a comment).
pub const FIGHT: &str = include_str!("../../../fixtures/demo/harnmaster.txt");

/// The Savage Worlds demo fight.
pub const SAVAGE_WORLDS: &str = include_str!("../../../fixtures/demo/savage-worlds.txt");

/// The Wrath & Glory demo fight.
pub const WRATH_GLORY: &str = include_str!("../../../fixtures/demo/wrath-glory.txt");

/// The Witch Iron demo fight.
pub const WITCH_IRON: &str = include_str!("../../../fixtures/demo/witch-iron.txt");

/// Record the demo fight.
#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Where to write the demo ledger (replaced if it is an earlier demo ledger). Default:
    /// the ledger --db or $LEECHBOOK_DB names, else ./leechbook-demo.db.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Which system's fight.
    #[arg(long, default_value = "harnmaster", value_parser = super::system_arg())]
    pub system: SystemId,
}

fn words(line: &str) -> Vec<String> {
    // Splits on spaces, keeping "double quoted" words together.
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Runs the demo.
pub fn cmd_demo(a: DemoArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    // --out, else the global --db / $LEECHBOOK_DB (clap folds both into ctx.db), else the
    // demo's own file. The guard below still refuses to replace anything but a demo ledger.
    let path = a
        .out
        .or_else(|| ctx.db.clone())
        .unwrap_or_else(|| PathBuf::from("leechbook-demo.db"));
    if path.exists() {
        // Only an earlier demo ledger is replaced; anything else is left alone.
        let store = Store::open(&path).map_err(|e| {
            CommandError::user(format!(
                "{} exists and is not a demo ledger ({e}); pass --out",
                path.display()
            ))
        })?;
        let events = store.events()?;
        let is_demo = matches!(
            events.first().map(|e| &e.event),
            Some(leechbook_core::Event::CampaignCreated { name, .. }) if name == "demo"
        );
        drop(store);
        if !is_demo {
            return Err(CommandError::user(format!(
                "{} is a ledger of another campaign; the demo will not replace it (pass --out)",
                path.display()
            )));
        }
        for suffix in ["", "-wal", "-shm"] {
            let mut p = path.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(PathBuf::from(p));
        }
    }
    let db = path.display().to_string();
    let fight = match a.system {
        SystemId::HarnMaster => FIGHT,
        SystemId::SavageWorlds => SAVAGE_WORLDS,
        SystemId::WrathGlory => WRATH_GLORY,
        SystemId::WitchIron => WITCH_IRON,
    };
    let program = ctx
        .program
        .ok_or_else(|| CommandError::internal("the demo runs in the program"))?;
    for line in fight.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut args = vec!["leechbook".to_string(), "--db".into(), db.clone()];
        args.extend(words(line));
        ctx.say(format!("$ leechbook {line}"));
        let out = (program.run)(args);
        ctx.out.push_str(&out.stdout);
        ctx.err.push_str(&out.stderr);
        if out.code != 0 {
            return Err(CommandError::internal(format!(
                "the demo step '{line}' failed"
            )));
        }
    }
    ctx.say(format!(
        "(the demo ledger is {db}; try `leechbook --db {} log --json`)",
        super::shell_word(&db)
    ));
    Ok(())
}
