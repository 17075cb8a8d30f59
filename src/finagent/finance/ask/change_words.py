"""The question's words about change and comparison, read once.

What the ask is about (a year-over-year change, a CAGR, a trend) and which comparisons the answer
computes (``compare.Wanted``) both come from this one reading, so they cannot disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

_I = re.IGNORECASE

ChangeKind = Literal["yoy", "qoq", "cagr", "trend", "change"]

_YOY = re.compile(
    r"\byear[- ]over[- ]year\b|\byoy\b|\by/y\b|\ba\s+year\s+(?:earlier|ago|before)\b"
    r"|\b(?:the\s+)?(?:prior|previous|preceding)[- ](?:fiscal\s+)?year\b"
    r"|\bthe\s+(?:fiscal\s+)?year\s+before\b"
    r"|\b(?:same|corresponding|comparable|equivalent)\s+(?:fiscal\s+)?(?:quarter|period)\b|\byear[- ]ago\b",
    _I,
)
_QOQ = re.compile(r"\bquarter[- ]over[- ]quarter\b|\bqoq\b|\bq/q\b|\bsequential(?:ly)?\b", _I)
_CAGR = re.compile(r"\bcagr\b|\bcompound(?:ed)?\s+annual\b|\bannuali[sz]ed\s+(?:[\w-]+\s+){0,2}?growth\b", _I)
_TREND = re.compile(
    r"\btrend\w*\b|\bevol(?:ve|ved|ving|ution)\b|\bfluctuat\w*\b|\bprogress\w*\b"
    r"|(?<!research and )(?<!research & )\bdevelop(?:ed|ment)?\b"  # "research and development" is a line
    r"|\bshift\w*\b|\bmov(?:e|ed|ement)\b|\bvar(?:y|ied|iation)\b|\bover\s+time\b|\bthrough\s+the\b"
    r"|\bfrom\s+(?:quarter|year|period)\s+to\s+(?:quarter|year|period)\b|\btrajectory\b|\bpattern\b",
    _I,
)
_CHANGE = re.compile(
    r"\bgr[eo]w(?:th|n|s|ing)?\b|\bchang\w*\b|\bincreas\w*\b|\bdecreas\w*\b|\bdeclin\w*\b|\bdrop\w*\b"
    r"|\brise|rose|risen\b|\bfell\b|\bfall\w*\b|\bsince\b|\bfrom\s+\S+\s+to\b",
    _I,
)
# Words that set periods side by side, so their comparative columns belong in the answer ("grew",
# "compared with", "over the quarters"), whether or not the ask itself is a change.
_COMPARATIVE = re.compile(
    r"\bgr[eo]w(?:th|n|s|ing)?\b|\bchang\w*\b|\bincreas\w*\b|\bdecreas\w*\b|\bdeclin\w*\b|\btrend\w*\b"
    r"|\bevolv\w*\b|\bmov(?:e|ed)\b|\bover (?:the|these|those) (?:quarters|years|periods)\b"
    r"|\bcompar\w* (?:with|to|against)\b|\bsince\b|\bfrom \S+ to\b",
    _I,
)
_COMPARING = re.compile(
    r"\bwhich\b|\bhighest\b|\blowest\b|\blargest\b|\bsmallest\b|\bmost\b|\bleast\b|\brank\w*\b"
    r"|\bcompar\w*\b|\bmore\b|\bless\b|\bbigger\b|\bhigher\b|\blower\b|\bvs\.?\b|\bversus\b|\bleads?\b",
    _I,
)
_HOW_MUCH_APART = re.compile(
    r"\bhow much (?:more|less|higher|lower|bigger|larger|smaller)\b|\bdifference\b|\bgap\b|\bexceed\w*\b"
    r"|\boutpac\w*\b|\bby how much\b",
    _I,
)


# Any word asking a change, of whatever kind: where it stands says which metric it is about.
CHANGE_ASKED = re.compile("|".join(p.pattern for p in (_CAGR, _QOQ, _YOY, _TREND, _CHANGE)), _I)


@dataclass(frozen=True, slots=True)
class ChangeWords:
    """The question's words about change and comparison, read once: the ask's change and the
    comparisons the answer computes both come from this one reading."""

    cagr: bool = False
    qoq: bool = False
    yoy: bool = False
    trend: bool = False
    change: bool = False
    comparative: bool = False
    """Periods set side by side ("grew", "compared with"): their comparative columns are shown."""
    rank: bool = False
    difference: bool = False


def read_change_words(question: str) -> ChangeWords:
    """Which change and comparison words the question uses."""
    text = question.replace("’", "'")
    return ChangeWords(
        cagr=bool(_CAGR.search(text)),
        qoq=bool(_QOQ.search(text)),
        yoy=bool(_YOY.search(text)),
        trend=bool(_TREND.search(text)),
        change=bool(_CHANGE.search(text)),
        comparative=bool(_COMPARATIVE.search(text)),
        rank=bool(_COMPARING.search(text)),
        difference=bool(_HOW_MUCH_APART.search(text)),
    )
