"""analyze node: companies and periods deterministically, the plan from the question's words, then
one LLM call for intent and keywords when the question is neither a figure question nor one the
passages' own sentences answer (both are planned from the question's words alone).

The model only fills in what cannot be parsed (intent, sources, answer mode, search phrases); it
cannot add a ticker (the schema only admits resolved tickers) or a period (periods are parsed here).
Everything later nodes need of the question is read here once (``understand.plan``).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import date, timedelta
from typing import Any, Literal

from langgraph.runtime import Runtime

from finagent.agent.answer.extractive import answers_extractively
from finagent.agent.context import Context
from finagent.agent.nodes.tools import tool_calls_for
from finagent.agent.prompts import render
from finagent.agent.resources import get_resources
from finagent.agent.schemas import QuestionAnalysis, TickerPhrases, analysis_schema
from finagent.agent.state import State, reset
from finagent.agent.understand.named_parts import asked_parts, part_driver
from finagent.agent.understand.plan import figure_keywords
from finagent.agent.understand.question import DatedGap, Question
from finagent.agent.understand.question_reader import (
    Asked,
    ModelReading,
    Reading,
    plan_question,
    read_asked,
    read_companies_and_periods,
    refused_question,
    screen_question,
)
from finagent.agent.understand.refusals import (
    explicit_unknown_message,
    listed_in_question,
    no_terms_message,
    not_in_store_message,
    unknown_names,
)
from finagent.db.chunks import unmentioned_names
from finagent.db.companies import StoredCompany
from finagent.db.facts import fact_members
from finagent.db.news import without_dated
from finagent.finance.lines import REPORTED
from finagent.llm.structured import LLMCall, structured_call


async def _refusal_for(reading: Reading, state: State, resources: Any) -> str | None:
    """The fast answer when the store cannot answer: a company it does not hold or no company at all.
    Companies stored without documents leave ``reading.tickers`` (with a warning when others remain)."""
    by_ticker = reading.by_ticker
    empty = [t for t in reading.tickers if t in by_ticker and not by_ticker[t].documents]
    reading.tickers = [t for t in reading.tickers if t not in empty]
    missing: list[tuple[str, str | None]] = [(t, by_ticker[t].name) for t in empty]
    if state.get("tickers") and not reading.tickers and not missing:
        return explicit_unknown_message(list(state.get("tickers") or []), reading.held)
    if not state.get("tickers"):
        known_names = {n for c in reading.companies for n in (c.name, *c.aliases) if n}
        listed = await asyncio.to_thread(_listed, resources, reading.question, set(by_ticker), known_names)
        missing += [(c.ticker, c.name) for c in listed]
    if missing and not reading.tickers:
        return not_in_store_message(missing, reading.held)
    if missing:
        reading.warnings.append(not_in_store_message(missing, []).split(" Add them")[0])
    if not reading.tickers:
        return await asyncio.to_thread(_unknown_names, resources, reading.question, reading.companies)
    return None


async def _model_analysis(
    reading: Reading, figure_question: bool, metrics: list[str], context: Context
) -> tuple[QuestionAnalysis, list[LLMCall]]:
    """Intent, sources, mode and phrases: from the metrics for a figure question, else from the model."""
    if not reading.tickers:  # no company named: the question's own words search, one model call in all
        return QuestionAnalysis(intent="no company named", sources=["10-K", "10-Q"], answer_mode="direct"), []
    if figure_question:
        phrases = figure_keywords(metrics)
        reply = QuestionAnalysis(
            intent="reported figures: " + ", ".join(REPORTED[m].label for m in metrics),
            sources=["10-K", "10-Q"],
            answer_mode="standard",
            keywords=[TickerPhrases(ticker=t, phrases=phrases) for t in reading.tickers],
        )
        return reply, []
    by_ticker = reading.by_ticker
    named = [
        f"{t} ({by_ticker[t].name})" if t in by_ticker and by_ticker[t].name else t for t in reading.tickers
    ]
    messages = render(
        "analyze",
        question=reading.question,
        companies=", ".join(named) or "none named",
        periods=", ".join(s.text for s in reading.specs if s.text) or "not stated (use the latest)",
    )
    reply, calls = await structured_call(
        get_resources().chat_model("analyze", context),
        messages,
        analysis_schema(reading.tickers),
        role="analyze",
        default=QuestionAnalysis,
    )
    if calls and not calls[-1].ok:
        reason = (calls[-1].error or "no usable reply").splitlines()[0][:160]
        reading.warnings.append(
            f"the model's question analysis failed ({reason}); keywords come from the question"
        )
    return reply, calls


async def analyze(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Resolve companies and time phrases, read the plan, then ask the model for intent and keywords.

    A figure question (reported metrics of named companies) needs no model here: its keywords are
    the statements' own row wording. A question about companies the store does not hold is
    answered at once with how to add them.
    """
    context = runtime.context or Context()
    resources = get_resources()
    companies = await asyncio.to_thread(resources.companies)
    previous = (state.get("history") or [])[-1:]
    reading = read_companies_and_periods(
        state["question"],
        list(state.get("tickers") or []),
        list(state.get("periods") or []),
        previous,
        companies,
        context,
    )
    screened = None if state.get("tickers") else screen_question(reading)
    if screened is not None and not await asyncio.to_thread(_names_a_listed_company, resources, reading):
        # about every company in the store (naming none it lacks): screened by code, no search
        return {"analysis": screened.to_dict(), **_fresh_run(reading.warnings, [])}
    refusal = await _refusal_for(reading, state, resources)
    if refusal:
        return _refusal(reading.question, refusal, reading.warnings, reading.period_sources)
    use_facts = resources.settings.use_facts if context.use_facts is None else context.use_facts
    asked = read_asked(reading, previous, use_facts)
    if asked is None:
        message = no_terms_message(reading.held)
        return _refusal(reading.question, message, reading.warnings, reading.period_sources)
    mode = state.get("answer_mode") or context.answer_mode
    plan = _plan_by_code(reading, asked, mode, context)
    calls: list[LLMCall] = []
    if plan is None:
        reply, calls = await _model_analysis(reading, asked.figure_question, asked.metrics, context)
        model = ModelReading(
            intent=reply.intent,
            sources=list(reply.sources),
            answer_mode=reply.answer_mode,
            phrases=[(k.ticker, list(k.phrases)) for k in reply.keywords],
            statement=reply.statement,
        )
        plan = plan_question(reading, asked, model, mode, context)
    plan = await _with_parts(plan, asked.metrics, resources)
    plan = await _with_unmentioned(plan, resources)
    plan = await _with_dated_gaps(plan, resources)
    return {"analysis": plan.to_dict(), **_fresh_run(reading.warnings, [c.to_dict() for c in calls])}


