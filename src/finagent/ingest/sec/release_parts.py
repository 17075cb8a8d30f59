"""An earnings release's parts, from its headings: highlights, outlook, segment results, capital
returns, the financial statements, the non-GAAP reconciliations, and the notes (forward-looking
statements, the call, contacts).

A release has no Items; its writers head each part in their own words ("Fiscal 2024 Guidance",
"Domestic Segment Q4 FY23 Results", "Reconciliation of Non-GAAP Financial Measures"). A short line
that reads as a title and names what a part is about opens that part; what precedes the first is the
release's opening, its highlights. Table captions inside a part ("Non-GAAP diluted EPS") are rows,
not headings: a heading names its part by the words below, not by a metric.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from finagent.finance.read.filing_parts import part_name

RELEASE_FORM = "EARNINGS_RELEASE"
"""The form the page readers are given for an earnings release (as ``normalize_form`` writes it)."""

HIGHLIGHTS = "highlights"
"""The release's opening, up to its first heading: the quarter's results in brief."""


@dataclass(frozen=True, slots=True)
class ReleasePart:
    code: str
    heading: re.Pattern[str]

    @property
    def title(self) -> str:
        return part_name(self.code)


def _part(code: str, pattern: str) -> ReleasePart:
    return ReleasePart(code, re.compile(pattern, re.I))


# First match wins: a reconciliation of the outlook is a reconciliation, a segment's statement of
# income is a segment's result.
RELEASE_PARTS: tuple[ReleasePart, ...] = (
    _part(
        "non_gaap",
        r"\breconcil\w*|\bnon[- ]gaap (financial )?(measures?|information|results)\b"
        r"|\b(use|explanation|definitions?|discussion) of non[- ]gaap\b|\bgaap to non[- ]gaap\b",
    ),
    _part(
        "release_notes",
        r"\bforward[- ]looking statements?\b|\bcautionary (statements?|note)\b|^about\b"
        r"|\bconference call\b|\bwebcast\b|\b(investor|media) (contacts?|relations)\b|^contacts?$"
        r"|\bcontact information\b|\bnote to investors\b|\bsafe harbor\b",
    ),
    _part(
        "outlook",
        r"\boutlook\b|\bguidance\b|\bforecast\b|\bexpectations\b",
    ),
    _part(
        "capital_returns",
        r"\bdividends?\b(?! (paid|per share)\b)|\b(share|stock) repurchases?\b|\bbuybacks?\b"
        r"|\bcash returns?\b|\breturn\w* (of )?(cash|capital)( to shareholders)?\b",
    ),
    _part(
        "segment_results",
        r"\bsegments?\b|\bregional (sales )?results\b|\bresults by (region|geography|business)\b"
        r"|\bbusiness (unit|segment)s? (results|review|highlights)\b",
    ),
    _part(
        "statements",
        r"^(unaudited |u\.s\. gaap )?(condensed )?consolidated (statements?|balance sheets?)\b"
        r"|^(condensed )?(statements? of (income|earnings|operations|cash flows?)|balance sheets?)\b",
    ),
)

_TITLE_WORD = re.compile(r"^[A-Z0-9(“\"'&$-]")
_SMALL_WORDS = frozenset({"a", "an", "and", "by", "for", "in", "of", "on", "the", "to", "vs", "with", "from"})


def reads_as_title(line: str) -> bool:
    """A heading's shape: short, no sentence's end, its words capitalised (small words aside)."""
    text = line.strip().rstrip(":")
    if not 3 <= len(text) <= 90 or text.endswith((".", ",", ";")) or ";" in text:
        return False  # a sentence, or a headline joining its announcements ("Reports …; Provides …")
    if re.search(r"\d[\d,.]*%?\)?$", text) and not re.search(r"\b(19|20)\d{2}\)?$", text):
        return False  # a table row ends with its figures; a heading may end with its year
    words = [w for w in re.split(r"\s+", text) if w.lower().strip("():,") not in _SMALL_WORDS]
    if not words or len(words) > 10:
        return False
    return sum(bool(_TITLE_WORD.match(w)) for w in words) >= 0.75 * len(words)


def release_heading(line: str) -> ReleasePart | None:
    """The part a release's line opens, or None when it is body text or a table's row."""
    if not reads_as_title(line):
        return None
    text = line.strip().rstrip(":")
    return next((part for part in RELEASE_PARTS if part.heading.search(text)), None)
