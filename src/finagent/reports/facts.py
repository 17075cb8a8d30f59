"""A period-aligned table of reported figures, straight from the store's facts — no model at all.

Shared by `finagent facts`, `finagent.facts(...)` and the MCP tool `get_financial_facts`, so a person,
a program and another agent get the same numbers: per company and resolved fiscal period, the value
with its unit, the filing and chunk it is displayed in, whether it was derived, restatements, and the
year-over-year change (same fiscal quarter a year earlier) computed by the calculator.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

import psycopg

from finagent.agent.answer.figures import figure_for
from finagent.agent.answer.part_figures import Breakdown, breakdown, total_of
from finagent.agent.understand.entities import find_companies
from finagent.db.companies import StoredCompany, list_companies, resolve_company
from finagent.db.facts import load_facts, share_class_facts
from finagent.db.periods import load_inventory
from finagent.errors import SearchInputError
from finagent.finance.ask.asked_metrics import metrics_in
from finagent.finance.compute.safe_calculator import growth_pct
from finagent.finance.fact_records import StoredFact
from finagent.finance.fiscal import calendar_for
from finagent.finance.line_item import LineItem
from finagent.finance.lines import REPORTED
from finagent.finance.looked_up import Figure, Part
from finagent.finance.periods import TargetPeriod, TimeSpec, resolve_periods
from finagent.finance.periods.ranges import PeriodRangeError, option_specs
from finagent.finance.read.lookup import PeriodWanted
from finagent.finance.read.xbrl.members import kind_of_word

RESTATED_KEYS = ("original", "original_filing", "latest", "latest_filing")
MAX_TICKERS = 12
MAX_METRICS = 8
MAX_PERIODS = 80
"""Periods per company: twenty years of quarters (a long history is read from facts, no search)."""


@dataclass
class FactRow:
    """One company's metric for one fiscal period, exact, with where it is printed."""

    ticker: str
    metric: str
    metric_label: str
    period: str
    fiscal_year: int
    fiscal_quarter: int | None
    period_start: date | None = None
    period_end: date | None = None
    value: Decimal | None = None
    unit: str | None = None
    source: str = "none"  # xbrl | derived | none
    concept: str | None = None
    form: str | None = None
    filing: str | None = None
    source_uri: str | None = None
    chunk_id: int | None = None
    page: int | None = None
    derivation: str | None = None
    yoy_pct: float | None = None
    yoy_from: str | None = None
    yoy_expression: str | None = None
    restated: list[dict[str, str]] = field(default_factory=list)
    note: str = ""
    part: str = ""
    """The part's name ("iPhone", "Amazon Web Services") of a row by part; "" for the company's total."""
    member: str = ""
    """The XBRL axis member of that part ("aapl:IPhoneMember")."""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["value"] = None if self.value is None else str(self.value)
        data["period_start"] = self.period_start.isoformat() if self.period_start else None
        data["period_end"] = self.period_end.isoformat() if self.period_end else None
        return data


@dataclass
class FactsResult:
    rows: list[FactRow]
    periods: dict[str, list[str]]
    warnings: list[str]
    sums: list[str] = field(default_factory=list)
    """By part: per company and period, whether the parts add up to the total."""

    def to_dict(self) -> dict[str, Any]:
        data = {"rows": [r.to_dict() for r in self.rows], "periods": self.periods, "warnings": self.warnings}
        return data | ({"sums": self.sums} if self.sums else {})


def metric_names(requested: list[str]) -> list[str]:
    """Metric names from names ("net_income") or words ("net income", "revenue")."""
    names: list[str] = []
    for text in requested:
        for part in [p.strip() for p in text.split(",") if p.strip()]:
            key = part.lower().replace(" ", "_").replace("-", "_")
            found = [key] if key in REPORTED else metrics_in(part)
            if not found:
                known = ", ".join(sorted(REPORTED))
                raise SearchInputError(f"unknown metric '{part}' (known: {known})")
            names += [f for f in found if f not in names]
    if not names:
        raise SearchInputError("give at least one metric, e.g. --metric revenue")
    if len(names) > MAX_METRICS:
        raise SearchInputError(f"at most {MAX_METRICS} metrics at once, got {len(names)}")
    return names


def _not_held(text: str, companies: list[StoredCompany]) -> str:
    """Why ``text`` names no stored company: what the store holds (a company kept under its CIK with
    its name) and how to add it, or to name CIK-held companies by loading SEC's list."""
    held = [c for c in companies if c.documents]
    by_cik = [c for c in held if c.ticker.startswith("CIK")]
    named = ", ".join(f"{c.ticker} ({c.name})" if c in by_cik and c.name else c.ticker for c in held)
    hint = f"add it with `finagent ingest edgar {text.upper()}`"
    if by_cik:
        hint += "; companies held under their CIK get their tickers once SEC's list is loaded "
        hint += "(`finagent ingest path <folder with company_tickers.json>`)"
    return f"'{text}' is not in the store (it holds: {named or 'nothing yet'}); {hint}"


