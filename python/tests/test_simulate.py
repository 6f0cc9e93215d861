"""netwrap.simulate, sweep, points, run_point, saturation and check against the command line."""

import json
import os
import pickle
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
    """A CSV file of the command line's, read back exactly: numbers as written, only empty
    cells missing."""
    if int(pandas.__version__.split(".")[0]) < 3:
        return pandas.read_csv(path, keep_default_na=False, na_values=[""], float_precision="round_trip")
    # pandas 3 reads floats back exactly by default (and deprecates the option).
    return pandas.read_csv(path, keep_default_na=False, na_values=[""])


def spec_file(tmp_path, spec, name="spec.json"):
    path = tmp_path / name
    path.write_text(json.dumps(spec))
    return path


def test_simulate_equals_run_json(cli, tmp_path):
    """Verification: simulate(d) is exactly what `netwrap run SPEC.json --json` prints for the
    same dict written to a file (every field, every number, every type), and what
    `netwrap sim ... --json` prints for the same flags."""
    expected = cli.json("run", str(spec_file(tmp_path, SPEC)))
    got = netwrap.simulate(SPEC)
    assert got == expected
    assert json.dumps(got) == json.dumps(expected)  # the same types (4.0 stays a float), in order
    assert got == cli.json(*FLAGS)


# Today's networks from a dict, each beside the same flags on the command line.
TODAY = [
    ({"family": "dragonfly", "p": 1}, ["dragonfly", "--p", "1"], {"pattern": "group-shift", "shift": 2},
     ["--pattern", "group-shift", "--shift", "2"]),
    ({"family": "kary-ntree", "k": 2, "n": 3}, ["kary-ntree", "--k", "2", "--n", "3"], {}, []),
    ({"family": "xgft", "children": [2, 3], "parents": [1, 2]},
     ["xgft", "--children", "2,3", "--parents", "1,2"], {}, []),
    ({"family": "hyperx", "sizes": [3, 2], "p": 2, "width": 2},
     ["hyperx", "--sizes", "3,2", "--p", "2", "--width", "2"], {}, []),
]


@pytest.mark.parametrize("topology,family_flags,workload,workload_flags", TODAY,
                         ids=[t[0]["family"] for t in TODAY])
def test_todays_networks_equal_the_command_line(cli, topology, family_flags, workload, workload_flags):
    """Verification: a dragonfly (with group-shift traffic), a k-ary n-tree, an XGFT and a
    HyperX given as dicts give exactly what `netwrap sim <family> … --json` prints."""
    spec = {"topology": topology, "workload": {"rate": 0.02, "size": 2, **workload},
            "run": {"messages": 300, "warmup": 100}}
    flags = ["sim", *family_flags, "--rate", "0.02", "--size", "2", *workload_flags,
             "--messages", "300", "--warmup", "100"]
    got = netwrap.simulate(spec)
    assert got == cli.json(*flags)
    assert got["config"]["topology"]["family"] == topology["family"]


def test_nonminimal_routing_and_class_latencies_equal_the_command_line(cli):
    """Verification: UGAL through a router on a dragonfly, on the virtual-channel router with
    route-phase classes and a slower global class, given as a dict, gives exactly what the
    same flags print; the result carries the non-minimal fraction and the fairness figures."""
    spec = {"topology": {"family": "dragonfly", "p": 1},
            "routing": {"algorithm": "ugal-local", "via": "router", "threshold": 4},
            "router": {"kind": "vc", "vcs": 4, "deadlock": "phases", "global-latency": 5},
            "workload": {"rate": 0.05, "size": 2, "pattern": "group-shift"},
            "run": {"messages": 300, "warmup": 100}}
    flags = ["sim", "dragonfly", "--p", "1", "--routing", "ugal-local", "--via", "router", "--threshold", "4",
             "--router", "vc", "--vcs", "4", "--deadlock", "phases", "--global-latency", "5",
             "--rate", "0.05", "--size", "2", "--pattern", "group-shift", "--messages", "300", "--warmup", "100"]
    got = netwrap.simulate(spec)
    assert got == cli.json(*flags)
    assert 0.0 <= got["nonminimal"] <= 1.0
    assert 0.0 < got["fairness"]["jain"] <= 1.0
    assert got["config"]["router"]["class-latency"] == {"global": 5}


