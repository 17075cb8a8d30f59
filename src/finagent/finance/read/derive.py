"""Derived quarters: figures no filing states as such, computed from ones that do.

* Q4 = fiscal year − nine months year-to-date (same concept, same start date, consolidated): a
  10-K reports the year, the Q3 10-Q the nine months; nobody reports the fourth quarter alone.
* Q4 = fiscal year − its first three quarters, when no nine-month figure is at hand and a filing tags
  the three quarters itself (some 10-Ks' quarterly data): all four inputs from that ONE filing, so a
  later 10-Q's restated first quarter never mixes with the 10-K's own year.
* A quarter from year-to-date differences (six months − first quarter, nine months − six
  months, same start): 10-Q cash-flow statements give only year-to-date spans.

Only flows subtract: per-share values, share counts, ratios and balance-sheet instants do not, so
they are "not derivable" (``not_derivable`` says why). When several filings report an input
(restatements), the latest filed value is used; the inputs' ids are kept with the result.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from finagent.finance.fact_records import StoredFact, duration_class

FY_MINUS_9M = "fy_minus_9m"
FY_MINUS_QUARTERS = "fy_minus_quarters"
YTD_DIFFERENCE = "ytd_difference"

# Units whose values add up over time; anything per share, a count of shares or a ratio does not.
_ADDITIVE_UNITS = ("USD", "EUR", "GBP", "JPY", "CAD", "CHF", "CNY")


@dataclass(frozen=True, slots=True)
class DerivedFact:
    """A derived figure with the period it covers and the stored facts it was computed from."""

    ticker: str
    concept: str
    value: Decimal
    unit: str | None
    decimals: int | None
    period_start: date
    period_end: date
    duration: str
    fiscal_year: int | None
    fiscal_quarter: int | None
    label: str | None
    derivation: str
    inputs: tuple[int, ...]
    filing_key: str
    form: str | None
    filing_period_end: date | None
    filed_at: date | None

    def identity(self) -> tuple[object, ...]:
        """What makes two derivations the same (unchanged inputs give the same stored row)."""
        return (
            self.concept,
            self.unit,
            self.period_start,
            self.period_end,
            self.derivation,
            tuple(sorted(self.inputs)),
            self.value,
        )


def additive(unit: str | None) -> bool:
    """Money amounts subtract across periods; per-share values, share counts and ratios do not."""
    return unit is not None and "/" not in unit and unit.upper() in _ADDITIVE_UNITS


def not_derivable(unit: str | None, duration: str) -> str | None:
    """Why a quarter cannot be derived for a figure of this unit and duration (None if it can)."""
    if duration == "instant":
        return "a balance at a date is reported as of the year end, not derived from year-to-date figures"
    if unit and "/" in unit:
        return "per-share values do not subtract (the share counts differ between periods)"
    if unit and unit.lower() == "shares":
        return "share counts are not flows and do not subtract"
    if unit and unit.lower() == "pure":
        return "ratios do not subtract"
    if not additive(unit):
        return f"values in {unit or 'an unknown unit'} are not known to add up over periods"
    return None


def _latest(facts: Iterable[StoredFact]) -> StoredFact:
    return max(facts, key=lambda f: (f.filing_order, f.id))


def _precision(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


def _difference(
    whole: StoredFact, part: StoredFact, start: date, end: date, quarter: int | None, derivation: str
) -> DerivedFact | None:
    """``whole − part`` as the quarter from ``start`` to ``end``, filed with ``whole``'s filing."""
    if whole.value is None or part.value is None:
        return None
    return DerivedFact(
        ticker=whole.ticker,
        concept=whole.concept,
        value=whole.value - part.value,
        unit=whole.unit,
        decimals=_precision(whole.decimals, part.decimals),
        period_start=start,
        period_end=end,
        duration="quarter",
        fiscal_year=whole.fiscal_year,
        fiscal_quarter=quarter,
        label=whole.label or part.label,
        derivation=derivation,
        inputs=(whole.id, part.id),
        filing_key=whole.filing_key,
        form=whole.form,
        filing_period_end=whole.filing_period_end,
        filed_at=whole.filed_at,
    )


