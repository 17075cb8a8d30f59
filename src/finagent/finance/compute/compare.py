"""Comparisons are computed, not written: year-over-year, sequential changes, CAGR, margins, free cash
flow, differences and ranks, each a calculator call over period-true figures, recorded with its inputs.

Year over year means the same fiscal quarter a year earlier (the comparative column or fact of the
same filing), never the previous quarter; quarters of different companies are aligned by the
calendar date they end on, since fiscal labels differ (Apple's Q2 FY2023 ended 2023-04-01,
Microsoft's Q3 FY2023 on 2023-03-31).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from itertools import pairwise
from typing import Any

from finagent.finance.ask.change_words import ChangeWords, read_change_words
from finagent.finance.compute.safe_calculator import CalcResult, cagr_pct, difference, growth_pct, margin_pct
from finagent.finance.computed import COMPUTED
from finagent.finance.periods.period import FiscalPeriod, InPeriod, period_word
from finagent.finance.words import SCALE_UNITS


@dataclass(frozen=True, slots=True)
class Wanted:
    """Which comparisons a question asks for (parsed from its words)."""

    yoy: bool = False
    qoq: bool = False
    change: bool = False
    cagr: bool = False
    rank: bool = False
    difference: bool = False

    @classmethod
    def from_words(cls, words: ChangeWords) -> Wanted:
        """The comparisons the question's change words name (the same reading its ask has)."""
        return cls(
            yoy=words.yoy,
            qoq=words.qoq,
            change=words.comparative,
            cagr=words.cagr,
            rank=words.rank,
            difference=words.difference,
        )

    @classmethod
    def from_question(cls, question: str) -> Wanted:
        return cls.from_words(read_change_words(question))

    @property
    def over_time(self) -> bool:
        """The question compares periods (so the comparative periods belong in the answer)."""
        return self.yoy or self.qoq or self.change or self.cagr

    def to_dict(self) -> dict[str, bool]:
        return {
            "yoy": self.yoy,
            "qoq": self.qoq,
            "change": self.change,
            "cagr": self.cagr,
            "rank": self.rank,
            "difference": self.difference,
        }


@dataclass(frozen=True, slots=True)
class Cell(InPeriod):
    """One figure of the answer: a company's metric for one period, exact, with its citation labels."""

    ticker: str
    metric: str
    period: FiscalPeriod  # Q2 FY2023 / FY2024: a quarter or a year
    period_end: date | None
    value: Decimal
    unit: str  # "USD", "USD/shares", "shares", "percent"
    scale: int  # power of ten the figure is shown in (6: millions); 0 for per-share values
    sources: tuple[str, ...]  # citation labels
    role: str = "target"  # "target" or "comparative"
    derived: bool = False
    note: str = ""
    inputs: tuple[Decimal, ...] = ()  # a derived figure's operands (minuend, subtrahend), exact

    @property
    def shown(self) -> Decimal:
        """The value in the unit statements print it in (millions for most amounts)."""
        return self.value.scaleb(-self.scale) if self.scale else self.value


@dataclass(slots=True)
class Comparisons:
    """Calculator results (JSON-ready, as the graph records them) and the ranks among companies."""

    calculations: list[dict[str, Any]] = field(default_factory=list)
    ranks: list[dict[str, Any]] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)  # computed cells (margins, free cash flow)


def scale_unit(scale: int) -> str:
    """How a calculator result in shown units reads back to dollars ("USD millions" for scale 6)."""
    return SCALE_UNITS.get(scale, "USD")


def _record(result: CalcResult, **fields: Any) -> dict[str, Any] | None:
    if not result.ok or result.result is None:
        return None
    return {**fields, "expression": result.expression, "result": result.result}


def _pct_text(value: float) -> str:
    return f"{value:+.1f}%"


def has_rate(base: Cell) -> bool:
    """A rate of change from ``base`` means something: not from a loss or zero, nor from a margin
    (whose change is its move in points)."""
    return base.value > 0 and base.unit != "percent"


def growth_record(old: Cell, new: Cell, kind: str, ticker: str, metric: str) -> dict[str, Any] | None:
    """The rate from one figure to another as a calculation record (None when ``old`` has no rate, or
    the calculation fails)."""
    if not has_rate(old):
        return None
    record = _record(
        growth_pct(old.shown, new.shown),
        kind=kind,
        ticker=ticker,
        metric=metric,
        from_period=old.period.label,
        to_period=new.period.label,
        sources=[*old.sources, *new.sources],
        unit="percent",
    )
    if record is not None:
        record["result_text"] = _pct_text(record["result"])
    return record


def _series(cells: Sequence[Cell]) -> dict[tuple[str, str, bool], list[Cell]]:
    """Cells per (ticker, metric, annual), chronological, one per period."""
    out: dict[tuple[str, str, bool], dict[FiscalPeriod, Cell]] = defaultdict(dict)
    for cell in cells:
        key = (cell.ticker, cell.metric, cell.fiscal_quarter is None)
        current = out[key].get(cell.period)
        if current is None or (current.role != "target" and cell.role == "target"):
            out[key][cell.period] = cell
    return {k: sorted(v.values(), key=lambda c: c.period) for k, v in out.items()}


