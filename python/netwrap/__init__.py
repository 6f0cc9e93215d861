"""netwrap from Python: simulate and model interconnection networks of parallel computers.

Every function calls netwrap's typed facade (the Rust crate ``netwrap-app``, through the native
module ``netwrap._native``), the very code behind the ``netwrap`` command line, converting with
serde: a spec is a dict read by the same serde types the command line fills from its flags
(unknown keys refused, with a "did you mean"), and a result is the dict of the JSON the
command line prints, field for field.

- :func:`simulate` is ``netwrap run SPEC --json`` (``channels=True`` adds every channel's
  statistics, ``record_trace=PATH`` writes the run's messages as ``--record-trace`` does);
- :func:`sweep` runs a sweep into a pandas DataFrame with the columns of ``netwrap run --csv``;
- :func:`points` expands a sweep into its points and :func:`run_point` runs one alone (a
  distributed sweep's task; :mod:`netwrap.dask` runs them on a Dask cluster);
- :func:`saturation` and :func:`check` are ``netwrap saturation`` and ``netwrap check``;
- :mod:`netwrap.model` holds the analytical models (``netwrap model ... --json``);
- :func:`topo`, :func:`cost` and :func:`design` are ``netwrap topo``, ``cost`` and ``design``;
- :func:`graph_file` writes a networkx graph for the ``graph`` family.

A value that cannot be raises :class:`SpecError` (a ``ValueError``) whose ``path`` names it
(``router.buffer``, or a keyword such as ``switch_delay``); other invalid input raises
``ValueError``. Simulations run with the GIL released and stop on Ctrl-C (KeyboardInterrupt).
A run whose verdict is ``saturated``, ``deadlock`` or ``limit-reached`` is returned like any
other (the command line prints it, then exits with status 3, 4 or 5): look at its ``verdict``.
What resolving a spec adjusts (N rounded up to a whole dimension) is a ``UserWarning``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from . import _native
from ._native import SpecError
from . import model

if TYPE_CHECKING:  # pragma: no cover
    import pandas

__all__ = ["Spec", "Axes", "Point", "SpecError", "simulate", "sweep", "across", "points", "run_point",
           "saturation", "check", "topo", "cost", "design", "graph_file", "model", "__version__"]

__version__: str = _native.__version__

#: A spec, as an experiment file holds it: a mapping (read as the JSON form), TOML text, or the
#: path of a ``.toml`` or ``.json`` file. A result's dict is a spec too (its ``config`` is run).
Spec = Union[Mapping[str, Any], str, "os.PathLike[str]"]

#: Sweep axes: a dotted path into the spec and its values (``{"workload.rate": [0.01, 0.02]}``),
#: plus optionally ``replications`` and ``zip`` (a list of mappings of axes of equal length), as
#: in an experiment file's ``[sweep]`` table.
Axes = Mapping[str, Any]

#: One point of a sweep, as :func:`points` gives it: ``index`` (its position in the sweep),
#: ``replication``, ``params`` (the swept paths and their values) and ``spec`` (the point's
#: spec with every key written).
Point = Dict[str, Any]


def _frame(columns: Mapping[str, Sequence[Any]]) -> "pandas.DataFrame":
    """A DataFrame of columns of cells: a column with no value at all is NaN (as an empty CSV
    column reads), the others as pandas reads their cells (None is NaN in a numeric column)."""
    import pandas

    data = {}
    for name, cells in columns.items():
        if all(c is None for c in cells):
            data[name] = pandas.Series([float("nan")] * len(cells), dtype="float64")
        else:
            data[name] = pandas.Series(list(cells))
    return pandas.DataFrame(data)


def simulate(spec: Spec, *, channels: bool = False,
             record_trace: Union[str, "os.PathLike[str]", None] = None,
             jobs: Optional[int] = None) -> Dict[str, Any]:
    """Simulate one spec and return its result, as ``netwrap run SPEC --json`` prints it.

    ``spec`` is what an experiment file holds (see docs/sim.md): a mapping such as
    ``{"topology": {"family": "torus", "k": 8}, "workload": {"rate": 0.04, "size": 4}}``,
    TOML text, or a file's path. Sections left out take the CLI's defaults (the homework's
    8x8 torus at m = 0.04). The result has ``netwrap_version``, ``seed``, the fully resolved
    ``config``, ``network``, the report's fields (``utilization``, ``latency``, ...) and
    ``model`` when the spec has a ``model`` section.

    ``channels=True`` adds ``channels``: every channel's utilisation (and, with the
    virtual-channel router, its mean buffer occupancy per VC), as ``--channels`` writes them.
    ``record_trace=PATH`` writes every message the run creates as a trace (CSV, or JSON lines
    for ``.jsonl``/``.json``), as ``--record-trace`` does; a spec's ``workload.trace`` replays
    one.

    ``jobs=N`` runs on N threads (``--jobs``): the routers cut into N shards stepped in
    parallel (on at most one thread a core), with the same result, bit for bit, for any N, on
    either router. ``None`` (the default) takes every core on a network of 4096 routers or more
    and one thread below.

    Raises SpecError for a value that cannot be (``.path`` names it), ValueError for other
    invalid input or a spec that sweeps (use :func:`sweep`); Ctrl-C stops the run.
    """
    return _native.simulate(spec, channels, None if record_trace is None else os.fspath(record_trace), jobs)


def points(spec: Spec, axes: Optional[Axes] = None) -> List[Point]:
    """Every point of ``spec`` swept over ``axes`` (replications included), each validated, in
    the sweep's order: what a distributed sweep ships, one point per task.

    Each point is a dict of ``index``, ``replication``, ``params`` (the swept paths and the
    values they take), ``spec`` (the point's spec with every key written, which runs alone
    and reproduces the point bit for bit), ``experiment`` and ``points`` (the sweep's identity
    and point count, which its row carries as the CSV's last columns). :func:`run_point` runs
    one.

    (Before netwrap 0.1's facade, ``points`` returned the number of points: it is
    ``len(points(spec, axes))``.)
    """
    return _native.points(spec, axes)


def run_point(point: Point, *, channels: bool = False, jobs: Optional[int] = None) -> Dict[str, Any]:
    """Run one point of :func:`points` alone: the result as :func:`simulate` gives it. Its cost
    does not depend on the size of the sweep it came from. ``jobs=N``: on N threads, as
    :func:`simulate` (default: one, since a distributed sweep runs several tasks a machine)."""
    return _native.run_point(point, channels, jobs)


#: How a sweep reports its progress: True (a line on standard error), False (nothing), or a
#: function called with (points done, points in all).
Progress = Union[bool, Callable[[int, int], Any]]


def _progress_line(done: int, total: int) -> None:
    """Progress as a line on standard error, rewritten in place; ended when all are done."""
    import sys

    sys.stderr.write(f"\rnetwrap: {done} of {total} points done" + ("\n" if done == total else ""))
    sys.stderr.flush()


def sweep(spec: Spec, axes: Optional[Axes] = None, *,
          progress: Optional[Progress] = None) -> "pandas.DataFrame":
    """Run ``spec`` at every point of ``axes`` and return one row per point.

    ``axes`` joins the spec's own ``[sweep]`` table (an axis of the same path replaces the
    spec's): ``{"workload.rate": [0.01, 0.02, 0.03]}`` sweeps the rate; several axes combine
    as a product, the first varying slowest; ``"replications": 2`` runs each point twice with
    derived seeds; ``"zip": [{"topology.k": [4, 8], "workload.size": [8, 4]}]`` advances axes
    together. The points run in parallel (Rust threads, the GIL released; Ctrl-C stops them).

    The DataFrame's columns are those of ``netwrap run SPEC --csv``: ``point``,
    ``replication``, the swept paths, then the metrics (``verdict``, ``utilization``,
    ``latency``, ..., ``model_latency``, ...), a missing value NaN, a swept list as its JSON
    text, a swept table (a topology) named as the command line names it (``torus k=8 n=2``).
    Rows come in point order and do not depend on the number of threads.

    ``progress``: ``True`` shows "netwrap: 3 of 12 points done" on standard error as points
    finish, ``False`` nothing, a function is called with (points done, points in all); the
    default shows the line when standard error is a terminal.
    """
    import sys

    if progress is None:
        progress = sys.stderr.isatty()
    report = _progress_line if progress is True else (progress or None)
    return _frame(_native.sweep(spec, axes, report))


def across(rows: "pandas.DataFrame") -> "pandas.DataFrame":
    """A replicated sweep's rows combined: one row per point, as ``netwrap run`` prints them
    after a replicated sweep ("across replications").

    ``rows`` is what :func:`sweep` returns (or ``netwrap.dask.sweep``, or a
    ``netwrap run --csv`` file read by pandas, whose combined rows are skipped). Each point's
    runs are combined: ``point`` (its first run's), ``replication`` (``"all"``), the swept
    paths, ``runs``, ``ok`` (the runs whose verdict is ok), ``latency`` and ``latency_ci95``
    (the mean over the ok runs and its 95% Student-t half-width across them; the half-width
    is NaN from fewer than two), ``throughput`` and ``throughput_ci95`` (over every run),
    ``experiment`` and ``points``.
    """
    cells = rows.astype(object).where(rows.notna(), None)
    return _frame(_native.across({c: list(cells[c]) for c in rows.columns}))


def saturation(spec: Spec, *, tolerance: float = 0.02) -> Dict[str, Any]:
    """Search by simulation the request rate at which ``spec``'s network saturates, to within
    relative ``tolerance``: the result ``netwrap saturation SPEC --json`` prints (the probes,
    the bracket, the saturation rate). Ctrl-C stops the search."""
    return _native.saturation(spec, tolerance)


def check(spec: Spec) -> Dict[str, Any]:
    """The static deadlock check of ``spec``'s routing and virtual-channel assignment (its
    channel dependency graph): the result ``netwrap check SPEC --json`` prints, its
    ``verdict`` saying whether the routing can deadlock (a cycle is shown)."""
    return _native.check(spec)


def graph_file(graph: Any, path: Union[str, "os.PathLike[str]"]) -> Dict[str, Any]:
    """Write a networkx graph as the node-link JSON ``netwrap ... graph --file`` reads, and
    return the ``topology`` section naming it: ``{"family": "graph", "file": path}``.

    A node's ``terminals`` attribute gives its terminal count (one when absent, 0 for a pure
    switch) and an edge's ``latency`` its latency in cycles; a directed graph's edges are one
    channel each, an undirected graph's a channel each way. Node ids that are not whole
    numbers are written as text (``(0, 1)`` as ``"(0, 1)"``). The file stays where it is
    written: the spec and every result name it, so a run can be repeated from them.
    ``netwrap.simulate({"topology": netwrap.graph_file(G, "g.json"), ...})``.
    """
    import json

    def node_id(n: Any) -> Union[int, str]:
        return n if isinstance(n, int) and not isinstance(n, bool) and n >= 0 else str(n)

    def picked(attrs: Mapping[str, Any], key: str) -> Dict[str, int]:
        return {key: int(attrs[key])} if key in attrs else {}

    document = {
        "directed": bool(graph.is_directed()),
        "nodes": [{"id": node_id(n), **picked(d, "terminals")} for n, d in graph.nodes(data=True)],
        "links": [{"source": node_id(u), "target": node_id(v), **picked(d, "latency")}
                  for u, v, d in graph.edges(data=True)],
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f)
    return {"family": "graph", "file": os.fspath(path)}


def _options(options: Mapping[str, Any]) -> Dict[str, Any]:
    """Keyword arguments as a request's keys (``no_wrap`` is ``no-wrap``), None left out (the
    command line's default)."""
    return {name.replace("_", "-"): value for name, value in options.items() if value is not None}


