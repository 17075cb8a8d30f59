"""Schedules by year (benefit payments, lease and debt maturities): a forecast of a year an earlier
report schedules is read from that year's row of that report, by code."""

from __future__ import annotations

from typing import Any

import pytest

from finagent.agent.understand.plan import ahead_years, query_terms
from finagent.finance.periods import parse_time_phrases
from finagent.finance.read.tables.schedule import asked_schedule, scheduled_rows

BENEFITS = (
    "Estimated Future Benefit Payments\n"
    "The benefit payments to retirees are expected to be paid as follows:\n"
    "(dollars in millions)\n"
    "Year\n"
    "Pension Benefits\n"
    "Health Care and Life | 2022 | $1,906 | $1,390 | 2023 | 1,757 | 1,390 | 2024 | 1,097 | 862 | 2025 | 1,391"
    " | 1,354 | 2026 | 1,371 | 1,349\n"
    "2027-2031 | 6,699 | 6,889\n"
    "Savings Plan and Employee Stock Ownership Plans"
)
LEASES = (
    "The following represents the maturities of our outstanding lease commitments as of December 31, 2022:\n"
    "(Millions) | 2023 | $157 | 2024 | 144 | 2025 | 121 | 2026 | 105 | 2027 | 93\n"
    "Thereafter\n892"
)
QUESTION = "As of FY 2021, how much did Verizon expect to pay for its retirees in 2024?"


def test_a_years_row_is_read_with_its_columns_and_the_tables_scale() -> None:
    (row,) = scheduled_rows(BENEFITS, 2024)
    assert row.title == "The benefit payments to retirees are expected to be paid as follows"
    assert row.reads() == "Pension Benefits $1,097 million; Health Care and Life $862 million"
    (lease,) = scheduled_rows(LEASES, 2024)
    assert lease.reads() == "$144 million"  # one value a year: the table's title says what it is
    spaced = "Payments due by year:\n(Millions) |2023|  $157 |2024| 144 |2025| 121\n"
    spaced += "Notes are due as follows:\n2030 | 500"
    (row,) = scheduled_rows(spaced, 2024)  # cells written unevenly: the title is still the one before
    assert (row.title, row.reads()) == ("Payments due by year", "$144 million")


@pytest.mark.parametrize(
    "text",
    [
        "(Billions) | 2022 | 2021\nCustomer deposits | $110.2 | $84.4",  # years as columns, not rows
        "Revenue was $5 billion in 2023 | 2024 | 12 | 2026 | 14 | 2027 | 15",  # years not consecutive
        LEASES.replace("2024 | 144", "2024 | n/a"),  # a row that is no figure is not guessed at
    ],
)
def test_no_schedule_is_read_where_the_years_are_no_run_of_rows(text: str) -> None:
    assert scheduled_rows(text, 2024) == []


def test_the_schedule_the_question_names_is_chosen() -> None:
    rows = scheduled_rows(LEASES, 2024) + scheduled_rows(BENEFITS, 2024)
    chosen = asked_schedule(rows, query_terms([QUESTION]))
    assert chosen is not None and chosen.columns == ("Pension Benefits", "Health Care and Life")
    assert asked_schedule(rows, ["dividends"]) is None


def test_a_forecast_looks_ahead_from_the_report_it_names() -> None:
    assert ahead_years(parse_time_phrases(QUESTION)) == [2024]
    assert ahead_years(parse_time_phrases("What is Boeing forecasting for FY2023?")) == []


def test_the_answer_opens_with_the_asked_years_row_of_the_named_report() -> None:
    from finagent.agent.answer.choose import Read
    from finagent.agent.answer.compute import evidence_opening as _opening

    item = {"label": "10K1", "ticker": "VZ", "kind": "10-K", "period_label": "FY2021", "text": BENEFITS}
    older = item | {"label": "10K2", "period_label": "FY2020"}  # a report the question did not name
    analysis = {
        "question": QUESTION,
        "ask": {"kind": "narrative"},
        "ahead_years": ahead_years(parse_time_phrases(QUESTION)),
        "terms": query_terms([QUESTION]),
        "names": {"VZ": ["VZ", "Verizon"]},
    }
    state: Any = {"analysis": analysis, "targets": [{"ticker": "VZ", "label": "FY2021"}]}
    assert _opening(state, Read([older, item], 0)) == (
        "Verizon's 10-K for FY2021 [10K1] gives for 2024, in its table “The benefit payments to retirees "
        "are expected to be paid as follows”: Pension Benefits $1,097 million; Health Care and Life $862 "
        "million."
    )
    assert _opening(state | {"targets": [{"ticker": "VZ", "label": "FY2022"}]}, Read([item], 0)) == ""
