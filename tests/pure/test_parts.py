"""Rankings of the parts of a whole (segments, regions, liabilities) are computed from the table whose
rows add up to its total row, in the asked period's column, and stated with the figures that decide
them."""

from __future__ import annotations

import pytest

from finagent.agent.answer.parts import PartsOpening, parts_opening
from finagent.finance.ask.asks import Ask, read_ask
from finagent.finance.ask.parts_ask import read_parts_ask
from finagent.finance.compute.part_blocks import blocks_for
from finagent.finance.fact_records import FiscalCalendar
from finagent.finance.read.tables import parse_tables

BALANCE_SHEET = """CONSOLIDATED BALANCE SHEETS
December 31 (Millions, except share data) | 2022 | 2021
Assets
Cash and due from banks | $5,510 | $1,292
Interest-bearing deposits in other banks | 28,097 | 20,548
Total cash and cash equivalents | 33,914 | 21,840
Card Member loans | 104,217 | 85,257
Other assets | 17,689 | 17,244
Total assets | $155,820 | $124,341
Liabilities
Customer deposits | $110,239 | $84,382
Accounts payable | 12,133 | 10,574
Short-term borrowings | 1,348 | 2,243
Long-term debt (includes debt issued by consolidated variable interest entities) | 42,573 | 38,675
Other liabilities | 37,350 | 30,497
Total liabilities | $203,643 | $166,371
"""

GEOGRAPHY = """B. Geographic Information
The following summarizes revenues by geographic area:
Three Months Ended Six Months Ended (MILLIONS) July 2, 2023 July 3, 2022 % Change July 2, 2023 July 3, 2022 \
% Change
United States | $6,185 | $11,222 | (45) | $14,692 | $20,140 | (27)
Developed Europe | 2,415 | 5,480 | (56) | 5,236 | 11,569 | (55)
Developed Rest of World | 1,305 | 5,034 | (74) | 3,778 | 8,320 | (55)
Emerging Markets | 2,828 | 6,006 | (53) | 7,308 | 13,373 | (45)
Revenues | $12,734 | $27,742 | (54) | $31,015 | $53,402 | (42)
"""

SEGMENTS = """Summary of Business Segment Data (Dollars in millions)
Years ended December 31, | 2022 | 2021 | 2020
Revenues:
Commercial Airplanes | $25,867 | $19,493 | $16,162
Defense, Space & Security | 23,162 | 26,540 | 26,257
Global Services | 17,611 | 16,328 | 15,543
Boeing Capital | 199 | 272 | 261
Unallocated items, eliminations and other | (231) | (347) | (65)
Total revenues | $66,608 | $62,286 | $58,158
(Loss)/earnings from operations:
Commercial Airplanes | ($2,370) | ($6,475) | ($13,847)
Defense, Space & Security | (3,544) | 1,544 | 1,539
Global Services | 2,727 | 2,017 | 450
Boeing Capital | 29 | 106 | 63
Segment operating loss | (3,158) | (2,808) | (11,795)
"""

# Each segment's total is printed beside its last line, in a second set of columns.
SEGMENT_NOTE = """Net Revenues by Segment The following table presents a detail by segment of net revenues:
Year Ended December 31, | 2022 | 2021 | 2020
(In thousands)
Las Vegas Strip Resorts
Casino | $2,104,096 | $1,549,419 | $728,254
Rooms | 2,729,715 | 1,402,712 | 662,813
Food and beverage | 2,125,738 | 1,015,366 | 471,529
Entertainment, retail and other | 1,438,823 | 769,688 | 383,189 | 8,398,372 | 4,737,185 | 2,245,785
Regional Operations
Casino | 2,901,072 | 2,721,515 | 1,569,193
Rooms | 284,213 | 220,828 | 130,945
Food and beverage | 429,188 | 307,750 | 184,153
Entertainment and reimbursed costs | 201,412 | 142,270 | 82,880 | 3,815,885 | 3,392,363 | 1,967,171
MGM China
Casino | 567,573 | 1,057,962 | 565,671
Rooms | 43,216 | 66,498 | 36,624
Food and beverage | 49,312 | 68,489 | 40,284
Entertainment, retail and other | 13,492 | 17,812 | 14,124 | 673,593 | 1,210,761 | 656,703
Reportable segment net revenues | 12,887,850 | 9,340,309 | 4,869,659
Corporate and other | 239,635 | 339,831 | 292,423 | $13,127,485 | $9,680,140 | $5,162,082
"""