def topo(family: str, *, routing: Optional[str] = None, order: Optional[str] = None,
         up_port: Optional[str] = None, mapping: bool = False, **options: Any) -> Dict[str, Any]:
    """Build a topology and return its exact metrics, as ``netwrap topo FAMILY ... --json``.

    ``family`` is one of the CLI's families (``torus``, ``mesh``, ``ring``, ``hypercube``,
    ``midimew``, ``circulant``, ``butterfly``, ``omega``, ``fat-tree``, ``kary-ntree``,
    ``xgft``, ``complete``, ``nhop``, ``ccc``, ``crossbar``, ``two-level``) and ``options`` its
    keys as a spec's ``topology`` section has them (dashes as underscores):
    ``topo("torus", k=8, n=2, bidirectional=True)``, ``topo("midimew", nodes=64)``,
    ``topo("xgft", children=[4, 4], parents=[1, 2])``. ``routing`` (``family``, ``table``,
    ``record``, ...), ``order`` (``highest-first``, ``lowest-first``) and ``up_port``
    (``random``, ``adaptive``, ``dmodk``; XGFTs and k-ary n-trees) choose the routing whose
    channel loads are measured; ``mapping`` adds a Midimew's application-to-network mapping.
    """
    topology = {"family": family, **_options(options)}
    routing_section = _options({"algorithm": routing, "order": order, "up_port": up_port})
    return _native.topo(topology, routing_section, mapping)


