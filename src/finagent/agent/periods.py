"""Time phrases -> concrete fiscal periods per company, on that company's calendar and store.

"Q2 2024", "last 3 quarters" or "between June 2022 and June 2023" mean different filings for
Apple (FYE September), Microsoft (June) and Nvidia (late January). The graph needs exact
(ticker, fiscal year, fiscal quarter) targets to filter retrieval, and honest warnings when the
store lacks them, so this is plain deterministic code with tests, never a model's guess.

Two steps: ``parse_time_phrases`` turns the question into company-independent ``TimeSpec``\\ s;
``resolve_periods`` turns specs into ``TargetPeriod``\\ s for one company, using its
``CompanyCalendar`` and the ``AvailablePeriod`` inventory from ``load_available_periods``.

Rules for the ambiguous cases:

* fiscal years: a year in a question ("in 2023", "2019 vs 2021") is the company's fiscal year;
  "calendar 2023" / "CY2023" / "during 2023" / "over the course of 2023" is a calendar span instead:
  the fiscal quarters with at least two of their three months inside it when the question speaks
  of quarters, else the fiscal years with more than half their months inside it (exactly half:
  the year ending inside it). Apple FY2023 (Oct 2022 - Sep 2023), Microsoft FY2023 (Jul 2022 -
  Jun 2023, half inside: it ends inside), Nvidia FY2024 (Feb 2023 - Jan 2024), Amazon FY2023;
* months and dates ("March/April 2023", "the quarter ended July 1, 2023", "between June 2022 and
  June 2023") name the periods whose end falls in those months: the *actual* end from the store
  (Apple's quarter ended April 1, 2023 ends in April) or the nominal month (April 1 nominally
  closes March), the nominal month alone when the store has no end. "around"/"about"/"near" also
  accept ends within a week outside the months; an exact date first looks for a stored end within
  a week of it. "the (fiscal) year(s) / twelve months ended ..." names fiscal years, not quarters.
  Months with no period end are warned about and the period containing them is used;
* "reported / filed / released in 2023" names the periods whose report was filed then: the stored
  filing date, else period end + 45 days (quarters 1-3, 10-Q) or + 60 days (Q4 and years, 10-K);
  "the first three (fiscal) quarters reported in 2023" keeps fiscal quarters 1-3 among them;
* FY without a 10-K in the store: the quarters of that year the store holds are targeted instead,
  with a warning; with neither, the annual period is still targeted (unavailable) and warned about;
* Q4 is normally reported only in the 10-K: a Q4 with no quarter-level document (10-Q, transcript,
  earnings release) but a FY 10-K targets the annual period too, with a warning;
* "last N quarters" counts back from the newest quarter the store holds (a FY 10-K covers Q4),
  or, with nothing stored, from the last quarter ended before ``today`` (warned); "the last N
  10-Qs" (or last N quarters in a question about 10-Qs only) counts the quarters with a 10-Q;
* "latest" / no time phrase: the newest period the store holds, quarterly or annual per ``prefer``
  (a question saying "quarter(ly)" or "annual"/"10-K" sets the unit itself);
* ranges, "since" and "last N years" are annual unless the question says quarters ("quarterly
  revenue since 2022"); generated periods that have not ended by ``today`` and have no documents
  are dropped with one warning; more than ``max_quarters`` periods keep the most recent ones;
* XBRL facts (inventory kind ``"facts"``) make an explicitly named period available, but never
  move "latest", the "last N" anchors, "across these quarters" or the nearest earlier report:
  a filing's comparative columns must not add periods the store has no document for.
"""

from __future__ import annotations

import calendar as _calendar
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import Any, Literal, cast, get_args

import psycopg

from finagent.companies import lookup_builtin
from finagent.db.companies import StoredCompany
from finagent.fiscal import (
    fiscal_period,
    last_quarter_end_before,
    nominal_month_end,
    quarter_end,
    quarter_label,
)
from finagent.resources import read_sql

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
]
Unit = Literal["year", "quarter"]
Prefer = Literal["quarter", "annual"]

# Kinds that report a whole fiscal year, and kinds that report one fiscal quarter.
ANNUAL_KINDS = frozenset({"10-K", "annual_report"})
QUARTER_KINDS = frozenset({"10-Q", "transcript", "earnings_release"})
_KIND_ORDER = (
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
        first, last = _month_bounds(start, end)
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
        first, last = _month_bounds(start, end)
        return cls("reported", text, position, start_date=first, end_date=last, n=first_quarters, unit=unit)

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


def _month_bounds(start: date, end: date | None) -> tuple[date, date | None]:
    """First day of ``start``'s month and last day of ``end``'s month (None stays None)."""
    if end is not None and end < start:
        start, end = end, start
    first = start.replace(day=1)
    last = None if end is None else end.replace(day=_calendar.monthrange(end.year, end.month)[1])
    return first, last


# --------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------
_Y4 = r"(?:19[5-9]\d|20\d\d)"
_YEAR_END = r"(?![\d%]|[.,]\d)"
_NUM = (
    r"(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few)"
)
_NUM2 = _NUM.replace("<n>", "<n2>")
_ORD = r"(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)"


def _month_group(name: str) -> str:
    return (
        rf"(?P<{name}>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
        r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
    )


_MON = _month_group("mon")
_MON2 = _month_group("mon2")
# A fiscal year: "FY2024", "FY24", "FY 2024", "fiscal 2024", "fiscal year 2024", "2024".
_YEXPR = (
    rf"(?:\bFY\s*'?(?P<fy>\d{{4}}|\d{{2}})(?!\d)|(?:\bfiscal\s+(?:year\s+)?)?(?<![\w$.,/#])(?P<y4>{_Y4}))"
    rf"{_YEAR_END}"
)
_FISCAL_WORD = re.compile(r"\bfiscal\b|\bFY", re.I)
# "the quarters ending …", "the periods from 2019 to 2021": the dates that follow name the periods.
_NOT_NAMED = r"(?!\s+(?:end|ending|ended|of|from|between|since|through|in|to)\b)"
_LATEST_WORD = r"(?:latest|newest|most\s+recent(?:ly)?(?:\s+(?:reported|completed|ended|filed|available))?)"
_RECENT = r"(?:last|past|previous|prior|preceding|trailing|recent|latest|most\s+recent)"

_WORD_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "couple": 2, "couple of": 2, "a couple": 2, "a couple of": 2,
    "few": 3, "a few": 3,
}  # fmt: skip
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_MONTHS = {m.lower(): i for i, m in enumerate(_calendar.month_abbr) if m}

_NORMALISE = str.maketrans(
    {"’": "'", "‘": "'", "′": "'", "–": "-", "—": "-", "‑": "-", "−": "-", "\u00a0": " "}
)


@dataclass
class _Atom:
    """A recognised piece of a time phrase, before ranges and "since" are combined."""

    kind: Literal["spec", "year", "quarter", "month", "lone"]
    start: int
    end: int
    spec: TimeSpec | None = None
    year: int | None = None
    quarter: int | None = None
    month: date | None = None  # first day of the month the phrase (nominally) ends in
    first_month: date | None = None  # first day of the month as written (start of a range)
    months: tuple[date, ...] = ()  # every month the phrase names on its own ("March/April 2023")
    day: date | None = None  # the exact date written ("July 1, 2023")


_Handler = Callable[[re.Match[str]], "_Atom | TimeSpec | bool | None"]


def _number(text: str) -> int | None:
    key = re.sub(r"\s+", " ", text.lower().strip())
    value = int(key) if key.isdigit() else _WORD_NUMBERS.get(key)
    return value if value and value > 0 else None


def _two_digit_year(yy: int) -> int:
    return 2000 + yy if yy < 50 else 1900 + yy


def _year_value(text: str | None) -> int | None:
    if not text:
        return None
    value = int(text)
    if len(text) == 2:
        return _two_digit_year(value)
    return value if 1950 <= value <= 2099 else None


def _year_of(m: re.Match[str]) -> int | None:
    groups = m.groupdict()
    for name in ("fy", "y4", "y2"):
        if groups.get(name):
            return _year_value(groups[name])
    return None


def _month_start(year: int, month: int) -> date:
    return date(year, month, 1)


def _month_atom(m: re.Match[str]) -> _Atom | None:
    groups = m.groupdict()
    year = _year_of(m)
    if year is None:
        return None
    month = _MONTHS.get(groups["mon"].lower()[:3]) if groups.get("mon") else int(groups["m"])
    if month is None or not 1 <= month <= 12:
        return None
    day_text = groups.get("day")
    written = _month_start(year, month)
    if day_text:
        try:
            day = date(year, month, int(day_text))
        except ValueError:
            return None
        nominal_year, nominal_month = nominal_month_end(day)  # "July 1, 2023" closes June (52/53 weeks)
        nominal = _month_start(nominal_year, nominal_month)
        return _Atom(
            "month", m.start(), m.end(), month=nominal, first_month=written, months=(nominal,), day=day
        )
    return _Atom("month", m.start(), m.end(), month=written, first_month=written, months=(written,))


def _month_end(month: date) -> date:
    return date(month.year, month.month, _calendar.monthrange(month.year, month.month)[1])


def _month_index(day: date) -> int:
    return day.year * 12 + day.month - 1


def _from_month_index(index: int) -> date:
    year, month0 = divmod(index, 12)
    return date(year, month0 + 1, 1)


