"""The figures of an answer, chosen: every figure the answer states is chosen here.

A figure question's cells (``choose_cells``): the XBRL fact (``figures``), else the statement
table's column of the period (``columns``), else the model's copy, else a gap with the reason. A
question the figures lookup does not cover (``read_figures``): statement rows of the passages, the
line items of the question's formulas, else the model's copies.

The model copies figures in one place only (``model_copies``): a small model computes poorly but
copies well, so it only copies labelled values, and each copy is checked against the passage it
cites before anyone sees it.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, cast

from finagent.agent.answer.columns import in_its_column, table_figures
from finagent.agent.answer.figures import (
    asked_targets,
    cells_from_figures,
    citable_items,
    derivation_record,
    figures_of,
    gaps_of,
    parts_told,
)
from finagent.agent.answer.passages import favour_asked_lines, favour_line_items, favour_parts_tables
from finagent.agent.answer.withheld import withhold_insane, withhold_insane_cells
from finagent.agent.answer.wording import display_scale
from finagent.agent.answer.writing import budgeted_evidence, favour_discussion
from finagent.agent.context import Context
from finagent.agent.evidence import best_match, format_evidence, query_terms
from finagent.agent.prompts import render
from finagent.agent.resources import get_resources
from finagent.agent.schemas import Facts, facts_schema
from finagent.agent.state import State, Target
from finagent.agent.understand.question import Question
from finagent.agent.understand.vocabulary import NARRATIVE_WORDS
from finagent.finance.check.copied_figures import after_its_report, value_in_text, verify_facts
from finagent.finance.compute.compare import Cell
from finagent.finance.compute.formula_values import (
    compute_formulas,
    formula_changes,
    mean_over_periods,
    read_line_items,
    with_prior_years,
    without_other_readings,
)
from finagent.finance.compute.formulas import FORMULAS, Formula, input_items, needs_prior
from finagent.finance.compute.period_changes import compute_changes
from finagent.finance.figure_records import sort_facts
from finagent.finance.line_item import LineItem
from finagent.finance.lines import REPORTED
from finagent.finance.looked_up import Figure, FigureRecord, Gap
from finagent.finance.read.report_tables import deterministic_facts
from finagent.finance.read.tables import stated_scale
from finagent.finance.read.written_figures import scan_figures
from finagent.finance.words import UNIT_EXPONENTS
from finagent.llm.structured import structured_call

# -- the model's copies: the one place a figure is copied by the model from a passage ----------------


async def model_copies(
    items: list[dict[str, Any]],
    question: str,
    asked: Sequence[str],
    terms: Sequence[str],
    item_chars: int,
    context: Context,
    *,
    tickers: list[str],
    limit: int,
    metrics: list[str] | None = None,
) -> tuple[Facts, list[dict[str, Any]]]:
    """The model's labelled copies of the ``asked`` figures from the passages ``items``, with the
    model calls made. A small model copies well but computes poorly, so this is all it is asked
    for figures; the caller checks every copy against the passage it cites before using it."""
    schema = facts_schema(
        tickers,
        sorted({i["period_label"] for i in items}),
        [i["label"] for i in items],
        limit=limit,
        metrics=metrics,
    )
    reply, calls = await structured_call(
        get_resources().chat_model("extract", context),
        render(
            "extract",
            question=question,
            metrics=", ".join(asked),
            evidence=format_evidence(items, terms, item_chars),
        ),
        schema,
        role="extract",
        default=Facts,
    )
    return reply, [c.to_dict() for c in calls]


def _items_for_the_model(
    gaps: list[Gap], items: list[dict[str, Any]], per_period: int
) -> list[dict[str, Any]]:
    """The best few items of each missing (company, period), as ranked: the model reads ~100 tokens/s."""
    wanted = {(g.ticker, g.period.label) for g in gaps}
    relevant: list[dict[str, Any]] = []
    taken: dict[tuple[Any, Any], int] = {}
    for item in items:
        key = (item.get("ticker"), item.get("period_label"))
        if key in wanted and item.get("chunk_id") and taken.get(key, 0) < per_period:
            taken[key] = taken.get(key, 0) + 1
            relevant.append(item)
    return relevant


def printed_scale(value: float, text: str) -> int | None:
    """The power of ten of the scale word written with ``value`` in ``text`` ("81,797 million": 6), 0
    for a plain amount too large to be in a scale (ten million or more), None when unstated."""
    for figure in scan_figures(text):
        if figure.kind in ("amount", "number") and math.isclose(figure.mantissa, abs(value), rel_tol=1e-9):
            if figure.scaled:
                return round(math.log10(figure.scale))
            if figure.magnitude >= 1e7:
                return 0
    return None


def _copied_cell(
    fact: Any, gap: Gap, metric: str, source: dict[str, Any], calendars: dict[str, Any]
) -> Cell | None:
    """A value the model copied, with the scale it is printed in, if it sits in its period's column."""
    per_share = REPORTED[metric].unit == "per_share"  # the metric's unit, not the model's word
    scale: int | None = UNIT_EXPONENTS.get(fact.unit)
    if per_share:  # "$2.68" in a table "(in millions, except per share)" is $2.68 a share
        scale = 0
    elif scale is None:  # "$26,268" in a table "(in millions)", or "$81,797 million" in a sentence
        scale = stated_scale(source["text"]) or printed_scale(float(fact.value), source["text"])
    if scale is None:
        return None  # an amount whose scale the text does not state is withheld, never guessed
    value = Decimal(str(fact.value)).scaleb(scale)
    year, quarter = gap.fiscal_year, gap.fiscal_quarter
    if not in_its_column(source, value, fact.period, year, calendars, quarter):
        return None
    unit = "USD/shares" if per_share else "USD"
    return Cell(
        ticker=fact.ticker,
        metric=metric,
        period=gap.period,  # the model's period is the gap's label (``_copied_cells``)
        period_end=gap.period_end,
        value=value,
        unit=unit,
        scale=display_scale(value, unit, -scale if scale else None),
        sources=(fact.source,),
        note="model",
    )


