"""Ingestion pipeline: load → chunk → embed (batched across documents) → store atomically.

Each document is written in its own transaction, so a crash leaves only whole documents; content
already stored (same sha256) is a no-op, so a rerun resumes where the last one stopped.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import psycopg

from finagent.db import Database
from finagent.db.chunks import vacuum_chunks
from finagent.db.companies import listed_company, stored_ticker_of_cik
from finagent.db.documents import (
    StoredIdentity,
    identity_changes,
    is_kept_copy,
    record_event,
    restore_version,
    stored_identity,
    update_identity,
    write_document,
)
from finagent.embeddings import Embedder
from finagent.errors import FinagentError, ParseError, SkipDocument
from finagent.finance.document_records import ChunkDraft, ParsedDocument, SourceItem
from finagent.finance.read.statement_titles import classify_statement
from finagent.finance.untrusted import Classifier
from finagent.ingest.chunking import chunk_blocks, chunk_pages
from finagent.ingest.fact_sources import fact_chunk_ordinals
from finagent.ingest.facts_upkeep import refresh_company_facts
from finagent.ingest.parts_upkeep import refresh_parts
from finagent.ingest.screening import flag_blocks, flag_chunks, load_classifier
from finagent.ingest.sec_companies import cik_symbol
from finagent.settings import Settings

log = logging.getLogger(__name__)

# stage name ("parse" | "embed" | "store"), units done, units total (None if unknown)
ProgressCallback = Callable[[str, int, int | None], None]


@dataclass(slots=True)
class IngestReport:
    """What an ingest run did; the CLI prints it as the summary table."""

    documents: int = 0
    chunks: int = 0
    flagged: int = 0  # chunks stored flagged: text addressed to AI systems or hidden (never evidence)
    facts: int = 0
    derived_facts: int = 0
    unchanged: int = 0
    updated: int = 0  # stored documents whose metadata a new reading (or new options) changed
    replaced: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, reason): not a document
    failed: list[tuple[str, str]] = field(default_factory=list)  # (path, reason)
    notes: list[tuple[str, str]] = field(default_factory=list)  # (path, note): options the file overruled
    changes: list[tuple[str, dict[str, list[Any]]]] = field(default_factory=list)  # (title, field changes)
    seconds: float = 0.0
    by_kind: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failed

    def merge(self, other: IngestReport) -> None:
        self.documents += other.documents
        self.chunks += other.chunks
        self.flagged += other.flagged
        self.facts += other.facts
        self.derived_facts += other.derived_facts
        self.unchanged += other.unchanged
        self.updated += other.updated
        self.replaced += other.replaced
        self.skipped += other.skipped
        self.failed += other.failed
        self.notes += other.notes
        self.changes += other.changes
        self.seconds += other.seconds
        for kind, count in other.by_kind.items():
            self.by_kind[kind] = self.by_kind.get(kind, 0) + count


def chunk_document(
    doc: ParsedDocument, settings: Settings, classifier: Classifier | None = None
) -> list[ChunkDraft]:
    """A parsed document's chunks as they are stored: statement labels and untrusted-text flags set."""
    flag_blocks(doc.blocks, classifier)
    chunks = (
        chunk_pages(doc.blocks, max_chars=settings.page_chunk_max, overlap=settings.chunk_overlap)
        if doc.chunking == "pages"
        else chunk_blocks(
            doc.blocks,
            chunk_size=settings.chunk_size,
            overlap=settings.chunk_overlap,
            table_max=settings.table_chunk_max,
        )
    )
    for chunk in chunks:
        if chunk.is_table or doc.chunking == "pages":  # a page chunk mixes a table with its title
            chunk.statement = classify_statement(
                chunk.text, chunk.metadata.get("caption"), require_title=doc.chunking == "pages"
            )
    flag_chunks(chunks, classifier)
    return chunks


