"""Small builders for synthetic documents used by store and search tests."""

from __future__ import annotations

import ast
import gzip
import json
import os
from collections.abc import Iterable
from datetime import date
from functools import cache
from pathlib import Path

import pytest

from finagent.finance.document_records import Block, ChunkDraft, ParsedDocument, SourceItem, sha256_bytes
from finagent.finance.fact_records import Fact, StoredFact
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


def as_stored(facts: Iterable[Fact], ticker: str, filing_key: str) -> list[StoredFact]:
    """Parsed facts as the store returns them (one filing), for the lookup that answers questions."""
    return [
        StoredFact(
            id=i,
            ticker=ticker,
            concept=f.concept,
            value=f.value,
            unit=f.unit,
            decimals=f.decimals,
            period_start=f.period_start,
            period_end=f.period_end,
            duration=f.duration,
            fiscal_year=f.fiscal_year,
            fiscal_quarter=f.fiscal_quarter,
            dims_key=";".join(f"{a}={m}" for a, m in f.dimensions),
            filing_key=filing_key,
        )
        for i, f in enumerate(facts)
    ]


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


# -- plain-HTML 8-Ks (no XBRL) as sec-edgar-downloader and a user's folder hold them ----------------
def plain_8k(
    *,
    company: str = "Apple Inc.",
    symbol: str | None = "AAPL",
    day: str | None = "December 2, 2024",
    item: str = "Item 8.01 Other Events.",
    body: str = "On December 2, 2024, Apple Inc. announced the opening of its Orchard research campus "
    "in Austin and a new supplier code of conduct.",
) -> str:
    """A plain-HTML 8-K: cover (registrant, date of report, trading symbol table) and one Item."""
    dated = f"<p>Date of Report (Date of earliest event reported): {day}</p>" if day else ""
    symbols = (
        "<table><tr><td>Title of each class</td><td>Trading Symbol(s)</td>"
        "<td>Name of each exchange on which registered</td></tr>"
        f"<tr><td>Common Stock, $0.00001 par value per share</td><td>{symbol}</td>"
        "<td>The Nasdaq Stock Market LLC</td></tr></table>"
        if symbol
        else ""
    )
    return (
        "<html><body><p>UNITED STATES</p><p>SECURITIES AND EXCHANGE COMMISSION</p>"
        "<p>Washington, D.C. 20549</p><p>FORM 8-K</p><p>CURRENT REPORT</p>"
        "<p>Pursuant to Section 13 OR 15(d) of The Securities Exchange Act of 1934</p>"
        f"{dated}<p><b>{company}</b></p><p>(Exact name of Registrant as specified in its charter)</p>"
        "<table><tr><td>California</td><td>001-36743</td><td>94-2404110</td></tr>"
        "<tr><td>(State or other jurisdiction of incorporation)</td><td>(Commission File Number)</td>"
        "<td>(I.R.S. Employer Identification No.)</td></tr></table>"
        f"{symbols}<p>{item}</p><p>{body}</p><p>SIGNATURES</p></body></html>"
    )


def full_submission(html: str, *, accession: str, company: str, cik: str, period: str, filed: str) -> str:
    """An EDGAR full-submission.txt: SGML header, then the 8-K as its only document."""
    return (
        f"<SEC-DOCUMENT>{accession}.txt : {filed}\n<SEC-HEADER>{accession}.hdr.sgml : {filed}\n"
        f"ACCESSION NUMBER:\t\t{accession}\nCONFORMED SUBMISSION TYPE:\t8-K\nPUBLIC DOCUMENT COUNT:\t\t1\n"
        f"CONFORMED PERIOD OF REPORT:\t{period}\nFILED AS OF DATE:\t\t{filed}\n\nFILER:\n\n"
        f"\tCOMPANY DATA:\t\n\t\tCOMPANY CONFORMED NAME:\t\t\t{company}\n"
        f"\t\tCENTRAL INDEX KEY:\t\t\t{cik}\n\t\tFISCAL YEAR END:\t\t\t0928\n</SEC-HEADER>\n"
        f"<DOCUMENT>\n<TYPE>8-K\n<SEQUENCE>1\n<FILENAME>primary.htm\n<TEXT>\n{html}\n</TEXT>\n</DOCUMENT>\n"
        "</SEC-DOCUMENT>\n"
    )


def write_edgar_8k(root: Path) -> Path:
    """sec-edgar-filings/AAPL/8-K/0000320193-24-000123/full-submission.txt: Apple's 8-K of Dec 2, 2024
    (the header says so, and so does the plain-HTML cover inside it). Returns the submission."""
    folder = root / "sec-edgar-filings" / "AAPL" / "8-K" / "0000320193-24-000123"
    folder.mkdir(parents=True)
    path = folder / "full-submission.txt"
    text = full_submission(
        plain_8k(),
        accession="0000320193-24-000123",
        company="Apple Inc.",
        cik="0000320193",
        period="20241202",
        filed="20241203",
    )
    path.write_text(text, encoding="utf-8")
    return path


def called_name(call: ast.Call) -> str:
    """The name a call calls: ``f`` of ``f(...)`` and of ``x.f(...)``; "" for anything else."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""
