"""Dates as filings, covers and news write them: "June 28, 2025", "28 June 2025", "2025-06-28"."""

from __future__ import annotations

import re
from datetime import date

MONTHS: dict[str, int] = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}

MONTH_NAME_PATTERN = (
    "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    "|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
"""A month's name as questions, filings and answers write it (regex alternatives, no group)."""


def month_of(name: str) -> int:
    """1-12 for a name MONTH_NAME_PATTERN matched ("Sept", "june", "Dec")."""
    return MONTHS[name.lower()[:3]]


_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_NAME_FIRST = re.compile(r"([A-Za-z]{3,9})\.?\s+(\d{1,2})\s*,?\s*(\d{4})")
_DAY_FIRST = re.compile(r"(\d{1,2})\s+([A-Za-z]{3,9})\.?\s*,?\s*(\d{4})")
_SLASH = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")


def month_number(name: str) -> int | None:
    return MONTHS.get(name.strip().rstrip(".").lower())


def parse_date(text: str) -> date | None:
    """The first date written in ``text``; None when there is none or it is impossible (Feb 30)."""
    s = " ".join(text.replace("\xa0", " ").split())
    if not s:
        return None
    try:
        if m := _ISO.search(s):
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if (m := _NAME_FIRST.search(s)) and (month := month_number(m.group(1))):
            return date(int(m.group(3)), month, int(m.group(2)))
        if (m := _DAY_FIRST.search(s)) and (month := month_number(m.group(2))):
            return date(int(m.group(3)), month, int(m.group(1)))
        if m := _SLASH.search(s):
            return date(int(m.group(3)), int(m.group(1)), int(m.group(2)))
    except ValueError:
        return None
    return None


def parse_month_day_year(text: str) -> date | None:
    """Only the "June 25, 2022" / "Sept. 30 2022" form (cover sentences hold other numbers too)."""
    m = _NAME_FIRST.search(text)
    month = month_number(m.group(1)) if m else None
    if not m or month is None:
        return None
    try:
        return date(int(m.group(3)), month, int(m.group(2)))
    except ValueError:
        return None
