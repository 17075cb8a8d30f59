"""HTML filings as text units: the walker over the XHTML, statement tables with the facts they show,
page furniture (page numbers, running headers) dropped and captions attached."""

from __future__ import annotations

import functools
import html as html_lib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from finagent.finance.xbrl import (
    FACT_TAGS,
)

IX_NS = "http://www.xbrl.org/2013/inlineXBRL"


# Private Unit.meta key: ordinals (finance.xbrl.fact_elements order) of the facts a unit shows.
# Popped before blocks leave the parser, so it never reaches chunk metadata.
FACT_KEY = "_fact_ordinals"


@functools.lru_cache(maxsize=4096)
def local(tag: Any) -> str:
    """Lower-case local name of a tag ('{ns}nonNumeric', 'ix:nonnumeric' -> 'nonnumeric')."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower()


@dataclass(slots=True)
class Unit:
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


_IX_HEADER_TAGS = frozenset((f"{{{IX_NS}}}header", "ix:header"))


_WS_RE = re.compile(r"[\s\u200b\u200c\u200d\ufeff]+")


_BULLET_GLUE = re.compile(r"^([•●◦▪■])(?=\S)")  # "•Challenges" -> "• Challenges"


_HIDDEN_RE = re.compile(r"display\s*:\s*none", re.I)


def norm_space(text: str) -> str:
    return _WS_RE.sub(" ", text).strip()


class Walker:
    """Walks an HTML tree in order, emitting paragraph and table units.

    ``fact_ordinals`` maps each ix:nonFraction element to its ordinal; the units record which
    facts they display (``meta[FACT_KEY]``) so facts can point at the block showing them.
    """

    def __init__(self, fact_ordinals: dict[etree._Element, int] | None = None) -> None:
        self.units: list[Unit] = []
        self.buf: list[str] = []
        self.fact_ordinals = fact_ordinals or {}
        self.shown: list[int] = []  # facts met since the last flush

    def run(self, root: etree._Element) -> list[Unit]:
        body = None
        for el in root:
            if local(el.tag) == "body":
                body = el
                break
        self._walk(body if body is not None else root)
        self._flush()
        return self.units

    def _flush(self) -> None:
        if self.buf:
            text = _BULLET_GLUE.sub(r"\1 ", norm_space("".join(self.buf)))
            self.buf.clear()
            if text:
                unit = Unit(text)
                if self.shown:
                    unit.meta[FACT_KEY] = self.shown
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
                if local(el.tag) in _BLOCK_TAGS:
                    self._flush()
            elif not isinstance(el.tag, str):
                if el.tag is etree.Entity:
                    buf.append(_entity_text(el))
            elif not _skipped(el):
                tag = local(el.tag)
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
    if el.tag in _IX_HEADER_TAGS or local(el.tag) in _SKIP_TAGS:
        return True
    style = el.get("style")
    return bool(style and "none" in style and _HIDDEN_RE.search(style))


def _entity_text(node: etree._Element) -> str:
    """Text of an HTML named entity left unresolved by the XML parser ('&nbsp;' -> nbsp)."""
    return html_lib.unescape(node.text or "")


def plain_text_units(text: str) -> list[Unit]:
    """Very old filings are plain text: paragraphs are separated by blank lines."""
    text = re.sub(r"</?(PAGE|S|C|FN|F\d+|CAPTION|TABLE)>", "", text, flags=re.I)
    return [Unit(norm_space(p)) for p in re.split(r"\n\s*\n", text) if p.strip()]


_CURRENCY = frozenset(("$", "€", "£", "¥", "US$", "C$", "A$", "CHF"))


_BULLETS = frozenset(("•", "●", "◦", "▪", "■", "○", "·", ""))


_CLOSERS = frozenset((")", "%", ")%", "%)", "pts", "bps", "x"))


DIGIT_RE = re.compile(r"\d")


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
            if local(el.tag) in _CELL_BREAK_TAGS:
                parts.append(" ")
        elif not isinstance(el.tag, str):
            if el.tag is etree.Entity:
                parts.append(_entity_text(el))
        elif not _skipped(el):
            if local(el.tag) in _CELL_BREAK_TAGS:
                parts.append(" ")
            if el.text:
                parts.append(el.text)
            stack.append((el, True))
            stack.extend((child, False) for child in reversed(el))
            continue
        if tail:
            parts.append(tail)
    return norm_space("".join(parts))


def _rows(table: etree._Element) -> Iterator[etree._Element]:
    """Rows of this table (not of tables nested in its cells)."""
    for child in table:
        tag = local(child.tag)
        if tag == "tr":
            yield child
        elif tag in ("tbody", "thead", "tfoot"):
            for row in child:
                if local(row.tag) == "tr":
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


def _table_units(table: etree._Element, fact_ordinals: dict[etree._Element, int] | None = None) -> list[Unit]:
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
            if local(td.tag) not in ("td", "th"):
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
    has_digits = any(DIGIT_RE.search(c) for r in rows for c in r)
    as_text = (
        max_cols <= 1
        or (max_cols <= 2 and any(len(c) > _PROSE_CELL for r in rows for c in r))
        or (not has_digits and max_cols <= 2)
        or (len(rows) == 1 and max_cols <= 3 and bool(_HEADING_CELL.match(rows[0][0])))
    )
    if as_text:
        units = [Unit(" ".join(r)) for r in rows]
        for unit, shown in zip(units, row_facts, strict=True):
            if shown:
                unit.meta[FACT_KEY] = shown
        return units
    header_rows = 1
    while header_rows < min(_MAX_HEADER_ROWS, len(rows) - 1) and label_empty[0] and label_empty[header_rows]:
        header_rows += 1
    unit = Unit("\n".join(" | ".join(r) for r in rows), is_table=True)
    if header_rows > 1:
        unit.meta["header_rows"] = header_rows
    if any(row_facts):
        unit.meta[FACT_KEY] = [o for shown in row_facts for o in shown]
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
