"""resolve_periods, the search fan-out (Send API) and the search node itself."""

from __future__ import annotations

import asyncio
import re
import time
from datetime import date
from typing import Any

import psycopg
from langgraph.runtime import Runtime
from langgraph.types import Send
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_fixed

from finagent.agent.context import Context
from finagent.agent.evidence import hit_to_evidence
from finagent.agent.facts_node import plan_fact_lookups
from finagent.agent.resources import get_resources
from finagent.agent.state import SearchTask, State
from finagent.db.filters import SearchFilters
from finagent.db.periods import load_inventory
from finagent.db.search import build_search
from finagent.errors import FinagentError
from finagent.finance.fiscal import calendar_for
from finagent.finance.periods import (
    FACTS_KIND,
    TimeSpec,
    named_kinds,
    nearest_earlier_report,
    preferred_granularity,
    resolve_periods,
    specs_per_company,
)
from finagent.retrieval.rerank import rerank

FILING_KINDS_QUARTER = ["10-Q", "earnings_release", "8-K"]
REPORT_KINDS = frozenset({"10-K", "annual_report", "10-Q", "earnings_release"})


def _today(context: Context) -> date:
    return date.fromisoformat(context.today) if context.today else date.today()


async def resolve_periods_node(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Concrete (fiscal_year, fiscal_quarter) targets per ticker from its calendar and the store."""
    context = runtime.context or Context()
    analysis = state["analysis"]
    tickers: list[str] = analysis["tickers"]
    resources = get_resources()
    specs = [TimeSpec.from_dict(spec) for spec in analysis.get("time_specs") or []]
    per_company = (
        specs_per_company(specs, analysis.get("mentions") or {})
        if analysis.get("question_periods_only")
        else None
    )
    prefer = preferred_granularity(analysis["question"])
    # Periods are those of the documents to be searched: "the latest quarter" of a filings question
    # is the latest 10-Q, not a newer earnings call.
    kinds = named_kinds(analysis["question"]) or (
        REPORT_KINDS if "transcript" not in analysis["sources"] else frozenset()
    )
    if not context.narrow_kinds:
        kinds = frozenset()

    def load() -> tuple[dict[str, Any], dict[str, Any]]:
        companies = {c.ticker: c for c in resources.companies()}
        with resources.database().connection() as conn:
            return companies, load_inventory(conn, tickers)

    companies, available = await asyncio.to_thread(load)
    targets: list[dict[str, Any]] = []
    warnings: list[str] = []
    for ticker in tickers:
        resolution = resolve_periods(
            per_company.get(ticker, specs) if per_company else specs,
            calendar_for(companies[ticker]),
            available.get(ticker, []),
            today=_today(context),
            max_quarters=context.max_quarters,
            prefer=prefer,
            kinds=kinds,
        )
        warnings += resolution.warnings
        fallback = nearest_earlier_report(resolution.periods, available.get(ticker, []), kinds)
        if fallback is not None:
            earlier = resolve_periods(
                [fallback],
                calendar_for(companies[ticker]),
                available.get(ticker, []),
                today=_today(context),
                kinds=kinds,
            )
            labels = ", ".join(p.label for p in earlier.periods)
            warnings.append(
                f"{ticker}: nothing stored for the periods asked; searching {labels}, the latest before"
            )
            resolution.periods.extend(earlier.periods)
        periods = [p.to_dict() for p in resolution.periods]
        if not periods:
            # Nothing resolvable: search the company's whole history rather than give up.
            periods = [
                {
                    "ticker": ticker,
                    "fiscal_year": None,
                    "fiscal_quarter": None,
                    "label": "any period",
                    "kinds": [],
                    "available": False,
                }
            ]
        targets += periods
    if not tickers:
        targets = [
            {
                "ticker": None,
                "fiscal_year": None,
                "fiscal_quarter": None,
                "label": "any period",
                "kinds": [],
                "available": False,
            }
        ]
    return {"targets": targets, "warnings": warnings}


# An earnings release is the document for non-GAAP figures and guidance.
_RELEASE_CUES = re.compile(
    r"\b(adjusted|non-?GAAP|guidance|outlook|earnings (release|report)|press release)\b", re.I
)


def search_kinds(
    target: dict[str, Any], analysis: dict[str, Any], extra: list[str] | None = None
) -> list[str]:
    """Document kinds to search for a target: the period's report, plus transcripts/news when needed.

    A fiscal year is its 10-K, its Q4 earnings release and its 8-Ks (``search_priors`` ranks the
    10-K first unless the question asks for what releases report).
    """
    sources = analysis["sources"]
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
        return sorted(wanted | {"10-K", "10-Q"})
    return sorted(wanted & held) if held & wanted else sorted(wanted)


def make_task(
    target: dict[str, Any],
    query: str,
    kinds: list[str],
    k: int,
    round_: int,
    statements: list[str] | None = None,
    priors: dict[str, float] | None = None,
) -> SearchTask:
    annual = target.get("fiscal_year") is not None and target.get("fiscal_quarter") is None
    return SearchTask(
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


def _routed(analysis: dict[str, Any], context: Context) -> list[str]:
    return list(analysis.get("statements") or []) if context.route_statements else []


# Document priors added to fused scores: the newest of several fiscal years restates the older ones
# (a 10-K shows three years), and adjusted figures or guidance are what earnings releases report.
NEWEST_PERIOD_PRIOR = 0.5
RELEASE_PRIOR = 0.2
REPORT_PRIOR = 0.1


def search_priors(
    target: dict[str, Any], targets: list[dict[str, Any]], analysis: dict[str, Any], narrow: bool = True
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
    if _RELEASE_CUES.search(analysis.get("question", "")):
        priors["earnings_release"] = RELEASE_PRIOR
    elif target.get("fiscal_year") and narrow:
        # "FY2022" means the annual report, "Q2 FY2024" the quarterly report.
        if target.get("fiscal_quarter") is None:
            priors["10-K"] = priors["annual_report"] = REPORT_PRIOR
        else:
            priors["10-Q"] = REPORT_PRIOR
    return priors


def plan_searches(state: State, runtime: Runtime[Context]) -> list[Send]:
    """One sub-search per (ticker x period x phrase) and one facts lookup per (ticker x period), run in
    parallel by LangGraph."""
    context = runtime.context or Context()
    analysis = state["analysis"]
    sends = []
    for target in state["targets"]:
        phrases = analysis["keywords"].get(target.get("ticker") or "", []) or [analysis["question"][:200]]
        kinds = search_kinds(target, analysis)
        priors = search_priors(target, state["targets"], analysis, context.narrow_kinds)
        for phrase in phrases:
            task = make_task(
                target, phrase, kinds, context.hits_per_search, 0, _routed(analysis, context), priors
            )
            sends.append(Send("search", task))
    return sends + _nine_month_searches(state, context) + plan_fact_lookups(state, context)


def _nine_month_searches(state: State, context: Context) -> list[Send]:
    """A fourth quarter nobody reports alone is the year minus the nine months to Q3: for a figure
    question, the Q3 10-Q is searched too, so its year-to-date column can be subtracted."""
    analysis = state["analysis"]
    if not analysis.get("metrics"):
        return []
    sends = []
    for target in state["targets"]:
        if target.get("fiscal_quarter") != 4 or not target.get("ticker"):
            continue
        q3 = {**target, "fiscal_quarter": 3, "label": f"Q3 FY{target['fiscal_year']}", "kinds": ["10-Q"]}
        for phrase in analysis["keywords"].get(target["ticker"], [])[:1]:
            task = make_task(q3, phrase, ["10-Q"], context.hits_per_search, 0, _routed(analysis, context))
            sends.append(Send("search", task))
    return sends


def plan_follow_ups(state: State, context: Context) -> list[Send]:
    """Every follow-up keyword against all target periods of all target tickers."""
    analysis = state["analysis"]
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
            kinds = search_kinds(target, analysis, extra)
            priors = search_priors(target, state["targets"], analysis, context.narrow_kinds)
            task = make_task(
                target, query, kinds, context.hits_per_search, round_, _routed(analysis, context), priors
            )
            sends.append(Send("follow_up_search", task))
    return sends[: context.max_follow_up_searches]


async def search(task: SearchTask, runtime: Runtime[Context]) -> dict[str, Any]:
    """One filtered hybrid sub-search; a failure becomes a warning for this branch only."""
    context = runtime.context or Context()
    resources = get_resources()
    settings = resources.settings
    started = time.perf_counter()
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
        )
        vector = await asyncio.to_thread(resources.query_vector, task["query"])
        vector_weight, keyword_weight = context.fusion_weights(settings)
        log |= {"vector_weight": vector_weight, "keyword_weight": keyword_weight}
        request = build_search(
            task["query"],
            vector,
            filters,
            k=task["k"],
            candidates=settings.search_candidates,
            vector_weight=vector_weight,
            keyword_weight=keyword_weight,
            fusion=settings.fusion,
            statement_boost=settings.statement_boost if context.lift_statements else 0.0,
            statements=task.get("statements") or [],
            route_boost=settings.route_boost,
        )
        hits = await asyncio.to_thread(_search_with_retry, request)
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
    notes: list[str] = []
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
