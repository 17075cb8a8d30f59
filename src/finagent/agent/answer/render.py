"""The answer rendered: a figure answer's opening and table, and the state update of every answer
with its citations resolved (the last stage: after the figures are chosen and computed, the words
written and checked).
"""

from __future__ import annotations

from typing import Any

from finagent.agent.answer.choose import Read
from finagent.agent.answer.compute import Computed
from finagent.agent.answer.prose import fact_records, formula_lines
from finagent.agent.answer.table import markdown_table
from finagent.agent.answer.write import Written
from finagent.agent.answer.writing import resolve_citations, tool_items
from finagent.agent.state import State
from finagent.agent.understand.question import Question
from finagent.finance.check.verify import Validation


def figures_head(computed: Computed, plan: Question) -> str:
    """A figure answer's beginning: the computed opening sentences, then the cited table of the
    figures and their changes, and the question's formulas line by line."""
    names = plan.names
    metrics = list(plan.metric_names)
    ask = plan.ask
    chosen = computed.chosen
    table = markdown_table(chosen.cells, computed.comparisons, names, metrics, chosen.gaps, ask)
    if computed.formulas:
        table += "\n\n" + formula_lines(computed.formulas, names)
    return "\n\n".join(p for p in (computed.opening.text, table) if p)


def figures_result(
    state: State, computed: Computed, tools: list[dict[str, Any]], written: Written
) -> dict[str, Any]:
    """The state update of a figure answer: the answer with its citations resolved, the figures as
    facts, the calculations, and what the write stage reports."""
    items = computed.chosen.items
    cells = computed.chosen.cells
    covered = sorted({f"{c.ticker} {c.period}" for c in cells if c.role == "target"})
    return {
        "answer": written.answer,
        "citations": resolve_citations(
            written.answer, {i["label"]: i for i in items}, {t["label"]: t for t in tools}
        ),
        "facts": fact_records(cells),
        "calculations": computed.calculations,
        "iterations": int(state.get("iterations") or 0) + 1,
        "draft_ok": written.wrote,
        "withheld": written.withheld,
        "periods_covered": covered,
        "llm_calls": written.calls,
        "warnings": written.warnings,
        "validation": written.validation.to_dict(),
        "drafted_from": written.drafted_from,
    }


def answered_without_draft(
    state: State,
    read: Read,
    answer: str,
    validation: Validation,
    how: str,
    calculations: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The state update of an answer no draft loop wrote (quoted sentences, a computed ranking)."""
    tools = tool_items(list(state.get("tool_results") or []))
    return {
        "answer": answer,
        "citations": resolve_citations(
            answer, {i["label"]: i for i in read.items}, {t["label"]: t for t in tools}
        ),
        "facts": [],
        "calculations": read.calculations if calculations is None else calculations,
        "iterations": int(state.get("iterations") or 0) + 1,
        "draft_ok": True,
        "answered": True,
        "withheld": 0,
        "periods_covered": sorted(
            {f"{i.get('ticker') or ''} {i['period_label']}".strip() for i in read.items}
        ),
        "llm_calls": read.calls,
        "warnings": [*read.warnings, how],
        "validation": validation.to_dict(),
    }


def evidence_result(
    state: State, read: Read, tools: list[dict[str, Any]], written: Written
) -> dict[str, Any]:
    """The state update of the answer from the passages: the answer with its citations resolved, the
    figures read, the calculations, and what the write stage reports."""
    covered = sorted(
        {f"{f['ticker']} {f['period']}" for f in read.facts}
        or {f"{i.get('ticker') or ''} {i['period_label']}".strip() for i in read.items}
    )
    return {
        "answer": written.answer,
        "citations": resolve_citations(
            written.answer, {i["label"]: i for i in read.items}, {t["label"]: t for t in tools}
        ),
        "facts": read.facts,
        "calculations": read.calculations,
        "iterations": int(state.get("iterations") or 0) + 1,
        "draft_ok": written.wrote,
        "answered": written.answered,
        "withheld": written.withheld + read.rejected,
        "periods_covered": covered,
        "llm_calls": read.calls + written.calls,
        "warnings": written.warnings,
        "validation": written.validation.to_dict(),
        "drafted_from": written.drafted_from,
    }
