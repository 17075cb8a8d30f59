"""Chunks read by id (the chunk that displays a fact is cited like a search hit); untrusted-text flags."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import dict_row

from finagent.finance.untrusted import Classifier, assess_passage
from finagent.resources import read_sql


def chunks_by_id(conn: psycopg.Connection[Any], ids: Sequence[int]) -> list[dict[str, Any]]:
    """Chunk rows (text, position, document title and source) for ``ids``; unknown ids are skipped."""
    if not ids:
        return []
    with conn.cursor(row_factory=dict_row) as cur:
        return list(cur.execute(read_sql("queries/chunks_by_id.sql"), {"ids": list(ids)}).fetchall())


def cited_texts(conn: psycopg.Connection[Any], ids: Sequence[int]) -> dict[int, str]:
    """Text of each chunk an answer cited, by id, in a store of any schema version (benchmarks grade
    answers of older checkouts against the store those wrote)."""
    if not ids:
        return {}
    rows = conn.execute(read_sql("queries/cited_texts.sql"), {"ids": list(ids)}).fetchall()
    return {int(row[0]): str(row[1]) for row in rows}


def statement_candidates(conn: psycopg.Connection[Any], after: int, batch: int) -> list[tuple[Any, ...]]:
    """(chunk id, text, caption, statement label, whole pages) of the next chunks after `after`."""
    rows = conn.execute(read_sql("queries/statement_candidates.sql"), {"after": after, "batch": batch})
    return [tuple(row) for row in rows.fetchall()]


def update_statements(conn: psycopg.Connection[Any], updates: Sequence[dict[str, Any]]) -> None:
    """Set chunks' statement labels ({"id", "statement"} each) in one transaction."""
    with conn.transaction(), conn.cursor() as cur:
        cur.executemany(read_sql("queries/update_statement.sql"), updates)


def vacuum_chunks(conn: psycopg.Connection[Any]) -> None:
    """Mark new pages all-visible (index-only scans of the covering filter index) and refresh the
    planner's statistics; cheap, it visits only pages changed since last time. Needs autocommit."""
    conn.execute("VACUUM (ANALYZE) chunks")


def rescan_flags(
    conn: psycopg.Connection[Any], classifier: Classifier | None = None, batch: int = 2000
) -> int:
    """Assess every stored chunk as untrusted text again (after this migration, or after the rules
    improved); returns how many flags changed. Text only: nothing is re-embedded."""
    changed = 0
    after = 0
    while True:
        page = {"after": after, "batch": batch}
        rows = conn.execute(read_sql("queries/flag_candidates.sql"), page).fetchall()
        if not rows:
            return changed
        updates = []
        for chunk_id, text, title, metadata, current in rows:
            flag = assess_passage(text, title=title, metadata=metadata, classifier=classifier)
            reason = flag.stored if flag else None
            if reason != current:
                updates.append({"id": chunk_id, "reason": reason})
        if updates:
            with conn.transaction(), conn.cursor() as cur:
                cur.executemany(read_sql("queries/update_flag.sql"), updates)
        changed += len(updates)
        after = rows[-1][0]


@dataclass(frozen=True, slots=True)
class FlaggedPassage:
    """A passage stored flagged, as `finagent db flagged` lists it."""

    chunk_id: int
    ticker: str | None
    kind: str
    fiscal_year: int | None
    fiscal_quarter: int | None
    title: str
    section: str | None
    page: int | None
    reason: str
    excerpt: str
    source_uri: str


def flagged_passages(
    conn: psycopg.Connection[Any], ticker: str | None = None, limit: int = 100, chars: int = 240
) -> list[FlaggedPassage]:
    """Flagged passages of current documents, optionally of one ticker."""
    rows = conn.execute(
        read_sql("queries/flagged_chunks.sql"), {"ticker": ticker, "limit": limit, "chars": chars}
    ).fetchall()
    return [FlaggedPassage(*row) for row in rows]


def flagged_count(conn: psycopg.Connection[Any]) -> int:
    """Passages of current documents stored flagged."""
    row = conn.execute(read_sql("queries/flagged_count.sql")).fetchone()
    return int(row[0]) if row else 0


def section_passages(
    conn: psycopg.Connection[Any], ticker: str, sections: Sequence[str], kinds: Sequence[str]
) -> list[dict[str, Any]]:
    """The prose chunks of some sections of a company's current filings of some kinds (its Item 1A in
    every 10-K), each filing's in order, filings by period: what changed between them is computed."""
    params = {"ticker": ticker, "sections": list(sections), "kinds": list(kinds)}
    with conn.cursor(row_factory=dict_row) as cur:
        return list(cur.execute(read_sql("queries/section_passages.sql"), params).fetchall())


def unmentioned_names(
    conn: psycopg.Connection[Any], tickers: Sequence[str], names: Sequence[str], kinds: Sequence[str] = ()
) -> list[str]:
    """The names no current passage of the companies mentions (by keyword, stemmed), in the given order;
    only passages of ``kinds`` count when some are given (a question about a call: its transcripts)."""
    if not tickers or not names:
        return []
    params = {"tickers": list(tickers), "names": list(names), "kinds": list(kinds)}
    return [str(row[0]) for row in conn.execute(read_sql("queries/unmentioned_names.sql"), params).fetchall()]


def chunk_places(conn: psycopg.Connection[Any], document_id: int) -> list[dict[str, Any]]:
    """A document's chunks in order: id, char_start, page, opening (first characters), section and
    section_title."""
    with conn.cursor(row_factory=dict_row) as cur:
        return list(cur.execute(read_sql("queries/chunk_places.sql"), {"document_id": document_id}))


def update_chunk_parts(conn: psycopg.Connection[Any], updates: Sequence[dict[str, Any]]) -> None:
    """Set chunks' section and section_title (id, section, section_title) in one batch."""
    if updates:
        with conn.cursor() as cur:
            cur.executemany(read_sql("queries/update_chunk_part.sql"), updates)
