"""analyze node: companies and periods deterministically, the plan from the question's words, then
one LLM call for intent and keywords when the question is not a figure question.

The model only fills in what cannot be parsed (intent, sources, answer mode, search phrases); it
cannot add a ticker (the schema only admits resolved tickers) or a period (periods are parsed here).
Everything later nodes need of the question is read here once (``understand.plan``).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Literal

from langgraph.runtime import Runtime

from finagent.agent.context import ANSWER_MODES, Context
from finagent.agent.planning import sanitize_phrases
from finagent.agent.prompts import render
from finagent.agent.resources import get_resources
from finagent.agent.schemas import QuestionAnalysis, TickerPhrases, analysis_schema
from finagent.agent.state import State, reset
from finagent.agent.understand.entities import strip_legal_suffixes
from finagent.agent.understand.plan import (
    calendar_years_for,
    clean_question,
    fallback_phrase,
    figure_keywords,
    mentions_of,
    question_traits,
    required_sources,
    resolve_tickers,
)
from finagent.agent.understand.refusals import (
    explicit_unknown_message,
    listed_in_question,
    no_terms_message,
    not_in_store_message,
    unknown_names,
)
from finagent.agent.understand.vocabulary import is_breakdown, statement_phrases, statements_for
from finagent.db.companies import StoredCompany
from finagent.finance.compare import Wanted
from finagent.finance.figures.formulas import formulas_for, metrics_for_formulas
from finagent.finance.history import read_history
from finagent.finance.metrics import BY_NAME, computed_in, metrics_in
from finagent.finance.periods import FiscalCalendar, TimeSpec, invalid_quarters, parse_time_phrases
from finagent.finance.periods.ranges import PeriodRangeError, option_specs
from finagent.llm.structured import LLMCall, structured_call


@dataclass
class _Reading:
    """What analyze has read so far: the question, its companies and periods, warnings."""

    question: str
    tickers: list[str]
    matched: list[str]
    mentions: dict[str, list[int]]
    specs: list[TimeSpec]
    period_sources: list[str]
    periods_only_in_question: bool
    companies: list[StoredCompany]
    warnings: list[str] = field(default_factory=list)

    @property
    def by_ticker(self) -> dict[str, StoredCompany]:
        return {c.ticker: c for c in self.companies}

    @property
    def held(self) -> list[str]:
        return sorted(c.ticker for c in self.companies if c.documents)


def _read_companies_and_periods(state: State, context: Context, companies: list[StoredCompany]) -> _Reading:
    """Companies named (or given), where they are named, and the time phrases of question and options."""
    question, warnings = clean_question(state["question"], context.max_question_chars)
    explicit = list(state.get("tickers") or [])
    tickers, matched, ticker_warnings = resolve_tickers(question, explicit, companies, context.max_tickers)
    mentions = {} if explicit else mentions_of(question, tickers, companies)
    warnings += ticker_warnings
    warnings += [f"'{q}' is not a fiscal quarter or half; it was ignored" for q in invalid_quarters(question)]
    period_sources = [question, *(state.get("periods") or [])]
    parsed = [parse_time_phrases(question), *(_option_periods(text, warnings) for text in period_sources[1:])]
    reading = _Reading(
        question=question,
        tickers=tickers,
        matched=matched,
        mentions=mentions,
        specs=[spec for found in parsed for spec in found],
        period_sources=period_sources,
        # Periods that follow a company's name belong to it only when the question alone names them.
        periods_only_in_question=not any(parsed[1:]),
        companies=companies,
        warnings=warnings,
    )
    _continue_conversation(reading, (state.get("history") or [])[-1:])
    return reading


def _option_periods(text: str, warnings: list[str]) -> list[TimeSpec]:
    """A --period option's specs: a range ("FY2009..FY2024") as well as the question's phrases; a bad
    range is a warning and no period."""
    try:
        return option_specs(text)
    except PeriodRangeError as exc:
        warnings.append(f"{exc}; the period was ignored")
        return []


def _continue_conversation(reading: _Reading, previous: list[dict[str, Any]]) -> None:
    """ "And in Q3?": the previous question's companies and periods when this one names none."""
    if previous and not reading.tickers:
        reading.tickers = list(previous[0].get("tickers") or [])
        if reading.tickers:
            reading.warnings.append(
                f"no company named; continuing with {', '.join(reading.tickers)} from the conversation"
            )
    if previous and not reading.specs:
        reading.period_sources = list(previous[0].get("period_sources") or [])
        reading.specs = [spec for text in reading.period_sources for spec in parse_time_phrases(text)]
        reading.periods_only_in_question = not reading.specs