def _month_pair_atom(m: re.Match[str]) -> _Atom | None:
    """ "March/April 2023", "Mar or Apr 2023" (either month); "March-June 2023" (the months between)."""
    year = _year_of(m)
    first_number = _MONTHS.get(m.group("mon").lower()[:3])
    second_number = _MONTHS.get(m.group("mon2").lower()[:3])
    if year is None or first_number is None or second_number is None:
        return None
    # "December/January 2023": the first month belongs to the year before.
    first = _month_start(year if first_number <= second_number else year - 1, first_number)
    second = _month_start(year, second_number)
    separator = m.group("sep").lower()
    ranged = separator in ("-", "to", "through", "thru") or (m.group("op") is not None and separator == "and")
    if ranged:
        months = tuple(_from_month_index(i) for i in range(_month_index(first), _month_index(second) + 1))
    else:
        months = tuple(sorted({first, second}))
    return _Atom("month", m.start(), m.end(), month=second, first_month=first, months=months)


def _quarter_atom(m: re.Match[str]) -> _Atom | None:
    groups = m.groupdict()
    quarter = int(groups["q"]) if groups.get("q") else _ORDINALS[groups["ord"].lower()]
    year = _year_of(m)
    if year is None:
        return None
    return _Atom("quarter", m.start(), m.end(), year=year, quarter=quarter)


def _lone_atom(m: re.Match[str]) -> _Atom:
    groups = m.groupdict()
    quarter = int(groups["q"]) if groups.get("q") else _ORDINALS[groups["ord"].lower()]
    return _Atom("lone", m.start(), m.end(), quarter=quarter)


def _year_atom(m: re.Match[str]) -> _Atom | TimeSpec | None:
    year = _year_of(m)
    if year is None:
        return None
    end_text = m.groupdict().get("to")
    if end_text:  # "FY19-21", "2019-20"
        end = _year_value(end_text)
        if end is None or not 0 < end - year <= 20:
            return None
        return TimeSpec.year_range(year, end, text=m.group(0), position=m.start())
    return _Atom("year", m.start(), m.end(), year=year)


def _spec(build: Callable[[re.Match[str]], TimeSpec | None]) -> _Handler:
    """Wrap a builder so the produced spec carries the matched text and position."""

    def handler(m: re.Match[str]) -> TimeSpec | None:
        spec = build(m)
        if spec is None:
            return None
        return replace(spec, text=m.group(0).strip(), position=m.start())

    return handler


def _n_quarters(m: re.Match[str]) -> TimeSpec | None:
    n = _number(m.group("n"))
    return TimeSpec.last_quarters(n) if n else None


def _n_months(m: re.Match[str]) -> TimeSpec | None:
    n = _number(m.group("n"))
    return TimeSpec.last_quarters(math.ceil(n / 3)) if n else None


def _n_reports(m: re.Match[str], kind: str) -> TimeSpec | None:
    """ "the last three 10-Qs": quarters that have a 10-Q; "the last two 10-Ks": fiscal years."""
    n = _number(m.group("n") or m.group("n2"))
    if not n:
        return None
    return TimeSpec.last_quarters(n, report="10-Q") if kind == "10-Q" else TimeSpec.last_years(n)


def _n_years(m: re.Match[str]) -> TimeSpec | None:
    n = _number(m.group("n"))
    return TimeSpec.last_years(n) if n else None


def _half(m: re.Match[str]) -> TimeSpec | None:
    year = _year_of(m)
    word = (m.group("h") or m.group("hw") or "").lower()
    if year is None or not word:
        return None
    first = word in ("1", "first", "1st")
    return TimeSpec.quarter_range((year, 1 if first else 3), (year, 2 if first else 4))


def _quarter_span(m: re.Match[str]) -> TimeSpec | None:
    year = _year_of(m)
    if year is None:
        return None
    return TimeSpec.quarter_range((year, int(m.group("q1"))), (year, int(m.group("q2"))))


def _calendar_year(m: re.Match[str]) -> TimeSpec | None:
    """A calendar span: "calendar 2023", "CY2023", "during 2023", "calendar 2021-2023"."""
    groups = m.groupdict()
    year = _year_value(groups["y4"] or groups["y4b"] or groups["y4c"] or groups["fy"])
    if year is None:
        return None
    end = _year_value(groups["to"] or groups["to2"] or groups["to3"]) or year
    if not 0 <= end - year <= 20:
        return None
    return TimeSpec.date_range(date(year, 1, 1), date(end, 12, 31), span=True)


_QUARTER_NOUN = re.compile(r"quarter|10-?Q", re.I)
_YEAR_NOUN = re.compile(r"year|10-?K|annual", re.I)


def _reported(m: re.Match[str]) -> TimeSpec | None:
    """ "the first three fiscal quarters reported in 2023", "10-Qs filed in 2023", "released in May 2023"."""
    year = _year_of(m)
    if year is None:
        return None
    month = _MONTHS.get(m.group("mon").lower()[:3]) if m.group("mon") else None
    start, end = (
        (date(year, month, 1), date(year, month, 1)) if month else (date(year, 1, 1), date(year, 12, 1))
    )
    what = m.group("what") or ""
    unit: Unit | None = (
        "quarter" if _QUARTER_NOUN.search(what) else "year" if _YEAR_NOUN.search(what) else None
    )
    first: int | None = None
    if m.group("first"):
        first = _number(m.group("n")) if m.group("n") else 1
        if first is None or first > 4:
            return None
        unit = "quarter"
    elif re.match(r"10-?Q", what, re.I):
        first = 3  # 10-Qs cover fiscal quarters 1-3; Q4 is in the 10-K
    if unit is None and month is not None:
        unit = "quarter"  # "results released in May 2023": a quarter's; its Q4 brings the 10-K along
    return TimeSpec.reported(start, end, first_quarters=first, unit=unit)


