"""The code stays ruff- and mypy-clean (run as part of the suite, so CI enforces it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


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


def test_import_layers() -> None:
    """The layer contracts of pyproject.toml (cli → interfaces | evaluation → agent → tools | retrieval
    → ingest → db | llm | embeddings → finance → settings): a wrong-way import fails here."""
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_queries_run_only_in_db() -> None:
    """Every query of the project is executed by a module of finagent.db (SQL text lives in sql/)."""
    package = ROOT / "src" / "finagent"
    outside = [
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if path.parent.name != "db"
        and path != package / "resources.py"
        and any(word in path.read_text() for word in (".execute(", ".executemany(", "read_sql("))
    ]
    assert outside == []
