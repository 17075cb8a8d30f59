"""Writes of the ingestion pipeline: documents with their chunks (atomically), events, companies."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import numpy as np
import psycopg
from pgvector import HalfVector
from psycopg.types.json import Jsonb

from finagent.db.facts import restore_document_facts, supersede_document_facts, write_facts
from finagent.finance.document_records import ChunkDraft, ParsedDocument
from finagent.finance.fact_records import Filing
from finagent.resources import read_sql

_COPY_TYPES = [
    "bigint",
    "integer",
    "text",
    "text",
    "integer",
    "smallint",
    "date",
    "text",
    "text",
    "integer",
    "integer",
    "integer",
    "boolean",
    "text",
    "text",
    "jsonb",
    "halfvec",
    "text",
]


def clean_text(value: str | None) -> str | None:
    """PostgreSQL text cannot hold NUL characters; binary junk must not abort a document."""
    if value is None:
        return None
    return value.replace("\x00", "")


def clean_json(value: Any) -> Any:
    """JSON for a jsonb column: NUL characters removed from every string (PostgreSQL rejects them)."""
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, dict):
        return {clean_json(k): clean_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean_json(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class StoredIdentity:
    """What the store says a document is: the fields a new reading of the same file may change."""

    document_id: int
    kind: str
    ticker: str | None
    company_name: str | None
    fiscal_year: int | None
    fiscal_quarter: int | None
    period_end: date | None
    published_at: datetime | None
    title: str
    chunk_count: int = 0


IDENTITY_FIELDS = ("kind", "ticker", "company_name", "fiscal_year", "fiscal_quarter", "period_end", "title")


def stored_identity(conn: psycopg.Connection[Any], content_sha256: str) -> StoredIdentity | None:
    """The current document with this content, or None when it is not stored (or only superseded)."""
    row = conn.execute(read_sql("queries/stored_identity.sql"), {"content_sha256": content_sha256}).fetchone()
    return None if row is None else StoredIdentity(int(row[0]), *row[1:])


def identity_changes(stored: StoredIdentity, doc: ParsedDocument) -> dict[str, list[Any]]:
    """Field -> [stored, new] for every identity field the new reading changes. A filing date the new
    reading lacks keeps the stored one (it is never blanked)."""
    changes = {
        name: [getattr(stored, name), getattr(doc, name)]
        for name in IDENTITY_FIELDS
        if getattr(stored, name) != (clean_text(doc.title) if name == "title" else getattr(doc, name))
    }
    if doc.published_at is not None and doc.published_at != stored.published_at:
        changes["published_at"] = [stored.published_at, doc.published_at]
    return changes


def update_identity(
    conn: psycopg.Connection[Any],
    stored: StoredIdentity,
    doc: ParsedDocument,
    *,
    uri: str,
    changes: dict[str, list[Any]],
    fact_chunks: list[int | None] | None = None,
) -> None:
    """New metadata for a stored document, in one transaction: its row, the filter columns of its
    chunks, its company, and its facts when the filing they belong to changed (the old rows are kept,
    superseded, for citations recorded earlier)."""
    params = {"document_id": stored.document_id, **_identity_params(doc)}
    with conn.transaction():
        params["filing_key"] = key = filing_key(conn, doc)
        conn.execute(read_sql("queries/update_document_identity.sql"), params)
        conn.execute(read_sql("queries/update_chunk_identity.sql"), params)
        # Now known as a filing another stored copy is of: this copy becomes that filing's current one.
        has_text = stored.chunk_count > 0
        supersede_copies(conn, stored.document_id, key, has_text=has_text, has_facts=bool(doc.facts))
        if doc.facts and doc.ticker and changes.keys() & {"ticker", "kind", "period_end", "published_at"}:
            supersede_document_facts(conn, [stored.document_id])
            ordinals = fact_chunks if fact_chunks is not None else [None] * len(doc.facts)
            write_facts(conn, stored.document_id, filing_of(doc), doc.facts, ordinals)
        upsert_company(conn, doc)
        record_event(
            conn,
            uri,
            "updated",
            content_sha256=doc.content_sha256,
            document_id=stored.document_id,
            details={"changed": {k: [_json(v) for v in pair] for k, pair in changes.items()}},
        )


def _json(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date | datetime) else value


def _identity_params(doc: ParsedDocument) -> dict[str, Any]:
    return {
        "kind": doc.kind,
        "ticker": doc.ticker,
        "company_name": clean_text(doc.company_name),
        "fiscal_year": doc.fiscal_year,
        "fiscal_quarter": doc.fiscal_quarter,
        "period_end": doc.period_end,
        "published_at": doc.published_at,
        "title": clean_text(doc.title) or doc.source_uri,
        "metadata": Jsonb(clean_json(doc.metadata)),
    }


def is_kept_copy(conn: psycopg.Connection[Any], content_sha256: str) -> bool:
    """True when this content is stored but superseded and not restorable: an earlier copy of a
    filing whose newer copy from another source is current (see restore_version.sql)."""
    row = conn.execute(read_sql("queries/stored_content.sql"), {"content_sha256": content_sha256}).fetchone()
    return row is not None


def stored_contents(conn: psycopg.Connection[Any]) -> set[str]:
    """Every content hash stored, current or not (what an ingest need not embed again)."""
    return {str(row[0]) for row in conn.execute(read_sql("queries/stored_contents.sql"))}


def supersede_versions(conn: psycopg.Connection[Any], source_uri: str, content_sha256: str) -> list[int]:
    """Mark the other current versions of ``source_uri`` superseded (kept, but out of every search)."""
    ids = [
        int(row[0])
        for row in conn.execute(
            read_sql("queries/supersede_previous_versions.sql"),
            {"source_uri": source_uri, "content_sha256": content_sha256},
        )
    ]
    if ids:
        conn.execute(read_sql("queries/supersede_chunks.sql"), {"document_ids": ids})
        supersede_document_facts(conn, ids)
    return ids


FILING_KINDS = ("10-K", "10-Q", "8-K")
"""Document kinds that are SEC filings: one filing is one document, whatever copies of it arrive."""


def base_filing_key(doc: ParsedDocument) -> str | None:
    """ "<ticker>|<FORM>|<period end>" of a filing (the key its facts carry); None for what is not a
    dated filing of a known company (news, transcripts, an undated or unattributed file)."""
    if doc.kind not in FILING_KINDS or not doc.ticker or doc.period_end is None:
        return None
    return filing_of(doc).key


def filing_key(conn: psycopg.Connection[Any], doc: ParsedDocument) -> str | None:
    """The key this document's filing is stored under: that of a stored copy with the same accession
    number, else the base key, unless the copies there name another accession number (two 8-Ks of
    one day are two filings), then the base key with this accession number."""
    base = base_filing_key(doc)
    if base is None:
        return None
    accession = doc.metadata.get("accession") or None
    rows = conn.execute(
        read_sql("queries/filing_key_match.sql"), {"base_key": base, "accession": accession}
    ).fetchall()
    if accession is not None:
        same = next((str(key) for key, other in rows if other == accession), None)
        if same is not None:
            return same
        others = {other for key, other in rows if key == base and other}
        if others and accession not in others:
            return f"{base}|{accession}"
    return base


def supersede_copies(
    conn: psycopg.Connection[Any], document_id: int, key: str | None, *, has_text: bool, has_facts: bool
) -> list[int]:
    """Make ``document_id`` its filing's current document; returns the copies it supersedes.

    The filing's text comes from its newest copy with text and its facts from its newest copy with
    facts: an XBRL instance (no text) arriving after the iXBRL takes over the facts while the
    iXBRL's text stays searchable; a PDF (no facts) takes over the text, the facts stay. Whatever
    the new copy holds, the older copies' same part leaves every search (never counted twice).
    """
    if key is None:
        return []
    params = {"filing_key": key, "document_id": document_id}
    ids = [int(row[0]) for row in conn.execute(read_sql("queries/supersede_filing_copies.sql"), params)]
    if has_text:
        conn.execute(read_sql("queries/supersede_filing_chunks.sql"), params)
    if has_facts:
        conn.execute(read_sql("queries/supersede_filing_facts.sql"), params)
    return ids


def restore_version(conn: psycopg.Connection[Any], content_sha256: str) -> tuple[int, list[int]] | None:
    """Make a superseded version with this content current again; None when there is none.

    Returns (restored document id, ids it superseded). One transaction: no moment with two or no
    current versions.
    """
    with conn.transaction():
        row = conn.execute(
            read_sql("queries/restore_version.sql"), {"content_sha256": content_sha256}
        ).fetchone()
        if row is None:
            return None
        document_id, source_uri, key = int(row[0]), str(row[1]), row[2]
        replaced = supersede_versions(conn, source_uri, content_sha256)
        replaced += supersede_copies(conn, document_id, key, has_text=bool(row[3]), has_facts=bool(row[4]))
        conn.execute("UPDATE chunks SET superseded = false WHERE document_id = %s", (document_id,))
        restore_document_facts(conn, document_id)
    return document_id, replaced


def record_event(
    conn: psycopg.Connection[Any],
    source_uri: str,
    state: str,
    *,
    content_sha256: str | None = None,
    document_id: int | None = None,
    reason: str | None = None,
    details: dict[str, Any] | None = None,
) -> None:
    conn.execute(
        read_sql("queries/insert_event.sql"),
        {
            "document_id": document_id,
            "source_uri": source_uri,
            "content_sha256": content_sha256,
            "state": state,
            "reason": clean_text(reason),
            "details": Jsonb(details or {}),
        },
    )


def upsert_company(conn: psycopg.Connection[Any], doc: ParsedDocument) -> None:
    if not doc.ticker:
        return
    aliases = [doc.company_name] if doc.company_name else []
    conn.execute(
        read_sql("queries/upsert_company.sql"),
        {
            "ticker": doc.ticker,
            "name": doc.company_name,
            "aliases": aliases,
            "fiscal_year_end_month": doc.fiscal_year_end_month,
            "fiscal_year_offset": doc.metadata.get("fiscal_year_offset"),
            "cik": doc.metadata.get("cik"),
        },
    )


def filing_of(doc: ParsedDocument) -> Filing:
    """The report a document is a copy of: the same 10-K as iXBRL and as an XBRL instance is one."""
    form = str(doc.metadata.get("form") or doc.kind)
    return Filing(
        ticker=doc.ticker or "",
        form=form,
        period_end=doc.period_end,
        cik=doc.metadata.get("cik"),
        filed=doc.published_at.date() if doc.published_at else None,
    )


def write_document(
    conn: psycopg.Connection[Any],
    doc: ParsedDocument,
    chunks: list[ChunkDraft],
    embeddings: np.ndarray,
    *,
    uri: str,
    fact_chunks: list[int | None] | None = None,
) -> tuple[int, list[int]]:
    """Store one document, all its chunks and its XBRL facts in a single transaction.

    ``fact_chunks`` gives, per fact of ``doc.facts``, the ordinal of the chunk displaying it.

    Returns (new document id, ids of the versions it supersedes; they are kept for audits). Either
    everything is stored or nothing is: a crash mid-way leaves no partial document behind.
    """
    if len(chunks) != len(embeddings):
        raise ValueError("one embedding per chunk is required")
    with conn.transaction():
        replaced = supersede_versions(conn, doc.source_uri, doc.content_sha256)
        key = filing_key(conn, doc)
        document_id = _insert_document(conn, doc, len(chunks), key)
        _copy_chunks(conn, document_id, doc, chunks, embeddings)
        has_facts = bool(doc.facts and doc.ticker)
        if has_facts:
            ordinals = fact_chunks if fact_chunks is not None else [None] * len(doc.facts)
            write_facts(conn, document_id, filing_of(doc), doc.facts, ordinals)
        copies = supersede_copies(conn, document_id, key, has_text=bool(chunks), has_facts=has_facts)
        upsert_company(conn, doc)
        _record_replaced(conn, uri, doc, replaced, copies, key)
        replaced += copies
        record_event(
            conn,
            uri,
            "ready",
            content_sha256=doc.content_sha256,
            document_id=document_id,
            details={"chunks": len(chunks), "facts": len(doc.facts)},
        )
    return document_id, replaced


def _insert_document(
    conn: psycopg.Connection[Any], doc: ParsedDocument, chunk_count: int, key: str | None
) -> int:
    row = conn.execute(
        read_sql("queries/insert_document.sql"),
        {
            **_identity_params(doc),
            "source_uri": doc.source_uri,
            "content_sha256": doc.content_sha256,
            "chunk_count": chunk_count,
            "filing_key": key,
        },
    ).fetchone()
    assert row is not None
    return int(row[0])


def _copy_chunks(
    conn: psycopg.Connection[Any],
    document_id: int,
    doc: ParsedDocument,
    chunks: list[ChunkDraft],
    embeddings: np.ndarray,
) -> None:
    """The chunks and their vectors in one COPY, each with the document's identity for filtering."""
    with conn.cursor() as cur, cur.copy(read_sql("queries/copy_chunks.sql")) as copy:
        copy.set_types(_COPY_TYPES)
        for chunk, vector in zip(chunks, embeddings, strict=True):
            copy.write_row(
                (
                    document_id,
                    chunk.ordinal,
                    doc.ticker,
                    doc.kind,
                    doc.fiscal_year,
                    doc.fiscal_quarter,
                    doc.period_end,
                    chunk.section,
                    clean_text(chunk.section_title),
                    chunk.page,
                    chunk.char_start,
                    chunk.char_end,
                    chunk.is_table,
                    chunk.statement,
                    clean_text(chunk.text),
                    Jsonb(clean_json(chunk.metadata)),
                    HalfVector(vector),  # the column is halfvec(384) (sql/011)
                    clean_text(chunk.flagged_reason),
                )
            )


def _record_replaced(
    conn: psycopg.Connection[Any],
    uri: str,
    doc: ParsedDocument,
    replaced: list[int],
    copies: list[int],
    key: str | None,
) -> None:
    """A 'replaced' event for each older version of the file and each other copy of the filing."""
    for old_id in replaced:
        record_event(
            conn,
            uri,
            "replaced",
            content_sha256=doc.content_sha256,
            details={"replaced_document_id": old_id},
        )
    for old_id in copies:
        record_event(
            conn,
            uri,
            "replaced",
            content_sha256=doc.content_sha256,
            reason="another copy of the same filing",
            details={"replaced_document_id": old_id, "filing_key": key},
        )
