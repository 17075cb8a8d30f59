"""The parts of a reported total (segments, products, regions) against the total, and which part
drove its change: each part's change between two periods, its share of the total's change, ranked.

A filing may tag two breakdowns on one axis (Amazon's "products" and "services" beside its seven
categories), so the parts that add up to the total are found first; when none do, the answer says the
parts do not add up rather than dividing by the wrong whole. Pure functions, exact Decimals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import combinations

SUM_TOLERANCE = Decimal("0.001")
"""Parts add up to the total within a tenth of a percent (rounding of the printed parts)."""

_STANDARD_PREFIXES = ("us-gaap:", "srt:", "ifrs-full:")

MAX_SEARCHED = 14
"""Members searched for the set that adds up (2**14 sets at most); more are shown as they are."""


def sums_to(values: Sequence[Decimal], total: Decimal | None) -> bool:
    """The values add up to the total (within ``SUM_TOLERANCE`` of it)."""
    if total is None or not values or total == 0:
        return False
    return abs(sum(values, Decimal(0)) - total) <= abs(total) * SUM_TOLERANCE


def summing_members(values: Mapping[str, Decimal], total: Decimal | None) -> tuple[tuple[str, ...], bool]:
    """The members whose values add up to the total, and whether any set did: the most members that
    do (Apple's five categories, not its "Products" and "Services", which add up too), the company's
    own members before the standard ones on a tie; every member (not adding up) when none does."""
    every = tuple(values)
    if len(every) <= MAX_SEARCHED:
        for size in range(len(every), 1, -1):
            groups = [g for g in combinations(every, size) if sums_to([values[m] for m in g], total)]
            if groups:
                return max(groups, key=lambda g: -sum(m.startswith(_STANDARD_PREFIXES) for m in g)), True
    return every, False


@dataclass(frozen=True, slots=True)
class Contribution:
    """One part's change between two periods and its share of the total's change (percent; None
    when the total did not change)."""

    label: str
    prior: Decimal
    current: Decimal
    change: Decimal
    share: float | None
    expression: str
    share_expression: str


def contributions(parts: Sequence[tuple[str, Decimal, Decimal]], total_change: Decimal) -> list[Contribution]:
    """Each part's change and share of ``total_change``, ranked: the largest move in the total's own
    direction first (a fall's largest fall when the total fell)."""
    found = []
    for label, prior, current in parts:
        change = current - prior
        share = float(change / total_change * 100) if total_change else None
        found.append(
            Contribution(
                label,
                prior,
                current,
                change,
                share,
                f"{current} - {prior} = {change}",
                f"{change} / {total_change} * 100 = {share:.1f}" if share is not None else "",
            )
        )
    falling = total_change < 0
    return sorted(found, key=lambda c: c.change if falling else -c.change)
