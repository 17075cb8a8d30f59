"""Yes or no from the computed figures, when the question asks only for a sign or a direction.

"Does American Water Works have positive working capital?" is answered by the sign of the computed
working capital, "Has Microsoft increased its debt between FY2022 and FY2023?" by the sign of the
computed change. What is asked (a direction, a sign, about what) is read once into the question's
``Ask`` (``finance.ask.asks``); a small model often writes "Yes" above a computation that says no, so the
computed sign decides, and the model's contradicting opening sentence gives way to the computed one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from finagent.finance.ask.asks import Ask, stated_direction
from finagent.finance.ask.judgements import judge
from finagent.finance.figure_records import describe_calculation, period_key
from finagent.finance.words import LEADING_YES_NO, split_sentences

_WORD = re.compile(r"[a-z]{3,}")
_GENERIC = frozenset({"total", "net", "the", "and", "for", "change", "ratio", "per", "share"})


@dataclass(frozen=True, slots=True)
class Verdict:
    """The computed answer to a sign question and the calculations that decide it."""

    yes: bool
    grounds: tuple[dict[str, Any], ...]
    rule: str = ""
    """A judgement's rule as applied ("quick ratio of 0.71 is below 1.0, ..."); empty for a sign."""

    def sentence(self, described: Sequence[str] = ()) -> str:
        facts = "; ".join([*(described or [describe_calculation(c) for c in self.grounds]), *self.rules()])
        return f"{'Yes' if self.yes else 'No'} (computed from the figures: {facts})."

    def rules(self) -> list[str]:
        """The judgement's rule as applied, when the verdict is a judgement's."""
        return [self.rule] if self.rule else []


def sign_verdict(ask: Ask, calculations: Sequence[dict[str, Any]]) -> Verdict | None:
    """The yes/no a direction or sign question's calculations decide, or None when the ask is no such
    question, or its calculations (of what it asks about) disagree, are of several companies or zero."""
    if ask.kind != "direction":
        return None
    if ask.judgement:
        judged = judge(ask.judgement, calculations, period_key)
        return Verdict(judged.yes, judged.grounds, judged.clause()) if judged else None
    calculations = _computed_first(
        [c for c in calculations if _of_the_metric(ask, c) or _about(ask.about, c)]
    )
    if len({c.get("ticker") for c in calculations}) != 1:
        return None
    if ask.sign is not None:
        levels = [c for c in calculations if c.get("kind") == "formula" and c.get("result") is not None]
        return _decide(levels, yes_sign=1 if ask.sign == "positive" else -1)
    if ask.up is not None:
        changes = [c for c in calculations if "from_period" in c and c.get("result") is not None]
        if ask.factor is not None:
            return _by_factor(_asked_span(ask, changes), ask.factor)
        return _decide(_asked_span(ask, changes), yes_sign=1 if ask.up else -1)
    return None


_MULTIPLES = {2.0: "doubling", 3.0: "tripling", 4.0: "quadrupling", 0.5: "halving"}


def factor_limit(factor: float) -> float:
    """The change in percent that reaches a multiple: 100 for a doubling, -50 for a halving."""
    return round((factor - 1) * 100, 6)


def _by_factor(grounds: list[dict[str, Any]], factor: float) -> Verdict | None:
    """ "Did it more than double?": yes when every asked change in percent reaches the multiple (a rise
    of 100% doubles, a fall of 50% halves); None when they disagree."""
    changes = [c for c in grounds if c.get("kind") in ("change", "yoy", "qoq")]
    if not changes:
        return None
    limit = factor_limit(factor)
    answers = {(c["result"] >= limit) if factor > 1 else (c["result"] <= limit) for c in changes}
    if len(answers) != 1:
        return None
    way = "rise" if factor > 1 else "fall"
    rule = f"a {way} of {abs(limit):g}% or more is a {_MULTIPLES.get(factor, f'{factor:g}-fold change')}"
    return Verdict(answers.pop(), tuple(changes), rule)


def _computed_first(calculations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A metric computed from its lines (total debt) decides over those lines' own changes (its
    long-term part fell, its current part rose): the question named the whole."""
    computed = {c.get("metric") for c in calculations if c.get("kind") == "formula"}
    changes = [c for c in calculations if c.get("metric") in computed and "from_period" in c]
    if not changes:
        return calculations
    return [c for c in calculations if c.get("metric") in computed]


def _of_the_metric(ask: Ask, calculation: dict[str, Any]) -> bool:
    """A computed result of the metric the ask is about ("revenue" for "total net sales")."""
    return bool(ask.metric) and str(calculation.get("metric") or "") == ask.metric


def _asked_span(ask: Ask, changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The changes that answer "did it rise": year over year when asked so, else the change over the
    whole span of the periods asked (first to last) when there is one, else every change."""
    if ask.change in ("yoy", "qoq"):
        return [c for c in changes if c.get("kind") == ask.change] or changes
    spans = [c for c in changes if c.get("kind") == "change"]
    if not spans:
        return changes
    first = min(spans, key=lambda c: period_key(c["from_period"]))["from_period"]
    last = max(spans, key=lambda c: period_key(c["to_period"]))["to_period"]
    whole = [c for c in spans if c["from_period"] == first and c["to_period"] == last]
    return whole or spans


def _about(words: Sequence[str], calculation: dict[str, Any]) -> bool:
    """A calculation of what the question names ("long-term debt" for "its debt")."""
    named = {w[:5] for w in _WORD.findall(str(calculation.get("metric") or "").lower()) if w not in _GENERIC}
    return bool(named & set(words))


def _decide(grounds: list[dict[str, Any]], *, yes_sign: int) -> Verdict | None:
    """One answer when every ground's result has the same sign (and none is exactly zero)."""
    if not grounds or any(c["result"] == 0 for c in grounds):
        return None
    answers = {(c["result"] > 0) == (yes_sign > 0) for c in grounds}
    return Verdict(answers.pop(), tuple(grounds)) if len(answers) == 1 else None


def with_verdict(answer: str, verdict: Verdict | None) -> str:
    """The answer opening with the computed yes/no: a leading "Yes"/"No" sentence that agrees stays
    (unless the verdict is a judgement's), one that contradicts it is replaced, and an answer with
    none gets the computed sentence first."""
    if verdict is None:
        return answer
    leading = LEADING_YES_NO.match(answer)
    if leading and (leading.group(1).lower() == "yes") == verdict.yes and not verdict.rule:
        return answer  # a judgement's opening is always code's: the model's reasons for it are its own
    rest = answer[leading.end() :] if leading else answer.lstrip()
    joiner = "" if not rest or rest.startswith("\n") else " "
    return f"{verdict.sentence()}{joiner}{rest}".rstrip()


_ENDED = re.compile(r"[.!?][\"”’]?$")


def with_stated_yes_no(answer: str, ask: Ask) -> str:
    """A direction question's answer that states the direction without a yes or no ("Looking at VaR,
    the risk decreased [10Q1].") opens with the yes or no its own first sentence states, so a reader
    (or a grader) is not left to infer it; the sentence itself is kept. Unchanged otherwise."""
    if ask.kind != "direction" or ask.up is None or ask.judgement or LEADING_YES_NO.match(answer):
        return answer
    first = split_sentences(answer.strip())[0]  # not cut at "Inc." or "U.S."
    stated = stated_direction(first) if _ENDED.search(first) else None
    if stated is None:
        return answer
    return f"{'Yes' if stated == ask.up else 'No'}. {answer.lstrip()}"
