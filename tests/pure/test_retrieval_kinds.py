"""Retrieval by kind of question, not by dev question: dated filings, every stored quarter meant."""

from __future__ import annotations

from typing import Any

import pytest

from finagent.agent.understand.plan import event_days, question_traits, required_sources
from finagent.agent.understand.question_words import read_wording
from finagent.finance.periods import parse_time_phrases


def _days(question: str) -> list[str]:
    return event_days(read_wording(question), parse_time_phrases(question))


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


def _plan(
    question: str,
    targets: list[dict[str, Any]],
    analysed: dict[str, Any] | None = None,
    **levers: bool,
) -> list[dict[str, Any]]:
    """The search tasks the planner sends for an analysed question (``analysed`` adds to the analysis:
    keywords, statements) and its resolved targets."""
    from finagent.agent.context import Ablations, Context
    from finagent.agent.nodes.fan_out import plan_searches

    tickers = sorted({t["ticker"] for t in targets if t.get("ticker")})
    specs = parse_time_phrases(question)
    analysis: dict[str, Any] = {
        "question": question,
        "tickers": tickers,
        "keywords": {},
        "sources": ["10-K", "10-Q"],
        "time_specs": [s.to_dict() for s in specs],
        **question_traits(read_wording(question), specs, tickers, {}, [], []),
        **(analysed or {}),
    }
    runtime: Any = type("Runtime", (), {"context": Context(ablations=Ablations(**levers))})()
    state: Any = {"question": question, "analysis": analysis, "targets": targets}
    sends = plan_searches(state, runtime)
    return [dict(s.arg) for s in sends if s.node == "search"]


def _follow_ups(
    question: str, targets: list[dict[str, Any]], analysed: dict[str, Any]
) -> list[dict[str, Any]]:
    """The follow-up search tasks planned after an evaluation asked for one more keyword."""
    from finagent.agent.context import Context
    from finagent.agent.nodes.fan_out import plan_follow_ups

    traits = question_traits(read_wording(question), [], [], {}, [], [])
    analysis = {"question": question, "keywords": {}, "sources": ["10-K"], "time_specs": []}
    analysis |= {**traits, **analysed}
    state: Any = {"analysis": analysis, "targets": targets, "follow_up_queries": ["outlook"], "iterations": 1}
    return [dict(s.arg) for s in plan_follow_ups(state, Context())]


ANY: dict[str, Any] = {
    "ticker": "FL",
    "fiscal_year": None,
    "fiscal_quarter": None,
    "label": "any period",
    "kinds": [],
}


def test_a_corporate_event_searches_the_companys_8ks() -> None:
    question = "Does Foot Locker's new CEO have previous CEO experience in a similar company?"
    eight_ks = [t for t in _plan(question, [ANY]) if t["kinds"] == ["8-K"] and not t.get("sections")]
    assert len(eight_ks) == 1 and eight_ks[0]["ticker"] == "FL" and eight_ks[0]["fiscal_year"] is None
    # and the Item that reports a change of officers, first
    items = [t for t in _plan(question, [ANY]) if t.get("sections")]
    assert [(t["kinds"], t["sections"]) for t in items] == [(["8-K"], ["item_5_02"])]
    off = _plan(question, [ANY], search_event_words=False, route_sections=False)
    assert not [t for t in off if t["kinds"] == ["8-K"]]
    assert not [t for t in _plan("What was Foot Locker's revenue?", [ANY]) if t["kinds"] == ["8-K"]]


def test_a_years_expectations_search_the_previous_years_fourth_quarter_release() -> None:
    # FY2023 resolved to the quarters of it the store holds: the guidance is still the Q4 FY2022 one
    quarters: list[dict[str, Any]] = [
        {"ticker": "JNJ", "fiscal_year": 2023, "fiscal_quarter": q, "label": f"Q{q} FY2023", "kinds": []}
        for q in (1, 2)
    ]
    question = "Is growth in JnJ's adjusted EPS expected to accelerate in FY2023?"
    guidance = [t for t in _plan(question, quarters) if "guidance" in t["period_label"]]
    assert [(t["ticker"], t["fiscal_year"], t["fiscal_quarter"]) for t in guidance] == [("JNJ", 2022, 4)]
    assert set(guidance[0]["kinds"]) == {"earnings_release", "transcript"}
    assert guidance[0]["exact"]  # no covering annual report when no such release is stored
    no_cue = _plan("What was JnJ's adjusted EPS in FY2023?", quarters)
    assert not [t for t in no_cue if "guidance" in t["period_label"]]
    named_quarter = _plan("As of Q1 FY2023, did JnJ raise its expected EPS?", quarters)
    assert not [t for t in named_quarter if "guidance" in t["period_label"]]
    off = _plan(question, quarters, search_guidance_year=False)
    assert not [t for t in off if "guidance" in t["period_label"]]


