"""A sentence that says a line went up or down "from A to B" must agree with its own two figures.

"The quick ratio improved from 0.59 to 0.36" or "VaR decreased from 7 to 7" is wrong whatever it
cites: the check needs no passage, so it holds uncited and short sentences too.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any

from finagent.finance.figure_records import period_key
from finagent.finance.periods.period import FiscalPeriod
from finagent.finance.read.written_figures import WrittenFigure, scan_figures
from finagent.finance.words import BETTER_WORDS, DOWN_WORDS, LOWER_IS_BETTER, UP_WORDS, WORSE_WORDS

# Lines where a fall is the improvement; other lines ("improved" a margin, ratio, income) rise.
_HIGHER_IS_BETTER = re.compile(
    r"\b(?:ratio|margin\w*|return\w*|coverage|turnover|income|profit\w*|revenue\w*|sales|earnings|cash)\b",
    re.I,
)
# A fall told with a word that elsewhere names a thing or a level ("cut", "lowered"): a stated change
# from A to B says which it is.
_ALSO_DOWN = re.compile(r"\b(?:cut|lowered)\b", re.I)
_RANGE = re.compile(r"\b(?:rang\w*|vary\w*|varie\w*|anywhere)\s+from$", re.I)
_NUMERIC = {"amount", "number", "count"}
_CLAUSE_BREAK = re.compile(r"[;:]|,\s+(?:while|whereas|but)\b|\b(?:while|whereas|but)\b", re.I)


def contradicted_change(sentence: str) -> str | None:
    """Why the sentence's "from A to B" contradicts the direction it states, else None."""
    figures = [f for f in scan_figures(sentence) if f.kind != "date"]  # "from 0.67 in FY2022 to 0.64"
    for first, second in itertools.pairwise(figures):
        if not _from_to(sentence, first, second) or not _comparable(first, second):
            continue
        clause = _clause_before(sentence, first.start)
        said, word = _stated_direction(clause)
        moved = _moved(first, second)
        if said and moved != said:
            actual = "no change" if moved == 0 else ("a rise" if moved > 0 else "a fall")
            return f"'{word}' does not fit the change from {first.text} to {second.text}: it is {actual}"
    return None


_CLAUSE = re.compile(
    r"[;:]|,\s+(?:while|whereas|but|and)\b|\b(?:while|whereas|but|because|as\s+a\s+result|due\s+to|driven)\b",
    re.I,
)
_GENERIC = frozenset({"total", "net", "the", "and", "for", "per", "change"})


def against_computed(sentence: str, calculations: Sequence[dict[str, Any]]) -> str | None:
    """Why a clause saying a computed line rose, fell, improved or worsened contradicts the figures
    computed for it ("the quick ratio improved" over 0.59 -> 0.36), else None. A clause naming several
    computed lines, or a line whose computed moves disagree, is not judged."""
    moves = computed_moves(calculations)
    for clause in _CLAUSE.split(sentence):
        said, word = _stated_direction(clause)
        named = [m for m in moves if _names(clause, m)]
        if not said or len(named) != 1:
            continue
        moved, how = moves[named[0]]
        if moved and moved != said:
            return f"'{word}' does not fit the computed {named[0]}: {how}"
    return None


def computed_moves(calculations: Sequence[dict[str, Any]]) -> dict[str, tuple[int, str]]:
    """Each computed line's direction (+1 / -1, 0 when its moves disagree) and how it moved: from its
    computed changes, else from its computed values of the earliest and latest periods."""
    moves: dict[str, list[tuple[int, str]]] = {}
    levels: dict[str, list[dict[str, Any]]] = {}
    for calc in calculations:
        metric, result = str(calc.get("metric") or "").strip(), calc.get("result")
        if not metric or not isinstance(result, int | float) or isinstance(result, bool):
            continue
        if "from_period" in calc and result:
            how = f"{calc['from_period']} to {calc.get('to_period')}: {calc.get('result_text') or result}"
            moves.setdefault(metric, []).append((1 if result > 0 else -1, how))
        elif calc.get("kind") == "formula" and _quarter_or_year(calc.get("period")):
            levels.setdefault(metric, []).append(calc)
    for metric, values in levels.items():
        if metric in moves or len(values) < 2:
            continue
        first, last = min(values, key=_period), max(values, key=_period)
        if first["result"] != last["result"]:
            how = f"{first['result_text']} in {first['period']}, {last['result_text']} in {last['period']}"
            moves[metric] = [(1 if last["result"] > first["result"] else -1, how)]
    return {m: (ways[0][0] if len({w for w, _ in ways}) == 1 else 0, ways[0][1]) for m, ways in moves.items()}