async def model_figures(
    gaps: list[Gap],
    items: list[dict[str, Any]],
    question: str,
    item_chars: int,
    context: Context,
    calendars: dict[str, Any],
    terms: Sequence[str] = (),
) -> tuple[list[Cell], list[Gap], list[dict[str, Any]]]:
    """The model copies the figures still missing from the evidence of their company and period; each
    value must be written in the item it cites. Returns (cells, remaining gaps, LLM calls)."""
    relevant = _items_for_the_model(gaps, items, context.evidence_per_period)
    if not relevant:
        return [], gaps, []
    metric_labels = sorted({REPORTED[g.metric].label for g in gaps if g.metric in REPORTED})
    reply, calls = await model_copies(
        relevant,
        question,
        metric_labels,
        [*terms, *query_terms(metric_labels)],
        item_chars,
        context,
        tickers=sorted({i["ticker"] for i in relevant}),
        limit=min(24, 2 * len(gaps) + 2),
        metrics=metric_labels,
    )
    by_label = {i["label"]: i for i in relevant}
    by_metric_label = {REPORTED[g.metric].label: g.metric for g in gaps if g.metric in REPORTED}
    wanted = {(g.ticker, g.period.label): g for g in gaps}  # the model writes periods by their labels
    cells: list[Cell] = []
    filled: set[tuple[str, str, str]] = set()
    for fact in reply.facts:
        source = by_label.get(fact.source)
        metric = by_metric_label.get(fact.metric)
        gap = wanted.get((fact.ticker, fact.period))
        if source is None or metric is None or gap is None or source.get("period_label") != fact.period:
            continue
        if not value_in_text(fact.value, source["text"]) or (fact.ticker, fact.period, metric) in filled:
            continue
        cell = _copied_cell(fact, gap, metric, source, calendars)
        if cell is not None:
            filled.add((fact.ticker, fact.period, metric))
            cells.append(cell)
    remaining = [g for g in gaps if (g.ticker, g.period.label, g.metric) not in filled]
    return cells, remaining, calls


