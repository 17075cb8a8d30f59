"""analyze node: companies and periods deterministically, then one LLM call for intent and keywords.

The model only fills in what cannot be parsed (intent, sources, answer mode, search phrases); it
cannot add a ticker (the schema only admits resolved tickers) or a period (periods are parsed here).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any, Literal

from langgraph.runtime import Runtime

from finagent.agent.context import ANSWER_MODES, Context
from finagent.agent.planning import sanitize_phrases
from finagent.agent.prompts import render
from finagent.agent.resources import get_resources
from finagent.agent.schemas import QuestionAnalysis, TickerPhrases, analysis_schema
from finagent.agent.state import State, reset
from finagent.agent.understand.entities import find_companies, strip_legal_suffixes, unknown_ticker_mentions
from finagent.agent.understand.refusals import (
    explicit_unknown_message,
    listed_in_question,
    no_terms_message,
    not_in_store_message,
    unknown_names,
)
from finagent.agent.understand.vocabulary import is_breakdown, is_narrative, statement_phrases, statements_for
from finagent.db.companies import StoredCompany, resolve_company
from finagent.finance.compare import Wanted
from finagent.finance.figures.formulas import formulas_for, metrics_for_formulas
from finagent.finance.metrics import BY_NAME, computed_in, metrics_in
from finagent.finance.periods import invalid_quarters, parse_time_phrases
from finagent.llm.structured import LLMCall, structured_call

_MARKET_CUES = re.compile(
    r"\b(stock|share price|trading|trades|traded|market cap\w*|valuation|quote|52[- ]week|price target)\b",
    re.I,
)
_NEWS_CUES = re.compile(r"\b(news|headlines?|press release|announce\w*)\b", re.I)
_TRANSCRIPT_CUES = re.compile(
    r"\b(earnings call|call|transcripts?|management (said|says|comment\w*)|guidance|outlook|ceo|cfo)\b", re.I
)
_STOP = frozenset(
    """
    a about across after all also an and any are as at be been between both by can compare compared
    comparison could did do does during each ending ended for from give had has have how in into is
    it its latest last me most of on or our over past per please recent reported show since tell
    than that the their them then there these they this those through to trend was were what when
    where which while who why will with within would year years quarter quarters fiscal fy vs versus
    change changed changes period periods company companies only just same again instead now
