"""What a time phrase means before any company is known (``TimeSpec``), what the store holds
(``AvailablePeriod``), and the kinds of report that cover a quarter or a year."""

from __future__ import annotations

import calendar as _calendar
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal, get_args

SpecKind = Literal[
    "fiscal_year",
    "fiscal_quarter",
    "year_range",
    "quarter_range",
    "date_range",
    "last_quarters",
    "last_years",
    "latest",
    "since_year",
    "held",
    "reported",
    "same_quarter",  # "the same quarter of 2023": the quarter of the phrase before it, in that year
    "fiscal_span",  # "the first half of 2025", "the nine months ended June 29, 2024": year to date
]
Unit = Literal["year", "quarter"]
Prefer = Literal["quarter", "annual"]

# Kinds that report a whole fiscal year, and kinds that report one fiscal quarter.
ANNUAL_KINDS = frozenset({"10-K", "annual_report"})
QUARTER_KINDS = frozenset({"10-Q", "transcript", "earnings_release"})
KIND_ORDER = (
    "10-K",
    "annual_report",
    "10-Q",
    "earnings_release",
    "transcript",
    "8-K",
    "facts",
    "news",
    "other",
)
FILING_KINDS = frozenset({"10-K", "annual_report", "10-Q"})
FACTS_KIND = "facts"
"""Inventory rows for fiscal periods with reported XBRL figures (no document of their own)."""
REPORT_LAG_DAYS = {"quarter": 45, "annual": 60}
"""Filing date estimated from the period end when the store has none: 10-Q and 10-K deadlines."""

Key = tuple[int, int | None]  # (fiscal_year, fiscal_quarter or None for the annual period)


