"""netwrap.dask.sweep on a local Dask cluster against the local sweep."""

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
    """Verification: an invalid point raises the CLI's message on the driver."""
    with pytest.raises(ValueError, match=r"sweep point 1 .*workload.rate = 2"):
        netwrap.dask.sweep(SPEC, {"workload.rate": [0.01, 2.0]}, client=client)