def resolve_tickers(companies: list[StoredCompany], requested: list[str]) -> list[str]:
    """Tickers for tickers or names; a company the store does not hold is a clear error."""
    tickers: list[str] = []
    for text in requested:
        company = resolve_company(companies, text) or next(
            (c for m in find_companies(text, companies) for c in companies if c.ticker == m.ticker), None
        )
        if company is None or not company.documents:
            raise SearchInputError(_not_held(text, companies))
        if company.ticker not in tickers:
            tickers.append(company.ticker)
    if not tickers:
        raise SearchInputError("give at least one company, e.g. AAPL")
    if len(tickers) > MAX_TICKERS:
        raise SearchInputError(f"at most {MAX_TICKERS} companies at once, got {len(tickers)}")
    return tickers


def facts_table(
    conn: psycopg.Connection[Any],
    tickers: list[str],
    metrics: list[str],
    periods: list[str],
    *,
    as_reported: bool = False,
    today: date | None = None,
    by: str | None = None,
) -> FactsResult:
    """Rows per company × resolved period × metric (see the module docstring); ``by`` a kind of part
    ("product", "segment", "geography"): each part's row, then the company's total."""
    companies = list_companies(conn)
    tickers = resolve_tickers(companies, tickers)
    names = metric_names(metrics)
    kind = part_kind(by)
    specs = _period_specs(periods)
    by_ticker = {c.ticker: c for c in companies}
    available = load_inventory(conn, tickers)
    result = FactsResult(rows=[], periods={}, warnings=[])
    for ticker in tickers:
        resolution = resolve_periods(
            specs,
            calendar_for(by_ticker[ticker]),
            available.get(ticker, []),
            today=today or date.today(),
            max_quarters=MAX_PERIODS,
            prefer="annual" if not specs else "quarter",
        )
        # Which documents hold a period matters for searching text, not for reading facts.
        result.warnings += [w for w in resolution.warnings if "no 10-" not in w and "targeted too" not in w]
        targets = [p for p in resolution.periods if not getattr(p, "companion", False)]
        result.periods[ticker] = [p.label for p in targets]
        concepts = sorted({c for m in names for c in REPORTED[m].read_concepts})
        facts = load_facts(conn, ticker, concepts, all_dimensions=kind is not None)
        per_share = sorted(
            {c for m in names if REPORTED[m].unit == "per_share" for c in REPORTED[m].concepts}
        )
        classes = share_class_facts(conn, ticker, per_share)  # read when no consolidated one
        if not facts and not classes:
            result.warnings.append(
                f"{ticker}: no XBRL facts for these metrics in the store (its reports there carry none, "
                "e.g. PDFs); `finagent ask` reads their statement tables instead"
            )
        whole = [f for f in facts if not f.dims_key] + classes  # the company's own figures
        for name in names:
            for target in targets:
                if kind is not None:
                    result.rows += by_part_rows(facts, ticker, REPORTED[name], target, kind, result)
                result.rows += _rows(whole, ticker, REPORTED[name], target, as_reported)
    return result


def part_kind(by: str | None) -> str | None:
    """The kind of part ``by`` names ("products" → "product"); a word naming none is an error."""
    if not by:
        return None
    kind = kind_of_word(by)
    if kind is None:
        raise SearchInputError(f"cannot break figures down by '{by}' (try: segment, product, geography)")
    return kind


def by_part_rows(
    facts: list[StoredFact],
    ticker: str,
    metric: LineItem,
    target: TargetPeriod,
    kind: str,
    result: FactsResult,
) -> list[FactRow]:
    """One row per part of ``kind`` of the period, and whether they add up to the total in ``result.sums``."""
    wanted = PeriodWanted(target.fiscal_year, target.fiscal_quarter)
    found = breakdown(facts, ticker, metric, wanted, kind)
    if found is None:
        result.warnings.append(
            f"{ticker} {wanted.label}: no {metric.label.lower()} by {kind} in its XBRL facts"
        )
        return []
    rows = []
    for part in found.parts:
        row = FactRow(
            ticker, metric.name, metric.label, wanted.label, target.fiscal_year, target.fiscal_quarter
        )
        _fill(row, part.figure)
        row.part, row.member = part.label, part.member
        rows.append(row)
    result.sums.append(sums_sentence(found, metric.label.lower()))
    return rows


