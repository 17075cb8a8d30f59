"""Deleting documents or a whole company from the store, with everything stored from them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg

from finagent.db.documents import record_event
from finagent.resources import read_sql


@dataclass(slots=True)
class Removal:
    """What a removal deleted; ``documents`` are the current (or named) ones, ``earlier`` the older
    versions and superseded copies that went with them."""

    documents: int = 0
    earlier: int = 0
    chunks: int = 0
    facts: int = 0
    derived: int = 0
    tickers: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """'removed 1 document (139 chunks, 412 facts)': the line the CLI prints."""
        text = f"removed {self.documents:,} document{'' if self.documents == 1 else 's'}"
        if self.earlier:
            text += f" with {self.earlier:,} earlier cop{'y' if self.earlier == 1 else 'ies'}"
        counts = f"{self.chunks:,} chunks, {self.facts:,} facts"
        if self.derived:
            counts += f", {self.derived:,} derived facts"
        return f"{text} ({counts})"


def named_documents(
    conn: psycopg.Connection[Any],
    *,
    document_id: int | None = None,
    sources: Sequence[str] = (),
    ticker: str | None = None,
) -> list[int]:
    """Ids of the documents stored with this id, from one of these sources, or of this company."""
    params = {"id": document_id, "sources": list(sources), "ticker": ticker}
    return [int(row[0]) for row in conn.execute(read_sql("queries/removal_named.sql"), params)]


def delete_documents(conn: psycopg.Connection[Any], named: Sequence[int], *, ticker: str | None) -> Removal:
    """Delete the named documents, their earlier versions and superseded copies, their chunks and
    facts, and derived facts computed from them (all of ``ticker``'s when a company is removed).

    Runs in the caller's transaction; the caller recomputes the derived facts of what remains.
    """
    targets = conn.execute(
        read_sql("queries/removal_targets.sql"), {"ids": list(named), "company": ticker is not None}
    ).fetchall()
    ids = [int(row[0]) for row in targets]
    params = {"ids": ids, "ticker": ticker}
    counts = conn.execute(read_sql("queries/removal_counts.sql"), params).fetchone()
    assert counts is not None
    conn.execute(read_sql("queries/remove_derived_facts.sql"), params)
    conn.execute(read_sql("queries/remove_documents.sql"), params)
    if ticker is not None:
        conn.execute(read_sql("queries/remove_company.sql"), params)
    for document_id, _, source_uri, sha256, _ in targets:
        record_event(
            conn, source_uri, "removed", content_sha256=sha256, details={"removed_document_id": document_id}
        )
    documents = sum(1 for row in targets if row[4])
    return Removal(
        documents=documents,
        earlier=len(ids) - documents,
        chunks=int(counts[0]),
        facts=int(counts[1]),
        derived=int(counts[2]),
        tickers=sorted({str(row[1]) for row in targets if row[1]}),
    )