def test_dal_equals_the_command_line(cli):
    """Verification: DAL on a HyperX with a class per hop, given as a dict, gives exactly what
    the same flags print, and it derouted some packets under the dimension shift."""
    spec = {"topology": {"family": "hyperx", "sizes": [4, 4], "p": 2},
            "routing": {"algorithm": "dal"},
            "router": {"kind": "vc", "vcs": 4, "deadlock": "phases"},
            "workload": {"rate": 0.2, "size": 2, "pattern": "dimension-shift"},
            "run": {"messages": 400, "warmup": 200}}
    flags = ["sim", "hyperx", "--sizes", "4,4", "--p", "2", "--routing", "dal",
             "--router", "vc", "--vcs", "4", "--deadlock", "phases",
             "--rate", "0.2", "--size", "2", "--pattern", "dimension-shift", "--messages", "400", "--warmup", "200"]
    got = netwrap.simulate(spec)
    assert got == cli.json(*flags)
    assert got["nonminimal"] > 0.0


def test_results_are_typed_as_the_json():
    """Characterisation: a result is a dict of the JSON's types: text, ints, floats, bools,
    None for a missing value, nested dicts and lists."""
    r = netwrap.simulate(SPEC)
    assert isinstance(r, dict)
    assert isinstance(r["netwrap_version"], str) and r["netwrap_version"] == netwrap.__version__
    assert isinstance(r["seed"], int) and isinstance(r["config"], dict)
    assert isinstance(r["utilization"], float) and isinstance(r["latency"], float)
    assert isinstance(r["saturated"], bool) and r["verdict"] == "ok"
    assert isinstance(r["messages_delivered"], int)
    assert isinstance(r["model"], dict) and isinstance(r["model"]["latency"], float)
    assert r["config"]["workload"]["rate"] == 0.02 and r["config"]["topology"]["k"] == 4
    assert "channels" not in r


def test_a_result_reruns_to_itself():
    """Verification: a result given back as the spec re-runs from its `config` and reproduces
    itself bit for bit, as `netwrap run result.json` does."""
    r = netwrap.simulate(SPEC)
    assert netwrap.simulate(r) == r


def test_sweeps_do_not_depend_on_the_number_of_threads(tmp_path):
    """Verification: the sweep run on one thread (a fresh process with RAYON_NUM_THREADS=1)
    is the sweep run here on every core, value for value."""
    out = tmp_path / "one.pickle"
    code = "import pickle, sys, netwrap; pickle.dump(netwrap.sweep(sys.argv[1]), open(sys.argv[2], 'wb'))"
    subprocess.run([sys.executable, "-c", code, EXPERIMENT, str(out)], check=True,
                   env={**os.environ, "RAYON_NUM_THREADS": "1"})
    with open(out, "rb") as f:
        one = pickle.load(f)
    pandas.testing.assert_frame_equal(one, netwrap.sweep(EXPERIMENT), check_exact=True)


def test_a_run_on_several_threads_equals_the_command_line(cli):
    """Verification: each router on 1, 2 and 3 threads (jobs=, forced however small the
    network) gives the dict `netwrap sim --jobs N --json` prints, the same for every N; a
    point run alone too; and jobs outside 1..1024 is refused."""
    for router, router_flags in (({}, []),
                                 ({"kind": "vc", "vcs": 2, "deadlock": "dateline", "buffer": 4},
                                  ["--router", "vc", "--vcs", "2", "--deadlock", "dateline", "--buffer", "4"])):
        spec = {"topology": {"family": "torus", "k": 6, "bidirectional": True}, "router": router,
                "workload": {"rate": 0.1, "size": 3}, "run": {"messages": 3000}}
        flags = ["sim", "--k", "6", "--bidirectional", "--rate", "0.1", "--size", "3", "--messages", "3000",
                 *router_flags]
        one = netwrap.simulate(spec, jobs=1)
        for jobs in (1, 2, 3):
            assert netwrap.simulate(spec, jobs=jobs) == one
            assert cli.json(*flags, "--jobs", str(jobs)) == one
            assert netwrap.run_point(netwrap.points(spec)[0], jobs=jobs) == one
        assert netwrap.simulate(spec) == one
    for bad in (0, -1, 1025):
        with pytest.raises(ValueError, match="jobs"):
            netwrap.simulate(spec, jobs=bad)


