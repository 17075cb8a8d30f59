"""A quarter named by the month it ends in ("the December quarter"), on each company's calendar."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.finance.periods import AvailablePeriod, CompanyCalendar, parse_time_phrases, resolve_periods

_QUARTERS = {  # each company's stored 10-Qs: (fiscal year, quarter, period end)
    "AAPL": (9, [(2024, 1, date(2023, 12, 30)), (2024, 2, date(2024, 3, 30))]),
    "MSFT": (6, [(2023, 3, date(2023, 3, 31)), (2023, 4, date(2023, 6, 30)), (2024, 1, date(2023, 9, 30))]),
    "NVDA": (1, [(2024, 3, date(2023, 10, 29)), (2024, 4, date(2024, 1, 28))]),
    "WMT": (1, [(2025, 1, date(2024, 4, 30)), (2025, 2, date(2024, 7, 31))]),
}


def _labels(question: str, ticker: str) -> list[str]:
    fye, held = _QUARTERS[ticker]
    available = [AvailablePeriod(ticker, "10-Q", y, q, end, 1) for y, q, end in held]
    resolved = resolve_periods(
        parse_time_phrases(question), CompanyCalendar(ticker, fye), available, today=date(2025, 6, 1)
    )
    return [p.label for p in resolved.periods]


def test_a_yearless_month_quarter_is_dated_by_the_day_its_results_came_out() -> None:
    question = "What was reported about Apple's December-quarter results when they came out in February 2024?"
    assert _labels(question, "AAPL") == ["Q1 FY2024"]  # not the quarter holding February


@pytest.mark.parametrize(
    ("question", "ticker", "label"),
    [
        ("How did Microsoft's June quarter of 2023 go?", "MSFT", "Q4 FY2023"),
        ("What did NVIDIA say about its October-quarter results on November 21, 2023?", "NVDA", "Q3 FY2024"),
        ("Walmart's April quarter, reported May 16, 2024: what drove sales?", "WMT", "Q1 FY2025"),
    ],
)
def test_a_month_quarter_is_the_quarter_ending_in_that_month_on_each_calendar(
    question: str, ticker: str, label: str
) -> None:
    assert _labels(question, ticker)[0] == label  # the day written, if any, names its own document


def test_a_month_quarter_after_the_day_a_call_is_dated_by_is_what_it_looked_ahead_to() -> None:
    """ "On the February 1, 2024 call, what did Apple guide for the March quarter?": the call is the
    document; the March quarter is what it guided for, no period of a document asked."""
    question = "On the February 1, 2024 call, what did Apple guide for gross margin in the March quarter?"
    assert [s.text for s in parse_time_phrases(question)] == ["February 1, 2024"]


def test_a_month_quarter_with_nothing_to_date_it_is_no_period() -> None:
    assert parse_time_phrases("What did Apple guide for the December quarter?") == []
    (spec,) = parse_time_phrases("Apple's March quarter 2024 services revenue")
    assert spec.describe() == "date_range(2024-03-01, 2024-03-31)[quarter]"
