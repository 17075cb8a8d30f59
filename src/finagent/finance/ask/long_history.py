"""Long histories: what a question asks of a company's whole series, and what the series says.

"Apple's revenue from fiscal 2010 to 2024" (a range), "How much did Union Pacific's revenue grow since
2010?" (since: from that year to the latest period held), "Did Microsoft ever report a quarterly
loss?" (ever: every period the store holds), "over all years" (all). The question's words are read
once into a ``History`` that the plan carries; the answer is decided here by code over the figures the
store holds: the earliest and latest figures, which periods have none (named, never interpolated),
and for "ever" the periods that meet the test. Growth and CAGR are the calculator's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from decimal import Decimal
from typing import Any, Literal, TypeVar

from finagent.finance.periods.spec import TimeSpec

Span = Literal["range", "since", "ever", "all"]
Test = Literal["negative", "positive"]

_I = re.IGNORECASE
_EVER = re.compile(
    r"\bever\b|\bat\s+any\s+(?:point|time)\b|\bany\s+(?:fiscal\s+)?(?:year|quarter|period)\b|\bnever\b", _I
)
_ALL = re.compile(
    r"\bhistor(?:y|ical(?:ly)?)\b|\bearliest\b|\blongest\b|\bfirst\s+(?:held|reported|available)\b"
    r"|\ball\s+(?:the\s+)?(?:fiscal\s+)?(?:years|quarters|periods)\b|\bevery\s+(?:fiscal\s+)?(?:year|quarter)\b"
    r"|\beach\s+(?:fiscal\s+)?year\b",
    _I,
)
_QUARTERS = re.compile(r"\bquarter(?:s|ly)?\b|\bQ[1-4]\b", _I)
_NEGATIVE = re.compile(r"\bloss(?:es)?\b|\bnegative\b|\bdeficit\b|\bin\s+the\s+red\b", _I)
_POSITIVE = re.compile(r"\bprofit(?:s|able)?\b|\bpositive\b|\bin\s+the\s+black\b", _I)
_OPERATING = re.compile(r"\boperating\s+(?:loss|profit|income)", _I)
RANGE_KINDS = frozenset({"year_range", "quarter_range"})
LONG_RANGE_PERIODS = 5
"""A named range of at least this many periods is a history (shorter ones are ordinary changes)."""


@dataclass(frozen=True, slots=True)
class History:
    """A question about a series over many periods (JSON-ready with ``to_dict``)."""

    span: Span
    unit: Literal["year", "quarter"] = "year"
    test: Test | None = None
    """ "ever": the sign a period must have to answer yes ("a loss": negative)."""
    metric: str | None = None
    """The metric the words imply when no metric is named ("a loss": net income)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> History | None:
        if not data:
            return None
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})

    @property
    def everything(self) -> bool:
        """Every period the store holds (no start named)."""
        return self.span in ("ever", "all")


def _periods_in(spec: TimeSpec) -> int:
    if spec.kind == "year_range" and spec.start_year and spec.end_year:
        return spec.end_year - spec.start_year + 1
    if spec.kind == "quarter_range" and spec.start_quarter and spec.end_quarter:
        (y1, q1), (y2, q2) = spec.start_quarter, spec.end_quarter
        return (y2 - y1) * 4 + q2 - q1 + 1
    return 0


def read_history(question: str, specs: Sequence[TimeSpec]) -> History | None:
    """The history a question asks about, or None for an ordinary question of a few periods."""
    quarterly = bool(_QUARTERS.search(question)) or any(s.kind == "quarter_range" for s in specs)
    unit: Literal["year", "quarter"] = "quarter" if quarterly else "year"
    span: Span | None = None
    if any(s.kind == "since_year" for s in specs):
        span = "since"
    elif any(s.kind in RANGE_KINDS and _periods_in(s) >= LONG_RANGE_PERIODS for s in specs):
        span = "range"
    # "earliest and latest": a "latest" phrase beside the history's words still asks for all of it
    unnamed = all(s.kind == "latest" for s in specs)
    if span is None and unnamed and _EVER.search(question):
        span = "ever"
    elif span is None and unnamed and _ALL.search(question):
        span = "all"
    if span is None:
        return None
    test: Test | None = None
    if span == "ever":
        test = (
            "negative" if _NEGATIVE.search(question) else "positive" if _POSITIVE.search(question) else None
        )
    implied = None
    if test is not None:
        implied = "operating_income" if _OPERATING.search(question) else "net_income"
    return History(span=span, unit=unit, test=test, metric=implied)


def held_range(keys: Sequence[tuple[int, int | None]], unit: str) -> TimeSpec | None:
    """Every period from the earliest to the latest the store holds, as one range spec: periods in
    between with no figure stay in it, to be named as gaps."""
    if unit == "quarter":
        quarters = sorted((y, q) for y, q in keys if q is not None)
        if not quarters:
            return None
        return TimeSpec.quarter_range(quarters[0], quarters[-1], text="every quarter held")
    years = sorted({y for y, q in keys if q is None})
    if not years:
        return None
    return TimeSpec.year_range(years[0], years[-1], text="every year held", unit="year")


def gap_runs(order: Sequence[str], missing: Sequence[str]) -> str:
    """The periods of ``missing`` in the order of ``order`` (every period asked), a run of three or
    more in a row written "FY2010 to FY2015": "FY2010 to FY2015, FY2018"."""
    gone = set(missing)
    runs: list[list[str]] = []
    for index, label in enumerate(order):
        if label not in gone:
            continue
        if runs and order.index(runs[-1][-1]) == index - 1:
            runs[-1].append(label)
        else:
            runs.append([label])
    parts = [f"{r[0]} to {r[-1]}" if len(r) >= 3 else ", ".join(r) for r in runs]
    return ", ".join(parts)


_Period = TypeVar("_Period")


def meeting(values: Sequence[tuple[_Period, Decimal]], test: Test) -> list[tuple[_Period, Decimal]]:
    """The (period, value) pairs that meet the test: negative (a loss) or positive (a profit)."""
    return [(p, v) for p, v in values if (v < 0 if test == "negative" else v > 0)]
