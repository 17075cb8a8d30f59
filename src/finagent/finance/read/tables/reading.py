"""Reading a figure: the row by its line item, its unit, and the cell of the target period."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from finagent.finance.fact_records import FiscalCalendar
from finagent.finance.read.tables.column_periods import column_matches, columns_for
from finagent.finance.read.tables.records import PeriodTable, PeriodTarget, TableCell, TableRow
from finagent.finance.read.tables.rows import parse_number

_WORD = re.compile(r"[a-z][a-z&\-]+")


_LABEL_STOP = frozenset({"total", "of", "and", "the", "a", "in", "to"})


_MAX_EXTRA_WORDS = 3


# "Adjusted non-GAAP EBITDA" is tabled as "Adjusted EBITDA": the words say what kind of measure it
# is, not which line.
_NON_GAAP = re.compile(r"\bnon[\s-]?gaap\b")


# Words that turn a line item into a different one ("Cost of revenue" is not revenue).
_QUALIFIERS = frozenset(
    {
        *("cost", "costs", "deferred", "unearned", "unbilled", "other", "accrued", "change", "changes"),
        # "Net actuarial income (loss)" and "Total comprehensive income" are not net income;
        # "Accumulated depreciation" is a balance, not the year's charge.
        *("actuarial", "comprehensive", "noncontrolling", "non-controlling", "accumulated"),
    }
)


_PARENTHETICAL = re.compile(r"\([^()]{12,}\)")


_PERCENT_SECTION = re.compile(r"percent|%|growth", re.I)


_TOTAL_SECTION = re.compile(r"consolidated|total", re.I)


def label_match(label: str, terms: Sequence[str]) -> int | None:
    """Extra words in a label that holds every term (lower is better); None if a term is missing
    or a qualifier ("cost of", "deferred") makes it a different line item."""
    # "(net of allowances of $33 at December 28, 2019 ...)" qualifies the amount, not the line
    words = _WORD.findall(_PARENTHETICAL.sub(" ", label).lower())
    if not terms or not all(any(w.startswith(t) for w in words) for t in terms):
        return None
    if any(w in _QUALIFIERS and w not in terms for w in words):
        return None
    return sum(1 for w in words if w not in _LABEL_STOP and not any(w.startswith(t) for t in terms))


def find_row(table: PeriodTable, phrases: str | Sequence[str]) -> TableRow | None:
    """The row a line-item phrase names ("total net sales", "diluted earnings per share").

    All terms must be in the label (or in its section heading and label: "Diluted" under "Earnings
    per share:"); fewest extra words wins, then a label that also says "total" when asked, then
    rows outside percent sections and segment blocks. Rows tied after that with different values
    (Apple's "Net sales" under each region) are ambiguous: None.
    """
    for phrase in [phrases] if isinstance(phrases, str) else phrases:
        words = _WORD.findall(_NON_GAAP.sub(" ", phrase.lower()))
        terms = [w for w in words if w not in _LABEL_STOP]
        scored: list[tuple[tuple[int, ...], TableRow]] = []
        for row in table.rows:
            extra, via_section = label_match(row.label, terms), 0
            if extra is None and row.section:
                extra, via_section = label_match(f"{row.section} {row.label}", terms), 1
            if extra is None or extra > _MAX_EXTRA_WORDS:
                continue
            label_words = _WORD.findall(row.label.lower())
            missing_stop = sum(1 for w in words if w in _LABEL_STOP and w != "of" and w not in label_words)
            percent = bool(row.section and _PERCENT_SECTION.search(row.section))
            segment = bool(row.section and not via_section and not _TOTAL_SECTION.search(row.section))
            scored.append(((extra, via_section, missing_stop, percent, segment), row))
        if not scored:
            continue
        best = min(score for score, _ in scored)
        tied = [row for score, row in scored if score == best]
        if len({row.cells for row in tied}) == 1:
            return tied[0]
        return None
    return None


_PER_SHARE = re.compile(r"per (common |diluted |basic )?share|\beps\b|per diluted|per basic", re.I)


_SHARES = re.compile(r"\bshares\b", re.I)


_STOCK_LINE = re.compile(r"par value|authorized", re.I)


_THOUSANDS = re.compile(r"\d,\d{3}\b")


_PERCENT_LABEL = re.compile(r"\bpercent|\(%\)|%$|\bmargin %|as a percentage", re.I)


def row_unit(table: PeriodTable, row: TableRow) -> tuple[str | None, int | None]:
    """(unit, scale) of a row's amounts: per-share rows are USD per share, unscaled; share counts
    take the caption's share scale; rows under a percent heading are percent; else USD at the
    table's scale (unit None when the table states no scale)."""
    label, section = row.label, row.section or ""
    if _PER_SHARE.search(label) and not _SHARES.search(_PER_SHARE.sub("", label)):
        return "USD/share", 0
    if _SHARES.search(label) and not _STOCK_LINE.search(label):
        return "shares", table.share_scale
    if _SHARES.search(section):
        return "shares", table.share_scale
    if _PER_SHARE.search(section):
        return "USD/share", 0
    if _PERCENT_LABEL.search(label) or (
        _PERCENT_SECTION.search(section) and not _THOUSANDS.search(" ".join(row.raw))
    ):
        return "percent", 0  # a percent is never written with a thousands separator ("2,018")
    if table.scale is None:
        return None, None
    return "USD", table.scale


def _cell(table: PeriodTable, row: TableRow, index: int, target: PeriodTarget | None) -> TableCell | None:
    text = row.cells[index]
    parsed = parse_number(text) if text is not None else None
    if text is None or parsed is None:
        return None
    value, percent = parsed
    unit, scale = ("percent", 0) if percent else row_unit(table, row)
    base = value * 10**scale if scale is not None and unit is not None else None
    column = table.columns[index]
    return TableCell(value, base, unit, scale or 0, row.label, column.header, column, target, text)


def cell_for(
    table: PeriodTable, row: TableRow | str, target: PeriodTarget, calendar: FiscalCalendar
) -> TableCell | None:
    """The figure of a row for a period: the column whose header names that period. None when no
    column does, the row is ambiguous, or matching columns disagree."""
    found = find_row(table, row) if isinstance(row, str) else row
    if found is None or found.ambiguous:
        return None
    periods = columns_for(table, calendar)
    cells = [
        _cell(table, found, i, period) for i, period in enumerate(periods) if column_matches(period, target)
    ]
    read = [c for c in cells if c is not None]
    if not read or len({c.value for c in read}) != 1:
        return None
    return read[0]


def table_cells(table: PeriodTable, calendar: FiscalCalendar) -> Iterator[TableCell]:
    """Every figure of a table with its period, for reading comparative columns too (the same
    quarter a year earlier, the year-to-date span). Undated columns are left out, and so is a
    period whose columns disagree (a "% change" column headed by a year)."""
    periods = columns_for(table, calendar)
    for row in table.rows:
        if row.ambiguous:
            continue
        by_period: dict[PeriodTarget, list[TableCell | None]] = {}
        for i, period in enumerate(periods):
            if period is not None:
                by_period.setdefault(period, []).append(_cell(table, row, i, period))
        for cells in by_period.values():
            read = [c for c in cells if c is not None]
            if read and len({c.value for c in read}) == 1:
                yield read[0]
