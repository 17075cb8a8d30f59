"""Which columns of a table hold a target period (fiscal quarter, year-to-date span, year)."""

from __future__ import annotations

from dataclasses import replace

from finagent.finance.fact_records import DurationClass, FiscalCalendar
from finagent.finance.fiscal import nominal_month_end
from finagent.finance.read.tables.records import ColumnPeriod, PeriodTable, PeriodTarget

_MONTHS_CLASS: dict[int, DurationClass] = {3: "quarter", 6: "six_months", 9: "nine_months", 12: "year"}


# A year-to-date span must end at its fiscal quarter (nine months end at Q3), else it is a
# trailing span ("Twelve Months Ended September 30"), not a fiscal period.
_SPAN_QUARTER = {"six_months": 2, "nine_months": 3, "year": 4}


def column_target(
    column: ColumnPeriod, calendar: FiscalCalendar, annual: bool = False, flows: bool = False
) -> PeriodTarget | None:
    """The fiscal period a column states in the company's calendar, or None when the header does
    not say enough (unknown span in an interim table, a trailing twelve months, no date).

    A day alone over an annual statement of flows is the year ended that day, not a balance."""
    if flows and annual and column.instant:
        column = replace(column, instant=False)
    months = column.months
    if months is None and annual and not column.instant:
        months = 12
    if column.end is not None:
        fiscal_year, quarter = calendar.period_of(column.end)
        if column.instant:
            return PeriodTarget(fiscal_year, quarter, "instant", column.end)
        duration = _MONTHS_CLASS.get(months) if months else None
        if duration is None or _SPAN_QUARTER.get(duration, quarter) != quarter:
            return None
        return PeriodTarget(fiscal_year, None if duration == "year" else quarter, duration, column.end)
    if column.fiscal_year is None:
        return None
    if column.fiscal_quarter is not None:
        duration = _MONTHS_CLASS.get(months or 3)
        if duration is None or _SPAN_QUARTER.get(duration, column.fiscal_quarter) != column.fiscal_quarter:
            return None
        return PeriodTarget(column.fiscal_year, column.fiscal_quarter, duration)
    if months == 12:
        return PeriodTarget(column.fiscal_year, None, "year")
    return None


def columns_for(table: PeriodTable, calendar: FiscalCalendar) -> list[PeriodTarget | None]:
    """The fiscal period of each column (None where the header does not say)."""
    return [column_target(c, calendar, table.annual, table.flows) for c in table.columns]


def column_matches(column: PeriodTarget | None, target: PeriodTarget) -> bool:
    if column is None or column.duration != target.duration or column.fiscal_year != target.fiscal_year:
        return False
    wanted = target.fiscal_quarter
    if target.duration == "instant" and wanted is None:
        wanted = 4
    if column.fiscal_quarter != wanted:
        return False
    if target.end is not None and column.end is not None:
        return nominal_month_end(target.end) == nominal_month_end(column.end)
    return True
