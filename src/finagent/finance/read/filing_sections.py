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

# An 8-K's Item 9.01 lists its exhibits, and the exhibits follow under it (a press release, a
# 100-page credit agreement); the other Items are the filing's own account of its event.
EXHIBITS_ITEM = "item_9_01"


AFTER_SIGNATURES = "exhibits"
"""The pages after a report's signatures: the exhibits filed with it, among them another entity's
statements (an equity investee's, as CityCenter's in MGM's 10-K) and parent-only schedules."""


RELEASE_OPENING = r"^\s*exhibit\s+99\.1([^0-9]|$)"
"""The first page of Exhibit 99.1 (case-insensitive): where an Item says the company "issued the
attached press release (Exhibit 99.1)", the release's opening is its account of the event ("…
including a gain of approximately $20 billion"). The same pattern serves Python and PostgreSQL."""


def event_item(kind: str | None, section: str | None, text: str = "") -> bool:
    """A passage of an 8-K's own report of its event (Item 1.01 to 8.01, and the opening of the press
    release its Items point to), not of its other exhibits."""
    if kind != "8-K" or not section or not str(section).startswith("item_"):
        return False
    return section != EXHIBITS_ITEM or bool(re.match(RELEASE_OPENING, text or "", re.I))


@dataclass(frozen=True, slots=True)
class SectionTopic:
    """A topic a question may ask about, and the report sections that discuss it."""

    name: str
    pattern: re.Pattern[str]
    sections: tuple[str, ...]
    words: str  # the section's own heading words, added to the search phrase
    annual: bool = False  # the annual report sets it out (Part I of a 10-K); a 10-Q only updates it
    kinds: frozenset[str] = SECTIONED_KINDS  # the documents whose parts ``sections`` are
    whole: tuple[str, ...] = ()  # kinds with no parts that say it too, searched whole (a release)
    referred: tuple[str, ...] = ()
    """Parts its own parts often send the reader to ("Item 3. Legal Proceedings: see Note 19"):
    searched with them, never read whole as the topic's part (what changed between filings)."""
    opens: bool = False
    """Its part opens with what the topic asks (a 10-K's Item 1 with what the company does and the
    areas it is in): the part's first passages are read and quoted first, whatever their words."""

    @property
    def searched(self) -> tuple[str, ...]:
        """The parts a search of the topic looks in: its own, then those they refer to."""
        return (*self.sections, *self.referred)


def _topic(
    name: str,
    pattern: str,
    sections: tuple[str, ...],
    words: str,
    annual: bool = False,
    kinds: frozenset[str] = SECTIONED_KINDS,
    whole: tuple[str, ...] = (),
    referred: tuple[str, ...] = (),
    opens: bool = False,
) -> SectionTopic:
    return SectionTopic(
        name, re.compile(pattern, re.I), sections, words, annual, kinds, whole, referred, opens
    )


EVENT_FILINGS = frozenset({"8-K"})
"""An 8-K's Items (``item_5_07``): the company's own report of an event, filed within days of it."""

# Where the financial topics are discussed: a 10-K's MD&A (Item 7) and notes (Item 8), a 10-Q's
# notes (Part I Item 1) and MD&A (Part I Item 2).
MDA = ("item_7", "part1_item_2")
NOTES = ("item_8", "part1_item_1")

RELEASE = "earnings_release"
WITH_RELEASES = SECTIONED_KINDS | {RELEASE}
"""Kinds whose parts a topic searches when a release has a part of its own for it (an earnings
release's ``outlook``, ``segment_results``, ``capital_returns``: ingest.sec.release_parts)."""


