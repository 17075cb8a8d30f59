"""Citation labels in an answer ("[10Q1]", "[10K2, 10Q3]"): the link from a figure to its evidence."""

from __future__ import annotations

import re

OTHER_PREFIX = "D"
"""The label prefix of an evidence item of a kind with none of its own (an annual report's pages)."""
LABEL_PREFIXES = ("10K", "10Q", "8K", "ER", "N", "M", OTHER_PREFIX)
"""Every label prefix an answer may cite: filings, releases, news, market data and other documents."""
_PREFIX = "(?:" + "|".join(LABEL_PREFIXES) + ")"
LABEL = re.compile(rf"{_PREFIX}\d+", re.I)
CITATION = re.compile(rf"\[({_PREFIX}?\d+(?:\s*[,;]\s*{_PREFIX}?\d+)*)\]")


def cited_labels(answer: str) -> list[str]:
    """Citation labels used in an answer, in order of first use ("[10Q1, 10Q2]" counts both)."""
    labels: list[str] = []
    for match in CITATION.finditer(answer):
        for label in re.split(r"\s*[,;]\s*", match.group(1)):
            if label not in labels:
                labels.append(label)
    return labels


def quotes_verbatim(quoted: str, text: str) -> bool:
    """``quoted`` (the words inside “…”) is ``text``'s own words, spacing and a closing "…" aside: a
    quote that is the source's, not the answer's claim."""
    body = " ".join(quoted.split()).removesuffix("…").rstrip()
    return body in " ".join(text.split())
