"""FiscalPeriod labels, parsing and order, and FiscalCalendar end dates and its state form."""

from __future__ import annotations

import json
from datetime import date

import pytest

from finagent.finance.fiscal import quarter_label
from finagent.finance.periods import FiscalCalendar, FiscalPeriod, Span, period_label


@pytest.mark.parametrize(
    ("period", "label"),
    [
        (FiscalPeriod.of_quarter(2023, 3), "Q3 FY2023"),
        (FiscalPeriod.of_quarter(2025, 1), "Q1 FY2025"),
        (FiscalPeriod.of_quarter(2024, 4), "Q4 FY2024"),
        (FiscalPeriod.year(2024), "FY2024"),
        (FiscalPeriod.first_half(2025), "6M FY2025"),
        (FiscalPeriod.nine_months(2025), "9M FY2025"),
    ],
)
def test_label_round_trip(period: FiscalPeriod, label: str) -> None:
    assert period.label == label == str(period)
    assert FiscalPeriod.parse(label) == period
    assert FiscalPeriod.from_label(label) == period


def test_every_span_round_trips() -> None:
    for span in Span:
        period = FiscalPeriod(2021, span)
        assert FiscalPeriod.parse(period.label) == period


def test_first_half_also_reads_h1() -> None:
    assert FiscalPeriod.parse("H1 FY2025") == FiscalPeriod.first_half(2025)


@pytest.mark.parametrize("text", ["", "undated", "Q5 FY2023", "FY23", "Q3 2023", "FY2024 end", "q3 fy2023"])
def test_not_a_label(text: str) -> None:
    assert FiscalPeriod.from_label(text) is None
    with pytest.raises(ValueError, match="not a fiscal period label"):
        FiscalPeriod.parse(text)


def test_leading_label_of_a_balance_or_other_span() -> None:
    assert FiscalPeriod.leading("Q3 FY2023 end") == FiscalPeriod.of_quarter(2023, 3)
    assert FiscalPeriod.leading("FY2024 (other span)") == FiscalPeriod.year(2024)
    assert FiscalPeriod.leading("stub Jul 22-Sep 30, 2010") is None


def test_quarter_label_keeps_the_citation_form() -> None:
    assert quarter_label(2025, 1) == period_label(2025, 1) == "Q1 FY2025"
    assert quarter_label(2024, None) == "FY2024"
    assert quarter_label(None, 3) == "undated"


def test_order_puts_a_year_after_its_quarters_and_spans_after_their_quarter() -> None:
    labels = [
        "FY2023",
        "Q4 FY2023",
        "9M FY2023",
        "Q3 FY2023",
        "6M FY2023",
        "Q2 FY2023",
        "Q1 FY2023",
        "Q4 FY2022",
    ]
    ordered = sorted(FiscalPeriod.parse(label) for label in labels)
    assert [p.label for p in ordered] == [
        "Q4 FY2022", "Q1 FY2023", "Q2 FY2023", "6M FY2023", "Q3 FY2023", "9M FY2023", "Q4 FY2023", "FY2023",
    ]  # fmt: skip
    assert FiscalPeriod.year(2022) < FiscalPeriod.of_quarter(2023, 1)
    assert max(FiscalPeriod.year(2023), FiscalPeriod.of_quarter(2023, 4)) == FiscalPeriod.year(2023)


def test_steps_and_parts() -> None:
    q3 = FiscalPeriod.of_quarter(2023, 3)
    assert q3.previous_year() == FiscalPeriod.of_quarter(2022, 3)
    assert q3.full_year() == FiscalPeriod.year(2023)
    assert (q3.quarter, q3.is_quarter, q3.is_year, q3.key) == (3, True, False, (2023, 3))
    year = FiscalPeriod.year(2024)
    assert (year.quarter, year.is_quarter, year.is_year, year.key) == (None, False, True, (2024, None))
    assert FiscalPeriod.nine_months(2025).quarter is None
    assert FiscalPeriod.of(2024, None) == year and FiscalPeriod.of(2023, 3) == q3
    with pytest.raises(ValueError, match=r"1\.\.4"):
        FiscalPeriod.of_quarter(2023, 5)


