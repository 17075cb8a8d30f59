"""SEC filings as PDF (10-K, 10-Q, 8-K) read with pymupdf.

Why it works the way it does:

* Blocks keep the 0-based PDF page index, so every chunk can be cited to a page.
* Metadata is taken from the most trustworthy source available, field by field: explicit CLI
  overrides, then a ``manifest.json`` beside the PDF, then a structured file name
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

import json
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pymupdf

from finagent.errors import ParseError
from finagent.finance.companies import Company, lookup_builtin
from finagent.finance.dates import parse_month_day_year
from finagent.finance.documents import KINDS, Block, ParsedDocument, SourceItem, sha256_bytes, unusable_item
from finagent.finance.fiscal import fiscal_period, nominal_month_end, quarter_label

log = logging.getLogger(__name__)

# --------------------------------------------------------------------------- text helpers

# Ligatures and odd spaces that pymupdf may emit; expanding them keeps words searchable.
_CHAR_MAP = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
    "\xa0": " ",
    "\u2002": " ",
    "\u2003": " ",
    "\u2009": " ",
    "\u200a": " ",
    "\u202f": " ",
    "\u200b": "",
    "\u2011": "-",
    "\ufeff": "",
}
_ODD_CHARS = re.compile("[" + "".join(_CHAR_MAP) + "]")
# Only runs of spaces or non-space blanks: rewriting every single space would be slow.
_SPACES = re.compile(r"[ \t\f\v]{2,}|[\t\f\v]")
# pymupdf flags: keep whitespace, clip to the media box, but expand ligatures ("ﬁ" -> "fi").
_TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP


def normalize_text(text: str) -> str:
    """Expand ligatures and odd spaces, collapse runs of spaces (newlines are kept)."""
    if not text.isascii():  # every odd character is non-ASCII; the check is a fast C loop
        text = _ODD_CHARS.sub(lambda m: _CHAR_MAP[m.group()], text)
    if "  " in text or "\t" in text or "\f" in text or "\v" in text:
        text = _SPACES.sub(" ", text)
    return text


_DATE = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?\s+\d{1,2}\s*,?\s*\d{4}"
)


def parse_long_date(text: str) -> date | None:
    """Parse "June 25, 2022" / "Sept. 30 2022"; None when it is not a real date."""
    return parse_month_day_year(text)


# --------------------------------------------------------------------------- cover page


@dataclass(slots=True)
class CoverInfo:
    """What a filing's cover page says about itself (any field may be missing)."""

    form: str | None = None
    period_end: date | None = None  # quarter / fiscal year end (10-Q, 10-K)
    event_date: date | None = None  # date of report (8-K)
    company_name: str | None = None
    trading_symbol: str | None = None
    fye_date: date | None = None  # a "fiscal year ended <date>" seen in the text


_FORM_RX = re.compile(r"\bFORM\s+(10-?K|10-?Q|8-?K)\b", re.I)
# "For the quarterly period ended ..." as the cover prints it (capital F), not a mid-sentence
# "... for the quarter ended June 26, 2022 include ..." comparison.
_PERIOD_RX = re.compile(
    r"\b(?:For|FOR)\s+(?i:the\s+(quarterly\s+period|fiscal\s+quarter|quarter|fiscal\s+year|year)"
    r"\s+ended\s*:?\s*(" + _DATE + "))"
)
_EVENT_RX = re.compile(
    r"(" + _DATE + r")\s*\(?\s*Date\s+of\s+Report|Date\s+of\s+Report[^)]{0,60}\)?\s*:?\s*(" + _DATE + ")",
    re.I,
)
_FYE_RX = re.compile(r"\bfiscal\s+year\s+ended\s*:?\s*(" + _DATE + ")", re.I)
_REGISTRANT_RX = re.compile(r"\(\s*exact\s+name\s+of\s+registrant", re.I)
_FILE_NUMBER_RX = re.compile(r"commission\s+file\s+(?:number|no\.?)", re.I)
_SYMBOL_HEADER_RX = re.compile(r"trading\s*symbol", re.I)
_SYMBOL_RX = re.compile(r"^[A-Z]{1,5}(?:[.-][A-Z])?$")
_NOT_SYMBOLS = {"NYSE", "NASDAQ", "LLC", "INC", "NONE", "NA", "USD", "II", "III", "IV", "OR", "AND"}


