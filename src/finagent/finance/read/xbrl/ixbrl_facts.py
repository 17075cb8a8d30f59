"""Numeric facts of an iXBRL document: each ``ix:nonFraction`` (nested ones included) with its
context, unit, scale, sign and the statement row that shows it; duplicates reconciled."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from lxml import etree

from finagent.finance.fact_records import Fact, FiscalCalendar, duration_class
from finagent.finance.read.xbrl.contexts import FactHeader
from finagent.finance.read.xbrl.ixt_formats import Formats, exact_value, plain_number
from finagent.finance.read.xbrl.xml import (
    DISPLAY_NONE,
    FACT_TAGS,
    HIDDEN_TAGS,
    MAX_NUMBER_TEXT,
    MAX_SCALE,
    RESOURCES_TAGS,
    FactExtraction,
    element_text,
    fact_elements,
    is_nil,
    parse_decimals,
    standard_concept,
    xml_attr,
    xml_local,
)

# --------------------------------------------------------------------------- iXBRL


def _placement(el: etree._Element, hidden_set: set[etree._Element]) -> tuple[bool, etree._Element | None]:
    """(hidden, the <tr> the fact is displayed in) from one walk up the ancestors."""
    if el in hidden_set:
        return True, None
    row: etree._Element | None = None
    for anc in el.iterancestors():
        if not isinstance(anc.tag, str):
            continue
        style = anc.get("style")
        if style and "none" in style and DISPLAY_NONE.search(style):
            return True, None
        if row is None and xml_local(anc.tag) == "tr":
            row = anc
    return False, row


_RowLabel = tuple[etree._Element | None, str | None]


def _row_label(row: etree._Element, el: etree._Element, cache: dict[etree._Element, _RowLabel]) -> str | None:
    """First non-empty cell of the row, unless that cell is the fact's own."""
    found = cache.get(row)
    if found is None:
        found = (None, None)
        for cell in row:
            if xml_local(cell.tag) in ("td", "th"):
                text = element_text(cell)
                if text and text not in ("$", "(", ")", "%"):
                    found = (cell, text)
                    break
        cache[row] = found
    cell, label = found
    if cell is None:
        return None
    for anc in el.iterancestors():
        if anc is cell:
            return None
        if anc is row:
            break
    return label


@dataclass
class _Document:
    """What each fact of one iXBRL document is read with: its contexts and units, the facts it hides,
    the ixt formats met so far and the row labels found so far."""

    header: FactHeader
    hidden: set[etree._Element]
    formats: Formats = field(default_factory=Formats)
    labels: dict[etree._Element, _RowLabel] = field(default_factory=dict)


def extract_ixbrl_facts(
    root: etree._Element,
    calendar: FiscalCalendar | None,
    elements: list[etree._Element] | None = None,
) -> FactExtraction:
    """Facts of every ix:nonFraction (see ixbrl_facts), with skip reasons and dedupe counts.

    ``elements`` may be passed when the caller already computed :func:`fact_elements`.
    """
    els = fact_elements(root) if elements is None else elements
    out = FactExtraction(elements=len(els))
    document = _Document(
        FactHeader(root.iter(*RESOURCES_TAGS)),
        {e for h in root.iter(*HIDDEN_TAGS) for e in h.iter(*FACT_TAGS)},
    )
    drafts: list[Fact] = []
    for ordinal, el in enumerate(els):
        read = _read_fact(el, ordinal, document)
        if isinstance(read, Fact):
            drafts.append(read)
        else:
            out.skipped.append(read)
    finish_facts(out, drafts, calendar)
    return out


