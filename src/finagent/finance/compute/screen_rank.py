"""A screen's arithmetic: each company's value of the screened metric in its own period (a reported
figure, a margin or free cash flow by the calculator, a growth rate over its previous fiscal year),
then the ranking (``outcomes.ranking``), the threshold and the top N. No I/O: the figures come in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from finagent.finance.ask.screen_ask import ScreenAsk, ScreenMetric
from finagent.finance.compute.compare import Cell
from finagent.finance.compute.outcomes import ranking
from finagent.finance.compute.safe_calculator import CalcResult, difference, growth_pct, margin_pct
from finagent.finance.looked_up import Figure, FigureRecord, Gap
from finagent.finance.periods.period import FiscalPeriod

PERCENT = "percent"


@dataclass(frozen=True, slots=True)
class ScreenEntry:
    """One company's value of the screened metric in its own period, with the figures it comes from."""

    ticker: str
    period: FiscalPeriod
    period_end: date | None
    value: Decimal
    unit: str
    """ "percent" for a margin or a growth rate, else the figures' unit ("USD", "EUR", "USD/shares")."""
    figures: tuple[Figure, ...]
    """The looked-up figures (a growth's earlier year first; a margin's part, then its whole)."""
    expression: str = ""
    """The calculator's expression of a computed value ("" for a reported figure)."""


@dataclass(frozen=True, slots=True)
class Lacking:
    """A company of the universe without the figure: its period (None when it holds no such period)
    and why."""

    ticker: str
    period: FiscalPeriod | None
    reason: str


@dataclass(frozen=True, slots=True)
class ScreenOutcome:
    """Every company with the figure in rank order, those the threshold and the top N keep, the
    companies lacking the figure, and amounts in a minority currency (never ranked against others)."""

    metric: ScreenMetric
    ask: ScreenAsk
    ranked: tuple[ScreenEntry, ...]
    kept: tuple[ScreenEntry, ...]
    lacking: tuple[Lacking, ...]
    other_currency: tuple[ScreenEntry, ...] = ()

    @property
    def filtered(self) -> bool:
        return self.ask.minimum is not None or self.ask.maximum is not None


def _missing(ticker: str, period: FiscalPeriod, record: FigureRecord | None, label: str) -> Lacking:
    reason = record.reason if isinstance(record, Gap) and record.reason else "no reported figure"
    return Lacking(ticker, period, f"{label.lower()}: {reason}")


def _computed(result: CalcResult) -> Decimal | None:
    return Decimal(str(result.result)) if result.ok and result.result is not None else None


def screen_value(
    metric: ScreenMetric,
    ticker: str,
    period: FiscalPeriod,
    current: Mapping[str, FigureRecord | None],
    prior: Mapping[str, FigureRecord | None],
) -> ScreenEntry | Lacking:
    """``ticker``'s value of ``metric`` for ``period`` from its looked-up figures (by line name): the
    current period's, and for a growth the previous fiscal year's."""
    found = [current.get(line) for line in metric.inputs]
    for line, record in zip(metric.inputs, found, strict=True):
        if not isinstance(record, Figure):
            return _missing(ticker, period, record, line.replace("_", " "))
    figures = tuple(f for f in found if isinstance(f, Figure))
    first = figures[0]
    if metric.kind == "line":
        return ScreenEntry(ticker, period, first.period_end, first.value, _unit(first), figures)
    if metric.kind == "growth":
        earlier = prior.get(metric.inputs[0])
        if not isinstance(earlier, Figure):
            return Lacking(
                ticker, period, f"no {first.metric_label.lower()} for {period.previous_year().label}"
            )
        if earlier.value <= 0:
            return Lacking(ticker, period, f"{earlier.period.label} was not positive: no growth rate")
        result = growth_pct(earlier.value, first.value)
        figures = (earlier, first)
    elif metric.kind == "margin":
        if figures[1].value <= 0:
            return Lacking(ticker, period, "no positive revenue to divide by")
        result = margin_pct(first.value, figures[1].value)
    else:
        result = difference(first.value, abs(figures[1].value))
    value = _computed(result)
    if value is None:
        return Lacking(ticker, period, result.error or "could not be computed")
    unit = PERCENT if metric.percent else _unit(first)
    return ScreenEntry(ticker, period, first.period_end, value, unit, figures, result.expression)


def _unit(figure: Figure) -> str:
    unit = str(figure.unit or "USD")
    return unit.split("/")[0] + "/shares" if "/" in unit else unit


def _cell(entry: ScreenEntry, metric: str) -> Cell:
    return Cell(entry.ticker, metric, entry.period, entry.period_end, entry.value, entry.unit, 0, ())


def _kept(entry: ScreenEntry, ask: ScreenAsk) -> bool:
    lower, upper = ask.lower, ask.upper
    return (lower is None or entry.value > lower) and (upper is None or entry.value < upper)


def rank_screen(
    metric: ScreenMetric, ask: ScreenAsk, entries: Sequence[ScreenEntry], lacking: Sequence[Lacking]
) -> ScreenOutcome:
    """The companies ordered by the metric (``outcomes.ranking``: each company's only figure, their
    periods ending months apart), those above/below the threshold, the first ``top`` of them.
    Amounts are ranked in one currency, the most common; the others are set apart."""
    units = Counter(e.unit for e in entries)
    main = units.most_common(1)[0][0] if units else PERCENT
    same = [e for e in entries if e.unit == main]
    others = tuple(e for e in entries if e.unit != main)
    cells = [_cell(e, metric.name) for e in same]
    by_ticker = {e.ticker: e for e in same}
    groups = ranking(cells, metric.name, ask.highest_first)
    order = [c.ticker for c in groups[0].cells] if groups else [e.ticker for e in same]
    ranked = tuple(by_ticker[t] for t in order)
    kept = tuple(e for e in ranked if _kept(e, ask))
    if ask.top is not None:
        kept = kept[: max(0, ask.top)]
    return ScreenOutcome(metric, ask, ranked, kept, tuple(lacking), others)
