"""The native module: netwrap's command line as functions (see netwrap.api in Rust)."""

from typing import Optional, Tuple

__version__: str

def command(args: list[str]) -> str:
    """Run ``netwrap ARGS...`` and return what it prints; ValueError for invalid input."""

def points(spec: str, toml: bool, axes: str) -> int:
    """The number of points of an experiment (spec text plus axes as JSON), all validated."""

def run(spec: str, toml: bool, axes: str, csv: bool, shard: Optional[Tuple[int, int]] = None) -> str:
    """Run an experiment as ``netwrap run FILE --json`` (or ``--csv -``) and return its output."""
