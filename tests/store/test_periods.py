"""Time phrases -> fiscal periods, table-driven across fiscal calendars and store contents."""

from __future__ import annotations

import asyncio
import json
from datetime import date

import psycopg
import pytest

from finagent.db import Database
from finagent.db.companies import StoredCompany
from finagent.db.periods import _periods_by_ticker, aload_available_periods, load_available_periods
from finagent.finance.company_registry import lookup_builtin
from finagent.finance.fiscal import CompanyCalendar, calendar_for
from finagent.finance.periods import (
    AvailablePeriod,
    TimeSpec,
    named_kinds,
    nearest_earlier_report,
    parse_time_phrases,
    preferred_granularity,
    resolve_periods,
)
from finagent.finance.periods.grammar import invalid_quarters
from finagent.settings import Settings

TODAY = date(2024, 6, 15)


# -- parsing ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Revenue in FY2023", ["fiscal_year(2023)"]),
        ("Revenue in FY23", ["fiscal_year(2023)"]),
        ("Revenue in fiscal 2022", ["fiscal_year(2022)"]),
        ("Revenue in fiscal year 2022", ["fiscal_year(2022)"]),
        ("Revenue in FY 2022", ["fiscal_year(2022)"]),
        ("Revenue in Q2 2024", ["fiscal_quarter(2024, 2)"]),
        ("Revenue in Q2 FY2024", ["fiscal_quarter(2024, 2)"]),
        ("Revenue in Q2 of FY2024", ["fiscal_quarter(2024, 2)"]),
        ("Revenue in fiscal Q2 2024", ["fiscal_quarter(2024, 2)"]),
        ("Revenue in 2024 Q2", ["fiscal_quarter(2024, 2)"]),
        ("Revenue in Q2'24", ["fiscal_quarter(2024, 2)"]),
        ("Revenue in Q2’24", ["fiscal_quarter(2024, 2)"]),
        ("Revenue in 2Q24", ["fiscal_quarter(2024, 2)"]),
        ("Revenue in the second quarter of 2024", ["fiscal_quarter(2024, 2)"]),
        ("Revenue in the third quarter of fiscal 2023", ["fiscal_quarter(2023, 3)"]),
        ("fourth-quarter 2023 results", ["fiscal_quarter(2023, 4)"]),
        ("fiscal 2023 third quarter", ["fiscal_quarter(2023, 3)"]),
        ("Revenue over the last 3 quarters", ["last_quarters(3)"]),
        ("Revenue over the past three quarters", ["last_quarters(3)"]),
        ("the last twelve quarters", ["last_quarters(12)"]),
        ("the 4 most recent quarters", ["last_quarters(4)"]),
        ("Revenue last quarter", ["last_quarters(1)"]),
        ("Revenue in the last two fiscal years", ["last_years(2)"]),
        ("What is the latest guidance?", ["latest"]),
        ("Revenue in the most recent quarter", ["latest[quarter]"]),
        ("the most recent results", ["latest"]),
        ("the latest 10-K", ["latest[year]"]),
        ("latest annual revenue", ["latest[year]"]),
        ("Revenue since 2022", ["since_year(2022)"]),
        ("quarterly revenue since 2022", ["since_year(2022)[quarter]"]),
        ("Revenue since Q3 2022", ["since_year(2022Q3)[quarter]"]),
        ("Revenue 2019 vs 2021", ["fiscal_year(2019)", "fiscal_year(2021)"]),
        ("Compare 2019 to 2021", ["fiscal_year(2019)", "fiscal_year(2021)"]),
        ("Revenue from 2019 to 2021", ["year_range(2019, 2021)"]),
        ("Revenue 2019-2021", ["year_range(2019, 2021)"]),
        ("Revenue 2019–2021", ["year_range(2019, 2021)"]),
        ("Revenue between 2019 and 2021", ["year_range(2019, 2021)"]),
        ("Revenue FY2019-FY2021", ["year_range(2019, 2021)"]),
        ("Revenue FY19-21", ["year_range(2019, 2021)"]),
        ("quarterly revenue from 2019 to 2021", ["year_range(2019, 2021)[quarter]"]),
        ("Revenue from Q1 2022 to Q3 2023", ["quarter_range(2022Q1, 2023Q3)"]),
        ("Revenue from FY2023 to Q2 FY2024", ["quarter_range(2023Q1, 2024Q2)"]),
        ("any drop in cash between FY 2023 and Q2 of FY2024", ["quarter_range(2023Q4, 2024Q2)"]),
        ("Revenue Q1-Q3 2023", ["quarter_range(2023Q1, 2023Q3)"]),
        ("Revenue in H2 FY2023", ["quarter_range(2023Q3, 2023Q4)"]),
        ("quarters ending between June 2022 and June 2023", ["date_range(2022-06-01, 2023-06-30)"]),
        ("Revenue between June 2022 and June 2023", ["date_range(2022-06-01, 2023-06-30)"]),
        ("Revenue from Jun 2022 through Jun 2023", ["date_range(2022-06-01, 2023-06-30)"]),
        ("Revenue for the quarter ended July 1, 2023", ["date_range(2023-06-01, 2023-06-30)"]),
        ("Revenue for the quarter ended 2023-07-01", ["date_range(2023-06-01, 2023-06-30)"]),
        ("Revenue for the quarter ending June 2023", ["date_range(2023-06-01, 2023-06-30)"]),
        ("Revenue for the quarter ended December 31, 2022", ["date_range(2022-12-01, 2022-12-31)"]),
        ("Revenue since June 2022", ["date_range(2022-06-01, today)"]),
        ("Revenue in calendar 2023", ["date_range(2023-01-01, 2023-12-31)"]),
        ("Revenue in 2023", ["fiscal_year(2023)"]),
        ("Revenue in 2023.", ["fiscal_year(2023)"]),
        ("Q4 revenue in FY2023", ["fiscal_quarter(2023, 4)"]),
        ("Compare Q1 and Q2 2024", ["fiscal_quarter(2024, 1)", "fiscal_quarter(2024, 2)"]),
        ("Q2 2024 vs the same quarter last year", ["fiscal_quarter(2024, 2)"]),
        ("trailing twelve months revenue", ["last_quarters(4)"]),
        ("Revenue CAGR in the three years to fiscal 2024", ["year_range(2021, 2024)"]),
        ("a three-year revenue CAGR through 2024", ["year_range(2021, 2024)"]),
        ("Revenue for the three fiscal years ended 2024", ["year_range(2022, 2024)"]),
        (
            "Revenue for the quarter ended July 1, 2023 and the same period of 2022",
            ["date_range(2023-06-01, 2023-06-30)", "date_range(2022-06-01, 2022-06-30)"],
        ),
        ("FY2023 and FY2023 again, fiscal 2023", ["fiscal_year(2023)"]),
        (
            "FY2022 vs Q2 2024 vs last 3 quarters",
            ["fiscal_year(2022)", "fiscal_quarter(2024, 2)", "last_quarters(3)"],
        ),
        # Numbers that are not years.
        ("Revenue was $2,023 million", []),
        ("Revenue was $2023 million", []),
        ("2023 million dollars", []),
        ("Growth of 2024%", []),
        ("Item 7 of the 10-K", []),
        ("3M litigation", []),
        ("401(k) contributions", []),
        ("S&P 500 weight", []),
        ("What did Apple say in Q3?", []),
        ("What was revenue?", []),
    ],
)
def test_parse_time_phrases(question: str, expected: list[str]) -> None:
    assert [s.describe() for s in parse_time_phrases(question)] == expected


@pytest.mark.parametrize(
    ("question", "read", "warned"),
    [
        ("biggest drop in Q22023 year over year revenues", ["fiscal_quarter(2023, 2)"], []),
        ("revenue in Q52023", [], ["Q52023"]),
        ("revenue in Q2023", [], ["Q2023"]),
    ],
)
def test_a_quarter_flush_against_its_year_is_read_and_never_called_invalid(
    question: str, read: list[str], warned: list[str]
) -> None:
    assert [s.describe() for s in parse_time_phrases(question)] == read
    assert invalid_quarters(question) == warned


