"""The answer's first sentences are computed from the ask and the figures (no model, no store): a
ranking gives the order, an overtake says yes or no and when, a direction question yes or no with
its change, a restatement both values and filings; the table is in one scale per metric, in the
ask's order; a draft cut by the token limit loses its unfinished sentence."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from finagent.agent.answer.compute import opening
from finagent.agent.answer.draft import whole_sentences
from finagent.agent.answer.statements import Facts
from finagent.agent.answer.table import markdown_table
from finagent.agent.understand.question import Question
from finagent.finance.ask.asks import Ask, read_ask
from finagent.finance.compute.compare import Cell, Wanted, compare
from finagent.finance.looked_up import Figure, Restatement
from finagent.finance.periods import parse_time_phrases
from finagent.finance.periods.period import FiscalPeriod

NAMES = {
    "WMT": ["WMT", "Walmart Inc.", "Walmart"],
    "AMZN": ["AMZN", "Amazon.com, Inc.", "Amazon"],
    "AAPL": ["AAPL", "Apple Inc.", "Apple"],
    "GOOGL": ["GOOGL", "Alphabet Inc.", "Alphabet"],
    "NVDA": ["NVDA", "NVIDIA Corporation", "NVIDIA"],
    "INTC": ["INTC", "Intel Corporation", "Intel"],
    "NFLX": ["NFLX", "Netflix, Inc.", "Netflix"],
    "BA": ["BA", "The Boeing Company", "Boeing"],
    "MSFT": ["MSFT", "Microsoft Corporation", "Microsoft"],
    "AXP": ["AXP", "American Express Company", "American Express"],
}


def cell(
    ticker: str,
    period: str,
    end: date,
    millions: str,
    *,
    metric: str = "revenue",
    role: str = "target",
    scale: int = 6,
    label: str = "10K1",
) -> Cell:
    return Cell(
        ticker=ticker,
        metric=metric,
        period=FiscalPeriod.parse(period),
        period_end=end,
        value=Decimal(millions) * Decimal(10) ** 6,
        unit="USD",
        scale=scale,
        sources=(label,),
        role=role,
        note="xbrl",
    )


def said(question: str, cells: list[Cell], tickers: list[str], metric: str = "revenue", **extra: Any) -> str:
    """The computed opening of ``question`` over ``cells`` (the question typed as analyze types it)."""
    mentions = {t: [question.find(NAMES[t][-1])] for t in tickers}
    from finagent.agent.answer.compute import wanted_for

    ask = read_ask(question, tickers, mentions, [metric], periods_named=True)
    analysis = Question(comparisons=Wanted.from_question(question))
    comparisons = compare(cells, wanted_for(analysis, ask))
    facts = Facts(ask, metric, cells, comparisons, NAMES, **extra)
    return opening(facts).text


LATEST_YEARS = [
    cell("AAPL", "FY2024", date(2024, 9, 28), "391035", label="10K3"),
    cell("AMZN", "FY2024", date(2024, 12, 31), "637959", label="10K2"),
    cell("GOOGL", "FY2024", date(2024, 12, 31), "350018", label="10K4"),
    cell("WMT", "FY2025", date(2025, 1, 31), "680985", label="10K1"),
]


def test_a_ranking_gives_the_order_with_values_and_each_differing_fiscal_year() -> None:
    text = said(
        "Rank Walmart, Amazon, Apple and Alphabet by revenue in their most recent fiscal year",
        LATEST_YEARS,
        ["WMT", "AMZN", "AAPL", "GOOGL"],
    )
    assert text.startswith(
        "Ranked by revenue, highest first: Walmart $680,985 million (FY2025, the year ended "
        "January 31, 2025) [10K1]; Amazon $637,959 million (FY2024, the year ended December "
        "31, 2024) [10K2]; Apple $391,035 million"
    )
    assert text.index("Apple") < text.index("Alphabet")
    lowest = said(
        "Which of Walmart, Amazon, Apple and Alphabet had the lowest revenue in their latest fiscal year?",
        LATEST_YEARS,
        ["WMT", "AMZN", "AAPL", "GOOGL"],
    )
    assert lowest.startswith("Ranked by revenue, lowest first: Alphabet $350,018 million")


def test_a_ranking_names_the_company_it_could_not_rank() -> None:
    text = said(
        "Rank Walmart, Amazon, Apple and Microsoft by revenue in their most recent fiscal year",
        LATEST_YEARS[:2] + LATEST_YEARS[3:],
        ["WMT", "AMZN", "AAPL", "MSFT"],
    )
    assert text.startswith("Ranked by revenue, highest first: Walmart $680,985 million"), text
    assert "Not ranked, with no revenue for the period asked: Microsoft." in text, text
    assert "Not ranked" not in said(
        "Rank Walmart, Amazon, Apple and Alphabet by revenue in their most recent fiscal year",
        LATEST_YEARS,
        ["WMT", "AMZN", "AAPL", "GOOGL"],
    )


def test_a_ranking_table_is_in_rank_order() -> None:
    ask = read_ask(
        "Rank Walmart, Amazon, Apple and Alphabet by revenue",
        ["WMT", "AMZN", "AAPL", "GOOGL"],
        {},
        ["revenue"],
    )
    table = markdown_table(LATEST_YEARS, compare(LATEST_YEARS, Wanted()), NAMES, ["revenue"], ask=ask)
    rows = [line.split(" | ")[0].strip("| ") for line in table.splitlines()[2:]]
    assert rows == ["Walmart (WMT)", "Amazon (AMZN)", "Apple (AAPL)", "Alphabet (GOOGL)"]


def test_a_ranking_starts_from_the_end_the_question_names_first() -> None:
    companies = ["WMT", "AMZN", "AAPL", "GOOGL"]
    for question, first in (
        ("Order Walmart, Amazon, Apple and Alphabet from largest to smallest by revenue", "highest"),
        ("Sort Walmart, Amazon, Apple and Alphabet by revenue, smallest first", "lowest"),
        ("Rank Walmart, Amazon, Apple and Alphabet by revenue from smallest to largest", "lowest"),
        (
            "In their most recent fiscal year, which of Walmart, Amazon, Apple and Alphabet had the lowest "
            "revenue?",
            "lowest",
        ),
        ("Rank Walmart, Amazon, Apple and Alphabet by revenue in descending order", "highest"),
    ):
        text = said(question, LATEST_YEARS, companies)
        leader = "Walmart $680,985 million" if first == "highest" else "Alphabet $350,018 million"
        assert text.startswith(f"Ranked by revenue, {first} first: {leader}"), (question, text)


def test_two_companies_compared_give_the_difference_and_a_yes_or_no_over_years_months_apart() -> None:
    years = [
        cell("WMT", "FY2024", date(2024, 1, 31), "648125", label="10K2"),
        cell("AMZN", "FY2024", date(2024, 12, 31), "637959", label="10K1"),
    ]
    compared = said(
        "Who had more revenue in fiscal 2024, Walmart or Amazon, and by how much?", years, ["WMT", "AMZN"]
    )
    assert compared.startswith(
        "Walmart's revenue was higher than Amazon's by $10,166 million: $648,125 million"
    ), compared
    asked = said("Was Amazon's revenue higher than Walmart's in fiscal 2024?", years, ["AMZN", "WMT"])
    assert asked.startswith(
        "No: Amazon's revenue was not above Walmart's: $637,959 million (Amazon, FY2024) [10K1] against "
        "$648,125 million (Walmart, FY2024, the year ended January 31, 2024) [10K2]."
    ), asked


def test_a_growth_ranking_table_is_in_growth_order() -> None:
    years = [
        cell("AAPL", "FY2023", date(2023, 9, 30), "383285", label="10K1"),
        cell("AAPL", "FY2024", date(2024, 9, 28), "391035", label="10K1"),
        cell("WMT", "FY2024", date(2024, 1, 31), "648125", label="10K2"),
        cell("WMT", "FY2025", date(2025, 1, 31), "680985", label="10K2"),
    ]
    question = "Between Apple and Walmart, whose revenue rose more from their fiscal 2023 to 2024 results?"
    tickers = ["AAPL", "WMT"]
    text = said(question, years, tickers)
    assert text.startswith("Ranked by revenue growth, highest first: Walmart"), text
    ask = read_ask(question, tickers, {"AAPL": [8], "WMT": [18]}, ["revenue"])
    analysis = Question(comparisons=Wanted.from_question(question))
    from finagent.agent.answer.compute import wanted_for

    table = markdown_table(years, compare(years, wanted_for(analysis, ask)), NAMES, ["revenue"], ask=ask)
    rows = [line.split(" | ")[0].strip("| ") for line in table.splitlines()[2:]]
    assert rows[0] == "Walmart (WMT)" and rows[-1] == "Apple (AAPL)", table


NVDA_INTC = [
    cell("INTC", "Q1 FY2023", date(2023, 4, 1), "11715", label="10Q1"),
    cell("INTC", "Q2 FY2023", date(2023, 7, 1), "12949", label="10Q2"),
    cell("INTC", "Q3 FY2023", date(2023, 9, 30), "14158", label="10Q3"),
    cell("NVDA", "Q1 FY2024", date(2023, 4, 30), "7192", label="10Q4"),
    cell("NVDA", "Q2 FY2024", date(2023, 7, 30), "13507", label="10Q5"),
    cell("NVDA", "Q3 FY2024", date(2023, 10, 29), "18120", label="10Q6"),
]


def test_an_overtake_says_yes_and_the_first_quarter_with_both_values() -> None:
    text = said("Did NVIDIA's quarterly revenue overtake Intel's during 2023?", NVDA_INTC, ["NVDA", "INTC"])
    assert text.startswith(
        "Yes: NVIDIA's revenue first exceeded Intel's in Q2 FY2024 (the quarter ended July 30, 2023): "
        "$13,507 million (NVIDIA, Q2 FY2024) [10Q5] against $12,949 million (Intel, Q2 FY2023, the quarter "
        "ended July 1, 2023) [10Q2]"
    ), text
    assert "$7,192 million" in text and "$11,715 million" in text  # the quarter before, below


def test_an_overtake_that_never_happened_or_had_happened_already_is_no() -> None:
    never = said(
        "Did Intel's revenue overtake NVIDIA's in 2023?", NVDA_INTC[1:3] + NVDA_INTC[4:], ["INTC", "NVDA"]
    )
    assert never.startswith("No: Intel's revenue was not above NVIDIA's in any of the two periods compared")
    already = said("Did NVIDIA's revenue overtake Intel's?", NVDA_INTC[1:3] + NVDA_INTC[4:], ["NVDA", "INTC"])
    assert already.startswith("No: NVIDIA's revenue was already above Intel's in the first period compared")
    higher = said(
        "Was NVIDIA's revenue higher than Intel's?", NVDA_INTC[2:3] + NVDA_INTC[5:], ["NVDA", "INTC"]
    )
    assert higher.startswith("Yes: NVIDIA's revenue was above Intel's in Q3 FY2024")


def test_a_threshold_says_when_it_was_first_crossed() -> None:
    cells = [c for c in NVDA_INTC if c.ticker == "NVDA"]
    text = said("When did NVIDIA's quarterly revenue first exceed $10 billion?", cells, ["NVDA"])
    assert text.startswith("Yes: NVIDIA's revenue first exceeded $10 billion in Q2 FY2024"), text


MSFT_AAPL_YOY = [
    cell("MSFT", "Q3 FY2024", date(2024, 3, 31), "61858", label="10Q1"),
    cell("MSFT", "Q3 FY2023", date(2023, 3, 31), "52857", role="comparative", label="10Q1"),
    cell("AAPL", "Q2 FY2024", date(2024, 3, 30), "90753", label="10Q2"),
    cell("AAPL", "Q2 FY2023", date(2023, 4, 1), "94836", role="comparative", label="10Q2"),
]


def test_a_growth_comparison_names_the_winner() -> None:
    text = said(
        "Which company grew revenue faster year over year, Microsoft or Apple?",
        MSFT_AAPL_YOY,
        ["MSFT", "AAPL"],
    )
    assert text.startswith(
        "Ranked by revenue growth, highest first: Microsoft +17.0% year over year "
        "(Q3 FY2023 to Q3 FY2024) [10Q1]; Apple -4.3% year over year"
    ), text
    assert text.endswith("Microsoft grew the most.")
    asked = said(
        "Did Apple's revenue grow more than Microsoft's year over year?", MSFT_AAPL_YOY, ["AAPL", "MSFT"]
    )
    assert asked.startswith("No. Ranked by revenue growth, highest first: Microsoft +17.0%"), asked


def test_a_cagr_and_a_trend_are_stated_with_their_end_points() -> None:
    years = [
        cell("AAPL", "FY2021", date(2021, 9, 25), "365817"),
        cell("AAPL", "FY2022", date(2022, 9, 24), "394328"),
        cell("AAPL", "FY2023", date(2023, 9, 30), "383285"),
        cell("AAPL", "FY2024", date(2024, 9, 28), "391035"),
    ]
    cagr = said("What was Apple's revenue CAGR from fiscal 2021 to 2024?", years, ["AAPL"])
    assert cagr.startswith(
        "Apple's revenue grew at a compound annual rate of 2.2% from FY2021 to FY2024 "
        "($365,817 million to $391,035 million)"
    ), cagr
    loss = [
        cell("AMZN", "FY2022", date(2022, 12, 31), "-2722", metric="net_income"),
        cell("AMZN", "FY2024", date(2024, 12, 31), "59248", metric="net_income"),
    ]
    undefined = said("What was Amazon's net income CAGR between 2022 and 2024?", loss, ["AMZN"], "net_income")
    assert undefined.endswith("No compound annual growth rate is defined from a loss, as in FY2022."), (
        undefined
    )
    trend = said("How did Apple's revenue change from fiscal 2021 to 2024?", years, ["AAPL"])
    assert trend.startswith(
        "Apple's revenue went from $365,817 million in FY2021 to $391,035 million in FY2024, grew 6.9%"
    ), trend
    assert "It rose in two of three steps: +7.8% to FY2022, -2.8% to FY2023 and +2.0% to FY2024." in trend


def test_a_direction_question_is_answered_yes_or_no_by_the_computed_change() -> None:
    cells = [
        cell("MSFT", "FY2022", date(2022, 6, 30), "47032", metric="revenue"),
        cell("MSFT", "FY2023", date(2023, 6, 30), "41990", metric="revenue"),
    ]
    text = said("Did Microsoft's revenue increase between FY2022 and FY2023?", cells, ["MSFT"])
    assert text.startswith(
        "No (computed from the figures: Microsoft's revenue declined 10.7% from FY2022 ($47,032 million) "
        "to FY2023 ($41,990 million)"
    ), text


def test_a_multiple_asked_is_decided_by_the_computed_change_and_the_rule_is_stated() -> None:
    """ "Did it more than double?" is a rise of 100% or more: +101.5% is yes, +20.9% is no; a rise is
    not a doubling, and a question about "nearly" doubling gets no yes or no."""
    year_apart = [
        cell("NVDA", "Q2 FY2024", date(2023, 7, 30), "13507", label="10Q3"),
        cell("NVDA", "Q2 FY2023", date(2022, 7, 31), "6704", role="comparative", label="10Q3"),
    ]
    question = "Did NVIDIA's revenue more than double in the quarter ended July 30, 2023 from a year earlier?"
    text = said(question, year_apart, ["NVDA"])
    assert text.startswith("Yes (computed from the figures: NVIDIA's revenue grew 101.5%"), text
    assert "a rise of 100% or more is a doubling)" in text, text
    smaller = [year_apart[0], cell("NVDA", "Q2 FY2023", date(2022, 7, 31), "11172", role="comparative")]
    assert said(question, smaller, ["NVDA"]).startswith(
        "No (computed from the figures: NVIDIA's revenue grew 20.9%"
    )
    nearly = said(question.replace("more than double", "nearly double"), year_apart, ["NVDA"])
    assert not nearly.startswith(("Yes", "No")), nearly


def test_a_restatement_gives_both_values_their_filings_and_the_difference() -> None:
    latest = cell("AAPL", "Q3 FY2023", date(2023, 7, 1), "19910", metric="revenue", label="10Q2")
    restated = Restatement(
        original=Decimal("19881000000"),
        original_filing="AAPL|10-Q|2023-07-01",
        latest=Decimal("19910000000"),
        latest_filing="AAPL|10-Q|2024-06-29",
        original_chunk_id=1,
        latest_chunk_id=2,
    )
    figures = [
        Figure(
            ticker="AAPL",
            metric="revenue",
            metric_label="Revenue",
            period=FiscalPeriod.of_quarter(2023, 3),
            duration="quarter",
            period_end=date(2023, 7, 1),
            value=Decimal("19910000000"),
            unit="USD",
            concept="us-gaap:Revenues",
            fact_id=2,
            source="xbrl",
            role="target",
            restated=(restated,),
        )
    ]
    text = said(
        "Did Apple restate its revenue for the quarter ended July 1, 2023?",
        [latest],
        ["AAPL"],
        figures=figures,
        labels={1: "10Q1", 2: "10Q2"},
    )
    assert text == (
        "Yes: Apple's revenue for Q3 FY2023 was first reported as $19,881 million in its 10-Q for the period "
        "ended July 1, 2023 [10Q1] and later as $19,910 million in its 10-Q for the period ended June 29, "
        "2024 [10Q2], a difference of $29 million."
    )
    unchanged = said("Did Apple restate its revenue for the quarter ended July 1, 2023?", [latest], ["AAPL"])
    assert unchanged.startswith("No: every filing in the store reports the same value")


def test_one_scale_per_metric_across_companies() -> None:
    cells = [
        cell("NFLX", "FY2024", date(2024, 12, 31), "8711.631", scale=3),
        cell("BA", "FY2024", date(2024, 12, 31), "66517"),
    ]
    ask = read_ask("Compare Netflix's and Boeing's revenue in fiscal 2024", ["NFLX", "BA"], {}, ["revenue"])
    table = markdown_table(cells, compare(cells, Wanted()), NAMES, ["revenue"], ask=ask)
    assert "$8,711.631 million" in table and "$66,517 million" in table and "thousand" not in table


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Rank AAPL, MSFT and NVDA by revenue growth over the last three quarters", "ranking"),
        ("Did NVIDIA's quarterly revenue overtake Intel's during 2023?", "overtake"),
        ("In which quarter did NVIDIA's revenue first exceed Intel's?", "overtake"),
        ("Has Microsoft increased its revenue between FY2022 and FY2023?", "direction"),
        ("Did Apple restate its revenue for the quarter ended July 1, 2023?", "restatement"),
        ("What was Apple's revenue CAGR from fiscal 2021 to 2024?", "change"),
        ("Compare Apple's and Microsoft's revenue in FY2024", "comparison"),
        ("What was Apple's revenue in FY2024?", "value"),
        ("Put Apple, Microsoft and NVIDIA in order of revenue for fiscal 2024", "ranking"),
        ("Did NVIDIA's revenue outstrip Intel's at any point in 2023?", "overtake"),
        ("When did NVIDIA first report higher quarterly revenue than Intel?", "overtake"),
        ("Is Apple's revenue growing?", "direction"),
        ("Are Apple's gross margins consistent from year to year?", "stability"),
    ],
)
def test_the_ask_is_typed_from_the_question(question: str, kind: str) -> None:
    tickers = [t for t in ("AAPL", "MSFT", "NVDA", "INTC") if t in question or NAMES[t][-1] in question]
    assert read_ask(question, tickers, {}, ["revenue"]).kind == kind


def test_a_question_naming_no_period_covers_every_report_only_for_a_change_or_its_reports() -> None:
    trend = read_ask(
        "How has Amazon's revenue developed across its filings?",
        ["AMZN"],
        {},
        ["revenue"],
        periods_named=False,
    )
    value = read_ask("What is Amazon's revenue?", ["AMZN"], {}, ["revenue"], periods_named=False)
    reports = read_ask(
        "Which legal matters does Amazon discuss in its quarterly reports?",
        ["AMZN"],
        {},
        [],
        periods_named=False,
    )
    assert (trend.coverage, value.coverage, reports.coverage) == ("all", "latest", "all")
    assert Ask.from_dict(trend.to_dict()) == trend


def test_period_phrases_the_same_quarter_and_a_narrowed_span() -> None:
    same = parse_time_phrases("gross profit in the second quarter of 2024 and in the same quarter of 2023")
    assert [s.describe() for s in same] == ["fiscal_quarter(2024, 2)", "fiscal_quarter(2023, 2)"]
    narrowed = parse_time_phrases(
        "Did NVIDIA's revenue overtake Intel's during 2023? Give each of their first three fiscal quarters "
        "reported in 2023."
    )
    assert [s.describe() for s in narrowed] == ["reported(2023-01-01, 2023-12-31, first 3)[quarter]"]


def test_a_draft_cut_by_the_token_limit_loses_its_unfinished_sentence() -> None:
    cut = (
        "Amazon had the highest revenue [10Q1]. Amazon.com ($127,358 million [10Q1], Q1 FY2023) had the "
        "highest revenue, then"
    )
    assert whole_sentences(cut) == "Amazon had the highest revenue [10Q1]."
    assert whole_sentences("Revenue rose.\n- Services grew") == "Revenue rose.\n- Services grew"
    assert whole_sentences("Revenue rose 5% [10K1]") == "Revenue rose 5% [10K1]"
    assert whole_sentences("Revenue rose 5% because") == ""
    assert whole_sentences("Revenue rose 5%. [10K1]") == "Revenue rose 5%. [10K1]"


def test_another_companys_number_is_unsupported_and_the_reason_says_whose_it_is() -> None:
    from finagent.finance.check.verify import UNSUPPORTED, PeriodScope, verify_answer

    known = [
        {"ticker": "NVDA", "period": "Q4 FY2024", "value": 22_103e6, "kind": "amount", "what": "revenue"},
        {"ticker": "INTC", "period": "Q3 FY2023", "value": 14_158e6, "kind": "amount", "what": "revenue"},
    ]
    items = [{"label": "10K1", "chunk_id": 1, "ticker": "NVDA", "text": "Revenue | 22,103 (in millions)"}]
    scope = PeriodScope(known=known, names={"NVDA": ["NVIDIA"], "INTC": ["Intel"]})
    wrong = verify_answer("Intel's revenue in Q4 FY2023 was $22,103 million [10K1].", items, [], scope=scope)
    assert wrong.status == UNSUPPORTED
    (check,) = [c for c in wrong.unverified if c.text == "$22,103 million"]
    assert check.wrong and "is NVDA's revenue for Q4 FY2024, not INTC's" in check.how
    right = verify_answer("NVIDIA's revenue in Q4 FY2024 was $22,103 million [10K1].", items, [], scope=scope)
    assert right.status != UNSUPPORTED


def test_a_threshold_met_from_the_first_period_is_yes_and_names_it() -> None:
    quarters = [
        cell("AAPL", "Q1 FY2023", date(2022, 12, 31), "117154"),
        cell("AAPL", "Q2 FY2023", date(2023, 4, 1), "94836"),
    ]
    text = said(
        "Did Apple's quarterly revenue exceed $100 billion in any quarter of fiscal 2023?", quarters, ["AAPL"]
    )
    assert text.startswith(
        "Yes: Apple's revenue was above $100 billion in Q1 FY2023 (the quarter ended December 31, 2022)"
    )


def test_a_direction_in_other_words_and_a_loss_that_widened() -> None:
    revenue = [
        cell("MSFT", "FY2022", date(2022, 6, 30), "47032"),
        cell("MSFT", "FY2023", date(2023, 6, 30), "41990"),
    ]
    down = said("Has Microsoft's revenue gone down between FY2022 and FY2023?", revenue, ["MSFT"])
    assert down.startswith("Yes (computed from the figures: Microsoft's revenue declined 10.7%"), down
    up = said("Did Microsoft's revenue go up between FY2022 and FY2023?", revenue, ["MSFT"])
    assert up.startswith("No (computed from the figures:"), up
    loss = [
        cell("BA", "FY2023", date(2023, 12, 31), "-773", metric="operating_income"),
        cell("BA", "FY2024", date(2024, 12, 31), "-10707", metric="operating_income"),
    ]
    widened = said(
        "Did Boeing's operating loss widen in 2024 compared with 2023?", loss, ["BA"], "operating_income"
    )
    assert widened.startswith(
        "Yes (computed from the figures: Boeing's operating income fell by $9,934 million from FY2023 "
        "(-$773 million) to FY2024 (-$10,707 million)"
    ), widened
    narrowed = said("Did Boeing's operating loss narrow in 2024?", loss, ["BA"], "operating_income")
    assert narrowed.startswith("No (computed from the figures: Boeing's operating income fell by"), narrowed


def margin(period: str, end: date, value: str, label: str) -> Cell:
    return Cell(
        "AAPL", "gross_margin", FiscalPeriod.parse(period), end, Decimal(value), "percent", 0, (label,)
    )


def test_a_steadiness_question_is_answered_by_the_largest_move_between_periods() -> None:
    margins = [
        margin("FY2021", date(2021, 9, 25), "41.8", "10K1"),
        margin("FY2022", date(2022, 9, 24), "43.3", "10K2"),
        margin("FY2023", date(2023, 9, 30), "44.1", "10K3"),
    ]
    asked = (
        "Are Apple's gross margins historically consistent (not fluctuating more than roughly 2% each year)?"
    )
    steady = said(asked, margins, ["AAPL"], "gross_margin")
    assert steady.startswith(
        "Yes (computed from the figures: Apple's gross margin moved by up to 1.5 percentage points from one "
        "period to the next from FY2021 to FY2023, within 2%: the largest move was from FY2021 (41.8%) to "
        "FY2022 (43.3%) [10K1, 10K2])."
    ), steady
    tight = said(asked.replace("2%", "1%"), margins, ["AAPL"], "gross_margin")
    assert tight.startswith("No (computed from the figures: Apple's gross margin moved by up to 1.5"), tight


def test_an_improving_margin_is_a_rise_in_points_and_an_improving_cost_a_fall() -> None:
    margins = [
        margin("FY2021", date(2021, 9, 25), "36.8", "10K1"),
        margin("FY2022", date(2022, 9, 24), "34.6", "10K2"),
    ]
    asked = "Does Apple have an improving gross margin profile as of FY2022?"
    text = said(asked, margins, ["AAPL"], "gross_margin")
    assert text.startswith(
        "No (computed from the figures: Apple's gross margin fell by 2.2 percentage points from FY2021 "
        "(36.8%) to FY2022 (34.6%) [10K1, 10K2])."
    ), text
    assert read_ask("Did Apple's SG&A expenses improve in 2024?", ["AAPL"], {}, ["sga"]).up is False
    assert read_ask("Did Apple's operating income improve in 2024?", ["AAPL"], {}, ["operating_income"]).up


def test_a_margin_whose_line_the_statement_does_not_print_is_not_computed() -> None:
    """American Express's income statement prints revenue but no operating income: the model's copy
    of another line (net income) is no operating income, and no operating margin is made of it."""
    cells = [
        replace(cell("AXP", "FY2022", date(2022, 12, 31), "42967"), note="table"),
        replace(cell("AXP", "FY2022", date(2022, 12, 31), "7514", metric="operating_income"), note="model"),
    ]
    asked = "Does AMEX have an improving operating margin profile as of 2022?"
    text = said(asked, cells, ["AXP"], "operating_margin")
    assert text.startswith(
        "American Express' statement for FY2022 prints revenue but no operating income line [10K1]: "
        "operating margin is not a measure it reports, and none is computed."
    ), text
    computed = compare(cells, Wanted.from_question(asked), ["operating_margin"])
    assert not [c for c in computed.calculations if c["kind"] == "operating_margin"]
    printed = [replace(c, note="table") for c in cells]  # both lines read from the statement
    margin_of = compare(printed, Wanted.from_question(asked), ["operating_margin"])
    assert [c["result_text"] for c in margin_of.calculations if c["kind"] == "operating_margin"] == ["17.5%"]
    assert "not a measure it reports" not in said(asked, printed, ["AXP"], "operating_margin")


def test_one_companys_figure_set_against_another_period_is_stated_as_a_change() -> None:
    quarters = [
        cell("MSFT", "Q2 FY2024", date(2023, 12, 31), "62020", label="10Q1"),
        cell("MSFT", "Q2 FY2025", date(2024, 12, 31), "69632", label="10Q2"),
    ]
    text = said("What was Microsoft's revenue in Q2 FY2025 versus Q2 FY2024?", quarters, ["MSFT"])
    assert text.startswith(
        "Microsoft's revenue went from $62,020 million in Q2 FY2024 to $69,632 million in Q2 FY2025, "
        "grew 12.3%"
    ), text


def test_a_direction_over_a_span_is_decided_by_the_change_over_that_span() -> None:
    quarters = [
        cell("INTC", "Q1 FY2023", date(2023, 4, 1), "11715"),
        cell("INTC", "Q1 FY2022", date(2022, 4, 2), "18353", role="comparative"),
        cell("INTC", "Q3 FY2023", date(2023, 9, 30), "14158"),
        cell("INTC", "Q3 FY2022", date(2022, 10, 1), "15338", role="comparative"),
    ]
    text = said(
        "Did Intel's revenue increase from the first quarter of 2023 to the third quarter of 2023?",
        quarters,
        ["INTC"],
    )
    assert text.startswith("Yes (computed from the figures: Intel's revenue grew 20.9% from Q1 FY2023"), text


def test_a_quarter_and_the_same_quarter_a_year_earlier_read_as_one_change() -> None:
    quarters = [
        cell("INTC", "Q3 FY2023", date(2023, 9, 30), "14158"),
        cell("INTC", "Q3 FY2022", date(2022, 10, 1), "15338"),
        cell("INTC", "Q3 FY2021", date(2021, 9, 25), "19192", role="comparative"),
    ]
    text = said(
        "What was Intel's revenue in the third quarter of 2023 and in the same quarter of 2022?",
        quarters,
        ["INTC"],
    )
    assert text == (
        "Intel's revenue declined 7.7% year over year in Q3 FY2023: $14,158 million against $15,338 million "
        "in Q3 FY2022 [10K1]."
    )


def test_an_overtake_between_companies_reads_a_bare_year_as_the_calendar_year() -> None:
    from finagent.agent.understand.plan import calendar_years_for

    specs = parse_time_phrases(
        "In which quarter of 2023 did NVIDIA's revenue first exceed Intel's? And in fiscal 2024?"
    )
    ask = {"kind": "overtake", "subjects": ["NVDA", "INTC"]}
    read = [s.describe() for s in calendar_years_for(ask, specs)]
    assert read == ["date_range(2023-01-01, 2023-12-31)[quarter]", "fiscal_year(2024)[quarter]"], read
    assert calendar_years_for({"kind": "ranking", "subjects": ["NVDA", "INTC"]}, specs) == specs


def test_a_margin_says_how_it_is_computed_and_only_a_fourth_quarter_is_derived_from_the_year() -> None:
    from dataclasses import replace

    revenue = cell("ADBE", "FY2022", date(2022, 12, 2), "17606")
    income = replace(revenue, metric="operating_income", value=Decimal("6098000000"))
    ask = read_ask("What was Adobe's operating margin in FY2022?", ["ADBE"], {}, ["operating_income"])
    comparisons = compare([revenue, income], Wanted(), ["operating_margin"])
    facts = Facts(ask, "operating_margin", [revenue, income, *comparisons.cells], comparisons, NAMES)
    text = opening(facts).text
    assert "computed as operating income divided by revenue" in text and "nine months" not in text, text
    assert "34.6%" in text


def test_a_copied_amount_takes_the_scale_its_text_prints_or_none() -> None:
    from finagent.agent.answer.choose import printed_scale

    assert printed_scale(43875, "Net income for the quarter was $43,875 thousand, up from last year.") == 3
    assert printed_scale(81797, "Total net sales were $81,797 million [sic].") == 6
    assert printed_scale(43875, "Net income | 43,875 | 41,002") is None  # no caption, no scale word: withheld
    assert printed_scale(81797000000, "revenue of $81,797,000,000") == 0


def test_the_models_copy_of_the_computed_opening_and_table_is_dropped() -> None:
    from finagent.agent.answer.write import without_echo

    opening = "No (computed from the figures: Adobe's operating margin fell by 2.1 percentage points [10K1])."
    table = "| Company | Period | Operating margin |\n|---|---|---|\n| Adobe (ADBE) | FY2022 | 34.6% [10K1] |"
    prose = f"{opening} {table}\n\nThe decline came from higher operating expenses [10K7]."
    assert without_echo(prose, opening) == "The decline came from higher operating expenses [10K7]."


def test_a_model_sentence_that_only_restates_codes_figures_goes_and_one_that_adds_a_cause_stays() -> None:
    from finagent.agent.answer.write import without_echo

    head = (
        "Coca-Cola's net income fell 3.2% from $10,714 million in FY2023 to $10,631 million in FY2024 [10K1]."
        "\n\n| Company | Period | Net income |\n|---|---|---|"
        "\n| Coca-Cola (KO) | FY2024 | $10,631 million [10K1] |"
    )
    restated = [
        "The company reported net income of $10.6 billion in 2024, compared with $10.7 billion in 2023.",
        "In 2024, Coca-Cola's net income stood at $10,631 million [10K1].",
        "The passage states that net income decreased 3.2% from $10,714 million to $10,631 million [10K5].",
        "As shown above, net income went from $10.7 billion to $10.6 billion, a decline of 3.2% [10K2].",
    ]
    kept = [
        "Net income declined 3.2% [10K3], mainly because of higher other operating charges [10K3].",
        "Net income of $10,631 million included a gain on the refranchising of bottlers [10K3].",
        "Operating income was $9,992 million while net income was $10,631 million [10K3].",
        "Pepsi's net income fell 3.2% [10K4].",
    ]
    for sentence in restated:
        assert without_echo(sentence, head) == "", sentence
    for sentence in kept:
        assert without_echo(sentence, head) == sentence, sentence
    assert without_echo(f"{restated[1]} {kept[0]}", head) == kept[0]


def test_a_computed_ratio_asked_for_opens_the_answer_before_the_lines_it_is_read_from() -> None:
    inventories = cell("JNJ", "FY2022", date(2023, 1, 1), "12483", metric="inventory")
    question = (
        "Roughly how many times has JnJ sold its inventory in FY2022? Calculate its inventory turnover."
    )
    ask = read_ask(question, ["JNJ"], {}, ["inventory"])
    turnover = {
        "kind": "formula",
        "ticker": "JNJ",
        "metric": "inventory turnover",
        "period": "FY2022",
        "expression": "31089 / ((12483 + 10387) / 2)",
        "result": 2.72,
        "result_text": "2.72",
        "sources": ["10K1"],
    }
    names = NAMES | {"JNJ": ["JNJ", "Johnson & Johnson"]}
    facts = Facts(
        ask, "inventory", [inventories], compare([inventories], Wanted()), names, formulas=[turnover]
    )
    text = opening(facts).text
    assert text.startswith("Johnson & Johnson's inventory turnover for FY2022 was 2.72 (computed: "), text
    assert "inventories in FY2022" in text
    why = read_ask(
        question + " If it is not meaningful, explain why.", ["JNJ"], {}, ["inventory"], narrative=True
    )
    assert why.kind == "narrative"
    facts = Facts(
        why, "inventory", [inventories], compare([inventories], Wanted()), names, formulas=[turnover]
    )
    assert opening(facts).text.startswith("Johnson & Johnson's inventory turnover for FY2022 was 2.72")


def test_a_sentence_the_model_repeats_is_said_once() -> None:
    from finagent.agent.answer.draft import without_repeats

    looped = (
        "The quick ratio for Verizon was 0.71 [10K3]. It is calculated as (current assets - inventories) "
        "/ current liabilities [10K1]. The quick ratio for Verizon was 0.71 [10K2]. It is calculated as "
        "(current assets - inventories) / current liabilities [10K1]. Liquidity is tight."
    )
    assert without_repeats(looped) == (
        "The quick ratio for Verizon was 0.71 [10K3]. It is calculated as (current assets - inventories) "
        "/ current liabilities [10K1]. Liquidity is tight."
    )
    assert without_repeats("Yes. Yes. Revenue rose.") == "Yes. Yes. Revenue rose."  # too short to be a loop
    opening = "PepsiCo raised its guidance by 1 percentage point, to 9 percent from 8 percent [ER2]."
    assert without_repeats(f"{opening} 2 [ER2]. 3 [ER1].") == opening  # stray numbers, no words
    listed = "1. Revenue rose [10K1]. 2. Costs fell."
    assert without_repeats(listed) == listed  # list numbers are kept
    assert without_repeats("Revenue rose [10K1]. 2. [ER2] 3.") == "Revenue rose [10K1]."
    restated = (
        "The press release mentions that the company issued the attached press release providing updated "
        "financials [8K1]. The press release states that the company issued the attached press release "
        "providing updated financials [8K1]. Its gain was about $20 billion [8K1]."
    )
    assert without_repeats(restated) == (  # the same sentence with another verb is a loop too
        "The press release mentions that the company issued the attached press release providing updated "
        "financials [8K1]. Its gain was about $20 billion [8K1]."
    )
    regions = (
        "Americas net sales decreased due to lower iPhone sales [10Q1]. Europe net sales decreased due "
        "to lower Mac sales [10Q1]. Greater China net sales increased [10Q1]."
    )
    assert without_repeats(regions) == regions  # alike, but each says something of its own


# A change asked of one period is against the same period a year before (the statement's comparative
# column). Written for this check in two halves: the wording was settled on the first, the second
# only run. (question, ticker, metric, prior, asked, the opening expected)
ONE_PERIOD_CHANGES_TUNED = [
    (
        "Why did Walmart's revenue change in fiscal 2024?",
        "WMT",
        "revenue",
        ("FY2023", "611289"),
        ("FY2024", "648125"),
        "Walmart's revenue grew 6.0% from $611,289 million in FY2023 to $648,125 million in FY2024 "
        "[10K1, 10K2].",
    ),
    (
        "How much did Apple's gross margin change in FY2023?",
        "AAPL",
        "gross_margin",
        ("FY2022", "43.3"),
        ("FY2023", "44.1"),
        "Apple's gross margin rose by 0.8 percentage points from FY2022 (43.3%) to FY2023 (44.1%) "
        "[10K1, 10K2].",
    ),
]
ONE_PERIOD_CHANGES_HELD = [
    (
        "What drove the change in Netflix's revenue in 2023?",
        "NFLX",
        "revenue",
        ("FY2022", "31616"),
        ("FY2023", "33723"),
        "Netflix's revenue grew 6.7% from $31,616 million in FY2022 to $33,723 million in FY2023 "
        "[10K1, 10K2].",
    ),
    (
        "Why did Intel's gross margin change in 2023?",
        "INTC",
        "gross_margin",
        ("FY2022", "42.6"),
        ("FY2023", "40.0"),
        "Intel's gross margin fell by 2.6 percentage points from FY2022 (42.6%) to FY2023 (40.0%) "
        "[10K1, 10K2].",
    ),
]


@pytest.mark.parametrize(
    ("question", "ticker", "metric", "prior", "asked", "expected"),
    ONE_PERIOD_CHANGES_TUNED + ONE_PERIOD_CHANGES_HELD,
)
def test_a_change_asked_of_one_period_is_against_the_year_before(
    question: str, ticker: str, metric: str, prior: tuple[str, str], asked: tuple[str, str], expected: str
) -> None:
    def one(period: str, value: str, role: str, label: str) -> Cell:
        year = int(period[2:])
        end = date(year, 12, 31)
        if metric == "gross_margin":
            return Cell(
                ticker,
                metric,
                FiscalPeriod.parse(period),
                end,
                Decimal(value),
                "percent",
                0,
                (label,),
                role=role,
            )
        return cell(ticker, period, end, value, metric=metric, role=role, label=label)

    cells = [one(*prior, "comparative", "10K1"), one(*asked, "target", "10K2")]
    text = said(question, cells, [ticker], metric)
    assert text.startswith(expected), text


def test_a_margin_whose_line_nothing_states_beside_a_printed_base_is_not_reported() -> None:
    """American Express's statement prints revenue and no gross profit; a copy of another line was
    withheld by its checks (a gross profit above revenue): the margin is not a measure it reports."""
    from finagent.finance.looked_up import Gap

    revenue = replace(cell("AXP", "FY2022", date(2022, 12, 31), "52862"), note="table")
    gap = Gap(
        ticker="AXP",
        metric="gross_profit",
        period=FiscalPeriod.parse("FY2022"),
        reason="no reported figure in the store",
    )
    asked = "What drove gross margin change as of FY2022 for American Express?"
    text = said(asked, [revenue], ["AXP"], "gross_margin", gaps=[gap])
    assert text.startswith(
        "American Express' statement for FY2022 prints revenue but no gross profit line [10K1]: gross margin "
        "is not a measure it reports, and none is computed."
    ), text
    from_xbrl = said(asked, [replace(revenue, note="xbrl")], ["AXP"], "gross_margin", gaps=[gap])
    assert "not a measure it reports" not in from_xbrl  # no statement table was read: not claimed


def test_a_ratio_asked_opens_even_when_its_inputs_span_two_years() -> None:
    """Two years named for an average's balances are the ratio's inputs, not a change asked: the ratio
    of the asked year opens, not how accounts payable moved (nor the year before's ratio)."""
    cells = [
        cell("WMT", "FY2022", date(2022, 1, 31), "55261", metric="accounts_payable", role="comparative"),
        cell("WMT", "FY2023", date(2023, 1, 31), "53742", metric="accounts_payable"),
        cell("WMT", "FY2023", date(2023, 1, 31), "463721", metric="cost_of_revenue"),
    ]
    formulas = [
        {
            "kind": "formula",
            "ticker": "WMT",
            "metric": "days payable outstanding",
            "period": period,
            "expression": expression,
            "result": value,
            "result_text": f"{value:.1f} days",
            "sources": ["10K1"],
        }
        for period, expression, value in [
            ("FY2022", "365 * 55261 / 429000", 47.0),
            ("FY2023", "365 * (53742 + 55261) / 2 / 463721", 42.9),
        ]
    ]
    for asked in (
        "Using the average of accounts payable between FY2022 and FY2023, what was Walmart's FY2023 "
        "days payable outstanding?",
        # a change of an input named in the ratio's definition is no change asked of a figure
        "Using the average of accounts payable between FY2022 and FY2023 over cost of sales plus the "
        "change in inventory between those years, what was Walmart's FY2023 days payable outstanding?",
    ):
        text = said(asked, cells, ["WMT"], "accounts_payable", formulas=formulas)
        assert text.startswith("Walmart's days payable outstanding for FY2023 was 42.9 days"), text
        assert "accounts payable went from" not in text