def test_simulate_toml_and_file_equal_run_json(cli, tmp_path):
    """Verification: a TOML text, and the file holding it, give `netwrap run FILE --json`."""
    text = '[topology]\nfamily = "midimew"\nnodes = 16\n[workload]\nrate = 0.03\n[run]\nmessages = 300\n'
    path = tmp_path / "spec.toml"
    path.write_text(text)
    expected = cli.json("run", str(path))
    assert netwrap.simulate(text) == expected
    assert netwrap.simulate(path) == expected
    # A string naming the file is read as the file, as the command line reads it.
    assert netwrap.simulate(str(path)) == expected
    with pytest.raises(ValueError, match="cannot read .*absent.toml"):
        netwrap.simulate(str(tmp_path / "absent.toml"))


def test_saturated_run_is_a_result(cli):
    """Verification: a saturated point is returned as the CLI prints it (before status 3)."""
    spec = {"topology": {"family": "ring", "k": 8}, "workload": {"rate": 0.5, "size": 4},
            "run": {"messages": 200, "max-cycles": 20000}}
    r = netwrap.simulate(spec)
    assert r["verdict"] == "saturated"
    assert r == cli.json("sim", "ring", "--k", "8", "--rate", "0.5", "--size", "4",
                         "--messages", "200", "--max-cycles", "20000")


def test_bad_spec_raises_the_cli_message(cli, tmp_path):
    """Verification: an unknown key raises ValueError with the message `netwrap run` prints
    (after `netwrap: error: in FILE: `), its "did you mean" included."""
    bad = {"workload": {"rat": 0.1}}
    path = spec_file(tmp_path, bad, "bad.json")
    with pytest.raises(netwrap.SpecError) as e:
        netwrap.simulate(bad)
    assert "`rat`" in str(e.value) and "did you mean `rate`?" in str(e.value)
    assert e.value.path == "workload.rat"
    assert cli.error("run", str(path)) == f"in {path}: {e.value}\n"
    with pytest.raises(ValueError, match="use netwrap.sweep"):
        netwrap.simulate(EXPERIMENT)
    with pytest.raises(netwrap.SpecError, match="did you mean `torus`") as e:
        netwrap.simulate('[topology]\nfamily = "toru"\n')
    assert e.value.path == "topology.family"


def test_spec_errors_name_the_field(cli):
    """Verification: a value that cannot be raises netwrap.SpecError (a ValueError) whose
    `path` is the field's dotted path and whose message is the CLI's, without the flags the
    CLI adds."""
    with pytest.raises(netwrap.SpecError) as e:
        netwrap.simulate({"router": {"kind": "vc", "buffer": 0}})
    assert isinstance(e.value, ValueError)
    assert e.value.path == "router.buffer"
    assert e.value.reason in str(e.value)
    message = cli.error("sim", "--router", "vc", "--buffer", "0")
    assert message.startswith(str(e.value)) and "(--buffer)" in message
    with pytest.raises(netwrap.SpecError) as e:
        netwrap.simulate({"workload": {"rate": 2.0}})
    assert e.value.path == "workload.rate" and str(e.value).startswith("workload.rate = 2")


def test_sweep_equals_run_csv(cli, tmp_path):
    """Verification: sweep()'s DataFrame, built from the rows as columns, equals the CSV
    `netwrap run FILE --csv` writes, read back (columns, order, types, every value), with
    replications and zipped axes."""
    path = tmp_path / "exp.toml"
    path.write_text(EXPERIMENT)
    out = tmp_path / "out.csv"
    p = cli.run("run", str(path), "--csv", str(out))
    assert p.returncode == 0, p.stderr
    got = netwrap.sweep(EXPERIMENT)
    runs, _ = split_combined(out, tmp_path)
    pandas.testing.assert_frame_equal(got, read_csv(runs), check_exact=True)
    assert list(got.columns[:5]) == ["point", "replication", "workload.rate", "topology.k", "run.seed"]
    assert len(got) == len(netwrap.points(EXPERIMENT)) == 8


