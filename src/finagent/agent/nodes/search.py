"""search node: one hybrid search (vector + full text) for one ticker × period × phrase, with priors
and reranking; a failed search becomes a warning, never a lost run."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from datetime import date
from typing import Any

import psycopg
from langgraph.runtime import Runtime
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_fixed

from finagent.agent.context import Context
from finagent.agent.evidence import hit_to_evidence
from finagent.agent.resources import get_resources
from finagent.agent.state import SearchTask
from finagent.db.filters import SearchFilters
from finagent.db.search import build_search
from finagent.errors import FinagentError
from finagent.retrieval.rerank import rerank


async def search(task: SearchTask, runtime: Runtime[Context]) -> dict[str, Any]:
    """One filtered hybrid sub-search; a failure becomes a warning for this branch only."""
    context = runtime.context or Context()
    resources = get_resources()
    settings = resources.settings
    started = time.perf_counter()
    fallback_note = ""
    log: dict[str, Any] = {
        "query": task["query"],
        "ticker": task["ticker"],
        "period_label": task["period_label"],
        "fiscal_year": task["fiscal_year"],
        "fiscal_quarter": task["fiscal_quarter"],
        "kinds": task["kinds"],
        "round": task["round"],
    }
    try:
        filters = SearchFilters(
            tickers=[task["ticker"]] if task["ticker"] else [],
            fiscal_years=[task["fiscal_year"]] if task["fiscal_year"] and context.filter_periods else [],
            fiscal_quarters=[task["fiscal_quarter"]]
            if task["fiscal_quarter"] and context.filter_periods
            else [],
            annual_only=task["annual"] and context.filter_periods,
            kinds=task["kinds"],
            sections=task.get("sections") or [],
            date_from=date.fromisoformat(task["dated"][0]) if task.get("dated") else None,
            date_to=date.fromisoformat(task["dated"][1]) if task.get("dated") else None,
        )
        vector = await asyncio.to_thread(resources.query_vector, task["query"])
        vector_weight, keyword_weight = context.fusion_weights(settings)
        log |= {"vector_weight": vector_weight, "keyword_weight": keyword_weight}

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
                statement_boost=0.0
                if task.get("forecast") or not context.lift_statements
                else settings.statement_boost,
                statements=task.get("statements") or [],
                route_boost=settings.route_boost,
            )

        hits = await asyncio.to_thread(_search_with_retry, compose(filters))
        covers = context.cover_missing_periods and not task.get("exact")
        if not hits and task["fiscal_quarter"] and filters.fiscal_years and covers:
            # No report of that quarter: the annual report that covers it (its MD&A and notes speak
            # of the year's quarters, its statements of the year).
            covering = replace(filters, fiscal_quarters=[], annual_only=True, kinds=[])
            hits = await asyncio.to_thread(_search_with_retry, compose(covering))
            if hits:
                log["fallback"] = "covering annual report"
                fallback_note = (
                    f"no report of {task['ticker'] or 'any company'} {task['period_label']} matched "
                    f"'{task['query']}'; the FY{task['fiscal_year']} annual report that covers it "
                    "was searched"
                )
    except (FinagentError, psycopg.Error) as exc:
        log |= {"hits": 0, "chunk_ids": [], "error": str(exc), "ms": _ms(started)}
        return {
            "searches": [log],
            "warnings": [
                f"search '{task['query']}' for {task['ticker'] or 'all'} {task['period_label']} failed: {exc}"
            ],
        }
    evidence = [hit_to_evidence(hit, task["query"], task["round"]) for hit in hits]
    priors = task.get("priors") or {}
    for item in evidence:
        item["fused_score"] += priors.get("*", 0.0) + priors.get(item["kind"], 0.0)
    notes: list[str] = [fallback_note] if fallback_note else []
    if context.rerank:
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
            evidence = rerank(evidence, task["query"], **options)
        else:  # a cross-encoder runs off the event loop
            evidence = await asyncio.to_thread(rerank, evidence, task["query"], **options)
    else:
        evidence.sort(key=lambda e: (-e["fused_score"], e["chunk_id"]))
    log |= {
        "hits": len(hits),
        "chunk_ids": [h.chunk_id for h in hits],
        "scores": [
            {
                "chunk_id": h.chunk_id,
                "fused": round(h.fused_score, 4),
                "vector": None if h.vector_score is None else round(h.vector_score, 4),
                "keyword": None if h.keyword_score is None else round(h.keyword_score, 4),
            }
            for h in hits
        ],
        "ms": _ms(started),
    }
    return {"evidence": evidence, "searches": [log], "warnings": notes}


@retry(
    retry=retry_if_exception_type(psycopg.OperationalError),
    stop=stop_after_attempt(2),
    wait=wait_fixed(0.5),
    reraise=True,
)
def _search_with_retry(request: Any) -> list[Any]:
    """One retry on a dropped connection (e.g. the server restarted); then the error surfaces."""
    return get_resources().search(request)


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
