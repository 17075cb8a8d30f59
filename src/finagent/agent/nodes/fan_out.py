"""Planning the fan-outs (LangGraph ``Send``): one search per ticker × period × phrase, one facts
lookup per ticker × period, and the keyword follow-ups after a low-confidence answer."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Send

from finagent.agent.answer.extractive import answers_extractively
from finagent.agent.context import Context
from finagent.agent.nodes.fact_lookups import plan_fact_lookups
from finagent.agent.nodes.routed_searches import (
    event_searches,
    event_word_searches,
    guidance_searches,
    news_window_searches,
    section_searches,
)
from finagent.agent.nodes.search_tasks import REPORT_KINDS, make_task, search_kinds, search_priors
from finagent.agent.state import PartsTask, State, Target
from finagent.agent.understand.plan import is_forecast
from finagent.agent.understand.question import Question
from finagent.agent.understand.vocabulary import NARRATIVE_WORDS
from finagent.finance.ask.parts_ask import PartsAsk
from finagent.finance.periods import period_label
from finagent.finance.read.filing_sections import EVENT_FILINGS, SECTIONED_KINDS, topic_named

__all__ = ["REPORT_KINDS", "plan_follow_ups", "plan_searches", "search_kinds", "search_priors"]


def _routed(plan: Question, context: Context) -> list[str]:
    """Statements a figure question is routed to; none for a forecast."""
    if not context.ablations.route_statements or is_forecast(plan, context):
        return []
    return list(plan.statements)


def plan_searches(state: State, runtime: Runtime[Context]) -> list[Send]:
    """One sub-search per (ticker x period x phrase) and one facts lookup per (ticker x period), run in
    parallel by LangGraph."""
    context = runtime.context or Context()
    facts = plan_fact_lookups(state, context)
    state = _searched(state)
    plan = Question.of(state)
    sends = []
    for target in state["targets"]:
        phrases = plan.phrases_for(target.get("ticker") or "")
        kinds = search_kinds(target, plan)
        priors = search_priors(target, state["targets"], plan, context.ablations.narrow_kinds)
        for phrase in phrases:
            task = make_task(
                target, phrase, kinds, context.hits_per_search, 0, _routed(plan, context), priors
            )
            sends.append(Send("search", task))
    searches = (
        sends
        + event_searches(state, context)
        + news_window_searches(state, context)
        + _narrative_searches(state, context)
        + event_word_searches(state, context)
        + guidance_searches(state, context)
        + section_searches(state, context)
        + _parts_searches(state, context)
        + _nine_month_searches(state, context)
    )
    marked = _marked(searches, _forecast_mark(plan, context) | _first_round_marks(plan, context))
    return marked + facts + _filing_part_reads(plan)


def _filing_part_reads(plan: Question) -> list[Send]:
    """A change across filings asked ("how have Apple's risk factors changed"): each company's
    sections of those topics in every stored report, read whole (a search finds passages, not the
    same part of each filing)."""
    topics = [t for t in map(topic_named, plan.filing_changes) if t is not None]
    sections = list(dict.fromkeys(s for topic in topics for s in topic.sections))
    if not sections:
        return []
    kinds = sorted(SECTIONED_KINDS | (EVENT_FILINGS & set(plan.named_kinds)))  # an 8-K's cover: its 8-Ks
    return [Send("filing_parts", PartsTask(ticker=t, sections=sections, kinds=kinds)) for t in plan.tickers]


HISTORY_SEARCHED = 1
"""Periods of a long history whose text is searched, per company (the newest): its figures are read
from facts in one lookup, and each period's searches would cost seconds for nothing."""


def _searched(state: State) -> State:
    """The state the searches plan from: a long history's newest periods only."""
    if Question.of(state).long_history is None:
        return state
    kept: list[Target] = []
    for ticker in dict.fromkeys(t.get("ticker") for t in state["targets"]):
        own = [t for t in state["targets"] if t.get("ticker") == ticker]
        kept += [t for t in own if t.get("available")][-HISTORY_SEARCHED:] or own[-HISTORY_SEARCHED:]
    return {**state, "targets": kept}


def _marked(sends: list[Send], marks: dict[str, Any]) -> list[Send]:
    """Every sub-search carries the marks (``search`` reads them)."""
    for send in sends:
        send.arg.update(marks)
    return sends


def _forecast_mark(plan: Question, context: Context) -> dict[str, Any]:
    """A forecast's searches lift no statement table above the guidance."""
    return {"forecast": True} if is_forecast(plan, context) else {}