def split_combined(path, tmp_path):
    """A replicated sweep's CSV as two files: its runs' rows and its combined rows
    (`replication` = all), each under the header."""
    header, *rows = path.read_text().splitlines(keepends=True)
    runs, combined = tmp_path / "runs.csv", tmp_path / "combined.csv"
    runs.write_text(header + "".join(r for r in rows if r.split(",")[1] != "all"))
    combined.write_text(header + "".join(r for r in rows if r.split(",")[1] == "all"))
    return runs, combined


def test_across_equals_the_csvs_combined_rows(cli, tmp_path):
    """Verification: netwrap.across of sweep()'s rows gives, in the columns they share, the
    combined rows `netwrap run FILE --csv` writes after the runs (exactly: the same function
    of the same runs), one per point with the point's first run's index; and by hand for the
    first point's latency, the mean of its two runs' (the ok ones), with the half-width
    t(0.975, 1)·s/√2 = 12.706·|a − b|/2 (Student's table, 3 digits)."""
    path = tmp_path / "exp.toml"
    path.write_text(EXPERIMENT)
    out = tmp_path / "out.csv"
    assert cli.run("run", str(path), "--csv", str(out)).returncode == 0
    rows = netwrap.sweep(EXPERIMENT)
    got = netwrap.across(rows)
    assert list(got.columns) == ["point", "replication", "workload.rate", "topology.k", "run.seed", "runs", "ok",
                                 "latency", "latency_ci95", "throughput", "throughput_ci95", "experiment",
                                 "points"]
    assert list(got["point"]) == [0, 2, 4, 6] and set(got["replication"]) == {"all"}
    assert list(got["runs"]) == [2, 2, 2, 2]
    _, combined = split_combined(out, tmp_path)
    csv = read_csv(combined)
    for c in ["point", "workload.rate", "topology.k", "run.seed", "latency", "latency_ci95", "throughput",
              "experiment", "points"]:
        assert list(got[c]) == list(csv[c]), c
    first = rows[rows["point"] < 2]
    assert list(first["verdict"]) == ["ok", "ok"]
    a, b = first["latency"]
    assert got["latency"][0] == pytest.approx((a + b) / 2, rel=1e-12)
    assert got["latency_ci95"][0] == pytest.approx(12.706 * abs(a - b) / 2, rel=1e-3)
    # The CSV's own rows read back (its combined rows skipped) combine alike.
    whole = read_csv(out)
    pandas.testing.assert_frame_equal(netwrap.across(whole), got, check_exact=True)


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


def test_swept_tables_are_named_as_in_the_csv(cli, tmp_path):
    """Verification: a swept table (whole topologies zipped) is named in the DataFrame as the
    command line names it (`netwrap sim torus --k 4 --bidirectional`), as in the CLI's CSV."""
    spec = {"workload": {"size": 4}, "run": {"messages": 200}}
    axes = {"zip": [{"topology": [{"family": "torus", "k": 4, "bidirectional": True},
                                  {"family": "midimew", "nodes": 16}]}]}
    got = netwrap.sweep(spec, axes)
    assert list(got["topology"]) == ["torus k=4 bidirectional", "midimew nodes=16"]
    path = spec_file(tmp_path, {**spec, "sweep": axes})
    out = tmp_path / "out.csv"
    assert cli.run("run", str(path), "--csv", str(out)).returncode == 0
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
    with pytest.raises(netwrap.SpecError, match=r"sweep point 1 \(workload.rate = 2.0\): workload.rate = 2") as e:
        netwrap.sweep(SPEC, {"workload.rate": [0.01, 2.0]})
    assert e.value.path == "workload.rate"
    with pytest.raises(ValueError, match="sweep axis workload.rate has no values"):
        netwrap.sweep(SPEC, {"workload.rate": []})
    with pytest.raises(ValueError, match="did you mean `workload`"):
        netwrap.sweep(SPEC, {"workloda.rate": [0.1]})
    with pytest.raises(ValueError, match="nan or infinity"):
        netwrap.sweep(SPEC, {"workload.rate": [float("nan")]})


