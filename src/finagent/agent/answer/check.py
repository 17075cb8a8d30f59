"""The checks of an answer: every figure it states is checked for its company and period against
what was chosen, read and computed (the figures check, ``finance.check.verify``), and every
sentence the model writes against the passages it cites (the support check, ``finance.check.support``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from finagent.agent.answer.choose import Read
from finagent.agent.answer.compute import Computed
from finagent.agent.answer.figures import asked_targets
from finagent.agent.answer.writing import resolve_citations
from finagent.agent.state import State
from finagent.agent.understand.question import Question
from finagent.finance.check.matching import known_changes, known_facts, known_results
from finagent.finance.check.support import (
    Passage,
    support_problem,
    verdict_problem,
    yes_or_no_against_computed,
)
from finagent.finance.check.verify import (
    UNSUPPORTED,
    PeriodScope,
    Validation,
    flag_unsupported,
    table_known,
    verify_answer,
)
from finagent.finance.compute.compare import Cell
from finagent.finance.looked_up import Gap
from finagent.finance.periods import FiscalCalendar
from finagent.finance.words import UNIT_SCALES

Verify = Callable[[str], Validation]
"""The figures check of a whole answer."""


def figures_scope(state: State, computed: Computed) -> PeriodScope:
    """What a figure answer's numbers are checked against for their period: every chosen and computed
    figure of a known company and period, the parts of a period reported only in parts, and the
    amounts the question itself gives (a threshold)."""
    plan = Question.of(state)
    targets = asked_targets(list(state.get("targets") or []))
    calendars = plan.calendars
    known = known_figures([*computed.chosen.cells, *computed.comparisons.cells], computed.calculations)
    return PeriodScope(
        known=known + part_figures(computed.chosen.gaps),
        names=plan.names,
        targets={
            t: [x["label"] for x in targets if x["ticker"] == t] for t in {x["ticker"] for x in targets}
        },
        calendars={t: FiscalCalendar.from_dict(v).pair for t, v in calendars.items()},
        givens=frozenset(float(c["result"]) for c in computed.calculations if c.get("kind") == "limit"),
    )


def period_item(computed: Computed) -> dict[str, Any]:
    """The figures' own periods and period ends, so the labels and dates the answer states are checked
    like any other figure (a derived Q4 has no document of its own that names it), and the amounts
    the question itself names (a threshold)."""
    cells = [*computed.chosen.cells, *computed.comparisons.cells]
    parts = [p for g in computed.chosen.gaps for p in g.parts]
    ends = {c.period_end.isoformat() for c in cells if c.period_end}
    days = sorted(ends | {p.period_end.isoformat() for p in parts})
    gaps = {g.period.label for g in computed.chosen.gaps}
    labels = sorted({c.period.label for c in cells} | gaps | {p.label for p in parts})
    text = "; ".join([*labels, *days, computed.opening.known_text])
    return {"chunk_id": None, "label": None, "text": text, "period_label": ""}


def part_figures(gaps: list[Gap]) -> list[dict[str, Any]]:
    """The parts of periods reported only in parts, each known for its own part (its label, e.g.
    "successor Jul 22–Sep 30, 2010"), never for the whole quarter or year it is part of."""
    return [
        {
            "ticker": gap.ticker,
            "period": part.label,
            "value": float(part.value),
            "kind": "per_share" if "/" in str(part.unit or "") else "amount",
            "what": gap.metric.replace("_", " "),
        }
        for gap in gaps
        for part in gap.parts
    ]


def known_figures(cells: list[Cell], calculations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every figure whose company and period are known: what a sentence's number is checked against."""
    known = [
        {
            "ticker": c.ticker,
            "period": c.period.label,
            "value": float(c.value),
            "kind": "percent" if c.unit == "percent" else "per_share" if "/" in c.unit else "amount",
            "what": c.metric.replace("_", " "),
        }
        for c in cells
    ]
    for calc in calculations:
        period = calc.get("to_period") or calc.get("period")
        if not period or not isinstance(calc.get("result"), int | float):
            continue
        percent = calc.get("unit") == "percent"
        scale = UNIT_SCALES.get(str(calc.get("unit")), 1.0)
        known.append(
            {
                "ticker": calc["ticker"],
                "period": period,
                "value": float(calc["result"]) * (1.0 if percent else scale),
                "kind": "percent" if percent else "amount",
                "what": f"{calc.get('kind')} of {calc.get('metric')}",
                "change": calc.get("kind") in ("yoy", "qoq", "change", "difference", "cagr"),
            }
        )
    return known


