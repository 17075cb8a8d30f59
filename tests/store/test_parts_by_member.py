"""A company's parts from its XBRL axis members, in a real embedded store: `finagent facts --by`, the
MCP tool and `finagent.facts(by=...)` give one table; a question naming a part ("iPhone revenue") or
asking which part drove a change is answered by code from the members' facts, first sentence first.

The synthetic store always runs; the real filings' store (../shared) skips without it."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from finagent.agent.context import Context
from finagent.agent.graph import build_graph
from finagent.agent.resources import close_resources, configure_resources
from finagent.db import Database
from finagent.embeddings import get_embedder
from finagent.finance.document_records import Block, ParsedDocument
from finagent.finance.fact_records import Fact, FiscalCalendar
from finagent.ingest.pipeline import IngestPipeline
from finagent.interfaces.mcp_server import get_financial_facts
from finagent.reports.facts import facts
from finagent.settings import Settings
from tests.conftest import create_database, make_settings, require_shared
from tests.fakes import ScriptedModels
from tests.helpers import item
from tests.store.test_cli import finagent

REV = "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
PRODUCT = "srt:ProductOrServiceAxis"
APPLE = FiscalCalendar(9)
YEARS = {2024: (date(2023, 10, 1), date(2024, 9, 28)), 2023: (date(2022, 9, 25), date(2023, 9, 30))}
PRODUCTS = {  # member: (row label, FY2024, FY2023), in millions, as Apple's FY2024 10-K prints them
    "aapl:IPhoneMember": ("iPhone", 201183, 200583),
    "aapl:MacMember": ("Mac", 29984, 29357),
    "aapl:IPadMember": ("iPad", 26694, 28300),
    "aapl:WearablesHomeandAccessoriesMember": ("Wearables, Home and Accessories", 37005, 39845),
    "us-gaap:ServiceMember": ("Services", 96169, 85200),
}
TOTAL = {2024: 391035, 2023: 383285}

TABLE = (
    "Net sales by category (In millions)\nYears ended | September 28, 2024 | September 30, 2023\n"
    + "".join(f"{label} | {new:,} | {old:,}\n" for label, new, old in PRODUCTS.values())
    + f"Total net sales | {TOTAL[2024]:,} | {TOTAL[2023]:,}\n"
)


def _fact(millions: int, year: int, member: str | None = None, label: str | None = None) -> Fact:
    start, end = YEARS[year]
    dims = ((PRODUCT, member),) if member else ()
    value = Decimal(millions) * 10**6
    found = Fact(
        REV,
        value,
        "USD",
        -6,
        start,
        end,
        display=f"{millions:,}",
        block_index=0,
        label=label,
        dimensions=dims,
    )
    return found.in_calendar(APPLE)


def _document() -> ParsedDocument:
    facts = [_fact(TOTAL[y], y, label="Total net sales") for y in YEARS]
    for member, (label, new, old) in PRODUCTS.items():
        facts += [_fact(new, 2024, member, label), _fact(old, 2023, member, label)]
    return ParsedDocument(
        kind="10-K",
        title="Apple Inc. 10-K",
        source_uri="synthetic://aapl-10k-2024",
        content_sha256="dims-aapl-2024",
        blocks=[Block(TABLE, page=40, is_table=True, section="item_7")],
        ticker="AAPL",
        company_name="Apple Inc.",
        fiscal_year=2024,
        fiscal_quarter=None,
        period_end=date(2024, 9, 28),
        fiscal_year_end_month=9,
        metadata={"form": "10-K", "fiscal_year_offset": 0},
        facts=facts,
    )


@pytest.fixture()
def store(db: Database, settings: Settings) -> Iterator[Database]:
    IngestPipeline(db, get_embedder(settings), settings).run([item(_document())])
    yield db
    close_resources()


def _by_part(rows: list[dict[str, Any]]) -> dict[tuple[str, str], str]:
    return {(r["part"] or "Total", r["period"]): r["value"] for r in rows}


def test_cli_mcp_and_python_give_one_table_by_product(
    store: Database, settings: Settings, tmp_path: Path
) -> None:
    configure_resources(settings, chat_model_factory=ScriptedModels({}))
    api = facts("AAPL", "revenue", ["FY2023", "FY2024"], by="product").to_dict()
    mcp = asyncio.run(
        get_financial_facts(["AAPL"], ["revenue"], ["FY2023", "FY2024"], by="product")
    ).model_dump()
    cli = finagent(
        [
            "facts",
            "AAPL",
            "--metric",
            "revenue",
            "--by",
            "product",
            "--periods",
            "FY2023",
            "FY2024",
            "--json",
        ],
        settings.database_url,
        tmp_path,
    )
    assert cli.returncode == 0, cli.stdout + cli.stderr
    table = _by_part(json.loads(cli.stdout)["rows"])
    assert table == _by_part(api["rows"]) == _by_part(mcp["rows"])
    assert table[("iPhone", "FY2024")] == "201183000000" and table[("Services", "FY2023")] == "85200000000"
    assert table[("Total", "FY2024")] == "391035000000"
    assert api["sums"] == mcp["sums"]
    assert "AAPL FY2024: the 5 parts by product add up to the total revenue (391,035,000,000)" in api["sums"]
    shown = finagent(
        ["facts", "AAPL", "-m", "revenue", "--by", "product", "-p", "FY2024"], settings.database_url, tmp_path
    )
    assert "Wearables, Home and Accessories" in shown.stdout and "$201,183M" in shown.stdout, shown.stdout
    bad = finagent(["facts", "AAPL", "-m", "revenue", "--by", "colour"], settings.database_url, tmp_path)
    assert bad.returncode != 0 and "cannot break figures down by 'colour'" in bad.stdout + bad.stderr


def _models() -> ScriptedModels:
    return ScriptedModels(
        {
            "analyze": [{"intent": "parts", "sources": ["10-K"], "answer_mode": "standard", "keywords": []}],
            "generate": ["The filing's table gives each category's net sales [10K1]."],
            "extract": ["no figures"] * 4,
            "evaluate": [{"completeness": 95, "specificity": 95, "accuracy": 95, "clarity": 95}],
        }
    )


def _ask(settings: Settings, question: str) -> dict[str, Any]:
    configure_resources(settings, chat_model_factory=_models())
    context = Context(today="2025-01-15", use_tools=False, record_runs=False)
    return dict(asyncio.run(build_graph().ainvoke({"question": question}, context=context)))


def test_a_named_product_is_answered_with_its_own_figure(store: Database, settings: Settings) -> None:
    out = _ask(settings, "What was Apple's iPhone revenue in fiscal 2024?")
    answer = str(out["answer"])
    assert answer.startswith(
        "Apple's iPhone revenue was $201,183 million in FY2024 [10K1], against $200,583 million in FY2023 "
        "[10K1]: +$600 million, +0.3% (computed)."
    ), answer
    assert "[unverified]" not in answer


def test_which_product_drove_the_change_is_computed(store: Database, settings: Settings) -> None:
    out = _ask(settings, "Which product category drove Apple's net sales change in fiscal 2024?")
    answer = str(out["answer"])
    assert answer.startswith(
        "Services drove the largest part of Apple's revenue change from FY2023 to FY2024: +$10,969 million "
        "($85,200 million to $96,169 million), 141.5% of the total's +$7,750 million (computed) [10K1]."
    ), answer
    assert (
        "iPad -$1,606 million" in answer
        and "The parts by product add up to the total revenue of $391,035 million in FY2024 [10K1]." in answer
    )
    assert "[unverified]" not in answer


REAL = [
    "filings/edgar/AAPL/10-K/aapl-10-k-2024-11-01.html",
    "filings/edgar/AMZN/10-K/amzn-10-k-2025-02-07.html",
]


@pytest.fixture(scope="module")
def real_store(pg_server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """Apple's FY2024 and Amazon's FY2024 10-Ks from ../shared, ingested by the CLI."""
    folder = tmp_path_factory.mktemp("parts")
    for relative in REAL:
        os.symlink(require_shared(*relative.split("/")), folder / relative.rsplit("/", 1)[1])
    url, home = create_database(pg_server_url), tmp_path_factory.mktemp("home")
    done = finagent(["ingest", "path", str(folder)], url, home, timeout=1200)
    assert done.returncode == 0, done.stdout + done.stderr
    yield url, home
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.shared
@pytest.mark.slow
def test_real_filings_by_part(real_store: tuple[str, Path]) -> None:
    apple = finagent(
        ["facts", "AAPL", "-m", "revenue", "--by", "product", "-p", "FY2023", "FY2024", "--json"], *real_store
    )
    rows = _by_part(json.loads(apple.stdout)["rows"])
    assert rows[("iPhone", "FY2024")] == "201183000000" and rows[("Services", "FY2024")] == "96169000000"
    assert ("Products", "FY2024") not in rows  # the five categories, not the products/services split
    amazon = finagent(
        ["facts", "AMZN", "-m", "operating_income", "--by", "segment", "-p", "FY2024", "--json"], *real_store
    )
    data = json.loads(amazon.stdout)
    assert _by_part(data["rows"])[("Amazon Web Services", "FY2024")] == "39834000000"
    assert "AMZN FY2024: the 3 parts by segment add up to the total operating income" in data["sums"][0]
    configure_resources(make_settings(real_store[0], real_store[1]), chat_model_factory=_models())
    out = asyncio.run(
        build_graph().ainvoke(
            {"question": "How did Amazon's AWS segment operating income change in 2024 compared with 2023?"},
            context=Context(use_tools=False, record_runs=False),
        )
    )
    close_resources()
    answer = str(out["answer"])
    assert answer.startswith(
        "Amazon.com's Amazon Web Services operating income was $39,834 million in FY2024 [10K1], against "
        "$24,631 million in FY2023 [10K1]: +$15,203 million, +61.7% (computed)."
    ), answer
    assert "[unverified]" not in answer