SECTION_TOPICS: tuple[SectionTopic, ...] = (
    _topic(
        "business",
        r"\bbusiness (description|model|overview|lines?)\b|\bdescribe (the|its|their) business\b"
        r"|\bwhat (does|do) \w+(?:['’]s)?(?: \w+)? (do|sell|make|offer|produce)\b"
        r"|\bwhat (does|do) the company (\w+ly )?(do|sell|make|offer|produce)\b"
        r"|\b(which|what) (\w+ ){0,2}(areas|industries|businesses|markets|fields|sectors)\b"
        r" (is|are|does|do) the company\b"
        r"|\bproducts? and services\b"
        r"|\b(main|major|primary|key|largest) (products|customers|competitors|markets)\b"
        r"|\bcompetit(ors?|ion)\b(?! (?:case|law|matter|authorit|investigation|proceeding|complaint|fine))"
        r"|\bcompet(e|es|ing)\b|\bemployees\b|\bheadcount\b|\bhuman capital\b"
        r"|\bseasonal(ity)?\b"
        r"|\bsegments? (does|do) \w+(?: \w+)? (operate|report|have)\b",
        ("item_1",),
        "business overview products customers",
        annual=True,
        opens=True,
    ),
    _topic(
        "customers",
        r"\b(major|largest|biggest|significant|key|main|top|principal|single|few) (\w+ )?customers?\b"
        r"|\bcustomer concentration\b|\bconcentrat\w* of (credit risk|customers|revenues?|sales)\b"
        r"|\bcustomers? (that |which |who )?(account\w*|represent\w*|compris\w*) (for )?\b"
        r"|\bwho (are|is) \S+ customers?\b|\bdepend\w* on (a )?(small number of |few )?(\w+ )?customers\b",
        ("item_1", *NOTES),
        "customers concentration major customer percent of net sales",
        annual=True,
    ),
    _topic(
        "risk factors",
        r"\brisk factors?\b|\b(main|key|major|primary|biggest|principal|top) risks?\b",
        ("item_1a", "part2_item_1a"),
        "risk factors",
        annual=True,
    ),
    _topic(
        "properties",
        r"\b(its|their) properties\b|\bfacilities\b|\bsquare (feet|footage)\b|\bheadquarter(s|ed)\b",
        ("item_2",),
        "properties facilities",
        annual=True,
    ),
    _topic(
        "legal proceedings",
        r"\blegal (proceedings?|matters|actions?|cases?|battles?|disputes?)\b|\blitigations?\b"
        r"|\blawsuits?\b|\bsued\b|\bclass actions?\b"
        r"|\b(?:antitrust|competition) (?:cases?|matters?|investigations?|proceedings?|complaints?|fines?)\b",
        ("item_3", "part2_item_1"),
        "legal proceedings litigation",
        annual=True,
        referred=NOTES,  # many an Item 3 only points to the contingencies note, where the matters are
    ),
    _topic(
        "market risk",
        r"\bmarket risks?\b|\binterest rate (risk|sensitivity|exposure)\b"
        r"|\b(foreign )?(currency|exchange rate) (risk|exposure)\b|\bcommodity price risk\b",
        ("item_7a", "part1_item_3"),
        "quantitative and qualitative disclosures about market risk",
        annual=True,
    ),
    _topic(
        "controls",
        r"\binternal control\b|\bmaterial weakness(es)?\b|\bdisclosure controls\b",
        ("item_9a", "part1_item_4"),
        "controls and procedures internal control over financial reporting",
        annual=True,
    ),
    _topic(
        "stock market",
        r"\bholders of record\b|\bperformance graph\b|\bissuer purchases\b",
        ("item_5", "part2_item_2"),
        "market for registrant's common equity",
        annual=True,
    ),
    _topic(
        "cover page",
        r"\bstock exchanges?\b|\bexchanges?\b[^.?]{0,40}\b(listed|registered)\b"
        r"|\b(listed|registered)\b[^.?]{0,30}\bexchanges?\b|\blisted on\b"
        r"|\b(trading|ticker) symbols?\b|\bsecurities registered\b"
        r"|\bregistered (securities|under section 12)\b|\bpar value\b|\baggregate market value\b"
        r"|\baccelerated filer\b|\bstate of incorporation\b|\bincorporated in\b"
        r"|\bshare classes\b|\bclasses of (?:common )?(?:stock|shares)\b"
        r"|\blisted (?:shares?|stock|securities|notes)\b|\bon which (?:stock )?(?:markets?|exchanges?)\b",
        (COVER,),
        "securities registered pursuant to section 12(b) trading symbol exchange",
    ),
    _topic(
        "governance and votes",
        r"\b(share|stock)holders?(['’])? (vot\w*|approv\w*|elect\w*|proposals?)\b"
        r"|\bvot(e|es|ed|ing) (results?|tall\w*|on|for|against)\b|\bresults of the (\w+ )*vote\b"
        r"|\b(annual|special) (general )?meetings?\b|\bsay[- ]on[- ]pay\b|\b(director )?nominees\b"
        r"|\belected (to the board|directors?|as directors?)\b|\bproxy (proposals?|vote)\b",
        ("item_5_07",),
        "submission of matters to a vote of security holders annual meeting votes for against",
        kinds=EVENT_FILINGS,
    ),
    _topic(
        "executive changes",
        r"\b(new|incoming|interim|former|outgoing|next) (CEO|CFO|COO|chief \w+ officer|chair\w*|president)\b"
        r"|\bappoint\w*|\bresign\w*|\bstep(s|ped|ping)? down\b|\bsuccession\b|\bsucceed\w*"
        r"|\bdeparture (of|from the company)\b"
        r"|\b(CEO|CFO|leadership|management|executive) (change|transition)s?\b"
        r"|\bnamed (\w+ )?(CEO|CFO|chief|president)\b|\bretire[sd]? as\b|\b(was|were) (fired|dismissed)\b"
        r"|\bbec(?:ome|ame|omes|oming) (?:the company's |its |\w+ )?(?:new |interim )?"
        r"(?:CEO|CFO|COO|chief \w+ officer|chair\w*|president)\b|\b(?:took|take|takes|taking) over as\b",
        ("item_5_02",),
        "departure of directors or certain officers election of directors appointment of certain officers",
        kinds=EVENT_FILINGS,
    ),
)


