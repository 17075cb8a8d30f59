"""The answer to a figure question: a cited table of period-true figures, computed comparisons, then
the model's prose.

Numbers come from XBRL facts first, from a statement table's column for the period second, and from
model extraction last; each cell says which. Comparisons are calculator results. The model only
writes the sentences, from a short list of exactly these figures, and its sentences are checked
(value *and* period) before anyone reads them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from finagent.agent.evidence import citation_record
from finagent.finance.calculator import calculate
from finagent.finance.compare import Cell, Comparisons, scale_unit
from finagent.finance.metrics import BY_NAME, COMPUTED

SOURCE_NOTES = {
    "xbrl": "",
    "derived": "derived",
    "table": "from the statement table",
    "model": "model-extracted",
}


# -- numbers as people read them ----------------------------------------------------------------------
def display_scale(value: Decimal, unit: str | None, decimals: int | None) -> int:
    """The scale statements print an amount in: millions for most filers, thousands for some."""
    if unit is None or "/" in unit or unit.lower() in ("pure", "percent"):
        return 0
    if unit.lower() == "shares":
        return (
            6
            if decimals is not None and decimals <= -6
            else 3
            if decimals is not None and decimals <= -3
            else 0
        )
    if decimals is None:
        return 6 if abs(value) >= Decimal(10) ** 8 else 0
    if decimals <= -6:
        return 6
    if decimals <= -3:
        return 3
    return 0


def format_amount(value: Decimal, unit: str, scale: int) -> str:
    """ "$117,154 million", "$6.08 per share", "15,550 million shares", "44.1%"."""
    shown = value.scaleb(-scale) if scale else value
    places = 0 if shown == shown.to_integral_value() else min(2, max(1, -shown.as_tuple().exponent))  # type: ignore[operator]
    number = f"{abs(shown):,.{places}f}"
    sign = "-" if shown < 0 else ""
    words = {9: " billion", 6: " million", 3: " thousand"}.get(scale, "")
    lowered = unit.lower()
    if lowered == "percent":
        return f"{sign}{number}%"
    if "/" in lowered:
        return f"{sign}${number} per share"
    if lowered == "shares":
        return f"{sign}{number}{words} shares"
    return f"{sign}${number}{words}"


def format_percent(value: float) -> str:
    return f"{value:+.1f}%"


# -- cells --------------------------------------------------------------------------------------------
def _date(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def _unit_of(record: dict[str, Any]) -> str:
    unit = str(record.get("unit") or "USD")
    return "USD/shares" if "/" in unit else unit


def cells_from_figures(
    figures: Sequence[dict[str, Any]], label_for_chunk: dict[int, str], label_for_document: dict[int, str]
) -> tuple[list[Cell], list[dict[str, Any]]]:
    """Cells from looked-up figures (with citation labels), and the derivations as calculator records."""
    cells: list[Cell] = []
    seen: set[tuple[str, str, str, str]] = set()
    for record in figures:
        if record.get("value") is None:
            continue
        key = (record["ticker"], record["metric"], record["period"], record.get("role", "target"))
        if key in seen:
            continue
        seen.add(key)
        value = Decimal(record["value"])
        unit = _unit_of(record)
        scale = display_scale(value, unit, record.get("decimals"))
        inputs = record.get("inputs") or []
        operands: tuple[Decimal, ...] = ()
        if record.get("source") == "derived" and inputs:
            sources = tuple(_label(i, label_for_chunk, label_for_document) for i in inputs)
            operands = tuple(Decimal(i["value"]) for i in inputs)
        else:
            sources = (_label(record, label_for_chunk, label_for_document),)
        cells.append(
            Cell(
                ticker=record["ticker"],
                metric=record["metric"],
                period=record["period"],
                fiscal_year=int(record["fiscal_year"]),
                fiscal_quarter=record.get("fiscal_quarter"),
                period_end=_date(record.get("period_end")),
                value=value,
                unit=unit,
                scale=scale,
                sources=tuple(s for s in sources if s),
                role=record.get("role", "target"),
                derived=record.get("source") == "derived",
                note=str(record.get("source") or "xbrl"),
                inputs=operands,
            )
        )
    return cells, [d for c in cells if (d := derivation_record(c)) is not None]


def derivation_record(cell: Cell) -> dict[str, Any] | None:
    """A derived figure (Q4 = FY − nine months) as the calculator call that computed it, with its inputs
    in the units they are printed in, so the figures check can trace it."""
    if not cell.derived or len(cell.inputs) != 2:
        return None
    first, second = (v.scaleb(-cell.scale) if cell.scale else v for v in cell.inputs)
    result = calculate(f"diff({_plain(first)}, {_plain(second)})")
    if not result.ok or result.result is None:
        return None
    return {
        "kind": "derived",
        "ticker": cell.ticker,
        "metric": cell.metric,
        "period": cell.period,
        "expression": result.expression,
        "result": result.result,
        "result_text": f"{cell.shown:,}",
        "sources": list(cell.sources),
        "unit": scale_unit(cell.scale),
        "derivation": "fy_minus_9m" if cell.fiscal_quarter == 4 else "ytd_difference",
    }


def _plain(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return f"({text})" if value < 0 else text


def _label(record: dict[str, Any], by_chunk: dict[int, str], by_document: dict[int, str]) -> str:
    chunk = record.get("chunk_id")
    if chunk is not None and chunk in by_chunk:
        return by_chunk[chunk]
    return by_document.get(record.get("document_id") or -1, "")


def filing_items(figures: Sequence[dict[str, Any]], have_chunks: set[int]) -> list[dict[str, Any]]:
    """Citable items for figures whose number is displayed in no stored text (XBRL instance
    documents): the filing itself is cited, with its form and period."""
    items: dict[int, dict[str, Any]] = {}
    for record in [*figures, *(i for f in figures for i in f.get("inputs") or [])]:
        document = record.get("document_id")
        if document is None or (record.get("chunk_id") in have_chunks) or document in items:
            continue
        form = str(record.get("form") or "10-K").upper()
        kind = "10-Q" if form.startswith("10-Q") else "10-K" if form.startswith("10-K") else "other"
        items[document] = {
            "chunk_id": None,
            "document_id": document,
            "ticker": record.get("ticker") or (record.get("filing") or "").split("|")[0] or None,
            "kind": kind,
            "period_label": (record.get("filing") or "").split("|")[-1],
            "period_end": (record.get("filing") or "").split("|")[-1] or None,
            "title": record.get("title"),
            "source_uri": record.get("source_uri"),
            "section": "XBRL",
            "section_title": "XBRL instance document",
            "page": None,
            "text": f"XBRL facts of {record.get('title') or record.get('filing')}",
            "fused_score": 0.0,
        }
    return list(items.values())


# -- the table ---------------------------------------------------------------------------------------
def _company(ticker: str, names: dict[str, list[str]]) -> str:
    """ "Alphabet (GOOGL)": the company's name without legal suffixes (the last of its names), never a
    second ticker alias such as GOOG or FB."""
    known = names.get(ticker, [])
    short = known[-1] if len(known) > 1 and known[-1] != ticker else ""
    return f"{short} ({ticker})" if short else ticker


def _period_text(cell: Cell) -> str:
    end = (
        f", {'year' if cell.fiscal_quarter is None else 'quarter'} ended {cell.period_end.isoformat()}"
        if cell.period_end
        else ""
    )
    return f"{cell.period}{end}"


def _cite(sources: Sequence[str]) -> str:
    labels = list(dict.fromkeys(s for s in sources if s))
    return f" [{', '.join(labels)}]" if labels else ""


def _value_text(cell: Cell) -> str:
    note = SOURCE_NOTES.get(cell.note, "")
    text = format_amount(cell.value, cell.unit, cell.scale) + _cite(cell.sources)
    return f"{text} ({note})" if note else text


def _metric_label(name: str) -> str:
    if name in BY_NAME:
        return BY_NAME[name].label
    if name in COMPUTED:
        return COMPUTED[name][0]
    return name.replace("_", " ")


def markdown_table(
    cells: Sequence[Cell],
    comparisons: Comparisons,
    names: dict[str, list[str]],
    metrics: Sequence[str],
    gaps: Sequence[dict[str, Any]] = (),
) -> str:
    """Company × period, one column per metric plus the computed changes; every cell cited, and a
    figure that could not be found (or derived) says why in its cell."""
    targets = [c for c in [*cells, *comparisons.cells] if c.role == "target"]
    if not targets and not gaps:
        return ""
    shown_metrics = [
        m
        for m in dict.fromkeys([*metrics, *(c.metric for c in comparisons.cells)])
        if any(c.metric == m for c in targets)
    ]
    rows: dict[tuple[str, str], dict[str, Cell]] = defaultdict(dict)
    order: dict[tuple[str, str], tuple[Any, ...]] = {}
    for cell in targets:
        key = (cell.ticker, cell.period)
        rows[key][cell.metric] = cell
        order[key] = (cell.ticker, cell.order)
    by_period = {(c.ticker, c.metric, c.period): c for c in cells}
    changes: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for calc in comparisons.calculations:
        if calc.get("kind") in ("yoy", "qoq", "change") and calc.get("to_period"):
            changes[(calc["ticker"], calc["to_period"], calc["kind"])].append(calc)
    kinds = [k for k in ("yoy", "qoq", "change") if any(key[2] == k for key in changes)]
    shown_metrics += [m for m in dict.fromkeys(g["metric"] for g in gaps) if m not in shown_metrics]
    missing: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
    for gap in gaps:
        key = (gap["ticker"], gap["label"])
        missing[key][gap["metric"]] = f"— ({gap['reason']})"
        order.setdefault(key, (gap["ticker"], (int(gap["fiscal_year"]), gap.get("fiscal_quarter") or 5)))
        rows.setdefault(key, {})
    main_metric = shown_metrics[0] if shown_metrics else ""
    header = ["Company", "Period", *(_metric_label(m) for m in shown_metrics)]
    header += [
        {"yoy": "YoY", "qoq": "QoQ", "change": "Change"}[k] + f" ({_metric_label(main_metric).lower()})"
        for k in kinds
    ]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for key in sorted(rows, key=lambda k: order[k]):
        ticker, period = key
        first = next(iter(rows[key].values()), None)
        values = [
            _value_text(rows[key][m]) if m in rows[key] else missing[key].get(m, "—") for m in shown_metrics
        ]
        for kind in kinds:
            found = [c for c in changes.get((ticker, period, kind), []) if c.get("metric") == main_metric]
            values.append(
                _change_text(found[0], by_period.get((ticker, main_metric, found[0]["from_period"])))
                if found
                else "—"
            )
        when = _period_text(first) if first is not None else period
        lines.append("| " + " | ".join([_company(ticker, names), when, *values]) + " |")
    return "\n".join(lines)


def _change_text(calc: dict[str, Any], prior: Cell | None = None) -> str:
    """ "+55.6% vs Q2 FY2025 ($30,040 million) [10Q1]": the change and what it is measured against."""
    against = f" ({format_amount(prior.value, prior.unit, prior.scale)})" if prior is not None else ""
    cited = _cite(calc.get("sources") or [])
    return f"{format_percent(calc['result'])} vs {calc['from_period']}{against}{cited}"


def _name(ticker: str, names: dict[str, list[str]]) -> str:
    """ "Alphabet" (the company's short name), else the ticker."""
    known = names.get(ticker, [])
    return known[-1] if len(known) > 1 else ticker


def figure_lines(cells: Sequence[Cell], names: dict[str, list[str]]) -> str:
    """The figures as sentences the writer can copy: company, metric, explicit period, value, label."""
    lines = []
    for cell in sorted(cells, key=lambda c: (c.ticker, c.metric, c.order)):
        end = (
            f" ({'year' if cell.fiscal_quarter is None else 'quarter'} ended {cell.period_end.isoformat()})"
            if cell.period_end
            else ""
        )
        lines.append(
            f"- {_name(cell.ticker, names)}'s {_metric_label(cell.metric).lower()} in {cell.period}{end} was "
            f"{format_amount(cell.value, cell.unit, cell.scale)}{_cite(cell.sources)}."
        )
    return "\n".join(lines) or "(none)"


def formula_lines(calculations: Sequence[dict[str, Any]], names: dict[str, list[str]]) -> str:
    """The question's own computed metrics, one line each with its expression and citations."""
    lines = ["Computed (calculator):"]
    for calc in calculations:
        who = _name(calc["ticker"], names)
        lines.append(
            f"- {who}'s {calc['metric']} for {calc['period']}: {calc['result_text']} "
            f"(= {calc['expression']}){_cite(calc.get('sources') or [])}"
        )
    return "\n".join(lines)


def computed_lines(comparisons: Comparisons, names: dict[str, list[str]], cells: Sequence[Cell] = ()) -> str:
    """The calculator's results as sentences ("grew 2.0%", "declined 5.5%", who is highest), so a small
    model copies conclusions instead of working them out (or reading them off the question)."""
    value_of = {(c.ticker, c.metric, c.period): c for c in cells}
    lines = _side_by_side(comparisons, names, value_of)
    for calc in comparisons.calculations:
        kind = calc.get("kind")
        who = _name(calc["ticker"], names)
        metric = _metric_label(calc.get("metric", "")).lower()
        sources = _cite(calc.get("sources") or [])
        if kind == "yoy" and lines:
            continue  # stated side by side above
        if kind in ("yoy", "qoq", "change"):
            what = {"yoy": " year over year", "qoq": " quarter over quarter", "change": ""}[kind]
            verb = "grew" if calc["result"] > 0 else "declined" if calc["result"] < 0 else "was unchanged"
            lines.append(
                f"- {who}'s {metric} {verb} {abs(calc['result']):.1f}%{what}, from {calc['from_period']} "
                f"to {calc['to_period']}{sources}."
            )
        elif kind == "cagr":
            lines.append(
                f"- {who}'s {metric} grew at a compound annual rate of {calc['result']:.1f}% from "
                f"{calc['from_period']} to {calc['to_period']}{sources}."
            )
        elif kind == "difference":
            words = {"USD millions": " million", "USD thousands": " thousand", "USD billions": " billion"}
            lines.append(
                f"- {who}'s {metric} in {calc['period']} exceeded {_name(calc['against'], names)}'s "
                f"({calc['against_period']}) by ${calc['result_text']}{words.get(calc.get('unit', ''), '')}."
            )
        elif kind == "formula":
            lines.append(
                f"- {who}'s {calc['metric']} for {calc['period']} was {calc['result_text']}{sources}."
            )
        elif kind in COMPUTED:
            value = f"{calc['result']:.1f}%" if calc.get("unit") == "percent" else calc.get("result_text", "")
            lines.append(f"- {who}'s {metric} in {calc['period']} was {value}{sources}.")
    for rank in comparisons.ranks:
        metric = _metric_label(rank["metric"]).lower()
        first, *rest = [
            f"{_name(t, names)} ({_shown(value_of.get((t, rank['metric'], rank['periods'][t]))).strip()}"
            f", {rank['periods'][t]})"
            for t in rank["order"]
        ]
        lines.append(f"- {first} had the highest {metric}, then " + ", then ".join(rest) + ".")
    return "\n".join(lines) or "(none)"


def _side_by_side(
    comparisons: Comparisons, names: dict[str, list[str]], value_of: dict[tuple[str, str, str], Cell]
) -> list[str]:
    """Year-over-year changes of different companies for the same calendar quarter, one sentence each
    ("In the quarter ended around 2022-12-31, Microsoft's revenue grew 2.0% year over year (Q2 FY2023)
    and Apple's declined 5.5% (Q1 FY2023)."): what "which company grew in each quarter" asks."""
    dated = []
    for calc in comparisons.calculations:
        cell = value_of.get((calc["ticker"], calc.get("metric", ""), calc.get("to_period", "")))
        if calc.get("kind") == "yoy" and cell is not None and cell.period_end is not None:
            dated.append((cell.period_end, calc))
    if len({c["ticker"] for _, c in dated}) < 2:
        return []
    groups: list[list[tuple[Any, dict[str, Any]]]] = []
    for end, calc in sorted(dated, key=lambda pair: pair[0]):
        if groups and (end - groups[-1][0][0]).days <= 21:
            groups[-1].append((end, calc))
        else:
            groups.append([(end, calc)])
    lines = []
    for group in groups:
        if len({c["ticker"] for _, c in group}) < 2:
            continue
        metric = _metric_label(group[0][1].get("metric", "")).lower()
        parts = [
            f"{_name(c['ticker'], names)}'s {metric} {'grew' if c['result'] > 0 else 'declined'} "
            f"{abs(c['result']):.1f}% ({c['to_period']}){_cite(c.get('sources') or [])}"
            for _, c in sorted(group, key=lambda pair: -pair[1]["result"])
        ]
        lines.append(
            f"- In the quarter ended around {group[0][0].isoformat()}, year over year, "
            + " and ".join(parts)
            + "."
        )
    return lines


def _shown(cell: Cell | None) -> str:
    return f"{format_amount(cell.value, cell.unit, cell.scale)}{_cite(cell.sources)} " if cell else ""


def legacy_facts(cells: Sequence[Cell]) -> list[dict[str, Any]]:
    """Cells in the shape the rest of the graph records as ``facts`` (evaluation coverage, audit)."""
    return [
        {
            "ticker": c.ticker,
            "period": c.period,
            "metric": _metric_label(c.metric),
            "value": float(c.shown),
            "unit": {6: "USD millions", 3: "USD thousands", 9: "USD billions"}.get(c.scale, c.unit),
            "source": c.sources[0] if c.sources else "",
            "method": c.note,
            "role": c.role,
        }
        for c in cells
    ]


def citations_for(items: Sequence[dict[str, Any]], labels: Sequence[str]) -> list[dict[str, Any]]:
    by_label = {i["label"]: i for i in items if i.get("label")}
    return [citation_record(by_label[label]) for label in labels if label in by_label]


# -- what the prose may claim -------------------------------------------------------------------------
_SUPERLATIVE = re.compile(
    r"\b(?P<second>second[- ])?(?:the\s+)?(?P<word>highest|largest|biggest|greatest|most|top|strongest"
    r"|lowest|smallest|least|weakest)\b",
    re.I,
)
_LOW = frozenset({"lowest", "smallest", "least", "weakest"})
# A sentence ends at . ! ? followed by a space or the end (never inside "5.5%" or "$1.23").
_SENTENCE = re.compile(r".+?(?:[.!?](?=\s|$)|\n|$)", re.S)


def rank_claim_error(
    sentence: str, ranks: Sequence[dict[str, Any]], names: dict[str, list[str]]
) -> str | None:
    """Why a sentence's "X had the highest …" is wrong by the computed ranking (None if right or no claim).

    Checked only when the sentence names one company, so "A had the highest and B the lowest" is left
    to the figures check of its numbers."""
    match = _SUPERLATIVE.search(sentence)
    if match is None or not ranks:
        return None
    named = [
        t
        for t, aliases in names.items()
        if any(re.search(rf"(?<!\w){re.escape(a)}(?!\w)", sentence, re.I) for a in aliases if a)
    ]
    if len(named) != 1:
        return None
    ticker = named[0]
    low = match.group("word").lower() in _LOW
    place = 2 if match.group("second") else 1
    for rank in ranks:
        order = rank["order"]
        if ticker not in order or len(order) < 2:
            continue
        position = order.index(ticker) + 1 if not low else len(order) - order.index(ticker)
        if position == place:
            return None
    ranking = "; ".join(" > ".join(r["order"]) for r in ranks if ticker in r["order"])
    claim = re.sub(r"^(?:the\s+)", "", match.group(0).strip(), flags=re.I)
    return f"{ticker} is not the {claim} (ranking: {ranking})"


def withhold(
    prose: str, offset: int, bad: dict[int, str], ranks: Sequence[dict[str, Any]], names: dict[str, list[str]]
) -> tuple[str, list[str]]:
    """The prose without its sentences that state unsupported figures (``bad``: answer offset → why) or
    wrong rankings; one reason per withheld sentence."""
    kept: list[str] = []
    reasons: list[str] = []
    for match in _SENTENCE.finditer(prose):
        sentence = match.group(0)
        if not sentence.strip():
            continue
        start, end = offset + match.start(), offset + match.end()
        why = [how for at, how in bad.items() if start <= at < end]
        claim = rank_claim_error(sentence, ranks, names)
        if claim or why:
            reasons.append(f"'{sentence.strip()[:90]}' ({'; '.join([*why, *([claim] if claim else [])])})")
            continue
        kept.append(sentence.strip())
    return " ".join(kept), reasons
