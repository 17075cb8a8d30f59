"""Retrieval by kind of question, not by dev question: dated filings, every stored quarter meant."""

from __future__ import annotations

import pytest

from finagent.agent.planning import event_days
from finagent.finance.periods import parse_time_phrases


def _days(question: str) -> list[str]:
    return event_days(question, [s.to_dict() for s in parse_time_phrases(question)])


def test_a_dated_filing_is_searched_by_its_day_not_the_quarter_around_it() -> None:
    assert _days("What was the key agenda of AMCOR's 8k filing dated 1st July 2022?") == ["2022-07-01"]
    assert _days("As of May 26, 2023, what may Pepsico borrow under its credit agreements?") == ["2023-05-26"]
    assert _days("What did the press release of March 3, 2023 announce?") == ["2023-03-03"]
    # A balance-sheet date is a period end, not an event.
    assert _days("What was Apple's cash as of December 31, 2022?") == []
    assert _days("What was revenue in the quarter ended July 1, 2023?") == []


@pytest.mark.parametrize(
    "question",
    [
        "What legal actions are revealed in the quarterly reports, and how could they influence Microsoft?",
        "How has Intel's total net sales fluctuated over historical periods?",
        "What role have exchange rates played? Please provide a breakdown for each reporting period.",
        "List this out separately for each reported period.",
        "Outline the risk factors and how they have evolved over the reporting periods.",
        "What are the key changes in liquidity as disclosed in these quarterly reports?",
        "Outline the risks and their evolution over the reporting timeframe.",
        "Comparing the most recent quarter to previous ones, how has R&D changed?",
    ],
)
def test_phrases_that_mean_every_stored_quarter(question: str) -> None:
    assert "held" in [s.kind for s in parse_time_phrases(question)]


@pytest.mark.parametrize(
    "question",
    [
        "What did the quarterly report say about risk?",
        "What was revenue for the period ended June 30, 2023?",
        "What was Apple's revenue in Q3 FY2023?",
    ],
)
def test_one_named_period_is_not_every_quarter(question: str) -> None:
    assert "held" not in [s.kind for s in parse_time_phrases(question)]
