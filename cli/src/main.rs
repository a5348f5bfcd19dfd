//! The `leechbook` binary: runs the command and writes its output. A closed pipe on standard
//! output (`leechbook log | head`) ends the program quietly.

use std::io::Write;

fn main() {
    // A shell asking for completions (`COMPLETE=bash leechbook ...`) is answered and exits.
    leechbook::complete::complete_if_asked();
    let out = leechbook::run_as_program(std::env::args_os());
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(out.stdout.as_bytes())
        .and_then(|_| stdout.flush())
    {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = writeln!(std::io::stderr(), "error: writing output: {e}");
            std::process::exit(3);
        }
    }
    let _ = std::io::stderr().write_all(out.stderr.as_bytes());
    std::process::exit(out.code);
}
