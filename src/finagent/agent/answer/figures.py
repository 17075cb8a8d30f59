"""The figures from the XBRL facts: the value of (company, metric, period) for every answer and report.

XBRL facts first (``finance.read.lookup.select``: the concept the company's statements show, the latest
filing unless the original is asked for); the facts node looks them up, ``finagent facts`` reports
them. For an answer, the records become cited cells here, with the items they cite and the gaps
left; ``choose`` then fills the gaps from the statement table's column for the period (``columns``),
else from the model's copy, else reports the figure missing with the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

from finagent.agent.answer.wording import display_scale, format_amount
from finagent.agent.answer.writing import budgeted_evidence
from finagent.agent.context import Context
from finagent.agent.evidence import assign_labels
from finagent.agent.state import FactsTask, State, Target
from finagent.finance.compute.compare import Cell, scale_unit
from finagent.finance.compute.safe_calculator import calculate
from finagent.finance.fact_records import StoredFact
from finagent.finance.line_item import LineItem
from finagent.finance.lines import REPORTED
from finagent.finance.looked_up import (
    CitedFact,
    Figure,
    FigureRecord,
    Gap,
    Part,
    Provenance,
    Restatement,
    Role,
    record_from_dict,
)
from finagent.finance.periods.period import FiscalPeriod, Span, year_to_date
from finagent.finance.read.derive import missing_reason, span_missing_reason
from finagent.finance.read.line_choice import Shown
from finagent.finance.read.lookup import (
    SUM_OF_QUARTERS,
    PeriodWanted,
    Selection,
    displayed_concepts,
    select,
    split_period,
)
from finagent.finance.read.sec_company_facts import form_kind
from finagent.finance.read.split_periods import split_reason


# -- figures from the XBRL facts ------------------------------------------------------------------
def _provenance(fact: StoredFact) -> Provenance:
    """Where a stored fact is printed: the chunk, its document and the filing."""
    return Provenance(
        chunk_id=fact.chunk_id,
        document_id=fact.document_id,
        filing=fact.filing_key,
        form=fact.form,
        source_uri=fact.source_uri,
        title=fact.title,
        page=fact.page,
    )


def _value(fact: StoredFact) -> Decimal:
    """A looked-up fact's exact value (the lookup reads only facts that state one)."""
    if fact.value is None:
        raise ValueError(f"fact {fact.id} states no value")
    return fact.value


def _input_record(fact: StoredFact) -> CitedFact:
    return CitedFact(
        fact_id=fact.id,
        value=_value(fact),
        period=fact.period_label,
        duration=fact.duration,
        period_end=fact.period_end,
        display=fact.display,
        provenance=_provenance(fact),
    )


def _restatement(original: StoredFact, latest: StoredFact) -> Restatement:
    return Restatement(
        original=_value(original),
        original_filing=original.filing_key,
        latest=_value(latest),
        latest_filing=latest.filing_key,
        original_chunk_id=original.chunk_id,
        original_document_id=original.document_id,
        latest_chunk_id=latest.chunk_id,
        latest_document_id=latest.document_id,
    )


def figure_record(
    selection: Selection, ticker: str, role: Role, by_id: dict[int, StoredFact] | None = None
) -> Figure:
    """A looked-up figure: its exact value, period and provenance; a derived figure carries its inputs
    (each cited where it is displayed)."""
    fact = selection.fact
    inputs = [by_id[i] for i in fact.inputs if by_id and i in by_id]
    return Figure(
        ticker=ticker,
        metric=selection.metric.name,
        metric_label=selection.metric.label,
        period=selection.period.fiscal_period,
        duration=fact.duration,
        period_start=fact.period_start,
        period_end=fact.period_end,
        value=_value(fact),
        unit=fact.unit,
        decimals=fact.decimals,
        display=fact.display,
        concept=fact.concept,
        fact_id=fact.id,
        source="derived" if fact.derived else "xbrl",
        derivation=fact.derivation,
        inputs=tuple(_input_record(f) for f in inputs),
        provenance=_provenance(fact),
        role=role,
        restated=tuple(_restatement(r.original, r.latest) for r in selection.restatements),
        line=selection.line,
    )


def _part(fact: StoredFact, ticker: str, label: str) -> Part:
    return Part.of(
        _input_record(fact),
        ticker=ticker,
        label=label,
        period_start=fact.period_start,
        concept=fact.concept,
        unit=fact.unit,
        decimals=fact.decimals,
    )


