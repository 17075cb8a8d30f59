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
