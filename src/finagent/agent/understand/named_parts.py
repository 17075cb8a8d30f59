"""The parts of a company a question names ("AWS operating income", "iPhone revenue", "revenue from
Greater China") and the kind of part it asks to have driven a change ("which segment drove ..."),
read once at analyze against the names of the axis members the asked companies' facts are tagged with.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from finagent.finance.ask.parts_ask import driver_noun
from finagent.finance.read.xbrl.members import KIND_WORDS, axis_kind, kind_of_word, member_names, named_in

ASKED_KINDS = ("segment", "product", "geography")
"""The kinds of part a question may name (a consolidation item or a legal entity is no user's part)."""

_COMMON = frozenset({"other", "total", "corporate", "all other", "net sales", "revenue", "revenues"})


@dataclass(frozen=True, slots=True)
class AskedPart:
    """A part the question names: the company, the axis member and its name as shown."""

    ticker: str
    axis: str
    member: str
    label: str
    kind: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AskedPart:
        return cls(**{k: str(data[k]) for k in ("ticker", "axis", "member", "label", "kind")})


def asked_parts(
    question: str, tickers: Sequence[str], rows: Iterable[tuple[str, str, str, str | None]]
) -> tuple[AskedPart, ...]:
    """The members of the asked companies the question names, by any of their names: on one axis
    kind, the segment before the product before the region (Amazon's "AWS" is both a segment and a
    product category; its segment is what "AWS operating income" means)."""
    by_ticker: dict[str, list[tuple[str, str, str | None]]] = {}
    for ticker, axis, member, label in rows:
        if ticker in tickers and axis_kind(axis) in ASKED_KINDS:
            by_ticker.setdefault(ticker, []).append((axis, member, label))
    found: list[AskedPart] = []
    for ticker in tickers:
        named: dict[str, AskedPart] = {}
        for (axis, member), name in member_names(by_ticker.get(ticker, [])).items():
            said = named_in(question, [n for n in name.names if _nameable(n, question)])
            kind = axis_kind(axis) or ""
            if said and member not in named:
                named[member] = AskedPart(ticker, axis, member, name.label, kind)
        found += _one_kind(list(named.values()))
    return tuple(found)


def _nameable(name: str, question: str) -> bool:
    """A name a question may name a part by: not a line's or a kind's word ("Other", "Services"),
    unless the question writes it capitalised ("Services net sales")."""
    lower = name.lower()
    if lower in _COMMON or lower in KIND_WORDS:
        return name[:1].isupper() and named_in(question, [name]) == name and name in question
    return len(name) >= 2


def _one_kind(parts: list[AskedPart]) -> list[AskedPart]:
    """The parts of the first kind (segment, product, region) named; a member named twice by one
    name on two axes is kept on the first."""
    for kind in ASKED_KINDS:
        own = [p for p in parts if p.kind == kind]
        if own:
            return list({p.label.lower(): p for p in reversed(own)}.values())[::-1]
    return []


def part_driver(question: str) -> str:
    """The kind of part asked to have driven a change ("segment", "product", "geography"), or ""."""
    noun = driver_noun(question)
    kind = kind_of_word(noun) if noun else None
    return kind if kind in ASKED_KINDS else ""
