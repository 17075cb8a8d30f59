"""Parse SEC EDGAR filings (inline XBRL / HTML) into a ParsedDocument of cited blocks.

Inputs: a loose primary document (``*.htm``/``*.html``), a sec-edgar-downloader
``full-submission.txt`` (SGML wrapper around every document of a filing) or a folder of either
(:func:`discover_edgar`).

Metadata comes from the iXBRL ``dei:`` cover facts (ticker, form, period end, fiscal year and
period, registrant name, fiscal-year end, CIK), never from file names. When facts are missing
we fall back to the SGML header of the submission and to :mod:`finagent.finance.fiscal` with the
built-in company's fiscal-year-end month.

Body text is walked in document order: block-level elements become text blocks (one per
paragraph) and each data ``<table>`` becomes one table block of compact pipe-separated rows
(``Total net sales | $94,036 | $85,777``), header rows first. Layout tables (one text cell per
row, bullets, headings) become text.

Section ids (``Block.section``), chosen so a chunk can be cited to an Item of the form:

* ``"cover"`` -- everything before the first Item heading (cover page, table of contents).
* 10-K (and other forms with unique item numbers): ``"item_<n><letter>"`` -- ``item_1``,
  ``item_1a``, ``item_7`` (MD&A), ``item_7a``, ``item_8`` (financial statements).
* 10-Q: items restart in each Part, so the Part is part of the id:
  ``"part<p>_item_<n><letter>"`` -- ``part1_item_1`` (financial statements), ``part1_item_2``
  (MD&A), ``part2_item_1a`` (risk factors).
* 8-K: ``"item_<n>_<nn>"`` -- ``item_2_02`` (results of operations).

``Block.section_title`` is the heading text (e.g. "Management's Discussion and Analysis of
Financial Condition and Results of Operations"); an all-caps or missing heading is replaced by
the standard title of that Item.

Item headings in the table of contents must not switch sections. A heading candidate is a short
text block starting with "Item N."; candidates followed by (almost) no text before the next
candidate are TOC entries and are dropped, and of the rest we keep the heaviest (by following
text) subsequence whose Item numbers never decrease, which drops a stray last TOC entry.
"""

from __future__ import annotations

import functools
import logging
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lxml import etree
from lxml import html as lxml_html

from finagent.errors import ParseError
from finagent.finance.document_records import Block, ParsedDocument, SourceItem, sha256_bytes
from finagent.finance.fact_records import Fact, FiscalCalendar
from finagent.finance.read.xbrl import XbrlError, extract_ixbrl_facts, fact_elements, raw_fact_count
from finagent.ingest.folders import files_under
from finagent.ingest.hints import Hints
from finagent.ingest.html_text import (
    FACT_KEY,
    IX_NS,
    Unit,
    Walker,
    local,
    norm_space,
    plain_text_units,
)
from finagent.ingest.sec.cover import (
    FilingMeta,
    downloader_identity,
    has_cover_text,
    identity_metadata,
    read_metadata,
)
from finagent.ingest.sec.furniture import drop_page_furniture
from finagent.ingest.sec.items import sectioned_blocks
from finagent.ingest.sec.submission import (
    SubmissionHeader,
    parse_sgml_header,
    primary_document,
    read_header_only,
    submission_documents,
    unclosed_document,
)
from finagent.ingest.xbrl_instance import SubmissionXbrl, submission_xbrl

__all__ = ["cut_short_html", "discover_edgar", "parse_edgar_submission", "parse_ixbrl_html"]

log = logging.getLogger(__name__)
_SUBMISSION_NAME = "full-submission.txt"
_PRIMARY_NAME = "primary-document.html"

# --------------------------------------------------------------------------- public API


def parse_ixbrl_html(path: Path, hints: Hints | None = None) -> ParsedDocument:
    """Parse a loose EDGAR primary document (.htm/.html, inline XBRL or plain HTML).

    A ``primary-document.html`` saved by sec-edgar-downloader next to its
    ``full-submission.txt`` also gets that submission's SGML header (filing date etc.).
    ``hints`` are the user's ``--ticker/--form/--period-end`` (see ``cover.read_identity``).
    """
    path = Path(path)
    data = _read(path)
    header: SubmissionHeader | None = None
    xbrl: SubmissionXbrl | Exception | None = None
    sibling = path.with_name(_SUBMISSION_NAME)
    if sibling.is_file() and sibling != path:
        header = read_header_only(sibling)
        if raw_fact_count(data) == 0:  # no inline XBRL: the submission may carry an EX-101.INS
            xbrl = _submission_xbrl(_read(sibling))
    return _parse_document(data, path, header, hints, xbrl)