def _derive(later: StoredFact, earlier: StoredFact, derivation: str) -> DerivedFact | None:
    """The last quarter of a year-to-date span: the span minus the one a quarter shorter."""
    if later.period_start is None:
        return None
    start = earlier.period_end + timedelta(days=1)
    return _difference(later, earlier, start, later.period_end, later.fiscal_quarter, derivation)


# A year-to-date span and the span one quarter shorter with the same start: their difference is a quarter.
_PREVIOUS_SPAN = {
    "year": ("nine_months", FY_MINUS_9M),
    "nine_months": ("six_months", YTD_DIFFERENCE),
    "six_months": ("quarter", YTD_DIFFERENCE),
}


def derive_quarters(facts: Sequence[StoredFact]) -> list[DerivedFact]:
    """Quarters derivable from ``facts`` (one company's consolidated reported duration facts) that
    no filing reports directly."""
    spans: dict[tuple[str, str | None, date | None, date], list[StoredFact]] = defaultdict(list)
    for fact in facts:
        if fact.derived or fact.dims_key or fact.period_start is None or not additive(fact.unit):
            continue
        spans[(fact.concept, fact.unit, fact.period_start, fact.period_end)].append(fact)
    chosen = {key: _latest(group) for key, group in spans.items()}
    reported_quarters = {
        (concept, unit, start, end)
        for (concept, unit, start, end), fact in chosen.items()
        if fact.duration == "quarter"
    }
    by_start: dict[tuple[str, str | None, date | None], list[StoredFact]] = defaultdict(list)
    for (concept, unit, start, _), fact in chosen.items():
        by_start[(concept, unit, start)].append(fact)

    derived: list[DerivedFact] = []
    for (concept, unit, _), group in by_start.items():
        ordered = sorted(group, key=lambda f: f.period_end)
        for later in ordered:
            if later.duration not in _PREVIOUS_SPAN:
                continue
            earlier_duration, derivation = _PREVIOUS_SPAN[later.duration]
            earlier = next(
                (f for f in ordered if f.duration == earlier_duration and f.period_end < later.period_end),
                None,
            )
            if earlier is None:
                continue
            result = _derive(later, earlier, derivation)
            if result is None:
                continue
            key = (concept, unit, result.period_start, result.period_end)
            if key in reported_quarters:
                continue  # a filing states this quarter itself
            derived.append(result)
    derived += _first_quarters(chosen, reported_quarters)
    have = {(d.concept, d.unit, d.period_start, d.period_end) for d in derived}
    derived += [
        q4
        for q4 in _fourth_quarters(facts)
        if (key := (q4.concept, q4.unit, q4.period_start, q4.period_end)) not in reported_quarters
        and key not in have
    ]
    return derived


def _chain(quarters: Sequence[StoredFact], start: date, count: int) -> list[StoredFact] | None:
    """``count`` quarters back to back from ``start`` (each starts the day after the last ends)."""
    chain: list[StoredFact] = []
    for _ in range(count):
        nxt = next((q for q in quarters if q.period_start == start), None)
        if nxt is None:
            return None
        chain.append(nxt)
        start = nxt.period_end + timedelta(days=1)
    return chain


def _fourth_quarters(facts: Sequence[StoredFact]) -> list[DerivedFact]:
    """Q4 = a filing's fiscal year − the three quarters the same filing tags (latest filing wins)."""
    own: dict[tuple[str, str, str | None], list[StoredFact]] = defaultdict(list)
    for fact in facts:
        if not (fact.derived or fact.dims_key or fact.period_start is None or not additive(fact.unit)):
            own[(fact.filing_key, fact.concept, fact.unit)].append(fact)
    found: dict[tuple[str, str | None, date, date], tuple[tuple[date, date], DerivedFact]] = {}
    for group in own.values():
        quarters = [f for f in group if f.duration == "quarter" and f.value is not None]
        for year in (f for f in group if f.duration == "year"):
            q4 = _year_less_quarters(year, quarters)
            if q4 is None:
                continue
            key = (q4.concept, q4.unit, q4.period_start, q4.period_end)
            if key not in found or found[key][0] < year.filing_order:
                found[key] = (year.filing_order, q4)
    return [q4 for _, q4 in found.values()]


