"""netwrap from Python: simulate and model interconnection networks of parallel computers.

Every function runs the very code of the ``netwrap`` command line (the Rust crates, through
the native module ``netwrap._native``), so a result here is the CLI's to the last bit:

- :func:`simulate` is ``netwrap run SPEC --json`` (a spec as in an experiment file);
- :func:`sweep` is ``netwrap run SPEC --csv -``, as a pandas DataFrame with the CSV's columns;
- :mod:`netwrap.model` holds the analytical models (``netwrap model ... --json``);
- :func:`topo` and :func:`cost` are ``netwrap topo ... --json`` and ``netwrap cost ... --json``;
- :mod:`netwrap.dask` runs a sweep's points as tasks on a Dask cluster.

Invalid input raises :class:`ValueError` whose message is the one the CLI prints after
``netwrap: error:``, naming the parameter. Long runs release the GIL. A run whose verdict is
``saturated``, ``deadlock`` or ``limit-reached`` is returned like any other (the CLI prints it,
then exits with status 3, 4 or 5): look at its ``verdict``.
"""

from __future__ import annotations

import io
import json
import math
import os
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _native
from . import model

if TYPE_CHECKING:  # pragma: no cover
    import pandas

__all__ = ["Spec", "Axes", "simulate", "sweep", "points", "topo", "cost", "model", "__version__"]

__version__: str = _native.__version__

#: A spec, as an experiment file holds it: a mapping (read as the JSON form), TOML text, or the
#: path of a ``.toml`` or ``.json`` file.
Spec = Union[Mapping[str, Any], str, "os.PathLike[str]"]

#: Sweep axes: a dotted path into the spec and its values (``{"workload.rate": [0.01, 0.02]}``),
#: plus optionally ``replications`` and ``zip`` (a list of mappings of axes of equal length), as
#: in an experiment file's ``[sweep]`` table.
Axes = Mapping[str, Any]


def _plain(value: Any) -> Any:
    """A NumPy or pandas value (``np.linspace(...)``, ``np.int64(4)``, a Series) as plain Python."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not a number, text, list or table")


def _json(value: Any, what: str) -> str:
    try:
        return json.dumps(value, allow_nan=False, default=_plain)
    except ValueError:
        raise ValueError(
            f"{what} holds nan or infinity: every value a spec takes is a finite number"
        ) from None
    except TypeError as e:
        raise ValueError(f"{what}: {e}") from None


def _experiment(spec: Spec) -> Tuple[str, bool]:
    """The spec's text and whether it is TOML (else JSON), as ``netwrap run FILE`` reads it."""
    if isinstance(spec, os.PathLike):
        path = os.fspath(spec)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        ext = os.path.splitext(path)[1]
        toml = ext == ".toml" or (ext != ".json" and not text.lstrip().startswith("{"))
        return text, toml
    if isinstance(spec, str):
        return spec, True
    if isinstance(spec, Mapping):
        return _json(dict(spec), "the spec"), False
    raise ValueError(
        f"a spec is a mapping of sections, TOML text or a file's path, not {type(spec).__name__}"
    )


def _axes(axes: Optional[Axes]) -> str:
    if axes is None:
        return ""
    if not isinstance(axes, Mapping):
        raise ValueError(
            'sweep axes are a mapping of dotted paths to lists, e.g. {"workload.rate": [0.01, 0.02]}'
        )
    return _json(dict(axes), "the sweep axes")


def _frame(csv: str) -> "pandas.DataFrame":
    """The runner's tidy CSV as a DataFrame: numbers read back exactly, only empty cells missing."""
    import pandas

    text = io.StringIO(csv)
    if int(pandas.__version__.split(".")[0]) < 3:
        return pandas.read_csv(text, keep_default_na=False, na_values=[""], float_precision="round_trip")
    # pandas 3 reads floats back exactly by default (and deprecates the option).
    return pandas.read_csv(text, keep_default_na=False, na_values=[""])


def simulate(spec: Spec) -> Dict[str, Any]:
    """Simulate one spec and return its result, as ``netwrap run SPEC --json`` prints it.

    ``spec`` is what an experiment file holds (see docs/sim.md): a mapping such as
    ``{"topology": {"family": "torus", "k": 8}, "workload": {"rate": 0.04, "size": 4}}``,
    TOML text, or a file's path. Sections left out take the CLI's defaults (the homework's
    8x8 torus at m = 0.04). The result has ``netwrap_version``, ``seed``, the fully resolved
    ``config``, ``network``, the report's fields (``utilization``, ``latency``, ...) and ``model`` when asked.

    Raises ValueError for an invalid spec (the CLI's message) or a spec that sweeps (use
    :func:`sweep`).
    """
    text, toml = _experiment(spec)
    n = _native.points(text, toml, "")
    if n != 1:
        raise ValueError(
            f"simulate runs one point, and this spec's sweep table has {n}: use netwrap.sweep"
        )
    return json.loads(_native.run(text, toml, "", False))