def cost(*, modules: Optional[int] = None, bisection: Optional[int] = None,
         nhop: Optional[Sequence[int]] = None, toroid: Optional[Sequence[int]] = None,
         **unknown: Any) -> Dict[str, Any]:
    """Packaging cost of inter-module networks (Raghunath & Ranade Tables I and II), as
    ``netwrap cost ... --json``: pin count, bundles per module and total bundles of each
    network for ``modules`` packaging modules (default 32) and a bisection width of
    ``bisection`` wires (default 8192); ``nhop`` and ``toroid`` add n-hop networks and toroids
    of those hops and dimensions."""
    return _native.cost(_options(dict(modules=modules, bisection=bisection, nhop=nhop,
                                      toroid=toroid, **unknown)))


def design(*, nodes: int, rate: float, bits: float, locality: Optional[float] = None,
           pins: Optional[float] = None, bisection: Optional[float] = None,
           width: Optional[float] = None, switch_delay: Optional[float] = None,
           wire_delay: Optional[str] = None, space_dims: Optional[int] = None,
           bidirectional: bool = False, fractional_flits: bool = False,
           exact_nodes: bool = False, rank: Optional[str] = None, top: Optional[int] = None,
           simulate: Optional[int] = None, messages: Optional[int] = None,
           seed: Optional[int] = None, **unknown: Any) -> Dict[str, Any]:
    """The constrained design search over k-ary n-cubes (the homework's Ex 7 for any inputs),
    as ``netwrap design ... --json``.

    ``nodes`` N, ``rate`` m, ``bits`` L and one width constraint (``pins`` per switch,
    ``bisection`` wires or a fixed ``width``); ``locality``, switch and wire delays
    (``switch_delay``, ``wire_delay``, ``space_dims``: candidates then rank by eq. 12),
    ``bidirectional``, ``fractional_flits``, ``exact_nodes``, ``rank`` (``latency`` or
    ``margin``), ``top`` K. ``simulate`` K confirms the best K candidates by simulation
    (``messages`` each, ``seed``), given in ``simulated``; Ctrl-C stops them.
    """
    options = {k: v for k, v in locals().items() if k != "unknown"}
    return _native.design(_options({**options, **unknown}))
