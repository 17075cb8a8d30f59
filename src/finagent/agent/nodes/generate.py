"""generate node and the route after it: the cited answer (a figure question's computed answer, or the
answer from the passages), or the last one standing when a follow-up round gave the writer nothing
new to read."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime

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


async def generate(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """The answer of this iteration: computed sentences, the table and, where words are needed, the
    model's prose, every figure checked for its company and period. After a follow-up round, an answer
    the writer would draft from what it already read, or one code builds word for word again, stands:
    writing it again is a re-roll of the model, not research."""
    written = await write_answer(state, runtime.context or Context())
    built = not written.get("drafted_from")  # by code alone, no draft of the model
    again = built and bool(state.get("iterations")) and written.get("answer") == state.get("answer")
    if written.get("stood") or again:
        return {"stood": True, "llm_calls": written.get("llm_calls") or []}
    return {**written, "stood": False}


def route_after_generate(state: State) -> Literal["evaluate", "finish"]:
    return "finish" if state.get("stood") else "evaluate"
