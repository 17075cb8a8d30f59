"""One figure, one choice: the value of (company, metric, period) for every answer and report.

XBRL facts first (``finance.lookup.select``: the concept the company's statements show, the latest
filing unless the original is asked for), then the statement table's column for the period, else the
model (which must cite the evidence item and column it copied, with the scale it is printed in),
else the figure is reported missing with the reason.

A table is read by period, never by position: the column whose header names the target period, or
nothing (fail closed).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from finagent.agent.answer.wording import display_scale, format_amount
from finagent.agent.answer.writing import budgeted_evidence
from finagent.agent.context import Context
from finagent.agent.evidence import assign_labels, format_evidence, query_terms
from finagent.agent.prompts import render
from finagent.agent.resources import get_resources
from finagent.agent.schemas import Facts, facts_schema
from finagent.agent.state import FactsTask, Target
from finagent.finance.calculator import calculate
from finagent.finance.compare import Cell, scale_unit
from finagent.finance.derive import missing_reason
from finagent.finance.facts import DurationClass, FiscalCalendar, StoredFact
from finagent.finance.figures.text import value_in_text
from finagent.finance.figures.verify import table_known
from finagent.finance.figures.written import scan_figures
from finagent.finance.filing_sections import AFTER_SIGNATURES
from finagent.finance.lookup import PeriodWanted, Selection, displayed_concepts, select, split_period
from finagent.finance.metrics import BY_NAME, Metric
from finagent.finance.split_periods import split_reason
from finagent.finance.tables import stated_scale
from finagent.finance.words import UNIT_EXPONENTS
from finagent.llm.structured import structured_call


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
    metric: Metric, ticker: str, period: PeriodWanted, facts: list[StoredFact], as_reported: bool = False
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


def _parts_told(gap: dict[str, Any], by_chunk: dict[int, str], by_document: dict[int, str]) -> dict[str, Any]:
    """A split period's gap whose reason names each part with its value and citation."""
    parts = [part_text(p, _label(p, by_chunk, by_document)) for p in gap["parts"]]
    return {**gap, "reason": split_reason(parts, bool(gap.get("complete")))}


