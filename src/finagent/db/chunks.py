"""Chunks read by id (the chunk that displays a fact is cited like a search hit)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.rows import dict_row

from finagent.resources import read_sql


def chunks_by_id(conn: psycopg.Connection[Any], ids: Sequence[int]) -> list[dict[str, Any]]:
    """Chunk rows (text, position, document title and source) for ``ids``; unknown ids are skipped."""
    if not ids:
        return []
    with conn.cursor(row_factory=dict_row) as cur:
        return list(cur.execute(read_sql("queries/chunks_by_id.sql"), {"ids": list(ids)}).fetchall())


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