def normalize_form(form: str | None) -> str | None:
    """ "10Q", "10-q", "FORM 10-Q" -> "10-Q"; other values are upper-cased as given."""
    if not form:
        return None
    compact = re.sub(r"[^0-9A-Z]", "", form.upper().replace("FORM", ""))
    mapping = {"10K": "10-K", "10Q": "10-Q", "8K": "8-K", "10K405": "10-K", "10KT": "10-K", "10QT": "10-Q"}
    return mapping.get(compact, form.strip().upper())


def parse_cover(text: str) -> CoverInfo:
    """Read form, period, registrant and trading symbol from the first pages of a filing."""
    info = CoverInfo()
    text = normalize_text(text)
    flat = re.sub(r"\s+", " ", text)
    m = _FORM_RX.search(flat)
    if m:
        info.form = normalize_form(m.group(1))
    m = _PERIOD_RX.search(flat)
    if m:
        info.period_end = parse_long_date(m.group(2))
    m = _EVENT_RX.search(flat)
    if m:
        info.event_date = parse_long_date(m.group(1) or m.group(2))
    m = _FYE_RX.search(flat)
    if m:
        info.fye_date = parse_long_date(m.group(1))
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    info.company_name = _registrant_name(lines)
    info.trading_symbol = _trading_symbol(lines)
    return info


def _registrant_name(lines: list[str]) -> str | None:
    for i, line in enumerate(lines):
        if _REGISTRANT_RX.search(line):
            before = _REGISTRANT_RX.split(line)[0].strip()
            if before:
                return before
            if i > 0:
                return lines[i - 1]
    for i, line in enumerate(lines):
        if _FILE_NUMBER_RX.search(line) and i + 1 < len(lines):
            candidate = lines[i + 1]
            if re.search(r"[A-Za-z]{2}", candidate) and not re.match(r"^[\d\-\s]+$", candidate):
                return candidate
    return None


def _trading_symbol(lines: list[str]) -> str | None:
    for i, line in enumerate(lines):
        header = line
        if line.lower() == "trading" and i + 1 < len(lines):
            header = f"{line} {lines[i + 1]}"
        if not _SYMBOL_HEADER_RX.search(header):
            continue
        for candidate in lines[i + 1 : i + 16]:
            token = candidate.strip()
            if _SYMBOL_RX.match(token) and token not in _NOT_SYMBOLS:
                return token
        return None
    return None


# --------------------------------------------------------------------------- metadata sources


@dataclass(slots=True)
class _Hints:
    """Metadata offered by one source (overrides, manifest, file name or cover)."""

    source: str
    ticker: str | None = None
    form: str | None = None
    period_end: date | None = None
    fiscal_year: int | None = None
    fiscal_quarter: int | None = None


_NAME_WHO = r"(?P<who>[A-Za-z0-9&.\-]+?)"
_FILENAME_PATTERNS = (
    (re.compile(rf"^{_NAME_WHO}_(?P<fy>\d{{4}})Q(?P<q>[1-4])_10-?Q$", re.I), "10-Q"),
    (re.compile(rf"^{_NAME_WHO}_(?P<fy>\d{{4}})_10-?K$", re.I), "10-K"),
    (re.compile(rf"^{_NAME_WHO}_(?P<date>\d{{4}}-\d{{2}}-\d{{2}})_8-?K$", re.I), "8-K"),
)


def _resolve_who(who: str) -> str | None:
    company = lookup_builtin(who)
    if company:
        return company.ticker
    if re.fullmatch(r"[A-Z]{1,5}", who):
        return who
    return None


