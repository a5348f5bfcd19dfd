//! `leechbook completions SHELL` and `leechbook man`: shell completions and manual pages,
//! generated from the one command-line definition (so they never drift from it). The static
//! scripts complete commands and flags; the dynamic ones (`COMPLETE=SHELL leechbook`, see
//! `crate::complete`) add the ledger's names and injury ids.

use crate::ctx::Ctx;
use crate::error::CommandError;
use clap::Args;
use std::path::PathBuf;

/// `completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `man`.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write a page per command (leechbook.1, leechbook-strike.1, ...) into this directory
    /// instead of the top page to standard output.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// The whole command line's definition, from the program this command runs in.
fn program(ctx: &Ctx) -> Result<clap::Command, CommandError> {
    let p = ctx
        .program
        .ok_or_else(|| CommandError::internal("no command line to describe"))?;
    Ok((p.command)())
}

/// Prints the completion script for a shell.
pub fn cmd_completions(a: CompletionsArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut program(ctx)?, "leechbook", &mut out);
    ctx.out.push_str(&String::from_utf8_lossy(&out));
    Ok(())
}

/// Prints the top manual page, or writes every command's into a directory.
pub fn cmd_man(a: ManArgs, ctx: &mut Ctx) -> Result<(), CommandError> {
    let cmd = program(ctx)?;
    match a.dir {
        None => {
            let mut out = Vec::new();
            clap_mangen::Man::new(cmd).render(&mut out)?;
            ctx.out.push_str(&String::from_utf8_lossy(&out));
        }
        Some(dir) => {
            std::fs::create_dir_all(&dir).map_err(|e| {
                CommandError::user(format!(
                    "cannot write manual pages to {}: {e}",
                    dir.display()
                ))
            })?;
            clap_mangen::generate_to(cmd, &dir).map_err(|e| {
                CommandError::user(format!(
                    "cannot write manual pages to {}: {e}",
                    dir.display()
                ))
            })?;
            let n = std::fs::read_dir(&dir)?.count();
            ctx.say(format!("wrote {n} manual pages to {}", dir.display()));
        }
    }
    Ok(())
}
