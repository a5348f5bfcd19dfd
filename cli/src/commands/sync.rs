//! `leechbook sync export|import FILE`: the file transport, for devices that never meet online;
//! `leechbook sync connect URL` and `sync serve`: the network transport (automerge-repo's
//! sync protocol over WebSocket), through any automerge-repo sync server or a device serving
//! as the hub.

use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::{Args, Subcommand};
use leechbook_ledger::LedgerError;
use leechbook_sync::net::{interrupted, serve_with, sync_with, HubReport};
use leechbook_sync::{export, import, FileTransport, Transport};
use std::path::PathBuf;
use std::time::Duration;

/// Sync commands.
#[derive(Subcommand, Debug)]
pub enum SyncCommand {
    /// Write a sync file: everything, or (with --to) what that device lacks.
    Export(ExportArgs),
    /// Merge a sync file into this ledger (all or nothing; events already here are skipped).
    Import(FileArgs),
    /// Sync through a hub (an automerge-repo sync server, or a device running `sync serve`):
    /// send what it lacks, take in what this ledger lacks (each event checked; refused events
    /// are listed and the rest still land).
    Connect(ConnectArgs),
    /// Serve this ledger's campaign as the hub other devices connect to, until Ctrl-C; what
    /// they send lands in this ledger as it arrives.
    Serve(ServeArgs),
    /// Invite a new device (GM): with FILE, write a join file (the campaign's keys and its
    /// events) for `init --join FILE`; without, print the join code for `init --join URL
    /// --campaign CODE`. Whoever holds either reads the campaign: hand it over like a key.
    Invite(InviteArgs),
    /// Take the campaign's keys from a join code into this ledger (a device of a campaign
    /// begun before encryption, or one the GM gives the keys again).
    Key(KeyArgs),
}

/// `sync invite`.
#[derive(Args, Debug)]
pub struct InviteArgs {
    /// The join file to write; without it, the join code is printed.
    pub file: Option<PathBuf>,
}

/// `sync key`.
#[derive(Args, Debug)]
pub struct KeyArgs {
    /// The join code (from `sync invite` on a GM's device).
    pub code: String,
}

/// `sync connect`.
#[derive(Args, Debug)]
pub struct ConnectArgs {
    /// The hub's WebSocket address, e.g. ws://192.168.1.20:3030.
    pub url: String,
    /// Give up after this many seconds without progress.
    #[arg(long, default_value_t = 30, value_name = "SECONDS")]
    pub timeout: u64,
    /// Stay connected until Ctrl-C: sync again whenever this ledger gains an event or the
    /// hub moves, sending only what changed.
    #[arg(long)]
    pub watch: bool,
}

/// `sync serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on. The default serves only this machine; the table's network
    /// needs e.g. 0.0.0.0:3030.
    #[arg(long, default_value = "127.0.0.1:3030", value_name = "ADDR")]
    pub listen: String,
}

/// `sync export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The sync file.
    pub file: PathBuf,
    /// The device the file is for (its id from `device show`): only the changes since the
    /// last export to it are written. Without it, everything.
    #[arg(long, value_name = "DEVICE")]
    pub to: Option<String>,
}

/// A sync file.
#[derive(Args, Debug)]
pub struct FileArgs {
    /// The sync file.
    pub file: PathBuf,
}

/// How often a watching device looks for a change of its ledger or of the hub.
pub const WATCH_EVERY: Duration = Duration::from_millis(100);

/// "1 event", "2 new events".
fn events(n: usize, what: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{n} {what}{s}")
}
/// Runs a sync command.
pub fn cmd_sync(c: SyncCommand, ctx: &mut Ctx) -> Result<(), CommandError> {
    match c {
        SyncCommand::Export(a) => export_file(a, ctx),
        SyncCommand::Import(a) => import_file(a, ctx),
        SyncCommand::Connect(a) if a.watch => connect_watch(a, ctx),
        SyncCommand::Connect(a) => connect(a, ctx),
        SyncCommand::Invite(a) => invite(a, ctx),
        SyncCommand::Key(a) => key(a, ctx),
        SyncCommand::Serve(a) => serve(a, ctx),
    }
}