def test_specs_keep_phrase_text_and_order() -> None:
    question = "Compare FY2022 with the last 2 quarters and Q2'24"
    specs = parse_time_phrases(question)
    assert [s.text for s in specs] == ["FY2022", "the last 2 quarters", "Q2'24"]
    assert [s.position for s in specs] == sorted(s.position for s in specs)
    assert all(question[s.position : s.position + len(s.text)] == s.text for s in specs)


def test_spec_round_trips_through_json() -> None:
    for spec in parse_time_phrases(
        "FY2022, Q3 2023, 2019-2021, from Q1 2022 to Q3 2023, between June 2022 and June 2023, "
        "since June 2022, last 3 quarters, last two years, latest, quarterly since 2020"
    ):
        data = json.loads(json.dumps(spec.to_dict()))
        assert TimeSpec.from_dict(data) == spec


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What was annual revenue?", "annual"),
        ("What does the 10-K say about risks?", "annual"),
        ("What was quarterly revenue?", "quarter"),
        ("What was revenue?", "quarter"),
    ],
)
def test_preferred_granularity(question: str, expected: str) -> None:
    assert preferred_granularity(question) == expected


# -- resolution ---------------------------------------------------------------------------------
def cal(ticker: str) -> CompanyCalendar:
    company = lookup_builtin(ticker)
    assert company is not None
    return CompanyCalendar(ticker, company.fiscal_year_end_month, company.fiscal_year_offset)


def doc(
    ticker: str, kind: str, fiscal_year: int, quarter: int | None, period_end: date | None = None
) -> AvailablePeriod:
    """One inventory row; the period end defaults to the nominal one of the company's calendar."""
    if period_end is None and kind != "news":
        period_end = cal(ticker).quarter_end(fiscal_year, quarter or 4)
    return AvailablePeriod(ticker, kind, fiscal_year, quarter, period_end, 1)


# Apple's 52/53-week quarters end on Saturdays: Q3 FY2023 ended 2023-07-01.
AAPL_FY23 = [
    doc("AAPL", "10-Q", 2023, 1, date(2022, 12, 31)),
    doc("AAPL", "10-Q", 2023, 2, date(2023, 4, 1)),
    doc("AAPL", "10-Q", 2023, 3, date(2023, 7, 1)),
]
AAPL = [
    *AAPL_FY23,
    doc("AAPL", "transcript", 2023, 3, date(2023, 7, 1)),
    doc("AAPL", "10-K", 2023, None, date(2023, 9, 30)),
    doc("AAPL", "10-Q", 2024, 1, date(2023, 12, 30)),
]
# Microsoft: FYE June, so 2022-09-30 is Q1 FY2023.
MSFT_FY23 = [
    doc("MSFT", "10-Q", 2023, 1, date(2022, 9, 30)),
    doc("MSFT", "10-Q", 2023, 2, date(2022, 12, 31)),
    doc("MSFT", "10-Q", 2023, 3, date(2023, 3, 31)),
]
MSFT = [*MSFT_FY23, doc("MSFT", "10-K", 2023, None, date(2023, 6, 30))]
# Nvidia: FYE late January, so the quarter ended 2023-07-30 is Q2 FY2024; Q2 is missing here.
NVDA = [
    doc("NVDA", "10-K", 2023, None, date(2023, 1, 29)),
    doc("NVDA", "10-Q", 2024, 1, date(2023, 4, 30)),
    doc("NVDA", "10-Q", 2024, 3, date(2023, 10, 29)),
]
NVDA_Q2 = [*NVDA, doc("NVDA", "10-Q", 2024, 2, date(2023, 7, 30))]
AMZN = [doc("AMZN", "10-K", y, None) for y in range(2018, 2024)] + [
    doc("AMZN", "10-Q", y, q) for y in range(2018, 2025) for q in (1, 2, 3) if (y, q) <= (2024, 1)
]