def _quarter_or_year(label: Any) -> bool:
    """A level is compared across quarters or years, never across year-to-date spans or balances."""
    period = FiscalPeriod.from_label(str(label or ""))
    return period is not None and (period.is_quarter or period.is_year)


def _period(calc: dict[str, Any]) -> tuple[int, int]:
    return period_key(str(calc["period"]))


def _names(clause: str, metric: str) -> bool:
    """The clause names the line: every word of its name (first five letters), but generic words."""
    words = [w[:5] for w in re.findall(r"[a-z]{3,}", metric.lower()) if w not in _GENERIC]
    said = {w[:5] for w in re.findall(r"[a-z]{3,}", clause.lower())}
    return bool(words) and all(w in said for w in words)


# What may stand between "from A" and "to B": nothing, or A's period ("from 0.67 in FY2022 to 0.64").
_BETWEEN = re.compile(
    r"\s+(?:(?:in|for|at|as\s+of)\s+(?:the\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?|Q[1-4]\s+(?:FY\s?)?)?"
    r"(?:19|20)\d\d,?\s+)?to\s+",
    re.I,
)


def _from_to(sentence: str, first: WrittenFigure, second: WrittenFigure) -> bool:
    """ "from A to B" as a change, not a range ("ranging from A to B")."""
    before = sentence[: first.start].rstrip()
    between = sentence[first.start + len(first.text) : second.start]
    change = before.lower().endswith("from") and not _RANGE.search(before)
    return change and _BETWEEN.fullmatch(between) is not None


def _comparable(first: WrittenFigure, second: WrittenFigure) -> bool:
    """Two figures of one kind ("from 5 to 7%" shares the percent), neither written negative (a
    loss's sign makes "down" ambiguous)."""
    shares_percent = second.kind == "percent" and first.kind in _NUMERIC and not first.currency
    same = first.kind == second.kind == "percent" or {first.kind, second.kind} <= _NUMERIC or shares_percent
    negative = any(f.text.lstrip().startswith(("(", "-", "\u2212")) for f in (first, second))
    unscaled_end = first.scaled and not second.scaled  # "from $5 million to $6,100": scale unknown
    return same and not negative and not unscaled_end


def _clause_before(sentence: str, start: int) -> str:
    """The words of the clause that leads up to "from A": where its verb and its line are."""
    head = sentence[:start]
    breaks = list(_CLAUSE_BREAK.finditer(head))
    return head[breaks[-1].end() :] if breaks else head


def _stated_direction(clause: str) -> tuple[int, str]:
    """+1 / -1 and the word when the clause's last direction word before "from" says the line rose /
    fell; 0 when none does or it cannot be read (an "improvement" of a line of no known sense)."""
    words = [(m.start(), 1, m.group(0)) for m in UP_WORDS.finditer(clause)]
    words += [(m.start(), -1, m.group(0)) for m in DOWN_WORDS.finditer(clause)]
    words += [(m.start(), -1, m.group(0)) for m in _ALSO_DOWN.finditer(clause)]
    words += [(m.start(), 2, m.group(0)) for m in BETTER_WORDS.finditer(clause)]
    words += [(m.start(), -2, m.group(0)) for m in WORSE_WORDS.finditer(clause)]
    if not words:
        return 0, ""
    _, said, word = max(words)
    if abs(said) == 1:
        return said, word
    if LOWER_IS_BETTER.search(clause):
        return -said // 2, word
    return (said // 2 if _HIGHER_IS_BETTER.search(clause) else 0), word


def _moved(first: WrittenFigure, second: WrittenFigure) -> int:
    """The direction from the first figure to the second as written ("25% to 25.5%" is a rise);
    "from 6.1 to 5.2 billion" shares the scale."""
    start = first.mantissa * second.scale if second.scaled and not first.scaled else first.magnitude
    difference = second.magnitude - start
    return 0 if abs(difference) <= 1e-9 * max(abs(start), 1.0) else (1 if difference > 0 else -1)