DECEMBER = FiscalCalendar(12)
APPLE = FiscalCalendar(9)
WALMART = FiscalCalendar(1, -1)  # a retailer naming the year ended 2025-01-31 FY2024


@pytest.mark.parametrize(
    ("calendar", "period", "end"),
    [
        (DECEMBER, FiscalPeriod.of_quarter(2023, 3), date(2023, 9, 30)),
        (DECEMBER, FiscalPeriod.year(2024), date(2024, 12, 31)),
        (DECEMBER, FiscalPeriod.first_half(2025), date(2025, 6, 30)),
        (APPLE, FiscalPeriod.of_quarter(2023, 1), date(2022, 12, 31)),
        (APPLE, FiscalPeriod.of_quarter(2023, 3), date(2023, 6, 30)),
        (APPLE, FiscalPeriod.year(2023), date(2023, 9, 30)),
        (APPLE, FiscalPeriod.nine_months(2023), date(2023, 6, 30)),
        (WALMART, FiscalPeriod.year(2024), date(2025, 1, 31)),
        (WALMART, FiscalPeriod.of_quarter(2024, 1), date(2024, 4, 30)),
        (FiscalCalendar(1), FiscalPeriod.year(2024), date(2024, 1, 31)),  # Nvidia names the year it ends in
    ],
)
def test_end_dates(calendar: FiscalCalendar, period: FiscalPeriod, end: date) -> None:
    assert calendar.end_of(period) == end
    if period.is_quarter:
        assert calendar.quarter_end(*period.key) == end  # type: ignore[arg-type]
        assert calendar.quarter_of(end) == period


def test_start_dates() -> None:
    assert APPLE.start_of(FiscalPeriod.year(2023)) == date(2022, 10, 1)
    assert APPLE.start_of(FiscalPeriod.nine_months(2023)) == date(2022, 10, 1)
    assert WALMART.start_of(FiscalPeriod.of_quarter(2024, 1)) == date(2024, 2, 1)


def test_52_53_week_ends_close_the_previous_month() -> None:
    # Apple's quarter "ending June" ended on 2023-07-01; its FY2023 on 2023-09-30, FY2022 on 2022-09-24.
    assert APPLE.quarter_of(date(2023, 7, 1)) == FiscalPeriod.of_quarter(2023, 3)
    assert APPLE.period_of(date(2022, 9, 24)) == (2022, 4)
    # Home Depot's year ended 2025-02-02 nominally closes January: FY2024 with its offset.
    assert FiscalCalendar(1, -1).period_of(date(2025, 2, 2)) == (2024, 4)


def test_state_form_round_trips_through_json() -> None:
    for calendar in (DECEMBER, APPLE, WALMART):
        data = json.loads(json.dumps(calendar.to_dict()))
        assert FiscalCalendar.from_dict(data) == calendar == FiscalCalendar.known(data)


def test_earlier_checkpoints_stored_lists() -> None:
    assert FiscalCalendar.from_dict([1, -1]) == WALMART
    assert FiscalCalendar.from_dict([9, None]) == APPLE


def test_an_unknown_year_end_is_the_calendar_year() -> None:
    for unknown in (
        None,
        {},
        [],
        [None, None],
        FiscalCalendar.state(None, None),
        {"fye_month": None, "year_offset": -1},
    ):
        assert FiscalCalendar.known(unknown) is None
        assert FiscalCalendar.from_dict(unknown) == FiscalCalendar.DEFAULT == DECEMBER


def test_a_year_end_month_outside_the_year_is_refused() -> None:
    with pytest.raises(ValueError, match=r"1\.\.12"):
        FiscalCalendar(13)


