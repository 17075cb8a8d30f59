"""Item headings of PDF filings, page by page: the sections (Item 1A, Item 7, …) lines belong to."""

from __future__ import annotations

import re
from dataclasses import dataclass

from finagent.finance.document_records import Block
from finagent.ingest.pdf_tables import segment_blocks
from finagent.ingest.sec.headings import ITEMS_8K, ITEMS_10K, ITEMS_10Q, LINE_ITEM_RE, PART_RE, ROMAN
from finagent.ingest.sec.release_parts import RELEASE_FORM, release_heading

PAGE_REF_RX = re.compile(r"^(?:pages?\s+)?\d{1,3}(?:\s*[-–,]\s*\d{1,3})*$", re.I)


_TRAILING_PAGE_RX = re.compile(r"\s\d{1,3}$")


@dataclass(slots=True)
class SectionState:
    """Section tracking across pages: headings carry over until the next one."""

    form: str | None
    part: int | None = None
    last_item: str | None = None
    section: str | None = None
    title: str | None = None
    pages: int = 0  # pages read so far


@dataclass(slots=True)
class _Heading:
    kind: str  # "item", "part", "exhibits" / "statements" (after the last Item), or "release"
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
    """An "Item N." or "PART II" heading at the start of a line (a release's own headings in a
    release), or None for body text."""
    if form == RELEASE_FORM:
        part = release_heading(line)
        return _Heading("release", part.code, part.title) if part else None
    if len(line) > 200 or line[:1] not in "IiPp":
        return None
    m = LINE_ITEM_RE.match(line)
    if m:
        number, rest = m.group(1).upper(), m.group(2).strip()
        if _valid_item(number, form) and _starts_like_title(rest):
            return _Heading("item", number, rest)
        return None
    m = PART_RE.match(line)
    if m and len(line) <= 80:
        rest = m.group(2).strip()
        if _starts_like_title(rest):
            return _Heading("part", m.group(1).upper(), rest)
    return None


def is_toc_page(lines: list[str], form: str | None) -> bool:
    """A page listing several Item headings each followed by a page number."""
    refs = 0
    for i, line in enumerate(lines):
        heading = match_heading(line, form)
        if heading is None or heading.kind != "item":
            continue
        if _TRAILING_PAGE_RX.search(line) or any(PAGE_REF_RX.match(n) for n in lines[i + 1 : i + 4]):
            refs += 1
    return refs >= 3


_SIGNATURES_RX = re.compile(r"^SIGNATURES?$")


_STATEMENTS_RX = re.compile(
    r"^(?:report of independent registered public accounting firm|"
    r"(?:condensed )?consolidated (?:and combined )?(?:statements? of|balance sheets?))",
    re.I,
)


_LAST_ITEMS = {"10-K": {"15", "16"}, "10-Q": {"6"}}


def _late_heading(line: str, index_on_page: int, state: SectionState) -> _Heading | None:
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


def apply_heading(state: SectionState, heading: _Heading) -> None:
    if heading.kind == "part":
        state.part = ROMAN[heading.number.lower()]
        state.last_item = None
        return
    if heading.kind == "exhibits":
        state.section, state.title = "exhibits", "Signatures and exhibits"
        return
    if heading.kind == "statements":
        state.section, state.title = "item_8", ITEMS_10K["8"]
        return
    if heading.kind == "release":
        state.section, state.title = heading.number, heading.rest
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


def page_blocks(
    page: int, lines: list[tuple[int, str]], state: SectionState, joiner: str = " "
) -> list[Block]:
    """Blocks of one page: prose per pymupdf block, tables compacted, split at headings."""
    if not lines:
        return []
    texts = [t for _, t in lines]
    if is_toc_page(texts, state.form):
        return segment_blocks(page, lines, None, "Table of contents", {"toc": True}, joiner)
    blocks: list[Block] = []
    segment: list[tuple[int, str]] = []
    section, title = state.section, state.title
    part_only = False  # the segment holds only a "PART II" line, which belongs to what follows
    for index, (block_no, line) in enumerate(lines):
        heading = match_heading(line, state.form) or _late_heading(line, index, state)
        if heading is not None and heading.kind == "release" and state.pages == 0:
            heading = None  # a release's first page is its headline and highlights, whatever they say
        if heading is not None:
            before = state.section
            apply_heading(state, heading)
            starts_new = heading.kind == "part" or state.section != before
            if starts_new and segment and not part_only:
                blocks += segment_blocks(page, segment, section, title, {}, joiner)
                segment = []
            part_only = heading.kind == "part" or (part_only and state.section == before)
            section, title = state.section, state.title
        else:
            part_only = False
        segment.append((block_no, line))
    if segment:
        blocks += segment_blocks(page, segment, section, title, {}, joiner)
    state.pages += 1
    return blocks
