"""Figures: verify extracted values against their evidence, compute changes with the calculator, format.

The model only copies labelled numbers out of the evidence; every figure it returns must appear in
the evidence item it names, and every derived number (growth, differences) comes from sympy.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from finagent.tools.calculator import growth_pct

_NUMBER = re.compile(r"(?<![\w.])\(?-?\$?\d[\d,]*(?:\.\d+)?\)?")


def numbers_in(text: str) -> list[float]:
    """Every number written in a text ("81,797", "(1,234)", "$94.9", "44.5%")."""
    values = []
    for token in _NUMBER.findall(text):
        digits = token.strip("()$-").replace(",", "").replace("$", "")
        try:
            values.append(float(digits))
        except ValueError:
            continue
    return values


def value_in_text(value: float, text: str) -> bool:
    target = abs(value)
    return any(math.isclose(target, n, rel_tol=1e-9, abs_tol=1e-9) for n in numbers_in(text))


def period_key(label: str) -> tuple[int, int]:
    """Chronological order of "Q3 FY2023" / "FY2023" labels (a year sorts after its quarters)."""
    match = re.match(r"(?:Q(\d) )?FY(\d{4})", label or "")
    if not match:
        return (0, 0)
    return (int(match.group(2)), int(match.group(1) or 5))


def verify_facts(
    facts: Sequence[dict[str, Any]], evidence_by_label: dict[str, dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Split facts into (verified, rejected): a verified value is written in the item it cites."""
    verified: list[dict[str, Any]] = []
    rejected: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    for fact in facts:
        item = evidence_by_label.get(fact["source"])
        key = (fact["ticker"], fact["period"], _metric_key(fact["metric"]))
        if item is None or not value_in_text(fact["value"], item["text"]) or key in seen:
            rejected.append(fact)
            continue
        seen.add(key)
        verified.append({**fact, "verified": True})
    return verified, rejected


def _metric_key(metric: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", metric.lower()).strip()


def compute_changes(facts: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Period-over-period change of each metric per company, each evaluated by the calculator."""
    series: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for fact in facts:
        if fact.get("unit") in ("percent", "ratio"):
            continue
        series[(fact["ticker"], _metric_key(fact["metric"]), fact.get("unit") or "")].append(fact)
    calculations: list[dict[str, Any]] = []
    for (ticker, _, _), items in series.items():
        ordered = sorted(items, key=lambda f: period_key(f["period"]))
        pairs = list(pairwise(ordered))
        if len(ordered) >= 3:
            pairs.append((ordered[0], ordered[-1]))
        for old, new in pairs:
            result = growth_pct(old["value"], new["value"])
            if not result.ok:
                continue
            calculations.append(
                {
                    "ticker": ticker,
                    "metric": new["metric"],
                    "from_period": old["period"],
                    "to_period": new["period"],
                    "expression": result.expression,
                    "result": result.result,
                    "result_text": f"{result.result:+.1f}%",
                    "sources": [old["source"], new["source"]],
                }
            )
    return calculations


def format_value(value: float, unit: str | None) -> str:
    """Human form of a figure in its stated unit: "$81,797 million", "44.5%", "$1.26 per share"."""
    number = f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}".rstrip("0").rstrip(".")
    match unit:
        case "USD millions":
            return f"${number} million"
        case "USD billions":
            return f"${number} billion"
        case "USD thousands":
            return f"${number} thousand"
        case "USD":
            return f"${number}"
        case "percent":
            return f"{number}%"
        case "per share":
            return f"${number} per share"
        case "shares":
            return f"{number} shares"
        case _:
            return number


def format_facts(facts: Sequence[dict[str, Any]]) -> str:
    if not facts:
        return "(none)"
    return "\n".join(
        f"- {f['ticker']} {f['period']} {f['metric']}: "
        f"{format_value(f['value'], f.get('unit'))} [{f['source']}]"
        for f in facts
    )


def format_calculations(calculations: Sequence[dict[str, Any]]) -> str:
    if not calculations:
        return "(none)"
    return "\n".join(
        f"- {c['ticker']} {c['metric']} {c['from_period']} -> {c['to_period']}: {c['result_text']}"
        for c in calculations
    )
