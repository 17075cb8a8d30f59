"""What the writer of a figures answer is given (the figures and computed results as sentences it may
copy) and what its prose may claim: a ranking it states must be the computed one, and a sentence
stating an unsupported figure is withheld whole."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from finagent.agent.answer.wording import (
    cite as _cite,
)
from finagent.agent.answer.wording import (
    format_amount,
)
from finagent.agent.answer.wording import (
    metric_label as _metric_label,
)
from finagent.agent.answer.wording import (
    name as _name,
)
from finagent.agent.evidence import citation_record
from finagent.finance.compare import Cell, Comparisons
from finagent.finance.metrics import COMPUTED


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
