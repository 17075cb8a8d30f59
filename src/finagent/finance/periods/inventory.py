"""What the store holds for one company, indexed for the resolver, and the resolver's results
(``TargetPeriod``, ``PeriodResolution``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from finagent.finance.periods.spec import (
    ANNUAL_KINDS,
    FACTS_KIND,
    FILING_KINDS,
    KIND_ORDER,
    QUARTER_KINDS,
    AvailablePeriod,
    Key,
    from_quarter_index,
)


# --------------------------------------------------------------------------------------------
# Resolution
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TargetPeriod:
    """One period to research for one company, and what the store holds for it."""

    ticker: str
    fiscal_year: int
    fiscal_quarter: int | None
    label: str
    period_end: date | None
    kinds: list[str] = field(default_factory=list)
    available: bool = False
    companion: bool = False
    """Added only because its report covers an asked period (a Q4's 10-K), not asked for itself."""
    span: str | None = None
    """ "6M" or "9M": the year to date that ends with ``fiscal_quarter`` (its 10-Q reports it), not
    the quarter alone."""

    @property
    def is_annual(self) -> bool:
        return self.fiscal_quarter is None

    def to_dict(self) -> dict[str, Any]:
        return (
            {
                "ticker": self.ticker,
                "fiscal_year": self.fiscal_year,
                "fiscal_quarter": self.fiscal_quarter,
                "label": self.label,
                "period_end": self.period_end.isoformat() if self.period_end else None,
                "kinds": list(self.kinds),
                "available": self.available,
            }
            | ({"companion": True} if self.companion else {})
            | ({"span": self.span} if self.span else {})
        )


@dataclass(frozen=True)
class PeriodResolution:
    """Targets for one company, chronological, with the warnings the answer should carry."""

    periods: list[TargetPeriod]
    warnings: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"periods": [p.to_dict() for p in self.periods], "warnings": list(self.warnings)}


def period_order(key: Key) -> tuple[int, int, int]:
    """Chronological sort: an annual period sorts right after its Q4."""
    year, quarter = key
    return (year, quarter or 4, 0 if quarter else 1)


def count_back(newest: int, n: int, *, without_q4: bool = False) -> list[tuple[int, int]]:
    """``n`` quarters ending at quarter index ``newest``, oldest first; ``without_q4``: 10-Q quarters only."""
    keys: list[tuple[int, int]] = []
    index = newest
    while len(keys) < n:
        year, quarter = from_quarter_index(index)
        index -= 1
        if not (without_q4 and quarter == 4):
            keys.insert(0, (year, quarter))
    return keys


def months_name(first: date, last: date) -> str:
    """ "2023", "2021 to 2023", "May 2023" or "Mar 2022 to Feb 2023", for warnings."""
    if (first.month, last.month) == (1, 12):
        return str(first.year) if first.year == last.year else f"{first.year} to {last.year}"
    if (first.year, first.month) == (last.year, last.month):
        return f"{first:%b %Y}"
    return f"{first:%b %Y} to {last:%b %Y}"


def _kind_rank(kind: str) -> tuple[int, str]:
    return (KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER), kind)


_REPORT_KINDS = ANNUAL_KINDS | QUARTER_KINDS


_NEWS_RANK = 3


def _end_rank(kind: str) -> int:
    """How well a kind dates a period's end: filings, then XBRL facts, then other reports, then the rest."""
    if kind in FILING_KINDS:
        return 0
    if kind == FACTS_KIND:
        return 1
    return 2 if kind in _REPORT_KINDS else _NEWS_RANK


