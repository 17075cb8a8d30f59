"""The question is read once into a typed plan that the graph state carries as plain JSON."""

from __future__ import annotations

import json

import pytest

from finagent.agent.context import Context
from finagent.agent.understand.plan import question_traits
from finagent.agent.understand.question import Question
from finagent.agent.understand.question_reader import read_asked, read_companies_and_periods
from finagent.agent.understand.question_words import read_wording
from finagent.db.companies import StoredCompany
from finagent.finance.ask.asks import read_ask
from finagent.finance.ask.change_words import read_change_words
from finagent.finance.company_registry import BUILTIN_COMPANIES
from finagent.finance.compute.compare import Wanted
from finagent.finance.lines import REPORTED
from finagent.finance.periods import parse_time_phrases


def _plan(question: str, tickers: list[str], metrics: list[str]) -> dict:
    specs = parse_time_phrases(question)
    wording = read_wording(question)
    return {
        "question": question,
        "tickers": tickers,
        "time_specs": [s.to_dict() for s in specs],
        "comparisons": wording.comparisons.to_dict(),
        "keywords": {t: ["revenue"] for t in tickers},
        **question_traits(wording, specs, tickers, {}, metrics, ["revenue"]),
    }


def test_the_plan_is_typed_and_its_json_form_round_trips() -> None:
    plan = _plan(
        "Rank Costco, Target and Walmart by revenue growth in fiscal 2024",
        ["COST", "TGT", "WMT"],
        ["revenue"],
    )
    question = Question.from_dict(plan | {"metrics": ["revenue", "net_income"]})
    assert question.ask.kind == "ranking" and question.ask.by_growth
    assert question.metrics == (REPORTED["revenue"], REPORTED["net_income"])  # the registry's lines
    assert question.to_dict()["metrics"] == ["revenue", "net_income"]  # named in the state
    assert question.tickers == ("COST", "TGT", "WMT")
    assert [s.year for s in question.time_specs] == [2024]
    assert question.phrases_for("TGT") == ("revenue",)
    assert question.phrases_for("XYZ") == (question.question[:200],)  # the last-resort phrase
    again = Question.from_dict(json.loads(json.dumps(question.to_dict())))
    assert again == question


def test_an_empty_or_older_plan_reads_with_defaults() -> None:
    assert Question.of({}) == Question()
    older = Question.from_dict(
        {"tickers": ["KO"], "a_key_no_longer_used": 1, "long_history": None, "metrics": ["a_line_renamed"]}
    )
    assert older.tickers == ("KO",) and older.long_history is None and older.quantities
    assert older.metrics == ()  # a line no longer in the registry is no asked line


@pytest.mark.parametrize(
    ("question", "change"),
    [
        (
            "How did Target revenue in Q2 fiscal 2024 compare with the corresponding quarter?",
            "yoy",
        ),
        ("What was Costco's annualized net sales growth from fiscal 2021 to fiscal 2024?", "cagr"),
        ("How did Home Depot's sales move sequentially over the last three quarters?", "qoq"),
    ],
)
def test_the_ask_and_the_comparisons_read_the_same_change_words(question: str, change: str) -> None:
    """One reading of change words: what the ask is about and what the answer computes agree."""
    ask = read_ask(question, ["X"], {}, ["revenue"], changes=read_change_words(question))
    wanted = Wanted.from_words(read_change_words(question))
    assert ask.change == change
    assert getattr(wanted, change)


def test_the_state_schema_names_every_field_of_the_plan() -> None:
    """Studio and the server show the plan by the state's ``Analysis`` keys: the same fields."""
    from dataclasses import fields

    from finagent.agent.state import Analysis

    assert set(Analysis.__annotations__) == {f.name for f in fields(Question)}


def test_a_plan_read_from_a_question_fits_the_state_schema() -> None:
    """What analyze puts in the state validates against the schema Studio and the server check."""
    from pydantic import TypeAdapter

    from finagent.agent.state import Analysis

    plan = _plan("Rank Apple and Microsoft by revenue growth in fiscal 2024", ["AAPL", "MSFT"], ["revenue"])
    state_form = Question.from_dict(plan | {"metrics": ["revenue"]}).to_dict()
    shown = TypeAdapter(Analysis).validate_python(state_form)
    assert shown["tickers"] == ["AAPL", "MSFT"]
    assert shown["ask"]["kind"] == "ranking"
    assert shown["metrics"] == ["revenue"]


