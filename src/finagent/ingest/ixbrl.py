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
import html as html_lib
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from lxml import etree
from lxml import html as lxml_html

from finagent.errors import ParseError
from finagent.finance.companies import lookup_builtin
from finagent.finance.dates import parse_date
from finagent.finance.documents import Block, ParsedDocument, SourceItem, sha256_bytes
from finagent.finance.facts import Fact, FiscalCalendar
from finagent.finance.fiscal import fiscal_period, fiscal_year_of_annual, nominal_month_end, quarter_label
from finagent.finance.xbrl import (
    FACT_TAGS,
    extract_ixbrl_facts,
    fact_elements,
    filing_calendar,
    fye_month,
    raw_fact_count,
)

__all__ = ["FilingMeta", "discover_edgar", "filing_metadata", "parse_edgar_submission", "parse_ixbrl_html"]

_IX_NS = "http://www.xbrl.org/2013/inlineXBRL"
# Private _Unit.meta key: ordinals (finance.xbrl.fact_elements order) of the facts a unit shows.
# Popped before blocks leave the parser, so it never reaches chunk metadata.
_FACT_KEY = "_fact_ordinals"
log = logging.getLogger(__name__)
_SUBMISSION_NAME = "full-submission.txt"
_PRIMARY_NAME = "primary-document.html"

# --------------------------------------------------------------------------- public API


def parse_ixbrl_html(path: Path) -> ParsedDocument:
    """Parse a loose EDGAR primary document (.htm/.html, inline XBRL or plain HTML).

    A ``primary-document.html`` saved by sec-edgar-downloader next to its
    ``full-submission.txt`` also gets that submission's SGML header (filing date etc.).
    """
    path = Path(path)
    data = _read(path)
    header: _SubmissionHeader | None = None
    sibling = path.with_name(_SUBMISSION_NAME)
    if sibling.is_file() and sibling != path:
        header = _read_header_only(sibling)
    return _parse_document(data, path, header)


def parse_edgar_submission(path: Path) -> ParsedDocument:
    """Parse the primary document (TYPE = the form) of a sec-edgar-downloader full-submission.txt."""
    path = Path(path)
    raw = _read(path)
    header = _parse_sgml_header(raw[: 256 * 1024].decode("utf-8", errors="replace"))
    if header is None:
        raise ParseError(str(path), "not an EDGAR submission (no <SEC-HEADER>/<SEC-DOCUMENT> header)")
    doc = _primary_document(raw, header.form)
    if doc is None:
        raise ParseError(str(path), "no <DOCUMENT> with a <TEXT> section found in the submission")
    parsed = _parse_document(doc, path, header)
    # Idempotency is about the file we were given, not the extracted part.
    parsed.content_sha256 = sha256_bytes(raw)
    return parsed


def discover_edgar(path: Path) -> list[SourceItem]:
    """Find EDGAR filings under ``path`` (a file or a folder), each loaded lazily.

    sec-edgar-downloader folders (``<TICKER>/<FORM>/<accession>/full-submission.txt``) yield one
    item each, preferring ``primary-document.html`` when it is there; other ``*.htm(l)`` files
    yield one item each whose ``load()`` raises ParseError if the file is not an SEC filing.
    """
    path = Path(path)
    if path.is_file():
        files = [path]
    elif path.is_dir():
        files = sorted(
            p
            for p in path.rglob("*")
            if (_is_html(p) or p.name == _SUBMISSION_NAME)
            and not any(part.startswith(".") for part in p.relative_to(path).parts)
            and p.is_file()
        )
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
        items.append(SourceItem(uri=str(target), load=functools.partial(loader, target), kind_hint="filing"))
    return items


def _is_html(p: Path) -> bool:
    return p.suffix.lower() in (".htm", ".html")


