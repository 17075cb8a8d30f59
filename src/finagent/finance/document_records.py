"""Data passed from parsers to the chunker and the store: plain dataclasses, no I/O."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from finagent.finance.fact_records import Fact

# Document kinds known to the store (documents.kind).
KINDS = ("10-K", "10-Q", "8-K", "earnings_release", "annual_report", "transcript", "news", "other")


@dataclass(slots=True)
class Block:
    """A contiguous piece of a document: a paragraph run or one table.

    Chunks never cross a block's section or page, so every chunk can be cited to one place.
    """

    text: str
    section: str | None = None  # e.g. "item_7"; a speaker name for transcripts
    section_title: str | None = None  # e.g. "Management's Discussion and Analysis ..."
    page: int | None = None  # 0-based page index for PDFs / page-text sources
    is_table: bool = False
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class ParsedDocument:
    """One source document with its metadata, ready to be chunked."""

    kind: str
    title: str
    source_uri: str
    content_sha256: str
    blocks: list[Block]
    ticker: str | None = None
    company_name: str | None = None
    fiscal_year: int | None = None
    fiscal_quarter: int | None = None  # None for annual documents
    period_end: date | None = None
    published_at: datetime | None = None  # filing date, call date or article date
    fiscal_year_end_month: int | None = None  # learnt from the document, fills `companies`
    metadata: dict[str, Any] = field(default_factory=dict)
    # "pages": page-text sources cited by page are packed per page (see chunking.chunk_pages)
    chunking: str = "blocks"
    # XBRL facts the document reports (iXBRL filings, XBRL instance documents); each may point at
    # the block that displays it (Fact.block_index). Stored with the document, in one transaction.
    facts: list[Fact] = field(default_factory=list)


@dataclass(slots=True)
class ChunkDraft:
    """A chunk before embedding; offsets refer to the document's text as the chunker joined it."""

    ordinal: int
    text: str
    section: str | None
    section_title: str | None
    page: int | None
    char_start: int
    char_end: int
    is_table: bool
    metadata: dict[str, Any] = field(default_factory=dict)
    statement: str | None = None  # primary financial statement a table chunk belongs to
    flagged_reason: str | None = None  # why it is never evidence (finance.untrusted); None = ordinary


def sha256_bytes(data: bytes) -> str:
    """Content hash used for idempotent ingestion (documents.content_sha256)."""
    return hashlib.sha256(data).hexdigest()


@dataclass(slots=True)
class SourceItem:
    """A discovered input, loaded lazily so one bad file is reported and skipped, not fatal.

    ``load`` returns the parsed document or raises ``finagent.errors.ParseError``.
    """

    uri: str  # file path, or "path#fragment" for one record of a multi-record file
    load: Callable[[], ParsedDocument]
    kind_hint: str = "other"


def unusable_item(uri: str, reason: str, *, kind_hint: str = "other", skip: bool = False) -> SourceItem:
    """An item known at discovery to be unusable: loading it reports ``reason`` (skipped or failed)."""
    from finagent.errors import ParseError, SkipDocument

    error = SkipDocument if skip else ParseError

    def load() -> ParsedDocument:
        raise error(uri, reason)

    return SourceItem(uri=uri, load=load, kind_hint=kind_hint)
