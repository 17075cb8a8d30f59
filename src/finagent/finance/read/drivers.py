"""What drove a line: the sentences of a filing that explain the change of the line asked, and only it.

An MD&A paragraph explains several lines in a row ("Net sales increased … due to comparable sales
growth. Gross profit rate decreased … due to … . Operating expenses … increased … . The increase was
primarily due to marketing expenses."). A question about one line wants the sentences whose subject
is that line (or a part of it) and that give a cause; a sentence about the next line is not a driver
of this one, even when it shares the words. A sentence whose subject is only "The increase" or "It"
is about what the sentence before it was about, and is quoted with that sentence so a reader sees
what increased.

Which line a sentence is about is the first line its subject names (the words before its cause), by
the line registry's own question words; the longest of two names starting together wins ("gross
profit" over "profit", "cost of sales" over "sales").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from finagent.finance.line_item import LineItem
from finagent.finance.lines import LINES
from finagent.finance.words import split_sentences

CAUSE = re.compile(
    r"\b(?:driven\s+(?:primarily\s+|mainly\s+|largely\s+)?by|due\s+(?:primarily\s+|mainly\s+|largely\s+)?to"
    r"|because\s+of|as\s+a\s+result\s+of|(?:a|the)\s+result\s+of|result(?:ed|ing)?\s+from"
    r"|attributable\s+to|attributed\s+to|caused\s+by|reflect(?:s|ed|ing)?|primarily\s+from|owing\s+to"
    r"|led\s+by|offset\s+by|primarily\s+related\s+to)\b",
    re.I,
)
"""The connectives by which a sentence gives a cause of a line's change."""

_ANAPHORIC_SUBJECT = re.compile(
    r"^\s*(?:(?:the|this|these|that|those|such)\s+(?:year[- ]over[- ]year\s+|overall\s+)?"
    r"(?:increases?|decreases?|declines?|growth|rises?|improvements?|changes?|reductions?|drops?"
    r"|deterioration|expansion|contraction|favorability|unfavorability)\b"
    r"|(?:it|this|these|they)\b)",
    re.I,
)
"""A subject that names no line itself: what it is about is said by the sentence before."""

_YEAR = r"((?:19|20)\d{2})"
_NAMED_YEAR = re.compile(
    rf"\b(?:fiscal(?:\s+year)?|FY)\s?'?(\d{{4}})\b"  # "fiscal 2024", "FY2024"
    rf"|\b(?:in|for|during)\s+{_YEAR}\b(?![-/,]\d)"  # "increased in 2021" (not a date's "in 2021-05")
    rf"|\b{_YEAR}\s+(?:as\s+)?(?:compared|versus|vs\.?)\b",  # "2021 compared to 2020"
    re.I,
)
_BASE_YEAR = re.compile(
    rf"\b(?:compared\s+(?:to|with)|versus|vs\.?|from)\s+(?:the\s+)?(?:(?:fiscal(?:\s+year)?|FY)\s?'?)?{_YEAR}\b",
    re.I,
)
"""The year a change is measured from ("… compared to 2020", "… from fiscal 2023"): not what the
sentence is about."""
_LINE_WORDS = tuple(
    (line, re.compile(rf"(?<![\w-])(?:{line.question})(?![\w-])", re.I)) for line in LINES if line.question
)


@dataclass(frozen=True, slots=True)
class Driver:
    """A sentence giving a cause of the line's change, with the sentence before it when its subject
    ("The increase") is only named there."""

    sentence: str
    position: int
    lead: str = ""
    explains: str = ""
    """For a cause's own driver, the cause it explains ("comparable sales", a cause of net sales)."""

    @property
    def quoted(self) -> str:
        """What is quoted: the lead and the sentence, so the quote says what changed."""
        return f"{self.lead} {self.sentence}".strip() if self.lead else self.sentence


def line_named(text: str) -> LineItem | None:
    """The line the text names first (the longest name where two start together), or None."""
    found = [
        (match.start(), -(match.end() - match.start()), index, line)
        for index, (line, words) in enumerate(_LINE_WORDS)
        if (match := words.search(text))
    ]
    return min(found)[3] if found else None


def subject_of(sentence: str) -> str:
    """The words before the sentence's cause (its subject and verb): what the sentence explains."""
    cause = CAUSE.search(sentence)
    return sentence[: cause.start()] if cause else sentence


