"""The line a "what was X for P" question asks the value of, and the table figures that answer it."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

_ASKS_A_VALUE = re.compile(r"^\s*(?:what\s+(?:was|is|were|are)\b|how\s+much\b)", re.I)

_LINE_WORD = re.compile(r"[a-z][a-z&\-]+")

_GENERIC_LINE_WORDS = frozenset({"total", "net", "and", "of", "the"})


def asks_a_value(question: str) -> bool:
    """ "What was …", "How much …": the question asks the value of a line."""
    return bool(_ASKS_A_VALUE.match(question))


def value_line_words(question: str) -> list[str]:
    """The words of a "what was X for P" question a table line's label may be made of ("What was
    Amcor's adjusted non-GAAP EBITDA for FY2023"); none when the question asks no value. Read once, by
    the question's analysis."""
    return sorted(set(_LINE_WORD.findall(question.lower()))) if asks_a_value(question) else []


def asked_line_facts(
    asked: Collection[str], facts: Sequence[dict[str, Any]], periods: Sequence[str]
) -> list[dict[str, Any]]:
    """The table figures a "what was X for P" question asks for, one per company and period: a row
    read from a table whose label's words the question all names (``asked``: its value_line_words),
    in an asked period. Empty when the question asks no value, or when rows of one company and period
    tie with different values."""
    named = set(asked)
    if not named:
        return []
    best: dict[tuple[str, str], tuple[int, list[dict[str, Any]]]] = {}
    for fact in facts:
        words = set(_LINE_WORD.findall(fact["metric"].lower())) - _GENERIC_LINE_WORDS
        if fact.get("method") != "table" or fact["period"] not in periods or not words or not words <= named:
            continue
        key = (fact["ticker"], fact["period"])
        score, found = best.get(key, (0, []))
        if len(words) > score:
            best[key] = (len(words), [fact])
        elif len(words) == score:
            found.append(fact)
    return [found[0] for _, found in best.values() if len({f["value"] for f in found}) == 1]
