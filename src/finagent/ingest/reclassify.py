"""Recompute the primary-statement label of stored chunks (after classifier improvements).

The label depends only on a chunk's text and caption, so no re-embedding or re-ingest is needed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import psycopg

from finagent.ingest.statements import classify_statement
from finagent.resources import read_sql

BATCH = 2000


def reclassify_statements(conn: psycopg.Connection[Any]) -> Counter[str]:
    """Relabel every candidate chunk; returns how many changed, by new label ("none" for cleared)."""
    changed: Counter[str] = Counter()
    after = 0
    while True:
        rows = conn.execute(
            read_sql("queries/statement_candidates.sql"), {"after": after, "batch": BATCH}
        ).fetchall()
        if not rows:
            return changed
        updates = []
        for chunk_id, text, caption, current, whole_pages in rows:
            label = classify_statement(text, caption, require_title=bool(whole_pages))
            if label != current:
                updates.append({"id": chunk_id, "statement": label})
                changed[label or "none"] += 1
        with conn.transaction(), conn.cursor() as cur:
            cur.executemany(read_sql("queries/update_statement.sql"), updates)
        after = rows[-1][0]