def test_year_to_date_phrases_are_read_as_six_or_nine_month_spans() -> None:
    from finagent.finance.periods import parse_time_phrases

    def read(text: str) -> list[str]:
        return [s.describe() for s in parse_time_phrases(text)]

    assert read("revenue in the first half of 2025") == ["fiscal_span(6M, 2025)"]
    assert read("H1 FY2024 sales") == ["fiscal_span(6M, 2024)"]
    assert read("the first nine months of fiscal 2024") == ["fiscal_span(9M, 2024)"]
    assert read("for the six months ended June 30, 2024") == ["fiscal_span(6M, ended 2024-06)"]
    assert read("the nine months to March 2025") == ["fiscal_span(9M, ended 2025-03)"]
    assert read("year to date through Q3 2025") == ["fiscal_span(9M, 2025)"]
    assert read("YTD through the second quarter of fiscal 2025") == ["fiscal_span(6M, 2025)"]
    assert read("year to date through Q1 2025") == ["fiscal_quarter(2025, 1)"]
    assert read("the second half of 2024") == ["quarter_range(2024Q3, 2024Q4)"]  # no 10-Q reports it
    assert read("the first three quarters of fiscal 2024") == ["fiscal_year(2024)[quarter]"]


def test_a_span_resolves_to_the_quarter_it_ends_with_on_each_calendar() -> None:
    from datetime import date

    from finagent.finance.periods import AvailablePeriod, CompanyCalendar, TimeSpec, resolve_periods

    held = [AvailablePeriod("AAPL", "10-Q", 2024, 2, date(2024, 3, 30), 1)]
    apple = CompanyCalendar("AAPL", 9)
    half = resolve_periods(
        [TimeSpec.fiscal_span(6, 2024, text="first half of 2024")], apple, held, today=date(2025, 1, 1)
    )
    assert [(p.label, p.fiscal_quarter, p.span) for p in half.periods] == [("6M FY2024", 2, "6M")]
    assert half.warnings == [
        "'first half of 2024' read as AAPL's fiscal 6M FY2024: October 2023 to March 2024, its fiscal year "
        "ending in September"
    ]
    dated = TimeSpec.fiscal_span(
        9, ended=(date(2024, 3, 1), date(2024, 3, 30)), text="nine months ended March 30, 2024"
    )
    wrong = resolve_periods([dated], apple, held, today=date(2025, 1, 1))
    assert wrong.periods == [] or all(p.span is None for p in wrong.periods)
    assert any("closes no 9-month span" in w for w in wrong.warnings)


def test_the_latest_fiscal_years_in_the_plural_are_years() -> None:
    from finagent.finance.periods import parse_time_phrases

    (spec,) = parse_time_phrases(
        "In their latest fiscal years on file, did Nike or Tesla bring in more revenue?"
    )
    assert (spec.kind, spec.unit) == ("latest", "year")
    (spec,) = parse_time_phrases("In their most recent quarters, did Nike or Tesla bring in more revenue?")
    assert spec.unit != "year"


def test_a_years_report_named_but_not_stored_stays_a_target_beside_the_quarters_read_instead() -> None:
    """Asked what a company's fiscal 2024 10-K says when the store holds only its calls of that year:
    the calls are searched, and the year stays a target the store does not hold (the answer says the
    10-K is missing); asked the year's calls, the quarters alone stand for it as before."""
    from finagent.finance.periods import AvailablePeriod, CompanyCalendar, parse_time_phrases, resolve_periods

    calls = [AvailablePeriod("CTSO", "transcript", 2024, q, date(2024, 3 * q, 28), 1) for q in (1, 2, 3)]

    def targets(question: str, kinds: frozenset[str]) -> list[tuple[str, bool]]:
        specs = parse_time_phrases(question)
        resolved = resolve_periods(
            specs, CompanyCalendar("CTSO", 12), calls, today=date(2025, 6, 1), kinds=kinds
        )
        return [(p.label, p.available) for p in resolved.periods]

    asked = targets("What does Contoso's fiscal 2024 10-K say about pricing?", frozenset({"10-K"}))
    assert asked == [("Q1 FY2024", True), ("Q2 FY2024", True), ("Q3 FY2024", True), ("FY2024", False)]
    said = targets("What did Contoso say about pricing in fiscal 2024?", frozenset())
    assert said == [("Q1 FY2024", True), ("Q2 FY2024", True), ("Q3 FY2024", True)]