def _first_round_marks(plan: Question, context: Context) -> dict[str, Any]:
    """A question about what an 8-K reports is routed to its own Items, as one dated by its day is:
    its cover page and signatures share the question's words ("summarize", "report") more than its
    account of the event does. The first round's searches carry the answer as a filing would word it
    (their meaning vector leans towards it): a question embeds far from the statement that answers it.
    A question answered in the passages' own sentences reads the passages beside the best hits too."""
    marks: dict[str, Any] = {"own_items": True} if plan.about_an_event_filing else {}
    if context.ablations.read_neighbors and answers_extractively(plan, context, []):  # quoted: beside counts
        marks["neighbors"] = True
    if plan.answer_sentence:
        marks["answer_sentence"] = plan.answer_sentence
    return marks


def _parts_searches(state: State, context: Context) -> list[Send]:
    """A ranking of one company's parts (its regions, its liabilities) also searches for the table
    that lists them, in the whole's own words by the parts' kind ("revenues by geographic region"):
    the question's words find the discussion, not always the table."""
    plan = Question.of(state)
    parts = plan.ask.parts
    if parts is None or not parts.query:
        return []
    sends = []
    for target in state["targets"]:
        if target.get("companion"):
            continue
        kinds = search_kinds(target, plan)
        priors = search_priors(target, state["targets"], plan, context.ablations.narrow_kinds)
        for query in _parts_queries(parts):
            task = make_task(target, query, kinds, PARTS_HITS, 0, [], priors)
            task["table"] = True
            sends.append(Send("search", task))
    return sends


PARTS_HITS = 10  # passages a parts table search adds: those whose rows add up to the whole rank first
_UNIT_NOUNS = re.compile(r"^(?:region|segment|geograph|business|division|operat|market)", re.I)


def _parts_queries(parts: PartsAsk) -> list[str]:
    """The table of parts in the whole's words by their kind; a company's regions and businesses are
    also its reportable segments, tabled in the segment note under their own names ("Las Vegas Strip
    Resorts", "MGM China"), which no word of the question names."""
    queries = [parts.query]
    if _UNIT_NOUNS.match(parts.noun) and not parts.named:
        whole = parts.query.split(" by ")[0]
        queries.append(f"{whole} by segment")
    return queries


def _narrative_searches(state: State, context: Context) -> list[Send]:
    """A why/what question also searches each period's discussion (MD&A, the call), unrouted: the
    figure phrases go to the statements, which state the numbers but never why they moved."""
    plan = Question.of(state)
    if not plan.narrative and not (plan.says and plan.metrics):
        return []
    sends = []
    for target in state["targets"]:
        phrases = plan.phrases_for(target.get("ticker") or "")
        # The question's own words and the line's statement wording ("revenue", "total net sales"):
        # a report discusses a line by the name its statements give it.
        for phrase in phrases[:2]:
            task = make_task(
                target,
                f"{phrase} {NARRATIVE_WORDS}",
                search_kinds(target, plan),
                context.hits_per_search,
                0,
                [],
                search_priors(target, state["targets"], plan, context.ablations.narrow_kinds),
            )
            sends.append(Send("search", task))
    return sends


def _nine_month_searches(state: State, context: Context) -> list[Send]:
    """A fourth quarter nobody reports alone is the year minus the nine months to Q3: for a figure
    question, the Q3 10-Q is searched too, so its year-to-date column can be subtracted."""
    plan = Question.of(state)
    if not plan.metrics:
        return []
    sends = []
    for target in state["targets"]:
        if target.get("fiscal_quarter") != 4 or not target.get("ticker"):
            continue
        q3: Target = {
            **target,
            "fiscal_quarter": 3,
            "label": period_label(target["fiscal_year"], 3),
            "kinds": ["10-Q"],
        }
        for phrase in plan.keywords.get(target["ticker"], ())[:1]:
            task = make_task(q3, phrase, ["10-Q"], context.hits_per_search, 0, _routed(plan, context))
            sends.append(Send("search", task))
    return sends


def plan_follow_ups(state: State, context: Context) -> list[Send]:
    """Every follow-up keyword against all target periods of all target tickers."""
    plan = Question.of(state)
    done = {(s["query"].lower(), s.get("ticker"), s.get("period_label")) for s in state.get("searches", [])}
    evaluation = (state.get("evaluations") or [{}])[-1]
    extra = [
        k
        for k, flag in (
            ("transcript", evaluation.get("needs_transcript_search")),
            ("news", evaluation.get("needs_news_search")),
        )
        if flag
    ]
    round_ = int(state.get("iterations") or 0)
    sends: list[Send] = []
    for query in state.get("follow_up_queries") or []:
        for target in state["targets"]:
            key = (query.lower(), target.get("ticker"), target.get("label") or "any period")
            if key in done:
                continue
            kinds = search_kinds(target, plan, extra)
            priors = search_priors(target, state["targets"], plan, context.ablations.narrow_kinds)
            task = make_task(
                target, query, kinds, context.hits_per_search, round_, _routed(plan, context), priors
            )
            sends.append(Send("follow_up_search", task))
    return _marked(sends[: context.max_follow_up_searches], _forecast_mark(plan, context))
