"""`finagent ingest path … --engine ray` stores what the single-process ingest stores: the same
documents, chunks (text and vectors) and facts, from real filings, a transcript and SEC company facts;
a corrupt file is a failed row of the summary, never a crash; a re-run stores nothing twice."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest
from typer.testing import CliRunner

from finagent.cli.main import app
from finagent.settings import get_settings
from tests.conftest import MODEL_CACHE, create_database, require_shared
from tests.helpers import link_filings_slice

ray = pytest.importorskip("ray", reason="the ray extra is not installed")

pytestmark = [pytest.mark.slow, pytest.mark.shared]

DOCUMENTS = (
    "SELECT kind, ticker, fiscal_year, fiscal_quarter, period_end, title, content_sha256, chunk_count, "
    "status FROM documents ORDER BY content_sha256"
)
CHUNKS = (
    "SELECT d.content_sha256, c.ordinal, c.text, c.section, c.page, c.statement, c.flagged_reason, "
    "c.embedding::text FROM chunks c JOIN documents d ON d.id = c.document_id ORDER BY 1, 2"
)
FACTS = (
    "SELECT ticker, concept, value, unit, period_start, period_end, fiscal_year, fiscal_quarter, "
    "dims_key, filing_key, superseded, (document_id IS NULL) AS derived FROM facts "
    "ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12"
)


@pytest.fixture(scope="module")
def ray_session() -> Iterator[None]:
    """One local Ray for the module (starting one costs seconds)."""
    from finagent.ingest.ray_engine import connect
    from finagent.settings import Settings

    connect(Settings(ray_address=None))
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A few real files of each kind, linked (never copied), and a corrupt PDF."""
    folder = tmp_path_factory.mktemp("corpus")
    ixbrl = require_shared("filings", "edgar", "AAPL", "10-Q", "aapl-10-q-2025-08-01.html")
    os.symlink(ixbrl, folder / ixbrl.name)
    for name in ("AAPL_2023-11-02_8K.pdf", "AAPL_2024-05-02_8K.pdf"):
        os.symlink(require_shared("filings", "pdf", "aapl", name), folder / name)
    calls = folder / "calls"
    calls.mkdir()
    link_filings_slice(require_shared("transcripts", "bigtech-2022-2024"), calls, ["2022-01-27-AAPL.txt"])
    facts = require_shared("edgar-history", "companyfacts", "CIK0001640147.json")
    os.symlink(facts, folder / facts.name)
    (folder / "corrupt.pdf").write_bytes(b"%PDF-1.7\n" + os.urandom(2048))
    return folder


def ingest(url: str, home: Path, corpus: Path, monkeypatch: pytest.MonkeyPatch, *engine: str) -> str:
    monkeypatch.setenv("FINAGENT_DATABASE_URL", url)
    monkeypatch.setenv("FINAGENT_HOME", str(home))
    monkeypatch.setenv("FINAGENT_CACHE_DIR", str(MODEL_CACHE))
    monkeypatch.setenv("COLUMNS", "200")
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(app, ["ingest", "path", str(corpus), *engine])
    finally:
        get_settings.cache_clear()
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.output


def rows(url: str, query: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return [tuple(r) for r in conn.execute(query).fetchall()]


def test_ray_engine_stores_what_the_local_engine_stores(
    pg_server_url: str, corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ray_session: None
) -> None:
    local_url, ray_url = create_database(pg_server_url), create_database(pg_server_url)
    local_out = ingest(local_url, tmp_path / "a", corpus, monkeypatch)
    ray_out = ingest(ray_url, tmp_path / "b", corpus, monkeypatch, "--engine", "ray")

    # The same summary: the corrupt file is a failed row, everything else stored.
    for output in (local_out, ray_out):
        assert "ingest summary" in output and "Traceback" not in output
        assert "failed  " in output and "corrupt.pdf" in output
    counts = [next(ln for ln in out.splitlines() if ln.startswith("│")) for out in (local_out, ray_out)]
    assert counts[0].split("│")[1:-2] == counts[1].split("│")[1:-2]  # every column but the time

    documents = rows(local_url, DOCUMENTS)
    kinds = {row[0] for row in documents}
    assert {"10-Q", "8-K", "transcript"} <= kinds and len(documents) >= 5
    assert rows(ray_url, DOCUMENTS) == documents

    local_chunks, ray_chunks = rows(local_url, CHUNKS), rows(ray_url, CHUNKS)
    assert len(local_chunks) > 100
    assert [r[:-1] for r in ray_chunks] == [r[:-1] for r in local_chunks]
    local_vectors = np.array([np.fromstring(r[-1][1:-1], sep=",") for r in local_chunks])
    ray_vectors = np.array([np.fromstring(r[-1][1:-1], sep=",") for r in ray_chunks])
    assert np.abs(local_vectors - ray_vectors).max() <= 1e-6

    facts = rows(local_url, FACTS)
    assert len(facts) > 1000 and any(row[-1] for row in facts)  # reported and derived facts
    assert rows(ray_url, FACTS) == facts

    # Again on Ray: nothing is stored twice, nothing re-embedded.
    again = ingest(ray_url, tmp_path / "b", corpus, monkeypatch, "--engine", "ray")
    assert "new documents by kind" not in again
    assert rows(ray_url, DOCUMENTS) == documents
    assert len(rows(ray_url, CHUNKS)) == len(local_chunks)
