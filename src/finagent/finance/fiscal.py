"""Fiscal calendars: map a period-end date to (fiscal_year, fiscal_quarter) for a company.

Companies with 52/53-week years end their quarters on a weekday near the month end (Apple's
quarter "ending June" may end on 2023-07-01), so dates in the first week of a month count as the
end of the previous month.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date

from finagent.finance.companies import StoredCompany, lookup_builtin

# Days into a month that still count as the previous month's end (52/53-week calendars).
_SPILLOVER_DAYS = 7


def nominal_month_end(day: date) -> tuple[int, int]:
    """Return (year, month) of the month a period-end date nominally closes."""
    if day.day <= _SPILLOVER_DAYS:
        if day.month == 1:
            return day.year - 1, 12
        return day.year, day.month - 1
    return day.year, day.month


def fiscal_period(period_end: date, fiscal_year_end_month: int, year_offset: int = 0) -> tuple[int, int]:
    """Return (fiscal_year, fiscal_quarter) of a quarter ending on ``period_end``.

    The fiscal year is named after the calendar year in which it ends (Microsoft's quarter ended
    2022-09-30 is fiscal Q1 2023), plus ``year_offset``: -1 for retailers that name a year ending
    in early February after the year it began in (Home Depot's year ended 2025-02-02 is FY2024).
    Quarter 4 ends in the FYE month.
    """
    if not 1 <= fiscal_year_end_month <= 12:
        raise ValueError(f"fiscal year end month must be 1..12, got {fiscal_year_end_month}")
    year, month = nominal_month_end(period_end)
    months_after_fye = (month - fiscal_year_end_month) % 12
    quarter = 4 if months_after_fye == 0 else (months_after_fye + 2) // 3
    fiscal_year = year if month <= fiscal_year_end_month else year + 1
    return fiscal_year + year_offset, quarter


def fiscal_year_of_annual(period_end: date, fiscal_year_end_month: int, year_offset: int = 0) -> int:
    """Fiscal year of an annual report whose year ends on ``period_end``."""
    return fiscal_period(period_end, fiscal_year_end_month, year_offset)[0]


def quarter_end(fiscal_year: int, fiscal_quarter: int, fye_month: int, year_offset: int = 0) -> date:
    """Last day of the month that nominally closes a fiscal quarter (52/53-week years differ by days)."""
    if not 1 <= fiscal_quarter <= 4:
        raise ValueError(f"fiscal quarter must be 1..4, got {fiscal_quarter}")
    # Fiscal year Y (end-year naming) ends in month fye_month of calendar year Y.
    index = (fiscal_year - year_offset) * 12 + (fye_month - 1) - 3 * (4 - fiscal_quarter)
    year, month = divmod(index, 12)
    month += 1
    return date(year, month, calendar.monthrange(year, month)[1])


def last_quarter_end_before(day: date, fye_month: int) -> date:
    """Nominal end of the latest fiscal quarter that ended strictly before ``day``."""
    year, month = day.year, day.month
    for _ in range(13):
        month -= 1
        if month == 0:
            year, month = year - 1, 12
        if (month - fye_month) % 3 == 0:
            return date(year, month, calendar.monthrange(year, month)[1])
    raise AssertionError("unreachable: a quarter ends every three months")


def quarter_label(fiscal_year: int | None, fiscal_quarter: int | None) -> str:
    """Human form used in citations: "Q1 FY2025" or "FY2024"."""
    if fiscal_year is None:
        return "undated"
    if fiscal_quarter is None:
        return f"FY{fiscal_year}"
    return f"Q{fiscal_quarter} FY{fiscal_year}"


@dataclass(frozen=True)
class CompanyCalendar:
    """A company's fiscal calendar: the month its fiscal year ends, and its year-naming offset."""

    ticker: str
    fye_month: int
    year_offset: int = 0

    def quarter_end(self, fiscal_year: int, fiscal_quarter: int) -> date:
        return quarter_end(fiscal_year, fiscal_quarter, self.fye_month, self.year_offset)

    def period_of(self, day: date) -> tuple[int, int]:
        return fiscal_period(day, self.fye_month, self.year_offset)


def calendar_for(company: StoredCompany) -> CompanyCalendar:
    """The calendar of a stored company: the fiscal-year end and naming its own filings taught the
    store, else the built-in table's; FYE default 12."""
    builtin = lookup_builtin(company.ticker)
    fye = company.fiscal_year_end_month or (builtin.fiscal_year_end_month if builtin else None) or 12
    offset = company.fiscal_year_offset
    if offset is None:
        offset = builtin.fiscal_year_offset if builtin else 0
    return CompanyCalendar(ticker=company.ticker.upper(), fye_month=int(fye), year_offset=offset)
