"""The store screened (`finagent screen`, the MCP tool ``screen``, a question about every company):
five companies with different fiscal year ends written as SEC company-facts files and ingested with
`finagent ingest path`, one lacking operating income, one an IFRS filer reporting in euros on 20-Fs.
Each company is ranked in its own latest fiscal year, computed by code, with no model call."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from finagent.agent.context import Context
from finagent.agent.graph import build_graph
from finagent.agent.resources import close_resources, configure_resources
from finagent.db import Database
from finagent.settings import Settings
from tests.fakes import ScriptedModels
from tests.store.company_files import Company, Year, write_companies
from tests.store.test_company_facts import cli  # noqa: F401  (the fixture)

REV, OP = "Revenues", "OperatingIncomeLoss"
COMPANIES = [
    # September year end: 25.0% then 30.0% operating margin; revenue +20%.
    Company(
        1990001,
        "ALFA",
        "Alfa Devices Inc.",
        (
            Year(2023, date(2023, 9, 30), {REV: 1_000_000_000, OP: 250_000_000}),
            Year(2024, date(2024, 9, 30), {REV: 1_200_000_000, OP: 360_000_000}),
        ),
    ),
    # January year end (fiscal 2025 ends January 31, 2025): 12.0%; revenue +5%.
    Company(
        1990002,
        "BRAV",
        "Bravo Stores Corp",
        (
            Year(2024, date(2024, 1, 31), {REV: 4_000_000_000, OP: 400_000_000}),
            Year(2025, date(2025, 1, 31), {REV: 4_200_000_000, OP: 504_000_000}),
        ),
    ),
    # June year end: 40.0%; revenue +14%.
    Company(
        1990003,
        "CHRL",
        "Charlie Software Inc.",
        (
            Year(2023, date(2023, 6, 30), {REV: 500_000_000, OP: 150_000_000}),
            Year(2024, date(2024, 6, 30), {REV: 570_000_000, OP: 228_000_000}),
        ),
    ),
    # December year end, no operating income reported: lacks the operating margin.
    Company(
        1990004,
        "DELT",
        "Delta Holdings Inc.",
        (
            Year(2023, date(2023, 12, 31), {REV: 2_000_000_000}),
            Year(2024, date(2024, 12, 31), {REV: 2_500_000_000}),
        ),
    ),
    # An IFRS filer in euros on 20-Fs: 13.2% in FY2023; revenue +8.9%.
    Company(
        1990005,
        "EURW",
        "Euro Widgets SE",
        (
            Year(
                2022,
                date(2022, 12, 31),
                {"Revenue": 41_600_000_000, "ProfitLossFromOperatingActivities": 5_100_000_000},
            ),
            Year(
                2023,
                date(2023, 12, 31),
                {"Revenue": 45_320_000_000, "ProfitLossFromOperatingActivities": 6_000_000_000},
            ),
        ),
        taxonomy="ifrs-full",
        currency="EUR",
        form="20-F",
    ),
]


@pytest.fixture()
def screened(cli: Any, tmp_path: Path) -> Any:  # noqa: F811
    folder = write_companies(tmp_path / "facts", COMPANIES, ((1318605, "TSLA", "Tesla, Inc."),))
    out = cli("ingest", "path", str(folder))
    assert "annual_report 2" in out and "10-K 8" in out, out
    return cli


def ask(settings: Settings, question: str) -> dict[str, Any]:
    """The graph's final state for ``question``, with a model that fails if it is called at all."""
    models = ScriptedModels(
        {
            role: [RuntimeError("a screen needs no model call")]
            for role in ("generate", "prose", "analyze", "evaluate")
        }
    )
    configure_resources(settings, chat_model_factory=models)
    graph = build_graph()

    async def go() -> dict[str, Any]:
        return dict(
            await graph.ainvoke(
                {"question": question}, context=Context(today="2025-11-01", record_runs=False)
            )
        )

    try:
        return asyncio.run(go())
    finally:
        close_resources()


def table_rows(answer: str) -> list[list[str]]:
    return [
        [c.strip() for c in line.strip("|").split("|")]
        for line in answer.splitlines()
        if line.startswith("| ") and not line.startswith("| Rank")
    ]


