r"""Year-to-date spans for one company: "the first half of 2025", "the nine months ended June 29,
2024", "year to date through Q3" name the six or nine months a 10-Q reports, which end with its
second or third fiscal quarter. The span keeps the key of the quarter it ends with (the 10-Q that
reports it is searched) and is marked as a span, so its figure is the six- or nine-month column,
never that quarter's.

A year in the phrase is the company's fiscal year; when its year does not end in December and the
phrase does not say "fiscal", the warning says which fiscal months are meant.
"""

from __future__ import annotations

import calendar as _calendar

from finagent.finance.periods.by_month import MonthReader
from finagent.finance.periods.period import FiscalPeriod, Span
from finagent.finance.periods.rules import FISCAL_WORD
from finagent.finance.periods.spec import Key, TimeSpec


class SpanReader(MonthReader):
    """The year-to-date spans a phrase names, remembered per key (``spans``) for the targets."""

    spans: dict[Key, Span]

    def spanned(self, spec: TimeSpec) -> list[tuple[Key, bool]]:
        """The key of the quarter a span ends with (the span itself for 6 or 9 months), or of the
        quarter or year it is ("year to date through Q1" is Q1, through Q4 the year)."""
        months = spec.n or 0
        quarter = months // 3
        if not 1 <= quarter <= 4 or months % 3:
            return []
        if spec.start_date is not None and spec.end_date is not None:
            keys = self._ending(spec, quarter)
        else:
            year = spec.year if spec.year is not None else self._latest_year_with(quarter)
            keys = [(year, quarter)]
            self._say_fiscal(spec, year, months)
        span = Span.of_months(months)
        out: list[tuple[Key, bool]] = []
        for year, q in keys:
            if span is Span.YEAR:
                out.append(((year, None), False))
                continue
            if span is not None:
                self.spans[(year, q)] = span
            out.append(((year, q), False))
        return out

    def label(self, key: Key) -> str:
        """ "6M FY2025" for a span's key, else the quarter's or year's label."""
        span = self.spans.get(key)
        return FiscalPeriod(key[0], span).label if span is not None else super().label(key)

    def _latest_year_with(self, quarter: int) -> int:
        """ "year to date through Q3" with no year: the latest fiscal year whose Q3 has a report."""
        years = [y for (y, q) in self.inv.kinds if q == quarter and self.inv.has_quarter_report(y, q)]
        return max(years) if years else self.cal.period_of(self.today)[0]

    def _ending(self, spec: TimeSpec, quarter: int) -> list[Key]:
        """The fiscal quarters ending in the months named ("the six months ended June 30, 2024") that
        close a span of that length; a month that closes another quarter is warned about, not guessed."""
        assert spec.start_date is not None and spec.end_date is not None
        found = self.ending_in(spec.start_date, spec.end_date, annual=False, slack=0, day=spec.day)
        keys = [k for k in found if k[1] == quarter]
        if found and not keys:
            names = ", ".join(self.label(k) for k in found)
            self.warn(
                f"'{spec.text}': {self.ticker}'s fiscal quarter ending then is {names}, which closes no "
                f"{spec.n}-month span of its fiscal year; no such figure is reported"
            )
        return keys

    def _say_fiscal(self, spec: TimeSpec, year: int, months: int) -> None:
        """Warn which fiscal months a span in calendar wording means for a year not ending in December."""
        if self.cal.fye_month == 12 or FISCAL_WORD.search(spec.text) or months in (3, 12):
            return
        span = Span.of_months(months)
        if span is None:
            return
        period = FiscalPeriod(year, span)
        start, end = self.cal.calendar.start_of(period), self.cal.calendar.end_of(period)
        self.warn(
            f"'{spec.text}' read as {self.ticker}'s fiscal {period.label}: {start:%B %Y} to {end:%B %Y}, "
            f"its fiscal year ending in {_calendar.month_name[self.cal.fye_month]}"
        )