_I = re.IGNORECASE
_RULES: tuple[tuple[re.Pattern[str], _Handler], ...] = (
    # "the same quarter last year" compares quarters; it names no period of its own.
    (
        re.compile(
            r"\b(?:the\s+)?(?:same|year[- ]ago|prior[- ]year|comparable)\s+(?:quarter|period)"
            r"(?:\s+(?:of\s+|in\s+)?(?:the\s+)?(?:last|prior|previous)\s+(?:fiscal\s+)?year"
            r"|\s+a\s+year\s+(?:ago|earlier|before))?\b",
            _I,
        ),
        lambda m: True,
    ),
    # Periods by filing date: "the first three fiscal quarters reported in 2023", "10-Ks filed in 2023".
    (
        re.compile(
            rf"(?:\b(?:the\s+)?(?:(?P<first>first)\s+(?:{_NUM}\s+)?)?(?:fiscal\s+)?"
            r"(?P<what>(?:annual\s+|quarterly\s+|full[- ]year\s+)?(?:quarters?|periods?|10-?Qs?|10-?Ks?"
            r"|(?:fiscal\s+)?years?|results|reports?|filings?"
            r"|figures|financials|numbers))\s+(?:that\s+(?:were|was)\s+|which\s+(?:were|was)\s+)?)?"
            r"\b(?:reported|filed|released)\s+(?:in|during|within|throughout|over)\s+(?:the\s+)?"
            rf"(?:course\s+of\s+)?(?:calendar\s+)?(?:year\s+)?(?:{_MON},?\s+)?(?P<y4>{_Y4}){_YEAR_END}"
            r"(?!\s*(?:10-?[KQ]|annual|quarterly|form|filing|report|earnings|results|fiscal|calendar|-))",
            _I,
        ),
        _spec(_reported),
    ),
    # "the last three 10-Qs" counts 10-Qs (no Q4); "the last two 10-Ks" counts fiscal years.
    (
        re.compile(
            rf"\b(?:the\s+|their\s+|its\s+)?{_RECENT}\s+{_NUM}\s+(?:10-?Qs|quarterly\s+(?:reports|filings))\b"
            rf"|\b(?:the\s+|their\s+|its\s+)?{_NUM2}\s+(?:most\s+recent|latest|last|past"
            r"|previous|prior)\s+(?:10-?Qs|quarterly\s+(?:reports|filings))\b",
            _I,
        ),
        _spec(lambda m: _n_reports(m, "10-Q")),
    ),
    (
        re.compile(
            rf"\b(?:the\s+|their\s+|its\s+)?{_RECENT}\s+{_NUM}\s+(?:10-?Ks|annual\s+(?:reports|filings))\b"
            rf"|\b(?:the\s+|their\s+|its\s+)?{_NUM2}\s+(?:most\s+recent|latest|last|past"
            r"|previous|prior)\s+(?:10-?Ks|annual\s+(?:reports|filings))\b",
            _I,
        ),
        _spec(lambda m: _n_reports(m, "10-K")),
    ),
    (
        re.compile(rf"\b(?:the\s+)?{_RECENT}\s+{_NUM}\s+(?:fiscal\s+|reported\s+)?quarters\b", _I),
        _spec(_n_quarters),
    ),
    (  # "the four quarters ended March 2023" (the anchor joins it when parsing)
        re.compile(
            rf"\b(?:the\s+)?{_NUM}\s+(?:fiscal\s+)?quarters(?=\s*,?\s+(?:that\s+)?(?:ended|ending|through|thru|up\s+to)\b)",
            _I,
        ),
        _spec(_n_quarters),
    ),
    (
        re.compile(
            rf"\b(?:the\s+)?{_NUM}\s+(?:most\s+recent|latest|last|past|previous|prior|trailing)\s+"
            r"(?:fiscal\s+|reported\s+)?quarters\b",
            _I,
        ),
        _spec(_n_quarters),
    ),
    (
        re.compile(rf"\b(?:the\s+)?(?:last|past|previous|prior|trailing)\s+{_NUM}\s+months\b", _I),
        _spec(_n_months),
    ),
    (
        re.compile(r"\b(?:TTM|LTM)\b|\btrailing\s+(?:twelve|12)[-\s]months?\b", _I),
        _spec(lambda m: TimeSpec.last_quarters(4)),
    ),
    (
        re.compile(rf"\b(?:the\s+)?{_RECENT}\s+{_NUM}\s+(?:fiscal\s+|full\s+)?years\b", _I),
        _spec(_n_years),
    ),
    (
        re.compile(
            rf"\b(?:the\s+)?{_NUM}\s+(?:most\s+recent|latest|last|past|previous|prior)\s+(?:fiscal\s+)?years\b",
            _I,
        ),
        _spec(_n_years),
    ),
    (
        re.compile(
            rf"\b(?:the\s+)?(?:{_LATEST_WORD}|current|recent|last\s+reported)\s+(?:fiscal\s+|reported\s+)?"
            r"(?:quarter(?:ly)?|10-?Q)\b",
            _I,
        ),
        _spec(lambda m: TimeSpec.latest(unit="quarter")),
    ),
    (
        re.compile(
            rf"\b(?:the\s+)?(?:{_LATEST_WORD}|current|recent|last\s+reported)\s+"
            r"(?:fiscal\s+year|full[- ]year|year|annual(?:\s+report)?|10-?K)\b",
            _I,
        ),
        _spec(lambda m: TimeSpec.latest(unit="year")),
    ),
    (
        re.compile(
            r"\b(?:the\s+)?(?:last|past|previous|prior|preceding)\s+(?:fiscal\s+|reported\s+)?quarter\b", _I
        ),
        _spec(lambda m: TimeSpec.last_quarters(1)),
    ),
    (
        re.compile(r"\b(?:the\s+)?(?:last|past|previous|prior|preceding)\s+(?:fiscal\s+|full\s+)?year\b", _I),
        _spec(lambda m: TimeSpec.last_years(1)),
    ),
    (re.compile(rf"\b(?:the\s+)?{_LATEST_WORD}\b", _I), _spec(lambda m: TimeSpec.latest())),
    # No period named, but many meant: "across these quarters", "in these 10-Qs", "over time".
    (
        re.compile(
            rf"\b(?:across|over|throughout|in|from|during|for)\s+(?:all\s+)?(?:the\s+|these\s+|those\s+|its\s+)?"
            r"(?:multiple\s+|several\s+|various\s+|different\s+|successive\s+|consecutive\s+)?"
            rf"(?:reported\s+|covered\s+|available\s+|fiscal\s+)?(?:quarters|periods|10-?Qs|reports|filings)\b{_NOT_NAMED}"
            rf"|\b(?:these|those|all\s+the|each\s+of\s+the)\s+(?:reported\s+)?(?:quarters|periods|10-?Qs)\b{_NOT_NAMED}"
            r"|\b(?:previous|prior|preceding|earlier|past|other)\s+quarters\b"
            r"|\bover\s+time\b|\bquarter[- ]over[- ]quarter\b|\bfrom\s+quarter\s+to\s+quarter\b",
            _I,
        ),
        _spec(lambda m: TimeSpec.held(unit="quarter")),
    ),
    # Calendar years are spans of months: "calendar 2023" is FY2023 only for December year ends.
    (
        re.compile(
            r"\b(?:during|throughout|over\s+the\s+course\s+of|in\s+the\s+course\s+of)\s+(?:the\s+)?"
            rf"(?:calendar\s+)?(?:years?\s+)?(?P<y4>{_Y4}){_YEAR_END}"
            rf"(?:\s*(?:-|to|through|until)\s*(?P<to3>{_Y4}){_YEAR_END})?(?:\s+calendar\s+years?\b)?"
            r"(?!\s*(?:-|to\b|through\b|and\b)\s*(?:FY|fiscal|Q[1-4]|\d))"
            rf"|\bCY\s*'?(?P<fy>\d{{4}}|\d{{2}})(?!\d)(?:\s*(?:-|to|through)\s*(?:CY\s*)?'?(?P<to>\d{{4}}|\d{{2}})(?!\d))?"
            rf"|\bcalendar\s+(?:years?\s+)?(?P<y4b>{_Y4}){_YEAR_END}"
            rf"(?:\s*(?:-|to|through)\s*(?P<to2>{_Y4}){_YEAR_END})?"
            rf"|\b(?:the\s+)?(?P<y4c>{_Y4})\s+calendar\s+year\b",
            _I,
        ),
        _spec(_calendar_year),
    ),
    # Dates and months; "March/April 2023" and "March-June 2023" first.
    (
        re.compile(
            rf"\b(?:(?P<op>between|from)\s+)?{_MON}\s*(?P<sep>/|&|-|\bor\b|\band\b|\bto\b|\bthrough\b|\bthru\b)"
            rf"\s*{_MON2},?\s+(?:of\s+)?(?:(?P<y4>{_Y4}){_YEAR_END}|'(?P<y2>\d{{2}})(?!\d))",
            _I,
        ),
        _month_pair_atom,
    ),
    (
        re.compile(rf"(?<![\w.])(?P<y4>{_Y4})-(?P<m>\d{{2}})-(?P<day>\d{{2}})(?!\d)"),
        _month_atom,
    ),
    (
        re.compile(rf"(?<![\w./])(?P<m>\d{{1,2}})/(?P<day>\d{{1,2}})/(?P<y4>{_Y4})(?!\d)"),
        _month_atom,
    ),
    (
        re.compile(rf"\b{_MON}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y4>{_Y4}){_YEAR_END}", _I),
        _month_atom,
    ),
    (
        re.compile(
            rf"\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MON},?\s+(?P<y4>{_Y4}){_YEAR_END}", _I
        ),
        _month_atom,
    ),
    (
        re.compile(
            rf"\b{_MON},?\s+(?:of\s+)?(?:(?P<y4>{_Y4}){_YEAR_END}|'(?P<y2>\d{{2}})(?!\d))(?:\s+quarter\b)?",
            _I,
        ),
        _month_atom,
    ),
    # Halves and spans of quarters within one year.
    (
        re.compile(
            r"\b(?:H(?P<h>[12])|(?P<hw>first|second|1st|2nd)\s+half)\s*(?:of\s+)?(?:the\s+)?"
            rf"(?:{_YEXPR}|'(?P<y2>\d{{2}})(?!\d))",
            _I,
        ),
        _spec(_half),
    ),
    (
        re.compile(
            rf"(?<![\w$.,])(?P<h>[12])H\s*(?:FY\s*)?(?:'?(?P<y2>\d{{2}})(?!\d)|(?P<y4>{_Y4}){_YEAR_END})", _I
        ),
        _spec(_half),
    ),
    (
        re.compile(
            r"(?<![\w$])Q(?P<q1>[1-4])\s*(?:-|to|through|thru)\s*Q(?P<q2>[1-4])\s*(?:of\s+)?(?:the\s+)?"
            rf"(?:{_YEXPR}|'(?P<y2>\d{{2}})(?!\d))",
            _I,
        ),
        _spec(_quarter_span),
    ),
    # Quarters: "Q2 2024", "Q2 FY2024", "Q2 of FY2024", "fiscal Q2 2024", "Q2'24", "2Q24", "2024 Q2",
    # "second quarter of 2024", "third quarter of fiscal 2023", "fiscal 2023 third quarter".
    (
        re.compile(
            r"(?<![\w$])(?:\bfiscal\s+(?:year\s+)?)?Q(?P<q>[1-4])[\s-]*(?:of\s+)?(?:the\s+)?"
            rf"(?:fiscal\s+(?:year\s+)?|FY\s*'?)?(?P<y4>{_Y4}){_YEAR_END}",
            _I,
        ),
        _quarter_atom,
    ),
    (
        re.compile(
            r"(?<![\w$])(?:\bfiscal\s+)?Q(?P<q>[1-4])\s*(?:of\s+)?(?:FY\s*'?|')(?P<y2>\d{2})(?!\d)", _I
        ),
        _quarter_atom,
    ),
    (
        re.compile(
            rf"(?<![\w$.,])(?P<q>[1-4])Q(?:\s*FY\s*'?|\s*'|\s*)(?:(?P<y4>{_Y4}){_YEAR_END}|(?P<y2>\d{{2}})(?!\d))",
            _I,
        ),
        _quarter_atom,
    ),
    (re.compile(rf"{_YEXPR}\s*-?\s*Q(?P<q>[1-4])\b", _I), _quarter_atom),
    (
        re.compile(
            rf"\b(?:the\s+)?(?:fiscal\s+)?{_ORD}[-\s]+(?:fiscal[-\s]+)?quarter\s*,?\s*(?:of\s+|in\s+)?(?:the\s+)?"
            rf"{_YEXPR}",
            _I,
        ),
        _quarter_atom,
    ),
    (re.compile(rf"{_YEXPR}\s+{_ORD}[-\s]+(?:fiscal[-\s]+)?quarter\b", _I), _quarter_atom),
    # Years.
    (
        re.compile(
            r"\bFY\s*'?(?P<fy>\d{4}|\d{2})(?!\d)(?:\s*-\s*(?:FY\s*)?'?(?P<to>\d{2})(?![\d-]))?" + _YEAR_END,
            _I,
        ),
        _year_atom,
    ),
    (
        re.compile(
            rf"\bfiscal\s+(?:years?\s+)?(?:of\s+)?(?:(?P<y4>{_Y4}){_YEAR_END}|'(?P<y2>\d{{2}})(?!\d))", _I
        ),
        _year_atom,
    ),
    (re.compile(rf"(?<![\w$.,/#])(?P<y4>{_Y4})\s*-\s*(?P<to>\d{{2}})(?![\d-])"), _year_atom),
    (
        re.compile(
            rf"(?<![\w$.,/#])(?P<y4>{_Y4})"
            r"(?!\d|[.,]\d|\s*%|-\d{1,2}(?!\d)|\s*(?:million|billion|thousand|bn|mn|mm|k|m|b)\b|\w)",
            _I,
        ),
        _year_atom,
    ),
    # Quarters without a year ("Q4 revenue in FY2023"): they borrow the nearest year later.
    (re.compile(r"(?<![\w$])Q(?P<q>[1-4])(?!\w)", _I), _lone_atom),
    (re.compile(rf"\b(?:the\s+)?(?:fiscal\s+)?{_ORD}[-\s]+(?:fiscal[-\s]+)?quarter\b(?!s)", _I), _lone_atom),
)

