"""Whether a text is an answer at all: not empty, not only citations, not cut off, not only a pointer
elsewhere, not opening on a figure it never gives, not only a note that the evidence lacks the answer,
and, when the question asks what drove something, naming a cause.

The support check (``support``) holds each sentence to its passages; this holds the whole text to
being an answer. Pure rules over text.
"""

from __future__ import annotations

import re

from finagent.finance.check.support import CAUSE, content_words
from finagent.finance.citations import CITATION
from finagent.finance.words import (
    FALL_ADVERBS,
    FALL_NOUNS,
    FALL_VERBS,
    RISE_ADVERBS,
    RISE_NOUNS,
    RISE_VERBS,
    alternation,
    said_forms,
    split_sentences,
)

_LETTERS = re.compile(r"[A-Za-z]{2,}")

# "… as follows:" or a heading "4. **Conclusion:**" at the very end: what it announces never came.
_PROMISES = re.compile(r":\s*\**\s*$")

_DANGLING = re.compile(r"(?:\[[^\]]*|\b(?:and|or|the|of|to|a|an|with|by|in|from|for))\s*$", re.I)

_MATERIAL = r"(?:evidence|figures|passages|sources|data|information|context|excerpts|items|documents)"

_ABSENT = re.compile(
    r"\b(?:(?:is|are|was|were)\s+(?:not|never)\s+(?:provided|given|mentioned|available|stated|specified|"
    r"included|found|disclosed)|(?:is|are)\s+missing|(?:does|do)\s+not\s+(?:provide|give|mention|contain|"
    r"include|specify|state)|no\s+(?:information|data|mention|figure))\b"
    rf"[^.!?]*\b{_MATERIAL}\b"
    rf"|\b(?:the\s+)?(?:given|provided|available)\s+{_MATERIAL}\s+(?:does|do)\s+not\b",
    re.I,
)
"""A sentence about the material the model was given rather than the question: "the amount is not
provided in the given figures", "the information is missing from the evidence items provided"."""


def unanswered(text: str, drivers: bool = False) -> str | None:
    """Why a text is not an answer at all (empty, only citations, cut off, only a pointer elsewhere;
    with ``drivers``, for a question asking what drove something, naming no cause), else None."""
    bare = CITATION.sub(" ", text)
    bare = re.sub(r"\[[^\]]{0,12}\]?", " ", bare)  # a broken label "[1" or "[10K"
    words = _LETTERS.findall(bare)
    if not text.strip():
        return "it is empty"
    if len(words) < 3 and not re.match(r"\s*(?:yes|no)\b", bare, re.I):
        return "it holds only citations or symbols"
    stripped = text.rstrip()
    if _DANGLING.search(stripped) or not re.search(r"[.!?:)\]\"'*|%\d]\s*$", stripped):
        return "it is cut off mid-sentence"
    if _PROMISES.search(stripped):
        return "it stops where it announces what follows"
    if len(words) < 8 and not re.search(r"\b(?:yes|no|not)\b", bare, re.I) and len(content_words(bare)) < 3:
        return "it names its sources without saying anything about them"
    if all(is_pointer(s) for s in split_sentences(bare.strip()) if s.strip()):
        return "it only points to another part of the filing"
    if refers_back(bare, figure_only=True):
        return "it opens on a figure or statement it never gives"
    said = [s for s in split_sentences(bare.strip()) if len(_LETTERS.findall(s)) > 2]
    if said and all(_ABSENT.search(s) for s in said):
        return "it says only that the evidence it was given does not hold the answer"
    if drivers and not (CAUSE.search(bare) or _DRIVEN.search(bare)):
        return "it names no cause, and the question asks what drove it"
    return None


# "growth came from higher iPhone sales", "revenue rose on strong demand": a move said with its cause.
_MOVES_SAID = (
    *RISE_ADVERBS,
    *FALL_ADVERBS,
    *RISE_NOUNS,
    *FALL_NOUNS,
    *said_forms((*RISE_VERBS, *FALL_VERBS)),
)

_DRIVEN = re.compile(
    r"\b(?:contribut\w*|came from|thanks to|led to|(?:boost|fuel|help)(?:ed|s)?|"
    rf"(?:on|from) (?:{alternation(_MOVES_SAID)}|strong\w*|weak\w*)|"
    rf"(?:{alternation(_MOVES_SAID)}) on)\b",
    re.I,
)
"""Ways besides the causal connectives (``support.CAUSE``) that a sentence names a driver ("growth came from
higher iPhone sales", "Services contributed most")."""

_POINTER = re.compile(
    r"\bincorporated (?:herein )?by reference\b|^\W*(?:see|refer to|for (?:a|further|more) \w+ see)\b", re.I
)

_FIGURE_NOUN = (
    r"(?:figures?|amounts?|numbers?|values?|totals?|sums?|estimates?|calculations?|information|data)"
)

_BACK = r"^\W*(?:this|these|that|those|such)\s+(?:\w+\s+)?"

_REFERS_TO_FIGURE = re.compile(_BACK + _FIGURE_NOUN + r"\b", re.I)

_REFERS_BACK = re.compile(
    _BACK + r"(?:" + _FIGURE_NOUN + rf"|results?|(?:{alternation((*RISE_NOUNS, *FALL_NOUNS))})s?|changes?|"
    r"losses?|differences?|ratios?|margins?|percentages?)\b|^\W*(?:this|that|it)\s+(?:is|was|represents|"
    r"reflects|includes|indicates|means|suggests|shows)\b",
    re.I,
)


def refers_back(sentence: str, figure_only: bool = False) -> bool:
    """A sentence that opens on something said before it ("This figure is derived from …", "That
    increase reflects …"): after a sentence withheld, it says nothing. With ``figure_only``, only one
    opening on a figure ("This amount …"), which even as an answer's first sentence names nothing (an
    opening "This increase was driven by …" can mean the question's increase)."""
    return bool((_REFERS_TO_FIGURE if figure_only else _REFERS_BACK).search(sentence))


def is_pointer(sentence: str) -> bool:
    """A sentence that sends the reader elsewhere instead of saying anything ("The information is
    incorporated herein by reference to Note 19", "See Item 7")."""
    return bool(_POINTER.search(sentence))
