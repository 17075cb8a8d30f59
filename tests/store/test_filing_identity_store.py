"""Plain-HTML 8-Ks as a user ingests them (`finagent ingest path`, `finagent db status`) and asks about
them ("its 8-K of December 2, 2024"): stored as AAPL 8-K 2024-12-02, updated in place by new options,
found by their day."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from finagent.agent.resources import close_resources
from finagent.cli.main import app
from finagent.db import Database
from finagent.db.companies import ListedCompany, load_listed_companies
from finagent.embeddings import get_embedder
from finagent.ingest.discover import discover
from finagent.ingest.pipeline import IngestPipeline
from finagent.settings import Settings, get_settings
from tests.conftest import MODEL_CACHE
from tests.helpers import full_submission, plain_8k, write_edgar_8k
from tests.store.test_graph import GOOD, run, script


@pytest.fixture()
def cli(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """`finagent ...` run in this process against the test store; returns the output text."""
    monkeypatch.setenv("FINAGENT_DATABASE_URL", settings.database_url or "")
    monkeypatch.setenv("FINAGENT_HOME", str(settings.home))
    monkeypatch.setenv("FINAGENT_CACHE_DIR", str(MODEL_CACHE))
    monkeypatch.setenv("COLUMNS", "200")
    get_settings.cache_clear()
    runner = CliRunner()

    def invoke(*args: str) -> str:
        result = runner.invoke(app, list(args))
        assert result.exit_code == 0, result.output
        return re.sub(r"\s+", " ", result.output)

    yield invoke
    close_resources()
    get_settings.cache_clear()


def _row(status: str, *cells: str) -> bool:
    """Whether `finagent db status` shows a row with these cells in order."""
    return re.search(r"│\s*" + r"\s*│\s*".join(re.escape(c) for c in cells) + r"\s*│", status) is not None


def test_plain_html_8ks_are_stored_with_company_form_and_date(tmp_path: Path, cli: Any) -> None:
    write_edgar_8k(tmp_path)
    loose = tmp_path / "loose"
    loose.mkdir()
    (loose / "aapl-8k-results.htm").write_text(
        plain_8k(day="August 1, 2024", item="Item 2.02 Results of Operations and Financial Condition."),
        encoding="utf-8",
    )
    out = cli("ingest", "path", str(tmp_path / "sec-edgar-filings"), str(loose))
    assert "new documents by kind: 8-K 2" in out
    status = cli("db", "status")
    assert _row(status, "AAPL", "8-K", "Q1 FY2025", "2024-12-02", "1")  # the event's fiscal quarter
    assert _row(status, "AAPL", "8-K", "Q4 FY2024", "2024-08-01", "1")
    assert "—" not in status.split("total")[0].split("chunks")[-1]  # no document without company or date


def test_ingesting_again_with_options_updates_the_stored_metadata(
    tmp_path: Path, cli: Any, db: Database
) -> None:
    path = tmp_path / "widgets-8k.htm"
    path.write_text(plain_8k(company="Orchard Widgets Inc.", symbol=None, day=None), encoding="utf-8")
    cli("ingest", "path", str(path))
    assert _row(cli("db", "status"), "—", "8-K", "undated", "—", "1")

    out = cli("ingest", "path", str(path), "--ticker", "OWI", "--period-end", "2024-11-05")
    assert "metadata updated: 1" in out
    assert "ticker — → OWI" in out and "period_end — → 2024-11-05" in out
    assert re.search(r"│ 0 │ 0 │ 0 │ 0 │ 0 │ 0 │ 0 │", out)  # nothing new, nothing "unchanged"
    assert _row(cli("db", "status"), "OWI", "8-K", "undated", "2024-11-05", "1")
    with db.connection() as conn:
        chunks = conn.execute("SELECT DISTINCT ticker, kind, period_end::text FROM chunks").fetchall()
        events = conn.execute("SELECT state FROM ingest_events WHERE state = 'updated'").fetchall()
    assert chunks == [("OWI", "8-K", "2024-11-05")]  # the search filters see it too
    assert len(events) == 1

    out = cli("ingest", "path", str(path), "--ticker", "OWI", "--period-end", "2024-11-05")
    assert "metadata updated" not in out
    assert re.search(r"│ 0 │ 0 │ 0 │ 1 │", out)  # unchanged: 1


def test_the_8k_of_a_day_is_that_filing_not_a_fiscal_quarter(db: Database, settings: Settings) -> None:
    root = settings.home.parent / "filings"
    write_edgar_8k(root)
    IngestPipeline(db, get_embedder(settings), settings).run(discover(root).items)
    with db.connection() as conn:
        (document_id,) = conn.execute("SELECT id FROM documents").fetchone() or (None,)
    analysis = {
        "intent": "filing contents",
        "sources": ["10-K", "10-Q"],
        "answer_mode": "standard",
        "keywords": [{"ticker": "AAPL", "phrases": ["announced"]}],
    }
    question = "What did Apple announce in its 8-K of December 2, 2024?"
    state = run(settings, script([GOOD], analyze=[analysis]), question)
    assert [(t["label"], t.get("document_ids")) for t in state["targets"]] == [
        ("8-K dated 2024-12-02", [document_id])
    ]
    assert not any("fiscal quarter" in w for w in state.get("warnings", []))
    assert state["evidence"] and all(e["document_id"] == document_id for e in state["evidence"])
    assert any("Orchard research campus" in e["text"] for e in state["evidence"])

    # Two days off: the nearest stored 8-K, named in a warning.
    question = "Summarise Apple's 8-K dated December 5, 2024"
    state = run(settings, script([GOOD], analyze=[analysis]), question)
    assert [t.get("document_ids") for t in state["targets"]] == [[document_id]]
    assert any("Apple Inc. 8-K 2024-12-02" in w and "2 days away" in w for w in state["warnings"])


def test_a_filing_naming_no_ticker_is_found_in_secs_company_list(
    db: Database, settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "0001234567-24-000001"
    folder.mkdir()
    html = plain_8k(company="Orchard Widgets Inc.", symbol=None, day="November 5, 2024")
    (folder / "full-submission.txt").write_text(
        full_submission(
            html,
            accession="0001234567-24-000001",
            company="ORCHARD WIDGETS INC",
            cik="0001234567",
            period="20241105",
            filed="20241106",
        ),
        encoding="utf-8",
    )
    with db.connection() as conn:
        load_listed_companies(conn, [ListedCompany("OWI", "1234567", "Orchard Widgets, Inc.")])
    IngestPipeline(db, get_embedder(settings), settings).run(discover(folder).items)
    with db.connection() as conn:
        row = conn.execute("SELECT ticker, kind, period_end::text, metadata FROM documents").fetchone()
    assert row is not None and row[:3] == ("OWI", "8-K", "2024-11-05")
    assert row[3]["metadata_sources"]["ticker"] == "sec company list"


def test_ingesting_a_stored_filing_again_gives_its_passages_their_parts(
    tmp_path: Path, cli: Any, db: Database
) -> None:
    """A store ingested before its filings' parts were read (every chunk's part NULL) gets them from
    `finagent ingest` of the same files: each passage its Item, the cover its own, vectors untouched."""
    path = tmp_path / "aapl-8k-results.htm"
    body = "Apple Inc. reported results for its fiscal quarter ended June 29, 2024. " * 30
    path.write_text(plain_8k(item="Item 2.02 Results of Operations and Financial Condition.", body=body))
    cli("ingest", "path", str(path))
    with db.connection() as conn:
        parts = conn.execute("SELECT ordinal, section, section_title FROM chunks ORDER BY ordinal").fetchall()
        vectors = conn.execute("SELECT id, embedding::text FROM chunks ORDER BY id").fetchall()
        conn.execute("UPDATE chunks SET section = NULL, section_title = NULL")  # as an older release left it
    assert {p[1] for p in parts} == {"cover", "item_2_02"}

    out = cli("ingest", "path", str(path))
    assert "metadata updated: 1" in out
    total = len(parts)
    assert f"parts 0 of {total} passages → {total} of {total} passages, {total} changed" in out
    with db.connection() as conn:
        again = conn.execute("SELECT ordinal, section, section_title FROM chunks ORDER BY ordinal").fetchall()
        assert conn.execute("SELECT id, embedding::text FROM chunks ORDER BY id").fetchall() == vectors
        found = conn.execute(
            "SELECT section FROM chunks WHERE section_title IS NOT NULL"
            " AND tsv @@ plainto_tsquery('finagent', 'results operations financial')"
        ).fetchall()
    assert again == parts
    assert found  # the part's title is searchable again
    out = cli("ingest", "path", str(path))  # once more: nothing to change
    assert "metadata updated" not in out
