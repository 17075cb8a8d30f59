"""The figures read and computed, listed under the answer from the passages: each under its passage's
own label, with what was computed from it, and the reports an answer about every report read."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from finagent.agent.answer.choose import Read
from finagent.finance.check.copied_figures import labelled_by_passage
from finagent.finance.figure_records import describe_calculation, format_facts


def reports_read(items: list[dict[str, Any]]) -> str:
    """ "Reports read: AAPL 10-Q Q3 FY2022, ..." — the periods an answer about every report covers."""
    seen: dict[tuple[str, int, int, str], str] = {}
    for item in items:
        if item.get("kind") in ("news", "market_data") or not item.get("period_label"):
            continue
        key = (
            item.get("ticker") or "",
            item.get("fiscal_year") or 0,
            item.get("fiscal_quarter") or 5,
            item["kind"],
        )
        seen[key] = f"{key[0]} {item['kind']} {item['period_label']}".strip()
    return "Reports read: " + ", ".join(seen[k] for k in sorted(seen)) + "." if seen else ""


COMPUTED_LEAD = "Computed from the statements:"


def computed_lines(calculations: list[dict[str, Any]]) -> str:
    """The formulas computed (a quick ratio per year and its change), for an answer whose prose did
    not stand: "Computed from the statements:" and one line each; empty when none was computed."""
    metrics = {c["metric"] for c in calculations if c.get("kind") == "formula"}
    lines = [
        _calculation_line(c) + (f" [{', '.join(c['sources'])}]" if c.get("sources") else "")
        for c in _listed(calculations)
        if c["metric"] in metrics
    ]
    return "\n".join([COMPUTED_LEAD, *lines]) if lines else ""


def figure_list(read: Read) -> str:
    """The figures read, each under its passage's own label, and what was computed from them."""
    listed = _named_by_their_passage(read.facts, read.items)
    if not listed:
        return ""
    unlisted = {f["metric"] for f in read.facts} - {f["metric"] for f in listed}
    lines = [format_facts(listed)] + [_calculation_line(c) for c in _listed(read.calculations, unlisted)]
    return "\n".join(lines)


def _named_by_their_passage(facts: list[dict[str, Any]], items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The figures a figure list shows: a figure the model copied is listed only under a label its
    passage writes beside the value (the check of the prose still reads every verified figure)."""
    texts = {i["label"]: i.get("text") or "" for i in items}
    return [
        f
        for f in facts
        if f.get("method") != "model"
        or labelled_by_passage(f["metric"], f["value"], texts.get(f["source"], ""))
    ]


def _listed(calculations: list[dict[str, Any]], unlisted: Collection[str] = ()) -> list[dict[str, Any]]:
    """The calculations a figure list shows: none of an unlisted figure's; an amount's difference
    between two years is left to its change's line, which states it ("-5.1% (-$2,544 million)");
    the check still reads both."""
    changes = {
        (c["ticker"], c["metric"], c["from_period"], c["to_period"])
        for c in calculations
        if "from_period" in c
    }
    return [
        c
        for c in calculations
        if not ("since" in c and (c["ticker"], c["metric"], c["since"], c["period"]) in changes)
        and c.get("metric") not in unlisted
    ]


def _calculation_line(calc: dict[str, Any]) -> str:
    """ "- AMCR quick ratio FY2023: 0.69 (= ...) (computed: (5308 - 2213) / 4476)"."""
    return f"- {calc['ticker']} {describe_calculation(calc)} (computed: {calc['expression']})"
