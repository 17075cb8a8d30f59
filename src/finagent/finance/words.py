"""How figures are written in filings and answers: scale words, statement unit captions, and the
words that say a change went up or down. One vocabulary for every reader and checker of figures."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

SCALE_EXPONENTS: dict[str, int] = {
    "thousand": 3,
    "k": 3,
    "million": 6,
    "mn": 6,
    "m": 6,
    "billion": 9,
    "bn": 9,
    "b": 9,
    "trillion": 12,
    "tn": 12,
    "t": 12,
}
"""A figure's written scale ("$4.2 billion", "$350m") as a power of ten: the one table of scale words,
from which the others here are made."""

SCALE_WORDS: dict[str, float] = {word: 10.0**exponent for word, exponent in SCALE_EXPONENTS.items()}
"""A written scale's multiplier ("billion": 1e9)."""

SCALE_NAMES: dict[int, str] = {3: "thousand", 6: "million", 9: "billion", 12: "trillion"}
"""The word a power of ten is written with (6: "million")."""

UNIT_SCALES: dict[str, float] = {f"USD {SCALE_NAMES[e]}s": 10.0**e for e in (3, 6, 9)}
"""The units statement tables are read in, and what one of them is in dollars."""

UNIT_CAPTION = re.compile(r"\bin (thousands|millions|billions)\b|\((thousands|millions|billions)\)", re.I)
"""A statement's unit caption: "(in millions)", "(Millions, except per share amounts)"."""

UP_WORDS = re.compile(
    r"\b(?:increas\w*|rose|ris(?:e|es|ing)|gr[eo]w\w*|up|higher|gain\w*|jump\w*|climb\w*|expand\w*)\b", re.I
)
DOWN_WORDS = re.compile(
    r"\b(?:decreas\w*|declin\w*|fell|fall\w*|drop\w*|down|lower|shr[ai]nk\w*|slipp\w*|contract(?:ed|ing|ion))\b",
    re.I,
)

LOWER_IS_BETTER = re.compile(
    r"(?<![a-z])(?:cost|expens|debt|liabilit|loss|leverage|borrow|sga|tax|payable|deficit|days|spend)", re.I
)
"""Lines whose fall is an improvement ("improved" debt went down), in a metric's key ("long_term_debt")
or in words ("operating expenses", "days sales outstanding")."""


def rise_is_better(line: str) -> bool:
    """A rise of the line (a metric's key or words) is an improvement: not a cost, a debt or days."""
    return not LOWER_IS_BETTER.search(line)


def table_unit(text: str) -> str:
    """ "USD millions" for a table captioned "(in millions)"; "other" when no caption names a scale."""
    match = UNIT_CAPTION.search(text)
    return f"USD {(match.group(1) or match.group(2)).lower()}" if match else "other"


_LINE_WORD = re.compile(r"[a-z]{4,}")
_GENERIC_LINE_WORDS = frozenset({"total", "other", "amount", "value"})


def line_words(label: str) -> set[str]:
    """A line's telling words, stemmed to five letters ("Cash income taxes paid": cash, incom, taxes,
    paid); "total", "other", "amount", "value" and short words tell nothing."""
    return {w[:5] for w in _LINE_WORD.findall(label.lower()) if w not in _GENERIC_LINE_WORDS}


def names_line(label: str, text: str) -> bool:
    """``text`` names most of a line's words ("Cash income taxes paid": at least two of four)."""
    words = line_words(label)
    said = {w[:5] for w in _LINE_WORD.findall(text.lower())}
    return bool(words) and 2 * len(words & said) >= len(words)


NAME_ABBREVIATIONS = ("Inc", "Corp", "Co", "Ltd", "vs")
"""Abbreviations whose period ends no sentence ("Apple Inc. (“Apple”) issued"), in filings and answers."""

