"""Graph state: a narrow input, a narrow output, and the internal working state with reducers.

Entries are plain JSON-like dicts so the Postgres checkpointer and LangGraph Studio can store and
show them without custom serialisers. A node starts a fresh turn of a thread by sending
``reset(...)``: the reducers then drop what the previous question accumulated.
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired, Required

# pydantic (LangGraph server schemas, Studio, /mcp) needs typing_extensions.TypedDict before Python 3.12.
from pydantic import Field
from typing_extensions import TypedDict

RESET = "__reset__"


def reset(items: list[Any] | None = None) -> list[Any]:
    """An update that clears an accumulating channel, then adds ``items``."""
    return [RESET, *(items or [])]


def _split_reset(update: list[Any] | None) -> tuple[bool, list[Any]]:
    if not update:
        return False, []
    if update[0] == RESET:
        return True, list(update[1:])
    return False, list(update)


def append(existing: list[Any] | None, update: list[Any] | None) -> list[Any]:
    """Concatenate updates from parallel branches; honour ``reset``."""
    cleared, items = _split_reset(update)
    return items if cleared else [*(existing or []), *items]


def append_unique(existing: list[str] | None, update: list[str] | None) -> list[str]:
    """Like ``append`` but keeps each message once (warnings repeat across branches)."""
    cleared, items = _split_reset(update)
    merged = [] if cleared else list(existing or [])
    for item in items:
        if item not in merged:
            merged.append(item)
    return merged


def merge_evidence(
    existing: list[dict[str, Any]] | None, update: list[dict[str, Any]] | None
) -> list[dict[str, Any]]:
    """Deduplicate retrieved chunks by chunk id, keeping the best score and every query that found it."""
    cleared, items = _split_reset(update)
    merged: dict[int, dict[str, Any]] = {} if cleared else {e["chunk_id"]: e for e in existing or []}
    for item in items:
        current = merged.get(item["chunk_id"])
        if current is None:
            merged[item["chunk_id"]] = item
            continue
        queries = sorted({*current.get("queries", []), *item.get("queries", [])})
        best = item if item["fused_score"] > current["fused_score"] else current
        merged[item["chunk_id"]] = {**best, "queries": queries}
    return list(merged.values())


class Analysis(TypedDict, total=False):
    """What analyze read from the question: the plan every later node follows."""

    question: str
    tickers: list[str]
    names: dict[str, list[str]]  # ticker -> the names and aliases a sentence may call it by
    period_sources: list[str]
    time_specs: list[dict[str, Any]]  # finance.periods.TimeSpec.to_dict(), what resolve_periods reads
    question_periods_only: bool
    mentions: dict[str, list[int]]  # ticker -> where the question names it
    intent: str
    sources: list[str]  # filings, transcripts, news, market
    answer_mode: str
    keywords: dict[str, list[str]]  # ticker -> search phrases
    answer_sentence: str  # the model's answer-shaped sentence (no numbers): narrative searches lean to it
    statements: list[str]  # primary statements the sub-searches are routed to
    metrics: list[str]
    computed: list[str]
    comparisons: dict[str, Any]
    as_reported: bool
    narrative: bool  # a why/what question: the passages' discussion is searched and written from
    says: bool  # asks what the company says about something: its own sentences answer it
    drivers: bool  # asks what drove something: an answer naming no cause is no answer
    # ticker -> FiscalCalendar.state(): {"fye_month", "year_offset"}, a None month when unknown;
    # read through finance.periods.FiscalCalendar.known / from_dict (which also read older lists)
    calendars: dict[str, dict[str, int | None]]
    refusal: str
    # What the question's words ask, read once by analyze (understand.plan.question_traits):
    ask: dict[str, Any]  # finance.ask.asks.Ask.to_dict(): value, ranking, change, overtake, direction, ...
    breakdown: bool  # about a part of the company (segment, region, product line)
    forecast: bool  # what is expected (guidance, outlook), which statements never report
    ahead_years: list[int]  # years a forecast looks ahead to from an earlier named report (its schedules)
    release: bool  # what earnings releases report (adjusted figures, guidance)
    revision: bool  # asks by how much a report revised a figure ("raised its guidance by how many points")
    event_words: bool  # a corporate event reported on an 8-K (a new CEO, an acquisition)
    event_days: list[str]  # ISO days the question dates a filing or an event by
    dated_documents: list[dict[str, Any]]  # finance.periods.DatedDocument.to_dict(): "the 8-K dated ..."
    sections: list[str]  # report sections that discuss the question's topics (finance.read.filing_sections)
    topics: list[str]  # names of those topics (finance.read.filing_sections): one section search each
    filing_changes: list[str]  # topics whose change across the company's filings is asked (risk factors)
    undated_kinds: list[str] | None  # "this 10-K" with no year: kinds of document pointed at
    annual_topic: bool  # about what the annual report sets out (the business, risks, legal matters)
    named_kinds: list[str]  # document kinds the question names ("in its 10-Q", "on the call")
    granularity: str  # "annual" or "quarter": what "latest" or no period means
    formulas: list[int]  # computed metrics the question names (indexes of finance FORMULAS)
    average: bool  # a mean over the periods is asked for
    quantities: bool  # the question asks for a figure (a metric, a formula, "how much", an amount)
    terms: list[str]  # the question's content words, for condensing passages
    named: list[str]  # the names the question writes capitalised ("Google Cloud"): quotes naming them first
    value_line_words: list[str]  # a "what was X for P" question's words a table line may be named by
    lines: list[str]  # the named parts whose revenue it asks about ("Google Cloud revenue"), companies' too
    subject_needed: bool  # a figure question naming no company: asked again about the best match
    subject_note: str  # the sentence naming the company a question naming none was answered about
    # finance.ask.long_history.History.to_dict(): a range, "since", "ever", "all"
    long_history: dict[str, Any] | None
    parts: list[dict[str, str]]  # the parts the question names (understand.named_parts.AskedPart)
    part_driver: str  # the kind of part asked to have driven a change: segment, product, geography
    part_metric: str  # the line asked of the parts when no figure of the whole is asked
    universe: list[str]  # a screen's companies: every company the store holds ("which company ...")
    screen: dict[str, Any] | None  # finance.ask.screen_ask.ScreenAsk.to_dict(): metric, threshold, top N
    screen_period: str  # how the screen's answer names the period asked ("fiscal 2024")


class Target(TypedDict, total=False):
    """One company's fiscal period to research (finance.periods.TargetPeriod.to_dict())."""

    ticker: str
    fiscal_year: int
    fiscal_quarter: int | None
    label: str
    period_end: str | None
    kinds: list[str]
    available: bool
    companion: bool  # only there because its report covers an asked period (a Q4's 10-K)
    span: str  # "6M" / "9M": the year to date ending with fiscal_quarter, not that quarter alone
    document_ids: list[int]  # the stored documents a question named by their day ("the 8-K dated ...")


