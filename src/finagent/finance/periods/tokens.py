r"""The tokens of time phrases: years, quarters, months, counts and ordinals as regex pieces, their
values, and the ``Atom`` a recognised piece of a phrase becomes (the rule table is in ``rules``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Literal

from finagent.finance.dates import MONTH_NAME_PATTERN
from finagent.finance.periods.spec import TimeSpec

Y4 = r"(?:19[5-9]\d|20\d\d)"


YEAR_END = r"(?![\d%]|[.,]\d)"


NUM = (
    r"(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few)"
)


NUM2 = NUM.replace("<n>", "<n2>")


ORD = r"(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)"


def _month_group(name: str) -> str:
    return rf"(?P<{name}>{MONTH_NAME_PATTERN})\.?"


MON = _month_group("mon")


MON2 = _month_group("mon2")


# A fiscal year: "FY2024", "FY24", "FY 2024", "fiscal 2024", "fiscal year 2024", "2024".
YEXPR = (
    rf"(?:\bFY\s*'?(?P<fy>\d{{4}}|\d{{2}})(?!\d)|(?:\bfiscal\s+(?:year\s+)?)?(?<![\w$.,/#])(?P<y4>{Y4}))"
    rf"{YEAR_END}"
)


FISCAL_WORD = re.compile(r"\bfiscal\b|\bFY", re.I)


# "the quarters ending …", "the periods from 2019 to 2021": the dates that follow name the periods.
NOT_NAMED = r"(?!\s+(?:end|ending|ended|of|from|between|since|through|in|to)\b)"


LATEST_WORD = r"(?:latest|newest|most\s+recent(?:ly)?(?:\s+(?:reported|completed|ended|filed|available))?)"


RECENT = r"(?:last|past|previous|prior|preceding|trailing|recent|latest|most\s+recent)"


_WORD_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "couple": 2, "couple of": 2, "a couple": 2, "a couple of": 2,
    "few": 3, "a few": 3,
}  # fmt: skip


ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}


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


Handler = Callable[[re.Match[str]], "Atom | TimeSpec | bool | None"]


def number(text: str) -> int | None:
    key = re.sub(r"\s+", " ", text.lower().strip())
    value = int(key) if key.isdigit() else _WORD_NUMBERS.get(key)
    return value if value and value > 0 else None


def _two_digit_year(yy: int) -> int:
    return 2000 + yy if yy < 50 else 1900 + yy


def year_value(text: str | None) -> int | None:
    if not text:
        return None
    value = int(text)
    if len(text) == 2:
        return _two_digit_year(value)
    return value if 1950 <= value <= 2099 else None


def year_of(m: re.Match[str]) -> int | None:
    groups = m.groupdict()
    for name in ("fy", "y4", "y2"):
        if groups.get(name):
            return year_value(groups[name])
    return None


def month_start(year: int, month: int) -> date:
    return date(year, month, 1)


IGNORE_CASE = re.IGNORECASE
