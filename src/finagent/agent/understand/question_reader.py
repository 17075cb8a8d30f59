"""Reading a question into its plan: the companies and periods it names, what its words ask, the
search phrases, and the typed ``Question`` the graph carries.

Pure over the question, the store's company list and the conversation so far; the analyze node adds
only what needs the database (companies the store lacks) or the model (intent and phrases).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from finagent.agent.context import ANSWER_MODES, Context
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
    sanitize_phrases,
)
from finagent.agent.understand.question import Question
from finagent.agent.understand.question_words import Wording, read_wording
from finagent.db.companies import StoredCompany
from finagent.finance.ask.asked_metrics import metrics_in
from finagent.finance.ask.long_history import History, read_history
from finagent.finance.ask.screen_ask import read_screen
from finagent.finance.ask.sub_asks import sub_asks
from finagent.finance.compute.formulas import metrics_for_formulas
from finagent.finance.computed import computed_named
from finagent.finance.lines import REPORTED
from finagent.finance.periods import FiscalCalendar, TimeSpec, invalid_quarters, parse_time_phrases
from finagent.finance.periods.ranges import PeriodRangeError, option_specs


@dataclass
class Reading:
    """The question's companies and periods, read before the store is asked what it lacks."""

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


@dataclass(frozen=True)
class Asked:
    """What the words ask, read once: the wording, the metrics, a long history, the search basics."""

    wording: Wording
    metrics: list[str]
    """Every metric named (the figure metrics only when ``figure_question``)."""
    history: History | None
    names: list[str]
    """Names of the companies (and the matched text) a search phrase leaves out."""
    borrowed: bool
    """Its words name only a period ("And in Q3?"): what it asks is the previous question's."""
    base_phrase: str
    figure_question: bool
    """Reported metrics of named companies: read by code, no model needed to analyse it."""
    sub_asks: tuple[str, ...] = ()
    """The questions a compound question asks one after the other (none for a figure question): its
    search phrase stays the whole question's (a part such as "what might the implications be" finds
    nothing alone), its quotes are chosen part by part."""


