"""Per-share figures reported per share class (Class A and Class B EPS on the class-of-stock axis).

The consolidated fact (no dimension) always wins; these are read only when a filing states the
figure per class alone. Classes stating one value are one figure, said once ("for Class A and
Class B shares alike"); classes stating different values are never averaged or picked silently:
the class read is named, and the others said to differ.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from finagent.finance.fact_records import StoredFact

CLASS_AXIS = "us-gaap:StatementClassOfStockAxis"


def class_member(fact: StoredFact) -> str | None:
    """The share class a fact is stated for, when its only dimension is the class-of-stock axis."""
    axis, _, member = fact.dims_key.partition("=")
    return member if axis == CLASS_AXIS and ";" not in member else None


def class_name(member: str) -> str:
    """ "us-gaap:CommonClassAMember" is "Class A"; another member its words ("Common Stock")."""
    local = member.split(":")[-1].removesuffix("Member")
    found = re.search(r"Class([A-Z])(?![a-z])", local)
    if found:
        return f"Class {found.group(1)}"
    return " ".join(re.findall(r"[A-Z][a-z]*|\d+", local)) or local


def latest_by_class(facts: Sequence[StoredFact], as_reported: bool) -> dict[str, StoredFact]:
    """Each share class's fact (the latest filing's, or the original when ``as_reported``), in the
    order of the classes' names."""
    chosen: dict[str, StoredFact] = {}
    for fact in sorted(facts, key=lambda f: (f.filing_order, f.id), reverse=as_reported):
        member = class_member(fact)
        if member is not None:
            chosen[member] = fact
    return dict(sorted(chosen.items(), key=lambda item: class_name(item[0])))


def class_reading(by_class: dict[str, StoredFact]) -> tuple[StoredFact, str] | None:
    """The fact that answers for the classes and how the answer names them: one value for every
    class is said once; different values name the first class read and that the others differ."""
    if not by_class:
        return None
    names = [class_name(m) for m in by_class]
    facts = list(by_class.values())
    first = facts[0]
    if len(facts) == 1:
        return first, f"for {names[0]} shares"
    if len({f.value for f in facts}) == 1:
        listed = ", ".join(names[:-1]) + f" and {names[-1]}"
        return first, f"for {listed} shares alike"
    others = " and ".join(names[1:])
    return first, f"for {names[0]} shares ({others} shares report another figure)"
