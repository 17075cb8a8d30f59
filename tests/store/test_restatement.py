"""A figure two filings report differently (a later 10-Q recasting the prior-year quarter): the answer
gives the original value and filing, the later one and the difference; and `ask`, `finagent facts`,
the MCP tool `get_financial_facts` and `finagent.facts()` choose the same value for it."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from finagent.agent.context import Context
from finagent.agent.graph import build_graph
from finagent.agent.resources import close_resources, configure_resources
from finagent.db import open_database
from finagent.embeddings import get_embedder
from finagent.finance.document_records import Block, ParsedDocument
from finagent.finance.fact_records import Fact, FiscalCalendar
from finagent.ingest.pipeline import IngestPipeline
from tests.conftest import create_database, make_settings
from tests.fakes import ScriptedModels
from tests.helpers import item
from tests.store.test_cli import finagent

NET_INCOME = "us-gaap:NetIncomeLoss"
APPLE = FiscalCalendar(9)
QUESTION = (
    "Did Apple restate its net income for the quarter ended July 1, 2023? "
    "Give the originally reported figure and the later one."
)


def ten_q(
    end: date, start: date, prior: tuple[date, date], values: tuple[str, str], sha: str
) -> ParsedDocument:
    """A 10-Q whose statement of operations prints the quarter and the same quarter a year earlier."""
    table = Block(
        "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (In millions)\n"
        f"Three Months Ended | {end:%B %-d, %Y} | {prior[1]:%B %-d, %Y}\n"
        f"Net income | {int(values[0]):,} | {int(values[1]):,}",
        section="part1_item_1",
        is_table=True,
    )
    facts = [
        Fact(
            NET_INCOME,
            Decimal(values[0]) * 10**6,
            "USD",
            -6,
            start,
            end,
            display=f"{int(values[0]):,}",
            block_index=0,
        ),
        Fact(
            NET_INCOME,
            Decimal(values[1]) * 10**6,
            "USD",
            -6,
            *prior,
            display=f"{int(values[1]):,}",
            block_index=0,
        ),
    ]
    return ParsedDocument(
        kind="10-Q",
        title="Apple Inc. 10-Q",
        source_uri=f"test://aapl-10q-{end.isoformat()}",
        content_sha256=sha,
        blocks=[table],
        ticker="AAPL",
        company_name="Apple Inc.",
        fiscal_year=APPLE.period_of(end)[0],
        fiscal_quarter=3,
        period_end=end,
        fiscal_year_end_month=9,
        metadata={"form": "10-Q", "fiscal_year_offset": 0},
        facts=[f.in_calendar(APPLE) for f in facts],
    )


ORIGINAL = ten_q(
    date(2023, 7, 1), date(2023, 4, 2), (date(2022, 3, 27), date(2022, 6, 25)), ("19881", "19442"), "q3-2023"
)
RECAST = ten_q(
    date(2024, 6, 29), date(2024, 3, 31), (date(2023, 4, 2), date(2023, 7, 1)), ("21448", "19910"), "q3-2024"
)


@pytest.fixture(scope="module")
def store(pg_server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    url = create_database(pg_server_url)
    home = tmp_path_factory.mktemp("home")
    settings = make_settings(url, home)
    db = open_database(settings)
    try:
        IngestPipeline(db, get_embedder(settings), settings).run([item(ORIGINAL), item(RECAST)])
    finally:
        db.close()
    yield url, home
    close_resources()


def graph_answer(store: tuple[str, Path], question: str) -> dict[str, Any]:
    roles = ("analyze", "generate", "prose", "evaluate", "extract")
    models = ScriptedModels({role: [RuntimeError("no model call for computed figures")] for role in roles})
    configure_resources(make_settings(*store), chat_model_factory=models)
    try:
        context = Context(today="2025-01-15", record_runs=False)
        out = asyncio.run(build_graph().ainvoke({"question": question}, context=context))
    finally:
        close_resources()
    assert not any(m.calls for m in models.models.values())
    return out


def test_a_restatement_is_answered_with_both_filings_and_the_difference(store: tuple[str, Path]) -> None:
    out = graph_answer(store, QUESTION)
    first = out["answer"].split("\n\n")[0]
    assert first.startswith(
        "Yes: Apple's net income for Q3 FY2023 was first reported as $19,881 million in its 10-Q for the "
        "period ended July 1, 2023 [10Q"
    ), out["answer"]
    assert "later as $19,910 million in its 10-Q for the period ended June 29, 2024 [10Q" in first
    assert first.endswith("a difference of $29 million.")
    assert out["validation"]["status"] == "verified", out["validation"]


def table_value(answer: str, period: str) -> str:
    row = next(line for line in answer.splitlines() if line.startswith("| Apple (AAPL) |") and period in line)
    return row.split(" | ")[2].split(" [")[0]


def test_ask_facts_mcp_and_the_python_api_choose_the_same_value(store: tuple[str, Path]) -> None:
    from mcp import Client, StdioServerParameters

    import finagent
    from tests.model.test_mcp import server_env

    url, home = store
    asked = graph_answer(store, "What was Apple's net income for the quarter ended July 1, 2023?")
    shown = table_value(asked["answer"], "Q3 FY2023")
    cli = finagent_json(store, ["facts", "AAPL", "--metric", "net_income", "--periods", "Q3 FY2023"])

    async def via_mcp() -> dict[str, Any]:
        params = StdioServerParameters(
            command=str(Path(sys.executable).parent / "finagent"), args=["mcp"], env=server_env(url, home)
        )
        arguments = {"tickers": ["AAPL"], "metrics": ["net_income"], "periods": ["Q3 FY2023"]}
        async with Client(params) as client:
            result = await client.call_tool("get_financial_facts", arguments)
            assert not result.is_error, result.content
            return dict(result.structured_content or {})

    mcp = asyncio.run(via_mcp())
    configure_resources(make_settings(url, home))
    try:
        python = finagent.facts("AAPL", "net_income", "Q3 FY2023")
    finally:
        close_resources()
    values = {
        "cli": cli["rows"][0]["value"],
        "mcp": mcp["rows"][0]["value"],
        "python": str(python.rows[0].value),
    }
    assert set(values.values()) == {"19910000000"}, values  # the later filing's value, everywhere
    assert shown == "$19,910 million"
    assert cli["rows"][0]["restated"][0]["original"] == "19881000000"


def finagent_json(store: tuple[str, Path], args: list[str]) -> dict[str, Any]:
    result = finagent([*args, "--json"], *store)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)