def sums_sentence(found: Breakdown, line: str) -> str:
    """ "AAPL FY2024: the 5 parts by product add up to the total revenue ($391,035,000,000)"."""
    head = f"{found.ticker} {found.period}: the {len(found.parts)} parts by {found.kind}"
    if found.total is None:
        return f"{head} are shown; no total {line} to add them up to"
    added = total_of(found.parts)
    if found.sums:
        return f"{head} add up to the total {line} ({found.total.value:,})"
    return f"{head} do not add up to the total {line}: {added:,} against {found.total.value:,}"


def _period_specs(periods: list[str]) -> list[TimeSpec]:
    """The specs of the period options; a value that reads as no period, or a bad range, is an error."""
    specs: list[TimeSpec] = []
    for text in periods:
        try:
            found = option_specs(text)
        except PeriodRangeError as exc:
            raise SearchInputError(str(exc)) from None
        if not found:
            raise SearchInputError(
                f"cannot read the period {text!r} (try FY2024, 'Q3 FY2023', 'last 4 quarters', 2022-2024, "
                "FY2009..FY2024)"
            )
        specs += found
    return specs


def facts(
    tickers: list[str] | str,
    metrics: list[str] | str,
    periods: list[str] | str | None = None,
    *,
    as_reported: bool = False,
    by: str | None = None,
) -> FactsResult:
    """Exact reported figures per company and fiscal period from the store's XBRL facts (no model).

    ``finagent.facts(["AMZN", "GOOGL"], "net_income", ["FY2022", "FY2023", "FY2024"])``; each row has
    the value, its period, the filing and chunk that print it, and the year-over-year change;
    ``by="product"`` (or "segment", "geography") adds a row per part, each with ``part`` set.
    """
    from finagent.agent.resources import get_resources

    def as_list(value: list[str] | str | None) -> list[str]:
        return [value] if isinstance(value, str) else list(value or [])

    with get_resources().database().connection() as conn:
        return facts_table(
            conn, as_list(tickers), as_list(metrics), as_list(periods), as_reported=as_reported, by=by
        )


def _rows(
    facts: list[StoredFact], ticker: str, metric: LineItem, target: TargetPeriod, as_reported: bool
) -> list[FactRow]:
    """One company's metric for one period, as the answer's figures choose it (``figure_for``), with
    its year-over-year change (same fiscal quarter a year earlier, by the calculator); a period the
    filings report only in parts is a row saying why there is no single figure, then one row per part."""
    wanted = PeriodWanted(target.fiscal_year, target.fiscal_quarter)
    row = FactRow(ticker, metric.name, metric.label, wanted.label, target.fiscal_year, target.fiscal_quarter)
    record = figure_for(facts, ticker, metric, wanted, as_reported=as_reported)
    if not isinstance(record, Figure):
        row.note = (record.reason if record else "") or "no reported figure in the store"
        return [row, *(_part_row(part, row) for part in (record.parts if record else ()))]
    _fill(row, record)
    row.restated = [{k: str(r.to_dict()[k]) for k in RESTATED_KEYS} for r in record.restated]
    prior = figure_for(
        facts, ticker, metric, wanted.prior_year(), as_reported=as_reported, role="comparative"
    )
    if isinstance(prior, Figure) and prior.value and metric.unit == "money":
        growth = growth_pct(prior.value, record.value)
        if growth.ok and growth.result is not None:
            row.yoy_pct, row.yoy_expression = growth.result, growth.expression
            row.yoy_from = prior.period.label
    return [row]


def _fill(row: FactRow, record: Figure) -> None:
    """The row's value, period and source from the chosen figure."""
    row.value, row.unit, row.source = record.value, record.unit, record.source
    row.period_start, row.period_end = record.period_start, record.period_end
    place = record.provenance
    row.concept, row.form, row.filing = record.concept, place.form, place.filing
    row.source_uri, row.chunk_id, row.page = place.source_uri, place.chunk_id, place.page
    row.derivation = record.derivation
    row.note = record.line  # the line read, when another candidate concept states another value


PART_NOTE = "part of"


def is_part_row(row: FactRow) -> bool:
    """A reported part of a split period (``_part_row``): listed, never the period's own value."""
    return row.note.startswith(PART_NOTE)


def _part_row(part: Part, whole: FactRow) -> FactRow:
    """One reported part of a split period ("successor Jul 22–Sep 30, 2010"), cited to its filing."""
    return FactRow(
        whole.ticker,
        whole.metric,
        whole.metric_label,
        part.label,
        whole.fiscal_year,
        whole.fiscal_quarter,
        period_start=part.period_start or part.period_end,
        period_end=part.period_end,
        value=part.value,
        unit=part.unit,
        source="xbrl",
        concept=part.concept,
        form=part.provenance.form,
        filing=part.provenance.filing,
        source_uri=part.provenance.source_uri,
        chunk_id=part.provenance.chunk_id,
        page=part.provenance.page,
        note=f"{PART_NOTE} {whole.period}, not the whole period",
    )
