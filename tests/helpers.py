"""Small builders for synthetic documents used by store and search tests."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterable
from datetime import date
from functools import cache
from pathlib import Path

import pytest

from finagent.finance.documents import Block, ChunkDraft, ParsedDocument, SourceItem, sha256_bytes
from finagent.ingest.chunking import chunk_pages
from finagent.ingest.pdf import page_text_blocks


def make_doc(
    ticker: str,
    kind: str,
    fiscal_year: int,
    fiscal_quarter: int | None,
    blocks: list[Block],
    *,
    source_uri: str | None = None,
    period_end: date | None = None,
) -> ParsedDocument:
    body = "\n".join(b.text for b in blocks)
    return ParsedDocument(
        kind=kind,
        title=f"{ticker} {kind} {fiscal_year} Q{fiscal_quarter}",
        source_uri=source_uri or f"test://{ticker}/{kind}/{fiscal_year}/{fiscal_quarter}",
        content_sha256=sha256_bytes(f"{ticker}{kind}{fiscal_year}{fiscal_quarter}{body}".encode()),
        blocks=blocks,
        ticker=ticker,
        company_name=f"{ticker} Corp",
        fiscal_year=fiscal_year,
        fiscal_quarter=fiscal_quarter,
        period_end=period_end,
    )


def item(doc: ParsedDocument) -> SourceItem:
    return SourceItem(uri=doc.source_uri, load=lambda: doc)


def financebench_page_chunks(pages: Iterable[tuple[str, int]]) -> dict[tuple[str, int], ChunkDraft]:
    """The first page chunk of each (doc_name, page) of the shared FinanceBench pages, chunked as the
    corpus build does; the test is skipped when the shared data (or a page) is missing."""
    wanted = frozenset(pages)
    texts = _financebench_texts(wanted)
    missing = sorted(wanted - texts.keys())
    if missing:
        pytest.skip(f"pages {missing} are not in the shared FinanceBench pages")
    return {key: chunk_pages(page_text_blocks([(key[1], text)], "10-K"))[0] for key, text in texts.items()}


@cache
def _financebench_texts(wanted: frozenset[tuple[str, int]]) -> dict[tuple[str, int], str]:
    from tests.conftest import require_shared

    path = require_shared("financebench", "pages.jsonl.gz")
    found: dict[tuple[str, int], str] = {}
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if (row["doc_name"], row["page"]) in wanted:
                found[(row["doc_name"], row["page"])] = row["text"]
    return found


def link_filings_slice(source: Path, folder: Path, files: Iterable[str]) -> Path:
    """A folder of symlinks to some filings of ``source`` with the matching manifest entries.

    Tests ingest a few real filings without copying ../shared data.
    """
    wanted = set(files)
    manifest = [e for e in json.loads((source / "manifest.json").read_text()) if e["file"] in wanted]
    for entry in manifest:
        os.symlink(source / entry["file"], folder / entry["file"])
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder
