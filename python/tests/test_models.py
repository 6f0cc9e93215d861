"""netwrap.model, netwrap.topo, netwrap.cost and netwrap.design against the command line's JSON."""

import inspect

import pytest

import netwrap
from netwrap import model


@pytest.mark.parametrize("kwargs, flags", [
    ({}, []),
    ({"k": 16, "n": 2, "rate": 0.01, "size": 8}, ["--k", "16", "--n", "2", "--rate", "0.01", "--size", "8"]),
    ({"k": 8, "nodes": 64, "bidirectional": True, "locality": 0.5, "contention": "full-variance"},
     ["--k", "8", "--nodes", "64", "--bidirectional", "--locality", "0.5", "--contention", "full-variance"]),
    ({"k": 4, "n": 3, "no_wrap": True}, ["--k", "4", "--n", "3", "--no-wrap"]),
    ({"bits": 128.0, "bisection_of": (2, 32), "switch_delay": 1.0, "wire_delay": "unit"},
     ["--bits", "128", "--bisection-of", "2:32", "--switch-delay", "1", "--wire-delay", "unit"]),
    ({"bits": 128, "bisection_of": "2:32"}, ["--bits", "128", "--bisection-of", "2:32"]),
    ({"rate": 0.2}, ["--rate", "0.2"]),  # saturated: status 3, JSON printed
    ({"k": 10, "n": 3, "rate": 0.02, "switch_pipeline": 3},
     ["--k", "10", "--n", "3", "--rate", "0.02", "--switch-pipeline", "3"]),
    ({"k": 16, "n": 3, "bits": 160, "bisection_binary_cube": True, "switch_delay": 4.0, "wire_delay": "width"},
     ["--k", "16", "--n", "3", "--bits", "160", "--bisection-binary-cube", "--switch-delay", "4",
      "--wire-delay", "width"]),
])
def test_kary_ncube_equals_cli(cli, kwargs, flags):
    """Verification: model.kary_ncube gives `netwrap model kary-ncube ... --json`."""
    assert model.kary_ncube(**kwargs) == cli.json("model", "kary-ncube", *flags)


@pytest.mark.parametrize("kwargs, flags", [
    ({}, []),
    ({"rate": 0.1, "solution": "closed-form"}, ["--rate", "0.1", "--solution", "closed-form"]),
    ({"rate": 0.05, "threads": 4}, ["--rate", "0.05", "--threads", "4"]),
])
def test_feedback_equals_cli(cli, kwargs, flags):
    """Verification: model.feedback gives `netwrap model feedback ... --json`."""
    assert model.feedback(**kwargs) == cli.json("model", "feedback", *flags)


@pytest.mark.parametrize("kwargs, flags", [
    ({}, []),
    ({"k": 4, "nodes": 256, "rate": 0.02, "memory_latency": 10.0},
     ["--k", "4", "--nodes", "256", "--rate", "0.02", "--memory-latency", "10"]),
    ({"bits": 64.0, "pins": 32.0}, ["--bits", "64", "--pins", "32"]),
])
def test_indirect_equals_cli(cli, kwargs, flags):
    """Verification: model.indirect gives `netwrap model indirect ... --json`."""
    assert model.indirect(**kwargs) == cli.json("model", "indirect", *flags)


@pytest.mark.parametrize("kwargs, flags", [
    ({}, []),
    ({"nodes": 64, "rate": 0.004, "size": 16.0, "mg2_rate": "per-link", "turn": "conditional"},
     ["--nodes", "64", "--rate", "0.004", "--size", "16", "--mg2-rate", "per-link", "--turn", "conditional"]),
])
def test_fat_tree_equals_cli(cli, kwargs, flags):
    """Verification: model.fat_tree gives `netwrap model fat-tree ... --json`."""
    assert model.fat_tree(**kwargs) == cli.json("model", "fat-tree", *flags)


