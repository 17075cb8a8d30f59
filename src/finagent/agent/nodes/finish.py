"""finish node: remember the turn (question, answer, companies, periods) for follow-up questions."""

from __future__ import annotations

from typing import Any

from finagent.agent.state import State


async def finish(state: State) -> dict[str, Any]:
    """Remember the turn for follow-up questions in the same thread."""
    analysis = state["analysis"]
    return {
        "history": [
            {
                "question": analysis["question"],
                "answer": state.get("answer", ""),
                "tickers": analysis["tickers"],
                "period_sources": analysis["period_sources"],
            }
        ]
    }
