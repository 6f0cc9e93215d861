"""How long a Dask task of a large sweep takes to start its point, and how long the driver
takes to expand the sweep: the figures docs/python.md reports.

    python python/bench/dask_tasks.py                 # 200,000 points, 1,000 of them run
    python python/bench/dask_tasks.py --points 20000 --run 100

The driver expands the sweep once (netwrap.points: every point validated, each with its
complete spec); each task receives one point alone, so its start-up (reading the point,
resolving its spec, building its network) does not depend on the sweep's size. The tasks run
here are spread evenly over the sweep, on a LocalCluster of two single-threaded workers.
"""

import argparse
import pickle
import statistics
import time

import netwrap
import netwrap.dask

SPEC = {"topology": {"family": "torus", "k": 4}, "workload": {"size": 4},
        "run": {"messages": 300, "warmup": 100}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=200_000, help="points in the sweep (even)")
    parser.add_argument("--run", type=int, default=1_000, help="tasks to run, spread over the sweep")
    a = parser.parse_args()

    rates = [round(0.001 + 0.03 * i / (a.points // 2), 9) for i in range(a.points // 2)]
    start = time.perf_counter()
    points = netwrap.points(SPEC, {"workload.rate": rates, "replications": 2})
    expansion = time.perf_counter() - start
    size = statistics.mean(len(pickle.dumps(p)) for p in points[:: max(1, len(points) // 1000)])
    print(f"driver: {len(points)} points expanded in {expansion:.2f} s "
          f"({expansion / len(points) * 1e6:.1f} us a point); a point pickles to {size:.0f} bytes")

    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0") as cluster, Client(cluster) as client:
        chosen = points[:: max(1, len(points) // a.run)][: a.run]
        start = time.perf_counter()
        done = client.gather(client.map(netwrap.dask.task, chosen, pure=False))
        wall = time.perf_counter() - start
    started = sorted(s for _, s in done)
    print(f"tasks: {len(done)} run in {wall:.1f} s; task start to point start: median "
          f"{statistics.median(started) * 1000:.2f} ms, 99th percentile "
          f"{started[int(0.99 * (len(started) - 1))] * 1000:.2f} ms, max {started[-1] * 1000:.2f} ms")


if __name__ == "__main__":
    main()