@dataclass(slots=True)
class Loaded:
    """One input read outside the store (in this process or by an engine's worker): the parsed
    document with its chunks, or why it was skipped or failed. ``chunks`` is None when the reader
    did not chunk it (its content was already stored, so it is not embedded again)."""

    uri: str
    doc: ParsedDocument | None = None
    chunks: list[ChunkDraft] | None = None
    fact_chunks: list[int | None] = field(default_factory=list)
    skipped: str | None = None
    failed: str | None = None


def load_item(item: SourceItem) -> Loaded:
    """Parse one input; every way it can go wrong becomes a reason, never an exception (one bad file
    must not stop the others)."""
    try:
        return Loaded(item.uri, doc=item.load())
    except SkipDocument as exc:
        return Loaded(item.uri, skipped=exc.reason)
    except ParseError as exc:
        return Loaded(item.uri, failed=exc.reason)
    except FinagentError as exc:
        return Loaded(item.uri, failed=str(exc))
    except Exception as exc:  # a parser bug must not stop the other files
        log.debug("parser crashed on %s", item.uri, exc_info=True)
        return Loaded(item.uri, failed=f"unexpected parser error: {type(exc).__name__}: {exc}")


def chunk_loaded(loaded: Loaded, settings: Settings, classifier: Classifier | None = None) -> Loaded:
    """``loaded`` with its document's chunks, and the chunk displaying each of its facts."""
    if loaded.doc is None:
        return loaded
    doc = loaded.doc
    try:
        chunks = chunk_document(doc, settings, classifier)
        fact_chunks = fact_chunk_ordinals(doc.blocks, chunks, doc.facts) if doc.facts else []
    except Exception as exc:  # a chunker bug fails this document only
        log.debug("chunking failed on %s", loaded.uri, exc_info=True)
        return Loaded(loaded.uri, failed=f"unexpected chunking error: {type(exc).__name__}: {exc}")
    return Loaded(loaded.uri, doc=doc, chunks=chunks, fact_chunks=fact_chunks)


def embed_chunks(embedder: Embedder, chunks: list[ChunkDraft]) -> np.ndarray:
    """One document's chunk vectors (each chunk's depends on its text alone: ``embeddings``)."""
    return embedder.encode([chunk.text for chunk in chunks])


@dataclass(slots=True)
class Admitted:
    """A new document the store admitted: to embed and write."""

    uri: str
    doc: ParsedDocument
    chunks: list[ChunkDraft]
    fact_chunks: list[int | None] = field(default_factory=list)


