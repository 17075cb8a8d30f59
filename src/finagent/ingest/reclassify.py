"""Recompute the primary-statement label of stored chunks (after classifier improvements).

The label depends only on a chunk's text and caption, so no re-embedding or re-ingest is needed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import psycopg

from finagent.db.chunks import statement_candidates, update_statements
from finagent.finance.read.statement_titles import classify_statement

BATCH = 2000


def reclassify_statements(conn: psycopg.Connection[Any]) -> Counter[str]:
    """Relabel every candidate chunk; returns how many changed, by new label ("none" for cleared)."""
    changed: Counter[str] = Counter()
    after = 0
    while True:
        rows = statement_candidates(conn, after, BATCH)
        if not rows:
            return changed
        updates = []
        for chunk_id, text, caption, current, whole_pages in rows:
            label = classify_statement(text, caption, require_title=bool(whole_pages))
            if label != current:
                updates.append({"id": chunk_id, "statement": label})
                changed[label or "none"] += 1
        update_statements(conn, updates)
        after = rows[-1][0]
