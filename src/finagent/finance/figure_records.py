"""Figure records in order and in words: the chronological key of a period label, one key per metric
wording, and the plain text of figures and calculations that prompts, answers and checks print.

A figure record is a dict (ticker, period, metric, value, unit, source); a calculation record adds
its expression and result. Every stage reads and writes them, so their order and their words live
once, below the stages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from finagent.finance.periods.period import FiscalPeriod


def period_key(label: str) -> tuple[int, int]:
    """Chronological order of "Q3 FY2023" / "FY2023" labels (a year sorts after its quarters)."""
    period = FiscalPeriod.leading(label)
    if period is None or not (period.is_quarter or period.is_year):
        return (0, 0)
    return (period.fiscal_year, period.quarter or 5)


def metric_key(metric: str) -> str:
    """One key for the wordings of a metric: case and punctuation apart, "Net sales" is "net-sales"."""
    return re.sub(r"[^a-z0-9]+", " ", metric.lower()).strip()


def percent_text(value: float) -> str:
    """ "+2.1%"; a change smaller than 0.05% keeps enough digits to be told from no change."""
    return f"{value:+.4f}%" if 0 < abs(value) < 0.05 else f"{value:+.1f}%"


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


def sort_facts(facts: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """By company, then chronologically (a fiscal year after its quarters)."""
    return sorted(facts, key=lambda f: (f["ticker"], period_key(f["period"]), f["metric"]))


def figures_by_company(facts: Sequence[dict[str, Any]], calculations: Sequence[dict[str, Any]]) -> str:
    """Figures and computed changes grouped under each company, so none is attributed to another."""
    if not facts:
        return "(none)"
    blocks = []
    for ticker in dict.fromkeys(f["ticker"] for f in sort_facts(facts)):
        lines = [f"{ticker}:"]
        lines += [
            f"- {f['period']} {f['metric']}: {format_value(f['value'], f.get('unit'))} [{f['source']}]"
            for f in sort_facts(facts)
            if f["ticker"] == ticker
        ]
        lines += [f"- {describe_calculation(c)}" for c in calculations if c["ticker"] == ticker]
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def describe_calculation(calculation: dict[str, Any]) -> str:
    """ "gross margin FY2022: 43.3%" or "revenue change Q1 FY2023 -> Q2 FY2023: +2.1%"."""
    c = calculation
    if "from_period" in c:
        return f"{c['metric']} change {c['from_period']} -> {c['to_period']}: {c['result_text']}"
    if "since" in c:  # an amount's difference between two years
        return f"{c['metric']} change {c['since']} -> {c['period']}: {c['result_text']}"
    return f"{c['metric']} {c['period']}: {c['result_text']} (= {c.get('formula', c['expression'])})"


def _figure(fact: dict[str, Any]) -> str:
    return f"{format_value(fact['value'], fact.get('unit'))} in {fact['period']} [{fact['source']}]"


def summary_lines(facts: Sequence[dict[str, Any]], calculations: Sequence[dict[str, Any]]) -> str:
    """A plain, verified summary: first and last figure of each company's series and the change."""
    lines = []
    for ticker in dict.fromkeys(f["ticker"] for f in sort_facts(facts)):
        own = [f for f in sort_facts(facts) if f["ticker"] == ticker and not f["period"].startswith("FY")]
        own = own or [f for f in sort_facts(facts) if f["ticker"] == ticker]
        first, last = own[0], own[-1]
        text = f"{ticker} {last['metric']}: {_figure(last)}"
        if first is not last and metric_key(first["metric"]) == metric_key(last["metric"]):
            change = next(
                (
                    c
                    for c in calculations
                    if c["ticker"] == ticker
                    and "from_period" in c
                    and c["from_period"] == first["period"]
                    and c["to_period"] == last["period"]
                ),
                None,
            )
            text += f", from {_figure(first)}"
            if change:
                text += f" ({change['result_text']})"
        lines.append(text + ".")
        lines += [
            f"{ticker} {describe_calculation(c)} [{', '.join(c['sources'])}]."
            for c in calculations
            if c["ticker"] == ticker and "from_period" not in c
        ]
    return " ".join(lines)