class IngestPipeline:
    """Runs SourceItems into the store with batching, events and per-document atomicity."""

    def __init__(
        self,
        db: Database,
        embedder: Embedder,
        settings: Settings,
        progress: ProgressCallback | None = None,
        flush_chunks: int = 512,
    ) -> None:
        self.db = db
        self.embedder = embedder
        self.settings = settings
        self.progress = progress or (lambda stage, done, total: None)
        self.flush_chunks = flush_chunks
        self._touched: set[str] = set()  # companies whose facts changed in this run
        self.classifier = load_classifier(settings)

    def run(
        self,
        items: list[SourceItem],
        skipped: list[tuple[str, str]] | None = None,
        failed: list[tuple[str, str]] | None = None,
    ) -> IngestReport:
        report = IngestReport(skipped=list(skipped or []), failed=list(failed or []))
        started = time.perf_counter()
        pending: list[Admitted] = []
        seen: set[str] = set()
        self._touched = set()
        with self.db.connection() as conn:
            conn.autocommit = True
            for item in items:
                prepared = self._prepare(conn, item, report, seen)
                self.progress("parse", 1, len(items))
                if prepared is not None:
                    pending.append(prepared)
                if sum(len(p.chunks) for p in pending) >= self.flush_chunks:
                    self._flush(conn, pending, report)
                    pending = []
            self._flush(conn, pending, report)
            self.finish(conn, report)
        report.seconds = time.perf_counter() - started
        return report

    def _prepare(
        self, conn: psycopg.Connection[Any], item: SourceItem, report: IngestReport, seen: set[str]
    ) -> Admitted | None:
        record_event(conn, item.uri, "discovered")
        return self.admit(conn, load_item(item), report, seen)

    def admit(
        self, conn: psycopg.Connection[Any], loaded: Loaded, report: IngestReport, seen: set[str]
    ) -> Admitted | None:
        """What the store makes of a file read (here or by a worker of another engine): skipped, failed,
        unchanged, its metadata updated, an earlier version restored, or a new document to embed and
        store (returned). Chunks the document when the reader did not."""
        if loaded.skipped is not None:
            record_event(conn, loaded.uri, "skipped", reason=loaded.skipped)
            report.skipped.append((loaded.uri, loaded.skipped))
            return None
        if loaded.failed is not None or loaded.doc is None:
            self._fail(conn, loaded.uri, loaded.failed or "nothing was read", report)
            return None
        doc, uri = loaded.doc, loaded.uri
        report.notes += [(uri, note) for note in doc.metadata.get("identity_notes") or []]
        self._identify(conn, doc)
        if self._already_held(conn, uri, doc, report, seen):
            return None
        seen.add(doc.content_sha256)
        if loaded.chunks is None:
            loaded = chunk_loaded(loaded, self.settings, self.classifier)
            if loaded.failed is not None:
                self._fail(conn, uri, loaded.failed, report)
                return None
        chunks = loaded.chunks or []
        if not chunks and not doc.facts:
            self._fail(conn, uri, "no text could be extracted", report)
            return None
        record_event(
            conn,
            uri,
            "parsed",
            content_sha256=doc.content_sha256,
            details={
                "kind": doc.kind,
                "ticker": doc.ticker,
                "chunks": len(chunks),
                "facts": len(doc.facts),
                "flagged": sum(c.flagged_reason is not None for c in chunks),
            },
        )
        return Admitted(uri, doc, chunks, loaded.fact_chunks)

    def _already_held(
        self,
        conn: psycopg.Connection[Any],
        uri: str,
        doc: ParsedDocument,
        report: IngestReport,
        seen: set[str],
    ) -> bool:
        """Whether the content is held already, each case recorded and counted: the same content read
        earlier in this run, another file of stored content (its metadata restated), an earlier version
        (restored), or an earlier copy of a filing whose newer copy is stored."""
        if doc.content_sha256 in seen:
            record_event(conn, uri, "unchanged", content_sha256=doc.content_sha256)
            report.unchanged += 1
            return True
        stored = stored_identity(conn, doc.content_sha256)
        if stored is not None:
            self._restate(conn, uri, doc, stored, report)
            return True
        restored = restore_version(conn, doc.content_sha256)
        if restored is not None:  # back to an earlier version: it is still stored, with its embeddings
            record_event(
                conn,
                uri,
                "replaced",
                content_sha256=doc.content_sha256,
                reason="restored an earlier version",
            )
            report.replaced += len(restored[1])
            report.unchanged += 1
            if doc.ticker:
                self._touched.add(doc.ticker)
            return True
        if is_kept_copy(conn, doc.content_sha256):
            record_event(
                conn,
                uri,
                "unchanged",
                content_sha256=doc.content_sha256,
                reason="an earlier copy of a filing whose newer copy is stored",
            )
            report.unchanged += 1
            return True
        return False

    def _identify(self, conn: psycopg.Connection[Any], doc: ParsedDocument) -> None:
        """A filing whose text names no ticker: SEC's list of listed companies (when loaded) by the
        filing's CIK, else its registrant name; else the symbol the store already holds that CIK
        under; else the CIK itself (``CIK0001138724``), so a company no list names (delisted, never
        listed, or the list not loaded) keeps its facts under its registrant name."""
        if doc.ticker or (doc.kind not in ("10-K", "10-Q", "8-K") and not doc.facts):
            return  # (a 20-F's facts, like a 10-K's, need a company to be stored under)
        cik = doc.metadata.get("cik")
        sources = doc.metadata.setdefault("metadata_sources", {})
        listed = listed_company(conn, cik, doc.company_name)
        if listed is not None:
            doc.ticker = listed.ticker
            doc.company_name = doc.company_name or listed.name
            sources["ticker"] = "sec company list"
            return
        symbol = stored_ticker_of_cik(conn, cik) or cik_symbol(cik)
        if symbol is not None:
            doc.ticker = symbol
            sources["ticker"] = "cik"

    def _restate(
        self,
        conn: psycopg.Connection[Any],
        uri: str,
        doc: ParsedDocument,
        stored: StoredIdentity,
        report: IngestReport,
    ) -> None:
        """The same content is stored: unchanged, or its metadata updated in place (new options, a
        better reading of its cover) without re-embedding anything."""
        changes = identity_changes(stored, doc)
        parts = refresh_parts(conn, stored.document_id, doc.blocks)
        if parts is not None:
            changes["parts"] = list(parts)
        if not changes:
            record_event(conn, uri, "unchanged", content_sha256=doc.content_sha256)
            report.unchanged += 1
            return
        fact_chunks = None
        if doc.facts:  # chunked as stored, so each fact points at the chunk that displays it
            chunks = chunk_document(doc, self.settings, self.classifier)
            fact_chunks = fact_chunk_ordinals(doc.blocks, chunks, doc.facts)
        update_identity(conn, stored, doc, uri=uri, changes=changes, fact_chunks=fact_chunks)
        report.updated += 1
        report.changes.append((doc.title, changes))
        if doc.ticker:
            self._touched.add(doc.ticker)

    def _fail(self, conn: psycopg.Connection[Any], uri: str, reason: str, report: IngestReport) -> None:
        record_event(conn, uri, "failed", reason=reason)
        report.failed.append((uri, reason))
        return None

    def _flush(self, conn: psycopg.Connection[Any], pending: list[Admitted], report: IngestReport) -> None:
        if not pending:
            return
        vectors = [embed_chunks(self.embedder, p.chunks) for p in pending]
        self.progress("embed", sum(len(p.chunks) for p in pending), None)
        for p, own in zip(pending, vectors, strict=True):
            self.store(conn, p, own, report)

    def store(
        self, conn: psycopg.Connection[Any], p: Admitted, vectors: np.ndarray, report: IngestReport
    ) -> None:
        """Write one admitted document with its chunk vectors in one transaction and count it; the
        same content stored meanwhile by another ingest is unchanged, a value the database rejects
        fails this document only."""
        record_event(conn, p.uri, "embedded", content_sha256=p.doc.content_sha256)
        try:
            _, replaced = write_document(conn, p.doc, p.chunks, vectors, uri=p.uri, fact_chunks=p.fact_chunks)
        except psycopg.errors.UniqueViolation:  # a concurrent ingest stored the same content first
            record_event(conn, p.uri, "unchanged", content_sha256=p.doc.content_sha256)
            report.unchanged += 1
            return
        except (psycopg.DataError, psycopg.IntegrityError) as exc:
            reason = f"database rejected the document: {exc.diag.message_primary or exc}"
            self._fail(conn, p.uri, reason, report)
            return
        report.documents += 1
        report.chunks += len(p.chunks)
        report.flagged += sum(c.flagged_reason is not None for c in p.chunks)
        report.facts += len(p.doc.facts)
        if p.doc.ticker:
            self._touched.add(p.doc.ticker)
        report.replaced += len(replaced)
        report.by_kind[p.doc.kind] = report.by_kind.get(p.doc.kind, 0) + 1
        self.progress("store", 1, None)

    def finish(self, conn: psycopg.Connection[Any], report: IngestReport) -> None:
        """After the last document (autocommit): fresh planner statistics, then facts across
        documents: instance facts find their text, derived quarters follow the filings now stored
        (Q4 = the 10-K's year - the Q3 10-Q's nine months), once per company touched."""
        if report.documents:
            vacuum_chunks(conn)
        if self._touched:
            report.derived_facts += refresh_company_facts(conn, sorted(self._touched))