def hints_from_filename(path: Path) -> _Hints | None:
    """``AAPL_2023Q1_10Q`` / ``AAPL_2023_10K`` / ``AAPL_2023-05-04_8K`` (year/quarter are fiscal)."""
    for rx, form in _FILENAME_PATTERNS:
        m = rx.match(path.stem)
        if not m:
            continue
        hints = _Hints(source="filename", ticker=_resolve_who(m.group("who")), form=form)
        groups = m.groupdict()
        if groups.get("fy"):
            hints.fiscal_year = int(groups["fy"])
        if groups.get("q"):
            hints.fiscal_quarter = int(groups["q"])
        if groups.get("date"):
            try:
                hints.period_end = date.fromisoformat(groups["date"])
            except ValueError:
                return None
        return hints
    return None


def _coerce_date(value: Any) -> date | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value).strip()[:10])


def _read_manifest(directory: Path) -> tuple[dict[str, _Hints], str | None]:
    """Manifest entries keyed by file name; a broken manifest is reported, not fatal."""
    path = directory / "manifest.json"
    if not path.is_file():
        return {}, None
    try:
        entries = json.loads(path.read_text(encoding="utf-8-sig"))
        if not isinstance(entries, list):
            raise ValueError("expected a JSON list of entries")
        out: dict[str, _Hints] = {}
        for entry in entries:
            if not isinstance(entry, dict) or not entry.get("file"):
                continue
            for name in ("file", "ticker", "form"):
                if entry.get(name) is not None and not isinstance(entry[name], str):
                    raise ValueError(f"entry {entry['file']!r}: '{name}' must be text")
            out[str(entry["file"])] = _Hints(
                source="manifest",
                ticker=(str(entry["ticker"]).strip().upper() if entry.get("ticker") else None),
                form=normalize_form(entry.get("form")),
                period_end=_coerce_date(entry.get("period_end")),
                fiscal_year=int(entry["fiscal_year"]) if entry.get("fiscal_year") else None,
                fiscal_quarter=int(entry["fiscal_quarter"]) if entry.get("fiscal_quarter") else None,
            )
        return out, None
    except (OSError, ValueError, TypeError) as exc:
        log.warning("ignoring unreadable manifest %s: %s", path, exc)
        return {}, f"{path}: {exc}"


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
        overrides = _Hints(
            source="override",
            ticker=ticker.strip().upper().lstrip("$") if ticker else None,
            form=normalize_form(form),
            period_end=_coerce_date(period_end),
        )
    except ValueError as exc:
        overrides = _Hints(source="override")
        override_error = f"invalid period_end override {period_end!r}: {exc}"
    manifests: dict[Path, tuple[dict[str, _Hints], str | None]] = {}
    items: list[SourceItem] = []
    for file in files:
        if file.parent not in manifests:
            manifests[file.parent] = _read_manifest(file.parent)
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
    file: Path, hints: list[_Hints], manifest_error: str | None, override_error: str | None
) -> Callable[[], ParsedDocument]:
    def load() -> ParsedDocument:
        if override_error:
            raise ParseError(str(file), override_error)
        return load_pdf(file, hints=hints, manifest_error=manifest_error)

    return load


# --------------------------------------------------------------------------- loading


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
    state = _SectionState(form=normalize_form(form))
    blocks: list[Block] = []
    for page, lines in zip(numbers, strip_page_footers(line_pages), strict=True):
        blocks += _page_blocks(page, lines, state, joiner="\n")
    return blocks


def load_pdf(
    path: Path,
    *,
    hints: Iterable[_Hints] = (),
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
        return _build(path, data, strip_page_footers(pages), list(hints), manifest_error)
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
    r"(" + _DATE + ")",
    re.I,
)
_SIGNATURE_DATE_RX = re.compile(r"\bDated?\s*:?\s*(" + _DATE + ")")
_SIGNATURE_HEADING_RX = re.compile(r"^SIGNATURES?$", re.I)
_ANY_DATE_RX = re.compile(_DATE)


