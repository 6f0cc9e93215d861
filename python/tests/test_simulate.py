"""netwrap.simulate and netwrap.sweep against the command line."""

import os
import subprocess
import sys
import threading
import time

import pandas
import pytest

import netwrap

# A small run: a 4x4 torus, few messages.
SPEC = {
    "topology": {"family": "torus", "k": 4},
    "workload": {"rate": 0.02, "size": 2},
    "run": {"messages": 400, "warmup": 100},
    "model": {"contention": "auto"},
}
FLAGS = ["sim", "--k", "4", "--rate", "0.02", "--size", "2", "--messages", "400", "--warmup", "100", "--model"]

EXPERIMENT = """
[topology]
family = "torus"
k = 4

[workload]
size = 2

[run]
messages = 300
warmup = 100

[sweep]
replications = 2
"workload.rate" = [0.01, 0.03]

[[sweep.zip]]
"topology.k" = [3, 4]
"run.seed" = [7, 8]
"""


def read_csv(path) -> pandas.DataFrame:
    """A CSV file read as netwrap.sweep reads the runner's CSV."""
    return netwrap._frame(open(path, encoding="utf-8").read())


def test_simulate_equals_sim_json(cli):
    """Verification: simulate(spec) gives exactly what `netwrap sim ... --json` prints for the
    same network, workload and run (every field, every number)."""
    assert netwrap.simulate(SPEC) == cli.json(*FLAGS)


def test_a_result_reruns_to_itself():
    """Verification: a result given back as the spec re-runs from its `config` and reproduces
    itself bit for bit, as `netwrap run result.json` does."""
    r = netwrap.simulate(SPEC)
    assert netwrap.simulate(r) == r


def test_sweeps_do_not_depend_on_the_number_of_threads():
    """Verification: the sweep's CSV run on one thread (a fresh process with
    RAYON_NUM_THREADS=1) is the CSV run here on every core."""
    code = "import sys, netwrap; sys.stdout.write(netwrap._native.run(sys.argv[1], True, '', True))"
    one = subprocess.run([sys.executable, "-c", code, EXPERIMENT], capture_output=True, text=True,
                         env={**os.environ, "RAYON_NUM_THREADS": "1"}, check=True).stdout
    assert one == netwrap._native.run(EXPERIMENT, True, "", True)


def test_simulate_toml_and_file_equal_run_json(cli, tmp_path):
    """Verification: a TOML text, and the file holding it, give `netwrap run FILE --json`."""
    text = '[topology]\nfamily = "midimew"\nnodes = 16\n[workload]\nrate = 0.03\n[run]\nmessages = 300\n'
    path = tmp_path / "spec.toml"
    path.write_text(text)
    expected = cli.json("run", str(path))
    assert netwrap.simulate(text) == expected
    assert netwrap.simulate(path) == expected


def test_saturated_run_is_a_result(cli):
    """Verification: a saturated point is returned as the CLI prints it (before status 3)."""
    spec = {"topology": {"family": "ring", "k": 8}, "workload": {"rate": 0.5, "size": 4},
            "run": {"messages": 200, "max-cycles": 20000}}
    r = netwrap.simulate(spec)
    assert r["verdict"] == "saturated"
    assert r == cli.json("sim", "ring", "--k", "8", "--rate", "0.5", "--size", "4",
                         "--messages", "200", "--max-cycles", "20000")


def test_bad_spec_raises_the_cli_message(cli, tmp_path):
    """Verification: an invalid spec raises ValueError with the message `netwrap run` prints
    (after `netwrap: error: in FILE: `), naming the field."""
    bad = {"workload": {"rat": 0.1}}
    path = tmp_path / "bad.json"
    path.write_text('{"workload": {"rat": 0.1}}')
    with pytest.raises(ValueError) as e:
        netwrap.simulate(bad)
    assert "`rat`" in str(e.value)
    assert cli.error("run", str(path)) == f"in {path}: {e.value}\n"
    with pytest.raises(ValueError, match="workload.rate = 2"):
        netwrap.simulate({"workload": {"rate": 2.0}})
    with pytest.raises(ValueError, match="use netwrap.sweep"):
        netwrap.simulate(EXPERIMENT)


