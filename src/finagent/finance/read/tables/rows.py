"""A statement table's cells and rows: a printed number read with its sign, and a row's values put in
the header's columns (one per column, one per physical column, or one amount per group), or marked
ambiguous when they fit no layout; a group's total printed beside a row; a row PDF text kept without
separators.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal, InvalidOperation

from finagent.finance.read.tables.headers import YEAR, Header
from finagent.finance.read.tables.records import TableRow

_DASHES = frozenset({"", "—", "–", "-", "−", "$—", "$–", "$-", "—%", "–%", "-%", "*", "n/a", "nm", "n/m"})

_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def parse_number(cell: str) -> tuple[Decimal, bool] | None:
    """(value with sign, is percent) of a cell: "(617)", "$(3,000)", "(4)%", "-1.2", "44.5%";
    None for placeholders and text."""
    text = cell.strip().replace("$", "").replace(",", "").replace(" ", "").replace("\u2212", "-")
    percent = text.endswith("%")
    text = text.rstrip("%")
    negative = False
    if text.startswith("(") and text.endswith(")"):
        negative, text = True, text[1:-1]
    if text.startswith("-"):
        negative, text = not negative, text[1:]
    if not _NUMBER.fullmatch(text):
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return (-value if negative else value), percent


def is_placeholder(cell: str) -> bool:
    return cell.strip().replace(" ", "").lower() in _DASHES


def is_amount(cell: str) -> bool:
    """A number that is not a bare year (header lines hold years, data rows hold amounts)."""
    return parse_number(cell) is not None and not re.fullmatch(rf"\s*{YEAR}\s*", cell)


FOOTNOTE = re.compile(r"\(\d\)|\([a-z]\)|\*+")


def assign_cells(raw: list[str], header: Header) -> tuple[tuple[str | None, ...], bool]:
    """Value cells in column order, or all None (``ambiguous``) when the row fits no layout: one
    cell per column; one per physical column ("Change" columns skipped); or equal groups per
    column ("$ | % of Net Sales", "value | change"), each giving its one amount."""
    n = len(header.columns)
    if len(raw) - 1 in (n, len(header.layout)) and FOOTNOTE.fullmatch(raw[-1].strip()):
        raw = raw[:-1]  # "Total net sales | $383,285 | ... | (1)": a footnote mark, not a column
    cells: list[str | None] = [None if is_placeholder(c) else c for c in raw]
    if len(cells) == n:
        picked: list[str | None] = cells
    elif len(cells) == len(header.layout):
        picked = [c for c, keep in zip(cells, header.layout, strict=True) if keep]
    elif n and len(cells) > n and len(cells) % n == 0:
        size = len(cells) // n
        picked = []
        for i in range(n):
            group = cells[i * size : (i + 1) * size]
            amounts = [c for c in group if c is not None and (p := parse_number(c)) is not None and not p[1]]
            if len(amounts) == 1:
                picked.append(amounts[0])
            elif all(c is None for c in group):
                picked.append(None)
            elif header.subcolumns and len(amounts) > 1 and group[0] == amounts[0]:
                picked.append(group[0])  # "$ | % of Net Sales": the amount comes first
            else:
                return (None,) * n, True
    else:
        return (None,) * n, True
    # Text where a number belongs ("Humira | United States | $7,142 ...") means the row is shifted.
    if any(c is not None and parse_number(c) is None for c in picked):
        return (None,) * n, True
    return tuple(picked), False


def with_subtotal(rows: list[TableRow], row: TableRow, header: Header) -> list[TableRow]:
    """A row printed with a second set of values, the total of its group, in a column of its own
    ("Entertainment | 1,438,823 | 769,688 | 8,398,372 | 4,737,185"): the row, then that total, named
    after the group's heading (or "Total"). Empty unless the second set is, in every column, the sum
    of this row and the rows just above it."""
    n = len(header.columns)
    if not n or len(row.raw) != 2 * n:
        return []
    own, own_ambiguous = assign_cells(list(row.raw[:n]), header)
    total, total_ambiguous = assign_cells(list(row.raw[n:]), header)
    if own_ambiguous or total_ambiguous:
        return []
    head = replace(row, cells=own)
    above = [*rows, head]
    for k in range(2, len(above) + 1):
        group = above[-k:]
        if group[0].ambiguous or not all(_adds_up(group, total, i) for i in range(n)):
            continue
        whole_group = k == len(above) or above[-k - 1].section != row.section
        label = (
            row.section
            if row.section and whole_group and {r.section for r in group} == {row.section}
            else "Total"
        )
        return [head, TableRow(label, total, None, False, tuple(row.raw[n:]))]
    return []


def decimal_places(cell: str | None) -> int:
    """Digits a printed value shows after its decimal point: the rounding a sum of them may differ by."""
    match = re.search(r"\.(\d+)", cell or "")
    return len(match.group(1)) if match else 0


def _adds_up(group: list[TableRow], total: tuple[str | None, ...], column: int) -> bool:
    """The column's total is the sum of the group's values (a column blank throughout adds up)."""
    cells = [r.cells[column] if column < len(r.cells) else None for r in group]
    if total[column] is None:
        return all(c is None for c in cells)
    parsed = [parse_number(c) if c is not None else (Decimal(0), False) for c in cells]
    whole = parse_number(total[column] or "")
    if whole is None or any(p is None for p in parsed) or whole[0] == 0:
        return False
    places = max(decimal_places(c) for c in [*cells, total[column]])
    return abs(sum(p[0] for p in parsed if p is not None) - whole[0]) <= len(group) * Decimal(10) ** -places


_TRAILING_VALUES = re.compile(
    r"^(?P<label>.*[A-Za-z)].*?)\s+(?P<values>(?:(?:\$?\s?[—–]|\$?\(?[\d,]*\d(?:\.\d+)?\)?%?)\s*)+)$"
)


def loose_row(line: str, n: int) -> list[str] | None:
    """A row the PDF text kept without separators ("Acquisition termination cost — — — 1,353"):
    accepted only with exactly one token per column and at least one dash, so a label ending in a
    number ("Balance as of July 1, 2023") is never read as values."""
    match = _TRAILING_VALUES.match(line.strip())
    if not match or n == 0:
        return None
    values = re.findall(r"\$?\s?[—–]|\$?\(?[\d,]*\d(?:\.\d+)?\)?%?", match.group("values"))
    if len(values) != n or not any(is_placeholder(v) for v in values):
        return None
    if not all(is_placeholder(v) or re.search(r"[,.$()]", v) for v in values):
        return None
    return [match.group("label").strip(), *values]
