"""Shared fixtures: the netwrap binary built from the same crates, to compare against."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _binary() -> Path:
    if os.environ.get("NETWRAP_BIN"):
        return Path(os.environ["NETWRAP_BIN"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target / "debug" / "netwrap"


class Cli:
    """Runs the netwrap binary: ``run(args)`` gives the completed process, ``json(args)`` the
    JSON it prints (accepting statuses 0 and 3, saturated, which prints its result first),
    ``error(args)`` its message after ``netwrap: error: `` (or clap's ``error: ``)."""

    def __init__(self, path: Path):
        self.path = path

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.path), *args], capture_output=True, text=True)

    def json(self, *args: str):
        p = self.run(*args, "--json")
        assert p.returncode in (0, 3), p.stderr
        return json.loads(p.stdout)

    def error(self, *args: str) -> str:
        p = self.run(*args)
        assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
        text = p.stderr
        for prefix in ("netwrap: error: ", "error: "):
            if text.startswith(prefix):
                return text[len(prefix):]
        raise AssertionError(f"not an error message: {text!r}")


@pytest.fixture(scope="session")
def cli() -> Cli:
    path = _binary()
    if not path.exists():
        pytest.fail(f"{path} not found: build it with `cargo build -p netwrap` (or set NETWRAP_BIN)")
    return Cli(path)
