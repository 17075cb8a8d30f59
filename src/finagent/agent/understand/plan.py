"""The question read once into the plan every later node follows (``state.Analysis``).

Pure functions over the question text, the resolved companies and the parsed time phrases: what is
asked (``finance.asks.Ask``), which metrics and formulas, which document kinds and report sections,
whether it is a forecast, an event, a narrative. Nodes after analyze read these fields and never
parse the question again.
"""

from __future__ import annotations

import re
from typing import Any

from finagent.agent.evidence import query_terms
from finagent.agent.understand.entities import find_companies, unknown_ticker_mentions
from finagent.agent.understand.vocabulary import asks_drivers, is_breakdown, is_narrative, is_what_said
from finagent.db.companies import StoredCompany, resolve_company
from finagent.finance.asks import read_ask
from finagent.finance.figures.formulas import FORMULAS, formulas_for
from finagent.finance.figures.text import value_line_words
from finagent.finance.filing_sections import section_topics
from finagent.finance.history import read_history
from finagent.finance.metrics import BY_NAME, metrics_in
from finagent.finance.periods import (
    TimeSpec,
    dated_documents,
    named_kinds,
    preferred_granularity,
    undated_document,
)
from finagent.finance.revisions import asks_revision_size
from finagent.finance.words import SCALE_PLURALS, line_names, names_in

_MARKET_CUES = re.compile(
    r"\b(stock|share price|trading|trades|traded|market cap\w*|valuation|quote|52[- ]week|price target)\b",
    re.I,
)
_NEWS_CUES = re.compile(r"\b(news|headlines?|press release|announce\w*)\b", re.I)
_NEWS_WORDS = re.compile(r"\b(news|headlines?|articles?|media|press reports?)\b", re.I)
_TRANSCRIPT_CUES = re.compile(
    r"\b(earnings call|call|transcripts?|management (said|says|comment\w*)|guidance|outlook|ceo|cfo)\b", re.I
)
_AS_REPORTED = re.compile(
    r"\b(?:as (?:originally )?reported|originally reported|before (?:the )?restatement)\b", re.I
)
# What a question expects rather than reports (guidance, a forecast, a projection).
_FORWARD = re.compile(
    r"\b(?:expect(?:s|ed|ations?)?|guidance|outlook|forecast\w*|anticipat\w*|project(?:s|ed|ions?))\b", re.I
)
# An earnings release is the document for non-GAAP figures and guidance.
_RELEASE_CUES = re.compile(
    r"\b(adjusted|non-?GAAP|guidance|outlook|earnings (release|report)|press release)\b", re.I
)
# Events a company reports on an 8-K (Items 5.02, 2.01, 1.01): leadership changes and deals.
_EVENT_WORDS = re.compile(
    r"\b(?:new|incoming|interim|former|outgoing) (?:CEO|CFO|COO|chief \w+ officer|chair(?:man|woman)?)\b"
    r"|\bappoint\w*|\bresign\w*|\bstep(?:s|ped)? down\b|\bsuccession\b|\bdepart(?:ure|ed|s)\b"
    r"|\b(?:CEO|CFO) (?:change|transition)\b|\bacquisition of\b|\bmerger (?:with|agreement)\b",
    re.I,
)
_EVENT_CUES = re.compile(r"\b8-?K\b|\bdated\b|\bpress release\b|\bcurrent report\b", re.I)
_AS_OF = re.compile(r"\bas of\b", re.I)
_AVERAGE = re.compile(r"\b(average|mean)\b", re.I)
# A question that wants a quantity read from the passages, though no metric of the vocabulary names it.
_QUANTITY = re.compile(
    r"\bhow\s+(?:much|many|large|big|high|low)\b|\b(?:amount|number|value|ratio|margin|rate|percent\w*"
    r"|proportion|share|total|sum|figure|balance|cost|price|per\s+share|dividends?)\b|[$%]|\bin\s+(?:usd|"
    rf"{'|'.join(SCALE_PLURALS)})\b",
    re.I,
)
_STOP = frozenset(
    """
    a about across after all also an and any are as at be been between both by can compare compared
    comparison could did do does during each ending ended for from give had has have how in into is
    it its latest last me most of on or our over past per please recent reported show since tell
    than that the their them then there these they this those through to trend was were what when
    where which while who why will with within would year years quarter quarters fiscal fy vs versus
    change changed changes period periods company companies only just same again instead now
    drove drive drives driving driven caused cause causes explain explains explained behind reason
    reasons say says said describe describes discuss discusses january february march april may june
    july august september october november december
""".split()
)