RESOLUTION_CASES = [
    # (id, question, ticker, store, expected labels, expected warning fragments)
    ("aapl-q3", "Q3 FY2023", "AAPL", AAPL, ["Q3 FY2023"], []),
    ("aapl-quarter-ended", "the quarter ended July 1, 2023", "AAPL", AAPL, ["Q3 FY2023"], []),
    ("msft-quarter-ended", "the quarter ended September 30, 2022", "MSFT", MSFT, ["Q1 FY2023"], []),
    ("nvda-quarter-ended", "the quarter ended July 30, 2023", "NVDA", NVDA_Q2, ["Q2 FY2024"], []),
    ("amzn-calendar", "Q3 2023", "AMZN", AMZN, ["Q3 FY2023"], []),
    (
        "aapl-date-range",
        "quarters ending between June 2022 and June 2023",
        "AAPL",
        AAPL,
        ["Q3 FY2022", "Q4 FY2022", "Q1 FY2023", "Q2 FY2023", "Q3 FY2023"],
        ["no 10-Q for AAPL Q3 FY2022 in the store", "no Q4 document or 10-K for AAPL Q4 FY2022 in the store"],
    ),
    (
        "msft-date-range",
        "between June 2022 and June 2023",
        "MSFT",
        MSFT,
        ["Q4 FY2022", "Q1 FY2023", "Q2 FY2023", "Q3 FY2023", "Q4 FY2023", "FY2023"],
        ["no Q4 document or 10-K for MSFT Q4 FY2022", "Q4 is reported in the FY2023 10-K"],
    ),
    ("aapl-last-3", "last 3 quarters", "AAPL", AAPL_FY23, ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023"], []),
    ("msft-last-3", "last 3 quarters", "MSFT", MSFT_FY23, ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023"], []),
    (
        "nvda-last-3-missing",
        "past three quarters",
        "NVDA",
        NVDA,
        ["Q1 FY2024", "Q2 FY2024", "Q3 FY2024"],
        ["no 10-Q for NVDA Q2 FY2024 in the store"],
    ),
    (
        "aapl-last-3-across-10k",
        "last 3 quarters",
        "AAPL",
        AAPL,
        ["Q3 FY2023", "Q4 FY2023", "FY2023", "Q1 FY2024"],
        ["Q4 is reported in the FY2023 10-K"],
    ),
    ("aapl-fy-with-10k", "FY2023", "AAPL", AAPL, ["FY2023"], []),
    (
        "aapl-fy-without-10k",
        "FY2023",
        "AAPL",
        AAPL_FY23,
        ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023"],
        [
            "no 10-K for AAPL FY2023 in the store; "
            "using its quarterly documents (Q1 FY2023, Q2 FY2023, Q3 FY2023)"
        ],
    ),
    ("aapl-fy-nothing", "fiscal 2021", "AAPL", AAPL, ["FY2021"], ["no 10-K for AAPL FY2021 in the store"]),
    (
        "aapl-q4-from-10k",
        "Q4 FY2023",
        "AAPL",
        AAPL,
        ["Q4 FY2023", "FY2023"],
        ["no Q4-specific document for AAPL Q4 FY2023 in the store; Q4 is reported in the FY2023 10-K"],
    ),
    (
        "aapl-q4-transcript",
        "Q4 FY2023",
        "AAPL",
        [*AAPL, doc("AAPL", "transcript", 2023, 4, date(2023, 9, 30))],
        ["Q4 FY2023"],
        [],
    ),
    ("amzn-years", "from 2019 to 2021", "AMZN", AMZN, ["FY2019", "FY2020", "FY2021"], []),
    ("amzn-vs", "2019 vs 2021", "AMZN", AMZN, ["FY2019", "FY2021"], []),
    ("amzn-last-2-years", "last two fiscal years", "AMZN", AMZN, ["FY2022", "FY2023"], []),
    (
        "amzn-since",
        "since 2022",
        "AMZN",
        AMZN,
        ["FY2022", "FY2023", "Q1 FY2024"],
        ["no 10-K for AMZN FY2024 in the store; using its quarterly documents (Q1 FY2024)"],
    ),
    (
        "amzn-quarter-range",
        "from Q3 2022 to Q2 2023",
        "AMZN",
        AMZN,
        ["Q3 FY2022", "Q4 FY2022", "FY2022", "Q1 FY2023", "Q2 FY2023"],
        ["Q4 is reported in the FY2022 10-K"],
    ),
    (
        "amzn-fy-quarterly-not-ended",
        "quarterly revenue in FY2024",
        "AMZN",
        AMZN,
        ["Q1 FY2024"],
        ["AMZN: skipped periods not ended by 2024-06-15: Q2 FY2024, Q3 FY2024, Q4 FY2024"],
    ),
    ("latest-quarter", "", "AAPL", AAPL, ["Q1 FY2024"], []),
    ("latest-annual", "the latest 10-K", "AAPL", AAPL, ["FY2023"], []),
    ("latest-10k-newer", "most recent", "MSFT", MSFT, ["FY2023"], []),
    ("empty-store", "", "NVDA", [], [], ["no documents for NVDA in the store"]),
    (
        "empty-store-last-3",
        "last 3 quarters",
        "AAPL",
        [],
        ["Q4 FY2023", "Q1 FY2024", "Q2 FY2024"],
        ["no quarterly documents for AAPL in the store; counting back from Q2 FY2024"],
    ),
    (
        "hd-retail-offset",
        "Q3 FY2023",
        "HD",
        [doc("HD", "10-Q", 2023, 3, date(2023, 10, 29))],
        ["Q3 FY2023"],
        [],
    ),
    (
        "month-without-quarter-end",
        "May 2023",
        "AAPL",
        AAPL,
        ["Q3 FY2023"],
        ["no fiscal quarter of AAPL ends in May 2023; using Q3 FY2023, which contains it"],
    ),
]


@pytest.mark.parametrize(
    ("question", "ticker", "store", "labels", "warnings"),
    [pytest.param(*case[1:], id=case[0]) for case in RESOLUTION_CASES],
)
def test_resolve_periods(
    question: str, ticker: str, store: list[AvailablePeriod], labels: list[str], warnings: list[str]
) -> None:
    result = resolve_periods(parse_time_phrases(question), cal(ticker), store, today=TODAY)
    assert [p.label for p in result.periods] == labels
    for fragment in warnings:
        assert any(fragment in w for w in result.warnings), (fragment, result.warnings)
    if not warnings:
        assert result.warnings == []
    assert all(period.available == bool(period.kinds) for period in result.periods)


def _months(question: str, ticker: str, store: list[AvailablePeriod]) -> list[tuple[int, int]]:
    result = resolve_periods(parse_time_phrases(question), cal(ticker), store, today=TODAY)
    return [(p.period_end.year, p.period_end.month) for p in result.periods if p.period_end]


def test_last_quarters_means_different_months_per_calendar() -> None:
    # Same labels (Q1-Q3 FY2023), different calendar months.
    assert _months("last 3 quarters", "AAPL", AAPL_FY23) == [(2022, 12), (2023, 4), (2023, 7)]
    assert _months("last 3 quarters", "MSFT", MSFT_FY23) == [(2022, 9), (2022, 12), (2023, 3)]


def test_date_range_means_same_months_for_every_calendar() -> None:
    question = "between June 2022 and June 2023"
    apple = resolve_periods(parse_time_phrases(question), cal("AAPL"), [], today=TODAY).periods
    microsoft = resolve_periods(parse_time_phrases(question), cal("MSFT"), [], today=TODAY).periods
    nominal = [(2022, 6), (2022, 9), (2022, 12), (2023, 3), (2023, 6)]
    assert [(p.period_end.year, p.period_end.month) for p in apple if p.period_end] == nominal
    assert [(p.period_end.year, p.period_end.month) for p in microsoft if p.period_end] == nominal
    assert (apple[0].label, microsoft[0].label) == ("Q3 FY2022", "Q4 FY2022")


def test_target_carries_store_facts() -> None:
    result = resolve_periods(parse_time_phrases("Q3 FY2023"), cal("AAPL"), AAPL, today=TODAY)
    (target,) = result.periods
    assert target.to_dict() == {
        "ticker": "AAPL",
        "fiscal_year": 2023,
        "fiscal_quarter": 3,
        "label": "Q3 FY2023",
        "period_end": "2023-07-01",
        "kinds": ["10-Q", "transcript"],
        "available": True,
    }
    assert json.loads(json.dumps(result.to_dict()))["periods"][0]["label"] == "Q3 FY2023"


def test_missing_quarter_reports_news_only() -> None:
    store = [*NVDA, doc("NVDA", "news", 2024, 2)]
    result = resolve_periods(parse_time_phrases("Q2 FY2024"), cal("NVDA"), store, today=TODAY)
    (target,) = result.periods
    assert target.kinds == ["news"] and target.available
    assert result.warnings == ["no 10-Q for NVDA Q2 FY2024 in the store (only news)"]


def test_nominal_period_end_when_not_stored() -> None:
    result = resolve_periods(parse_time_phrases("Q4 FY2023"), cal("HD"), [], today=TODAY)
    (target,) = result.periods
    # Home Depot names its year after the year it began: FY2023 ended in (early) February 2024.
    assert target.period_end == date(2024, 1, 31) and not target.available


@pytest.mark.parametrize(("max_quarters", "first"), [(12, "Q2 FY2021"), (4, "Q2 FY2023")])
def test_trimmed_to_most_recent(max_quarters: int, first: str) -> None:
    result = resolve_periods(
        parse_time_phrases("quarterly revenue since 2018"),
        cal("AMZN"),
        AMZN,
        today=TODAY,
        max_quarters=max_quarters,
    )
    assert len([p for p in result.periods if not p.is_annual]) == max_quarters
    assert all(p.label.endswith(("FY2021", "FY2022", "FY2023")) for p in result.periods if p.is_annual)
    assert result.periods[0].label == first and result.periods[-1].label == "Q1 FY2024"
    assert any("keeping the most recent" in w for w in result.warnings)


def test_prefer_decides_latest() -> None:
    quarter = resolve_periods([], cal("AAPL"), AAPL, today=TODAY, prefer="quarter")
    annual = resolve_periods([], cal("AAPL"), AAPL, today=TODAY, prefer="annual")
    assert [p.label for p in quarter.periods] == ["Q1 FY2024"]
    assert [p.label for p in annual.periods] == ["FY2023"]
    only_quarters = resolve_periods([], cal("AAPL"), AAPL_FY23, today=TODAY, prefer="annual")
    assert [p.label for p in only_quarters.periods] == ["Q3 FY2023"]
    assert only_quarters.warnings == ["no 10-K for AAPL in the store; using its latest quarter instead"]
    with pytest.raises(ValueError):
        resolve_periods([], cal("AAPL"), AAPL, today=TODAY, prefer="monthly")


def test_output_is_sorted_and_deduplicated() -> None:
    specs = parse_time_phrases(
        "Q3 FY2023, FY2023, Q1 FY2023, last 3 quarters and the quarter ended July 1, 2023"
    )
    result = resolve_periods(specs, cal("AAPL"), AAPL, today=TODAY)
    assert [p.label for p in result.periods] == ["Q1 FY2023", "Q3 FY2023", "Q4 FY2023", "FY2023", "Q1 FY2024"]


def test_rows_of_other_tickers_are_ignored() -> None:
    result = resolve_periods([], cal("AAPL"), MSFT, today=TODAY)
    assert result.periods == [] and result.warnings == ["no documents for AAPL in the store"]


def test_calendar_for_stored_company() -> None:
    hd = calendar_for(StoredCompany("HD", "The Home Depot, Inc.", (), 1, 3))
    assert (hd.fye_month, hd.year_offset) == (1, -1)
    msft = calendar_for(StoredCompany("MSFT", "Microsoft Corporation", (), 6, 3))
    assert (msft.fye_month, msft.year_offset) == (6, 0)
    unknown = calendar_for(StoredCompany("ZZZZ", None, (), None, 0))
    assert (unknown.fye_month, unknown.year_offset) == (12, 0)
    assert calendar_for(StoredCompany("AAPL", "Apple Inc.", (), None, 0)).fye_month == 9


# -- store inventory ----------------------------------------------------------------------------
_INSERT = """INSERT INTO documents (kind, ticker, fiscal_year, fiscal_quarter, period_end, title, source_uri,
                                    content_sha256, status)
             VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"""


def _seed(db: Database) -> None:
    rows = [
        ("10-Q", "AAPL", 2023, 3, date(2023, 7, 1), "ready"),
        ("10-Q", "AAPL", 2023, 3, date(2023, 7, 1), "superseded"),
        ("transcript", "AAPL", 2023, 3, date(2023, 7, 1), "ready"),
        ("10-K", "AAPL", 2023, None, date(2023, 9, 30), "ready"),
        ("10-K", "AAPL", 2023, None, date(2023, 9, 30), "ready"),
        ("news", "AAPL", None, None, None, "ready"),
        ("10-Q", "MSFT", 2023, 1, date(2022, 9, 30), "ready"),
    ]
    with db.connection() as conn:
        for i, (kind, ticker, year, quarter, end, status) in enumerate(rows):
            conn.execute(
                _INSERT, (kind, ticker, year, quarter, end, f"doc {i}", f"file://doc{i}", f"sha{i}", status)
            )


def test_load_available_periods(db: Database, settings: Settings) -> None:
    _seed(db)
    with db.connection() as conn:
        inventory = load_available_periods(conn, ["aapl", "MSFT", "NVDA", "AAPL"])
    assert set(inventory) == {"AAPL", "MSFT", "NVDA"}
    assert inventory["NVDA"] == []
    assert inventory["AAPL"] == [
        AvailablePeriod("AAPL", "10-Q", 2023, 3, date(2023, 7, 1), 1, date(2023, 7, 1)),
        AvailablePeriod("AAPL", "transcript", 2023, 3, date(2023, 7, 1), 1, date(2023, 7, 1)),
        AvailablePeriod("AAPL", "10-K", 2023, None, date(2023, 9, 30), 2, date(2023, 9, 30)),
    ]
    assert [(p.kind, p.fiscal_quarter) for p in inventory["MSFT"]] == [("10-Q", 1)]
    with db.connection() as conn:
        assert load_available_periods(conn, []) == {}

    async def load_async() -> dict[str, list[AvailablePeriod]]:
        async with await psycopg.AsyncConnection.connect(settings.database_url or "") as aconn:
            return await aload_available_periods(aconn, ["AAPL", "MSFT", "NVDA"])

    assert asyncio.run(load_async()) == inventory

    resolution = resolve_periods(
        parse_time_phrases("last 2 quarters"), cal("AAPL"), inventory["AAPL"], today=TODAY
    )
    assert [p.label for p in resolution.periods] == ["Q3 FY2023", "Q4 FY2023", "FY2023"]


# -- periods the question implies without naming them ------------------------------------------
SEC10Q_LIKE = [
    doc("MSFT", "10-Q", 2023, 1),
    doc("MSFT", "10-Q", 2023, 2),
    doc("MSFT", "10-Q", 2023, 3),
    doc("MSFT", "10-K", 2023, None),
    doc("MSFT", "transcript", 2024, 2),  # a newer call than any filing
]


@pytest.mark.parametrize(
    "question",
    [
        "How have Microsoft's inventory levels changed across these quarters?",
        "Are there new disclosures in Microsoft's accounting policies as reported in these 10-Qs?",
        "How has Microsoft's total revenue trended over time?",
        "Have there been fluctuations in Microsoft's expenses during the reported quarters?",
    ],
)
def test_plural_periods_without_dates_mean_every_stored_report(question: str) -> None:
    specs = parse_time_phrases(question)
    assert [s.describe() for s in specs] == ["held[quarter]"]
    result = resolve_periods(specs, cal("MSFT"), SEC10Q_LIKE, today=TODAY, kinds=frozenset({"10-Q"}))
    assert [p.label for p in result.periods] == ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023"]


def test_dated_quarters_are_not_every_stored_report() -> None:
    specs = parse_time_phrases("over the quarters ending between June 2022 and June 2023")
    assert [s.kind for s in specs] == ["date_range"]


@pytest.mark.parametrize(
    ("question", "kinds"),
    [
        ("What did Apple report in its latest 10-Q?", {"10-Q"}),
        ("In the FY2022 10-K, what was capex?", {"10-K"}),
        ("What did the CEO say on the earnings call?", {"transcript"}),
        ("Per the Q2 earnings release, what was EPS?", {"earnings_release"}),
        ("What was Apple's revenue in Q2?", set()),
    ],
)
def test_named_kinds(question: str, kinds: set[str]) -> None:
    assert named_kinds(question) == kinds


def test_latest_follows_the_kinds_searched() -> None:
    anything = resolve_periods([], cal("MSFT"), SEC10Q_LIKE, today=TODAY)
    filings = resolve_periods([], cal("MSFT"), SEC10Q_LIKE, today=TODAY, kinds=frozenset({"10-Q", "10-K"}))
    assert [p.label for p in anything.periods] == ["Q2 FY2024"]
    assert [p.label for p in filings.periods] == ["FY2023"]
    missing = resolve_periods([], cal("MSFT"), SEC10Q_LIKE, today=TODAY, kinds=frozenset({"8-K"}))
    assert [p.label for p in missing.periods] == ["Q2 FY2024"]
    assert "no 8-K of MSFT in the store; using what it holds" in missing.warnings


@pytest.mark.parametrize(
    ("ticker", "phrase", "labels"),
    [
        # Microsoft's fiscal Q1 2023 ends Sep 2022; calendar Q1 2023 is its fiscal Q3.
        ("MSFT", "Q1 2023", ["Q1 FY2023", "Q3 FY2023"]),
        ("MSFT", "fiscal Q1 2023", ["Q1 FY2023"]),
        ("MSFT", "Q1 FY2023", ["Q1 FY2023"]),
        # Nvidia's quarter closest to calendar Q1 2023 ends in late April 2023 (Q1 FY2024).
        ("NVDA", "Q1 2023", ["Q1 FY2023", "Q1 FY2024"]),
        # December year ends: both readings agree.
        ("AMZN", "Q1 2023", ["Q1 FY2023"]),
    ],
)
def test_unqualified_quarter_also_searches_the_calendar_reading(
    ticker: str, phrase: str, labels: list[str]
) -> None:
    store = [doc(ticker, "10-Q", year, q) for year in (2023, 2024) for q in (1, 2, 3)]
    result = resolve_periods(parse_time_phrases(phrase), cal(ticker), store, today=TODAY)
    assert [p.label for p in result.periods] == labels
    assert any("searched too" in w for w in result.warnings) == (len(labels) > 1)


def test_calendar_reading_only_when_the_store_holds_it() -> None:
    store = [doc("MSFT", "10-Q", 2023, 1)]
    result = resolve_periods(parse_time_phrases("Q1 2023"), cal("MSFT"), store, today=TODAY)
    assert [p.label for p in result.periods] == ["Q1 FY2023"] and result.warnings == []


# -- actual period ends, month alternatives, "around", years ended, calendar spans, filing dates --
def filing(
    ticker: str, kind: str, fiscal_year: int, quarter: int | None, period_end: date, filed: date | None = None
) -> AvailablePeriod:
    """An inventory row with the real period end (and filing date, when the test needs one)."""
    return AvailablePeriod(ticker, kind, fiscal_year, quarter, period_end, 1, period_end, filed)


# Real period ends (52/53-week years for Apple and Nvidia) and real filing dates.
AAPL_REAL = [
    filing("AAPL", "10-Q", 2022, 3, date(2022, 6, 25), date(2022, 7, 29)),
    filing("AAPL", "10-K", 2022, None, date(2022, 9, 24), date(2022, 10, 28)),
    filing("AAPL", "10-Q", 2023, 1, date(2022, 12, 31), date(2023, 2, 3)),
    filing("AAPL", "10-Q", 2023, 2, date(2023, 4, 1), date(2023, 5, 5)),
    filing("AAPL", "10-Q", 2023, 3, date(2023, 7, 1), date(2023, 8, 4)),
    filing("AAPL", "10-K", 2023, None, date(2023, 9, 30), date(2023, 11, 3)),
    filing("AAPL", "10-Q", 2024, 1, date(2023, 12, 30), date(2024, 2, 2)),
]
MSFT_REAL = [
    filing("MSFT", "10-Q", 2023, 1, date(2022, 9, 30), date(2022, 10, 25)),
    filing("MSFT", "10-Q", 2023, 2, date(2022, 12, 31), date(2023, 1, 26)),
    filing("MSFT", "10-Q", 2023, 3, date(2023, 3, 31), date(2023, 4, 27)),
    filing("MSFT", "10-K", 2023, None, date(2023, 6, 30), date(2023, 7, 27)),
    filing("MSFT", "10-Q", 2024, 1, date(2023, 9, 30), date(2023, 10, 24)),
]
NVDA_REAL = [
    filing("NVDA", "10-Q", 2023, 3, date(2022, 10, 30), date(2022, 11, 18)),
    filing("NVDA", "10-K", 2023, None, date(2023, 1, 29), date(2023, 2, 24)),
    filing("NVDA", "10-Q", 2024, 1, date(2023, 4, 30), date(2023, 5, 26)),
    filing("NVDA", "10-Q", 2024, 2, date(2023, 7, 30), date(2023, 8, 28)),
    filing("NVDA", "10-Q", 2024, 3, date(2023, 10, 29), date(2023, 11, 21)),
    filing("NVDA", "10-K", 2024, None, date(2024, 1, 28), date(2024, 2, 21)),
]
AMZN_REAL = [
    filing("AMZN", "10-K", 2022, None, date(2022, 12, 31)),
    filing("AMZN", "10-Q", 2023, 1, date(2023, 3, 31)),
    filing("AMZN", "10-Q", 2023, 2, date(2023, 6, 30)),
    filing("AMZN", "10-Q", 2023, 3, date(2023, 9, 30)),
    filing("AMZN", "10-K", 2023, None, date(2023, 12, 31)),
]
REAL = {"AAPL": AAPL_REAL, "MSFT": MSFT_REAL, "NVDA": NVDA_REAL, "AMZN": AMZN_REAL}


def without_filing_dates(rows: list[AvailablePeriod]) -> list[AvailablePeriod]:
    return [AvailablePeriod(r.ticker, r.kind, r.fiscal_year, r.fiscal_quarter, r.period_end, 1) for r in rows]


def labels_of(
    question: str,
    ticker: str,
    store: list[AvailablePeriod] | None = None,
    kinds: frozenset[str] = frozenset(),
) -> list[str]:
    """Target labels for a question against the real-ends inventory (or ``store``)."""
    return resolve(question, ticker, store, kinds)[0]


def resolve(
    question: str,
    ticker: str,
    store: list[AvailablePeriod] | None = None,
    kinds: frozenset[str] = frozenset(),
) -> tuple[list[str], list[str]]:
    rows = REAL[ticker] if store is None else store
    result = resolve_periods(parse_time_phrases(question), cal(ticker), rows, today=TODAY, kinds=kinds)
    return [p.label for p in result.periods], result.warnings


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # Month alternatives: either month.
        ("revenue for March/April 2023", ["date_range(2023-03-01, 2023-04-30)"]),
        ("revenue for March or April 2023", ["date_range(2023-03-01, 2023-04-30)"]),
        ("revenue for Mar/Apr 2023", ["date_range(2023-03-01, 2023-04-30)"]),
        ("revenue for Mar. / Apr. 2023", ["date_range(2023-03-01, 2023-04-30)"]),
        ("revenue for March and April 2023", ["date_range(2023-03-01, 2023-04-30)"]),
        (
            "revenue for March or June 2023",
            ["date_range(2023-03-01, 2023-03-31)", "date_range(2023-06-01, 2023-06-30)"],
        ),
        ("revenue for December/January 2023", ["date_range(2022-12-01, 2023-01-31)"]),
        ("revenue from March to June 2023", ["date_range(2023-03-01, 2023-06-30)"]),
        ("revenue between March and June 2023", ["date_range(2023-03-01, 2023-06-30)"]),
        ("revenue for March-June 2023", ["date_range(2023-03-01, 2023-06-30)"]),
        # "around" a month or date; it carries over to months listed after it.
        ("the quarter ended around December 2022", ["date_range(2022-12-01, 2022-12-31, ±7d)"]),
        ("results near March 2023", ["date_range(2023-03-01, 2023-03-31, ±7d)"]),
        ("the quarter ending about June 30, 2023", ["date_range(2023-06-01, 2023-06-30, ±7d)"]),
        (
            "the quarters ended around December 2022 and March/April 2023",
            ["date_range(2022-12-01, 2022-12-31, ±7d)", "date_range(2023-03-01, 2023-04-30, ±7d)"],
        ),
        (
            "December 2022 and around March 2023",
            ["date_range(2022-12-01, 2022-12-31)", "date_range(2023-03-01, 2023-03-31, ±7d)"],
        ),
        # Years ended on a date are fiscal years.
        ("the year ended December 31, 2022", ["date_range(2022-12-01, 2022-12-31)[year]"]),
        ("for the fiscal year ended September 30, 2023", ["date_range(2023-09-01, 2023-09-30)[year]"]),
        ("the twelve months ended March 31, 2023", ["date_range(2023-03-01, 2023-03-31)[year]"]),
        (
            "the 12 months ending June 2023",
            ["date_range(2023-06-01, 2023-06-30)[year]"],
        ),
        ("the 52 weeks ended January 28, 2024", ["date_range(2024-01-01, 2024-01-31)[year]"]),
        (
            "the years ended December 31, 2022 and December 31, 2021",
            ["date_range(2022-12-01, 2022-12-31)[year]", "date_range(2021-12-01, 2021-12-31)[year]"],
        ),
        (
            "the years ended December 31, 2022 and 2021",
            ["date_range(2022-12-01, 2022-12-31)[year]", "fiscal_year(2021)"],
        ),
        ("fiscal years ending between June 2021 and June 2023", ["date_range(2021-06-01, 2023-06-30)[year]"]),
        # Calendar spans (the span flag is checked below); quarter words ask for quarters.
        ("revenue during 2023", ["date_range(2023-01-01, 2023-12-31)"]),
        ("revenue in calendar year 2023", ["date_range(2023-01-01, 2023-12-31)"]),
        ("revenue over the course of 2023", ["date_range(2023-01-01, 2023-12-31)"]),
        ("revenue throughout 2023", ["date_range(2023-01-01, 2023-12-31)"]),
        ("revenue in the 2023 calendar year", ["date_range(2023-01-01, 2023-12-31)"]),
        ("revenue during calendar 2023", ["date_range(2023-01-01, 2023-12-31)"]),
        ("revenue in CY2021-CY2023", ["date_range(2021-01-01, 2023-12-31)"]),
        ("revenue during 2022-2023", ["date_range(2022-01-01, 2023-12-31)"]),
        ("quarterly revenue during 2023", ["date_range(2023-01-01, 2023-12-31)[quarter]"]),
        ("each quarter over the course of 2023", ["date_range(2023-01-01, 2023-12-31)[quarter]"]),
        ("revenue during fiscal 2023", ["fiscal_year(2023)"]),
        ("revenue throughout FY2023", ["fiscal_year(2023)"]),
        # Periods by filing date.
        (
            "the first three fiscal quarters reported in 2023",
            ["reported(2023-01-01, 2023-12-31, first 3)[quarter]"],
        ),
        (
            "the first 3 quarters that were reported in 2023",
            ["reported(2023-01-01, 2023-12-31, first 3)[quarter]"],
        ),
        ("the first quarter reported in 2023", ["reported(2023-01-01, 2023-12-31, first 1)[quarter]"]),
        ("the quarters reported in 2023", ["reported(2023-01-01, 2023-12-31)[quarter]"]),
        ("the quarters filed during calendar 2023", ["reported(2023-01-01, 2023-12-31)[quarter]"]),
        ("the 10-Qs filed in 2023", ["reported(2023-01-01, 2023-12-31, first 3)[quarter]"]),
        ("results released in 2023", ["reported(2023-01-01, 2023-12-31)"]),
        ("quarterly results released in 2023", ["reported(2023-01-01, 2023-12-31)[quarter]"]),
        ("the annual report filed in 2023", ["reported(2023-01-01, 2023-12-31)[year]"]),
        ("results released in May 2023", ["reported(2023-05-01, 2023-05-31)[quarter]"]),
        ("as reported in the 2023 10-K", ["fiscal_year(2023)"]),
        ("as reported in 2023 annual report", ["fiscal_year(2023)"]),
        ("What did Apple report in 2023?", ["fiscal_year(2023)"]),
        # Counting 10-Qs, not calendar quarters.
        ("in their last three 10-Qs", ["last_quarters(3, 10-Q)"]),
        ("the 3 most recent 10-Qs", ["last_quarters(3, 10-Q)"]),
        ("its past two quarterly reports", ["last_quarters(2, 10-Q)"]),
        ("the last 3 quarters covered by their 10-Qs", ["last_quarters(3, 10-Q)"]),
        ("the last two 10-Ks", ["last_years(2)"]),
        ("the last 3 quarters, using the 10-Qs and the 10-K", ["last_quarters(3)"]),
        # N quarters counted back from a named month or quarter.
        ("the last three quarters through June 2024", ["last_quarters(3, through 2024-06)"]),
        ("the four quarters ended March 2023", ["last_quarters(4, through 2023-03)"]),
        (
            "the past 2 quarters, ending with the quarter ended July 1, 2023",
            ["last_quarters(2, through 2023-06)"],
        ),
        ("the last 4 quarters up to Q2 FY2023", ["quarter_range(2022Q3, 2023Q2)"]),
        ("the last 2 quarters and June 2023", ["last_quarters(2)", "date_range(2023-06-01, 2023-06-30)"]),
        # Q4 of a fiscal year is a quarter, never the year.
        ("the fourth quarter of fiscal 2024", ["fiscal_quarter(2024, 4)"]),
        ("Q4 FY2024", ["fiscal_quarter(2024, 4)"]),
        ("Q4 of fiscal year 2024", ["fiscal_quarter(2024, 4)"]),
        ("4Q FY24", ["fiscal_quarter(2024, 4)"]),
        ("fiscal 2024 fourth quarter", ["fiscal_quarter(2024, 4)"]),
        ("the fourth fiscal quarter of 2024", ["fiscal_quarter(2024, 4)"]),
    ],
)
def test_parse_calendar_phrases(question: str, expected: list[str]) -> None:
    assert [s.describe() for s in parse_time_phrases(question)] == expected