def period_scope(state: State, read: Read) -> PeriodScope:
    """What the answer's numbers are checked against for their period: the figures read for each
    company and period, every cell of the cited statement tables, and the computed changes and
    ratios."""
    plan = Question.of(state)
    calendars = plan.calendars
    known = table_known(read.items, calendars) + known_facts(read.facts)
    known += [k for k in known_changes(read.calculations) if k["period"]]
    known += [k for k in known_results(read.calculations) if k["period"]]  # a ratio computed for its year
    targets: dict[str, list[str]] = {}
    for target in state.get("targets") or []:
        if target.get("ticker") and not target.get("companion"):
            targets.setdefault(target["ticker"], []).append(target["label"])
    return PeriodScope(
        known=known,
        names=plan.names,
        targets=targets,
        calendars={t: c.pair for t, v in calendars.items() if (c := FiscalCalendar.known(v))},
    )


def evidence_verifier(state: State, read: Read, tools: list[dict[str, Any]]) -> Verify:
    """The figures check of an answer: against the passages, the tools' summaries, the computed
    results and the figures the question gives, each for its company and period."""
    scope = period_scope(state, read)

    def verify(answer: str) -> Validation:
        citations = resolve_citations(
            answer, {i["label"]: i for i in read.items}, {t["label"]: t for t in tools}
        )
        given = [{"chunk_id": None, "label": None, "text": "; ".join(read.givens), "period_label": ""}]
        evidence = [*read.items, *tools, *(given if read.givens else [])]
        return verify_answer(answer, evidence, read.calculations, citations, scope=scope)

    return verify


def figures_verifier(state: State, computed: Computed, tools: list[dict[str, Any]]) -> Verify:
    """The figures check of a figure question's answer: against the chosen items, the tools'
    summaries, the figures' own periods and the computed results, each for its company and period."""
    check_items = [*computed.chosen.items, *tools, period_item(computed)]
    scope = figures_scope(state, computed)

    def verify(answer: str) -> Validation:
        return verify_answer(answer, check_items, computed.calculations, None, scope=scope)

    return verify


def figures_support(
    passages: dict[str, Passage], names: dict[str, list[str]], calculations: list[dict[str, Any]]
) -> Callable[[str], str | None]:
    """The support check of a sentence explaining computed figures: its cited passages hold what it
    says, and a yes or no it gives agrees with the computed change."""
    return lambda sentence: (
        support_problem(sentence, passages, names, computed=True, calculations=calculations)
        or yes_or_no_against_computed(sentence, calculations)
    )


def evidence_support(
    passages: dict[str, Passage], names: dict[str, list[str]], calculations: list[dict[str, Any]]
) -> Callable[[str], str | None]:
    """The support check of a sentence of the answer from the passages."""
    return lambda sentence: (
        support_problem(sentence, passages, names, calculations=calculations)
        or yes_or_no_against_computed(sentence, calculations)
    )


def evidence_verdict(
    passages: dict[str, Passage],
    names: dict[str, list[str]],
    asked: frozenset[str],
    calculations: list[dict[str, Any]],
) -> Callable[[str, list[str]], str | None]:
    """The check of a yes or no: it stands on the answer's supported sentences, never against a
    computed change ("Yes, the quick ratio improved" over 0.59 -> 0.36)."""
    return lambda sentence, grounds: (
        verdict_problem(sentence, passages, names, grounds, asked)
        or yes_or_no_against_computed(sentence, calculations)
    )


def figures_flagged(answer: str, validation: Validation) -> tuple[str, list[str]]:
    """A figure answer with its figures the check could not place marked [unverified], and the
    warning saying which and why (none when every figure was placed)."""
    if validation.status != UNSUPPORTED:
        return answer, []
    return flag_unsupported(answer, validation), [
        "figures marked [unverified] are not the value for the company and period their sentence "
        "names: " + ", ".join(f"{c.text} ({c.how})" for c in validation.unverified[:5])
    ]


def evidence_flagged(answer: str, validation: Validation) -> tuple[str, list[str]]:
    """An answer from the passages with its unsupported figures marked [unverified], and the warning."""
    if validation.status != UNSUPPORTED:
        return answer, []
    return flag_unsupported(answer, validation), [
        "figures marked [unverified] are not supported by the cited evidence or a computed result: "
        + ", ".join(c.text for c in validation.unverified[:5])
    ]
