"""Which of several metrics a question's change, ranking or direction is about: the one its words
name in the same clause, or all of a list of them; never simply the first metric of the question."""

from __future__ import annotations

import pytest

from finagent.finance.ask.asked_metrics import metrics_in
from finagent.finance.ask.asks import read_ask


def ask_of(question: str, tickers: tuple[str, ...] = ("X",)) -> tuple[str | None, tuple[str, ...], str]:
    ask = read_ask(question, list(tickers), {t: [i] for i, t in enumerate(tickers)}, metrics_in(question))
    return ask.metric, ask.changed, ask.kind


@pytest.mark.parametrize(
    ("question", "metric", "changed"),
    [
        (
            "What were X's revenue and operating income for fiscal 2024, and how did operating income change "
            "from fiscal 2023?",
            "operating_income",
            ("operating_income",),
        ),
        (
            "Give X's operating income and revenue for fiscal 2024 and the change in revenue from FY2023.",
            "revenue",
            ("revenue",),
        ),
        ("What was X's revenue in 2024, and how did its R&D expense change from 2023?", "rd", ("rd",)),
        (
            "What were X's revenue and research and development costs in 2024, and how did revenue change "
            "from 2023?",
            "revenue",
            ("revenue",),
        ),
        (
            "Report X's revenue and operating income for fiscal 2024; how did operating income change year "
            "over year?",
            "operating_income",
            ("operating_income",),
        ),
        (
            "How did X's revenue and operating income change from 2023 to 2024?",
            "revenue",
            ("revenue", "operating_income"),
        ),
        ("How did X's revenue change from 2023 to 2024?", "revenue", ()),
    ],
)
def test_a_change_is_tied_to_the_metric_its_clause_names(
    question: str, metric: str, changed: tuple[str, ...]
) -> None:
    got_metric, got_changed, kind = ask_of(question)
    assert (got_metric, got_changed, kind) == (metric, changed, "change")


def test_a_ranking_is_tied_to_the_metric_it_ranks_by() -> None:
    question = "What were A's and B's revenue and net income in FY2024, and which had the higher net income?"
    metric, changed, kind = ask_of(question, ("A", "B"))
    assert (metric, changed, kind) == ("net_income", (), "ranking")


@pytest.mark.parametrize(
    "against",
    [
        "from the year before",
        "versus the prior fiscal year",
        "compared with the previous year",
        "a year earlier",
    ],
)
def test_the_year_before_named_in_words_asks_a_year_over_year_change(against: str) -> None:
    question = (
        f"What were X's revenue and operating income in fiscal 2024, and how much did operating income "
        f"grow {against}?"
    )
    ask = read_ask(question, ["X"], {"X": [10]}, metrics_in(question))
    assert (ask.change, ask.changed) == ("yoy", ("operating_income",))


def test_the_change_column_of_the_table_is_the_changed_metrics() -> None:
    from datetime import date

    from finagent.agent.answer.compute import wanted_for
    from finagent.agent.answer.table import markdown_table
    from finagent.agent.understand.question import Question
    from finagent.finance.compute.compare import Wanted, compare
    from tests.pure.test_answers import NAMES, cell

    question = (
        "What were Visa's revenue and operating income in fiscal 2024, and how much did operating income "
        "grow from the year before?"
    )
    cells = [
        cell("AXP", "FY2023", date(2023, 9, 30), "32653", role="comparison"),
        cell("AXP", "FY2024", date(2024, 9, 30), "35926"),
        cell("AXP", "FY2023", date(2023, 9, 30), "21000", metric="operating_income", role="comparison"),
        cell("AXP", "FY2024", date(2024, 9, 30), "23595", metric="operating_income"),
    ]
    ask = read_ask(question, ["AXP"], {"AXP": [10]}, metrics_in(question))
    comparisons = compare(cells, wanted_for(Question(comparisons=Wanted.from_question(question)), ask))
    table = markdown_table(cells, comparisons, NAMES, ["revenue", "operating_income"], ask=ask)
    header, _, row = table.splitlines()[:3]
    assert header.endswith("| YoY (operating income) |"), table
    assert "+12.4% vs FY2023 ($21,000 million)" in row, table
