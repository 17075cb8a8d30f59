"""Figures a report's own statement tables state for its own period, read by code from the table text.

A chunk of a 10-K, 10-Q or earnings release that holds a table gives the figure of a line (the row a
search phrase names) in the column whose header names the report's period: never the first column by
position. No such column, no figure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

from finagent.finance.fact_records import FiscalCalendar, report_calendar
from finagent.finance.figure_records import metric_key
from finagent.finance.periods.period import FiscalPeriod
from finagent.finance.read.tables import PeriodTarget, cell_for, find_row, parse_table
from finagent.finance.words import SCALE_UNITS

_REPORT_KINDS = ("10-Q", "10-K", "annual_report", "earnings_release", "8-K")


def _own_period(item: dict[str, Any]) -> tuple[int | None, int | None]:
    """(fiscal year, quarter) of the report a chunk belongs to, from its fields or its label."""
    year, quarter = item.get("fiscal_year"), item.get("fiscal_quarter")
    if year is None:
        period = FiscalPeriod.from_label(item.get("period_label"))
        if period is not None and (period.is_quarter or period.is_year):
            year, quarter = period.key
    return year, quarter


def _own_targets(item: dict[str, Any], prior: bool = False) -> list[tuple[PeriodTarget, str]]:
    """The periods a report's tables state for the report itself: its quarter or year, the balance at
    its end, and (10-Q cash flows) the year to date. ``prior``: an annual report's previous year (its
    second column: the opening balance of an average, last year's inventory of a change)."""
    year, quarter = _own_period(item)
    if year is None:
        return []
    if prior:
        if quarter is None or item.get("kind") in ("10-K", "annual_report"):
            return [(PeriodTarget(year - 1, None, "year"), ""), (PeriodTarget(year - 1, None, "instant"), "")]
        return []
    if quarter is None or item.get("kind") in ("10-K", "annual_report"):
        return [(PeriodTarget(year, None, "year"), ""), (PeriodTarget(year, None, "instant"), "")]
    targets = [(PeriodTarget(year, quarter, "quarter"), ""), (PeriodTarget(year, quarter, "instant"), "")]
    span = {2: "six_months", 3: "nine_months"}.get(int(quarter))
    if span:
        targets.append((PeriodTarget(year, quarter, span), " (year to date)"))  # type: ignore[arg-type]
    if int(quarter) == 4 and item.get("kind") == "earnings_release":  # a year's last release reports it
        targets.append((PeriodTarget(year, None, "year"), ""))
    return targets


def _legacy_unit(unit: str | None, scale: int) -> str:
    if unit == "USD":
        return SCALE_UNITS.get(scale, "USD")
    return {"USD/share": "per share", "shares": "shares", "percent": "percent"}.get(unit or "", "other")


def _report_table(item: dict[str, Any], calendar: FiscalCalendar | None) -> tuple[Any, FiscalCalendar] | None:
    """A report's table and the fiscal calendar its columns are read by, or None."""
    if "|" not in item["text"] or item.get("kind") not in _REPORT_KINDS:
        return None
    kind = item.get("kind")
    table = parse_table(item["text"], form="10-K" if kind in ("10-K", "annual_report") else kind)
    if table is None:
        return None
    ends = [c.end for c in table.columns if c.end is not None]
    # The company's calendar, else the one the report implies: its own period ends on its period end
    # date, or (no date stored, e.g. page-text corpora) on the latest date its table's header names.
    calendar = (
        calendar
        or report_calendar(_date(item.get("period_end")), *_own_period(item))
        or report_calendar(max(ends, default=None), *_own_period(item))
        or (FiscalCalendar(12) if not ends else None)  # fiscal-year headers only: no calendar needed
    )
    return (table, calendar) if calendar is not None else None


def _table_fact(
    item: dict[str, Any], target: PeriodTarget, prior: bool, metric: str, cell: Any
) -> dict[str, Any]:
    return {
        "ticker": item.get("ticker") or "",
        "period": FiscalPeriod.year(target.fiscal_year).label
        if prior or target.duration == "year"
        else item["period_label"],
        "metric": metric[:80],
        "value": float(cell.value),
        "unit": _legacy_unit(cell.unit, cell.scale),
        "source": item["label"],
        "method": "table",
        "column": cell.header,
    }


def table_facts(
    item: dict[str, Any], phrases: Sequence[str], calendar: FiscalCalendar | None = None, prior: bool = False
) -> list[dict[str, Any]]:
    """Figures a statement table states for the report's own period: the row named by a search phrase,
    the column whose header names that period (never the first column by position: Amazon lists the
    oldest year first). No such column, no figure."""
    read = _report_table(item, calendar)
    if read is None:
        return []
    table, calendar = read
    facts = []
    for phrase in phrases:
        row = find_row(table, phrase)
        if row is None:
            continue
        for target, suffix in _own_targets(item, prior):
            cell = cell_for(table, row, target, calendar)
            if cell is not None:
                facts.append(_table_fact(item, target, prior, row.label.rstrip(":") + suffix, cell))
                break
    return facts


def parts_sum_fact(
    item: dict[str, Any], headings: Sequence[str], parts: re.Pattern[str], prior: bool = False
) -> dict[str, Any] | None:
    """A line a statement prints only as its parts under its heading, summed and labelled so: Amcor's
    "Inventories, net" is "Raw materials and supplies" 992 and "Work in process and finished goods"
    1,221, with no total row. Every part must be read for the period, in one unit."""
    read = _report_table(item, None)
    if read is None:
        return None
    table, calendar = read
    rows = [
        r
        for r in table.rows
        if any(h in (r.section or "").lower() for h in headings) and parts.search(r.label)
    ]
    if len(rows) < 2:
        return None
    for target, _ in _own_targets(item, prior):
        cells = [cell_for(table, row, target, calendar) for row in rows]
        read_all = [c for c in cells if c is not None]
        if len(read_all) == len(rows) and len({(c.unit, c.scale) for c in read_all}) == 1:
            total = replace(read_all[0], value=sum((c.value for c in read_all), Decimal(0)))
            label = f"{(rows[0].section or headings[0]).rstrip(':')} (sum of {len(rows)} lines)"
            return _table_fact(item, target, prior, label, total) | {"summed": len(rows)}
    return None


def _date(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None


def deterministic_facts(items: Sequence[dict[str, Any]], phrases: Sequence[str]) -> list[dict[str, Any]]:
    """One figure per (ticker, period, row) from the best-ranked statement tables."""
    ranked = sorted(items, key=lambda i: (i.get("statement") is None, -i.get("fused_score", 0.0)))
    chosen: dict[tuple[str, str, str], dict[str, Any]] = {}
    for item in ranked:
        for fact in table_facts(item, phrases):
            key = (fact["ticker"], fact["period"], metric_key(fact["metric"]))
            chosen.setdefault(key, fact)
    return list(chosen.values())
