"""Exact, period-true figures from real filings (../shared): XBRL facts through `finagent facts`, derived
quarters, instance documents cited to a text copy, and statement tables read by period where a filing
has no XBRL."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.conftest import create_database, require_shared
from tests.helpers import link_filings_slice
from tests.store.test_cli import assert_clean_failure, finagent

pytestmark = [pytest.mark.shared, pytest.mark.slow]

EDGAR = [
    "filings/edgar/AMZN/10-K/amzn-10-k-2025-02-07.html",
    "filings/edgar/GOOGL/10-K/googl-10-k-2025-02-05.html",
    "filings/edgar/META/10-K/meta-10-k-2025-01-30.html",
    "filings/edgar/AAPL/10-K/aapl-10-k-2024-11-01.html",
    "edgar-more/AAPL/10-Q/aapl-10-q-period-2024-06-29.html",
    "edgar-more/xbrl-instances/AAPL/aapl-20230930_htm.xml",
    "edgar-more/xbrl-instances/AAPL/aapl-20230930_lab.xml",
]


@pytest.fixture(scope="module")
def store(pg_server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """AMZN, GOOGL, META and Apple filings (iXBRL, an instance document, Apple's FY2023 10-K as PDF)
    and Amazon's Q3 2023 10-Q as PDF: one store for the module."""
    folder = tmp_path_factory.mktemp("filings")
    for relative in EDGAR:
        source = require_shared(*relative.split("/"))
        target = folder / relative.replace("/", "__")
        os.symlink(source, target)
    pdfs = link_filings_slice(
        require_shared("filings", "pdf", "sec10q"), tmp_path_factory.mktemp("sec10q"), ["2023 Q3 AMZN.pdf"]
    )
    apple_pdf = folder / "aapl"
    apple_pdf.mkdir()
    os.symlink(require_shared("filings", "pdf", "aapl", "AAPL_2023_10K.pdf"), apple_pdf / "AAPL_2023_10K.pdf")
    url = create_database(pg_server_url)
    home = tmp_path_factory.mktemp("home")
    result = finagent(["ingest", "path", str(folder), str(pdfs)], url, home, timeout=1200)
    assert result.returncode == 0, result.stdout + result.stderr
    yield url, home
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(pdfs, ignore_errors=True)


def facts(store: tuple[str, Path], *args: str) -> dict[str, Any]:
    result = finagent(["facts", *args, "--json"], *store)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


def value(data: dict[str, Any], ticker: str, period: str, metric: str | None = None) -> str | None:
    rows = [r for r in data["rows"] if r["ticker"] == ticker and r["period"] == period]
    rows = [r for r in rows if metric is None or r["metric"] == metric]
    assert len(rows) == 1, rows
    return rows[0]["value"]


def test_amazon_net_sales_by_year_not_by_column_position(store: tuple[str, Path]) -> None:
    data = facts(store, "AMZN", "--metric", "revenue", "--periods", "FY2022", "FY2023", "FY2024")
    assert value(data, "AMZN", "FY2024") == "637959000000"
    assert value(data, "AMZN", "FY2022") == "513983000000"
    fy2024 = next(r for r in data["rows"] if r["period"] == "FY2024")
    assert (
        fy2024["source"] == "xbrl"
        and fy2024["chunk_id"]
        and fy2024["yoy_pct"] == pytest.approx(10.99, abs=0.01)
    )


def test_three_company_net_income_table(store: tuple[str, Path]) -> None:
    data = facts(
        store, "AMZN", "GOOGL", "META", "--metric", "net_income", "--periods", "FY2022", "FY2023", "FY2024"
    )
    expected = {
        ("AMZN", "FY2022"): "-2722000000",
        ("AMZN", "FY2024"): "59248000000",
        ("GOOGL", "FY2024"): "100118000000",
        ("META", "FY2024"): "62360000000",
        ("META", "FY2022"): "23200000000",
    }
    for (ticker, period), expect in expected.items():
        assert value(data, ticker, period) == expect
    printed = finagent(
        ["facts", "AMZN", "GOOGL", "META", "-m", "net income", "-p", "FY2022", "FY2023", "FY2024"], *store
    )
    assert (
        printed.returncode == 0
        and "$100,118M" in printed.stdout
        and "$-2,722M" in printed.stdout.replace("-$", "$-")
    )
    as_csv = finagent(["facts", "META", "-m", "net_income", "-p", "FY2024", "--csv"], *store)
    row = next(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert row["value"] == "62360000000" and row["period"] == "FY2024"


def test_apple_q4_is_derived_and_q4_eps_is_not_derivable(store: tuple[str, Path], tmp_path: Path) -> None:
    data = facts(store, "AAPL", "--metric", "revenue", "--metric", "eps_diluted", "--periods", "Q4 FY2024")
    q4 = next(r for r in data["rows"] if r["metric"] == "revenue")
    assert q4["value"] == "94930000000" and q4["source"] == "derived" and q4["derivation"] == "fy_minus_9m"
    eps = next(r for r in data["rows"] if r["metric"] == "eps_diluted")
    assert eps["value"] is None and "not derivable" in eps["note"] and "per-share" in eps["note"]
    chart = tmp_path / "revenue.png"
    plotted = finagent(
        ["facts", "AAPL", "-m", "revenue", "-p", "last 4 quarters", "--plot", str(chart)], *store
    )
    assert plotted.returncode == 0, plotted.stderr
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_instance_document_is_cited_to_the_pdf_of_the_same_report(store: tuple[str, Path]) -> None:
    data = facts(store, "AAPL", "--metric", "revenue", "--periods", "FY2023")
    assert value(data, "AAPL", "FY2023") == "383285000000"
    url, _ = store
    with psycopg.connect(url) as conn:
        # the instance's FY2023 fact points at a chunk of the FY2023 10-K PDF printing 383,285
        row = conn.execute(
            "SELECT c.text, d.source_uri FROM facts f JOIN chunks c ON c.id = f.chunk_id "
            "JOIN documents d ON d.id = c.document_id JOIN documents i ON i.id = f.document_id "
            "WHERE i.source_uri LIKE '%%aapl-20230930_htm.xml' AND f.value = 383285000000 "
            "AND f.dims_key = '' AND f.duration = 'year' LIMIT 1"
        ).fetchone()
        assert row is not None and "383,285" in row[0] and row[1].endswith("AAPL_2023_10K.pdf")


def test_bad_facts_input_is_a_clear_message(store: tuple[str, Path]) -> None:
    assert_clean_failure(finagent(["facts", "TSLA", "-m", "revenue"], *store), "not in the store")
    assert_clean_failure(finagent(["facts", "AAPL", "-m", "vibes"], *store), "unknown metric 'vibes'")
    assert_clean_failure(
        finagent(["facts", "AAPL", "-m", "revenue", "-p", "someday"], *store),
        "cannot read the period 'someday'",
    )
    assert_clean_failure(
        finagent(["facts", "AAPL", "-m", "revenue", "--plot", "/nonexistent/x.png"], *store), "does not exist"
    )


def test_coverage_shows_facts_per_period(store: tuple[str, Path]) -> None:
    result = finagent(["coverage", "AMZN", "--json"], *store)
    assert result.returncode == 0, result.stderr
    held = {f["period"]: f for f in json.loads(result.stdout)["facts"]}
    assert held["FY2024"]["reported"] > 50 and held["FY2022"]["reported"] > 10


def test_a_quarter_without_xbrl_is_read_from_its_10q_table_by_period(
    store: tuple[str, Path], tmp_path: Path
) -> None:
    """Amazon's Q3 2023 10-Q is a PDF (no XBRL): its statement lists 2022 before 2023; the figure is the
    column of the quarter asked, and the same quarter a year earlier comes from the other column."""
    import asyncio

    from finagent.agent.context import Context
    from finagent.agent.graph import build_graph
    from finagent.agent.resources import close_resources, configure_resources
    from tests.conftest import make_settings
    from tests.fakes import ScriptedModels

    url, _ = store
    models = ScriptedModels(
        {
            "generate": ["Amazon's revenue for the quarter ended September 30, 2023 was $143,083 million."],
            "analyze": [{}],
            "evaluate": [{}],
            "extract": [{"facts": []}],
        }
    )
    configure_resources(make_settings(url, tmp_path), chat_model_factory=models)
    try:
        question = "What was Amazon's revenue for the quarter ended September 30, 2023, year over year?"
        out = asyncio.run(build_graph().ainvoke({"question": question}, context=Context(record_runs=False)))
    finally:
        close_resources()
    table = next(b for b in out["answer"].split("\n\n") if b.startswith("| Company |"))
    assert "Q3 FY2023" in table and "$143,083 million" in table and "from the statement table" in table
    assert "127,101" not in table.split("vs")[0]  # the 2022 column is the comparative, not the figure
    assert "+12.6% vs Q3 FY2022" in table
    assert out["validation"]["status"] == "verified", out["validation"]


def test_the_mcp_tool_returns_the_same_table_as_the_cli(store: tuple[str, Path]) -> None:
    """`get_financial_facts` through the MCP SDK's client (stdio) gives the rows `finagent facts` gives."""
    import asyncio
    import sys

    from mcp import Client, StdioServerParameters

    from tests.model.test_mcp import server_env

    url, home = store
    arguments = {
        "tickers": ["AMZN", "GOOGL", "META"],
        "metrics": ["net_income"],
        "periods": ["FY2022", "FY2023", "FY2024"],
    }
    cli = facts(
        store, "AMZN", "GOOGL", "META", "--metric", "net_income", "--periods", "FY2022", "FY2023", "FY2024"
    )
    params = StdioServerParameters(
        command=str(Path(sys.executable).parent / "finagent"), args=["mcp"], env=server_env(url, home)
    )

    async def call() -> dict[str, Any]:
        async with Client(params) as client:
            result = await client.call_tool("get_financial_facts", arguments)
            assert not result.is_error, result.content
            return dict(result.structured_content or {})

    def pick(rows: list[dict[str, Any]]) -> dict[tuple[str, str], tuple[str | None, int | None]]:
        return {(r["ticker"], r["period"]): (r["value"], r["chunk_id"]) for r in rows}

    via_mcp = asyncio.run(call())
    assert pick(via_mcp["rows"]) == pick(cli["rows"])
    assert pick(via_mcp["rows"])[("GOOGL", "FY2024")][0] == "100118000000"