BY_CODE = ModelReading(
    intent="what the filings say, in their own sentences", sources=[], answer_mode="standard", phrases=[]
)
"""The analysis of a question the passages' own sentences answer: its own words search."""


def _plan_by_code(reading: Reading, asked: Asked, mode: str | None, context: Context) -> Question | None:
    """The plan without the model's analysis, when the passages' own sentences answer the question (the
    one model call is then the opening's) or code computes what changed between filings, and no tool
    is asked; None when the analysis is needed.
    Planned on a copy of the reading, so that a plan not taken leaves no warning behind."""
    if (
        asked.figure_question
        or asked.borrowed
        or not reading.tickers
        or not context.ablations.quotes_analysed_by_code
    ):
        return None
    trial = replace(reading, warnings=[], specs=list(reading.specs))
    plan = plan_question(trial, asked, BY_CODE, mode, context)
    by_code = answers_extractively(plan, context, []) or bool(plan.filing_changes)  # computed: no writer
    if not by_code or (context.use_tools and tool_calls_for(plan)):
        return None
    reading.warnings += trial.warnings
    reading.specs = trial.specs
    return plan


async def _with_parts(plan: Question, metrics: list[str], resources: Any) -> Question:
    """The plan with the parts the question names and the kind of part asked to drive a change, read
    against the member names of the asked companies' facts (one query); the line asked of them is the
    question's own when it asks no figure of the whole ("which segment drove the change in ...")."""
    if not plan.tickers or not metrics:
        return plan
    rows = await asyncio.to_thread(_members, resources, list(plan.tickers))
    parts, driver = asked_parts(plan.question, plan.tickers, rows), part_driver(plan.question)
    if not (parts or driver):
        return plan
    return plan.with_changes(parts=parts, part_driver=driver, part_metric="" if plan.metrics else metrics[0])


async def _with_unmentioned(plan: Question, resources: Any) -> Question:
    """The plan with the names it gives that no stored passage of its companies mentions, in the kinds of
    document it names (one query)."""
    if not plan.tickers or not plan.subjects:
        return plan
    unmentioned = await asyncio.to_thread(_unmentioned, resources, plan)
    return plan.with_changes(unmentioned=tuple(unmentioned)) if unmentioned else plan