def test_which_company_is_every_company_ranked_in_its_own_latest_year(
    screened: Any, settings: Settings, db: Database
) -> None:
    out = ask(
        settings, "Which company in the store had the highest operating margin in its latest fiscal year?"
    )
    answer = out["answer"]
    opening = answer.split("\n\n")[0]
    assert "filings that match best" not in answer
    assert re.fullmatch(
        r"Of the four companies with operating margin for their latest fiscal year, "
        r"Charlie Software \(CHRL\) had the highest operating margin: 40\.0% in FY2024 "
        r"\(the year ended June 30, 2024\) \[\w+\]; then "
        r"Alfa Devices \(ALFA\) 30\.0% in FY2024 \(the year ended September 30, 2024\) \[\w+\], "
        r"Euro Widgets \(EURW\) 13\.2% in FY2023 \(the year ended December 31, 2023\) \[\w+\] and "
        r"Bravo Stores \(BRAV\) 12\.0% in FY2025 \(the year ended January 31, 2025\) \[\w+\]\. "
        r"Not ranked, for lack of the figures: Delta \(DELT\) for FY2024 \(the table says which\)\.",
        opening,
    ), opening
    rows = table_rows(answer)
    assert [r[:4] for r in rows[:4]] == [
        ["1", "Charlie Software (CHRL)", "FY2024 (the year ended June 30, 2024)", "40.0%"],
        ["2", "Alfa Devices (ALFA)", "FY2024 (the year ended September 30, 2024)", "30.0%"],
        ["3", "Euro Widgets (EURW)", "FY2023 (the year ended December 31, 2023)", "13.2%"],
        ["4", "Bravo Stores (BRAV)", "FY2025 (the year ended January 31, 2025)", "12.0%"],
    ]
    assert "EUR 6,000 million" in rows[2][4] and "EUR 45,320 million" in rows[2][4]
    assert rows[4][1] == "Delta (DELT)" and rows[4][3].startswith("not found:")
    assert out["citations"] and out["confidence"] > 0.5


def test_a_threshold_keeps_the_companies_past_it(screened: Any, settings: Settings) -> None:
    out = ask(settings, "Which companies grew revenue more than 10% in their latest fiscal year?")
    opening = out["answer"].split("\n\n")[0]
    assert opening.startswith(
        "Of the five companies with revenue growth for their latest fiscal year, three had revenue growth "
        "above 10.0%: Delta (DELT) 25.0% in FY2024"
    ), opening
    assert "Alfa Devices (ALFA) 20.0% in FY2024" in opening
    assert "Charlie Software (CHRL) 14.0% in FY2024" in opening
    assert "Bravo" not in opening and "Euro Widgets" not in opening  # +5.0% and +8.9%
    rows = {r[1]: r for r in table_rows(out["answer"])}
    assert rows["Bravo Stores (BRAV)"][4] == "no" and rows["Delta (DELT)"][4] == "yes"


def test_a_question_naming_a_company_the_store_lacks_is_no_screen(screened: Any, settings: Settings) -> None:
    out = ask(settings, "Which company had the highest revenue in fiscal 2024, Tesla or its rivals?")
    assert out["answer"].startswith("TSLA (Tesla, Inc.) is not in the store"), out["answer"]


def test_the_cli_and_the_mcp_tool_give_the_same_screen(screened: Any, settings: Settings) -> None:
    text = screened("screen", "--metric", "revenue", "--top", "2", raw=True)
    opening = text.split("\n\n")[0].replace("\n", " ")
    # amounts rank in one currency: the euro filer is set apart, never compared with dollars
    assert opening.startswith(
        "Of the four companies with revenue for their latest fiscal year, Bravo Stores (BRAV) had the "
        "highest revenue: $4,200 million in FY2025 (the year ended January 31, 2025)"
    ), opening
    assert "then Delta (DELT) $2,500 million in FY2024" in opening
    assert (
        "Reported in another currency, so not ranked with the others: Euro Widgets (EURW) EUR 45,320 million"
        in opening
    )
    as_json = json.loads(screened("screen", "--metric", "revenue", "--top", "2", "--json", raw=True))
    assert [r["ticker"] for r in as_json["rows"] if r["kept"]] == ["BRAV", "DELT"]

    from mcp import Client, StdioServerParameters

    from tests.model.test_mcp import server_env

    params = StdioServerParameters(
        command=str(Path(sys.executable).parent / "finagent"),
        args=["mcp"],
        env=server_env(settings.database_url or "", settings.home),
    )

    async def call() -> dict[str, Any]:
        async with Client(params) as client:
            result = await client.call_tool("screen", {"metric": "revenue", "top": 2})
            assert not result.is_error, result.content
            return dict(result.structured_content or {})

    via_mcp = asyncio.run(call())
    assert via_mcp["answer"] == as_json["answer"]
    assert [r["value"] for r in via_mcp["rows"][:2]] == ["4200000000", "2500000000"]


def test_an_ifrs_filer_is_read_in_its_own_currency(screened: Any, settings: Settings) -> None:
    value = ask(settings, "What was Euro Widgets' revenue in fiscal 2023?")["answer"]
    opening = value.split("\n\n")[0]
    assert "EUR 45,320 million" in opening and "FY2023" in opening, opening
    assert "$" not in value
    change = ask(settings, "How did Euro Widgets' revenue change from fiscal 2022 to fiscal 2023?")["answer"]
    first = change.split("\n\n")[0]
    assert "EUR 41,600 million" in first and "EUR 45,320 million" in first, first
    assert "8.9%" in change and "$" not in change
    table = screened("facts", "EURW", "--metric", "revenue", "--periods", "FY2022", "FY2023")
    assert "EUR 41,600M" in table and "EUR 45,320M (+8.9% YoY)" in table and "$" not in table