class InputState(TypedDict, total=False):
    """What a caller supplies: the question and optional overrides."""

    question: Required[
        Annotated[str, Field(description="The financial question, e.g. 'Compare AAPL and MSFT revenue'.")]
    ]
    tickers: Annotated[list[str], Field(description="Companies to research (tickers or names).")]
    periods: Annotated[list[str], Field(description='Fiscal periods, e.g. ["Q3 FY2023", "FY2022"].')]
    answer_mode: Annotated[str, Field(description="direct | standard | detailed | deep.")]
    thread: str


class OutputState(TypedDict, total=False):
    """What a caller gets back."""

    answer: str
    citations: list[dict[str, Any]]
    confidence: float
    iterations: int
    periods_covered: list[str]
    warnings: Annotated[list[str], append_unique]
    run_id: str  # audit trail id of this turn (`finagent runs show RUN_ID`)
    validation: dict[str, Any]  # numeric verification of the answer's figures


class State(InputState, OutputState, total=False):
    """Working state shared by the nodes."""

    analysis: Analysis
    targets: list[Target]
    evidence: Annotated[list[dict[str, Any]], merge_evidence]
    searches: Annotated[list[dict[str, Any]], append]
    tool_results: Annotated[list[dict[str, Any]], append]
    figures: Annotated[list[dict[str, Any]], append]
    """Reported figures looked up per (ticker, period, metric): XBRL facts, derived quarters, gaps, in
    their JSON form (``finance.looked_up``'s ``to_dict``); read them typed with
    ``answer.figures.figures_of``."""
    breakdowns: Annotated[list[dict[str, Any]], append]
    """A line of a company and period by the parts of one kind (``answer.part_figures.Breakdown``'s
    JSON form): the asked parts' figures and the parts of a change asked to be explained."""
    filing_parts: Annotated[list[dict[str, Any]], append]
    """The chunks of the compared sections of each company's filings (finance.compute.filing_changes)."""
    draft_ok: bool
    answered: bool  # False: nothing the model wrote was an answer (empty, only citations, cut off)
    withheld: int  # sentences withheld and copied figures dropped as unsupported by their citations
    facts: list[dict[str, Any]]
    calculations: list[dict[str, Any]]
    evaluations: Annotated[list[dict[str, Any]], append]
    follow_up_queries: list[str]
    drafted_from: str  # what the model read for the last draft (``answer.draft.basis``)
    stood: bool  # a follow-up round gave the writer nothing new: the last answer stands
    llm_calls: Annotated[list[dict[str, Any]], append]
    history: Annotated[list[dict[str, Any]], append]
    started_at: str
    node_timings: Annotated[list[dict[str, Any]], append]


