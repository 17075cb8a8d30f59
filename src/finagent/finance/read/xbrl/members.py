"""The parts a filing tags its figures by: the usual XBRL axes in a user's words (segment, product,
geography) and each member's name as users know it.

An iXBRL fact of Apple's net sales for iPhone carries ``srt:ProductOrServiceAxis =
aapl:IPhoneMember``; the question says "iPhone revenue" and the answer must say "iPhone". A member's
name is the label linkbase's when one was read; else the row label the filing prints for that member
alone (a label every member of the axis shares, "Net sales", names the line, not the part); else the
member's own QName in words ("AmazonWebServicesSegmentMember" → "Amazon Web Services"), its acronym
("AWS") kept as another name. Pure functions.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from finagent.finance.lines import REPORTED

PartKind = str
"""A user's word for the parts of an axis: "segment", "product", "geography", "consolidation",
"legal entity"."""

AXIS_KINDS: Mapping[str, PartKind] = {
    "us-gaap:StatementBusinessSegmentsAxis": "segment",
    "srt:ProductOrServiceAxis": "product",
    "srt:StatementGeographicalAxis": "geography",
    "srt:ConsolidationItemsAxis": "consolidation",
    "dei:LegalEntityAxis": "legal entity",
}
"""The standard axes; a company's own axis is read by its name (``axis_kind``)."""

_AXIS_WORDS = (
    ("segment", "segment"),
    ("product", "product"),
    ("service", "product"),
    ("geograph", "geography"),
)

KIND_WORDS: Mapping[str, PartKind] = {
    "segment": "segment",
    "segments": "segment",
    "business": "segment",
    "division": "segment",
    "product": "product",
    "products": "product",
    "category": "product",
    "categories": "product",
    "service": "product",
    "services": "product",
    "geography": "geography",
    "geographies": "geography",
    "geographic": "geography",
    "region": "geography",
    "regions": "geography",
    "country": "geography",
    "countries": "geography",
    "market": "geography",
    "markets": "geography",
    "area": "geography",
    "areas": "geography",
    "businesses": "segment",
    "divisions": "segment",
    "unit": "segment",
    "units": "segment",
    "line": "product",
    "lines": "product",
    "brand": "product",
    "brands": "product",
}
"""The words a user asks by ("--by product", "which region")."""

_ASIDE = re.compile(r"\s*\([^)]*\)")

_FOOTNOTE = re.compile(r"\s*\(\d+\)|\s*\*+$|\s+total$|\s*[®™℠]", re.IGNORECASE)
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_SMALL = frozenset({"and", "of", "the", "or", "for", "in", "excluding", "including"})


SEGMENTS_OWN = "srt:ConsolidationItemsAxis=us-gaap:OperatingSegmentsMember"
"""A qualifier, not a part: a segment's figure tagged also "as the operating segments report it"
(segment notes since 2024 tag each segment's figure on both axes). ``sql/queries/fact_members.sql``
drops it alike."""


def single_part(dims_key: str) -> tuple[str, str] | None:
    """(axis, member) of a fact tagged with one part (beside the operating-segments qualifier), else
    None: "us-gaap:StatementBusinessSegmentsAxis=nvda:GraphicsSegmentMember"."""
    dims = [d for d in dims_key.split(";") if d and d != SEGMENTS_OWN]
    if len(dims) != 1:
        return None
    axis, _, member = dims[0].partition("=")
    return axis, member


def axis_kind(axis: str) -> PartKind | None:
    """The user's word for an axis's parts, or None for an axis of another kind (a plan, a class)."""
    if axis in AXIS_KINDS:
        return AXIS_KINDS[axis]
    local = axis.rpartition(":")[2].lower()
    return next((kind for word, kind in _AXIS_WORDS if word in local), None)


def kind_of_word(word: str) -> PartKind | None:
    """ "product" → "product", "regions" → "geography"; None for a word naming no kind of part."""
    return KIND_WORDS.get(word.strip().lower())


def qname_words(member: str) -> str:
    """A member's QName in words: "aapl:GreaterChinaSegmentMember" → "Greater China",
    "amzn:ThirdPartySellerServicesMember" → "Third Party Seller Services"; "country:US" → "US"."""
    local = member.rpartition(":")[2]
    local = re.sub(r"(?:Segment)?Member$", "", local) or local
    words = _CAMEL.findall(local)
    return " ".join(w.lower() if w.lower() in _SMALL and i else w for i, w in enumerate(words)) or local