def test_only_a_named_year_lifts_its_annual_report() -> None:
    # "FY2023" means the 10-K; with no period named, the latest 10-K searched by default is not lifted
    # above the 8-Ks an event question also searches (the new CEO is announced in an 8-K).
    latest = {"ticker": "FL", "fiscal_year": 2023, "fiscal_quarter": None, "label": "FY2023", "kinds": []}
    unnamed = _plan("Does Foot Locker's new CEO have previous CEO experience?", [latest])
    report = [t for t in unnamed if t["kinds"] != ["8-K"]]
    assert report and all("10-K" not in t["priors"] for t in report)
    assert [t["priors"] for t in unnamed if t["kinds"] == ["8-K"]] == [{"*": 0.3}] * 2  # and Item 5.02
    named = _plan("What did Foot Locker report about its CEO in FY2023?", [latest])
    assert all(t["priors"].get("10-K") == 0.1 for t in named if t["kinds"] != ["8-K"])


def test_a_forecast_is_not_routed_to_the_statements() -> None:
    # "expected EPS" is guidance: the year's income statement reports the result, not the forecast.
    quarter = {"ticker": "JNJ", "fiscal_year": 2023, "fiscal_quarter": 1, "label": "Q1 FY2023", "kinds": []}
    eps = {"statements": ["income_statement"], "keywords": {"JNJ": ["adjusted eps", "diluted eps"]}}
    question = "Is growth in JnJ's adjusted EPS expected to accelerate in FY2023?"
    forecast = _plan(question, [quarter], eps)
    assert forecast and all(t["statements"] == [] and t.get("forecast") for t in forecast)
    result = _plan("What was JnJ's adjusted EPS in Q1 FY2023?", [quarter], eps)
    assert all(t["statements"] == ["income_statement"] and not t.get("forecast") for t in result)
    follow_ups = _follow_ups(question, [quarter], eps)
    assert follow_ups and all(t["statements"] == [] and t.get("forecast") for t in follow_ups)
    off = _plan(question, [quarter], eps, unroute_forecasts=False)
    own = [t for t in off if t["period_label"] == "Q1 FY2023"]
    assert own and all(t["statements"] == ["income_statement"] and not t.get("forecast") for t in own)


def test_periods_named_without_a_company_are_searched_across_companies() -> None:
    from finagent.agent.nodes.resolve_periods import unnamed_company_periods

    specs = parse_time_phrases(
        "Was there any drop in Cash & Cash equivalents between FY 2023 and Q2 of FY2024?"
    )
    periods = unnamed_company_periods(specs)
    assert [(p["fiscal_year"], p["fiscal_quarter"]) for p in periods][-2:] == [(2024, 1), (2024, 2)]
    assert all(p["ticker"] is None for p in periods)
    assert [p["label"] for p in unnamed_company_periods(parse_time_phrases("SG&A in FY2023?"))] == ["FY2023"]
    assert unnamed_company_periods(parse_time_phrases("What drove revenue last quarter?")) == []


def test_this_10k_without_a_year_is_every_stored_year() -> None:
    from finagent.finance.periods import undated_document

    assert undated_document("What companies did Pfizer acquire, as mentioned in this 10K report?") == {
        "10-K",
        "annual_report",
    }
    assert undated_document("What risks are highlighted in these quarterly reports?") == {"10-Q"}
    assert undated_document("Summarise the legal matters in this filing") == frozenset()
    assert undated_document("What was Apple's revenue in FY2023?") is None


@pytest.mark.parametrize(
    ("question", "news"),
    [
        ("What did Apple announce in its 8-K of February 2, 2023?", False),
        ("What did Apple say on its last earnings call about margins?", False),
        ("Any news in Apple's 8-K of February 2, 2023 or the press?", True),
        ("What did Apple announce last week?", True),
        ("What are the latest headlines about NVIDIA?", True),
    ],
)
def test_a_question_about_a_named_document_does_not_call_the_news(question: str, news: bool) -> None:
    """ "Announced in its 8-K" asks the filing; the press is asked only when the question names it."""
    assert ("news" in required_sources(read_wording(question).source_cues, ["10-K", "news"])) is news


def test_a_forecast_naming_a_reported_metric_is_answered_from_the_passages(monkeypatch: Any) -> None:
    """ "Did PepsiCo raise its EPS guidance?" names EPS, but no reported EPS answers it: the passages
    (the release's guidance) do, not the figures table of Q1's diluted EPS."""
    import asyncio

    from finagent.agent.context import Ablations, Context
    from finagent.agent.nodes import generate as write

    async def answered_by(path: str) -> dict[str, Any]:
        return {"answer": path}

    monkeypatch.setattr(write, "figures_answer", lambda state, context: answered_by("figures"))
    monkeypatch.setattr(write, "evidence_answer", lambda state, context: answered_by("passages"))

    def route(question: str, forecast: bool, context: Context | None = None) -> str:
        analysis = {"question": question, "metrics": ["eps_diluted"], "forecast": forecast, "ask": {}}
        state: Any = {"analysis": analysis, "figures": [{"metric": "eps_diluted"}]}
        return asyncio.run(write.write_answer(state, context or Context()))["answer"]

    assert route("By how many points did PepsiCo raise its EPS guidance?", True) == "passages"
    assert route("What was PepsiCo's diluted EPS in Q1 FY2023?", False) == "figures"
    assert (
        route("By how many points?", True, Context(ablations=Ablations(unroute_forecasts=False))) == "figures"
    )