NAMES = {
    "AXP": ["AXP", "American Express"],
    "PFE": ["PFE", "Pfizer"],
    "BA": ["BA", "Boeing"],
    "MGM": ["MGM", "MGM Resorts"],
}
CALENDARS = {"AXP": [12, 0], "PFE": [12, 0], "BA": [12, 0], "MGM": [12, 0]}


def _item(ticker: str, text: str, kind: str, label: str) -> dict[str, object]:
    return {"ticker": ticker, "text": text, "kind": kind, "label": label}


@pytest.mark.parametrize(
    ("question", "noun", "by", "highest"),
    [
        (
            "What was the largest liability in American Express's Balance Sheet in 2022?",
            "liability",
            "level",
            True,
        ),
        (
            "Which of JPM's business segments had the lowest net revenue in 2021 Q1?",
            "segments",
            "level",
            False,
        ),
        (
            "For Pfizer, which geographic region had the biggest drop in Q2 2023 revenues?",
            "region",
            "change",
            False,
        ),
        ("Which region had the worst topline performance for MGM during FY2022?", "region", "change", False),
        ("Which segment grew the most in fiscal 2023?", "segment", "change", True),
        ("Which product category had the smallest decline in sales?", "category", "change", True),
    ],
)
def test_a_question_ranking_parts_is_read(question: str, noun: str, by: str, highest: bool) -> None:
    ask = read_parts_ask(question)
    assert ask is not None
    assert (ask.noun, ask.by, ask.highest) == (noun, by, highest)


@pytest.mark.parametrize(
    "question",
    [
        "What was Apple's total revenue in fiscal 2023?",
        "Which company had the highest revenue in 2023, Apple or Microsoft?",
        "Is Boeing's business subject to cyclicality?",
        "What were Best Buy's operating lease liabilities at the end of fiscal 2022?",
    ],
)
def test_other_questions_rank_no_parts(question: str) -> None:
    assert read_parts_ask(question) is None  # a list of regions is asked by another shape (below)


@pytest.mark.parametrize(
    ("question", "query"),
    [
        (
            "For Pfizer, which geographic region had the biggest drop in Q2 2023 revenues?",
            "revenues by geographic region",
        ),
        ("Which region had the worst topline performance for MGM during FY2022?", "revenue by region"),
        (
            "In 2022 Q2, which of JPM's business segments had the highest net income?",
            "income by business segments",
        ),
        (
            "What was the largest liability in American Express's Balance Sheet in 2022?",
            "total liabilities balance sheet",
        ),
    ],
)
def test_the_table_of_parts_is_searched_in_the_wholes_words(question: str, query: str) -> None:
    ask = read_parts_ask(question)
    assert ask is not None and ask.query == query


def test_a_share_threshold_is_read_with_its_percent() -> None:
    ask = read_parts_ask(
        "Are there any product categories / service categories that represent more than 20% of Boeing's "
        "revenue for FY2022?"
    )
    assert ask is not None and ask.by == "share" and ask.share_over == 20.0
    assert "reven" in ask.measure


def test_the_plan_carries_the_parts_ask_through_json() -> None:
    ask = read_ask("What was the largest liability in American Express's balance sheet in 2022?", ["AXP"])
    assert ask.parts is not None
    assert Ask.from_dict(ask.to_dict()) == ask
    several = read_ask("Which of Apple's and Microsoft's segments had the highest revenue?", ["AAPL", "MSFT"])
    assert several.parts is None  # one company's whole only


def test_parts_are_rows_that_add_up_to_their_total() -> None:
    (table,) = parse_tables(BALANCE_SHEET, form="10-K")
    blocks = blocks_for(table, FiscalCalendar(12), [(2022, None)])
    wholes = {b.whole: [p.label for p in b.parts] for b in blocks}
    # a subtotal stands for its rows in the total above it
    assert wholes["assets"] == ["Cash and cash equivalents", "Card Member loans", "Other assets"]
    assert wholes["liabilities"][0] == "Customer deposits"
    assert len(wholes["liabilities"]) == 5


def test_rows_that_do_not_add_up_are_not_parts() -> None:
    broken = BALANCE_SHEET.replace("Accounts payable | 12,133", "Accounts payable | 12,733")
    (table,) = parse_tables(broken, form="10-K")
    blocks = blocks_for(table, FiscalCalendar(12), [(2022, None)])
    assert "liabilities" not in {b.whole for b in blocks}