_REPEATED = re.compile(r"\b(\w+(?:\W+\w+){0,3}?)(?:\W+\1\b){2,}", re.I)
"""A word or short phrase said three times or more in a row."""


def clean_question(question: str, limit: int) -> tuple[str, list[str]]:
    """Strip control characters and undecodable bytes; trim an oversized question with a warning."""
    text = (question or "").encode("utf-8", "replace").decode("utf-8")  # lone surrogates -> "?"
    text = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", " ", text).strip()
    warnings: list[str] = []
    repeated = _REPEATED.search(text)
    if repeated:  # "revenue revenue revenue …" asks once: the repetitions only slow every step
        text = _REPEATED.sub(r"\1", text)
        warnings.append(f"the question repeats words ('{repeated.group(1)[:40]}' …); each run was read once")
    if len(text) > limit:
        return text[:limit], [
            *warnings,
            f"the question was {len(text):,} characters; only the first {limit:,} were used",
        ]
    return text, warnings


def resolve_tickers(
    question: str, explicit: list[str], companies: list[StoredCompany], limit: int
) -> tuple[list[str], list[str], list[str]]:
    """(tickers, matched texts, warnings): explicit tickers win, else the ones the question names."""
    warnings: list[str] = []
    tickers: list[str] = []
    texts: list[str] = []
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


def mentions_of(question: str, tickers: list[str], companies: list[StoredCompany]) -> dict[str, list[int]]:
    """Where the question names each company (periods that follow a name may belong to it)."""
    mentions: dict[str, list[int]] = {}
    for match in find_companies(question, companies):
        if match.ticker in tickers:
            mentions.setdefault(match.ticker, []).append(match.start)
    return mentions


def fallback_phrase(question: str, remove: list[str]) -> str:
    """Keyword phrase from the question itself: company names, periods and filler words removed."""
    text = question
    for fragment in sorted(remove, key=len, reverse=True):
        if fragment:
            text = re.sub(rf"(?<!\w){re.escape(fragment)}(?:'s|’s)?(?!\w)", " ", text, flags=re.I)
    words = [re.sub(r"['’]s$", "", w) for w in re.findall(r"[A-Za-z][A-Za-z&\-'’]*", text)]
    words = [
        w for w in words if len(w) > 1 and w.lower() not in _STOP and not re.fullmatch(r"(?i)q[1-4]|fy\d*", w)
    ]
    return " ".join(words[:6]).lower()


def required_sources(question: str, suggested: list[str]) -> list[str]:
    """Sources the question needs: the model's suggestion plus unmistakable cues in the text.

    Market data and news run only when the question asks about prices, valuation or news: a model's
    suggestion alone would add slow tool calls (and warnings) to questions about filings.
    """
    news = _NEWS_CUES
    if named_kinds(question):
        news = _NEWS_WORDS  # "what did it announce in its 8-K" asks a document, not the press
    cues = {"market_data": _MARKET_CUES, "news": news}
    sources = [s for s in dict.fromkeys(suggested) if s not in cues or cues[s].search(question)]
    for name, cue in (("market_data", _MARKET_CUES), ("news", news), ("transcript", _TRANSCRIPT_CUES)):
        if cue.search(question) and name not in sources:
            sources.append(name)
    if not any(s in sources for s in ("10-K", "10-Q", "transcript")):
        sources[:0] = ["10-K", "10-Q"]
    return sources


def figure_keywords(metrics: list[str]) -> list[str]:
    """Search phrases for reported metrics: the row wording statements use ("total net sales")."""
    return [BY_NAME[m].rows[0] for m in metrics if m in BY_NAME and BY_NAME[m].rows][:3]