# An event of a day, in other companies' words: the tuning half and the half held back.
DAY_EVENTS_TUNED = [
    ("What changed in Apple's credit agreement amended on March 3, 2024?", "2024-03-03"),
    (
        "What were the results of the shareholder vote at Apple's annual meeting on February 28, 2024?",
        "2024-02-28",
    ),
    ("Who did Microsoft appoint to its board on December 1, 2023?", "2023-12-01"),
    ("What did Intel announce on August 1, 2024 about its dividend?", "2024-08-01"),
    ("Which notes did Amazon issue on November 29, 2022?", "2022-11-29"),
]
DAY_EVENTS_HELD = [
    ("What terms did Boeing agree to when it entered into the term loan on May 1, 2023?", "2023-05-01"),
    ("How did Netflix shareholders vote at the annual meeting held June 1, 2023?", "2023-06-01"),
    ("Why did Nike's CFO resign on January 10, 2024?", "2024-01-10"),
    ("What did Coca-Cola say when it completed the acquisition on October 2, 2023?", "2023-10-02"),
]


@pytest.mark.parametrize(("question", "day"), DAY_EVENTS_TUNED + DAY_EVENTS_HELD)
def test_an_event_of_a_day_is_searched_by_that_day(question: str, day: str) -> None:
    assert _days(question) == [day]


@pytest.mark.parametrize(
    "question",
    [
        "What was Apple's revenue for the quarter ended July 1, 2023?",
        "What were Walmart's net sales in the quarter ended April 30, 2024?",
        "How much did Alphabet spend on buybacks in the quarter ended March 31, 2024?",
    ],
)
def test_a_period_end_is_no_event(question: str) -> None:
    assert _days(question) == []


def test_an_event_of_a_day_searches_the_8ks_of_the_next_business_days_not_the_release() -> None:
    from tests.store.test_filing_sections import _plan

    target = {"ticker": "AAPL", "fiscal_year": 2024, "fiscal_quarter": 2, "label": "Q2 FY2024"}
    question = "What changed in Apple's credit agreement amended on Friday, March 1, 2024?"
    dated = [t for t in _plan(question, [target]) if t.get("dated")]
    assert [(t["kinds"], t["dated"]) for t in dated] == [(["8-K"], ["2024-03-01", "2024-03-07"])]
    question = "What adjusted EPS did Apple's press release of February 1, 2024 report?"
    dated = [t for t in _plan(question, [target]) if t.get("dated")]
    assert [t["kinds"] for t in dated] == [["8-K", "earnings_release"]]


@pytest.mark.parametrize(
    "question",
    [
        "What did Apple report in its Form 8-K dated May 10, 2023?",  # tuned on
        "Summarize the 8-K Nike filed on June 27, 2024.",
        "What was the key agenda of Boeing's 8-K dated 5 August 2024?",
    ],
)
def test_an_8k_asked_what_it_reports_reads_its_own_items_openings(question: str) -> None:
    """Its Items open with the event ("On May 10, 2023, Apple consummated the issuance …"), in words
    the question does not share: their first passages are read, whatever the search scores them."""
    from finagent.agent.nodes.routed_searches import EVENT_ITEMS
    from tests.store.test_filing_sections import _plan

    target = {"fiscal_year": 2024, "fiscal_quarter": None, "label": "FY2024"}
    openings = [t for t in _plan(question, [target]) if t.get("opening")]
    assert len(openings) == 1 and openings[0]["dated"] and openings[0]["kinds"] == ["8-K"]
    assert openings[0]["sections"] == list(EVENT_ITEMS) and "item_9_01" not in EVENT_ITEMS
    about_a_figure = "What revenue did Apple's 8-K dated May 2, 2024 report?"
    assert not [t for t in _plan(about_a_figure, [target]) if t.get("opening")]


def test_a_question_answered_in_quotes_reads_the_passages_beside_its_best_hits() -> None:
    """Marked on its searches (the search node reads them); a figure question's are not, and the
    ablation turns it off."""
    from tests.store.test_filing_sections import _plan

    target = {"ticker": "JNJ", "fiscal_year": 2025, "fiscal_quarter": 2, "label": "Q2 FY2025"}
    quoted = "Where does Johnson & Johnson's talc litigation stand as of its Q2 2025 10-Q?"
    searches = _plan(quoted, [target])
    assert searches and all(t.get("neighbors") for t in searches)
    assert not any(t.get("neighbors") for t in _plan(quoted, [target], read_neighbors=False))
    assert not any(t.get("neighbors") for t in _plan("What was J&J's revenue in Q2 2025?", [target]))
