"""filing_parts node: a company's sections (its risk factors, its legal proceedings) in every stored
filing, when the question asks what changed between them.

Runs in the same fan-out as the searches: a search finds the passages most like the question, not
the same part of each filing, which is what a change across filings is computed from
(``answer.filing_changes``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from langgraph.runtime import Runtime

from finagent.agent.context import Context
from finagent.agent.evidence import chunk_to_evidence
from finagent.agent.resources import get_resources
from finagent.agent.state import PartsTask
from finagent.db.chunks import section_passages


async def read_filing_parts(task: PartsTask, runtime: Runtime[Context]) -> dict[str, Any]:
    """The sections' chunks of one company; a failure is a warning, the searches still answer."""
    resources = get_resources()

    def load() -> list[dict[str, Any]]:
        with resources.database().connection() as conn:
            return section_passages(conn, task["ticker"], task["sections"], task["kinds"])

    try:
        rows = await asyncio.to_thread(load)
    except Exception as exc:  # the store failing here must not lose the text answer
        return {"warnings": [f"reading {task['ticker']}'s filings section by section failed: {exc}"]}
    return {"filing_parts": [chunk_to_evidence(row, "filing parts", 0, 0.0) for row in rows]}
