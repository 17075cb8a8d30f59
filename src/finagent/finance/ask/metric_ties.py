"""Which of several metrics a question's change, ranking or direction is about.

"What were Lowe's revenue and operating income for fiscal 2024, and how did operating income change
from fiscal 2023?" asks two values and one change: the change belongs to operating income, the
metric its words name in the same clause, not to the first metric of the question. Metrics listed
together as the subject of the words ("how did revenue and operating income change") share them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_I = re.IGNORECASE

# Where a clause ends: punctuation, or "and" opening a new question ("..., and how did ...").
_CLAUSE_END = re.compile(
    r"[,;:?!]|\.(?:\s|$)|\b(?:and|but|while|then)\s+(?=(?:how|what|which|who|by|did|does|do|was|were|is|are"
    r"|has|have|the|its|their|also|give|show|compare)\b)",
    _I,
)
# Between metrics listed together: "revenue and operating income", "revenue, net income and EPS".
_LISTED = re.compile(r"^\s*(?:,\s*)?(?:(?:and|or|&|as\s+well\s+as)\s+)?(?:(?:its|their|the)\s+)?$", _I)


def _clause(text: str, at: int) -> tuple[int, int]:
    """The span of the clause holding position ``at``."""
    start, end = 0, len(text)
    for match in _CLAUSE_END.finditer(text):
        if match.end() <= at:
            start = match.end()
        elif match.start() >= at:
            end = match.start()
            break
    return start, end


def tied_metrics(text: str, named: Sequence[tuple[int, int, str]], words: re.Pattern[str]) -> tuple[str, ...]:
    """The metrics the first of ``words`` is said of: those named in its clause, the nearest one, or
    all of a list of them ("revenue and operating income"); empty when the words are not there or
    the clause names none (the caller keeps the question's first metric).

    ``named`` holds (start, end, metric) of each metric's words in ``text``.
    """
    found = words.search(text)
    if found is None or len({m for _, _, m in named}) < 2:
        return ()
    start, end = _clause(text, found.start())
    inside = sorted((s, e, m) for s, e, m in named if s >= start and e <= end)
    if not inside:
        return ()
    nearest = min(inside, key=lambda n: min(abs(n[0] - found.end()), abs(found.start() - n[1])))
    group = [nearest]
    at = inside.index(nearest)
    for step in (-1, 1):  # widen to the metrics listed together with the nearest one
        i = at
        while 0 <= i + step < len(inside):
            left, right = sorted((inside[i], inside[i + step]))
            if not _LISTED.match(text[left[1] : right[0]]):
                break
            i += step
            group.append(inside[i])
    return tuple(dict.fromkeys(m for _, _, m in sorted(group)))
