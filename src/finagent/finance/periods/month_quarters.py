"""A quarter named by the month it ends in, as analysts and companies name it ("the December
quarter", "Apple's June-quarter results of 2024"): the company's quarter ending in that month, read
like "the quarter ended December 2023".

Without a year the phrase is dated by another date the question writes: the month's occurrence
nearest it (the December before "… when they came out at the start of February 2024", the March
after "on the February 1, 2024 call, what did Apple guide for the March quarter").
"""

from __future__ import annotations

import re
from datetime import date

from finagent.finance.dates import MONTH_NAME_PATTERN, month_of
from finagent.finance.periods.spec import TimeSpec

_MONTH_QUARTER = re.compile(
    rf"\b(?P<mon>{MONTH_NAME_PATTERN})\.?[-\s]+quarters?\b"
    r"(?:\s*(?:of\s+|,\s*)?(?P<y4>(?:19|20)\d\d)\b)?(?!\s+(?:fiscal|FY))",
    re.IGNORECASE,
)


def month_quarters(question: str, specs: list[TimeSpec], claimed: list[tuple[int, int]]) -> list[TimeSpec]:
    """``specs`` with each quarter the question names by its month ("the December quarter") added as
    the quarter ending in that month (its text added to ``claimed``). A yearless one takes the year
    of the month's occurrence nearest another date the question writes: a month it came out in is no
    period of its own then ("results … in February 2024"); a day names a document (the call of
    February 1, 2024), kept, and a quarter ending after it is what the document looked ahead to
    ("guide for the March quarter"), no period asked. With no date to date it, it is left out."""
    out = list(specs)
    for match in _MONTH_QUARTER.finditer(question):
        if match["mon"] == "may":  # the verb ("sales may quarter …"), not the month
            continue
        month = month_of(match["mon"])
        if match["y4"]:
            start = date(int(match["y4"]), month, 1)
        else:
            dating = _dating(out)
            anchor = (dating.day or dating.start_date) if dating is not None else None
            if dating is None or anchor is None:
                continue
            start = _nearest(month, anchor)
            if dating.day is not None and start >= date(anchor.year, anchor.month, 1):
                continue
            if dating.day is None:
                out.remove(dating)
        out = [s for s in out if not match.start() <= s.position < match.end()]  # its year is its own
        text = question[match.start() : match.end()]
        out.append(TimeSpec.date_range(start, start, text=text, position=match.start(), unit="quarter"))
        claimed.append((match.start(), match.end()))
    return out


def _nearest(month: int, anchor: date) -> date:
    """The first day of the occurrence of ``month`` nearest ``anchor`` (the earlier on a tie)."""
    return min((date(anchor.year + k, month, 1) for k in (-1, 0, 1)), key=lambda d: abs(d - anchor))


def _dating(specs: list[TimeSpec]) -> TimeSpec | None:
    """The date a yearless month's quarter takes its year from: a month or a day the question writes,
    not the end of a period it names ("the quarter ended …")."""
    return next((s for s in specs if s.kind == "date_range" and s.unit is None and not s.span), None)
