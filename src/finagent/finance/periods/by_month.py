r"""A company's periods found by the months a phrase names: those ending in them ("the quarter ended
June 30, 2023"), the four quarters of a trailing twelve months, the one containing them when none
ends there (warned), those mostly inside a calendar span ("during 2023"), those reported in them
("the quarters reported in 2023") and "the last three quarters through June 2024". On the company's
calendar and the store's inventory (rules in ``finagent.finance.periods``); ``resolve`` builds on it.
"""

from __future__ import annotations

from datetime import date, timedelta

from finagent.finance.periods.fiscal_calendar import CompanyCalendar
from finagent.finance.periods.grammar import AROUND_DAYS
from finagent.finance.periods.inventory import Inventory, count_back, months_name
from finagent.finance.periods.period import period_label
from finagent.finance.periods.spec import (
    REPORT_LAG_DAYS,
    Key,
    TimeSpec,
    from_month_index,
    from_quarter_index,
    month_end,
    month_index,
    quarter_index,
)


class MonthReader:
    """One company's periods on its calendar and the store's inventory, as of ``today``, found by
    months; what it could not read exactly is said in ``warnings``."""

    def __init__(self, cal: CompanyCalendar, inventory: Inventory, today: date) -> None:
        self.cal = cal
        self.inv = inventory
        self.today = today
        self.ticker = cal.ticker
        self.warnings: list[str] = []

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def label(self, key: Key) -> str:
        return period_label(key[0], key[1])

    def nominal_end(self, key: Key) -> date:
        return self.cal.quarter_end(key[0], key[1] or 4)

    def ends_near(self, first: date, last: date, *, annual: bool) -> list[Key]:
        """Periods whose nominal end lies within a month of [first, last] (candidates to match)."""
        keys: list[Key] = []
        for index in range(month_index(first) - 1, month_index(last) + 2):
            month = from_month_index(index)
            if (month.month - self.cal.fye_month) % (12 if annual else 3) == 0:
                year, quarter = self.cal.period_of(month_end(month))
                keys.append((year, None) if annual else (year, quarter))
        return keys

    def ending_in(self, first: date, last: date, *, annual: bool, slack: int, day: date | None) -> list[Key]:
        """Periods ending in the months [first, last]: by their actual (stored) or nominal end.

        An exact ``day`` first picks the period whose stored end is within a week of it; ``slack``
        widens the months by that many days for actual ends (nominal ones when none is stored).
        """
        candidates = self.ends_near(first, last, annual=annual)
        if day is not None:
            near = [
                (abs((end - day).days), key)
                for key in candidates
                if (end := self.inv.actual_end(key)) is not None and abs((end - day).days) <= AROUND_DAYS
            ]
            if near:
                return [min(near, key=lambda pair: pair[0])[1]]
        low, high = first - timedelta(days=slack), last + timedelta(days=slack)
        keys: list[Key] = []
        for key in candidates:
            nominal = self.nominal_end(key)
            end = self.inv.actual_end(key) or nominal
            if first <= nominal <= last or low <= end <= high:
                keys.append(key)
        return keys

    def trailing_year(self, spec: TimeSpec, last: date) -> list[Key]:
        """ "twelve months ended March 31, 2023" off the fiscal year end: the four quarters ending then."""
        assert spec.start_date is not None
        quarters = self.ending_in(spec.start_date, last, annual=False, slack=spec.slack, day=spec.day)
        if not quarters:
            return []
        newest = quarter_index(quarters[-1][0], quarters[-1][1] or 4)
        keys: list[Key] = [from_quarter_index(i) for i in range(newest - 3, newest + 1)]
        self.warn(
            f"no fiscal year of {self.ticker} ends in {last:%b %Y}; '{spec.text}' read as the four quarters "
            f"{self.label(keys[0])} to {self.label(keys[-1])}"
        )
        return keys

    def containing(self, spec: TimeSpec, last: date, *, annual: bool) -> list[tuple[Key, bool]]:
        """No period ends in the months: the one containing them, with a warning (never silently)."""
        assert spec.start_date is not None
        first_month, last_month = f"{spec.start_date:%b %Y}", f"{last:%b %Y}"
        span = f"in {last_month}" if first_month == last_month else f"between {first_month} and {last_month}"
        if spec.slack:
            span += f" (±{spec.slack} days)"
        if annual:
            year = self.cal.period_of(date(last.year, last.month, 15))[0]
            self.warn(
                f"no fiscal year of {self.ticker} ends {span}; using {period_label(year, None)}, "
                f"which contains {last_month}"
            )
            return [((year, None), False)]
        for ahead in range(3):  # no quarter ends inside: take the quarter containing the range
            month = from_month_index(month_index(last) + ahead)
            if (month.month - self.cal.fye_month) % 3 == 0:
                key = self.cal.period_of(date(month.year, month.month, 15))
                label = period_label(*key)
                self.warn(f"no fiscal quarter of {self.ticker} ends {span}; using {label}, which contains it")
                return [(key, False)]
        return []

    def within_span(self, first: date, last: date, *, quarterly: bool) -> list[Key]:
        """Periods mostly inside a calendar span ("during 2023"): the rule is in the module docstring."""
        low, high = month_index(first), month_index(last)

        def inside(start: int, end: int) -> int:
            return max(0, min(end, high) - max(start, low) + 1)

        keys: list[Key] = []
        straddles = False
        first_month = last_month = first
        for end in range(low, high + (3 if quarterly else 12)):
            month = from_month_index(end)
            if (month.month - self.cal.fye_month) % (3 if quarterly else 12) != 0:
                continue
            length = 3 if quarterly else 12
            months = inside(end - length + 1, end)
            if months * 2 < length or (months * 2 == length and end > high):
                continue
            year, quarter = self.cal.period_of(month_end(month))
            key: Key = (year, quarter) if quarterly else (year, None)
            if not keys:
                first_month = from_month_index(end - length + 1)
            keys.append(key)
            last_month = month
            straddles = straddles or months < length
        if straddles:
            name = months_name(first, last)
            labels = ", ".join(self.label(k) for k in keys)
            covered = f"{first_month:%b %Y} to {last_month:%b %Y}"
            self.warn(
                f"calendar {name} read as {self.ticker} {labels} ({covered}): "
                f"the fiscal {'quarters' if quarterly else 'years'} mostly inside it"
            )
        return keys

    def report_date(self, key: Key) -> tuple[date, int | None]:
        """When the period's report was filed: stored (lag None), else its end plus the filing lag."""
        filed = self.inv.filed_on(key)
        if filed is not None:
            return filed, None
        lag = REPORT_LAG_DAYS["annual" if key[1] in (None, 4) else "quarter"]
        return (self.inv.actual_end(key) or self.nominal_end(key)) + timedelta(days=lag), lag

    def reported_in(self, spec: TimeSpec) -> list[Key]:
        """Periods whose report was filed in the spec's months ("the quarters reported in 2023")."""
        assert spec.start_date is not None
        first, last = spec.start_date, spec.end_date or self.today
        quarterly = spec.unit == "quarter"
        name = months_name(first, last)
        keys: list[Key] = []
        for index in range(month_index(first) - 15, month_index(last) + 1):
            month = from_month_index(index)
            if (month.month - self.cal.fye_month) % (3 if quarterly else 12) != 0:
                continue
            year, quarter = self.cal.period_of(month_end(month))
            key: Key = (year, quarter) if quarterly else (year, None)
            if quarterly and spec.n and quarter > spec.n:
                continue
            filed, lag = self.report_date(key)
            if first <= filed <= last:
                keys.append(key)
            if lag is not None and min(abs((filed - first).days), abs((filed - last).days)) <= 10:
                self.warn(
                    f"{self.ticker} {self.label(key)}: no filing date stored; estimated "
                    f"{filed.isoformat()} (period end + {lag} days), near the edge of {name}"
                )
        if not keys:
            unit = "quarter" if quarterly else "fiscal year"
            self.warn(f"no {unit} of {self.ticker} was reported in {name}")
        return keys

    def quarters_through(self, spec: TimeSpec) -> list[Key]:
        """ "the last three quarters through June 2024": ``n`` quarters back from the one ending then."""
        assert spec.start_date is not None and spec.end_date is not None and spec.n
        ending = self.ending_in(spec.start_date, spec.end_date, annual=False, slack=spec.slack, day=spec.day)
        if ending:
            year, quarter = ending[-1]
            newest = quarter_index(year, quarter or 4)
        else:
            fallback = self.containing(spec, spec.end_date, annual=False)
            if not fallback:
                return []
            (year, quarter), _ = fallback[0]
            newest = quarter_index(year, quarter or 4)
        return [*count_back(newest, spec.n, without_q4=spec.report == "10-Q")]