/// `sync export FILE`: the events to a file.
fn export_file(a: ExportArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let to = a.to.as_deref().map(super::device::device_id).transpose()?;
    let mut store = ctx.open()?;
    let x = export(&mut store, &mut FileTransport { path: &a.file }, to)?;
    let what = if x.incremental {
        format!(
            "the changes device {} lacks",
            to.map(|d| d.short()).unwrap_or_default()
        )
    } else {
        format!("all {}", events(x.events, "event"))
    };
    ctx.say(format!(
        "exported {what} to {} ({} bytes)",
        a.file.display(),
        x.bytes
    ));
    Ok(())
}

/// `sync import FILE`: the events of a file taken in.
fn import_file(a: FileArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let _progress = crate::progress::Progress::start(
        ctx,
        &format!("importing {}", a.file.display()),
        None,
        false,
    );
    let (got, taken) = ctx.replica()?.import(|store| {
        Ok::<_, CommandError>(import(store, &mut FileTransport { path: &a.file })?)
    })?;
    report(ctx, &got);
    let db = ctx.db_path()?;
    for line in taken_lines(taken, &db) {
        ctx.note(line);
    }
    ctx.say(format!(
        "imported {} from {}",
        events(got.added, "new event"),
        a.file.display()
    ));
    Ok(())
}

/// `sync connect URL --watch`: in sync whenever either side moves, until interrupted.
fn connect_watch(a: ConnectArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let mut store = ctx.open()?;
    let db = ctx.db_path()?;
    let url = a.url.clone();
    let mut left_out = None;
    let mut seen_row = store.extent()?;
    println!("watching {url}: in sync whenever this ledger or the hub moves (Ctrl-C stops)");
    leechbook_sync::net::watch(
        &mut store,
        &a.url,
        Duration::from_secs(a.timeout),
        WATCH_EVERY,
        interrupted(),
        &mut |done| {
            for r in &done.imported.refused {
                eprintln!("refused: {r}");
            }
            for g in &done.imported.gaps {
                eprintln!("gap: {g}");
            }
            if done.imported.restored > 0 {
                eprintln!(
                    "put back {}: the other side had deleted them (this ledger's log holds them, and it offers them again)",
                    events(done.imported.restored, "event")
                );
            }
            if done.imported.added > 0 {
                println!(
                    "took in {}; the ledger holds {}",
                    events(done.imported.added, "new event"),
                    events(done.events as usize, "event")
                );
                // The projection brought up to date, as after a one-shot sync.
                for line in taken_in(&db, seen_row) {
                    eprintln!("{line}");
                }
                if let Ok(s) = leechbook_store::Store::open(&db) {
                    seen_row = s.extent().unwrap_or(seen_row);
                }
            }
            left_out = done.left_out_by;
            let _ = std::io::Write::flush(&mut std::io::stdout());
        },
    )?;
    revoked_here(&store, left_out)?;
    Ok(())
}

