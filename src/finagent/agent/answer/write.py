"""The answer writer: a figure question's computed answer, or the answer from the passages."""

from __future__ import annotations

from typing import Any

from finagent.agent.answer.evidence_answer import evidence_answer
from finagent.agent.answer.figures_answer import figures_answer
from finagent.agent.context import Context
from finagent.agent.state import State
from finagent.agent.understand.plan import is_forecast
from finagent.agent.understand.question import Question


async def write_answer(state: State, context: Context) -> dict[str, Any]:
    """Figure questions (reported metrics of named companies, with figures looked up) get the computed
    answer and its table; every other question (a ranking of one company's parts read from its
    tables, too, and a forecast: "did PepsiCo raise its EPS guidance", which no reported EPS answers)
    the cited answer from the passages."""
    plan = Question.of(state)
    parts = plan.ask.parts is not None
    forecast = is_forecast(plan, context)
    if plan.metrics and state.get("figures") and not parts and not forecast:
        written = await figures_answer(state, context)
    else:
        written = await evidence_answer(state, context)
    note = plan.subject_note
    if note and str(written.get("answer") or "").strip():  # the company was chosen, not named
        written = {**written, "answer": f"{note}\n\n{written['answer']}"}
    return written
