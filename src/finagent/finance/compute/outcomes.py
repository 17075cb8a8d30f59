"""What the figures say about the ask: the order of a ranking, the first period one company overtook
another or crossed a threshold, the winner of a growth comparison, a restatement's two values (the
yes or no of a direction is ``figures.verdict``'s). Computed from period-true cells (``compare.Cell``),
never written by a model.

Periods of different companies are aligned by the date they end (fiscal labels differ): quarters
ending within 45 days of each other, fiscal years within 200 days.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from itertools import pairwise
from typing import Any

from finagent.finance.compute.compare import Cell, ranked_groups
from finagent.finance.looked_up import Figure, FigureRecord
from finagent.finance.periods.period import FiscalPeriod

QUARTER_DAYS = 45
YEAR_DAYS = 200


@dataclass(frozen=True, slots=True)
class Ranking:
    """Companies ordered by one metric in aligned periods (highest first unless the lowest is asked)."""

    metric: str
    cells: tuple[Cell, ...]
    highest_first: bool = True

    @property
    def same_period(self) -> bool:
        """Every company's figure is for the same fiscal label and end."""
        return len({(c.period, c.period_end) for c in self.cells}) == 1


@dataclass(frozen=True, slots=True)
class GrowthRanking:
    """Companies ordered by the growth of one metric (each its own change record)."""

    metric: str
    changes: tuple[dict[str, Any], ...]
    highest_first: bool = True


@dataclass(frozen=True, slots=True)
class Crossing:
    """Whether (and when) one company's figure went above another's, or above an amount."""

    metric: str
    leader: str
    pairs: tuple[tuple[Cell, Cell | Decimal], ...]  # chronological: (leader's cell, trailer's or amount)
    first_above: int | None  # index of the first pair where the leader is above
    crossed: bool  # below (or level) in an earlier pair, then above
    trailer: str | None = None

    @property
    def above_in(self) -> list[int]:
        return [i for i, (a, b) in enumerate(self.pairs) if a.value > _value(b)]


@dataclass(frozen=True, slots=True)
class Restated:
    """A figure reported with different values by two filings."""

    ticker: str
    metric: str
    period: FiscalPeriod
    original: Decimal
    original_filing: str
    latest: Decimal
    latest_filing: str
    unit: str = "USD"
    original_chunk: int | None = None  # where each value is printed, when stored
    latest_chunk: int | None = None
    original_document: int | None = None
    latest_document: int | None = None

    @property
    def difference(self) -> Decimal:
        return self.latest - self.original


@dataclass(frozen=True, slots=True)
class Trend:
    """One company's metric over two or more periods, chronological (the changes are the calculator's)."""

    ticker: str
    metric: str
    cells: tuple[Cell, ...]


def _value(item: Cell | Decimal) -> Decimal:
    return item.value if isinstance(item, Cell) else item


def _close(a: Cell, b: Cell) -> bool:
    """Two periods of different companies that cover the same time."""
    if (a.fiscal_quarter is None) != (b.fiscal_quarter is None):
        return False
    if a.period_end is None or b.period_end is None:
        return a.period == b.period
    limit = YEAR_DAYS if a.fiscal_quarter is None else QUARTER_DAYS
    return abs((a.period_end - b.period_end).days) <= limit


def _days_apart(a: Cell, b: Cell) -> int:
    return abs(((a.period_end or date.min) - (b.period_end or date.min)).days)


def aligned(cells: Sequence[Cell]) -> list[list[Cell]]:
    """Groups of cells of different companies covering the same time, chronological; each company once
    per group, joined to the group whose end is nearest."""
    groups: list[list[Cell]] = []
    for cell in sorted(cells, key=lambda c: (c.period_end or date.min, c.ticker)):
        fits = [g for g in groups if all(c.ticker != cell.ticker for c in g) and _close(g[0], cell)]
        if fits:
            nearest = min(
                fits, key=lambda g: abs(((g[0].period_end or date.min) - (cell.period_end or date.min)).days)
            )
            nearest.append(cell)
        else:
            groups.append([cell])
    return groups


