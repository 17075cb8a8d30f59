"""Where a periodic report answers a narrative topic: its Items and its cover page.

A 10-K says what the company sells in Item 1, what it is sued for in Item 3, where it stands on its
cover page; a 10-Q says the same in Part II Item 1 and so on. A question about such a topic matches
many pages of the right report by its words (the MD&A mentions customers, a note mentions a
lawsuit), so the Item that carries the topic is searched on its own too — as statement routing does
for metrics. Section codes are the ones ingestion gives chunks (``item_1``, ``part2_item_1a``);
``cover`` is the page before Item 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

COVER = "cover"

# Kinds whose chunks carry Item sections.
SECTIONED_KINDS = frozenset({"10-K", "10-Q", "annual_report"})


@dataclass(frozen=True, slots=True)
class SectionTopic:
    """A topic a question may ask about, and the report sections that discuss it."""

    name: str
    pattern: re.Pattern[str]
    sections: tuple[str, ...]
    words: str  # the section's own heading words, added to the search phrase


def _topic(name: str, pattern: str, sections: tuple[str, ...], words: str) -> SectionTopic:
    return SectionTopic(name, re.compile(pattern, re.I), sections, words)


SECTION_TOPICS: tuple[SectionTopic, ...] = (
    _topic(
        "business",
        r"\bbusiness (description|model|overview|lines?)\b|\bdescribe (the|its|their) business\b"
        r"|\bwhat (does|do) \w+(?:['’]s)?(?: \w+)? (do|sell|make|offer|produce)\b"
        r"|\bproducts? and services\b"
        r"|\b(main|major|primary|key|largest) (products|customers|competitors|markets)\b"
        r"|\bcompetit(ors?|ion)\b|\bemployees\b|\bheadcount\b|\bhuman capital\b|\bseasonality\b"
        r"|\bsegments? (does|do) \w+(?: \w+)? (operate|report|have)\b",
        ("item_1",),
        "business overview products customers",
    ),
    _topic(
        "risk factors",
        r"\brisk factors?\b|\b(main|key|major|primary|biggest|principal|top) risks?\b",
        ("item_1a", "part2_item_1a"),
        "risk factors",
    ),
    _topic(
        "properties",
        r"\b(its|their) properties\b|\bfacilities\b|\bsquare (feet|footage)\b|\bheadquarter(s|ed)\b",
        ("item_2",),
        "properties facilities",
    ),
    _topic(
        "legal proceedings",
        r"\blegal (proceedings?|matters|actions?|cases?|battles?|disputes?)\b|\blitigations?\b"
        r"|\blawsuits?\b|\bsued\b|\bclass actions?\b",
        ("item_3", "part2_item_1"),
        "legal proceedings litigation",
    ),
    _topic(
        "market risk",
        r"\bmarket risks?\b|\binterest rate (risk|sensitivity|exposure)\b"
        r"|\b(foreign )?(currency|exchange rate) (risk|exposure)\b|\bcommodity price risk\b",
        ("item_7a", "part1_item_3"),
        "quantitative and qualitative disclosures about market risk",
    ),
    _topic(
        "controls",
        r"\binternal control\b|\bmaterial weakness(es)?\b|\bdisclosure controls\b",
        ("item_9a", "part1_item_4"),
        "controls and procedures internal control over financial reporting",
    ),
    _topic(
        "stock market",
        r"\bholders of record\b|\bperformance graph\b|\bissuer purchases\b",
        ("item_5", "part2_item_2"),
        "market for registrant's common equity",
    ),
    _topic(
        "cover page",
        r"\bstock exchanges?\b|\bexchanges?\b[^.?]{0,40}\b(listed|registered)\b"
        r"|\b(listed|registered)\b[^.?]{0,30}\bexchanges?\b|\blisted on\b"
        r"|\b(trading|ticker) symbols?\b|\bsecurities registered\b"
        r"|\bregistered (securities|under section 12)\b|\bpar value\b|\baggregate market value\b"
        r"|\baccelerated filer\b|\bstate of incorporation\b|\bincorporated in\b",
        (COVER,),
        "securities registered pursuant to section 12(b) trading symbol exchange",
    ),
)


def section_topics(question: str) -> list[SectionTopic]:
    """The topics a question asks about, in table order (none for figure questions)."""
    return [topic for topic in SECTION_TOPICS if topic.pattern.search(question)]


def sections_for(question: str) -> list[str]:
    """The report sections that discuss what the question asks about."""
    return list(dict.fromkeys(s for topic in section_topics(question) for s in topic.sections))