def _year_less_quarters(year: StoredFact, quarters: Sequence[StoredFact]) -> DerivedFact | None:
    """The fourth quarter of ``year``: the year less its first three quarters (all one filing's)."""
    if year.value is None or year.period_start is None:
        return None
    chain = _chain(quarters, year.period_start, 3)
    if chain is None or chain[-1].period_end >= year.period_end:
        return None
    start = chain[-1].period_end + timedelta(days=1)
    if duration_class(start, year.period_end) != "quarter":
        return None
    decimals = year.decimals
    for quarter in chain:
        decimals = _precision(decimals, quarter.decimals)
    return DerivedFact(
        ticker=year.ticker,
        concept=year.concept,
        value=year.value - sum((q.value or Decimal(0) for q in chain), Decimal(0)),
        unit=year.unit,
        decimals=decimals,
        period_start=start,
        period_end=year.period_end,
        duration="quarter",
        fiscal_year=year.fiscal_year,
        fiscal_quarter=4,
        label=year.label,
        derivation=FY_MINUS_QUARTERS,
        inputs=(year.id, *(q.id for q in chain)),
        filing_key=year.filing_key,
        form=year.form,
        filing_period_end=year.filing_period_end,
        filed_at=year.filed_at,
    )


def _first_quarters(
    chosen: dict[tuple[str, str | None, date | None, date], StoredFact],
    reported: set[tuple[str, str | None, date | None, date]],
) -> list[DerivedFact]:
    """Q1 = six months − the second quarter (same end): a Q2 10-Q states both, the Q1 10-Q may be missing."""
    quarters = {(c, u, end): f for (c, u, _, end), f in chosen.items() if f.duration == "quarter"}
    out = []
    for (concept, unit, start, end), six in chosen.items():
        second = quarters.get((concept, unit, end))
        if six.duration != "six_months" or second is None or second.period_start is None:
            continue
        first_end = second.period_start - timedelta(days=1)
        if (concept, unit, start, first_end) in reported or start is None:
            continue
        first = _difference(six, second, start, first_end, 1, YTD_DIFFERENCE)
        if first is not None:
            out.append(first)
    return out


def missing_reason(
    concepts: Sequence[str],
    unit: str,
    instant: bool,
    fiscal_year: int,
    fiscal_quarter: int | None,
    facts: Sequence[StoredFact],
) -> str:
    """Why no figure states a metric for a period: a quarter that cannot be derived says so (with the
    reason), instead of a guess; a year of which only part is reported names that part."""
    if fiscal_quarter is None and not instant:
        part = max(
            (
                f
                for f in facts
                if f.fiscal_year == fiscal_year
                and f.concept in concepts
                and f.duration in ("quarter", "six_months", "nine_months")
            ),
            key=lambda f: (f.period_end, -(f.period_start or f.period_end).toordinal()),  # the longest
            default=None,
        )
        if part is not None:
            return (
                f"the store holds only part of that fiscal year, up to {part.period_label} "
                f"(ended {part.period_end:%B} {part.period_end.day}, {part.period_end.year}), "
                "not the full year"
            )
    if fiscal_quarter is not None and not instant:
        year_reported = any(
            f.fiscal_year == fiscal_year and f.duration == "year" and f.concept in concepts for f in facts
        )
        cannot = not_derivable(unit, "quarter")
        if cannot and year_reported:
            return f"not derivable: {cannot}; only the fiscal year is reported"
        if fiscal_quarter == 4 and year_reported:
            return (
                "not derivable: no nine-month year-to-date figure in the store to subtract from the year, "
                "and no filing of the year that also states its first three quarters"
            )
    return "no reported figure in the store"


def span_missing_reason(label: str, adds_up: bool) -> str:
    """Why no figure states a first half or nine months: no filing's year-to-date column, and (for an
    amount) not every quarter of it reported to add up."""
    if adds_up:
        return (
            f"no {label} year-to-date figure in the store, and not every quarter of it is reported to add up"
        )
    return (
        f"no {label} year-to-date figure in the store (a per-share value or balance is not a sum of quarters)"
    )
