"""The example script examples/torus_vs_midimew.py."""

import subprocess
import sys

import pytest

from conftest import ROOT


def test_example_draws_its_picture(tmp_path):
    """Characterisation: the example runs (quick) and writes a PNG."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "tvm.png"
    p = subprocess.run([sys.executable, str(ROOT / "examples" / "torus_vs_midimew.py"), "--quick", "--out", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "6 points" in p.stdout
