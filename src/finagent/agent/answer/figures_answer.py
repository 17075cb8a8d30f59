"""The answer to a figure question: computed first sentences that answer the ask, the cited table of
period-true figures, then — only for a why/what question — the model's explanation from the passages.

The stages in order: the figures are chosen (``choose``), the comparisons, formulas and opening
sentences computed (``compute``), the opening and table rendered (``render``), the words written
(``write``: no model call at all for a figure question without narrative), every figure checked
(``check``), and the answer rendered with its citations.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from finagent.agent.answer.check import figures_flagged, figures_verifier
from finagent.agent.answer.compute import compute
from finagent.agent.answer.render import figures_head, figures_result
from finagent.agent.answer.write import write_figures
from finagent.agent.answer.writing import tool_items
from finagent.agent.context import Context
from finagent.agent.state import State
from finagent.agent.understand.question import Question


async def figures_answer(state: State, context: Context) -> dict[str, Any]:
    """The cited answer of a figure question (see the module docstring)."""
    computed = await compute(state, context)
    computed = replace(computed, head=figures_head(computed, Question.of(state)))
    tools = tool_items(list(state.get("tool_results") or []))
    verify = figures_verifier(state, computed, tools)
    written = await write_figures(state, computed, context, tools, verify)
    chosen = computed.chosen
    if written is None:  # a follow-up round added nothing the model would read
        return {"stood": True, "llm_calls": list(chosen.calls)}
    answer, flags = figures_flagged(written.answer, written.validation)
    warnings = [*chosen.warnings, *written.warnings, *flags]
    written = replace(written, answer=answer, warnings=warnings, calls=[*chosen.calls, *written.calls])
    return figures_result(state, computed, tools, written)
