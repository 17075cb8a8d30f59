"""The table of a figures answer: company × asked period, one column per metric plus the computed
changes, every value cited, one scale per metric, rows in the order the ask reads them.

Only the asked periods are rows: a year-over-year comparative is shown in its change column ("+17.0%
vs Q3 FY2023 ($52,857 million)"), never as a row of its own. A figure that could not be found or
derived says why in its cell.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import date
from typing import Any

from finagent.agent.answer.wording import (
    SOURCE_NOTES,
    amount,
    cite,
    company,
    format_percent,
    metric_label,
    metric_scales,
    period_text,
)
from finagent.finance.ask.asks import Ask
from finagent.finance.compute.compare import Cell, Comparisons, ranked_groups
from finagent.finance.compute.outcomes import aligned, growth_kinds, growth_ranking
from finagent.finance.looked_up import Gap
from finagent.finance.periods.period import FiscalPeriod

RowKey = tuple[str, FiscalPeriod]  # (ticker, period)
CHANGE_HEADERS = {"yoy": "YoY", "qoq": "QoQ", "change": "Change"}


def _value_text(cell: Cell, scales: dict[str, int]) -> str:
    note = SOURCE_NOTES.get(cell.note, "")
    text = amount(cell, scales) + cite(cell.sources)
    return f"{text} ({note})" if note else text


def _change_text(calc: dict[str, Any], prior: Cell | None, scales: dict[str, int]) -> str:
    """ "+55.6% vs Q2 FY2025 ($30,040 million) [10Q1]": the change and what it is measured against."""
    against = f" ({amount(prior, scales)})" if prior is not None else ""
    return (
        f"{format_percent(calc['result'])} vs {calc['from_period']}{against}{cite(calc.get('sources') or [])}"
    )


def row_order(
    ask: Ask, targets: Sequence[Cell], keys: Sequence[RowKey], calculations: Sequence[dict[str, Any]] = ()
) -> list[RowKey]:
    """Rows in the order the ask reads them: rank order for a ranking (each aligned period in turn),
    chronological for a change or a crossing, grouped by company (as the question names them) for
    the rest."""
    subjects = list(ask.subjects)
    by_key = {(c.ticker, c.period): c for c in targets if c.metric == (ask.metric or c.metric)}
    by_key |= {k: c for c in targets if (k := (c.ticker, c.period)) not in by_key}

    def when(key: RowKey) -> tuple[date, str]:
        cell = by_key.get(key)
        return ((cell.period_end or date.min) if cell else _rough_day(key[1]), key[1].label)

    def who(key: RowKey) -> int:
        return subjects.index(key[0]) if key[0] in subjects else len(subjects)

    if ask.kind == "ranking" and ask.by_growth and ask.metric:
        grown = growth_ranking(calculations, ask.metric, growth_kinds(ask.change), ask.highest_first)
        if grown is not None:
            place = {c["ticker"]: i for i, c in enumerate(grown.changes)}
            return sorted(keys, key=lambda k: (place.get(k[0], len(place)), when(k)))
    if ask.kind == "ranking" and not ask.by_growth and ask.metric:
        ranked = [c for c in targets if c.metric == ask.metric]
        ordered: list[RowKey] = []
        for group in _rank_groups(ranked):
            group.sort(key=lambda c: c.value, reverse=ask.highest_first)
            ordered += [(c.ticker, c.period) for c in group if (c.ticker, c.period) in keys]
        return list(dict.fromkeys([*ordered, *sorted(keys, key=lambda k: (when(k), who(k)))]))
    if ask.kind in ("change", "overtake", "threshold", "direction") or ask.change in ("trend", "change"):
        return sorted(keys, key=lambda k: (when(k), who(k), k[0]))
    return sorted(keys, key=lambda k: (who(k), k[0], when(k)))


def _rough_day(period: FiscalPeriod) -> date:
    """A rough day for a period with no figure (Q4 FY2023), to place its row among the others."""
    return date(period.fiscal_year, (period.quarter or 4) * 3, 28)


def _rank_groups(cells: Sequence[Cell]) -> list[list[Cell]]:
    """The rows a ranking orders, as the ranking sentence orders them (``ranked_groups``)."""
    return ranked_groups(cells, aligned)


def markdown_table(
    cells: Sequence[Cell],
    comparisons: Comparisons,
    names: dict[str, list[str]],
    metrics: Sequence[str],
    gaps: Sequence[Gap] = (),
    ask: Ask | None = None,
) -> str:
    """Company × period, one column per metric plus the computed changes; every cell cited, and a
    figure that could not be found (or derived) says why in its cell."""
    targets = [c for c in [*cells, *comparisons.cells] if c.role == "target"]
    if not targets and not gaps:
        return ""
    scales = metric_scales([*cells, *comparisons.cells])
    shown = [
        m
        for m in dict.fromkeys([*metrics, *(c.metric for c in comparisons.cells)])
        if any(c.metric == m for c in targets)
    ]
    shown += [m for m in dict.fromkeys(g.metric for g in gaps) if m not in shown]
    rows: dict[RowKey, dict[str, Cell]] = defaultdict(dict)
    for cell in targets:
        rows[(cell.ticker, cell.period)][cell.metric] = cell
    missing: dict[RowKey, dict[str, str]] = defaultdict(dict)
    for gap in gaps:
        missing[(gap.ticker, gap.period)][gap.metric] = f"— ({gap.reason})"
        rows.setdefault((gap.ticker, gap.period), {})
    changes = _changes(comparisons)
    kinds = [k for k in CHANGE_HEADERS if any(key[2] == k for key in changes)]
    main = _changed_metric(ask, shown)
    header = ["Company", "Period", *(metric_label(m) for m in shown)]
    header += [f"{CHANGE_HEADERS[k]} ({metric_label(main).lower()})" for k in kinds]
    by_period = {(c.ticker, c.metric, c.period.label): c for c in cells}  # calculations name them by label
    # without an ask: by company, then by period
    order = row_order(ask, targets, list(rows), comparisons.calculations) if ask else sorted(rows)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for key in order:
        ticker, period = key
        values = [
            _value_text(rows[key][m], scales) if m in rows[key] else missing[key].get(m, "—") for m in shown
        ]
        for kind in kinds:
            found = [c for c in changes.get((ticker, period.label, kind), []) if c.get("metric") == main]
            prior = by_period.get((ticker, main, found[0]["from_period"])) if found else None
            values.append(_change_text(found[0], prior, scales) if found else "—")
        first = next(iter(rows[key].values()), None)
        when = period_text(first) if first is not None else period.label
        lines.append("| " + " | ".join([company(ticker, names), when, *values]) + " |")
    return "\n".join(lines)


def _changed_metric(ask: Ask | None, shown: Sequence[str]) -> str:
    """The metric the change columns are of: the one the question asks the change of ("revenue and
    operating income, and how did operating income change"), else the ask's, else the first shown."""
    asked = [*(ask.changed if ask else ()), *([ask.metric] if ask and ask.metric else [])]
    return next((m for m in asked if m in shown), shown[0] if shown else "")


def _changes(comparisons: Comparisons) -> dict[tuple[str, str, str], list[dict[str, Any]]]:
    """Year-over-year, sequential and period changes by (ticker, to period, kind)."""
    changes: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for calc in comparisons.calculations:
        if calc.get("kind") in CHANGE_HEADERS and calc.get("to_period"):
            changes[(calc["ticker"], calc["to_period"], calc["kind"])].append(calc)
    return changes
