"""Scoring of the narrative benchmark: does the answer state the facts a right answer cannot miss,
and none of the claims a wrong answer makes?

Pure functions, no finagent imports: the scorer must not share code with what it measures.

Each question of ``narrative/questions.jsonl`` carries a rubric:

- ``must``: groups of alternatives; every group needs one alternative in the answer;
- ``must_not``: claims a wrong answer makes (another line's cause, another period's fact, a guess
  without a source); any one found fails the answer;
- ``expect``: ``answer``, ``no_change`` (the filing says nothing material changed; the ``must``
  groups ask for that) or ``not_covered`` (the store cannot answer: the answer must also say that it
  does not find it / the store does not hold it, see ``NOT_COVERED``).

An alternative is a plain substring, compared case-insensitively, or a Python regular expression
when it starts with ``re:`` (searched case-insensitively). Whether the answer is *right* beyond its
rubric (the quote fits, the reasoning holds) is judged by hand in a separate verdicts file.
"""

from __future__ import annotations

import re
from typing import Any

REGEX_PREFIX = "re:"
EXPECTS = ("answer", "no_change", "not_covered")

# How an answer says the store does not answer: it cannot find it, the documents do not hold it, the
# filing/period/call is missing or not available, only another filing is there.
NOT_COVERED = re.compile(
    r"\b(?:can ?not|can't|could ?not|couldn't|unable to|did not|didn't|do not|don't)\s+"
    r"(?:find|locate|answer|determine|see|identify|confirm|compare|say)\b"
    r"|\b(?:does|do|did)\s*(?:not|n't)\s+(?:hold|contain|include|have|cover|provide|show|mention|discuss)\b"
    r"|\b(?:doesn't|don't|didn't)\s+(?:hold|contain|include|have|cover|provide|show|mention|discuss)\b"
    r"|\bnot\s+(?:in|among|part of|available in|included in|covered by|present in)\s+"
    r"(?:the\s+|this\s+|my\s+)?(?:store|corpus|documents?|data|sources?|filings?|library|index|collection)\b"
    r"|\b(?:is|are|was|were)\s+not\s+(?:available|covered|included|present|stored|indexed)\b"
    r"|\bnot\s+covered\b|\bmissing\b|\bno\s+(?:such|matching|relevant)\b"
    r"|\bnothing\s+(?:from|for|in|about|on|dated)\b"
    r"|\bno\s+(?:\w+\s+){0,3}?(?:filings?|10-[KQ]s?|8-Ks?|transcripts?|calls?|articles?|news|documents?|"
    r"text|data|records?|coverage)\s+(?:\w+\s+){0,3}?(?:in|for|from|on|about|covering|dated)\b"
    r"|\b(?:store|corpus|documents?|data|library|index)\s+(?:only\s+)?(?:holds?|has|have|contains?|covers?|includes?)"
    r"\s+only\b|\bonly\s+(?:holds?|has|have|contains?|covers?|includes?)\b",
    re.IGNORECASE,
)


def matches(alternative: str, answer: str) -> bool:
    """Whether one alternative (a substring, or ``re:`` + a regex) occurs in the answer."""
    if alternative.startswith(REGEX_PREFIX):
        return re.search(alternative[len(REGEX_PREFIX) :], answer, re.IGNORECASE) is not None
    return alternative.casefold() in answer.casefold()


def says_not_covered(answer: str) -> bool:
    """Whether the answer says it cannot find the matter / the store does not hold it."""
    return NOT_COVERED.search(answer) is not None


def score(answer: str, question: dict[str, Any]) -> dict[str, Any]:
    """The rubric applied to one answer; ``passed`` when every must-group is found and no must_not.

    Returns ``found`` (per found group: the first alternative that matched), ``missed`` (the groups
    with no alternative in the answer), ``forbidden`` (the must_not entries found), ``not_covered_said``
    (for ``expect == "not_covered"``: whether the answer says so, else None) and ``passed``.
    """
    found: list[str] = []
    missed: list[list[str]] = []
    for group in question["must"]:
        hit = next((alt for alt in group if matches(alt, answer)), None)
        if hit is None:
            missed.append(list(group))
        else:
            found.append(hit)
    forbidden = [claim for claim in question.get("must_not") or [] if matches(claim, answer)]
    said: bool | None = None
    if question.get("expect") == "not_covered":
        said = says_not_covered(answer)
    passed = bool(answer.strip()) and not missed and not forbidden and said is not False
    return {
        "found": found,
        "missed": missed,
        "forbidden": forbidden,
        "not_covered_said": said,
        "passed": passed,
    }
