"""Screens without a store: the question's words read into a screen, each company's value computed
by the calculator, the ranking with its threshold and top N, the answer's sentence and table, and a
bad metric as one line."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from finagent.agent.answer.screen_answer import screen_text
from finagent.agent.answer.wording import format_amount
from finagent.finance.ask.screen_ask import (
    ScreenAsk,
    UnknownMetric,
    parse_threshold,
    read_screen,
    screen_metric,
)
from finagent.finance.compute.screen_rank import Lacking, ScreenEntry, rank_screen, screen_value
from finagent.finance.looked_up import Figure, FigureRecord, Gap, Provenance
from finagent.finance.periods.period import FiscalPeriod


@pytest.mark.parametrize(
    ("question", "metric", "minimum", "maximum", "top", "highest_first"),
    [
        (
            "Which company in the store had the highest operating margin in its latest fiscal year?",
            "operating_margin",
            None,
            None,
            None,
            True,
        ),
        (
            "Which companies grew revenue more than 10% in fiscal 2024?",
            "revenue_growth",
            "10",
            None,
            None,
            True,
        ),
        (
            "Rank the companies in the store by net income in their latest fiscal year",
            "net_income",
            None,
            None,
            None,
            True,
        ),
        (
            "Among all companies in the store, which had the lowest gross margin?",
            "gross_margin",
            None,
            None,
            None,
            False,
        ),
        ("Top 5 companies by free cash flow across the store", "free_cash_flow", None, None, 5, True),
        (
            "Which companies in the store reported net income above $10 billion in fiscal 2023?",
            "net_income",
            "10000000000",
            None,
            None,
            True,
        ),
        (
            "List all the companies with an operating margin below 5%",
            "operating_margin",
            None,
            "5",
            None,
            True,
        ),
    ],
)
def test_a_question_about_the_companies_in_general_is_a_screen(
    question: str, metric: str, minimum: str | None, maximum: str | None, top: int | None, highest_first: bool
) -> None:
    assert read_screen(question) == ScreenAsk(metric, minimum, maximum, top, highest_first)


@pytest.mark.parametrize(
    "question",
    [
        "What was Apple's operating margin in fiscal 2024?",
        "Which risks does the company describe in its 10-K?",
        "What was the total revenue last quarter?",
    ],
)
def test_a_question_about_one_company_or_no_metric_is_no_screen(question: str) -> None:
    assert read_screen(question) is None


def test_an_unknown_metric_names_the_close_ones() -> None:
    with pytest.raises(
        UnknownMetric, match=r"unknown metric 'operatng_margin' \(close names: operating_margin"
    ):
        screen_metric("operatng_margin")
    assert screen_metric("operating margin").name == "operating_margin"
    assert screen_metric("revenue-growth").kind == "growth"
    assert parse_threshold("10%", True) == "10" and parse_threshold("$5 billion", False) == "5000000000"
    with pytest.raises(ValueError, match="cannot read the threshold"):
        parse_threshold("lots", False)


def test_the_cli_says_an_unknown_metric_in_one_line() -> None:
    env = {**os.environ, "FINAGENT_HOME": "/nonexistent-finagent-home"}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "finagent"), "screen", "--metric", "operatng_margin"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    said = " ".join(done.stderr.split())
    assert done.returncode == 2, done.stderr
    assert said.startswith("error: unknown metric 'operatng_margin' (close names: operating_margin"), said
    assert "Traceback" not in done.stderr


def _figure(ticker: str, metric: str, year: int, end: date, value: int, unit: str = "USD") -> Figure:
    return Figure(
        ticker=ticker,
        metric=metric,
        metric_label=metric.replace("_", " ").capitalize(),
        period=FiscalPeriod.year(year),
        duration="year",
        period_end=end,
        value=Decimal(value),
        unit=unit,
        concept=f"us-gaap:{metric}",
        fact_id=year,
        source="xbrl",
        role="target",
        provenance=Provenance(chunk_id=None, document_id=year, filing=f"{ticker}|10-K|{end}"),
    )


def _entry(ticker: str, year: int, end: date, op: int, revenue: int, unit: str = "USD") -> ScreenEntry:
    current: dict[str, FigureRecord | None] = {
        "operating_income": _figure(ticker, "operating_income", year, end, op, unit),
        "revenue": _figure(ticker, "revenue", year, end, revenue, unit),
    }
    found = screen_value(screen_metric("operating_margin"), ticker, FiscalPeriod.year(year), current, {})
    assert isinstance(found, ScreenEntry)
    return found


def test_each_company_is_ranked_in_its_own_period_and_the_lacking_are_listed() -> None:
    entries = [
        _entry("AAA", 2024, date(2024, 9, 28), 30, 100),
        _entry("BBB", 2025, date(2025, 1, 26), 62, 100),
        _entry("CCC", 2024, date(2024, 12, 31), 9, 100),
    ]
    assert entries[0].expression == "margin(30, 100)"
    gap = Gap(
        ticker="DDD", metric="operating_income", period=FiscalPeriod.year(2024), reason="no fact for FY2024"
    )
    lacking = screen_value(
        screen_metric("operating_margin"), "DDD", FiscalPeriod.year(2024), {"operating_income": gap}, {}
    )
    assert lacking == Lacking("DDD", FiscalPeriod.year(2024), "operating income: no fact for FY2024")
    assert isinstance(lacking, Lacking)
    outcome = rank_screen(
        screen_metric("operating_margin"), ScreenAsk("operating_margin", top=2), entries, [lacking]
    )
    assert [e.ticker for e in outcome.ranked] == ["BBB", "AAA", "CCC"]
    assert [e.ticker for e in outcome.kept] == ["BBB", "AAA"]
    names = {t: [t, n] for t, n in (("AAA", "Apex"), ("BBB", "Beta"), ("CCC", "Core"), ("DDD", "Delta"))}
    text = screen_text(outcome, names, lambda place: "10K1" if place.filing.startswith("BBB") else "10K2")
    opening, table, hidden = text.split("\n\n")
    assert opening == (
        "Of the three companies with operating margin for their latest fiscal year, Beta (BBB) had the "
        "highest operating margin: 62.0% in FY2025 (the year ended January 26, 2025) [10K1]; then Apex (AAA) "
        "30.0% in FY2024 (the year ended September 28, 2024) [10K2]. Not ranked, for lack of the figures: "
        "Delta (DDD) for FY2024 (the table says which)."
    )
    rows = table.splitlines()
    assert rows[2].startswith("| 1 | Beta (BBB) | FY2025 (the year ended January 26, 2025) | 62.0% |")
    assert rows[-1] == "| – | Delta (DDD) | FY2024 | not found: operating income: no fact for FY2024 | – |"
    assert hidden == "One company more ranked below these."


def test_a_threshold_keeps_those_past_it_and_a_minority_currency_is_set_apart() -> None:
    margin = screen_metric("operating_margin")
    entries = [
        _entry("AAA", 2024, date(2024, 12, 31), 30, 100),
        _entry("BBB", 2024, date(2024, 12, 31), 4, 100),
    ]
    outcome = rank_screen(margin, ScreenAsk("operating_margin", minimum="10"), entries, [])
    assert [e.ticker for e in outcome.kept] == ["AAA"] and outcome.filtered
    revenue = screen_metric("revenue")
    amounts = [
        screen_value(
            revenue,
            t,
            FiscalPeriod.year(2024),
            {"revenue": _figure(t, "revenue", 2024, date(2024, 12, 31), v, u)},
            {},
        )
        for t, v, u in (("AAA", 5 * 10**9, "USD"), ("BBB", 9 * 10**9, "USD"), ("EEE", 40 * 10**9, "EUR"))
    ]
    assert all(isinstance(a, ScreenEntry) for a in amounts)
    outcome = rank_screen(
        revenue, ScreenAsk("revenue"), [a for a in amounts if isinstance(a, ScreenEntry)], []
    )
    assert [e.ticker for e in outcome.ranked] == ["BBB", "AAA"]
    assert [e.ticker for e in outcome.other_currency] == ["EEE"]


def test_an_amount_in_another_currency_says_its_code() -> None:
    assert format_amount(Decimal(45_320_000_000), "EUR", 6) == "EUR 45,320 million"
    assert format_amount(Decimal("1.25"), "JPY/shares", 0) == "JPY 1.25 per share"
    assert format_amount(Decimal(45_320_000_000), "USD", 6) == "$45,320 million"


@pytest.mark.parametrize(
    ("question", "sector"),
    [
        (
            "Which technology company in the store had the highest operating margin last fiscal year?",
            "technology",
        ),
        ("Rank the companies in the store in the consumer staples sector by revenue.", "consumer staples"),
        ("Which company in the store had the highest operating margin?", ""),
    ],
)
def test_a_screen_limited_to_an_industry_says_the_store_knows_none(question: str, sector: str) -> None:
    ask = read_screen(question)
    assert ask is not None and ask.sector == sector
    entries = [
        _entry("AAA", 2024, date(2024, 9, 28), 30, 100),
        _entry("BBB", 2025, date(2025, 1, 26), 62, 100),
    ]
    outcome = rank_screen(screen_metric("operating_margin"), ScreenAsk("operating_margin"), entries, [])
    text = screen_text(
        outcome, {"AAA": ["AAA", "Apex"], "BBB": ["BBB", "Beta"]}, lambda _: "10K1", "", ask.sector
    )
    said = "The store holds no industry of its companies, so every company in it was screened"
    assert text.startswith(said) == bool(sector), text