def _read_fact(el: etree._Element, ordinal: int, document: _Document) -> Fact | tuple[str, str]:
    """One ix:nonFraction as a Fact, or (where it is, why it is skipped)."""
    ident = el.get("id") or ""
    concept = standard_concept((el.get("name") or "").strip(), el.nsmap)
    where = ident or concept or f"#{ordinal}"
    ctx = document.header.context((xml_attr(el, "contextRef") or "").strip())
    if not concept:
        return where, "no name"
    if ctx is None:
        return where, f"unknown context {xml_attr(el, 'contextRef')!r}"
    if ctx.end is None:
        return where, "context has no dated period"
    unit_ref = (xml_attr(el, "unitRef") or "").strip()
    unit = document.header.unit(unit_ref)
    if unit is None:
        return where, f"unknown unit {unit_ref!r}"
    ok, decimals = parse_decimals(el.get("decimals"))
    try:
        scale = int(el.get("scale") or 0)
    except ValueError:
        ok = False
    if not ok or abs(scale) > MAX_SCALE:
        return where, f"bad decimals/scale {el.get('decimals')!r}/{el.get('scale')!r}"
    hidden, row = _placement(el, document.hidden)
    text = element_text(el)
    nil = is_nil(el)
    value = None if nil else _value(el, text, scale, document.formats)
    if isinstance(value, str):
        return where, value
    return Fact(
        concept=concept,
        value=value,
        unit=unit,
        decimals=decimals,
        period_start=ctx.start,
        period_end=ctx.end,
        dimensions=ctx.dimensions,
        is_nil=nil,
        hidden=hidden,
        label=_row_label(row, el, document.labels) if row is not None else None,
        display=None if hidden else (text or None),
        scale=scale,
        context_id=(xml_attr(el, "contextRef") or "").strip(),
        extra=ctx.fact_extra(ordinal, ident),
    )


def _value(el: etree._Element, text: str, scale: int, formats: Formats) -> Decimal | str:
    """The exact value a fact's text states in its ixt format, scaled and signed; or why it has none."""
    if len(text) > MAX_NUMBER_TEXT:
        return f"{len(text)} characters of text is not a number"
    fmt = el.get("format")
    if fmt:
        func, reason = formats.transform(el, fmt)
        if func is None:
            return str(reason)
        raw = func(text)
    else:
        raw = plain_number(text)
    if raw is None:
        return f"text {text[:40]!r} is not a number for format {fmt!r}"
    return exact_value(raw, scale, (el.get("sign") or "").strip() == "-")


def ixbrl_facts(root: etree._Element, calendar: FiscalCalendar | None) -> list[Fact]:
    """Every ix:nonFraction of an iXBRL tree as an exact, deduplicated, fiscally labelled Fact.

    Each fact carries ``extra["ordinal"]``: the index of its element in :func:`fact_elements`
    (document order), so a parser walking the same tree can map it to the block showing it.
    Facts that cannot be read exactly (unknown format, unknown context) are left out; use
    :func:`extract_ixbrl_facts` to see why.
    """
    return extract_ixbrl_facts(root, calendar).facts


# --------------------------------------------------------------------------- dedupe and labels


def _precision(fact: Fact) -> float:
    return float("inf") if fact.decimals is None else float(fact.decimals)


def _half_ulp(decimals: int | None) -> Decimal:
    return Decimal(0) if decimals is None else Decimal(5).scaleb(-decimals - 1)


def _consistent(a: Fact, b: Fact) -> bool:
    """XBRL duplicates are consistent when their rounding intervals overlap."""
    if a.value is None or b.value is None:
        return a.value is None and b.value is None
    return abs(a.value - b.value) <= _half_ulp(a.decimals) + _half_ulp(b.decimals)


def finish_facts(out: FactExtraction, drafts: list[Fact], calendar: FiscalCalendar | None) -> None:
    """Fold duplicates (same concept, entity, period, dimensions, unit) and label fiscal periods."""
    groups: dict[tuple[Any, ...], list[Fact]] = {}
    for f in drafts:
        key = (f.concept, f.extra.get("entity"), f.period_start, f.period_end, f.dimensions, f.unit)
        groups.setdefault(key, []).append(f)
    kept: list[Fact] = []
    for group in groups.values():
        best = group[0]
        if len(group) > 1:
            # Reported values beat nil, then precision, then a visible occurrence, then document order.
            best = min(
                group,
                key=lambda f: (f.value is None, -_precision(f), f.hidden, int(f.extra["ordinal"])),
            )
            others = sorted({str(f.value) for f in group if not _consistent(f, best)})
            out.duplicates += len(group) - 1
            if others:
                out.conflicts += 1
                best = replace(
                    best, conflict=True, extra={**best.extra, "conflicting_values": ",".join(others)}
                )
        kept.append(best)
    kept.sort(key=lambda f: int(f.extra["ordinal"]))
    for f in kept:
        if calendar is not None:
            out.facts.append(f.in_calendar(calendar))
        else:
            out.facts.append(replace(f, duration=duration_class(f.period_start, f.period_end)))
