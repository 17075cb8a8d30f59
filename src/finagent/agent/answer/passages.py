"""Which passages are read first: a statement table code can read a figure from (a formula's lines,
the line a question names, the parts of a whole) ranks above the passages around it, so the budget
of passages the writer reads does not leave it out."""

from __future__ import annotations

import re
from typing import Any

from finagent.agent.answer.parts import parts_passages
from finagent.agent.state import State
from finagent.agent.understand.question import Question
from finagent.finance.ask.asked_lines import asked_line_facts
from finagent.finance.compute.formula_values import read_line_items
from finagent.finance.compute.formulas import Formula, input_items, needs_prior
from finagent.finance.read.report_tables import table_facts

LINE_LIFT = 1.0


def favour_line_items(evidence: list[dict[str, Any]], formulas: list[Formula]) -> list[dict[str, Any]]:
    """Statement tables that state a formula's lines for their period rank first, one lift per line
    they state: a table classified as a balance sheet that states none of them (Verizon's asset-backed
    debt table) must not take the place of the one that states current assets and liabilities."""
    wanted, prior = input_items(formulas), sorted(needs_prior(formulas))
    lifted = []
    for item in evidence:
        read = read_line_items([item | {"label": ""}], wanted, prior)
        lift = LINE_LIFT * sum(len(group) for group in read.values())
        lifted.append({**item, "fused_score": float(item["fused_score"]) + lift} if lift else item)
    return lifted


def favour_asked_lines(
    evidence: list[dict[str, Any]], asked: list[str], phrases: list[str], periods: list[str]
) -> list[dict[str, Any]]:
    """A table printing the line a "what was X for P" question names (``asked``: the plan's
    value_line_words), in P's column, ranks first: the twelve-month reconciliation of a release that
    states Amcor's FY2023 adjusted EBITDA must not be left out of the passages read for its
    three-month twin."""
    if not asked:
        return evidence
    return [
        {**e, "fused_score": float(e["fused_score"]) + LINE_LIFT}
        if asked_line_facts(asked, table_facts(e | {"label": ""}, phrases), periods)
        else e
        for e in evidence
    ]


def parts_wanted(state: State) -> dict[str, list[tuple[int, int | None]]]:
    """Each company's asked periods, as (fiscal year, quarter), whose parts are ranked."""
    wanted: dict[str, list[tuple[int, int | None]]] = {}
    for target in state.get("targets") or []:
        if target.get("ticker") and target.get("fiscal_year") and not target.get("companion"):
            wanted.setdefault(target["ticker"], []).append(
                (target["fiscal_year"], target.get("fiscal_quarter"))
            )
    return wanted


def favour_parts_tables(state: State, evidence: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A table whose rows are the asked parts of the whole, adding up to it for the asked period,
    ranks first: code ranks from it, so Best Buy's segment note (Domestic revenue by product category)
    must not be left out of the passages read for the MD&A pages around it."""
    ask = Question.of(state).ask.parts
    if ask is None:
        return evidence
    calendars = Question.of(state).calendars
    holding = parts_passages(ask, evidence, parts_wanted(state), calendars)
    return [
        {**e, "fused_score": float(e["fused_score"]) + LINE_LIFT} if e["chunk_id"] in holding else e
        for e in evidence
    ]


def years_asked(state: State) -> frozenset[str]:
    """The fiscal years of the periods the question was resolved to ("2022" of "Q3 FY2022")."""
    labels = [str(t.get("label") or "") for t in state.get("targets") or []]
    return frozenset(y for label in labels for y in re.findall(r"(?:19|20)\d\d", label))
