"""generate node: the cited answer (``answer.write``)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from finagent.agent.answer.write import write_answer
from finagent.agent.context import Context
from finagent.agent.nodes.follow_ups import evidence_ids
from finagent.agent.state import State


async def generate(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """The answer of this iteration: computed sentences, the table and, where words are needed, the
    model's prose, every figure checked for its company and period."""
    written = await write_answer(state, runtime.context or Context())
    return {**written, "drafted_from": evidence_ids(state)}