def test_sweep_equals_run_csv(cli, tmp_path):
    """Verification: sweep()'s DataFrame equals the CSV `netwrap run FILE --csv` writes, read
    back the same way (columns, order, every value), with replications and zipped axes."""
    path = tmp_path / "exp.toml"
    path.write_text(EXPERIMENT)
    out = tmp_path / "out.csv"
    p = cli.run("run", str(path), "--csv", str(out))
    assert p.returncode == 0, p.stderr
    # The very text the CLI wrote, from the same runner.
    assert netwrap._native.run(EXPERIMENT, True, "", True) == out.read_text()
    expected = read_csv(out)
    got = netwrap.sweep(EXPERIMENT)
    pandas.testing.assert_frame_equal(got, expected, check_exact=True)
    assert list(got.columns[:5]) == ["point", "replication", "workload.rate", "topology.k", "run.seed"]
    assert len(got) == netwrap.points(EXPERIMENT) == 8


def test_sweep_axes_join_the_spec(cli, tmp_path):
    """Verification: a spec plus axes is the experiment file with those axes in its [sweep]
    table: the same DataFrame as the CLI's CSV of that file."""
    path = tmp_path / "exp.toml"
    path.write_text('[topology]\nfamily = "torus"\nk = 4\n[run]\nmessages = 300\n'
                    '[sweep]\n"workload.rate" = [0.01, 0.02]\n"workload.size" = [1, 3]\n')
    out = tmp_path / "out.csv"
    assert cli.run("run", str(path), "--csv", str(out)).returncode == 0
    spec = {"topology": {"family": "torus", "k": 4}, "run": {"messages": 300}}
    got = netwrap.sweep(spec, {"workload.rate": [0.01, 0.02], "workload.size": [1, 3]})
    pandas.testing.assert_frame_equal(got, read_csv(out), check_exact=True)
    toml = '[topology]\nfamily = "torus"\nk = 4\n[run]\nmessages = 300\n[sweep]\n"workload.rate" = [0.5]\n'
    got = netwrap.sweep(toml, {"workload.rate": [0.01, 0.02], "workload.size": [1, 3]})
    pandas.testing.assert_frame_equal(got, read_csv(out), check_exact=True)


def test_numpy_values_are_plain_values():
    """Characterisation: NumPy arrays and scalars as axes and spec values sweep as lists and
    numbers do."""
    numpy = pytest.importorskip("numpy")
    spec = {"topology": {"family": "torus", "k": numpy.int64(4)}, "run": {"messages": 300}}
    got = netwrap.sweep(spec, {"workload.rate": numpy.array([0.01, 0.02])})
    expected = netwrap.sweep({"topology": {"family": "torus", "k": 4}, "run": {"messages": 300}},
                             {"workload.rate": [0.01, 0.02]})
    pandas.testing.assert_frame_equal(got, expected, check_exact=True)
    assert netwrap.model.kary_ncube(k=numpy.int64(8), rate=numpy.float64(0.02)) == netwrap.model.kary_ncube(k=8, rate=0.02)


def test_bad_axes_raise_the_cli_message():
    """Verification: a bad swept value names its point and field, as the CLI does."""
    with pytest.raises(ValueError, match=r"sweep point 1 \(workload.rate = 2.0\): workload.rate = 2"):
        netwrap.sweep(SPEC, {"workload.rate": [0.01, 2.0]})
    with pytest.raises(ValueError, match="sweep axis workload.rate has no values"):
        netwrap.sweep(SPEC, {"workload.rate": []})
    with pytest.raises(ValueError, match="did you mean `workload`"):
        netwrap.sweep(SPEC, {"workloda.rate": [0.1]})


def test_long_runs_release_the_gil():
    """Characterisation: while a sweep runs in one thread, Python code runs in another."""
    spec = {"topology": {"family": "torus", "k": 16}, "run": {"messages": 100000}}
    done = threading.Event()
    thread = threading.Thread(target=lambda: (netwrap.sweep(spec, {"workload.rate": [0.02, 0.04]}), done.set()))
    ticks = 0
    start = time.monotonic()
    thread.start()
    while not done.is_set() and time.monotonic() - start < 60:
        ticks += 1
        time.sleep(0.001)
    thread.join()
    # Holding the GIL, the sweep would let this thread tick once or twice at most.
    assert done.is_set() and ticks > 10, ticks
