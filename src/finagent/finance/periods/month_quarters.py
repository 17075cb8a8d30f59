"""A quarter named by the month it ends in, as analysts and companies name it ("the December
quarter", "Apple's June-quarter results of 2024"): the company's quarter ending in that month, read
like "the quarter ended December 2023".

Without a year the phrase is dated by another date the question writes, the day the results came
out ("… when they came out at the start of February 2024"): the month's latest occurrence before it.
That date only dated the results, so it is no period of its own.
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
    the quarter ending in that month (its text added to ``claimed``), and without the date that only
    dated a yearless one; a yearless phrase with no date to date it is left out (read as before)."""
    out = list(specs)
    for match in _MONTH_QUARTER.finditer(question):
        if match["mon"] == "may":  # the verb ("sales may quarter …"), not the month
            continue
        month = month_of(match["mon"])
        year = int(match["y4"]) if match["y4"] else None
        if year is None:
            dating = _dating(out)
            if dating is None or dating.start_date is None:
                continue
            out.remove(dating)
            first = dating.start_date
            year = first.year if month < first.month else first.year - 1
        start = date(year, month, 1)
        out = [s for s in out if not match.start() <= s.position < match.end()]  # its year is its own
        out.append(
            TimeSpec.date_range(
                start,
                start,
                text=question[match.start() : match.end()],
                position=match.start(),
                unit="quarter",
            )
        )
        claimed.append((match.start(), match.end()))
    return out


def _dating(specs: list[TimeSpec]) -> TimeSpec | None:
    """The date a yearless month's quarter takes its year from: a month or a day the question writes,
    not the end of a period it names ("the quarter ended …")."""
    return next((s for s in specs if s.kind == "date_range" and s.unit is None and not s.span), None)
