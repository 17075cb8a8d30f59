"""`--engine ray` without Ray installed, or an unknown engine: one clear line, nothing read or stored."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

WITHOUT_RAY = (
    "import sys; sys.modules['ray'] = None; sys.modules['ray.data'] = None\n"
    "from finagent.cli.main import run; sys.argv = ['finagent', *sys.argv[1:]]; run()"
)


@pytest.mark.parametrize(
    ("engine", "message"),
    [("ray", "pip install 'finagent[ray]'"), ("spark", "unknown engine 'spark': choose local or ray")],
)
def test_engine_errors_are_one_line(tmp_path: Path, engine: str, message: str) -> None:
    (tmp_path / "note.txt").write_text("not stored")
    result = subprocess.run(
        [sys.executable, "-c", WITHOUT_RAY, "ingest", "path", str(tmp_path), "--engine", engine],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={k: v for k, v in os.environ.items() if not k.startswith("FINAGENT_")}
        | {"FINAGENT_HOME": str(tmp_path / "home"), "COLUMNS": "200"},
        timeout=120,
    )
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "Traceback" not in output and message in " ".join(output.split()), output
    assert not (tmp_path / "home" / "pg").exists()  # no store was opened