def ranking(cells: Sequence[Cell], metric: str, highest_first: bool = True) -> list[Ranking]:
    """Rankings of the companies by ``metric``: one over each company's own period (``ranked_groups``:
    their latest fiscal years may end months apart), one per aligned period when several are asked."""
    targets = [c for c in cells if c.metric == metric and c.role == "target"]
    return [
        Ranking(metric, tuple(sorted(g, key=lambda c: c.value, reverse=highest_first)), highest_first)
        for g in ranked_groups(targets, aligned)
        if len(g) > 1
    ]


def compared_groups(cells: Sequence[Cell]) -> list[list[Cell]]:
    """The figures compared across companies: every company's only figure when each has one (their
    latest fiscal years may end months apart), else the groups of aligned periods."""
    per_company: dict[str, list[Cell]] = defaultdict(list)
    for cell in cells:
        per_company[cell.ticker].append(cell)
    if per_company and all(len(v) == 1 for v in per_company.values()):
        return [[v[0] for v in per_company.values()]]
    return aligned(cells)


def growth_kinds(change: str | None) -> list[str]:
    """The changes a growth ranking reads, in order of preference: the one asked, then the widest."""
    kinds = [k for k in (change, "cagr", "change", "yoy", "qoq") if k and k != "trend"]
    return ["change", *kinds] if change == "trend" else kinds


def growth_ranking(
    calculations: Sequence[dict[str, Any]], metric: str, kinds: Sequence[str], highest_first: bool = True
) -> GrowthRanking | None:
    """Companies ordered by the growth of ``metric``: per company its widest change of the first of
    ``kinds`` it has (the change over the whole span asked for, or its latest year over year)."""
    best: dict[str, dict[str, Any]] = {}
    for kind in kinds:
        for calc in calculations:
            if calc.get("kind") != kind or calc.get("metric") != metric or calc["ticker"] in best:
                continue
            same = [
                c
                for c in calculations
                if c.get("kind") == kind and c.get("metric") == metric and c["ticker"] == calc["ticker"]
            ]
            best[calc["ticker"]] = max(same, key=_span)
    if len(best) < 2:
        return None
    ordered = sorted(best.values(), key=lambda c: c["result"], reverse=highest_first)
    return GrowthRanking(metric, tuple(ordered), highest_first)


def _span(calc: dict[str, Any]) -> tuple[int, str]:
    """How many periods a change spans, then how late it ends (labels sort by year, then quarter)."""
    start, end = _period_order(calc.get("from_period", "")), _period_order(calc.get("to_period", ""))
    return (end[0] * 5 + end[1]) - (start[0] * 5 + start[1]), calc.get("to_period", "")


def _period_order(label: str) -> tuple[int, int]:
    period = FiscalPeriod.from_label(label)
    if period is None:
        return _loose_period_order(label)
    return period.fiscal_year, period.quarter or 5


def _loose_period_order(label: str) -> tuple[int, int]:
    """Order of a label that is not a fiscal period's ("2023", "Dec 2023"): by its last number."""
    parts = label.replace("FY", "").split()
    try:
        if len(parts) == 2 and parts[0].startswith("Q"):
            return int(parts[1]), int(parts[0][1:])
        return int(parts[-1]), 5
    except (ValueError, IndexError):
        return 0, 0


def crossing(cells: Sequence[Cell], metric: str, leader: str, trailer: str) -> Crossing | None:
    """When ``leader``'s ``metric`` first went above ``trailer``'s, over the periods compared."""
    mine = [c for c in cells if c.metric == metric and c.role == "target" and c.ticker in (leader, trailer)]
    pairs: list[tuple[Cell, Cell | Decimal]] = []
    for group in compared_groups(mine):
        first = next((c for c in group if c.ticker == leader), None)
        second = next((c for c in group if c.ticker == trailer), None)
        if first is not None and second is not None:
            pairs.append((first, second))
    return _crossed(metric, leader, pairs, trailer) if pairs else None


