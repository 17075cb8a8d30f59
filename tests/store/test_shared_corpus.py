"""End to end on real ../shared filings through the CLI: ingest, fiscal periods, status, search."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import psycopg
import pytest

from tests.conftest import create_database, require_shared
from tests.store.test_cli import finagent

pytestmark = pytest.mark.shared

SEC10Q = ("2022 Q3 AAPL.pdf", "2023 Q3 AAPL.pdf", "2022 Q3 MSFT.pdf", "2023 Q1 NVDA.pdf", "2023 Q1 INTC.pdf")


@pytest.fixture(scope="module")
def corpus(pg_server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A database holding Apple's iXBRL 10-Q and a few 10-Q PDFs, ingested with the CLI."""
    edgar = require_shared("filings", "edgar", "AAPL", "10-Q")
    pdfs = [require_shared("filings", "pdf", "sec10q", name) for name in SEC10Q]
    url = create_database(pg_server_url)
    home = tmp_path_factory.mktemp("home")
    # Relative paths, as a user types them (../shared/...): stored sources must still be absolute.
    paths = [os.path.relpath(p) for p in (edgar, *pdfs)]
    result = finagent(["ingest", "path", *paths], url, home, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    yield url, home


def _periods(url: str) -> dict[tuple[str, date], tuple[int, int | None]]:
    with psycopg.connect(url) as conn:
        query = "SELECT ticker, period_end, fiscal_year, fiscal_quarter FROM documents"
        rows = conn.execute(query).fetchall()
    return {(r[0], r[1]): (r[2], r[3]) for r in rows}


def test_fiscal_periods_follow_each_company_calendar(corpus: tuple[str, Path]) -> None:
    periods = _periods(corpus[0])
    assert periods[("AAPL", date(2023, 7, 1))] == (2023, 3)
    assert periods[("AAPL", date(2022, 6, 25))] == (2022, 3)
    assert periods[("AAPL", date(2025, 6, 28))] == (2025, 3)
    assert periods[("MSFT", date(2022, 9, 30))] == (2023, 1)
    assert periods[("NVDA", date(2023, 4, 30))] == (2024, 1)
    assert periods[("INTC", date(2023, 4, 1))] == (2023, 1)


def test_reingest_is_a_no_op(corpus: tuple[str, Path]) -> None:
    url, home = corpus
    with psycopg.connect(url) as conn:
        before = conn.execute("SELECT count(*), sum(chunk_count) FROM documents").fetchone()
    pdf = require_shared("filings", "pdf", "sec10q", SEC10Q[0])
    result = finagent(["ingest", "path", str(pdf)], url, home)
    assert result.returncode == 0 and "unchanged" in result.stdout
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*), sum(chunk_count) FROM documents").fetchone() == before


def test_db_status_lists_periods(corpus: tuple[str, Path]) -> None:
    url, home = corpus
    result = finagent(["db", "status"], url, home)
    assert result.returncode == 0, result.stderr
    for expected in ("Q3 FY2023", "Q1 FY2023", "Q1 FY2024", "Q3 FY2025"):
        assert expected in result.stdout


def test_total_net_sales_finds_the_income_statement_first(corpus: tuple[str, Path]) -> None:
    url, home = corpus
    args = ["search", "total net sales", "--ticker", "AAPL", "--kind", "10-Q", "--json"]
    result = finagent(args, url, home)
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout)
    top = hits[0]
    assert top["is_table"] and top["ticker"] == "AAPL" and top["kind"] == "10-Q"
    text = top["text"].lower()
    assert "total net sales" in text and "cost of sales" in text and "gross margin" in text, top["text"]
    assert top["citation"].startswith("AAPL 10-Q Q")


def test_search_by_company_name_and_period(corpus: tuple[str, Path]) -> None:
    url, home = corpus
    args = ["search", "revenue", "--ticker", "Microsoft Corp", "--year", "2023", "--quarter", "1", "--json"]
    result = finagent(args, url, home)
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout)
    assert hits and all(h["ticker"] == "MSFT" and h["fiscal_quarter"] == 1 for h in hits)
    assert all(h["page"] is not None for h in hits)  # PDF chunks keep their page


def test_sources_are_absolute_paths(corpus: tuple[str, Path]) -> None:
    with psycopg.connect(corpus[0]) as conn:
        uris = [r[0] for r in conn.execute("SELECT source_uri FROM documents")]
    assert uris and all(Path(uri).is_absolute() and Path(uri).exists() for uri in uris)