def acronym(label: str) -> str:
    """ "Amazon Web Services" → "AWS"; "" unless three or more words, each capitalised."""
    words = label.split()
    return "".join(w[0] for w in words) if len(words) >= 3 and all(w[:1].isupper() for w in words) else ""


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def clean_row_label(label: str) -> str:
    """A printed row label without its footnote and trademark marks and "total": "Singapore (1)" →
    "Singapore", "iPad®" → "iPad"."""
    return _FOOTNOTE.sub("", label).strip(" :")


@dataclass(frozen=True, slots=True)
class MemberName:
    """A member's name as shown (``label``) and every name a question may use for it (``names``)."""

    member: str
    label: str
    names: tuple[str, ...]


def member_names(
    rows: Iterable[tuple[str, str, str | None]], linkbase: Mapping[str, str] | None = None
) -> dict[tuple[str, str], MemberName]:
    """(axis, member) → its names, from (axis, member, printed row label) triples of a company's facts
    and the label linkbase's member labels when there are any (see the module docstring)."""
    labels: dict[tuple[str, str], Counter[str]] = {}
    for axis, member, label in rows:
        counts = labels.setdefault((axis, member), Counter())
        cleaned = clean_row_label(label or "")
        if cleaned:
            counts[cleaned] += 1
    shared = _shared_labels(labels)
    return {
        key: _name(key[1], counts, shared.get(key[0], set()), linkbase or {})
        for key, counts in labels.items()
    }


@cache
def names_a_line(label: str) -> bool:
    """The row label is a line's name ("Operating income (loss)", "Net sales"), not a part's."""
    text = _ASIDE.sub("", label).strip().lower()
    return any(
        line.question and re.fullmatch(rf"(?:total\s+)?(?:{line.question})", text, re.IGNORECASE)
        for line in REPORTED.values()
    )


def _shared_labels(labels: Mapping[tuple[str, str], Counter[str]]) -> dict[str, set[str]]:
    """Per axis, the row labels two of its members share: the line's name, not a part's."""
    seen: dict[str, Counter[str]] = {}
    for (axis, _), counts in labels.items():
        seen.setdefault(axis, Counter()).update(set(counts))
    return {axis: {label for label, n in counts.items() if n > 1} for axis, counts in seen.items()}


def _name(member: str, counts: Counter[str], shared: set[str], linkbase: Mapping[str, str]) -> MemberName:
    derived = qname_words(member)
    own = [label for label, _ in counts.most_common() if label not in shared and not names_a_line(label)]
    spelled = next((label for label in own if _letters(label) == _letters(derived)), None)
    label = linkbase.get(member) or spelled or (own[0] if own else derived)
    label = clean_row_label(label) or derived
    token = re.sub(r"(?:Segment)?Member$", "", member.rpartition(":")[2])  # "MedTech" as written
    after = [_after_line(n) for n in (label, *own)]
    names = [
        label,
        derived,
        *(own[:1]),
        *after,
        acronym(derived),
        acronym(label),
        token if token.isalpha() else "",
    ]
    return MemberName(member, label, tuple(dict.fromkeys(n for n in names if n)))


_LINE_THEN_PART = re.compile(r"^(?P<line>.+?)\s+[–—:-]\s+(?P<part>\S.*)$")


def _after_line(label: str) -> str:
    """The part's own name in a row label that opens with the line's name: "Net sales – outside the
    U.S." → "outside the U.S."; "" when the label does not."""
    match = _LINE_THEN_PART.match(label)
    return match.group("part") if match and names_a_line(match.group("line")) else ""


def opens_with_line(label: str) -> bool:
    """The row label names the line before the part ("Net sales – products")."""
    return bool(_after_line(label))


def named_in(text: str, names: Sequence[str]) -> str | None:
    """The name of ``names`` that ``text`` says as whole words (the longest; an acronym in its
    capitals only: "AWS", never "aws" inside a word; "&" and "and" alike), or None."""
    said = _AMPERSAND.sub(" and ", text)
    for name in sorted(names, key=len, reverse=True):
        pattern = rf"(?<![\w-]){re.escape(_AMPERSAND.sub(' and ', name))}(?![\w-])"
        if name.isupper():
            if re.search(pattern, said):
                return name
        elif len(name) >= 3 and re.search(pattern, said, re.IGNORECASE):
            return name
    return None


_AMPERSAND = re.compile(r"\s*&\s*")