_OPENER = re.compile(r"\b(?P<op>from|between)\s+(?:the\s+)?(?:(?:fiscal\s+)?(?:years?|quarters?)\s+)?$", _I)
_CONNECTOR = re.compile(r"\s*(?P<c>-|to|through|thru|until|till|and)\s*(?:the\s+)?(?:end\s+of\s+)?", _I)
_SINCE = re.compile(
    r"\b(?:since|starting(?:\s+(?:in|from|with))?|beginning(?:\s+(?:in|with))?)\s+"
    r"(?:the\s+(?:start|beginning)\s+of\s+)?(?:the\s+)?$",
    _I,
)
_AROUND_WORD = r"(?:around|about|near|nearly|approximately|approx\.|roughly|circa|close\s+to)"
# "the quarter ended", "the fiscal years ended", "twelve months ending around": the date that follows
# names the period's end; the "what" decides quarter or fiscal year.
_ENDED = re.compile(
    r"\b(?:the\s+)?(?P<what>(?:fiscal\s+)?quarters?|three[- ]months?|3[- ]months?|(?:fiscal\s+)?periods?"
    r"|(?:fiscal\s+)?years?|twelve[- ]months?|12[- ]months?|5[23][- ]weeks?)\s+(?:that\s+)?"
    r"(?:ended|ending|ends?|closed|closing)\s+(?:on\s+|in\s+|at\s+)?"
    rf"(?P<around>{_AROUND_WORD}\s+)?(?:the\s+(?:end\s+of\s+)?)?$",
    _I,
)
_AROUND = re.compile(rf"\b{_AROUND_WORD}\s+(?:the\s+end\s+of\s+)?$", _I)
_ANNUAL_END = re.compile(r"year|twelve|12|5[23]", _I)
_TWELVE_MONTHS = re.compile(r"\b(?:twelve|12)[- ]months?\b|\b5[23][- ]weeks?\b", _I)
# Months listed after a dated one share its reading: "ended around December 2022 and March 2023".
_LIST_JOIN = re.compile(r"\s*(?:,\s*(?:and|or)?|and|or|&|as\s+well\s+as)\s*(?:in\s+|on\s+)?", _I)
AROUND_DAYS = 7
"""How far outside the named months "around December 2022" still reaches."""
_COMPARE = re.compile(r"\bcompar", _I)
_SENTENCE_BREAK = re.compile(r"[.?!;](?:\s|$)")
_QUARTER_WORDS = re.compile(
    r"\bquarter(?:ly|s)?\b(?!\s+(?:that\s+)?(?:ended|ending|end)\b)|\bQoQ\b|\bsequential(?:ly)?\b", _I
)
_ANNUAL_WORDS = re.compile(
    r"\b(?:annual(?:ly)?|yearly|full[- ]year|10-?K|each\s+year|every\s+year|historical(?:ly)?"
    r"|year[- ]over[- ]year)\b",
    _I,
)
_YEAR_KINDS = frozenset({"fiscal_year", "year_range", "since_year", "last_years"})


def _range_spec(a: _Atom, b: _Atom, text: str, position: int) -> TimeSpec | None:
    """A range between two atoms of compatible kinds, or None (then they stay separate)."""
    if a.kind == "year" and b.kind == "year" and a.year and b.year:
        return TimeSpec.year_range(a.year, b.year, text=text, position=position)
    if a.kind == "month" and b.kind == "month" and a.first_month and b.month:
        return TimeSpec.date_range(a.first_month, b.month, text=text, position=position)
    if a.kind in ("year", "quarter") and b.kind in ("year", "quarter") and a.year and b.year:
        start = (a.year, a.quarter or 1)
        end = (b.year, b.quarter or 4)
        return TimeSpec.quarter_range(start, end, text=text, position=position)
    return None


def _single_spec(atom: _Atom, text: str, position: int) -> TimeSpec | None:
    if atom.kind == "year" and atom.year:
        return TimeSpec.fiscal_year(atom.year, text=text, position=position)
    if atom.kind == "quarter" and atom.year and atom.quarter:
        return TimeSpec.fiscal_quarter(atom.year, atom.quarter, text=text, position=position)
    return atom.spec


def _month_specs(atom: _Atom, text: str, position: int, unit: Unit | None, slack: int) -> list[TimeSpec]:
    """One date range per run of consecutive months the atom names ("March or June 2023": two)."""
    months = sorted(atom.months or ((atom.month,) if atom.month else ()))
    runs: list[list[date]] = []
    for month in months:
        if runs and _month_index(month) == _month_index(runs[-1][-1]) + 1:
            runs[-1].append(month)
        else:
            runs.append([month])
    day = atom.day if len(months) == 1 else None
    return [
        TimeSpec.date_range(run[0], run[-1], text=text, position=position, unit=unit, day=day, slack=slack)
        for run in runs
    ]


_THROUGH = re.compile(
    r"\s*,?\s*(?:through|thru|up\s+to|until|to|ending|ended|that\s+ended)\s+(?:in\s+|on\s+|with\s+)?"
    r"(?:the\s+(?:(?:fiscal\s+)?quarter\s+(?:that\s+)?(?:ended|ending)\s+(?:in\s+|on\s+)?)?)?",
    _I,
)


def _anchored(atom: _Atom, nxt: _Atom, text: str, question: str) -> TimeSpec | None:
    """ "the last three quarters through June 2024": N quarters counted back from a named one."""
    spec = atom.spec
    if spec is None or spec.kind != "last_quarters" or not spec.n or nxt.spec is not None:
        return None
    if not _THROUGH.fullmatch(text[atom.end : nxt.start]):
        return None
    phrase = question[atom.start : nxt.end]
    if nxt.kind == "quarter" and nxt.year and nxt.quarter:
        newest = _quarter_index(nxt.year, nxt.quarter)
        first, last = _from_index(newest - spec.n + 1), (nxt.year, nxt.quarter)
        return TimeSpec.quarter_range(first, last, text=phrase, position=atom.start)
    if nxt.kind == "month" and nxt.month:
        through = nxt.months[-1] if nxt.months else nxt.month
        first_month = nxt.months[0] if nxt.months else nxt.month
        day = nxt.day if len(nxt.months) <= 1 else None
        end = _month_bounds(first_month, through)
        return replace(spec, text=phrase, position=atom.start, start_date=end[0], end_date=end[1], day=day)
    return None


def _end_context(prefix: str) -> tuple[int, Unit | None, int] | None:
    """(phrase start, unit, slack) of "the year ended (around) " / "around " right before a date."""
    ended = _ENDED.search(prefix)
    if ended is not None:
        unit: Unit | None = (
            "year" if _ANNUAL_END.match(re.sub(r"(?i)^fiscal\s+", "", ended["what"])) else None
        )
        return ended.start(), unit, AROUND_DAYS if ended["around"] else 0
    around = _AROUND.search(prefix)
    if around is not None:
        return around.start(), None, AROUND_DAYS
    return None


def _find_atoms(text: str) -> tuple[list[_Atom], list[tuple[int, int]]]:
    """Run the rules in priority order; each claims its span so later rules cannot reuse it."""
    masked = text
    atoms: list[_Atom] = []
    claimed: list[tuple[int, int]] = []
    for pattern, handler in _RULES:
        spans: list[tuple[int, int]] = []
        for m in pattern.finditer(masked):
            if not m.group(0).strip():
                continue
            result = handler(m)
            if result is None or result is False:
                continue
            start, end = m.start(), m.end()
            while end > start and text[end - 1].isspace():
                end -= 1
            if isinstance(result, TimeSpec):
                atoms.append(_Atom("spec", start, end, spec=result))
            elif isinstance(result, _Atom):
                result.end = end
                atoms.append(result)
            spans.append((start, end))
        for start, end in spans:
            masked = masked[:start] + "\x00" * (end - start) + masked[end:]
        claimed.extend(spans)
    atoms.sort(key=lambda a: a.start)
    return atoms, claimed


