"""What changed between two filings' same part: risk-factor headings added, removed and reworded, legal
matters newly or no longer described, and a 10-Q's own word that nothing material changed.

A 10-K sets out each risk factor under a one-sentence heading (bold in the filing, a paragraph of its
own in the stored text) and each legal matter under a short title ("Epic Games"). Two filings of the
same kind are compared heading by heading: the same heading in both is unchanged, a close one
reworded (by text similarity), the rest added or removed. A 10-Q's Part II Item 1A usually only
refers to the annual report's risk factors and says there were no material changes: that sentence is
the answer to what changed. Pure: the text in, the changes out; no store, no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from finagent.finance.words import split_sentences

# A change across filings: "how have the risk factors changed", "what new risk factors did it add",
# "how have they evolved over the reporting periods", "compared with the prior 10-K".
_CHANGE_CUE = re.compile(
    r"\bchang(?:e|es|ed|ing)\b|\bevol(?:ve|ves|ved|ving|ution)\b|\bdiffer\w*|\bshift(?:s|ed)?\b"
    r"|\bupdat\w+|\brevis\w+|\b(?:add|adds|added|remove|removes|removed|drop|drops|dropped)\b"
    r"|\bnew(?:ly)?\b(?:\s+\w+){0,2}\s+(?:risks?|legal|lawsuits?|litigation|matters|proceedings|cases"
    r"|claims|investigations)\b"
    r"|\bno\s+longer\b"
    r"|\b(?:compared?|versus|vs\.?|since)\s+(?:with\s+|to\s+)?(?:the|its|their)\s+(?:prior|previous|last"
    r"|earlier|preceding)\b",
    re.I,
)
ANNUAL_KINDS = frozenset({"10-K", "annual_report"})
EVENT_KINDS = frozenset({"8-K"})
# Parts of a report a change question compares, by their topic names (finance.read.filing_sections).
COMPARED_TOPICS = ("risk factors", "legal proceedings", "cover page")


def asks_filing_changes(question: str, topics: Sequence[str]) -> tuple[str, ...]:
    """The topics whose change across filings the question asks about ("how have Apple's risk factors
    changed"), in order; none when it asks no change or names no such topic."""
    if not _CHANGE_CUE.search(question):
        return ()
    return tuple(t for t in topics if t in COMPARED_TOPICS)


@dataclass(frozen=True, slots=True)
class Passage:
    """One stored chunk of a filing's part, with where it sits in the filing's text."""

    chunk_id: int
    text: str
    char_start: int
    char_end: int


@dataclass(frozen=True, slots=True)
class FilingPart:
    """One filing's part (its risk factors, its legal proceedings): its chunks in the filing's order."""

    document_id: int
    kind: str
    label: str
    """How the answer names the filing: "10-K for FY2023"."""
    fiscal_year: int | None
    fiscal_quarter: int | None
    period_end: str
    """ISO day the filing's period ended ("" when unknown): filings are ordered by it."""
    section: str
    passages: tuple[Passage, ...]

    @property
    def annual(self) -> bool:
        return self.kind in ANNUAL_KINDS


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading of a filing's part and the chunk it is read from (its citation)."""

    text: str
    chunk_id: int


@dataclass(frozen=True, slots=True)
class Changes:
    """Headings of the later filing against the earlier one."""

    added: list[Heading] = field(default_factory=list)
    removed: list[Heading] = field(default_factory=list)
    reworded: list[tuple[Heading, Heading]] = field(default_factory=list)
    """(earlier, later) pairs: the same heading, worded differently."""
    unchanged: int = 0


def part_lines(part: FilingPart) -> list[Heading]:
    """The part's paragraphs in order, each with the chunk it is in: overlapping chunks are stitched
    by their place in the filing's text, so a paragraph two chunks share is read once."""
    lines: list[list[Any]] = []  # [text, chunk id]: a paragraph's rest may follow in the next chunk
    end = -1
    for passage in sorted(part.passages, key=lambda p: p.char_start):
        skip = max(0, end - passage.char_start)
        if skip >= len(passage.text):
            continue
        pieces = passage.text[skip:].split("\n")
        if skip and lines:  # the rest of a paragraph the previous chunk cut
            lines[-1][0] += pieces.pop(0)
        lines += [[piece, passage.chunk_id] for piece in pieces]
        end = max(end, passage.char_end)
    return [Heading(text.strip(), chunk_id) for text, chunk_id in lines if text.strip()]


_BULLET = re.compile(r"^[•●▪◦·\-–*]\s*")
_SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*$")
# Paragraphs that continue a risk's discussion, never open one.
_BODY_OPENERS = re.compile(
    r"^(?:while|although|however|in addition|additionally|for example|for instance|as a result"
    r"|accordingly|moreover|furthermore|also|these|this|such|see|refer|please|the following|other"
    r"|in particular|specifically|similarly|likewise|therefore|thus|because of this)\b"
    r"|^\S+(?:\s+\S+)?\s+also\b",  # "The Company also produces …"
    re.I,
)
# A risk factor's heading says what could go wrong.
_RISK_WORDS = re.compile(
    r"\b(?:could|may|might|can|cannot|will|would|adverse\w*|harm\w*|risks?|depend\w*|subject to"
    r"|affect\w*|impact\w*|expos\w*|fail\w*|uncertain\w*|volatil\w*|fluctuat\w*|litigation|liabilit\w*"
    r"|declin\w*|loss(?:es)?|reduc\w*|disrupt\w*|damag\w*|challeng\w*|competi\w*|threat\w*|must)\b",
    re.I,
)
HEADING_CHARS = (30, 350)
TITLE_CHARS = 120  # longer than a title: a paragraph
DISCUSSION_CHARS = HEADING_CHARS[1]  # a one-sentence paragraph longer than a heading discusses


def _cut(paragraph: str) -> bool:
    """A paragraph that stops mid-sentence (a page break cut it), not a title ("Business Risks")."""
    return len(paragraph) > TITLE_CHARS and not re.search(r"[.!?:;][\"'”’)\]]*$", paragraph)


def _titled(line: str) -> bool:
    """A heading in title case ("We Face Intense Competition"): its longer words capitalised."""
    long_words = [w for w in line.split() if len(w) > 3]
    return len(line.split()) > 2 and sum(w[0].isupper() for w in long_words) >= 0.8 * len(long_words)


def _one_sentence(line: str) -> bool:
    return len([s for s in split_sentences(line) if s.strip()]) == 1


def is_risk_heading(line: str, before: str | None, after: str | None) -> bool:
    """A risk factor's heading: one sentence (or a title) of its own saying what could go wrong, opening a
    discussion (a paragraph follows), not the rest of a paragraph a page break cut (the paragraph
    before it ends a sentence), not a list item, not a paragraph that continues the discussion."""
    low, high = HEADING_CHARS
    if after is None or _BULLET.match(line) or not low <= len(line) <= high:
        return False
    if not (line[0].isupper() or line[0] in "\"“'‘") or not (_SENTENCE_END.search(line) or _titled(line)):
        return False
    if before is not None and _cut(before):
        return False  # a paragraph cut by a page: this is its rest
    return _one_sentence(line) and not _BODY_OPENERS.match(line) and bool(_RISK_WORDS.search(line))


def risk_headings(part: FilingPart) -> list[Heading]:
    """The risk-factor headings of a filing's Item 1A, in order, each once (a summary lists them too).
    Of paragraphs in a row that each read as a heading, one is: the last followed by a discussion
    (the others close the previous risk's discussion), else the first (the others open its own)."""
    lines = part_lines(part)
    candidates = [
        is_risk_heading(
            line.text, lines[i - 1].text if i else None, lines[i + 1].text if i + 1 < len(lines) else None
        )
        for i, line in enumerate(lines)
    ]
    found: dict[str, Heading] = {}
    i = 0
    while i < len(lines):
        if not candidates[i]:
            i += 1
            continue
        run = i
        while run + 1 < len(lines) and candidates[run + 1]:
            run += 1
        opening = [k for k in range(i, run + 1) if k + 1 < len(lines) and _discussion(lines[k + 1].text)]
        chosen = lines[opening[-1] if opening else i]
        found.setdefault(normalized(chosen.text), chosen)
        i = run + 1
    return list(found.values())


def _discussion(paragraph: str) -> bool:
    """A paragraph that discusses a risk: several sentences, or a long one."""
    return len(paragraph) > DISCUSSION_CHARS or not _one_sentence(paragraph)


# A legal matter's title: a few capitalised words on a line of their own ("Epic Games", "Department of
# Justice Lawsuit"), not the Item's own heading nor a catch-all ("Other Legal Proceedings").
_MATTER_WORDS = (1, 10)
_NOT_MATTERS = re.compile(
    r"^(?:part\b|item\b|legal proceedings\b|other\b|general\b|note\b|contingencies\b|commitments\b)",
    re.I,
)


def is_matter_title(line: str, after: str | None) -> bool:
    """A short title of its own, most words capitalised, no sentence, opening a paragraph."""
    words = line.split()
    low, high = _MATTER_WORDS
    if after is None or not low <= len(words) <= high or _SENTENCE_END.search(line) or _BULLET.match(line):
        return False
    if _NOT_MATTERS.match(line) or (line.isupper() and len(words) > 6):
        return False
    capitalised = [w for w in words if w[:1].isupper() or not w[:1].isalpha()]
    return len(capitalised) * 2 > len(words) and len(after) > len(line)


def legal_matters(part: FilingPart) -> list[Heading]:
    """The titles of the legal matters a filing's legal proceedings describe, in order."""
    lines = part_lines(part)
    found: dict[str, Heading] = {}
    for i, line in enumerate(lines):
        after = lines[i + 1].text if i + 1 < len(lines) else None
        if is_matter_title(line.text, after):
            found.setdefault(normalized(line.text), line)
    return list(found.values())


def normalized(text: str) -> str:
    """A heading as compared: quotes, dashes, spacing and case alike."""
    text = text.translate(str.maketrans("’‘“”–—", "''\"\"--"))
    text = re.sub(r"[,;:()\"]", " ", _BULLET.sub("", text))
    return re.sub(r"\s+", " ", text).strip().lower()


SAME = 0.97  # above it: the same heading (a comma, a hyphen)
REWORDED = 0.6  # above it: the same risk, worded differently


def similarity(a: str, b: str, at_least: float = 0.0) -> float:
    """How alike two headings read (difflib's ratio of their normalized words, 0 to 1); 0 without the
    full comparison when the cheap upper bounds already fall short of ``at_least``."""
    matcher = SequenceMatcher(None, normalized(a).split(), normalized(b).split(), autojunk=False)
    if matcher.real_quick_ratio() < at_least or matcher.quick_ratio() < at_least:
        return 0.0
    return matcher.ratio()


def compare_headings(earlier: Sequence[Heading], later: Sequence[Heading]) -> Changes:
    """Pair each later heading with the earlier one most like it, best pairs first; a pair at least
    ``SAME`` alike is unchanged, at least ``REWORDED`` reworded; the rest are added or removed."""
    pairs = ((i, a, j, b) for i, a in enumerate(earlier) for j, b in enumerate(later))
    scored = sorted(((similarity(a.text, b.text, REWORDED), i, j) for i, a, j, b in pairs), reverse=True)
    paired_a: dict[int, tuple[int, float]] = {}
    paired_b: set[int] = set()
    for score, i, j in scored:
        if score < REWORDED:
            break
        if i not in paired_a and j not in paired_b:
            paired_a[i] = (j, score)
            paired_b.add(j)
    in_later_order = sorted(paired_a.items(), key=lambda p: p[1][0])
    reworded = [(earlier[i], later[j]) for i, (j, score) in in_later_order if score < SAME]
    return Changes(
        added=[b for j, b in enumerate(later) if j not in paired_b],
        removed=[a for i, a in enumerate(earlier) if i not in paired_a],
        reworded=reworded,
        unchanged=len(paired_a) - len(reworded),
    )


# "There have been no material changes to the Company's risk factors since the 2023 Form 10-K."
_NO_MATERIAL = re.compile(
    r"\bno material changes?\b[^.]{0,80}\b(?:risk factors?|legal proceedings?)\b"
    r"|\b(?:risk factors?|legal proceedings?)\b[^.]{0,80}\b(?:have|has) not (?:materially )?changed\b",
    re.I,
)


# Where a sentence ends and the next begins ("… Form 10-K. There have been …"), and a sentence's end.
_SENTENCE_START = re.compile(r"[.!?][\"'”’)\]]*\s+(?=[A-Z\"“])")
_SENTENCE_STOP = re.compile(r"[.!?][\"'”’)\]]*(?=\s|$)")


def no_material_changes(part: FilingPart) -> Heading | None:
    """The filing's own sentence that its part has not materially changed (a 10-Q's Part II Item 1A
    on the annual report's risk factors), else None."""
    for line in part_lines(part):
        found = _NO_MATERIAL.search(line.text)
        if found:
            starts = [m.end() for m in _SENTENCE_START.finditer(line.text, 0, found.start())]
            stop = _SENTENCE_STOP.search(line.text, found.end())
            sentence = line.text[starts[-1] if starts else 0 : stop.end() if stop else len(line.text)]
            return Heading(sentence.strip(), line.chunk_id)
    return None


Period = tuple[int, int | None]
"""An asked period: (fiscal year, fiscal quarter), the quarter None for a whole year."""


def compared_filings(
    parts: Sequence[FilingPart], named_kinds: Sequence[str], asked: Sequence[Period]
) -> list[FilingPart]:
    """The filings of one kind to compare, earliest first: those from the earliest asked period to the
    latest (the asked one and the one before it when one period is asked); an asked period the store
    holds no filing of is spanned by the nearest filing beyond it (their change covers the missing
    one); with no period asked, the latest two. The kind is the one the question names (a quarter
    asked: 10-Qs), else annual reports when two are held, else 10-Qs. One filing (or none) when the
    store holds no other of the kind."""
    filings = filings_of_kind(parts, named_kinds, asked)
    if not asked:
        return filings[-2:]
    matched = [i for i, f in enumerate(filings) if any(_reports(f, p) for p in asked)]
    span = filings[matched[0] : matched[-1] + 1] if matched else []
    earliest, latest = min(asked, key=_start), max(asked, key=_end)
    if not any(_reports(f, latest) for f in filings):
        span += [f for f in filings if _part_key(f) > _end(latest)][:1]
    if len(span) == 1 or not any(_reports(f, earliest) for f in filings):
        span = [f for f in filings if _part_key(f) < _start(earliest)][-1:] + span
    return span


def missing_filings(
    parts: Sequence[FilingPart], named_kinds: Sequence[str], asked: Sequence[Period]
) -> list[Period]:
    """The asked periods for which the store holds no filing of the compared kind, in the asked order."""
    filings = filings_of_kind(parts, named_kinds, asked)
    return [p for p in dict.fromkeys(asked) if not any(_reports(f, p) for f in filings)]


def filings_of_kind(
    parts: Sequence[FilingPart], named_kinds: Sequence[str], asked: Sequence[Period]
) -> list[FilingPart]:
    """The held filings of the kind a change question compares, earliest first (see ``compared_filings``)."""
    annual = sorted((p for p in parts if p.annual), key=_order)
    quarterly = sorted((p for p in parts if p.kind == "10-Q"), key=_order)
    if EVENT_KINDS & set(named_kinds):  # an 8-K's cover: the 8-Ks
        return sorted((p for p in parts if p.kind in EVENT_KINDS), key=_order)
    if ANNUAL_KINDS & set(named_kinds):
        return annual
    if "10-Q" in named_kinds or (quarterly and any(q is not None for _, q in asked)):
        return quarterly
    return next((f for f in (annual, quarterly) if len(f) > 1), annual or quarterly)


def _reports(part: FilingPart, period: Period) -> bool:
    """Whether a filing reports the asked period: an annual report its year, a 10-Q its quarter (any
    quarter of a year asked whole)."""
    year, quarter = period
    return part.fiscal_year == year and (quarter is None or part.annual or part.fiscal_quarter == quarter)


def _start(period: Period) -> tuple[int, int]:
    """Where an asked period starts among filings ordered by (year, quarter): a year at its first quarter."""
    return (period[0], period[1] or 1)


def _end(period: Period) -> tuple[int, int]:
    """Where an asked period ends: a year at its last quarter (its annual report)."""
    return (period[0], period[1] or 4)


def _part_key(part: FilingPart) -> tuple[int, int]:
    return (part.fiscal_year or 0, 4 if part.annual or part.fiscal_quarter is None else part.fiscal_quarter)


def _order(part: FilingPart) -> tuple[str, int, int]:
    return (part.period_end, part.fiscal_year or 0, part.fiscal_quarter or 0)


_REFERENCE = re.compile(r"^(?:please\s+)?(?:see|refer to)\b.{0,200}\bnote\b", re.I)


def refers_elsewhere(part: FilingPart) -> Heading | None:
    """The part's sentence sending the reader to the notes ("See Note 4 — Commitments and
    Contingencies"): its matters are described there, not here."""
    return next((line for line in part_lines(part) if _REFERENCE.search(line.text)), None)


@dataclass(frozen=True, slots=True)
class QuarterRisk:
    """A risk factor a 10-Q sets out: its heading, the annual report's heading it updates (None: new),
    and the sentences of its discussion the annual report's does not have (what is new in it)."""

    heading: Heading
    earlier: Heading | None
    new_sentences: list[Heading]


def asked_quarter_filing(parts: Sequence[FilingPart], asked: Sequence[Period]) -> FilingPart | None:
    """The 10-Q of the one quarter the question asks, when the store holds it (a year asked beside it
    names the annual report it is measured against): a 10-Q's Part II Item 1A states its own changes
    since that report, so it is read, not compared with another 10-Q."""
    quarters = {p for p in asked if p[1] is not None}
    if len(quarters) != 1:
        return None
    (year, quarter), *_ = quarters
    return next(
        (p for p in parts if p.kind == "10-Q" and (p.fiscal_year, p.fiscal_quarter) == (year, quarter)), None
    )


def annual_before(parts: Sequence[FilingPart], filing: FilingPart) -> FilingPart | None:
    """The latest annual report's part filed for a period before the filing's (what a 10-Q updates)."""
    earlier = [p for p in parts if p.annual and p.period_end and p.period_end < filing.period_end]
    return max(earlier, key=_order, default=None)


NEW_SENTENCE = 0.9
"""Below this likeness to every sentence of the annual report's discussion, a 10-Q's sentence is new."""


def _discussions(part: FilingPart) -> list[tuple[Heading, list[Heading]]]:
    """Each risk heading of the part with the paragraphs of its discussion (up to the next heading)."""
    headings = {normalized(h.text) for h in risk_headings(part)}
    found: list[tuple[Heading, list[Heading]]] = []
    for line in part_lines(part):
        if normalized(line.text) in headings:
            found.append((line, []))
        elif found:
            found[-1][1].append(line)
    return found


def _sentences_of(lines: Sequence[Heading]) -> list[Heading]:
    return [
        Heading(s.strip(), line.chunk_id) for line in lines for s in split_sentences(line.text) if s.strip()
    ]


def quarter_risks(filing: FilingPart, annual: FilingPart | None) -> list[QuarterRisk]:
    """The risk factors the 10-Q sets out, each paired with the annual report's heading most like it
    (reworded or the same) or none (new), with the sentences of its discussion the annual report's
    discussion of that risk lacks (all of the annual report's part, for a new one)."""
    own = _discussions(filing)
    earlier = _discussions(annual) if annual is not None else []
    found = []
    for heading, body in own:
        match = max(earlier, key=lambda e: similarity(e[0].text, heading.text), default=None)
        paired = match if match and similarity(match[0].text, heading.text) >= REWORDED else None
        before = [
            s.text for s in _sentences_of(paired[1] if paired else [line for _, b in earlier for line in b])
        ]
        new = [
            s
            for s in _sentences_of(body)
            if not any(similarity(s.text, b, NEW_SENTENCE) >= NEW_SENTENCE for b in before)
        ]
        found.append(QuarterRisk(heading, paired[0] if paired else None, new if annual is not None else []))
    return found