@pytest.mark.parametrize(
    "question",
    [
        "What moved Costco's operating cash flow in fiscal 2024?",
        "What explains the change in Deere's equipment sales in 2024?",
        "What was behind the rise in Pfizer's cost of sales in 2023?",
        "What accounts for the decline in Target's gross margin in fiscal 2023?",
    ],
)
def test_a_question_asking_what_explains_a_change_asks_for_its_drivers(question: str) -> None:
    assert read_wording(question).drivers


@pytest.mark.parametrize(
    "question",
    [
        "If operating margin is not a useful metric for this company, explain why.",
        "What was Caterpillar's revenue in 2023?",
        "What dividend policy does Kroger's 10-K explain?",
    ],
)
def test_a_question_asking_no_cause_does_not_ask_for_drivers(question: str) -> None:
    assert not read_wording(question).drivers


@pytest.mark.parametrize(
    ("question", "ratio"),
    [
        ("What was Costco's gross margin in dollars in fiscal 2024 and fiscal 2023?", False),
        ("How much was Target's operating margin in dollars in its latest quarter?", False),
        ("What was Costco's dollar gross margin in fiscal 2024?", False),
        ("What was Lowe's gross margin, in dollars, in 2023?", False),
        ("What was Walmart's gross margin rate in fiscal 2024?", True),
        ("What was Costco's gross margin in fiscal 2024?", True),
        ("How did Target's operating margin change in fiscal 2023?", True),
    ],
)
def test_a_margin_asked_in_dollars_asks_its_line_not_the_ratio(question: str, ratio: bool) -> None:
    """Both readers of a margin's name (the computed metrics and the formulas) agree: "in dollars"
    asks the profit line, so no percentage is computed to open the answer."""
    wording = read_wording(question)
    assert bool(wording.formulas) is ratio
    assert bool(wording.computed) is ratio


def test_the_subjects_are_the_names_given_beyond_the_companies_own() -> None:
    names = {"JNJ": ["JNJ", "Johnson & Johnson"], "CRM": ["CRM", "Salesforce, Inc.", "Salesforce"]}
    plan = Question(
        tickers=("JNJ", "CRM"), names=names, given_names=("Johnson", "Salesforce", "Slack", "Tableau")
    )
    assert plan.subjects == ("Slack", "Tableau")
    assert not plan.unheld_subject
    assert plan.with_changes(unmentioned=("Tableau",)).unheld_subject is False  # Slack is held
    assert plan.with_changes(unmentioned=("Slack", "Tableau")).unheld_subject
    assert Question(tickers=("JNJ",), names=names, given_names=("Johnson",)).subjects == ()
    # the company's name written another way is the company's, not a subject
    shoes = {"FL": ["FL", "Foot Locker, Inc."], "PEP": ["PEP", "PepsiCo"]}
    plan = Question(tickers=("FL", "PEP"), names=shoes, given_names=("Footlocker", "Pepsi", "Gatorade"))
    assert plan.subjects == ("Gatorade",)
    # a second sentence's first word and an acronym are no subject of the question
    asked = read_wording(
        "What was 3M's capex in FY2018 (in USD millions)? Give a response from the cash flow statement."
    )
    assert asked.given_names == ()
    assert read_wording("What did Salesforce say about Agentforce and Slack AI?").given_names == (
        "Salesforce",
        "Agentforce",
        "Slack",
    )


def _asked(question: str) -> bool:
    """Whether the question, read against the built-in companies, is a figure question."""
    companies = [
        StoredCompany(c.ticker, c.name, c.aliases, c.fiscal_year_end_month, 0) for c in BUILTIN_COMPANIES
    ]
    reading = read_companies_and_periods(question, [], [], [], companies, Context())
    asked = read_asked(reading, [], True)
    assert asked is not None
    return asked.figure_question


# Written as the kind (a person, an origin, what a company does, beside a metric word), in two halves:
# the first was looked at while building the reading, the second only run after.
_NO_FIGURE_TUNED = [
    "Who became Target's CFO in 2024?",
    "What does Visa actually do, and where does most of its revenue come from?",
    "Where does the bulk of Coca-Cola's net revenue come from?",
    "What share of Lockheed Martin's 2023 net sales came from the U.S. government?",
]
_NO_FIGURE_HELD = [
    "Who was named Intel's CFO, and when did the appointment take effect?",
    "Where does Oracle's revenue mostly come from?",
    "What does Union Pacific do, and who are the customers behind its freight revenue?",
    "Did any single customer account for more than 10% of Costco's revenue in fiscal 2024?",
]
_FIGURE = [
    "What was Apple's CFO in fiscal 2023?",
    "How much revenue did Meta report in 2024?",
    "Who grew revenue faster in fiscal 2024, Apple or Microsoft?",
    "Where did Nike's gross margin stand in fiscal 2025?",
    "What percentage of revenue did Apple spend on R&D in 2023?",
]