def _attach_lone_quarters(atoms: list[_Atom], text: str) -> list[_Atom]:
    """Give "Q4" in "Q4 revenue in FY2023" the year of the nearest year-bearing atom.

    The next one in the same sentence wins, else the previous one; a bare year used this way is
    consumed (it then means the quarter, not the whole year). Without any year the quarter is dropped.
    """
    consumed: set[int] = set()
    out: list[_Atom] = []
    for index, atom in enumerate(atoms):
        if atom.kind != "lone":
            continue
        later = [
            (j, a)
            for j, a in enumerate(atoms)
            if j > index
            and a.kind in ("year", "quarter")
            and not _SENTENCE_BREAK.search(text[atom.end : a.start])
        ]
        earlier = [
            (j, a)
            for j, a in enumerate(atoms)
            if j < index
            and a.kind in ("year", "quarter")
            and not _SENTENCE_BREAK.search(text[a.end : atom.start])
        ]
        pick = later[0] if later else (earlier[-1] if earlier else None)
        if pick is None:
            continue
        j, source = pick
        if source.kind == "year":
            consumed.add(j)
        start, end = min(atom.start, source.start), max(atom.end, source.end)
        spec = TimeSpec.fiscal_quarter(
            source.year or 0, atom.quarter or 1, text=text[start:end], position=atom.start
        )
        out.append(_Atom("quarter", start, end, spec=spec, year=source.year, quarter=atom.quarter))
    kept = [a for j, a in enumerate(atoms) if a.kind != "lone" and j not in consumed]
    return sorted([*kept, *out], key=lambda a: a.start)


def parse_time_phrases(question: str) -> list[TimeSpec]:
    """Every time phrase of the question as a ``TimeSpec``, in order of appearance, deduplicated."""
    text = question.translate(_NORMALISE)
    atoms, claimed = _find_atoms(text)
    atoms = _attach_lone_quarters(atoms, text)
    compare = bool(_COMPARE.search(text))
    specs: list[TimeSpec] = []
    carried: tuple[int, Unit | None, int] | None = None  # (end, unit, slack) of the last dated month
    i = 0
    while i < len(atoms):
        atom = atoms[i]
        if atom.spec is not None:  # complete already (relative phrases, halves, attached quarters)
            nxt = atoms[i + 1] if i + 1 < len(atoms) else None
            anchored = _anchored(atom, nxt, text, question) if nxt is not None else None
            if anchored is not None and nxt is not None:  # "the last 3 quarters through June 2024"
                specs.append(anchored)
                claimed.append((atom.start, nxt.end))
                i += 2
                continue
            specs.append(atom.spec)
            i += 1
            continue
        prefix = text[: atom.start]
        nxt = atoms[i + 1] if i + 1 < len(atoms) else None
        if nxt is not None and nxt.spec is None:
            opener = _OPENER.search(prefix)
            connector = _CONNECTOR.fullmatch(text[atom.end : nxt.start])
            if connector is not None:
                word = connector.group("c").lower()
                op = opener.group("op").lower() if opener else None
                is_range = (word != "and" or op == "between") and not (
                    word == "to" and op is None and compare
                )
                start = opener.start() if opener else atom.start
                ended = _end_context(text[:start]) if opener else None
                start = ended[0] if ended else start
                spec = _range_spec(atom, nxt, question[start : nxt.end], start) if is_range else None
                if spec is not None and spec.kind == "date_range" and ended is not None:
                    spec = replace(spec, unit=ended[1], slack=ended[2])
                if spec is not None:
                    specs.append(spec)
                    claimed.append((start, nxt.end))
                    i += 2
                    continue
        since = _SINCE.search(prefix)
        if since is not None:
            phrase = question[since.start() : atom.end]
            if atom.kind == "year" and atom.year:
                specs.append(TimeSpec.since_year(atom.year, text=phrase, position=since.start()))
                i += 1
                continue
            if atom.kind == "quarter" and atom.year:
                specs.append(
                    TimeSpec.since_year(
                        atom.year, quarter=atom.quarter, text=phrase, position=since.start(), unit="quarter"
                    )
                )
                i += 1
                continue
            if atom.kind == "month" and atom.first_month:
                specs.append(TimeSpec.date_range(atom.first_month, None, text=phrase, position=since.start()))
                i += 1
                continue
        start = atom.start
        if atom.kind == "month":
            context = _end_context(prefix)
            unit: Unit | None = None
            slack = 0
            if context is not None:
                start, unit, slack = context
                claimed.append((start, atom.start))
            elif carried is not None and _LIST_JOIN.fullmatch(text[carried[0] : atom.start]):
                unit, slack = carried[1], carried[2]
            carried = (atom.end, unit, slack)
            specs += _month_specs(atom, question[start : atom.end], start, unit, slack)
            i += 1
            continue
        single = _single_spec(atom, question[start : atom.end], start)
        if single is not None:
            specs.append(single)
        i += 1
    return _finish(specs, text, claimed)


def _finish(specs: list[TimeSpec], text: str, claimed: list[tuple[int, int]]) -> list[TimeSpec]:
    """Apply the question's unit words to year-based specs, then order and deduplicate."""
    rest = list(text)
    for start, end in claimed:
        rest[start:end] = " " * (end - start)
    remainder = "".join(rest)
    wants_quarters = bool(_QUARTER_WORDS.search(remainder))
    wants_years = bool(_ANNUAL_WORDS.search(remainder))
    # A question about 10-Qs only counts its quarters in 10-Qs ("the last 3 quarters covered by 10-Qs").
    ten_qs_only = bool(_TEN_Q.search(text)) and not _TEN_K.search(text)
    out: list[TimeSpec] = []
    seen: set[tuple[Any, ...]] = set()
    for spec in sorted(specs, key=lambda s: s.position):
        calendar_span = spec.kind == "reported" or (spec.kind == "date_range" and spec.span)
        asks_quarters = wants_quarters or (ten_qs_only and spec.kind == "reported")
        if spec.unit is None and (spec.kind in _YEAR_KINDS or calendar_span) and asks_quarters:
            spec = replace(spec, unit="quarter")
        elif spec.kind == "last_quarters" and spec.report is None and ten_qs_only:
            spec = replace(spec, report="10-Q")
        elif spec.unit is None and spec.kind == "latest" and wants_quarters != wants_years:
            spec = replace(spec, unit="quarter" if wants_quarters else "year")
        if spec.key() not in seen:
            seen.add(spec.key())
            out.append(spec)
    return out


_TEN_Q = re.compile(r"\b10-?Qs?\b|\bquarterly\s+(?:reports?|filings?)\b", _I)
_TEN_K = re.compile(r"\b10-?Ks?\b|\bannual\s+(?:reports?|filings?)\b", _I)
_KIND_WORDS = (
    ("10-Q", re.compile(r"\b10-?Qs?\b|\bquarterly\s+reports?\b", _I)),
    ("10-K", re.compile(r"\b10-?Ks?\b|\bannual\s+reports?\b", _I)),
    ("annual_report", re.compile(r"\bannual\s+reports?\b", _I)),
    ("transcript", re.compile(r"\b(?:earnings|conference)\s+calls?\b|\btranscripts?\b", _I)),
    ("earnings_release", re.compile(r"\b(?:earnings|press)\s+releases?\b", _I)),
    ("8-K", re.compile(r"\b8-?Ks?\b", _I)),
)


def specs_per_company(
    specs: Sequence[TimeSpec], mentions: Mapping[str, Sequence[int]]
) -> dict[str, list[TimeSpec]] | None:
    """Time phrases that belong to one company each ("Walmart's year ended January 31, 2025 with Home
    Depot's fiscal 2024"): a phrase belongs to the company named last before it. Only when every
    company then has a phrase of its own; otherwise (one phrase for all, or phrases before any name)
    None: every phrase applies to every company."""
    if len(mentions) < 2 or len(specs) < 2:
        return None
    owned: dict[str, list[TimeSpec]] = {ticker: [] for ticker in mentions}
    for spec in specs:
        before = [
            (max(p for p in positions if p <= spec.position), t)
            for t, positions in mentions.items()
            if any(p <= spec.position for p in positions)
        ]
        if not before:
            return None
        owned[max(before)[1]].append(spec)
    return owned if all(owned.values()) else None


def named_kinds(question: str) -> frozenset[str]:
    """Document kinds the question names ("in its Q2 10-Q", "on the earnings call"); empty if none."""
    text = question.translate(_NORMALISE)
    return frozenset(kind for kind, rx in _KIND_WORDS if rx.search(text))


def preferred_granularity(question: str) -> Prefer:
    """What "latest" or no time phrase should mean for this question: "annual" or "quarter"."""
    text = question.translate(_NORMALISE)
    if _ANNUAL_WORDS.search(text) and not _QUARTER_WORDS.search(text):
        return "annual"
    return "quarter"


# --------------------------------------------------------------------------------------------
# Store inventory
# --------------------------------------------------------------------------------------------
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


def _periods_by_ticker(
    rows: Iterable[Sequence[Any]], tickers: Sequence[str]
) -> dict[str, list[AvailablePeriod]]:
    """Rows of ``available_periods.sql``; an eighth column, when present, is the filing date."""
    out: dict[str, list[AvailablePeriod]] = {t: [] for t in tickers}
    for ticker, kind, fiscal_year, fiscal_quarter, first_end, last_end, documents, *rest in rows:
        filed = rest[0] if rest else None
        out.setdefault(ticker, []).append(
            AvailablePeriod(
                ticker=ticker,
                kind=kind,
                fiscal_year=int(fiscal_year),
                fiscal_quarter=None if fiscal_quarter is None else int(fiscal_quarter),
                period_end=last_end,
                documents=int(documents),
                first_period_end=first_end,
                filed=filed.date() if isinstance(filed, datetime) else filed,
            )
        )
    return out


def _clean_tickers(tickers: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(t.strip().upper() for t in tickers if t and t.strip()))


def load_available_periods(
    conn: psycopg.Connection[Any], tickers: Sequence[str]
) -> dict[str, list[AvailablePeriod]]:
    """The store's inventory per ticker (every requested ticker is a key, maybe with no periods)."""
    wanted = _clean_tickers(tickers)
    if not wanted:
        return {}
    rows = conn.execute(read_sql("queries/available_periods.sql"), {"tickers": wanted}).fetchall()
    return _periods_by_ticker(rows, wanted)