""".split()
)


def clean_question(question: str, limit: int) -> tuple[str, list[str]]:
    """Strip control characters and undecodable bytes; trim an oversized question with a warning."""
    text = (question or "").encode("utf-8", "replace").decode("utf-8")  # lone surrogates -> "?"
    text = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", " ", text).strip()
    if len(text) > limit:
        return text[:limit], [
            f"the question was {len(text):,} characters; only the first {limit:,} were used"
        ]
    return text, []


def resolve_tickers(
    question: str, explicit: list[str], companies: list[StoredCompany], limit: int
) -> tuple[list[str], list[str], list[str]]:
    """(tickers, matched texts, warnings): explicit tickers win, else the ones the question names."""
    warnings: list[str] = []
    tickers: list[str] = []
    texts: list[str] = []
    if explicit:
        for raw in explicit:
            company = resolve_company(companies, raw)
            if company is None:
                warnings.append(f"unknown company '{raw}': not in the store's company list")
            elif company.ticker not in tickers:
                tickers.append(company.ticker)
    if not tickers:  # no explicit ticker is known: the companies the question names still are
        for match in find_companies(question, companies):
            tickers.append(match.ticker)
            texts.append(match.text)
        if explicit and tickers:
            warnings.append(f"using the companies the question names instead: {', '.join(tickers)}")
    for symbol in unknown_ticker_mentions(question, companies):
        warnings.append(f"unknown ticker ${symbol}: not in the store's company list")
    if len(tickers) > limit:
        warnings.append(
            f"{len(tickers)} companies asked; only the first {limit} are researched: "
            + ", ".join(tickers[:limit])
        )
        tickers = tickers[:limit]
    return tickers, texts, warnings


def fallback_phrase(question: str, remove: list[str]) -> str:
    """Keyword phrase from the question itself: company names, periods and filler words removed."""
    text = question
    for fragment in sorted(remove, key=len, reverse=True):
        if fragment:
            text = re.sub(rf"(?<!\w){re.escape(fragment)}(?:'s|’s)?(?!\w)", " ", text, flags=re.I)
    words = [re.sub(r"['’]s$", "", w) for w in re.findall(r"[A-Za-z][A-Za-z&\-'’]*", text)]
    words = [w for w in words if w.lower() not in _STOP and not re.fullmatch(r"(?i)q[1-4]|fy\d*", w)]
    return " ".join(words[:6]).lower()


_TOOL_CUES = {"market_data": _MARKET_CUES, "news": _NEWS_CUES}
_AS_REPORTED = re.compile(
    r"\b(?:as (?:originally )?reported|originally reported|before (?:the )?restatement)\b", re.I
)


def required_sources(question: str, suggested: list[str]) -> list[str]:
    """Sources the question needs: the model's suggestion plus unmistakable cues in the text.

    Market data and news run only when the question asks about prices, valuation or news: a model's
    suggestion alone would add slow tool calls (and warnings) to questions about filings.
    """
    sources = [s for s in dict.fromkeys(suggested) if s not in _TOOL_CUES or _TOOL_CUES[s].search(question)]
    for name, cue in (("market_data", _MARKET_CUES), ("news", _NEWS_CUES), ("transcript", _TRANSCRIPT_CUES)):
        if cue.search(question) and name not in sources:
            sources.append(name)
    if not any(s in sources for s in ("10-K", "10-Q", "transcript")):
        sources[:0] = ["10-K", "10-Q"]
    return sources


def figure_keywords(metrics: list[str]) -> list[str]:
    """Search phrases for reported metrics: the row wording statements use ("total net sales")."""
    return [BY_NAME[m].rows[0] for m in metrics if m in BY_NAME and BY_NAME[m].rows][:3]


async def analyze(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Resolve companies and time phrases, then ask the model for intent, sources, mode and keywords.

    A figure question (reported metrics of named companies) needs no model here: its keywords are
    the statements' own row wording. A question about companies the store does not hold is
    answered at once with how to add them.
    """
    context = runtime.context or Context()
    resources = get_resources()
    question, warnings = clean_question(state["question"], context.max_question_chars)
    companies = await asyncio.to_thread(resources.companies)
    tickers, matched, ticker_warnings = resolve_tickers(
        question, list(state.get("tickers") or []), companies, context.max_tickers
    )
    mentions: dict[str, list[int]] = {}
    if not state.get("tickers"):  # where the question names each company (periods may follow a name)
        for match in find_companies(question, companies):
            if match.ticker in tickers:
                mentions.setdefault(match.ticker, []).append(match.start)
    warnings += ticker_warnings
    warnings += [f"'{q}' is not a fiscal quarter or half; it was ignored" for q in invalid_quarters(question)]
    period_sources = [question, *(state.get("periods") or [])]
    parsed = [parse_time_phrases(text) for text in period_sources]
    specs = [spec for found in parsed for spec in found]
    # Periods that follow a company's name belong to it only when the question alone names them.
    question_periods_only = not any(parsed[1:])
    previous = (state.get("history") or [])[-1:]
    if previous and not tickers:
        tickers = list(previous[0].get("tickers") or [])
        if tickers:
            warnings.append(f"no company named; continuing with {', '.join(tickers)} from the conversation")
    if previous and not specs:
        period_sources = list(previous[0].get("period_sources") or [])
        specs = [spec for text in period_sources for spec in parse_time_phrases(text)]
        question_periods_only = not specs

    by_ticker = {c.ticker: c for c in companies}
    held = sorted(c.ticker for c in companies if c.documents)
    empty = [t for t in tickers if t in by_ticker and not by_ticker[t].documents]
    tickers = [t for t in tickers if t not in empty]
    missing: list[tuple[str, str | None]] = [(t, by_ticker[t].name) for t in empty]
    if state.get("tickers") and not tickers and not missing:
        message = explicit_unknown_message(list(state.get("tickers") or []), held)
        return _refusal(question, message, warnings, period_sources)
    if not state.get("tickers"):
        known_names = {n for c in companies for n in (c.name, *c.aliases) if n}
        listed = await asyncio.to_thread(_listed, resources, question, set(by_ticker), known_names)
        missing += [(c.ticker, c.name) for c in listed]
    use_facts = resources.settings.use_facts if context.use_facts is None else context.use_facts
    metrics = metrics_in(question) if use_facts else []
    own = [f for f in formulas_for(question) if f.metric.replace(" ", "_") not in computed_in(question)]
    if metrics and own:  # a metric the question computes (beyond margins and FCF) needs its line items
        metrics += [m for m in metrics_for_formulas(own, list(BY_NAME)) if m not in metrics]
    if missing and not tickers:
        return _refusal(question, not_in_store_message(missing, held), warnings, period_sources)
    if missing:
        warnings.append(not_in_store_message(missing, []).split(" Add them")[0])
    if not tickers:
        unknown = await asyncio.to_thread(_unknown_names, resources, question, companies)
        if unknown:
            return _refusal(question, unknown, warnings, period_sources)

    names = [*matched, *tickers, *(n for t in tickers for n in _names(by_ticker.get(t)))]
    phrase_texts = [s.text for s in specs if s.text]
    base_phrase = fallback_phrase(question, [*names, *phrase_texts])
    if not base_phrase and previous:
        # "And in Q3?" asks the previous question again for another period.
        earlier = previous[0].get("question", "")
        base_phrase = fallback_phrase(earlier, [*names, *(s.text for s in parse_time_phrases(earlier))])
        metrics = metrics or (metrics_in(earlier) if use_facts else [])
    if not base_phrase and not tickers and not metrics:
        return _refusal(question, no_terms_message(held), warnings, period_sources)
    base_phrase = base_phrase or question[:80]

    # Reported metrics of named companies: facts first, then period-true statement tables, then the
    # model's extraction; the model is not needed to analyse such a question.
    figure_question = bool(metrics and tickers) and not is_breakdown(question)
    calls: list[LLMCall] = []
    if figure_question:
        phrases = figure_keywords(metrics)
        reply = QuestionAnalysis(
            intent="reported figures: " + ", ".join(BY_NAME[m].label for m in metrics),
            sources=["10-K", "10-Q"],
            answer_mode="standard",
            keywords=[TickerPhrases(ticker=t, phrases=phrases) for t in tickers],
        )
    else:
        messages = render(
            "analyze",
            question=question,
            companies=", ".join(
                f"{t} ({by_ticker[t].name})" if t in by_ticker and by_ticker[t].name else t for t in tickers
            )
            or "none named",
            periods=", ".join(phrase_texts) or "not stated (use the latest)",
        )
        schema = analysis_schema(tickers)
        reply, calls = await structured_call(
            resources.chat_model("analyze", context),
            messages,
            schema,
            role="analyze",
            default=QuestionAnalysis,
        )
        if calls and not calls[-1].ok:
            reason = (calls[-1].error or "no usable reply").splitlines()[0][:160]
            warnings.append(
                f"the model's question analysis failed ({reason}); keywords come from the question"
            )
    keywords: dict[str, list[str]] = {}
    for ticker in tickers or [""]:
        suggested: list[str] = next((k.phrases for k in reply.keywords if k.ticker == ticker), [])
        if not tickers:
            suggested = [p for k in reply.keywords for p in k.phrases]
        vocabulary = statement_phrases(question) if context.use_vocabulary else []
        candidates = [base_phrase, *vocabulary, *suggested]
        keywords[ticker] = sanitize_phrases(candidates, names)[:3] or [base_phrase]
    mode = state.get("answer_mode") or context.answer_mode or reply.answer_mode
    if mode not in ANSWER_MODES:
        warnings.append(f"unknown answer mode '{mode}'; using standard")
        mode = "standard"
    if not tickers:
        warnings.append("no known company found in the question; searching all companies in the store")
    analysis = {
        "question": question,
        "tickers": tickers,
        "period_sources": period_sources,
        "time_specs": [spec.to_dict() for spec in specs],
        "question_periods_only": question_periods_only,
        "mentions": mentions,
        "intent": reply.intent,
        "sources": required_sources(question, list(reply.sources)),
        "answer_mode": mode,
        "keywords": keywords,
        # A figure is read from its primary statement: route each metric's sub-searches there.
        "statements": list(
            dict.fromkeys(
                [
                    *(statements_for(question) if context.use_vocabulary else []),
                    *(BY_NAME[m].statement for m in metrics if figure_question),
                ]
            )
        ),
        "names": {t: [t, *_names(by_ticker.get(t)), *_short_names(by_ticker.get(t))] for t in tickers},
        "metrics": metrics if figure_question else [],
        "computed": computed_in(question) if figure_question else [],
        "comparisons": Wanted.from_question(question).to_dict(),
        "as_reported": bool(_AS_REPORTED.search(question)),
        "narrative": is_narrative(question),
        "calendars": {
            t: [_fye(by_ticker.get(t), t), (by_ticker[t].fiscal_year_offset if t in by_ticker else None)]
            for t in tickers
        },
    }
    return {"analysis": analysis, **_fresh_run(warnings, [c.to_dict() for c in calls])}


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
