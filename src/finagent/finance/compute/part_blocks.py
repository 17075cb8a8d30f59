"""Which part of a whole ranks first: a segment, a region, a product category or a liability.

What the question asks of the parts is read by ``parts_ask``; here the parts are found and ranked.
"Which region had the biggest drop in revenues?", "What was the largest liability on the balance
sheet?", "Are there categories that make up more than 20% of revenue?" are rankings, and rankings are
code. The parts are the rows of a statement table that add up to the total row below them (the
liabilities above "Total liabilities", the regions above "Revenues"); the sum is checked, so a block
of unrelated rows is never ranked as if it were the parts of a whole. The column is the asked period,
read from its header; a change compares it with the same span a year earlier. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from finagent.finance.ask.parts_ask import PartsAsk, part_stems
from finagent.finance.compute.safe_calculator import growth_pct, margin_pct
from finagent.finance.fact_records import FiscalCalendar
from finagent.finance.read.tables import (
    PeriodTable,
    PeriodTarget,
    TableRow,
    columns_for,
    decimal_places,
    parse_number,
)

_I = re.IGNORECASE

# Lines that reconcile the parts to the total are not parts to rank.
_NOT_A_PART = re.compile(r"\b(?:eliminat\w*|unallocated|reconcil\w*|inter-?segment|adjustments?)\b", _I)


@dataclass(frozen=True, slots=True)
class Part:
    """One part: its value in the asked column, the year-earlier value and the computed change and
    share of the total (None when not computed)."""

    label: str
    value: Decimal
    prior: Decimal | None = None
    change: float | None = None
    change_expression: str = ""
    share: float | None = None
    share_expression: str = ""


@dataclass(frozen=True, slots=True)
class PartsBlock:
    """Parts that add up to a total row of one table column, in the table's printed unit."""

    whole: str  # the total row's label without "Total" ("liabilities", "Revenues")
    section: str | None  # the heading the total row sits under
    total: Decimal
    prior_total: Decimal | None
    parts: tuple[Part, ...]
    period: PeriodTarget
    scale: int | None
    prior_period: PeriodTarget | None = None  # the year-earlier column a change compares with


def blocks_for(
    table: PeriodTable, calendar: FiscalCalendar, wanted: Sequence[tuple[int, int | None]]
) -> list[PartsBlock]:
    """Every block of parts in the column of the asked period (``wanted``: fiscal year and quarter;
    empty: the latest column), with the year-earlier column of the same span when there is one."""
    periods = columns_for(table, calendar)
    column = _column(periods, wanted)
    if column is None:
        return []
    prior = _prior_column(periods, column)
    blocks = []
    for rows, total in _sums(table.rows, column):
        parts = _parts(rows, column, prior, total)
        if len(parts) < 2:
            continue
        prior_total = _value(total, prior)
        blocks.append(
            PartsBlock(
                whole=re.sub(r"^\s*total\s+", "", total.label, flags=_I).strip(),
                section=total.section,
                total=_value(total, column) or Decimal(0),
                prior_total=prior_total,
                parts=tuple(parts),
                period=periods[column],  # type: ignore[arg-type]
                scale=table.scale,
                prior_period=periods[prior] if prior is not None else None,
            )
        )
    return blocks


def named_block(
    table: PeriodTable, calendar: FiscalCalendar, wanted: Sequence[tuple[int, int | None]], ask: PartsAsk
) -> PartsBlock | None:
    """The parts a question names, each the row of the table whose label holds its word and most of
    the question's other words (a total first): "Total cash used in investing activities" for
    "investing" in a question about cash flow. None unless every named part has its row."""
    periods = columns_for(table, calendar)
    column = _column(periods, wanted)
    if column is None:
        return None
    rows: list[TableRow] = []
    for stem in ask.named:
        found = [
            (len(part_stems(row.label) & set(ask.measure)) + int(bool(_TOTAL.match(row.label))), -i, row)
            for i, row in enumerate(table.rows)
            if stem in part_stems(row.label) and _value(row, column) is not None
        ]
        if not found or max(found, key=lambda f: (f[0], f[1]))[0] == 0:
            return None
        best = max(found, key=lambda f: (f[0], f[1]))[2]
        if best in rows:
            return None
        rows.append(best)
    prior = _prior_column(periods, column)
    return PartsBlock(
        whole="",
        section=None,
        total=Decimal(0),
        prior_total=None,
        parts=tuple(_parts(rows, column, prior, None)),
        period=periods[column],  # type: ignore[arg-type]
        scale=table.scale,
        prior_period=periods[prior] if prior is not None else None,
    )