def test_the_largest_liability_is_named_with_its_figure() -> None:
    ask = read_parts_ask("What was the largest liability in American Express's Balance Sheet in 2022?")
    assert ask is not None
    opening = parts_opening(
        ask, [_item("AXP", BALANCE_SHEET, "10-K", "10K1")], {"AXP": [(2022, None)]}, CALENDARS, NAMES
    )
    assert opening is not None
    assert opening.text.startswith(
        "Customer deposits was the largest of American Express's liabilities at FY2022 end: $110,239 million "
        "of liabilities of $203,643 million [10K1]."
    )
    assert "Long-term debt $42,573 million" in opening.text


def _pfizer_regions(question: str) -> PartsOpening:
    """The opening ranking Pfizer's regions of the Q2 2023 10-Q's geographic table."""
    ask = read_parts_ask(question)
    assert ask is not None and ask.noun == "region"
    opening = parts_opening(
        ask, [_item("PFE", GEOGRAPHY, "10-Q", "10Q1")], {"PFE": [(2023, 2)]}, CALENDARS, NAMES
    )
    assert opening is not None
    return opening


def test_the_biggest_drop_is_computed_against_the_same_quarter_a_year_earlier() -> None:
    opening = _pfizer_regions("For Pfizer, which geographic region had the biggest drop in Q2 2023 revenues?")
    assert opening.text.startswith(
        "Developed Rest of World had the largest decline in Pfizer's revenues in Q2 FY2023: $1,305 million, "
        "against $5,034 million in Q2 FY2022, -74.1% (computed) [10Q1]."
    )
    changes = {c["metric"]: c["result_text"] for c in opening.calculations}
    assert changes["United States revenues"] == "-44.9%"  # the quarter's, not the six months' -27%


def test_parts_above_a_share_are_listed_with_their_computed_shares() -> None:
    ask = read_parts_ask(
        "Are there any product categories / service categories that represent more than 20% of Boeing's "
        "revenue for FY2022?"
    )
    assert ask is not None
    opening = parts_opening(
        ask, [_item("BA", SEGMENTS, "10-K", "10K1")], {"BA": [(2022, None)]}, CALENDARS, NAMES
    )
    assert opening is not None
    assert opening.text == (
        "Yes (computed from the table): Commercial Airplanes $25,867 million (38.8%); Defense, Space & "
        "Security $23,162 million (34.8%); Global Services $17,611 million (26.4%) each make up more than "
        "20% of Boeing's revenues of $66,608 million in FY2022 [10K1]."
    )
    assert opening.givens == "20%"


CASH_FLOWS = """Consolidated Statements of Cash Flows $ in millions Fiscal Years Ended January 28, 2023 \
January 29, 2022 Operating activities
Net earnings | $1,419 | $2,454
Changes in operating assets and liabilities:
Accounts payable | (1,099) | (201)
Total cash provided by operating activities | 1,824 | 3,252
Investing activities
Additions to property and equipment | (930) | (737)
Total cash used in investing activities | (962) | (1,372)
Financing activities
Repurchase of common stock | (1,014) | (3,502)
Total cash used in financing activities | (1,806) | (4,297)
"""


def test_parts_the_question_names_are_ranked_by_their_rows() -> None:
    question = (
        "Among operations, investing, and financing activities, which brought in the most (or lost the "
        "least) cash flow for Best Buy in FY2023?"
    )
    ask = read_parts_ask(question)
    assert ask is not None and ask.named == ("opera", "inves", "finan")
    names, calendars = {"BBY": ["BBY", "Best Buy"]}, {"BBY": [1, 0]}
    items = [_item("BBY", CASH_FLOWS, "10-K", "10K1")]
    opening = parts_opening(ask, items, {"BBY": [(2023, None)]}, calendars, names)
    assert opening is not None
    assert opening.text == (
        "Cash provided by operating activities was the highest of those named for Best Buy in FY2023: $1,824 "
        "million; Cash used in investing activities -$962 million; Cash used in financing activities "
        "-$1,806 million [10K1]."
    )


SEGMENT_PRODUCTS = """Asset & Wealth Management net revenue by line of business (in millions)
Three months ended March 31, | 2021 | 2020
Asset Management | $2,185 | $1,730
Global Private Bank | 1,892 | 1,659
Total net revenue | $4,077 | $3,389
"""
FIRM_SEGMENTS = """Net revenue by segment (in millions)
Three months ended March 31, | 2021 | 2020
Consumer & Community Banking segment | $12,517 | $13,287
Corporate & Investment Bank segment | 14,605 | 10,003
Commercial Banking segment | 2,393 | 2,165
Asset & Wealth Management segment | 4,077 | 3,389
Corporate segment | (473) | 166
Total net revenue | $33,119 | $29,010
"""


