"""The question's words, read once: every reader of the question's text runs here and only here.

Readers that need more than the text (the companies named, the periods parsed, the search phrases)
take this reading instead of the text (``understand.plan``), so a reader never runs twice and two
readers never read the same words differently.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from finagent.agent.understand.vocabulary import (
    asks_drivers,
    is_breakdown,
    is_narrative,
    is_what_said,
    statement_phrases,
    statements_for,
)
from finagent.finance.ask.asked_lines import value_line_words
from finagent.finance.ask.asked_metrics import computed_in, metrics_in
from finagent.finance.ask.asks import row_pick
from finagent.finance.ask.change_words import ChangeWords, read_change_words
from finagent.finance.compute.compare import Wanted
from finagent.finance.compute.filing_changes import asks_filing_changes
from finagent.finance.compute.formulas import Formula, formulas_for
from finagent.finance.compute.revisions import asks_revision_size
from finagent.finance.periods import dated_documents, named_kinds, preferred_granularity, undated_document
from finagent.finance.periods.named_documents import DatedDocument
from finagent.finance.read.filing_sections import SectionTopic, section_topics
from finagent.finance.words import SCALE_PLURALS, as_the_company, line_names, names_in, split_sentences

_MARKET_CUES = re.compile(
    r"\b(stock|share price|trading|trades|traded|market cap\w*|valuation|quote|52[- ]week|price target)\b",
    re.I,
)
_NEWS_CUES = re.compile(r"\b(news|headlines?|press release|announce\w*)\b", re.I)
_NEWS_WORDS = re.compile(r"\b(news|headlines?|articles?|media|press reports?)\b", re.I)
_TRANSCRIPT_CUES = re.compile(
    r"\b(earnings call|call|transcripts?|management (said|says|comment\w*)|guidance|outlook|ceo|cfo)\b", re.I
)
_AS_REPORTED = re.compile(
    r"\b(?:as (?:originally )?reported|originally reported|before (?:the )?restatement)\b", re.I
)
# What a question expects rather than reports (guidance, a forecast, a projection).
_FORWARD = re.compile(
    r"\b(?:expect(?:s|ed|ations?)?|guid(?:ance|e|es|ed|ing)|outlook|forecast\w*|anticipat\w*|project(?:s|ed|ions?))\b",
    re.I,
)
# Where a matter stands: its latest developments, not its history ("where does the talc litigation
# stand", "what is the status of", "the latest on").
_STATUS = re.compile(
    r"\bwhere\s+(?:does|do|did|is|are|was|were)\b[^?]{0,120}?\bstand(?:s|ing)?\b|\bstatus\b"
    r"|\b(?:latest|recent|current)\s+(?:developments?|state|situation|updates?|on)\b|\bstands?\s+(?:now|today)\b",
    re.I,
)
# A clause asking for a person ("who is replacing its CFO"), a place or origin ("where does its
# revenue come from", not where a figure stands) or what a company does: its answer is no amount,
# so a metric word in it ("CFO", "revenue") is what the asked thing is about, not the figure asked.
_NOT_AN_AMOUNT = re.compile(
    r"(?:^|[,;:.?!\u2014]\s*|\b(?:and|or|but)\s+)"
    r"(?:who(?:m|se)?\b|where\b(?![^,;?]*\bstand)|what\s+(?:does|do|did)\s+[^,;?]{1,60}?\s+(?:actually\s+)?do\b)",
    re.I,
)
_SHARE_OF = re.compile(r"\b(?:share|percent(?:age)?|portion|proportion|fraction)\s+of\b|%\s+of\b", re.I)
"""A share of a line ("what share of its revenues came from the U.S. government", "customers above
10% of revenue"): with one line named, the part is in words, not a second line to divide by."""
_YES_NO = re.compile(r"\s*(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\b", re.I)
# An earnings release is the document for non-GAAP figures and guidance.
_RELEASE_CUES = re.compile(
    r"\b(adjusted|non-?GAAP|guidance|outlook|earnings (release|report)|press release)\b", re.I
)
# Events a company reports on an 8-K (Items 5.02, 2.01, 1.01): leadership changes and deals.
_EVENT_WORDS = re.compile(
    r"\b(?:new|incoming|interim|former|outgoing) (?:CEO|CFO|COO|chief \w+ officer|chair(?:man|woman)?)\b"
    r"|\bappoint\w*|\bresign\w*|\bstep(?:s|ped)? down\b|\bsuccession\b|\bdepart(?:ure|ed|s)\b"
    r"|\b(?:CEO|CFO) (?:change|transition)\b|\bacquisition of\b|\bmerger (?:with|agreement)\b",
    re.I,
)
_EVENT_CUES = re.compile(r"\b8-?K\b|\bdated\b|\bpress release\b|\bcurrent report\b", re.I)
# What happens on a day, reported on an 8-K within days (an agreement, a vote, a meeting, a change of
# officers): "the credit agreement amended on March 3, 2024" is that day's event, not its quarter.
_DAY_EVENTS = re.compile(
    r"\b(?:amend(?:ed|ment|s)?|entered into|enter(?:s|ed)? into|sign(?:ed|ing)|agreements?|vot(?:e|es|ed|ing)"
    r"|(?:annual|special) meeting|elect(?:ed|ion)|appoint\w*|resign\w*|terminat\w*|complet(?:ed|ion)"
    r"|closed|closing|announc\w*|issu(?:e|es|ed|ance)|redeem\w*|redemption)\b",
    re.I,
)
_AS_OF = re.compile(r"\bas of\b", re.I)
_AVERAGE = re.compile(r"\b(average|mean)\b", re.I)
# A question that wants a quantity read from the passages, though no metric of the vocabulary names it.
_QUANTITY = re.compile(
    r"\bhow\s+(?:much|many|large|big|high|low)\b|\b(?:amount|number|value|ratio|margin|rate|percent\w*"
    r"|proportion|share(?!\s+class)|total|sum|figure|balance|cost|price|per\s+share|dividends?)\b|[$%]"
    r"|\bin\s+(?:usd|"
    rf"{'|'.join(SCALE_PLURALS)})\b",
    re.I,
)


@dataclass(frozen=True)
class Wording:
    """What the question's words say, independent of the companies and periods resolved."""

    text: str
    formulas: tuple[Formula, ...]
    """Computed metrics the question names (margins, ratios, free cash flow)."""
    named_metrics: tuple[str, ...]
    """Reported metrics the words name."""
    computed: tuple[str, ...]
    """Metrics named that are computed from others (margins, free cash flow)."""
    changes: ChangeWords
    """Change and comparison words: the ask's change and the comparisons computed both read these."""
    comparisons: Wanted
    narrative: bool
    breakdown: bool
    says: bool
    drivers: bool
    forecast: bool
    release: bool
    revision: bool
    event_words: bool
    dates_an_event: bool
    """Names an 8-K, a release or "dated": a day named is the event's, not a period's."""
    as_of: bool
    """ "as of <day>": a day that is no month end is an event's day."""
    as_reported: bool
    average: bool
    quantity_words: bool
    """Words asking for an amount ("how much", "ratio", "$"), whether or not a metric is named."""
    part_share: bool
    """A share of the one line named, whose part only words give (a customer's, the government's)."""
    not_an_amount: bool
    """A clause asks for a person, a place or what the company does: the metrics it names are what
    that is about ("Apple's CFO", "where its revenue comes from"), not figures to report."""
    topics: tuple[SectionTopic, ...]
    filing_changes: tuple[str, ...]
    """Topics whose change across filings is asked (risk factors, legal proceedings)."""
    dated_documents: tuple[DatedDocument, ...]
    undated_kinds: frozenset[str] | None
    """ "this 10-K": the kinds of document pointed at (used only when no period is named)."""
    named_kinds: frozenset[str]
    granularity: str
    statements: tuple[str, ...]
    """Primary statements the words name or their metrics live in."""
    statement_phrases: tuple[str, ...]
    """The statements' own row wording for what the words name."""
    named: tuple[str, ...]
    status: bool
    """Where a matter stands: its latest developments come first."""
    yes_no: bool
    """The question opens with a verb asking yes or no ("Is", "Does", "Has", "Did")."""
    given_names: tuple[str, ...]
    """Names written inside a sentence, not in capitals ("Agentforce", not "USD" or a second sentence's
    "Give"): what the question is about beyond its companies, which a passage must mention."""
    value_line_words: tuple[str, ...]
    lines: tuple[str, ...]
    source_cues: frozenset[str]
    """Sources the words ask for unmistakably: "market_data", "news", "transcript"."""
    row_pick: str
    """ "highest" or "lowest": which one stands at that end is asked (a table's column ranks it)."""


def given_names(text: str) -> tuple[str, ...]:
    """The names each sentence gives inside it, once each, acronyms left out (see ``Wording``)."""
    names = (n for sentence in split_sentences(text) for n in names_in(sentence) if not n.isupper())
    return tuple(dict.fromkeys(names))


def _source_cues(text: str, kinds_named: frozenset[str]) -> frozenset[str]:
    # "what did it announce in its 8-K" or "on its call" asks that document, not the news
    news = _NEWS_WORDS if kinds_named or _TRANSCRIPT_CUES.search(text) else _NEWS_CUES
    cues = {"market_data": _MARKET_CUES, "news": news, "transcript": _TRANSCRIPT_CUES}
    return frozenset(name for name, cue in cues.items() if cue.search(text))


def read_wording(text: str, names: Sequence[str] = ()) -> Wording:
    """Every text reader, once; the topic is read with the company ``names`` as "the company"."""
    kinds = named_kinds(text)
    changes = read_change_words(text)
    topics = tuple(section_topics(as_the_company(text, names)))
    return Wording(
        text=text,
        formulas=tuple(formulas_for(text)),
        named_metrics=tuple(metrics_in(text)),
        computed=tuple(computed_in(text)),
        changes=changes,
        comparisons=Wanted.from_words(changes),
        narrative=is_narrative(text),
        breakdown=is_breakdown(text),
        says=is_what_said(text),
        drivers=asks_drivers(text),
        forecast=bool(_FORWARD.search(text)),
        release=bool(_RELEASE_CUES.search(text)),
        revision=asks_revision_size(text),
        event_words=bool(_EVENT_WORDS.search(text)),
        dates_an_event=bool(_EVENT_CUES.search(text) or _DAY_EVENTS.search(text)),
        as_of=bool(_AS_OF.search(text)),
        as_reported=bool(_AS_REPORTED.search(text)),
        average=bool(_AVERAGE.search(text)),
        quantity_words=bool(_QUANTITY.search(text)),
        part_share=bool(_SHARE_OF.search(text)) and len(metrics_in(text)) == 1,
        not_an_amount=bool(_NOT_AN_AMOUNT.search(text)),
        topics=topics,
        filing_changes=asks_filing_changes(text, [topic.name for topic in topics]),
        dated_documents=tuple(dated_documents(text)),
        undated_kinds=undated_document(text),
        named_kinds=kinds,
        granularity=preferred_granularity(text),
        statements=tuple(statements_for(text)),
        statement_phrases=tuple(statement_phrases(text)),
        named=tuple(names_in(text)),
        given_names=given_names(text),
        status=bool(_STATUS.search(text)),
        yes_no=bool(_YES_NO.match(text)),
        value_line_words=tuple(value_line_words(text)),
        lines=tuple(line_names(text)),
        source_cues=_source_cues(text, kinds),
        row_pick=row_pick(text),
    )
