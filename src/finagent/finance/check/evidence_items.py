"""Evidence as the figures check reads it: each cited item's numbers, scales and period."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from finagent.finance.periods.period import period_label
from finagent.finance.read.written_figures import WrittenFigure, scan_figures
from finagent.finance.words import UNIT_CAPTION, UNIT_SCALES, table_unit


# -- evidence ----------------------------------------------------------------------------------------
@dataclass(slots=True)
class EvidenceItem:
    """An evidence item read once: its numbers (with the table's scales) and the dates it supports."""

    name: str
    label: str | None
    numbers: list[WrittenFigure]
    in_table: set[int]  # starts of the numbers written in table rows ("| Revenue | 81,797 |")
    scales: tuple[float, ...]
    days: set[int]
    months: set[tuple[int, int]]
    years: set[int]
    fiscal: set[str]


def _scales(text: str) -> tuple[float, ...]:
    """Scales a table states ("(In millions, except ... shares, which are reflected in thousands)")."""
    found = {UNIT_SCALES.get(table_unit(text), 0.0)}
    head = text[:600]
    for match in UNIT_CAPTION.finditer(head):
        word = (match.group(1) or match.group(2)).lower()
        found.add(UNIT_SCALES[f"USD {word}"])
    found.discard(0.0)
    return tuple(sorted(found))


def _add_period(item: EvidenceItem, period: Any, period_end: Any = None, fiscal_year: Any = None) -> None:
    for figure in scan_figures(str(period or "")):
        if figure.date_key and figure.date_key[0] == "fiscal":
            label = figure.date_key[1]
            item.fiscal.add(label)
            item.fiscal.add(label.split()[-1])
            item.years.add(int(label[-4:]))
    if fiscal_year:
        item.years.add(int(fiscal_year))
        item.fiscal.add(period_label(int(fiscal_year), None))
    if period_end:
        try:
            end = date.fromisoformat(str(period_end)[:10])
        except ValueError:
            return
        item.days.add(end.toordinal())
        item.months.add((end.year, end.month))
        item.years.add(end.year)


def _read_item(record: dict[str, Any], label: str | None, period: Any = None) -> EvidenceItem:
    text = str(record.get("text") or record.get("summary") or record.get("excerpt") or "")
    if label:
        name = f"[{label}]"
    elif record.get("chunk_id") is not None:
        name = f"chunk {record['chunk_id']}"
    else:
        name = (
            " ".join(str(record.get(k) or "") for k in ("ticker", "kind", "period_label")).strip() or "item"
        )
    item = EvidenceItem(name, label, [], set(), _scales(text), set(), set(), set(), set())
    for figure in scan_figures(text):
        if figure.kind != "date":
            item.numbers.append(figure)
            line_start = text.rfind("\n", 0, figure.start) + 1
            line_end = text.find("\n", figure.start)
            if "|" in text[line_start : line_end if line_end >= 0 else len(text)]:
                item.in_table.add(figure.start)
            continue
        key: Any
        kind, key = figure.date_key or ("", None)
        if kind == "day":
            day = date.fromordinal(key)
            item.days.add(key)
            item.months.add((day.year, day.month))
            item.years.add(day.year)
        elif kind == "month":
            item.months.add(key)
            item.years.add(key[0])
        elif kind == "year":
            item.years.add(key)
        elif kind == "fiscal":
            item.fiscal.add(key)
            item.fiscal.add(key.split()[-1])
            item.years.add(int(key[-4:]))
    _add_period(
        item,
        period or record.get("period_label") or record.get("period"),
        record.get("period_end"),
        record.get("fiscal_year"),
    )
    return item


def evidence_items(
    evidence: Sequence[dict[str, Any]], citations: Sequence[dict[str, Any]]
) -> list[EvidenceItem]:
    """Evidence items with their citation labels; a citation with no item stands in with its excerpt."""
    by_chunk = {c["chunk_id"]: c for c in citations if c.get("chunk_id") is not None}
    by_label = {c["label"]: c for c in citations if c.get("label")}
    items: list[EvidenceItem] = []
    for record in evidence:
        citation = by_chunk.get(record.get("chunk_id")) if record.get("chunk_id") is not None else None
        label = record.get("label") or (citation or {}).get("label")
        period = record.get("period_label") or (citation or {}).get("period")
        items.append(_read_item(record, label, period))
    known = {i.label for i in items if i.label}
    for label, citation in by_label.items():
        if label not in known:
            record = {**citation, "text": citation.get("excerpt") or citation.get("title") or ""}
            items.append(_read_item(record, label, citation.get("period")))
    return items
