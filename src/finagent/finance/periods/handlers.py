r"""What each phrase rule makes of its match: an ``Atom`` (a date, month, quarter or year to combine
later) or a ``TimeSpec`` (a count, a span, a report), or None when the words name no period."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import replace
from datetime import date

from finagent.finance.dates import month_of
from finagent.finance.periods.fiscal_calendar import nominal_month_end
from finagent.finance.periods.spec import TimeSpec, Unit, from_month_index, month_index
from finagent.finance.periods.tokens import (
    IGNORE_CASE,
    ORDINALS,
    Atom,
    Handler,
    month_start,
    number,
    year_of,
    year_value,
)


def month_atom(m: re.Match[str]) -> Atom | None:
    groups = m.groupdict()
    year = year_of(m)
    if year is None:
        return None
    month = month_of(groups["mon"]) if groups.get("mon") else int(groups["m"])
    if month is None or not 1 <= month <= 12:
        return None
    day_text = groups.get("day")
    written = month_start(year, month)
    if day_text:
        try:
            day = date(year, month, int(day_text))
        except ValueError:
            return None
        nominal_year, nominal_month = nominal_month_end(day)  # "July 1, 2023" closes June (52/53 weeks)
        nominal = month_start(nominal_year, nominal_month)
        return Atom(
            "month", m.start(), m.end(), month=nominal, first_month=written, months=(nominal,), day=day
        )
    return Atom("month", m.start(), m.end(), month=written, first_month=written, months=(written,))


def month_pair_atom(m: re.Match[str]) -> Atom | None:
    """ "March/April 2023", "Mar or Apr 2023" (either month); "March-June 2023" (the months between)."""
    year = year_of(m)
    first_number = month_of(m.group("mon"))
    second_number = month_of(m.group("mon2"))
    if year is None or first_number is None or second_number is None:
        return None
    # "December/January 2023": the first month belongs to the year before.
    first = month_start(year if first_number <= second_number else year - 1, first_number)
    second = month_start(year, second_number)
    separator = m.group("sep").lower()
    ranged = separator in ("-", "to", "through", "thru") or (m.group("op") is not None and separator == "and")
    if ranged:
        months = tuple(from_month_index(i) for i in range(month_index(first), month_index(second) + 1))
    else:
        months = tuple(sorted({first, second}))
    return Atom("month", m.start(), m.end(), month=second, first_month=first, months=months)


def quarter_atom(m: re.Match[str]) -> Atom | None:
    groups = m.groupdict()
    quarter = int(groups["q"]) if groups.get("q") else ORDINALS[groups["ord"].lower()]
    year = year_of(m)
    if year is None:
        return None
    return Atom("quarter", m.start(), m.end(), year=year, quarter=quarter)


def lone_atom(m: re.Match[str]) -> Atom:
    groups = m.groupdict()
    quarter = int(groups["q"]) if groups.get("q") else ORDINALS[groups["ord"].lower()]
    return Atom("lone", m.start(), m.end(), quarter=quarter)


def year_atom(m: re.Match[str]) -> Atom | TimeSpec | None:
    year = year_of(m)
    if year is None:
        return None
    end_text = m.groupdict().get("to")
    if end_text:  # "FY19-21", "2019-20"
        end = year_value(end_text)
        if end is None or not 0 < end - year <= 20:
            return None
        return TimeSpec.year_range(year, end, text=m.group(0), position=m.start())
    return Atom("year", m.start(), m.end(), year=year)


def spec_rule(build: Callable[[re.Match[str]], TimeSpec | None]) -> Handler:
    """Wrap a builder so the produced spec carries the matched text and position."""

    def handler(m: re.Match[str]) -> TimeSpec | None:
        spec = build(m)
        if spec is None:
            return None
        return replace(spec, text=m.group(0).strip(), position=m.start())

    return handler


def n_quarters(m: re.Match[str]) -> TimeSpec | None:
    n = number(m.group("n"))
    return TimeSpec.last_quarters(n) if n else None


def n_months(m: re.Match[str]) -> TimeSpec | None:
    n = number(m.group("n"))
    return TimeSpec.last_quarters(math.ceil(n / 3)) if n else None


def n_reports(m: re.Match[str], kind: str) -> TimeSpec | None:
    """ "the last three 10-Qs": quarters that have a 10-Q; "the last two 10-Ks": fiscal years."""
    n = number(m.group("n") or m.group("n2"))
    if not n:
        return None
    return TimeSpec.last_quarters(n, report="10-Q") if kind == "10-Q" else TimeSpec.last_years(n)


def n_years(m: re.Match[str]) -> TimeSpec | None:
    n = number(m.group("n"))
    return TimeSpec.last_years(n) if n else None


def half(m: re.Match[str]) -> TimeSpec | None:
    year = year_of(m)
    word = (m.group("h") or m.group("hw") or "").lower()
    if year is None or not word:
        return None
    if word in ("1", "first", "1st"):  # the six months a 10-Q reports, never its second quarter alone
        return TimeSpec.fiscal_span(6, year)
    return TimeSpec.quarter_range((year, 3), (year, 4))


def quarter_span(m: re.Match[str]) -> TimeSpec | None:
    year = year_of(m)
    if year is None:
        return None
    return TimeSpec.quarter_range((year, int(m.group("q1"))), (year, int(m.group("q2"))))


def calendar_year(m: re.Match[str]) -> TimeSpec | None:
    """A calendar span: "calendar 2023", "CY2023", "during 2023", "calendar 2021-2023"."""
    groups = m.groupdict()
    year = year_value(groups["y4"] or groups["y4b"] or groups["y4c"] or groups["fy"])
    if year is None:
        return None
    end = year_value(groups["to"] or groups["to2"] or groups["to3"]) or year
    if not 0 <= end - year <= 20:
        return None
    return TimeSpec.date_range(date(year, 1, 1), date(end, 12, 31), span=True)


_QUARTER_NOUN = re.compile(r"quarter|10-?Q", re.I)


_YEAR_NOUN = re.compile(r"year|10-?K|annual", re.I)


def reported(m: re.Match[str]) -> TimeSpec | None:
    """ "the first three fiscal quarters reported in 2023", "10-Qs filed in 2023", "released in May 2023"."""
    year = year_of(m)
    if year is None:
        return None
    month = month_of(m.group("mon")) if m.group("mon") else None
    start, end = (
        (date(year, month, 1), date(year, month, 1)) if month else (date(year, 1, 1), date(year, 12, 1))
    )
    what = m.group("what") or ""
    unit: Unit | None = (
        "quarter" if _QUARTER_NOUN.search(what) else "year" if _YEAR_NOUN.search(what) else None
    )
    first: int | None = None
    if m.group("first"):
        first = number(m.group("n")) if m.group("n") else 1
        if first is None or first > 4:
            return None
        unit = "quarter"
    elif re.match(r"10-?Q", what, re.I):
        first = 3  # 10-Qs cover fiscal quarters 1-3; Q4 is in the 10-K
    if unit is None and month is not None:
        unit = "quarter"  # "results released in May 2023": a quarter's; its Q4 brings the 10-K along
    return TimeSpec.reported(start, end, first_quarters=first, unit=unit)


def first_quarters(m: re.Match[str]) -> TimeSpec | None:
    n = number(m.group("n"))
    return TimeSpec("fiscal_year", year=int(m.group("y4")), unit="quarter", n=n) if n and n <= 4 else None


def years_to(m: re.Match[str]) -> TimeSpec | None:
    n, end = number(m.group("n")), int(m.group("y4"))
    if not n:
        return None
    growth = bool(m.group("growth")) or bool(
        re.search(r"\b(?:cagr|growth|grow\w*|compound)", m.group("mid"), IGNORE_CASE)
    )
    return TimeSpec.year_range(end - n if growth else end - n + 1, end)


_SPAN_MONTHS = {"six": 6, "6": 6, "nine": 9, "9": 9}


def months_of(m: re.Match[str]) -> TimeSpec | None:
    """ "the first nine months of fiscal 2024", "the six months ended June 30, 2024": a year-to-date span."""
    months = _SPAN_MONTHS.get(m.group("m").lower())
    if months is None:
        return None
    groups = m.groupdict()
    if groups.get("mon"):
        month = month_of(groups["mon"])
        year = year_value(groups.get("y4"))
        if month is None or year is None:
            return None
        try:
            day = date(year, month, int(groups["day"])) if groups.get("day") else None
        except ValueError:
            return None
        if day is not None:  # "July 1, 2023" closes June (52/53-week years)
            year, month = nominal_month_end(day)
        return TimeSpec.fiscal_span(months, ended=(month_start(year, month), day))
    year = year_of(m)
    return TimeSpec.fiscal_span(months, year) if year is not None else None


def to_date(m: re.Match[str]) -> TimeSpec | None:
    """ "year to date through Q3 2025", "YTD Q2 FY2025", "Q3 year to date": the fiscal year's first
    quarters up to that one (the quarter itself for Q1, the year for Q4); no year: the latest held."""
    groups = m.groupdict()
    quarter = int(groups["q"]) if groups.get("q") else ORDINALS[groups["ord"].lower()]
    year = year_of(m)
    if year is not None and quarter == 1:
        return TimeSpec.fiscal_quarter(year, 1)
    if year is not None and quarter == 4:
        return TimeSpec.fiscal_year(year)
    return TimeSpec.fiscal_span(3 * quarter, year)
