"""choose_subject node: a figure question naming no company is asked again about the company whose
filings matched it best, so its figures are read by code for that company's own periods ("last
quarter" on its calendar) instead of written by the model from other companies' passages."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from langgraph.runtime import Runtime

from finagent.agent.answer.choose import best_matching
from finagent.agent.context import Context
from finagent.agent.evidence import also_holding, asked_ends, subject_companies, subject_note
from finagent.agent.nodes.analyze import analyze
from finagent.agent.resources import get_resources
from finagent.agent.state import State
from finagent.agent.understand.question import Question
from finagent.db.periods import load_inventory

CANDIDATES = 5
"""How many of the best-matching companies are weighed by the periods the store holds for them."""


async def choose_subject(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """The plan of the question as if it named the best-matching company, with a note saying so; no
    update when no filing matched (the answer then says what was found)."""
    evidence = list(state.get("evidence") or [])
    targets = [dict(t) for t in state.get("targets") or []]
    # with no period asked, the store's inventory decides nothing: no query
    candidates = subject_companies(evidence, top=CANDIDATES) if asked_ends(targets) else []
    held = await asyncio.to_thread(_held, candidates)
    subject = best_matching(state, held)
    if subject is None:
        return {}
    update = await analyze({**state, "tickers": [subject]}, runtime)
    note = subject_note([subject], also_holding(subject, targets, held))
    chosen = Question.from_dict(update["analysis"]).with_changes(subject_note=note, subject_needed=False)
    update["analysis"] = chosen.to_dict()
    return update


def route_after_choice(state: State) -> Literal["resolve_periods", "generate"]:
    return "resolve_periods" if Question.of(state).tickers else "generate"


def _held(tickers: list[str]) -> dict[str, set[tuple[int, int | None]]]:
    """The fiscal periods the store holds reports of for each company: a question about Q2 FY2024 is
    about a company that reported it, though the passages found first are of its other reports."""
    if not tickers:
        return {}
    with get_resources().database().connection() as conn:
        inventory = load_inventory(conn, tickers)
    return {t: {(p.fiscal_year, p.fiscal_quarter) for p in periods} for t, periods in inventory.items()}
