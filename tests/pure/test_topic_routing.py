"""Topic routing: what a question is about decides the report sections searched for it.

The questions are written for this test (other companies, years and words than the benchmark's):
a rule that only knew the dev set's wording would fail them.
"""

from __future__ import annotations

from typing import Any

import pytest

from finagent.agent.understand.question_words import read_wording
from finagent.finance.periods import parse_time_phrases
from finagent.finance.read.filing_sections import event_item, section_topics, sections_for

MDA_10K, NOTES_10K = "item_7", "item_8"


@pytest.mark.parametrize(
    ("question", "topic", "section"),
    [
        (
            "How did Costco's liquidity position change over fiscal 2021?",
            "liquidity and capital resources",
            MDA_10K,
        ),
        ("How much did Nike spend on share buybacks in 2020?", "liquidity and capital resources", MDA_10K),
        ("Which operating segment of Oracle grew the most in fiscal 2023?", "segments and regions", MDA_10K),
        ("How did eBay's international revenue develop in 2019?", "segments and regions", NOTES_10K),
        ("Which acquisitions did AES complete during 2021?", "acquisitions and divestitures", NOTES_10K),
        ("Is Pfizer spinning off a business unit?", "acquisitions and divestitures", NOTES_10K),
        ("What were Kraft Heinz's severance costs under its 2020 programme?", "restructuring", NOTES_10K),
        ("Why did Netflix's effective tax rate fall in 2021?", "income taxes", NOTES_10K),
        ("What payments does Coca-Cola expect to make to retirees?", "employee benefits", NOTES_10K),
        ("Did Kraft Heinz write down goodwill in 2019?", "goodwill and intangibles", NOTES_10K),
        ("When do Costco's senior notes mature?", "debt", NOTES_10K),
        ("How large are Best Buy's operating lease liabilities?", "leases", NOTES_10K),
        ("How much stock-based compensation did Adobe expense in 2021?", "stock compensation", NOTES_10K),
        ("What purchase obligations does Nike carry?", "commitments and contingencies", NOTES_10K),
        (
            "How does General Mills hedge commodity prices with derivatives?",
            "derivatives and hedging",
            NOTES_10K,
        ),
    ],
)
def test_a_financial_topic_routes_to_the_section_that_discusses_it(
    question: str, topic: str, section: str
) -> None:
    assert topic in [t.name for t in section_topics(question)]
    assert section in sections_for(question)


@pytest.mark.parametrize(
    "question",
    [
        "What was Oracle's total revenue in fiscal 2022?",
        "What is Nike's FY2021 inventory turnover ratio?",
        "Did Costco's gross margin improve in 2022?",
        "What drove the change in Boeing's operating margin in 2020?",
    ],
)
def test_a_figure_or_driver_question_names_no_section(question: str) -> None:
    assert sections_for(question) == []


def test_a_10q_question_reaches_the_quarterly_reports_notes_and_discussion() -> None:
    sections = sections_for("Which region drove Pfizer's revenue decline in its latest quarter?")
    assert {"part1_item_1", "part1_item_2"} <= set(sections)


def _planned(question: str) -> list[dict[str, Any]]:
    from finagent.agent.context import Context
    from finagent.agent.nodes.fan_out import plan_searches
    from finagent.agent.understand.plan import question_traits

    specs = parse_time_phrases(question)
    analysis: dict[str, Any] = {
        "question": question,
        "tickers": ["ORCL"],
        "keywords": {"ORCL": ["acquisitions debt"]},
        "sources": ["10-K", "10-Q"],
        "time_specs": [s.to_dict() for s in specs],
        **question_traits(read_wording(question), specs, ["ORCL"], {}, [], []),
    }
    target = {"ticker": "ORCL", "fiscal_year": 2022, "fiscal_quarter": None, "label": "FY2022"}
    runtime: Any = type("Runtime", (), {"context": Context()})()
    state: Any = {"question": question, "analysis": analysis, "targets": [target]}
    return [dict(s.arg) for s in plan_searches(state, runtime) if s.node == "search"]