def opens_referring_back(text: str) -> bool:
    """A passage whose first sentence gives a cause of what only the sentence before it names ("The
    increases were primarily due to …"): that sentence is in the passage before."""
    first = next((s for s in split_sentences(" ".join(text.split()), capital_next=True) if s.strip()), "")
    return bool(CAUSE.search(first)) and bool(_ANAPHORIC_SUBJECT.match(subject_of(first)))


def _about(sentence: str, before: str | None) -> tuple[LineItem | None, str]:
    """(the line the sentence explains, the sentence before it when that is where the line is named)."""
    subject = subject_of(sentence)
    named = line_named(subject)
    if named is not None or not _ANAPHORIC_SUBJECT.match(subject) or not before:
        return named, ""
    return line_named(subject_of(before)), before


def _another_year(sentence: str, year: int | None) -> bool:
    """The sentence names years and not the one asked ("For fiscal 2024, …" in the 2025 10-K; "…
    increased in 2021 compared to 2020" in the 2022 10-K, which discusses both years)."""
    about = _BASE_YEAR.sub(" ", sentence)
    named = {int(y) for found in _NAMED_YEAR.findall(about) for y in found if y}
    return bool(year and named) and year not in named


def drivers_of(
    text: str,
    line: LineItem,
    *,
    parts: Sequence[str] = (),
    year: int | None = None,
    before: str | None = None,
) -> list[Driver]:
    """The sentences of ``text`` that give a cause of ``line``'s change (or of a part the question
    names: "Services net sales"), for the fiscal year asked when one is, in the text's order; then
    those that give a cause of one of these causes (``causes_named``: "comparable sales growth was
    driven by growth in transactions"), marked with the cause they explain. ``before`` is the
    sentence the text follows (a passage may open on "The increases were primarily due to …")."""
    sentences = [s.strip() for s in split_sentences(" ".join(text.split()), capital_next=True) if s.strip()]
    found = _explaining(sentences, line, parts, year, before)
    causes = [c for d in found for c in causes_named(d.sentence) if line_named(c) is None]
    held = {d.position for d in found}
    for cause in dict.fromkeys(causes):
        deeper = _explaining(sentences, None, [cause], year, before)
        found += [Driver(d.sentence, d.position, d.lead, cause) for d in deeper if d.position not in held]
        held |= {d.position for d in deeper}
    return found


def _explaining(
    sentences: Sequence[str],
    line: LineItem | None,
    parts: Sequence[str],
    year: int | None,
    opening_before: str | None = None,
) -> list[Driver]:
    """The sentences giving a cause of ``line`` or of a part named, with their leads."""
    part_words = [re.compile(rf"(?<!\w){re.escape(p)}(?!\w)", re.I) for p in parts if p.strip()]
    found: list[Driver] = []
    for position, sentence in enumerate(sentences):
        if not CAUSE.search(sentence) or _another_year(sentence, year):
            continue
        before = sentences[position - 1] if position else opening_before
        about, lead = _about(sentence, before)
        subject = subject_of(lead or sentence)
        if (line is not None and about == line) or any(p.search(subject) for p in part_words):
            found.append(Driver(sentence, position, lead))
    return found


_CHANGE_HEAD = re.compile(
    r"^(?:(?:primarily|mainly|largely|partially|in\s+part)\s+)?(?:(?:the|an?)\s+)?"
    r"(?:(?:increases?|decreases?|declines?|growth|higher|lower|improvements?|reductions?|strong(?:er)?)"
    r"\s+(?:in\s+)?)?",
    re.I,
)
_CAUSE_END = re.compile(r"\s+(?:of|and|for|in|from|across|at|on|which|that|as|compared|partially)\b|[,;.(]")
MAX_CAUSE_WORDS = 4


def causes_named(sentence: str) -> list[str]:
    """The causes a driver names right after its connective, as a line or a measure is named
    ("due to increases in comparable sales of 4.8%" -> "comparable sales"): a phrase of a few words,
    none when what follows is a clause."""
    found = []
    for match in CAUSE.finditer(sentence):
        rest = _CHANGE_HEAD.sub("", sentence[match.end() :].strip())
        end = _CAUSE_END.search(rest)
        phrase = (rest[: end.start()] if end else rest).strip()
        if phrase and len(phrase.split()) <= MAX_CAUSE_WORDS and re.search(r"[a-z]{3}", phrase, re.I):
            found.append(phrase)
    return found
