"""finish node: remember the turn (question, answer, companies, periods) for follow-up questions."""

from __future__ import annotations

from typing import Any

from finagent.agent.state import State
from finagent.agent.understand.question import Question


async def finish(state: State) -> dict[str, Any]:
    """Remember the turn for follow-up questions in the same thread."""
    plan = Question.of(state)
    return {
        "history": [
            {
                "question": plan.question,
                "answer": state.get("answer", ""),
                "tickers": list(plan.tickers),
                "period_sources": list(plan.period_sources),
            }
        ]
    }
