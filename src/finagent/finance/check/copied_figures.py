"""Figures the model copied from the evidence, checked against it: each must be written in the item it
cites, under a label of that passage, in a unit the passage writes it in.

The model only copies labelled numbers out of the evidence; every derived number (growth, differences)
comes from the calculator (``period_changes``, ``formula_values``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from finagent.finance.compute.safe_calculator import HELPERS
from finagent.finance.figure_records import metric_key, period_key
from finagent.finance.read.written_figures import counts_something, numbers_in, scan_figures
from finagent.finance.words import UNIT_SCALES, line_words, names_line, split_sentences


def value_in_text(value: float, text: str) -> bool:
    """``value`` is written in ``text`` as a whole number ("81,797", "(1,234)", "$94.9 billion")."""
    target = abs(value)
    return any(math.isclose(target, n, rel_tol=1e-9, abs_tol=1e-9) for n in numbers_in(text))


def labelled_by_passage(metric: str, value: float, text: str) -> bool:
    """A copied figure's label is the passage's own: a line (a table row) or a sentence that writes
    its value names most of the label's words. A label made of the question's words ("much expect
    pay spin off upjohn" for a 15% royalty) names no figure of the passage."""
    if not line_words(metric):
        return True
    pieces = (s for line in text.splitlines() for s in split_sentences(line))
    return any(value_in_text(value, piece) and names_line(metric, piece) for piece in pieces)


def after_its_report(fact: dict[str, Any], item: dict[str, Any] | None) -> bool:
    """A reported line copied for a later fiscal year than the report it cites (FY2023's inventories
    from the FY2022 10-K): a report states its own year's lines and earlier ones, never a later one's."""
    own = period_key(str((item or {}).get("period_label") or ""))[0]
    return bool(own) and period_key(str(fact.get("period") or ""))[0] > own


# A label written as a calculation ("diff(9.0, 8.0)") names no line of a passage: a model's working.
_EXPRESSION = re.compile(rf"\b(?:{'|'.join(HELPERS)})\s*\(", re.I)


def verify_facts(
    facts: Sequence[dict[str, Any]], evidence_by_label: dict[str, dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Split facts into (verified, rejected): a verified value is written in the item it cites, under a
    label that is no calculation."""
    verified: list[dict[str, Any]] = []
    rejected: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    for fact in facts:
        item = evidence_by_label.get(fact["source"])
        key = (fact["ticker"], fact["period"], metric_key(fact["metric"]))
        if (
            item is None
            or not value_in_text(fact["value"], item["text"])
            or key in seen
            or _EXPRESSION.search(str(fact["metric"]))
        ):
            rejected.append(fact)
            continue
        unit = fact.get("unit")
        if unit in (None, "other"):  # read the unit where the passage writes the value
            unit = written_unit(fact["value"], item["text"])
            if unit is None:
                rejected.append(fact)
                continue
        seen.add(key)
        verified.append({**fact, "unit": unit, "verified": True})
    return verified, rejected


_SCALED_UNITS = {scale: unit for unit, scale in UNIT_SCALES.items()} | {1.0: "USD"}


def written_unit(value: float, text: str) -> str | None:
    """The unit ``text`` writes ``value`` in ("$13.2 billion" → "USD billions", "44.5%" → "percent"),
    "other" when it is a plain number, and None when it is written only as a year or as a bare small
    number counting nothing (a note, item or day number is no figure)."""
    written = [f for f in scan_figures(text) if math.isclose(f.mantissa, abs(value), rel_tol=1e-9)]
    for figure in written:
        if figure.kind == "percent":
            return "percent"
        if figure.currency and figure.scale in _SCALED_UNITS:
            return _SCALED_UNITS[figure.scale]
    if all(f.kind == "date" or (f.kind == "count" and not counts_something(f, text)) for f in written):
        return None
    return "other"
