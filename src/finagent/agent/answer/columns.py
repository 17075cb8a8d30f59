"""Figures read from statement tables: the column whose header names the target period, or nothing.

A table is read by period, never by position (fail closed); a value the model copied from a table
must sit in its period's column too (``in_its_column``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from finagent.finance.check.verify import table_known
from finagent.finance.compute.compare import Cell
from finagent.finance.fact_records import DurationClass, FiscalCalendar
from finagent.finance.line_item import LineItem
from finagent.finance.lines import REPORTED
from finagent.finance.looked_up import Gap
from finagent.finance.periods.period import FiscalPeriod, Span, year_to_date
from finagent.finance.read.filing_sections import AFTER_SIGNATURES

_STATEMENT_KINDS = ("10-Q", "10-K", "annual_report", "earnings_release", "8-K")


# A balance is never read from a statement of flows ("Trade receivables | 140" in the cash flow
# statement is the year's change), nor a flow from a balance sheet.
_OTHER_KIND = {"instant": ("income_statement", "cash_flow"), "duration": ("balance_sheet",)}

_SPAN_DURATION: dict[Span, DurationClass] = {Span.FIRST_HALF: "six_months", Span.NINE_MONTHS: "nine_months"}


def calendar_of(calendars: dict[str, Any], ticker: str) -> FiscalCalendar:
    """The company's calendar in the state, an unknown year end read as December."""
    return FiscalCalendar.from_dict(calendars.get(ticker))


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
    gap: Gap,
    period: FiscalPeriod,
    cell: Any,
    item: dict[str, Any],
    role: str,
) -> Cell:
    """A figure read from a statement table cell, cited to the chunk holding the table."""
    value = cell.base_value if cell.base_value is not None else cell.value
    if REPORTED[gap.metric].outflow:  # "(1,577)" in the cash flow statement: $1,577 spent
        value = abs(value)
    unit = "USD/shares" if (cell.unit or "").endswith("share") else cell.unit or "USD"
    end = cell.period.end if cell.period.end else (gap.period_end if role == "target" else None)
    return Cell(
        ticker=gap.ticker,
        metric=gap.metric,
        period=period,
        period_end=end,
        value=value,
        unit=unit,
        scale=cell.scale if unit == "USD" else 0,
        sources=(item["label"],),
        role=role,
        note="table",
    )


def _statement_tables(gap: Gap, metric: LineItem, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The company's statement tables that may print the metric, the likeliest first."""
    candidates = [
        i
        for i in items
        if i.get("ticker") == gap.ticker
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
    return candidates


def _first_column(
    candidates: list[dict[str, Any]], metric: LineItem, target: Any, calendar: FiscalCalendar
) -> tuple[dict[str, Any], Any, Any, Any] | None:
    """The first table of ``candidates`` with the metric's row and a cell of the target period's
    column in the metric's unit: (item, table, row, cell), or None."""
    from finagent.finance.read.tables import cell_for, find_row, parse_table

    for item in candidates:
        table = parse_table(item["text"], form=_form(item))
        if table is None:
            continue
        row = find_row(table, metric.rows)
        if row is None:
            continue
        cell = cell_for(table, row, target, calendar)
        if cell is not None and _unit_fits(cell.unit, metric.unit):
            return item, table, row, cell
    return None


def table_figures(
    gaps: list[Gap],
    items: list[dict[str, Any]],
    calendars: dict[str, Any],
    years: Sequence[Cell] = (),
) -> tuple[list[Cell], list[Gap]]:
    """Cells read from statement tables for the gaps they answer; the gaps that remain."""
    from finagent.finance.read.tables import PeriodTarget, cell_for

    cells: list[Cell] = []
    remaining: list[Gap] = []
    for gap in gaps:
        metric = REPORTED.get(gap.metric)
        if metric is None:
            remaining.append(gap)
            continue
        calendar = calendar_of(calendars, gap.ticker)
        span = year_to_date(gap.period)
        duration: DurationClass = (
            "instant"
            if metric.instant
            else _SPAN_DURATION[span]
            if span is not None
            else ("year" if gap.fiscal_quarter is None else "quarter")
        )
        target = PeriodTarget(
            fiscal_year=gap.fiscal_year,
            fiscal_quarter=gap.fiscal_quarter,
            duration=duration,
            end=gap.period_end,
        )
        candidates = _statement_tables(gap, metric, items)
        found = _first_column(candidates, metric, target, calendar)
        if found is None:
            year_fact = next(
                (
                    y
                    for y in years
                    if (y.ticker, y.metric, y.fiscal_year) == (gap.ticker, gap.metric, target.fiscal_year)
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
        cells.append(_cell(gap, gap.period, cell, item, "target"))
        # The same period a year earlier, from the comparative column of the same table (YoY).
        prior = PeriodTarget(target.fiscal_year - 1, target.fiscal_quarter, target.duration)
        earlier = cell_for(table, row, prior, calendar)
        if earlier is not None:
            cells.append(_cell(gap, gap.period.previous_year(), earlier, item, "comparative"))
    return cells, remaining


def _read(
    items: list[dict[str, Any]], metric: Any, target: Any, calendar: FiscalCalendar, kinds: tuple[str, ...]
) -> tuple[dict[str, Any], Any] | None:
    """The first (item, cell) among ``items`` of ``kinds`` whose table states ``metric`` for ``target``."""
    from finagent.finance.read.tables import cell_for, find_row, parse_table

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
    gap: Gap,
    metric: Any,
    target: Any,
    items: list[dict[str, Any]],
    calendar: FiscalCalendar,
    year_fact: Cell | None = None,
) -> Cell | None:
    """Q4 = the fiscal year (10-K table) − the nine months to Q3 (the Q3 10-Q's year-to-date column),
    for money flows only; both inputs read by their periods and cited."""
    from finagent.finance.read.derive import not_derivable
    from finagent.finance.read.tables import PeriodTarget

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
        ticker=gap.ticker,
        metric=gap.metric,
        period=gap.period,  # a Q4 (``target.fiscal_quarter == 4`` above)
        period_end=year_end or gap.period_end,
        value=year_value - nine_value,
        unit="USD",
        scale=year_scale,
        sources=(year_source, nine_item["label"]),
        derived=True,
        note="derived",
        inputs=(year_value, nine_value),
    )


_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def in_its_column(
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
