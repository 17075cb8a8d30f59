"""The pure figures domain: metric vocabulary, period-true fact selection, derived quarters, comparisons."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from finagent.finance.compare import Cell, Wanted, compare
from finagent.finance.derive import FY_MINUS_9M, YTD_DIFFERENCE, derive_quarters, not_derivable
from finagent.finance.facts import Fact, FiscalCalendar, StoredFact, duration_class, fiscal_label
from finagent.finance.lookup import PeriodWanted, restatements_of, select
from finagent.finance.metrics import BY_NAME, computed_in, metrics_in
from finagent.finance.numbers import contains_number, printed_forms

REV = "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
APPLE = FiscalCalendar(9)


def stored(
    id_: int,
    value: str,
    start: date | None,
    end: date,
    *,
    concept: str = REV,
    unit: str = "USD",
    filing: str = "AAPL|10-K|2024-09-28",
    filed: date | None = None,
    statement: str | None = "income_statement",
    derived: bool = False,
    calendar: FiscalCalendar = APPLE,
    decimals: int | None = -6,
) -> StoredFact:
    fact = Fact(concept, Decimal(value), unit, decimals, start, end).in_calendar(calendar)
    return StoredFact(
        id=id_,
        ticker="AAPL",
        concept=concept,
        value=fact.value,
        unit=unit,
        decimals=decimals,
        period_start=start,
        period_end=end,
        duration=fact.duration,
        fiscal_year=fact.fiscal_year,
        fiscal_quarter=fact.fiscal_quarter,
        filing_key=filing,
        filing_period_end=date.fromisoformat(filing.split("|")[-1]),
        filed_at=filed,
        statement=statement,
        derived=derived,
    )


# -- periods of facts ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        (None, date(2024, 9, 28), "instant"),
        (date(2024, 3, 31), date(2024, 6, 29), "quarter"),
        (date(2023, 10, 1), date(2024, 3, 30), "six_months"),
        (date(2023, 10, 1), date(2024, 6, 29), "nine_months"),
        (date(2023, 10, 1), date(2024, 9, 28), "year"),
        (date(2022, 9, 25), date(2023, 9, 30), "year"),  # a 53-week year
        (date(2024, 1, 1), date(2024, 2, 15), "other"),
    ],
)
def test_duration_classes(start: date | None, end: date, expected: str) -> None:
    assert duration_class(start, end) == expected


def test_fiscal_label_from_the_facts_own_dates() -> None:
    q3 = Fact(REV, Decimal(1), "USD", -6, date(2023, 4, 2), date(2023, 7, 1)).in_calendar(APPLE)
    assert q3.period_label == "Q3 FY2023"
    nine = Fact(REV, Decimal(1), "USD", -6, date(2022, 9, 25), date(2023, 7, 1)).in_calendar(APPLE)
    assert nine.period_label == "9M FY2023"
    home_depot = FiscalCalendar(1, -1)
    year = Fact(REV, Decimal(1), "USD", -6, date(2024, 2, 5), date(2025, 2, 2)).in_calendar(home_depot)
    assert year.period_label == "FY2024"
    assert fiscal_label(2024, 4, "instant") == "FY2024 end"
    assert fiscal_label(2024, 2, "instant") == "Q2 FY2024 end"


# -- vocabulary --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("question", "metrics"),
    [
        ("What were Amazon's total net sales in fiscal year 2024?", ["revenue"]),
        (
            "Compare the cost of sales and gross margin of Apple",
            ["cost_of_revenue", "gross_profit", "revenue"],
        ),
        ("How much did Microsoft earn in FY2023?", ["net_income"]),
        ("operating income and net income of NVIDIA", ["operating_income", "net_income"]),
        ("Apple diluted EPS versus basic EPS", ["eps_diluted", "eps_basic"]),
        ("What did management say on the earnings call about demand?", []),
        ("Salesforce subscription outlook", []),
        ("free cash flow of Amazon", ["operating_cash_flow", "capex"]),
    ],
)
def test_metrics_named_by_a_question(question: str, metrics: list[str]) -> None:
    assert metrics_in(question) == metrics


def test_computed_metrics_bring_their_inputs() -> None:
    assert computed_in("What was Nike's operating margin?") == ["operating_margin"]
    assert metrics_in("What was Nike's operating margin?") == ["operating_income", "revenue"]
    assert computed_in("Apple revenue in FY2023") == []


# -- selection -----------------------------------------------------------------------------------------------
def test_select_reads_the_period_not_the_position() -> None:
    facts = [
        stored(1, "391035000000", date(2023, 10, 1), date(2024, 9, 28)),
        stored(2, "383285000000", date(2022, 9, 25), date(2023, 9, 30)),
        stored(3, "394328000000", date(2021, 9, 26), date(2022, 9, 24)),
    ]
    chosen = select(facts, BY_NAME["revenue"], PeriodWanted(2023))
    assert chosen is not None and chosen.fact.value == Decimal("383285000000")
    assert select(facts, BY_NAME["revenue"], PeriodWanted(2021)) is None
    assert select(facts, BY_NAME["revenue"], PeriodWanted(2024, 4)) is None  # a year is not a quarter


def test_the_concept_the_statement_displays_wins() -> None:
    other = stored(
        1, "400000000000", date(2023, 10, 1), date(2024, 9, 28), concept="us-gaap:Revenues", statement=None
    )
    shown = stored(2, "391035000000", date(2023, 10, 1), date(2024, 9, 28))
    chosen = select([other, shown], BY_NAME["revenue"], PeriodWanted(2024))
    assert chosen is not None and chosen.fact.id == 2
    # without display information the vocabulary's order decides
    plain = [
        stored(3, "1", date(2023, 10, 1), date(2024, 9, 28), concept="us-gaap:Revenues", statement=None),
        other,
    ]
    chosen = select(plain, BY_NAME["revenue"], PeriodWanted(2024))
    assert chosen is not None and chosen.fact.concept == "us-gaap:Revenues"


def test_restatements_latest_by_default_original_as_reported() -> None:
    original = stored(
        1,
        "100000000",
        date(2022, 1, 1),
        date(2022, 12, 31),
        filing="X|10-K|2022-12-31",
        calendar=FiscalCalendar(12),
    )
    restated = stored(
        2,
        "90000000",
        date(2022, 1, 1),
        date(2022, 12, 31),
        filing="X|10-K|2023-12-31",
        calendar=FiscalCalendar(12),
    )
    latest = select([original, restated], BY_NAME["revenue"], PeriodWanted(2022))
    first = select([original, restated], BY_NAME["revenue"], PeriodWanted(2022), as_reported=True)
    assert latest is not None and latest.fact.id == 2 and len(latest.restatements) == 1
    assert first is not None and first.fact.id == 1
    # a difference within rounding is no restatement
    same = stored(
        3,
        "100000100",
        date(2022, 1, 1),
        date(2022, 12, 31),
        filing="X|10-K|2023-12-31",
        calendar=FiscalCalendar(12),
    )
    assert restatements_of([original, same]) == []


def test_balances_are_read_at_the_period_end() -> None:
    assets = BY_NAME["total_assets"]
    q3 = stored(
        1, "331612000000", None, date(2024, 6, 29), concept="us-gaap:Assets", statement="balance_sheet"
    )
    year = stored(
        2, "364980000000", None, date(2024, 9, 28), concept="us-gaap:Assets", statement="balance_sheet"
    )
    chosen = select([q3, year], assets, PeriodWanted(2024))
    assert chosen is not None and chosen.fact.id == 2
    chosen = select([q3, year], assets, PeriodWanted(2024, 3))
    assert chosen is not None and chosen.fact.id == 1


# -- derived quarters ---------------------------------------------------------------------------------------
def test_q4_is_the_year_minus_nine_months() -> None:
    year = stored(1, "391035000000", date(2023, 10, 1), date(2024, 9, 28))
    nine = stored(2, "296105000000", date(2023, 10, 1), date(2024, 6, 29), filing="AAPL|10-Q|2024-06-29")
    derived = derive_quarters([year, nine])
    assert len(derived) == 1
    q4 = derived[0]
    assert q4.value == Decimal("94930000000") and q4.derivation == FY_MINUS_9M
    assert (q4.fiscal_year, q4.fiscal_quarter, q4.duration) == (2024, 4, "quarter")
    assert q4.period_start == date(2024, 6, 30) and q4.inputs == (1, 2)


def test_quarters_from_year_to_date_differences_and_what_is_not_derivable() -> None:
    q1 = stored(1, "30", date(2023, 10, 1), date(2023, 12, 30), filing="AAPL|10-Q|2023-12-30")
    six = stored(2, "50", date(2023, 10, 1), date(2024, 3, 30), filing="AAPL|10-Q|2024-03-30")
    nine = stored(3, "80", date(2023, 10, 1), date(2024, 6, 29), filing="AAPL|10-Q|2024-06-29")
    derived = {(d.fiscal_quarter, d.value) for d in derive_quarters([q1, six, nine])}
    assert derived == {(2, Decimal(20)), (3, Decimal(30))}
    assert all(d.derivation == YTD_DIFFERENCE for d in derive_quarters([q1, six, nine]))
    eps_year = stored(4, "6.08", date(2023, 10, 1), date(2024, 9, 28), unit="USD/shares", decimals=2)
    eps_nine = stored(5, "4.45", date(2023, 10, 1), date(2024, 6, 29), unit="USD/shares", decimals=2)
    assert derive_quarters([eps_year, eps_nine]) == []
    assert "per-share" in (not_derivable("USD/shares", "quarter") or "")
    assert "share counts" in (not_derivable("shares", "quarter") or "")
    assert not_derivable("USD", "quarter") is None
    # a quarter a filing reports itself is never replaced by a derivation
    reported = stored(6, "94930000000", date(2024, 6, 30), date(2024, 9, 28))
    year = stored(1, "391035000000", date(2023, 10, 1), date(2024, 9, 28))
    nine2 = stored(2, "296105000000", date(2023, 10, 1), date(2024, 6, 29))
    assert derive_quarters([year, nine2, reported]) == []


# -- comparisons ---------------------------------------------------------------------------------------------
def cell(
    ticker: str, period: str, year: int, quarter: int | None, end: date, value: str, role: str = "target"
) -> Cell:
    return Cell(ticker, "revenue", period, year, quarter, end, Decimal(value), "USD", 6, ("10Q1",), role)


def test_year_over_year_uses_the_same_fiscal_quarter_a_year_earlier() -> None:
    cells = [
        cell("AAPL", "Q2 FY2023", 2023, 2, date(2023, 4, 1), "94836000000"),
        cell("AAPL", "Q1 FY2023", 2023, 1, date(2022, 12, 31), "117154000000"),
        cell("AAPL", "Q2 FY2022", 2022, 2, date(2022, 3, 26), "97278000000", "comparative"),
        cell("AAPL", "Q1 FY2022", 2022, 1, date(2021, 12, 25), "123945000000", "comparative"),
        cell("MSFT", "Q3 FY2023", 2023, 3, date(2023, 3, 31), "52857000000"),
        cell("MSFT", "Q3 FY2022", 2022, 3, date(2022, 3, 31), "49360000000", "comparative"),
    ]
    result = compare(cells, Wanted.from_question("Which company grew year over year in each quarter?"))
    yoy = {
        (c["ticker"], c["to_period"]): (c["from_period"], round(c["result"], 1))
        for c in result.calculations
        if c["kind"] == "yoy"
    }
    assert yoy == {
        ("AAPL", "Q1 FY2023"): ("Q1 FY2022", -5.5),
        ("AAPL", "Q2 FY2023"): ("Q2 FY2022", -2.5),
        ("MSFT", "Q3 FY2023"): ("Q3 FY2022", 7.1),
    }
    # Apple's quarter ended 2023-04-01 and Microsoft's ended 2023-03-31 are the same calendar quarter
    assert any(r["periods"] == {"AAPL": "Q2 FY2023", "MSFT": "Q3 FY2023"} for r in result.ranks)
    assert all(c["expression"].startswith(("growth(", "diff(")) for c in result.calculations)


def test_margins_and_ranks_are_computed() -> None:
    cells = [
        Cell(
            "A",
            "gross_profit",
            "FY2024",
            2024,
            None,
            date(2024, 12, 31),
            Decimal("40000000"),
            "USD",
            6,
            ("10K1",),
        ),
        Cell(
            "A",
            "revenue",
            "FY2024",
            2024,
            None,
            date(2024, 12, 31),
            Decimal("100000000"),
            "USD",
            6,
            ("10K1",),
        ),
        Cell(
            "B",
            "revenue",
            "FY2024",
            2024,
            None,
            date(2024, 12, 31),
            Decimal("150000000"),
            "USD",
            6,
            ("10K2",),
        ),
    ]
    result = compare(cells, Wanted.from_question("Which company had the highest revenue?"), ["gross_margin"])
    margin = next(c for c in result.calculations if c["kind"] == "gross_margin")
    assert margin["result"] == pytest.approx(40.0) and margin["unit"] == "percent"
    rank = next(r for r in result.ranks if r["metric"] == "revenue")
    assert rank["order"] == ["B", "A"]
    assert not [c for c in result.calculations if c["kind"] == "difference"]  # not asked
    asked = compare(cells, Wanted.from_question("How much more revenue did B have than A?"))
    difference = next(c for c in asked.calculations if c["kind"] == "difference")
    assert difference["result"] == pytest.approx(50.0) and difference["unit"] == "USD millions"


# -- printed numbers --------------------------------------------------------------------------------
def test_printed_forms_follow_the_reported_precision() -> None:
    assert printed_forms(Decimal("383285000000"), -6)[0] == "383,285"
    assert printed_forms(Decimal("94900000000"), -8)[0] == "94.9"
    assert printed_forms(Decimal("6.13"), 2) == ["6.13"]
    assert printed_forms(Decimal("1234000"), -3)[0] == "1,234"
    assert contains_number("Total net sales | 383,285 | 394,328", "383,285")
    assert not contains_number("81,797", "1,797")
    assert not contains_number("383,2851", "383,285")


def test_the_first_quarter_is_six_months_minus_the_second() -> None:
    """A Q2 10-Q states the second quarter and the half year: the first quarter follows."""
    six = stored(1, "219659000000", date(2024, 9, 29), date(2025, 3, 29), filing="AAPL|10-Q|2025-03-29")
    q2 = stored(2, "95359000000", date(2024, 12, 29), date(2025, 3, 29), filing="AAPL|10-Q|2025-03-29")
    (q1,) = derive_quarters([six, q2])
    assert (q1.fiscal_year, q1.fiscal_quarter, q1.value) == (2025, 1, Decimal("124300000000"))
    assert (q1.period_start, q1.period_end) == (date(2024, 9, 29), date(2024, 12, 28))
