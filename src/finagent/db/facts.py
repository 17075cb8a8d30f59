"""Queries of the facts table: store a document's XBRL facts, look facts up, keep derived facts current."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from finagent.finance.fact_records import Fact, Filing, StoredFact
from finagent.finance.read.derive import DerivedFact
from finagent.finance.read.share_classes import class_member
from finagent.finance.read.split_periods import name_periods
from finagent.resources import read_sql


def dims_key(dimensions: Iterable[tuple[str, str]]) -> str:
    """Sorted "axis=member;…" text: one grouping key per dimension set ('' = consolidated)."""
    return ";".join(f"{axis}={member}" for axis, member in sorted(dimensions))


_NOWHERE: tuple[None, None, None] = (None, None, None)


def _clean(value: str | None) -> str | None:
    return None if value is None else value.replace("\x00", "")


def write_facts(
    conn: psycopg.Connection[Any],
    document_id: int,
    filing: Filing,
    facts: Sequence[Fact],
    chunk_ordinals: Sequence[int | None],
) -> int:
    """Store a document's facts (inside the caller's transaction), each pointing at the chunk that
    displays it. Returns the number of rows written."""
    if len(facts) != len(chunk_ordinals):
        raise ValueError("one chunk ordinal (or None) per fact is required")
    if not facts:
        return 0
    facts = name_periods(facts, filing.form, filing.period_end)  # stubs and transition periods
    locations = {
        int(row[0]): (int(row[1]), row[2], row[3])
        for row in conn.execute(read_sql("queries/chunk_locations.sql"), {"document_id": document_id})
    }
    with conn.cursor() as cur, cur.copy(read_sql("queries/copy_facts.sql")) as copy:
        for fact, ordinal in zip(facts, chunk_ordinals, strict=True):
            chunk_id, page, statement = locations.get(ordinal, _NOWHERE) if ordinal is not None else _NOWHERE
            copy.write_row(
                (
                    document_id,
                    filing.ticker,
                    filing.cik,
                    filing.key,
                    filing.form,
                    filing.period_end,
                    filing.filed,
                    fact.concept,
                    fact.value,
                    fact.is_nil,
                    fact.unit,
                    fact.decimals,
                    fact.period_start,
                    fact.period_end,
                    fact.duration,
                    Jsonb(dict(fact.dimensions)),
                    dims_key(fact.dimensions),
                    fact.fiscal_year,
                    fact.fiscal_quarter,
                    _clean(fact.label),
                    _clean(fact.display),
                    fact.hidden,
                    fact.conflict,
                    chunk_id,
                    page,
                    statement,
                )
            )
    return len(facts)


def supersede_document_facts(conn: psycopg.Connection[Any], document_ids: Sequence[int]) -> None:
    if document_ids:
        conn.execute(read_sql("queries/supersede_facts.sql"), {"document_ids": list(document_ids)})


def restore_document_facts(conn: psycopg.Connection[Any], document_id: int) -> None:
    conn.execute(read_sql("queries/restore_facts.sql"), {"document_id": document_id})


def _stored(row: dict[str, Any]) -> StoredFact:
    """A row of select_facts.sql (its columns are named as StoredFact's fields) as a StoredFact."""
    return StoredFact(
        **{
            **row,
            "id": int(row["id"]),
            "value": None if row["value"] is None else Decimal(row["value"]),
            "dims_key": row["dims_key"] or "",
            "derived": bool(row["derived"]),
            "inputs": tuple(int(i) for i in row["inputs"] or ()),
            "conflict": bool(row["conflict"]),
            "hidden": bool(row["hidden"]),
        }
    )


def _select(
    conn: psycopg.Connection[Any],
    ticker: str,
    *,
    concepts: Sequence[str] | None = None,
    durations: Sequence[str] | None = None,
    reported_only: bool = False,
    all_dimensions: bool = False,
) -> list[StoredFact]:
    params = {
        "ticker": ticker,
        "concepts": list(concepts) if concepts is not None else None,
        "durations": list(durations) if durations is not None else None,
        "reported_only": reported_only,
        "all_dimensions": all_dimensions,
    }
    with conn.cursor(row_factory=dict_row) as cur:
        return [_stored(r) for r in cur.execute(read_sql("queries/select_facts.sql"), params).fetchall()]


def load_facts(
    conn: psycopg.Connection[Any], ticker: str, concepts: Sequence[str], *, all_dimensions: bool = False
) -> list[StoredFact]:
    """Current facts of ``ticker`` for ``concepts``, every filing that reports them (restatements
    included), each filing's fact once."""
    if not concepts:
        return []
    return _select(conn, ticker, concepts=concepts, all_dimensions=all_dimensions)


def share_class_facts(
    conn: psycopg.Connection[Any], ticker: str, concepts: Sequence[str]
) -> list[StoredFact]:
    """Facts of ``ticker`` for per-share ``concepts`` stated per share class (Class A, Class B): read
    when a filing states no consolidated figure."""
    if not concepts:
        return []
    facts = _select(conn, ticker, concepts=concepts, all_dimensions=True)
    return [f for f in facts if class_member(f) is not None]


def tickers_with_facts(conn: psycopg.Connection[Any], tickers: Sequence[str]) -> set[str]:
    rows = conn.execute(read_sql("queries/fact_tickers.sql"), {"tickers": list(tickers)}).fetchall()
    return {str(r[0]) for r in rows}


def fact_members(
    conn: psycopg.Connection[Any], tickers: Sequence[str]
) -> list[tuple[str, str, str, str | None]]:
    """(ticker, axis, member, printed row label) of the facts tagged with one axis member."""
    rows = conn.execute(read_sql("queries/fact_members.sql"), {"tickers": list(tickers)}).fetchall()
    return [(str(r[0]), str(r[1]), str(r[2]), r[3]) for r in rows]


def derivation_inputs(conn: psycopg.Connection[Any], ticker: str) -> list[StoredFact]:
    """Consolidated, reported (not derived) duration facts: the inputs of derived quarters."""
    durations = ["quarter", "six_months", "nine_months", "year"]
    return _select(conn, ticker, durations=durations, reported_only=True)


def replace_derived(
    conn: psycopg.Connection[Any], ticker: str, rows: Sequence[DerivedFact]
) -> tuple[int, int]:
    """Make ``rows`` the company's current derived facts: unchanged ones stay (same id, so citations
    keep resolving), stale ones are superseded, new ones inserted. Returns (added, superseded)."""
    with conn.transaction():
        # Two ingest runs touching one company must not both add its derived facts.
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"finagent-derived:{ticker}",))
        current = conn.execute(read_sql("queries/current_derived_facts.sql"), {"ticker": ticker}).fetchall()
        existing = {
            (r[1], r[2], r[3], r[4], r[5], tuple(sorted(int(i) for i in r[6] or ())), Decimal(r[7])): int(
                r[0]
            )
            for r in current
        }
        wanted = {row.identity(): row for row in rows}
        stale = [fact_id for key, fact_id in existing.items() if key not in wanted]
        if stale:
            conn.execute(read_sql("queries/supersede_derived_facts.sql"), {"ids": stale})
        rows_to_add = [
            {
                "ticker": row.ticker,
                "filing_key": row.filing_key,
                "form": row.form,
                "filing_period_end": row.filing_period_end,
                "filed_at": row.filed_at,
                "concept": row.concept,
                "value": row.value,
                "unit": row.unit,
                "decimals": row.decimals,
                "period_start": row.period_start,
                "period_end": row.period_end,
                "duration": row.duration,
                "fiscal_year": row.fiscal_year,
                "fiscal_quarter": row.fiscal_quarter,
                "label": row.label,
                "derivation": row.derivation,
                "inputs": list(row.inputs),
            }
            for key, row in wanted.items()
            if key not in existing
        ]
        if rows_to_add:  # one round trip for all (a company's history derives hundreds)
            with conn.cursor() as cur:
                cur.executemany(read_sql("queries/insert_derived_fact.sql"), rows_to_add)
    return len(rows_to_add), len(stale)


