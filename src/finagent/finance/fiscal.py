"""Fiscal calendars of stored companies, and the calendar arithmetic under the names most code imports.

The arithmetic and the period type live in ``finance.periods`` (``calendar``, ``period``); this
module adds what needs the company tables: a stored company's calendar.
"""

from __future__ import annotations

from datetime import date

from finagent.finance.company_registry import StoredCompany, lookup_builtin
from finagent.finance.periods.fiscal_calendar import (
    CompanyCalendar,
    FiscalCalendar,
    fiscal_period,
    last_quarter_end_before,
    nominal_month_end,
    quarter_end,
)
from finagent.finance.periods.period import FiscalPeriod, period_label

__all__ = [
    "CompanyCalendar",
    "FiscalCalendar",
    "FiscalPeriod",
    "calendar_for",
    "fiscal_period",
    "fiscal_year_of_annual",
    "last_quarter_end_before",
    "nominal_month_end",
    "quarter_end",
    "quarter_label",
]


def fiscal_year_of_annual(period_end: date, fiscal_year_end_month: int, year_offset: int = 0) -> int:
    """Fiscal year of an annual report whose year ends on ``period_end``."""
    return fiscal_period(period_end, fiscal_year_end_month, year_offset)[0]


def quarter_label(fiscal_year: int | None, fiscal_quarter: int | None) -> str:
    """Human form used in citations: "Q1 FY2025", "FY2024", or "undated"."""
    return period_label(fiscal_year, fiscal_quarter)


def calendar_for(company: StoredCompany) -> CompanyCalendar:
    """The calendar of a stored company: the fiscal-year end and naming its own filings taught the
    store, else the built-in table's; an unknown year end is read as December (``FiscalCalendar.DEFAULT``)."""
    builtin = lookup_builtin(company.ticker)
    fye = (
        company.fiscal_year_end_month
        or (builtin.fiscal_year_end_month if builtin else None)
        or FiscalCalendar.DEFAULT.fye_month
    )
    offset = company.fiscal_year_offset
    if offset is None:
        offset = builtin.fiscal_year_offset if builtin else 0
    return CompanyCalendar(ticker=company.ticker.upper(), fye_month=int(fye), year_offset=offset)
