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

from finagent.agent.answer.figures import lookup, printed_at
from finagent.agent.answer.part_figures import Breakdown, breakdown
from finagent.agent.context import Context
from finagent.agent.evidence import chunk_to_evidence
from finagent.agent.resources import get_resources
from finagent.agent.state import FactsTask
from finagent.db.chunks import chunks_by_id
from finagent.db.facts import load_facts, share_class_facts
from finagent.finance.fact_records import StoredFact
from finagent.finance.lines import REPORTED
from finagent.finance.looked_up import FigureRecord
from finagent.finance.read.lookup import PeriodWanted

FACT_EVIDENCE_SCORE = 5.0  # the chunk displaying a looked-up figure is evidence of the first rank


async def lookup_facts(task: FactsTask, runtime: Runtime[Context]) -> dict[str, Any]:
    """The facts lookup of one (ticker, period); a failure is a warning, searches still answer."""
    resources = get_resources()
    lines = [REPORTED[name] for name in task["metrics"] if name in REPORTED]
    concepts = sorted({c for line in lines for c in line.read_concepts})
    per_share = sorted({c for line in lines if line.unit == "per_share" for c in line.read_concepts})

    kinds = task.get("part_kinds") or []

    def load() -> tuple[list[FigureRecord], list[Breakdown], list[dict[str, Any]]]:
        with resources.database().connection() as conn:
            facts = load_facts(conn, task["ticker"], concepts, all_dimensions=bool(kinds))
            whole = [f for f in facts if not f.dims_key]
            whole += share_class_facts(conn, task["ticker"], per_share)
            periods = [] if task.get("parts_only") else _each_period(task)
            figures = [f for one in periods for f in lookup(whole, one)]
            parts = _breakdowns(facts, task, kinds)
            ids = {place.chunk_id for _, place in printed_at(figures) if place.chunk_id}
            ids |= {
                p.figure.provenance.chunk_id for b in parts for p in b.parts if p.figure.provenance.chunk_id
            }
            return figures, parts, chunks_by_id(conn, sorted(ids))

    try:
        figures, parts, chunks = await asyncio.to_thread(load)
    except Exception as exc:  # the store failing here must not lose the text answer
        return {"warnings": [f"facts lookup for {task['ticker']} {task['period_label']} failed: {exc}"]}
    evidence = [chunk_to_evidence(row, "reported figures", 0, FACT_EVIDENCE_SCORE) for row in chunks]
    return {
        "figures": [f.to_dict() for f in figures],
        "evidence": evidence,
        "breakdowns": [b.to_dict() for b in parts],
    }


def _breakdowns(facts: list[StoredFact], task: FactsTask, kinds: list[str]) -> list[Breakdown]:
    """Each asked kind of part of the task's metrics, in its period and a year earlier."""
    target = PeriodWanted(task["fiscal_year"], task.get("fiscal_quarter"), task.get("span"))
    metrics = [REPORTED[name] for name in task["metrics"] if name in REPORTED]
    found = [
        breakdown(facts, task["ticker"], metric, wanted, kind)
        for metric in metrics
        for kind in kinds
        for wanted in (target, target.prior_year())
    ]
    return [b for b in found if b is not None]


def _each_period(task: FactsTask) -> list[FactsTask]:
    """The task, or one task per period of a long history's single lookup."""
    periods = task.get("periods")
    if not periods:
        return [task]
    return [
        FactsTask(**{**task, "fiscal_year": int(year or 0), "fiscal_quarter": quarter})
        for year, quarter in periods
    ]
