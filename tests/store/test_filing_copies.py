"""Whole files only, one document per filing, and `finagent db remove`, as a user meets them: the
ingest summary, `db documents`, search results and the facts the store counts."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from finagent.cli import ingest_cmd
from finagent.cli.main import app
from finagent.db import Database
from finagent.db.catalog import list_documents
from finagent.finance.document_records import Block, ParsedDocument
from finagent.ingest.pipeline import IngestPipeline
from finagent.ingest.xbrl_instance import parse_xbrl_instance
from finagent.retrieval import SearchFilters, hybrid_search
from finagent.settings import Settings, get_settings
from tests.bad_inputs import Case, params
from tests.conftest import MODEL_CACHE, require_shared
from tests.helpers import item, make_doc
from tests.store.test_cli import assert_clean_failure, finagent
from tests.store.test_faults import HashEmbedder as _HashEmbedder

AAPL_10Q = ("filings", "edgar", "AAPL", "10-Q", "aapl-10-q-2025-08-01.html")
INSTANCES = ("edgar-more", "xbrl-instances", "AAPL")


class HashEmbedder(_HashEmbedder):
    """Hash vectors (no model to load), also for a run of facts-only documents (no text)."""

    def encode(self, texts: list[str]) -> np.ndarray:
        return super().encode(texts) if texts else np.zeros((0, 384), dtype=np.float32)


@pytest.fixture()
def cli(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[CliRunner]:
    """The typer app in this process against the test store, embedding with a hash (no model)."""
    monkeypatch.setenv("FINAGENT_DATABASE_URL", settings.database_url or "")
    monkeypatch.setenv("FINAGENT_HOME", str(settings.home))
    monkeypatch.setenv("FINAGENT_CACHE_DIR", str(MODEL_CACHE))
    monkeypatch.setattr(ingest_cmd, "get_embedder", lambda settings=None: HashEmbedder())
    get_settings.cache_clear()
    yield CliRunner()
    get_settings.cache_clear()


def _rows(db: Database, query: str, *params: Any) -> list[tuple[Any, ...]]:
    with db.connection() as conn:
        return [tuple(r) for r in conn.execute(query, params).fetchall()]


def _one(db: Database, query: str, *params: Any) -> Any:
    return _rows(db, query, *params)[0][0]


def _searched_documents(db: Database, query: str, ticker: str) -> set[int]:
    with db.connection() as conn:
        vector = HashEmbedder().encode([query])[0]
        hits = hybrid_search(conn, query, vector, SearchFilters(tickers=[ticker]), k=50)
    return {hit.document_id for hit in hits}


def _ingest(db: Database, settings: Settings, docs: list[ParsedDocument]) -> None:
    report = IngestPipeline(db, HashEmbedder(), settings).run([item(d) for d in docs])  # type: ignore[arg-type]
    assert report.ok, report.failed


def test_cut_copy_refused_and_a_second_copy_is_a_new_version_of_one_document(
    db: Database, cli: CliRunner, tmp_path: Path
) -> None:
    source = require_shared(*AAPL_10Q)
    folder = tmp_path / "filings"
    folder.mkdir()
    data = source.read_bytes()
    (folder / "aapl-10-q.html").write_bytes(data)
    partial = folder / "aapl-10-q-partial.html"
    partial.write_bytes(data[: int(len(data) * 0.4)])
    first = cli.invoke(app, ["ingest", "path", str(folder)])
    assert first.exit_code == 1, first.output
    assert f"failed  {partial.resolve()}: the file is cut short" in first.output, first.output
    assert _one(db, "SELECT count(*) FROM documents") == 1
    (full_id, full_chunks) = _rows(db, "SELECT id, chunk_count FROM documents")[0]
    full_facts = _one(db, "SELECT count(*) FROM facts WHERE NOT derived")

    # The same filing saved again elsewhere (other bytes): a new version, not a second document.
    again = tmp_path / "again"
    again.mkdir()
    (again / "aapl-10-q-copy.html").write_bytes(data.replace(b"</body>", b"<!-- saved again --></body>", 1))
    second = cli.invoke(app, ["ingest", "path", str(again)])
    assert second.exit_code == 0, second.output
    current = _rows(db, "SELECT id, chunk_count FROM documents WHERE status = 'ready'")
    assert len(current) == 1 and current[0][0] != full_id and current[0][1] == full_chunks
    assert _searched_documents(db, "net sales iPhone", "AAPL") == {current[0][0]}
    assert _one(db, "SELECT count(*) FROM facts WHERE NOT derived AND NOT superseded") == full_facts
    listing = cli.invoke(app, ["db", "documents", "--ticker", "aapl", "--json"])
    assert listing.exit_code == 0, listing.output
    [listed] = json.loads(listing.output)
    assert (listed["id"], listed["chunks"], listed["facts"]) == (current[0][0], full_chunks, full_facts)
    assert listed["source_uri"].endswith("aapl-10-q-copy.html") and listed["period"] == "Q3 FY2025"
    # Both copies ingested again: nothing changes (the earlier copy stays an earlier copy).
    rerun = cli.invoke(app, ["ingest", "path", str(folder / "aapl-10-q.html"), str(again)])
    assert rerun.exit_code == 0, rerun.output
    assert _rows(db, "SELECT id FROM documents WHERE status = 'ready'") == [(current[0][0],)]
    assert _one(db, "SELECT count(*) FROM documents") == 2

    # Removing it removes the earlier copy too: nothing of it is searched or counted.
    removed = cli.invoke(app, ["db", "remove", str(current[0][0])])
    assert removed.exit_code == 0, removed.output
    assert removed.output.strip() == (
        f"removed 1 document with 1 earlier copy ({2 * full_chunks:,} chunks, {2 * full_facts:,} facts)"
    )
    assert _searched_documents(db, "net sales iPhone", "AAPL") == set()
    assert _rows(db, "SELECT count(*) FROM documents UNION ALL SELECT count(*) FROM facts") == [(0,), (0,)]


def test_copies_of_one_filing_in_two_formats_complement_each_other(db: Database, settings: Settings) -> None:
    """A text-only copy (a PDF) and a facts-only copy (an XBRL instance) of Apple's FY2023 10-K: one
    current document; the text stays searchable, the facts come from the instance; a newer text copy
    then replaces the text only, and no fact is ever counted twice."""
    instance = parse_xbrl_instance(require_shared(*INSTANCES, "aapl-20230930_htm.xml"))
    assert instance.period_end == date(2023, 9, 30) and instance.facts
    statement = [Block("Total net sales | 383,285 | 394,328 | 365,817", is_table=True)]
    pdf = make_doc(
        "AAPL", "10-K", 2023, None, statement, source_uri="aapl-2023-10k.pdf", period_end=date(2023, 9, 30)
    )
    _ingest(db, settings, [pdf])
    _ingest(db, settings, [instance])
    ready = _rows(db, "SELECT id, source_uri FROM documents WHERE status = 'ready'")
    assert [r[1] for r in ready] == [instance.source_uri]
    pdf_id = _one(db, "SELECT id FROM documents WHERE source_uri = 'aapl-2023-10k.pdf'")
    assert _searched_documents(db, "total net sales", "AAPL") == {pdf_id}
    reported = _one(db, "SELECT count(*) FROM facts WHERE NOT derived AND NOT superseded")
    assert reported == len(instance.facts)
    linked = _one(
        db, "SELECT count(*) FROM facts f JOIN chunks c ON c.id = f.chunk_id WHERE NOT f.superseded"
    )
    assert linked > 0  # the instance's facts are cited to the text copy of the same report
    with db.connection() as conn:
        [listed] = list_documents(conn, "AAPL")
    assert (listed.id, listed.chunks, listed.facts, listed.text_from) == (ready[0][0], 1, reported, [pdf_id])

    reprint = [Block("Total net sales | 383,285 | 394,328 (reprinted)", is_table=True)]
    newer = make_doc(
        "AAPL",
        "10-K",
        2023,
        None,
        reprint,
        source_uri="aapl-2023-10k-reprint.pdf",
        period_end=date(2023, 9, 30),
    )
    _ingest(db, settings, [newer])
    newer_id = _one(db, "SELECT id FROM documents WHERE status = 'ready'")
    assert _one(db, "SELECT source_uri FROM documents WHERE id = %s", newer_id) == "aapl-2023-10k-reprint.pdf"
    assert _searched_documents(db, "total net sales", "AAPL") == {newer_id}
    assert _one(db, "SELECT count(*) FROM facts WHERE NOT derived AND NOT superseded") == reported


def test_different_filings_and_non_filings_stay_apart(db: Database, settings: Settings) -> None:
    day = date(2024, 8, 1)

    def doc(kind: str, when: date, text: str, **metadata: Any) -> ParsedDocument:
        made = make_doc(
            "AAPL", kind, 2024, 3, [Block(text)], source_uri=f"{kind}-{when}-{text}", period_end=when
        )
        return dataclasses.replace(made, metadata=metadata)

    docs = [
        doc("10-Q", date(2024, 6, 29), "quarterly report"),
        doc("8-K", date(2024, 6, 29), "current report same period"),  # not the 10-Q
        doc("8-K", day, "results of operations", accession="0000320193-24-000080"),
        doc("8-K", day, "director departure", accession="0000320193-24-000081"),  # same day, other filing
        doc("8-K", date(2024, 8, 2), "another day"),
        doc("news", day, "Apple beats estimates"),
        doc("news", day, "Apple stock rises"),
        doc("transcript", day, "Q3 2024 earnings call"),
        doc("transcript", day, "Q3 2024 earnings call, second source"),
    ]
    _ingest(db, settings, docs)
    assert _one(db, "SELECT count(*) FROM documents WHERE status = 'ready'") == len(docs)


def test_remove_a_company_and_a_document_leaves_the_store_consistent(
    db: Database, settings: Settings, cli: CliRunner
) -> None:
    """Apple's FY2023 10-K and Q3 10-Q instances derive a Q4; removing the 10-Q removes the facts
    derived from it; removing MSFT by ticker leaves Apple whole."""
    annual = parse_xbrl_instance(require_shared(*INSTANCES, "aapl-20230930_htm.xml"))
    quarter = parse_xbrl_instance(require_shared(*INSTANCES, "aapl-20230701_htm.xml"))
    revenue = [Block("Revenue was 211,915 million.")]
    msft = make_doc("MSFT", "10-K", 2023, None, revenue, period_end=date(2023, 6, 30))
    _ingest(db, settings, [annual, quarter, msft])
    assert _one(db, "SELECT count(*) FROM facts WHERE derived AND NOT superseded") > 0
    quarter_id = _one(db, "SELECT id FROM documents WHERE source_uri = %s", quarter.source_uri)

    by_path = cli.invoke(app, ["db", "remove", quarter.source_uri])
    assert by_path.exit_code == 0, by_path.output
    assert by_path.output.startswith(f"removed 1 document (0 chunks, {len(quarter.facts):,} facts, ")
    assert _one(db, "SELECT count(*) FROM facts WHERE document_id = %s", quarter_id) == 0
    dangling = """SELECT count(*) FROM facts f, unnest(f.inputs) AS input
                  WHERE f.derived AND NOT EXISTS (SELECT 1 FROM facts i WHERE i.id = input)"""
    assert _one(db, dangling) == 0

    by_ticker = cli.invoke(app, ["db", "remove", "--ticker", "msft"])
    assert by_ticker.exit_code == 0, by_ticker.output
    assert by_ticker.output.startswith("removed 1 document (1 chunks"), by_ticker.output
    assert _searched_documents(db, "revenue", "MSFT") == set()
    assert _rows(db, "SELECT ticker, count(*) FROM documents GROUP BY ticker") == [("AAPL", 1)]
    status = cli.invoke(app, ["db", "status"])
    assert status.exit_code == 0 and "MSFT" not in status.output and "AAPL" in status.output


@pytest.mark.parametrize("case", params("test_remove_of_nothing_is_a_one_line_error"))
def test_remove_of_nothing_is_a_one_line_error(
    case: Case, db: Database, settings: Settings, tmp_path: Path
) -> None:
    """Unknown id, path or ticker, or nothing named: one line, exit code 2, nothing removed."""
    _ingest(db, settings, [make_doc("MSFT", "10-K", 2023, None, [Block("Revenue.")])])
    result = finagent(case.value, db.url, tmp_path)
    assert_clean_failure(result, case.expect)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert _one(db, "SELECT count(*) FROM documents") == 1
