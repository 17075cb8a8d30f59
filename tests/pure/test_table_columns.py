"""Which row of a table stands at an end under the column a question names: ranked by code.

Questions of our own over tables laid out as filings print them (an 8-K's vote tables with the
header on the lead-in line, a table with a header row of cells, one row per proposal). Tuned on the
first list; the held list was written at the same time and run only after.
"""

from __future__ import annotations

from typing import Any, cast

import pytest

from finagent.agent.answer.choose import Read
from finagent.agent.answer.extractive import row_picked
from finagent.agent.evidence import query_terms
from finagent.agent.state import State
from finagent.agent.understand.question import Question
from finagent.finance.ask.asks import row_pick
from finagent.finance.check.support import content_words
from finagent.finance.read.table_columns import column_pick

DIRECTORS = """The individuals listed below were elected to serve as directors until the next annual meeting
and until their successors are duly elected and qualified: For Against Abstained Broker Non-Vote
Dana Whitfield | 7,410,220,114 | 95,114,203 | 12,300,411 | 2,100,551,093
Raj Menon | 7,105,993,050 | 402,118,772 | 9,522,906 | 2,100,551,093
Claire Osei | 7,290,441,337 | 215,870,119 | 11,223,278 | 2,100,551,093
Tomas Lind | 7,488,003,121 | 18,774,006 | 10,757,689 | 2,100,551,093"""

SEGMENTS = """Operating income by segment was as follows (in millions):
Segment | 2024 | 2023
Cloud Services | 4,210 | 3,655
Devices | 1,870 | 2,140
Payments | (95) | (310)"""

PRICES = """Quarterly high and low sales prices of our common stock: High Low
First Quarter | 182.40 | 150.10
Second Quarter | 199.62 | 166.01
Third Quarter | 237.23 | 196.00"""


def _pick(question: str, text: str):
    return column_pick(text, content_words(question), content_words, row_pick(question) == "highest")


TUNED: list[Any] = [
    ("Which director nominee received the most votes against?", DIRECTORS, "Raj Menon", "402,118,772"),
    ("Who got the fewest abstained votes among the nominees?", DIRECTORS, "Raj Menon", "9,522,906"),
    ("Which quarter had the highest high price of the stock?", PRICES, "Third Quarter", "237.23"),
]
HELD: list[Any] = [
    pytest.param(
        "Which nominee had the lowest support, votes for?",
        DIRECTORS,
        "Raj Menon",
        "7,105,993,050",
        marks=pytest.mark.xfail(strict=True, reason="a column a function word names (“For”) is not read"),
    ),
    ("Which segment had the lowest operating income in 2024?", SEGMENTS, "Payments", "(95)"),
    ("Which quarter's low price was the lowest?", PRICES, "First Quarter", "150.10"),
]


@pytest.mark.parametrize(("question", "text", "label", "printed"), [*TUNED, *HELD])
def test_the_row_at_the_end_asked_is_read_under_the_column_named(
    question: str, text: str, label: str, printed: str
) -> None:
    pick = _pick(question, text)
    assert pick is not None and (pick.label, pick.printed) == (label, printed)


def test_a_column_the_question_does_not_name_or_names_twice_is_no_pick() -> None:
    assert _pick("Which director nominee was the oldest?", DIRECTORS) is None
    # "high" and "low" both named: which column is meant is not known
    assert _pick("Which quarter had the most between its high and low price?", PRICES) is None
    # a header naming fewer columns than the rows print is not read by position
    assert column_pick("For Against\nA | 1 | 2 | 3\nB | 4 | 5 | 6", {"against"}, content_words) is None


def test_which_end_is_asked() -> None:
    assert row_pick("Which Apple director nominee drew the most votes against?") == "highest"
    assert row_pick("Who received the fewest votes for at the meeting?") == "lowest"
    assert row_pick("What was the lowest price of the quarter?") == "lowest"
    assert row_pick("How many votes against did the nominees draw?") == ""  # no end asked
    assert row_pick("Which is the most recent 8-K?") == ""


def test_the_answer_states_the_row_its_figure_and_the_table_it_is_from() -> None:
    question = "Which Contoso director nominee drew the most votes against at the 2025 annual meeting?"
    plan = Question(
        question=question,
        tickers=("CTSO",),
        names={"CTSO": ["CTSO", "Contoso Ltd.", "Contoso"]},
        terms=tuple(query_terms([question])),
        row_pick=row_pick(question),
    )
    item = {"label": "8K2", "text": DIRECTORS, "ticker": "CTSO", "kind": "8-K", "period_label": "Q2 FY2025"}
    other = {"label": "8K1", "text": "The annual meeting was held on March 3, 2025.", "ticker": "CTSO"}
    said = row_picked(cast(State, {"analysis": plan.to_dict()}), Read([other, item], 0))
    assert said == (
        "Most under “Against” of every row of the table: Raj Menon, 402,118,772 (its columns: For, Against, "
        "Abstained, Broker Non-Vote), in Contoso's 8-K for Q2 FY2025 [8K2]."
    )
    plain = Question.from_dict(plan.to_dict() | {"row_pick": ""})
    assert row_picked(cast(State, {"analysis": plain.to_dict()}), Read([item], 0)) == ""
