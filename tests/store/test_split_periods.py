"""Periods as the filings report them, in the real store: a quarter split by an emergence from
bankruptcy (predecessor Jul 1–21, successor Jul 22–Sep 30: a synthetic XBRL instance) answered with
both parts and why there is no single figure, by `finagent facts` and by the graph's figures answer;
a fourth quarter derived from one 10-K's own three quarters, never a later filing's restated one."""

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
from finagent.db.facts import load_facts
from finagent.embeddings import get_embedder
from finagent.finance.document_records import Block
from finagent.finance.fact_records import Fact, FiscalCalendar
from finagent.ingest.pipeline import IngestPipeline
from finagent.ingest.xbrl_instance import discover_xbrl_instances
from finagent.reports.facts import facts_table
from tests.conftest import create_database, make_settings
from tests.fakes import ScriptedModels
from tests.helpers import item
from tests.store.test_cli import finagent
from tests.store.test_facts_store import filing

REVENUES = "us-gaap:Revenues"
# (context id, start, end, revenue in thousands)
PERIODS = [
    ("Pred_Q3", "2010-07-01", "2010-07-21", 120_500),
    ("Succ_Q3", "2010-07-22", "2010-09-30", 481_200),
    ("Pred_YTD", "2010-01-01", "2010-07-21", 1_150_000),
    ("Q3_2009", "2009-07-01", "2009-09-30", 590_000),
    ("YTD_2009", "2009-01-01", "2009-09-30", 1_700_000),
]


def split_quarter_instance() -> str:
    """A 10-Q for the quarter ended September 30, 2010 of a company that emerged from bankruptcy on
    July 22, 2010: its quarter and year to date are reported as predecessor and successor parts."""
    contexts = "\n".join(
        f"""<xbrli:context id="{cid}"><xbrli:entity>
  <xbrli:identifier scheme="http://www.sec.gov/CIK">0009999901</xbrli:identifier></xbrli:entity>
  <xbrli:period><xbrli:startDate>{start}</xbrli:startDate><xbrli:endDate>{end}</xbrli:endDate></xbrli:period>
</xbrli:context>"""
        for cid, start, end, _ in PERIODS
    )
    facts = "\n".join(
        f'<us-gaap:Revenues contextRef="{cid}" unitRef="USD" decimals="-3">{value * 1000}</us-gaap:Revenues>'
        for cid, _, _, value in PERIODS
    )
    dei = {
        "DocumentType": "10-Q",
        "DocumentPeriodEndDate": "2010-09-30",
        "DocumentFiscalYearFocus": "2010",
        "DocumentFiscalPeriodFocus": "Q3",
        "CurrentFiscalYearEndDate": "--12-31",
        "TradingSymbol": "RISE",
        "EntityRegistrantName": "Phoenix Rising Corp",
        "EntityCentralIndexKey": "0009999901",
    }
    cover = "\n".join(f'<dei:{k} contextRef="Succ_Q3">{v}</dei:{k}>' for k, v in dei.items())
    return f"""<?xml version="1.0" encoding="utf-8"?>
<xbrli:xbrl xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:iso4217="http://www.xbrl.org/2003/iso4217"
  xmlns:us-gaap="http://fasb.org/us-gaap/2023" xmlns:dei="http://xbrl.sec.gov/dei/2023">
{contexts}
<xbrli:unit id="USD"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
{cover}
{facts}
</xbrli:xbrl>
"""


NET_SALES = "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
APPLE = FiscalCalendar(9)


def apple(value: str, start: date, end: date) -> Fact:
    return Fact(NET_SALES, Decimal(value), "USD", -6, start, end).in_calendar(APPLE)


def ten_k_with_quarters() -> Any:
    """Apple's FY2024 10-K tagging its year and first three quarters (no nine-month span anywhere)."""
    return filing(
        "10-K",
        date(2024, 9, 28),
        [Block("Apple Inc. annual report", section="cover")],
        [
            apple("391035000000", date(2023, 10, 1), date(2024, 9, 28)),
            apple("119575000000", date(2023, 10, 1), date(2023, 12, 30)),
            apple("90753000000", date(2023, 12, 31), date(2024, 3, 30)),
            apple("85777000000", date(2024, 3, 31), date(2024, 6, 29)),
        ],
        uri="test://aapl-10k-2024-quarters",
        sha="k-2024-quarters",
    )


def later_ten_q() -> Any:
    """The next year's Q1 10-Q, restating the prior-year first quarter."""
    return filing(
        "10-Q",
        date(2024, 12, 28),
        [Block("Apple Inc. quarterly report", section="cover")],
        [
            apple("124300000000", date(2024, 9, 29), date(2024, 12, 28)),
            apple("119000000000", date(2023, 10, 1), date(2023, 12, 30)),
        ],
        uri="test://aapl-10q-2025q1",
        sha="q-2025q1",
        fiscal_quarter=1,
    )


