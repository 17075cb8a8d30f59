r"""The phrase rules: tokens (years, quarters, months, counts) and the table of patterns that turn a
question's words into ``Atom``\ s (a date or period) or ``TimeSpec``\ s (a count, a span, a report)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from typing import Literal

from finagent.finance.dates import MONTH_NAME_PATTERN, month_of
from finagent.finance.periods.calendar import nominal_month_end
from finagent.finance.periods.spec import (
    TimeSpec,
    Unit,
    from_month_index,
    month_index,
)

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
    return rf"(?P<{name}>{MONTH_NAME_PATTERN})\.?"


_MON = _month_group("mon")


_MON2 = _month_group("mon2")


# A fiscal year: "FY2024", "FY24", "FY 2024", "fiscal 2024", "fiscal year 2024", "2024".
_YEXPR = (
    rf"(?:\bFY\s*'?(?P<fy>\d{{4}}|\d{{2}})(?!\d)|(?:\bfiscal\s+(?:year\s+)?)?(?<![\w$.,/#])(?P<y4>{_Y4}))"
    rf"{_YEAR_END}"
)


FISCAL_WORD = re.compile(r"\bfiscal\b|\bFY", re.I)


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


NORMALISE = str.maketrans(
    {"’": "'", "‘": "'", "′": "'", "–": "-", "—": "-", "‑": "-", "−": "-", "\u00a0": " "}
)


@dataclass
class Atom:
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


_Handler = Callable[[re.Match[str]], "Atom | TimeSpec | bool | None"]


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


def _month_atom(m: re.Match[str]) -> Atom | None:
    groups = m.groupdict()
    year = _year_of(m)
    if year is None:
        return None
    month = month_of(groups["mon"]) if groups.get("mon") else int(groups["m"])
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
        return Atom(
            "month", m.start(), m.end(), month=nominal, first_month=written, months=(nominal,), day=day
        )
    return Atom("month", m.start(), m.end(), month=written, first_month=written, months=(written,))


def _month_pair_atom(m: re.Match[str]) -> Atom | None:
    """ "March/April 2023", "Mar or Apr 2023" (either month); "March-June 2023" (the months between)."""
    year = _year_of(m)
    first_number = month_of(m.group("mon"))
    second_number = month_of(m.group("mon2"))
    if year is None or first_number is None or second_number is None:
        return None
    # "December/January 2023": the first month belongs to the year before.
    first = _month_start(year if first_number <= second_number else year - 1, first_number)
    second = _month_start(year, second_number)
    separator = m.group("sep").lower()
    ranged = separator in ("-", "to", "through", "thru") or (m.group("op") is not None and separator == "and")
    if ranged:
        months = tuple(from_month_index(i) for i in range(month_index(first), month_index(second) + 1))
    else:
        months = tuple(sorted({first, second}))
    return Atom("month", m.start(), m.end(), month=second, first_month=first, months=months)


def _quarter_atom(m: re.Match[str]) -> Atom | None:
    groups = m.groupdict()
    quarter = int(groups["q"]) if groups.get("q") else _ORDINALS[groups["ord"].lower()]
    year = _year_of(m)
    if year is None:
        return None
    return Atom("quarter", m.start(), m.end(), year=year, quarter=quarter)


def _lone_atom(m: re.Match[str]) -> Atom:
    groups = m.groupdict()
    quarter = int(groups["q"]) if groups.get("q") else _ORDINALS[groups["ord"].lower()]
    return Atom("lone", m.start(), m.end(), quarter=quarter)


def _year_atom(m: re.Match[str]) -> Atom | TimeSpec | None:
    year = _year_of(m)
    if year is None:
        return None
    end_text = m.groupdict().get("to")
    if end_text:  # "FY19-21", "2019-20"
        end = _year_value(end_text)
        if end is None or not 0 < end - year <= 20:
            return None
        return TimeSpec.year_range(year, end, text=m.group(0), position=m.start())
    return Atom("year", m.start(), m.end(), year=year)


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


def _first_quarters(m: re.Match[str]) -> TimeSpec | None:
    n = _number(m.group("n"))
    return TimeSpec("fiscal_year", year=int(m.group("y4")), unit="quarter", n=n) if n and n <= 4 else None


def _years_to(m: re.Match[str]) -> TimeSpec | None:
    n, end = _number(m.group("n")), int(m.group("y4"))
    if not n:
        return None
    growth = bool(m.group("growth")) or bool(
        re.search(r"\b(?:cagr|growth|grow\w*|compound)", m.group("mid"), _I)
    )
    return TimeSpec.year_range(end - n if growth else end - n + 1, end)


RULES: tuple[tuple[re.Pattern[str], _Handler], ...] = (
    # "the first three quarters of fiscal 2024": its Q1 to Q3.
    (
        re.compile(
            rf"\b(?:the\s+|its\s+|their\s+)?first\s+{_NUM}\s+(?:fiscal\s+)?quarters\s+(?:of|in)\s+"
            rf"(?:the\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)?(?P<y4>{_Y4}){_YEAR_END}",
            _I,
        ),
        _spec(_first_quarters),
    ),
    # "the three years ended 2024": fiscal 2022 to 2024; a growth over them ("a three-year CAGR through
    # 2024", "revenue growth in the three years to 2024") starts from the year before: 2021.
    (
        re.compile(
            r"(?:\b(?P<growth>cagr|growth|compound(?:ed)?\s+annual(?:\s+growth)?(?:\s+rate)?)\s+"
            r"(?:(?:in|over|for|during)\s+)?(?:the\s+)?)?"
            rf"\b{_NUM}[- ](?:fiscal\s+)?years?\b(?P<mid>(?:\s+[\w-]+){{0,3}}?)\s+"
            r"(?:to|through|thru|ending(?:\s+in)?|ended(?:\s+in)?)\s+"
            rf"(?:the\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)?(?P<y4>{_Y4}){_YEAR_END}",
            _I,
        ),
        _spec(_years_to),
    ),
    # "the second quarter of 2024 and the same quarter of 2023": that quarter of fiscal 2023.
    (
        re.compile(
            r"\b(?:the\s+)?(?:same|corresponding|comparable|equivalent|like)\s+(?:fiscal\s+)?"
            r"(?:quarter|three[- ]month\s+period|period)\s+(?:of|in|for|during|a\s+year\s+earlier,?\s+in)\s+"
            rf"(?:the\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)?(?P<y4>{_Y4}){_YEAR_END}",
            _I,
        ),
        _spec(lambda m: TimeSpec("same_quarter", year=int(m.group("y4")))),
    ),
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
            r"(?:reported\s+|covered\s+|available\s+|fiscal\s+|quarterly\s+|reporting\s+|historical\s+)?"
            rf"(?:quarters|periods|10-?Qs|reports|filings|timeframe)\b{_NOT_NAMED}"
            rf"|\b(?:these|those|all\s+the|each\s+of\s+the)\s+(?:reported\s+|quarterly\s+)?"
            rf"(?:quarters|periods|10-?Qs|reports|filings)\b{_NOT_NAMED}"
            r"|\beach\s+(?:reporting|reported|fiscal)\s+period\b"
            r"|\b(?:to|with|against)\s+(?:the\s+)?(?:previous|prior|earlier|preceding)\s+ones\b"
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