def _gap(
    metric: LineItem, ticker: str, period: PeriodWanted, facts: list[StoredFact], as_reported: bool = False
) -> Gap:
    """A target no fact answers, with the reason (a quarter that cannot be derived says so); a period
    the filings report only in parts (stubs) carries the parts, labelled and cited, never one of them
    as the whole."""
    split = split_period(facts, metric, period, as_reported=as_reported)
    parts: tuple[Part, ...] = ()
    if split is not None:
        reason = split_reason(split.labels, split.complete)
        parts = tuple(_part(f, ticker, label) for f, label in zip(split.parts, split.labels, strict=True))
    else:
        unit = {"per_share": "USD/shares", "shares": "shares"}.get(metric.unit, "USD")
        quarter = period.fiscal_quarter
        reason = (
            span_missing_reason(period.label, metric.unit == "money")
            if period.span
            else missing_reason(
                metric.read_concepts, unit, metric.instant, period.fiscal_year, quarter, facts
            )
        )
    return Gap(
        ticker=ticker,
        metric=metric.name,
        metric_label=metric.label,
        period=period.fiscal_period,
        reason=reason,
        parts=parts,
        complete=split is not None and split.complete,
    )


def part_text(part: Part, label: str) -> str:
    """ "predecessor Jul 1–Jul 21, 2010: $120 million [10Q1]": a part's label, value and citation."""
    unit = _unit_of(part.unit)
    shown = format_amount(part.value, unit, display_scale(part.value, unit, part.decimals))
    return f"{part.label}: {shown}" + (f" [{label}]" if label else "")


def parts_told(gap: Gap, by_chunk: dict[int, str], by_document: dict[int, str]) -> Gap:
    """A split period's gap whose reason names each part with its value and citation."""
    parts = [part_text(p, _label(p.provenance, by_chunk, by_document)) for p in gap.parts]
    return replace(gap, reason=split_reason(parts, gap.complete))


def figure_for(
    facts: Sequence[StoredFact],
    ticker: str,
    metric: LineItem,
    period: PeriodWanted,
    *,
    as_reported: bool = False,
    displayed: Shown | None = None,
    role: Role = "target",
) -> FigureRecord | None:
    """The figure of (company, metric, period) from the company's XBRL facts: the fact ``select``
    chooses, with its filing, the chunk printing it and any restatement; a target no fact states is
    a gap with the reason (a quarter that cannot be derived says so); a comparative is None."""
    shown = displayed if displayed is not None else displayed_concepts(facts, metric)
    chosen = select(facts, metric, period, as_reported=as_reported, displayed=shown)
    if chosen is not None:
        return figure_record(chosen, ticker, role, {f.id: f for f in facts})
    return _gap(metric, ticker, period, list(facts), as_reported) if role == "target" else None


def lookup(facts: list[StoredFact], task: FactsTask) -> list[FigureRecord]:
    """Figures (and gaps) for one task from one company's facts: the target period and the comparative
    periods its comparisons need."""
    target = PeriodWanted(task["fiscal_year"], task.get("fiscal_quarter"), task.get("span"))
    periods: list[tuple[PeriodWanted, Role]] = [(target, "target")]
    if "prior_year" in task["comparatives"]:
        periods.append((target.prior_year(), "comparative"))
    prior_quarter = target.prior_quarter()
    if "prior_quarter" in task["comparatives"] and prior_quarter is not None:
        periods.append((prior_quarter, "comparative"))
    out: list[FigureRecord] = []
    for name in task["metrics"]:
        metric = REPORTED.get(name)
        if metric is None:
            continue
        shown = displayed_concepts(facts, metric, task.get("words") or ())
        for period, role in periods:
            record = figure_for(
                facts,
                task["ticker"],
                metric,
                period,
                as_reported=task["as_reported"],
                displayed=shown,
                role=role,
            )
            if record is not None:
                out.append(record)
            if isinstance(record, Gap) and _q4_of_money_flow(metric, period):
                # The year, for a Q4 the tables may complete (year − the Q3 10-Q's nine months).
                year = figure_for(
                    facts,
                    task["ticker"],
                    metric,
                    PeriodWanted(period.fiscal_year),
                    displayed=shown,
                    role="input",
                )
                if year is not None:
                    out.append(year)
    return out


