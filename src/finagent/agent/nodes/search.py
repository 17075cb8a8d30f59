"""search node: one hybrid search (vector + full text) for one ticker × period × phrase, with priors
and reranking; a failed search becomes a warning, never a lost run."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from datetime import date
from typing import Any

import numpy as np
import psycopg
from langgraph.runtime import Runtime
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_fixed

from finagent.agent.answer.passage_sentences import announces_what_follows
from finagent.agent.context import Context
from finagent.agent.evidence import hit_to_evidence
from finagent.agent.resources import get_resources
from finagent.agent.state import SearchTask
from finagent.db.filters import SearchFilters
from finagent.db.search import FlaggedMatch, build_search, neighbor_passages, part_openings
from finagent.errors import FinagentError
from finagent.finance.periods import period_label
from finagent.finance.read.drivers import opens_referring_back
from finagent.finance.read.filing_parts import part_name
from finagent.finance.untrusted import Kind, flag_kind, left_out_warning
from finagent.retrieval.rerank import rerank


def _filters(task: SearchTask, context: Context) -> SearchFilters:
    """The sub-search's filters: its company, its fiscal period (unless the lever is off), kinds,
    report Items and the days an 8-K is dated by."""
    documents = list(task.get("document_ids") or [])
    periods = context.ablations.filter_periods and not documents  # a named document is its own period
    dated = task.get("dated")
    return SearchFilters(
        document_ids=documents,
        tickers=[task["ticker"]] if task["ticker"] else [],
        fiscal_years=[task["fiscal_year"]] if task["fiscal_year"] and periods else [],
        fiscal_quarters=[task["fiscal_quarter"]] if task["fiscal_quarter"] and periods else [],
        annual_only=task["annual"] and periods,
        kinds=task["kinds"],
        sections=task.get("sections") or [],
        date_from=date.fromisoformat(dated[0]) if dated else None,
        date_to=date.fromisoformat(dated[1]) if dated else None,
        published=(date.fromisoformat(days[0]), date.fromisoformat(days[1]))
        if (days := task.get("published"))
        else None,
    )


TABLE_WEIGHTS = (0.5, 0.5)
"""(vector, keyword) of a search for a table by the words its rows print ("revenue by product
category"): a passage where a table follows unrelated prose embeds far from them, though it prints
every one of them."""


def _query_vector(task: SearchTask, lean: float) -> tuple[np.ndarray, str]:
    """The phrase's meaning, leaning towards the analysis's answer-shaped sentence when there is one
    (a question embeds near other questions, a filing's sentences near statements); and the sentence
    it leaned to, or ""."""
    resources = get_resources()
    vector = resources.query_vector(task["query"])
    sentence = task.get("answer_sentence") or ""
    if not sentence or lean <= 0:
        return vector, ""
    mixed = _unit(vector) + lean * _unit(resources.query_vector(sentence))
    return _unit(mixed).astype(vector.dtype), sentence


def _unit(vector: np.ndarray) -> np.ndarray:
    return vector / (np.linalg.norm(vector) or 1.0)


async def _hits(
    task: SearchTask, context: Context, log: dict[str, Any]
) -> tuple[list[Any], list[FlaggedMatch], str]:
    """The hits of the sub-search, the flagged passages that matched too (never evidence), and a
    note when the annual report covering a quarter stood in."""
    resources = get_resources()
    settings = resources.settings
    filters = _filters(task, context)
    vector, leaned_to = await asyncio.to_thread(_query_vector, task, settings.answer_sentence_weight)
    if leaned_to:
        log["leaned_to"] = leaned_to
    vector_weight, keyword_weight = TABLE_WEIGHTS if task.get("table") else context.fusion_weights(settings)
    log |= {"vector_weight": vector_weight, "keyword_weight": keyword_weight}
    lift = 0.0 if task.get("forecast") or not context.ablations.lift_statements else settings.statement_boost
    # a question about what an 8-K (of a date) reports is routed to its own Items, as a figure
    # question to statements
    routed = task.get("dated") or task.get("own_items")
    event_lift = settings.route_boost if routed else settings.event_item_boost

    def compose(within: SearchFilters) -> Any:
        return build_search(
            task["query"],
            vector,
            within,
            k=task["k"],
            candidates=settings.search_candidates,
            vector_weight=vector_weight,
            keyword_weight=keyword_weight,
            fusion=settings.fusion,
            statement_boost=lift,
            statements=task.get("statements") or [],
            route_boost=settings.route_boost,
            event_boost=event_lift,
        )

    hits, flagged = await asyncio.to_thread(_search_with_retry, compose(filters))
    covers = (
        context.ablations.cover_missing_periods and not task.get("exact") and not task.get("document_ids")
    )
    if hits or not (task["fiscal_quarter"] and filters.fiscal_years and covers):
        return hits, flagged, ""
    # No report of that quarter: the annual report that covers it (its MD&A and notes speak of the
    # year's quarters, its statements of the year).
    covering = replace(filters, fiscal_quarters=[], annual_only=True, kinds=[])
    hits, more = await asyncio.to_thread(_search_with_retry, compose(covering))
    flagged += more
    if not hits:
        return hits, flagged, ""
    log["fallback"] = "covering annual report"
    return (
        hits,
        flagged,
        (
            f"no report of {task['ticker'] or 'any company'} {task['period_label']} matched "
            f"'{task['query']}'; the {period_label(task['fiscal_year'], None)} annual report that covers it "
            "was searched"
        ),
    )


async def _ranked(
    evidence: list[dict[str, Any]], query: str, context: Context
) -> tuple[list[dict[str, Any]], list[str]]:
    """The hits reranked (line-item match; a cross-encoder when one is configured), or by score."""
    if not context.ablations.rerank:
        return sorted(evidence, key=lambda e: (-e["fused_score"], e["chunk_id"])), []
    resources = get_resources()
    settings = resources.settings
    notes: list[str] = []
    try:
        scorer = resources.reranker()
    except FinagentError as exc:  # a misconfigured reranker must not lose the search
        scorer, notes = None, [f"reranker not used: {exc}"]
    options: dict[str, Any] = {
        "line_item_boost": settings.line_item_boost,
        "scorer": scorer,
        "scorer_weight": settings.reranker_weight,
    }
    if scorer is None:  # cheap: no thread hop
        return rerank(evidence, query, **options), notes
    return await asyncio.to_thread(rerank, evidence, query, **options), notes  # off the event loop


def _scores(hits: list[Any]) -> list[dict[str, Any]]:
    return [
        {
            "chunk_id": h.chunk_id,
            "fused": round(h.fused_score, 4),
            "vector": None if h.vector_score is None else round(h.vector_score, 4),
            "keyword": None if h.keyword_score is None else round(h.keyword_score, 4),
        }
        for h in hits
    ]


async def search(task: SearchTask, runtime: Runtime[Context]) -> dict[str, Any]:
    """One filtered hybrid sub-search; a failure becomes a warning for this branch only."""
    context = runtime.context or Context()
    started = time.perf_counter()
    log: dict[str, Any] = {
        "query": task["query"],
        "ticker": task["ticker"],
        "period_label": task["period_label"],
        "fiscal_year": task["fiscal_year"],
        "fiscal_quarter": task["fiscal_quarter"],
        "kinds": task["kinds"],
        "sections": task.get("sections") or [],
        "round": task["round"],
    }
    try:
        hits, flagged, fallback_note = await _hits(task, context, log)
    except (FinagentError, psycopg.Error) as exc:
        log |= {"hits": 0, "chunk_ids": [], "error": str(exc), "ms": _ms(started)}
        where = f"{task['ticker'] or 'all'} {task['period_label']}"
        return {"searches": [log], "warnings": [f"search '{task['query']}' for {where} failed: {exc}"]}
    evidence = [hit_to_evidence(hit, task["query"], task["round"]) for hit in hits]
    priors = task.get("priors") or {}
    for item in evidence:  # an 8-K's own Items are lifted in the search itself (event_boost)
        item["fused_score"] += priors.get("*", 0.0) + priors.get(item["kind"], 0.0)
    evidence, notes = await _ranked(evidence, task["query"], context)
    if task.get("neighbors") and evidence:
        try:
            evidence = await _with_neighbors(evidence)
        except (FinagentError, psycopg.Error) as exc:  # the search's own hits still answer
            notes.append(f"reading the passages beside the best hits failed: {exc}")
    if task.get("opening"):
        try:
            evidence = await _with_opening(task, context, evidence)
        except (FinagentError, psycopg.Error) as exc:  # the search's own hits still answer
            part = part_name((task.get("sections") or [""])[0])
            notes.append(f"reading where {task['ticker']}'s {part} opens failed: {exc}")
    log |= {
        "hits": len(hits),
        "chunk_ids": [h.chunk_id for h in hits],
        "opening_ids": [e["chunk_id"] for e in evidence if e.get("opening")],
        "scores": _scores(hits),
        "ms": _ms(started),
    }
    if flagged:
        log["flagged_chunk_ids"] = sorted({f.chunk_id for f in flagged})
    return {
        "evidence": evidence,
        "searches": [log],
        "warnings": ([fallback_note] if fallback_note else []) + notes + _left_out(flagged),
    }


OPENING_PASSAGES = 2
"""Passages of a part's opening read: the first paragraphs, where a 10-K's Item 1 says what the
company does."""


async def _with_opening(
    task: SearchTask, context: Context, evidence: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The part's opening passages first, marked ``opening`` and scored as the best hit (so the
    evidence keeps them), then the search's other hits: what a part opens with answers what the
    part is about in words the question seldom repeats ("therapeutic areas" against "leadership
    positions across immunology, oncology …")."""
    request = part_openings(_filters(task, context), OPENING_PASSAGES)
    hits, _ = await asyncio.to_thread(_search_with_retry, request)
    top = max((e["fused_score"] for e in evidence), default=0.0)
    opened = [
        hit_to_evidence(hit, task["query"], task["round"]) | {"fused_score": top, "opening": True}
        for hit in hits
    ]
    ids = {item["chunk_id"] for item in opened}
    return opened + [item for item in evidence if item["chunk_id"] not in ids]


NEIGHBORED = 2
"""Best hits whose passages before and after are read too."""


async def _with_neighbors(evidence: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The search's hits, then the passages right before and after its best ones in their documents:
    what answers often begins in the passage before a hit ("On March 31, 2025, the court dismissed the
    case (the Texas dismissal)" before "After the Texas dismissal, …") or goes on in the one after (the
    rest of a list); the passage after every hit announcing what follows ("as set forth below"),
    where what it announces often begins, and the one before every hit opening on what that one
    names ("The increases were primarily due to …")."""
    best = sorted(evidence, key=lambda e: -e["fused_score"])[:NEIGHBORED]
    rest = [e for e in evidence if e not in best]
    leads = [e["chunk_id"] for e in rest if announces_what_follows(e["text"] or "")]
    backs = [e["chunk_id"] for e in rest if opens_referring_back(e["text"] or "")]
    request = neighbor_passages([e["chunk_id"] for e in best], leads, backs)
    hits, _ = await asyncio.to_thread(_search_with_retry, request)
    held = {e["chunk_id"]: e for e in evidence}
    added = []
    for hit in hits:
        if hit.chunk_id in held:  # a hit too: read beside its neighbour whatever its rank
            held[hit.chunk_id]["neighbor"] = True
        else:
            neighbor = hit_to_evidence(hit, best[0]["queries"][0], best[0]["round"])
            held[hit.chunk_id] = neighbor | {"fused_score": NEIGHBOR_SCORE, "neighbor": True}
            added.append(held[hit.chunk_id])
    return evidence + added


NEIGHBOR_SCORE = 0.0
"""A neighbouring passage's score: below every hit of every search, so it takes no hit's place among
the passages read or ranked; the quotes read it beside them (``answer.write``)."""


def _left_out(flagged: list[FlaggedMatch]) -> list[str]:
    """One warning per document whose flagged passages matched: they were not used."""
    groups: dict[tuple[Kind, str], set[int]] = {}
    for match in flagged:
        groups.setdefault((flag_kind(match.reason), match.title), set()).add(match.chunk_id)
    return [left_out_warning(kind, title, len(ids)) for (kind, title), ids in groups.items()]


@retry(
    retry=retry_if_exception_type(psycopg.OperationalError),
    stop=stop_after_attempt(2),
    wait=wait_fixed(0.5),
    reraise=True,
)
def _search_with_retry(request: Any) -> tuple[list[Any], list[FlaggedMatch]]:
    """One retry on a dropped connection (e.g. the server restarted); then the error surfaces."""
    return get_resources().search_checked(request)


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
