"""Citation labels in an answer ("[10Q1]", "[10K2, 10Q3]"): the link from a figure to its evidence."""

from __future__ import annotations

import re

CITATION = re.compile(r"\[((?:10K|10Q|8K|ER|N|M)?\d+(?:\s*[,;]\s*(?:10K|10Q|8K|ER|N|M)?\d+)*)\]")


def cited_labels(answer: str) -> list[str]:
    """Citation labels used in an answer, in order of first use ("[10Q1, 10Q2]" counts both)."""
    labels: list[str] = []
    for match in CITATION.finditer(answer):
        for label in re.split(r"\s*[,;]\s*", match.group(1)):
            if label not in labels:
                labels.append(label)
    return labels
