"""Yes or no from the computed figures, when the question asks only for a sign.

"Does American Water Works have positive working capital?" is answered by the sign of the computed
working capital, "Has Microsoft increased its debt between FY2022 and FY2023?" by the sign of the
computed change. A small model often writes "Yes" above a computation that says no; the computed
sign decides, and the model's contradicting opening sentence gives way to the computed one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from finagent.finance.figures.text import describe_calculation

_YES_NO_QUESTION = re.compile(r"^\s*(?:does|do|did|is|are|was|were|has|have|had)\b", re.I)
_SIGN = re.compile(r"\b(positive|negative)\b", re.I)
_UP_WORDS = r"increas\w*|grow|grows|grown|grew|rais\w*|rise|rose|risen"
_DOWN_WORDS = r"decreas\w*|declin\w*|drop\w*|fall|fell|fallen|reduc\w*|shr[iu]nk\w*"
_UP = re.compile(rf"^(?:{_UP_WORDS})$", re.I)
_DOWN = re.compile(rf"^(?:{_DOWN_WORDS})$", re.I)
# The direction is what is asked: the verb right after its subject ("has Microsoft increased its
# debt", "did Apple's revenue fall") or the noun of "was there any drop in cash"; not a word of a
# clause ("events that increased net income") or a noun phrase ("a high growth company").
_SUBJECT = r"(?:(?!(?:that|which|who|whose|where|when)\b)[\w'&.-]+\s+){1,4}?"
_ASKED_DIRECTION = re.compile(
    r"^\s*(?:did|does|do|has|have|had|is|are|was|were)\s+"
    rf"(?:there\s+(?:been\s+)?(?:any|a|an)\s+|{_SUBJECT})(?P<word>{_UP_WORDS}|{_DOWN_WORDS})\b",
    re.I,
)
# Words whose yes or no is a judgement, or whose sense depends on the metric (a lower debt ratio
# "improves"), or that ask for a forecast: the computed sign does not answer them.
_NOT_A_SIGN = re.compile(
    r"\b(?:improv\w*|better|worse\w*|accelerat\w*|decelerat\w*|deteriorat\w*|expect\w*|guidance|"
    r"outlook|forecast\w*|project\w*)\b",
    re.I,
)
_WORD = re.compile(r"[a-z]{3,}")
_GENERIC = frozenset({"total", "net", "the", "and", "for", "change", "ratio", "per", "share"})
_LEADING = re.compile(r"^\s*(?:\*\*)?(yes|no)\b[^.!?\n]*[.!?]?[ \t]*", re.I)


@dataclass(frozen=True, slots=True)
class Verdict:
    """The computed answer to a sign question and the calculations that decide it."""

    yes: bool
    grounds: tuple[dict[str, Any], ...]

    def sentence(self) -> str:
        facts = "; ".join(describe_calculation(c) for c in self.grounds)
        return f"{'Yes' if self.yes else 'No'} (computed from the figures: {facts})."


def sign_verdict(question: str, calculations: Sequence[dict[str, Any]]) -> Verdict | None:
    """The yes/no a sign question's calculations decide, or None when the question asks more than a
    sign, names both directions, or its calculations disagree (then the model's words stand)."""
    calculations = [c for c in calculations if _about(question, c)]
    if (
        not _YES_NO_QUESTION.search(question)
        or _NOT_A_SIGN.search(question)
        or len({c.get("ticker") for c in calculations}) != 1
    ):
        return None
    sign = _SIGN.findall(question)
    asked = _ASKED_DIRECTION.match(question)
    word = asked.group("word") if asked else ""
    up, down = bool(_UP.match(word)), bool(_DOWN.match(word))
    words = re.findall(r"[a-z]+", question.lower())
    if any(_UP.match(w) for w in words) and any(_DOWN.match(w) for w in words):
        return None  # "did debt increase or decrease?" asks which, not whether
    if len({s.lower() for s in sign}) == 1 and not (up or down):
        levels = [c for c in calculations if c.get("kind") == "formula" and c.get("result") is not None]
        return _decide(levels, yes_when_positive=sign[0].lower() == "positive")
    if up != down and not sign:
        changes = [c for c in calculations if "from_period" in c and c.get("result") is not None]
        return _decide(changes, yes_when_positive=up)
    return None


def _about(question: str, calculation: dict[str, Any]) -> bool:
    """A calculation of what the question names ("long-term debt" for "its debt")."""
    asked = {w[:5] for w in _WORD.findall(question.lower())}
    named = {w[:5] for w in _WORD.findall(str(calculation.get("metric") or "").lower()) if w not in _GENERIC}
    return bool(named & asked)


def _decide(grounds: list[dict[str, Any]], *, yes_when_positive: bool) -> Verdict | None:
    """One answer when every ground's result has the same sign (and none is exactly zero)."""
    if not grounds or any(c["result"] == 0 for c in grounds):
        return None
    answers = {(c["result"] > 0) == yes_when_positive for c in grounds}
    return Verdict(answers.pop(), tuple(grounds)) if len(answers) == 1 else None


def with_verdict(answer: str, verdict: Verdict | None) -> str:
    """The answer opening with the computed yes/no: a leading "Yes"/"No" sentence that agrees stays,
    one that contradicts it is replaced, and an answer with none gets the computed sentence first."""
    if verdict is None:
        return answer
    leading = _LEADING.match(answer)
    if leading and (leading.group(1).lower() == "yes") == verdict.yes:
        return answer
    rest = answer[leading.end() :] if leading else answer.lstrip()
    joiner = "" if not rest or rest.startswith("\n") else " "
    return f"{verdict.sentence()}{joiner}{rest}".rstrip()