def load_inventory(conn: psycopg.Connection[Any], tickers: Sequence[str]) -> dict[str, list[AvailablePeriod]]:
    """What the store holds per company: its documents, plus the fiscal periods its XBRL facts report
    (a 10-K's comparative years are answerable figures even without their own 10-K)."""
    from finagent.db.facts import fact_periods

    available = load_available_periods(conn, tickers)
    for period in fact_periods(conn, _clean_tickers(tickers)):
        available.setdefault(period.ticker, []).append(
            AvailablePeriod(
                ticker=period.ticker,
                kind=FACTS_KIND,
                fiscal_year=period.fiscal_year,
                fiscal_quarter=period.fiscal_quarter,
                period_end=period.last_period_end,
                documents=0,
                first_period_end=period.first_period_end,
            )
        )
    return available


async def aload_available_periods(
    aconn: psycopg.AsyncConnection[Any], tickers: Sequence[str]
) -> dict[str, list[AvailablePeriod]]:
    """Async twin of ``load_available_periods`` (same SQL) for async graph nodes."""
    wanted = _clean_tickers(tickers)
    if not wanted:
        return {}
    cursor = await aconn.execute(read_sql("queries/available_periods.sql"), {"tickers": wanted})
    rows = await cursor.fetchall()
    return _periods_by_ticker(rows, wanted)


# --------------------------------------------------------------------------------------------
# Resolution
# --------------------------------------------------------------------------------------------
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


@dataclass(frozen=True)
class TargetPeriod:
    """One period to research for one company, and what the store holds for it."""

    ticker: str
    fiscal_year: int
    fiscal_quarter: int | None
    label: str
    period_end: date | None
    kinds: list[str] = field(default_factory=list)
    available: bool = False
    companion: bool = False
    """Added only because its report covers an asked period (a Q4's 10-K), not asked for itself."""

    @property
    def is_annual(self) -> bool:
        return self.fiscal_quarter is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ticker": self.ticker,
            "fiscal_year": self.fiscal_year,
            "fiscal_quarter": self.fiscal_quarter,
            "label": self.label,
            "period_end": self.period_end.isoformat() if self.period_end else None,
            "kinds": list(self.kinds),
            "available": self.available,
        } | ({"companion": True} if self.companion else {})


@dataclass(frozen=True)
class PeriodResolution:
    """Targets for one company, chronological, with the warnings the answer should carry."""

    periods: list[TargetPeriod]
    warnings: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"periods": [p.to_dict() for p in self.periods], "warnings": list(self.warnings)}


def _order(key: Key) -> tuple[int, int, int]:
    """Chronological sort: an annual period sorts right after its Q4."""
    year, quarter = key
    return (year, quarter or 4, 0 if quarter else 1)


def _quarter_index(year: int, quarter: int) -> int:
    return year * 4 + quarter - 1


def _from_index(index: int) -> tuple[int, int]:
    year, rest = divmod(index, 4)
    return year, rest + 1


def _count_back(newest: int, n: int, *, without_q4: bool = False) -> list[tuple[int, int]]:
    """``n`` quarters ending at quarter index ``newest``, oldest first; ``without_q4``: 10-Q quarters only."""
    keys: list[tuple[int, int]] = []
    index = newest
    while len(keys) < n:
        year, quarter = _from_index(index)
        index -= 1
        if not (without_q4 and quarter == 4):
            keys.insert(0, (year, quarter))
    return keys


def _months_name(first: date, last: date) -> str:
    """ "2023", "2021 to 2023", "May 2023" or "Mar 2022 to Feb 2023", for warnings."""
    if (first.month, last.month) == (1, 12):
        return str(first.year) if first.year == last.year else f"{first.year} to {last.year}"
    if (first.year, first.month) == (last.year, last.month):
        return f"{first:%b %Y}"
    return f"{first:%b %Y} to {last:%b %Y}"


def _kind_rank(kind: str) -> tuple[int, str]:
    return (_KIND_ORDER.index(kind) if kind in _KIND_ORDER else len(_KIND_ORDER), kind)


_REPORT_KINDS = ANNUAL_KINDS | QUARTER_KINDS
_NEWS_RANK = 3


def _end_rank(kind: str) -> int:
    """How well a kind dates a period's end: filings, then XBRL facts, then other reports, then the rest."""
    if kind in FILING_KINDS:
        return 0
    if kind == FACTS_KIND:
        return 1
    return 2 if kind in _REPORT_KINDS else _NEWS_RANK


class _Inventory:
    """The store's holdings for one ticker, keyed by (fiscal_year, fiscal_quarter | None).

    ``kinds`` includes ``"facts"`` (XBRL figures); the ``has_*`` checks accept facts for periods a
    question names, while anchors ("latest", "last N", ``held``) look at documents only.
    """

    def __init__(self, ticker: str, rows: Sequence[AvailablePeriod]) -> None:
        self.kinds: dict[Key, set[str]] = {}
        self.ends: dict[Key, tuple[int, date]] = {}
        self.filed: dict[Key, tuple[int, date]] = {}
        for row in rows:
            if row.ticker.upper() != ticker or row.fiscal_year is None:
                continue
            quarter = None if row.kind in ANNUAL_KINDS else row.fiscal_quarter
            key: Key = (row.fiscal_year, quarter)
            self.kinds.setdefault(key, set()).add(row.kind)
            if row.kind == "earnings_release" and quarter == 4:
                # The fourth-quarter release also reports the full year.
                self.kinds.setdefault((row.fiscal_year, None), set()).add(row.kind)
            if row.period_end is not None:
                # Filings date a period best, then XBRL facts, then other reports (transcripts carry
                # nominal month ends), then news or other material.
                rank = _end_rank(row.kind)
                best = self.ends.get(key)
                if best is None or (rank, -row.period_end.toordinal()) < (best[0], -best[1].toordinal()):
                    self.ends[key] = (rank, row.period_end)
            if row.filed is not None and row.kind in _REPORT_KINDS:
                # Facts' filing dates are those of later filings' comparative columns: not used.
                rank = 0 if row.kind in FILING_KINDS else 1
                seen = self.filed.get(key)
                if seen is None or (rank, row.filed) < seen:
                    self.filed[key] = (rank, row.filed)

    def kinds_of(self, key: Key) -> list[str]:
        return sorted(self.kinds.get(key, ()), key=_kind_rank)

    def documented(self, key: Key) -> bool:
        """The store holds a document (not only XBRL facts) for the period."""
        return bool(self.kinds.get(key, set()) - {FACTS_KIND})

    def has_annual_document(self, year: int) -> bool:
        return bool(self.kinds.get((year, None), set()) & ANNUAL_KINDS)

    def has_annual(self, year: int) -> bool:
        """A 10-K or fiscal-year facts: the annual period can be answered."""
        return bool(self.kinds.get((year, None), set()) & (ANNUAL_KINDS | {FACTS_KIND}))

    def has_quarter_document(self, year: int, quarter: int) -> bool:
        return bool(self.kinds.get((year, quarter), set()) & QUARTER_KINDS)

    def has_quarter_report(self, year: int, quarter: int) -> bool:
        """A quarter-level document or quarter facts: the quarter can be answered."""
        return bool(self.kinds.get((year, quarter), set()) & (QUARTER_KINDS | {FACTS_KIND}))

    def has_any_in_year(self, year: int) -> bool:
        return any(y == year for y, _ in self.kinds)

    def actual_end(self, key: Key) -> date | None:
        """The period end a report or XBRL fact states (Q4 and its fiscal year share it); not news."""
        year, quarter = key
        twin: Key = (year, 4) if quarter is None else (year, None)
        for candidate in (key, twin) if quarter in (None, 4) else (key,):
            stored = self.ends.get(candidate)
            if stored is not None and stored[0] < _NEWS_RANK:
                return stored[1]
        return None

    def filed_on(self, key: Key) -> date | None:
        """Stored filing date of the period's report (Q4: its own document, else the 10-K)."""
        year, quarter = key
        keys: tuple[Key, ...] = ((year, 4), (year, None)) if quarter in (None, 4) else (key,)
        dated = [self.filed[k] for k in keys if k in self.filed]
        return min(dated)[1] if dated else None

    def latest_quarter_report(self) -> tuple[int, int] | None:
        keys = [(y, q) for (y, q), kinds in self.kinds.items() if q is not None and kinds & QUARTER_KINDS]
        return max(keys, default=None)

    def latest_annual(self) -> int | None:
        return max(
            (y for (y, q), kinds in self.kinds.items() if q is None and kinds & ANNUAL_KINDS), default=None
        )

    def latest_reported_year(self) -> int | None:
        reports = ANNUAL_KINDS | QUARTER_KINDS
        return max((y for (y, _), kinds in self.kinds.items() if kinds & reports), default=None)

    def held(self, *, annual: bool) -> list[Key]:
        """Every period with a report (10-K when ``annual``, else quarterly reports), oldest first."""
        keys = [
            key
            for key, kinds in self.kinds.items()
            if (key[1] is None) == annual and kinds & (ANNUAL_KINDS if annual else QUARTER_KINDS)
        ]
        return sorted(keys, key=_order)

    def quarters_with(self, kind: str) -> list[tuple[int, int]]:
        """Quarters holding a document of ``kind`` ("10-Q"), oldest first."""
        return sorted((y, q) for (y, q), kinds in self.kinds.items() if q is not None and kind in kinds)

    def latest_any(self) -> Key | None:
        return max((k for k in self.kinds if self.documented(k)), key=_order, default=None)