def parse_edgar_submission(path: Path, hints: Hints | None = None) -> ParsedDocument:
    """Parse the primary document (TYPE = the form) of a sec-edgar-downloader full-submission.txt."""
    path = Path(path)
    raw = _read(path)
    header = parse_sgml_header(raw[: 256 * 1024].decode("utf-8", errors="replace"))
    if header is None:
        raise ParseError(str(path), "not an EDGAR submission (no <SEC-HEADER>/<SEC-DOCUMENT> header)")
    unclosed = unclosed_document(raw)
    if unclosed is not None:
        raise ParseError(str(path), unclosed)
    doc = primary_document(raw, header.form)
    if doc is None:
        raise ParseError(str(path), "no <DOCUMENT> with a <TEXT> section found in the submission")
    xbrl = _submission_xbrl(raw) if raw_fact_count(doc) == 0 else None
    parsed = _parse_document(doc, path, header, hints, xbrl)
    # Idempotency is about the file we were given, not the extracted part.
    parsed.content_sha256 = sha256_bytes(raw)
    return parsed


def _submission_xbrl(raw: bytes) -> SubmissionXbrl | Exception | None:
    """The submission's EX-101.INS facts (None without one; the error when it is unreadable: the
    filing's text is still worth storing, with the reason among its warnings)."""
    try:
        return submission_xbrl(submission_documents(raw))
    except XbrlError as exc:
        return exc


def discover_edgar(path: Path, hints: Hints | None = None) -> list[SourceItem]:
    """Find EDGAR filings under ``path`` (a file or a folder), each loaded lazily.

    sec-edgar-downloader folders (``<TICKER>/<FORM>/<accession>/full-submission.txt``) yield one
    item each, preferring ``primary-document.html`` when it is there; other ``*.htm(l)`` files
    yield one item each whose ``load()`` raises ParseError if the file is not an SEC filing.
    """
    path = Path(path)
    if path.is_file():
        files = [path]
    elif path.is_dir():
        files = files_under(path, lambda p: _is_html(p) or p.name == _SUBMISSION_NAME)
    else:
        return []
    submission_dirs = {p.parent for p in files if p.name == _SUBMISSION_NAME}
    items: list[SourceItem] = []
    seen: set[Path] = set()
    for p in files:
        if p.name == _SUBMISSION_NAME:
            primary = p.with_name(_PRIMARY_NAME)
            target = primary if primary.is_file() else p
        elif _is_html(p):
            if p.parent in submission_dirs and p.name != _PRIMARY_NAME:
                continue  # exhibits / extra documents of a downloaded submission
            target = p
        else:
            continue
        if target in seen:
            continue
        seen.add(target)
        loader = parse_edgar_submission if target.name == _SUBMISSION_NAME else parse_ixbrl_html
        load = functools.partial(loader, target, hints)
        items.append(SourceItem(uri=str(target), load=load, kind_hint="filing"))
    return items


def _is_html(p: Path) -> bool:
    return p.suffix.lower() in (".htm", ".html")


