"""The question read once into the plan every later node follows (``state.Analysis``).

Pure functions over the question text, the resolved companies and the parsed time phrases: what is
asked (``finance.ask.asks.Ask``), which metrics and formulas, which document kinds and report sections,
whether it is a forecast, an event, a narrative. Nodes after analyze read these fields and never
parse the question again.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from finagent.agent.context import Context
from finagent.agent.evidence import query_terms
from finagent.agent.understand.entities import find_companies, unknown_ticker_mentions
from finagent.agent.understand.question import Question
from finagent.agent.understand.question_words import Wording
from finagent.db.companies import StoredCompany, resolve_company
from finagent.finance.ask.asks import read_ask
from finagent.finance.ask.long_history import History
from finagent.finance.check.support import content_words
from finagent.finance.citations import CITATION, LABEL
from finagent.finance.compute.formulas import FORMULAS
from finagent.finance.lines import REPORTED
from finagent.finance.periods import TimeSpec

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


def required_sources(cued: frozenset[str], suggested: list[str]) -> list[str]:
    """Sources the question needs: the model's suggestion plus unmistakable cues in the text.

    Market data and news run only when the question asks about prices, valuation or news: a model's
    suggestion alone would add slow tool calls (and warnings) to questions about filings.
    """
    gated = ("market_data", "news")
    sources = [s for s in dict.fromkeys(suggested) if s not in gated or s in cued]
    for name in ("market_data", "news", "transcript"):
        if name in cued and name not in sources:
            sources.append(name)
    if not any(s in sources for s in ("10-K", "10-Q", "transcript")):
        sources[:0] = ["10-K", "10-Q"]
    return sources


def figure_keywords(metrics: list[str]) -> list[str]:
    """Search phrases for reported metrics: the row wording statements use ("total net sales")."""
    return [REPORTED[m].rows[0] for m in metrics if m in REPORTED and REPORTED[m].rows][:3]


def event_days(wording: Wording, specs: list[TimeSpec]) -> list[str]:
    """Days the question dates a filing or an event by ("the 8-K dated 1st July 2022", "as of May 26,
    2023"): searched among 8-Ks and releases of those days, not as the fiscal quarter around them. An
    "as of" day counts only when it is no month end (a month end is a balance-sheet date)."""
    days = []
    for spec in specs:
        if spec.day is None:
            continue
        month_end = (spec.day + timedelta(days=1)).day == 1
        if wording.dates_an_event or (wording.as_of and not month_end):
            days.append(spec.day.isoformat())
    return days


def ahead_years(specs: list[TimeSpec]) -> list[int]:
    """The years a forecast question looks ahead to from the report it names: "as of FY2021, how much
    did Verizon expect to pay in 2024?" reads the FY2021 10-K's row for 2024, not a 10-K of FY2024."""
    years = sorted({s.year for s in specs if s.kind == "fiscal_year" and s.year})
    return years[1:]


def _amount_words(wording: Wording) -> bool:
    """A metric named or words asking an amount ("how much", "ratio", "$")."""
    return bool(wording.named_metrics or wording.quantity_words)


def _unwritten_topics(wording: Wording) -> list[str]:
    """The names of the topics the question asks about without writing them: what it asks about is
    asked too ("what did it buy" is answered by its acquisitions); a topic it names in its own words
    ("which region includes India") weighs no more than they do."""
    written = content_words(wording.text)
    return [t.name for t in wording.topics if not written & content_words(t.name)]


def question_traits(
    wording: Wording,
    specs: list[TimeSpec],
    tickers: list[str],
    mentions: dict[str, list[int]],
    metrics: list[str],
    phrases: list[str],
    history: History | None = None,
) -> dict[str, Any]:
    """Everything later nodes need to know about the question's words, from its one reading."""
    formulas = [FORMULAS.index(f) for f in wording.formulas]
    ask_metrics = metrics or [FORMULAS[i].metric for i in formulas]
    ask = read_ask(
        wording.text,
        tickers,
        mentions,
        ask_metrics,
        periods_named=bool(specs),
        narrative=wording.narrative,
        changes=wording.changes,
    )
    undated = wording.undated_kinds if not specs else None
    return {
        "ask": ask.to_dict(),
        "narrative": wording.narrative,
        "breakdown": wording.breakdown,
        "says": wording.says,
        "drivers": wording.drivers,
        "forecast": wording.forecast,
        "ahead_years": ahead_years(specs) if wording.forecast else [],
        "release": wording.release,
        "revision": wording.revision,
        "event_words": wording.event_words,
        "event_days": event_days(wording, specs),
        "dated_documents": [d.to_dict() for d in wording.dated_documents],
        "sections": list(dict.fromkeys(s for topic in wording.topics for s in topic.sections)),
        "topics": [topic.name for topic in wording.topics],
        "filing_changes": list(wording.filing_changes),
        "undated_kinds": None if undated is None else sorted(undated),
        "annual_topic": any(topic.annual for topic in wording.topics),
        "named_kinds": sorted(wording.named_kinds),
        "granularity": wording.granularity,
        "formulas": formulas,
        "average": wording.average,
        # "who is replacing its CFO" names a metric's word but asks for a person: no quantity
        "quantities": bool(metrics or formulas or (_amount_words(wording) and not wording.not_an_amount)),
        "terms": query_terms([wording.text, *phrases, *_unwritten_topics(wording)]),
        "named": list(wording.named),
        "given_names": list(wording.given_names),
        "status": wording.status,
        "yes_no": wording.yes_no,
        "share_in_words": wording.part_share and len(tickers) == 1,
        "row_pick": wording.row_pick,
        "asked_sources": sorted(wording.source_cues),
        "value_line_words": list(wording.value_line_words),
        "lines": list(wording.lines),
        "as_reported": wording.as_reported and ask.kind != "restatement",
        "long_history": history.to_dict() if history and metrics else None,
    }


_FISCAL = re.compile(r"\b(?:fiscal|FY)", re.I)


def calendar_years_for(ask: dict[str, Any], specs: list[TimeSpec]) -> list[TimeSpec]:
    """An overtake between companies compares the same months: a year named without "fiscal" is the
    calendar year there, since fiscal years of different companies end in different months."""
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


_NOT_PHRASES = frozenset({"yoy", "qoq", "ttm", "n/a", "none"})


def sanitize_phrases(phrases: list[str], names: list[str]) -> list[str]:
    """Keep short keyword phrases: no questions, no company names, no years; deduplicated."""
    kept: list[str] = []
    for phrase in phrases:
        text = phrase.replace("?", " ")
        for name in names:
            if name:
                text = re.sub(rf"\b{re.escape(name)}('s)?\b", " ", text, flags=re.I)
        text = re.sub(r"\b(FY)?(19|20)\d\d\b|\bQ[1-4]\b", " ", text, flags=re.I)
        text = CITATION.sub(" ", f"[{text}]" if LABEL.fullmatch(text.strip()) else text)
        text = " ".join(text.split())[:80].strip(" ,.;:-")
        if (
            len(text) >= 3
            and text.lower() not in _NOT_PHRASES
            and text.lower() not in (k.lower() for k in kept)
        ):
            kept.append(text)
    return kept


def is_forecast(plan: Question, context: Context) -> bool:
    """A question about what is expected ("is EPS growth expected to accelerate in FY2023?") asks for
    guidance, which the statements never hold: they report the year's results."""
    return context.ablations.unroute_forecasts and plan.forecast
