"""`finagent db remove`: a document (by id or source path) or a company out of the store, in one
transaction, derived facts of what remains recomputed."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import psycopg

from finagent.db.removal import Removal, delete_documents, named_documents
from finagent.errors import FinagentError
from finagent.ingest.facts_upkeep import refresh_company_facts

_SEE_IDS = "(`finagent db documents` lists the ids and sources)"


def source_candidates(source: str) -> list[str]:
    """How a path may have been stored: as given, absolute, or resolved (links followed)."""
    path = Path(source).expanduser()
    return sorted({source, str(path), os.path.abspath(path), str(path.resolve())})


def remove_from_store(
    conn: psycopg.Connection[Any],
    *,
    document_id: int | None = None,
    source: str | None = None,
    ticker: str | None = None,
) -> Removal:
    """Remove one document (by id or by the source it was read from) or a company (``ticker``).

    Raises FinagentError, removing nothing, when nothing matches.
    """
    if sum(x is not None for x in (document_id, source, ticker)) != 1:
        raise FinagentError("give one of: a document id, a source path, or --ticker")
    ticker = ticker.strip().upper() if ticker is not None else None
    sources = source_candidates(source) if source is not None else []
    with conn.transaction():
        named = named_documents(conn, document_id=document_id, sources=sources, ticker=ticker)
        if not named:
            if document_id is not None:
                raise FinagentError(f"no document with id {document_id} in the store {_SEE_IDS}")
            if source is not None:
                raise FinagentError(f"no document stored from '{source}' {_SEE_IDS}")
            raise FinagentError(f"no documents for ticker '{ticker}' in the store {_SEE_IDS}")
        removal = delete_documents(conn, named, ticker=ticker)
        remaining = [t for t in removal.tickers if t != ticker]
        if remaining:
            refresh_company_facts(conn, remaining)
    return removal
