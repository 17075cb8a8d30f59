"""Long histories without a store: period ranges as options write them, several values per option, the
history a question asks about, and gaps named in runs."""

from __future__ import annotations

from decimal import Decimal

import pytest

from finagent.cli.facts_cmd import TERMINAL, bar, split_items, spread_options
from finagent.finance.ask.long_history import gap_runs, held_range, meeting, read_history
from finagent.finance.periods import parse_time_phrases
from finagent.finance.periods.ranges import PeriodRangeError, parse_range


@pytest.mark.parametrize(
    ("text", "described"),
    [
        ("FY2009..FY2024", "year_range(2009, 2024)"),
        ("Q1 FY2022..Q3 FY2024", "quarter_range(2022Q1, 2024Q3)"),
        ("  Q1 FY2022 .. Q3 FY2024 ", "quarter_range(2022Q1, 2024Q3)"),
        ("FY2009..", "since_year(2009)"),
        ("Q2 FY2020..", "since_year(2020Q2)[quarter]"),
    ],
)
def test_a_range_reads_as_one_span(text: str, described: str) -> None:
    assert parse_range(text).describe() == described


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("FY2024..FY2009", "runs backwards: write FY2009..FY2024"),
        ("FY20x9..FY2024", "cannot read 'FY20x9'"),
        ("FY2009..Q3 FY2024", "mixes a fiscal year and a fiscal quarter"),
        ("..FY2024", "has no first period"),
        ("FY2009..FY2012..FY2024", "has 2 '..' marks"),
        ("banana..FY2024", "cannot read 'banana'"),
    ],
)
def test_a_bad_range_is_one_clear_line(text: str, message: str) -> None:
    with pytest.raises(PeriodRangeError) as caught:
        parse_range(text)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_metric_and_periods_take_several_values_and_stop_at_a_company() -> None:
    args = ["AAPL", "--metric", "revenue", "net_income", "--periods", "FY2009..FY2024", "FY2008", "--json"]
    assert spread_options(args) == [
        "AAPL",
        *("--metric", "revenue", "--metric", "net_income"),
        *("--periods", "FY2009..FY2024", "--periods", "FY2008"),
        "--json",
    ]
    # a company after the metrics is still a company; a ticker in capitals is never a metric
    assert spread_options(["-m", "revenue", "AAPL", "CASH"]) == ["-m", "revenue", "AAPL", "CASH"]
    assert spread_options(["-m", "revenue", "cash"]) == ["-m", "revenue", "-m", "cash"]
    # --plot alone draws in the terminal; with an image path it writes the file
    assert spread_options(["AAPL", "--plot", "-m", "revenue"]) == [
        "AAPL",
        "--plot",
        TERMINAL,
        "-m",
        "revenue",
    ]
    assert spread_options(["AAPL", "--plot"]) == ["AAPL", "--plot", TERMINAL]
    assert spread_options(["--plot", "out/x.png", "AAPL"]) == ["--plot", "out/x.png", "AAPL"]
    # words that follow a company are sorted by kind, as before
    assert split_items(["AMZN", "GOOGL", "FY2022", "net_income"], []) == (
        ["AMZN", "GOOGL"],
        ["FY2022"],
        ["net_income"],
    )


def test_bars_scale_to_the_largest_value() -> None:
    assert bar(Decimal(100), Decimal(100), 10) == "█" * 10
    assert bar(Decimal(-50), Decimal(100), 10) == "█" * 5
    assert bar(Decimal(1), Decimal(100), 10) == "▏"


@pytest.mark.parametrize(
    ("question", "span", "unit", "test", "metric"),
    [
        ("Apple's revenue from fiscal 2010 to 2024", "range", "year", None, None),
        ("How much did Union Pacific's revenue grow since 2010?", "since", "year", None, None),
        ("Did Microsoft ever report a quarterly loss?", "ever", "quarter", "negative", "net_income"),
        ("Has Apple ever had an operating loss?", "ever", "year", "negative", "operating_income"),
        ("Apple's revenue growth over all years in the store", "all", "year", None, None),
        ("What was Apple's earliest and latest annual revenue?", "all", "year", None, None),
    ],
)
def test_the_history_a_question_asks_about(
    question: str, span: str, unit: str, test: str | None, metric: str | None
) -> None:
    history = read_history(question, parse_time_phrases(question))
    assert history is not None
    assert (history.span, history.unit, history.test, history.metric) == (span, unit, test, metric)


@pytest.mark.parametrize(
    "question",
    ["Apple's revenue in FY2023 and FY2024", "Apple's revenue CAGR from FY2021 to FY2023", "Apple's revenue"],
)
def test_a_question_of_a_few_periods_is_no_history(question: str) -> None:
    assert read_history(question, parse_time_phrases(question)) is None


def test_every_period_held_is_one_range_and_gaps_are_named_in_runs() -> None:
    keys = [(2012, 3), (2013, 3), (2024, None), (2020, None), (2022, 1)]
    quarters, years = held_range(keys, "quarter"), held_range(keys, "year")
    assert quarters is not None and quarters.describe() == "quarter_range(2012Q3, 2022Q1)"
    assert years is not None and years.describe() == "year_range(2020, 2024)[year]"
    order = [f"FY{y}" for y in range(2010, 2020)]
    assert gap_runs(order, ["FY2010", "FY2011", "FY2012", "FY2015", "FY2017", "FY2018"]) == (
        "FY2010 to FY2012, FY2015, FY2017, FY2018"
    )
    values = [("Q1", Decimal(5)), ("Q2", Decimal(-1)), ("Q3", Decimal(0))]
    assert meeting(values, "negative") == [("Q2", Decimal(-1))]


def test_an_ask_period_option_takes_a_range() -> None:
    from finagent.finance.periods.ranges import option_problem

    assert option_problem("FY2009..FY2024") is None and option_problem("Q1 FY2022..") is None
    assert "runs backwards" in (option_problem("FY2024..FY2009") or "")
    assert "is not a period" in (option_problem("banana") or "")
