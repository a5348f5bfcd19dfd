//! Progress on a terminal for work that can take more than a second (verify, a large
//! import or sync, `advance --roll` over a long span): drawn on standard error only when it
//! is a terminal and the command was run as the program (never in-process, never into a
//! pipe, never with `--json`), and cleared when the work ends, so it is never part of what a
//! command prints.

use crate::ctx::Ctx;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A spinner (or a bar, when the length is known) while work goes on; nothing off a
/// terminal.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Starts showing `what` (a bar of `len` steps, or a spinner), if `ctx` may draw and the
    /// output is not JSON.
    pub fn start(ctx: &Ctx, what: &str, len: Option<u64>, json: bool) -> Progress {
        if !ctx.terminal || json {
            return Progress { bar: None };
        }
        let bar = match len {
            Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr())
                .with_style(
                    ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({eta})")
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                ),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
                ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            ),
        };
        bar.set_message(what.to_string());
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        Progress { bar: Some(bar) }
    }

    /// Says what is being done now.
    pub fn say(&self, what: impl Into<String>) {
        if let Some(b) = &self.bar {
            b.set_message(what.into());
        }
    }

    /// Moves the bar on.
    pub fn inc(&self, n: u64) {
        if let Some(b) = &self.bar {
            b.inc(n);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
