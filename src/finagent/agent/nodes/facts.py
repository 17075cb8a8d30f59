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
from finagent.agent.context import Context
from finagent.agent.evidence import chunk_to_evidence
from finagent.agent.resources import get_resources
from finagent.agent.state import FactsTask
from finagent.db.chunks import chunks_by_id
from finagent.db.facts import load_facts
from finagent.finance.lines import REPORTED
from finagent.finance.looked_up import FigureRecord

FACT_EVIDENCE_SCORE = 5.0  # the chunk displaying a looked-up figure is evidence of the first rank


async def lookup_facts(task: FactsTask, runtime: Runtime[Context]) -> dict[str, Any]:
    """The facts lookup of one (ticker, period); a failure is a warning, searches still answer."""
    resources = get_resources()
    concepts = sorted(
        {c for name in task["metrics"] if name in REPORTED for c in REPORTED[name].read_concepts}
    )

    def load() -> tuple[list[FigureRecord], list[dict[str, Any]]]:
        with resources.database().connection() as conn:
            facts = load_facts(conn, task["ticker"], concepts)
            figures = [f for one in _each_period(task) for f in lookup(facts, one)]
            ids = sorted({place.chunk_id for _, place in printed_at(figures) if place.chunk_id})
            return figures, chunks_by_id(conn, ids)

    try:
        figures, chunks = await asyncio.to_thread(load)
    except Exception as exc:  # the store failing here must not lose the text answer
        return {"warnings": [f"facts lookup for {task['ticker']} {task['period_label']} failed: {exc}"]}
    evidence = [chunk_to_evidence(row, "reported figures", 0, FACT_EVIDENCE_SCORE) for row in chunks]
    return {"figures": [f.to_dict() for f in figures], "evidence": evidence}


def _each_period(task: FactsTask) -> list[FactsTask]:
    """The task, or one task per period of a long history's single lookup."""
    periods = task.get("periods")
    if not periods:
        return [task]
    return [
        FactsTask(**{**task, "fiscal_year": int(year or 0), "fiscal_quarter": quarter})
        for year, quarter in periods
    ]
