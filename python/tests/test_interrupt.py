"""Ctrl-C from Python: SIGINT stops a running simulation and raises KeyboardInterrupt."""

import signal
import subprocess
import sys
import time

import pytest

import netwrap

# A run of minutes: a 32x32 torus near saturation, millions of messages.
LONG = ('{"topology": {"family": "torus", "k": 32}, "workload": {"rate": 0.01}, '
        '"run": {"messages": 50000000, "warmup": 0}}')

CALLS = {
    "simulate": f"netwrap.simulate({LONG})",
    "sweep": f"netwrap.sweep({LONG}, {{'workload.rate': [0.01, 0.011]}})",
    "saturation": f"netwrap.saturation({LONG})",
}


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
@pytest.mark.parametrize("call", list(CALLS))
def test_ctrl_c_interrupts_a_run(call):
    """Verification: a long run in a child process, sent SIGINT once it is running, ends with
    KeyboardInterrupt within two seconds (the run polled every 100 ms, cancelled, stopped)."""
    # Python leaves SIGINT ignored when its parent ignored it (a shell's background job, as
    # CI runners may be): the child takes Python's own Ctrl-C handler, as an interactive
    # session has, so the test sees netwrap's handling and not the inherited disposition.
    code = ("import signal, sys, netwrap\n"
            "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "print('running', flush=True)\n"
            f"{CALLS[call]}\n"
            "print('finished', flush=True)\n")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "running\n"
        time.sleep(1.0)  # well inside the run
        assert child.poll() is None, child.stderr.read() if child.stderr else ""
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        _, stderr = child.communicate(timeout=10)
        elapsed = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
    assert "KeyboardInterrupt" in stderr, stderr
    assert child.returncode != 0
    assert elapsed < 2.0, elapsed
    print(f"{call}: stopped {elapsed * 1000:.0f} ms after SIGINT")


def test_a_sweep_reports_its_progress(capfd):
    """Verification: a progress function hears (done, total) with done never falling, from 0
    to every point of the sweep (3 here); `progress=True` writes the line to standard error."""
    heard = []
    spec = {"topology": {"family": "torus", "k": 4}, "run": {"messages": 200}}
    netwrap.sweep(spec, {"workload.rate": [0.01, 0.02, 0.03]}, progress=lambda d, t: heard.append((d, t)))
    assert heard[0] == (0, 3) and heard[-1] == (3, 3), heard
    assert all(a[0] <= b[0] for a, b in zip(heard, heard[1:])) and {t for _, t in heard} == {3}
    netwrap.sweep(spec, {"workload.rate": [0.01, 0.02]}, progress=True)
    assert capfd.readouterr().err.endswith("netwrap: 2 of 2 points done\n")
    netwrap.sweep(spec, {"workload.rate": [0.01, 0.02]}, progress=False)
    assert capfd.readouterr().err == ""