def _signature_date(pages: list[list[tuple[int, str]]]) -> date | None:
    """Date on the signature page: the filing date, near enough for ``published_at``."""
    for index in range(len(pages) - 1, max(-1, len(pages) - 40), -1):
        lines = [line for _, line in pages[index]]
        for i, line in enumerate(lines):
            if _SIGNATURE_HEADING_RX.match(line):
                following = " ".join(lines[i + 1 : i + 40])
                if _PAGE_REF_RX.match(lines[i + 1] if i + 1 < len(lines) else ""):
                    continue  # a table-of-contents entry, not the signature page
                m = _SIGNATURE_DATE_RX.search(following) or _ANY_DATE_RX.search(following)
                if m:
                    return parse_long_date(m.group(0))
    tail = re.sub(r"\s+", " ", "\n".join(line for page in pages[-6:] for _, line in page))
    found = list(_SIGNATURE_DATE_RX.finditer(tail))
    return parse_long_date(found[-1].group(1)) if found else None


def _first(hints: list[_Hints], attr: str) -> tuple[Any, str | None]:
    for h in hints:
        value = getattr(h, attr)
        if value is not None:
            return value, h.source
    return None, None


def _resolve(hints: list[_Hints], cover: CoverInfo, full_text: str) -> _Resolved:
    """Merge metadata sources by priority and derive the fiscal period."""
    cover_ticker = None
    cover_company = lookup_builtin(cover.trading_symbol) if cover.trading_symbol else None
    if cover_company is None and cover.company_name:
        cover_company = lookup_builtin(cover.company_name)
    if cover_company:
        cover_ticker = cover_company.ticker
    elif cover.trading_symbol:
        cover_ticker = cover.trading_symbol
    cover_period = cover.event_date if cover.form == "8-K" else cover.period_end
    from_cover = _Hints(source="cover", ticker=cover_ticker, form=cover.form, period_end=cover_period)
    all_hints = [*hints, from_cover]

    r = _Resolved()
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
    if r.company is None and cover_company is not None and r.ticker == cover_ticker:
        r.company = cover_company

    # Fiscal calendar: built-in table, else what the document says, else assume December.
    if r.company:
        r.fye_month = r.company.fiscal_year_end_month
        r.sources["fiscal_year_end_month"] = "builtin"
    elif r.form == "10-K" and r.period_end:
        r.fye_month = nominal_month_end(r.period_end)[1]
        r.sources["fiscal_year_end_month"] = "period_end"
    else:
        fye_date = cover.fye_date
        if fye_date is None:
            m = _FYE_RX.search(re.sub(r"\s+", " ", full_text))
            fye_date = parse_long_date(m.group(1)) if m else None
        if fye_date:
            r.fye_month = nominal_month_end(fye_date)[1]
            r.sources["fiscal_year_end_month"] = "document"
    fye = r.fye_month or 12
    if r.fye_month is None:
        r.extra["fiscal_calendar_assumed"] = True

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
    hints: list[_Hints],
    manifest_error: str | None,
) -> ParsedDocument:
    cover_text = "\n".join(line for page in pages[:2] for _, line in page)
    cover = parse_cover(cover_text)
    full_text = "\n".join(line for page in pages for _, line in page)
    r = _resolve(hints, cover, full_text)

    blocks: list[Block] = []
    state = _SectionState(form=r.form)
    for index, lines in enumerate(pages):
        blocks.extend(_page_blocks(index, lines, state))

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

