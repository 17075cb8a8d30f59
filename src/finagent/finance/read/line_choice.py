"""Which of a line's candidate concepts states the line a question names: the one its statement prints.

Companies tag one line with different concepts, and sometimes a candidate concept holds something
else (``ResearchAndDevelopmentExpense`` carrying only an acquired in-process R&D charge on a note,
while the income statement's "Research and development" row is tagged with another concept). The
statement line decides, in this order:

0. a concept whose statement row the question names word for word (the row's own words, without
   its asides, the company's name said or not: "net earnings attributable to its common shareholders" names
   UnitedHealth's "Net earnings attributable to UnitedHealth Group common shareholders" row, not the
   "Net earnings" row of the consolidated figure); the row naming more words wins;
1. a concept the company's statement displays on a row worded as the line ("Research and
   development") beats one displayed on another row ("Acquired in-process research and development");
2. a concept the statement displays beats one only in a note (or only in a dimension: those are
   never candidates);
3. a concept whose value for the period is implausibly small against another candidate's (under a
   fifth of it) loses: it holds a part, not the line;
4. then the vocabulary's order.

Per-share lines reported only per share class (Class A and Class B EPS) are read by ``share_class``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from decimal import Decimal

from finagent.finance.fact_records import StoredFact
from finagent.finance.line_item import LineItem
from finagent.finance.words import word_keys

SMALL = Decimal(5)
"""A candidate under a fifth of another candidate's value for the same period holds a part of the line."""

_FOOTNOTE = re.compile(r"\(\s*\w{0,2}\s*\)|\[\s*\w{0,2}\s*\]")
_SKIPPED = {"total", "net", "expense", "expenses"}


def row_key(text: str) -> str:
    """A row's wording as a comparable key: lower case, "&" read as "and", footnote marks,
    punctuation and the words "total", "net", "expense(s)" dropped ("Research & development
    expenses (1)" is "research and development")."""
    text = _FOOTNOTE.sub(" ", text.lower().replace("&", " and "))
    words = re.findall(r"[a-z]+", text)
    return " ".join(w for w in words if w not in _SKIPPED)


def _row_keys(metric: LineItem) -> set[str]:
    return {row_key(r) for r in (*metric.rows, metric.label)}


@dataclass(frozen=True, slots=True)
class Shown:
    """What a company's statements show of a line: the candidate concepts its statement displays,
    and those it displays on a row worded as the line (with that row's wording)."""

    displayed: frozenset[str]
    on_its_row: dict[str, str]
    named: dict[str, int] = field(default_factory=dict)
    """Candidate concept → how many words of its statement row the question names (all of them)."""

    def row_of(self, concept: str) -> str | None:
        return self.on_its_row.get(concept)


def shown_on_statement(facts: Iterable[StoredFact], metric: LineItem, words: Collection[str] = ()) -> Shown:
    """The candidate concepts the company's own statement of the line displays (in any filing), the
    rows worded as the line they are displayed on, and the rows the question names (``words``: the
    first five letters of each of the question's words, as ``Ask.about`` holds them)."""
    keys = _row_keys(metric)
    displayed: set[str] = set()
    rows: dict[str, str] = {}
    named: dict[str, int] = {}
    named_rows: dict[str, str] = {}
    said = frozenset(words)  # once, not per fact
    for fact in facts:
        if fact.statement != metric.statement or fact.concept not in metric.read_concepts or fact.dims_key:
            continue
        displayed.add(fact.concept)
        if fact.label and fact.concept not in rows and row_key(fact.label) in keys:
            rows[fact.concept] = fact.label.strip()
        count = named_row_words(fact.label, said) if fact.label and said else 0
        if count > named.get(fact.concept, 0):
            named[fact.concept] = count
            named_rows[fact.concept] = (fact.label or "").strip()
    # a row the question names is the row the answer says it read
    return Shown(frozenset(displayed), named_rows | rows, named)


_ASIDES = re.compile(r"\([^)]*\)")
_ROW_STOP = frozenset(
    {"the", "a", "an", "of", "and", "to", "for", "in", "on", "by", "from", "total", "net"}
    | {"company", "inc", "corp", "corporation", "co", "plc", "ltd", "llc"}
)


def named_row_words(label: str, words: AbstractSet[str]) -> int:
    """How many of a statement row's own words the question says, when it says all of them (else 0).
    A row's own words leave out its asides ("(loss)") and words like "the", "total", "net" or a
    company suffix; ``words`` hold the company's own name too ("attributable to UnitedHealth Group
    common shareholders" is named by "attributable to its common shareholders")."""
    own = " ".join(w for w in re.findall(r"[a-z]+", _ASIDES.sub(" ", label).lower()) if w not in _ROW_STOP)
    keys = word_keys(own)
    return len(keys) if keys and keys <= words else 0


def _small(value: Decimal | None, others: Sequence[Decimal]) -> bool:
    """Under a fifth of another candidate's value (same sign): a part of the line, not the line."""
    if value is None:
        return False
    return any(abs(value) * SMALL < abs(o) and (o > 0) == (value > 0) for o in others)


def preferred_concept(candidates: Sequence[StoredFact], metric: LineItem, shown: Shown) -> str:
    """The concept among the period's ``candidates`` that states the line (see the module's order)."""
    rank = {c: i for i, c in enumerate(metric.read_concepts)}
    values: dict[str, Decimal] = {}
    last = max((f.period_end for f in candidates), default=None)
    for fact in sorted(candidates, key=lambda f: (f.filing_order, f.id)):
        if fact.value is not None and fact.period_end == last:
            values[fact.concept] = fact.value  # the latest filing's value of each concept

    def key(concept: str) -> tuple[int, int, int, int, int]:
        others = [v for c, v in values.items() if c != concept]
        small = metric.unit == "money" and _small(values.get(concept), others)
        return (
            -shown.named.get(concept, 0),
            0 if shown.row_of(concept) else 1,
            0 if concept in shown.displayed else 1,
            1 if small else 0,
            rank.get(concept, len(rank)),
        )

    return min({f.concept for f in candidates}, key=key)


def line_used(concept: str, candidates: Sequence[StoredFact], shown: Shown, statement: str) -> str:
    """How the answer names the line it read when another candidate concept stated another value
    for the period ("read from the income statement's \"Research and development\" line
    (us-gaap:ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost), not
    us-gaap:ResearchAndDevelopmentExpense"); "" when no other candidate disagreed."""
    chosen = {f.value for f in candidates if f.concept == concept}
    others = sorted({f.concept for f in candidates if f.concept != concept and f.value not in chosen})
    if not others:
        return ""
    where = statement.replace("_", " ")
    row = shown.row_of(concept)
    line = f'the {where}\'s "{row}" line ({concept})' if row else concept
    return f"read from {line}, not {' or '.join(others)}"