_TOTAL = re.compile(r"\s*(?:total|net)\b", _I)


def _column(periods: Sequence[PeriodTarget | None], wanted: Sequence[tuple[int, int | None]]) -> int | None:
    """The asked period's column (a quarter before its year to date); the latest when none is asked."""
    order = {"quarter": 0, "instant": 1, "year": 0, "six_months": 2, "nine_months": 2}
    found = [
        (order.get(p.duration, 3), i)
        for i, p in enumerate(periods)
        if p is not None and (not wanted or _same_period(p, wanted))
    ]
    if not found:
        return None
    if not wanted:
        latest = max(p.end or date.min for p in periods if p is not None)
        found = [(rank, i) for rank, i in found if (periods[i].end or date.min) == latest]  # type: ignore[union-attr]
    return min(found)[1] if found else None


def _same_period(period: PeriodTarget, wanted: Sequence[tuple[int, int | None]]) -> bool:
    quarter = period.fiscal_quarter
    if period.duration == "instant" and quarter == 4:
        quarter = None
    return any(period.fiscal_year == year and quarter == q for year, q in wanted)


def _prior_column(periods: Sequence[PeriodTarget | None], column: int) -> int | None:
    """The column of the same span ending about a year before the asked one."""
    asked = periods[column]
    if asked is None or asked.end is None:
        return None
    for i, period in enumerate(periods):
        if period is None or period.end is None or period.duration != asked.duration:
            continue
        if 350 <= (asked.end - period.end).days <= 380:
            return i
    return None


def _value(row: TableRow, column: int | None) -> Decimal | None:
    if column is None or row.ambiguous or column >= len(row.cells) or row.cells[column] is None:
        return None
    parsed = parse_number(str(row.cells[column]))
    return parsed[0] if parsed is not None and not parsed[1] else None


def _sums(rows: Sequence[TableRow], column: int) -> list[tuple[list[TableRow], TableRow]]:
    """(parts, total row) wherever a row equals the sum of the rows just above it (two or more; a
    subtotal stands for the rows it sums), within the rounding of the printed values."""
    found: list[tuple[list[TableRow], TableRow]] = []
    stack: list[tuple[TableRow, Decimal]] = []
    for row in rows:
        value = _value(row, column)
        if value is None:
            stack.clear()
            continue
        for k in range(2, len(stack) + 1):
            tail = stack[-k:]
            places = max(decimal_places(r.cells[column]) for r, _ in [*tail, (row, value)])
            if abs(sum(v for _, v in tail) - value) <= k * Decimal(10) ** -places and value != 0:
                found.append(([r for r, _ in tail], row))
                del stack[-k:]
                break
        stack.append((row, value))
    return found


def _parts(rows: list[TableRow], column: int, prior: int | None, total: TableRow | None) -> list[Part]:
    whole = _value(total, column) if total is not None else None
    parts = []
    for row in rows:
        value = _value(row, column)
        if value is None or _NOT_A_PART.search(row.label):
            continue
        before = _value(row, prior) if prior is not None else None
        change = growth_pct(before, value) if before is not None and before > 0 else None
        share = margin_pct(value, whole) if whole else None
        parts.append(
            Part(
                label=_label(row.label),
                value=value,
                prior=before,
                change=change.result if change is not None and change.ok else None,
                change_expression=change.expression if change is not None and change.ok else "",
                share=share.result if share is not None and share.ok else None,
                share_expression=share.expression if share is not None and share.ok else "",
            )
        )
    return parts


_KINDS = (
    re.compile(r"\b(?:geograph\w*|regions?|regional|areas?|countr(?:y|ies)|markets?)\b", _I),
    re.compile(r"\b(?:segments?|categor(?:y|ies)|divisions?|business(?:es)?|units?|products?|brands?)\b", _I),
)


_PLACES = re.compile(
    r"\b(?:americas?|europe\w*|asia\w*|pacific|china|japan|united states|u\.s\.|canada|mexico|latin"
    r"|africa|middle east|emea|apac|international|domestic|rest of (?:the )?world|emerging markets"
    r"|north\w*|south\w*|east\w*|west\w*|greater \w+|india|germany|france|united kingdom|macau|las vegas)\b",
    _I,
)