_ITEM_RX = re.compile(r"^(?:ITEM|Item)\s+(\d{1,2}(?:\.\d{2})?[A-Ca-c]?)(?:\s*[.:\-–—]\s*|\s+|$)(.*)$")
_PART_RX = re.compile(r"^PART\s+(IV|III|II|I)\b\s*[.:\-–—]?\s*(.*)$", re.I)
_PAGE_REF_RX = re.compile(r"^(?:pages?\s+)?\d{1,3}(?:\s*[-–,]\s*\d{1,3})*$", re.I)
_TRAILING_PAGE_RX = re.compile(r"\s\d{1,3}$")

ITEMS_10K: dict[str, str] = {
    "1": "Business",
    "1A": "Risk Factors",
    "1B": "Unresolved Staff Comments",
    "1C": "Cybersecurity",
    "2": "Properties",
    "3": "Legal Proceedings",
    "4": "Mine Safety Disclosures",
    "5": "Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases "
    "of Equity Securities",
    "6": "[Reserved] / Selected Financial Data",
    "7": "Management's Discussion and Analysis of Financial Condition and Results of Operations",
    "7A": "Quantitative and Qualitative Disclosures About Market Risk",
    "8": "Financial Statements and Supplementary Data",
    "9": "Changes in and Disagreements with Accountants on Accounting and Financial Disclosure",
    "9A": "Controls and Procedures",
    "9B": "Other Information",
    "9C": "Disclosure Regarding Foreign Jurisdictions that Prevent Inspections",
    "10": "Directors, Executive Officers and Corporate Governance",
    "11": "Executive Compensation",
    "12": "Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters",
    "13": "Certain Relationships and Related Transactions, and Director Independence",
    "14": "Principal Accountant Fees and Services",
    "15": "Exhibits and Financial Statement Schedules",
    "16": "Form 10-K Summary",
}
ITEMS_10Q: dict[tuple[int, str], str] = {
    (1, "1"): "Financial Statements",
    (1, "2"): "Management's Discussion and Analysis of Financial Condition and Results of Operations",
    (1, "3"): "Quantitative and Qualitative Disclosures About Market Risk",
    (1, "4"): "Controls and Procedures",
    (2, "1"): "Legal Proceedings",
    (2, "1A"): "Risk Factors",
    (2, "2"): "Unregistered Sales of Equity Securities and Use of Proceeds",
    (2, "3"): "Defaults Upon Senior Securities",
    (2, "4"): "Mine Safety Disclosures",
    (2, "5"): "Other Information",
    (2, "6"): "Exhibits",
}
ITEMS_8K: dict[str, str] = {
    "1.01": "Entry into a Material Definitive Agreement",
    "1.02": "Termination of a Material Definitive Agreement",
    "2.01": "Completion of Acquisition or Disposition of Assets",
    "2.02": "Results of Operations and Financial Condition",
    "2.03": "Creation of a Direct Financial Obligation",
    "2.05": "Costs Associated with Exit or Disposal Activities",
    "2.06": "Material Impairments",
    "3.02": "Unregistered Sales of Equity Securities",
    "5.02": "Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain "
    "Officers; Compensatory Arrangements of Certain Officers",
    "5.03": "Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year",
    "5.07": "Submission of Matters to a Vote of Security Holders",
    "7.01": "Regulation FD Disclosure",
    "8.01": "Other Events",
    "9.01": "Financial Statements and Exhibits",
}
_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4}


@dataclass(slots=True)
class _SectionState:
    """Section tracking across pages: headings carry over until the next one."""

    form: str | None
    part: int | None = None
    last_item: str | None = None
    section: str | None = None
    title: str | None = None


@dataclass(slots=True)
class _Heading:
    kind: str  # "item", "part", or "exhibits" / "statements" (after the last Item)
    number: str
    rest: str


def _item_order(number: str) -> tuple[float, str]:
    m = re.match(r"(\d+(?:\.\d+)?)(.*)", number)
    return (float(m.group(1)), m.group(2)) if m else (0.0, number)


def _valid_item(number: str, form: str | None) -> bool:
    if form == "8-K":
        return "." in number
    if "." in number:
        return form is None
    if form == "10-Q":
        return number in {"1", "1A", "2", "3", "4", "5", "6"}
    if form == "10-K":
        return number in ITEMS_10K
    return True


