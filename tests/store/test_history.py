"""Long histories in the real store: `finagent facts` over a period range with several metrics and a
terminal chart, and `ask` on a range, a "since" and an "ever" question (scripted model, which must
never be called): earliest against latest with the calculator's change and CAGR, yes or no decided by
code, and the years with no figure named, never filled in."""

from __future__ import annotations

import asyncio
import json
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
from tests.store.test_cli import assert_clean_failure, finagent

REVENUE = "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
NET_INCOME = "us-gaap:NetIncomeLoss"
APPLE, MICROSOFT = FiscalCalendar(9), FiscalCalendar(6)
# Apple's fiscal years: (start, end, revenue in millions); 10-Ks for FY2016, FY2019 and FY2024 only, each
# with the year before: FY2017 and FY2020-FY2022 are not in the store.
YEARS = {
    2015: (date(2014, 9, 28), date(2015, 9, 26), "233715"),
    2016: (date(2015, 9, 27), date(2016, 9, 24), "215639"),
    2018: (date(2017, 10, 1), date(2018, 9, 29), "265595"),
    2019: (date(2018, 9, 30), date(2019, 9, 28), "260174"),
    2023: (date(2022, 9, 25), date(2023, 9, 30), "383285"),
    2024: (date(2023, 10, 1), date(2024, 9, 28), "391035"),
}


def document(
    ticker: str, kind: str, end: date, facts: list[Fact], *, quarter: int | None = None
) -> ParsedDocument:
    """One filing whose statement table prints every fact it carries."""
    calendar, name, month = (APPLE, "Apple Inc.", 9) if ticker == "AAPL" else (MICROSOFT, "Microsoft", 6)
    rows = " | ".join(f.display or "" for f in facts)
    block = Block(f"STATEMENTS OF OPERATIONS (In millions)\nPeriod | {rows}", section="item_8", is_table=True)
    return ParsedDocument(
        kind=kind,
        title=f"{name} {kind}",
        source_uri=f"test://{ticker}-{kind}-{end}",
        content_sha256=f"{ticker}-{kind}-{end}",
        blocks=[block],
        ticker=ticker,
        company_name=name,
        fiscal_year=calendar.period_of(end)[0],
        fiscal_quarter=quarter,
        period_end=end,
        fiscal_year_end_month=month,
        metadata={"form": kind, "fiscal_year_offset": 0},
        facts=[f.in_calendar(calendar) for f in facts],
    )


def money(concept: str, millions: str, start: date, end: date) -> Fact:
    value = Decimal(millions) * 10**6
    display = f"{Decimal(millions):,}"
    return Fact(concept, value, "USD", -6, start, end, display=display, block_index=0)


def annual(year: int) -> ParsedDocument:
    facts = [money(REVENUE, YEARS[y][2], *YEARS[y][:2]) for y in (year, year - 1)]
    return document("AAPL", "10-K", YEARS[year][1], facts)


def quarter(
    ticker: str, end: date, start: date, q: int, values: list[tuple[date, date, str]]
) -> ParsedDocument:
    facts = [
        money(NET_INCOME, millions, s, e) for s, e, millions in [(start, end, values[0][2]), *values[1:]]
    ]
    return document(ticker, "10-Q", end, facts, quarter=q)


def filings() -> list[ParsedDocument]:
    apple_q3 = quarter(
        "AAPL",
        date(2024, 6, 29),
        date(2024, 3, 31),
        3,
        [(date(2024, 3, 31), date(2024, 6, 29), "21448"), (date(2023, 4, 2), date(2023, 7, 1), "19881")],
    )
    # Microsoft's three quarters of FY2023, the second a loss (synthetic, to have a "yes")
    msft = [
        quarter(
            "MSFT", date(2022, 9, 30), date(2022, 7, 1), 1, [(date(2022, 7, 1), date(2022, 9, 30), "17556")]
        ),
        quarter(
            "MSFT",
            date(2022, 12, 31),
            date(2022, 10, 1),
            2,
            [(date(2022, 10, 1), date(2022, 12, 31), "-1250")],
        ),
        quarter(
            "MSFT", date(2023, 3, 31), date(2023, 1, 1), 3, [(date(2023, 1, 1), date(2023, 3, 31), "18299")]
        ),
    ]
    return [annual(2016), annual(2019), annual(2024), apple_q3, *msft]


