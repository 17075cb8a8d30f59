"""Planning the fan-outs (LangGraph ``Send``): one search per ticker × period × phrase, one facts
lookup per ticker × period, and the keyword follow-ups after a low-confidence answer."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Send

from finagent.agent.context import Context
from finagent.agent.nodes.fact_lookups import plan_fact_lookups
from finagent.agent.state import PartsTask, SearchTask, State, Target
from finagent.agent.understand.plan import is_forecast
from finagent.agent.understand.question import Question
from finagent.agent.understand.vocabulary import NARRATIVE_WORDS
from finagent.finance.ask.parts_ask import PartsAsk
from finagent.finance.periods import (
    FACTS_KIND,
    FiscalPeriod,
    period_label,
)
from finagent.finance.read.filing_sections import FINANCIAL_TOPICS, SECTIONED_KINDS, topic_named

FILING_KINDS_QUARTER = ["10-Q", "earnings_release", "8-K"]


REPORT_KINDS = frozenset({"10-K", "annual_report", "10-Q", "earnings_release"})


def search_kinds(target: Target, plan: Question, extra: list[str] | None = None) -> list[str]:
    """Document kinds to search for a target: the period's report, plus transcripts/news when needed.

    A fiscal year is its 10-K, its Q4 earnings release and its 8-Ks (``search_priors`` ranks the
    10-K first unless the question asks for what releases report).
    """
    sources = plan.sources
    held = set(target.get("kinds") or []) - {FACTS_KIND}  # figures, not documents to search
    if target.get("fiscal_quarter") is None:
        wanted = {"10-K", "annual_report", "earnings_release", "8-K"}
    else:
        wanted = set(FILING_KINDS_QUARTER)
    if "transcript" in sources or (extra and "transcript" in extra):
        wanted.add("transcript")
    if extra and "news" in extra:
        wanted.add("news")
    if held and not held & wanted:
        wanted |= held - {"news"}  # only transcripts cover this period: better than nothing
    if target.get("fiscal_year") is None:
        return sorted(held) if held else sorted(wanted | {"10-K", "10-Q"})
    return sorted(wanted & held) if held & wanted else sorted(wanted)


def make_task(
    target: Target,
    query: str,
    kinds: list[str],
    k: int,
    round_: int,
    statements: list[str] | None = None,
    priors: dict[str, float] | None = None,
) -> SearchTask:
    annual = target.get("fiscal_year") is not None and target.get("fiscal_quarter") is None
    task = SearchTask(
        ticker=target.get("ticker"),
        fiscal_year=target.get("fiscal_year"),
        fiscal_quarter=target.get("fiscal_quarter"),
        annual=annual,
        period_label=target.get("label") or "any period",
        query=query,
        kinds=kinds,
        statements=list(statements or []),
        priors=dict(priors or {}),
        k=k,
        round=round_,
    )
    if target.get("document_ids"):  # a document named by its day: it alone, whatever its period
        task["document_ids"] = list(target["document_ids"])
    return task


def _routed(plan: Question, context: Context) -> list[str]:
    """Statements a figure question is routed to; none for a forecast."""
    if not context.ablations.route_statements or is_forecast(plan, context):
        return []
    return list(plan.statements)


# Document priors added to fused scores: the newest of several fiscal years restates the older ones
# (a 10-K shows three years), and adjusted figures or guidance are what earnings releases report.
NEWEST_PERIOD_PRIOR = 0.5


RELEASE_PRIOR = 0.2


REPORT_PRIOR = 0.1


def search_priors(
    target: Target, targets: list[Target], plan: Question, narrow: bool = True
) -> dict[str, float]:
    """Score priors for one target's sub-searches, by document kind ("*" for every kind)."""
    priors: dict[str, float] = {}
    years = [
        t
        for t in targets
        if t.get("ticker") == target.get("ticker")
        and t.get("fiscal_year")
        and t.get("fiscal_quarter") is None
    ]
    if len(years) > 1 and target is max(years, key=lambda t: t["fiscal_year"]):
        priors["*"] = NEWEST_PERIOD_PRIOR
    if plan.release:
        priors["earnings_release"] = RELEASE_PRIOR
    elif target.get("fiscal_year") and narrow and plan.time_specs:
        # "FY2022" means the annual report, "Q2 FY2024" the quarterly report. A question that names
        # no period says nothing about the kind of report: the latest one searched by default gets
        # no lift over the 8-Ks, releases or sections other rules search.
        if target.get("fiscal_quarter") is None:
            priors["10-K"] = priors["annual_report"] = REPORT_PRIOR
        else:
            priors["10-Q"] = REPORT_PRIOR
    return priors


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
        + _event_searches(state, context)
        + _narrative_searches(state, context)
        + _event_word_searches(state, context)
        + _guidance_searches(state, context)
        + _section_searches(state, context)
        + _parts_searches(state, context)
        + _nine_month_searches(state, context)
    )
    marked = _marked(searches, _forecast_mark(plan, context) | _first_round_marks(plan))
    return marked + facts + _filing_part_reads(plan)