def _read(path: Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise ParseError(str(path), f"cannot read file: {exc}") from exc


# --------------------------------------------------------------------------- SGML submission


@dataclass(slots=True)
class _SubmissionHeader:
    """The fields of an EDGAR SGML header we use as metadata fallbacks."""

    form: str | None = None
    period: date | None = None
    filed: date | None = None
    company: str | None = None
    cik: str | None = None
    fiscal_year_end: str | None = None  # "MMDD"
    accession: str | None = None


_HEADER_FIELDS = {
    "CONFORMED SUBMISSION TYPE": "form",
    "CONFORMED PERIOD OF REPORT": "period",
    "FILED AS OF DATE": "filed",
    "COMPANY CONFORMED NAME": "company",
    "CENTRAL INDEX KEY": "cik",
    "FISCAL YEAR END": "fiscal_year_end",
    "ACCESSION NUMBER": "accession",
}
_HEADER_LINE = re.compile(r"^[ \t]*([A-Z][A-Z \-]+?):[ \t]*(.*?)[ \t]*$", re.M)


def _read_header_only(path: Path) -> _SubmissionHeader | None:
    """Read just the SGML header of a (possibly huge) submission file."""
    try:
        with Path(path).open("rb") as fh:
            head = fh.read(256 * 1024)
    except OSError:
        return None
    return _parse_sgml_header(head.decode("utf-8", errors="replace"))


def _parse_sgml_header(text: str) -> _SubmissionHeader | None:
    end = text.find("</SEC-HEADER>")
    if end == -1:
        end = text.find("<DOCUMENT>")
    if end == -1 or ("<SEC-HEADER>" not in text[:end] and "<SEC-DOCUMENT>" not in text[:end]):
        return None
    header = _SubmissionHeader()
    for m in _HEADER_LINE.finditer(text, 0, end):
        attr = _HEADER_FIELDS.get(m.group(1).strip())
        if attr is None or getattr(header, attr) is not None or not m.group(2):
            continue  # first occurrence wins (the filer comes before e.g. a filed-by section)
        value = m.group(2)
        if attr in ("period", "filed"):
            setattr(header, attr, _yyyymmdd(value))
        else:
            setattr(header, attr, value)
    return header


def _yyyymmdd(value: str) -> date | None:
    m = re.fullmatch(r"(\d{4})(\d{2})(\d{2})", value.strip())
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


_DOC_RE = re.compile(rb"<DOCUMENT>(.*?)</DOCUMENT>", re.S)
_TYPE_RE = re.compile(rb"<TYPE>[ \t]*([^\s<]+)")
_TEXT_RE = re.compile(rb"<TEXT>(.*?)</TEXT>", re.S)


def _primary_document(raw: bytes, form: str | None) -> bytes | None:
    """Bytes of the document whose TYPE is the form (else the first document) of a submission.

    Works on bytes so the document keeps its own declared encoding.
    """
    first: bytes | None = None
    wanted = form.upper().encode("ascii", "replace") if form else None
    for m in _DOC_RE.finditer(raw):
        body = m.group(1)
        tm = _TEXT_RE.search(body)
        if tm is None:
            continue
        inner = tm.group(1).strip()
        for wrapper in (b"XBRL", b"XML"):
            if inner.startswith(b"<" + wrapper + b">"):
                inner = inner[len(wrapper) + 2 :]
                closing = inner.rfind(b"</" + wrapper + b">")
                if closing != -1:
                    inner = inner[:closing]
                inner = inner.strip()
        type_m = _TYPE_RE.search(body)
        doc_type = type_m.group(1).upper() if type_m else b""
        if first is None:
            first = inner
        if wanted and doc_type == wanted:
            return inner
    return first


# --------------------------------------------------------------------------- document parsing


def _parse_document(data: bytes, path: Path, header: _SubmissionHeader | None) -> ParsedDocument:
    """Parse primary-document bytes into a ParsedDocument (raises ParseError if not a filing)."""
    uri = str(Path(path).resolve())
    root: etree._Element | None = None
    elements: list[etree._Element] = []
    if _looks_like_markup(data):
        root = _parse_markup(data, path)
        dei = _dei_facts(root)
        elements = fact_elements(root)
        units = _Walker({el: i for i, el in enumerate(elements)}).run(root)
    else:
        dei = {}
        units = _plain_text_units(data.decode("utf-8", errors="replace"))
    if not dei and header is None and not _has_cover_text(units):
        raise ParseError(str(path), "not an SEC filing (no dei: cover facts, no 'FORM 10-K/10-Q/8-K' cover)")
    meta = _metadata(dei, header, units, path)
    units = _drop_page_furniture(units)
    blocks = _sectioned_blocks(units, meta.form_base)
    block_of = _pop_fact_ordinals(blocks)
    if not any(b.text.strip() for b in blocks):
        raise ParseError(str(path), "the filing has no text")
    metadata: dict[str, Any] = {"form": meta.form}
    if meta.amendment:
        metadata["amendment"] = True
    if meta.cik:
        metadata["cik"] = meta.cik
    if header is not None and header.accession:
        metadata["accession"] = header.accession
    if meta.dei_fiscal_year is not None and meta.computed_fiscal_year not in (None, meta.dei_fiscal_year):
        # e.g. Home Depot names the year ending 2025-02-02 "fiscal 2024"; keep the filer's name.
        metadata["fiscal_year_by_calendar_rule"] = meta.computed_fiscal_year
    if meta.year_offset is not None:
        metadata["fiscal_year_offset"] = meta.year_offset
    facts: list[Fact] = []
    if root is not None and elements:
        facts = _filing_facts(root, elements, meta.calendar, block_of, data, metadata)
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
        published_at=(
            datetime(header.filed.year, header.filed.month, header.filed.day, tzinfo=UTC)
            if header is not None and header.filed is not None
            else None
        ),
        fiscal_year_end_month=meta.fye_month,
        metadata=metadata,
        facts=facts,
    )


def _pop_fact_ordinals(blocks: list[Block]) -> dict[int, int]:
    """Fact ordinal -> index of the block displaying it; removes the private key from metadata."""
    block_of: dict[int, int] = {}
    for index, block in enumerate(blocks):
        for ordinal in block.metadata.pop(_FACT_KEY, ()):
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


_MARKUP_RE = re.compile(rb"<\s*(html|body|div|p|table|font|span|br)\b", re.I)