def read_companies_and_periods(
    text: str,
    explicit: list[str],
    period_options: list[str],
    previous: list[dict[str, Any]],
    companies: list[StoredCompany],
    context: Context,
) -> Reading:
    """Companies named (or given), where they are named, and the time phrases of question and options."""
    question, warnings = clean_question(text, context.max_question_chars)
    tickers, matched, ticker_warnings = resolve_tickers(question, explicit, companies, context.max_tickers)
    mentions = {} if explicit else mentions_of(question, tickers, companies)
    warnings += ticker_warnings
    warnings += [f"'{q}' is not a fiscal quarter or half; it was ignored" for q in invalid_quarters(question)]
    period_sources = [question, *period_options]
    parsed = [parse_time_phrases(question), *(_option_periods(t, warnings) for t in period_sources[1:])]
    reading = Reading(
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
    _continue_conversation(reading, previous)
    return reading


def _option_periods(text: str, warnings: list[str]) -> list[TimeSpec]:
    """A --period option's specs: a range ("FY2009..FY2024") as well as the question's phrases; a bad
    range is a warning and no period."""
    try:
        return option_specs(text)
    except PeriodRangeError as exc:
        warnings.append(f"{exc}; the period was ignored")
        return []


def _continue_conversation(reading: Reading, previous: list[dict[str, Any]]) -> None:
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


def read_asked(reading: Reading, previous: list[dict[str, Any]], use_facts: bool) -> Asked | None:
    """What the question's words ask; None when it names nothing to search for."""
    wording = read_wording(reading.question, reading.matched)
    metrics = _metrics(wording, use_facts)
    history = read_history(reading.question, reading.specs)
    if not metrics and use_facts and history is not None and history.metric:
        metrics = [history.metric]  # "did it ever report a loss?": its net income, period by period
    names = [*reading.matched, *reading.tickers]
    names += [n for t in reading.tickers for n in _names(reading.by_ticker.get(t))]
    base_phrase = fallback_phrase(reading.question, [*names, *(s.text for s in reading.specs if s.text)])
    borrowed = not base_phrase and bool(previous)
    if borrowed:
        # "And in Q3?" asks the previous question again for another period.
        earlier = previous[0].get("question", "")
        base_phrase = fallback_phrase(earlier, [*names, *(s.text for s in parse_time_phrases(earlier))])
        metrics = metrics or (metrics_in(earlier) if use_facts else [])
    if not base_phrase and not reading.tickers and not metrics:
        return None
    # Reported metrics of named companies: facts first, then period-true statement tables, then the
    # model's extraction; the model is not needed to analyse such a question.
    figure_question = bool(metrics and reading.tickers) and not (
        wording.breakdown or _names_no_figure(reading, wording)
    )
    return Asked(
        wording=wording,
        metrics=metrics,
        history=history,
        names=names,
        borrowed=borrowed,
        base_phrase=base_phrase or reading.question[:80],
        figure_question=figure_question,
        sub_asks=() if figure_question or borrowed else sub_asks(reading.question),
    )


def _names_no_figure(reading: Reading, wording: Wording) -> bool:
    """Of one company, a question asking who, where or what it does asks no figure, nor one asking
    the share of a line that a part only words name has (the government's share of revenue); among
    several ("who grew revenue fastest, Apple or Microsoft") the company is the one figures pick."""
    return (wording.not_an_amount or wording.part_share) and len(reading.tickers) == 1


def _metrics(wording: Wording, use_facts: bool) -> list[str]:
    """Reported metrics the question names, and the line items of a metric it computes itself."""
    metrics = list(wording.named_metrics) if use_facts else []
    own = [f for f in wording.formulas if computed_named(f.metric) not in wording.computed]
    if metrics and own:  # a metric the question computes (beyond margins and FCF) needs its line items
        metrics += [m for m in metrics_for_formulas(own, list(REPORTED)) if m not in metrics]
    return metrics


@dataclass(frozen=True)
class ModelReading:
    """What the model (or, for a figure question, the metrics) said of the question."""

    intent: str
    sources: list[str]
    answer_mode: str
    phrases: list[tuple[str, list[str]]]
    """(ticker, the phrases suggested for it), as the model listed them."""
    statement: str = ""


def search_keywords(
    reading: Reading, asked: Asked, model: ModelReading, context: Context
) -> dict[str, list[str]]:
    """Up to three search phrases per ticker: the question's own words, statement wording, the model's."""
    keywords: dict[str, list[str]] = {}
    vocabulary = list(asked.wording.statement_phrases) if context.ablations.use_vocabulary else []
    for ticker in reading.tickers or [""]:
        suggested = next((list(phrases) for named, phrases in model.phrases if named == ticker), [])
        if not reading.tickers:
            suggested = [p for _, phrases in model.phrases for p in phrases]
        candidates = [asked.base_phrase, *vocabulary, *suggested]
        keywords[ticker] = sanitize_phrases(candidates, asked.names)[:3] or [asked.base_phrase]
    if not reading.tickers and asked.metrics:  # the statements' own row wording finds the figure's table
        keywords[""] = sanitize_phrases([*keywords[""][:2], *figure_keywords(asked.metrics)], asked.names)[:3]
    return keywords


def plan_question(
    reading: Reading, asked: Asked, model: ModelReading, mode: str | None, context: Context
) -> Question:
    """The plan: companies, periods, metrics, keywords and what the question's words ask."""
    keywords = search_keywords(reading, asked, model, context)
    tickers, by_ticker, wording = reading.tickers, reading.by_ticker, asked.wording
    metrics = asked.metrics if asked.figure_question else []
    mode = mode or model.answer_mode
    if mode not in ANSWER_MODES:
        reading.warnings.append(f"unknown answer mode '{mode}'; using standard")
        mode = "standard"
    if not tickers:
        reading.warnings.append(
            "no known company found in the question; searching all companies in the store"
        )
    phrases = [p for ps in keywords.values() for p in ps]
    traits = question_traits(
        wording, reading.specs, tickers, reading.mentions, metrics, phrases, asked.history
    )
    reading.specs = calendar_years_for(traits["ask"], reading.specs)
    # A figure is read from its primary statement: route each metric's sub-searches there.
    statements = [*(wording.statements if context.ablations.use_vocabulary else [])]
    statements += [REPORTED[m].statement for m in metrics]
    # a figure naming no company is read by code once its company is chosen; a why or a part is written
    written = wording.narrative or wording.breakdown
    plan = {
        "question": reading.question,
        "tickers": tickers,
        "period_sources": reading.period_sources,
        "time_specs": [spec.to_dict() for spec in reading.specs],
        "question_periods_only": reading.periods_only_in_question,
        "mentions": reading.mentions,
        "intent": model.intent,
        "sources": required_sources(wording.source_cues, model.sources),
        "answer_mode": mode,
        "keywords": keywords,
        "sub_asks": list(asked.sub_asks),
        "answer_sentence": model.statement.strip() if context.ablations.lean_to_answer else "",
        "statements": list(dict.fromkeys(statements)),
        "names": {t: [t, *_names(by_ticker.get(t)), *_short_names(by_ticker.get(t))] for t in tickers},
        "metrics": metrics,
        "computed": list(wording.computed) if metrics else [],
        "comparisons": wording.comparisons.to_dict(),
        "calendars": {
            t: FiscalCalendar.state(
                _fye(by_ticker.get(t), t), by_ticker[t].fiscal_year_offset if t in by_ticker else None
            )
            for t in tickers
        },
        **traits,
        "subject_needed": (
            bool(asked.metrics and not tickers and context.ablations.subject_from_search) and not written
        ),
    }
    return Question.from_dict(plan)


def screen_question(reading: Reading) -> Question | None:
    """The plan of a question about the companies in general ("which company in the store had the
    highest operating margin", "which companies grew revenue more than 10% in fiscal 2024"): a screen
    of every company the store holds, each in its own period; None when it names a company or no
    metric, or the store holds no company."""
    if reading.tickers or not reading.held:
        return None
    ask = read_screen(reading.question)
    if ask is None:
        return None
    named = [s.text for s in reading.specs if s.text and s.kind != "latest"]
    return Question(
        question=reading.question,
        period_sources=tuple(reading.period_sources),
        time_specs=tuple(reading.specs),
        answer_mode="direct",
        intent="screen of the store",
        universe=tuple(reading.held),
        screen=ask,
        screen_period=" and ".join(named),
    )


def refused_question(question: str, message: str, period_sources: list[str]) -> Question:
    """The plan of a run that stops after analysis: the answer says what is missing and how to add it."""
    return Question(
        question=question, period_sources=tuple(period_sources), answer_mode="direct", refusal=message
    )


def _fye(company: StoredCompany | None, ticker: str) -> int | None:
    if company is not None and company.fiscal_year_end_month:
        return company.fiscal_year_end_month
    from finagent.finance.company_registry import lookup_builtin

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
