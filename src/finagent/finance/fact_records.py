"""A reported figure is a value for a company *and a period*: the XBRL fact record, its duration
class and its fiscal period, derived from the fact's own dates through the company's calendar.

Why per fact: a 10-K states three fiscal years side by side and a 10-Q states this quarter, the
same quarter a year earlier and both year-to-date spans. ``dei:DocumentFiscalPeriodFocus``
describes the filing, not its comparative columns, so every fact is labelled from its own
start/end dates.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import Literal

from finagent.finance.fiscal import FiscalCalendar, nominal_month_end
from finagent.finance.periods.period import FiscalPeriod, Span

DurationClass = Literal[
    "instant", "quarter", "six_months", "nine_months", "year", "stub", "transition", "other"
]
# "stub": one part of a fiscal period split by a change of reporting basis (predecessor / successor
# around a merger or an emergence from bankruptcy); "transition": the period a report covers after a
# change of fiscal year. Both come from the dates of a filing's facts (``finance.read.split_periods``) and
# are never a full quarter or year.

# Inclusive day counts per duration class; 52/53-week calendars make quarters 84-98 days long (a
# 14-week quarter is 98 days, a 53-week year 371).
_DURATIONS: tuple[tuple[DurationClass, int, int], ...] = (
    ("quarter", 80, 100),
    ("six_months", 170, 195),
    ("nine_months", 260, 285),
    ("year", 350, 380),
)
DURATION_MONTHS: dict[str, int] = {"quarter": 3, "six_months": 6, "nine_months": 9, "year": 12}


def duration_class(start: date | None, end: date) -> DurationClass:
    """ "instant" without a start; else quarter / six / nine months / year by length, or "other"."""
    if start is None:
        return "instant"
    days = (end - start).days + 1
    for name, low, high in _DURATIONS:
        if low <= days <= high:
            return name
    return "other"


def report_calendar(
    period_end: date | None, fiscal_year: int | None, fiscal_quarter: int | None
) -> FiscalCalendar | None:
    """The calendar a report's own metadata implies: a 10-K for FY2024 ending 2024-09-28 closes its
    year in September; the Q3 FY2023 10-Q ending 2023-07-01 puts the year end three months later."""
    if period_end is None or fiscal_year is None:
        return None
    year, month = nominal_month_end(period_end)
    quarter = fiscal_quarter or 4
    index = year * 12 + month - 1 + 3 * (4 - quarter)
    fye_year, fye_month0 = divmod(index, 12)
    offset = fiscal_year - fye_year
    return FiscalCalendar(fye_month0 + 1, offset) if -1 <= offset <= 1 else None


def span_text(start: date, end: date) -> str:
    """ "Jul 1–Jul 21, 2010"; "Dec 15, 2009–Jan 31, 2010" across a year end."""
    if start.year == end.year:
        return f"{start:%b} {start.day}–{end:%b} {end.day}, {end.year}"
    return f"{start:%b} {start.day}, {start.year}–{end:%b} {end.day}, {end.year}"


# The fiscal spans a duration class is, besides quarters (which need their number).
_DURATION_SPANS = {"year": Span.YEAR, "six_months": Span.FIRST_HALF, "nine_months": Span.NINE_MONTHS}


def fiscal_label(
    fiscal_year: int | None,
    fiscal_quarter: int | None,
    duration: str,
    start: date | None = None,
    end: date | None = None,
) -> str:
    """Human label of a fact's period: "Q3 FY2023", "FY2024", "9M FY2023", "6M FY2025",
    "Q3 FY2023 end" for a balance at the end of a quarter, "FY2024 end" at a year end; a stub or a
    transition period by its own dates ("stub Jul 22–Sep 30, 2010"), never as a quarter or year."""
    if duration in ("stub", "transition"):
        word = "stub" if duration == "stub" else "transition period"
        if start is not None and end is not None:
            return f"{word} {span_text(start, end)}"
        return f"{word} in {FiscalPeriod.year(fiscal_year)}" if fiscal_year is not None else word
    if fiscal_year is None:
        return "undated"
    span = _DURATION_SPANS.get(duration)
    if span is not None:
        return FiscalPeriod(fiscal_year, span).label
    if duration == "quarter":
        return FiscalPeriod.of(fiscal_year, fiscal_quarter).label
    year = FiscalPeriod.year(fiscal_year)
    if duration == "instant":
        at = year if fiscal_quarter in (4, None) else FiscalPeriod.of(fiscal_year, fiscal_quarter)
        return f"{at.label} end"
    return f"{year.label} (other span)"


@dataclass(frozen=True, slots=True)
class Fact:
    """One numeric XBRL fact, exactly as reported (``Decimal``, sign and scale applied).

    ``dimensions`` are sorted (axis, member) pairs; typed members carry their value text. No
    dimensions means the consolidated total. ``block_index`` points at the parsed block (a table
    row or paragraph of the filing) that displays the number, so a citation opens readable text.
    """

    concept: str
    value: Decimal | None
    unit: str | None
    decimals: int | None  # None = INF (exact)
    period_start: date | None
    period_end: date
    dimensions: tuple[tuple[str, str], ...] = ()
    is_nil: bool = False
    hidden: bool = False
    label: str | None = None
    display: str | None = None
    scale: int = 0
    block_index: int | None = None
    context_id: str | None = None
    conflict: bool = False
    fiscal_year: int | None = None
    fiscal_quarter: int | None = None
    duration: DurationClass = "other"
    extra: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def instant(self) -> bool:
        return self.period_start is None

    @property
    def period_label(self) -> str:
        return fiscal_label(
            self.fiscal_year, self.fiscal_quarter, self.duration, self.period_start, self.period_end
        )

    def in_calendar(self, calendar: FiscalCalendar) -> Fact:
        """The fact with duration class and fiscal period derived from its own dates."""
        duration = duration_class(self.period_start, self.period_end)
        year, quarter = calendar.period_of(self.period_end)
        return replace(self, duration=duration, fiscal_year=year, fiscal_quarter=quarter)


@dataclass(frozen=True, slots=True)
class Filing:
    """The report a fact comes from, whatever format it was ingested in (iXBRL, XBRL instance, PDF).

    The same 10-K stored as iXBRL and as an instance document has one ``key``, so its facts are
    counted once.
    """

    ticker: str
    form: str
    period_end: date | None
    cik: str | None = None
    filed: date | None = None

    @property
    def key(self) -> str:
        end = self.period_end.isoformat() if self.period_end else "undated"
        return f"{self.ticker}|{self.form.upper()}|{end}"


@dataclass(frozen=True, slots=True)
class StoredFact:
    """A fact as the store holds it: the reported value with its period, filing and provenance.

    ``chunk_id`` is where the number is displayed (a statement row a person can read); derived facts
    (Q4 = FY − nine months) have no document and list their ``inputs`` (ids of stored facts).
    """

    id: int
    ticker: str
    concept: str
    value: Decimal | None
    unit: str | None
    decimals: int | None
    period_start: date | None
    period_end: date
    duration: str
    fiscal_year: int | None
    fiscal_quarter: int | None
    dims_key: str = ""
    label: str | None = None
    display: str | None = None
    filing_key: str = ""
    form: str | None = None
    filing_period_end: date | None = None
    filed_at: date | None = None
    document_id: int | None = None
    chunk_id: int | None = None
    page: int | None = None
    statement: str | None = None
    derived: bool = False
    derivation: str | None = None
    inputs: tuple[int, ...] = ()
    conflict: bool = False
    hidden: bool = False
    source_uri: str | None = None
    title: str | None = None
    kind: str | None = None

    @property
    def period_label(self) -> str:
        return fiscal_label(
            self.fiscal_year, self.fiscal_quarter, self.duration, self.period_start, self.period_end
        )

    @property
    def filing_order(self) -> tuple[date, date]:
        """Later filings restate earlier ones: order by filing date, else by the filing's own period."""
        return (self.filed_at or self.filing_period_end or date.min, self.filing_period_end or date.min)