def _q4_of_money_flow(metric: LineItem, period: PeriodWanted) -> bool:
    return period.fiscal_quarter == 4 and metric.unit == "money" and not metric.instant


def figures_of(state: State) -> list[FigureRecord]:
    """The looked-up figures and gaps in a graph state, typed (the state carries their JSON form)."""
    return [record_from_dict(f) for f in state.get("figures") or []]


# -- cells of the answer ---------------------------------------------------------------------------
def iso_date(text: Any) -> date | None:
    try:
        return date.fromisoformat(str(text)[:10]) if text else None
    except ValueError:
        return None


def _unit_of(unit: str | None) -> str:
    shown = str(unit or "USD")
    return "USD/shares" if "/" in shown else shown


def cells_from_figures(
    figures: Sequence[FigureRecord], label_for_chunk: dict[int, str], label_for_document: dict[int, str]
) -> tuple[list[Cell], list[dict[str, Any]]]:
    """Cells from looked-up figures (with citation labels), and the derivations as calculator records."""
    cells: list[Cell] = []
    seen: set[tuple[str, str, FiscalPeriod, str]] = set()
    for record in figures:
        if isinstance(record, Gap):
            continue
        key = (record.ticker, record.metric, record.period, record.role)
        if key in seen:
            continue
        seen.add(key)
        unit = _unit_of(record.unit)
        scale = display_scale(record.value, unit, record.decimals)
        operands: tuple[Decimal, ...] = ()
        if record.derived and record.inputs:
            sources = tuple(_label(i.provenance, label_for_chunk, label_for_document) for i in record.inputs)
            operands = tuple(i.value for i in record.inputs)
        else:
            sources = (_label(record.provenance, label_for_chunk, label_for_document),)
        cells.append(
            Cell(
                ticker=record.ticker,
                metric=record.metric,
                period=record.period,
                period_end=record.period_end,
                value=record.value,
                unit=unit,
                scale=scale,
                sources=tuple(s for s in sources if s),
                role=record.role,
                derived=record.derived,
                note=record.source,
                inputs=operands,
            )
        )
    return cells, [d for c in cells if (d := derivation_record(c)) is not None]


def derivation_record(cell: Cell) -> dict[str, Any] | None:
    """A derived figure (Q4 = FY − nine months, or FY − its three quarters) as the calculator call that
    computed it, with its inputs in the units they are printed in, so the figures check can trace it."""
    if not cell.derived or len(cell.inputs) not in (2, 3, 4):
        return None
    shown = [v.scaleb(-cell.scale) if cell.scale else v for v in cell.inputs]
    summed = year_to_date(cell.period) is not None
    if summed:
        expression, derivation = " + ".join(_plain(v) for v in shown), SUM_OF_QUARTERS
    elif len(shown) == 2:
        expression, derivation = f"diff({_plain(shown[0])}, {_plain(shown[1])})", "fy_minus_9m"
    elif len(shown) == 3:
        return None
    else:
        expression, derivation = " - ".join(_plain(v) for v in shown), "fy_minus_quarters"
    result = calculate(expression)
    if not result.ok or result.result is None:
        return None
    return {
        "kind": "derived",
        "ticker": cell.ticker,
        "metric": cell.metric,
        "period": cell.period.label,
        "expression": result.expression,
        "result": result.result,
        "result_text": f"{cell.shown:,}",
        "sources": list(cell.sources),
        "unit": scale_unit(cell.scale),
        "derivation": derivation if cell.fiscal_quarter == 4 or summed else "ytd_difference",
    }