# --------------------------------------------------------------------------------------------
# Time specs
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TimeSpec:
    """One time phrase of the question, independent of any company's calendar."""

    kind: SpecKind
    text: str = ""
    """The phrase as written in the question ("" for defaults)."""
    position: int = 0
    """Offset of the phrase in the question (specs are ordered by it)."""
    year: int | None = None  # fiscal_year, fiscal_quarter, since_year
    quarter: int | None = None  # fiscal_quarter; since_year from a quarter ("since Q3 2022")
    start_year: int | None = None  # year_range
    end_year: int | None = None
    start_quarter: tuple[int, int] | None = None  # quarter_range: (fiscal_year, quarter)
    end_quarter: tuple[int, int] | None = None
    start_date: date | None = None  # date_range: first day of the first calendar month
    end_date: date | None = None  # last day of the last month; None = up to today ("since June 2022")
    n: int | None = None  # last_quarters, last_years
    # last_quarters with start_date/end_date (and day): the months its newest quarter ends in
    # ("the last three quarters through June 2024").
    unit: Unit | None = None
    """"quarter" when the question asks for quarters of a year-based span; None = the default.

    For date_range: "year" names fiscal years ending in the months ("the year ended ..."); for a
    calendar span or "reported": "quarter" for quarters, None for fiscal years."""
    day: date | None = None
    """date_range: the exact date written ("the quarter ended July 1, 2023"); the months are nominal."""
    slack: int = 0
    """date_range: days outside the months that still match ("around December 2022")."""
    span: bool = False
    """date_range: a calendar span ("during 2023"): the periods mostly inside it, not those ending in it."""
    report: str | None = None
    """last_quarters: count only quarters with this report kind ("the last three 10-Qs")."""

    # -- constructors (tests and callers build specs by hand) ---------------------------------
    @classmethod
    def fiscal_year(
        cls, year: int, *, text: str = "", position: int = 0, unit: Unit | None = None
    ) -> TimeSpec:
        return cls("fiscal_year", text, position, year=year, unit=unit)

    @classmethod
    def fiscal_quarter(cls, year: int, quarter: int, *, text: str = "", position: int = 0) -> TimeSpec:
        return cls("fiscal_quarter", text, position, year=year, quarter=quarter)

    @classmethod
    def year_range(
        cls, start_year: int, end_year: int, *, text: str = "", position: int = 0, unit: Unit | None = None
    ) -> TimeSpec:
        low, high = sorted((start_year, end_year))
        return cls("year_range", text, position, start_year=low, end_year=high, unit=unit)

    @classmethod
    def quarter_range(
        cls, start: tuple[int, int], end: tuple[int, int], *, text: str = "", position: int = 0
    ) -> TimeSpec:
        low, high = sorted((start, end))
        return cls("quarter_range", text, position, start_quarter=low, end_quarter=high)

    @classmethod
    def date_range(
        cls,
        start: date,
        end: date | None,
        *,
        text: str = "",
        position: int = 0,
        unit: Unit | None = None,
        day: date | None = None,
        slack: int = 0,
        span: bool = False,
    ) -> TimeSpec:
        """Calendar months from ``start``'s month to ``end``'s month (None: up to today)."""
        first, last = month_bounds(start, end)
        return cls(
            "date_range",
            text,
            position,
            start_date=first,
            end_date=last,
            unit=unit,
            day=day,
            slack=slack,
            span=span,
        )

    @classmethod
    def reported(
        cls,
        start: date,
        end: date | None,
        *,
        first_quarters: int | None = None,
        text: str = "",
        position: int = 0,
        unit: Unit | None = None,
    ) -> TimeSpec:
        """Periods whose report was filed in the months; ``first_quarters=3`` keeps fiscal Q1-Q3."""
        first, last = month_bounds(start, end)
        return cls("reported", text, position, start_date=first, end_date=last, n=first_quarters, unit=unit)

    @classmethod
    def fiscal_span(
        cls,
        months: int,
        year: int | None = None,
        *,
        ended: tuple[date, date | None] | None = None,
        text: str = "",
        position: int = 0,
    ) -> TimeSpec:
        """The first ``months`` (6 or 9) of a fiscal year: of ``year``, or ending in the months of
        ``ended`` ((month, exact day or None): "the six months ended June 30, 2024")."""
        if ended is None:
            return cls("fiscal_span", text, position, year=year, n=months)
        first, last = month_bounds(ended[0], ended[0])
        return cls("fiscal_span", text, position, start_date=first, end_date=last, day=ended[1], n=months)

    @classmethod
    def last_quarters(
        cls, n: int, *, text: str = "", position: int = 0, report: str | None = None
    ) -> TimeSpec:
        return cls("last_quarters", text, position, n=n, report=report)

    @classmethod
    def last_years(cls, n: int, *, text: str = "", position: int = 0, unit: Unit | None = None) -> TimeSpec:
        return cls("last_years", text, position, n=n, unit=unit)

    @classmethod
    def latest(cls, *, text: str = "", position: int = 0, unit: Unit | None = None) -> TimeSpec:
        return cls("latest", text, position, unit=unit)

    @classmethod
    def held(cls, *, text: str = "", position: int = 0, unit: Unit | None = None) -> TimeSpec:
        """Every period the store holds ("across these quarters", "over time")."""
        return cls("held", text, position, unit=unit)

    @classmethod
    def since_year(
        cls,
        year: int,
        *,
        quarter: int | None = None,
        text: str = "",
        position: int = 0,
        unit: Unit | None = None,
    ) -> TimeSpec:
        return cls("since_year", text, position, year=year, quarter=quarter, unit=unit)

    # -- views ------------------------------------------------------------------------------
    def key(self) -> tuple[Any, ...]:
        """Identity without the phrase text and position: equal keys mean the same request."""
        return (
            self.kind,
            self.year,
            self.quarter,
            self.start_year,
            self.end_year,
            self.start_quarter,
            self.end_quarter,
            self.start_date,
            self.end_date,
            self.n,
            self.unit,
            self.day,
            self.slack,
            self.span,
            self.report,
        )

    def describe(self) -> str:
        """Compact form for logs and tests: "fiscal_quarter(2024, 2)", "year_range(2019, 2021)".

        A date range's exact ``day`` and ``span`` flag are left out (``to_dict`` keeps them).
        """
        if self.kind in ("fiscal_year", "since_year"):
            body = f"{self.year}" if self.quarter is None else f"{self.year}Q{self.quarter}"
        elif self.kind == "fiscal_quarter":
            body = f"{self.year}, {self.quarter}"
        elif self.kind == "year_range":
            body = f"{self.start_year}, {self.end_year}"
        elif self.kind == "quarter_range" and self.start_quarter and self.end_quarter:
            (y1, q1), (y2, q2) = self.start_quarter, self.end_quarter
            body = f"{y1}Q{q1}, {y2}Q{q2}"
        elif self.kind in ("date_range", "reported") and self.start_date:
            body = f"{self.start_date.isoformat()}, {self.end_date.isoformat() if self.end_date else 'today'}"
            if self.slack:
                body += f", ±{self.slack}d"
            if self.kind == "reported" and self.n:
                body += f", first {self.n}"
        elif self.kind == "fiscal_span":
            body = f"{self.n}M, " + (
                str(self.year)
                if self.year is not None
                else f"ended {self.end_date:%Y-%m}"
                if self.end_date
                else ""
            )
        elif self.kind in ("last_quarters", "last_years"):
            body = f"{self.n}" if self.report is None else f"{self.n}, {self.report}"
            if self.end_date is not None:
                body += f", through {self.end_date:%Y-%m}"
        else:
            body = ""
        text = f"{self.kind}({body})" if body else self.kind
        return f"{text}[{self.unit}]" if self.unit else text

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (graph state is plain JSON); ``from_dict`` reverses it."""
        out: dict[str, Any] = {"kind": self.kind, "text": self.text, "position": self.position}
        for name in ("year", "quarter", "start_year", "end_year", "n", "unit", "report"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.slack:
            out["slack"] = self.slack
        if self.span:
            out["span"] = True
        for name in ("start_quarter", "end_quarter"):
            pair = getattr(self, name)
            if pair is not None:
                out[name] = list(pair)
        for name in ("start_date", "end_date", "day"):
            day = getattr(self, name)
            if day is not None:
                out[name] = day.isoformat()
        out["description"] = self.describe()
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TimeSpec:
        kind = data["kind"]
        if kind not in get_args(SpecKind):
            raise ValueError(f"unknown time spec kind {kind!r}")

        def pair(name: str) -> tuple[int, int] | None:
            value = data.get(name)
            return None if value is None else (int(value[0]), int(value[1]))

        def day(name: str) -> date | None:
            value = data.get(name)
            return None if value is None else date.fromisoformat(str(value))

        return cls(
            kind=kind,
            text=str(data.get("text", "")),
            position=int(data.get("position", 0)),
            year=data.get("year"),
            quarter=data.get("quarter"),
            start_year=data.get("start_year"),
            end_year=data.get("end_year"),
            start_quarter=pair("start_quarter"),
            end_quarter=pair("end_quarter"),
            start_date=day("start_date"),
            end_date=day("end_date"),
            n=data.get("n"),
            unit=data.get("unit"),
            day=day("day"),
            slack=int(data.get("slack", 0)),
            span=bool(data.get("span", False)),
            report=data.get("report"),
        )


def month_bounds(start: date, end: date | None) -> tuple[date, date | None]:
    """First day of ``start``'s month and last day of ``end``'s month (None stays None)."""
    if end is not None and end < start:
        start, end = end, start
    first = start.replace(day=1)
    last = None if end is None else end.replace(day=_calendar.monthrange(end.year, end.month)[1])
    return first, last


@dataclass(frozen=True)
class AvailablePeriod:
    """Documents of one kind the store holds for one company and fiscal period."""

    ticker: str
    kind: str
    fiscal_year: int
    fiscal_quarter: int | None
    period_end: date | None
    documents: int
    first_period_end: date | None = None
    """Earliest period end in the group (``period_end`` is the latest)."""
    filed: date | None = None
    """When the report was filed (the earliest in the group), for "reported in 2023"; None: unknown."""


def month_index(day: date) -> int:
    return day.year * 12 + day.month - 1


def from_month_index(index: int) -> date:
    year, month0 = divmod(index, 12)
    return date(year, month0 + 1, 1)


def month_end(month: date) -> date:
    return date(month.year, month.month, _calendar.monthrange(month.year, month.month)[1])


def quarter_index(year: int, quarter: int) -> int:
    return year * 4 + quarter - 1


def from_quarter_index(index: int) -> tuple[int, int]:
    year, rest = divmod(index, 4)
    return year, rest + 1