def test_points_run_alone_as_in_the_sweep():
    """Verification: points() gives every point with its complete spec; run_point() of a
    point alone gives the result simulate() gives for that spec, and the sweep's row."""
    pts = netwrap.points(EXPERIMENT)
    assert [p["index"] for p in pts] == list(range(8))
    p = pts[5]
    assert set(p) == {"index", "replication", "params", "spec", "experiment", "points"}
    assert list(p["params"]) == ["workload.rate", "topology.k", "run.seed"]
    assert p["spec"]["run"]["seed"] != 8 and p["replication"] == 1  # a derived seed
    r = netwrap.run_point(p)
    assert r == netwrap.simulate(p["spec"])
    row = netwrap.sweep(EXPERIMENT).iloc[5]
    assert (row["latency"], row["seed"]) == (r["latency"], r["seed"])


def test_channels_equal_the_cli_and_traces_replay(cli, tmp_path):
    """Verification: channels=True adds every channel's statistics exactly as `netwrap run
    --json --channels` reports them; record_trace writes the file `--record-trace` writes, and
    a spec whose workload.trace names it replays it."""
    spec = {"topology": {"family": "torus", "k": 3}, "router": {"kind": "vc"},
            "run": {"messages": 200, "warmup": 50}}
    path = spec_file(tmp_path, spec)
    expected = cli.json("run", str(path), "--channels", str(tmp_path / "ch.csv"),
                        "--record-trace", str(tmp_path / "cli-trace.csv"))
    got = netwrap.simulate(spec, channels=True, record_trace=tmp_path / "trace.csv")
    assert got == expected
    assert len(got["channels"]) == got["network"]["channels"]
    assert {"utilization", "occupancy"} <= set(got["channels"][0])
    assert (tmp_path / "trace.csv").read_text() == (tmp_path / "cli-trace.csv").read_text()
    replay = netwrap.simulate({"topology": {"family": "torus", "k": 3},
                               "workload": {"trace": str(tmp_path / "trace.csv")},
                               "run": {"messages": 200, "warmup": 50}})
    assert replay["messages_delivered"] > 0 and "trace" in replay["config"]["workload"]


def test_saturation_and_check_equal_cli(cli, tmp_path):
    """Verification: saturation() and check() give `netwrap saturation FILE --json` and
    `netwrap check FILE --json` (a deadlock found is a result too)."""
    spec = {"topology": {"family": "ring", "k": 6}, "workload": {"size": 4},
            "run": {"messages": 300, "warmup": 100}}
    path = spec_file(tmp_path, spec)
    assert netwrap.saturation(spec, tolerance=0.1) == cli.json("saturation", str(path), "--tolerance", "0.1")
    vc = {"topology": {"family": "torus", "k": 4}, "router": {"kind": "vc", "vcs": 1}}
    path = spec_file(tmp_path, vc, "vc.json")
    p = cli.run("check", str(path), "--json")
    assert p.returncode == 4, p.stderr
    assert netwrap.check(vc) == json.loads(p.stdout)


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


