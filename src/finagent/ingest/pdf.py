"""SEC filings as PDF (10-K, 10-Q, 8-K) read with pymupdf.

Why it works the way it does:

* Blocks keep the 0-based PDF page index, so every chunk can be cited to a page.
* Metadata is taken from the most trustworthy source available, field by field: explicit CLI
  overrides, then (``pdf_metadata``) a ``manifest.json`` beside the PDF, then a structured file name
  (``AAPL_2023Q1_10Q.pdf``, whose year and quarter are fiscal), then the cover page. Dataset
  names such as ``2023 Q1 AAPL.pdf`` are deliberately *not* parsed: their quarter labels are not
  fiscal quarters.
* "Item N." headings at the start of a line become ``Block.section`` (``item_7`` in a 10-K,
  ``part1_item_2`` in a 10-Q, ``item_2_02`` in an 8-K); table-of-contents pages, which list every
  Item with a page number, are ignored so they do not reset the section.
* ``page.find_tables()`` costs ~0.45 s per page here and mangles cells, so tables are detected
  from the text instead: a label line followed by numeric cell lines is compacted into one
  ``label | v1 | v2`` row, and a run of such rows (with the short heading lines just above it,
  merged into one header line) becomes a block with ``is_table=True``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pymupdf

from finagent.errors import ParseError
from finagent.finance.company_registry import Company, lookup_builtin
from finagent.finance.document_records import (
    KINDS,
    Block,
    ParsedDocument,
    SourceItem,
    sha256_bytes,
    unusable_item,
)
from finagent.finance.fiscal import fiscal_period, nominal_month_end, quarter_label
from finagent.ingest.pdf_metadata import PdfHints, coerce_date, hints_from_filename, read_manifest
from finagent.ingest.sec.cover import FYE_RX, CoverInfo, normalize_form, parse_cover
from finagent.ingest.sec.page_index import fill_from_index, mark_cover, printed_offset
from finagent.ingest.sec.pdf_items import PAGE_REF_RX, SectionState, page_blocks
from finagent.ingest.text import DATE, normalize_text, parse_long_date

log = logging.getLogger(__name__)

# --------------------------------------------------------------------------- text helpers

# pymupdf flags: keep whitespace, clip to the media box, but expand ligatures ("ﬁ" -> "fi").
_TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP


# --------------------------------------------------------------------------- discovery


def discover_pdfs(
    path: Path,
    *,
    ticker: str | None = None,
    form: str | None = None,
    period_end: date | str | None = None,
    recursive: bool = False,
) -> list[SourceItem]:
    """PDF files at ``path`` (a file, or a directory's ``*.pdf``), loaded lazily.

    ``ticker``/``form``/``period_end`` override whatever the files say (CLI overrides).
    Directories are not searched recursively unless asked: the generic walker calls this once
    per directory.
    """
    path = Path(path)
    if not path.exists():
        return [unusable_item(str(path), "no such file or directory")]
    if path.is_file():
        files = [path]
    elif recursive:
        files = sorted(p for p in path.rglob("*") if p.suffix.lower() == ".pdf" and p.is_file())
    else:
        files = sorted(p for p in path.iterdir() if p.suffix.lower() == ".pdf" and p.is_file())
    override_error: str | None = None
    try:
        overrides = PdfHints(
            source="override",
            ticker=ticker.strip().upper().lstrip("$") if ticker else None,
            form=normalize_form(form),
            period_end=coerce_date(period_end),
        )
    except ValueError as exc:
        overrides = PdfHints(source="override")
        override_error = f"invalid period_end override {period_end!r}: {exc}"
    manifests: dict[Path, tuple[dict[str, PdfHints], str | None]] = {}
    items: list[SourceItem] = []
    for file in files:
        if file.parent not in manifests:
            manifests[file.parent] = read_manifest(file.parent)
        entries, manifest_error = manifests[file.parent]
        hints = [overrides]
        if file.name in entries:
            hints.append(entries[file.name])
        from_name = hints_from_filename(file)
        if from_name:
            hints.append(from_name)
        kind_hint = next((h.form for h in hints if h.form), None) or "other"
        items.append(
            SourceItem(
                uri=str(file),
                load=_loader(file, hints, manifest_error, override_error),
                kind_hint=kind_hint if kind_hint in KINDS else "other",
            )
        )
    return items


def _loader(
    file: Path, hints: list[PdfHints], manifest_error: str | None, override_error: str | None
) -> Callable[[], ParsedDocument]:
    def load() -> ParsedDocument:
        if override_error:
            raise ParseError(str(file), override_error)
        return load_pdf(file, hints=hints, manifest_error=manifest_error)

    return load


# --------------------------------------------------------------------------- loading


def cut_short_pdf(data: bytes, *, repaired: bool) -> str | None:
    """Why a PDF's bytes are not a whole file, or None.

    A PDF ends with its cross-reference table, ``startxref`` and ``%%EOF`` (within the last 1,024
    bytes, as readers require). PyMuPDF opens a truncated file anyway by rebuilding the table from
    the objects it finds (``is_repaired``), so the pages cut off simply go missing.
    """
    if b"%%EOF" in data[-1024:]:
        return None
    table = "; its cross-reference table is missing" if repaired else ""
    return f"the file is cut short: no %%EOF end marker at its end{table}"


def _open(path: Path) -> tuple[bytes, pymupdf.Document]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ParseError(str(path), f"cannot read file: {exc.strerror or exc}") from exc
    if not data:
        raise ParseError(str(path), "empty file")
    if b"%PDF" not in data[:1024]:
        raise ParseError(str(path), "not a PDF (no %PDF header)")
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:
        raise ParseError(str(path), f"corrupt PDF: {exc}") from exc
    cut = cut_short_pdf(data, repaired=doc.is_repaired)
    if cut is not None:
        doc.close()
        raise ParseError(str(path), cut)
    if doc.needs_pass or doc.is_encrypted:
        doc.close()
        raise ParseError(str(path), "encrypted PDF (password required)")
    if doc.page_count == 0:
        doc.close()
        raise ParseError(str(path), "PDF has no pages")
    return data, doc


def _page_lines(page: pymupdf.Page, first_page_of_doc: bool) -> list[tuple[int, str]]:
    """(pymupdf block number, normalized line) in the page's text order; empty lines dropped."""
    out: list[tuple[int, str]] = []
    for block in page.get_text("blocks", flags=_TEXT_FLAGS):
        if block[6] != 0:  # image block
            continue
        for raw in normalize_text(block[4]).splitlines():
            line = raw.strip()
            if line:
                out.append((int(block[5]), line))
    return _drop_nav_line(out, first_page_of_doc)


def _drop_nav_line(lines: list[tuple[int, str]], first_page_of_doc: bool) -> list[tuple[int, str]]:
    """Nav links such as "Table of Contents" at the top of every page are noise."""
    if lines and not first_page_of_doc and lines[0][1].lower() == "table of contents":
        return lines[1:]
    return lines


_FOOTER_DIGITS = re.compile(r"\d+")
_BARE_NUMBER = re.compile(r"^(?:page\s+)?(\d{1,3})$", re.I)


def strip_page_footers(pages: list[list[tuple[int, str]]]) -> list[list[tuple[int, str]]]:
    """Drop running footers ("Apple Inc. | Q3 2022 Form 10-Q | 14", page numbers).

    A footer is one of a page's last two lines whose digit-blind form ends at least a third of
    the pages (and 3+ pages). A bare number is only dropped when it is plausibly that page's
    number, so the last cell of a table that ends a page is kept.
    """
    if len(pages) < 3:
        return pages
    counts: dict[str, int] = {}
    for lines in pages:
        for key in {_FOOTER_DIGITS.sub("#", line.lower()) for _, line in lines[-2:]}:
            counts[key] = counts.get(key, 0) + 1
    threshold = max(3, len(pages) / 3)
    frequent = {key for key, n in counts.items() if n >= threshold}
    if not frequent:
        return pages
    out: list[list[tuple[int, str]]] = []
    for index, lines in enumerate(pages):
        keep = list(lines)
        for _ in range(2):
            if not keep or _FOOTER_DIGITS.sub("#", keep[-1][1].lower()) not in frequent:
                break
            number = _BARE_NUMBER.match(keep[-1][1])
            if number and not -3 <= index + 1 - int(number.group(1)) <= 20:
                break
            keep.pop()
        out.append(keep)
    return out


def page_text_blocks(pages: Iterable[tuple[int, str]], form: str | None = None) -> list[Block]:
    """Blocks for page texts that come without layout (e.g. FinanceBench's ``pages.jsonl``).

    Same rules as for PDFs (Item sections, compacted table rows, footers dropped), but prose
    keeps its line breaks because there are no paragraph boundaries to unwrap by.
    """
    numbers: list[int] = []
    line_pages: list[list[tuple[int, str]]] = []
    for position, (page, text) in enumerate(pages):
        lines = [(0, ln.strip()) for ln in normalize_text(text).splitlines() if ln.strip()]
        numbers.append(page)
        line_pages.append(_drop_nav_line(lines, position == 0))
    state = SectionState(form=normalize_form(form))
    blocks: list[Block] = []
    for page, lines in zip(numbers, strip_page_footers(line_pages), strict=True):
        blocks += page_blocks(page, lines, state, joiner="\n")
    texts = [[line for _, line in lines] for lines in line_pages]
    _finish_sections(blocks, texts, state.form, printed_offset(texts))
    return blocks


def _finish_sections(
    blocks: list[Block], pages: list[list[str]], form: str | None, offset: int | None
) -> None:
    """Parts the headings could not give: from the filing's page index, and the cover page."""
    fill_from_index(blocks, pages, form, offset)
    mark_cover(blocks, form)


def load_pdf(
    path: Path,
    *,
    hints: Iterable[PdfHints] = (),
    manifest_error: str | None = None,
) -> ParsedDocument:
    """Parse one PDF filing; any failure becomes ``ParseError`` with the reason."""
    path = Path(path)
    data, doc = _open(path)
    try:
        try:
            pages = [_page_lines(doc.load_page(i), i == 0) for i in range(doc.page_count)]
        except Exception as exc:
            raise ParseError(str(path), f"cannot extract text: {exc}") from exc
        if not any(pages):
            raise ParseError(str(path), "no extractable text (scanned PDF? OCR is not supported)")
        offset = printed_offset([[line for _, line in lines] for lines in pages])
        return _build(path, data, strip_page_footers(pages), list(hints), manifest_error, offset)
    except ParseError:
        raise
    except Exception as exc:  # never let a parser bug escape as anything but ParseError
        raise ParseError(str(path), f"{type(exc).__name__}: {exc}") from exc
    finally:
        doc.close()


@dataclass(slots=True)
class _Resolved:
    ticker: str | None = None
    company: Company | None = None
    form: str | None = None
    period_end: date | None = None
    fiscal_year: int | None = None
    fiscal_quarter: int | None = None
    fye_month: int | None = None
    sources: dict[str, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


_REPORTED_RX = re.compile(
    r"results\s+(?:of\s+operations\s+)?for\s+(?:its|the)\s+[^.]{0,60}?\b(quarter|year)\s+ended\s+"
    r"(" + DATE + ")",
    re.I,
)
_SIGNATURE_DATE_RX = re.compile(r"\bDated?\s*:?\s*(" + DATE + ")")
_SIGNATURE_HEADING_RX = re.compile(r"^SIGNATURES?$", re.I)
_ANY_DATE_RX = re.compile(DATE)


def _signature_date(pages: list[list[tuple[int, str]]]) -> date | None:
    """Date on the signature page: the filing date, near enough for ``published_at``."""
    for index in range(len(pages) - 1, max(-1, len(pages) - 40), -1):
        lines = [line for _, line in pages[index]]
        for i, line in enumerate(lines):
            if _SIGNATURE_HEADING_RX.match(line):
                following = " ".join(lines[i + 1 : i + 40])
                if PAGE_REF_RX.match(lines[i + 1] if i + 1 < len(lines) else ""):
                    continue  # a table-of-contents entry, not the signature page
                m = _SIGNATURE_DATE_RX.search(following) or _ANY_DATE_RX.search(following)
                if m:
                    return parse_long_date(m.group(0))
    tail = re.sub(r"\s+", " ", "\n".join(line for page in pages[-6:] for _, line in page))
    found = list(_SIGNATURE_DATE_RX.finditer(tail))
    return parse_long_date(found[-1].group(1)) if found else None


def _first(hints: list[PdfHints], attr: str) -> tuple[Any, str | None]:
    for h in hints:
        value = getattr(h, attr)
        if value is not None:
            return value, h.source
    return None, None


def _resolve(hints: list[PdfHints], cover: CoverInfo, full_text: str) -> _Resolved:
    """Merge metadata sources by priority and derive the fiscal period."""
    from_cover, cover_company = _cover_hints(cover)
    all_hints = [*hints, from_cover]
    r = _Resolved()
    _note_overrides(hints, from_cover, r)
    r.form, form_src = _first(all_hints, "form")
    r.ticker, ticker_src = _first(all_hints, "ticker")
    r.period_end, pe_src = _first(all_hints, "period_end")
    for key, src in (("form", form_src), ("ticker", ticker_src), ("period_end", pe_src)):
        if src:
            r.sources[key] = src
    if r.ticker:
        r.company = lookup_builtin(r.ticker)
        if r.company:
            r.ticker = r.company.ticker
    if r.company is None and cover_company is not None and r.ticker == from_cover.ticker:
        r.company = cover_company
    fye = _fiscal_calendar(r, cover, full_text)
    # Fiscal period: the highest-priority source that dates the document decides.
    deciding = next((h for h in all_hints if h.fiscal_year is not None or h.period_end is not None), None)
    if deciding is not None and deciding.fiscal_year is not None:
        r.fiscal_year = deciding.fiscal_year
        r.fiscal_quarter = deciding.fiscal_quarter if r.form != "10-K" else None
        r.sources["fiscal_period"] = deciding.source
    elif r.period_end is not None:
        r.sources["fiscal_period"] = r.sources.get("period_end", "cover")
        if r.form == "8-K":
            _fiscal_for_8k(r, full_text, fye)
        else:
            r.fiscal_year, quarter = fiscal_period(r.period_end, fye, _offset(r))
            r.fiscal_quarter = None if r.form == "10-K" else quarter
    # A period end from the cover is still useful when the file name gave the fiscal period.
    if r.period_end is None and cover.period_end is not None and r.form in ("10-K", "10-Q"):
        r.period_end = cover.period_end
        r.sources["period_end"] = "cover"
    return r


def _cover_hints(cover: CoverInfo) -> tuple[PdfHints, Company | None]:
    """What the cover says as the last of the sources, and the built-in company its symbol or name is."""
    cover_ticker = None
    cover_company = lookup_builtin(cover.trading_symbol) if cover.trading_symbol else None
    if cover_company is None and cover.company_name:
        cover_company = lookup_builtin(cover.company_name)
    if cover_company:
        cover_ticker = cover_company.ticker
    elif cover.trading_symbol:
        cover_ticker = cover.trading_symbol
    cover_period = cover.event_date if cover.form == "8-K" else cover.period_end
    return PdfHints(
        source="cover", ticker=cover_ticker, form=cover.form, period_end=cover_period
    ), cover_company


def _fiscal_calendar(r: _Resolved, cover: CoverInfo, full_text: str) -> int:
    """The fiscal year's last month: the built-in table's, else what the document says, else
    December (noted as assumed)."""
    if r.company:
        r.fye_month = r.company.fiscal_year_end_month
        r.sources["fiscal_year_end_month"] = "builtin"
    elif r.form == "10-K" and r.period_end:
        r.fye_month = nominal_month_end(r.period_end)[1]
        r.sources["fiscal_year_end_month"] = "period_end"
    else:
        fye_date = cover.fye_date
        if fye_date is None:
            m = FYE_RX.search(re.sub(r"\s+", " ", full_text))
            fye_date = parse_long_date(m.group(1)) if m else None
        if fye_date:
            r.fye_month = nominal_month_end(fye_date)[1]
            r.sources["fiscal_year_end_month"] = "document"
    if r.fye_month is None:
        r.extra["fiscal_calendar_assumed"] = True
    return r.fye_month or 12


_OPTIONS = {"ticker": "--ticker", "form": "--form", "period_end": "--period-end"}


def _note_overrides(hints: list[PdfHints], cover: PdfHints, r: _Resolved) -> None:
    """The user's options win over the PDF's cover; a disagreement is kept as a note (as for HTML)."""
    override = next((h for h in hints if h.source == "override"), None)
    if override is None:
        return
    notes = []
    for name, option in _OPTIONS.items():
        given, read = getattr(override, name), getattr(cover, name)
        if given is not None and read is not None and given != read:
            shown, was = (v.isoformat() if isinstance(v, date) else v for v in (given, read))
            notes.append(f"{option} {shown} used instead of {was} read from the cover")
    if notes:
        r.extra["identity_notes"] = notes


def _fiscal_for_8k(r: _Resolved, text: str, fye: int) -> None:
    """An 8-K reporting results belongs to the reported period, others to the event's quarter."""
    assert r.period_end is not None
    m = _REPORTED_RX.search(re.sub(r"\s+", " ", text))
    reported = parse_long_date(m.group(2)) if m else None
    if m and reported:
        r.fiscal_year, quarter = fiscal_period(reported, fye, _offset(r))
        r.fiscal_quarter = None if m.group(1).lower() == "year" else quarter
        r.extra["reported_period_end"] = reported.isoformat()
        r.sources["fiscal_period"] = "reported_period"
        return
    # Mid-month day avoids the 52/53-week spill-over rule, which is meant for period ends.
    r.fiscal_year, r.fiscal_quarter = fiscal_period(r.period_end.replace(day=15), fye, _offset(r))


def _offset(r: _Resolved) -> int:
    """Fiscal-year naming offset of the resolved company (retailers naming by start year)."""
    return r.company.fiscal_year_offset if r.company else 0


def _build(
    path: Path,
    data: bytes,
    pages: list[list[tuple[int, str]]],
    hints: list[PdfHints],
    manifest_error: str | None,
    offset: int | None = None,
) -> ParsedDocument:
    cover_text = "\n".join(line for page in pages[:2] for _, line in page)
    cover = parse_cover(cover_text)
    full_text = "\n".join(line for page in pages for _, line in page)
    r = _resolve(hints, cover, full_text)

    blocks: list[Block] = []
    state = SectionState(form=r.form)
    for index, lines in enumerate(pages):
        blocks.extend(page_blocks(index, lines, state))
    _finish_sections(blocks, [[line for _, line in lines] for lines in pages], r.form, offset)

    signed = _signature_date(pages)
    published = datetime(signed.year, signed.month, signed.day, tzinfo=UTC) if signed else None

    company_name = r.company.name if r.company else cover.company_name
    form = r.form or "other"
    kind = form if form in KINDS else "other"
    who = r.ticker or company_name or path.stem
    title_parts = [who, form if form != "other" else "filing"]
    if r.form == "8-K" and r.period_end:
        title_parts.append(r.period_end.isoformat())
    elif r.fiscal_year is not None:
        title_parts.append(quarter_label(r.fiscal_year, r.fiscal_quarter))
    if r.form != "8-K" and r.period_end:
        title_parts.append(f"(period ended {r.period_end.isoformat()})")
    metadata: dict[str, Any] = {
        "file": str(path),
        "pages": len(pages),
        "metadata_sources": r.sources,
        **r.extra,
    }
    if cover.company_name:
        metadata["registrant"] = cover.company_name
    if published:
        metadata["published_at_source"] = "signature date"
    if manifest_error:
        metadata["manifest_error"] = manifest_error
    return ParsedDocument(
        kind=kind,
        title=" ".join(title_parts),
        source_uri=str(path),
        content_sha256=sha256_bytes(data),
        blocks=blocks,
        ticker=r.ticker,
        company_name=company_name,
        fiscal_year=r.fiscal_year,
        fiscal_quarter=r.fiscal_quarter,
        period_end=r.period_end,
        published_at=published,
        fiscal_year_end_month=r.fye_month,
        metadata=metadata,
    )


# --------------------------------------------------------------------------- sections


# --------------------------------------------------------------------------- tables
