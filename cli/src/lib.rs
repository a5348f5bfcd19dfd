//! The `leechbook` command: argument parsing (clap) and glue between the store, the core's fold
//! and the terminal. The one place that knows terminals and JSON output.
//!
//! [`run`] takes the arguments and returns the exit code and what to print, so tests drive the
//! whole command in-process; `main.rs` only writes the output and exits.

#![warn(missing_docs)]

pub mod board;
pub mod commands;
pub mod complete;
pub mod ctx;
pub mod dice;
pub mod error;
pub mod progress;
pub mod views;

pub use ctx::{default_db_path, Ctx, Output, Program};

use clap::Parser;
use error::ErrorKind;
use std::ffi::OsString;
use std::path::PathBuf;

/// Leechbook: a ledger of every wound in a campaign and of how it healed.
#[derive(Parser, Debug)]
#[command(name = "leechbook", version, about, long_about = None)]
pub struct Cli {
    /// The ledger file (default: $LEECHBOOK_DB, else leechbook.db in the platform's data
    /// directory).
    #[arg(
        long,
        global = true,
        env = "LEECHBOOK_DB",
        hide_env_values = true,
        value_name = "PATH"
    )]
    pub db: Option<PathBuf>,
    /// Seed for the dice Leechbook rolls, for reproducible runs (default: OS randomness).
    #[arg(long, global = true, value_name = "N")]
    pub seed: Option<u64>,
    /// Ask on standard input for each die not given in --dice (physical dice), instead of
    /// rolling it; a face the die cannot show is asked again.
    #[arg(long, global = true)]
    pub ask: bool,
    /// The command.
    #[command(subcommand)]
    pub command: commands::Command,
}

/// The command line with every command taking negative numbers as values (`--physician
/// -40` reaches the command's own range check, which says what is wrong in one line, rather
/// than clap's usage block for an unknown `-4` flag).
fn negatives(mut c: clap::Command) -> clap::Command {
    let names: Vec<String> = c
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for n in names {
        c = c.mut_subcommand(n, negatives);
    }
    c.allow_negative_numbers(true)
}

/// Runs the command line `args` (program name first) and returns what to print.
pub fn run<I, T>(args: I) -> Output
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    run_with(args, false, false)
}

/// [`run`] as the program: progress on long work is drawn on standard error when it is a
/// terminal.
pub fn run_as_program<I, T>(args: I) -> Output
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    use std::io::IsTerminal;
    run_with(args, std::io::stderr().is_terminal(), true)
}

fn run_with<I, T>(args: I, terminal: bool, live: bool) -> Output
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let parsed = negatives(<Cli as clap::CommandFactory>::command())
        .try_get_matches_from(args)
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
    let cli = match parsed {
        Ok(c) => c,
        Err(e) => {
            let text = e.render().to_string();
            let code = e.exit_code();
            let (stdout, stderr) = if e.use_stderr() {
                (String::new(), text)
            } else {
                (text, String::new())
            };
            return Output {
                stdout,
                stderr,
                code,
            };
        }
    };
    let mut ctx = Ctx {
        db: cli.db,
        seed: cli.seed,
        ask: cli.ask,
        out: String::new(),
        err: String::new(),
        terminal,
        live,
        told: Vec::new(),
        program: Some(Program {
            command: <Cli as clap::CommandFactory>::command,
            run: |args| run(args),
        }),
    };
    let result = commands::dispatch(cli.command, &mut ctx);
    // What the recorded events did that the table must hear, after the command's words.
    if result.is_ok() {
        for c in ctx.take_told() {
            ctx.say(format!("-> {c}"));
        }
    }
    let code = match result {
        Ok(()) => 0,
        Err(e) => {
            // Dice rolled for a command then refused were rolled for nothing: not shown, so
            // that nothing looks recorded (the refusal says why).
            ctx.err = ctx
                .err
                .lines()
                .filter(|l| !l.starts_with("rolled by Leechbook"))
                .map(|l| format!("{l}\n"))
                .collect();
            // A file-system failure names the ledger's file, which the store's words leave out.
            let mut e = e;
            if let (Some(rest), Ok(p)) = (e.message.strip_prefix("the ledger file "), ctx.db_path())
            {
                e.message = format!("{} {rest}", p.display());
            }
            if e.kind == ErrorKind::Internal {
                // A bug or the environment: its line, then what it came from.
                ctx.note(format!("internal error: {e}"));
                for cause in e.causes() {
                    ctx.note(format!("  caused by: {cause}"));
                }
            } else {
                ctx.note(format!("error: {e}"));
            }
            e.kind.exit_code()
        }
    };
    Output {
        stdout: ctx.out,
        stderr: ctx.err,
        code,
    }
}
