"""Period ranges as an option writes them: ``FY2009..FY2024``, ``"Q1 FY2022..Q3 FY2024"``, ``FY2009..``.

The ``..`` form is for options (``finagent facts --periods``, the API's ``periods``), where a value
is nothing but periods: both ends must be one fiscal year or one fiscal quarter each, of the same
kind, in order. An open end (``FY2009..``) runs to the latest period the store holds. Anything else
is a one-line error naming the part that cannot be read, never a guess.
"""

from __future__ import annotations

from finagent.finance.periods.grammar import parse_time_phrases, period_problem
from finagent.finance.periods.spec import TimeSpec

RANGE_MARK = ".."
RANGE_EXAMPLES = "write e.g. FY2009..FY2024, 'Q1 FY2022..Q3 FY2024' or FY2009.. (to the latest held)"


class PeriodRangeError(ValueError):
    """A ``..`` range that cannot be read; the message is the one line a user sees."""


def is_range(text: str) -> bool:
    return RANGE_MARK in text


def _end(part: str, whole: str) -> TimeSpec:
    """One end of a range: exactly one fiscal year or fiscal quarter, the whole part read."""
    specs = parse_time_phrases(part)
    if (
        len(specs) != 1
        or specs[0].kind not in ("fiscal_year", "fiscal_quarter")
        or len(specs[0].text.strip()) < len(part.strip())
    ):
        raise PeriodRangeError(
            f"cannot read '{part.strip()}' as one fiscal year or quarter in the range '{whole}' "
            f"({RANGE_EXAMPLES})"
        )
    return specs[0]


def parse_range(text: str) -> TimeSpec:
    """The spec of a ``..`` range: a year range, a quarter range, or "since" for an open end."""
    whole = " ".join(text.split())
    if whole.count(RANGE_MARK) != 1:
        raise PeriodRangeError(f"'{whole}' has {whole.count(RANGE_MARK)} '..' marks; {RANGE_EXAMPLES}")
    left, right = (p.strip() for p in whole.split(RANGE_MARK))
    if not left:
        raise PeriodRangeError(f"the range '{whole}' has no first period; {RANGE_EXAMPLES}")
    start = _end(left, whole)
    if not right:
        return TimeSpec.since_year(
            start.year or 0,
            quarter=start.quarter,
            text=whole,
            unit="quarter" if start.kind == "fiscal_quarter" else None,
        )
    end = _end(right, whole)
    if start.kind != end.kind:
        raise PeriodRangeError(
            f"the range '{whole}' mixes a fiscal year and a fiscal quarter; give both ends alike "
            f"({RANGE_EXAMPLES})"
        )
    first = (start.year or 0, start.quarter or 0)
    last = (end.year or 0, end.quarter or 0)
    if last < first:
        raise PeriodRangeError(f"the range '{whole}' runs backwards: write {right}..{left}")
    if start.kind == "fiscal_year":
        return TimeSpec.year_range(first[0], last[0], text=whole)
    return TimeSpec.quarter_range(first, last, text=whole)


def option_specs(text: str) -> list[TimeSpec]:
    """The specs of one period option value: a ``..`` range, or the usual period phrases."""
    return [parse_range(text)] if is_range(text) else parse_time_phrases(text)


def option_problem(text: str) -> str | None:
    """Why a period option cannot be used (``grammar.period_problem``), a ``..`` range included."""
    if not is_range(text):
        return period_problem(text)
    try:
        parse_range(text)
    except PeriodRangeError as exc:
        return str(exc)
    return None
