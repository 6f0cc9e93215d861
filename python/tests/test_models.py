"""netwrap.model, netwrap.topo and netwrap.cost against the command line's JSON."""

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
    ({"rate": 0.2}, ["--rate", "0.2"]),  # saturated: status 3, JSON printed
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


def test_topo_and_cost_equal_cli(cli):
    """Verification: topo() and cost() give `netwrap topo ... --json` and `netwrap cost ... --json`."""
    assert netwrap.topo("torus", k=8, n=2, bidirectional=True) == cli.json("topo", "torus", "--k", "8", "--n", "2", "--bidirectional")
    assert netwrap.topo("midimew", nodes=64, routing="table", mapping=True) == cli.json(
        "topo", "--routing", "table", "midimew", "--nodes", "64", "--mapping")
    assert netwrap.topo("nhop", factors="4,8") == cli.json("topo", "nhop", "--factors", "4,8")
    assert netwrap.cost(modules=16, bisection=1024, nhop=[2, 3], toroid=[2]) == cli.json(
        "cost", "--modules", "16", "--bisection", "1024", "--nhop", "2", "--nhop", "3", "--toroid", "2")


@pytest.mark.parametrize("call, flags, name", [
    (lambda: model.kary_ncube(rate=2.0), ["model", "kary-ncube", "--rate", "2.0"], "--rate"),
    (lambda: model.kary_ncube(k=1), ["model", "kary-ncube", "--k", "1"], "--k"),
    (lambda: model.kary_ncube(n=2, nodes=64), ["model", "kary-ncube", "--n", "2", "--nodes", "64"], "--nodes"),
    (lambda: model.kary_ncube(locality=0.01, no_wrap=True, k=2),
     ["model", "kary-ncube", "--locality", "0.01", "--no-wrap", "--k", "2"], "--locality"),
    (lambda: model.feedback(threads=0), ["model", "feedback", "--threads", "0"], "--threads"),
    (lambda: model.indirect(bits=64.0), ["model", "indirect", "--bits", "64.0"], "--bits"),
    (lambda: model.fat_tree(nodes=100), ["model", "fat-tree", "--nodes", "100"], "--nodes"),
    (lambda: model.fat_tree(turn="sideways"), ["model", "fat-tree", "--turn", "sideways"], "--turn"),
    (lambda: netwrap.topo("torus", kk=3), ["topo", "torus", "--kk", "3"], "--kk"),
    (lambda: netwrap.cost(modules=1), ["cost", "--modules", "1"], "--modules"),
])
def test_bad_arguments_raise_the_cli_message(cli, call, flags, name):
    """Verification: a bad argument raises ValueError whose message is the CLI's (its first
    paragraph for clap's messages, the whole line otherwise) and names the parameter."""
    with pytest.raises(ValueError) as e:
        call()
    message = str(e.value)
    assert name in message
    assert cli.error(*flags).startswith(message)
