r"""The phrase grammar: a question's time phrases -> company-independent ``TimeSpec``\ s (rules in
``finagent.finance.periods``)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, Literal

from finagent.finance.dates import MONTH_NAME_PATTERN, month_of
from finagent.finance.fiscal import (
    nominal_month_end,
)
from finagent.finance.periods.spec import (
    Prefer,
    TimeSpec,
    Unit,
    from_month_index,
    from_quarter_index,
    month_bounds,
    month_index,
    quarter_index,
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
        return _Atom(
            "month", m.start(), m.end(), month=nominal, first_month=written, months=(nominal,), day=day
        )
    return _Atom("month", m.start(), m.end(), month=written, first_month=written, months=(written,))


def _month_pair_atom(m: re.Match[str]) -> _Atom | None:
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
TWELVE_MONTHS = re.compile(r"\b(?:twelve|12)[- ]months?\b|\b5[23][- ]weeks?\b", _I)
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
        if runs and month_index(month) == month_index(runs[-1][-1]) + 1:
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
        newest = quarter_index(nxt.year, nxt.quarter)
        first, last = from_quarter_index(newest - spec.n + 1), (nxt.year, nxt.quarter)
        return TimeSpec.quarter_range(first, last, text=phrase, position=atom.start)
    if nxt.kind == "month" and nxt.month:
        through = nxt.months[-1] if nxt.months else nxt.month
        first_month = nxt.months[0] if nxt.months else nxt.month
        day = nxt.day if len(nxt.months) <= 1 else None
        end = month_bounds(first_month, through)
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