SENTENCE_BREAK = re.compile(
    r"(?:(?<=[.!?])|(?<=[.!?][\"”’]))(?<!\b[A-Z]\.)"
    + "".join(rf"(?<!\b{word}\.)" for word in (*NAME_ABBREVIATIONS, "No", "Mr", "Ms", "Dr"))
    + r"\s+"
)
"""The space between two sentences of a filing or an answer: after . ! or ? (or a quotation closed
right after one: “… this milestone.” Kenvue …), but not after an abbreviation of a name
("Apple Inc. (“Apple”) issued", "U.S. Bancorp") or an initial ("Mary N. Dillon")."""


def split_sentences(text: str) -> list[str]:
    """The sentences of a filing's or an answer's text, cut at SENTENCE_BREAK only: every reader that
    checks or quotes sentence by sentence cuts them alike (a naive cut after "Inc." left "reported
    revenue of …" naming no company, so another company's figure passed)."""
    return SENTENCE_BREAK.split(text)


MONTH_NAMES = frozenset(
    "january february march april may june july august september october november december".split()
)
_NAME = re.compile(r"(?<=\s)[A-Z][A-Za-z]{2,}\b")


def names_in(text: str) -> list[str]:
    """The names a text gives: capitalised words inside it, not its first word, not a month ("Google
    Cloud", "Services", "EBITDA" in "What drove Google Cloud revenue growth in Alphabet's 10-K?")."""
    return [name for name in _NAME.findall(text.strip(" -*\n\t")) if name.lower() not in MONTH_NAMES]


_PERIOD_WORD = r"(?!(?:FY|CY|Q[1-4]|H[12])\s?(?:\d{2}|\d{4})?\b)"  # "FY2020 revenue" names a period
_LINE_NAME = re.compile(
    rf"((?:\b{_PERIOD_WORD}[A-Z][\w&\-]*\s+)+)(?:(?:segment|business|division)\s+)?(?:net\s+)?"
    r"(?:revenues?|sales)\b"
)


# A part written in lower case is read after an owner ("NVIDIA's data center revenue", "its cloud
# sales"); these words only qualify the whole company's figure, or name another metric.
_OWNED_LINE = re.compile(
    r"(?:'s|\bits|\btheir)\s+((?:[a-z][A-Za-z&\-]*\s+){1,3}?)(?:(?:segment|business|division)\s+)?"
    r"(?:net\s+)?(?:revenues?|sales)\b"
)
_NOT_A_PART = frozenset(
    """
    total net gross overall consolidated reported quarterly annual yearly fiscal full-year full year
    quarter half-year comparable same-store organic adjusted gaap non-gaap operating combined company
    group first second third fourth latest recent most last next prior previous current new record
    deferred unearned interest noninterest non-interest recognized own reported entire whole top-line
    revenue revenues sales from of in for by on and or to the a an with was were is are did does has
    """.split()
)


def line_names(text: str) -> list[str]:
    """The named parts of a company whose revenue a text asks about: the capitalised words right before
    "revenue" or "sales" ("Google Cloud revenue", "its Services net sales", "Amazon Web Services
    segment sales"), or lower-case ones after an owner ("NVIDIA's data center revenue"); not the text's
    first word ("Did"), nor words that only qualify the whole ("its total net sales", "Apple's
    quarterly revenue"). A company's own name among them is told apart later, by whoever knows it."""
    body = text.strip().replace("’", "'")
    body = body[:1].lower() + body[1:]
    named = [" ".join(match.group(1).split()) for match in _LINE_NAME.finditer(body)]
    for match in _OWNED_LINE.finditer(body):
        words = match.group(1).split()
        if not any(word in _NOT_A_PART for word in words):
            named.append(" ".join(words))
    return list(dict.fromkeys(named))


def parts_named(lines: Sequence[str], names: Mapping[str, Sequence[str]]) -> list[str]:
    """``lines`` that are not only a company's own ticker or name ("Walmart sales" names no part of
    Walmart); ``names``: ticker -> the company's names."""
    companies = [*names, *(name for aliases in names.values() for name in aliases)]
    own = {word.lower() for name in companies for word in re.findall(r"[\w&\-]+", name)}
    return [line for line in lines if any(word.lower() not in own for word in line.split())]
