"""What a question asks of the parts of a whole: which parts (segments, regions, categories, the
liabilities), ranked by what (their level, their change on a year earlier, their share of the total),
which end, and the words that name the whole.

"Which region had the biggest drop in revenues?", "What was the largest liability on the balance
sheet?", "Are there categories that make up more than 20% of revenue?" are read here, once, into a
``PartsAsk``; the parts themselves are found and ranked by ``part_blocks``. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from finagent.finance.words import (
    BETTER_FORMS,
    FALL_NOUNS,
    FALL_VERBS,
    RISE_NOUNS,
    RISE_VERBS,
    alternation,
    every_form,
)

_I = re.IGNORECASE

RankBy = Literal["level", "change", "share", "list"]

_NOUN = (
    r"(?:(?:reportable|operating|business|geographic(?:al)?|product|service|revenue)\s+)?"
    r"(?:segments?|regions?|geograph(?:y|ies)|areas?|categor(?:y|ies)|liabilit(?:y|ies)|assets?"
    r"|divisions?|business(?:es)?|units?|markets?|brands?|lines?)"
)

_WHICH = re.compile(rf"\b(?:which|what)\b(?:\s+[\w&.,'’()/-]+){{0,8}}?\s+(?P<noun>{_NOUN})\b", _I)

_SHARE = re.compile(
    r"\b(?:represent\w*|accounts?\s+for|accounted\s+for|makes?\s+up|made\s+up|comprise\w*|contribut\w*)"
    r"\s+(?:more|greater|over|above)\s+(?:than\s+)?(?P<pct>\d+(?:\.\d+)?)\s*(?:%|percent)",
    _I,
)

# "What are the geographies that American Express operates in?": the parts listed, not ranked
_LIST = re.compile(
    rf"\b(?:what|which)\s+(?:are|were)\s+(?:the\s+)?(?:(?:main|key|principal|primary|major)\s+)?"
    rf"(?P<noun>{_NOUN})\b"
    rf"|\b(?:what|which)\s+(?P<noun2>{_NOUN})\s+(?:does|do|did)\b",
    _I,
)

_LISTED_NOUNS = ("segment", "region", "geograph", "market", "division", "business", "categor")

_HOW_MUCH = re.compile(r"\bhow\s+(?:much|many)\b", _I)  # a figure is asked; the parts are not its answer

_LISTED_WHOLE = ("reven",)  # a list of regions or segments shows each one's revenue

# "Among operations, investing, and financing activities, which brought in the most cash?"
_AMONG = re.compile(r"\bamong\s+(?:the\s+)?(?P<list>[^?]+?)\s*,?\s*\b(?:which|what)\b", _I)

# "Which product category drove Apple's net sales change?", "which of its segments contributed most"
_DRIVER = re.compile(
    rf"\b(?:which|what)\b(?:\s+[\w&.,'’()/-]+){{0,3}}?\s+(?P<noun>{_NOUN})\b(?:\s+[\w&.,'’()/-]+){{0,3}}?\s+"
    r"(?:drove|drives?|driving|driven|contribut\w*|accounted|accounts|(?:was|were|is|are)\s+(?:the\s+)?"
    r"(?:main\s+|biggest\s+|largest\s+|primary\s+)?(?:behind|driver|contributor|responsible)|explains?|explained)\b",
    _I,
)

_SHARE_NOUN = re.compile(rf"\b(?P<noun>{_NOUN})\b", _I)

# Lower case only: "Best Buy" names a company, "the best" ranks.
_HIGH = re.compile(r"\b(?:largest|highest|biggest|greatest|most|top|best|strongest|leading|maximum)\b")

_LOW = re.compile(r"\b(?:smallest|lowest|least|worst|weakest|minimum)\b")

# "Which region fell the most?" ranks falls; any other change ("grew", "improved", "performed") rises.
_DOWN = re.compile(rf"\b(?:{alternation((*every_form(FALL_VERBS), *FALL_NOUNS))})\b", _I)

_CHANGE = re.compile(
    rf"\b(?:{alternation((*every_form(RISE_VERBS), *RISE_NOUNS, *BETTER_FORMS))}|perform\w*|chang\w*)\b", _I
)

_STEM_STOP = frozenset(
    {
        *("which", "what", "were", "was", "the", "had", "has", "have", "for", "during", "year", "quart"),
        *("fisca", "and", "its", "their", "that", "there", "any", "are", "than", "more", "perce", "total"),
        *("basis", "based", "compa", "repor", "over", "from", "with", "this", "those", "these", "net"),
        *("sheet", "state", "balan", "compar", "same", "prior", "year-", "repre", "durin", "as-of"),
    }
)

# Words a question uses for the line a table prints under another name.
_SYNONYMS = {"sales": "reven", "topli": "reven", "turno": "reven", "earni": "incom", "profi": "incom"}


@dataclass(frozen=True, slots=True)
class PartsAsk:
    """A ranking of the parts of one company's whole: ``noun`` names the parts ("region"), ``by``
    what ranks them (the level, the change on a year earlier, or the share of the total, above
    ``share_over`` percent; a list is every part by its share of revenue), ``highest`` which end is
    asked, ``measure`` the question's word stems that name the whole ("reven", "liabi")."""

    noun: str
    by: RankBy
    highest: bool
    measure: tuple[str, ...]
    share_over: float | None = None
    query: str = ""  # the search for the table of parts
    named: tuple[str, ...] = ()  # the parts the question names ("opera", "inves", "finan"), if it does