def figure_for(
    facts: Sequence[StoredFact],
    ticker: str,
    metric: Metric,
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
        metric = BY_NAME.get(name)
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


def _q4_of_money_flow(metric: Metric, period: PeriodWanted) -> bool:
    return period.fiscal_quarter == 4 and metric.unit == "money" and not metric.instant


# -- cells of the answer ---------------------------------------------------------------------------
def _date(text: Any) -> date | None:
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
                period_end=_date(record.get("period_end")),
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


_STATEMENT_KINDS = ("10-Q", "10-K", "annual_report", "earnings_release", "8-K")


# A balance is never read from a statement of flows ("Trade receivables | 140" in the cash flow
# statement is the year's change), nor a flow from a balance sheet.
_OTHER_KIND = {"instant": ("income_statement", "cash_flow"), "duration": ("balance_sheet",)}


def calendar_of(calendars: dict[str, Any], ticker: str) -> FiscalCalendar:
    fye, offset = (calendars.get(ticker) or [None, None])[:2]
    return FiscalCalendar(int(fye or 12), int(offset or 0))


def _unit_fits(unit: str | None, wanted: str) -> bool:
    """A money metric is an amount, never a percent of revenue ("Revenue | 100%" in a margin table)."""
    if unit == "percent":
        return False
    if wanted == "per_share":
        return unit is None or unit.endswith("share")
    return unit in (None, "USD") if wanted == "money" else unit in (None, "shares")


def _form(item: dict[str, Any]) -> str | None:
    """The report form a table comes from: bare-year columns of a 10-K are fiscal years."""
    return "10-K" if item.get("kind") in ("10-K", "annual_report") else item.get("kind")


def _cell(
    gap: dict[str, Any],
    period: str,
    quarter: int | None,
    year: int,
    cell: Any,
    item: dict[str, Any],
    role: str,
) -> Cell:
    """A figure read from a statement table cell, cited to the chunk holding the table."""
    value = cell.base_value if cell.base_value is not None else cell.value
    if BY_NAME[gap["metric"]].outflow:  # "(1,577)" in the cash flow statement: $1,577 spent
        value = abs(value)
    unit = "USD/shares" if (cell.unit or "").endswith("share") else cell.unit or "USD"
    end = cell.period.end if cell.period.end else (_date(gap.get("period_end")) if role == "target" else None)
    return Cell(
        ticker=gap["ticker"],
        metric=gap["metric"],
        period=period,
        fiscal_year=year,
        fiscal_quarter=quarter,
        period_end=end,
        value=value,
        unit=unit,
        scale=cell.scale if unit == "USD" else 0,
        sources=(item["label"],),
        role=role,
        note="table",
    )


def table_figures(
    gaps: list[dict[str, Any]],
    items: list[dict[str, Any]],
    calendars: dict[str, Any],
    years: Sequence[Cell] = (),
) -> tuple[list[Cell], list[dict[str, Any]]]:
    """Cells read from statement tables for the gaps they answer; the gaps that remain."""
    from finagent.finance.tables import PeriodTarget, cell_for, find_row, parse_table

    cells: list[Cell] = []
    remaining: list[dict[str, Any]] = []
    for gap in gaps:
        metric = BY_NAME.get(gap["metric"])
        if metric is None:
            remaining.append(gap)
            continue
        calendar = calendar_of(calendars, gap["ticker"])
        duration: DurationClass = (
            "instant" if metric.instant else ("year" if gap.get("fiscal_quarter") is None else "quarter")
        )
        target = PeriodTarget(
            fiscal_year=int(gap["fiscal_year"]),
            fiscal_quarter=gap.get("fiscal_quarter"),
            duration=duration,
            end=_date(gap.get("period_end")),
        )
        candidates = [
            i
            for i in items
            if i.get("ticker") == gap["ticker"]
            and i.get("kind") in _STATEMENT_KINDS
            and "|" in (i.get("text") or "")
            and i.get("statement") not in _OTHER_KIND[metric.kind]
        ]
        # the report's own statements before those filed after its signatures (an investee's)
        candidates.sort(
            key=lambda i: (
                i.get("statement") != metric.statement,
                i.get("section") == AFTER_SIGNATURES,
                -float(i.get("fused_score") or 0),
            )
        )
        found = None
        for item in candidates:
            table = parse_table(item["text"], form=_form(item))
            if table is None:
                continue
            row = find_row(table, metric.rows)
            if row is None:
                continue
            cell = cell_for(table, row, target, calendar)
            if cell is not None and _unit_fits(cell.unit, metric.unit):
                found = (item, table, row, cell)
                break
        if found is None:
            year_fact = next(
                (
                    y
                    for y in years
                    if (y.ticker, y.metric, y.fiscal_year)
                    == (gap["ticker"], gap["metric"], target.fiscal_year)
                ),
                None,
            )
            derived = _q4_from_tables(gap, metric, target, candidates, calendar, year_fact)
            if derived is None:
                remaining.append(gap)
            else:
                cells.append(derived)
            continue
        item, table, row, cell = found
        cells.append(
            _cell(gap, gap["label"], gap.get("fiscal_quarter"), int(gap["fiscal_year"]), cell, item, "target")
        )
        # The same period a year earlier, from the comparative column of the same table (YoY).
        prior = PeriodTarget(target.fiscal_year - 1, target.fiscal_quarter, target.duration)
        earlier = cell_for(table, row, prior, calendar)
        if earlier is not None:
            label = prior.label
            cells.append(
                _cell(gap, label, prior.fiscal_quarter, prior.fiscal_year, earlier, item, "comparative")
            )
    return cells, remaining


def _read(
    items: list[dict[str, Any]], metric: Any, target: Any, calendar: FiscalCalendar, kinds: tuple[str, ...]
) -> tuple[dict[str, Any], Any] | None:
    """The first (item, cell) among ``items`` of ``kinds`` whose table states ``metric`` for ``target``."""
    from finagent.finance.tables import cell_for, find_row, parse_table

    for item in items:
        if item.get("kind") not in kinds:
            continue
        table = parse_table(item["text"], form=_form(item))
        row = find_row(table, metric.rows) if table is not None else None
        cell = cell_for(table, row, target, calendar) if table is not None and row is not None else None
        if cell is not None and _unit_fits(cell.unit, metric.unit) and cell.base_value is not None:
            return item, cell
    return None


def _q4_from_tables(
    gap: dict[str, Any],
    metric: Any,
    target: Any,
    items: list[dict[str, Any]],
    calendar: FiscalCalendar,
    year_fact: Cell | None = None,
) -> Cell | None:
    """Q4 = the fiscal year (10-K table) − the nine months to Q3 (the Q3 10-Q's year-to-date column),
    for money flows only; both inputs read by their periods and cited."""
    from finagent.finance.derive import not_derivable
    from finagent.finance.tables import PeriodTarget

    if target.fiscal_quarter != 4 or not_derivable(
        "USD" if metric.unit == "money" else "USD/shares", "quarter"
    ):
        return None
    nine = _read(items, metric, PeriodTarget(target.fiscal_year, 3, "nine_months"), calendar, ("10-Q",))
    if nine is None:
        return None
    nine_item, nine_cell = nine
    year = _read(
        items, metric, PeriodTarget(target.fiscal_year, None, "year"), calendar, ("10-K", "annual_report")
    )
    if year is not None:
        year_value, year_scale = year[1].base_value, year[1].scale
        year_source, year_end = year[0]["label"], year[1].period.end
    elif year_fact is not None and year_fact.sources:  # the year from an XBRL fact (a 10-K comparative)
        year_value, year_scale = year_fact.value, year_fact.scale
        year_source, year_end = year_fact.sources[0], year_fact.period_end
    else:
        return None
    nine_value = nine_cell.base_value
    if metric.outflow:  # payments are read as amounts paid, like their XBRL facts
        year_value, nine_value = abs(year_value), abs(nine_value)
    return Cell(
        ticker=gap["ticker"],
        metric=gap["metric"],
        period=gap["label"],
        fiscal_year=int(gap["fiscal_year"]),
        fiscal_quarter=4,
        period_end=year_end or _date(gap.get("period_end")),
        value=year_value - nine_value,
        unit="USD",
        scale=year_scale,
        sources=(year_source, nine_item["label"]),
        derived=True,
        note="derived",
        inputs=(year_value, nine_value),
    )


_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def _in_its_column(
    item: dict[str, Any],
    value: Decimal,
    period: str,
    fiscal_year: int,
    calendars: dict[str, Any],
    quarter: int | None = None,
) -> bool:
    """A value the model copied from a table must sit in the column of the period it claims (a copy from
    the comparative column, or a "100%" of a margin table, is refused); prose cannot be checked so.

    A table whose columns name no period is dated by its caption: "For the Year Ended December 29,
    2018" over a consolidating table does not state fiscal 2019."""
    known = table_known([item], calendars)
    if not known:
        caption = (item.get("text") or "").split("\n", 1)[0]
        years = {int(y) for y in _YEAR.findall(caption)} if "|" in (item.get("text") or "") else set()
        # a fiscal year ends in its own calendar year or early in the next; a quarter may end in the
        # calendar year before its fiscal year (Apple's Q1 FY2023 ended December 31, 2022)
        allowed = {fiscal_year, fiscal_year + 1} | ({fiscal_year - 1} if quarter else set())
        return not years or bool(years & allowed)
    tolerance = max(abs(float(value)) * 1e-9, 0.5)
    return any(k["period"] == period and abs(k["value"] - float(value)) <= tolerance for k in known)


def _items_for_the_model(
    gaps: list[dict[str, Any]], items: list[dict[str, Any]], per_period: int
) -> list[dict[str, Any]]:
    """The best few items of each missing (company, period), as ranked: the model reads ~100 tokens/s."""
    wanted = {(g["ticker"], g["label"]) for g in gaps}
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
    fact: Any, gap: dict[str, Any], metric: str, source: dict[str, Any], calendars: dict[str, Any]
) -> Cell | None:
    """A value the model copied, with the scale it is printed in, if it sits in its period's column."""
    per_share = BY_NAME[metric].unit == "per_share"  # the metric's unit, not the model's word
    scale: int | None = UNIT_EXPONENTS.get(fact.unit)
    if per_share:  # "$2.68" in a table "(in millions, except per share)" is $2.68 a share
        scale = 0
    elif scale is None:  # "$26,268" in a table "(in millions)", or "$81,797 million" in a sentence
        scale = stated_scale(source["text"]) or printed_scale(float(fact.value), source["text"])
    if scale is None:
        return None  # an amount whose scale the text does not state is withheld, never guessed
    value = Decimal(str(fact.value)).scaleb(scale)
    year, quarter = int(gap["fiscal_year"]), gap.get("fiscal_quarter")
    if not _in_its_column(source, value, fact.period, year, calendars, quarter):
        return None
    unit = "USD/shares" if per_share else "USD"
    return Cell(
        ticker=fact.ticker,
        metric=metric,
        period=fact.period,
        fiscal_year=year,
        fiscal_quarter=quarter,
        period_end=_date(gap.get("period_end")),
        value=value,
        unit=unit,
        scale=display_scale(value, unit, -scale if scale else None),
        sources=(fact.source,),
        note="model",
    )


