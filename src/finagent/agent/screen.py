"""The screen of the store: every company of a universe (all the companies it holds, or a list) ranked
or filtered by one metric, each in its own period, computed by code. ``screen`` is the one function
`finagent screen`, the MCP tool ``screen`` and the graph's universe questions call.

Per company: its period resolved on its own calendar (its latest fiscal year ends in January for one,
September for another), its figures looked up as every answer's are (``answer.figures.figure_for``),
the value computed (``finance.compute.screen_rank``), then the ranking, the threshold and the top N,
written as one cited answer (``answer.screen_answer``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import psycopg

from finagent.agent.answer.figures import figure_for, filing_items, printed_at
from finagent.agent.answer.screen_answer import screen_text
from finagent.agent.evidence import assign_labels, chunk_to_evidence
from finagent.agent.understand.entities import strip_legal_suffixes
from finagent.db.chunks import chunks_by_id
from finagent.db.companies import list_companies
from finagent.db.facts import load_facts
from finagent.db.periods import load_inventory
from finagent.errors import SearchInputError
from finagent.finance.ask.screen_ask import ScreenAsk, UnknownMetric, parse_threshold, screen_metric
from finagent.finance.company_registry import StoredCompany
from finagent.finance.compute.screen_rank import (
    Lacking,
    ScreenEntry,
    ScreenOutcome,
    rank_screen,
    screen_value,
)
from finagent.finance.fiscal import calendar_for
from finagent.finance.lines import REPORTED
from finagent.finance.looked_up import Figure, FigureRecord, Provenance
from finagent.finance.periods import TargetPeriod, TimeSpec, resolve_periods
from finagent.finance.periods.ranges import PeriodRangeError, option_specs
from finagent.finance.read.lookup import PeriodWanted


@dataclass(frozen=True)
class ScreenRequest:
    """What to screen: the ask (metric, threshold, top N, direction), the period specs (none: each
    company's latest fiscal year) and the universe (none: every company the store holds)."""

    ask: ScreenAsk
    specs: tuple[TimeSpec, ...] = ()
    tickers: tuple[str, ...] = ()
    period_words: str = ""
    """How the answer names the period asked ("fiscal 2024"); default: each one's latest fiscal year."""


@dataclass
class ScreenResult:
    outcome: ScreenOutcome
    answer: str
    items: list[dict[str, Any]]
    universe: list[str]
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (CLI --json, the MCP tool): the answer, each company's row, the lacking ones."""
        outcome = self.outcome
        kept = {e.ticker for e in outcome.kept}
        return {
            "metric": outcome.metric.name,
            "answer": self.answer,
            "rows": [_row(e, i + 1, e.ticker in kept) for i, e in enumerate(outcome.ranked)],
            "other_currency": [_row(e, None, False) for e in outcome.other_currency],
            "lacking": [
                {"ticker": x.ticker, "period": x.period.label if x.period else None, "reason": x.reason}
                for x in outcome.lacking
            ],
            "universe": self.universe,
            "warnings": self.warnings,
        }


def _row(entry: ScreenEntry, rank: int | None, kept: bool) -> dict[str, Any]:
    return {
        "rank": rank,
        "ticker": entry.ticker,
        "period": entry.period.label,
        "period_end": entry.period_end.isoformat() if entry.period_end else None,
        "value": str(entry.value),
        "unit": entry.unit,
        "expression": entry.expression,
        "kept": kept,
        "filings": [f.provenance.filing for f in entry.figures],
    }


def screen(
    conn: psycopg.Connection[Any], request: ScreenRequest, *, today: date | None = None
) -> ScreenResult:
    """Rank or filter the universe by the metric (see the module docstring); a metric no line or
    computation names is a ``SearchInputError`` listing the close names."""
    try:
        metric = screen_metric(request.ask.metric)
    except UnknownMetric as exc:
        raise SearchInputError(str(exc)) from None
    companies = [c for c in list_companies(conn) if c.documents]
    universe = _universe(companies, request.tickers)
    inventory = load_inventory(conn, [c.ticker for c in universe])
    concepts = sorted({c for line in metric.inputs for c in REPORTED[line].read_concepts})
    entries: list[ScreenEntry] = []
    lacking: list[Lacking] = []
    figures: list[Figure] = []
    for company in universe:
        period = _period(company, request.specs, inventory.get(company.ticker, []), today or date.today())
        if period is None:
            lacking.append(Lacking(company.ticker, None, "the store holds no annual report of that period"))
            continue
        facts = load_facts(conn, company.ticker, concepts)
        current = {line: _figure(facts, company.ticker, line, period) for line in metric.inputs}
        prior = {line: _figure(facts, company.ticker, line, period.prior_year()) for line in metric.inputs}
        found = screen_value(metric, company.ticker, period.fiscal_period, current, prior)
        (entries if isinstance(found, ScreenEntry) else lacking).append(found)  # type: ignore[arg-type]
        if isinstance(found, ScreenEntry):
            figures += found.figures
    outcome = rank_screen(metric, request.ask, entries, lacking)
    items = _citable(conn, figures)
    names = {c.ticker: [c.ticker, *([strip_legal_suffixes(c.name)] if c.name else [])] for c in universe}
    answer = screen_text(outcome, names, _labeller(items), request.period_words, request.ask.sector)
    return ScreenResult(outcome, answer, items, [c.ticker for c in universe])


def _universe(companies: list[StoredCompany], tickers: Sequence[str]) -> list[StoredCompany]:
    """The companies screened: those named (each must be held), else every company the store holds."""
    if not tickers:
        if not companies:
            raise SearchInputError("the store holds no company yet; add filings with `finagent ingest path`")
        return companies
    by_ticker = {c.ticker: c for c in companies}
    unknown = [t for t in tickers if t.upper() not in by_ticker]
    if unknown:
        raise SearchInputError(f"not in the store: {', '.join(unknown)} (see `finagent companies`)")
    return [by_ticker[t.upper()] for t in dict.fromkeys(tickers)]


def _period(
    company: StoredCompany, specs: Sequence[TimeSpec], available: Sequence[Any], today: date
) -> PeriodWanted | None:
    """The company's own period of the request: the latest target its calendar resolves (with no
    spec, its latest fiscal year the store holds). A year asked for is a year: the quarters the
    resolver targets for a year with no annual report stand for nothing here (the company lacks it)."""
    resolution = resolve_periods(
        list(specs), calendar_for(company), list(available), today=today, prefer="annual"
    )
    targets: list[TargetPeriod] = [p for p in resolution.periods if not getattr(p, "companion", False)]
    quarters_asked = any(s.quarter is not None or "quarter" in s.kind for s in specs)
    if not quarters_asked:
        targets = [t for t in targets if t.fiscal_quarter is None]
    if not targets or not available:
        return None
    last = targets[-1]
    return PeriodWanted(last.fiscal_year, last.fiscal_quarter)


def _figure(facts: Sequence[Any], ticker: str, line: str, period: PeriodWanted) -> FigureRecord | None:
    return figure_for(facts, ticker, REPORTED[line], period)


def _citable(conn: psycopg.Connection[Any], figures: Sequence[Figure]) -> list[dict[str, Any]]:
    """Labelled items: the chunks printing the figures, then the filings of figures no text prints."""
    ids = sorted({place.chunk_id for _, place in printed_at(figures) if place.chunk_id})
    chunks = [chunk_to_evidence(row, "screen", 0, 1.0) for row in chunks_by_id(conn, ids)]
    held = {c["chunk_id"] for c in chunks}
    return assign_labels([*chunks, *filing_items(figures, held)])


def _labeller(items: Sequence[dict[str, Any]]) -> Any:
    by_chunk = {i["chunk_id"]: i["label"] for i in items if i.get("chunk_id") is not None}
    by_document = {i["document_id"]: i["label"] for i in items if i.get("chunk_id") is None}

    def label(place: Provenance) -> str:
        if place.chunk_id is not None and place.chunk_id in by_chunk:
            return str(by_chunk[place.chunk_id])
        return str(by_document.get(place.document_id or -1, ""))

    return label


LATEST_WORDS = frozenset({"", "latest", "latest-fy", "latest fy", "latest fiscal year"})


def request_from_options(
    metric: str,
    period: str = "latest-FY",
    *,
    top: int | None = None,
    minimum: str | None = None,
    maximum: str | None = None,
    lowest: bool = False,
    tickers: Sequence[str] = (),
) -> ScreenRequest:
    """The request of `finagent screen` and of the MCP tool: a bad metric, period or threshold is a
    ``SearchInputError`` of one line."""
    try:
        chosen = screen_metric(metric)
    except UnknownMetric as exc:
        raise SearchInputError(str(exc)) from None
    specs: tuple[TimeSpec, ...] = ()
    if period.strip().lower() not in LATEST_WORDS:
        try:
            specs = tuple(option_specs(period))
        except PeriodRangeError as exc:
            raise SearchInputError(str(exc)) from None
        if not specs:
            raise SearchInputError(
                f"cannot read the period {period!r} (try latest-FY, FY2024, 'fiscal 2023')"
            )
    if top is not None and top < 1:
        raise SearchInputError(f"--top must be at least 1, got {top}")
    try:
        lower = parse_threshold(minimum, chosen.percent) if minimum is not None else None
        upper = parse_threshold(maximum, chosen.percent) if maximum is not None else None
    except ValueError as exc:
        raise SearchInputError(str(exc)) from None
    ask = ScreenAsk(chosen.name, lower, upper, top, not lowest)
    words = "" if not specs else period.strip()
    return ScreenRequest(ask, specs, tuple(t.upper() for t in tickers), words)
