"""netwrap.dask.sweep on a local Dask cluster against the local sweep, one point per task."""

import pickle
import time

import pandas
import pytest

import netwrap
import netwrap.dask

distributed = pytest.importorskip("distributed")

SPEC = {"topology": {"family": "torus", "k": 4}, "workload": {"size": 4},
        "run": {"messages": 300, "warmup": 100}}
AXES = {"workload.rate": [0.01, 0.03, 0.4], "replications": 2,
        "zip": [{"topology": [{"family": "torus", "k": 4}, {"family": "midimew", "nodes": 16}]}]}


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address="127.0.0.1:0")
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def test_dask_sweep_equals_local_sweep(client):
    """Verification: the points run as tasks on 2 worker processes give exactly the local
    sweep's DataFrame (a saturated point included)."""
    local = netwrap.sweep(SPEC, AXES)
    assert len(local) == 12 and "saturated" in set(local["verdict"])
    pandas.testing.assert_frame_equal(netwrap.dask.sweep(SPEC, AXES, client=client), local, check_exact=True)


def test_dask_sweep_of_toml_with_its_own_cluster():
    """Verification: without a client, a LocalCluster is started for the call; a TOML spec
    with its own [sweep] table gives the local sweep's DataFrame."""
    toml = '[topology]\nfamily = "ring"\nk = 6\n[run]\nmessages = 200\n[sweep]\n"workload.rate" = [0.01, 0.02]\n'
    pandas.testing.assert_frame_equal(netwrap.dask.sweep(toml), netwrap.sweep(toml), check_exact=True)


def test_dask_sweep_refuses_a_bad_spec_before_submitting(client):
    """Verification: an invalid point raises on the driver, naming its point and field."""
    with pytest.raises(netwrap.SpecError, match=r"sweep point 1 .*workload.rate = 2") as e:
        netwrap.dask.sweep(SPEC, {"workload.rate": [0.01, 2.0]}, client=client)
    assert e.value.path == "workload.rate"


def test_a_task_ships_one_point_whatever_the_sweeps_size(client):
    """Verification: a task receives one point alone (its pickle is the same size in a sweep of
    20,000 points as in one of 2) and starts running it well within 50 ms of its own start; the
    driver expands the sweep once. (The 200,000-point measurement: python/bench/dask_tasks.py.)"""
    rates = [round(0.001 + 0.03 * i / 10_000, 9) for i in range(10_000)]
    big_axes = {"workload.rate": rates, "replications": 2}
    start = time.perf_counter()
    big = netwrap.points(SPEC, big_axes)
    expansion = time.perf_counter() - start
    assert len(big) == 20_000
    small = netwrap.points(SPEC, {"workload.rate": rates[-1:], "replications": 2})
    same = big[-1]
    assert same["spec"] == small[-1]["spec"] and same["params"] == small[-1]["params"]
    # Only the index differs: its digits.
    assert abs(len(pickle.dumps(same)) - len(pickle.dumps(small[-1]))) <= 8
    chosen = [big[0], big[9_999], big[-1]]
    done = client.gather(client.map(netwrap.dask.task, chosen, pure=False))
    for (row, started_after), p in zip(done, chosen):
        assert row["point"] == p["index"] and row["replication"] == p["replication"]
        assert started_after < 0.05, started_after
    print(f"expansion of 20,000 points: {expansion:.2f} s; task start to point start: "
          f"{max(s for _, s in done) * 1000:.1f} ms at most")