class _Resolver:
    """Expands specs into period keys for one company, then into targets with warnings."""

    def __init__(self, cal: CompanyCalendar, inventory: _Inventory, today: date) -> None:
        self.cal = cal
        self.inv = inventory
        self.today = today
        self.ticker = cal.ticker
        self.warnings: list[str] = []
        self.companions: set[Key] = set()
        """Annual periods added only because their 10-K reports a requested Q4 (not counted when trimming)."""

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def label(self, key: Key) -> str:
        return quarter_label(key[0], key[1])

    def nominal_end(self, key: Key) -> date:
        return self.cal.quarter_end(key[0], key[1] or 4)

    # -- anchors ------------------------------------------------------------------------------
    def calendar_quarter(self) -> tuple[int, int]:
        """The last fiscal quarter that ended before today, by the calendar alone."""
        return self.cal.period_of(last_quarter_end_before(self.today, self.cal.fye_month))

    def quarter_anchor(self) -> tuple[int, int]:
        """Newest quarter the store covers (a FY 10-K covers Q4), else the calendar's (warned)."""
        candidates = [_quarter_index(*q) for q in (self.inv.latest_quarter_report(),) if q]
        annual = self.inv.latest_annual()
        if annual is not None:
            candidates.append(_quarter_index(annual, 4))
        if candidates:
            return _from_index(max(candidates))
        anchor = self.calendar_quarter()
        self.warn(
            f"no quarterly documents for {self.ticker} in the store; counting back from "
            f"{quarter_label(*anchor)}, the last fiscal quarter ended before {self.today.isoformat()}"
        )
        return anchor

    def year_anchor(self) -> int:
        """Newest fiscal year with a 10-K, else with quarterly documents, else the calendar's (warned)."""
        annual = self.inv.latest_annual()
        if annual is not None:
            return annual
        quarter = self.inv.latest_quarter_report()
        if quarter is not None:
            return quarter[0]
        year, q = self.calendar_quarter()
        anchor = year if q == 4 else year - 1
        self.warn(
            f"no documents for {self.ticker} in the store; using FY{anchor}, the last fiscal year "
            f"ended before {self.today.isoformat()}"
        )
        return anchor

    # -- expansion ----------------------------------------------------------------------------
    def calendar_reading(self, spec: TimeSpec) -> Key | None:
        """The fiscal quarter that overlaps calendar "Qn YYYY" most, when "Qn YYYY" did not say fiscal.

        For a company whose year ends in December the readings agree; for others "Q1 2023" is often
        meant as January-March 2023. Exactly one fiscal quarter ends within a month of March.
        """
        if (
            spec.year is None
            or spec.quarter is None
            or self.cal.fye_month == 12
            or _FISCAL_WORD.search(spec.text)
        ):
            return None
        month_index = spec.year * 12 + 3 * spec.quarter - 1  # the calendar quarter's last month, 0-based
        for shift in (0, 1, -1):
            year, month0 = divmod(month_index + shift, 12)
            if (month0 + 1 - self.cal.fye_month) % 3 == 0:
                last_day = _calendar.monthrange(year, month0 + 1)[1]
                return self.cal.period_of(date(year, month0 + 1, last_day))
        return None

    def quarters_between(self, start: tuple[int, int], end: tuple[int, int]) -> list[Key]:
        low, high = sorted((_quarter_index(*start), _quarter_index(*end)))
        return [_from_index(i) for i in range(low, high + 1)]

    def ends_near(self, first: date, last: date, *, annual: bool) -> list[Key]:
        """Periods whose nominal end lies within a month of [first, last] (candidates to match)."""
        keys: list[Key] = []
        for index in range(_month_index(first) - 1, _month_index(last) + 2):
            month = _from_month_index(index)
            if (month.month - self.cal.fye_month) % (12 if annual else 3) == 0:
                year, quarter = self.cal.period_of(_month_end(month))
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
        newest = _quarter_index(quarters[-1][0], quarters[-1][1] or 4)
        keys: list[Key] = [_from_index(i) for i in range(newest - 3, newest + 1)]
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
                f"no fiscal year of {self.ticker} ends {span}; using FY{year}, which contains {last_month}"
            )
            return [((year, None), False)]
        for ahead in range(3):  # no quarter ends inside: take the quarter containing the range
            month = _from_month_index(_month_index(last) + ahead)
            if (month.month - self.cal.fye_month) % 3 == 0:
                key = self.cal.period_of(date(month.year, month.month, 15))
                label = quarter_label(*key)
                self.warn(f"no fiscal quarter of {self.ticker} ends {span}; using {label}, which contains it")
                return [(key, False)]
        return []

    def within_span(self, first: date, last: date, *, quarterly: bool) -> list[Key]:
        """Periods mostly inside a calendar span ("during 2023"): the rule is in the module docstring."""
        low, high = _month_index(first), _month_index(last)

        def inside(start: int, end: int) -> int:
            return max(0, min(end, high) - max(start, low) + 1)

        keys: list[Key] = []
        straddles = False
        first_month = last_month = first
        for end in range(low, high + (3 if quarterly else 12)):
            month = _from_month_index(end)
            if (month.month - self.cal.fye_month) % (3 if quarterly else 12) != 0:
                continue
            length = 3 if quarterly else 12
            months = inside(end - length + 1, end)
            if months * 2 < length or (months * 2 == length and end > high):
                continue
            year, quarter = self.cal.period_of(_month_end(month))
            key: Key = (year, quarter) if quarterly else (year, None)
            if not keys:
                first_month = _from_month_index(end - length + 1)
            keys.append(key)
            last_month = month
            straddles = straddles or months < length
        if straddles:
            name = _months_name(first, last)
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
        name = _months_name(first, last)
        keys: list[Key] = []
        for index in range(_month_index(first) - 15, _month_index(last) + 1):
            month = _from_month_index(index)
            if (month.month - self.cal.fye_month) % (3 if quarterly else 12) != 0:
                continue
            year, quarter = self.cal.period_of(_month_end(month))
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
            newest = _quarter_index(year, quarter or 4)
        else:
            fallback = self.containing(spec, spec.end_date, annual=False)
            if not fallback:
                return []
            (year, quarter), _ = fallback[0]
            newest = _quarter_index(year, quarter or 4)
        return [*_count_back(newest, spec.n, without_q4=spec.report == "10-Q")]

    def last_with(self, kind: str, n: int) -> list[Key]:
        """The last ``n`` quarters with a ``kind`` document; missing ones counted back (no Q4 10-Q)."""
        keys = self.inv.quarters_with(kind)[-n:]
        before = _quarter_index(*keys[0]) - 1 if keys else _quarter_index(*self.quarter_anchor())
        return [*_count_back(before, n - len(keys), without_q4=kind == "10-Q"), *keys]

    def latest(self, unit: Unit | None, prefer: Prefer) -> list[Key]:
        annual_first = unit == "year" or (unit is None and prefer == "annual")
        latest_q = self.inv.latest_quarter_report()
        latest_y = self.inv.latest_annual()
        if annual_first and latest_y is not None:
            return [(latest_y, None)]
        if annual_first and (latest_q is not None or self.inv.latest_any() is not None):
            self.warn(f"no 10-K for {self.ticker} in the store; using its latest quarter instead")
        if latest_q is not None or latest_y is not None:
            quarter_key: Key | None = latest_q
            if latest_y is not None and (
                latest_q is None or _quarter_index(latest_y, 4) > _quarter_index(*latest_q)
            ):
                quarter_key = (latest_y, None)  # the 10-K is newer than every quarterly document
            return [quarter_key] if quarter_key else []
        anything = self.inv.latest_any()
        if anything is not None:
            return [anything]
        self.warn(f"no documents for {self.ticker} in the store")
        return []

    def expand(self, spec: TimeSpec, prefer: Prefer) -> list[tuple[Key, bool]]:
        """Period keys a spec asks for, each flagged True when generated (not named explicitly)."""
        quarterly = spec.unit == "quarter"
        if spec.kind == "fiscal_year" and spec.year is not None:
            if quarterly:
                return [((spec.year, q), True) for q in range(1, 5)]
            return [((spec.year, None), False)]
        if spec.kind == "fiscal_quarter" and spec.year is not None and spec.quarter is not None:
            named: Key = (spec.year, spec.quarter)
            calendar = self.calendar_reading(spec)
            if calendar is None or calendar == named or not self.inv.documented(calendar):
                return [(named, False)]
            self.warn(
                f"'{spec.text}' read as {self.ticker} fiscal {quarter_label(*named)}; the quarter closest to "
                f"calendar Q{spec.quarter} {spec.year} is {quarter_label(*calendar)}, searched too"
            )
            return [(named, False), (calendar, True)]
        if spec.kind == "year_range" and spec.start_year is not None and spec.end_year is not None:
            if quarterly:
                return [(k, True) for k in self.quarters_between((spec.start_year, 1), (spec.end_year, 4))]
            return [((y, None), True) for y in range(spec.start_year, spec.end_year + 1)]
        if spec.kind == "quarter_range" and spec.start_quarter and spec.end_quarter:
            return [(k, True) for k in self.quarters_between(spec.start_quarter, spec.end_quarter)]
        if spec.kind == "date_range" and spec.start_date is not None:
            last = spec.end_date or self.today
            if spec.span:
                return [(k, True) for k in self.within_span(spec.start_date, last, quarterly=quarterly)]
            annual = spec.unit == "year"
            keys = self.ending_in(spec.start_date, last, annual=annual, slack=spec.slack, day=spec.day)
            if keys:
                return [(k, True) for k in keys]
            if annual and _TWELVE_MONTHS.search(spec.text):
                trailing = self.trailing_year(spec, last)
                if trailing:
                    return [(k, True) for k in trailing]
            return self.containing(spec, last, annual=annual)
        if spec.kind == "reported" and spec.start_date is not None:
            return [(k, True) for k in self.reported_in(spec)]
        if spec.kind == "last_quarters" and spec.n:
            if spec.start_date is not None and spec.end_date is not None:
                return [(k, True) for k in self.quarters_through(spec)]
            if spec.report:
                return [(k, True) for k in self.last_with(spec.report, spec.n)]
            end = _quarter_index(*self.quarter_anchor())
            return [(k, True) for k in _count_back(end, spec.n)]
        if spec.kind == "last_years" and spec.n:
            if quarterly:
                end = _quarter_index(*self.quarter_anchor())
                return [(_from_index(i), True) for i in range(end - 4 * spec.n + 1, end + 1)]
            anchor = self.year_anchor()
            return [((y, None), True) for y in range(anchor - spec.n + 1, anchor + 1)]
        if spec.kind == "since_year" and spec.year is not None:
            if quarterly:
                newest = self.quarter_anchor()
                return [(k, True) for k in self.quarters_between((spec.year, spec.quarter or 1), newest)]
            last_year = self.inv.latest_reported_year() or self.calendar_quarter()[0]
            return [((y, None), True) for y in range(spec.year, max(spec.year, last_year) + 1)]
        if spec.kind == "latest":
            return [(k, False) for k in self.latest(spec.unit, prefer)]
        if spec.kind == "held":
            return [(k, True) for k in self.inv.held(annual=spec.unit == "year")]
        return []

    # -- materialisation ----------------------------------------------------------------------
    def target(self, key: Key) -> TargetPeriod:
        kinds = self.inv.kinds_of(key)
        stored = self.inv.ends.get(key)
        return TargetPeriod(
            ticker=self.ticker,
            fiscal_year=key[0],
            fiscal_quarter=key[1],
            label=self.label(key),
            period_end=stored[1] if stored else self.nominal_end(key),
            kinds=kinds,
            available=bool(kinds),
        )

    def only(self, key: Key) -> str:
        kinds = self.inv.kinds_of(key)
        return f" (only {', '.join(kinds)})" if kinds else ""

    def materialise(self, key: Key) -> list[TargetPeriod]:
        year, quarter = key
        if quarter is None:
            if self.inv.has_annual(year):
                return [self.target(key)]
            quarters: list[Key] = [(year, q) for q in range(1, 5) if self.inv.has_quarter_report(year, q)]
            if quarters:
                labels = ", ".join(self.label(k) for k in quarters)
                self.warn(
                    f"no 10-K for {self.ticker} FY{year} in the store; "
                    f"using its quarterly documents ({labels})"
                )
                return [self.target(k) for k in quarters]
            self.warn(f"no 10-K for {self.ticker} FY{year} in the store{self.only(key)}")
            return [self.target(key)]
        targets = [self.target(key)]
        if self.inv.has_quarter_document(year, quarter):
            return targets
        if quarter == 4 and self.inv.has_annual_document(year):
            self.warn(
                f"no Q4-specific document for {self.ticker} {self.label(key)} in the store; "
                f"Q4 is reported in the FY{year} 10-K, which is targeted too"
            )
            self.companions.add((year, None))
            return [*targets, self.target((year, None))]
        if self.inv.has_quarter_report(year, quarter):
            return targets  # XBRL facts report the quarter
        if quarter == 4 and self.inv.has_annual(year):
            self.warn(
                f"no Q4-specific document for {self.ticker} {self.label(key)} in the store; "
                f"its FY{year} figures are targeted too"
            )
            self.companions.add((year, None))
            return [*targets, self.target((year, None))]
        missing = "no 10-Q" if quarter != 4 else "no Q4 document or 10-K"
        self.warn(f"{missing} for {self.ticker} {self.label(key)} in the store{self.only(key)}")
        return targets

    def not_ended(self, key: Key) -> bool:
        """A generated period still running at ``today`` with nothing stored is not asked for."""
        if self.nominal_end(key) <= self.today:
            return False
        if key[1] is None:
            return not self.inv.has_any_in_year(key[0])
        return key not in self.inv.kinds


