"""A figure a report revises in place, and how much it moved.

Earnings releases revise guidance with the old figure in brackets: "9 percent core constant currency
EPS growth (previously 8 percent)", "2023 core EPS of $7.27 (previously $7.20)". Asked "by how many
percentage points did it raise its guidance", the answer is the difference of the two, which the
calculator computes; a small model states both figures and leaves the reader to subtract.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from finagent.finance.compute.safe_calculator import CalcResult, difference
from finagent.finance.read.written_figures import WrittenFigure, scan_figures

_PREVIOUSLY = re.compile(r"\(\s*previously\s+([^()]{1,40})\)", re.I)
_SIZE = re.compile(r"\bby how (?:many|much)\b|\bhow (?:many|much) (?:percentage )?points?\b", re.I)
_REVISED = re.compile(r"\b(?:rais|lower|cut|increas|reduc|revis|lift|boost|trim|upgrad|downgrad)\w*", re.I)
_OUTLOOK = re.compile(r"\b(?:guidance|outlook|forecast|targets?|expectations?|estimates?)\b", re.I)
# Clause boundaries before a revised figure; a decimal point ("$7.27") or a thousands comma is none.
_CLAUSE_END = re.compile(r"(?<!\d)[.;:](?!\d)|,\s+|\(")
_WORD = re.compile(r"[a-z][a-z\-]{2,}")
_STOP = frozenset({"and", "the", "for", "its", "our", "now", "with", "expects", "deliver", "imply"})
_MAX_WHAT_WORDS = 6


@dataclass(frozen=True, slots=True)
class Revision:
    """A figure stated with the value it replaces, and the words that name it."""

    what: str
    new: WrittenFigure
    old: WrittenFigure

    @property
    def points(self) -> bool:
        """Both are percentages: the move is in percentage points."""
        return self.new.kind == "percent" and self.old.kind == "percent"

    def moved(self) -> CalcResult:
        return difference(self.new.value, self.old.value)


def asks_revision_size(question: str) -> bool:
    """ "By how many percentage points did PepsiCo raise its full-year guidance for ...?"."""
    return all(p.search(question) for p in (_SIZE, _REVISED, _OUTLOOK))


def revisions(text: str) -> list[Revision]:
    """Each "<figure> <what> (previously <figure>)" and "<what> of <figure> (previously <figure>)"."""
    found = []
    for match in _PREVIOUSLY.finditer(text):
        olds = [f for f in scan_figures(match.group(1)) if f.kind != "date"]
        before = _CLAUSE_END.split(text[max(0, match.start() - 200) : match.start()])[-1]
        if len(olds) != 1:
            continue
        news = [f for f in scan_figures(before) if f.kind == olds[0].kind]
        if not news:
            continue
        new = news[-1]
        after = before[new.start + len(new.text) :].strip()
        words = after or re.sub(r"\s+of\s*$", "", before[: new.start]).strip()
        what = " ".join(words.split()[:_MAX_WHAT_WORDS] if after else words.split()[-_MAX_WHAT_WORDS:])
        if what:
            found.append(Revision(what, new, olds[0]))
    return found


def asked_revision(revised: Sequence[Revision], terms: Sequence[str]) -> Revision | None:
    """The revision whose words the question writes most (at least two of them), else None."""
    wanted = {t.lower() for t in terms}

    def overlap(revision: Revision) -> int:
        return len(set(_WORD.findall(revision.what.lower())) - _STOP & wanted)

    best = max(revised, key=overlap, default=None)
    return best if best is not None and overlap(best) >= 2 else None


def size_text(revision: Revision, result: float) -> str:
    """ "1 percentage point", "$0.07"."""
    size = abs(result)
    if revision.points:
        return f"{size:g} percentage point{'' if size == 1 else 's'}"
    return f"${size:,.2f}" if revision.new.currency else f"{size:g}"


def revision_record(revision: Revision, ticker: str, period: str, source: str) -> dict[str, Any] | None:
    """The computed move as the answer's calculation record (the figures check traces its inputs to
    the passage), or None when the figure did not move."""
    moved = revision.moved()
    if not moved.ok or not moved.result:
        return None
    return {
        "kind": "difference",
        "ticker": ticker,
        "metric": f"{revision.what} guidance",
        "period": period,
        "expression": moved.expression,
        "formula": "new - previous",
        "result": moved.result,
        "result_text": ("+" if moved.result > 0 else "-") + size_text(revision, moved.result),
        "unit": "percent" if revision.points else "USD",
        "sources": [source],
    }
