"""Sanity of the figures read from a table or copied by the model, before any is stated or computed.

A figure can be copied exactly and still be the wrong one: a guarantor group's total assets, a
year's dividends under a quarter's label, net income under revenue's. Such a figure passes every
check of "is it written in its passage", so it is weighed against what a company's statements must
be: accounting identities (a total is not below its lines, a profit not above revenue, a per-share
value not above its total), the duration of the column it was read from, and the company's own
XBRL fact for the same line and period when one is stored.

Pure: figures in, failures (each a figure and a one-line reason) out. Who trusts whom: an XBRL fact
is the reference and never fails; a figure agreeing with it counts as one; otherwise a table read
outranks a model copy, and when an identity fails between figures of one rank both are withheld
(nothing says which of the two is wrong).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Literal

from finagent.finance.lines import LINES, line
from finagent.finance.periods.period import FiscalPeriod

Source = Literal["xbrl", "table", "model"]
Unit = Literal["money", "per_share", "shares"]

_RANK: dict[str, int] = {"model": 0, "table": 1, "xbrl": 2}


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure as read: whose, which period and line, its value in units (dollars, dollars a
    share, shares), where it came from, and what is known of the column it was read from."""

    company: str
    period: str  # "FY2022", "Q3 FY2023"
    line: str  # the registry's name ("total_assets")
    value: float
    unit: Unit = "money"
    months: int | None = None  # the column's (or context's) duration; 0 for a balance; None: unknown
    precision: float = 0.0  # the unit the figure is printed in (1e6 "in millions"): its rounding
    source: Source = "table"
    part: str = ""  # a segment's or region's figure; "" for the whole company
    label: str = ""  # its citation label


@dataclass(frozen=True, slots=True)
class Failure:
    """A figure that is not used, and why, in one line."""

    figure: Figure
    reason: str


@dataclass(frozen=True, slots=True)
class Bound:
    """One identity between two lines of a company and period: ``larger`` is at least ``smaller``
    once ``smaller`` is multiplied by ``factor`` (in magnitude when ``magnitude``); ``profit`` rules
    weigh only a positive ``smaller`` (a loss may exceed a young company's revenue)."""

    larger: str
    smaller: str
    factor: float = 1.0
    magnitude: bool = False
    strict: bool = False
    profit: bool = False
    financial: bool = True  # holds for banks and insurers too


MIN_SHARES = 1e5
"""Fewer shares than this no listed company has: a per-share value times it stays below its total
(a total read as a per-share value, or a per-share row read in a table's millions, fails)."""

BOUNDS: tuple[Bound, ...] = (
    *(
        Bound("total_assets", small)
        for small in (
            "current_assets",
            "cash",
            "receivables",
            "inventory",
            "ppe_net",
            "short_term_investments",
        )
    ),
    Bound("current_assets", "receivables"),
    Bound("current_assets", "inventory"),
    Bound("total_liabilities", "current_liabilities"),
    Bound("total_liabilities", "long_term_debt"),
    Bound("current_liabilities", "accounts_payable"),
    Bound("revenue", "gross_profit"),
    Bound("revenue", "net_income", strict=True, profit=True, financial=False),
    Bound("total_assets", "net_income", strict=True, profit=True),
    Bound("net_income", "eps_diluted", MIN_SHARES, magnitude=True),
    Bound("net_income", "eps_basic", MIN_SHARES, magnitude=True),
    Bound("dividends_paid", "dividends_per_share", MIN_SHARES, magnitude=True),
)
"""The identities, as a table: ``larger`` ≥ ``smaller`` × ``factor``."""

PARTS_BELOW_WHOLE = frozenset({"revenue", "total_assets"})
"""Lines no segment's or region's figure exceeds the company's (a segment's profit can: others lose)."""


def insane(figures: Sequence[Figure], *, financial: bool = False) -> list[Failure]:
    """The figures that fail a check, each with its first reason; XBRL figures are references only.
    ``financial``: a bank or insurer, whose net income is not held below its revenue."""
    references = [f for f in figures if f.source == "xbrl"]
    failures = [*_units(figures), *_durations(figures), *_disagreements(figures, references)]
    failed = {id(f.figure) for f in failures}
    standing = [f for f in figures if id(f) not in failed]
    agreed = {id(f) for f in standing if _agrees(f, references)}
    failures += _identities(standing, agreed, financial)
    first: dict[int, Failure] = {}
    for failure in failures:
        first.setdefault(id(failure.figure), failure)
    return list(first.values())


def _units(figures: Iterable[Figure]) -> list[Failure]:
    """A figure in another unit than its line's (an amount read from a per-share row)."""
    return [
        Failure(f, f"{_named(f)} is {_UNIT_WORDS[f.unit]}, not {_UNIT_WORDS[line(f.line).unit]}")
        for f in figures
        if f.source != "xbrl" and f.line in _KNOWN and f.unit != line(f.line).unit
    ]


_UNIT_WORDS = {"money": "an amount", "per_share": "a per-share value", "shares": "a count of shares"}
_KNOWN = frozenset(item.name for item in LINES)


def period_months(period: str) -> int | None:
    """How many months a period label spans ("Q3 FY2023": 3, "FY2023": 12, "9M FY2023": 9)."""
    found = FiscalPeriod.from_label(period)
    return found.span.months if found is not None else None