def test_topo_cost_and_design_equal_cli(cli):
    """Verification: topo(), cost() and design() give `netwrap topo ... --json`,
    `netwrap cost ... --json` and `netwrap design ... --json` (candidates simulated too)."""
    assert netwrap.topo("torus", k=8, n=2, bidirectional=True) == cli.json("topo", "torus", "--k", "8", "--n", "2", "--bidirectional")
    # The 64-node Midimew has no map, and both say so (a warning here, a note on stderr there).
    with pytest.warns(UserWarning, match="no application-to-network mapping"):
        midimew = netwrap.topo("midimew", nodes=64, routing="table", mapping=True)
    assert midimew == cli.json("topo", "--routing", "table", "midimew", "--nodes", "64", "--mapping")
    assert netwrap.topo("nhop", factors=[4, 8]) == cli.json("topo", "nhop", "--factors", "4,8")
    assert netwrap.topo("xgft", children=[4, 4], parents=[1, 2], up_port="dmodk") == cli.json(
        "topo", "--up-port", "dmodk", "xgft", "--children", "4,4", "--parents", "1,2")
    assert netwrap.cost(modules=16, bisection=1024, nhop=[2, 3], toroid=[2]) == cli.json(
        "cost", "--modules", "16", "--bisection", "1024", "--nhop", "2", "--nhop", "3", "--toroid", "2")
    ex7 = ["design", "--nodes", "64", "--pins", "384", "--rate", "0.015", "--bits", "1024", "--locality", "0.5"]
    got = netwrap.design(nodes=64, pins=384, rate=0.015, bits=1024, locality=0.5)
    assert got == cli.json(*ex7)
    assert (got["candidates"][0]["n"], got["candidates"][0]["k"]) == (3, 4)  # the homework's Ex 7
    got = netwrap.design(nodes=64, pins=384, rate=0.015, bits=1024, top=3, simulate=1, messages=500)
    assert got == cli.json(*ex7[:-2], "--top", "3", "--simulate", "1", "--messages", "500")
    assert got["simulated"][0]["rank"] == 1


def test_results_are_typed_as_the_json():
    """Characterisation: a model's report is a dict of the JSON's types."""
    p = model.kary_ncube()
    assert isinstance(p, dict) and p["model"] == "kary-ncube" and p["seed"] is None
    assert isinstance(p["latency"], float) and isinstance(p["saturated"], bool)
    assert isinstance(p["config"]["k"], int) and p["config"]["contention"] == "auto"
    assert model.kary_ncube(rate=0.2)["latency"] is None
    assert isinstance(netwrap.cost()["rows"], list)


@pytest.mark.parametrize("call, path, words", [
    (lambda: model.kary_ncube(rate=2.0), "rate", "rate = 2 is invalid: it must be a probability in [0, 1]"),
    (lambda: model.kary_ncube(k=1), "k", "k = 1 is invalid"),
    (lambda: model.kary_ncube(n=2, nodes=64), "nodes", "nodes cannot be given with n"),
    (lambda: model.kary_ncube(locality=0.01, no_wrap=True, k=2), "locality", "locality 0.01 with no_wrap"),
    (lambda: model.kary_ncube(switch_delay=-1.0), "switch_delay", "switch_delay = -1 is invalid"),
    (lambda: model.kary_ncube(bits=128), "bits", "bits needs a channel width"),
    (lambda: model.kary_ncube(rate="fast"), "rate", "rate: invalid type: string \"fast\", expected f64"),
    (lambda: model.feedback(threads=0), "threads", "threads = 0 is invalid"),
    (lambda: model.indirect(bits=64.0), "bits", "bits needs a channel width"),
    (lambda: model.fat_tree(nodes=100), "nodes", "4^n"),
    (lambda: model.fat_tree(turn="sideways"), "turn", "unknown variant `sideways`"),
    (lambda: netwrap.cost(modules=1), "modules", "modules = 1 is invalid"),
    (lambda: netwrap.design(nodes=64, rate=0.01, bits=1024), "pins", "give a constraint"),
])
def test_bad_arguments_raise_spec_errors_naming_the_keyword(call, path, words):
    """Verification: a bad argument raises netwrap.SpecError (a ValueError) whose `path` is the
    keyword and whose message says why, in keywords (no_wrap, not --no-wrap)."""
    with pytest.raises(netwrap.SpecError) as e:
        call()
    assert isinstance(e.value, ValueError)
    assert e.value.path == path
    assert words in str(e.value)


