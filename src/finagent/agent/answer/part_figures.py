"""A line's figures by part (a segment, a product, a region) from the XBRL facts tagged with one axis
member, chosen as the company's own figure is: the member's facts go through ``figure_for``, so a
part's figure of a period is read by that period and cited where the filing prints it.

``finagent facts --by``, the MCP tool, ``finagent.facts(by=...)`` and the answer's sentences about a
part all read ``breakdown``. Figures only: the sentences are ``part_sentences``'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from finagent.agent.answer.figures import figure_for
from finagent.finance.compute.part_changes import summing_members
from finagent.finance.fact_records import StoredFact
from finagent.finance.line_item import LineItem
from finagent.finance.looked_up import Figure
from finagent.finance.read.lookup import PeriodWanted
from finagent.finance.read.xbrl.members import (
    AXIS_KINDS,
    MemberName,
    PartKind,
    axis_kind,
    member_names,
    single_part,
)


@dataclass(frozen=True, slots=True)
class PartFigure:
    """One member's figure: the member, its name as shown, and the figure (period, value, source)."""

    axis: str
    member: str
    label: str
    figure: Figure

    def to_dict(self) -> dict[str, Any]:
        return {"axis": self.axis, "member": self.member, "part_label": self.label, **self.figure.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PartFigure:
        return cls(str(data["axis"]), str(data["member"]), str(data["part_label"]), Figure.from_dict(data))


@dataclass(frozen=True, slots=True)
class Breakdown:
    """A line of one company and period by the members of one axis: the parts that add up to the
    total (``sums``), else every part (the answer then says they do not add up), and the total."""

    ticker: str
    metric: str
    kind: PartKind
    axis: str
    period: str
    parts: tuple[PartFigure, ...]
    total: Figure | None
    sums: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "ticker": self.ticker,
            "metric": self.metric,
            "kind": self.kind,
            "axis": self.axis,
            "period": self.period,
            "members": [p.to_dict() for p in self.parts],
            "total": self.total.to_dict() if self.total else None,
            "sums": self.sums,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Breakdown:
        total = data.get("total")
        return cls(
            str(data["ticker"]),
            str(data["metric"]),
            str(data["kind"]),
            str(data["axis"]),
            str(data["period"]),
            tuple(PartFigure.from_dict(p) for p in data.get("members") or ()),
            Figure.from_dict(total) if total else None,
            bool(data.get("sums")),
        )

    def part(self, member: str, label: str = "") -> PartFigure | None:
        """The part by its member, else by its name (a member renamed between filings, as
        "GraphicsMember" became "GraphicsSegmentMember", is the same part)."""
        same = next((p for p in self.parts if p.member == member), None)
        return same or next((p for p in self.parts if label and p.label.lower() == label.lower()), None)


def _single(fact: StoredFact) -> tuple[str, str] | None:
    """(axis, member) of a fact tagged with one member, else None."""
    return single_part(fact.dims_key)


def names_of(facts: Sequence[StoredFact]) -> dict[tuple[str, str], MemberName]:
    """Each member's names from the row labels the filings print its facts under."""
    rows = [(*key, f.label) for f in facts if (key := _single(f)) is not None]
    return member_names(rows)


def axes_of(facts: Sequence[StoredFact], kind: PartKind) -> list[str]:
    """The axes of a kind the facts use: the standard axis first, then by how many members."""
    members: dict[str, set[str]] = {}
    for fact in facts:
        key = _single(fact)
        if key is not None and axis_kind(key[0]) == kind:
            members.setdefault(key[0], set()).add(key[1])
    return sorted(members, key=lambda a: (a not in AXIS_KINDS, -len(members[a])))


def member_figure(
    facts: Sequence[StoredFact], ticker: str, metric: LineItem, wanted: PeriodWanted, axis: str, member: str
) -> Figure | None:
    """The member's figure of the period, chosen from its own facts as a company's figure is."""
    tagged = [f for f in facts if _single(f) == (axis, member)]
    alone = {(f.concept, f.period_start, f.period_end) for f in tagged if f.dims_key == f"{axis}={member}"}
    # the part's own figure beats the operating segments' figure of it (which leaves out corporate items)
    own = [
        replace(f, dims_key="")
        for f in tagged
        if f.dims_key == f"{axis}={member}" or (f.concept, f.period_start, f.period_end) not in alone
    ]
    found = figure_for(own, ticker, metric, wanted, role="comparative") if own else None
    return found if isinstance(found, Figure) else None


def breakdown(
    facts: Sequence[StoredFact],
    ticker: str,
    metric: LineItem,
    wanted: PeriodWanted,
    kind: PartKind,
    members: Sequence[str] = (),
) -> Breakdown | None:
    """The line by the parts of ``kind`` in the period (the first axis of that kind with two parts
    or more; only ``members`` when given), with the company's total; None when no axis has them."""
    total = figure_for([f for f in facts if not f.dims_key], ticker, metric, wanted)
    names = names_of(facts)
    for axis in axes_of(facts, kind):
        found: dict[str, PartFigure] = {}
        for (each_axis, member), name in names.items():
            figure = member_figure(facts, ticker, metric, wanted, axis, member) if each_axis == axis else None
            named = {p.label.lower() for p in found.values()}
            if figure is not None and (not members or member in members) and name.label.lower() not in named:
                found[member] = PartFigure(axis, member, name.label, figure)
        if len(found) < (1 if members else 2):
            continue
        whole = total if isinstance(total, Figure) else None
        group, sums = summing_members(
            {m: p.figure.value for m, p in found.items()}, whole.value if whole else None
        )
        parts = tuple(sorted((found[m] for m in group), key=lambda p: -p.figure.value))
        return Breakdown(ticker, metric.name, kind, axis, wanted.label, parts, whole, sums)
    return None


def same_parts(later: Breakdown, earlier: Breakdown | None) -> list[tuple[PartFigure, PartFigure]]:
    """The parts both periods report, paired (a part new or gone in one period is not a change)."""
    if earlier is None:
        return []
    return [
        (earlier_part, part)
        for part in later.parts
        if (earlier_part := earlier.part(part.member, part.label))
    ]


def total_of(parts: Sequence[PartFigure]) -> Decimal:
    return sum((p.figure.value for p in parts), Decimal(0))
