"""FinanceBench page texts (``pages.jsonl.gz`` + ``documents.jsonl``): one document per doc_name.

The gzip file (~50k pages) is read once in ``discover_financebench`` and grouped by doc_name;
each document's blocks are built lazily in ``load``. Page numbers are the given 0-based PDF page
indexes, so citations match the benchmark's gold evidence pages. Pages are turned into blocks
with the PDF rules (Item sections, compacted table rows) but never merged across pages.

Metadata comes from ``documents.jsonl`` (company, doc_type, doc_period, doc_link). Page groups
that it does not list get their metadata from the doc_name (``ADOBE_2022Q2_10Q``); a group whose
text duplicates a listed document is reported as a duplicate instead of being ingested twice.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from finagent.errors import ParseError
from finagent.finance.company_registry import Company, lookup_builtin
from finagent.finance.document_records import ParsedDocument, SourceItem, sha256_bytes, unusable_item
from finagent.finance.fiscal import fiscal_period, quarter_end, quarter_label
from finagent.ingest.pdf import page_text_blocks, parse_cover
from finagent.ingest.sec.release_parts import RELEASE_FORM
from finagent.ingest.transcripts import as_utc

KIND_BY_DOC_TYPE = {
    "10k": "10-K",
    "10q": "10-Q",
    "8k": "8-K",
    "earnings": "earnings_release",
    "10k_annualreport": "annual_report",
    "annualreport": "annual_report",
}
_KIND_LABEL = {"earnings_release": "earnings release", "annual_report": "annual report"}
_NAME_QUARTER = re.compile(r"_(\d{4})Q([1-4])(?:_|$)", re.I)
_NAME_DATE = re.compile(r"(\d{4}-\d{2}-\d{2})")
_NAME_PARTS = re.compile(
    r"^(?P<who>.+?)_(?:(?P<year>\d{4})(?:Q(?P<q>[1-4]))?_)?(?P<type>10K|10Q|8K|EARNINGS|annualreport)", re.I
)
_PAGE_SEPARATOR = "\f"  # between page texts when hashing a document


@dataclass(slots=True)
class _Doc:
    """A doc_name's pages plus whatever metadata describes it."""

    name: str
    pages: list[tuple[int, str]] = field(default_factory=list)
    company: str | None = None
    doc_type: str | None = None
    doc_period: int | None = None
    doc_link: str | None = None
    listed: bool = False


def discover_financebench(pages_path: Path, documents_path: Path | None = None) -> list[SourceItem]:
    """One SourceItem per FinanceBench document; the pages file is read once, here."""
    pages_path = Path(pages_path)
    if documents_path is None:
        beside = pages_path.with_name("documents.jsonl")
        documents_path = beside if beside.is_file() else None
    docs: dict[str, _Doc] = {}
    try:
        if documents_path is not None:
            _read_listing(Path(documents_path), docs)
        _read_pages(pages_path, docs)
    except (OSError, EOFError, ValueError, KeyError, TypeError) as exc:
        failed = documents_path if documents_path and not docs else pages_path
        return [
            unusable_item(
                str(failed), f"unreadable FinanceBench file: {type(exc).__name__}: {exc}", kind_hint="other"
            )
        ]
    return _items(docs, pages_path)


def _read_listing(documents_path: Path, docs: dict[str, _Doc]) -> None:
    """The documents ``documents.jsonl`` lists, with their metadata, into ``docs``."""
    for row in _jsonl(documents_path, gz=False):
        name = str(row["doc_name"])
        docs[name] = _Doc(
            name=name,
            company=row.get("company"),
            doc_type=row.get("doc_type"),
            doc_period=int(row["doc_period"]) if row.get("doc_period") is not None else None,
            doc_link=row.get("doc_link"),
            listed=True,
        )


def _read_pages(pages_path: Path, docs: dict[str, _Doc]) -> None:
    """Each page onto its document in ``docs`` (an unlisted one takes its metadata from its pages)."""
    for row in _jsonl(pages_path, gz=pages_path.suffix == ".gz"):
        name = str(row["doc_name"])
        doc = docs.get(name)
        if doc is None:
            doc = docs[name] = _Doc(name=name)
        if not doc.listed:
            doc.company = doc.company or row.get("company")
            doc.doc_type = doc.doc_type or row.get("doc_type")
            if doc.doc_period is None and row.get("doc_period") is not None:
                doc.doc_period = int(row["doc_period"])
        doc.pages.append((int(row["page"]), str(row.get("text") or "")))


def _items(docs: dict[str, _Doc], pages_path: Path) -> list[SourceItem]:
    """A loadable item per document with pages; one listed without pages fails, and an unlisted one
    whose pages repeat a listed document's is skipped as its duplicate."""
    digests: dict[str, str] = {}
    for doc in docs.values():
        doc.pages.sort()
        if doc.listed and doc.pages:
            digests.setdefault(_digest(doc), doc.name)
    items: list[SourceItem] = []
    for doc in docs.values():
        uri = f"{pages_path}#{doc.name}"
        if not doc.pages:
            items.append(unusable_item(uri, "listed in documents.jsonl but has no pages", kind_hint="other"))
        elif not doc.listed and digests.get(_digest(doc)) not in (None, doc.name):
            items.append(
                unusable_item(
                    uri,
                    f"duplicate of {digests[_digest(doc)]} (same page texts)",
                    kind_hint="other",
                    skip=True,
                )
            )
        else:
            items.append(SourceItem(uri=uri, load=_loader(doc, uri), kind_hint=_kind(doc)))
    return items