class FactsTask(TypedDict):
    """Payload of one fanned-out facts lookup: a company's metrics for one target period."""

    ticker: str
    fiscal_year: int
    fiscal_quarter: int | None
    period_label: str
    period_end: str | None
    metrics: list[str]
    comparatives: list[str]  # "prior_year", "prior_quarter": the periods comparisons need too
    as_reported: bool
    periods: NotRequired[list[list[int | None]]]  # a long history: every [fiscal_year, quarter] at once
    span: NotRequired[str | None]  # "6M" / "9M": the year to date ending with fiscal_quarter
    part_kinds: NotRequired[list[str]]  # the kinds of part to look up too ("segment", "product")
    parts_only: NotRequired[bool]  # only the parts: the question asks no figure of the whole
    words: NotRequired[list[str]]  # the question's words (first five letters): the rows it names


class PartsTask(TypedDict):
    """Payload of one fanned-out read of a company's sections across its filings (a change asked)."""

    ticker: str
    sections: list[str]
    kinds: list[str]


class SearchTask(TypedDict):
    """Payload of one fanned-out sub-search (sent with the Send API)."""

    ticker: str | None
    fiscal_year: int | None
    fiscal_quarter: int | None
    annual: bool
    period_label: str
    query: str
    kinds: list[str]
    statements: list[str]  # primary statements to route to (always candidates, lifted)
    priors: dict[str, float]  # added to fused scores by document kind ("*": all kinds)
    k: int
    round: int
    dated: NotRequired[list[str]]  # [from, to] ISO dates: documents of those dates only (an 8-K's day)
    document_ids: NotRequired[list[int]]  # these documents only (a document the question named by its day)
    forecast: NotRequired[bool]  # a forecast question: no statement lift (statements report results)
    own_items: NotRequired[bool]  # what an 8-K reports: its own Items lifted as a dated 8-K's are
    exact: NotRequired[bool]  # the period's own documents or nothing (no covering annual report)
    table: NotRequired[bool]  # a table sought by the words its rows print: full text weighs as meaning does
    answer_sentence: NotRequired[str]  # the answer as a filing would word it: the meaning vector leans to it
    sections: NotRequired[list[str]]  # report Items only (finance.read.filing_sections), e.g. item_3
