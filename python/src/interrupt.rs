//! Long work that Ctrl-C interrupts: the work runs on its own thread with the GIL released,
//! while the calling thread wakes every [`POLL`] to run Python's signal handlers. When one
//! raises (KeyboardInterrupt), the work's progress counter is cancelled, the runs stop
//! within [`netwrap_engine::progress::Progress::EVERY`] simulated cycles, and the exception
//! is raised once the work has returned.

use netwrap_engine::progress::Progress;
use pyo3::prelude::*;
use std::sync::mpsc;
use std::time::Duration;

/// How often the calling thread looks for a signal.
pub const POLL: Duration = Duration::from_millis(100);

/// Runs `work` on a thread of its own, the GIL released, cancelling `progress` on Ctrl-C (see
/// the module docs).
pub fn interruptible<T, F>(py: Python<'_>, progress: &Progress, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    interruptible_with(py, progress, work, |_| Ok(()))
}

/// [`interruptible`], calling `poll` (with the GIL) at every wake-up: a progress report. An
/// error it raises cancels the work as Ctrl-C does.
pub fn interruptible_with<T, F>(
    py: Python<'_>,
    progress: &Progress,
    work: F,
    mut poll: impl FnMut(Python<'_>) -> PyResult<()>,
) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        scope.spawn(move || {
            // The receiver outlives the scope's threads: a failed send cannot happen.
            let _ = tx.send(work());
        });
        let mut rx = rx;
        loop {
            // The receiver goes to the detached closure and back (it is not `Sync`).
            let (received, back) = py.detach(move || (rx.recv_timeout(POLL), rx));
            rx = back;
            match received {
                Ok(result) => return Ok(result),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(signal) = py.check_signals().and_then(|()| poll(py)) {
                        progress.cancel();
                        // Wait for the runs to stop (their result is dropped).
                        let _ = py.detach(move || rx.recv());
                        return Err(signal);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(pyo3::exceptions::PyRuntimeError::new_err(
                        "the run's thread ended without a result",
                    ));
                }
            }
        }
    })
}
