//! `netwrap`: simulate and model interconnection networks.
//!
//! Two forms are accepted: the homework's positional form
//! `netwrap procs pkts steps req-rt msg-size rad-k det-file loc`, recognised when the first
//! argument is a number, and subcommands (`netwrap sim …`, `netwrap model …`, …).

use netwrap::{cli, cmd, output};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let result = if cmd::legacy::is_legacy(&args) { cmd::legacy::run(&args[1..]) } else { cli::run(args) };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let (status, print) = output::exit_status(&e);
            if print {
                let kind = match status {
                    output::status::INVALID | output::status::WRITE_FAILED => "error: ",
                    _ => "",
                };
                // A closed standard error is no reason to fail differently.
                let _ = writeln!(std::io::stderr(), "netwrap: {kind}{}", output::message(&e));
            }
            ExitCode::from(status)
        }
    }
}
