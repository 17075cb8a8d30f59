"""A filing's parts from its index of pages, for pages no Item heading opens, and its cover page.

Some companies lay their 10-K or 10-Q out in their own order and map it to the form's Items only in
an index ("Form 10-Q Cross-Reference Index": Item 1A … Page 37; or a table of contents listing each
Item's subsections with their page numbers); their pages carry no "Item 1A." heading. The index
names printed page numbers, which the page footers tie to the file's pages. Only pages the headings
left without a part are filled, so a filing with real headings keeps them. What comes before the
first part is the cover page (the form's first page and what follows it up to Item 1).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from finagent.finance.document_records import Block
from finagent.finance.read.filing_parts import part_name
from finagent.finance.read.filing_sections import AFTER_SIGNATURES
from finagent.ingest.sec.pdf_items import SectionState, apply_heading, is_toc_page, match_heading
from finagent.ingest.sec.release_parts import HIGHLIGHTS, RELEASE_FORM

_FOLIO = re.compile(r"(?:^|\s)(?:page\s+)?(\d{1,3})$", re.I)  # "4", "Page 4", "… Annual Report 11"
_PAGES = re.compile(
    r"^(?:pages?\s+)?(\d{1,3}(?:\s*[-–]\s*\d{1,3})?(?:\s*,\s*\d{1,3}(?:\s*[-–]\s*\d{1,3})?)*)$", re.I
)
_TRAILING = re.compile(r"\s(\d{1,3})$")
_STOP = re.compile(r"^(signatures?|exhibit index)\b", re.I)
_SECTIONED_FORMS = ("10-K", "10-Q", "8-K")
_END = 10_000  # past any printed page


@dataclass(frozen=True, slots=True)
class _Span:
    first: int
    last: int | None  # None: up to the next span's first page
    section: str
    title: str
    order: int
    listed: int | None = None  # the last page the index itself names (the first, for one page)


def printed_offset(pages: Sequence[Sequence[str]]) -> int | None:
    """File page index minus printed page number, read from the page numbers at the foot or head of
    pages (before footers are stripped); the most common difference, None when too few pages agree."""
    offsets: Counter[int] = Counter()
    for index, lines in enumerate(pages):
        for line in {*lines[-1:], *lines[:1]}:
            match = _FOLIO.search(line.strip())
            if match:
                offsets[index - int(match.group(1))] += 1
    if not offsets:
        return None
    offset, count = offsets.most_common(1)[0]
    return offset if count >= max(3, len(pages) // 4) else None


def _page_numbers(text: str) -> list[tuple[int, int | None]]:
    """ "Pages 3, 22 - 32" -> [(3, None), (22, 32)]: a single page opens a run, a range is closed."""
    spans: list[tuple[int, int | None]] = []
    for piece in text.split(","):
        ends = [int(n) for n in re.findall(r"\d{1,3}", piece)]
        if len(ends) == 2 and ends[0] <= ends[1]:
            spans.append((ends[0], ends[1]))
        elif ends:
            spans.append((ends[0], None))
    return spans


def _index_spans(lines: list[str], form: str | None) -> list[_Span]:
    """Each Item of an index page and the printed pages listed under it, in index order."""
    state = SectionState(form=form)
    spans: list[_Span] = []
    current: tuple[str, str] | None = None
    for line in lines:
        heading = match_heading(line, form)
        if heading is not None:
            apply_heading(state, heading)
            current = (state.section, state.title or "") if heading.kind == "item" and state.section else None
            trailing = _TRAILING.search(heading.rest) if heading.kind == "item" else None
            numbers = _page_numbers(trailing.group(1)) if trailing else []
        elif _STOP.match(line):
            current, numbers = (AFTER_SIGNATURES, "Signatures and exhibits"), _page_numbers(line)
        else:
            pages = _PAGES.match(line.strip())
            numbers = _page_numbers(pages.group(1)) if pages else []
        if current is not None:
            spans += [_Span(a, b, current[0], current[1], len(spans)) for a, b in numbers]
    return spans


def _close(spans: list[_Span]) -> list[_Span]:
    """A single page runs to the page before the next listed one; the signatures run to the end."""
    starts = sorted({s.first for s in spans})
    closed = []
    for span in spans:
        later = [p for p in starts if p > span.first]
        last = span.last if span.last is not None else (later[0] - 1 if later else span.first)
        if span.section == AFTER_SIGNATURES:
            last = _END
        listed = span.last if span.last is not None else span.first
        closed.append(_Span(span.first, last, span.section, span.title, span.order, listed))
    return closed


def _part_of(printed: int, spans: list[_Span]) -> _Span | None:
    """The narrowest listing holding the page (Legal Proceedings' pages inside the notes'); a page the
    index names itself beats one a single page's run reaches."""

    def width(span: _Span) -> int:
        named = span.listed if span.listed is not None else span.first
        return (named if printed <= named else (span.last or span.first)) - span.first

    holding = [s for s in spans if s.first <= printed <= (s.last or s.first)]
    return min(holding, key=lambda s: (width(s), s.order), default=None)


def fill_from_index(
    blocks: list[Block], pages: Sequence[Sequence[str]], form: str | None, offset: int | None
) -> None:
    """Give the blocks no heading placed the part the filing's page index lists their page under."""
    if offset is None or form not in ("10-K", "10-Q"):
        return
    spans = _close(
        [
            s
            for i, lines in enumerate(pages)
            if is_toc_page(list(lines), form)
            for s in _index_spans(list(lines), form)
        ]
    )
    if not spans:
        return
    for block in blocks:
        if block.section is None and block.page is not None and not block.metadata.get("toc"):
            span = _part_of(block.page - offset, spans)
            if span is not None:
                block.section, block.section_title = span.section, span.title


def mark_cover(blocks: list[Block], form: str | None) -> None:
    """The blocks before a filing's first part are its cover page (table-of-contents pages aside);
    a release's are its opening, the highlights."""
    if form == RELEASE_FORM:
        opening = (HIGHLIGHTS, part_name(HIGHLIGHTS))
    elif form in _SECTIONED_FORMS:
        opening = ("cover", "Cover page")
    else:
        return
    for block in blocks:
        if block.section is not None:
            return
        if not block.metadata.get("toc"):
            block.section, block.section_title = opening