@pytest.mark.parametrize(
    ("question", "span"),
    [
        ("during 2023", True),
        ("in calendar 2023", True),
        ("over the course of 2023", True),
        ("CY2023", True),
        ("between January 2023 and December 2023", False),
        ("the quarter ended December 31, 2023", False),
    ],
)
def test_calendar_span_flag(question: str, span: bool) -> None:
    (spec,) = parse_time_phrases(question)
    assert spec.kind == "date_range" and spec.span is span


def test_exact_date_is_kept() -> None:
    (spec,) = parse_time_phrases("the quarter ended April 1, 2023")
    assert spec.day == date(2023, 4, 1) and spec.start_date == date(2023, 3, 1)
    (spec,) = parse_time_phrases("March/April 2023")
    assert spec.day is None


def test_new_spec_fields_round_trip_through_json() -> None:
    specs = parse_time_phrases(
        "the quarters ended around December 2022, the year ended December 31, 2022, during 2023, "
        "the first three fiscal quarters reported in 2023, the last three 10-Qs"
    )
    assert {s.kind for s in specs} == {"date_range", "reported", "last_quarters"}
    for spec in specs:
        assert TimeSpec.from_dict(json.loads(json.dumps(spec.to_dict()))) == spec


COMPARE_QUESTION = (
    "Compare Apple's and Microsoft's total revenue for the quarters ended around December 2022 and "
    "March/April 2023. Which company grew year over year in each quarter?"
)