@pytest.mark.parametrize("question", _NO_FIGURE_TUNED + _NO_FIGURE_HELD)
def test_a_question_asking_who_where_or_what_a_company_does_is_not_a_figure_question(question: str) -> None:
    assert not _asked(question)


@pytest.mark.parametrize("question", _FIGURE)
def test_a_metric_asked_for_its_amount_stays_a_figure_question(question: str) -> None:
    assert _asked(question)


@pytest.mark.parametrize(
    ("question", "extractive"),
    [
        ("Who is replacing Luca Maestri as Apple's CFO, and when?", True),  # a person: quoted
        ("What did Nike guide for revenue in the next quarter on its last call?", True),  # a forecast
        ("How much did Apple's revenue grow in fiscal 2024?", False),  # a figure code computes
        (
            "What share of Lockheed Martin's 2023 net sales came from the U.S. government?",
            True,
        ),  # the share of a line a part only words name: the filing's sentence states it
        ("Did any single customer account for more than 10% of Apple's revenue in fiscal 2024?", False),
        ("What portion of Nike's fiscal 2024 revenues came from outside North America?", True),
        ("Is Boeing's business subject to cyclicality?", False),  # a yes or no: the writer's verdict
        ("Did Apple's dividend per share rise?", False),  # a yes or no on a computed change
        # an amount spoken on a call is in no table: quoted
        ("On Nike's December 19, 2024 call, how much did digital sales fall?", True),
        ("How much did Alphabet say on its last earnings call that AI added to Cloud growth?", True),
        # a margin guided is the call's words: a ratio named in a forecast is no ratio to compute
        ("On its January 2024 call, what gross margin did Microsoft guide for the March quarter?", True),
        ("What operating margin did Nike expect for fiscal 2025, per its 10-K?", True),
        ("What was Nike's operating margin in fiscal 2024?", False),  # a ratio reported: computed
    ],
)
def test_a_question_in_words_or_a_forecast_is_answered_in_the_filings_quoted_words(
    question: str, extractive: bool
) -> None:
    from finagent.agent.answer.extractive import answers_extractively

    companies = [
        StoredCompany(c.ticker, c.name, c.aliases, c.fiscal_year_end_month, 0) for c in BUILTIN_COMPANIES
    ]
    reading = read_companies_and_periods(question, [], [], [], companies, Context())
    asked = read_asked(reading, [], True)
    assert asked is not None
    metrics = asked.metrics if asked.figure_question else []
    plan = Question.from_dict(_plan(question, reading.tickers, metrics))
    assert answers_extractively(plan, Context(), []) is extractive
    assert not answers_extractively(plan, Context(narrative_answers="written"), [])
    # the news tool's recorded articles are the store's own (read by the search): nothing to relay;
    # a live quote is
    recorded = {"tool": "company_news", "ok": True, "offline": True}
    assert answers_extractively(plan, Context(), [recorded]) is extractive
    assert not answers_extractively(plan, Context(), [{**recorded, "offline": False}])


def test_a_compound_question_is_read_as_its_parts_and_a_figure_question_is_not() -> None:
    """ "What does Nike do, and where does most of its revenue come from?": two parts, each quoted on
    its own; its search phrase stays the whole question's; a figure question is read as one."""
    companies = [
        StoredCompany(c.ticker, c.name, c.aliases, c.fiscal_year_end_month, 0) for c in BUILTIN_COMPANIES
    ]
    question = "What does Nike actually do, and where does most of its revenue come from?"
    reading = read_companies_and_periods(question, [], [], [], companies, Context())
    asked = read_asked(reading, [], True)
    assert asked is not None
    assert asked.sub_asks == ("What does Nike actually do", "where does most of its revenue come from")
    assert asked.base_phrase == "actually revenue come"
    figure = read_companies_and_periods(
        "What was Nike's revenue, and how did it change in 2024?", [], [], [], companies, Context()
    )
    figure_asked = read_asked(figure, [], True)
    assert figure_asked is not None and figure_asked.sub_asks == ()
