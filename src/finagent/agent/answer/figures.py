"""The figures from the XBRL facts: the value of (company, metric, period) for every answer and report.

XBRL facts first (``finance.read.lookup.select``: the concept the company's statements show, the latest
filing unless the original is asked for); the facts node looks them up, ``finagent facts`` reports
them. For an answer, the records become cited cells here, with the items they cite and the gaps
left; ``choose`` then fills the gaps from the statement table's column for the period (``columns``),
else from the model's copy, else reports the figure missing with the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from finagent.agent.answer.wording import display_scale, format_amount
from finagent.agent.answer.writing import budgeted_evidence
from finagent.agent.context import Context
from finagent.agent.evidence import assign_labels
from finagent.agent.state import FactsTask, Target
from finagent.finance.compute.compare import Cell, scale_unit
from finagent.finance.compute.safe_calculator import calculate
from finagent.finance.fact_records import StoredFact
from finagent.finance.line_item import LineItem
from finagent.finance.lines import REPORTED
from finagent.finance.read.derive import missing_reason
from finagent.finance.read.lookup import PeriodWanted, Selection, displayed_concepts, select, split_period
from finagent.finance.read.split_periods import split_reason


# -- figures from the XBRL facts ------------------------------------------------------------------
def _provenance(fact: StoredFact) -> dict[str, Any]:
    """Where a stored fact is printed: the chunk, its document and the filing."""
    return {
        "chunk_id": fact.chunk_id,
        "document_id": fact.document_id,
        "filing": fact.filing_key,
        "form": fact.form,
        "source_uri": fact.source_uri,
        "title": fact.title,
        "page": fact.page,
    }


def _input_record(fact: StoredFact) -> dict[str, Any]:
    return {
        "fact_id": fact.id,
        "value": str(fact.value),
        "period": fact.period_label,
        "duration": fact.duration,
        "period_end": fact.period_end.isoformat(),
        "display": fact.display,
        **_provenance(fact),
    }


def figure_record(
    selection: Selection, ticker: str, role: str, by_id: dict[int, StoredFact] | None = None
) -> dict[str, Any]:
    """A looked-up figure as graph state (plain JSON): value as exact text, period, provenance; a
    derived figure carries its inputs (each cited where it is displayed)."""
    fact = selection.fact
    inputs = [by_id[i] for i in fact.inputs if by_id and i in by_id]
    return {
        "ticker": ticker,
        "metric": selection.metric.name,
        "metric_label": selection.metric.label,
        "period": selection.period.label,
        "fiscal_year": fact.fiscal_year,
        "fiscal_quarter": None if selection.period.annual else fact.fiscal_quarter,
        "duration": fact.duration,
        "period_start": fact.period_start.isoformat() if fact.period_start else None,
        "period_end": fact.period_end.isoformat(),
        "value": str(fact.value),
        "unit": fact.unit,
        "decimals": fact.decimals,
        "display": fact.display,
        "concept": fact.concept,
        "fact_id": fact.id,
        "source": "derived" if fact.derived else "xbrl",
        "derivation": fact.derivation,
        "inputs": [_input_record(f) for f in inputs],
        **_provenance(fact),
        "role": role,
        "restated": [
            {
                "original": str(r.original.value),
                "original_filing": r.original.filing_key,
                "latest": str(r.latest.value),
                "latest_filing": r.latest.filing_key,
                "chunk_id": r.original.chunk_id,
                "document_id": r.original.document_id,
                "latest_chunk_id": r.latest.chunk_id,
                "latest_document_id": r.latest.document_id,
            }
            for r in selection.restatements
        ],
    }


def _gap(
    metric: LineItem, ticker: str, period: PeriodWanted, facts: list[StoredFact], as_reported: bool = False
) -> dict[str, Any]:
    """A target no fact answers, with the reason (a quarter that cannot be derived says so); a period
    the filings report only in parts (stubs) carries the parts, labelled and cited, never one of them
    as the whole."""
    unit = {"per_share": "USD/shares", "shares": "shares"}.get(metric.unit, "USD")
    gap: dict[str, Any] = {
        "ticker": ticker,
        "metric": metric.name,
        "metric_label": metric.label,
        "period": period.label,
        "fiscal_year": period.fiscal_year,
        "fiscal_quarter": period.fiscal_quarter,
        "value": None,
        "role": "target",
        "source": "none",
    }
    split = split_period(facts, metric, period, as_reported=as_reported)
    if split is not None:
        gap["reason"] = split_reason(split.labels, split.complete)
        gap["parts"] = [
            {
                **_input_record(f),
                "ticker": ticker,
                "part": label,
                "period_start": f.period_start.isoformat() if f.period_start else None,
                "concept": f.concept,
                "unit": f.unit,
                "decimals": f.decimals,
            }
            for f, label in zip(split.parts, split.labels, strict=True)
        ]
        gap["complete"] = split.complete
        return gap
    gap["reason"] = missing_reason(
        metric.concepts, unit, metric.instant, period.fiscal_year, period.fiscal_quarter, facts
    )
    return gap


def part_text(part: dict[str, Any], label: str) -> str:
    """ "predecessor Jul 1–Jul 21, 2010: $120 million [10Q1]": a part's label, value and citation."""
    value = Decimal(part["value"])
    unit = _unit_of(part)
    shown = format_amount(value, unit, display_scale(value, unit, part.get("decimals")))
    return f"{part['part']}: {shown}" + (f" [{label}]" if label else "")


