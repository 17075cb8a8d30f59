"""Item headings of HTML filings: the sections (Item 1A, Item 7, …) blocks belong to, and the
financial statements when no Item names them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from finagent.finance.document_records import Block
from finagent.ingest.html_text import Unit, norm_space
from finagent.ingest.sec.furniture import PAGE_NUMBER_RE
from finagent.ingest.sec.headings import ITEM_RE, ITEMS_10K, ITEMS_10Q, PART_RE, ROMAN

_MAX_HEADING = 200


_MAX_TITLE = 150


_MIN_BODY = 3  # characters of text a real Item heading is followed by (TOC entries have ~0)


_10K_TITLES = {f"item_{number.lower()}": title for number, title in ITEMS_10K.items()}


_10Q_TITLES = {f"part{part}_item_{number.lower()}": title for (part, number), title in ITEMS_10Q.items()}


@dataclass(slots=True)
class _Heading:
    unit_index: int
    section: str
    title: str | None
    order: tuple[int, int, int]
    weight: int = 0


def sectioned_blocks(units: list[Unit], form_base: str) -> list[Block]:
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


def _find_headings(units: list[Unit], form_base: str) -> list[_Heading]:
    """The Item headings that open sections: candidates followed by text (not table-of-contents
    entries), in nondecreasing order, a 10-Q's statements when no Item 1 names them, each titled."""
    is_10q = form_base == "10-Q"
    candidates, structural = _candidates(units, form_base)
    _weigh(candidates, units, structural)
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


def _candidates(units: list[Unit], form_base: str) -> tuple[list[_Heading], set[int]]:
    """Every unit that reads as an Item heading, and the units that are structure, not body text
    (Part headings, and heading titles split off into the next unit)."""
    candidates: list[_Heading] = []
    part = 0
    structural: set[int] = set()
    for i, u in enumerate(units):
        if u.is_table or len(u.text) > _MAX_HEADING or u.meta.get("hidden"):
            continue
        pm = PART_RE.match(u.text)
        if pm and not ITEM_RE.match(u.text) and _title_ok(pm.group("rest")):
            part = ROMAN[pm.group("part").lower()]
            structural.add(i)
            continue
        m = ITEM_RE.match(u.text)
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
        section, order = _section_of(m, part, form_base)
        candidates.append(_Heading(i, section, heading_title or None, order))
    return candidates, structural


def _section_of(m: re.Match[str], part: int, form_base: str) -> tuple[str, tuple[int, int, int]]:
    """An Item heading's section key and its place in the form's order ("item_7a", "part2_item_1a",
    "item_2_02" of an 8-K); a 10-Q Item with no Part heading seen is placed by its number."""
    num = int(m.group("num"))
    letter = (m.group("letter") or "").lower()
    sub = m.group("sub")
    item_part = ROMAN[m.group("part").lower()] if m.group("part") else part
    if form_base == "8-K" or sub:
        return (f"item_{num}_{sub}" if sub else f"item_{num}"), (0, num, int(sub or 0))
    if form_base == "10-Q":
        if item_part == 0:
            item_part = 2 if (num >= 5 or letter) else 1
        return f"part{item_part}_item_{num}{letter}", (item_part, num, ord(letter) if letter else 0)
    return f"item_{num}{letter}", (0, num, ord(letter) if letter else 0)


def _weigh(candidates: list[_Heading], units: list[Unit], structural: set[int]) -> None:
    """Weight = text that follows a candidate before the next one; TOC entries have ~none."""
    for k, h in enumerate(candidates):
        stop = candidates[k + 1].unit_index if k + 1 < len(candidates) else len(units)
        h.weight = sum(
            len(units[j].text)
            for j in range(h.unit_index + 1, stop)
            if j not in structural and not PAGE_NUMBER_RE.match(units[j].text)
        )


_STATEMENT_HEADING = re.compile(
    r"^(?:condensed\s+)?consolidated\s+(?:statements?|balance\s+sheets?)|^financial\s+statements", re.I
)


def _implicit_financial_statements(units: list[Unit], stop: int) -> int | None:
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


def _looks_like_title(u: Unit) -> bool:
    """The unit after a bare "Item 7." is its title if it reads like one, not like "None."."""
    text = u.text
    return (
        not u.is_table
        and len(text) <= _MAX_TITLE
        and not text.endswith(".")
        and _title_ok(text)
        and not ITEM_RE.match(text)
        and not PART_RE.match(text)
    )


def _clean_title(text: str) -> str:
    return norm_space(text).strip(" .:-–—").strip()


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
