"""What the prose of an answer may claim: a ranking it states must be the computed one, and a sentence
stating an unsupported figure is withheld whole; the question's own computed metrics as lines under
the table; the cells as the graph records them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from finagent.agent.answer.wording import (
    cite as _cite,
)
from finagent.agent.answer.wording import (
    metric_label as _metric_label,
)
from finagent.agent.answer.wording import (
    name as _name,
)
from finagent.finance.check.answer_shape import refers_back
from finagent.finance.check.matching import companies_in
from finagent.finance.compute.compare import Cell
from finagent.finance.words import NOT_AN_ABBREVIATION, SCALE_UNITS


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


def fact_records(cells: Sequence[Cell]) -> list[dict[str, Any]]:
    """Cells in the shape the rest of the graph records as ``facts`` (evaluation coverage, audit)."""
    return [
        {
            "ticker": c.ticker,
            "period": c.period.label,
            "metric": _metric_label(c.metric),
            "value": float(c.shown),
            "unit": SCALE_UNITS.get(c.scale, c.unit),
            "source": c.sources[0] if c.sources else "",
            "method": c.note,
            "role": c.role,
        }
        for c in cells
    ]


# -- what the prose may claim -------------------------------------------------------------------------
_SUPERLATIVE = re.compile(
    r"\b(?P<second>second[- ])?(?:the\s+)?(?P<word>highest|largest|biggest|greatest|most|top|strongest"
    r"|lowest|smallest|least|weakest)\b",
    re.I,
)
_LOW = frozenset({"lowest", "smallest", "least", "weakest"})
# A sentence ends at . ! ? followed by a space or the end (never inside "5.5%" or "$1.23"), never at a
# list number ("1. The …"), an abbreviation or an initial ("U.S. export controls", "Apple Inc.
# (“Apple”)", "Mary N. Dillon") or before a lower-case word, and before a numbered list its colon ends
# the lead-in.
_SENTENCE = re.compile(
    r".+?(?:(?<!^\d)(?<![\s:(]\d)(?<![\s:(]\d\d)[.!?]"
    + NOT_AN_ABBREVIATION
    + r"(?=\s|$)(?![ \t]+[a-z])|:(?=\s+\d{1,2}\.\s)|\n|$)",
    re.S,
)


def rank_claim_error(
    sentence: str, ranks: Sequence[dict[str, Any]], names: dict[str, list[str]]
) -> str | None:
    """Why a sentence's "X had the highest …" is wrong by the computed ranking (None if right or no claim).

    Checked only when the sentence names one company, so "A had the highest and B the lowest" is left
    to the figures check of its numbers."""
    match = _SUPERLATIVE.search(sentence)
    if match is None or not ranks:
        return None
    named = companies_in(sentence, names)
    if len(named) != 1:
        return None
    (ticker,) = named
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


def sentences(prose: str) -> list[tuple[int, str]]:
    """The prose's sentences with their offsets (as ``withhold`` cuts them)."""
    return [(m.start(), m.group(0)) for m in _SENTENCE.finditer(prose) if m.group(0).strip()]


def withhold(
    prose: str, offset: int, bad: dict[int, str], ranks: Sequence[dict[str, Any]], names: dict[str, list[str]]
) -> tuple[str, list[str]]:
    """The prose without its sentences that state unsupported figures (``bad``: answer offset → why) or
    wrong rankings, nor those that only refer back to one withheld ("This figure is derived from …"
    after the figure's sentence, or opening an answer with nothing before it); one reason per withheld
    sentence."""
    kept: list[str] = []
    reasons: list[str] = []
    before_withheld = offset == 0  # the prose opens the answer: nothing stands before its first sentence
    for match in _SENTENCE.finditer(prose):
        sentence = match.group(0)
        if not sentence.strip():
            continue
        start, end = offset + match.start(), offset + match.end()
        why = [how for at, how in bad.items() if start <= at < end]
        claim = rank_claim_error(sentence, ranks, names)
        opening = not kept and not reasons
        if not (why or claim) and before_withheld and refers_back(sentence, figure_only=opening):
            why = ["it refers back to a statement that is not given"]
        before_withheld = bool(claim or why)
        if before_withheld:
            reasons.append(f"'{sentence.strip()[:90]}' ({'; '.join([*why, *([claim] if claim else [])])})")
            continue
        kept.append(sentence.strip())
    return " ".join(kept), reasons
