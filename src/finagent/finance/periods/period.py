"""A fiscal period as a value: a fiscal year and a span of it ("Q3 FY2023", "FY2024", "9M FY2025").

Figures, citations and targets name periods by label strings; building and reading those strings in
one place keeps every label identical and lets code compare, order and step periods without regexes.
Spans other than quarters and full years (the first half, the first nine months) are year-to-date
spans as 10-Qs report them, so they are representable before anything asks for them by name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import total_ordering


class Span(Enum):
    """The part of a fiscal year a period covers, by the month (into the year) it ends and its length.

    The label prefix is the value; a first half is written "6M" as facts have always been labelled.
    """

    Q1 = "Q1"
    Q2 = "Q2"
    Q3 = "Q3"
    Q4 = "Q4"
    FIRST_HALF = "6M"
    NINE_MONTHS = "9M"
    YEAR = "FY"

    @property
    def end_month(self) -> int:
        """Months into the fiscal year at which the span ends (3, 6, 9 or 12)."""
        return _END_MONTH[self]

    @property
    def months(self) -> int:
        """How many months the span covers."""
        return _MONTHS[self]

    @property
    def quarter(self) -> int | None:
        """The quarter number of a quarter span, else None."""
        return self.end_month // 3 if self.months == 3 else None

    @property
    def word(self) -> str:
        """What a sentence calls the span: "quarter", "six months", "nine months" or "year"."""
        return _WORDS.get(self.months, "quarter")

    @classmethod
    def of_months(cls, months: int) -> Span | None:
        """The year-to-date span of ``months`` (6 or 9; 12 is the year), else None."""
        return {6: cls.FIRST_HALF, 9: cls.NINE_MONTHS, 12: cls.YEAR}.get(months)

    @classmethod
    def of_quarter(cls, quarter: int) -> Span:
        if not 1 <= quarter <= 4:
            raise ValueError(f"fiscal quarter must be 1..4, got {quarter}")
        return _QUARTERS[quarter - 1]


_END_MONTH = {
    Span.Q1: 3, Span.Q2: 6, Span.Q3: 9, Span.Q4: 12,
    Span.FIRST_HALF: 6, Span.NINE_MONTHS: 9, Span.YEAR: 12,
}  # fmt: skip
_MONTHS = {
    Span.Q1: 3, Span.Q2: 3, Span.Q3: 3, Span.Q4: 3,
    Span.FIRST_HALF: 6, Span.NINE_MONTHS: 9, Span.YEAR: 12,
}  # fmt: skip
_QUARTERS = (Span.Q1, Span.Q2, Span.Q3, Span.Q4)
_WORDS = {6: "six months", 9: "nine months", 12: "year"}

# Label forms: "Q3 FY2023", "FY2024", "6M FY2025" (also read as "H1 FY2025"), "9M FY2025".
_LABEL = re.compile(r"(?:(?P<span>Q[1-4]|6M|H1|9M) )?FY(?P<year>\d{4})")


@total_ordering
@dataclass(frozen=True)
class FiscalPeriod:
    """A span of a company's fiscal year, named by the fiscal year it belongs to.

    Ordered by year, then by the month the span ends, then shorter first: Q1 < Q2 < 6M < Q3 < 9M
    < Q4 < FY, so a year sorts after its quarters as the labels have always been ordered.
    """

    fiscal_year: int
    span: Span

    @classmethod
    def year(cls, fiscal_year: int) -> FiscalPeriod:
        return cls(fiscal_year, Span.YEAR)

    @classmethod
    def of_quarter(cls, fiscal_year: int, quarter: int) -> FiscalPeriod:
        return cls(fiscal_year, Span.of_quarter(quarter))

    @classmethod
    def of(cls, fiscal_year: int, quarter: int | None) -> FiscalPeriod:
        """The quarter, or the full year when ``quarter`` is None (the (year, quarter) keys the code uses)."""
        return cls.year(fiscal_year) if quarter is None else cls.of_quarter(fiscal_year, quarter)

    @classmethod
    def first_half(cls, fiscal_year: int) -> FiscalPeriod:
        return cls(fiscal_year, Span.FIRST_HALF)

    @classmethod
    def nine_months(cls, fiscal_year: int) -> FiscalPeriod:
        return cls(fiscal_year, Span.NINE_MONTHS)

    @classmethod
    def parse(cls, label: str) -> FiscalPeriod:
        """The period a label names, exactly as ``label`` writes them; ValueError for anything else."""
        found = cls.from_label(label)
        if found is None:
            raise ValueError(f"not a fiscal period label: {label!r}")
        return found

    @classmethod
    def from_label(cls, label: str | None) -> FiscalPeriod | None:
        """The period a whole label names, or None (an undated or free-text period)."""
        match = _LABEL.fullmatch(label or "")
        return cls._of_match(match) if match else None

    @classmethod
    def leading(cls, text: str | None) -> FiscalPeriod | None:
        """The period a text starts with ("Q3 FY2023 end" is the balance at the end of Q3 FY2023)."""
        match = _LABEL.match(text or "")
        return cls._of_match(match) if match else None

    @classmethod
    def _of_match(cls, match: re.Match[str]) -> FiscalPeriod:
        prefix = match.group("span") or "FY"
        return cls(int(match.group("year")), Span("6M" if prefix == "H1" else prefix))

    @property
    def label(self) -> str:
        """ "Q3 FY2023", "FY2024", "6M FY2025", "9M FY2025"."""
        if self.span is Span.YEAR:
            return f"FY{self.fiscal_year}"
        return f"{self.span.value} FY{self.fiscal_year}"

    @property
    def quarter(self) -> int | None:
        """The quarter number of a quarter, else None (years and year-to-date spans)."""
        return self.span.quarter

    @property
    def is_year(self) -> bool:
        return self.span is Span.YEAR

    @property
    def is_quarter(self) -> bool:
        return self.span.quarter is not None

    @property
    def key(self) -> tuple[int, int | None]:
        """(fiscal year, quarter or None): the key the resolver and the store index periods by."""
        return self.fiscal_year, self.quarter

    def previous_year(self) -> FiscalPeriod:
        """The same span a year earlier (Q3 FY2023 -> Q3 FY2022, FY2024 -> FY2023)."""
        return FiscalPeriod(self.fiscal_year - 1, self.span)

    def previous_quarter(self) -> FiscalPeriod:
        """The quarter before a quarter (Q1 FY2024 -> Q4 FY2023); ValueError for any other span."""
        quarter = self.quarter
        if quarter is None:
            raise ValueError(f"{self.label} is not a quarter")
        if quarter == 1:
            return FiscalPeriod.of_quarter(self.fiscal_year - 1, 4)
        return FiscalPeriod.of_quarter(self.fiscal_year, quarter - 1)

    def full_year(self) -> FiscalPeriod:
        """The fiscal year this span belongs to."""
        return FiscalPeriod.year(self.fiscal_year)

    def _order(self) -> tuple[int, int, int]:
        return self.fiscal_year, self.span.end_month, self.span.months

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, FiscalPeriod):
            return NotImplemented
        return self._order() < other._order()

    def __str__(self) -> str:
        return self.label


def period_label(fiscal_year: int | None, fiscal_quarter: int | None) -> str:
    """The label of a (year, quarter) key: "Q1 FY2025", "FY2024", or "undated" without a year."""
    if fiscal_year is None:
        return "undated"
    return FiscalPeriod.of(fiscal_year, fiscal_quarter).label


def _period_of(period: FiscalPeriod | str | None) -> FiscalPeriod | None:
    return period if isinstance(period, FiscalPeriod) else FiscalPeriod.from_label(period)


def period_word(label: FiscalPeriod | str, fiscal_quarter: int | None) -> str:
    """What a sentence calls a period ("year", "quarter", "six months", "nine months"): by its label
    when it names a span, else by whether it has a quarter."""
    period = _period_of(label)
    if period is not None:
        return period.span.word
    return "year" if fiscal_quarter is None else "quarter"


def year_to_date(label: FiscalPeriod | str | None) -> Span | None:
    """The year-to-date span (six or nine months) a label names, else None (quarters and years)."""
    period = _period_of(label)
    if period is None or period.span.months in (3, 12):
        return None
    return period.span


class InPeriod:
    """A record of one fiscal period: its year and quarter are the period's (one field, not three)."""

    __slots__ = ()
    period: FiscalPeriod

    @property
    def fiscal_year(self) -> int:
        return self.period.fiscal_year

    @property
    def fiscal_quarter(self) -> int | None:
        return self.period.quarter