@pytest.fixture(scope="module")
def store(pg_server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    url = create_database(pg_server_url)
    home = tmp_path_factory.mktemp("home")
    folder = tmp_path_factory.mktemp("filings")
    (folder / "rise-20100930_htm.xml").write_text(split_quarter_instance(), encoding="utf-8")
    settings = make_settings(url, home)
    db = open_database(settings)
    try:
        pipeline = IngestPipeline(db, get_embedder(settings), settings)
        report = pipeline.run(
            [*discover_xbrl_instances(folder), item(ten_k_with_quarters()), item(later_ten_q())]
        )
        assert not report.failed, report.failed
    finally:
        db.close()
    yield url, home
    close_resources()


def test_the_split_quarter_is_stored_as_two_stubs(store: tuple[str, Path]) -> None:
    db = open_database(make_settings(*store))
    try:
        with db.connection() as conn:
            held = {f.period_label: f.duration for f in load_facts(conn, "RISE", [REVENUES])}
    finally:
        db.close()
    assert held == {
        "stub Jul 1–Jul 21, 2010": "stub",
        "stub Jul 22–Sep 30, 2010": "stub",
        "stub Jan 1–Jul 21, 2010": "stub",
        "Q3 FY2009": "quarter",
        "9M FY2009": "nine_months",
    }


def test_finagent_facts_shows_both_parts_and_why_there_is_no_single_figure(store: tuple[str, Path]) -> None:
    url, home = store
    result = finagent(
        ["facts", "RISE", "--metric", "revenue", "--periods", "Q3 FY2010", "Q3 FY2009"], url, home
    )
    assert result.returncode == 0, result.stderr
    out = " ".join(result.stdout.split())
    assert "no single figure: the filings report it in two parts" in out
    assert "predecessor Jul 1–Jul 21, 2010" in out and "$120.5M" in out
    assert "successor Jul 22–Sep 30, 2010" in out and "$481.2M" in out
    assert "$590M" in out  # the prior year's quarter is a quarter
    as_json = finagent(
        ["facts", "RISE", "--metric", "revenue", "--periods", "Q3 FY2010", "--json"], url, home
    )
    rows = json.loads(as_json.stdout)["rows"]
    assert [(r["period"], r["value"]) for r in rows] == [
        ("Q3 FY2010", None),
        ("predecessor Jul 1–Jul 21, 2010", "120500000"),
        ("successor Jul 22–Sep 30, 2010", "481200000"),
    ]
    assert rows[2]["note"] == "part of Q3 FY2010, not the whole period" and rows[2]["form"] == "10-Q"


def graph_answer(store: tuple[str, Path], question: str) -> dict[str, Any]:
    roles = ("analyze", "generate", "prose", "evaluate", "extract")
    models = ScriptedModels({role: [RuntimeError("no model call for a split quarter")] for role in roles})
    configure_resources(make_settings(*store), chat_model_factory=models)
    try:
        context = Context(today="2011-01-15", record_runs=False)
        out = asyncio.run(build_graph().ainvoke({"question": question}, context=context))
    finally:
        close_resources()
    assert not any(m.calls for m in models.models.values())  # neither table reading nor the model
    return out


def test_the_figures_answer_gives_both_parts_labelled_and_cited(store: tuple[str, Path]) -> None:
    out = graph_answer(store, "What was Phoenix Rising's revenue in Q3 2010?")
    answer = out["answer"]
    assert "no single figure: the filings report it in two parts" in answer, answer
    assert "predecessor Jul 1–Jul 21, 2010: $120,500 thousand [10Q1]" in answer
    assert "successor Jul 22–Sep 30, 2010: $481,200 thousand [10Q1]" in answer
    assert answer.count("| Phoenix Rising (RISE) |") == 1 and not out.get("facts")  # no cell for Q3
    assert out["validation"]["status"] == "verified", out["validation"]
    assert out["citations"] and out["citations"][0]["label"] == "10Q1"


def test_a_fourth_quarter_from_the_10k_s_own_quarters(store: tuple[str, Path]) -> None:
    db = open_database(make_settings(*store))
    try:
        with db.connection() as conn:
            result = facts_table(conn, ["AAPL"], ["revenue"], ["Q4 FY2024", "Q1 FY2024"])
    finally:
        db.close()
    rows = {r.period: r for r in result.rows}
    q4, q1 = rows["Q4 FY2024"], rows["Q1 FY2024"]
    assert (q4.period, q4.value, q4.source, q4.derivation) == (
        "Q4 FY2024",
        Decimal("94930000000"),
        "derived",
        "fy_minus_quarters",
    )
    assert q4.filing == "AAPL|10-K|2024-09-28"
    assert q1.value == Decimal("119000000000")  # the restated first quarter is the latest figure ...
    # ... but the 10-K's fourth quarter is its own year less its own three quarters