def _filing_part_reads(plan: Question) -> list[Send]:
    """A change across filings asked ("how have Apple's risk factors changed"): each company's
    sections of those topics in every stored report, read whole (a search finds passages, not the
    same part of each filing)."""
    topics = [t for t in map(topic_named, plan.filing_changes) if t is not None]
    sections = list(dict.fromkeys(s for topic in topics for s in topic.sections))
    if not sections:
        return []
    kinds = sorted(SECTIONED_KINDS)
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


def _first_round_marks(plan: Question) -> dict[str, Any]:
    """A question about what an 8-K reports is routed to its own Items, as one dated by its day is:
    its cover page and signatures share the question's words ("summarize", "report") more than its
    account of the event does. The first round's searches carry the answer as a filing would word it
    (their meaning vector leans towards it): a question embeds far from the statement that answers it."""
    marks: dict[str, Any] = {"own_items": True} if plan.about_an_event_filing else {}
    if plan.answer_sentence:
        marks["answer_sentence"] = plan.answer_sentence
    return marks


EVENT_KINDS = ["8-K", "earnings_release"]
EVENT_PRIOR = 0.3


FILING_DAYS = 4  # an 8-K is due within four business days of its event


def _business_days_after(day: date, count: int) -> date:
    """The day ``count`` business days (Monday to Friday) after ``day``."""
    while count:
        day += timedelta(days=1)
        count -= day.weekday() < 5
    return day


def _event_searches(state: State, context: Context) -> list[Send]:
    """The 8-Ks of the days the question names, dated from that day to the few business days an 8-K
    may follow its event by; releases too only when the question asks about results or a release
    (an agreement amended on a day is not in that quarter's earnings release)."""
    plan = Question.of(state)
    if not context.ablations.search_event_days:
        return []
    kinds = EVENT_KINDS if plan.release else ["8-K"]
    sends = []
    for day in plan.event_days:
        when = date.fromisoformat(day)
        window = [when.isoformat(), _business_days_after(when, FILING_DAYS).isoformat()]
        for ticker in plan.tickers or ("",):
            phrases = plan.phrases_for(ticker)
            target: Target = {"fiscal_quarter": None, "label": f"dated {day}"}
            if ticker:
                target["ticker"] = ticker
            task = make_task(target, phrases[0], kinds, context.hits_per_search, 0, [], {"*": EVENT_PRIOR})
            task["dated"] = window
            sends.append(Send("search", task))
    return sends