def _plain(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return f"({text})" if value < 0 else text


def _label(place: Provenance, by_chunk: dict[int, str], by_document: dict[int, str]) -> str:
    chunk = place.chunk_id
    if chunk is not None and chunk in by_chunk:
        return by_chunk[chunk]
    return by_document.get(place.document_id or -1, "")


def printed_at(records: Sequence[FigureRecord | Part]) -> list[tuple[str | None, Provenance]]:
    """Every place the records' numbers are printed, with the company when the record names it: the
    figures (and parts) themselves, then their inputs, then the filings that first reported a
    restated value."""
    figures = [r for r in records if isinstance(r, Figure)]
    return [
        *((r.ticker, r.provenance) for r in records if not isinstance(r, Gap)),
        *((None, i.provenance) for f in figures for i in f.inputs),
        *((f.ticker, r.original_place) for f in figures for r in f.restated),
    ]


def filing_items(records: Sequence[FigureRecord | Part], have_chunks: set[int]) -> list[dict[str, Any]]:
    """Citable items for figures whose number is displayed in no stored text (XBRL instance
    documents): the filing itself is cited, with its form and period."""
    items: dict[int, dict[str, Any]] = {}
    for ticker, place in printed_at(records):
        document = place.document_id
        if document is None or (place.chunk_id in have_chunks) or document in items:
            continue
        form = str(place.form or "10-K").upper()
        kind = form_kind(form)
        items[document] = {
            "chunk_id": None,
            "document_id": document,
            "ticker": ticker or place.filing.split("|")[0] or None,
            "kind": kind,
            "period_label": place.filing.split("|")[-1],
            "period_end": place.filing.split("|")[-1] or None,
            "title": place.title,
            "source_uri": place.source_uri,
            "section": "XBRL",
            "section_title": _facts_source(place.source_uri),
            "page": None,
            "text": f"XBRL facts of {place.title or place.filing}",
            "fused_score": 0.0,
        }
    return list(items.values())


def _facts_source(source_uri: object) -> str:
    """What a figure with no text chunk was read from: SEC's company facts (an EDGAR filing folder) or
    the filing's own XBRL (an instance document or its iXBRL tags)."""
    if str(source_uri or "").startswith("https://www.sec.gov/Archives/edgar/data/"):
        return "SEC company facts"
    return "XBRL facts"


def asked_targets(targets: Sequence[Target]) -> list[Target]:
    """Target periods the answer reports: a Q4's companion fiscal year (searched for its text) is not
    itself a period the question asked about."""
    return [
        t for t in targets if t.get("ticker") and t.get("fiscal_year") is not None and not t.get("companion")
    ]


def target_period(target: Target) -> FiscalPeriod:
    """The period a target asks for: its six or nine months when it names a span, else its quarter
    or year."""
    span = target.get("span")
    if span:
        return FiscalPeriod(target["fiscal_year"], Span(span))
    return FiscalPeriod.of(target["fiscal_year"], target.get("fiscal_quarter"))


def gaps_of(figures: Sequence[FigureRecord], targets: Sequence[Target], metrics: Sequence[str]) -> list[Gap]:
    """(ticker, period, metric) the facts did not answer, with the reason when one is known (and the
    parts of a period the filings report only in parts)."""
    found = {(f.ticker, f.period, f.metric) for f in figures if isinstance(f, Figure)}
    missing = {(f.ticker, f.period, f.metric): f for f in figures if isinstance(f, Gap)}
    gaps = []
    for target in targets:
        for metric in metrics:
            period = target_period(target)
            key = (target["ticker"], period, metric)
            if key in found:
                continue
            record = missing.get(key)
            gaps.append(
                Gap(
                    ticker=target["ticker"],
                    metric=metric,
                    period=period,
                    reason=(record.reason if record else "") or "no reported figure in the store",
                    metric_label=record.metric_label if record else "",
                    parts=record.parts if record else (),
                    complete=record.complete if record else False,
                    period_end=iso_date(target.get("period_end")),
                )
            )
    return gaps


def citable_items(
    records: Sequence[FigureRecord | Part], evidence: Sequence[dict[str, Any]], context: Context
) -> tuple[list[dict[str, Any]], int]:
    """Labelled items: the chunks displaying the figures first, the filings of figures no text
    displays, then every retrieved chunk (the best per period first: what the model would read)."""
    shown = {place.chunk_id for _, place in printed_at(records)}
    fact_items = [e for e in evidence if e["chunk_id"] in shown]
    rest = [e for e in evidence if e["chunk_id"] not in shown]
    others, item_chars, _ = budgeted_evidence(rest, context)
    chosen = {e["chunk_id"] for e in others}
    others += sorted((e for e in rest if e["chunk_id"] not in chosen), key=lambda e: -float(e["fused_score"]))
    items = assign_labels(
        [
            *fact_items,
            *filing_items(records, {e["chunk_id"] for e in fact_items}),
            *[{k: v for k, v in i.items() if k != "label"} for i in others],
        ]
    )
    return items, item_chars