async def model_figures(
    gaps: list[dict[str, Any]],
    items: list[dict[str, Any]],
    question: str,
    item_chars: int,
    context: Context,
    calendars: dict[str, Any],
    terms: Sequence[str] = (),
) -> tuple[list[Cell], list[dict[str, Any]], list[dict[str, Any]]]:
    """The model copies the figures still missing from the evidence of their company and period; each
    value must be written in the item it cites. Returns (cells, remaining gaps, LLM calls)."""
    relevant = _items_for_the_model(gaps, items, context.evidence_per_period)
    if not relevant:
        return [], gaps, []
    metric_labels = sorted({BY_NAME[g["metric"]].label for g in gaps if g["metric"] in BY_NAME})
    schema = facts_schema(
        sorted({i["ticker"] for i in relevant}),
        sorted({i["period_label"] for i in relevant}),
        [i["label"] for i in relevant],
        limit=min(24, 2 * len(gaps) + 2),
        metrics=metric_labels,
    )
    terms = [*terms, *query_terms(metric_labels)]
    reply, calls = await structured_call(
        get_resources().chat_model("extract", context),
        render(
            "extract",
            question=question,
            metrics=", ".join(metric_labels),
            evidence=format_evidence(relevant, terms, item_chars),
        ),
        schema,
        role="extract",
        default=Facts,
    )
    by_label = {i["label"]: i for i in relevant}
    by_metric_label = {BY_NAME[g["metric"]].label: g["metric"] for g in gaps if g["metric"] in BY_NAME}
    wanted = {(g["ticker"], g["label"]): g for g in gaps}
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
    remaining = [g for g in gaps if (g["ticker"], g["label"], g["metric"]) not in filled]
    return cells, remaining, [c.to_dict() for c in calls]