def parts_told(gap: dict[str, Any], by_chunk: dict[int, str], by_document: dict[int, str]) -> dict[str, Any]:
    """A split period's gap whose reason names each part with its value and citation."""
    parts = [part_text(p, _label(p, by_chunk, by_document)) for p in gap["parts"]]
    return {**gap, "reason": split_reason(parts, bool(gap.get("complete")))}


def figure_for(
    facts: Sequence[StoredFact],
    ticker: str,
    metric: LineItem,
    period: PeriodWanted,
    *,
    as_reported: bool = False,
    displayed: set[str] | None = None,
    role: str = "target",
) -> dict[str, Any] | None:
    """The figure of (company, metric, period) from the company's XBRL facts: the fact ``select``
    chooses, with its filing, the chunk printing it and any restatement; a target no fact states is
    a gap with the reason (a quarter that cannot be derived says so); a comparative is None."""
    shown = displayed if displayed is not None else displayed_concepts(facts, metric)
    chosen = select(facts, metric, period, as_reported=as_reported, displayed=shown)
    if chosen is not None:
        return figure_record(chosen, ticker, role, {f.id: f for f in facts})
    return _gap(metric, ticker, period, list(facts), as_reported) if role == "target" else None


def lookup(facts: list[StoredFact], task: FactsTask) -> list[dict[str, Any]]:
    """Figures (and gaps) for one task from one company's facts: the target period and the comparative
    periods its comparisons need."""
    target = PeriodWanted(task["fiscal_year"], task.get("fiscal_quarter"))
    periods: list[tuple[PeriodWanted, str]] = [(target, "target")]
    if "prior_year" in task["comparatives"]:
        periods.append((target.prior_year(), "comparative"))
    prior_quarter = target.prior_quarter()
    if "prior_quarter" in task["comparatives"] and prior_quarter is not None:
        periods.append((prior_quarter, "comparative"))
    out: list[dict[str, Any]] = []
    for name in task["metrics"]:
        metric = REPORTED.get(name)
        if metric is None:
            continue
        shown = displayed_concepts(facts, metric)
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
            if record is not None and record["value"] is None and _q4_of_money_flow(metric, period):
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


# -- cells of the answer ---------------------------------------------------------------------------
def iso_date(text: Any) -> date | None:
    try:
        return date.fromisoformat(str(text)[:10]) if text else None
    except ValueError:
        return None


def _unit_of(record: dict[str, Any]) -> str:
    unit = str(record.get("unit") or "USD")
    return "USD/shares" if "/" in unit else unit


def cells_from_figures(
    figures: Sequence[dict[str, Any]], label_for_chunk: dict[int, str], label_for_document: dict[int, str]
) -> tuple[list[Cell], list[dict[str, Any]]]:
    """Cells from looked-up figures (with citation labels), and the derivations as calculator records."""
    cells: list[Cell] = []
    seen: set[tuple[str, str, str, str]] = set()
    for record in figures:
        if record.get("value") is None:
            continue
        key = (record["ticker"], record["metric"], record["period"], record.get("role", "target"))
        if key in seen:
            continue
        seen.add(key)
        value = Decimal(record["value"])
        unit = _unit_of(record)
        scale = display_scale(value, unit, record.get("decimals"))
        inputs = record.get("inputs") or []
        operands: tuple[Decimal, ...] = ()
        if record.get("source") == "derived" and inputs:
            sources = tuple(_label(i, label_for_chunk, label_for_document) for i in inputs)
            operands = tuple(Decimal(i["value"]) for i in inputs)
        else:
            sources = (_label(record, label_for_chunk, label_for_document),)
        cells.append(
            Cell(
                ticker=record["ticker"],
                metric=record["metric"],
                period=record["period"],
                fiscal_year=int(record["fiscal_year"]),
                fiscal_quarter=record.get("fiscal_quarter"),
                period_end=iso_date(record.get("period_end")),
                value=value,
                unit=unit,
                scale=scale,
                sources=tuple(s for s in sources if s),
                role=record.get("role", "target"),
                derived=record.get("source") == "derived",
                note=str(record.get("source") or "xbrl"),
                inputs=operands,
            )
        )
    return cells, [d for c in cells if (d := derivation_record(c)) is not None]


