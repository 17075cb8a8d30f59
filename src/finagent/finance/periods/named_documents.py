"""The documents a question names rather than a period: by kind ("in its Q2 10-Q", "on the earnings
call"), without a date ("this 10-K": every stored year is a candidate), or by an exact day ("the 8-K
dated December 2, 2024", "its October 24, 2023 call"), which is resolved to the stored document of
that day, never to the fiscal period around it (a call in October reports the quarter before).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from finagent.finance.periods.grammar import parse_time_phrases
from finagent.finance.periods.rules import NORMALISE
from finagent.finance.periods.spec import TimeSpec

_I = re.IGNORECASE

_KIND_WORDS = (
    ("10-Q", re.compile(r"\b10-?Qs?\b|\bquarterly\s+reports?\b", _I)),
    ("10-K", re.compile(r"\b10-?Ks?\b|\bannual\s+reports?\b", _I)),
    ("annual_report", re.compile(r"\bannual\s+reports?\b", _I)),
    ("transcript", re.compile(r"\b(?:earnings|conference)\s+calls?\b|\btranscripts?\b", _I)),
    ("earnings_release", re.compile(r"\b(?:earnings|press)\s+releases?\b", _I)),
    ("8-K", re.compile(r"\b8-?Ks?\b", _I)),
)


def named_kinds(question: str) -> frozenset[str]:
    """Document kinds the question names ("in its Q2 10-Q", "on the earnings call"); empty if none."""
    text = question.translate(NORMALISE)
    return frozenset(kind for kind, rx in _KIND_WORDS if rx.search(text))


_THIS_DOCUMENT = re.compile(
    r"\b(?:this|these|the attached|the provided|the given)\s+"
    r"(?P<doc>10-?K|annual reports?|10-?Q|quarterly reports?|reports?|filings?|documents?)\b",
    _I,
)


def undated_document(question: str) -> frozenset[str] | None:
    """The kinds of document a question points at without dating it ("mentioned in this 10K report",
    "in these filings"): every stored year of them is a candidate, ranked by content, not the newest.
    None when the question points at no such document; empty for any report."""
    match = _THIS_DOCUMENT.search(question.translate(NORMALISE))
    if match is None:
        return None
    doc = match.group("doc").lower().replace("-", "")
    if doc.startswith(("10k", "annual")):
        return frozenset({"10-K", "annual_report"})
    if doc.startswith(("10q", "quarterly")):
        return frozenset({"10-Q"})
    return frozenset()


DATED_DOCUMENT_DAYS = 5
"""How far from the day a question dates a document by ("the 8-K dated ...") a stored one may be."""

_EVENT_DOCUMENT_KINDS = frozenset({"8-K", "earnings_release"})

_ANY_FILING = frozenset({"8-K", "earnings_release", "10-K", "10-Q", "annual_report"})

_DOCUMENT_NOUNS = (
    (r"8-?Ks?|current\s+reports?|form\s+8-?K", frozenset({"8-K"})),
    (r"10-?Ks?|annual\s+reports?", frozenset({"10-K", "annual_report"})),
    (r"10-?Qs?|quarterly\s+reports?", frozenset({"10-Q"})),
    (r"(?:earnings|press)\s+releases?", _EVENT_DOCUMENT_KINDS),
    (r"(?:(?:earnings|conference)\s+)?calls?|transcripts?", frozenset({"transcript"})),
    (r"filings?|reports?|announcements?|releases?", _ANY_FILING),
)

_DOCUMENT_NOUN = "|".join(
    f"(?P<n{i}>(?:{rx})(?:\\s+(?:filings?|reports?|documents?))?)"
    for i, (rx, _) in enumerate(_DOCUMENT_NOUNS)
)

# "the 8-K dated / of / filed on <day>", "its current report from <day>", "the filing made on <day>".
_DATED_BEFORE = re.compile(
    rf"\b(?:{_DOCUMENT_NOUN})\s+(?:(?:that\s+)?(?:was|were|it)\s+|(?:which|that)\s+)?"
    r"(?:dated|of|from|on|(?:filed|made|released|issued|published|submitted|furnished)(?:\s+on)?)\s+"
    r"(?:the\s+)?$",
    _I,
)

# "filed on <day>", "dated <day>" with no document named: a filing of any kind.
_DATED_ALONE = re.compile(r"\b(?:filed|files|file|dated)\s+(?:on\s+)?$", _I)

# "its December 2, 2024 8-K": the day before the document.
_DATED_AFTER = re.compile(rf"^\s*(?:{_DOCUMENT_NOUN})\b", _I)


@dataclass(frozen=True)
class DatedDocument:
    """A document the question names by its day ("the 8-K dated December 2, 2024"): resolved to the
    stored document of that day (its event or filing date), not to the fiscal period around it."""

    day: date
    kinds: frozenset[str]
    text: str
    position: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "day": self.day.isoformat(),
            "kinds": sorted(self.kinds),
            "text": self.text,
            "position": self.position,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DatedDocument:
        return cls(
            date.fromisoformat(str(data["day"])),
            frozenset(data.get("kinds") or ()),
            str(data.get("text", "")),
            int(data.get("position", 0)),
        )

    def names(self, spec: TimeSpec) -> bool:
        """Whether ``spec`` is this document's day (then it names no fiscal period)."""
        return spec.kind == "date_range" and spec.day == self.day and spec.position == self.position


def _noun_kinds(match: re.Match[str]) -> frozenset[str]:
    for index, (_, kinds) in enumerate(_DOCUMENT_NOUNS):
        if match.group(f"n{index}"):
            return kinds
    return _ANY_FILING


def dated_documents(question: str) -> list[DatedDocument]:
    """The documents a question names by an exact day: "the 8-K dated / of / filed on <day>", "its
    <day> 8-K", "the filing made on <day>". A day that closes a period ("the quarter ended ...") or
    stands alone ("on December 2, 2024") names no document."""
    text = question.translate(NORMALISE)
    found: list[DatedDocument] = []
    for spec in parse_time_phrases(question):
        if spec.kind != "date_range" or spec.day is None or spec.span or spec.unit is not None:
            continue
        before = text[: spec.position]
        after = text[spec.position + len(spec.text) :]
        match = _DATED_BEFORE.search(before) or _DATED_AFTER.match(after)
        if match is not None:
            kinds = _noun_kinds(match)
        elif _DATED_ALONE.search(before):
            kinds = _ANY_FILING
        else:
            continue
        found.append(DatedDocument(spec.day, kinds, spec.text, spec.position))
    return found