def test_one_segments_breakdown_is_not_the_companys() -> None:
    ask = read_parts_ask("Which of JPM's business segments had the lowest net revenue in 2021 Q1?")
    assert ask is not None
    names, calendars = {"JPM": ["JPM", "JPMorgan"]}, {"JPM": [12, 0]}
    inner = [_item("JPM", SEGMENT_PRODUCTS + "segment results", "10-Q", "10Q1")]
    alone = parts_opening(ask, inner, {"JPM": [(2021, 1)]}, calendars, names)
    assert alone is not None and alone.text.startswith("Global Private Bank had the lowest net revenue")
    firm_total = "Consolidated results (in millions)\nThree months ended March 31, | 2021 | 2020\n"
    firm_total += "Total net revenue | $33,119 | $29,010\nProvision for credit losses | (4,156) | 8,285\n"
    with_firm_total = [*inner, _item("JPM", firm_total, "10-Q", "10Q3")]
    assert parts_opening(ask, with_firm_total, {"JPM": [(2021, 1)]}, calendars, names) is None
    both = [*inner, _item("JPM", FIRM_SEGMENTS, "10-Q", "10Q2")]
    opening = parts_opening(ask, both, {"JPM": [(2021, 1)]}, calendars, names)
    assert opening is not None
    assert opening.text.startswith(
        "Corporate segment had the lowest net revenue of JPMorgan's segments in Q1 FY2021: -$473 million, of "
        "$33,119 million in all [10Q2]."
    ), opening.text


def test_no_ranking_when_the_asked_period_has_no_column() -> None:
    ask = read_parts_ask("What was the largest liability in American Express's Balance Sheet in 2019?")
    assert ask is not None
    items = [_item("AXP", BALANCE_SHEET, "10-K", "10K1")]
    assert parts_opening(ask, items, {"AXP": [(2019, None)]}, CALENDARS, NAMES) is None


def test_parts_of_another_kind_are_not_ranked() -> None:
    ask = read_parts_ask("Which geographic region had the highest revenues in 2022?")
    assert ask is not None
    items = [_item("BA", SEGMENTS, "10-K", "10K1")]  # segments, not regions
    assert parts_opening(ask, items, {"BA": [(2022, None)]}, CALENDARS, NAMES) is None


def test_a_whole_the_question_does_not_name_is_not_ranked() -> None:
    ask = read_parts_ask("Which segment had the highest operating margin in 2022?")
    assert ask is not None
    items = [_item("BA", SEGMENTS, "10-K", "10K1")]
    assert parts_opening(ask, items, {"BA": [(2022, None)]}, CALENDARS, NAMES) is None


def test_segments_whose_totals_sit_beside_their_last_line_are_ranked_by_their_change() -> None:
    ask = read_parts_ask("Which region had the worst topline performance for MGM during FY2022?")
    assert ask is not None
    # the company's revenue, corporate items included, is larger than the segments' total
    income = "CONSOLIDATED STATEMENTS OF OPERATIONS\nYear Ended December 31, | 2022 | 2021\n(In thousands)\n"
    income += "Casino | 5,573,741 | 5,328,896\nOther revenues | 7,553,744 | 4,351,244\n"
    income += "Net revenues | 13,127,485 | 9,680,140\n"
    items = [_item("MGM", SEGMENT_NOTE, "10-K", "10K1"), _item("MGM", income, "10-K", "10K2")]
    opening = parts_opening(ask, items, {"MGM": [(2022, None)]}, CALENDARS, NAMES)
    assert opening is not None
    assert opening.text.startswith(
        "MGM China had the largest decline in MGM Resorts's reportable segment net revenues in FY2022: "
        "$673,593 thousand, against $1,210,761 thousand in FY2021, -44.4% (computed) [10K1]."
    )
    assert "Regional Operations +12.5%, Las Vegas Strip Resorts +77.3%" in opening.text


def test_a_ranking_of_regions_also_searches_the_segment_table() -> None:
    from finagent.agent.nodes.fan_out import _parts_queries

    ask = read_parts_ask("Which region had the worst topline performance for MGM during FY2022?")
    assert ask is not None and _parts_queries(ask) == ["revenue by region", "revenue by segment"]
    liability = read_parts_ask("What was the largest liability in American Express's Balance Sheet in 2022?")
    assert liability is not None and _parts_queries(liability) == ["total liabilities balance sheet"]