def test_a_networkx_graph_runs_as_the_graph_family(cli, tmp_path):
    """Verification: the Petersen graph (10 routers of degree 3, diameter 2) written by
    graph_file runs exactly as `netwrap sim graph --file F` runs the file, its structure as
    `netwrap topo` measures it, and Valiant's routing over its tables too; a node's
    `terminals` attribute and an edge's `latency` reach the file."""
    networkx = pytest.importorskip("networkx")
    g = networkx.petersen_graph()
    path = tmp_path / "petersen.json"
    topology = netwrap.graph_file(g, path)
    assert topology == {"family": "graph", "file": str(path)}
    t = netwrap.topo("graph", file=str(path))
    assert (t["routers"], t["nodes"], t["diameter"], t["degree"]) == (10, 10, 2, 3)
    spec = {"topology": topology, "routing": {"algorithm": "valiant"},
            "workload": {"rate": 0.02, "size": 2}, "run": {"messages": 300, "warmup": 100}}
    got = netwrap.simulate(spec)
    assert got == cli.json("sim", "graph", "--file", str(path), "--routing", "valiant", "--rate", "0.02",
                           "--size", "2", "--messages", "300", "--warmup", "100")
    assert got["nonminimal"] > 0.5
    d = networkx.DiGraph()
    d.add_edge("a", "b", latency=3)
    d.add_edge("b", "a")
    d.nodes["a"]["terminals"] = 2
    written = json.loads(open(netwrap.graph_file(d, tmp_path / "d.json")["file"]).read())
    assert written["directed"] is True
    assert {"id": "a", "terminals": 2} in written["nodes"]
    assert {"source": "a", "target": "b", "latency": 3} in written["links"]


def test_the_model_beside_a_simulation_reaches_the_per_channel_model(cli):
    """Verification: a spec's `model` section on a network no paper's model describes (a 4x8
    mesh, unequal radices) is compared with the per-channel model, as `netwrap sim --model`
    does, to the last digit; where no model applies (the virtual-channel router on a
    dragonfly storing and forwarding) netwrap.SpecError names `model` and why."""
    spec = {
        "topology": {"family": "mesh", "radices": [4, 8]},
        "workload": {"rate": 0.02, "size": 2},
        "run": {"messages": 400, "warmup": 100},
        "model": {},
    }
    got = netwrap.simulate(spec)
    assert got["model"]["model"] == "network"
    assert got == cli.json("sim", "--rate", "0.02", "--size", "2", "--messages", "400", "--warmup", "100",
                           "--model", "mesh", "--radices", "4,8")
    with pytest.raises(netwrap.SpecError) as e:
        netwrap.simulate({"topology": {"family": "dragonfly"}, "router": {"kind": "vc", "switching": "saf"},
                          "model": {}})
    assert e.value.path == "model" and "store-and-forward is not modelled" in str(e.value)


def test_collectives_report_their_completion_and_sweep_its_columns(cli):
    """A collective's spec runs through Python as on the command line (verification: the ring
    all-reduce of 64 flits on a unidirectional 8-ring, ideal switch, completes in 14 steps of
    1 + 8 cycles = 126), and a sweep of collectives has their columns in its DataFrame."""
    spec = {
        "topology": {"family": "ring", "k": 8},
        "workload": {"size": 64, "collective": {"kind": "allreduce-ring"}},
    }
    result = netwrap.simulate(spec)
    assert result["completion"] == 126
    assert result["collective"]["ratio"] == 1.0
    flags = ["sim", "ring", "--k", "8", "--size", "64", "--collective", "allreduce-ring"]
    printed = cli.json(*flags)
    assert (printed["completion"], printed["collective"]) == (126, result["collective"])
    frame = netwrap.sweep(spec, {"workload.size": [8, 64]})
    assert list(frame["completion"]) == [14 * (1 + 1), 126]


def test_bursty_sources_and_standard_traces_equal_the_command_line(cli):
    """Verification: an on/off source and a replayed MPI dump from a dict are exactly the
    command line's runs of the same flags; the dump completes at cycle 105 (derived by hand in
    docs/sim.md, "Standard traces")."""
    bursty = {"topology": {"family": "torus", "k": 4},
              "workload": {"rate": 0.05, "processor": {"interval": "on-off", "burst": 8, "idle": 24}},
              "run": {"messages": 400}}
    assert netwrap.simulate(bursty) == cli.json(
        "sim", "--k", "4", "--rate", "0.05", "--interval", "on-off", "--burst", "8", "--idle", "24",
        "--messages", "400")
    dump = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "mpi.dumpi")
    got = netwrap.simulate({"topology": {"family": "ring", "k": 4},
                            "workload": {"trace": dump, "trace-format": "dumpi", "flit-bytes": 16}})
    assert got == cli.json("sim", "ring", "--k", "4", "--trace", dump, "--trace-format", "dumpi",
                           "--flit-bytes", "16")
    assert got["completion"] == 105
