"""Choose the fact that answers (company, metric, period): the right concept, the right period, the
right filing.

* Period: a fiscal quarter is a quarter-long duration whose own dates fall in that quarter; a fiscal
  year a year-long one; a first half or nine months the six- or nine-month year-to-date column (never
  a quarter's), else the sum of its quarters, labelled derived; a balance (instant metric) is the one
  at the period's end. Never the filing's
  focus period: a 10-K's comparative columns are other years.
* Concept: among a metric's candidate concepts, the one the company's own statement displays on the
  line's row wins (any filing of the company showing it in that statement), then one displayed
  elsewhere in it, then one not implausibly small, then the vocabulary's order (``line_choice``);
  the selection names the line read when another candidate states another value. Part concepts
  (goods, services) stand for the line only when the period has no other part beside them.
* Filing: when several filings report the same concept and period (restatements), the latest filed
  is the default and ``as_reported`` selects the original; differences beyond rounding are listed.
* A period the filings report only in parts (stubs around a merger or an emergence from bankruptcy)
  has no single figure: ``split_period`` gives the parts, labelled, never one of them as the whole.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from finagent.finance.fact_records import StoredFact, duration_class, fiscal_label
from finagent.finance.line_item import LineItem
from finagent.finance.periods.period import FiscalPeriod, Span
from finagent.finance.read.line_choice import Shown, line_used, preferred_concept, shown_on_statement
from finagent.finance.read.share_classes import class_member, class_reading, latest_by_class
from finagent.finance.read.split_periods import part_roles


@dataclass(frozen=True, slots=True)
class PeriodWanted:
    """A fiscal period to read a metric for: a quarter (fiscal_quarter set), a fiscal year, or the
    year to date (``span`` "6M" or "9M") that ends with ``fiscal_quarter``."""

    fiscal_year: int
    fiscal_quarter: int | None = None
    span: str | None = None

    @property
    def annual(self) -> bool:
        return self.fiscal_quarter is None and self.span is None

    @property
    def year_to_date(self) -> Span | None:
        """The six or nine months asked, else None."""
        return Span(self.span) if self.span else None

    @property
    def fiscal_period(self) -> FiscalPeriod:
        if self.span:
            return FiscalPeriod(self.fiscal_year, Span(self.span))
        return FiscalPeriod.of(self.fiscal_year, self.fiscal_quarter)

    @property
    def label(self) -> str:
        return self.fiscal_period.label

    def prior_year(self) -> PeriodWanted:
        return PeriodWanted(self.fiscal_year - 1, self.fiscal_quarter, self.span)

    def prior_quarter(self) -> PeriodWanted | None:
        if self.annual or self.span:
            return None
        assert self.fiscal_quarter is not None
        if self.fiscal_quarter == 1:
            return PeriodWanted(self.fiscal_year - 1, 4)
        return PeriodWanted(self.fiscal_year, self.fiscal_quarter - 1)


@dataclass(frozen=True, slots=True)
class Restatement:
    """The same concept and period reported with different values by different filings."""

    concept: str
    period: str
    original: StoredFact
    latest: StoredFact

    @property
    def difference(self) -> Decimal:
        assert self.latest.value is not None and self.original.value is not None
        return self.latest.value - self.original.value


@dataclass(frozen=True, slots=True)
class Selection:
    """The fact chosen for a metric and period, with what else was reported for it."""

    fact: StoredFact
    metric: LineItem
    period: PeriodWanted
    restatements: tuple[Restatement, ...] = ()
    alternatives: tuple[StoredFact, ...] = field(default=(), compare=False)
    line: str = ""
    """The line read, named when another candidate concept states another value for the period."""

    @property
    def label(self) -> str:
        return fiscal_label(self.fact.fiscal_year, self.fact.fiscal_quarter, self.fact.duration)


_SPAN_DURATIONS = {Span.FIRST_HALF: "six_months", Span.NINE_MONTHS: "nine_months"}


def _matches_period(fact: StoredFact, metric: LineItem, period: PeriodWanted) -> bool:
    if fact.fiscal_year != period.fiscal_year:
        return False
    span = period.year_to_date
    if span is not None and not metric.instant:
        return fact.duration == _SPAN_DURATIONS.get(span)
    if metric.instant:
        quarter = 4 if period.annual else period.fiscal_quarter
        return fact.duration == "instant" and fact.fiscal_quarter == quarter
    if period.annual:
        return fact.duration == "year"
    return fact.duration == "quarter" and fact.fiscal_quarter == period.fiscal_quarter


def _unit_ok(fact: StoredFact, metric: LineItem) -> bool:
    unit = (fact.unit or "").lower()
    if metric.unit == "per_share":
        return "/" in unit and "share" in unit
    if metric.unit == "shares":
        return unit == "shares"
    return "/" not in unit and unit not in ("shares", "pure")


def displayed_concepts(facts: Iterable[StoredFact], metric: LineItem, words: Collection[str] = ()) -> Shown:
    """Candidate concepts this company displays in the metric's own statement (in any filing), those
    it displays on the line's own row, and those whose row the question's ``words`` name."""
    return shown_on_statement(facts, metric, words)


def _beyond_rounding(a: StoredFact, b: StoredFact) -> bool:
    """The values differ by more than half a unit of the coarser reported precision."""
    if a.value is None or b.value is None:
        return False
    decimals = [d for d in (a.decimals, b.decimals) if d is not None]
    tolerance = Decimal(5).scaleb(-min(decimals) - 1) if decimals else Decimal(0)
    return abs(a.value - b.value) > tolerance


def restatements_of(facts: Sequence[StoredFact]) -> list[Restatement]:
    """Facts of one concept and period reported differently by different filings (beyond rounding)."""
    groups: dict[tuple[str, date | None, date, str | None], list[StoredFact]] = defaultdict(list)
    for fact in facts:
        if not fact.derived:
            groups[(fact.concept, fact.period_start, fact.period_end, fact.unit)].append(fact)
    found = []
    for group in groups.values():
        filings = {f.filing_key for f in group}
        if len(filings) < 2:
            continue
        ordered = sorted(group, key=lambda f: (f.filing_order, f.id))
        original, latest = ordered[0], ordered[-1]
        if _beyond_rounding(original, latest):
            found.append(Restatement(latest.concept, latest.period_label, original, latest))
    return found


def select(
    facts: Sequence[StoredFact],
    metric: LineItem,
    period: PeriodWanted,
    *,
    as_reported: bool = False,
    displayed: Shown | None = None,
) -> Selection | None:
    """The fact that states ``metric`` for ``period`` (consolidated), or None when none does.

    ``facts`` are one company's facts for the metric's concepts (all filings, derived included);
    ``displayed`` are the concepts its statements display (default: computed from ``facts``).
    """
    candidates = [
        f
        for f in facts
        if f.concept in metric.read_concepts
        and not f.dims_key
        and f.value is not None
        and _unit_ok(f, metric)
        and _matches_period(f, metric, period)
    ]
    parts = {f.concept for f in candidates if f.concept in metric.parts}
    if len(parts) > 1:  # goods and services side by side: each is a part, neither the whole line
        candidates = [f for f in candidates if f.concept not in parts]
    if not candidates and metric.unit == "per_share":
        return _by_share_class(facts, metric, period, as_reported, displayed)
    if not candidates:
        return _sum_of_quarters(facts, metric, period, as_reported, displayed)
    shown = displayed if displayed is not None else displayed_concepts(facts, metric)
    concept = preferred_concept(candidates, metric, shown)
    own = [f for f in candidates if f.concept == concept]
    reported = [f for f in own if not f.derived]
    pool = reported or own  # a filing's own number beats a derived one
    if metric.instant:
        # Balances: the one at the latest date of the period (the quarter's or year's end).
        last_day = max(f.period_end for f in pool)
        pool = [f for f in pool if f.period_end == last_day]
    ordered = sorted(pool, key=lambda f: (f.filing_order, f.id))
    chosen = ordered[0] if as_reported else ordered[-1]
    return Selection(
        fact=chosen,
        metric=metric,
        period=period,
        restatements=tuple(restatements_of(own)),
        alternatives=tuple(f for f in ordered if f is not chosen),
        line=line_used(concept, candidates, shown, metric.statement),
    )


def _by_share_class(
    facts: Sequence[StoredFact],
    metric: LineItem,
    period: PeriodWanted,
    as_reported: bool,
    displayed: Shown | None,
) -> Selection | None:
    """A per-share figure the filings state only per share class (``share_classes``): one value for
    all classes said once, else the class read named."""
    stated = [
        f
        for f in facts
        if f.concept in metric.read_concepts
        and class_member(f) is not None
        and f.value is not None
        and _unit_ok(f, metric)
        and _matches_period(f, metric, period)
    ]
    if not stated:
        return None
    shown = displayed if displayed is not None else displayed_concepts(facts, metric)
    concept = preferred_concept(stated, metric, shown)
    reading = class_reading(latest_by_class([f for f in stated if f.concept == concept], as_reported))
    if reading is None:
        return None
    fact, line = reading
    return Selection(fact=fact, metric=metric, period=period, line=line)


SUM_OF_QUARTERS = "sum_of_quarters"


def _sum_of_quarters(
    facts: Sequence[StoredFact],
    metric: LineItem,
    period: PeriodWanted,
    as_reported: bool,
    displayed: Shown | None,
) -> Selection | None:
    """A first half or nine months no filing states, as the sum of its quarters when each is reported
    (amounts only: per-share values and balances do not add); None otherwise."""
    span = period.year_to_date
    if span is None or metric.instant or metric.unit != "money" or period.fiscal_quarter is None:
        return None
    quarters = [
        select(
            facts, metric, PeriodWanted(period.fiscal_year, q), as_reported=as_reported, displayed=displayed
        )
        for q in range(1, period.fiscal_quarter + 1)
    ]
    chosen = [q.fact for q in quarters if q is not None]
    if len(chosen) != len(quarters) or len({f.concept for f in chosen}) != 1:
        return None
    first, last = chosen[0], chosen[-1]
    whole = StoredFact(
        id=-last.id,
        ticker=last.ticker,
        concept=last.concept,
        value=sum((f.value or Decimal(0) for f in chosen), Decimal(0)),
        unit=last.unit,
        decimals=min((f.decimals for f in chosen if f.decimals is not None), default=None),
        period_start=first.period_start,
        period_end=last.period_end,
        duration=_SPAN_DURATIONS[span],
        fiscal_year=period.fiscal_year,
        fiscal_quarter=period.fiscal_quarter,
        derived=True,
        derivation=SUM_OF_QUARTERS,
        inputs=tuple(f.id for f in chosen),
        statement=last.statement,
    )
    return Selection(fact=whole, metric=metric, period=period)


@dataclass(frozen=True, slots=True)
class SplitPeriod:
    """A fiscal period reported only in parts: the parts in date order with their labels
    ("predecessor Jul 1–Jul 21, 2010"), and whether together they cover the whole period."""

    period: PeriodWanted
    parts: tuple[StoredFact, ...]
    labels: tuple[str, ...]
    complete: bool


_LONGEST = {"quarter": 100, "year": 380}  # days: the longest a quarter / year of any calendar lasts


def _days(start: date, end: date) -> int:
    return (end - start).days + 1


def split_period(
    facts: Sequence[StoredFact],
    metric: LineItem,
    period: PeriodWanted,
    *,
    as_reported: bool = False,
    displayed: Shown | None = None,
) -> SplitPeriod | None:
    """The stub periods that report ``metric`` for ``period`` when no single fact does: the latest
    part ending in the period, and the parts before it back to back, as far as the period reaches."""
    if metric.instant:
        return None
    stubs = [
        f
        for f in facts
        if f.duration == "stub"
        and f.concept in metric.read_concepts
        and not f.dims_key
        and f.value is not None
        and f.period_start is not None
        and _unit_ok(f, metric)
    ]
    if not stubs:
        return None
    shown = displayed if displayed is not None else displayed_concepts(facts, metric)
    concept = preferred_concept(stubs, metric, shown)
    spans: dict[tuple[date, date], list[StoredFact]] = defaultdict(list)
    for fact in stubs:
        if fact.concept == concept and fact.period_start is not None:
            spans[(fact.period_start, fact.period_end)].append(fact)
    chosen = {
        span: sorted(group, key=lambda f: (f.filing_order, f.id))[0 if as_reported else -1]
        for span, group in spans.items()
    }
    wanted = "year" if period.annual else "quarter"
    longest = _LONGEST[wanted]
    lasts = [
        f
        for (start, end), f in chosen.items()
        if f.fiscal_year == period.fiscal_year
        and (period.annual or f.fiscal_quarter == period.fiscal_quarter)
        and _days(start, end) <= longest
    ]
    if not lasts:
        return None
    last = max(lasts, key=lambda f: (f.period_end, -_days(f.period_start or f.period_end, f.period_end)))
    chain = [last]
    while (first := chain[0].period_start) is not None and duration_class(first, last.period_end) != wanted:
        before = [
            f
            for (start, end), f in chosen.items()
            if end == first - timedelta(days=1) and _days(start, last.period_end) <= longest
        ]
        if not before:
            break
        chain.insert(0, max(before, key=lambda f: _days(f.period_start or f.period_end, f.period_end)))
    start = chain[0].period_start
    complete = start is not None and duration_class(start, last.period_end) == wanted
    labels = part_roles([(f.period_start or f.period_end, f.period_end) for f in chain])
    return SplitPeriod(period, tuple(chain), tuple(labels), complete)
