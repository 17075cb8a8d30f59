"""Tables in PDF text: cell lines compacted into rows, table runs told from prose."""

from __future__ import annotations

import re
from typing import Any

from finagent.finance.document_records import Block

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


def segment_blocks(
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
    entries = _entries(lines)
    table_of = _table_runs(entries)

    def block(text: str, is_table: bool = False) -> Block:
        return Block(
            text=text,
            section=section,
            section_title=title,
            page=page,
            is_table=is_table,
            metadata=dict(metadata),
        )

    blocks: list[Block] = []
    prose: list[str] = []
    prose_block: int | None = None

    def flush_prose() -> None:
        nonlocal prose, prose_block
        if prose:
            blocks.append(block(_join_prose(prose, joiner)))
        prose, prose_block = [], None

    idx = 0
    while idx < len(entries):
        if idx in table_of:
            flush_prose()
            start, end, header_count = table_of[idx]
            blocks.append(block(_table_text(entries[start:end], header_count), is_table=True))
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


def _entries(lines: list[tuple[int, str]]) -> list[tuple[str, bool, int]]:
    """(text, is a table row, pymupdf block of its first line) of each compacted entry."""
    entries: list[tuple[str, bool, int]] = []
    pos = 0
    for text, is_row, consumed in _compact([t for _, t in lines]):
        entries.append((text, is_row, lines[pos][0]))
        pos += consumed
    return entries


def _table_text(run: list[tuple[str, bool, int]], header_count: int) -> str:
    """A table run as text: its header lines joined into one line, then a line a row."""
    header = " ".join(e[0] for e in run[:header_count])
    rows = [e[0] for e in run[header_count:]]
    return "\n".join([header, *rows]) if header else "\n".join(rows)


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
