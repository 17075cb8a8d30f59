"""`kill -9` in the middle of an ingest leaves only whole documents; a rerun completes without duplicates."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest

from finagent.db import Database
from tests.conftest import MODEL_CACHE, require_shared

pytestmark = pytest.mark.shared

PARTIAL_DOCUMENTS = """
SELECT d.id FROM documents d LEFT JOIN chunks c ON c.document_id = d.id
GROUP BY d.id HAVING count(c.id) <> max(d.chunk_count)
"""
DUPLICATE_ORDINALS = """
SELECT count(*) FROM (SELECT document_id, ordinal FROM chunks GROUP BY 1, 2 HAVING count(*) > 1) AS dup
"""


def scalar(url: str, query: str) -> Any:
    with psycopg.connect(url) as conn:
        row = conn.execute(query).fetchone()
    assert row is not None
    return row[0]


def test_sigkill_mid_ingest_then_rerun(db: Database, db_url: str, tmp_path: Path) -> None:
    # `db` has migrated the empty database, so the tables exist while the child process starts.
    source = require_shared("filings", "pdf", "sec10q")
    folder = tmp_path / "sec10q"  # six real 10-Q PDFs with their manifest keep the run short
    folder.mkdir()
    for path in [source / "manifest.json", *sorted(source.glob("*.pdf"))[:6]]:
        shutil.copy(path, folder / path.name)
    env = {k: v for k, v in os.environ.items() if not k.startswith("FINAGENT_")}
    env |= {"FINAGENT_DATABASE_URL": db_url, "FINAGENT_HOME": str(tmp_path)}
    env["FINAGENT_CACHE_DIR"] = str(MODEL_CACHE)
    # Vectors of these PDFs may be cached by an earlier test: computing them keeps the run long
    # enough for the kill to land mid-run.
    env["FINAGENT_EMBEDDING_CACHE"] = "false"
    command = [sys.executable, "-m", "finagent.cli.main", "ingest", "path", str(folder)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and process.poll() is None:
        if scalar(db_url, "SELECT count(*) FROM documents") >= 1:
            break
        time.sleep(0.2)
    time.sleep(1.5)  # land inside the next batch: parsing, embedding or a COPY
    process.send_signal(signal.SIGKILL)
    process.wait()
    stored = scalar(db_url, "SELECT count(*) FROM documents")
    assert 0 < stored < 6, "the kill should land mid-run"

    # Every stored document is whole: its recorded chunk count is what the table holds.
    with psycopg.connect(db_url) as conn:
        assert conn.execute(PARTIAL_DOCUMENTS).fetchall() == []

    rerun = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert scalar(db_url, "SELECT count(*) FROM documents") == 6
    assert scalar(db_url, "SELECT count(DISTINCT content_sha256) FROM documents") == 6
    assert scalar(db_url, "SELECT count(*) FROM chunks") == scalar(
        db_url, "SELECT sum(chunk_count) FROM documents"
    )
    assert scalar(db_url, DUPLICATE_ORDINALS) == 0