@pytest.fixture(scope="module")
def store(pg_server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    url = create_database(pg_server_url)
    home = tmp_path_factory.mktemp("home")
    settings = make_settings(url, home)
    db = open_database(settings)
    try:
        IngestPipeline(db, get_embedder(settings), settings).run([item(d) for d in filings()])
    finally:
        db.close()
    yield url, home
    close_resources()


def ask(store: tuple[str, Path], question: str) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """The answer, and each node's updates; every model role fails: the answer must need none."""
    roles = ("analyze", "generate", "prose", "evaluate", "extract")
    models = ScriptedModels({role: [RuntimeError("no model call for a computed history")] for role in roles})
    configure_resources(make_settings(*store), chat_model_factory=models)
    updates: dict[str, list[dict[str, Any]]] = {}

    async def go() -> dict[str, Any]:
        final: dict[str, Any] = {}
        context = Context(today="2025-11-01", record_runs=False)
        async for mode, chunk in build_graph().astream(
            {"question": question}, context=context, stream_mode=["updates", "values"]
        ):
            if mode == "updates":
                for node, update in chunk.items():
                    updates.setdefault(node, []).append(update or {})
            else:
                final = chunk
        return final

    try:
        out = asyncio.run(go())
    finally:
        close_resources()
    assert not out.get("llm_calls"), out.get("llm_calls")
    return out, updates


def opening(answer: str) -> str:
    return answer.split("\n\n")[0]


def test_facts_range_with_several_metrics_and_a_terminal_chart(store: tuple[str, Path]) -> None:
    result = finagent(
        ["facts", "AAPL", "--metric", "revenue", "net_income", "--periods", "FY2015..FY2024", "--json"],
        *store,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    rows = json.loads(result.stdout)["rows"]
    revenue = {r["period"]: r["value"] for r in rows if r["metric"] == "revenue"}
    assert list(revenue) == [f"FY{y}" for y in range(2015, 2025)]
    assert revenue["FY2015"] == "233715000000" and revenue["FY2024"] == "391035000000"
    assert [p for p, v in revenue.items() if v is None] == ["FY2017", "FY2020", "FY2021", "FY2022"]
    assert {r["metric"] for r in rows} == {"revenue", "net_income"}
    # the terminal chart: a bar per period held, the gaps said as gaps
    chart = finagent(["facts", "AAPL", "-m", "revenue", "-p", "FY2015..", "--plot"], *store)
    assert chart.returncode == 0, chart.stdout + chart.stderr
    lines = [line for line in chart.stdout.splitlines() if line.startswith("FY20")]
    assert lines[0].startswith("FY2015") and "█" in lines[0] and "$233,715M" in lines[0]
    assert "no reported figure in the store" in next(line for line in lines if line.startswith("FY2017"))
    assert "$391,035M" in lines[-1] and "████████████████████████████████████████" in lines[-1]
    # quarters by range; a bad range is one clear line
    quarters = finagent(["facts", "AAPL", "-m", "net_income", "-p", "Q3 FY2023..Q3 FY2024", "--json"], *store)
    periods = [r["period"] for r in json.loads(quarters.stdout)["rows"]]
    assert periods == ["Q3 FY2023", "Q4 FY2023", "Q1 FY2024", "Q2 FY2024", "Q3 FY2024"]
    assert_clean_failure(
        finagent(["facts", "AAPL", "-m", "revenue", "-p", "FY2024..FY2015"], *store), "runs backwards"
    )


def test_a_range_gives_earliest_against_latest_with_cagr_and_names_the_gaps(store: tuple[str, Path]) -> None:
    out, updates = ask(store, "Apple's revenue from fiscal 2015 to 2024")
    first = opening(out["answer"])
    assert "Apple's revenue went from $233,715 million in FY2015" in first
    assert "to $391,035 million in FY2024" in first
    assert ": up 67.3%, a compound annual growth rate of 5.9%." in first
    assert "The highest was" not in first  # the latest is the highest
    assert first.endswith("No revenue figure for FY2017, FY2020 to FY2022 in the store.")
    assert "| Apple (AAPL) | FY2021 | — (no reported figure in the store) |" in out["answer"]
    assert out["validation"]["status"] == "verified", out["validation"]
    # one facts lookup for the ten years, and only the newest year's text searched
    assert len(updates["facts"]) == 1 and "follow_up_search" not in updates and len(updates["generate"]) == 1
    assert {s["period_label"] for u in updates["search"] for s in u.get("searches") or []} <= {"FY2024"}


def test_since_a_year_runs_to_the_latest_held(store: tuple[str, Path]) -> None:
    out, _ = ask(store, "How much did Apple's revenue grow since 2018?")
    first = opening(out["answer"])
    assert "went from $265,595 million in FY2018" in first and "to $391,035 million in FY2024" in first
    assert ": up 47.2%, a compound annual growth rate of 6.7%." in first
    assert first.endswith("No revenue figure for FY2020 to FY2022 in the store.")


def test_ever_is_yes_naming_the_quarter_and_no_over_every_quarter_held(store: tuple[str, Path]) -> None:
    yes, _ = ask(store, "Did Microsoft ever report a quarterly loss?")
    first = opening(yes["answer"])
    assert first.startswith(
        "Yes: Microsoft's net income was negative in one of the three quarters the store holds "
        "(Q1 FY2023 to Q3 FY2023). It was -$1,250 million in Q2 FY2023"
    ), first
    no, _ = ask(store, "Has Apple ever reported a quarterly loss?")
    first = opening(no["answer"])
    assert first.startswith(
        "No: Apple's net income was positive in every one of the two quarters the store holds "
        "(Q3 FY2023 to Q3 FY2024). The lowest was $19,881 million in Q3 FY2023"
    ), first
    assert first.endswith("No net income figure for Q4 FY2023 to Q2 FY2024 in the store.")
    assert no["validation"]["status"] in ("verified", "needs review"), no["validation"]