def _event_word_searches(state: State, context: Context) -> list[Send]:
    """A question about a corporate event also searches the company's 8-Ks: in each year asked, or
    in every year when the question names no period ("the new CEO" is not news of the latest
    report's year); an appointment or a deal is reported there, not in the next 10-Q."""
    plan = Question.of(state)
    if not context.ablations.search_event_words or not plan.event_words:
        return []
    named = bool(plan.time_specs)
    scopes: dict[tuple[str, int | None], Target] = {}
    for target in state["targets"]:
        ticker, year = target.get("ticker"), target.get("fiscal_year") if named else None
        if ticker and (ticker, year) not in scopes:
            scope: Target = {"ticker": ticker, "label": period_label(year, None) if year else "any period"}
            if year:
                scope["fiscal_year"] = year
            scopes[(ticker, year)] = scope
    sends = []
    for (ticker, _), within in scopes.items():
        phrases = plan.phrases_for(ticker)
        task = make_task(within, phrases[0], ["8-K"], context.hits_per_search, 0, [], {"*": EVENT_PRIOR})
        task["annual"] = False  # an 8-K of any quarter of the year
        sends.append(Send("search", task))
    return sends


GUIDANCE_KINDS = ["earnings_release", "transcript"]


def _guidance_searches(state: State, context: Context) -> list[Send]:
    """What a fiscal year is expected to bring is first said with the previous year's fourth-quarter
    results: "is EPS growth expected to accelerate in FY2023?" also searches the Q4 FY2022 release
    and call (only those: a year without them stored adds nothing). The year is the one the question
    names, not the quarters or the earlier report it resolved to."""
    plan = Question.of(state)
    if not context.ablations.search_guidance_year or not plan.forecast:
        return []
    years = sorted({int(s.year) for s in plan.time_specs if s.kind == "fiscal_year" and s.year})
    sends = []
    for ticker in plan.tickers:
        phrases = plan.phrases_for(ticker)
        for year in years[:2]:
            before: Target = {
                "ticker": ticker,
                "fiscal_year": year - 1,
                "fiscal_quarter": 4,
                "label": f"{FiscalPeriod.of_quarter(year - 1, 4)} ({FiscalPeriod.year(year)} guidance)",
            }
            query = f"{phrases[0]} outlook guidance {FiscalPeriod.year(year)}"
            task = make_task(
                before, query, GUIDANCE_KINDS, context.hits_per_search, 0, [], {"*": EVENT_PRIOR}
            )
            task["exact"] = True
            sends.append(Send("search", task))
    return sends


MAX_TOPICS = 3  # section searches per period: the first topics the question names
TOPIC_HITS = 5  # pages each section search adds: the section's best, beside the other searches' pages
# A financial topic's section pages rank just below the question's own best pages of the same
# report: the topic is what the question is about, its words are what it asks.
TOPIC_PRIOR = -0.1


def _section_searches(state: State, context: Context) -> list[Send]:
    """A question about a report topic (the business, legal proceedings, liquidity, a segment, the
    note of an item) also searches the Items that discuss it in each period's 10-K or 10-Q, one
    search per topic with the section's own words: the topic's words fill many other pages of the
    same report (the MD&A names customers, a risk factor names acquisitions)."""
    plan = Question.of(state)
    if not context.ablations.route_sections:
        return []
    topics = [t for t in map(topic_named, plan.topics) if t is not None]
    sends = []
    for target in state["targets"]:
        kinds = [k for k in search_kinds(target, plan) if k in SECTIONED_KINDS]
        if not kinds:
            continue
        phrases = plan.phrases_for(target.get("ticker") or "")
        priors = search_priors(target, state["targets"], plan, context.ablations.narrow_kinds)
        for topic in topics[:MAX_TOPICS]:
            if topic in FINANCIAL_TOPICS:  # beside the question's own search, not above its best
                priors_here = {**priors, "*": priors.get("*", 0.0) + TOPIC_PRIOR}
            else:
                priors_here = priors
            query = f"{phrases[0]} {topic.words}"
            task = make_task(target, query, kinds, TOPIC_HITS, 0, [], priors_here)
            task["sections"] = list(topic.sections)
            sends.append(Send("search", task))
    return sends


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
