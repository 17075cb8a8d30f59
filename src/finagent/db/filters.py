"""Validated search filters: bad values are refused with a clear message before any SQL runs."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from psycopg import sql

from finagent.errors import SearchInputError
from finagent.finance.company_registry import normalize_ticker
from finagent.finance.document_records import KINDS
from finagent.finance.read.filing_sections import COVER

MIN_YEAR, MAX_YEAR = 1990, 2100
_KIND_ALIASES = {k.lower().replace("-", "").replace("_", ""): k for k in KINDS}
_KIND_ALIASES |= {"earnings": "earnings_release", "10ka": "10-K", "10qa": "10-Q"}


def clean_text(value: str) -> str:
    """User text as PostgreSQL can store it: NUL removed, undecodable bytes (lone surrogates) -> "?"."""
    return value.replace("\x00", " ").encode("utf-8", "replace").decode("utf-8")


def normalize_kind(value: str) -> str:
    """'10q', '10-Q', 'Transcript' -> canonical document kind."""
    key = value.strip().lower().replace("-", "").replace("_", "").replace(" ", "")
    if key not in _KIND_ALIASES:
        raise SearchInputError(f"unknown document kind '{value}'; use one of: {', '.join(KINDS)}")
    return _KIND_ALIASES[key]


def check_year(year: int) -> int:
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise SearchInputError(f"fiscal year {year} is out of range ({MIN_YEAR}-{MAX_YEAR})")
    return year


def check_quarter(quarter: int) -> int:
    if not 1 <= quarter <= 4:
        raise SearchInputError(f"fiscal quarter {quarter} does not exist; use 1-4")
    return quarter


@dataclass(slots=True)
class SearchFilters:
    """Restrictions of a sub-search; empty lists mean "no restriction"."""

    tickers: list[str] = field(default_factory=list)
    fiscal_years: list[int] = field(default_factory=list)
    fiscal_quarters: list[int] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    date_from: date | None = None
    date_to: date | None = None
    document_ids: list[int] = field(default_factory=list)
    annual_only: bool = False  # fiscal_quarter IS NULL (10-K style documents) or a Q4 earnings release
    published: tuple[date, date] | None = None  # documents that came out on these days (news articles)

    def __post_init__(self) -> None:
        self.tickers = [normalize_ticker(t) for t in self.tickers]
        self.fiscal_years = [check_year(int(y)) for y in self.fiscal_years]
        self.fiscal_quarters = [check_quarter(int(q)) for q in self.fiscal_quarters]
        self.kinds = [normalize_kind(k) for k in self.kinds]
        self.sections = [clean_text(s).strip() for s in self.sections if clean_text(s).strip()]
        if self.date_from and self.date_to and self.date_from > self.date_to:
            raise SearchInputError(f"date range is empty: {self.date_from} is after {self.date_to}")

    @property
    def narrows(self) -> bool:
        """True when a btree-indexed filter makes an exact scan cheaper than the ANN index."""
        return bool(self.tickers or self.document_ids)

    def predicates(self, *, flagged: bool = False) -> tuple[sql.Composable, dict[str, object]]:
        """SQL predicate over chunks ``c`` and its parameters (values are always bound, never inlined).

        Only current document versions, and only ordinary passages: a flagged one (untrusted text
        addressed to AI systems, hidden text) is never evidence; ``flagged`` selects just those instead.
        """
        parts: list[sql.Composable] = [
            sql.SQL("NOT c.superseded"),
            sql.SQL("c.flagged_reason IS NOT NULL" if flagged else "c.flagged_reason IS NULL"),
        ]
        params: dict[str, object] = {}

        def add(clause: str, name: str, value: object) -> None:
            parts.append(sql.SQL(clause).format(sql.Placeholder(name)))
            params[name] = value

        if self.tickers:
            add("c.ticker = ANY({})", "f_tickers", self.tickers)
        if self.fiscal_years:
            add("c.fiscal_year = ANY({})", "f_years", self.fiscal_years)
        if self.fiscal_quarters:
            add("c.fiscal_quarter = ANY({})", "f_quarters", self.fiscal_quarters)
        if self.annual_only:
            # Annual documents, and fourth-quarter earnings releases (they report the full year too).
            parts.append(
                sql.SQL(
                    "(c.fiscal_quarter IS NULL OR (c.fiscal_quarter = 4 AND c.kind = 'earnings_release'))"
                )
            )
        if self.kinds:
            add("c.kind = ANY({})", "f_kinds", self.kinds)
        if self.sections:
            if COVER in self.sections:
                # The cover page has no Item: the unsectioned first page of a periodic report.
                add(
                    "(c.section = ANY({}) OR (c.section IS NULL AND coalesce(c.page, 0) = 0"
                    " AND c.kind IN ('10-K', '10-Q', 'annual_report')))",
                    "f_sections",
                    self.sections,
                )
            else:
                add("c.section = ANY({})", "f_sections", self.sections)
        if self.date_from:
            add("c.period_end >= {}", "f_date_from", self.date_from)
        if self.date_to:
            add("c.period_end <= {}", "f_date_to", self.date_to)
        if self.document_ids:
            add("c.document_id = ANY({})", "f_document_ids", self.document_ids)
        if self.published:  # an article is dated by the day it came out, which only its document holds
            parts.append(
                sql.SQL(
                    "c.document_id IN (SELECT d.id FROM documents d"
                    " WHERE d.published_at::date BETWEEN {} AND {})"
                ).format(sql.Placeholder("f_published_from"), sql.Placeholder("f_published_to"))
            )
            params["f_published_from"], params["f_published_to"] = self.published
        return sql.SQL(" AND ").join(parts), params
