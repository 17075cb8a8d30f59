"""Time phrases -> fiscal periods, table-driven across fiscal calendars and store contents."""

from __future__ import annotations

import asyncio
import json
from datetime import date

import psycopg
import pytest

from finagent.agent.periods import (
    AvailablePeriod,
    CompanyCalendar,
    TimeSpec,
    aload_available_periods,
    calendar_for,
    load_available_periods,
    named_kinds,
    parse_time_phrases,
    preferred_granularity,
    resolve_periods,
)
from finagent.companies import lookup_builtin
from finagent.db import Database
from finagent.db.companies import StoredCompany
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