def _jsonl(path: Path, *, gz: bool) -> Any:
    opener = gzip.open if gz else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def _digest(doc: _Doc) -> str:
    return sha256_bytes(_PAGE_SEPARATOR.join(text for _, text in doc.pages).encode("utf-8"))


def _loader(doc: _Doc, uri: str) -> Callable[[], ParsedDocument]:
    def load() -> ParsedDocument:
        try:
            return _build(doc, uri)
        except ParseError:
            raise
        except Exception as exc:  # report as this document's failure, never crash the run
            raise ParseError(uri, f"{type(exc).__name__}: {exc}") from exc

    return load


# The kinds whose parts the page readers know: the forms' Items, a release's own headings.
PART_FORMS = {"10-K": "10-K", "10-Q": "10-Q", "8-K": "8-K", "earnings_release": RELEASE_FORM}


def _kind(doc: _Doc) -> str:
    if doc.doc_type:
        return KIND_BY_DOC_TYPE.get(doc.doc_type.lower(), "other")
    m = _NAME_PARTS.match(doc.name)
    if m:
        return KIND_BY_DOC_TYPE.get(m.group("type").lower(), "other")
    return "other"


def _build(doc: _Doc, uri: str) -> ParsedDocument:
    metadata: dict[str, Any] = {"doc_name": doc.name, "source": "financebench", "chunking": "pages"}
    company_label = doc.company
    fiscal_year = doc.doc_period
    parts = _NAME_PARTS.match(doc.name)
    if not doc.listed:
        metadata["metadata_from_doc_name"] = True
        if parts:
            company_label = company_label or parts.group("who").replace("_", " ")
            if fiscal_year is None and parts.group("year"):
                fiscal_year = int(parts.group("year"))
    if not company_label:
        raise ParseError(uri, "no company for this document")
    company = lookup_builtin(company_label) or lookup_builtin(company_label.replace(" ", ""))
    if company is None:
        raise ParseError(uri, f"company {company_label!r} is not a known company (no ticker)")
    kind = _kind(doc)
    fye = company.fiscal_year_end_month
    quarter_match = _NAME_QUARTER.search(doc.name)
    fiscal_quarter = int(quarter_match.group(2)) if quarter_match and kind != "10-K" else None
    if quarter_match and fiscal_year is None:
        fiscal_year = int(quarter_match.group(1))
    fiscal_year, fiscal_quarter, period_end, published = _dated(
        doc, kind, company, fiscal_year, fiscal_quarter, metadata
    )
    blocks = page_text_blocks(doc.pages, PART_FORMS.get(kind))
    if not blocks:
        raise ParseError(uri, "all pages are empty")
    label = _KIND_LABEL.get(kind, kind)
    when = (
        period_end.isoformat() if kind == "8-K" and period_end else quarter_label(fiscal_year, fiscal_quarter)
    )
    digest = _digest(doc)
    return ParsedDocument(
        kind=kind,
        title=f"{company_label} {label} {when}",
        source_uri=doc.doc_link or uri,
        content_sha256=digest,
        blocks=blocks,
        ticker=company.ticker,
        company_name=company.name,
        fiscal_year=fiscal_year,
        fiscal_quarter=fiscal_quarter,
        period_end=period_end,
        published_at=published,
        fiscal_year_end_month=fye,
        metadata=metadata,
        chunking="pages",
    )


def _dated(
    doc: _Doc,
    kind: str,
    company: Company,
    fiscal_year: int | None,
    fiscal_quarter: int | None,
    metadata: dict[str, Any],
) -> tuple[int | None, int | None, date | None, datetime | None]:
    """(fiscal year, quarter, period end, published): an 8-K by its event date, a report by its
    cover's period (the benchmark's year label kept for a listed document), else the nominal end
    of the labelled period; ``metadata`` notes where each came from."""
    fye = company.fiscal_year_end_month
    cover = parse_cover("\n".join(text for _, text in doc.pages[:2]))
    period_end: date | None = None
    published = None
    if kind == "8-K":
        m = _NAME_DATE.search(doc.name)
        event = date.fromisoformat(m.group(1)) if m else cover.event_date
        if event:
            period_end = event
            published = as_utc(event)
            metadata["event_date"] = event.isoformat()
    elif kind in ("10-K", "10-Q", "annual_report") and cover.period_end and cover.form:
        period_end = cover.period_end
        metadata["period_end_source"] = "cover"
        derived_year, derived_quarter = fiscal_period(cover.period_end, fye, company.fiscal_year_offset)
        if not doc.listed:  # no benchmark label to respect: the cover is the best evidence
            fiscal_year = derived_year
            fiscal_quarter = derived_quarter if kind == "10-Q" else None
        elif fiscal_year is not None and derived_year != fiscal_year:
            metadata["cover_fiscal_year"] = derived_year  # doc_period is the benchmark's label
        if kind == "10-Q" and fiscal_quarter is None:
            fiscal_quarter = derived_quarter
    if period_end is None and fiscal_year is not None and kind != "8-K":
        period_end = quarter_end(fiscal_year, fiscal_quarter or 4, fye, company.fiscal_year_offset)
        metadata["period_end_nominal"] = True
    return fiscal_year, fiscal_quarter, period_end, published