def event_days(question: str, time_specs: list[dict[str, Any]]) -> list[str]:
    """Days the question dates a filing or an event by ("the 8-K dated 1st July 2022", "as of May 26,
    2023"): searched among 8-Ks and releases of those days, not as the fiscal quarter around them. An
    "as of" day counts only when it is no month end (a month end is a balance-sheet date)."""
    from datetime import date, timedelta

    days = []
    for spec in time_specs:
        day = spec.get("day")
        if not day:
            continue
        when = date.fromisoformat(day)
        month_end = (when + timedelta(days=1)).day == 1
        if _EVENT_CUES.search(question) or (_AS_OF.search(question) and not month_end):
            days.append(day)
    return days


def formula_keys(question: str) -> list[int]:
    """The computed metrics the question names, as indexes into ``FORMULAS`` (JSON-ready)."""
    return [FORMULAS.index(f) for f in formulas_for(question)]


def ahead_years(specs: list[TimeSpec]) -> list[int]:
    """The years a forecast question looks ahead to from the report it names: "as of FY2021, how much
    did Verizon expect to pay in 2024?" reads the FY2021 10-K's row for 2024, not a 10-K of FY2024."""
    years = sorted({s.year for s in specs if s.kind == "fiscal_year" and s.year})
    return years[1:]


def question_traits(
    question: str,
    specs: list[TimeSpec],
    tickers: list[str],
    mentions: dict[str, list[int]],
    metrics: list[str],
    phrases: list[str],
) -> dict[str, Any]:
    """Everything later nodes need to know about the question's words, read once."""
    formulas = formula_keys(question)
    ask_metrics = metrics or [FORMULAS[i].metric for i in formulas]
    spec_dicts = [s.to_dict() for s in specs]
    narrative = is_narrative(question)
    forecast = bool(_FORWARD.search(question))
    ask = read_ask(question, tickers, mentions, ask_metrics, periods_named=bool(specs), narrative=narrative)
    topics = section_topics(question)
    undated = undated_document(question) if not specs else None
    return {
        "ask": ask.to_dict(),
        "narrative": narrative,
        "breakdown": is_breakdown(question),
        "says": is_what_said(question),
        "drivers": asks_drivers(question),
        "forecast": forecast,
        "ahead_years": ahead_years(specs) if forecast else [],
        "release": bool(_RELEASE_CUES.search(question)),
        "revision": asks_revision_size(question),
        "event_words": bool(_EVENT_WORDS.search(question)),
        "event_days": event_days(question, spec_dicts),
        "dated_documents": [d.to_dict() for d in dated_documents(question)],
        "sections": list(dict.fromkeys(s for topic in topics for s in topic.sections)),
        "topics": [topic.name for topic in topics],
        "undated_kinds": None if undated is None else sorted(undated),
        "annual_topic": any(topic.annual for topic in topics),
        "named_kinds": sorted(named_kinds(question)),
        "granularity": preferred_granularity(question),
        "formulas": formulas,
        "average": bool(_AVERAGE.search(question)),
        "quantities": bool(metrics or formulas or metrics_in(question) or _QUANTITY.search(question)),
        "terms": query_terms([question, *phrases]),
        "named": names_in(question),
        "value_line_words": value_line_words(question),
        "lines": line_names(question),
        "as_reported": bool(_AS_REPORTED.search(question)) and ask.kind != "restatement",
        "long_history": history.to_dict() if (history := read_history(question, specs)) and metrics else None,
    }


_FISCAL = re.compile(r"\b(?:fiscal|FY)", re.I)


def calendar_years_for(ask: dict[str, Any], specs: list[TimeSpec]) -> list[TimeSpec]:
    """An overtake between companies compares the same months: a year named without "fiscal" is the
    calendar year there, since fiscal years of different companies end in different months."""
    from datetime import date

    if ask.get("kind") != "overtake" or len(ask.get("subjects") or []) < 2:
        return specs
    return [
        TimeSpec.date_range(
            date(s.year, 1, 1),
            date(s.year, 12, 31),
            text=s.text,
            position=s.position,
            unit=s.unit,
            span=True,
        )
        if s.kind == "fiscal_year" and s.year and not _FISCAL.search(s.text)
        else s
        for s in specs
    ]
