"""Spans other than a quarter or a year, and rankings across fiscal calendars, through the graph
(scripted model, real store): a first half or nine months is the six- or nine-month column (never a
quarter's), a half no filing states is the sum of its quarters, a year held only in part is refused,
and companies whose fiscal years end in different months are ranked once, each on its own year."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from finagent.agent.resources import close_resources
from finagent.db import Database
from finagent.embeddings import get_embedder
from finagent.finance.document_records import ParsedDocument
from finagent.ingest.pipeline import IngestPipeline
from finagent.settings import Settings
from tests.fakes import ScriptedModels
from tests.helpers import item
from tests.store.spans_store import every_company, real_like
from tests.store.test_figures_graph import parts, run

NO_MODEL = RuntimeError("a figure answer without narrative needs no model call")


def _models() -> ScriptedModels:
    return ScriptedModels(
        {role: [NO_MODEL] for role in ("generate", "prose", "analyze", "evaluate")}
        | {"extract": [{"facts": []}]}
    )


def _ingest(db: Database, settings: Settings, docs: list[ParsedDocument]) -> Iterator[Database]:
    IngestPipeline(db, get_embedder(settings), settings).run([item(d) for d in docs])
    yield db
    close_resources()


@pytest.fixture()
def store(db: Database, settings: Settings) -> Iterator[Database]:
    yield from _ingest(db, settings, every_company())


@pytest.fixture()
def partial(db: Database, settings: Settings) -> Iterator[Database]:
    """Microsoft with 10-Qs only; Apple with a 10-Q newer than its 10-K."""
    yield from _ingest(db, settings, real_like())


def answer(settings: Settings, question: str) -> tuple[str, str, dict[str, Any]]:
    out = run(settings, _models(), question)
    opening, table, _ = parts(out["answer"])
    return opening, table, out


def test_a_first_half_is_the_six_month_column_not_a_quarter(store: Database, settings: Settings) -> None:
    for question in (
        "What was Coca-Cola's revenue in the first half of 2025?",
        "How much revenue did Coca-Cola report for the six months ended June 30, 2025?",
        "Coca-Cola revenue year to date through Q2 2025",
    ):
        opening, table, _ = answer(settings, question)
        assert opening == (
            "Coca-Cola's revenue in 6M FY2025 (the six months ended June 30, 2025) was $23,664 million "
            "[10Q1]."
        ), question
        assert "6M FY2025, six months ended 2025-06-30" in table
        assert "12,535" not in table and "11,129" not in table  # neither quarter stands in for it


def test_nine_months_are_the_nine_month_column(store: Database, settings: Settings) -> None:
    opening, _, _ = answer(settings, "What was Apple's revenue for the nine months ended June 29, 2024?")
    assert opening.startswith(
        "Apple's revenue in 9M FY2024 (the nine months ended June 29, 2024) was $296,105"
    )
    opening, table, _ = answer(
        settings, "Microsoft's revenue year to date through the third quarter of fiscal 2025"
    )
    assert opening.startswith(
        "Microsoft's revenue in 9M FY2025 (the nine months ended March 31, 2025) was $205,283"
    )
    assert "+13.8% vs 9M FY2024 ($180,381 million)" in table  # the nine months a year earlier, not Q3


def test_a_half_no_filing_states_is_the_sum_of_its_quarters_labelled_derived(
    store: Database, settings: Settings
) -> None:
    opening, table, out = answer(settings, "What was PepsiCo's revenue in H1 2025?")
    assert opening.startswith(
        "PepsiCo's revenue in 6M FY2025 (the six months ended June 30, 2025) was $40,645 million, derived as "
        "the sum of its quarters (Q1 FY2025 + Q2 FY2025)"
    )
    assert "$40,645 million" in table and "(derived)" in table
    derived = [c for c in out.get("calculations", []) if c.get("kind") == "derived"]
    assert derived and derived[0]["expression"].replace(" ", "") == "17919+22726"


def test_a_calendar_half_of_a_september_year_says_which_fiscal_months(
    store: Database, settings: Settings
) -> None:
    opening, _, out = answer(settings, "What was Apple's revenue in the first half of 2024?")
    assert opening.startswith(
        "Apple's revenue in 6M FY2024 (the six months ended March 30, 2024) was $210,328"
    )
    assert any(
        "read as AAPL's fiscal 6M FY2024: October 2023 to March 2024, its fiscal year ending in September"
        in w
        for w in out["warnings"]
    )


def test_a_year_held_only_as_nine_months_is_refused(store: Database, settings: Settings) -> None:
    opening, table, _ = answer(settings, "What was Microsoft's revenue in fiscal year 2025?")
    assert opening == (
        "Microsoft's revenue for FY2025 is not available: the store holds only part of that fiscal year, "
        "up to 9M FY2025 (ended March 31, 2025), not the full year."
    )
    assert "205,283" not in opening + table and "70,066" not in opening + table


def test_companies_with_different_year_ends_are_ranked_once_on_their_own_years(
    store: Database, settings: Settings
) -> None:
    opening, table, _ = answer(
        settings, "Rank Apple, Microsoft, Walmart and Nike by revenue in their most recent fiscal year"
    )
    assert opening == (
        "Ranked by revenue, highest first: Walmart $680,985 million (FY2025, the year ended January 31, "
        "2025) [10K3]; Apple $391,035 million (FY2024, the year ended September 28, 2024) [10K1]; Microsoft "
        "$245,122 million (FY2024, the year ended June 30, 2024) [10K2]; NIKE $46,309 million (FY2025, the "
        "year ended May 31, 2025) [10K4]."
    )
    rows = [line.split(" | ")[0] for line in table.splitlines()[2:]]
    assert rows == ["| Walmart (WMT)", "| Apple (AAPL)", "| Microsoft (MSFT)", "| NIKE (NKE)"]


def test_a_company_without_a_full_year_is_named_not_ranked_with_a_quarter(
    partial: Database, settings: Settings
) -> None:
    for question in (
        "Rank Apple, Microsoft, Walmart and Nike by revenue in their most recent fiscal year",
        "Rank Apple, Microsoft, Walmart and Nike by revenue",
    ):
        opening, _, _ = answer(settings, question)
        assert opening.startswith(
            "Ranked by revenue, highest first: Walmart $680,985 million (FY2025, the year ended January 31, "
            "2025) [10K2]; Apple $391,035 million (FY2024, the year ended September 28, 2024) [10K1]; NIKE "
            "$46,309 million (FY2025, the year ended May 31, 2025) [10K3]. Not ranked, with no revenue for "
            "the period asked: Microsoft"
        ), question
        assert "52,857" not in opening.split("Not ranked")[0]  # its quarter is not ranked against years