def _prior_year(cell: Cell, series: Sequence[Cell]) -> Cell | None:
    prior = cell.period.previous_year()
    return next((c for c in series if c.period == prior), None)


def _prior_quarter(cell: Cell, series: Sequence[Cell]) -> Cell | None:
    if not cell.period.is_quarter:
        return None
    prior = cell.period.previous_quarter()
    return next((c for c in series if c.period == prior), None)


def unprinted_line(cell: Cell, other: Cell) -> bool:
    """A margin's line the model copied from the passages while its base was read from a statement
    table: the statement prints the base (revenue) but not the line (operating income), so the
    company does not report that line and no margin is computed from a copy of another one."""
    return cell.note == "model" and other.note == "table"


def unreported_margins(cells: Sequence[Cell], name: str) -> list[tuple[Cell, Cell]]:
    """(line, base) of each company and period whose margin ``name`` is not computed because its
    statement prints no such line."""
    if name not in COMPUTED or COMPUTED[name].helper != "margin":
        return []
    first, second = COMPUTED[name].inputs
    index = {(c.ticker, c.metric, c.period): c for c in cells}
    found = []
    for cell in cells:
        other = index.get((cell.ticker, second, cell.period))
        if (
            cell.metric == first
            and cell.role == "target"
            and other is not None
            and unprinted_line(cell, other)
        ):
            found.append((cell, other))
    return found


def computed_cells(
    cells: Sequence[Cell], wanted_metrics: Sequence[str]
) -> tuple[list[Cell], list[dict[str, Any]]]:
    """Margins and free cash flow per company and period, from that period's own figures."""
    index = {(c.ticker, c.metric, c.period): c for c in cells}
    out: list[Cell] = []
    calculations: list[dict[str, Any]] = []
    for name in wanted_metrics:
        if name not in COMPUTED:
            continue
        computed = COMPUTED[name]
        label, (first, second), helper = computed.label, computed.inputs, computed.helper
        for cell in cells:
            if cell.metric != first:
                continue
            other = index.get((cell.ticker, second, cell.period))
            if other is None or other.scale != cell.scale:
                continue
            if helper == "margin":
                if other.value == 0 or (name == "gross_margin" and cell.value > other.value):
                    continue  # gross profit above revenue is a line misread, never a margin over 100%
                if unprinted_line(cell, other):
                    continue
                result = margin_pct(cell.shown, other.shown)
                unit, scale = "percent", 0
            else:
                result = difference(cell.shown, other.shown)
                unit, scale = cell.unit, cell.scale
            record = _record(
                result,
                kind=name,
                ticker=cell.ticker,
                metric=label,
                period=cell.period.label,
                sources=[*cell.sources, *other.sources],
                unit=unit if unit == "percent" else scale_unit(scale),
            )
            if record is None:
                continue
            value = Decimal(str(record["result"]))
            record["result_text"] = f"{record['result']:.1f}%" if unit == "percent" else f"{value:,.0f}"
            calculations.append(record)
            shown_value = value.scaleb(scale) if scale else value
            out.append(
                Cell(
                    cell.ticker,
                    name,
                    cell.period,
                    cell.period_end,
                    shown_value,
                    unit,
                    scale,
                    tuple(record["sources"]),
                    cell.role,
                    derived=True,
                )
            )
    return out, calculations


def _span_of(cell: Cell) -> str:
    return period_word(cell.period, cell.fiscal_quarter)


_SPAN_LENGTH = {"quarter": 3, "six months": 6, "nine months": 9, "year": 12}


def ranked_groups(
    cells: Sequence[Cell], align: Callable[[Sequence[Cell]], list[list[Cell]]]
) -> list[list[Cell]]:
    """The figures a ranking across companies orders: one ranking over each company's own period.

    Only periods of one length are ranked, the one most companies have (a tie: the longest), so a
    quarter or nine months is never ranked against fiscal years. With one figure per company (their
    latest fiscal years may end months apart), one group; with the same number for every company
    (several periods asked of each), the periods ``align`` puts together; else each company's latest.
    """
    companies: dict[str, set[str]] = defaultdict(set)
    for cell in cells:
        companies[_span_of(cell)].add(cell.ticker)
    if not companies:
        return []
    span = max(companies, key=lambda s: (len(companies[s]), _SPAN_LENGTH.get(s, 0)))
    per_company: dict[str, list[Cell]] = defaultdict(list)
    for cell in cells:
        if _span_of(cell) == span:
            per_company[cell.ticker].append(cell)
    if all(len(v) == 1 for v in per_company.values()):
        return [[v[0] for v in per_company.values()]]
    if len({len(v) for v in per_company.values()}) == 1:
        return align([c for v in per_company.values() for c in v])
    return [[max(v, key=lambda c: (c.period_end or date.min, c.period)) for v in per_company.values()]]


