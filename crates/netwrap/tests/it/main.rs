//! netwrap's integration tests, one binary (one link on CI): the command line as a user meets
//! it, the pipeline's promises (round trip, sweeps, shards, goldens), validation against
//! the models and the papers, and hostile input under memory and time limits.

mod check;
mod cli;
mod csv_output;
mod docs;
mod first_hour;
mod goldens;
mod graph;
#[cfg(target_os = "linux")]
mod hostile;
mod models;
mod pipeline;
mod plot;
mod reproduce;
mod self_traffic;
#[cfg(target_os = "linux")]
mod spec_fuzz;
mod topo;
mod trace;
mod validation;
mod vc;

use assert_cmd::Command;
use serde_json::Value;

/// The binary under test.
pub fn netwrap() -> Command {
    Command::cargo_bin("netwrap").unwrap()
}

/// Runs `args` (which must succeed) and parses standard output as JSON.
pub fn json(args: &[&str]) -> Value {
    let out = netwrap().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A fresh scratch directory under the system's temporary directory.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("netwrap-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The repository's root.
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[cfg(target_os = "linux")]
pub use bounded::{Bounded, Limits, run_bounded};

/// Running netwrap as a child under an address-space limit and a wall-clock limit, and
/// reading back what it did: exit status or signal, output and time.
///
/// Not its peak resident memory: the kernel counts a child's from the fork, when it is a copy
/// of this (large) test process, so `ru_maxrss` would report ours. An address-space limit is
/// the ceiling instead: an allocation beyond it fails, and netwrap aborts.
#[cfg(target_os = "linux")]
mod bounded {
    use std::io::Read;
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// What a child may use.
    #[derive(Clone, Copy, Debug)]
    pub struct Limits {
        /// Address space (`RLIMIT_AS`), bytes: an allocation beyond it fails, so a runaway
        /// allocation aborts the child instead of exhausting the machine.
        pub address_space: u64,
        /// Wall-clock time; the child is killed (SIGKILL) after it.
        pub time: Duration,
    }

    /// What a child did.
    #[derive(Debug)]
    pub struct Bounded {
        /// The command line, for messages.
        pub args: Vec<String>,
        /// Exit status, when it exited.
        pub status: Option<i32>,
        /// The signal that ended it, when one did.
        pub signal: Option<i32>,
        /// It was killed for running past [`Limits::time`].
        pub timed_out: bool,
        /// Standard output (empty when it went elsewhere).
        pub stdout: String,
        /// Standard error.
        pub stderr: String,
        /// Wall-clock time from spawn to exit.
        pub elapsed: Duration,
    }

    impl Bounded {
        /// A one-line account of the run, for failure messages.
        pub fn describe(&self) -> String {
            let how = match (self.status, self.signal, self.timed_out) {
                (_, _, true) => format!("killed after the {:.1?} time limit", self.elapsed),
                (Some(s), _, _) => format!("status {s}"),
                (None, Some(sig), _) => format!("signal {sig}"),
                (None, None, _) => "no status".into(),
            };
            let err: String = self.stderr.chars().take(300).collect();
            format!("netwrap {}: {how} in {:.2?}; stderr: {err:?}", self.args.join(" "), self.elapsed)
        }

        /// Ended by a panic (status 101 or a panic message), a signal or the time limit.
        pub fn misbehaved(&self) -> bool {
            self.status.is_none_or(|s| s == 101)
                || self.timed_out
                || self.stderr.contains("panicked")
                || self.stderr.contains("memory allocation of")
        }
    }

    /// Runs netwrap with `args` under `limits`, standard input empty; standard output goes to
    /// `stdout` when given (a closed pipe, /dev/full), else it is captured. The child runs two
    /// worker threads, as on the CI machine: thread stacks count toward the address space, and
    /// a many-core machine would otherwise reserve more of it. It allocates from one malloc
    /// arena: glibc reserves 64 MiB of address space for each thread's own arena the first
    /// time that thread allocates, which made a run under 128 MiB fail or not by the threads'
    /// timing (a reservation, not memory used).
    pub fn run_bounded(args: &[String], limits: Limits, stdout: Option<Stdio>) -> Bounded {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_netwrap"));
        cmd.args(args)
            .env("RAYON_NUM_THREADS", "2")
            .env("MALLOC_ARENA_MAX", "1")
            .stdin(Stdio::null())
            .stderr(Stdio::piped());
        let capture = stdout.is_none();
        cmd.stdout(stdout.unwrap_or_else(Stdio::piped));
        let limit = limits.address_space;
        // SAFETY: setrlimit is async-signal-safe, and the closure touches nothing else.
        unsafe {
            cmd.pre_exec(move || {
                let r = libc::rlimit { rlim_cur: limit, rlim_max: limit };
                if libc::setrlimit(libc::RLIMIT_AS, &r) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
        let start = Instant::now();
        let mut child = cmd.spawn().expect("spawning netwrap");
        let reader = |s: Option<Box<dyn Read + Send>>| {
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                if let Some(mut s) = s {
                    let _ = s.read_to_end(&mut buf);
                }
                String::from_utf8_lossy(&buf).into_owned()
            })
        };
        let out = reader(if capture { child.stdout.take().map(|s| Box::new(s) as _) } else { None });
        let err = reader(child.stderr.take().map(|s| Box::new(s) as _));
        let mut timed_out = false;
        let (status, elapsed) = loop {
            if let Some(status) = child.try_wait().expect("waiting for netwrap") {
                break (status, start.elapsed());
            }
            if !timed_out && start.elapsed() > limits.time {
                timed_out = true;
                let _ = child.kill();
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        let (status, signal) = (status.code(), status.signal());
        Bounded {
            args: args.to_vec(),
            status,
            signal,
            timed_out,
            stdout: out.join().expect("stdout reader"),
            stderr: err.join().expect("stderr reader"),
            elapsed,
        }
    }
}