def _starts_like_title(rest: str) -> bool:
    return not rest or rest[0].isupper() or rest[0] in "“\"'([" or rest[0].isdigit()


def match_heading(line: str, form: str | None = None) -> _Heading | None:
    """An "Item N." or "PART II" heading at the start of a line, or None for body text."""
    if len(line) > 200 or line[:1] not in "IiPp":
        return None
    m = _ITEM_RX.match(line)
    if m:
        number, rest = m.group(1).upper(), m.group(2).strip()
        if _valid_item(number, form) and _starts_like_title(rest):
            return _Heading("item", number, rest)
        return None
    m = _PART_RX.match(line)
    if m and len(line) <= 80:
        rest = m.group(2).strip()
        if _starts_like_title(rest):
            return _Heading("part", m.group(1).upper(), rest)
    return None


def _is_toc_page(lines: list[str], form: str | None) -> bool:
    """A page listing several Item headings each followed by a page number."""
    refs = 0
    for i, line in enumerate(lines):
        heading = match_heading(line, form)
        if heading is None or heading.kind != "item":
            continue
        if _TRAILING_PAGE_RX.search(line) or any(_PAGE_REF_RX.match(n) for n in lines[i + 1 : i + 4]):
            refs += 1
    return refs >= 3


_SIGNATURES_RX = re.compile(r"^SIGNATURES?$")
_STATEMENTS_RX = re.compile(
    r"^(?:report of independent registered public accounting firm|"
    r"(?:condensed )?consolidated (?:and combined )?(?:statements? of|balance sheets?))",
    re.I,
)
_LAST_ITEMS = {"10-K": {"15", "16"}, "10-Q": {"6"}}


def _late_heading(line: str, index_on_page: int, state: _SectionState) -> _Heading | None:
    """Headings after the last Item: the signature page, then appended financial statements.

    Many 10-Ks (Pfizer, PepsiCo) put the statements after the signatures; calling those pages
    "Item 16" would mislead, so they become ``item_8`` and the rest ``exhibits``.
    """
    last_items = _LAST_ITEMS.get(state.form or "")
    if not last_items or state.last_item not in last_items:
        return None
    if _SIGNATURES_RX.match(line) and state.section != "exhibits":
        return _Heading("exhibits", "", "")
    if (
        state.form == "10-K"
        and index_on_page < 4
        and len(line) <= 120
        and state.section != "item_8"
        and _STATEMENTS_RX.match(line)
    ):
        return _Heading("statements", "", "")
    return None


def _apply_heading(state: _SectionState, heading: _Heading) -> None:
    if heading.kind == "part":
        state.part = _ROMAN[heading.number]
        state.last_item = None
        return
    if heading.kind == "exhibits":
        state.section, state.title = "exhibits", "Signatures and exhibits"
        return
    if heading.kind == "statements":
        state.section, state.title = "item_8", ITEMS_10K["8"]
        return
    number = heading.number
    form = state.form
    if form == "10-Q":
        if state.part is None:
            state.part = 2 if number in {"1A", "5", "6"} else 1
        elif (
            state.part == 1
            and state.last_item is not None
            and _item_order(number) < _item_order(state.last_item)
        ):
            state.part = 2  # Part II started without a "PART II" line
        state.section = f"part{state.part}_item_{number.lower()}"
        state.title = ITEMS_10Q.get((state.part, number)) or heading.rest or f"Item {number}"
    elif form == "8-K" or "." in number:
        state.section = f"item_{number.replace('.', '_').lower()}"
        state.title = heading.rest.rstrip(".") or ITEMS_8K.get(number) or f"Item {number}"
    else:
        state.section = f"item_{number.lower()}"
        state.title = (ITEMS_10K.get(number) if form == "10-K" else None) or heading.rest or f"Item {number}"
    state.last_item = number


