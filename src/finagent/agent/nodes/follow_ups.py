"""weigh_follow_ups node and the route after it: a follow-up round that found no passage the last
answer was not already written from ends the loop; writing again from the same passages is a re-roll of
the model, not research."""

from __future__ import annotations

from typing import Any, Literal

from finagent.agent.state import State


def evidence_ids(state: State) -> list[int]:
    """The chunk ids of the evidence in the state (generate records those it wrote from)."""
    return sorted({int(e["chunk_id"]) for e in state.get("evidence") or []})


async def weigh_follow_ups(state: State) -> dict[str, Any]:
    """After every follow-up search of the round has merged: how many passages are new."""
    seen = set(state.get("drafted_from") or [])
    return {"new_passages": sum(1 for chunk in evidence_ids(state) if chunk not in seen)}


def route_after_follow_ups(state: State) -> Literal["generate", "finish"]:
    return "generate" if state.get("new_passages") else "finish"