_LINE_ITEM = re.compile(r"\b(?:revenues?|income|sales|expenses?|earnings|profits?|loss(?:es)?|costs?)\b", _I)


def kind_named(noun: str, text: str, labels: Sequence[str]) -> int:
    """How well a block is a set of the asked parts: 2 when the passage names their kind ("geographic"
    for a region, "segment" or "category" for a segment) or, for regions, most parts are places;
    1 when it names a breakdown of another kind (Apple's regions are its "reportable segments");
    0 when it names none (a sum of revenue lines is not a set of segments), or when regions are asked
    and the parts are not places. A liability or an asset is named by its whole."""
    if noun.startswith(("liabil", "asset")) or noun == "item":
        return 2
    if any(_LINE_ITEM.search(label) for label in labels):
        return 0  # "Net interest income" and "Noninterest revenue" are lines of revenue, not segments
    places = sum(1 for label in labels if _PLACES.search(label)) * 2 >= len(labels)
    if _KINDS[0].search(noun):
        return 2 if places else 0
    if any(k.search(noun) and k.search(text) for k in _KINDS):
        return 2
    return 1 if any(k.search(text) for k in _KINDS) else 0


def _label(label: str) -> str:
    """A part's name as a reader wants it: no "Total", no long parenthetical ("(includes debt issued
    by consolidated variable interest entities: ...)")."""
    label = re.sub(r"\s*\([^()]{12,}\)", "", label)
    label = re.sub(r"^\s*total\s+", "", label, flags=_I).strip()
    return label[:1].upper() + label[1:]


# Words of a total row that do not make it another whole ("Total net revenue" and "Reportable segment
# net revenues" are revenue).
_WHOLE_GENERIC = frozenset({"total", "net", "conso", "repor", "segme", "the", "and", "all", "compa", "group"})


def whole_key(label: str) -> str:
    """A whole as its stems ("liabi", "reven"): "Total net revenue" and "Net revenue" are one whole."""
    return " ".join(sorted(part_stems(label) - _WHOLE_GENERIC))


def totals_for(
    table: PeriodTable, calendar: FiscalCalendar, wanted: Sequence[tuple[int, int | None]]
) -> list[tuple[str, str, Decimal]]:
    """(whole, period, value) of every row in the asked period's column: the largest value a whole
    takes anywhere in the passages is the company's (a segment's own total is smaller)."""
    periods = columns_for(table, calendar)
    column = _column(periods, wanted)
    if column is None or periods[column] is None:
        return []
    label = periods[column].label  # type: ignore[union-attr]
    found = []
    for row in table.rows:
        value = _value(row, column)
        if value is not None:
            found.append((whole_key(_label(row.label)), label, abs(value)))
    return found


_SEGMENTS_TOTAL = re.compile(r"\bsegments?\b", _I)


def sums_segments(block: PartsBlock) -> bool:
    """The block's total is the reportable segments' (it leaves out corporate items, so it may be
    below the company's total and still split the whole company)."""
    return bool(_SEGMENTS_TOTAL.search(block.whole))


def block_score(block: PartsBlock, ask: PartsAsk) -> int:
    """How many of the question's stems name the block's whole, the total row (or, for a bare "Total",
    its heading); 0 when the whole says more than the question asks: "Commercial banking net revenue"
    or "net cash used in financing activities" is not the company's revenue or its liabilities."""
    if ask.named:
        return 1  # the question names the parts; each row was found by its name
    whole = part_stems(block.whole) - _WHOLE_GENERIC or part_stems(block.section or "") - _WHOLE_GENERIC
    if ask.by == "list":  # the revenue the parts are listed by, in whatever words the table prints it
        return len(whole & set(ask.measure))
    if not whole or not whole <= set(ask.measure):
        return 0
    return len(whole)


def ranked(block: PartsBlock, ask: PartsAsk) -> list[Part]:
    """The parts in the asked order (those with no computed change left out of a change ranking)."""
    if ask.by == "change":
        with_change = [p for p in block.parts if p.change is not None]
        return sorted(with_change, key=lambda p: p.change or 0.0, reverse=ask.highest)
    if ask.by in ("share", "list"):
        return sorted(block.parts, key=lambda p: p.share or 0.0, reverse=True)
    return sorted(block.parts, key=lambda p: p.value, reverse=ask.highest)