@dataclass(frozen=True, slots=True)
class UnlinkedFact:
    id: int
    value: Decimal
    decimals: int | None
    unit: str | None
    label: str | None


@dataclass(frozen=True, slots=True)
class TableChunk:
    id: int
    page: int | None
    statement: str | None
    text: str


def unlinked_filings(conn: psycopg.Connection[Any], tickers: Sequence[str]) -> list[tuple[str, int]]:
    """(filing key, document id) pairs: facts without readable text whose report's text is stored."""
    rows = conn.execute(read_sql("queries/unlinked_fact_filings.sql"), {"tickers": list(tickers)}).fetchall()
    return [(str(r[0]), int(r[1])) for r in rows]


def unlinked_facts(conn: psycopg.Connection[Any], filing_key: str) -> list[UnlinkedFact]:
    rows = conn.execute(read_sql("queries/unlinked_facts.sql"), {"filing_key": filing_key}).fetchall()
    return [UnlinkedFact(int(r[0]), Decimal(r[1]), r[2], r[3], r[4]) for r in rows]


def table_chunks(conn: psycopg.Connection[Any], document_id: int) -> list[TableChunk]:
    rows = conn.execute(read_sql("queries/table_chunks.sql"), {"document_id": document_id}).fetchall()
    return [TableChunk(int(r[0]), r[1], r[2], r[3]) for r in rows]


def link_facts(conn: psycopg.Connection[Any], links: Sequence[tuple[int, TableChunk]]) -> None:
    """Point facts at the chunks that display them."""
    if not links:
        return
    with conn.cursor() as cur:
        cur.executemany(
            read_sql("queries/link_fact.sql"),
            [
                {"id": fact_id, "chunk_id": chunk.id, "page": chunk.page, "statement": chunk.statement}
                for fact_id, chunk in links
            ],
        )


@dataclass(frozen=True, slots=True)
class FactPeriod:
    """A fiscal period a company has reported figures for (from its facts)."""

    ticker: str
    fiscal_year: int
    fiscal_quarter: int | None
    first_period_end: date
    last_period_end: date
    facts: int


def fact_periods(conn: psycopg.Connection[Any], tickers: Sequence[str]) -> list[FactPeriod]:
    rows = conn.execute(read_sql("queries/fact_periods.sql"), {"tickers": list(tickers)}).fetchall()
    return [FactPeriod(r[0], int(r[1]), r[2], r[3], r[4], int(r[5])) for r in rows]


@dataclass(frozen=True, slots=True)
class FactCoverage:
    """How many facts the store holds for one fiscal period and duration of a company."""

    fiscal_year: int | None
    fiscal_quarter: int | None
    duration: str
    reported: int
    derived: int
    concepts: int
    period_end: date | None


def fact_coverage(conn: psycopg.Connection[Any], ticker: str) -> list[FactCoverage]:
    rows = conn.execute(read_sql("queries/fact_coverage.sql"), {"ticker": ticker}).fetchall()
    return [FactCoverage(r[0], r[1], r[2], int(r[3]), int(r[4]), int(r[5]), r[6]) for r in rows]