def _page_blocks(
    page: int, lines: list[tuple[int, str]], state: _SectionState, joiner: str = " "
) -> list[Block]:
    """Blocks of one page: prose per pymupdf block, tables compacted, split at headings."""
    if not lines:
        return []
    texts = [t for _, t in lines]
    if _is_toc_page(texts, state.form):
        return _segment_blocks(page, lines, None, "Table of contents", {"toc": True}, joiner)
    blocks: list[Block] = []
    segment: list[tuple[int, str]] = []
    section, title = state.section, state.title
    part_only = False  # the segment holds only a "PART II" line, which belongs to what follows
    for index, (block_no, line) in enumerate(lines):
        heading = match_heading(line, state.form) or _late_heading(line, index, state)
        if heading is not None:
            before = state.section
            _apply_heading(state, heading)
            starts_new = heading.kind == "part" or state.section != before
            if starts_new and segment and not part_only:
                blocks += _segment_blocks(page, segment, section, title, {}, joiner)
                segment = []
            part_only = heading.kind == "part" or (part_only and state.section == before)
            section, title = state.section, state.title
        else:
            part_only = False
        segment.append((block_no, line))
    if segment:
        blocks += _segment_blocks(page, segment, section, title, {}, joiner)
    return blocks


# --------------------------------------------------------------------------- tables

_CELL = (
    r"(?:[(\[]?[$€£]?[(\[]?[-+−]?\d[\d,]*(?:\.\d+)?%?[)\]]?%?\*?|[$€£%]|—|–|-|−|\(?pts\)?|bps|x|n/?m|N/?M)"
)
_CELL_LINE = re.compile(rf"^{_CELL}(?:\s+{_CELL})*$")
_DIGIT = re.compile(r"\d")
_MAX_CELL_LINE = 80


def _is_cell_line(line: str) -> bool:
    """A line made only of amounts, percentages, currency signs and dashes."""
    return len(line) <= _MAX_CELL_LINE and _CELL_LINE.match(line) is not None


def _cells(lines: list[str]) -> list[str]:
    """Flatten cell lines into cells, gluing "$" to the amount after it and "%" to the one before."""
    out: list[str] = []
    pending = ""
    for line in lines:
        for token in line.split():
            if token in {"$", "€", "£"}:
                pending = token
                continue
            if token in {"%", "pts", "bps"} and out:
                out[-1] = f"{out[-1]}{token if token == '%' else ' ' + token}"
                continue
            out.append(pending + token)
            pending = ""
    return out


def compact_table_rows(lines: list[str]) -> list[tuple[str, bool]]:
    """Turn "label / $ / 19,442 / $ / 21,744" line runs into ("label | $19,442 | $21,744", True).

    Other lines come back unchanged with False. A row needs at least two numeric cells, so a
    page number after a paragraph is never mistaken for a table row.
    """
    return [(text, is_row) for text, is_row, _ in _compact(lines)]


def _compact(lines: list[str]) -> list[tuple[str, bool, int]]:
    """``compact_table_rows`` plus how many input lines each output entry consumed."""
    cell = [_is_cell_line(line) for line in lines]
    out: list[tuple[str, bool, int]] = []
    i, n = 0, len(lines)
    while i < n:
        j = i if cell[i] else i + 1
        k = j
        while k < n and cell[k]:
            k += 1
        if k > j:
            cells = _cells(lines[j:k])
            if sum(1 for c in cells if _DIGIT.search(c)) >= 2:
                label = lines[i] if j == i + 1 else ""
                out.append((" | ".join([label, *cells]) if label else " | ".join(cells), True, k - i))
                i = k
                continue
        out.append((lines[i], False, 1))
        i += 1
    return out


_MAX_HEADER_LINES = 14  # short lines above a table (title, units, column headings) ...
_MAX_HEADER_CHARS = 160  # ... each at most this long ...
_MAX_HEADER_TOTAL = 320  # ... and together short enough to repeat on every piece of the table