def points(spec: Spec, axes: Optional[Axes] = None) -> int:
    """The number of points of ``spec`` swept over ``axes`` (replications included), every
    point validated first, as ``netwrap run`` does before it runs any."""
    text, toml = _experiment(spec)
    return _native.points(text, toml, _axes(axes))


def sweep(spec: Spec, axes: Optional[Axes] = None) -> "pandas.DataFrame":
    """Run ``spec`` at every point of ``axes`` and return one row per point.

    ``axes`` joins the spec's own ``[sweep]`` table (an axis of the same path replaces the
    spec's): ``{"workload.rate": [0.01, 0.02, 0.03]}`` sweeps the rate; several axes combine
    as a product, the first varying slowest; ``"replications": 2`` runs each point twice with
    derived seeds; ``"zip": [{"topology.k": [4, 8], "workload.size": [8, 4]}]`` advances axes
    together. The points run in parallel (Rust threads, the GIL released).

    The DataFrame is ``netwrap run SPEC --csv -`` read back: columns ``point``,
    ``replication``, the swept paths, then the metrics (``verdict``, ``utilization``,
    ``latency``, ..., ``model_latency``, ...), empty cells as NaN. Rows come in point order
    and do not depend on the number of threads.
    """
    text, toml = _experiment(spec)
    return _frame(_native.run(text, toml, _axes(axes), True))


def _option(name: str, value: Any) -> List[str]:
    """A keyword argument as the CLI's option: ``no_wrap=True`` is ``--no-wrap``, a list
    repeats the option, None and False leave it out."""
    flag = "--" + name.replace("_", "-")
    if hasattr(value, "tolist"):
        value = value.tolist()
    if value is None or value is False:
        return []
    if value is True:
        return [flag]
    if isinstance(value, (list, tuple)):
        return [a for v in value for a in _option(name, v)]
    if isinstance(value, float):
        # repr is the shortest text that reads back as the same float.
        return [flag, repr(value) if math.isfinite(value) else str(value)]
    return [flag, str(value)]


def _options(options: Mapping[str, Any]) -> List[str]:
    return [a for name, value in options.items() for a in _option(name, value)]


def _command(args: Iterable[str]) -> Dict[str, Any]:
    return json.loads(_native.command(list(args) + ["--json"]))


def topo(family: str, *, routing: Optional[str] = None, order: Optional[str] = None,
         mapping: bool = False, **options: Any) -> Dict[str, Any]:
    """Build a topology and return its exact metrics, as ``netwrap topo FAMILY ... --json``.

    ``family`` is one of the CLI's families (``torus``, ``mesh``, ``ring``, ``hypercube``,
    ``midimew``, ``circulant``, ``butterfly``, ``omega``, ``fat-tree``, ``complete``, ``nhop``,
    ``ccc``, ``crossbar``, ``two-level``) and ``options`` its options with the CLI's names,
    dashes as underscores: ``topo("torus", k=8, n=2, bidirectional=True)``,
    ``topo("midimew", nodes=64)``, ``topo("nhop", factors="4,8")``. ``routing``
    (``family``, ``table``, ``record``) and ``order`` (``highest-first``, ``lowest-first``)
    choose the routing whose channel loads are measured; ``mapping`` adds a Midimew's
    application-to-network mapping.
    """
    head = ["topo"] + _options({"routing": routing, "order": order, "mapping": mapping})
    return _command(head + [family] + _options(options))


def cost(*, modules: Optional[int] = None, bisection: Optional[int] = None,
         nhop: Sequence[int] = (), toroid: Sequence[int] = ()) -> Dict[str, Any]:
    """Packaging cost of inter-module networks (Raghunath & Ranade Tables I and II), as
    ``netwrap cost ... --json``: pin count, bundles per module and total bundles of each
    network for ``modules`` packaging modules (default 32) and a bisection width of
    ``bisection`` wires (default 8192); ``nhop`` and ``toroid`` add n-hop networks and toroids
    of those hops and dimensions."""
    return _command(["cost"] + _options(
        {"modules": modules, "bisection": bisection, "nhop": list(nhop), "toroid": list(toroid)}))
