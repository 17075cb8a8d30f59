"""Graph state: a narrow input, a narrow output, and the internal working state with reducers.

Entries are plain JSON-like dicts so the Postgres checkpointer and LangGraph Studio can store and
show them without custom serialisers. A node starts a fresh turn of a thread by sending
``reset(...)``: the reducers then drop what the previous question accumulated.
"""

from __future__ import annotations

from dataclasses import fields
from types import UnionType
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

# pydantic (LangGraph server schemas, Studio, /mcp) needs typing_extensions.TypedDict before Python 3.12.
from pydantic import Field
from typing_extensions import TypedDict

from finagent.agent.understand.question import Question

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
    """Deduplicate retrieved chunks by chunk id, keeping the best score, every query that found it and
    whether one search read it beside a hit (``neighbor``: the quotes read it whatever its rank)."""
    cleared, items = _split_reset(update)
    merged: dict[int, dict[str, Any]] = {} if cleared else {e["chunk_id"]: e for e in existing or []}
    for item in items:
        current = merged.get(item["chunk_id"])
        if current is None:
            merged[item["chunk_id"]] = item
            continue
        queries = sorted({*current.get("queries", []), *item.get("queries", [])})
        best = item if item["fused_score"] > current["fused_score"] else current
        beside = {"neighbor": True} if current.get("neighbor") or item.get("neighbor") else {}
        merged[item["chunk_id"]] = {**best, "queries": queries, **beside}
    return list(merged.values())


def _json_shape(hint: Any) -> Any:
    """The JSON form a plan field takes in the state: tuples are lists, typed records their dicts."""
    if hint in (bool, str, int, float):
        return hint
    args = [a for a in get_args(hint) if a is not type(None)]
    if get_origin(hint) in (Union, UnionType):
        return _json_shape(args[0]) | None
    if get_origin(hint) in (tuple, list):
        return list[Any]
    return dict[str, Any]  # a dict, or a typed record (the ask, a screen) in its to_dict form


def _plan_schema() -> dict[str, Any]:
    """Each field of ``Question`` with its JSON form: the state's schema is made from the plan's type,
    so the two cannot drift apart (Studio and the server show the plan by these keys)."""
    hints = get_type_hints(Question)
    return {f.name: _json_shape(hints[f.name]) for f in fields(Question)}


if TYPE_CHECKING:
    Analysis = dict[str, Any]
else:
    # What analyze read from the question: ``Question.to_dict()``, the plan every later node follows.
    Analysis = TypedDict("Analysis", _plan_schema(), total=False)


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
    extracted: bool  # the passages' sentences (or a part's headings) chosen by code: graded by code
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
    published: NotRequired[list[str]]  # [from, to] ISO days: articles that came out on them only
    document_ids: NotRequired[list[int]]  # these documents only (a document the question named by its day)
    forecast: NotRequired[bool]  # a forecast question: no statement lift (statements report results)
    own_items: NotRequired[bool]  # what an 8-K reports: its own Items lifted as a dated 8-K's are
    exact: NotRequired[bool]  # the period's own documents or nothing (no covering annual report)
    table: NotRequired[bool]  # a table sought by the words its rows print: full text weighs as meaning does
    answer_sentence: NotRequired[str]  # the answer as a filing would word it: the meaning vector leans to it
    sections: NotRequired[list[str]]  # report Items only (finance.read.filing_sections), e.g. item_3
    opening: NotRequired[
        bool
    ]  # the parts' opening passages too, first (a 10-K's Item 1: what the company does)
    neighbors: NotRequired[bool]  # the passages before and after the best hits too (a quoted answer)
