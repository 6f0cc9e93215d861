"""Sweeps on a Dask cluster: each point of a sweep is one task.

A task runs one point of the same expanded sweep, by its index, exactly as
``netwrap run SPEC --shard INDEX/POINTS --csv -`` does (a job array's share of one point);
the driver puts the rows together in point order. A point's result depends only on its spec,
never on where or beside what it ran, so the DataFrame equals :func:`netwrap.sweep`'s.

Needs ``dask[distributed]`` (``pip install 'netwrap[dask]'``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Optional

from . import Axes, Spec, _axes, _experiment, _frame, _native

if TYPE_CHECKING:  # pragma: no cover
    import distributed
    import pandas

__all__ = ["sweep"]


def _point(index: int, spec: str, toml: bool, axes: str, count: int) -> str:
    """One point's CSV row (header, newline, row), run on a worker."""
    return _native.run(spec, toml, axes, True, (index, count))


def sweep(spec: Spec, axes: Optional[Axes] = None,
          client: Optional["distributed.Client"] = None) -> "pandas.DataFrame":
    """:func:`netwrap.sweep` with each point a task on a Dask cluster.

    ``client`` is any ``distributed.Client``; without one, a ``LocalCluster`` of worker
    processes on this machine (loopback only, no dashboard) is started for the call and closed
    after it. Every point is validated here before any task is submitted, so an invalid spec
    raises ValueError with the CLI's message at once; a point that fails on a worker raises
    its ValueError here. Returns the same DataFrame as :func:`netwrap.sweep`.
    """
    text, toml = _experiment(spec)
    axes_text = _axes(axes)
    count = _native.points(text, toml, axes_text)
    own = None
    if client is None:
        from distributed import Client, LocalCluster

        cluster = LocalCluster(processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0")
        own = (cluster, Client(cluster))
        client = own[1]
    try:
        futures = client.map(_point, list(range(count)), spec=text, toml=toml, axes=axes_text,
                             count=count, pure=False)
        parts: List[Any] = client.gather(futures)
    finally:
        if own is not None:
            own[1].close()
            own[0].close()
    header = parts[0].split("\n", 1)[0]
    rows = "".join(part.split("\n", 1)[1] for part in parts)
    return _frame(header + "\n" + rows)