def _read(path: Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise ParseError(str(path), f"cannot read file: {exc}") from exc


# --------------------------------------------------------------------------- SGML submission


# --------------------------------------------------------------------------- document parsing


def _parse_document(
    data: bytes,
    path: Path,
    header: SubmissionHeader | None,
    hints: Hints | None = None,
    xbrl: SubmissionXbrl | Exception | None = None,
) -> ParsedDocument:
    """Parse primary-document bytes into a ParsedDocument (raises ParseError if not a filing).

    A document with no cover of its own (an earnings-release exhibit) is still a filing when the
    user names its form or it sits in a sec-edgar-downloader folder. ``xbrl``: the submission's
    EX-101.INS (pre-2019 filings), whose dei values describe the filing and whose facts it stores;
    they point at no block here, and are linked to the table chunk printing them once stored."""
    uri = str(Path(path).resolve())
    root, elements, dei, units = _read_units(data, path)
    instance = xbrl if isinstance(xbrl, SubmissionXbrl) else None
    if instance is not None and not dei:
        dei = instance.dei
    told = (hints is not None and hints.form) or downloader_identity(path)[1]
    if not dei and header is None and not told and not has_cover_text(units):
        reason = "not an SEC filing (no dei: cover facts, no 'FORM 10-K/10-Q/8-K' cover; else give --form)"
        raise ParseError(str(path), reason)
    meta = read_metadata(dei, header, units, path, hints)
    units = drop_page_furniture(units)
    blocks = sectioned_blocks(units, meta.form_base)
    block_of = _pop_fact_ordinals(blocks)
    if not any(b.text.strip() for b in blocks):
        raise ParseError(str(path), "the filing has no text")
    metadata = _document_metadata(meta, header)
    facts: list[Fact] = []
    if root is not None and elements:
        facts = _filing_facts(root, elements, meta.calendar, block_of, data, metadata)
    elif instance is not None:
        facts = _instance_facts(instance, meta.calendar, metadata)
    elif isinstance(xbrl, Exception):
        metadata["xbrl_warnings"] = [f"XBRL not read: {xbrl}"]
    return ParsedDocument(
        kind=meta.kind,
        title=meta.title,
        source_uri=uri,
        content_sha256=sha256_bytes(data),
        blocks=blocks,
        ticker=meta.ticker,
        company_name=meta.company_name,
        fiscal_year=meta.fiscal_year,
        fiscal_quarter=meta.fiscal_quarter,
        period_end=meta.period_end,
        published_at=_filed_at(header),
        fiscal_year_end_month=meta.fye_month,
        metadata=metadata,
        facts=facts,
    )


def _read_units(
    data: bytes, path: Path
) -> tuple[etree._Element | None, list[etree._Element], dict[str, str], list[Unit]]:
    """(tree, fact elements, dei facts, text units) of markup; plain text (very old filings) has no
    tree, facts or dei. Raises ParseError for markup cut short."""
    if not _looks_like_markup(data):
        return None, [], {}, plain_text_units(data.decode("utf-8", errors="replace"))
    cut = cut_short_html(data)
    if cut is not None:
        raise ParseError(str(path), cut)
    root = _parse_markup(data, path)
    dei = _dei_facts(root)
    elements = fact_elements(root)
    return root, elements, dei, Walker({el: i for i, el in enumerate(elements)}).run(root)


def _document_metadata(meta: FilingMeta, header: SubmissionHeader | None) -> dict[str, Any]:
    """The document's stored metadata: its form, where each field was read, and what disagreed."""
    metadata: dict[str, Any] = {"form": meta.form, **identity_metadata(meta)}
    if header is not None and header.accession:
        metadata["accession"] = header.accession
    if meta.dei_fiscal_year is not None and meta.computed_fiscal_year not in (None, meta.dei_fiscal_year):
        # e.g. Home Depot names the year ending 2025-02-02 "fiscal 2024"; keep the filer's name.
        metadata["fiscal_year_by_calendar_rule"] = meta.computed_fiscal_year
    if meta.year_offset is not None:
        metadata["fiscal_year_offset"] = meta.year_offset
    return metadata


def _filed_at(header: SubmissionHeader | None) -> datetime | None:
    if header is None or header.filed is None:
        return None
    return datetime(header.filed.year, header.filed.month, header.filed.day, tzinfo=UTC)


def _pop_fact_ordinals(blocks: list[Block]) -> dict[int, int]:
    """Fact ordinal -> index of the block displaying it; removes the private key from metadata."""
    block_of: dict[int, int] = {}
    for index, block in enumerate(blocks):
        for ordinal in block.metadata.pop(FACT_KEY, ()):
            block_of.setdefault(ordinal, index)
    return block_of


def _filing_facts(
    root: etree._Element,
    elements: list[etree._Element],
    calendar: FiscalCalendar | None,
    block_of: dict[int, int],
    data: bytes,
    metadata: dict[str, Any],
) -> list[Fact]:
    """The filing's XBRL facts, each pointing at the block that shows it.

    Problems are reported in ``metadata["xbrl_warnings"]`` (and the log), never raised: the text
    of a filing is still worth having when some of its facts are not. The tree here is the
    recovering parse the text comes from; a malformed file (NVIDIA's FY2023 10-K) loses no
    fact as long as the element count matches the ``<ix:nonFraction`` tags in the bytes.
    """
    extraction = extract_ixbrl_facts(root, calendar, elements)
    warnings = list(extraction.warnings)
    expected = raw_fact_count(data)
    if expected != len(elements):
        warnings.append(f"the tree has {len(elements)} ix:nonFraction elements, the bytes have {expected}")
    if extraction.skipped:
        reasons = sorted({reason for _, reason in extraction.skipped})
        warnings.append(f"{len(extraction.skipped)} facts skipped: " + "; ".join(reasons[:5]))
    if warnings:
        metadata["xbrl_warnings"] = warnings
        for warning in warnings:
            log.warning("%s: %s", metadata.get("form"), warning)
    return [replace(f, block_index=block_of.get(int(f.extra["ordinal"]))) for f in extraction.facts]


def _instance_facts(
    instance: SubmissionXbrl, calendar: FiscalCalendar | None, metadata: dict[str, Any]
) -> list[Fact]:
    """The EX-101.INS facts of a submission, in the filing's calendar; problems become warnings."""
    metadata["xbrl_source"] = "EX-101.INS"
    if instance.label_linkbase:
        metadata["label_linkbase"] = instance.label_linkbase
    extraction = instance.extraction
    warnings = list(extraction.warnings)
    if extraction.skipped:
        reasons = sorted({reason for _, reason in extraction.skipped})
        warnings.append(f"{len(extraction.skipped)} facts skipped: " + "; ".join(reasons[:5]))
    if warnings:
        metadata["xbrl_warnings"] = warnings
    facts = extraction.facts
    if calendar is not None and any(f.fiscal_year is None for f in facts):
        facts = [f.in_calendar(calendar) for f in facts]
    return facts


_MARKUP_RE = re.compile(rb"<\s*(html|body|div|p|table|font|span|br)\b", re.I)


def _looks_like_markup(data: bytes) -> bool:
    return _MARKUP_RE.search(data, 0, 200_000) is not None


_HTML_OPEN = re.compile(rb"<html[\s>]", re.I)
_HTML_CLOSE = re.compile(rb"</html\s*>", re.I)


def cut_short_html(data: bytes) -> str | None:
    """Why these bytes are not a whole HTML document, or None when they are.

    A file cut short (a partial download, a copy stopped mid-way) still parses: the recovering
    parser closes every open element itself, so the first 40% of a 10-Q reads as a short 10-Q.
    The raw bytes tell: an ``<html>`` root that opens must close again after it.
    """
    opened = _HTML_OPEN.search(data)
    if opened is None or _HTML_CLOSE.search(data, opened.end()) is not None:
        return None
    tail = data.rstrip()[-200:]
    mid_tag = tail.rfind(b"<") > tail.rfind(b">")
    where = "it ends mid-tag" if mid_tag else "no </html> at its end"
    return f"the file is cut short: its <html> root element is never closed ({where})"


_FONT_TAG = re.compile(rb"</?font\b[^>]*>", re.I)


def _parse_markup(data: bytes, path: Path) -> etree._Element:
    """XHTML (all modern iXBRL) through the fast XML parser, anything else through lxml.html."""
    head = data[:4096].lstrip()
    root: etree._Element | None = None
    if head.startswith(b"<?xml") or b"http://www.w3.org/1999/xhtml" in head:
        parser = etree.XMLParser(
            recover=True,
            huge_tree=True,
            remove_comments=True,
            remove_pis=True,
            resolve_entities=False,
            no_network=True,
        )
        try:
            root = etree.fromstring(data, parser)
        except etree.XMLSyntaxError:
            root = None
        if root is not None and local(root.tag) != "html":
            root = None
    if root is None:
        # Old filings leave <font> unclosed; libxml2 nests them and drops text past depth ~2000.
        data = _FONT_TAG.sub(b"", data)
        try:
            root = lxml_html.document_fromstring(
                data, parser=lxml_html.HTMLParser(remove_comments=True, huge_tree=True)
            )
        except (etree.ParserError, ValueError) as exc:
            raise ParseError(str(path), f"cannot parse HTML: {exc}") from exc
    return root


def _dei_facts(root: etree._Element) -> dict[str, str]:
    """First value of each dei: fact, from ix:nonNumeric elements (text and format)."""
    facts: dict[str, str] = {}
    found = False
    for el in root.iter(f"{{{IX_NS}}}nonNumeric"):
        found = True
        _take_dei(el, facts)
    if not found:  # parsed as HTML: no namespaces, tags are 'ix:nonnumeric'
        for el in root.iter("ix:nonnumeric"):
            _take_dei(el, facts)
    return facts


def _take_dei(el: etree._Element, facts: dict[str, str]) -> None:
    name = el.get("name") or ""
    if not name.startswith("dei:"):
        return
    key = name[4:]
    if key in facts:
        return
    facts[key] = norm_space("".join(el.itertext()))
    fmt = el.get("format")
    if fmt:
        facts[key + "@format"] = fmt


# --------------------------------------------------------------------------- metadata


# --------------------------------------------------------------------------- body walking


# --------------------------------------------------------------------------- tables


# --------------------------------------------------------------------------- page furniture


# --------------------------------------------------------------------------- sections
