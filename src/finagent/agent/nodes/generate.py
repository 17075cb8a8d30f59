"""generate node and the route after it: the cited answer (``answer.write``), or the last one standing
when a follow-up round gave the writer nothing new to read."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime

from finagent.agent.answer.write import write_answer
from finagent.agent.context import Context
from finagent.agent.state import State


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