def test_each_topic_gets_its_own_section_search_with_the_sections_words() -> None:
    routed = [
        t
        for t in _planned("How did Oracle fund its acquisitions with debt in fiscal 2022?")
        if t.get("sections")
    ]
    by_sections = {tuple(t["sections"]): t for t in routed}
    assert ("item_8", "part1_item_1") in by_sections  # the notes (acquisitions, then debt)
    assert ("item_7", "part1_item_2") in by_sections  # liquidity and capital resources
    assert len(routed) == 3
    assert all(t["fiscal_year"] == 2022 and t["k"] <= 5 for t in routed)
    assert any("liquidity and capital resources" in t["query"] for t in routed)
    assert any("business combinations" in t["query"] for t in routed)
    # Beside the question's own search of the same report, a little below its best page.
    own = next(
        t
        for t in _planned("How did Oracle fund its acquisitions with debt in fiscal 2022?")
        if not t.get("sections")
    )
    assert all(t["priors"].get("*", 0.0) < own["priors"].get("*", 0.0) for t in routed)


def test_a_named_report_part_wins_over_the_financial_words_inside_it() -> None:
    question = "Which notes and debentures of Corning are registered on a stock exchange?"
    assert sections_for(question) == ["cover"]
    assert [t.name for t in section_topics("What debt does Corning have outstanding?")] == [
        "liquidity and capital resources",
        "debt",
    ]


def _undated(question: str, annual_topics_undated: bool = True) -> frozenset[str] | None:
    from finagent.agent.context import Ablations, Context
    from finagent.agent.nodes.resolve_periods import _specs
    from finagent.agent.understand.plan import question_traits
    from finagent.agent.understand.question import Question

    specs = parse_time_phrases(question)
    traits = question_traits(read_wording(question), specs, ["X"], {}, [], [])
    # the companies asked are the plan's own names, as in a plan analyze reads
    names = {"X": ["Oracle", "Costco", "eBay"]}
    analysis = {"time_specs": [s.to_dict() for s in specs], "names": names, **traits}
    return _specs(
        Question.from_dict(analysis),
        Context(ablations=Ablations(annual_topics_undated=annual_topics_undated)),
    )[1]


def test_what_the_annual_report_sets_out_with_no_year_is_every_annual_report() -> None:
    annual = frozenset({"10-K", "annual_report"})
    assert _undated("Who does Oracle compete with?") == annual
    assert _undated("Is Costco's business seasonal?") == annual
    assert _undated("What risk factors does eBay highlight?") == annual
    assert _undated("Who does Oracle compete with in fiscal 2021?") is None  # the year named decides
    assert _undated("How did Oracle's debt change?") is None  # a figure: the newest report
    assert _undated("Who does Oracle compete with?", annual_topics_undated=False) is None


@pytest.mark.parametrize(
    ("kind", "section", "lifted"),
    [
        ("8-K", "item_8_01", True),  # "Item 8.01 Other Events: PepsiCo entered into ... may borrow up to"
        ("8-K", "item_5_02", True),  # a new officer's appointment
        ("8-K", "item_9_01", False),  # the exhibit list, and the 100-page agreement filed under it
        ("8-K", None, False),  # the cover page
        ("10-K", "item_7", False),  # only an 8-K's Items are its account of an event
    ],
)
def test_an_8k_s_own_items_are_its_account_of_the_event_not_its_exhibits(
    kind: str, section: str | None, lifted: bool
) -> None:
    assert event_item(kind, section) is lifted


def test_the_press_release_an_8k_s_item_points_to_opens_its_account_of_the_event() -> None:
    release = "Exhibit 99.1\nJohnson & Johnson Announces Updated Financials and 2023 Guidance"
    assert event_item("8-K", "item_9_01", release)
    assert not event_item("8-K", "item_9_01", "Exhibit 99.2\nSupplementary Sales Data (Unaudited)")
    assert not event_item("8-K", "item_9_01", "Exhibit 99.10 Form of award agreement")
    assert not event_item("8-K", "item_9_01", "The release continues: see Exhibit 99.1 for the tables.")
    assert not event_item("10-K", "item_9_01", release)