async def _refusal_for(reading: _Reading, state: State, resources: Any) -> str | None:
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


def _metrics(question: str, use_facts: bool) -> list[str]:
    """Reported metrics the question names, and the line items of a metric it computes itself."""
    metrics = metrics_in(question) if use_facts else []
    own = [f for f in formulas_for(question) if f.metric.replace(" ", "_") not in computed_in(question)]
    if metrics and own:  # a metric the question computes (beyond margins and FCF) needs its line items
        metrics += [m for m in metrics_for_formulas(own, list(BY_NAME)) if m not in metrics]
    return metrics


async def _model_analysis(
    reading: _Reading, figure_question: bool, metrics: list[str], context: Context
) -> tuple[QuestionAnalysis, list[LLMCall]]:
    """Intent, sources, mode and phrases: from the metrics for a figure question, else from the model."""
    if not reading.tickers:  # no company named: the question's own words search, one model call in all
        return QuestionAnalysis(intent="no company named", sources=["10-K", "10-Q"], answer_mode="direct"), []
    if figure_question:
        phrases = figure_keywords(metrics)
        reply = QuestionAnalysis(
            intent="reported figures: " + ", ".join(BY_NAME[m].label for m in metrics),
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


def _keywords(
    reading: _Reading, reply: QuestionAnalysis, base_phrase: str, names: list[str], context: Context
) -> dict[str, list[str]]:
    """Up to three search phrases per ticker: the question's own words, statement wording, the model's."""
    keywords: dict[str, list[str]] = {}
    vocabulary = statement_phrases(reading.question) if context.ablations.use_vocabulary else []
    for ticker in reading.tickers or [""]:
        suggested: list[str] = next((k.phrases for k in reply.keywords if k.ticker == ticker), [])
        if not reading.tickers:
            suggested = [p for k in reply.keywords for p in k.phrases]
        candidates = [base_phrase, *vocabulary, *suggested]
        keywords[ticker] = sanitize_phrases(candidates, names)[:3] or [base_phrase]
    return keywords


async def analyze(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Resolve companies and time phrases, read the plan, then ask the model for intent and keywords.

    A figure question (reported metrics of named companies) needs no model here: its keywords are
    the statements' own row wording. A question about companies the store does not hold is
    answered at once with how to add them.
    """
    context = runtime.context or Context()
    resources = get_resources()
    companies = await asyncio.to_thread(resources.companies)
    reading = _read_companies_and_periods(state, context, companies)
    refusal = await _refusal_for(reading, state, resources)
    if refusal:
        return _refusal(reading.question, refusal, reading.warnings, reading.period_sources)
    use_facts = resources.settings.use_facts if context.use_facts is None else context.use_facts
    metrics = _metrics(reading.question, use_facts)
    history = read_history(reading.question, reading.specs)
    if not metrics and use_facts and history is not None and history.metric:
        metrics = [history.metric]  # "did it ever report a loss?": its net income, period by period
    names = [*reading.matched, *reading.tickers]
    names += [n for t in reading.tickers for n in _names(reading.by_ticker.get(t))]
    base_phrase = fallback_phrase(reading.question, [*names, *(s.text for s in reading.specs if s.text)])
    previous = (state.get("history") or [])[-1:]
    if not base_phrase and previous:
        # "And in Q3?" asks the previous question again for another period.
        earlier = previous[0].get("question", "")
        base_phrase = fallback_phrase(earlier, [*names, *(s.text for s in parse_time_phrases(earlier))])
        metrics = metrics or (metrics_in(earlier) if use_facts else [])
    if not base_phrase and not reading.tickers and not metrics:
        return _refusal(
            reading.question, no_terms_message(reading.held), reading.warnings, reading.period_sources
        )
    base_phrase = base_phrase or reading.question[:80]
    # Reported metrics of named companies: facts first, then period-true statement tables, then the
    # model's extraction; the model is not needed to analyse such a question.
    figure_question = bool(metrics and reading.tickers) and not is_breakdown(reading.question)
    reply, calls = await _model_analysis(reading, figure_question, metrics, context)
    keywords = _keywords(reading, reply, base_phrase, names, context)
    if not reading.tickers and metrics:  # the statements' own row wording finds the figure's table
        keywords[""] = sanitize_phrases([*keywords[""][:2], *figure_keywords(metrics)], names)[:3]
    analysis = _analysis(reading, reply, keywords, metrics if figure_question else [], state, context)
    # a figure naming no company is read by code once its company is chosen; a why or a part is written
    written = analysis.get("narrative") or is_breakdown(reading.question)
    analysis["subject_needed"] = (
        bool(metrics and not reading.tickers and context.ablations.subject_from_search) and not written
    )
    return {"analysis": analysis, **_fresh_run(reading.warnings, [c.to_dict() for c in calls])}


def _analysis(
    reading: _Reading,
    reply: QuestionAnalysis,
    keywords: dict[str, list[str]],
    metrics: list[str],
    state: State,
    context: Context,
) -> dict[str, Any]:
    """The plan: companies, periods, metrics, keywords and what the question's words ask."""
    question, tickers, by_ticker = reading.question, reading.tickers, reading.by_ticker
    mode = state.get("answer_mode") or context.answer_mode or reply.answer_mode
    if mode not in ANSWER_MODES:
        reading.warnings.append(f"unknown answer mode '{mode}'; using standard")
        mode = "standard"
    if not tickers:
        reading.warnings.append(
            "no known company found in the question; searching all companies in the store"
        )
    phrases = [p for ps in keywords.values() for p in ps]
    traits = question_traits(question, reading.specs, tickers, reading.mentions, metrics, phrases)
    reading.specs = calendar_years_for(traits["ask"], reading.specs)
    # A figure is read from its primary statement: route each metric's sub-searches there.
    statements = [*(statements_for(question) if context.ablations.use_vocabulary else [])]
    statements += [BY_NAME[m].statement for m in metrics]
    return {
        "question": question,
        "tickers": tickers,
        "period_sources": reading.period_sources,
        "time_specs": [spec.to_dict() for spec in reading.specs],
        "question_periods_only": reading.periods_only_in_question,
        "mentions": reading.mentions,
        "intent": reply.intent,
        "sources": required_sources(question, list(reply.sources)),
        "answer_mode": mode,
        "keywords": keywords,
        "answer_sentence": reply.statement.strip() if context.ablations.lean_to_answer else "",
        "statements": list(dict.fromkeys(statements)),
        "names": {t: [t, *_names(by_ticker.get(t)), *_short_names(by_ticker.get(t))] for t in tickers},
        "metrics": metrics,
        "computed": computed_in(question) if metrics else [],
        "comparisons": Wanted.from_question(question).to_dict(),
        "calendars": {
            t: FiscalCalendar.state(
                _fye(by_ticker.get(t), t), by_ticker[t].fiscal_year_offset if t in by_ticker else None
            )
            for t in tickers
        },
        **traits,
    }


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
        "evaluations": reset(),
        "llm_calls": reset(llm_calls),
        "facts": [],
        "calculations": [],
        "follow_up_queries": [],
        "drafted_from": "",
        "stood": False,
    }


def _refusal(question: str, message: str, warnings: list[str], period_sources: list[str]) -> dict[str, Any]:
    """A run that stops after analysis: the answer says what is missing and how to add it."""
    analysis = {
        "question": question,
        "tickers": [],
        "period_sources": period_sources,
        "time_specs": [],
        "intent": "",
        "sources": [],
        "answer_mode": "direct",
        "keywords": {},
        "statements": [],
        "names": {},
        "metrics": [],
        "computed": [],
        "comparisons": {},
        "as_reported": False,
        "calendars": {},
        "refusal": message,
    }
    return {
        "analysis": analysis,
        "answer": message,
        "citations": [],
        "confidence": 0.0,
        "periods_covered": [],
        "targets": [],
        "validation": {},
        **_fresh_run(warnings, []),
    }


def route_after_analyze(state: State) -> Literal["resolve_periods", "finish"]:
    """A question about companies the store does not hold ends here, with the answer saying so."""
    return "finish" if state["analysis"].get("refusal") else "resolve_periods"


def _fye(company: StoredCompany | None, ticker: str) -> int | None:
    if company is not None and company.fiscal_year_end_month:
        return company.fiscal_year_end_month
    from finagent.finance.companies import lookup_builtin

    builtin = lookup_builtin(ticker)
    return builtin.fiscal_year_end_month if builtin else None


def _names(company: StoredCompany | None) -> list[str]:
    if company is None:
        return []
    return [n for n in (company.name, *company.aliases) if n]


def _short_names(company: StoredCompany | None) -> list[str]:
    """ "Apple" for "Apple Inc.", so a sentence naming the company is recognised."""
    if company is None or not company.name:
        return []
    return [strip_legal_suffixes(company.name)]
