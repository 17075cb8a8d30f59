"""The code stays ruff- and mypy-clean (run as part of the suite, so CI enforces it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "src", "tests", "benchmarks", "graphs", "notebooks"],
        ["ruff", "format", "--check", "src", "tests", "benchmarks", "graphs", "notebooks"],
        ["mypy", "src", "tests"],
    ],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_static_checks(command: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
