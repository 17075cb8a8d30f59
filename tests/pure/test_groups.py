"""Segment results printed as one group of columns per segment are read by period and group, and the
segments of a line are ranked by code."""

from __future__ import annotations

from typing import Any

from finagent.agent.answer.parts import parts_opening
from finagent.finance.ask.parts_ask import read_parts_ask
from finagent.finance.read.tables import grouped_tables, parse_tables
from finagent.finance.read.tables.groups import split_names

# As the PDF text layer prints JPMorgan's 10-Q page: the names run together, two tables for the five
# segments and the total, and the net income row broken over lines by footnote marks.
SEGMENT_RESULTS = """Segment results – managed basis
The following tables summarize the Firm’s results by segment for the periods indicated.

Three months ended June 30, Consumer & Community Banking Corporate & Investment Bank Commercial Banking
(in millions, except ratios) | 2022 | 2021
Change | 2022 | 2021
Change | 2022 | 2021
Change
Total net revenue | $12,614 | $12,760 | (1)% | $11,947 | $13,214 | (10)% | $2,683 | $2,483 | 8%
Total noninterest expense | 7,723 | 7,062 | 9 | 6,745 | 6,523 | 3 | 1,156 | 981 | 18
Net income/(loss) | 3,100 | 5,645
(a) | (45) | 3,725 | 5,020
(a) | (26) | 994 | 1,422
(a)
(30)

Three months ended June 30, Asset & Wealth Management Corporate Total
(in millions, except ratios) | 2022 | 2021
Change | 2022 | 2021
Change | 2022 | 2021
Change
Total net revenue | $4,306 | $4,107 | 5% | $80 | $(1,169) | NM | $31,630 | $31,395 | 1%
Total noninterest expense | 2,919 | 2,586 | 13 | 206 | 515 | (60) | 18,749 | 17,667 | 6
Net income/(loss) | 1,004 | 1,156
(a) | (13) | (174) | (1,295)
(a) | 87 | 8,649 | 11,948 | (28)
"""

NAMES = {"JPM": ["JPM", "JPMorgan"]}
CALENDARS = {"JPM": [12, 0]}


def _item(text: str) -> dict[str, Any]:
    return {"chunk_id": 7, "ticker": "JPM", "kind": "10-Q", "label": "10Q1", "text": text}


def test_run_together_names_are_split_at_words_joined_by_ampersands() -> None:
    line = "Consumer & Community Banking Corporate & Investment Bank Commercial Banking"
    assert split_names(line, 3) == (
        "Consumer & Community Banking",
        "Corporate & Investment Bank",
        "Commercial Banking",
    )
    assert split_names("Asset & Wealth Management Corporate Total", 3) == (
        "Asset & Wealth Management",
        "Corporate",
        "Total",
    )
    assert split_names("The following tables summarize results", 2) == ()


def test_each_line_becomes_a_table_whose_rows_are_the_segments() -> None:
    tables = {t.rows[0].section: t for t in grouped_tables(parse_tables(SEGMENT_RESULTS, form="10-Q"))}
    assert set(tables) == {"Total net revenue", "Total noninterest expense", "Net income"}
    income = tables["Net income"]
    assert [(r.label, r.cells) for r in income.rows] == [
        ("Consumer & Community Banking", ("3,100", "5,645")),
        ("Corporate & Investment Bank", ("3,725", "5,020")),
        ("Commercial Banking", ("994", "1,422")),
        ("Asset & Wealth Management", ("1,004", "1,156")),
        ("Corporate", ("(174)", "(1,295)")),
        ("Total net income", ("8,649", "11,948")),
    ]
    headers = [c.header for c in income.columns]
    assert headers == ["Three months ended June 30, 2022", "Three months ended June 30, 2021"]


def test_the_segment_with_the_highest_net_income_is_ranked_from_the_column_groups() -> None:
    ask = read_parts_ask("In 2022 Q2, which of JPM's business segments had the highest net income?")
    assert ask is not None
    opening = parts_opening(ask, [_item(SEGMENT_RESULTS)], {"JPM": [(2022, 2)]}, CALENDARS, NAMES)
    assert opening is not None
    assert opening.text.startswith(
        "Corporate & Investment Bank had the highest net income of JPMorgan's segments in Q2 FY2022: "
        "$3,725 million, of $8,649 million in all [10Q1]. The others: Consumer & Community Banking $3,100 "
        "million, Asset & Wealth Management $1,004 million, Commercial Banking $994 million, Corporate "
        "-$174 million [10Q1]."
    ), opening.text


def test_no_ranking_when_the_second_half_of_the_groups_is_missing() -> None:
    ask = read_parts_ask("Which of JPM's business segments had the lowest net revenue in 2022 Q2?")
    assert ask is not None
    first_half = SEGMENT_RESULTS.split("\n\nThree months ended June 30, Asset")[0]
    assert parts_opening(ask, [_item(first_half)], {"JPM": [(2022, 2)]}, CALENDARS, NAMES) is None
    whole = parts_opening(ask, [_item(SEGMENT_RESULTS)], {"JPM": [(2022, 2)]}, CALENDARS, NAMES)
    assert whole is not None
    assert whole.text.startswith("Corporate had the lowest net revenue"), whole.text


def test_groups_of_one_column_each_are_as_many_groups_as_columns() -> None:
    text = (
        "As of December 31, 2022 Americas Europe Asia Total\n"
        "(in millions) | 2022 | 2022 | 2022 | 2022\n"
        "Net revenue | $10 | $20 | $5 | $35\n"
    )
    tables = grouped_tables(parse_tables(text, form="10-K"))
    assert [(r.label, r.cells) for t in tables for r in t.rows] == [
        ("Americas", ("$10",)),
        ("Europe", ("$20",)),
        ("Asia", ("$5",)),
        ("Total net revenue", ("$35",)),
    ]