@pytest.mark.parametrize(
    ("ticker", "expected"),
    [
        ("AAPL", ["Q1 FY2023", "Q2 FY2023"]),  # ended 2022-12-31 and 2023-04-01
        ("MSFT", ["Q2 FY2023", "Q3 FY2023"]),  # ended 2022-12-31 and 2023-03-31
        ("AMZN", ["Q4 FY2022", "FY2022", "Q1 FY2023"]),  # Q4 comes with its 10-K
    ],
)
def test_quarters_ended_around_months_use_actual_ends(ticker: str, expected: list[str]) -> None:
    labels, warnings = resolve(COMPARE_QUESTION, ticker)
    assert labels == expected
    assert not any("no fiscal quarter" in w for w in warnings)


def test_quarters_ended_around_without_stored_ends_use_nominal_months() -> None:
    assert labels_of(COMPARE_QUESTION, "AAPL", []) == ["Q1 FY2023", "Q2 FY2023"]
    assert labels_of(COMPARE_QUESTION, "MSFT", []) == ["Q2 FY2023", "Q3 FY2023"]


def test_month_without_a_period_end_is_warned_never_silently_replaced() -> None:
    # Nvidia's quarters end in late Jan/Apr/Jul/Oct: none ends in (or within a week of) December.
    labels, warnings = resolve(COMPARE_QUESTION, "NVDA")
    assert labels == ["Q4 FY2023", "FY2023", "Q1 FY2024"]
    assert (
        "no fiscal quarter of NVDA ends in Dec 2022 (±7 days); using Q4 FY2023, which contains it" in warnings
    )
    labels, warnings = resolve("the quarter ended around May 2023", "AAPL")
    assert labels == ["Q3 FY2023"]
    assert warnings == [
        "no fiscal quarter of AAPL ends in May 2023 (±7 days); using Q3 FY2023, which contains it"
    ]


