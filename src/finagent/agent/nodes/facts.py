"""facts node: a company's reported figures for one target period, straight from its XBRL facts.

Runs in the same per-ticker × per-period fan-out as the searches. No model is involved: the value,
its period and the chunk that displays it come from the store, so a figure question needs the model
only for prose. Comparative periods (the same quarter a year earlier, the previous quarter) are
looked up with the target, since comparisons are computed from them.
"""

from __future__ import annotations

import asyncio
from typing import Any

from langgraph.runtime import Runtime

from finagent.agent.context import Context
from finagent.agent.evidence import chunk_to_evidence
from finagent.agent.resources import get_resources
from finagent.agent.state import FactsTask
from finagent.db.chunks import chunks_by_id
from finagent.db.facts import load_facts
from finagent.finance.derive import missing_reason
from finagent.finance.facts import StoredFact
from finagent.finance.lookup import PeriodWanted, Selection, displayed_concepts, select
from finagent.finance.metrics import BY_NAME, Metric

FACT_EVIDENCE_SCORE = 5.0  # the chunk displaying a looked-up figure is evidence of the first rank


def _provenance(fact: StoredFact) -> dict[str, Any]:
    """Where a stored fact is printed: the chunk, its document and the filing."""
    return {
        "chunk_id": fact.chunk_id,
        "document_id": fact.document_id,
        "filing": fact.filing_key,
        "form": fact.form,
        "source_uri": fact.source_uri,
        "title": fact.title,
    }


def _input_record(fact: StoredFact) -> dict[str, Any]:
    return {
        "fact_id": fact.id,
        "value": str(fact.value),
        "period": fact.period_label,
        "duration": fact.duration,
        "period_end": fact.period_end.isoformat(),
        "display": fact.display,
        **_provenance(fact),
    }


def figure_record(
    selection: Selection, ticker: str, role: str, by_id: dict[int, StoredFact] | None = None
) -> dict[str, Any]:
    """A looked-up figure as graph state (plain JSON): value as exact text, period, provenance; a
    derived figure carries its inputs (each cited where it is displayed)."""
    fact = selection.fact
    inputs = [by_id[i] for i in fact.inputs if by_id and i in by_id]
    return {
        "ticker": ticker,
        "metric": selection.metric.name,
        "metric_label": selection.metric.label,
        "period": selection.period.label,
        "fiscal_year": fact.fiscal_year,
        "fiscal_quarter": None if selection.period.annual else fact.fiscal_quarter,
        "duration": fact.duration,
        "period_start": fact.period_start.isoformat() if fact.period_start else None,
        "period_end": fact.period_end.isoformat(),
        "value": str(fact.value),
        "unit": fact.unit,
        "decimals": fact.decimals,
        "display": fact.display,
        "concept": fact.concept,
        "fact_id": fact.id,
        "source": "derived" if fact.derived else "xbrl",
        "derivation": fact.derivation,
        "inputs": [_input_record(f) for f in inputs],
        **_provenance(fact),
        "role": role,
        "restated": [
            {
                "original": str(r.original.value),
                "original_filing": r.original.filing_key,
                "latest": str(r.latest.value),
                "latest_filing": r.latest.filing_key,
            }
            for r in selection.restatements
        ],
    }


def _gap(metric: Metric, ticker: str, period: PeriodWanted, facts: list[StoredFact]) -> dict[str, Any]:
    """A target no fact answers, with the reason (a quarter that cannot be derived says so)."""
    unit = {"per_share": "USD/shares", "shares": "shares"}.get(metric.unit, "USD")
    return {
        "ticker": ticker,
        "metric": metric.name,
        "metric_label": metric.label,
        "period": period.label,
        "fiscal_year": period.fiscal_year,
        "fiscal_quarter": period.fiscal_quarter,
        "value": None,
        "role": "target",
        "source": "none",
        "reason": missing_reason(
            metric.concepts, unit, metric.instant, period.fiscal_year, period.fiscal_quarter, facts
        ),
    }


def lookup(facts: list[StoredFact], task: FactsTask) -> list[dict[str, Any]]:
    """Figures (and gaps) for one task from one company's facts."""
    target = PeriodWanted(task["fiscal_year"], task.get("fiscal_quarter"))
    periods: list[tuple[PeriodWanted, str]] = [(target, "target")]
    if "prior_year" in task["comparatives"]:
        periods.append((target.prior_year(), "comparative"))
    prior_quarter = target.prior_quarter()
    if "prior_quarter" in task["comparatives"] and prior_quarter is not None:
        periods.append((prior_quarter, "comparative"))
    by_id = {f.id: f for f in facts}
    out: list[dict[str, Any]] = []
    for name in task["metrics"]:
        metric = BY_NAME.get(name)
        if metric is None:
            continue
        shown = displayed_concepts(facts, metric)
        for period, role in periods:
            chosen = select(facts, metric, period, as_reported=task["as_reported"], displayed=shown)
            if chosen is not None:
                out.append(figure_record(chosen, task["ticker"], role, by_id))
            elif role == "target":
                out.append(_gap(metric, task["ticker"], period, facts))
                if period.fiscal_quarter == 4 and metric.unit == "money" and not metric.instant:
                    # The year, for a Q4 the tables may complete (year − the Q3 10-Q's nine months).
                    year = select(facts, metric, PeriodWanted(period.fiscal_year), displayed=shown)
                    if year is not None:
                        out.append(figure_record(year, task["ticker"], "input", by_id))
    return out


async def lookup_facts(task: FactsTask, runtime: Runtime[Context]) -> dict[str, Any]:
    """The facts lookup of one (ticker, period); a failure is a warning, searches still answer."""
    resources = get_resources()
    concepts = sorted({c for name in task["metrics"] if name in BY_NAME for c in BY_NAME[name].concepts})

    def load() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        with resources.database().connection() as conn:
            facts = load_facts(conn, task["ticker"], concepts)
            figures = lookup(facts, task)
            ids = sorted(
                {f["chunk_id"] for f in figures if f.get("chunk_id")}
                | {i["chunk_id"] for f in figures for i in f.get("inputs") or [] if i.get("chunk_id")}
            )
            return figures, chunks_by_id(conn, ids)

    try:
        figures, chunks = await asyncio.to_thread(load)
    except Exception as exc:  # the store failing here must not lose the text answer
        return {"warnings": [f"facts lookup for {task['ticker']} {task['period_label']} failed: {exc}"]}
    evidence = [chunk_to_evidence(row, "reported figures", 0, FACT_EVIDENCE_SCORE) for row in chunks]
    return {"figures": figures, "evidence": evidence}