def _aligned_groups(targets: Sequence[Cell]) -> list[list[Cell]]:
    """Cells of different companies that cover the same time: the same fiscal year label for annual
    figures, else quarters ending within three weeks of each other."""
    groups: list[list[Cell]] = []
    for cell in sorted(targets, key=lambda c: (c.period_end or date.min, c.ticker)):
        for group in groups:
            head = group[0]
            same_kind = (head.fiscal_quarter is None) == (cell.fiscal_quarter is None)
            if not same_kind or any(c.ticker == cell.ticker for c in group):
                continue
            if cell.fiscal_quarter is None and head.fiscal_year == cell.fiscal_year:
                group.append(cell)
                break
            if (
                cell.fiscal_quarter is not None
                and head.period_end
                and cell.period_end
                and abs((head.period_end - cell.period_end).days) <= 21
            ):
                group.append(cell)
                break
        else:
            groups.append([cell])
    return groups


def compare(cells: Sequence[Cell], wanted: Wanted, computed: Sequence[str] = ()) -> Comparisons:
    """Every comparison the question asks for over ``cells`` (targets and their comparatives)."""
    result = Comparisons()
    extra, margin_calcs = computed_cells(cells, computed)
    result.cells = extra
    result.calculations += margin_calcs
    all_cells = [*cells, *extra]
    series = _series(all_cells)
    for (ticker, metric, annual), ordered in series.items():
        targets = [c for c in ordered if c.role == "target"]
        # Growth of one period ("revenue growth in fiscal 2025") is against the same period a year before.
        single = wanted.change and len(targets) == 1
        if (
            wanted.yoy
            or single
            or (wanted.change and any(c.role == "comparative" for c in ordered) and not annual)
        ):
            for cell in targets:
                prior = _prior_year(cell, ordered)
                if prior is not None and (record := growth_record(prior, cell, "yoy", ticker, metric)):
                    result.calculations.append(record)
        if wanted.qoq:
            for cell in targets:
                prior = _prior_quarter(cell, ordered)
                if prior is not None and (record := growth_record(prior, cell, "qoq", ticker, metric)):
                    result.calculations.append(record)
        if wanted.change and len(targets) >= 2 and not wanted.yoy:
            for old, new in pairwise(targets):
                if (record := growth_record(old, new, "change", ticker, metric)) is not None:
                    result.calculations.append(record)
            if len(targets) >= 3:
                first, last = targets[0], targets[-1]
                if (record := growth_record(first, last, "change", ticker, metric)) is not None:
                    result.calculations.append(record)
        if wanted.cagr and annual and len(targets) >= 2:
            first, last = targets[0], targets[-1]
            years = last.fiscal_year - first.fiscal_year
            if years > 0 and first.value > 0 and last.value > 0:
                record = _record(
                    cagr_pct(first.shown, last.shown, years),
                    kind="cagr",
                    ticker=ticker,
                    metric=metric,
                    from_period=first.period.label,
                    to_period=last.period.label,
                    sources=[*first.sources, *last.sources],
                    unit="percent",
                )
                if record is not None:
                    record["result_text"] = f"{record['result']:.1f}%"
                    result.calculations.append(record)
    tickers = {c.ticker for c in all_cells}
    if len(tickers) > 1:
        result.ranks, diffs = _ranks([c for c in all_cells if c.role == "target"], wanted)
        result.calculations += diffs
    return result


def _ranks(targets: Sequence[Cell], wanted: Wanted) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    ranks: list[dict[str, Any]] = []
    diffs: list[dict[str, Any]] = []
    by_metric: dict[str, list[Cell]] = defaultdict(list)
    for cell in targets:
        by_metric[cell.metric].append(cell)
    for metric, cells in by_metric.items():
        for group in ranked_groups(cells, _aligned_groups):
            if len(group) < 2:
                continue
            ordered = sorted(group, key=lambda c: c.value, reverse=True)
            ranks.append(
                {
                    "metric": metric,
                    "periods": {c.ticker: c.period.label for c in ordered},
                    "order": [c.ticker for c in ordered],
                    "values": {c.ticker: str(c.value) for c in ordered},
                }
            )
            top, second = ordered[0], ordered[1]
            if wanted.difference and top.scale == second.scale and top.unit == second.unit:
                record = _record(
                    difference(top.shown, second.shown),
                    kind="difference",
                    ticker=top.ticker,
                    metric=metric,
                    period=top.period.label,
                    against=second.ticker,
                    against_period=second.period.label,
                    sources=[*top.sources, *second.sources],
                    unit="percent" if top.unit == "percent" else scale_unit(top.scale),
                )
                if record is not None:
                    record["result_text"] = f"{record['result']:,.2f}".rstrip("0").rstrip(".")
                    diffs.append(record)
    return ranks, diffs