def read_parts_ask(question: str) -> PartsAsk | None:
    """The parts ranking a question asks for, or None when it asks none."""
    text = question.replace("’", "'")
    among = _AMONG.search(text)
    named = _named(among.group("list")) if among else ()
    if among and named and (_HIGH.search(text) or _LOW.search(text)):
        measure = tuple(s for s in _measurepart_stems(text, "") if s not in named)
        low = _LOW.search(text) is not None and _HIGH.search(text) is None
        query = f"{_query(text, 'x', measure).removesuffix(' by x')} {among.group('list')}"
        return PartsAsk("item", "level", not low, measure, query=query, named=named)
    share = _SHARE.search(text)
    listing = _LIST.search(text)
    if listing and not share and not (_HIGH.search(text) or _LOW.search(text) or _DOWN.search(text)):
        noun = (listing.group("noun") or listing.group("noun2")).lower().split()[-1]
        if noun.startswith(_LISTED_NOUNS) and noun.endswith("s") and not _HOW_MUCH.search(text):
            return PartsAsk(noun, "list", True, _LISTED_WHOLE, query=f"revenue by {noun}")
    noun_match = _SHARE_NOUN.search(text) if share else _WHICH.search(text)
    if noun_match is None or (share is None and not (_HIGH.search(text) or _LOW.search(text))):
        return None
    noun = noun_match.group("noun").lower().split()[-1]
    measure = _measurepart_stems(text, noun)
    query = _query(text, noun_match.group("noun").lower(), measure)
    if share is not None:
        return PartsAsk(noun, "share", True, measure, float(share.group("pct")), query)
    low = _LOW.search(text) is not None and _HIGH.search(text) is None
    if _DOWN.search(text):  # "the biggest drop" is the lowest change, "the smallest drop" the highest
        return PartsAsk(noun, "change", low, measure, query=query)
    if _CHANGE.search(text):
        return PartsAsk(noun, "change", not low, measure, query=query)
    return PartsAsk(noun, "level", not low, measure, query=query)


def driver_noun(question: str) -> str | None:
    """The kind of part a question asks to have driven a change ("which product category drove ...":
    "category"), or None."""
    found = _DRIVER.search(question.replace("’", "'"))
    return found.group("noun").lower().split()[-1] if found else None


def _named(listed: str) -> tuple[str, ...]:
    """The stems of the parts a question lists ("operations, investing, and financing activities")."""
    items = [i.strip() for i in re.split(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", listed) if i.strip()]
    stems = tuple(dict.fromkeys(_stem(i.split()[0]) for i in items))
    return stems if len(stems) >= 2 else ()


def _query(text: str, parts: str, measure: Sequence[str]) -> str:
    """The search for the table of parts: the whole's own words by the parts' kind ("revenues by
    geographic region"); a liability's or an asset's is the balance sheet's total."""
    if parts.startswith("liabil"):
        return "total liabilities balance sheet"
    if parts.startswith("asset"):
        return "total assets balance sheet"
    stems = set(measure) - {_stem(parts.split()[-1])}
    text = re.sub(r"\btop[\s-]line\b", "topline", text)
    # lower-case words only: a company's name is capitalised ("Pfizer"), the whole's is not
    words = [
        {"reven": "revenue", "incom": "income"}.get(_stem(w), w) if w[:5] in _SYNONYMS else w
        for w in re.findall(r"\b[a-z][a-z-]{2,}\b", text)
        if _stem(w) in stems
    ]
    whole = " ".join(dict.fromkeys(words)) or "revenue"
    return f"{whole} by {parts}"


def _stem(word: str) -> str:
    stem = word.lower()[:5]
    return _SYNONYMS.get(stem, stem)


_RANKING_WORDS = re.compile(rf"{_HIGH.pattern}|{_LOW.pattern}|{_DOWN.pattern}|{_CHANGE.pattern}", _I)


def _measurepart_stems(text: str, noun: str) -> tuple[str, ...]:
    """The stems that may name the whole: every content word but the ranking's own; a liability or an
    asset is its own whole."""
    stems = part_stems(_RANKING_WORDS.sub(" ", text.lower().replace("top line", "topline"))) - _STEM_STOP
    stems -= {_stem(w) for w in _NOUN_WORDS if not w.startswith(("liabil", "asset"))}
    return tuple(sorted(stems | ({_stem(noun)} if noun.startswith(("liabil", "asset")) else set())))


_NOUN_WORDS = (
    *("segment", "region", "geographic", "geography", "area", "category", "categories", "division"),
    *("business", "unit", "market", "brand", "line", "product", "service", "reportable", "operating"),
)


def part_stems(label: str) -> set[str]:
    """The five-letter stems of a label's words, a question's synonyms read as the table's line
    ("sales" is "reven"): how a question's words and a table's rows are compared."""
    return {_stem(w) for w in re.findall(r"[a-z][a-z-]{2,}", label.lower())}