class Inventory:
    """The store's holdings for one ticker, keyed by (fiscal_year, fiscal_quarter | None).

    ``kinds`` includes ``"facts"`` (XBRL figures); the ``has_*`` checks accept facts for periods a
    question names, while anchors ("latest", "last N", ``held``) look at documents only.
    """

    def __init__(self, ticker: str, rows: Sequence[AvailablePeriod]) -> None:
        self.kinds: dict[Key, set[str]] = {}
        self.ends: dict[Key, tuple[int, date]] = {}
        self.filed: dict[Key, tuple[int, date]] = {}
        for row in rows:
            if row.ticker.upper() != ticker or row.fiscal_year is None:
                continue
            quarter = None if row.kind in ANNUAL_KINDS else row.fiscal_quarter
            key: Key = (row.fiscal_year, quarter)
            self.kinds.setdefault(key, set()).add(row.kind)
            if row.kind == "earnings_release" and quarter == 4:
                # The fourth-quarter release also reports the full year.
                self.kinds.setdefault((row.fiscal_year, None), set()).add(row.kind)
            if row.period_end is not None:
                # Filings date a period best, then XBRL facts, then other reports (transcripts carry
                # nominal month ends), then news or other material.
                rank = _end_rank(row.kind)
                best = self.ends.get(key)
                if best is None or (rank, -row.period_end.toordinal()) < (best[0], -best[1].toordinal()):
                    self.ends[key] = (rank, row.period_end)
            if row.filed is not None and row.kind in _REPORT_KINDS:
                # Facts' filing dates are those of later filings' comparative columns: not used.
                rank = 0 if row.kind in FILING_KINDS else 1
                seen = self.filed.get(key)
                if seen is None or (rank, row.filed) < seen:
                    self.filed[key] = (rank, row.filed)

    def kinds_of(self, key: Key) -> list[str]:
        return sorted(self.kinds.get(key, ()), key=_kind_rank)

    def documented(self, key: Key) -> bool:
        """The store holds a document (not only XBRL facts) for the period."""
        return bool(self.kinds.get(key, set()) - {FACTS_KIND})

    def has_annual_document(self, year: int) -> bool:
        return bool(self.kinds.get((year, None), set()) & ANNUAL_KINDS)

    def has_annual(self, year: int) -> bool:
        """A 10-K or fiscal-year facts: the annual period can be answered."""
        return bool(self.kinds.get((year, None), set()) & (ANNUAL_KINDS | {FACTS_KIND}))

    def has_quarter_document(self, year: int, quarter: int) -> bool:
        return bool(self.kinds.get((year, quarter), set()) & QUARTER_KINDS)

    def has_quarter_report(self, year: int, quarter: int) -> bool:
        """A quarter-level document or quarter facts: the quarter can be answered."""
        return bool(self.kinds.get((year, quarter), set()) & (QUARTER_KINDS | {FACTS_KIND}))

    def has_any_in_year(self, year: int) -> bool:
        return any(y == year for y, _ in self.kinds)

    def actual_end(self, key: Key) -> date | None:
        """The period end a report or XBRL fact states (Q4 and its fiscal year share it); not news."""
        year, quarter = key
        twin: Key = (year, 4) if quarter is None else (year, None)
        for candidate in (key, twin) if quarter in (None, 4) else (key,):
            stored = self.ends.get(candidate)
            if stored is not None and stored[0] < _NEWS_RANK:
                return stored[1]
        return None

    def filed_on(self, key: Key) -> date | None:
        """Stored filing date of the period's report (Q4: its own document, else the 10-K)."""
        year, quarter = key
        keys: tuple[Key, ...] = ((year, 4), (year, None)) if quarter in (None, 4) else (key,)
        dated = [self.filed[k] for k in keys if k in self.filed]
        return min(dated)[1] if dated else None

    def latest_quarter_report(self) -> tuple[int, int] | None:
        keys = [(y, q) for (y, q), kinds in self.kinds.items() if q is not None and kinds & QUARTER_KINDS]
        return max(keys, default=None)

    def latest_annual(self) -> int | None:
        return max(
            (y for (y, q), kinds in self.kinds.items() if q is None and kinds & ANNUAL_KINDS), default=None
        )

    def latest_reported_year(self) -> int | None:
        reports = ANNUAL_KINDS | QUARTER_KINDS
        return max((y for (y, _), kinds in self.kinds.items() if kinds & reports), default=None)

    def held(self, *, annual: bool) -> list[Key]:
        """Every period with a report (10-K when ``annual``, else quarterly reports), oldest first."""
        keys = [
            key
            for key, kinds in self.kinds.items()
            if (key[1] is None) == annual and kinds & (ANNUAL_KINDS if annual else QUARTER_KINDS)
        ]
        return sorted(keys, key=period_order)

    def quarters_with(self, kind: str) -> list[tuple[int, int]]:
        """Quarters holding a document of ``kind`` ("10-Q"), oldest first."""
        return sorted((y, q) for (y, q), kinds in self.kinds.items() if q is not None and kind in kinds)

    def latest_any(self) -> Key | None:
        return max((k for k in self.kinds if self.documented(k)), key=period_order, default=None)
