"""Metrics computed from two registry lines (``finance.lines``) of one company and period: the
margins and free cash flow, each defined once for both paths that compute it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class Computed:
    """A metric computed from two lines of one company and period: margins, free cash flow.

    Two paths compute it, each reading the question its own way: the reported-figures path
    (``ask.asked_metrics.computed_in``) matches ``words``; the statement-formula path
    (``compute.formulas``) matches ``cue`` and evaluates ``expressions`` in order. They differ on
    purpose where noted.
    """

    name: str
    label: str
    inputs: tuple[str, str]
    helper: Literal["margin", "diff"]
    """The calculator's helper over the two inputs: a margin (first over second) or a difference."""
    words: re.Pattern[str]
    """The question's words for it on the reported-figures path."""
    formula: str
    """Its name on the statement-formula path ("gross margin")."""
    cue: str
    """Regex of the question's words for it on the statement-formula path."""
    expressions: tuple[str, ...]
    """The formula path's ways to compute it over ``{line}`` inputs, best first."""
    unit: Literal["percent", "amount"]


_margin = "{0} / {{revenue}} * 100".format


def _ratio(name: str) -> str:
    """A margin's name as a ratio: not when an amount is named with it ("gross margin in dollars",
    "gross margin, in dollars,", "dollar gross margin" ask the line, gross profit)."""
    return rf"(?<!dollar ){name}(?!,?\s+(?:in\s+dollars|in\s+\$|amount|dollars))"


COMPUTED: dict[str, Computed] = {
    item.name: item
    for item in (
        Computed(
            "gross_margin",
            "Gross margin",
            ("gross_profit", "revenue"),
            "margin",
            re.compile(
                r"\bgross (?:profit )?margin\s*(?:%|percent|percentage|ratio|rate)"
                "|" + _ratio(r"\bgross margins?\b"),
                re.I,
            ),
            "gross margin",
            _ratio(r"\bgross (profit )?margin\b"),
            (_margin("{gross_profit}"), _margin("({revenue} - {cost_of_revenue})")),
            "percent",
        ),
        Computed(
            "operating_margin",
            "Operating margin",
            ("operating_income", "revenue"),
            "margin",
            re.compile(_ratio(r"\boperating (?:profit )?margins?\b"), re.I),
            "operating margin",
            _ratio(r"\boperating (profit |income )?(%\s*)?margin\b"),
            (_margin("{operating_income}"),),
            "percent",
        ),
        Computed(
            "net_margin",
            "Net margin",
            ("net_income", "revenue"),
            "margin",
            # "profit margin" is a net margin here only: the formula path's cue needs "net".
            re.compile(_ratio(r"\b(?:net (?:profit |income )?|profit )margins?\b"), re.I),
            "net margin",
            _ratio(r"\bnet (profit |income )?(%\s*)?margin\b"),
            (_margin("{net_income}"),),
            "percent",
        ),
        Computed(
            "free_cash_flow",
            "Free cash flow",
            ("operating_cash_flow", "capex"),
            "diff",
            re.compile(r"\bfree cash flows?\b|\bfcf\b", re.I),
            "free cash flow",
            r"\bfree cash flows?\b|\bFCF\b",
            ("{operating_cash_flow} - abs({capex})",),
            "amount",
        ),
    )
}
"""Computed metrics by name, in the order a question's words are matched
(``ask.asked_metrics.computed_in``)."""


_BY_FORMULA = {item.formula: item.name for item in COMPUTED.values()}


def computed_named(formula: str) -> str | None:
    """The computed metric a statement formula's name is ("gross margin" -> "gross_margin"): the
    two paths' names of one metric meet here, not by respelling."""
    return _BY_FORMULA.get(formula)
