"""Vectors for the later windows of chunks stored before chunks had them (`finagent db windows`).

Each document is embedded on its own, as an ingest does, so the vectors equal a fresh ingest's; each
document is committed on its own, so an interrupted run keeps its work and the next one resumes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg

from finagent.db.chunks import chunks_without_windows, documents_without_windows, store_windows
from finagent.embeddings import Embedder


def embed_missing_windows(
    conn: psycopg.Connection[Any], embedder: Embedder, progress: Callable[[int, int], None] | None = None
) -> tuple[int, int]:
    """Embed and store the later windows of every chunk that has none; returns (documents, windows)."""
    documents = documents_without_windows(conn)
    windows = 0
    for done, document_id in enumerate(documents, start=1):
        rows = chunks_without_windows(conn, document_id)
        later = embedder.encode_later_windows([text for _, text in rows])
        store_windows(conn, {chunk_id: own for (chunk_id, _), own in zip(rows, later, strict=True)})
        windows += sum(len(own) for own in later)
        if progress:
            progress(done, len(documents))
    return len(documents), windows