# -- the whole choice, for one answer -----------------------------------------------------------------
@dataclass
class Chosen:
    """The answer's figures: citable items, cells (facts, tables, the model), derivations, what is
    missing and why, the model calls made and warnings (restatements)."""

    items: list[dict[str, Any]]
    cells: list[Cell]
    derivations: list[dict[str, Any]]
    gaps: list[Gap]
    calls: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    item_chars: int = 0


async def choose_cells(
    figures: Sequence[FigureRecord],
    evidence: Sequence[dict[str, Any]],
    targets: Sequence[Target],
    metrics: Sequence[str],
    calendars: dict[str, Any],
    context: Context,
    question: str,
    terms: Sequence[str] = (),
    *,
    extract: bool = True,
) -> Chosen:
    """Every asked (company, period, metric): the XBRL fact, else the statement column of the period,
    else the model's copy (with its scale and period), else a gap with the reason."""
    looked_up = [f for f in figures if f.role != "input"]
    years_in = [f for f in figures if f.role == "input"]
    parts = [p for f in looked_up if isinstance(f, Gap) for p in f.parts]
    items, item_chars = citable_items([*looked_up, *years_in, *parts], evidence, context)
    by_chunk = {i["chunk_id"]: i["label"] for i in items if i.get("chunk_id") is not None}
    by_document = {i["document_id"]: i["label"] for i in items if i.get("chunk_id") is None}
    cells, derivations = cells_from_figures(looked_up, by_chunk, by_document)
    gaps = gaps_of(looked_up, asked_targets(targets), metrics)
    # A period reported only in parts is answered with its parts: no table or model reads one of them
    # as the whole period.
    split = [parts_told(g, by_chunk, by_document) for g in gaps if g.parts]
    gaps = [g for g in gaps if not g.parts]
    chosen = Chosen(items, cells, derivations, gaps, item_chars=item_chars)
    if gaps:
        years, _ = cells_from_figures(years_in, by_chunk, by_document)
        from_tables, chosen.gaps = table_figures(gaps, items, calendars, years)
        chosen.cells += from_tables
        chosen.derivations += [d for c in from_tables if (d := derivation_record(c)) is not None]
    if chosen.gaps and context.ablations.use_calculator and extract:  # a long history: no model call per gap
        extracted, chosen.gaps, chosen.calls = await model_figures(
            chosen.gaps, items, question, item_chars, context, calendars, terms
        )
        chosen.cells += extracted
    chosen.cells, chosen.derivations, insane = withhold_insane_cells(chosen.cells, chosen.derivations)
    chosen.gaps = [*split, *chosen.gaps, *insane]
    chosen.warnings = [f"{g.ticker} {g.period} {_label_of(g.metric)}: {g.reason}" for g in chosen.gaps]
    chosen.warnings += _restated_notes(looked_up)
    return chosen


def _label_of(metric: str) -> str:
    return REPORTED[metric].label.lower() if metric in REPORTED else metric.replace("_", " ")


def _restated_notes(figures: Sequence[FigureRecord]) -> list[str]:
    return [
        f"{record.ticker} {record.period} {record.metric_label.lower()} was restated: "
        f"{restated.original} in {restated.original_filing}, {restated.latest} in "
        f"{restated.latest_filing} (the latest is used)"
        for record in figures
        if isinstance(record, Figure)
        for restated in record.restated
    ]