@pytest.mark.parametrize(
    ("question", "ticker", "expected"),
    [
        # The actual end (April 1) is in April; the nominal month (March) matches too.
        ("the quarter ended in April 2023", "AAPL", ["Q2 FY2023"]),
        ("the quarter ended in March 2023", "AAPL", ["Q2 FY2023"]),
        ("April 2023", "AAPL", ["Q2 FY2023"]),
        ("the quarter ended April 1, 2023", "AAPL", ["Q2 FY2023"]),
        ("the quarter ended March 31, 2023", "AAPL", ["Q2 FY2023"]),
        ("the quarter ended March 31, 2023", "MSFT", ["Q3 FY2023"]),
        ("the quarter ended July 1, 2023", "AAPL", ["Q3 FY2023"]),
        ("the quarter ended July 2023", "AAPL", ["Q3 FY2023"]),
        (
            "quarters ending between June 2022 and June 2023",
            "AAPL",
            ["Q3 FY2022", "Q4 FY2022", "FY2022", "Q1 FY2023", "Q2 FY2023", "Q3 FY2023"],
        ),
        ("the quarter ended around May 2023", "NVDA", ["Q1 FY2024"]),  # ended 2023-04-30
        ("the quarter ended October 29, 2023", "NVDA", ["Q3 FY2024"]),
        ("the quarter ended about January 2023", "NVDA", ["Q4 FY2023", "FY2023"]),
    ],
)
def test_calendar_months_match_actual_or_nominal_ends(
    question: str, ticker: str, expected: list[str]
) -> None:
    assert labels_of(question, ticker) == expected


def test_exact_date_prefers_the_stored_end_within_a_week() -> None:
    # A 52/53-week year that ended on June 3: "May" nominally, but the date names it exactly.
    store = [filing("ORCL", "10-K", 2023, None, date(2023, 6, 3))]
    assert labels_of("the fiscal year ended June 3, 2023", "ORCL", store) == ["FY2023"]
    assert labels_of("the fiscal year ended June 1, 2023", "ORCL", store) == ["FY2023"]
    assert labels_of("the fiscal year ended May 31, 2023", "ORCL", []) == ["FY2023"]


