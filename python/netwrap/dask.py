"""Sweeps on a Dask cluster: each point of a sweep is one task.

The driver expands the sweep once (:func:`netwrap.points`: every point validated, each with its
complete spec); each task receives one point alone and runs it (:func:`netwrap.run_point`), so
a task's cost does not grow with the sweep's size. The driver puts the rows together in point
order. A point's result depends only on its spec, never on where or beside what it ran, so the
DataFrame equals :func:`netwrap.sweep`'s.

Needs ``dask[distributed]`` (``pip install 'netwrap[dask]'``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from . import Axes, Point, Spec, _frame, _native, points

if TYPE_CHECKING:  # pragma: no cover
    import distributed
    import pandas

__all__ = ["sweep", "task"]


def task(point: Point) -> Tuple[Dict[str, Any], float]:
    """One task: runs ``point`` alone and returns its row (the sweep DataFrame's columns) and
    the seconds from the task's start to the point's run starting (its network built)."""
    return _native.task(point)


def sweep(spec: Spec, axes: Optional[Axes] = None,
          client: Optional["distributed.Client"] = None) -> "pandas.DataFrame":
    """:func:`netwrap.sweep` with each point a task on a Dask cluster.

    ``client`` is any ``distributed.Client``; without one, a ``LocalCluster`` of worker
    processes on this machine (loopback only, no dashboard) is started for the call and closed
    after it. Every point is validated here before any task is submitted, so an invalid spec
    raises at once; a point that fails on a worker raises its error here. Returns the same
    DataFrame as :func:`netwrap.sweep`.
    """
    todo = points(spec, axes)
    own = None
    if client is None:
        from distributed import Client, LocalCluster

        cluster = LocalCluster(processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0")
        own = (cluster, Client(cluster))
        client = own[1]
    try:
        futures = client.map(task, todo, pure=False)
        done: List[Tuple[Dict[str, Any], float]] = client.gather(futures)
    finally:
        if own is not None:
            own[1].close()
            own[0].close()
    parameters = list(todo[0]["params"]) if todo else []
    # A sweep of collectives has their columns too.
    collective = any("completion" in row for row, _ in done)
    names = _native.collective_columns(parameters) if collective else _native.columns(parameters)
    columns: Dict[str, List[Any]] = {name: [] for name in names}
    for row, _ in done:
        for name, cells in columns.items():
            cells.append(row.get(name))
    return _frame(columns)
