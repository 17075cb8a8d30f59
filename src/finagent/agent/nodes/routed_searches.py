"""The searches a question's words route to documents, beside its own: the 8-Ks of an event's day or
of a corporate event, last year's release for a year's guidance, and the parts that discuss a topic
(a 10-K's Items, an 8-K's Item 5.07, a release's outlook)."""

from __future__ import annotations

from datetime import date, timedelta

from langgraph.types import Send

from finagent.agent.context import Context
from finagent.agent.nodes.search_tasks import REPORT_KINDS, make_task, search_kinds, search_priors
from finagent.agent.state import SearchTask, State, Target
from finagent.agent.understand.question import Question
from finagent.finance.periods import FiscalPeriod, period_label
from finagent.finance.read.filing_sections import FINANCIAL_TOPICS, SectionTopic, topic_named
from finagent.ingest.sec.headings import ITEMS_8K

EVENT_KINDS = ["8-K", "earnings_release"]
EVENT_PRIOR = 0.3


FILING_DAYS = 4  # an 8-K is due within four business days of its event


def _business_days_after(day: date, count: int) -> date:
    """The day ``count`` business days (Monday to Friday) after ``day``."""
    while count:
        day += timedelta(days=1)
        count -= day.weekday() < 5
    return day


def event_searches(state: State, context: Context) -> list[Send]:
    """The 8-Ks of the days the question names, dated from that day to the few business days an 8-K
    may follow its event by; releases too only when the question asks about results or a release
    (an agreement amended on a day is not in that quarter's earnings release)."""
    plan = Question.of(state)
    if not context.ablations.search_event_days:
        return []
    kinds = EVENT_KINDS if plan.release else ["8-K"]
    topics = [t for t in map(topic_named, plan.topics[:MAX_TOPICS]) if t and "8-K" in t.kinds]
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
            searched = [task]
            for topic in topics if context.ablations.route_sections else []:  # the event's own Item
                query = f"{phrases[0]} {topic.words}"
                searched.append(make_task(target, query, ["8-K"], TOPIC_HITS, 0, [], {"*": EVENT_PRIOR}))
                searched[-1]["sections"] = list(topic.sections)
            if plan.about_an_event_filing:  # what it reports: its Items open with it, in any words
                searched.append(_items_opening(target, phrases[0]))
            for each in searched:
                each["dated"] = window
                sends.append(Send("search", each))
    return sends


def news_window_searches(state: State, context: Context) -> list[Send]:
    """The news asked of a window ("what happened in early February 2024, per the news"): each
    company's articles that came out in it, whatever fiscal period they fall in (the period's other
    articles are not what was reported then)."""
    plan = Question.of(state)
    sends = []
    for first, last in plan.news_windows:
        for ticker in plan.tickers:
            target: Target = {"ticker": ticker, "fiscal_quarter": None, "label": f"news {first} to {last}"}
            task = make_task(target, plan.phrases_for(ticker)[0], ["news"], context.hits_per_search, 0)
            task["published"] = [first, last]
            sends.append(Send("search", task))
    return sends


EVENT_ITEMS = tuple(f"item_{code.replace('.', '_')}" for code in ITEMS_8K if code != "9.01")
"""An 8-K's own Items, not its list of exhibits."""


def _items_opening(target: Target, query: str) -> SearchTask:
    """The first passages of the 8-K's own Items, read whatever their words: an 8-K asked what it
    reports says it in its Items' first sentences ("On May 10, 2023, Apple consummated the issuance
    and sale of … Notes"), which a question's words ("what did it report") seldom share."""
    task = make_task(target, query, ["8-K"], TOPIC_HITS, 0, [], {"*": EVENT_PRIOR})
    task["sections"] = list(EVENT_ITEMS)
    task["opening"] = True
    return task


def event_word_searches(state: State, context: Context) -> list[Send]:
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


def guidance_searches(state: State, context: Context) -> list[Send]:
    """What a fiscal year is expected to bring is first said with the previous year's fourth-quarter
    results: "is EPS growth expected to accelerate in FY2023?" also searches the Q4 FY2022 release
    and call (only those: a year without them stored adds nothing). The year is the one the question
    names, not the quarters or the earlier report it resolved to."""
    plan = Question.of(state)
    if not context.ablations.search_guidance_year or not plan.forecast:
        return []
    if plan.named_kinds and not set(plan.named_kinds) & set(GUIDANCE_KINDS):
        return []  # "the outlook in its 10-K": the report named, not last year's release
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


def section_searches(state: State, context: Context) -> list[Send]:
    """A question about a report topic (the business, legal proceedings, liquidity, a vote, the note
    of an item) also searches the parts that discuss it in each period's documents of their kind (a
    10-K's Items, an 8-K's Item 5.07) and the documents that say it with no parts (a release's
    outlook), one search per topic and place with the part's own words: the topic's words fill many
    other pages of the same report (the MD&A names customers, a risk factor names acquisitions)."""
    plan = Question.of(state)
    if not context.ablations.route_sections:
        return []
    topics = [t for t in map(topic_named, plan.topics) if t is not None]
    sends = []
    for target in state["targets"]:
        phrases = plan.phrases_for(target.get("ticker") or "")
        priors = search_priors(target, state["targets"], plan, context.ablations.narrow_kinds)
        for topic in topics[:MAX_TOPICS]:
            if topic in FINANCIAL_TOPICS:  # beside the question's own search, not above its best
                priors_here = {**priors, "*": priors.get("*", 0.0) + TOPIC_PRIOR}
            else:
                priors_here = priors
            for task in _topic_tasks(target, plan, topic, f"{phrases[0]} {topic.words}", priors_here):
                sends.append(Send("search", task))
    return sends


def _topic_tasks(
    target: Target, plan: Question, topic: SectionTopic, query: str, priors: dict[str, float]
) -> list[SearchTask]:
    """One topic's searches of a period: its parts in the documents that have them, and the kinds it
    searches whole. A topic reported in 8-Ks searches the 8-Ks of any quarter of the period (a year's
    inventory lists its reports, not the 8-Ks dated inside it), lifted as an event's are."""
    searched = search_kinds(target, plan, list(topic.whole))
    tasks = []
    events = topic.kinds.isdisjoint(REPORT_KINDS)
    sectioned = sorted(topic.kinds) if events else [k for k in searched if k in topic.kinds]
    if sectioned:
        task = make_task(target, query, sectioned, TOPIC_HITS, 0, [], priors)
        task["sections"] = list(topic.searched)
        if topic.opens:
            task["opening"] = True
        if events:
            task["annual"] = False
            task["priors"] = {**priors, "*": priors.get("*", 0.0) + EVENT_PRIOR}
        tasks.append(task)
    whole = [k for k in searched if k in topic.whole]
    if whole:
        tasks.append(make_task(target, query, whole, TOPIC_HITS, 0, [], priors))
    return tasks
