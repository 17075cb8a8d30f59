"""Judgements an analyst makes from a ratio, decided by a stated rule of thumb.

"Is 3M a capital-intensive business?", "Does Verizon have a healthy liquidity profile based on its
quick ratio?", "Are J&J's financials those of a high growth company?" ask for a yes or no that no
filing states. A small model answers them by mood ("the company is investing more in its assets"),
so code computes the ratio that decides (``formulas``), compares it with the rule's
threshold and says the rule in the answer, beside the other ratios an analyst would look at.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Judgement:
    """A yes/no an analyst reads off a ratio: the words asking it, the ratio that decides and where."""

    name: str
    cue: re.Pattern[str]
    decides: tuple[str, ...]
    """Formula metrics that decide it, best first: the first one computed is used."""
    at_least: float
    """Yes when the deciding ratio is at least this (in the formula's own unit: percent or times)."""
    rule: str
    """The threshold in words, as the answer states it after "at or above" / "below"."""
    shown: tuple[str, ...] = ()
    """Other ratios computed beside it and shown, which do not decide."""


def _cue(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


_GOOD = r"(?:healthy|strong|sound|good|adequate|comfortable|solid|robust)"

JUDGEMENTS: tuple[Judgement, ...] = (
    Judgement(
        "healthy liquidity",
        _cue(rf"\b{_GOOD}\b[^?.]{{0,40}}\bliquidity\b|\bliquidity\b[^?.]{{0,30}}\b{_GOOD}\b"),
        ("quick ratio", "current ratio"),
        1.0,
        "1.0, where the assets counted cover current liabilities",
        shown=("cash-and-receivables quick ratio",),
    ),
    Judgement(
        "capital-intensive",
        _cue(r"\bcapital[- ]intensive\b|\bcapital intensity\b"),
        ("capital expenditure % of revenue",),
        10.0,
        "the 10% of revenue taken here to mark a capital-intensive business",
        shown=("fixed assets % of total assets", "total assets to revenue", "return on assets"),
    ),
    Judgement(
        "high growth",
        _cue(r"\bhigh[- ]growth\b|\bfast[- ]growing\b|\bhyper[- ]?growth\b"),
        ("revenue growth",),
        10.0,
        "the 10% a year taken here to mark high growth",
    ),
)
BY_NAME = {j.name: j for j in JUDGEMENTS}


def judgement_in(question: str) -> Judgement | None:
    """The judgement a question asks for, or None."""
    return next((j for j in JUDGEMENTS if j.cue.search(question)), None)


@dataclass(frozen=True, slots=True)
class Judged:
    """A judgement decided: yes or no, the ratio that decided it and the ratios shown beside it."""

    yes: bool
    deciding: dict[str, Any]
    shown: tuple[dict[str, Any], ...]
    judgement: Judgement

    @property
    def grounds(self) -> tuple[dict[str, Any], ...]:
        return (self.deciding, *self.shown)

    def clause(self) -> str:
        """ "0.71 is below 1.0, where the assets counted cover current liabilities"."""
        side = "at or above" if self.yes else "below"
        return f"{self.deciding['metric']} of {self.deciding['result_text']} is {side} {self.judgement.rule}"


def judge(
    name: str, calculations: Sequence[dict[str, Any]], order: Callable[[str], Any] = str
) -> Judged | None:
    """The judgement ``name`` over one company's computed ratios: its latest period's (by ``order``)
    deciding ratio against the threshold; None when no deciding ratio was computed or several
    companies were."""
    judgement = BY_NAME.get(name)
    formulas = [c for c in calculations if c.get("kind") == "formula" and c.get("result") is not None]
    if judgement is None or len({c.get("ticker") for c in formulas}) != 1:
        return None
    for metric in judgement.decides:
        own = [c for c in formulas if c.get("metric") == metric]
        if not own:
            continue
        deciding = max(own, key=lambda c: order(str(c["period"])))
        shown = tuple(
            c
            for other in judgement.shown
            for c in formulas
            if c.get("metric") == other and c["period"] == deciding["period"]
        )
        return Judged(float(deciding["result"]) >= judgement.at_least, deciding, shown, judgement)
    return None
