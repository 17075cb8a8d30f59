"""Page furniture of HTML filings (page numbers, running headers, rules) and table captions."""

from __future__ import annotations

import re

from finagent.finance.words import SCALE_PLURALS
from finagent.ingest.html_text import DIGIT_RE, Unit
from finagent.ingest.sec.headings import ITEM_RE, PART_RE

PAGE_NUMBER_RE = re.compile(r"^(?:page\s+)?[\-–—]?\s*(?:\d{1,3}|[ivxlc]{1,6})\s*[\-–—]?$", re.I)


_TOC_LINK_RE = re.compile(r"^(?:back\s+to\s+)?(?:index|table\s+of\s+contents)\b", re.I)


_RULE_RE = re.compile(r"^[\s_\-–—=*.·•]+$")


_TRAILING_PAGE_RE = re.compile(r"(?:(?<!\d)\d{1,3}|(?<![\w.])[ivxl]{1,6})$")


_UNITS_RE = re.compile(rf"\b(?:{'|'.join(SCALE_PLURALS)})\b", re.I)


_MAX_FURNITURE = 120


_FOOTER_REPEATS = 5  # a line that recurs with changing page numbers at least this often


_HEADER_REPEATS = 10  # a short line repeated verbatim at least this often (running page header)


_MAX_CAPTION_PART = 150


def drop_page_furniture(units: list[Unit]) -> list[Unit]:
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
    kept: list[Unit] = []
    for u in units:
        text = u.text
        if _short_line(u):
            if PAGE_NUMBER_RE.match(text) or _RULE_RE.match(text):
                continue
            if _TOC_LINK_RE.match(text) and len(text) <= 80:
                continue
            if not ITEM_RE.match(text) and not PART_RE.match(text):
                footer = variants.get(_footer_key(text)) if _TRAILING_PAGE_RE.search(text) else None
                if footer is not None and len(footer) >= _FOOTER_REPEATS:
                    continue
                if verbatim[text] >= _HEADER_REPEATS and len(text) <= 80 and not _UNITS_RE.search(text):
                    continue
        kept.append(u)
    _attach_captions(kept)
    return kept


def _short_line(u: Unit) -> bool:
    return len(u.text) <= _MAX_FURNITURE and not (u.is_table and "\n" in u.text)


def _footer_key(text: str) -> str:
    """A footer line with its page number (and any other digits) blanked out."""
    return DIGIT_RE.sub("#", _TRAILING_PAGE_RE.sub("#", text))


def _attach_captions(units: list[Unit]) -> None:
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
            if prev.is_table or len(prev.text) > _MAX_CAPTION_PART or ITEM_RE.match(prev.text):
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