# -- the whole choice, for one answer -----------------------------------------------------------------
@dataclass
class Chosen:
    """The answer's figures: citable items, cells (facts, tables, the model), derivations, what is
    missing and why, the model calls made and warnings (restatements)."""

    items: list[dict[str, Any]]
    cells: list[Cell]
    derivations: list[dict[str, Any]]
    gaps: list[dict[str, Any]]
    calls: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    item_chars: int = 0


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


async def choose_cells(
    figures: Sequence[dict[str, Any]],
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
    looked_up = [f for f in figures if f.get("role") != "input"]
    years_in = [f for f in figures if f.get("role") == "input"]
    parts = [p for f in looked_up for p in f.get("parts") or []]
    items, item_chars = citable_items([*looked_up, *years_in, *parts], evidence, context)
    by_chunk = {i["chunk_id"]: i["label"] for i in items if i.get("chunk_id") is not None}
    by_document = {i["document_id"]: i["label"] for i in items if i.get("chunk_id") is None}
    cells, derivations = cells_from_figures(looked_up, by_chunk, by_document)
    gaps = gaps_of(looked_up, asked_targets(targets), metrics)
    # A period reported only in parts is answered with its parts: no table or model reads one of them
    # as the whole period.
    split = [_parts_told(g, by_chunk, by_document) for g in gaps if g.get("parts")]
    gaps = [g for g in gaps if not g.get("parts")]
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
    chosen.gaps = [*split, *chosen.gaps]
    chosen.warnings = [
        f"{g['ticker']} {g['label']} {_label_of(g['metric'])}: {g['reason']}" for g in chosen.gaps
    ] + _restated_notes(looked_up)
    return chosen


def _label_of(metric: str) -> str:
    return BY_NAME[metric].label.lower() if metric in BY_NAME else metric.replace("_", " ")


def _restated_notes(figures: Sequence[dict[str, Any]]) -> list[str]:
    return [
        f"{record['ticker']} {record['period']} {record['metric_label'].lower()} was restated: "
        f"{restated['original']} in {restated['original_filing']}, {restated['latest']} in "
        f"{restated['latest_filing']} (the latest is used)"
        for record in figures
        for restated in record.get("restated") or []
    ]