FINANCIAL_TOPICS: tuple[SectionTopic, ...] = (
    _topic(
        "segments and regions",
        r"\bsegments?\b|\bregions?\b|\bregional\b|\bgeograph\w*|\bbusiness (lines?|units?)\b"
        r"|\bdivisions?\b|\bproduct (categor\w+|lines?|groups?)\b|\bdomestic\b|\binternational\b",
        (*MDA, *NOTES, "segment_results"),
        "segment information results by segment geographic area net sales revenues operating income",
        kinds=WITH_RELEASES,
    ),
    _topic(
        "liquidity and capital resources",
        r"\bliquidity\b|\bcapital resources\b|\bcash (position|balance|needs|requirements|generation)\b"
        r"|\bcredit (facility|facilities|lines?|ratings?)\b|\bborrow\w*|\bdebt\b|\bfinancing\b"
        r"|\bcapital (allocation|expenditures?|spending)\b|\bcapex\b|\bdividends?\b"
        r"|\b(share|stock) (repurchases?|buybacks?)\b|\bbuybacks?\b",
        MDA,
        "liquidity and capital resources cash flows financing activities debt dividends",
    ),
    _topic(
        "acquisitions and divestitures",
        r"\bacqui(?:sitions?|red|res?)\b|\bbusiness combinations?\b|\bM&A\b|\bmergers?\b|\bdivest\w*"
        r"|\bspin[- ]?offs?\b|\bspinning off\b|\bdiscontinued operations?\b"
        r"|\b(?:what|which) (?:\w+ )?(?:did|does|has|have) the company (?:buy|bought|purchased?)\b",
        NOTES,
        "acquisitions and divestitures business combinations purchase price",
    ),
    _topic(
        "restructuring",
        r"\brestructur\w*|\bseverance\b|\bexit (costs|activities)\b",
        NOTES,
        "restructuring charges severance exit costs liability",
    ),
    _topic(
        "income taxes",
        r"\btax rates?\b|\bincome tax\w*|\btax (expense|provision|benefit)s?\b|\bdeferred tax\w*",
        NOTES,
        "income taxes effective tax rate provision",
    ),
    _topic(
        "employee benefits",
        r"\bpensions?\b|\bretirees?\b|\bretirement\b|\bpostretirement\b|\bdefined benefit\b"
        r"|\bbenefit (plans?|obligations?|payments?)\b",
        NOTES,
        "pension and postretirement benefit plans obligations expected benefit payments",
    ),
    _topic(
        "goodwill and intangibles",
        r"\bgoodwill\b|\bintangible assets?\b|\bimpairments?\b|\bimpaired\b",
        NOTES,
        "goodwill and intangible assets impairment",
    ),
    _topic(
        "debt",
        r"\bdebt\b|\bborrowings?\b|\bnotes payable\b|\bsenior notes\b|\bcommercial paper\b"
        r"|\bcredit (facility|facilities|agreements?)\b|\bmaturities\b",
        NOTES,
        "debt borrowings senior notes maturities credit facility",
    ),
    _topic(
        "leases",
        r"\bleases?\b|\bleasing\b|\blessee\b|\blessor\b",
        NOTES,
        "leases operating lease liabilities right-of-use assets",
    ),
    _topic(
        "stock compensation",
        r"\b(stock|share|equity)[- ]based (compensation|awards?)\b|\bstock options?\b"
        r"|\brestricted stock\b|\bequity awards?\b",
        NOTES,
        "stock-based compensation awards restricted stock units options",
    ),
    _topic(
        "commitments and contingencies",
        r"\bcommitments?\b|\bcontingenc\w*|\bguarantees?\b|\bpurchase obligations?\b",
        (*MDA, *NOTES),
        "commitments and contingencies guarantees purchase obligations contractual obligations",
    ),
    _topic(
        "derivatives and hedging",
        r"\bderivatives?\b|\bhedg\w*|\bswaps?\b|\bforward contracts?\b",
        NOTES,
        "derivative instruments and hedging activities fair value",
    ),
    _topic(
        "capital returns",
        r"\bdividends?\b|\bbuybacks?\b|\b(buy|buys|buying|bought) back\b"
        r"|\b(share|stock) repurchases?\b|\brepurchas\w* (of )?(its |their )?"
        r"(own )?(common )?(shares|stock)\b|\breturn\w* (cash|capital) to (share|stock)holders\b"
        r"|\bcapital returns?\b|\bpayout\b",
        (*MDA, "item_5", "part2_item_2", "capital_returns"),
        "dividends declared share repurchases returned to shareholders issuer purchases of equity securities",
        kinds=WITH_RELEASES,
    ),
    _topic(
        "outlook and guidance",
        r"\bguidance\b|\boutlook\b|\bforecast\w*|\bprojections?\b|\bexpectations? for\b"
        r"|\b(full[- ]year|fiscal \d{4}|next[- ]year) (targets?|expectations?)\b",
        (*MDA, "outlook"),
        "outlook guidance expects full year",
        kinds=WITH_RELEASES,
        whole=(RELEASE, "transcript"),  # a release with no outlook heading may say it in its opening
    ),
    _topic(
        "accounting policies",
        r"\baccounting (polic(y|ies)|principles?|standards?|treatment|methods?|estimates?|judgm?ents?)\b"
        r"|\bsignificant accounting\b|\bcritical accounting\b|\brevenue recognition\b"
        r"|\brecogni[sz]\w* (its )?revenues?\b|\bASU\b|\buseful lives\b|\bdepreciation methods?\b",
        (*NOTES, *MDA),
        "summary of significant accounting policies basis of presentation critical accounting estimates",
    ),
)


def section_topics(question: str) -> list[SectionTopic]:
    """The topics a question asks about, in table order (none for figure questions). A report part
    the question names (the cover page, legal proceedings) is what it asks about: the financial
    topics its words also touch ("the debt securities registered on an exchange") are not."""
    items = [topic for topic in SECTION_TOPICS if topic.pattern.search(question)]
    return items or [topic for topic in FINANCIAL_TOPICS if topic.pattern.search(question)]


def sections_for(question: str) -> list[str]:
    """The report sections that discuss what the question asks about."""
    return list(dict.fromkeys(s for topic in section_topics(question) for s in topic.sections))


def topic_named(name: str) -> SectionTopic | None:
    """The topic of that name (analysis keeps names, which are JSON-ready)."""
    return next((t for t in (*SECTION_TOPICS, *FINANCIAL_TOPICS) if t.name == name), None)