def test_the_table_of_the_asked_parts_is_read_before_the_passages_around_it() -> None:
    """Code ranks from the parts table, so it must not be left out of the passages read (a segment
    note printing its table after unrelated prose ranks below the discussion pages); a segment's own
    breakdown is not lifted while the firm's total is among the passages."""
    from finagent.agent.answer.passages import favour_parts_tables

    question = "Which of JPM's business segments had the lowest net revenue in 2021 Q1?"
    ask = read_ask(question, ["JPM"], {"JPM": [10]}, []).to_dict()
    target = {"ticker": "JPM", "fiscal_year": 2021, "fiscal_quarter": 1}
    state: object = {"analysis": {"ask": ask, "calendars": {"JPM": [12, 0]}}, "targets": [target]}
    discussion = {"ticker": "JPM", "kind": "10-Q", "text": "Net revenue rose on markets.", "fused_score": 0.9}
    passages = [
        discussion | {"chunk_id": 1},
        _item("JPM", "Legal matters.\n" + FIRM_SEGMENTS, "10-Q", "") | {"chunk_id": 2, "fused_score": 0.4},
        _item("JPM", SEGMENT_PRODUCTS + "segment results", "10-Q", "") | {"chunk_id": 3, "fused_score": 0.5},
    ]
    lifted = favour_parts_tables(state, passages)  # type: ignore[arg-type]
    scores = {p["chunk_id"]: p["fused_score"] for p in lifted}
    assert scores[2] > scores[1] > scores[3], scores


def test_a_level_ranking_names_the_parts_kind_in_the_plural() -> None:
    opening = _pfizer_regions("For Pfizer, which geographic region had the highest revenues in Q2 2023?")
    assert opening.text.startswith(
        "United States had the highest revenues of Pfizer's regions in Q2 FY2023: $6,185 million, of "
        "$12,734 million in all [10Q1]."
    ), opening.text


# A geographic note printed on its side: a column per region, a group of rows per year (AmEx's 10-K).
REGIONS_ON_SIDE = """GEOGRAPHIC OPERATIONS
The following table presents our total revenues net of interest expense and pretax income (loss) from \
continuing operations in different geographic regions.

(Millions) United States EMEA APAC LACC Other Unallocated Consolidated 2022
Total revenues net of interest expense | $41,396 | $4,871 | $3,835 | $2,917 | $(157) | $52,862
Pretax income (loss) from continuing operations | 10,383 | 550 | 376 | 500 | (2,224) | 9,585 | 2021
Total revenues net of interest expense | $33,103 | $3,643 | $3,418 | $2,238 | $(22) | $42,380
Pretax income (loss) from continuing operations | 10,325 | 460 | 420 | 494 | (1,010) | 10,689
"""


@pytest.mark.parametrize(
    "question",
    [
        "What are the geographies that American Express primarily operates in as of 2022?",
        "Which regions does American Express report for 2022?",
    ],
)
def test_a_question_asking_for_the_regions_lists_them_by_their_share_of_revenue(question: str) -> None:
    """The regions of a table printed on its side are read by the year in their group's header and
    listed, largest first, with their computed shares; the unallocated column is not a region."""
    ask = read_parts_ask(question)
    assert ask is not None and ask.by == "list"
    opening = parts_opening(
        ask, [_item("AXP", REGIONS_ON_SIDE, "10-K", "10K5")], {"AXP": [(2022, None)]}, CALENDARS, NAMES
    )
    assert opening is not None
    assert opening.text.startswith("American Express reports its revenues net of interest expense in these ")
    assert opening.text.endswith(
        "in FY2022: United States $41,396 million (78.3%), EMEA $4,871 million (9.2%), APAC $3,835 million "
        "(7.3%) and LACC $2,917 million (5.5%), of $52,862 million in all (shares computed) [10K5]."
    )
    shares = {c["metric"]: c["result_text"] for c in opening.calculations}
    assert shares["EMEA share of revenues net of interest expense"] == "9.2%"


@pytest.mark.parametrize(
    "question",
    [
        "How much did NVIDIA allocate to research and development, and what were the key areas of focus?",
        "What are the main risks for Apple's business?",
        "Which regions had the largest revenue decline?",
    ],
)
def test_other_questions_list_no_parts(question: str) -> None:
    ask = read_parts_ask(question)
    assert ask is None or ask.by != "list"