def _looks_like_markup(data: bytes) -> bool:
    return _MARKUP_RE.search(data, 0, 200_000) is not None


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
        if root is not None and _local(root.tag) != "html":
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


@functools.lru_cache(maxsize=4096)
def _local(tag: Any) -> str:
    """Lower-case local name of a tag ('{ns}nonNumeric', 'ix:nonnumeric' -> 'nonnumeric')."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower()


def _dei_facts(root: etree._Element) -> dict[str, str]:
    """First value of each dei: fact, from ix:nonNumeric elements (text and format)."""
    facts: dict[str, str] = {}
    found = False
    for el in root.iter(f"{{{_IX_NS}}}nonNumeric"):
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
    facts[key] = _norm_space("".join(el.itertext()))
    fmt = el.get("format")
    if fmt:
        facts[key + "@format"] = fmt


# --------------------------------------------------------------------------- metadata


@dataclass(slots=True)
class _Meta:
    kind: str
    form: str
    form_base: str
    amendment: bool
    title: str
    ticker: str | None
    company_name: str | None
    fiscal_year: int | None
    fiscal_quarter: int | None
    period_end: date | None
    fye_month: int | None
    cik: str | None
    dei_fiscal_year: int | None = None
    computed_fiscal_year: int | None = None
    calendar: FiscalCalendar | None = None  # labels the filing's facts
    year_offset: int | None = None  # fiscal-year naming offset, when the filing or a built-in states it


FilingMeta = _Meta


def filing_metadata(dei: dict[str, str], path: Path) -> FilingMeta:
    """Document metadata from dei cover facts alone (XBRL instance documents have no cover text)."""
    return _metadata(dei, None, [], path)


_FORM_BASE = re.compile(r"^(10-K|10-Q|8-K|20-F|40-F|6-K)", re.I)
_COVER_FORM = re.compile(r"\bFORM\s+(10-K|10-Q|8-K|20-F|40-F|6-K)\b", re.I)
_COVER_PERIOD = re.compile(
    r"for\s+the\s+(?:fiscal\s+)?(?:year|quarterly\s+period|quarter|period)\s+ended\s+"
    r"([A-Za-z]{3,9}\.?\s+\d{1,2}\s*,?\s*\d{4})",
    re.I,
)
_SEC_COMMISSION = re.compile(r"securities\s+and\s+exchange\s+commission", re.I)


def _cover_text(units: list[_Unit], limit: int = 20_000) -> str:
    parts: list[str] = []
    n = 0
    for u in units:
        parts.append(u.text)
        n += len(u.text)
        if n > limit:
            break
    return "\n".join(parts)


def _has_cover_text(units: list[_Unit]) -> bool:
    text = _cover_text(units)
    return bool(_COVER_FORM.search(text) and _SEC_COMMISSION.search(text))


def _metadata(dei: dict[str, str], header: _SubmissionHeader | None, units: list[_Unit], path: Path) -> _Meta:
    """Combine dei facts, the SGML header and the built-in companies into document metadata."""
    form = (dei.get("DocumentType") or (header.form if header else None) or "").upper().strip()
    if not form:
        m = _COVER_FORM.search(_cover_text(units))
        form = m.group(1).upper() if m else ""
    base_m = _FORM_BASE.match(form)
    form_base = base_m.group(1).upper() if base_m else form
    amendment = form.endswith("/A") or dei.get("AmendmentFlag", "").strip().lower() == "true"
    kind = form_base if form_base in ("10-K", "10-Q", "8-K") else "other"

    company_name = dei.get("EntityRegistrantName") or (header.company if header else None)
    ticker = (dei.get("TradingSymbol") or "").strip().upper() or None
    builtin = lookup_builtin(ticker) if ticker else None
    if builtin is None and company_name:
        builtin = lookup_builtin(company_name)
    if ticker is None and builtin is not None:
        ticker = builtin.ticker
    if ticker is None and header is not None:
        ticker = _ticker_from_downloader_path(path)

    period_end = _parse_date(dei.get("DocumentPeriodEndDate", "")) or (header.period if header else None)
    if period_end is None and (m := _COVER_PERIOD.search(_cover_text(units))):
        period_end = _parse_date(m.group(1))

    fye_fact = dei.get("CurrentFiscalYearEndDate", "")
    fye = fye_month(fye_fact, dei.get("CurrentFiscalYearEndDate@format"))
    if fye is None and kind == "10-K" and period_end is not None:
        fye = nominal_month_end(period_end)[1]
    if fye is None and builtin is not None:
        fye = builtin.fiscal_year_end_month
    if fye is None and header is not None and header.fiscal_year_end:
        fye = fye_month(header.fiscal_year_end, "mmdd")

    dei_year = _int(dei.get("DocumentFiscalYearFocus"))
    focus = (dei.get("DocumentFiscalPeriodFocus") or "").strip().upper()
    computed_year: int | None = None
    computed_quarter: int | None = None
    if period_end is not None and fye is not None:
        offset = builtin.fiscal_year_offset if builtin is not None else 0
        if kind == "10-Q":
            computed_year, computed_quarter = fiscal_period(period_end, fye, offset)
        else:
            computed_year = fiscal_year_of_annual(period_end, fye, offset)
    fiscal_year = dei_year if dei_year is not None else computed_year
    if dei_year is not None and computed_year is not None and abs(dei_year - computed_year) > 1:
        fiscal_year = computed_year  # a mistyped cover fact; the calendar is more trustworthy
    quarter: int | None = None
    if kind == "10-Q":
        quarter = int(focus[1]) if focus in ("Q1", "Q2", "Q3", "Q4") else computed_quarter

    name_for_title = company_name or ticker or Path(path).stem
    form_label = form or kind
    period_label = quarter_label(fiscal_year, quarter) if kind in ("10-K", "10-Q") else None
    if period_label is None or period_label == "undated":
        period_label = period_end.isoformat() if period_end else ""
    title = " ".join(p for p in (name_for_title, form_label, period_label) if p)
    cik = dei.get("EntityCentralIndexKey") or (header.cik if header else None)
    # The calendar that labels each fact: the filing's own statement of it, else the built-in one.
    calendar = filing_calendar(dei)
    if calendar is None and fye is not None:
        calendar = FiscalCalendar(fye, builtin.fiscal_year_offset if builtin is not None else 0)
    offset_known = (dei_year is not None and period_end is not None) or builtin is not None
    return _Meta(
        kind=kind,
        form=form or kind,
        form_base=form_base,
        amendment=amendment,
        title=title,
        ticker=ticker,
        company_name=company_name,
        fiscal_year=fiscal_year,
        fiscal_quarter=quarter,
        period_end=period_end,
        fye_month=fye,
        cik=cik.strip() if cik else None,
        dei_fiscal_year=dei_year,
        computed_fiscal_year=computed_year,
        calendar=calendar,
        year_offset=calendar.year_offset if calendar is not None and offset_known else None,
    )


def _ticker_from_downloader_path(path: Path) -> str | None:
    """``.../<TICKER>/<FORM>/<accession>/full-submission.txt`` -> TICKER (last resort only)."""
    parts = Path(path).resolve().parts
    if len(parts) >= 4 and _FORM_BASE.match(parts[-3]) and re.fullmatch(r"[A-Z.\-]{1,6}", parts[-4]):
        return parts[-4]
    return None


def _int(value: str | None) -> int | None:
    if not value:
        return None
    m = re.search(r"\d{4}", value)
    return int(m.group(0)) if m else None


def _parse_date(text: str) -> date | None:
    """Parse cover-page dates: 'June 28, 2025', 'June\xa028, 2025', '2025-06-28', '06/28/2025'."""
    return parse_date(_norm_space(text))


# --------------------------------------------------------------------------- body walking


@dataclass(slots=True)
class _Unit:
    """A paragraph or a table, in document order, before sections are assigned."""

    text: str
    is_table: bool = False
    meta: dict[str, Any] = field(default_factory=dict)


_BLOCK_TAGS = frozenset(
    (
        *("address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "div"),
        *("dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4"),
        *("h5", "h6", "header", "hr", "html", "li", "main", "nav", "ol", "p", "pre", "section"),
        *("tbody", "td", "th", "thead", "tfoot", "tr", "ul"),
    )
)
_SKIP_TAGS = frozenset(("head", "script", "style", "title", "meta", "link", "noscript"))
_IX_HEADER_TAGS = frozenset((f"{{{_IX_NS}}}header", "ix:header"))
_WS_RE = re.compile(r"[\s\u200b\u200c\u200d\ufeff]+")
_BULLET_GLUE = re.compile(r"^([•●◦▪■])(?=\S)")  # "•Challenges" -> "• Challenges"
_HIDDEN_RE = re.compile(r"display\s*:\s*none", re.I)


def _norm_space(text: str) -> str:
    return _WS_RE.sub(" ", text).strip()


class _Walker:
    """Walks an HTML tree in order, emitting paragraph and table units.

    ``fact_ordinals`` maps each ix:nonFraction element to its ordinal; the units record which
    facts they display (``meta[_FACT_KEY]``) so facts can point at the block showing them.
    """

    def __init__(self, fact_ordinals: dict[etree._Element, int] | None = None) -> None:
        self.units: list[_Unit] = []
        self.buf: list[str] = []
        self.fact_ordinals = fact_ordinals or {}
        self.shown: list[int] = []  # facts met since the last flush

    def run(self, root: etree._Element) -> list[_Unit]:
        body = None
        for el in root:
            if _local(el.tag) == "body":
                body = el
                break
        self._walk(body if body is not None else root)
        self._flush()
        return self.units

    def _flush(self) -> None:
        if self.buf:
            text = _BULLET_GLUE.sub(r"\1 ", _norm_space("".join(self.buf)))
            self.buf.clear()
            if text:
                unit = _Unit(text)
                if self.shown:
                    unit.meta[_FACT_KEY] = self.shown
                self.units.append(unit)
        self.shown = []

    def _walk(self, root: etree._Element) -> None:
        """Iterative pre-order walk (unclosed <font> tags in old filings nest thousands deep)."""
        buf = self.buf
        stack: list[tuple[etree._Element, bool]] = [(root, False)]
        while stack:
            el, closing = stack.pop()
            tail = el.tail if el is not root else None
            if closing:
                if _local(el.tag) in _BLOCK_TAGS:
                    self._flush()
            elif not isinstance(el.tag, str):
                if el.tag is etree.Entity:
                    buf.append(_entity_text(el))
            elif not _skipped(el):
                tag = _local(el.tag)
                if tag == "table":
                    self._flush()
                    self.units.extend(_table_units(el, self.fact_ordinals))
                else:
                    if tag == "nonfraction" and (ordinal := self.fact_ordinals.get(el)) is not None:
                        self.shown.append(ordinal)
                    if tag in _BLOCK_TAGS or tag == "br":
                        self._flush()
                    if el.text:
                        buf.append(el.text)
                    stack.append((el, True))
                    stack.extend((child, False) for child in reversed(el))
                    continue  # the tail follows the element's content, on closing
            if tail:
                buf.append(tail)


def _skipped(el: etree._Element) -> bool:
    """Elements whose content is not document text: hidden iXBRL header, scripts, display:none."""
    if el.tag in _IX_HEADER_TAGS or _local(el.tag) in _SKIP_TAGS:
        return True
    style = el.get("style")
    return bool(style and "none" in style and _HIDDEN_RE.search(style))


def _entity_text(node: etree._Element) -> str:
    """Text of an HTML named entity left unresolved by the XML parser ('&nbsp;' -> nbsp)."""
    return html_lib.unescape(node.text or "")


def _plain_text_units(text: str) -> list[_Unit]:
    """Very old filings are plain text: paragraphs are separated by blank lines."""
    text = re.sub(r"</?(PAGE|S|C|FN|F\d+|CAPTION|TABLE)>", "", text, flags=re.I)
    return [_Unit(_norm_space(p)) for p in re.split(r"\n\s*\n", text) if p.strip()]


# --------------------------------------------------------------------------- tables

_CURRENCY = frozenset(("$", "€", "£", "¥", "US$", "C$", "A$", "CHF"))
_BULLETS = frozenset(("•", "●", "◦", "▪", "■", "○", "·", ""))
_CLOSERS = frozenset((")", "%", ")%", "%)", "pts", "bps", "x"))
_DIGIT_RE = re.compile(r"\d")
_MAX_HEADER_ROWS = 4
_PROSE_CELL = 300  # a two-column table holding a cell this long is laid-out prose
_HEADING_CELL = re.compile(r"^(item|part)\s+\w", re.I)
_CELL_BREAK_TAGS = _BLOCK_TAGS | {"br"}


def _cell_text(cell: etree._Element) -> str:
    """Text of a cell with spaces where line breaks/blocks were ('Three Months<br/>Ended')."""
    parts: list[str] = []
    stack: list[tuple[etree._Element, bool]] = [(cell, False)]
    while stack:
        el, closing = stack.pop()
        tail = el.tail if el is not cell else None
        if closing:
            if _local(el.tag) in _CELL_BREAK_TAGS:
                parts.append(" ")
        elif not isinstance(el.tag, str):
            if el.tag is etree.Entity:
                parts.append(_entity_text(el))
        elif not _skipped(el):
            if _local(el.tag) in _CELL_BREAK_TAGS:
                parts.append(" ")
            if el.text:
                parts.append(el.text)
            stack.append((el, True))
            stack.extend((child, False) for child in reversed(el))
            continue
        if tail:
            parts.append(tail)
    return _norm_space("".join(parts))


def _rows(table: etree._Element) -> Iterator[etree._Element]:
    """Rows of this table (not of tables nested in its cells)."""
    for child in table:
        tag = _local(child.tag)
        if tag == "tr":
            yield child
        elif tag in ("tbody", "thead", "tfoot"):
            for row in child:
                if _local(row.tag) == "tr":
                    yield row


def _merge_cells(cells: list[str]) -> list[str]:
    """Merge '$' + '94,036', '(' + '1,234' + ')', '12.5' + '%' into single cells."""
    out: list[str] = []
    prefix = ""
    for cell in cells:
        if cell in _CURRENCY or cell == "(" or cell in ("$(", "($"):
            prefix += cell
            continue
        if out and not prefix and (cell in _CLOSERS or (cell.startswith(")") and len(cell) <= 3)):
            out[-1] += cell
            continue
        out.append(prefix + cell)
        prefix = ""
    if prefix:
        out.append(prefix)
    return out


def _table_units(
    table: etree._Element, fact_ordinals: dict[etree._Element, int] | None = None
) -> list[_Unit]:
    """One table unit of pipe-separated rows, or text units for layout tables.

    A table unit's ``meta["header_rows"]`` counts its leading column-header rows (rows whose
    label column is empty, e.g. "Three Months Ended" over "June 28, 2025 | June 29, 2024") so
    the chunker can repeat all of them on every piece of a long table.
    """
    rows: list[list[str]] = []
    label_empty: list[bool] = []
    row_facts: list[list[int]] = []
    for tr in _rows(table):
        cells = []
        first_empty: bool | None = None
        for td in tr:
            if _local(td.tag) not in ("td", "th"):
                continue
            text = _cell_text(td)
            if first_empty is None:
                first_empty = not text
            if text and text not in _BULLETS:
                cells.append(text)
        if cells:
            rows.append(_merge_cells(cells))
            label_empty.append(bool(first_empty))
            row_facts.append(_shown_facts(tr, fact_ordinals) if fact_ordinals else [])
    if not rows:
        return []
    max_cols = max(len(r) for r in rows)
    has_digits = any(_DIGIT_RE.search(c) for r in rows for c in r)
    as_text = (
        max_cols <= 1
        or (max_cols <= 2 and any(len(c) > _PROSE_CELL for r in rows for c in r))
        or (not has_digits and max_cols <= 2)
        or (len(rows) == 1 and max_cols <= 3 and bool(_HEADING_CELL.match(rows[0][0])))
    )
    if as_text:
        units = [_Unit(" ".join(r)) for r in rows]
        for unit, shown in zip(units, row_facts, strict=True):
            if shown:
                unit.meta[_FACT_KEY] = shown
        return units
    header_rows = 1
    while header_rows < min(_MAX_HEADER_ROWS, len(rows) - 1) and label_empty[0] and label_empty[header_rows]:
        header_rows += 1
    unit = _Unit("\n".join(" | ".join(r) for r in rows), is_table=True)
    if header_rows > 1:
        unit.meta["header_rows"] = header_rows
    if any(row_facts):
        unit.meta[_FACT_KEY] = [o for shown in row_facts for o in shown]
    return [unit]


def _shown_facts(row: etree._Element, fact_ordinals: dict[etree._Element, int]) -> list[int]:
    """Ordinals of the facts displayed in a table row (as _cell_text reads it: no skipped parts)."""
    shown: list[int] = []
    for el in row.iter(*FACT_TAGS):
        ordinal = fact_ordinals.get(el)
        if ordinal is None:
            continue
        visible = True
        for anc in el.iterancestors():
            if anc is row:
                break
            if _skipped(anc):
                visible = False
                break
        if visible and not _skipped(el):
            shown.append(ordinal)
    return shown


# --------------------------------------------------------------------------- page furniture

_PAGE_NUMBER_RE = re.compile(r"^(?:page\s+)?[\-–—]?\s*(?:\d{1,3}|[ivxlc]{1,6})\s*[\-–—]?$", re.I)
_TOC_LINK_RE = re.compile(r"^(?:back\s+to\s+)?(?:index|table\s+of\s+contents)\b", re.I)
_RULE_RE = re.compile(r"^[\s_\-–—=*.·•]+$")
_TRAILING_PAGE_RE = re.compile(r"(?:(?<!\d)\d{1,3}|(?<![\w.])[ivxl]{1,6})$")
_UNITS_RE = re.compile(r"\b(?:thousands|millions|billions)\b", re.I)
_MAX_FURNITURE = 120
_FOOTER_REPEATS = 5  # a line that recurs with changing page numbers at least this often
_HEADER_REPEATS = 10  # a short line repeated verbatim at least this often (running page header)
_MAX_CAPTION_PART = 150


def _drop_page_furniture(units: list[_Unit]) -> list[_Unit]:
    """Drop page numbers, 'Table of Contents' links, rules and running page headers/footers.

    They carry no meaning and would otherwise break paragraphs and pollute chunks. A running
    footer is a short line (text, or a one-row layout table) that recurs with a changing
    trailing page number ("Apple Inc. | 2024 Form 10-K | 23", "Fiscal 2024 Form 10-K | iii");
    a running header is a short line repeated verbatim many times ("ADOBE INC.",
    "(Continued)") unless it states units ("Amounts in millions ...").
    """
    variants: dict[str, set[str]] = {}
    verbatim: dict[str, int] = {}
    for u in units:
        if _short_line(u):
            verbatim[u.text] = verbatim.get(u.text, 0) + 1
            if _TRAILING_PAGE_RE.search(u.text):
                variants.setdefault(_footer_key(u.text), set()).add(u.text)
    kept: list[_Unit] = []
    for u in units:
        text = u.text
        if _short_line(u):
            if _PAGE_NUMBER_RE.match(text) or _RULE_RE.match(text):
                continue
            if _TOC_LINK_RE.match(text) and len(text) <= 80:
                continue
            if not _ITEM_RE.match(text) and not _PART_RE.match(text):
                footer = variants.get(_footer_key(text)) if _TRAILING_PAGE_RE.search(text) else None
                if footer is not None and len(footer) >= _FOOTER_REPEATS:
                    continue
                if verbatim[text] >= _HEADER_REPEATS and len(text) <= 80 and not _UNITS_RE.search(text):
                    continue
        kept.append(u)
    _attach_captions(kept)
    return kept


def _short_line(u: _Unit) -> bool:
    return len(u.text) <= _MAX_FURNITURE and not (u.is_table and "\n" in u.text)


def _footer_key(text: str) -> str:
    """A footer line with its page number (and any other digits) blanked out."""
    return _DIGIT_RE.sub("#", _TRAILING_PAGE_RE.sub("#", text))


def _attach_captions(units: list[_Unit]) -> None:
    """Give each table the short heading lines right above it (statement name, units).

    A table's rows rarely say what the table is ("Consolidated Statements of Operations",
    "in millions"); the caption is put on the table's first line and kept in its metadata.
    """
    for i, u in enumerate(units):
        if not u.is_table:
            continue
        parts: list[str] = []
        j = i - 1
        while j >= 0 and len(parts) < 2:
            prev = units[j]
            if prev.is_table or len(prev.text) > _MAX_CAPTION_PART or _ITEM_RE.match(prev.text):
                break
            parts.append(prev.text)
            j -= 1
        if parts:
            # The caption becomes the table's first line (and a header line repeated on split
            # pieces): embeddings, keyword search and readers all see which statement and units.
            caption = " ".join(reversed(parts))
            u.meta["caption"] = caption
            u.meta["header_rows"] = int(u.meta.get("header_rows", 1)) + 1
            u.text = f"{caption}\n{u.text}"


# --------------------------------------------------------------------------- sections

_ITEM_RE = re.compile(
    r"^(?:part\s+(?P<part>iv|i{1,3})\b[\s.,:;\-–—]*)?"
    r"item\s*(?P<num>\d{1,2})(?:\.(?P<sub>\d{2}))?(?P<letter>[a-c])?(?![\w])"
    r"\s*[.:\-–—]?\s*(?P<title>.*)$",
    re.I | re.S,
)
_PART_RE = re.compile(r"^part\s+(?P<part>iv|i{1,3})\b\s*[.:\-–—]?\s*(?P<rest>.*)$", re.I | re.S)
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4}
_MAX_HEADING = 200
_MAX_TITLE = 150
_MIN_BODY = 3  # characters of text a real Item heading is followed by (TOC entries have ~0)

_10K_TITLES = {
    "item_1": "Business",
    "item_1a": "Risk Factors",
    "item_1b": "Unresolved Staff Comments",
    "item_1c": "Cybersecurity",
    "item_2": "Properties",
    "item_3": "Legal Proceedings",
    "item_4": "Mine Safety Disclosures",
    "item_5": (
        "Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases "
        "of Equity Securities"
    ),
    "item_6": "[Reserved]",
    "item_7": "Management's Discussion and Analysis of Financial Condition and Results of Operations",
    "item_7a": "Quantitative and Qualitative Disclosures About Market Risk",
    "item_8": "Financial Statements and Supplementary Data",
    "item_9": "Changes in and Disagreements with Accountants on Accounting and Financial Disclosure",
    "item_9a": "Controls and Procedures",
    "item_9b": "Other Information",
    "item_9c": "Disclosure Regarding Foreign Jurisdictions that Prevent Inspections",
    "item_10": "Directors, Executive Officers and Corporate Governance",
    "item_11": "Executive Compensation",
    "item_12": (
        "Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters"
    ),
    "item_13": "Certain Relationships and Related Transactions, and Director Independence",
    "item_14": "Principal Accountant Fees and Services",
    "item_15": "Exhibit and Financial Statement Schedules",
    "item_16": "Form 10-K Summary",
}
_10Q_TITLES = {
    "part1_item_1": "Financial Statements",
    "part1_item_2": "Management's Discussion and Analysis of Financial Condition and Results of Operations",
    "part1_item_3": "Quantitative and Qualitative Disclosures About Market Risk",
    "part1_item_4": "Controls and Procedures",
    "part2_item_1": "Legal Proceedings",
    "part2_item_1a": "Risk Factors",
    "part2_item_2": "Unregistered Sales of Equity Securities and Use of Proceeds",
    "part2_item_3": "Defaults Upon Senior Securities",
    "part2_item_4": "Mine Safety Disclosures",
    "part2_item_5": "Other Information",
    "part2_item_6": "Exhibits",
}


@dataclass(slots=True)
class _Heading:
    unit_index: int
    section: str
    title: str | None
    order: tuple[int, int, int]
    weight: int = 0


def _sectioned_blocks(units: list[_Unit], form_base: str) -> list[Block]:
    """Assign sections to units (see the module docstring) and build Blocks."""
    headings = _find_headings(units, form_base)
    blocks: list[Block] = []
    section: str = "cover"
    title: str | None = "Cover page"
    next_heading = 0
    for i, u in enumerate(units):
        while next_heading < len(headings) and headings[next_heading].unit_index == i:
            h = headings[next_heading]
            section, title = h.section, h.title
            next_heading += 1
        blocks.append(
            Block(text=u.text, section=section, section_title=title, is_table=u.is_table, metadata=u.meta)
        )
    return blocks


def _find_headings(units: list[_Unit], form_base: str) -> list[_Heading]:
    is_10q = form_base == "10-Q"
    is_8k = form_base == "8-K"
    candidates: list[_Heading] = []
    part = 0
    structural: set[int] = set()  # part headings and split-off heading titles: not body text
    for i, u in enumerate(units):
        if u.is_table or len(u.text) > _MAX_HEADING:
            continue
        pm = _PART_RE.match(u.text)
        if pm and not _ITEM_RE.match(u.text) and _title_ok(pm.group("rest")):
            part = _ROMAN[pm.group("part").lower()]
            structural.add(i)
            continue
        m = _ITEM_RE.match(u.text)
        if not m:
            continue
        heading_title = _clean_title(m.group("title"))
        if heading_title and not _title_ok(heading_title):
            continue
        if not heading_title and i + 1 < len(units):
            nxt = units[i + 1]
            if _looks_like_title(nxt):
                heading_title = _clean_title(nxt.text)
                structural.add(i + 1)
        num = int(m.group("num"))
        letter = (m.group("letter") or "").lower()
        sub = m.group("sub")
        item_part = _ROMAN[m.group("part").lower()] if m.group("part") else part
        if is_8k or sub:
            section = f"item_{num}_{sub}" if sub else f"item_{num}"
            order = (0, num, int(sub or 0))
        elif is_10q:
            if item_part == 0:
                item_part = 2 if (num >= 5 or letter) else 1
            section = f"part{item_part}_item_{num}{letter}"
            order = (item_part, num, ord(letter) if letter else 0)
        else:
            section = f"item_{num}{letter}"
            order = (0, num, ord(letter) if letter else 0)
        candidates.append(_Heading(i, section, heading_title or None, order))

    # Weight = text that follows a candidate before the next one; TOC entries have ~none.
    for k, h in enumerate(candidates):
        stop = candidates[k + 1].unit_index if k + 1 < len(candidates) else len(units)
        h.weight = sum(
            len(units[j].text)
            for j in range(h.unit_index + 1, stop)
            if j not in structural and not _PAGE_NUMBER_RE.match(units[j].text)
        )
    real = [h for h in candidates if h.weight >= _MIN_BODY]
    chosen = _heaviest_nondecreasing(real)
    if is_10q and not any(h.section == "part1_item_1" for h in chosen):
        implicit = _implicit_financial_statements(units, chosen[0].unit_index if chosen else len(units))
        if implicit is not None:
            chosen.insert(0, _Heading(implicit, "part1_item_1", None, (1, 1, 0)))
    titles = _10Q_TITLES if is_10q else _10K_TITLES if form_base in ("10-K", "") else {}
    for h in chosen:
        if not h.title or h.title.isupper():
            h.title = titles.get(h.section) or (h.title.title() if h.title else None)
    return chosen


_STATEMENT_HEADING = re.compile(
    r"^(?:condensed\s+)?consolidated\s+(?:statements?|balance\s+sheets?)|^financial\s+statements", re.I
)


def _implicit_financial_statements(units: list[_Unit], stop: int) -> int | None:
    """Where a 10-Q's financial statements start when it has no "Item 1." heading (Netflix).

    The first statement heading ("Consolidated Statements of Operations") after the table of
    contents that is followed closely by a table.
    """
    start = 0
    for i in range(min(stop, len(units))):
        if units[i].is_table and len(re.findall(r"(?im)^item\s*\d", units[i].text)) >= 3:
            start = i + 1  # after the table of contents
            break
    for i in range(start, min(stop, len(units))):
        u = units[i]
        if u.is_table or len(u.text) > _MAX_HEADING or not _STATEMENT_HEADING.search(u.text):
            continue
        if any(units[j].is_table for j in range(i + 1, min(i + 6, len(units)))):
            return i
    return None


def _looks_like_title(u: _Unit) -> bool:
    """The unit after a bare "Item 7." is its title if it reads like one, not like "None."."""
    text = u.text
    return (
        not u.is_table
        and len(text) <= _MAX_TITLE
        and not text.endswith(".")
        and _title_ok(text)
        and not _ITEM_RE.match(text)
        and not _PART_RE.match(text)
    )


def _clean_title(text: str) -> str:
    return _norm_space(text).strip(" .:-–—").strip()


def _title_ok(title: str) -> bool:
    """A heading's title starts like a title, not like a sentence ('Item 7 of this report ...')."""
    if not title:
        return True
    first = title[0]
    return first.isupper() or first.isdigit() or first in "[(\"'“‘"


def _heaviest_nondecreasing(cands: list[_Heading]) -> list[_Heading]:
    """Subsequence with non-decreasing Item order and the most following text (O(n^2), n small)."""
    n = len(cands)
    if n == 0:
        return []
    best = [h.weight for h in cands]
    prev = [-1] * n
    for i in range(n):
        for j in range(i):
            if cands[j].order <= cands[i].order and best[j] + cands[i].weight > best[i]:
                best[i] = best[j] + cands[i].weight
                prev[i] = j
    i = max(range(n), key=lambda k: best[k])
    out: list[_Heading] = []
    while i != -1:
        out.append(cands[i])
        i = prev[i]
    out.reverse()
    return out