/// `sync connect URL`: one sync with a hub.
fn connect(a: ConnectArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let _progress =
        crate::progress::Progress::start(ctx, &format!("syncing with {}", a.url), None, false);
    let mut replica = ctx.replica()?;
    let (done, taken) = replica.import(|store| {
        Ok::<_, CommandError>(sync_with(store, &a.url, Duration::from_secs(a.timeout))?)
    })?;
    let revoked = revoked_here(replica.store(), done.left_out_by);
    let gm = leechbook_sync::crypt::is_gm_device(replica.store())?;
    drop(replica);
    report(ctx, &done.imported);
    let db = ctx.db_path()?;
    for line in taken_lines(taken, &db) {
        ctx.note(line);
    }
    if let Some((generation, why)) = &done.moved {
        ctx.note(format!(
            "moved: {why}; this device moved the campaign's documents on that hub to generation {generation} of ids, which its operator does not know"
        ));
        // A GM's device puts the move on the record, signed, for every device.
        if gm {
            let generation = *generation;
            let (ledger, env, applied) = ctx.record(|_, _| {
                Ok((
                    leechbook_core::Event::Roster(leechbook_core::roster::RosterChange::Places {
                        generation,
                    }),
                    None,
                ))
            })?;
            ctx.note(leechbook_views::narrate::event(&ledger, &env, &applied));
        }
    }
    ctx.say(format!(
        "synced with {}: took in {}; the ledger holds {}",
        a.url,
        events(done.imported.added, "new event"),
        events(done.events as usize, "event")
    ));
    revoked?;
    Ok(())
}

/// `sync invite [FILE]`: a join code, or a join file, for a new device.
fn invite(a: InviteArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let mut store = ctx.open()?;
    gm_only(&store)?;
    match a.file {
        Some(file) => {
            let bytes = leechbook_sync::invite(&mut store)?;
            FileTransport { path: &file }.send(&bytes)?;
            ctx.say(format!(
                "wrote a join file to {} ({} bytes): on the new device, `leechbook init --join '{}'`; it holds the campaign's keys, so hand it over like one",
                file.display(),
                bytes.len(),
                file.display()
            ));
        }
        None => {
            let code = leechbook_sync::join_code(&mut store)?;
            ctx.say(code);
        }
    }
    Ok(())
}

/// `sync key CODE`: the campaign's keys from a join code.
fn key(a: KeyArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let mut store = ctx.open()?;
    let gained = leechbook_sync::adopt_code(&mut store, &a.code)?;
    // What this ledger's documents hold that it could not open before.
    let got = leechbook_sync::rescan(&mut store)?;
    if got.added > 0 {
        ctx.say(format!("took in {}", events(got.added, "new event")));
    }
    ctx.say(format!(
        "took in {} of the campaign's keys",
        if gained == 1 {
            "1 new epoch".to_string()
        } else {
            format!("{gained} new epochs")
        }
    ));
    Ok(())
}

/// `sync serve`: this device as the hub, with the players' page.
fn serve(a: ServeArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let mut store = ctx.open()?;
    let listener = std::net::TcpListener::bind(&a.listen)
        .map_err(|e| CommandError::user(format!("cannot listen on {}: {e}", a.listen)))?;
    // The players' page is served on the same address; its links start here.
    let page = leechbook_page::routes(&ctx.db_path()?)?;
    let address = page_address(&listener)?;
    store.keep_page_address(&address)?;
    let links = store.links()?.iter().filter(|l| l.live()).count();
    let local = listener.local_addr().ok();
    let loopback = local.is_some_and(|a| a.ip().is_loopback());
    // The hint names the port this hub serves on, not a default.
    let port = local.map_or(3030, |a| a.port());
    // What each round took in is settled and said as after any sync.
    let db = ctx.db_path()?;
    let mut seen_row = store.extent()?;
    let own = store.device();
    serve_with(
        &mut store,
        listener,
        interrupted(),
        &mut |r| {
            let line = match r {
                HubReport::Listening { url, campaign } => {
                    format!("serving campaign {campaign} at {url} (Ctrl-C stops; a new device joins with `leechbook init --join {url} --campaign CODE`, CODE from `leechbook sync invite`)\nplayers' page at {address}/p/... ({links} live link(s); `leechbook device link NAME` prints a player's){}", if loopback { format!("\nthis address serves only this machine: for phones on the table's network, --listen 0.0.0.0:{port}") } else { String::new() })
                }
                HubReport::TookIn(i) => {
                    for r in &i.refused {
                        eprintln!("refused: {r}");
                    }
                    // Each event taken in, a line: its number and words, and whose it is.
                    for line in arrived(&db, seen_row, Some(own)) {
                        println!("{line}");
                    }
                    for line in taken_in(&db, seen_row) {
                        eprintln!("{line}");
                    }
                    if let Ok(s) = leechbook_store::Store::open(&db) {
                        seen_row = s.extent().unwrap_or(seen_row);
                    }
                    format!("took in {}", events(i.added, "new event"))
                }
                HubReport::Offered(n) => {
                    // What the page recorded (a link's device), said as it is offered; this
                    // device's own recordings it has said where they were made.
                    for line in arrived(&db, seen_row, Some(own)) {
                        println!("{line}");
                    }
                    if let Ok(s) = leechbook_store::Store::open(&db) {
                        seen_row = s.extent().unwrap_or(seen_row);
                    }
                    format!("offered {}", events(n, "new event"))
                }
                HubReport::Trouble(t) => format!("trouble (will retry): {t}"),
            };
            println!("{line}");
            let _ = std::io::Write::flush(&mut std::io::stdout());
        },
        page,
    )?;
    Ok(())
}

