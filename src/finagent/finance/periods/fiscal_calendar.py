"""Fiscal calendars: which fiscal period a date closes, and when a fiscal period ends.

A calendar is the month a company's fiscal year ends and how it names its years: the year is named
after the calendar year it ends in (Microsoft's quarter ended 2022-09-30 is Q1 FY2023), plus a
``year_offset`` of -1 for retailers that name a year ending in early February after the year it
began in (Home Depot's year ended 2025-02-02 is FY2024).

Companies with 52/53-week years end their quarters on a weekday near the month end (Apple's
quarter "ending June" may end on 2023-07-01), so dates in the first week of a month count as the
end of the previous month, for every calendar: the arithmetic works on that nominal month and an
end date is the last day of the nominal month (52/53-week ends differ from it by days).

One rule for an unknown year end: a company whose fiscal year end nobody knows is read on the
calendar year (December, no offset), ``FiscalCalendar.DEFAULT``. Callers that can learn a calendar
from a report's own dates try that first (``known`` says whether a stored calendar exists).
"""

from __future__ import annotations

import calendar as _calendar
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, ClassVar

from finagent.finance.periods.period import FiscalPeriod

# Days into a month that still count as the previous month's end (52/53-week calendars).
SPILLOVER_DAYS = 7


def nominal_month_end(day: date) -> tuple[int, int]:
    """Return (year, month) of the month a period-end date nominally closes."""
    if day.day <= SPILLOVER_DAYS:
        if day.month == 1:
            return day.year - 1, 12
        return day.year, day.month - 1
    return day.year, day.month


def _last_day(year: int, month: int) -> date:
    return date(year, month, _calendar.monthrange(year, month)[1])


@dataclass(frozen=True, slots=True)
class FiscalCalendar:
    """How a company names its fiscal periods: the (nominal) month its year ends, and the naming
    offset (-1 for retailers that name a year ending in January after the year it began)."""

    fye_month: int = 12
    year_offset: int = 0

    DEFAULT: ClassVar[FiscalCalendar]

    def __post_init__(self) -> None:
        if not 1 <= self.fye_month <= 12:
            raise ValueError(f"fiscal year end month must be 1..12, got {self.fye_month}")

    # -- the graph state's form -----------------------------------------------------------------

    def to_dict(self) -> dict[str, int]:
        """The JSON form the graph state keeps (checkpoints and LangGraph Studio need plain data)."""
        return {"fye_month": self.fye_month, "year_offset": self.year_offset}

    @property
    def pair(self) -> tuple[int, int]:
        """(year-end month, year offset): the form a figure scope indexes calendars by."""
        return self.fye_month, self.year_offset

    @staticmethod
    def state(fye_month: int | None, year_offset: int | None) -> dict[str, int | None]:
        """The state's form of what is known of a calendar; a None month is an unknown year end."""
        return {"fye_month": fye_month, "year_offset": year_offset}

    @classmethod
    def known(cls, data: Mapping[str, Any] | Sequence[Any] | None) -> FiscalCalendar | None:
        """The calendar a state entry stores, or None when its year end is unknown.

        Also reads the ``[fye_month, year_offset]`` lists of earlier checkpoints."""
        if not data:
            return None
        if isinstance(data, Mapping):
            fye, offset = data.get("fye_month"), data.get("year_offset")
        else:
            fye, offset = [*data, None, None][:2]
        return cls(int(fye), int(offset or 0)) if fye else None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | Sequence[Any] | None) -> FiscalCalendar:
        """The calendar a state entry stores, the calendar year when its year end is unknown."""
        return cls.known(data) or cls.DEFAULT

    # -- dates -> periods ---------------------------------------------------------------------

    def period_of(self, end: date) -> tuple[int, int]:
        """(fiscal year, fiscal quarter) of a quarter that ends on ``end`` (52/53-week aware).

        Quarter 4 ends in the year-end month."""
        year, month = nominal_month_end(end)
        months_after_fye = (month - self.fye_month) % 12
        quarter = 4 if months_after_fye == 0 else (months_after_fye + 2) // 3
        fiscal_year = year if month <= self.fye_month else year + 1
        return fiscal_year + self.year_offset, quarter

    def quarter_of(self, end: date) -> FiscalPeriod:
        """The fiscal quarter that ends on ``end``."""
        return FiscalPeriod.of_quarter(*self.period_of(end))

    # -- periods -> dates ---------------------------------------------------------------------

    def quarter_end(self, fiscal_year: int, fiscal_quarter: int) -> date:
        """Last day of the month that nominally closes a fiscal quarter."""
        return self.end_of(FiscalPeriod.of_quarter(fiscal_year, fiscal_quarter))

    def end_of(self, period: FiscalPeriod) -> date:
        """Last day of the month that nominally closes ``period`` (52/53-week years differ by days)."""
        # Fiscal year Y (end-year naming) ends in month fye_month of calendar year Y - offset.
        year_end = (period.fiscal_year - self.year_offset) * 12 + self.fye_month - 1
        index = year_end - (12 - period.span.end_month)
        year, month0 = divmod(index, 12)
        return _last_day(year, month0 + 1)

    def start_of(self, period: FiscalPeriod) -> date:
        """First day of the first month of ``period``."""
        end = self.end_of(period)
        index = end.year * 12 + end.month - 1 - (period.span.months - 1)
        year, month0 = divmod(index, 12)
        return date(year, month0 + 1, 1)

    def last_quarter_end_before(self, day: date) -> date:
        """Nominal end of the latest fiscal quarter that ended strictly before ``day``."""
        year, month = day.year, day.month
        for _ in range(13):
            month -= 1
            if month == 0:
                year, month = year - 1, 12
            if (month - self.fye_month) % 3 == 0:
                return _last_day(year, month)
        raise AssertionError("unreachable: a quarter ends every three months")


FiscalCalendar.DEFAULT = FiscalCalendar(12, 0)


@dataclass(frozen=True)
class CompanyCalendar:
    """A company's fiscal calendar: the month its fiscal year ends, and its year-naming offset."""

    ticker: str
    fye_month: int
    year_offset: int = 0

    @property
    def calendar(self) -> FiscalCalendar:
        return FiscalCalendar(self.fye_month, self.year_offset)

    def quarter_end(self, fiscal_year: int, fiscal_quarter: int) -> date:
        return self.calendar.quarter_end(fiscal_year, fiscal_quarter)

    def period_of(self, day: date) -> tuple[int, int]:
        return self.calendar.period_of(day)


def fiscal_period(period_end: date, fiscal_year_end_month: int, year_offset: int = 0) -> tuple[int, int]:
    """Return (fiscal_year, fiscal_quarter) of a quarter ending on ``period_end``."""
    return FiscalCalendar(fiscal_year_end_month, year_offset).period_of(period_end)


def quarter_end(fiscal_year: int, fiscal_quarter: int, fye_month: int, year_offset: int = 0) -> date:
    """Last day of the month that nominally closes a fiscal quarter (52/53-week years differ by days)."""
    return FiscalCalendar(fye_month, year_offset).quarter_end(fiscal_year, fiscal_quarter)


def last_quarter_end_before(day: date, fye_month: int) -> date:
    """Nominal end of the latest fiscal quarter that ended strictly before ``day``."""
    return FiscalCalendar(fye_month).last_quarter_end_before(day)


__all__ = [
    "SPILLOVER_DAYS",
    "CompanyCalendar",
    "FiscalCalendar",
    "fiscal_period",
    "last_quarter_end_before",
    "nominal_month_end",
    "quarter_end",
]
