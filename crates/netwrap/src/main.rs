//! `netwrap`: simulate and model interconnection networks.
//!
//! Two forms are accepted: the homework's positional form
//! `netwrap procs pkts steps req-rt msg-size rad-k det-file loc`, recognised when the first
//! argument is a number, and subcommands (`netwrap sim …`, `netwrap model …`, …).

mod cli;
mod cmd;
mod output;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let result = if cmd::legacy::is_legacy(&args) { cmd::legacy::run(&args[1..]) } else { cli::run(args) };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) if e.downcast_ref::<output::Saturated>().is_some() => {
            eprintln!("netwrap: {e:#}");
            ExitCode::from(output::EXIT_SATURATED)
        }
        Err(e) => {
            eprintln!("netwrap: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Piping into `head` closes stdout early; that is not a failure.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
