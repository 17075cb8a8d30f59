"""The metrics a question asks for: the registry's reported lines (``finance.lines``) its words
name, and the computed metrics (``finance.computed``) whose inputs they are.

Ratios (margins, growth, free cash flow, CAGR) are never looked up: the calculator computes them
from the reported figures.
"""

from __future__ import annotations

import re

from finagent.finance.computed import COMPUTED
from finagent.finance.lines import REPORTED


def metrics_in(question: str) -> list[str]:
    """Reported metrics a question asks about, in the order the question names them.

    "cost of revenue" is not revenue and "operating income" is not net income: longer wordings
    claim their words first. Computed metrics (margins, free cash flow) bring their inputs.
    """
    return list(dict.fromkeys(name for _, _, name in metric_positions(question)))


def metric_positions(question: str) -> list[tuple[int, int, str]]:
    """(start, end, metric) of every metric's words in the question, in order (see ``metrics_in``)."""
    text = question.replace("’", "'")
    matches = [
        (match.start(), match.end(), metric.name)
        for metric in REPORTED.values()
        if metric.question
        for match in re.finditer(rf"(?<![\w&])(?:{metric.question})(?![\w&])", text, re.I)
    ]
    claimed = [False] * len(text)
    found: list[tuple[int, int, str]] = []
    for start, end, name in sorted(matches, key=lambda m: (m[0] - m[1], m[0])):  # longest wording first
        if any(claimed[start:end]):
            continue
        claimed[start:end] = [True] * (end - start)
        found.append((start, end, name))
    for computed in COMPUTED.values():
        for match in computed.words.finditer(text):
            found += [(match.start(), match.end(), m) for m in computed.inputs]
    return sorted(found, key=lambda item: item[0])


def computed_in(question: str) -> list[str]:
    """Computed metrics (margins, free cash flow) the question asks for."""
    return [computed.name for computed in COMPUTED.values() if computed.words.search(question)]