def _durations(figures: Iterable[Figure]) -> list[Failure]:
    """A flow read from a column of another duration than the period it is stated for (a year's
    dividends under a quarter's label); 52- and 53-week years and 13- and 14-week quarters agree."""
    failures = []
    for f in figures:
        wanted = period_months(f.period)
        if f.source == "xbrl" or f.months is None or wanted is None or f.line not in _KNOWN:
            continue
        if line(f.line).instant or abs(f.months - wanted) <= 1:
            continue
        failures.append(
            Failure(f, f"{_named(f)} is a {f.months}-month figure, not one of {f.period} ({wanted} months)")
        )
    return failures


def _same_fact(figure: Figure, reference: Figure) -> bool:
    return (figure.company, figure.period, figure.line, figure.part) == (
        reference.company,
        reference.period,
        reference.line,
        reference.part,
    ) and figure.unit == reference.unit


def _within_rounding(figure: Figure, reference: Figure) -> bool:
    """Equal at the figure's printed precision; a payment compares as the amount paid (a table's
    "(1,577)" is the fact's 1,577)."""
    a, b = figure.value, reference.value
    if figure.line in _KNOWN and line(figure.line).outflow:
        a, b = abs(a), abs(b)
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=max(figure.precision, 1e-9))


def _agrees(figure: Figure, references: Sequence[Figure]) -> bool:
    return figure.source == "xbrl" or any(
        _same_fact(figure, r) and _within_rounding(figure, r) for r in references
    )


def _disagreements(figures: Iterable[Figure], references: Sequence[Figure]) -> list[Failure]:
    """A figure read beside the company's XBRL fact of the same line and period, beyond rounding."""
    failures = []
    for f in figures:
        if f.source == "xbrl":
            continue
        reported = [r for r in references if _same_fact(f, r)]
        if reported and not any(_within_rounding(f, r) for r in reported):
            failures.append(Failure(f, f"{_named(f)} differs from the reported {_amount(reported[0])}"))
    return failures


def _identities(figures: Sequence[Figure], agreed: set[int], financial: bool) -> list[Failure]:
    """Every identity of ``BOUNDS`` and of a whole above its parts, over figures of one company and
    period; the failing side is the less trusted one (both, when equally trusted)."""
    failures: list[Failure] = []
    by_key: dict[tuple[str, str, str, str], list[Figure]] = {}
    for f in figures:
        by_key.setdefault((f.company, f.period, f.line, f.part), []).append(f)
    for (company, period, name, part), found in by_key.items():
        if part:
            if name in PARTS_BELOW_WHOLE:
                wholes = by_key.get((company, period, name, ""), [])
                failures += _pairs(wholes, found, Bound(name, name), agreed)
            continue
        for bound in BOUNDS:
            if bound.smaller == name and (bound.financial or not financial):
                failures += _pairs(by_key.get((company, period, bound.larger, ""), []), found, bound, agreed)
    return failures


def _pairs(
    larger: Sequence[Figure], smaller: Sequence[Figure], bound: Bound, agreed: set[int]
) -> list[Failure]:
    failures = []
    for big, small in product(larger, smaller):
        if _holds(big.value, small.value, bound):
            continue
        rank = {id(f): 3 if id(f) in agreed else _RANK[f.source] for f in (big, small)}
        words = "is not above" if bound.strict else "is below"
        if rank[id(big)] <= rank[id(small)] and big.source != "xbrl":
            failures.append(Failure(big, f"{_named(big)} {words} {_named(small, bound.factor)}"))
        if rank[id(small)] <= rank[id(big)] and small.source != "xbrl":
            failures.append(Failure(small, f"{_named(small, bound.factor)} is above {_named(big)}"))
    return failures


def _holds(big: float, small: float, bound: Bound) -> bool:
    if bound.profit and small <= 0:
        return True
    if bound.magnitude:
        big, small = abs(big), abs(small)
        if big == 0:
            return True  # a total of nothing bounds no per-share value that rounds it
    small *= bound.factor
    return big > small if bound.strict else big >= small


def _named(figure: Figure, factor: float = 1.0) -> str:
    """ "total assets of $81 million"; a per-share value bounded by its total, with the share count."""
    what = line(figure.line).label.lower() if figure.line in _KNOWN else figure.line.replace("_", " ")
    of = f"{figure.part}'s " if figure.part else ""
    times = f" (times {MIN_SHARES:,.0f} shares)" if factor != 1.0 else ""
    return f"{of}{what} of {_amount(figure)}{times}"


def _amount(figure: Figure) -> str:
    """ "$81 million", "$2.68 a share", "1,204,000 shares"."""
    value = figure.value
    sign = "-" if value < 0 else ""
    if figure.unit == "per_share":
        return f"{sign}${abs(value):,.2f} a share"
    if figure.unit == "shares":
        return f"{value:,.0f} shares"
    millions = abs(value) / 1e6
    if millions >= 1:
        shown = f"{millions:,.0f}" if millions >= 100 else f"{millions:,.3g}"
        return f"{sign}${shown} million"
    return f"{sign}${abs(value):,.0f}"