def threshold_crossing(cells: Sequence[Cell], metric: str, ticker: str, amount: Decimal) -> Crossing | None:
    """When ``ticker``'s ``metric`` first went above ``amount`` (dollars), chronologically."""
    mine = sorted(
        (c for c in cells if c.metric == metric and c.role == "target" and c.ticker == ticker),
        key=lambda c: (c.period_end or date.min, c.period),
    )
    pairs: list[tuple[Cell, Cell | Decimal]] = [(c, amount) for c in mine]
    return _crossed(metric, ticker, pairs) if pairs else None


def _crossed(
    metric: str, leader: str, pairs: list[tuple[Cell, Cell | Decimal]], trailer: str | None = None
) -> Crossing:
    above = [a.value > _value(b) for a, b in pairs]
    first = next((i for i, up in enumerate(above) if up), None)
    return Crossing(
        metric=metric,
        leader=leader,
        pairs=tuple(pairs),
        first_above=first,
        crossed=first is not None and first > 0,
        trailer=trailer,
    )


def restatements(figures: Sequence[FigureRecord], metric: str | None = None) -> list[Restated]:
    """Restated figures among looked-up figures (the facts lookup lists each with both filings)."""
    found: list[Restated] = []
    for record in figures:
        if not isinstance(record, Figure) or (metric and record.metric != metric):
            continue
        for item in record.restated:
            found.append(
                Restated(
                    ticker=record.ticker,
                    metric=record.metric,
                    period=record.period,
                    original=item.original,
                    original_filing=item.original_filing,
                    latest=item.latest,
                    latest_filing=item.latest_filing,
                    unit=str(record.unit or "USD"),
                    original_chunk=item.original_chunk_id,
                    latest_chunk=item.latest_chunk_id,
                    original_document=item.original_document_id,
                    latest_document=item.latest_document_id,
                )
            )
    return found


def trend(cells: Sequence[Cell], ticker: str, metric: str) -> Trend | None:
    """A company's metric over its asked periods, chronological."""
    mine = sorted(
        (c for c in cells if c.ticker == ticker and c.metric == metric and c.role == "target"),
        key=lambda c: (c.period_end or date.min, c.period),
    )
    return Trend(ticker, metric, tuple(mine)) if len(mine) >= 2 else None


@dataclass(frozen=True, slots=True)
class Steadiness:
    """How far one company's metric moved from each period to the next: in points for a ratio, else
    in percent of the earlier value (the largest move decides whether it was steady)."""

    ticker: str
    metric: str
    cells: tuple[Cell, ...]
    moves: tuple[float, ...]
    points: bool

    @property
    def largest(self) -> int:
        """Index of the largest move (the step from ``cells[i]`` to ``cells[i + 1]``)."""
        return max(range(len(self.moves)), key=lambda i: abs(self.moves[i]))


def steadiness(cells: Sequence[Cell], ticker: str, metric: str) -> Steadiness | None:
    """Each step of a company's metric over its asked periods (two or more), chronological; None when
    a percentage move would start from a loss or from zero."""
    series = trend(cells, ticker, metric)
    if series is None:
        return None
    annual = [c for c in series.cells if c.fiscal_quarter is None]
    run = _consecutive(annual if len(annual) >= 2 else [c for c in series.cells if c.fiscal_quarter])
    if len(run) < 2:
        return None
    points = run[0].unit == "percent"
    moves: list[float] = []
    for a, b in pairwise(run):
        if points:
            moves.append(float(b.value - a.value))
        elif a.value > 0:
            moves.append(float((b.value - a.value) / a.value * 100))
        else:
            return None
    return Steadiness(ticker, metric, tuple(run), tuple(moves), points)


def _consecutive(cells: Sequence[Cell]) -> list[Cell]:
    """The longest run of periods each following the one before (a year after a year, a quarter after
    a quarter): a move across a gap is no move from one period to the next."""

    def index(c: Cell) -> int:
        return c.fiscal_year * 4 + (c.fiscal_quarter or 0)

    step = 1 if cells and cells[0].fiscal_quarter else 4
    best: list[Cell] = []
    current: list[Cell] = []
    for cell in cells:
        current = [*current, cell] if current and index(cell) - index(current[-1]) == step else [cell]
        if len(current) >= len(best):
            best = current
    return best
