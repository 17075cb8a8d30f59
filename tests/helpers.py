"""Small builders for synthetic documents used by store and search tests."""

from __future__ import annotations

from datetime import date

from finagent.ingest.models import Block, ParsedDocument, SourceItem, sha256_bytes


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