def test_unknown_keywords_are_errors_naming_them():
    """Verification: an unknown keyword is refused naming it, the keywords there are and the
    closest one; an unknown topology option likewise."""
    with pytest.raises(netwrap.SpecError) as e:
        model.kary_ncube(kk=3)
    assert e.value.path == "kk"
    message = str(e.value)
    assert message.startswith("unknown keyword `kk`, expected one of `k`, `n`, `nodes`")
    assert "`no_wrap`" in message and message.endswith("did you mean `k`?")
    with pytest.raises(netwrap.SpecError, match="did you mean `switch_delay`") as e:
        model.feedback(switch_dealy=1.0)
    assert e.value.path == "switch_dealy"
    with pytest.raises(netwrap.SpecError, match="unknown keyword `module`") as e:
        netwrap.cost(module=4)
    with pytest.raises(ValueError, match="(?s)unknown field `kk`.*did you mean `k`"):
        netwrap.topo("torus", kk=3)


@pytest.mark.parametrize("function, command", [
    (model.kary_ncube, "kary-ncube"), (model.feedback, "feedback"), (model.indirect, "indirect"),
    (model.fat_tree, "fat-tree"), (netwrap.cost, "cost"), (netwrap.design, "design"),
])
def test_signatures_are_the_requests(function, command):
    """Verification: each function's keywords are its request's keys, in order (the Python
    signature documents the Rust request, which defines them)."""
    names = [p.name for p in inspect.signature(function).parameters.values() if p.kind == p.KEYWORD_ONLY]
    assert names == model.keywords(command)


def test_switch_pipeline_and_width_wire():
    """Verification of Agarwal 1991 Section 3.2's pipelined switch and Section 4.2's wire
    proportional to the channel width, by hand. The 10-ary 3-cube (n k_d = 13.5) at m = 0.02,
    B = 4 has rho = 0.36 and eq. 8's w = 14/27 (w n k_d = 7): with p = 3, T = 3*13.5 + 7 + 4
    = 51.5. The 16-ary 3-cube (N = 4096) with a unit-width binary-cube bisection has W = 8 and
    a longest wire of W k^(n/2 - 1) = 8*4 = 32 = sqrt(N)/2, the clock period with s = 0."""
    assert abs(model.kary_ncube(k=10, n=3, rate=0.02, size=4, switch_pipeline=3)["latency"] - 51.5) < 1e-9
    r = model.kary_ncube(k=16, n=3, bits=160, bisection_binary_cube=True, switch_delay=0.0, wire_delay="width")
    assert r["clock_period"] == 32.0
    with pytest.raises(netwrap.SpecError) as e:
        model.kary_ncube(switch_pipeline=0)
    assert e.value.path == "switch_pipeline"
    with pytest.raises(netwrap.SpecError) as e:
        model.kary_ncube(wire_delay="width")
    assert e.value.path == "wire_delay"


def test_a_list_of_rates_gives_one_report_per_rate():
    """Verification: a list of rates is the list of the reports of each rate alone, in order,
    for every model; a bad rate in the list raises as it does alone."""
    for f in (model.kary_ncube, model.feedback, model.indirect, model.fat_tree):
        rates = [0.001, 0.002, 0.004]
        assert f(rate=rates) == [f(rate=r) for r in rates]
        assert f(rate=(0.001,)) == [f(rate=0.001)]
    with pytest.raises(netwrap.SpecError, match="rate = 2 is invalid"):
        model.kary_ncube(rate=[0.01, 2.0])


def test_messages_name_keywords_not_flags():
    """Verification: a model's message speaks to a Python user in keywords, with no
    command-line option (`--bits`, `--bisection-binary-cube`) in it."""
    for call, says in [
        (lambda: model.kary_ncube(bits=256), "bits needs a channel width: give width, pins or bisection"),
        (lambda: netwrap.design(nodes=64, rate=0.01, bits=1024), "give a constraint: pins, bisection or width"),
    ]:
        with pytest.raises(netwrap.SpecError) as e:
            call()
        assert says in str(e.value) and "--" not in str(e.value), str(e.value)
    with pytest.raises(netwrap.SpecError) as e:
        model.kary_ncube(locality=0.01, no_wrap=True, k=2)
    assert "--" not in str(e.value), str(e.value)


def test_network_equals_cli(cli, tmp_path):
    """Verification: netwrap.model.network gives, row by row, the reports `netwrap model
    network --json` prints for the same network, from a dict with rates, and from a file whose
    rate sweep is the curve; the virtual-channel router is refused as on the command line."""
    spec = {"topology": {"family": "torus", "k": 8}, "workload": {"size": 4}}
    reports = cli.json("model", "network", "--k", "8", "--size", "4", "--rates", "0.02,0.05,0.1")
    frame = model.network(spec, rates=[0.02, 0.05, 0.1])
    assert list(frame["offered"]) == [r["offered"] for r in reports]
    assert list(frame["throughput"]) == [r["throughput"] for r in reports]
    assert list(frame["saturated"]) == [False, False, True]
    assert frame["latency"][0] == reports[0]["latency"] and frame["latency"][1] == reports[1]["latency"]
    assert frame["latency"].isna()[2]
    assert frame.attrs["network"] == reports[0]["network"] and frame.attrs["model"] == "network"
    assert frame.attrs["config"] == [r["config"] for r in reports]
    path = tmp_path / "curve.toml"
    path.write_text('[topology]\nfamily = "torus"\nk = 8\n[workload]\nsize = 4\n'
                    '[sweep]\n"workload.rate" = [0.02, 0.05]\n')
    from_file = model.network(path)
    assert list(from_file["latency"]) == [r["latency"] for r in reports[:2]]
    with pytest.raises(ValueError, match="store-and-forward"):
        model.network({**spec, "router": {"kind": "vc", "switching": "saf"}})


def test_network_vc_equals_cli(cli):
    """Verification: with the virtual-channel router netwrap.model.network gives, row by row,
    the reports `netwrap model network --router vc --json` prints (Greenberg & Guan's model on
    every channel): the same latencies, saturation, what fails first and every link's service
    time, on the 16-processor fat-tree set up as Greenberg & Guan assume."""
    spec = {"topology": {"family": "fat-tree", "nodes": 16},
            "router": {"kind": "vc", "vcs": 1, "packet": 16},
            "workload": {"pattern": "uniform-others", "size": 16}}
    reports = cli.json("model", "network", "fat-tree", "--nodes", "16", "--router", "vc", "--vcs", "1",
                       "--packet", "16", "--pattern", "uniform-others", "--size", "16",
                       "--rates", "0.01,0.02,0.05")
    frame = model.network(spec, rates=[0.01, 0.02, 0.05])
    assert list(frame["saturated"]) == [r["saturated"] for r in reports] == [False, False, True]
    assert list(frame["latency"][:2]) == [r["latency"] for r in reports[:2]]
    assert list(frame["max_rate"]) == [r["max_rate"] for r in reports]
    assert list(frame["limiting"]) == [r["limiting"] for r in reports]
    assert list(frame["holding"]) == ["wormhole"] * 3
    assert frame.attrs["links"][:2] == [r["links"] for r in reports[:2]] and frame.attrs["links"][2] is None

