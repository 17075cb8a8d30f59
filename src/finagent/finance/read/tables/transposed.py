"""Tables printed on their side: the parts as columns, the years as groups of rows.

A company's geographic note often prints one column per region and one group of rows per year:

    (Millions) United States EMEA APAC LACC Other Unallocated Consolidated 2022
    Total revenues net of interest expense | $41,396 | $4,871 | ... | $52,862
    Pretax income (loss) from continuing operations | 10,383 | 550 | ... | 9,585 | 2021
    Total revenues net of interest expense | $33,103 | ...

The text layer runs the column names together on the header line, ends it with the first group's
year, and prints each later group's year after the last row of the group before. The plain reader
sees one year column and rows too wide for it, and fails closed. Turned so that each region is a row
and each year a column, one table per line item, a region's value is read from the column whose
header names its year, and the regions add up to the "Consolidated" (or "Total") row. Pure
functions, no I/O.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from finagent.finance.read.tables.groups import TOTAL_WORDS, split_names, total_label
from finagent.finance.read.tables.records import ColumnPeriod, PeriodTable, TableRow
from finagent.finance.words import SCALE_PLURALS

_YEAR = re.compile(r"^(?:19|20)\d{2}$")
_LEADING_UNIT = re.compile(rf"^\s*\((?:in\s+)?(?:{'|'.join(SCALE_PLURALS)})[^)]*\)\s*", re.IGNORECASE)


def transposed_tables(tables: Sequence[PeriodTable]) -> list[PeriodTable]:
    """One table per line item of every table printed on its side, its rows the named columns in
    print order and its columns the years; [] for any other table."""
    return [turned for table in tables for turned in _turned(table)]


def _turned(table: PeriodTable) -> list[PeriodTable]:
    header_year, names_text = _names_line(table)
    width = _width(table.rows)
    if header_year is None or width is None or width < 3:
        return []
    names = split_names(names_text, width)
    if not names:
        return []
    values: dict[str, dict[int, tuple[str, ...]]] = {}
    year = header_year
    for row in table.rows:
        raw = row.raw
        next_year = int(raw[-1]) if len(raw) == width + 1 and _YEAR.match(raw[-1]) else None
        if len(raw) - (next_year is not None) != width or year in values.get(row.label, {}):
            return []  # a row of another shape: not one table on its side
        values.setdefault(row.label, {})[year] = raw[:width]
        year = next_year if next_year is not None else year
    years = sorted({y for by_year in values.values() for y in by_year}, reverse=True)
    if len(years) < 2:
        return []
    columns = tuple(ColumnPeriod(fiscal_year=y, header=str(y)) for y in years)
    return [
        PeriodTable(
            header=f"{table.header}\n{line}",
            columns=columns,
            rows=tuple(
                TableRow(
                    label=_label(name, line),
                    cells=tuple(by_year[y][k] if y in by_year else None for y in years),
                    section=line,
                )
                for k, name in enumerate(names)
            ),
            scale=table.scale,
            share_scale=table.share_scale,
            annual=True,
            flows=table.flows,
        )
        for line, by_year in values.items()
    ]


def _names_line(table: PeriodTable) -> tuple[int | None, str]:
    """The first group's year and the column names, from the header's last line ("(Millions) United
    States EMEA … Consolidated 2022"), when the table's one column is that year."""
    lines = table.header.splitlines()
    if len(table.columns) != 1 or not lines:
        return None, ""
    words = _LEADING_UNIT.sub("", lines[-1]).split()
    if len(words) < 2 or not _YEAR.match(words[-1]) or table.columns[0].fiscal_year != int(words[-1]):
        return None, ""
    return int(words[-1]), " ".join(words[:-1])


def _width(rows: Sequence[TableRow]) -> int | None:
    """Values per row: what most rows print, the next group's year left off."""
    if not rows:
        return None
    counts = Counter(len(r.raw) - int(bool(r.raw) and bool(_YEAR.match(r.raw[-1]))) for r in rows)
    width, _ = counts.most_common(1)[0]
    return width or None


def _label(name: str, line: str) -> str:
    """A column's row label; the "Consolidated" or "Total" column is the line's total."""
    return total_label(line) if name.lower() in TOTAL_WORDS else name
