"""Writes of SEC company facts: staged by COPY while the file streams, then moved set-wise.

One transaction per company file (the caller's): the staging table is dropped at its end, so a file
that fails half-way leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from finagent.resources import read_sql


@contextmanager
def staging(conn: psycopg.Connection[Any]) -> Iterator[Callable[[bytes], None]]:
    """A fresh staging table and a writer of COPY text rows into it (inside a transaction).

    The transaction does not wait for its commit record to reach disk: a crash can lose the last
    files stored (each whole, never half), which a re-run stores again; bulk loads go much faster."""
    conn.execute(read_sql("queries/companyfacts_stage.sql"))
    with conn.cursor() as cur, cur.copy(read_sql("queries/copy_companyfacts_stage.sql")) as copy:
        yield copy.write


def lock_company(conn: psycopg.Connection[Any], cik: str) -> None:
    """Files of one company are stored one at a time, whichever process stores them."""
    conn.execute(read_sql("queries/lock_company_facts.sql"), {"key": f"finagent-companyfacts:{int(cik)}"})


@dataclass(frozen=True, slots=True)
class KnownCopy:
    """A stored document that may be a filing of the file: how it is stored and what it supplies."""

    id: int
    filing_key: str | None
    accession: str | None
    content_sha256: str
    status: str
    format: str
    has_facts: bool


def known_copies(
    conn: psycopg.Connection[Any],
    ticker: str,
    accessions: Sequence[str],
    filing_keys: Sequence[str],
    hashes: Sequence[str],
) -> list[KnownCopy]:
    rows = conn.execute(
        read_sql("queries/companyfacts_known.sql"),
        {
            "ticker": ticker,
            "accessions": list(accessions),
            "filing_keys": list(filing_keys),
            "hashes": list(hashes),
        },
    ).fetchall()
    return [KnownCopy(int(r[0]), r[1], r[2], r[3], r[4], r[5], bool(r[6])) for r in rows]


@dataclass(frozen=True, slots=True)
class StoredCalendar:
    ticker: str
    name: str | None
    fye_month: int | None
    year_offset: int | None


def company_by_cik(conn: psycopg.Connection[Any], cik: str) -> StoredCalendar | None:
    row = conn.execute(read_sql("queries/company_calendar_by_cik.sql"), {"cik": cik}).fetchone()
    return None if row is None else StoredCalendar(row[0], row[1], row[2], row[3])


@dataclass(frozen=True, slots=True)
class NewFiling:
    """A filing of the file to store as a document of its own."""

    accession: str
    kind: str
    form: str
    filed: date | None
    period_end: date | None
    fiscal_year: int | None
    fiscal_quarter: int | None
    title: str
    source_uri: str
    content_sha256: str
    filing_key: str
    metadata: dict[str, Any]


def insert_filings(
    conn: psycopg.Connection[Any], ticker: str, company_name: str | None, filings: Sequence[NewFiling]
) -> list[int]:
    """One document per new filing (no text: its facts only); returns their ids in order."""
    if not filings:
        return []
    params = [
        {
            "kind": f.kind,
            "ticker": ticker,
            "company_name": company_name,
            "fiscal_year": f.fiscal_year,
            "fiscal_quarter": f.fiscal_quarter,
            "period_end": f.period_end,
            "published_at": datetime(f.filed.year, f.filed.month, f.filed.day) if f.filed else None,
            "title": f.title,
            "source_uri": f.source_uri,
            "content_sha256": f.content_sha256,
            "chunk_count": 0,
            "metadata": Jsonb(f.metadata),
            "filing_key": f.filing_key,
        }
        for f in filings
    ]
    ids: list[int] = []
    with conn.cursor() as cur:
        cur.executemany(read_sql("queries/insert_document.sql"), params, returning=True)
        while True:
            row = cur.fetchone()
            assert row is not None
            ids.append(int(row[0]))
            if not cur.nextset():
                break
    return ids


def supersede_older(
    conn: psycopg.Connection[Any], new_ids: Sequence[int], filings: Sequence[NewFiling]
) -> list[int]:
    """Earlier company-facts versions of the new filings leave every lookup; returns their ids."""
    if not new_ids:
        return []
    rows = conn.execute(
        read_sql("queries/supersede_companyfacts_copies.sql"),
        {
            "new_ids": list(new_ids),
            "sources": [f.source_uri for f in filings],
            "filing_keys": [f.filing_key for f in filings],
        },
    ).fetchall()
    return [int(r[0]) for r in rows]


def keep_as_copies(conn: psycopg.Connection[Any], document_ids: Sequence[int]) -> None:
    """These new documents are copies of filings another current document stands for (its text)."""
    if document_ids:
        conn.execute(read_sql("queries/keep_as_copies.sql"), {"ids": list(document_ids)})


def insert_staged_facts(
    conn: psycopg.Connection[Any],
    *,
    ticker: str,
    cik: str,
    filings: Sequence[NewFiling],
    document_ids: Sequence[int],
    fiscal_periods: dict[date, tuple[int, int]],
    labels: dict[str, str],
) -> int:
    """Move the staged facts of ``filings`` into the facts table; returns the rows written."""
    if not filings:
        return 0
    ends = sorted(fiscal_periods)
    cursor = conn.execute(
        read_sql("queries/insert_companyfacts.sql"),
        {
            "ticker": ticker,
            "cik": cik,
            "accessions": [f.accession for f in filings],
            "document_ids": list(document_ids),
            "filing_keys": [f.filing_key for f in filings],
            "forms": [f.form for f in filings],
            "filing_ends": [f.period_end for f in filings],
            "filed": [f.filed for f in filings],
            "ends": ends,
            "years": [fiscal_periods[e][0] for e in ends],
            "quarters": [fiscal_periods[e][1] for e in ends],
            "concepts": list(labels),
            "labels": [label.replace("\x00", "") for label in labels.values()],
        },
    )
    return cursor.rowcount


def record_events(conn: psycopg.Connection[Any], events: Sequence[dict[str, Any]]) -> None:
    """Several ingest events at once (same fields as ``record_event``)."""
    if not events:
        return
    rows = [
        {
            "document_id": e.get("document_id"),
            "source_uri": e["source_uri"],
            "content_sha256": e.get("content_sha256"),
            "state": e["state"],
            "reason": e.get("reason"),
            "details": Jsonb(e.get("details") or {}),
        }
        for e in events
    ]
    with conn.cursor() as cur:
        cur.executemany(read_sql("queries/insert_event.sql"), rows)


def upsert_company(
    conn: psycopg.Connection[Any],
    *,
    ticker: str,
    name: str | None,
    aliases: Sequence[str],
    cik: str,
    fye_month: int | None,
    year_offset: int | None,
) -> None:
    """The company with what its facts taught: name, CIK and fiscal calendar."""
    conn.execute(
        read_sql("queries/upsert_company.sql"),
        {
            "ticker": ticker,
            "name": name,
            "aliases": list(aliases),
            "fiscal_year_end_month": fye_month,
            "fiscal_year_offset": year_offset,
            "cik": cik,
        },
    )