@pytest.mark.parametrize(
    ("question", "ticker", "expected", "warning"),
    [
        ("the year ended December 31, 2022", "AMZN", ["FY2022"], None),
        ("the twelve months ended December 31, 2022", "AMZN", ["FY2022"], None),
        ("the fiscal year ended September 30, 2023", "AAPL", ["FY2023"], None),
        ("the year ended September 24, 2022", "AAPL", ["FY2022"], None),
        ("the fiscal year ended June 30, 2023", "MSFT", ["FY2023"], None),
        ("the fiscal year ended January 29, 2023", "NVDA", ["FY2023"], None),
        ("the 52 weeks ended January 28, 2024", "NVDA", ["FY2024"], None),
        (
            "the years ended December 31, 2022 and December 31, 2023",
            "AMZN",
            ["FY2022", "FY2023"],
            None,
        ),
        # No fiscal year ends then: warned, the fiscal year containing the month is used.
        (
            "the year ended December 31, 2022",
            "NVDA",
            ["FY2023"],
            "no fiscal year of NVDA ends in Dec 2022; using FY2023, which contains Dec 2022",
        ),
        # Twelve months ended off the year end: the four quarters ending then.
        (
            "the twelve months ended March 31, 2023",
            "MSFT",
            ["Q4 FY2022", "Q1 FY2023", "Q2 FY2023", "Q3 FY2023"],
            "read as the four quarters Q4 FY2022 to Q3 FY2023",
        ),
    ],
)
def test_years_ended_are_fiscal_years(
    question: str, ticker: str, expected: list[str], warning: str | None
) -> None:
    labels, warnings = resolve(question, ticker)
    assert labels == expected
    assert not any(w.startswith("no 10-Q") for w in warnings)
    if warning:
        assert any(warning in w for w in warnings), warnings


@pytest.mark.parametrize(
    ("question", "ticker", "expected"),
    [
        # Fiscal years mostly inside the calendar year (Microsoft's half-and-half year ends inside it).
        ("revenue during 2023", "AAPL", ["FY2023"]),
        ("revenue during 2023", "MSFT", ["FY2023"]),
        ("revenue during 2023", "NVDA", ["FY2024"]),
        ("revenue during 2023", "AMZN", ["FY2023"]),
        ("revenue in calendar 2023", "NVDA", ["FY2024"]),
        ("revenue over the course of 2022", "NVDA", ["FY2023"]),
        ("revenue during 2022-2023", "MSFT", ["FY2022", "FY2023"]),
        # Quarters with at least two of their three months inside it.
        (
            "quarterly revenue during 2023",
            "AAPL",
            ["Q2 FY2023", "Q3 FY2023", "Q4 FY2023", "FY2023", "Q1 FY2024"],
        ),
        (
            "each quarter of calendar 2023",
            "NVDA",
            ["Q1 FY2024", "Q2 FY2024", "Q3 FY2024", "Q4 FY2024", "FY2024"],
        ),
        (
            "quarterly revenue during 2023",
            "AMZN",
            ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023", "Q4 FY2023", "FY2023"],
        ),
    ],
)
def test_calendar_spans(question: str, ticker: str, expected: list[str]) -> None:
    assert labels_of(question, ticker) == expected


def test_calendar_span_says_which_fiscal_year_it_read() -> None:
    assert resolve("revenue during 2023", "NVDA")[1] == [
        "calendar 2023 read as NVDA FY2024 (Feb 2023 to Jan 2024): the fiscal years mostly inside it"
    ]
    assert resolve("revenue during 2023", "AMZN")[1] == []


