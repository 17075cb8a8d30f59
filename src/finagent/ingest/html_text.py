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

from finagent.finance.read.xbrl import FACT_TAGS

IX_NS = "http://www.xbrl.org/2013/inlineXBRL"


# Private Unit.meta key: ordinals (finance.read.xbrl.fact_elements order) of the facts a unit shows.
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


_WS_RE = re.compile(r"\s+")


# Zero-width characters are deleted, not spaced: inside a word they only split it ("ig<ZWSP>nore")
# so that a reader-model sees a word a keyword search does not.
_ZERO_WIDTH_RE = re.compile(r"[\u200b\u200c\u200d\u2060\ufeff]")


_BULLET_GLUE = re.compile(r"^([•●◦▪■])(?=\S)")  # "•Challenges" -> "• Challenges"


# Text a browser does not show. Hidden text is never evidence: it is left out of the document's
# visible text, and when it holds words (not a lone "TRUE" or a page number) it becomes a unit of
# its own marked ``meta["hidden"]``, stored flagged (finance.untrusted) so people can inspect it.
_HIDDEN_STYLE = re.compile(
    r"(display)\s*:\s*none|(visibility)\s*:\s*hidden|(font-size)\s*:\s*0*(?:\.0+)?\s*(?:px|pt|em|rem|%)?\s*(?:;|!|$)"
    r"|(opacity)\s*:\s*0*(?:\.0+)?\s*(?:;|!|$)",
    re.I,
)
_HIDDEN_NAMES = {"display": "display:none", "visibility": "visibility:hidden", "font-size": "font-size 0"}
_WHITE_TEXT = re.compile(
    r"(?<![-\w])color\s*:\s*(?:#fff(?:fff)?|white|rgb\(\s*255\s*,\s*255\s*,\s*255\s*\))\s*(?:;|!|$)", re.I
)
_BACKGROUND = re.compile(r"background(?:-color)?\s*:\s*([^;!]+)", re.I)
_WHITE_VALUES = frozenset(("#fff", "#ffffff", "white", "transparent", "rgb(255,255,255)", "none", "inherit"))
HIDDEN_MIN_WORDS = 4  # shorter hidden fragments (a white "TRUE", a 1-pt page number) are dropped silently
_WORD = re.compile(r"[^\W\d_]{2,}")


def norm_space(text: str) -> str:
    return _WS_RE.sub(" ", _ZERO_WIDTH_RE.sub("", text)).strip()


def hidden_reason(el: etree._Element) -> str | None:
    """How an element hides its text (display:none, zero font size, white on white...), or None."""
    if el.get("hidden") is not None:
        return "hidden attribute"
    style = el.get("style")
    if not style:
        return None
    match = _HIDDEN_STYLE.search(style)
    if match:
        name = next(g for g in match.groups() if g).lower()
        return _HIDDEN_NAMES.get(name, "opacity 0")
    if _WHITE_TEXT.search(style) and not _coloured_background(el):
        return "white text on a white background"
    return None


def _coloured_background(el: etree._Element) -> bool:
    """Whether the nearest background set on the element or an ancestor is not white."""
    for node in (el, *el.iterancestors()):
        found = _BACKGROUND.search(node.get("style") or "")
        value = found.group(1) if found else node.get("bgcolor")
        if value:
            return re.sub(r"\s+", "", value).lower() not in _WHITE_VALUES
    return False


def _hidden_text(el: etree._Element) -> str:
    """Readable text inside a hidden element (not the iXBRL header's facts, scripts or styles)."""
    parts: list[str] = []
    stack: list[tuple[etree._Element, bool]] = [(el, False)]
    while stack:
        node, closing = stack.pop()
        tail = node.tail if node is not el else None
        if closing:
            if local(node.tag) in _CELL_BREAK_TAGS:
                parts.append(" ")
        elif isinstance(node.tag, str) and not (node.tag in _IX_HEADER_TAGS or local(node.tag) in _SKIP_TAGS):
            parts.append(node.text or "")
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(node))
            continue
        if tail:
            parts.append(tail)
    return norm_space("".join(parts))


def _note_hidden(el: etree._Element, found: list[Unit] | None) -> None:
    """Keep a hidden element's text as a flagged unit when it holds words (see _HIDDEN_STYLE)."""
    if found is None or el.tag in _IX_HEADER_TAGS or local(el.tag) in _SKIP_TAGS:
        return
    reason = hidden_reason(el)
    if reason is None:
        return
    text = _hidden_text(el)
    if len(_WORD.findall(text)) >= HIDDEN_MIN_WORDS:
        found.append(Unit(text, meta={"hidden": reason}))


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
        self.hidden: list[Unit] = []  # hidden text met since the last flush, emitted after it

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
        if self.hidden:
            self.units.extend(self.hidden)
            self.hidden = []

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
            elif _skipped(el):
                _note_hidden(el, self.hidden)
            else:
                tag = local(el.tag)
                if tag == "table":
                    self._flush()
                    self.units.extend(_table_units(el, self.fact_ordinals, self.hidden))
                    self._flush()
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
    """Elements whose content is not document text: hidden iXBRL header, scripts, hidden text."""
    if el.tag in _IX_HEADER_TAGS or local(el.tag) in _SKIP_TAGS:
        return True
    return hidden_reason(el) is not None


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


def _cell_text(cell: etree._Element, hidden: list[Unit] | None = None) -> str:
    """Text of a cell with spaces where line breaks/blocks were ('Three Months<br/>Ended');
    hidden parts are left out (and noted in ``hidden``)."""
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
        elif _skipped(el):
            _note_hidden(el, hidden)
        else:
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


def _table_units(
    table: etree._Element,
    fact_ordinals: dict[etree._Element, int] | None = None,
    hidden: list[Unit] | None = None,
) -> list[Unit]:
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
            text = _cell_text(td, hidden)
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
