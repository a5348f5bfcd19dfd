//! `leechbook board`: the live full-screen view of the campaign (see `crate::board`).

use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::Args;

/// `board`.
#[derive(Args, Debug)]
pub struct BoardArgs {
    /// Keep this ledger in sync with the hub at URL while the board runs (as `sync connect
    /// URL --watch`): what others record shows here within a second, and what is recorded
    /// here goes out.
    #[arg(long, value_name = "URL")]
    pub hub: Option<String>,
}

/// Runs the board until `q`; it needs a terminal.
pub fn cmd_board(a: BoardArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    if !ctx.terminal {
        return Err(CommandError::user(
            "the board needs a terminal (for a script: show, due and log --json)",
        ));
    }
    let db = ctx.db_path()?;
    let Some(url) = a.hub else {
        return crate::board::run(&db, None);
    };
    // The watch on a connection of its own; what it does is the board's message line.
    let mut store = ctx.open()?;
    let (said, news) = std::sync::mpsc::channel::<String>();
    let (stop, stopped) = futures::channel::oneshot::channel::<()>();
    let watching = std::thread::spawn(move || {
        let _ = said.send(format!("connecting to {url}..."));
        let tell = said.clone();
        let mut first = true;
        let done = leechbook_sync::net::watch(
            &mut store,
            &url,
            std::time::Duration::from_secs(30),
            super::sync::WATCH_EVERY,
            async {
                let _ = stopped.await;
            },
            &mut |d| {
                if std::mem::take(&mut first) {
                    let _ = tell.send(format!(
                        "in sync with {url} (a round whenever either side moves)"
                    ));
                }
                if d.imported.added > 0 || !d.imported.refused.is_empty() {
                    let _ = tell.send(format!(
                        "from {url}: took in {} new event(s){}",
                        d.imported.added,
                        if d.imported.refused.is_empty() {
                            String::new()
                        } else {
                            format!(", refused {} (see sync connect)", d.imported.refused.len())
                        }
                    ));
                }
            },
        );
        if let Err(e) = done {
            let _ = said.send(format!("no longer in sync with {url}: {e}"));
        }
    });
    let shown = crate::board::run(&db, Some(news));
    let _ = stop.send(());
    let _ = watching.join();
    shown
}
