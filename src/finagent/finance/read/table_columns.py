"""A passage's tables read by their columns' names: which row holds the most (or least) under the
column a question names ("which nominee drew the most votes against" over an 8-K's vote table).

A ranking is code's, never the model's; a row is read by the header that names its columns, never by
position alone, and a header that does not name as many columns as the rows print is not read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Set
from dataclasses import dataclass

_NUMBER = re.compile(r"^\(?-?\$?\s?\d[\d,]*(?:\.\d+)?\)?%?$")
_LEAD_IN = re.compile(r"^.*[:.]\s+(?=[A-Z0-9])")
"""The prose before a header's column names on the same line ("… duly elected and qualified: For
Against Abstained")."""


@dataclass(frozen=True)
class ColumnPick:
    """The row a column ranks first, among the rows of its table."""

    label: str
    column: str
    printed: str
    header: tuple[str, ...]


def _number(cell: str) -> float | None:
    cell = cell.strip()
    if not _NUMBER.match(cell):
        return None
    negative = cell.startswith("(") or cell.startswith("-")
    value = float(re.sub(r"[^\d.]", "", cell) or "nan")
    return -value if negative else value


def _columns(header: str, count: int) -> tuple[str, ...] | None:
    """A header's column names when it names ``count`` columns: cells between pipes (less a first cell
    naming the rows), else words after its lead-in, the last of them joined when there are more words
    than columns ("Broker Non-Vote")."""
    if "|" in header:
        cells = [c.strip() for c in header.split("|") if c.strip()]
        cells = cells[-count:] if len(cells) >= count else []
        return tuple(cells) if len(cells) == count else None
    words = _LEAD_IN.sub("", header.strip()).split()
    if len(words) < count:
        return None
    return (*words[: count - 1], " ".join(words[count - 1 :]))


@dataclass(frozen=True)
class _Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, tuple[float | None, ...], tuple[str, ...]], ...]


def _tables(text: str) -> list[_Table]:
    """Runs of rows of one label and figures under the line before them that names their columns."""
    found: list[_Table] = []
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    at = 0
    while at < len(lines):
        run: list[tuple[str, tuple[float | None, ...], tuple[str, ...]]] = []
        while at < len(lines) and "|" in lines[at]:
            cells = [c.strip() for c in lines[at].split("|")]
            values = tuple(_number(c) for c in cells[1:] if c)
            printed = tuple(c for c in cells[1:] if c)
            if not cells[0] or _number(cells[0]) is not None or not values or None in values:
                break
            if run and len(values) != len(run[0][1]):
                break
            run.append((cells[0], values, printed))
            at += 1
        start = at - len(run)
        header = _columns(lines[start - 1], len(run[0][1])) if run and start > 0 else None
        if header and len(run) >= 2:
            found.append(_Table(header, tuple(run)))
        at += 0 if run else 1
    return found


def column_pick(
    text: str, asked: Set[str], words: Callable[[str], Set[str]], highest: bool = True
) -> ColumnPick | None:
    """The row with the most (``highest``) or least under the one column whose name is among the
    ``asked`` words (as ``words`` reads a text), in the first table that names such a column."""
    for table in _tables(text):
        named = [i for i, name in enumerate(table.header) if words(name) and words(name) <= asked]
        if len(named) != 1:
            continue
        column = named[0]
        rows = sorted(table.rows, key=lambda r: r[1][column] or 0.0, reverse=highest)
        label, _, printed = rows[0]
        return ColumnPick(label, table.header[column], printed[column], table.header)
    return None
