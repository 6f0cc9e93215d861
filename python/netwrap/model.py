"""The analytical models, as ``netwrap model ... --json``: the keyword arguments are the model's
request (the CLI's options, dashes as underscores), read by the same serde type the command
line fills from its flags, with the same defaults and checks.

A parameter left out (or None) takes the CLI's default; an unknown keyword raises
:class:`netwrap.SpecError` naming it, with the closest parameter there is. Each function
returns the JSON report as a dict: ``model``, ``netwrap_version``, ``config`` (the fully
resolved input) and the prediction (``utilization``, ``latency``, ``max_rate``,
``saturated``, ...). A saturated prediction is returned (``saturated`` is true, ``latency``
None), as the CLI prints it before exiting with status 3. A value that cannot be raises
:class:`netwrap.SpecError` whose ``path`` is the keyword.

``rate`` may also be a list (any sequence) of rates: the function then returns a list of
reports, one per rate, in order (``kary_ncube(rate=[0.01, 0.02, 0.03])``), as a curve is drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Literal, Optional, Sequence, Tuple, Union

from . import _native

if TYPE_CHECKING:  # pragma: no cover
    import pandas

__all__ = ["kary_ncube", "feedback", "indirect", "fat_tree", "network", "keywords"]

Contention = Literal["auto", "large-kd", "small-kd", "full-variance"]
WireDelay = Literal["unit", "length", "width"]
#: A reference torus for a bisection constraint: ``"n0:W0"`` or ``(n0, W0)``.
Reference = Union[str, Tuple[int, float]]
#: One request rate, or a sequence of them (one report each).
Rates = Union[float, Sequence[float]]
#: A model's report (a dict), or a list of them for a sequence of rates.
Report = Any


def _predict(name: str, options: Dict[str, Any]) -> Report:
    from . import _options

    rate: Any = options.get("rate")
    if hasattr(rate, "__len__") and not isinstance(rate, (str, bytes, dict)):
        # A curve: one request per rate, each checked as a single one is.
        return [_native.model(name, _options({**options, "rate": r})) for r in rate]
    return _native.model(name, _options(options))


def network(spec: Any, rates: Optional[Sequence[float]] = None) -> "pandas.DataFrame":
    """The per-channel model of any network the simulator takes, as ``netwrap model network
    SPEC --json``: on the ideal switch Agarwal 1991 eqs. 3-8 on every channel, with
    ``router.kind = "vc"`` (wormhole or vct) Greenberg & Guan 1997's wormhole model (eqs. 1-11)
    on every channel. ``spec`` as :func:`netwrap.simulate` takes it (a dict, TOML text or a
    file), the curve at ``rates`` (else at the rates the spec sweeps ``workload.rate`` over,
    else at its own rate).

    Returns a DataFrame, one row per rate, with the reports' fields: ``offered`` (the rate),
    ``latency`` (NaN where ``saturated``), ``throughput``, ``utilization``,
    ``max_utilization``, ``busiest_channel``, ``mean_hops``, ``unloaded_latency``,
    ``contention``, ``saturated``, ``max_rate``; with the VC router also ``holding``,
    ``bandwidth_rate``, ``limiting`` and ``source_service_time``. ``attrs`` holds the
    ``network``, ``load_method``, ``model`` and ``netwrap_version``, each row's ``config``, and
    with the VC router each row's ``links`` (every link's service time and wait; None where
    saturated) and ``latency_by_distance`` (each class of source-destination pairs by the
    distance between them: its ``share`` of the messages, ``unloaded_latency`` and
    ``latency``; None where saturated). Routings that choose paths by queue state (on the ideal switch also next hops),
    VC router options the model does not cover and workloads it does not cover raise
    :class:`netwrap.SpecError` or ``ValueError``.
    """
    import pandas

    reports = _native.model_network(spec, None if rates is None else [float(r) for r in rates])
    first = reports[0] if reports else {}
    vc = "holding" in first
    fields = ["offered", "latency", "throughput", "utilization", "max_utilization", "busiest_channel",
              "mean_hops", "unloaded_latency", "contention", "saturated", "max_rate"]
    if vc:
        fields += ["holding", "bandwidth_rate", "limiting", "source_service_time"]
    frame = pandas.DataFrame({f: [r.get(f) for r in reports] for f in fields})
    frame["latency"] = pandas.to_numeric(frame["latency"])
    frame["contention"] = pandas.to_numeric(frame["contention"])
    if vc:
        frame["source_service_time"] = pandas.to_numeric(frame["source_service_time"])
    frame.attrs = {key: first.get(key) for key in ("model", "netwrap_version", "network", "load_method")}
    frame.attrs["config"] = [r.get("config") for r in reports]
    if vc:
        frame.attrs["links"] = [r.get("links") for r in reports]
        frame.attrs["latency_by_distance"] = [r.get("latency_by_distance") for r in reports]
    return frame


def keywords(command: str) -> List[str]:
    """The keywords a command's request takes (``kary-ncube``, ``feedback``, ``indirect``,
    ``fat-tree``, ``cost``, ``design``), in the request's order."""
    return [key.replace("-", "_") for key in _native.keys(command)]


