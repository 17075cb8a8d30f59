"""The answer to a question the figures lookup does not cover (a narrative, a segment, a company's
own formula, a company named by no question): figures read from the statement rows of the passages,
else copied by the model (each verified against the text it cites), the question's formulas and the
changes computed by the calculator, then the model's cited answer through the one draft loop.

A small model computes poorly but copies well, so it only copies labelled values; the arithmetic is
the calculator's, and a figure the evidence does not contain is dropped before anyone sees it.

The stages in order: the figures are read (``choose``), the opening computed (``compute``), the
words written through the draft loop (``write``), every figure checked (``check``), and the answer
rendered with its citations (``render``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from finagent.agent.answer.check import evidence_flagged, evidence_verifier
from finagent.agent.answer.choose import Read, about_best_match, read_figures
from finagent.agent.answer.compute import evidence_opening, parts_ranking
from finagent.agent.answer.extractive import answers_extractively, extractive_answer
from finagent.agent.answer.filing_changes import changes_answer
from finagent.agent.answer.quotes import QUOTED_LEAD, event_report, opening_quote, quoted_answer
from finagent.agent.answer.render import answered_without_draft, evidence_result
from finagent.agent.answer.searched import dated_gaps_said, not_mentioned, unheld_filings_said
from finagent.agent.answer.write import (
    QUOTE_POOL,
    Written,
    evidence_prompt,
    evidence_writer,
    quoted_instead,
    write_evidence,
)
from finagent.agent.answer.writing import tool_items
from finagent.agent.context import Context
from finagent.agent.evidence import assign_labels, subject_note
from finagent.agent.state import State
from finagent.agent.understand.question import Question


def _computed_ranking(state: State, context: Context) -> dict[str, Any] | None:
    """A ranking of one company's parts (a segment, a region, a liability) read from its tables is
    the whole answer when the question asks no why: no model call (None: not such a question, or no
    table of the company and period has the parts)."""
    plan = Question.of(state)
    parts = plan.ask.parts
    if parts is None or plan.narrative or not context.ablations.use_calculator:
        return None
    # no model reads the passages, so every one found is searched for the table, best first
    evidence = sorted(state.get("evidence") or [], key=lambda e: -float(e.get("fused_score") or 0.0))
    read = Read(assign_labels(evidence), 0)
    answer = parts_ranking(state, read, parts)
    if not answer:
        return None
    tools = tool_items(list(state.get("tool_results") or []))
    validation = evidence_verifier(state, read, tools)(answer)
    answer, _ = evidence_flagged(answer, validation)
    return answered_without_draft(
        state, read, answer, validation, "ranked by code from the statement table; no model call"
    )


def _computed_changes(state: State) -> dict[str, Any] | None:
    """What changed between a company's filings (risk factors, legal proceedings), computed from the
    same part of each filing: no model call (None: not asked, or no filing's part is stored)."""
    plan = Question.of(state)
    if not plan.filing_changes:
        return None
    named = [t for t in state.get("targets") or [] if plan.time_specs and t.get("fiscal_year") is not None]
    asked = [(int(t["fiscal_year"]), t.get("fiscal_quarter")) for t in named]
    computed = changes_answer(plan, list(state.get("filing_parts") or []), asked)
    if computed is None:
        return None
    answer, read = computed.text, Read(computed.cited, 0, givens=computed.absent)
    validation = evidence_verifier(state, read, [])(answer)
    answer, _ = evidence_flagged(answer, validation)
    how = "computed by comparing the same part of the company's filings; no model call"
    # the filings' own headings and sentences, chosen by code: graded by code, as quotes are
    return answered_without_draft(state, read, answer, validation, how, calculations=[]) | {"extracted": True}


def _unheld_subject(state: State) -> dict[str, Any] | None:
    """No stored passage of the companies mentions what the question names ("Agentforce" with only a
    2016 call held): said, with what was searched and the closest passage as context; no model call."""
    plan = Question.of(state)
    if not plan.unheld_subject:
        return None
    evidence = sorted(state.get("evidence") or [], key=lambda e: -float(e.get("fused_score") or 0.0))
    read = Read(assign_labels(evidence[:QUOTE_POOL]), 0)
    closest = quoted_answer(read.items, list(plan.terms), plan.names, limit=1).partition("\n")[2]
    closest = closest or (opening_quote(read.items[0], plan.names) if read.items else "")
    searches = list(state.get("searches") or [])
    answer = not_mentioned(plan.unmentioned, plan.tickers, plan.named_kinds, searches, plan.names, closest)
    validation = evidence_verifier(state, read, [])(answer)
    answer, _ = evidence_flagged(answer, validation)
    how = "no stored passage of the companies mentions what the question names; no model call"
    return answered_without_draft(state, read, answer, validation, how, calculations=[]) | {"answered": False}


async def evidence_answer(state: State, context: Context) -> dict[str, Any]:
    """The cited answer from the passages (see the module docstring)."""
    subject = None
    if not Question.of(state).tickers:
        state, subject = about_best_match(state)
    computed = _computed_ranking(state, context) or _computed_changes(state) or _unheld_subject(state)
    if computed is not None:
        return computed
    plan = Question.of(state)
    phrases = [p for ps in plan.keywords.values() for p in ps] + list(state.get("follow_up_queries") or [])
    tools = tool_items(list(state.get("tool_results") or []))
    extractive = answers_extractively(plan, context, tools)
    read = await read_figures(state, context, phrases, copy=not extractive)
    if context.narrative_answers == "quoted" and plan.narrative and not plan.quantities:
        quoted = quoted_instead(state, read, tools)
        if quoted is not None:
            how = "answered in the sources' own sentences (quoted answers)"
            return answered_without_draft(state, read, *quoted, how, calculations=[])
    prompt = evidence_prompt(state, read, tools, subject)  # before the opening adds its results
    first = evidence_opening(state, read) if context.ablations.use_calculator else ""
    if not first and Question.of(state).about_an_event_filing:  # what the 8-K reports: its own Items first
        first = event_report(read.items, plan.names)
    verify = evidence_verifier(state, read, tools)
    if extractive and (not first or first.startswith(QUOTED_LEAD)):
        extracted = await extractive_answer(state, read, context, first, verify)
        if extracted is not None:
            return _noted(state, read, tools, extracted, subject) | {"extracted": True}
    writer = evidence_writer(state, read, tools, context, prompt, first, verify)
    if writer.stands(state):  # a follow-up round added nothing the model would read
        return {"stood": True, "llm_calls": read.calls}
    written = await write_evidence(state, read, writer, first, verify)
    return _noted(state, read, tools, written, subject)


def _noted(
    state: State, read: Read, tools: list[dict[str, Any]], written: Written, subject: str | None
) -> dict[str, Any]:
    """The written answer with what the checks and the store add: a figure withheld as insane, the
    documents asked for that the store lacks, whose answer it is when no company was named."""
    plan = Question.of(state)
    answer, flags = evidence_flagged(written.answer, written.validation)
    if read.withheld:  # said whatever the model wrote: a figure failing its sanity check was not used
        answer = "\n\n".join(p for p in (answer, " ".join(f["sentence"] for f in read.withheld)) if p)
    by_day = {gap.kind for gap in plan.dated_gaps}  # a call asked of a month is said missing by its month
    named = [kind for kind in plan.named_kinds if kind not in by_day]
    unheld = unheld_filings_said(state.get("targets") or [], named, plan.names)
    unheld = " ".join(p for p in (unheld, dated_gaps_said(plan.dated_gaps, plan.names)) if p)
    if unheld and answer.strip():  # the documents asked for that the store lacks, before what else answers
        answer = f"{unheld}\n\n{answer}"
    if subject and answer.strip():
        answer = f"{subject_note([subject])}\n\n{answer}"
    written = replace(written, answer=answer, warnings=[*read.warnings, *written.warnings, *flags])
    return evidence_result(state, read, tools, written)
