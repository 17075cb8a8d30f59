"""What the store holds: companies and, per company, each fiscal period's documents.

Shared by `finagent companies` / `finagent coverage` and the MCP tools, so a person and an agent
see the same inventory.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date
from typing import Any

import psycopg

from finagent.db.companies import list_companies, resolve_company
from finagent.db.facts import FactCoverage, fact_coverage
from finagent.errors import SearchInputError
from finagent.finance.fact_records import fiscal_label
from finagent.finance.fiscal import quarter_label
from finagent.resources import read_sql


@dataclass(frozen=True, slots=True)
class CompanySummary:
    ticker: str
    name: str | None
    fiscal_year_end_month: int | None
    documents: int
    chunks: int
    kinds: list[str]
    first_fiscal_year: int | None
    last_fiscal_year: int | None
    last_period_end: date | None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["last_period_end"] = self.last_period_end.isoformat() if self.last_period_end else None
        return data


@dataclass(frozen=True, slots=True)
class PeriodCoverage:
    """The documents of one kind a company has for one fiscal period."""

    period: str
    fiscal_year: int | None
    fiscal_quarter: int | None
    kind: str
    period_end: date | None
    documents: int
    chunks: int
    sources: list[str]
    flagged: int = 0  # passages stored flagged: addressed to AI systems or hidden, never evidence

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["period_end"] = self.period_end.isoformat() if self.period_end else None
        return data


@dataclass(frozen=True, slots=True)
class FactPeriodCoverage:
    """How many XBRL facts the store holds for one fiscal period and span of a company."""

    period: str
    duration: str
    period_end: date | None
    reported: int
    derived: int
    concepts: int

    @classmethod
    def of(cls, row: FactCoverage) -> FactPeriodCoverage:
        return cls(
            fiscal_label(row.fiscal_year, row.fiscal_quarter, row.duration),
            row.duration,
            row.period_end,
            row.reported,
            row.derived,
            row.concepts,
        )

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["period_end"] = self.period_end.isoformat() if self.period_end else None
        return data


@dataclass(frozen=True, slots=True)
class Coverage:
    ticker: str
    name: str | None
    fiscal_year_end_month: int | None
    periods: list[PeriodCoverage]
    facts: list[FactPeriodCoverage]

    def to_dict(self) -> dict[str, Any]:
        return {
            "ticker": self.ticker,
            "name": self.name,
            "fiscal_year_end_month": self.fiscal_year_end_month,
            "periods": [p.to_dict() for p in self.periods],
            "facts": [f.to_dict() for f in self.facts],
        }


def company_summaries(conn: psycopg.Connection[Any]) -> list[CompanySummary]:
    """Every company with at least one current document."""
    rows = conn.execute(read_sql("queries/company_summaries.sql")).fetchall()
    return [
        CompanySummary(
            ticker=r[0],
            name=r[1],
            fiscal_year_end_month=r[2],
            documents=int(r[3]),
            chunks=int(r[4]),
            kinds=list(r[5] or []),
            first_fiscal_year=r[6],
            last_fiscal_year=r[7],
            last_period_end=r[8],
        )
        for r in rows
    ]


def company_coverage(conn: psycopg.Connection[Any], company: str) -> Coverage:
    """The fiscal periods and document kinds held for a ticker or company name."""
    companies = list_companies(conn)
    found = resolve_company(companies, company)
    if found is None or found.documents == 0:
        held = ", ".join(c.ticker for c in companies if c.documents) or "nothing yet"
        raise SearchInputError(f"no documents for '{company}' in the store (it holds: {held})")
    rows = conn.execute(read_sql("queries/coverage.sql"), {"ticker": found.ticker}).fetchall()
    periods = [
        PeriodCoverage(
            period=quarter_label(r[0], r[1]),
            fiscal_year=r[0],
            fiscal_quarter=r[1],
            kind=r[2],
            period_end=r[3],
            documents=int(r[4]),
            chunks=int(r[5]),
            sources=list(r[6] or []),
            flagged=int(r[7]),
        )
        for r in rows
    ]
    facts = [FactPeriodCoverage.of(row) for row in fact_coverage(conn, found.ticker)]
    return Coverage(found.ticker, found.name, found.fiscal_year_end_month, periods, facts)


@dataclass(frozen=True, slots=True)
class StoredDocument:
    """A current document (one per filing) as `finagent db documents` lists it: its id (what
    `finagent db remove` takes), and the chunks searched and facts used for it. ``text_from`` and
    ``facts_from`` name older copies of the same filing still serving a part this one lacks (the
    text behind an XBRL instance, the facts behind a PDF)."""

    id: int
    ticker: str | None
    kind: str
    fiscal_year: int | None
    fiscal_quarter: int | None
    period_end: date | None
    title: str
    source_uri: str
    chunks: int
    facts: int
    text_from: list[int]
    facts_from: list[int]
    flagged: int = 0  # passages stored flagged: addressed to AI systems or hidden, never evidence

    @property
    def period(self) -> str:
        return quarter_label(self.fiscal_year, self.fiscal_quarter)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["period_end"] = self.period_end.isoformat() if self.period_end else None
        data["period"] = self.period
        return data


def list_documents(conn: psycopg.Connection[Any], ticker: str | None = None) -> list[StoredDocument]:
    """Current documents, optionally of one company, in ticker, kind and period order."""
    rows = conn.execute(read_sql("queries/list_documents.sql"), {"ticker": ticker}).fetchall()
    return [
        StoredDocument(
            id=int(r[0]),
            ticker=r[1],
            kind=r[2],
            fiscal_year=r[3],
            fiscal_quarter=r[4],
            period_end=r[5],
            title=r[6],
            source_uri=r[7],
            chunks=int(r[8] or 0),
            facts=int(r[9] or 0),
            text_from=[int(i) for i in r[10] or []],
            facts_from=[int(i) for i in r[11] or []],
            flagged=int(r[12] or 0),
        )
        for r in rows
    ]


@dataclass(slots=True)
class StatusRow:
    """`finagent db status`: the documents of one company, kind and fiscal period."""

    ticker: str | None
    kind: str
    fiscal_year: int | None
    fiscal_quarter: int | None
    period_end: date | None
    ids: list[int]
    chunks: int
    facts: int
    flagged: int = 0


def store_status(conn: psycopg.Connection[Any]) -> list[StatusRow]:
    """Current documents grouped by ticker, kind and fiscal period, with their ids (for `db remove`)
    and the chunks searched and facts used (one filing counted once, whatever its copies)."""
    rows: dict[tuple[Any, ...], StatusRow] = {}
    for doc in list_documents(conn):
        key = (doc.ticker, doc.kind, doc.fiscal_year, doc.fiscal_quarter)
        row = rows.get(key)
        if row is None:
            row = rows[key] = StatusRow(*key, period_end=doc.period_end, ids=[], chunks=0, facts=0)
        if doc.period_end and (row.period_end is None or doc.period_end < row.period_end):
            row.period_end = doc.period_end
        row.ids.append(doc.id)
        row.chunks += doc.chunks
        row.facts += doc.facts
        row.flagged += doc.flagged
    return list(rows.values())
