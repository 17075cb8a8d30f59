"""Period-over-period changes of the figures read, each computed by the calculator, never guessed."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from finagent.finance.compute.safe_calculator import growth_pct
from finagent.finance.figure_records import metric_key, percent_text, period_key


def compute_changes(facts: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Period-over-period change of each metric per company, each evaluated by the calculator."""
    series: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for fact in facts:
        if fact.get("unit") in ("percent", "ratio"):
            continue
        annual = fact["period"].startswith("FY")
        key = (fact["ticker"], metric_key(fact["metric"]), f"{fact.get('unit') or ''}|{annual}")
        series[key].append(fact)
    calculations: list[dict[str, Any]] = []
    for (ticker, _, _), items in series.items():
        ordered = sorted(items, key=lambda f: period_key(f["period"]))
        pairs = list(pairwise(ordered))
        if len(ordered) >= 3:
            pairs.append((ordered[0], ordered[-1]))
        for old, new in pairs:
            if old["period"] == new["period"]:
                continue  # two readings of one period (a line and its copy) are no change
            change = growth_change(
                ticker, new["metric"], (old["period"], old["value"]), (new["period"], new["value"])
            )
            if change is not None:
                calculations.append(change | {"sources": [old["source"], new["source"]]})
    return calculations


def growth_change(
    ticker: str, metric: str, old: tuple[str, float], new: tuple[str, float]
) -> dict[str, Any] | None:
    """The calculator's percent change of ``metric`` from (period, value) ``old`` to ``new``, as a
    calculation record; None when it cannot be computed (a zero base)."""
    result = growth_pct(old[1], new[1])
    if not result.ok or result.result is None:
        return None
    return {
        "ticker": ticker,
        "metric": metric,
        "from_period": old[0],
        "to_period": new[0],
        "expression": result.expression,
        "result": result.result,
        "result_text": percent_text(result.result),
    }
