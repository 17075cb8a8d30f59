"""Tables whose value columns come in groups, one group per segment.

A bank prints its segment results as one group of columns per segment, each group over the same
periods ("Consumer & Community Banking | Corporate & Investment Bank | ..." over "2021 | 2020 |
Change"), often split in two tables on one page. Read by period, every group gives its own value
for a period, so the plain reader fails closed on them. Turned so that each group is a row and each
line item its own table, a segment's value is read from the column whose header names the period,
and the segments of a line can be ranked like the rows of any table. Pure functions, no I/O.

The group names stand on one header line, run together as the text layer prints them. They are
split at words only: "&", "and" or "of" join the words around them; a last "Total" and an acronym
("EMEA") are names of their own; a word that ends the line and occurs once per name ends each name
("United States Operations Canadian Operations …"); otherwise the names take as even a share of the
words as they can, a longer one first.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from finagent.finance.read.tables.records import PeriodTable, TableRow

_SPAN = re.compile(
    r"^\s*(?:(?:(?:three|six|nine|twelve)\s+months|(?:fiscal\s+)?years?|quarters?)\s+ended"
    r"|as\s+of|at)\s+[A-Z][a-z]+\.?\s+\d{1,2},?(?:\s+\d{4})?\s*",
    re.IGNORECASE,
)
_JOINS = frozenset({"&", "and", "of"})
_MAX_UNITS = 14  # more words than any header of group names has: a sentence, not names


@dataclass(frozen=True, slots=True)
class _Groups:
    names: tuple[str, ...]
    width: int  # value columns per group
    table: PeriodTable


def grouped_tables(tables: Sequence[PeriodTable]) -> list[PeriodTable]:
    """One table per line item of every table of column groups (two tables in a row with the same
    line items and periods are one: the page's second half), whose rows are the groups in print
    order. A group named "Total" becomes the line's total row, so the groups' sum is checked."""
    found = [g for g in (_groups(t) for t in tables) if g is not None]
    merged: list[list[_Groups]] = []
    for groups in found:
        last = merged[-1][-1] if merged else None
        if last is not None and _continues(last, groups):
            merged[-1].append(groups)
        else:
            merged.append([groups])
    return [turned for run in merged for turned in _turned(run)]


def _groups(table: PeriodTable) -> _Groups | None:
    """The table's group names and columns per group; None when its columns are not one set of
    periods repeated, or its header names no groups of that count."""
    line = _names_line(table.header)
    if line is None:
        return None
    for count in range(len(table.columns), 1, -1):  # the most groups: one period each before two
        width, extra = divmod(len(table.columns), count)
        if extra or not width:
            continue
        first = table.columns[:width]
        if all(table.columns[g * width : (g + 1) * width] == first for g in range(count)):
            names = split_names(line, count)
            return _Groups(names, width, table) if names else None
    return None


def _names_line(header: str) -> str | None:
    """The header line just above the first row of period cells, with its period phrase taken off."""
    lines = header.splitlines()
    first_cells = next((i for i, line in enumerate(lines) if "|" in line), None)
    if not first_cells:
        return None
    line = lines[first_cells - 1]
    span = _SPAN.match(line)
    return line[span.end() :].strip() if span else None


def split_names(line: str, count: int) -> tuple[str, ...]:
    """``count`` names from a line of names run together ("Asset & Wealth Management Corporate
    Total" -> three); () when the line is not a run of capitalised names or has too few words."""
    units = _units(line)
    if not units or len(units) < count or len(units) > _MAX_UNITS:
        return ()
    if count > 1 and units[-1].lower() in TOTAL_WORDS:  # "… Total": a name of its own
        rest = split_names(" ".join(units[:-1]), count - 1)
        return (*rest, units[-1]) if rest else ()
    ends = [i + 1 for i, unit in enumerate(units) if unit == units[-1]]
    if count > 1 and len(ends) == count and ends[0] > 1:  # "United States Operations Canadian Operations …"
        return tuple(" ".join(units[a:b]) for a, b in itertools.pairwise((0, *ends)))
    splits = [
        tuple(b - a for a, b in itertools.pairwise((0, *cuts, len(units))))
        for cuts in itertools.combinations(range(1, len(units)), count - 1)
    ]
    alone = [_ACRONYM.match(unit) is not None for unit in units]
    splits = [sizes for sizes in splits if _acronyms_alone(sizes, alone)] or splits
    best = min(splits, key=lambda sizes: (max(sizes) - min(sizes), tuple(-s for s in sizes)))
    names, start = [], 0
    for size in best:
        names.append(" ".join(units[start : start + size]))
        start += size
    return tuple(names)


TOTAL_WORDS = frozenset({"total", "consolidated"})
"""Names of the column that holds the whole: its own name when a header runs names together."""
_ACRONYM = re.compile(r"^[A-Z]{3,}$")  # "EMEA", "APAC": a name of its own, never part of a longer one


def _acronyms_alone(sizes: Sequence[int], alone: Sequence[bool]) -> bool:
    start = 0
    for size in sizes:
        if size > 1 and any(alone[start : start + size]):
            return False
        start += size
    return True


def _units(line: str) -> list[str]:
    """The line's words, each joined to its neighbours by "&", "and" or "of"; [] when a word is
    neither capitalised nor a joining word (a sentence, not names)."""
    words = line.split()
    if not words or any(not (w[:1].isupper() or w.lower() in _JOINS) for w in words):
        return []
    if words[0].lower() in _JOINS or words[-1].lower() in _JOINS:
        return []
    units: list[str] = []
    joining = False
    for word in words:
        if word.lower() in _JOINS:
            units[-1] += f" {word}"
            joining = True
        elif joining:
            units[-1] += f" {word}"
            joining = False
        else:
            units.append(word)
    return units


def _continues(first: _Groups, second: _Groups) -> bool:
    """The second table goes on with the first's groups: same periods per group, same first line."""
    a, b = first.table, second.table
    return (
        a.columns[: first.width] == b.columns[: second.width]
        and bool(a.rows)
        and bool(b.rows)
        and _line(a.rows[0].label) == _line(b.rows[0].label)
    )


def _line(label: str) -> str:
    """A line item's name without its alternative ("Net income/(loss)" -> "Net income")."""
    return re.sub(r"\s*/\s*\(?\w+\)?\s*$", "", label).strip()


def _turned(run: Sequence[_Groups]) -> list[PeriodTable]:
    """One table per line item the first table prints and every table of the run has."""
    first = run[0]
    tables = []
    for row in first.table.rows:
        line = _line(row.label)
        rows: list[TableRow] = []
        for groups in run:
            same = next((r for r in _rejoined(groups) if _line(r.label) == line), None)
            if same is None or len(same.cells) != len(groups.names) * groups.width:
                rows = []
                break
            rows += [
                TableRow(
                    label=_group_label(name, line),
                    cells=same.cells[g * groups.width : (g + 1) * groups.width],
                    section=line,
                    ambiguous=same.ambiguous,
                )
                for g, name in enumerate(groups.names)
            ]
        if rows:
            table = first.table
            tables.append(
                PeriodTable(
                    header=f"{table.header}\n{line}",
                    columns=table.columns[: first.width],
                    rows=tuple(rows),
                    scale=table.scale,
                    share_scale=table.share_scale,
                    annual=table.annual,
                    flows=table.flows,
                )
            )
    return tables


_MARK = re.compile(r"^\s*\([a-z]\)\s*$")


def _rejoined(groups: _Groups) -> list[TableRow]:
    """The table's rows, a row broken over lines by footnote marks made whole again: "Net income |
    3,100 | 5,645" then "(a) | (45) | 3,725 | 5,020" then "(a) | (26) | 994 | 1,422" is one row. Its
    values are the first cells of each group's printed cells (the periods come before the change), as
    a whole row of the table shows; a row that cannot be so read stays as it was."""
    rows = list(groups.table.rows)
    layout = _raw_width(groups)
    out: list[TableRow] = []
    for i, row in enumerate(rows):
        if _MARK.match(row.label):
            continue
        raw = list(row.raw)
        for after in rows[i + 1 :]:
            if not row.ambiguous or not _MARK.match(after.label):
                break
            raw += after.raw
        whole = layout * len(groups.names) if layout else 0
        if layout is None or not row.ambiguous or len(raw) not in (whole, whole - 1):
            out.append(row)
            continue
        padded = [*raw, ""]
        cells = tuple(
            padded[g * layout + k] or None for g in range(len(groups.names)) for k in range(groups.width)
        )
        out.append(TableRow(label=row.label, cells=cells, section=row.section, raw=tuple(raw)))
    return out


def _raw_width(groups: _Groups) -> int | None:
    """Printed cells per group, when a whole row shows its values are each group's first cells."""
    count = len(groups.names)
    for row in groups.table.rows:
        if row.ambiguous or len(row.raw) % count:
            continue
        width = len(row.raw) // count
        values = [row.raw[g * width + k] for g in range(count) for k in range(groups.width)]
        if width >= groups.width and all(c is None or c == v for c, v in zip(row.cells, values, strict=True)):
            return width
    return None


def _group_label(name: str, line: str) -> str:
    """A group's row label; the "Total" group is the line's total ("Total net revenue")."""
    return total_label(line) if name.lower() == "total" else name


def total_label(line: str) -> str:
    """The label of a line's total row: "Total net revenue" for "Net revenue" or "Total net revenue"."""
    rest = re.sub(r"^\s*total\s+", "", line, flags=re.IGNORECASE)
    return f"Total {rest[:1].lower() + rest[1:] if rest[1:2].islower() else rest}"
