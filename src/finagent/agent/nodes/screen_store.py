"""screen node: a question about every company in the store ("which company had the highest operating
margin in its latest fiscal year") answered by the store's screen (``agent.screen``, the function
`finagent screen` and the MCP tool call too), each company in its own period, with no search and no
model call."""

from __future__ import annotations

import asyncio
from typing import Any

from finagent.agent.answer.writing import resolve_citations
from finagent.agent.resources import get_resources
from finagent.agent.screen import ScreenRequest, ScreenResult, screen
from finagent.agent.state import State
from finagent.agent.understand.question import Question
from finagent.errors import FinagentError

SCREENED_CONFIDENCE = 0.9
"""Every figure is a filing's XBRL fact and every value the calculator's: as sure as a figure answer."""


async def screen_store(state: State) -> dict[str, Any]:
    """The screen's answer with its citations; a screen that cannot run says why in one line."""
    plan = Question.of(state)
    assert plan.screen is not None
    request = ScreenRequest(plan.screen, plan.time_specs, plan.universe, plan.screen_period)
    try:
        result = await asyncio.to_thread(_run, request)
    except FinagentError as exc:
        return {"answer": str(exc), "citations": [], "confidence": 0.0, "periods_covered": []}
    return _update(result)


def _run(request: ScreenRequest) -> ScreenResult:
    with get_resources().database().connection() as conn:
        return screen(conn, request)


def _update(result: ScreenResult) -> dict[str, Any]:
    outcome = result.outcome
    entries = [*outcome.ranked, *outcome.other_currency]
    return {
        "answer": result.answer,
        "citations": resolve_citations(result.answer, {i["label"]: i for i in result.items}, {}),
        "calculations": [
            {
                "kind": "screen",
                "ticker": e.ticker,
                "metric": outcome.metric.name,
                "period": e.period.label,
                "expression": e.expression,
                "result": float(e.value),
                "unit": e.unit,
            }
            for e in entries
            if e.expression
        ],
        "confidence": SCREENED_CONFIDENCE if entries else 0.0,
        "periods_covered": sorted(f"{e.ticker} {e.period.label}" for e in entries),
        "validation": {},
        "warnings": result.warnings,
    }