/// Where phones reach the page served on `listener`: its address, or, when it listens on
/// every interface, this machine's address on the table's network.
fn page_address(listener: &std::net::TcpListener) -> Result<String, CommandError> {
    let at = listener
        .local_addr()
        .map_err(|e| CommandError::internal(e.to_string()))?;
    let ip = if at.ip().is_unspecified() {
        super::link::table_address()
    } else {
        at.ip()
    };
    Ok(format!(
        "http://{}",
        std::net::SocketAddr::new(ip, at.port())
    ))
}

/// Invitations hand over the campaign's keys: a GM's to give.
fn gm_only(store: &leechbook_store::Store) -> Result<(), CommandError> {
    if leechbook_sync::crypt::is_gm_device(store)? {
        Ok(())
    } else {
        Err(CommandError::user(
            "only a GM's device invites a device (this one is not a GM device on the roster)",
        ))
    }
}

/// What the events a sync took in did, a line each: each event the fold now voids, with
/// why, and each contest of rolls, settled by authority (`leechbook_ledger::claims`); or why
/// the record could not be brought up to date.
fn taken_lines(
    taken: Result<leechbook_ledger::claims::TakenIn, LedgerError>,
    db: &std::path::Path,
) -> Vec<String> {
    // A void event is named as `log` names it: its number there, not a hex id.
    let store = leechbook_store::Store::open(db).ok();
    let number = |id: leechbook_core::ids::EventId| {
        use leechbook_store::ReadLog;
        store
            .as_ref()
            .and_then(|s| s.events_with_id_suffix(&id.0.simple().to_string()).ok())
            .and_then(|hits| hits.first().map(|(_, key)| format!("#{}", key.0)))
            .unwrap_or_else(|| id.short())
    };
    match taken {
        Ok(t) => t
            .voided
            .iter()
            .map(|v| {
                // Told as `log` tells it where it can be (its words), else by its kind in words.
                let told = leechbook_ledger::Replica::open(db)
                    .ok()
                    .and_then(|r| leechbook_story::log::told(&r, v.id).ok())
                    .map(|t| t.line())
                    .unwrap_or_else(|| {
                        format!(
                            "{} {}",
                            number(v.id),
                            leechbook_views::narrate::kind_words(&v.kind)
                        )
                    });
                format!("void: {told} ({})", v.reason)
            })
            .chain(t.contests.iter().map(|c| format!("contest: {c}")))
            .collect(),
        Err(e) => vec![format!(
            "the record after this sync could not be brought up to date: {e}"
        )],
    }
}

/// [`taken_lines`] for the rows of the ledger at `db` after `after`, which a round of a
/// long-lived sync (its own connection to the log) took in.
fn taken_in(db: &std::path::Path, after: u64) -> Vec<String> {
    match leechbook_ledger::Replica::open(db) {
        Ok(mut r) => taken_lines(r.taken_in(after), db),
        Err(_) => Vec::new(),
    }
}

