"""choose_subject node: a figure question naming no company is asked again about the company whose
filings matched it best, so its figures are read by code for that company's own periods ("last
quarter" on its calendar) instead of written by the model from other companies' passages."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime

from finagent.agent.context import Context
from finagent.agent.evidence import best_match, subject_note
from finagent.agent.nodes.analyze import analyze
from finagent.agent.state import State


def route_after_tools(state: State) -> Literal["choose_subject", "generate"]:
    analysis = state["analysis"]
    return "choose_subject" if analysis.get("subject_needed") and not analysis.get("tickers") else "generate"


async def choose_subject(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """The plan of the question as if it named the best-matching company, with a note saying so; no
    update when no filing matched (the answer then says what was found)."""
    subject = best_match(list(state.get("evidence") or []), [dict(t) for t in state.get("targets") or []])
    if subject is None:
        return {}
    update = await analyze({**state, "tickers": [subject]}, runtime)
    note = subject_note([subject])
    update["analysis"] = {**update["analysis"], "subject_note": note, "subject_needed": False}
    return update


def route_after_choice(state: State) -> Literal["resolve_periods", "generate"]:
    return "resolve_periods" if state["analysis"].get("tickers") else "generate"