def derivation_record(cell: Cell) -> dict[str, Any] | None:
    """A derived figure (Q4 = FY − nine months, or FY − its three quarters) as the calculator call that
    computed it, with its inputs in the units they are printed in, so the figures check can trace it."""
    if not cell.derived or len(cell.inputs) not in (2, 4):
        return None
    shown = [v.scaleb(-cell.scale) if cell.scale else v for v in cell.inputs]
    if len(shown) == 2:
        expression, derivation = f"diff({_plain(shown[0])}, {_plain(shown[1])})", "fy_minus_9m"
    else:
        expression, derivation = " - ".join(_plain(v) for v in shown), "fy_minus_quarters"
    result = calculate(expression)
    if not result.ok or result.result is None:
        return None
    return {
        "kind": "derived",
        "ticker": cell.ticker,
        "metric": cell.metric,
        "period": cell.period,
        "expression": result.expression,
        "result": result.result,
        "result_text": f"{cell.shown:,}",
        "sources": list(cell.sources),
        "unit": scale_unit(cell.scale),
        "derivation": derivation if cell.fiscal_quarter == 4 else "ytd_difference",
    }


def _plain(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return f"({text})" if value < 0 else text


def _label(record: dict[str, Any], by_chunk: dict[int, str], by_document: dict[int, str]) -> str:
    chunk = record.get("chunk_id")
    if chunk is not None and chunk in by_chunk:
        return by_chunk[chunk]
    return by_document.get(record.get("document_id") or -1, "")


def filing_items(figures: Sequence[dict[str, Any]], have_chunks: set[int]) -> list[dict[str, Any]]:
    """Citable items for figures whose number is displayed in no stored text (XBRL instance
    documents): the filing itself is cited, with its form and period."""
    items: dict[int, dict[str, Any]] = {}
    restated = [
        {
            "document_id": r.get("document_id"),
            "chunk_id": r.get("chunk_id"),
            "filing": r.get("original_filing"),
            "form": (r.get("original_filing") or "||").split("|")[1],
            "ticker": f.get("ticker"),
        }
        for f in figures
        for r in f.get("restated") or []
    ]
    for record in [*figures, *(i for f in figures for i in f.get("inputs") or []), *restated]:
        document = record.get("document_id")
        if document is None or (record.get("chunk_id") in have_chunks) or document in items:
            continue
        form = str(record.get("form") or "10-K").upper()
        kind = "10-Q" if form.startswith("10-Q") else "10-K" if form.startswith("10-K") else "other"
        items[document] = {
            "chunk_id": None,
            "document_id": document,
            "ticker": record.get("ticker") or (record.get("filing") or "").split("|")[0] or None,
            "kind": kind,
            "period_label": (record.get("filing") or "").split("|")[-1],
            "period_end": (record.get("filing") or "").split("|")[-1] or None,
            "title": record.get("title"),
            "source_uri": record.get("source_uri"),
            "section": "XBRL",
            "section_title": _facts_source(record.get("source_uri")),
            "page": None,
            "text": f"XBRL facts of {record.get('title') or record.get('filing')}",
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


def gaps_of(
    figures: Sequence[dict[str, Any]], targets: Sequence[Target], metrics: Sequence[str]
) -> list[dict[str, Any]]:
    """(ticker, period, metric) the facts did not answer, with the reason when one is known (and the
    parts of a period the filings report only in parts)."""
    found = {(f["ticker"], f["period"], f["metric"]) for f in figures if f.get("value") is not None}
    missing = {(f["ticker"], f["period"], f["metric"]): f for f in figures if f.get("value") is None}
    gaps = []
    for target in targets:
        for metric in metrics:
            key = (target["ticker"], target["label"], metric)
            if key in found:
                continue
            record = missing.get(key) or {}
            reason = record.get("reason") or "no reported figure in the store"
            gap = {**target, "metric": metric, "reason": reason}
            if record.get("parts"):
                gap["parts"], gap["complete"] = record["parts"], record.get("complete")
            gaps.append(gap)
    return gaps


def citable_items(
    figures: Sequence[dict[str, Any]], evidence: Sequence[dict[str, Any]], context: Context
) -> tuple[list[dict[str, Any]], int]:
    """Labelled items: the chunks displaying the figures first, the filings of figures no text
    displays, then every retrieved chunk (the best per period first: what the model would read)."""
    shown = {f.get("chunk_id") for f in figures} | {
        i.get("chunk_id") for f in figures for i in [*(f.get("inputs") or []), *(f.get("restated") or [])]
    }
    fact_items = [e for e in evidence if e["chunk_id"] in shown]
    rest = [e for e in evidence if e["chunk_id"] not in shown]
    others, item_chars, _ = budgeted_evidence(rest, context)
    chosen = {e["chunk_id"] for e in others}
    others += sorted((e for e in rest if e["chunk_id"] not in chosen), key=lambda e: -float(e["fused_score"]))
    items = assign_labels(
        [
            *fact_items,
            *filing_items(figures, {e["chunk_id"] for e in fact_items}),
            *[{k: v for k, v in i.items() if k != "label"} for i in others],
        ]
    )
    return items, item_chars