@pytest.mark.parametrize(
    ("question", "ticker", "expected"),
    [
        ("the first three fiscal quarters reported in 2023", "NVDA", ["Q1 FY2024", "Q2 FY2024", "Q3 FY2024"]),
        ("the first three fiscal quarters reported in 2023", "AAPL", ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023"]),
        ("the first three fiscal quarters reported in 2023", "MSFT", ["Q2 FY2023", "Q3 FY2023", "Q1 FY2024"]),
        ("the first three fiscal quarters reported in 2023", "AMZN", ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023"]),
        (
            "the quarters reported in 2023",
            "NVDA",
            ["Q4 FY2023", "FY2023", "Q1 FY2024", "Q2 FY2024", "Q3 FY2024"],
        ),
        ("the 10-Qs filed in 2023", "MSFT", ["Q2 FY2023", "Q3 FY2023", "Q1 FY2024"]),
        ("the annual report filed in 2023", "AMZN", ["FY2022"]),
        ("the annual report filed in 2023", "NVDA", ["FY2023"]),
        ("results released in May 2023", "NVDA", ["Q1 FY2024"]),  # filed 2023-05-26
    ],
)
def test_reported_in_uses_filing_dates(question: str, ticker: str, expected: list[str]) -> None:
    assert labels_of(question, ticker) == expected


@pytest.mark.parametrize("ticker", ["AAPL", "MSFT", "NVDA"])
def test_reported_in_estimates_filing_dates_when_not_stored(ticker: str) -> None:
    question = "the first three fiscal quarters reported in 2023"
    assert labels_of(question, ticker, without_filing_dates(REAL[ticker])) == labels_of(question, ticker)


def test_stored_filing_date_beats_the_estimate() -> None:
    # Estimated 2023-06-14 (end + 45 days); filed 2023-05-26.
    assert labels_of("results released in May 2023", "NVDA") == ["Q1 FY2024"]
    labels, warnings = resolve("results released in May 2023", "NVDA", without_filing_dates(NVDA_REAL))
    assert labels == [] and warnings == ["no quarter of NVDA was reported in May 2023"]


def test_estimated_filing_date_near_the_edge_is_warned() -> None:
    # A quarter ended 2023-11-18 is estimated to be filed 2024-01-02, two days after 2023 ends.
    store = [filing("AAPL", "10-Q", 2024, 1, date(2023, 11, 18))]
    labels, warnings = resolve("the first fiscal quarter reported in 2023", "AAPL", store)
    assert "Q1 FY2024" not in labels
    assert any("estimated 2024-01-02 (period end + 45 days), near the edge of 2023" in w for w in warnings)


def test_last_10qs_count_quarters_with_a_10q() -> None:
    # Apple's newest three 10-Qs skip Q4 FY2023 (reported in the 10-K).
    for question in ("in their last three 10-Qs", "the last 3 quarters covered by their 10-Qs"):
        assert labels_of(question, "AAPL") == ["Q2 FY2023", "Q3 FY2023", "Q1 FY2024"]
        assert labels_of(question, "AAPL", kinds=frozenset({"10-Q"})) == [
            "Q2 FY2023",
            "Q3 FY2023",
            "Q1 FY2024",
        ]
        assert labels_of(question, "NVDA") == ["Q1 FY2024", "Q2 FY2024", "Q3 FY2024"]
    # Calendar quarters when the question is not about 10-Qs alone.
    assert labels_of("the last 3 quarters", "AAPL") == ["Q3 FY2023", "Q4 FY2023", "FY2023", "Q1 FY2024"]


def test_last_10qs_missing_ones_are_counted_back_without_q4() -> None:
    store = [filing("AAPL", "10-Q", 2024, 1, date(2023, 12, 30))]
    labels, warnings = resolve("the last three 10-Qs", "AAPL", store)
    assert labels == ["Q2 FY2023", "Q3 FY2023", "Q1 FY2024"]
    assert "no 10-Q for AAPL Q2 FY2023 in the store" in warnings


@pytest.mark.parametrize(
    ("question", "ticker", "expected"),
    [
        ("the last three quarters through June 2023", "AAPL", ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023"]),
        ("the last three quarters through March 2023", "MSFT", ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023"]),
        ("the three quarters ended October 2023", "NVDA", ["Q1 FY2024", "Q2 FY2024", "Q3 FY2024"]),
        ("the last three 10-Qs through December 2023", "AAPL", ["Q2 FY2023", "Q3 FY2023", "Q1 FY2024"]),
    ],
)
def test_last_quarters_through_a_month(question: str, ticker: str, expected: list[str]) -> None:
    assert labels_of(question, ticker) == expected


@pytest.mark.parametrize(
    "phrase", ["the fourth quarter of fiscal 2024", "Q4 FY2024", "fiscal 2024 fourth quarter"]
)
def test_fourth_quarter_stays_a_quarter(phrase: str) -> None:
    labels, warnings = resolve(phrase, "NVDA")
    assert labels == ["Q4 FY2024", "FY2024"]  # the 10-K rides along as the Q4 report
    assert labels[0] == "Q4 FY2024" and any("Q4 is reported in the FY2024 10-K" in w for w in warnings)
    assert labels_of(phrase, "NVDA", [doc("NVDA", "transcript", 2024, 4), *NVDA_REAL]) == ["Q4 FY2024"]


def test_filing_date_column_is_optional() -> None:
    rows = [
        ("AAPL", "10-Q", 2023, 2, date(2023, 4, 1), date(2023, 4, 1), 1),
        ("AAPL", "10-K", 2023, None, date(2023, 9, 30), date(2023, 9, 30), 1, date(2023, 11, 3)),
    ]
    periods = _periods_by_ticker(rows, ["AAPL"])["AAPL"]
    assert [p.filed for p in periods] == [None, date(2023, 11, 3)]


# -- XBRL facts: available for named periods, never an anchor --------------------------------------
def facts(ticker: str, fiscal_year: int, quarter: int | None, period_end: date) -> AvailablePeriod:
    return AvailablePeriod(ticker, "facts", fiscal_year, quarter, period_end, 1, period_end)


# Apple's FY2023 10-Qs and 10-K, whose comparative columns report FY2022 periods as facts.
AAPL_WITH_FACTS = [
    *AAPL_REAL[2:6],
    facts("AAPL", 2022, 1, date(2021, 12, 25)),
    facts("AAPL", 2022, 2, date(2022, 3, 26)),
    facts("AAPL", 2022, 3, date(2022, 6, 25)),
    facts("AAPL", 2022, None, date(2022, 9, 24)),
    facts("AAPL", 2023, 3, date(2023, 7, 1)),
    facts("AAPL", 2023, None, date(2023, 9, 30)),
]


def test_facts_make_named_periods_available() -> None:
    result = resolve_periods(
        parse_time_phrases("FY2022 vs Q2 FY2022"), cal("AAPL"), AAPL_WITH_FACTS, today=TODAY
    )
    assert [(p.label, p.kinds, p.available) for p in result.periods] == [
        ("Q2 FY2022", ["facts"], True),
        ("FY2022", ["facts"], True),
    ]
    assert result.warnings == []
    q3 = resolve_periods(parse_time_phrases("Q3 FY2023"), cal("AAPL"), AAPL_WITH_FACTS, today=TODAY)
    assert q3.periods[0].kinds == ["10-Q", "facts"]


def test_facts_period_ends_match_calendar_phrases() -> None:
    # Only facts date Apple's quarter ended 2022-06-25; the exact date finds it.
    labels, warnings = resolve("the quarter ended June 25, 2022", "AAPL", AAPL_WITH_FACTS)
    assert labels == ["Q3 FY2022"] and warnings == []
    assert labels_of("the year ended September 24, 2022", "AAPL", AAPL_WITH_FACTS) == ["FY2022"]


def test_facts_are_not_anchors() -> None:
    newer_facts = [*AAPL_WITH_FACTS, facts("AAPL", 2024, 1, date(2023, 12, 30))]
    assert labels_of("", "AAPL", newer_facts) == ["FY2023"]  # latest: the 10-K, not the facts
    # the 10-K's fourth quarter (its year is read along to derive it), not the facts' Q1 FY2024
    assert labels_of("the latest quarter", "AAPL", newer_facts) == ["Q4 FY2023", "FY2023"]
    assert labels_of("the latest 10-Q", "AAPL", newer_facts, kinds=frozenset({"10-Q"})) == ["Q3 FY2023"]
    assert labels_of("the last 2 quarters", "AAPL", newer_facts) == ["Q3 FY2023", "Q4 FY2023", "FY2023"]
    across = labels_of("How did revenue change across these quarters?", "AAPL", newer_facts)
    assert across == ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023"]  # comparative columns add no quarters


def test_facts_do_not_trigger_the_calendar_reading() -> None:
    store = [doc("MSFT", "10-Q", 2023, 1), facts("MSFT", 2023, 3, date(2023, 3, 31))]
    assert labels_of("Q1 2023", "MSFT", store) == ["Q1 FY2023"]


def test_facts_do_not_count_as_an_earlier_report() -> None:
    store = [facts("AAPL", 2022, None, date(2022, 9, 24))]
    result = resolve_periods(parse_time_phrases("FY2023"), cal("AAPL"), store, today=TODAY)
    assert not result.periods[0].available
    assert nearest_earlier_report(result.periods, store) is None
    store = [*store, doc("AAPL", "10-K", 2021, None)]
    assert nearest_earlier_report(result.periods, store) == TimeSpec.fiscal_year(2021)


def test_facts_q4_and_the_10k_companion() -> None:
    q4_facts = [facts("AAPL", 2023, 4, date(2023, 9, 30))]
    assert resolve("Q4 FY2023", "AAPL", q4_facts) == (["Q4 FY2023"], [])
    labels, warnings = resolve("Q4 FY2023", "AAPL", [*q4_facts, *AAPL_REAL])
    assert labels == ["Q4 FY2023", "FY2023"] and any(
        "Q4 is reported in the FY2023 10-K" in w for w in warnings
    )


def test_facts_survive_narrowing_to_filings_only() -> None:
    assert labels_of("FY2022", "AAPL", AAPL_WITH_FACTS, frozenset({"10-Q", "10-K"})) == ["FY2022"]
    narrowed = resolve_periods(
        parse_time_phrases("FY2022"), cal("AAPL"), AAPL_WITH_FACTS, today=TODAY, kinds=frozenset({"10-K"})
    )
    assert narrowed.periods[0].available and narrowed.warnings == []
    transcripts = [*AAPL_WITH_FACTS, doc("AAPL", "transcript", 2023, 3)]
    calls = resolve_periods(
        parse_time_phrases("FY2022"), cal("AAPL"), transcripts, today=TODAY, kinds=frozenset({"transcript"})
    )
    assert not calls.periods[0].available


def test_time_phrases_that_follow_a_company_belong_to_it() -> None:
    from finagent.finance.periods import specs_per_company

    question = (
        "Compare Walmart's total revenues for the fiscal year ended January 31, 2025 "
        "with Home Depot's net sales for fiscal 2024."
    )
    owned = specs_per_company(
        parse_time_phrases(question), {"WMT": [8], "HD": [question.index("Home Depot")]}
    )
    assert owned is not None
    assert [s.describe() for s in owned["WMT"]] == ["date_range(2025-01-01, 2025-01-31)[year]"]
    assert [s.describe() for s in owned["HD"]] == ["fiscal_year(2024)"]
    # one set of periods named after both companies applies to both
    shared = "Compare Apple's and Microsoft's revenue in Q1 FY2023 and Q2 FY2023."
    assert (
        specs_per_company(parse_time_phrases(shared), {"AAPL": [8], "MSFT": [shared.index("Microsoft")]})
        is None
    )


def test_the_latest_quarter_when_the_10k_is_newest_is_its_fourth_quarter() -> None:
    """ "The latest quarter" of a company whose 10-K is newer than its 10-Qs is the 10-K's fourth
    quarter, not the whole year; with no period named, the latest report (the year) still answers."""
    store = [*AAPL_FY23, doc("AAPL", "10-K", 2023, None, date(2023, 9, 30))]
    specs = parse_time_phrases("What was Apple's revenue in its latest quarter?")
    asked = resolve_periods(specs, cal("AAPL"), store, today=TODAY)
    assert [p.label for p in asked.periods] == ["Q4 FY2023", "FY2023"]  # the year derives Q4
    plain = resolve_periods([], cal("AAPL"), store, today=TODAY, prefer="quarter")
    assert [p.label for p in plain.periods] == ["FY2023"]


def test_the_first_quarters_of_a_fiscal_year_are_those_quarters_only() -> None:
    specs = parse_time_phrases("Apple's revenue in the first three quarters of fiscal 2023")
    result = resolve_periods(specs, cal("AAPL"), AAPL, today=TODAY)
    assert [p.label for p in result.periods] == ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023"]