def resolve_periods(
    specs: Sequence[TimeSpec],
    calendar: CompanyCalendar,
    available: Sequence[AvailablePeriod],
    *,
    today: date,
    max_quarters: int = 12,
    prefer: str = "quarter",
    kinds: frozenset[str] = frozenset(),
) -> PeriodResolution:
    """Concrete, chronological target periods of one company for the question's time specs.

    No specs means "latest" (quarterly or annual per ``prefer``). ``today`` is passed in so the
    result is reproducible; ``available`` is that company's store inventory, narrowed to ``kinds``
    when the question names document kinds the store holds ("the latest 10-Q" is not a newer call).
    XBRL facts rows stay in a narrowed inventory when ``kinds`` includes a filing kind (facts come
    from 10-Ks and 10-Qs).
    """
    if prefer not in ("quarter", "annual"):
        raise ValueError(f"prefer must be 'quarter' or 'annual', got {prefer!r}")
    named = [row for row in available if row.kind in kinds and row.kind != FACTS_KIND] if kinds else []
    if named and kinds & FILING_KINDS:
        named += [row for row in available if row.kind == FACTS_KIND]
    resolver = _Resolver(calendar, _Inventory(calendar.ticker.upper(), named or available), today)
    if kinds and available and not named:
        resolver.warn(
            f"no {' or '.join(sorted(kinds))} of {calendar.ticker} in the store; using what it holds"
        )
    requested: dict[Key, bool] = {}
    for spec in specs or [TimeSpec.latest()]:
        for key, generated in resolver.expand(spec, cast(Prefer, prefer)):
            requested[key] = requested.get(key, True) and generated  # explicit beats generated
    future = [k for k, generated in requested.items() if generated and resolver.not_ended(k)]
    if future:
        labels = ", ".join(resolver.label(k) for k in sorted(future, key=_order))
        resolver.warn(f"{calendar.ticker}: skipped periods not ended by {today.isoformat()}: {labels}")
    keys = sorted((k for k in requested if k not in future), key=_order)
    limit = max(1, max_quarters)
    if len(keys) > limit:
        resolver.warn(
            f"{calendar.ticker}: {len(keys)} periods requested; keeping the most recent {limit} "
            f"({resolver.label(keys[-limit])} to {resolver.label(keys[-1])})"
        )
        keys = keys[-limit:]
    targets: dict[Key, TargetPeriod] = {}
    primary: set[Key] = set()
    for key in keys:
        for target in resolver.materialise(key):
            target_key: Key = (target.fiscal_year, target.fiscal_quarter)
            targets.setdefault(target_key, target)
            if target_key not in resolver.companions or target_key == key:
                primary.add(target_key)
    ordered_keys = sorted(targets, key=_order)
    counted = [k for k in ordered_keys if k in primary]
    if len(counted) > limit:
        # A FY without a 10-K may have expanded into its quarters: trim again, companions ride along.
        first = counted[-limit]
        resolver.warn(
            f"{calendar.ticker}: {len(counted)} periods to search; keeping the most recent {limit} "
            f"({resolver.label(first)} to {resolver.label(counted[-1])})"
        )
        ordered_keys = ordered_keys[ordered_keys.index(first) :]
    periods = [targets[k] if k in primary else replace(targets[k], companion=True) for k in ordered_keys]
    return PeriodResolution(periods=periods, warnings=resolver.warnings)


def nearest_earlier_report(
    periods: Sequence[TargetPeriod], available: Sequence[AvailablePeriod], kinds: frozenset[str] = frozenset()
) -> TimeSpec | None:
    """The newest stored report older than the requested periods, when none of them is stored.

    "What is Boeing forecasting for FY2023?" is answered by the FY2022 10-K when the store has no
    FY2023 documents; the caller says so in a warning.
    """
    if not periods or any(p.available for p in periods):
        return None
    newest = max(periods, key=lambda p: _order((p.fiscal_year, p.fiscal_quarter)))
    annual = newest.fiscal_quarter is None
    reports = (ANNUAL_KINDS if annual else QUARTER_KINDS) & (kinds or ANNUAL_KINDS | QUARTER_KINDS)
    keys = [
        (row.fiscal_year, None if annual else row.fiscal_quarter)
        for row in available
        if row.kind in reports and (row.fiscal_quarter is None) == annual
    ]
    older = [k for k in keys if _order(k) < _order((newest.fiscal_year, newest.fiscal_quarter))]
    if not older:
        return None
    year, quarter = max(older, key=_order)
    return TimeSpec.fiscal_year(year) if quarter is None else TimeSpec.fiscal_quarter(year, quarter)


def resolve_for_companies(
    specs: Sequence[TimeSpec],
    companies: Sequence[StoredCompany],
    available: Mapping[str, Sequence[AvailablePeriod]],
    *,
    today: date,
    max_quarters: int = 12,
    prefer: str = "quarter",
) -> dict[str, PeriodResolution]:
    """``resolve_periods`` for several companies at once, keyed by ticker."""
    return {
        c.ticker.upper(): resolve_periods(
            specs,
            calendar_for(c),
            available.get(c.ticker.upper(), ()),
            today=today,
            max_quarters=max_quarters,
            prefer=prefer,
        )
        for c in companies
    }