def _unmentioned(resources: Any, plan: Question) -> list[str]:
    with resources.database().connection() as conn:
        return unmentioned_names(conn, plan.tickers, plan.subjects, plan.named_kinds)


DAY_SLACK = timedelta(days=3)
"""How far from a day written a call or an article of that day may be stored (a call after the close
is dated the next day in some sources)."""
DATED_KINDS = ("news", "transcript")
"""Kinds a question names by when they came out ("the news in December 2023", "its January 2025
call"), not by the fiscal period they discuss."""


async def _with_dated_gaps(plan: Question, resources: Any) -> Question:
    """The plan with the companies that hold no news article (or call transcript) in the window a
    question asking for them names ("what did the news say in December 2023"; one query a window)."""
    windows = [
        # a day written ("its August 1, 2024 call") is that day's document, not the month around it
        (s.text, s.day - DAY_SLACK, s.day + DAY_SLACK)
        if s.day is not None
        else (s.text, s.start_date - timedelta(days=s.slack), s.end_date + timedelta(days=s.slack))
        for s in plan.time_specs
        if s.kind == "date_range" and s.start_date and s.end_date
    ]
    kinds = [k for k in DATED_KINDS if k in plan.asked_sources]
    if not kinds or not plan.tickers or not windows:
        return plan
    if "news" in kinds:
        plan = plan.with_changes(news_windows=tuple((a.isoformat(), b.isoformat()) for _, a, b in windows))
    gaps = await asyncio.to_thread(_dated_gaps, resources, kinds, list(plan.tickers), windows)
    return plan.with_changes(dated_gaps=tuple(gaps)) if gaps else plan


def _dated_gaps(
    resources: Any, kinds: list[str], tickers: list[str], windows: list[tuple[str, date, date]]
) -> list[DatedGap]:
    gaps = []
    with resources.database().connection() as conn:
        for kind in kinds:
            for text, start, end in windows:
                for ticker, first, last in without_dated(conn, kind, tickers, start, end):
                    days = (first.isoformat() if first else None, last.isoformat() if last else None)
                    gaps.append(DatedGap(ticker, kind, text or f"{start} to {end}", *days))
    return gaps


def _members(resources: Any, tickers: list[str]) -> list[tuple[str, str, str, str | None]]:
    with resources.database().connection() as conn:
        return fact_members(conn, tickers)


def _names_a_listed_company(resources: Any, reading: Reading) -> bool:
    """The question names a listed company the store does not hold ("which had more revenue, Tesla
    or Ford?"): it is answered by saying so, never by a screen of the companies held."""
    known_names = {n for c in reading.companies for n in (c.name, *c.aliases) if n}
    return bool(_listed(resources, reading.question, set(reading.by_ticker), known_names))


def _listed(resources: Any, question: str, known: set[str], known_names: set[str]) -> list[Any]:
    with resources.database().connection() as conn:
        return listed_in_question(conn, question, known, known_names)


def _unknown_names(resources: Any, question: str, companies: list[StoredCompany]) -> str | None:
    with resources.database().connection() as conn:
        return unknown_names(conn, question, companies)


def _fresh_run(warnings: list[str], llm_calls: list[dict[str, Any]]) -> dict[str, Any]:
    """Clear what a previous question of the same thread accumulated."""
    return {
        "iterations": 0,
        "warnings": reset(warnings),
        "evidence": reset(),
        "searches": reset(),
        "tool_results": reset(),
        "figures": reset(),
        "filing_parts": reset(),
        "evaluations": reset(),
        "llm_calls": reset(llm_calls),
        "facts": [],
        "calculations": [],
        "follow_up_queries": [],
        "drafted_from": "",
        "stood": False,
        "extracted": False,
    }


def _refusal(question: str, message: str, warnings: list[str], period_sources: list[str]) -> dict[str, Any]:
    """A run that stops after analysis: the answer says what is missing and how to add it."""
    return {
        "analysis": refused_question(question, message, period_sources).to_dict(),
        "answer": message,
        "citations": [],
        "confidence": 0.0,
        "periods_covered": [],
        "targets": [],
        "validation": {},
        **_fresh_run(warnings, []),
    }


def route_after_analyze(state: State) -> Literal["resolve_periods", "screen", "finish"]:
    """A question about companies the store does not hold ends here, with the answer saying so; one
    about every company in the store is screened."""
    plan = Question.of(state)
    if plan.refusal:
        return "finish"
    return "screen" if plan.universe else "resolve_periods"