/// What arrived in the ledger at `db` after row `after`, a line each (see
/// [`leechbook_story::log::arrived`]); nothing when the ledger cannot be read.
pub(crate) fn arrived(
    db: &std::path::Path,
    after: u64,
    except: Option<leechbook_core::ids::DeviceId>,
) -> Vec<String> {
    leechbook_ledger::Replica::open(db)
        .map(|r| leechbook_story::log::arrived(&r, after, except))
        .unwrap_or_default()
}

/// What an import refused, found missing on the other side, and put back, a line each.
fn report(ctx: &mut Ctx, got: &leechbook_sync::Imported) {
    for r in &got.refused {
        ctx.note(format!("refused: {r}"));
    }
    for g in &got.gaps {
        ctx.note(format!("gap: {g}"));
    }
    if got.restored > 0 {
        ctx.note(format!(
            "put back {}: the other side had deleted them (this ledger's log holds them, and it offers them again)",
            events(got.restored, "event")
        ));
    }
    if got.sealed > 0 {
        ctx.note(format!(
            "kept {} sealed for the GM's devices: a GM-only character's, which this device cannot open and offers on",
            events(got.sealed, "entry").replace("entrys", "entries")
        ));
    }
    for h in crate::error::hints_for(got.refused.iter().chain(&got.gaps)) {
        ctx.note(format!("hint: {h}"));
    }
}

/// A device the roster has revoked syncs what it may, then is told so and exits non-zero:
/// what it records is void for everyone else, and what the others record after the key's
/// rotation is sealed from it.
fn revoked_here(
    store: &leechbook_store::Store,
    left_out_by: Option<leechbook_core::ids::DeviceId>,
) -> Result<(), CommandError> {
    use leechbook_store::ReadLog;
    let roster = leechbook_core::roster::Roster::from_log(&store.roster_events()?);
    let revoked = roster
        .entries
        .get(&store.device())
        .is_some_and(|e| e.revoked.is_some());
    match (revoked, left_out_by) {
        (false, Some(gm)) => Err(CommandError::user(format!(
            "this device ({}) was left out of the campaign key's rotation by GM device {}: it was revoked, and what the others record from now on is sealed from it (ask the GM to roster it again: `leechbook device add DEVICE KEY`)",
            store.device().short(),
            gm.short()
        ))),
        (true, _) => Err(CommandError::user(format!(
            "this device ({}) was revoked from the campaign: what it records from now on is void for every other device, and what they record is sealed from it (ask the GM to roster it again: `leechbook device add DEVICE KEY`)",
            store.device().short()
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    /// Issue 41, item 4: each event a round takes in is a line of `sync serve`'s output, by
    /// its number, its words and whose it is.
    #[test]
    fn each_event_taken_in_is_a_line_with_its_number_and_words() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("l.db");
        let db_s = db.to_str().unwrap();
        let run = |args: &[&str]| {
            let mut all = vec!["leechbook", "--db", db_s];
            all.extend(args);
            let out = crate::run(all);
            assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        };
        run(&["init"]);
        run(&[
            "character",
            "add",
            "Osric",
            "--str",
            "12",
            "--end",
            "12",
            "--shock",
            "65",
            "--hb",
            "13",
        ]);
        let mark = leechbook_store::Store::open(&db).unwrap().extent().unwrap();
        run(&[
            "strike",
            "Osric",
            "--aspect",
            "edge",
            "--location",
            "abdomen",
            "--effective",
            "8",
            "--dice",
            "shock=12",
        ]);
        let lines = super::arrived(&db, mark, None);
        let own = leechbook_store::Store::open(&db).unwrap().device();
        assert!(
            super::arrived(&db, mark, Some(own)).is_empty(),
            "this device's own"
        );
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("took in #4: Osric struck: location chosen: abdomen"),
            "{lines:?}"
        );
    }
}