def _segment_blocks(
    page: int,
    lines: list[tuple[int, str]],
    section: str | None,
    title: str | None,
    metadata: dict[str, Any],
    joiner: str = " ",
) -> list[Block]:
    """Split one page segment into prose blocks and table blocks, in page order."""
    if not lines:
        return []
    texts = [t for _, t in lines]
    # Map every compacted entry back to the pymupdf block of its first line.
    entries: list[tuple[str, bool, int]] = []
    pos = 0
    for text, is_row, consumed in _compact(texts):
        entries.append((text, is_row, lines[pos][0]))
        pos += consumed
    table_of = _table_runs(entries)

    blocks: list[Block] = []
    prose: list[str] = []
    prose_block: int | None = None

    def flush_prose() -> None:
        nonlocal prose, prose_block
        if prose:
            blocks.append(
                Block(
                    text=_join_prose(prose, joiner),
                    section=section,
                    section_title=title,
                    page=page,
                    metadata=dict(metadata),
                )
            )
        prose, prose_block = [], None

    idx = 0
    while idx < len(entries):
        if idx in table_of:
            flush_prose()
            start, end, header_count = table_of[idx]
            header = " ".join(e[0] for e in entries[start : start + header_count])
            rows = [e[0] for e in entries[start + header_count : end]]
            text = "\n".join([header, *rows]) if header else "\n".join(rows)
            blocks.append(
                Block(
                    text=text,
                    section=section,
                    section_title=title,
                    page=page,
                    is_table=True,
                    metadata=dict(metadata),
                )
            )
            idx = end
            continue
        text, _, block_no = entries[idx]
        if prose_block is not None and block_no != prose_block:
            flush_prose()
        prose.append(text)
        prose_block = block_no
        idx += 1
    flush_prose()
    return blocks


def _is_header_line(text: str) -> bool:
    return len(text) <= _MAX_HEADER_CHARS and not text.rstrip().endswith(".")


def _is_gap_line(text: str) -> bool:
    """A sub-heading or wrapped long label between two rows (not the end of a sentence)."""
    return len(text) <= 200 and not text.rstrip().endswith(".")


def _table_runs(entries: list[tuple[str, bool, int]]) -> dict[int, tuple[int, int, int]]:
    """Start index -> (start, end, header line count) of each table run (>= 3 rows)."""
    runs: dict[int, tuple[int, int, int]] = {}
    i, n = 0, len(entries)
    taken_until = 0
    while i < n:
        if not entries[i][1]:
            i += 1
            continue
        end, rows, k = i, 0, i
        while k < n:
            if entries[k][1]:
                rows += 1
                end = k + 1
                k += 1
                continue
            # Sub-headings such as "Operating expenses:" may sit between rows.
            gap = k
            while gap < n and gap - k < 3 and not entries[gap][1] and _is_gap_line(entries[gap][0]):
                gap += 1
            if gap < n and gap > k and entries[gap][1]:
                k = gap
                continue
            break
        if rows >= 3:
            start, header_chars = i, 0
            while (
                start > taken_until
                and i - start < _MAX_HEADER_LINES
                and not entries[start - 1][1]
                and _is_header_line(entries[start - 1][0])
                and header_chars + len(entries[start - 1][0]) <= _MAX_HEADER_TOTAL
            ):
                start -= 1
                header_chars += len(entries[start][0]) + 1
            runs[start] = (start, end, i - start)
            taken_until = end
            i = end
        else:
            i = end if end > i else i + 1
    return runs


def _join_prose(lines: list[str], joiner: str = " ") -> str:
    """Unwrap the visual lines of one paragraph; keep hyphenated words whole."""
    out = lines[0]
    for line in lines[1:]:
        if joiner == " " and out.endswith("-") and line[:1].islower():
            out += line
        else:
            out += joiner + line
    return out
