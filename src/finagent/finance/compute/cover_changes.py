"""The securities a filing's cover page registers on an exchange (Section 12(b)), and which of them
two covers differ by: a note that matured is no longer listed, a new issue is.

A cover lists each class by its title ("1.375% Notes due 2024", "Class A Common Stock, $0.001 par
value"), its trading symbol and its exchange, printed as a table or flattened into one paragraph.
Titles are read by their shape, wherever the lines fall; two covers are compared title by title,
exactly (two notes differing only in their year are two securities, never one reworded).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from finagent.finance.compute.filing_changes import Changes, FilingPart, Heading, normalized, part_lines

_SECURITY = re.compile(
    r"\b\d{1,2}\.\d{1,3}%\s+(?:Senior\s+|Subordinated\s+|Fixed[- ]Rate\s+|Floating[- ]Rate\s+)*"
    r"(?:Notes|Debentures|Bonds)\s+due\s+(?:[A-Z][a-z]+\s+(?:\d{1,2},\s+)?)?\d{4}"
    r"|\b(?:Class\s+[A-Z]\s+)?(?:Common|Ordinary|Capital|Preferred)\s+(?:Stock|Shares)"
    r"(?:,\s*(?:(?:\$|€|£)\s?\d[\d.]*|no)\s+par\s+value(?:\s+per\s+share)?)?"
)
"""A registered security's title: a note by its rate and maturity, a share class by its name."""


def registered_securities(part: FilingPart) -> list[Heading]:
    """The security titles the cover lists, once each, in its order, each with its chunk."""
    found: dict[str, Heading] = {}
    for line in part_lines(part):
        for match in _SECURITY.finditer(line.text):
            title = " ".join(match.group(0).split())
            found.setdefault(normalized(title), Heading(title, line.chunk_id))
    return list(found.values())


def compare_titles(earlier: Sequence[Heading], later: Sequence[Heading]) -> Changes:
    """The later cover's titles against the earlier one's, exactly: listed on both, newly, no longer."""
    old = {normalized(h.text) for h in earlier}
    new = {normalized(h.text) for h in later}
    return Changes(
        added=[h for h in later if normalized(h.text) not in old],
        removed=[h for h in earlier if normalized(h.text) not in new],
        unchanged=len(old & new),
    )