# -- figures of the passages, for a question the figures lookup does not cover ---------------------
@dataclass
class Read:
    """What was read from the passages before the model writes: items, figures and calculations."""

    items: list[dict[str, Any]]
    item_chars: int
    facts: list[dict[str, Any]] = field(default_factory=list)
    calculations: list[dict[str, Any]] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    rejected: int = 0  # figures the model copied that its cited passage does not hold
    givens: list[str] = field(default_factory=list)  # figures the question itself gives (a share asked about)
    withheld: list[dict[str, Any]] = field(default_factory=list)  # figures failing their sanity check


async def _extract(
    items: list[dict[str, Any]],
    tickers: list[str],
    question: str,
    phrases: list[str],
    terms: list[str],
    item_chars: int,
    context: Context,
    metrics: list[str] | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """Model extraction of labelled figures from the given items, verified against their text."""
    labels = sorted({i["period_label"] for i in items})
    limit = min(
        24, 2 * len(items) + 2, *([len(metrics) * len(labels) * max(1, len(tickers))] if metrics else [])
    )
    reply, calls = await model_copies(
        items,
        question,
        phrases[:6],
        terms,
        item_chars,
        context,
        tickers=tickers,
        limit=limit,
        metrics=metrics,
    )
    by_label = {i["label"]: i for i in items}
    verified, rejected = verify_facts([f.model_dump() | {"method": "model"} for f in reply.facts], by_label)
    return verified, calls, len(rejected)


async def _formula_inputs(
    formulas: list[Formula], items: list[dict[str, Any]], read: Read, plan: Question, context: Context
) -> tuple[dict[tuple[str, str], dict[str, dict[str, Any]]], int]:
    """Line items of the formulas per (ticker, period): statement rows first, then the model copies
    the missing ones (constrained to those line items) from the same periods' evidence."""
    wanted = input_items(formulas)
    inputs = read_line_items(items, wanted, sorted(needs_prior(formulas)))
    groups = {(i.get("ticker") or "", i["period_label"]) for i in items}
    missing = {
        line.input_label for group in groups for line in _uncomputed_lines(formulas, inputs.get(group, {}))
    }
    if not missing:
        return with_prior_years(inputs), 0
    by_label = {line.input_label: line for line in wanted}
    extracted, calls, rejected = await _extract(
        items,
        list(plan.tickers),
        plan.question,
        sorted(missing),
        list(plan.terms),
        read.item_chars,
        context,
        metrics=sorted(missing),
    )
    read.calls += calls
    cited = {i["label"]: i for i in items}
    for fact in extracted:
        line = by_label.get(fact["metric"])
        if line is None:
            continue
        if after_its_report(fact, cited.get(fact["source"])):
            rejected += 1  # a copy for a later year than its report's is no reported figure
            continue
        group = inputs.setdefault((fact["ticker"], fact["period"]), {})
        group.setdefault(line.input, fact | {"line_item": line.input})
    return with_prior_years(inputs), rejected


def _uncomputed_lines(formulas: list[Formula], have: dict[str, Any]) -> list[LineItem]:
    """The line items not read of each metric none of whose formulas can be computed from ``have``
    (a capital-intensity judgement's capex, though the ratios shown beside it could be)."""
    lines: list[LineItem] = []
    for metric in dict.fromkeys(f.metric for f in formulas):
        alternatives = [f for f in formulas if f.metric == metric]
        if any(all(n in have for n in f.inputs) for f in alternatives):
            continue
        lines += [line for line in input_items(alternatives) if line.input not in have and line not in lines]
    return lines


def _merge_facts(facts: list[dict[str, Any]], more: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One figure per company, period, source and value: a year's line read for its own formula and
    again as the next year's opening balance is listed once."""
    merged: dict[tuple[Any, ...], dict[str, Any]] = {}
    for fact in [*facts, *more]:
        merged.setdefault((fact["ticker"], fact["period"], fact["source"], fact["value"]), fact)
    return list(merged.values())


async def read_figures(state: State, context: Context, phrases: list[str], copy: bool = True) -> Read:
    """Figures of the passages: statement rows named by the search phrases, the question's formulas
    (their line items), else the model's copies of what the tables do not state plainly (not when
    ``copy`` is off: an answer quoting the passages states no figure but theirs)."""
    plan = Question.of(state)
    evidence = list(state.get("evidence") or [])
    if plan.narrative:
        evidence = favour_discussion(evidence, NARRATIVE_WORDS)
    formulas = [FORMULAS[i] for i in plan.formulas] if context.ablations.use_calculator else []
    if formulas:
        evidence = favour_line_items(evidence, formulas)
    elif not (plan.narrative or plan.forecast or plan.drivers):
        periods = [str(t["label"]) for t in state.get("targets") or [] if not t.get("companion")]
        evidence = favour_asked_lines(evidence, list(plan.value_line_words), phrases, periods)
    evidence = favour_parts_tables(state, evidence)
    needed = list(plan.statements) if formulas else []
    figures = bool(formulas) or plan.ask.computed
    items, item_chars, left_out = budgeted_evidence(evidence, context, needed, figures)
    read = Read(items, item_chars, warnings=list(left_out))
    filings = [i for i in items if i["kind"] != "news"]
    read.facts = deterministic_facts(filings, phrases)
    rejected = 0
    inputs: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    if formulas:  # a computed metric: its line items are the figures wanted, the calculator does the rest
        inputs, rejected = await _formula_inputs(formulas, filings, read, plan, context)
        read.facts = _merge_facts(
            without_other_readings(read.facts, inputs),
            [f for group in inputs.values() for f in group.values()],
        )
    elif copy and plan.quantities and plan.tickers and not plan.revision:
        # The model copies figures only for named companies of a question that asks a quantity (not
        # the size of a revision: code computes it from the passage that states both figures).
        found = {(f["ticker"], f["period"]) for f in read.facts}
        uncovered = [i for i in filings if (i.get("ticker") or "", i["period_label"]) not in found]
        if uncovered:
            terms = list(plan.terms)
            extracted, calls, rejected = await _extract(
                uncovered, list(plan.tickers), plan.question, phrases, terms, item_chars, context
            )
            read.facts += extracted
            read.calls += calls
    # An insane figure (a total below its line, a year's flow as a quarter's) is no figure or input.
    sane = withhold_insane(
        read.facts, inputs, (figures_of(state), items, plan.calendars), formulas, plan.names
    )
    read.facts, inputs, read.withheld = sane.facts, sane.inputs, sane.withheld
    read.warnings += sane.warnings
    if formulas:
        read.calculations = compute_formulas(formulas, inputs)
        if plan.average:
            read.calculations += mean_over_periods(read.calculations)
        read.calculations += formula_changes(read.calculations)
    read.rejected = rejected
    if rejected:
        read.warnings.append(f"dropped {rejected} extracted figure(s) not written in the cited evidence")
    read.facts = sort_facts(read.facts)
    if context.ablations.use_calculator:
        read.calculations += compute_changes(read.facts)
    return read


# -- the company a question naming none is about ---------------------------------------------------
def best_matching(
    state: State, held: Mapping[str, Collection[tuple[int, int | None]]] | None = None
) -> str | None:
    """The company a question naming none is about: the one whose filings matched it best. The one
    pick of the subject: the choose_subject node weighs it by the periods the store holds (``held``),
    so a figure question is asked again about that company; the evidence writer, answering a
    question no node chose a company for, by the passages alone."""
    evidence = list(state.get("evidence") or [])
    return best_match(evidence, [dict(t) for t in state.get("targets") or []], held)


def about_best_match(state: State) -> tuple[State, str | None]:
    """A question naming no company is answered about the company whose filings matched it best
    (returned, for the answer's note): the evidence of the others (searched across the store) is set
    aside, so the answer does not mix one company's cash with another's."""
    subject = best_matching(state)
    if subject is None:
        return state, None
    kept = [e for e in state.get("evidence") or [] if e.get("ticker") == subject]
    return cast(State, {**state, "evidence": kept}), subject