@pytest.mark.parametrize(
    ("question", "every_period"),
    [
        ("Who is replacing Safra Catz as Oracle's CEO?", True),  # the 8-K that names her, whenever filed
        ("What did Costco say about Kirkland Signature?", True),
        ("Where does Oracle's lawsuit with Rimini Street stand?", False),  # its latest: the newest report
        ("How much revenue did Oracle earn from Cerner?", False),  # a figure: the newest report
        ("Who is replacing Safra Catz as Oracle's CEO in fiscal 2021?", False),  # the year named decides
    ],
)
def test_a_question_in_words_about_a_name_with_no_period_searches_every_period(
    question: str, every_period: bool
) -> None:
    assert (_undated(question) == frozenset()) is every_period


# What a company does, asked with its name anywhere in the question: the name is read as "the
# company", whatever its length. Tuned on the first list; the second was only run.
BUSINESS_TUNED = [
    ("What does Meta Platforms actually do?", "Meta Platforms"),
    ("Which therapeutic areas is AbbVie in?", "AbbVie"),
    ("What industries does Honeywell International operate in?", "Honeywell International"),
]
BUSINESS_HELD = [
    ("What does Union Pacific really do?", "Union Pacific"),
    ("Which markets is Caterpillar in, per its latest annual report?", "Caterpillar"),
    ("What does Deere & Company mainly sell?", "Deere & Company"),
]


@pytest.mark.parametrize(("question", "name"), BUSINESS_TUNED + BUSINESS_HELD)
def test_what_a_company_does_is_its_business_whatever_its_name(question: str, name: str) -> None:
    assert [t.name for t in read_wording(question, [name]).topics] == ["business"]
    assert "item_1" in [s for t in read_wording(question, [name]).topics for s in t.sections]


@pytest.mark.parametrize(
    "question", ["What do analysts expect Apple to do next?", "What did Apple's revenue do in 2023?"]
)
def test_what_others_do_with_a_company_is_not_its_business(question: str) -> None:
    assert "business" not in [t.name for t in read_wording(question, ["Apple"]).topics]


# A competition case is a legal matter, not the business's competitors: tuned on the first, the
# second only run.
@pytest.mark.parametrize(
    "question",
    [
        "Where did the European Commission's competition case against Intel stand?",
        "What antitrust investigations is Visa facing in Europe?",
    ],
)
def test_a_competition_case_is_a_legal_matter(question: str) -> None:
    topics = [t.name for t in read_wording(question, []).topics]
    assert "legal proceedings" in topics and "business" not in topics


def test_what_a_question_is_about_is_among_the_words_its_answer_is_chosen_by() -> None:
    """ "What did Danaher buy" shares no word with "the fiscal 2023 acquisitions included Abcam": its
    topic's name is among its terms, so the quotes that answer share a word with it."""
    from finagent.agent.understand.plan import question_traits

    wording = read_wording("What did Danaher buy in 2023?", ["Danaher"])
    terms = question_traits(wording, parse_time_phrases(wording.text), ["DHR"], {}, [], [])["terms"]
    assert "acquisitions" in terms and "buy" in terms
    # a topic the question writes in its own words weighs no more than they do
    wording = read_wording("Which region includes India in Apple's geographic segments?", ["Apple"])
    terms = question_traits(wording, [], ["AAPL"], {}, [], [])["terms"]
    assert "regions" not in terms and "region" in terms


# The classes a company lists and where: its cover page, and no amount asked. Tuned on the first two,
# the last two only run.
@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("What are Alphabet's listed share classes and on which market do they trade?", "Alphabet"),
        ("Which classes of stock does Berkshire Hathaway have?", "Berkshire Hathaway"),
        ("On which exchange are Ford's notes listed?", "Ford"),
        ("Which share classes does Comcast list, and where?", "Comcast"),
    ],
)
def test_the_classes_a_company_lists_are_its_cover_page_and_no_amount(question: str, name: str) -> None:
    wording = read_wording(question, [name])
    assert [t.name for t in wording.topics] == ["cover page"] and not wording.quantity_words
