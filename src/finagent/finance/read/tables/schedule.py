"""Schedules by year: a table whose rows are the years ahead ("2024 | 1,097 | 862"), as a 10-K prints
its benefit payments, lease payments and debt maturities, read by the row of the year asked, never by
position in the passage."""

from __future__ import annotations

import re
from dataclasses import dataclass

from finagent.finance.words import SCALE_PLURALS, table_unit

_YEAR = re.compile(r"(?:19|20)\d\d")
_VALUE = re.compile(r"\(?-?\$?\s?\d[\d,]*(?:\.\d+)?\)?")
_CAPTION = re.compile(rf"^\(?(?:dollars\s+)?in\s+(?:{'|'.join(SCALE_PLURALS)})\)?$|^year$", re.I)
_TITLE = re.compile(r"([^.:\n]{12,300}):\s*\n")
MIN_YEARS = 3  # consecutive year rows that make a schedule, not a year mentioned beside figures


@dataclass(frozen=True)
class ScheduledRow:
    """The row of one year in a schedule, with what the table says it is."""

    year: int
    values: tuple[str, ...]
    columns: tuple[str, ...]  # one header per value when the table names them, else ()
    title: str  # the sentence introducing the table ("... are expected to be paid as follows")
    unit: str  # "USD millions", or "other" when no caption names a scale

    def reads(self) -> str:
        """ "Pension Benefits $1,097 million; Health Care and Life $862 million" (or the bare values)."""
        amounts = [_amount(v, self.unit) for v in self.values]
        if self.columns:
            return "; ".join(f"{c} {a}" for c, a in zip(self.columns, amounts, strict=True))
        return " and ".join(amounts)


def scheduled_rows(text: str, year: int) -> list[ScheduledRow]:
    """Every schedule of the passage with a row for the year, in the order printed."""
    cells = [c.strip() for c in re.split(r"\s*\|\s*|\n", text)]
    found = []
    for start, width in _schedules(cells):
        row = _row(cells, start, width, year)
        if row is not None:
            before = "\n".join(cells[:start])
            titles = _TITLE.findall(before + "\n")  # the last sentence before the table ending ":"
            found.append(
                ScheduledRow(
                    year=year,
                    values=row,
                    columns=_columns(cells[:start], width),
                    title=" ".join(titles[-1].split()) if titles else "",
                    unit=table_unit(before),
                )
            )
    return found


def _schedules(cells: list[str]) -> list[tuple[int, int]]:
    """(index of the first year, values per year) of each run of consecutive year rows."""
    runs: list[tuple[int, int]] = []
    index = 0
    while index < len(cells):
        width = _width(cells, index)
        if width:
            runs.append((index, width))
            index += MIN_YEARS * (width + 1)
            while _is_year(cells, index) and int(cells[index]) == _year_before(cells, index, width) + 1:
                index += width + 1
        else:
            index += 1
    return runs


def _width(cells: list[str], index: int) -> int:
    """How many values follow each year when a run of ``MIN_YEARS`` consecutive years starts here."""
    if not _is_year(cells, index):
        return 0
    first = int(cells[index])
    for width in (1, 2, 3, 4):
        years = [index + step * (width + 1) for step in range(MIN_YEARS)]
        consecutive = all(_is_year(cells, i) and int(cells[i]) == first + n for n, i in enumerate(years))
        values = [cells[i + k] for i in years for k in range(1, width + 1) if i + k < len(cells)]
        if consecutive and all(_VALUE.fullmatch(v) for v in values):
            return width
    return 0


def _is_year(cells: list[str], index: int) -> bool:
    return index < len(cells) and bool(_YEAR.fullmatch(cells[index]))


def _year_before(cells: list[str], index: int, width: int) -> int:
    return int(cells[index - width - 1])


def _row(cells: list[str], start: int, width: int, year: int) -> tuple[str, ...] | None:
    index = start
    while _is_year(cells, index) and index + width < len(cells):
        values = cells[index + 1 : index + width + 1]
        if not all(_VALUE.fullmatch(v) for v in values):
            return None
        if int(cells[index]) == year:
            return tuple(values)
        index += width + 1
    return None


def _columns(before: list[str], width: int) -> tuple[str, ...]:
    """The headers between the table's "Year" and its first row, when there is one per value."""
    headers: list[str] = []
    for cell in reversed(before):
        if cell.lower() == "year":
            return tuple(reversed(headers)) if len(headers) == width and width > 1 else ()
        if cell and not _CAPTION.match(cell):
            headers.append(cell)
        if len(headers) > width:
            return ()
    return ()


def _amount(value: str, unit: str) -> str:
    """ "$1,097 million" of "1,097" in a table "(dollars in millions)"; as printed otherwise."""
    number = value.strip("()$ ").lstrip("-$ ")
    sign = "-" if value.startswith(("(", "-")) else ""
    scale = unit.split(" ", 1)[1].rstrip("s") if unit.startswith("USD ") else ""
    return f"{sign}${number} {scale}" if scale else value


def asked_schedule(rows: list[ScheduledRow], terms: list[str]) -> ScheduledRow | None:
    """The row whose table the question's words name most ("pay ... retirees" -> "benefit payments to
    retirees"); None when no table shares a word with the question."""
    wanted = [t.lower() for t in terms if len(t) >= 3]

    def shared(row: ScheduledRow) -> int:
        words = re.findall(r"[a-z]{3,}", f"{row.title} {' '.join(row.columns)}".lower())
        return sum(any(w.startswith(t) or t.startswith(w[:5]) for w in words) for t in wanted)

    scored = [(shared(row), -index, row) for index, row in enumerate(rows)]
    best = max(scored, default=None, key=lambda s: s[:2])
    return best[2] if best and best[0] > 0 else None