def kary_ncube(*, k: Optional[int] = None, n: Optional[int] = None, nodes: Optional[int] = None,
               rate: Optional[Rates] = None, size: Optional[int] = None,
               locality: Optional[float] = None, bidirectional: bool = False,
               no_wrap: bool = False, contention: Optional[Contention] = None,
               bits: Optional[float] = None, width: Optional[float] = None,
               pins: Optional[float] = None, bisection: Optional[float] = None,
               bisection_binary_cube: bool = False, bisection_of: Optional[Reference] = None,
               switch_delay: Optional[float] = None, wire_delay: Optional[WireDelay] = None,
               space_dims: Optional[int] = None, switch_pipeline: Optional[int] = None,
               **unknown: Any) -> Report:
    """Contention model of a buffered k-ary n-cube (Agarwal 1991 eqs. 1-12; the homework's
    App. B), as ``netwrap model kary-ncube --json``.

    ``k`` radix (default 8), ``n`` dimensions (default 2) or ``nodes`` N (n rounded up),
    ``rate`` m messages/node/cycle (default 0.04), ``size`` B flits (default 4), ``locality``
    l in (0, 1], ``bidirectional``, ``no_wrap`` (a mesh), ``contention`` form (``auto``: the
    homework's App. B rule). Agarwal 1991's physical options: ``bits`` L with one width
    constraint (``width``, ``pins``, ``bisection``, ``bisection_binary_cube`` or
    ``bisection_of`` = ``"n0:W0"`` or ``(n0, W0)``), and ``switch_delay``, ``wire_delay``,
    ``space_dims`` for eq. 12's latency in units of the 2-D wire delay (``wire_delay="width"``:
    nodes spaced in proportion to the channel width, Agarwal 1991 Section 4.2, which needs
    ``bits`` and a width constraint). ``switch_pipeline`` p (default 1): switches with a
    p-cycle pipeline, T = (p + w) n k_d + B (Agarwal 1991 Section 3.2, after eq. 10).
    """
    options = {key: value for key, value in locals().items() if key != "unknown"}
    return _predict("kary-ncube", {**options, **unknown})


def feedback(*, k: Optional[int] = None, n: Optional[int] = None, nodes: Optional[int] = None,
             rate: Optional[Rates] = None, size: Optional[int] = None,
             locality: Optional[float] = None, bidirectional: bool = False,
             no_wrap: bool = False, contention: Optional[Contention] = None,
             bits: Optional[float] = None, width: Optional[float] = None,
             pins: Optional[float] = None, bisection: Optional[float] = None,
             bisection_binary_cube: bool = False, bisection_of: Optional[Reference] = None,
             switch_delay: Optional[float] = None, wire_delay: Optional[WireDelay] = None,
             space_dims: Optional[int] = None,
             solution: Optional[Literal["exact", "quadratic", "closed-form"]] = None,
             threads: Optional[int] = None, **unknown: Any) -> Report:
    """Processor utilisation with network feedback (the homework's App. D; ``threads`` T per
    processor after Agarwal 1992), as ``netwrap model feedback --json``.

    The k-ary n-cube's parameters as in :func:`kary_ncube` (``rate`` is m while busy), plus
    ``solution`` (``exact``, the default; ``quadratic``; ``closed-form``, the form App. D
    prints) and ``threads`` (default 1).
    """
    options = {key: value for key, value in locals().items() if key != "unknown"}
    return _predict("feedback", {**options, **unknown})


def indirect(*, k: Optional[int] = None, n: Optional[int] = None, nodes: Optional[int] = None,
             rate: Optional[Rates] = None, size: Optional[float] = None,
             bits: Optional[float] = None, width: Optional[float] = None,
             pins: Optional[float] = None, memory_latency: Optional[float] = None,
             **unknown: Any) -> Report:
    """Buffered indirect (Omega) network (Agarwal 1991 eqs. 13-14; the homework's App. C), as
    ``netwrap model indirect --json``.

    ``k`` switch size (default 2), ``n`` stages (default 2) or ``nodes`` N, ``rate`` m
    (default 0.04), ``size`` B flits (default 4) or ``bits`` L with ``width`` W or ``pins``,
    ``memory_latency`` M (default 0).
    """
    options = {key: value for key, value in locals().items() if key != "unknown"}
    return _predict("indirect", {**options, **unknown})


def fat_tree(*, nodes: Optional[int] = None, rate: Optional[Rates] = None,
             size: Optional[float] = None,
             mg2_rate: Optional[Literal["pair", "per-link"]] = None,
             turn: Optional[Literal["printed", "conditional"]] = None,
             **unknown: Any) -> Report:
    """Greenberg & Guan's wormhole model of the butterfly fat-tree (their eqs. 1-26), as
    ``netwrap model fat-tree --json``.

    ``nodes`` N = 4^n (default 1024), ``rate`` lambda_0 messages/processor/cycle (default
    0.001), ``size`` worm length in flits (default 32), ``mg2_rate`` (``pair``: 2 lambda, the
    default; ``per-link``: as printed) and ``turn`` (``printed``, the default;
    ``conditional``).
    """
    options = {key: value for key, value in locals().items() if key != "unknown"}
    return _predict("fat-tree", {**options, **unknown})
