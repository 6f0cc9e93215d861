"""The native module: netwrap's facade (the Rust crate netwrap-app) through serde."""

from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

__version__: str

class SpecError(ValueError):
    """A value of a spec or request that cannot be: ``path`` names its field (``router.buffer``,
    or a keyword such as ``switch_delay``), ``also`` the other fields it is about, ``reason``
    why."""

    path: str
    also: List[str]
    reason: str

def simulate(spec: Any, channels: bool = False, record_trace: Optional[str] = None,
             jobs: Optional[int] = None) -> Dict[str, Any]:
    """Simulate one spec: the dict ``netwrap run SPEC --json`` prints."""

def points(spec: Any, axes: Optional[Mapping[str, Any]] = None) -> List[Dict[str, Any]]:
    """Every point of a sweep (index, replication, params, spec), each validated."""

def run_point(point: Mapping[str, Any], channels: bool = False, jobs: Optional[int] = None) -> Dict[str, Any]:
    """Run one point of ``points`` alone: the dict ``netwrap run --json`` prints for it."""

def task(point: Mapping[str, Any]) -> Tuple[Dict[str, Any], float]:
    """Run one point alone: its row, and the seconds from the call to its run starting."""

def sweep(spec: Any, axes: Optional[Mapping[str, Any]] = None,
          progress: Optional[Callable[[int, int], Any]] = None) -> Dict[str, List[Any]]:
    """Run every point of a sweep: the columns of ``netwrap run --csv``, each a list of cells;
    ``progress(done, total)`` is called as points finish."""

def across(rows: Mapping[str, List[Any]]) -> Dict[str, List[Any]]:
    """A replicated sweep's rows (columns of cells) combined, one row per point."""

def columns(parameters: List[str]) -> List[str]:
    """The columns of a sweep over these swept paths, in order."""

def collective_columns(parameters: List[str]) -> List[str]:
    """The columns of a sweep of collectives over these swept paths, in order."""

def saturation(spec: Any, tolerance: float = 0.02) -> Dict[str, Any]:
    """The saturation search of one spec: the dict ``netwrap saturation --json`` prints."""

def check(spec: Any) -> Dict[str, Any]:
    """The static deadlock check of a spec: the dict ``netwrap check --json`` prints."""

def topo(topology: Mapping[str, Any], routing: Mapping[str, Any], mapping: bool) -> Dict[str, Any]:
    """A topology built and measured: the dict ``netwrap topo --json`` prints."""

def model(name: str, options: Mapping[str, Any]) -> Dict[str, Any]:
    """A model's report: the dict ``netwrap model NAME --json`` prints (options keyed as the flags)."""

def model_network(spec: Any, rates: Optional[List[float]] = None) -> List[Dict[str, Any]]:
    """``netwrap model network SPEC --json``'s reports, one per rate (a list even for one)."""

def keys(command: str) -> List[str]:
    """The keys of a command's request, as the flags spell them."""

def cost(options: Mapping[str, Any]) -> Dict[str, Any]:
    """Packaging cost of the inter-module networks: the dict ``netwrap cost --json`` prints."""

def design(options: Mapping[str, Any]) -> Dict[str, Any]:
    """The constrained design search: the dict ``netwrap design --json`` prints."""
