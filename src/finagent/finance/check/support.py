"""Whether a sentence of an answer says what the passages it cites say: their words, the company and
year it names, the passage's modality ("could", "rumored" stay so), a cause the passage gives for
the line it explains, and news reported as news. The words' counterpart of the figures check.

Pure rules over text: a sentence is held to its cited passages, never to what a model believes.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from finagent.finance.check.evidence_items import EvidenceItem, evidence_items
from finagent.finance.check.matching import calc_candidates, close_to, companies_in, stating_tokens
from finagent.finance.check.stated_change import against_computed, contradicted_change
from finagent.finance.citations import CITATION, cited_labels, quotes_verbatim
from finagent.finance.read.written_figures import SMALL_COUNT, WrittenFigure, scan_figures
from finagent.finance.words import (
    DOWN_WORDS,
    FALL_ADVERBS,
    FALL_NOUNS,
    FALL_VERBS,
    MONTH_NAMES,
    RISE_ADVERBS,
    RISE_NOUNS,
    RISE_VERBS,
    UP_WORDS,
    abbreviations_spelled,
    names_in,
    said_forms,
    split_sentences,
)


@dataclass(frozen=True, slots=True)
class Passage:
    """What a citation label points at, as the support check reads it."""

    label: str
    text: str
    ticker: str | None = None
    kind: str = ""
    period: str = ""  # "FY2024", "Q1 FY2025", a news article's date
    title: str = ""

    @property
    def is_news(self) -> bool:
        return self.kind == "news" or self.label.startswith("N")


MIN_WORDS = 4
"""A sentence with fewer content words is connective ("In summary:"), not a claim to check."""

CITED_MIN_WORDS = 2
"""A short cited sentence that names a year or someone is a claim: two content words are held to its
passage ("Apple reported its Q1 results on December 2, 2024 [8K1]" against a cover page); one that
names neither ("The figures are listed below [10Q1]") is a connective."""

SUPPORT = 0.5
"""Share of a sentence's content words its cited passages must carry."""

_WORD = re.compile(r"[a-z][a-z&\-]{2,}")
_SHORT_ACRONYM = re.compile(r"\b(?!US\b|IT\b)[A-Z]{2}\b")
"""A two-letter name in capitals ("AI", "EU", "UK"), which the three-letter floor of words would lose
(not "US", nor "IT", which are words too when a heading is in capitals)."""
_QUARTER = re.compile(r"\bq[1-4]\b")
"""A quarter ("Q3", "q3"), which the three-letter floor of words would lose too."""
_STOP = frozenset(
    """
    the and for was were are has had have that this with from which also its their during compared
    same than primarily due company company's quarter year years fiscal period total million billion
    percent these those such into over under about between while when where what there been being
    including include includes included other others more most less least some any each both only
    well however however, furthermore additionally overall summary according based stated states
    report reports reported filing filings document passage evidence answer question mentioned notes
    news article articles will would could might may can shall said says speculated speculates
    reportedly suggested suggests noted notes driven drove drive drives result resulted resulting
    reflect reflected reflects reflecting mainly largely partially offset caused because attributable
    """.split()
)
# Spelling variants of the same line item, so "revenue fell" can be held to "net sales decreased".
_SYNONYMS = {
    "revenue": "sales",
    "revenues": "sales",
    "turnover": "sales",
    "earnings": "income",
    "profit": "income",
    "profits": "income",
    "costs": "expense",
    "cost": "expense",
    "expenses": "expense",
    "spending": "expense",
    # an outlook: a question asks what a company "forecasts", its filing says what it "expects"
    "forecast": "expect",
    "anticipate": "expect",
    "anticipat": "expect",
    # every word of a direction is the direction: "rose" and "increased" are held to "grew"
    **dict.fromkeys((*said_forms(RISE_VERBS), *RISE_NOUNS, *RISE_ADVERBS), "increase"),
    **dict.fromkeys((*said_forms(FALL_VERBS), *FALL_NOUNS, *FALL_ADVERBS), "decrease"),
}

# "may" in lower case only: "May 31, 2018" is a month.
HEDGE = re.compile(
    r"\b(?:could|might|(?-i:may)|reportedly|rumou?r\w*|speculat\w*|possibl\w*|potential(?:ly)?|considering"
    r"|consider(?:s|ed)?\s+(?:a|an|the|buying|acquiring)|would"
    r"|expects?|expecting|(?:anticipat|expect)ed\s+to|anticipates?|anticipating|(?:intend|plan)s?\s+to)\b|\?",
    re.I,
)
"""What makes a passage's statement a possibility or an outlook, not a fact ("lower than expected" is
a fact: only "expects", "expected to" and their kin look ahead)."""

_KEEPS_MODALITY = re.compile(
    r"\b(?:could|might|(?-i:may)|would|can|reportedly|rumou?r\w*|speculat\w*|possibl\w*|potential\w*|consider\w*"
    r"|expect\w*|anticipat\w*|plan\w*|intend\w*|likely|unlikely|if|whether|risk\w*|uncertain\w*|question\w*"
    r"|suggest\w*|wonder\w*)\b",
    re.I,
)
"""Words by which a sentence keeps a passage's possibility a possibility."""

CAUSE = re.compile(
    r"\b(?:driven\s+by|due\s+(?:primarily\s+|mainly\s+|largely\s+)?to|because\s+of|because|as\s+a\s+result"
    r"\s+of|(?:a|the)\s+result\s+of|resulted\s+from|attributable\s+to|attributed\s+to|caused\s+by"
    r"|resulting\s+from|reflect(?:s|ed|ing)?"
    r"|primarily\s+from|driver\w*\s+(?:of|was|were)|led\s+by|offset\s+by|partially\s+offset)\b",
    re.I,
)
"""A sentence that explains a line by a cause."""

_STATEMENT_VERB = re.compile(
    r"\b(?:announc\w*|said|says|stated|disclosed|confirmed|filed|declared|agreed|completed|acquired)\b", re.I
)
_NEWS_FRAME = re.compile(
    r"\b(?:article|news|media|press\s+report\w*|reported\s+by|according\s+to|speculat\w*|rumou?r\w*"
    r"|nasdaq\.com|analysts?)\b",
    re.I,
)
_FILING = re.compile(r"\b(?:8-?K|10-?K|10-?Q|filing|annual\s+report|quarterly\s+report)\b", re.I)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def stem(word: str) -> str:
    """A crude stem: enough that "declines", "declined" and "decline" meet, "litigate" and
    "litigation", "class" and "classes"."""
    word = _SYNONYMS.get(word, word)
    for suffix in ("ations", "ation", "ings", "ing", "ies", "ed", "es", "s", "ly", "ate"):
        if suffix == "s" and word.endswith("ss"):  # "class", "loss", "business": no plural to strip
            continue
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    return _SYNONYMS.get(word, word)


def content_words(text: str, names: Sequence[str] = ()) -> set[str]:
    """The stems of a text's words that carry meaning (no stopwords, no company names), and the
    abbreviations of the phrases it writes out ("chief financial officer" names the CFO)."""
    low = CITATION.sub(" ", text.lower())
    for name in sorted(names, key=len, reverse=True):  # "Apple Inc." before "Apple": no stray "inc"
        low = re.sub(rf"(?<!\w){re.escape(name.lower())}(?!\w)", " ", low)
    words = {stem(w.strip("-&")) for w in _WORD.findall(low) if w not in _STOP and len(w.strip("-&")) > 2}
    short = {a.lower() for a in _SHORT_ACRONYM.findall(text)} | set(_QUARTER.findall(low))
    return words | abbreviations_spelled(low) | short - _STOP


def _most_shared(words: set[str], passages: Sequence[Passage]) -> int:
    """How many of the claim's words the passage sentence sharing most of them carries."""
    parts = (part for passage in passages for part in split_sentences(passage.text))
    return max((len(words & content_words(part)) for part in parts), default=0)


def _cause_problem(sentence: str, passages: Sequence[Passage], names: Sequence[str]) -> str | None:
    """A "driven by / due to" sentence needs a passage sentence that explains the same line by the
    same cause: the line before the passage's "due to", the cause after it."""
    match = CAUSE.search(sentence)
    if match is None:
        return None
    effect = content_words(sentence[: match.start()], names)
    cause = content_words(sentence[match.end() :], names)
    if not cause:
        return None
    for passage in passages:
        for part in split_sentences(passage.text):
            said = CAUSE.search(part)
            if said is None:
                continue
            because = content_words(part[said.end() :])
            # "This was a result of …" names its effect only by "this": the cause alone is held
            same_line = not effect or effect & content_words(part[: said.start()])
            if same_line and len(cause & because) >= max(1, len(cause) // 2):
                return None
    return "the cited passages do not give this as a cause of what it explains"


def support_problem(
    sentence: str,
    passages: dict[str, Passage],
    names: dict[str, list[str]] | None = None,
    computed: bool = False,
    calculations: Sequence[dict[str, Any]] = (),
) -> str | None:
    """Why ``sentence`` is not supported by the passages it cites (None when it is, or says nothing
    to check). ``passages`` are every citable passage by label; ``names`` the companies' aliases;
    ``computed``: the answer's figures are computed and checked apart, so an uncited sentence stating
    a figure stands unless it gives a cause, which only a passage can; one stating no figure is a
    claim about the passages like any other ("Europe and Asia had slightly lower revenues.").
    ``calculations``: code's results, whose figures stand on the computation, not a passage's line."""
    contradicted = contradicted_change(sentence)
    if contradicted:
        return contradicted
    names = names or {}
    aliases = [a for group in names.values() for a in group if a]
    words = content_words(sentence, aliases)
    cited = [passages[label] for label in cited_labels(sentence) if label in passages]
    if quoted_verbatim(sentence, passages):
        return None  # the source's own words, introduced by whose they are
    if not cited:
        if computed and not CAUSE.search(sentence) and any(f.kind != "date" for f in scan_figures(sentence)):
            return None  # it restates a computed figure, which the figures check holds
        return "it cites no passage" if _is_claim(sentence, words, aliases) else None
    if len(words) >= CITED_MIN_WORDS and _is_claim(sentence, words, aliases):
        carried = set().union(*(content_words(p.text) | content_words(p.title) for p in cited))
        if len(words & carried) / len(words) < SUPPORT:
            missing = sorted(words - carried)[:4]
            return f"its words ({', '.join(missing)}) are not in the passage it cites"
    return (
        _company_problem(sentence, cited, names)
        or _year_problem(sentence, cited)
        or _news_problem(sentence, cited)
        or _modality_problem(sentence, words, cited)
        or _guess_problem(sentence, cited)
        or _cause_problem(sentence, cited, aliases)
        or _line_problem(sentence, cited, words, aliases, passages, calculations)
    )


_LABEL_BEFORE, _LABEL_AFTER = 200, 80
"""How far before a number the words naming it may stand (a table row's label, then the columns
before it) and how far after ("$13.2 billion in cash proceeds")."""
_MONTHS = frozenset(stem(m) for m in MONTH_NAMES)


def _line_problem(
    sentence: str,
    cited: Sequence[Passage],
    words: set[str],
    aliases: Sequence[str],
    passages: dict[str, Passage],
    calculations: Sequence[dict[str, Any]] = (),
) -> str | None:
    """A figure the sentence gives must stand in a cited passage beside one of the sentence's words:
    the right number for another line ("cash proceeds ... $4,885 million", where $4,885 million is net
    earnings from continuing operations) is not supported. A figure its cited passages do not hold is
    read where the other passages hold it (the figures check takes that for a citation slip); one no
    passage holds is the figures check's to judge."""
    said = words - _MONTHS
    figures = [
        f
        for f in scan_figures(CITATION.sub(" ", sentence))
        if f.kind != "date"
        and not (f.kind == "count" and f.magnitude <= SMALL_COUNT)
        # code's result (a margin it computed) stands on the computation, whatever else a passage holds
        and not any(close_to(f, v, 0) for calc in calculations for v in calc_candidates(f, calc))
    ]
    if not said or not figures:
        return None
    in_cited, in_others = _numbers(cited), None
    for figure in figures:
        places = _places(figure, in_cited)
        if not places:
            if in_others is None:  # read only when a figure is missing from its cited passages
                in_others = _numbers([p for p in passages.values() if p not in cited])
            places = _places(figure, in_others)
        if places and not any(said & content_words(_beside(text, t), aliases) for text, t in places):
            return f"its figure {figure.text} is another line's in the passages"
    return None


def _beside(text: str, token: WrittenFigure) -> str:
    """The words that may name a number: those just before and after it and, for a cell of a table
    ("| Net income | 3,100 |"), its table's heading, where the columns are named ("Consumer & Community
    Banking ... Corporate & Investment Bank")."""
    near = text[max(0, token.start - _LABEL_BEFORE) : token.start + len(token.text) + _LABEL_AFTER]
    line_start = text.rfind("\n", 0, token.start) + 1
    if "|" not in text[line_start : token.start]:
        return near
    start = line_start
    while start > 0:
        previous = text.rfind("\n", 0, start - 1) + 1
        if "|" not in text[previous:start]:
            break
        start = previous
    return text[max(0, start - _LABEL_BEFORE) : start] + " " + near


def _numbers(passages: Sequence[Passage]) -> list[tuple[Passage, EvidenceItem]]:
    """The passages with their numbers read (once for all of a sentence's figures)."""
    items = evidence_items([{"label": p.label, "text": p.text} for p in passages], [])
    return list(zip(passages, items, strict=True))


def _places(
    figure: WrittenFigure, read: Sequence[tuple[Passage, EvidenceItem]]
) -> list[tuple[str, WrittenFigure]]:
    """(passage text, number) of every place the passages state the figure."""
    return [(p.text, t) for p, item in read for t in stating_tokens(figure, item)]


_QUOTED_LINE = re.compile(r"^\W*[^“”:]{0,160}:\s*“(?P<body>[^“”]{12,})”\s*\[(?P<label>[^\]]+)\]\W*$")
"""A quoted answer's line: whose words they are, the words in quotes, the passage they come from."""


def quoted_verbatim(sentence: str, passages: dict[str, Passage]) -> bool:
    """The sentence is a source phrase and a quote of its cited passage's own words (spacing and a
    closing "…" aside): what the passage says is supported by it, whatever it explains."""
    match = _QUOTED_LINE.match(sentence.strip())
    passage = passages.get(match.group("label")) if match else None
    if match is None or passage is None:
        return False
    return quotes_verbatim(match.group("body"), passage.text)


def _is_claim(sentence: str, words: set[str], aliases: Sequence[str]) -> bool:
    """A sentence that says something to check: four content words, or fewer that name someone or a
    year ("Apple will acquire Peloton in 2024."); connectives ("In summary:") are not claims."""
    if len(words) >= MIN_WORDS:
        return True
    return bool(words) and bool(_YEAR.search(sentence) or _unknown_names(sentence, aliases))


def _unknown_names(sentence: str, aliases: Sequence[str], text: str = "") -> list[str]:
    """The names a sentence gives (capitalised words inside it) that are neither a month, one of the
    companies' own names, nor in ``text`` (written out there: "CFO" for "Chief Financial Officer")."""
    known = " ".join(aliases).lower()
    spelled = abbreviations_spelled(text)
    return [
        name
        for name in names_in(sentence)
        if (low := name.lower()) not in known and low not in text and low not in spelled
    ]


_VERDICT = re.compile(r"^\W*(?:yes|no)\b", re.I)


def yes_or_no_against_computed(sentence: str, calculations: Sequence[dict[str, Any]]) -> str | None:
    """Why a yes or no ("Yes, the quick ratio improved [10K1].") contradicts the figures computed for the
    line it names. Only the answer's yes or no is held so: a driver sentence about a part ("Services net
    sales increased") is not the computed total's direction."""
    return against_computed(sentence, calculations) if _VERDICT.match(sentence) else None


def is_verdict(sentence: str) -> bool:
    """A sentence that opens with yes or no and cites nothing: the answer's conclusion."""
    return bool(_VERDICT.match(sentence)) and not cited_labels(sentence)


def verdict_problem(
    sentence: str,
    passages: dict[str, Passage],
    names: dict[str, list[str]],
    grounds: Sequence[str],
    asked: Collection[str],
) -> str | None:
    """Why a yes or no that cites nothing ("Yes, CVS Health is a capital-intensive business.") does not
    stand on the passages the answer's supported sentences cite (``grounds``). It restates the question,
    so the question's own words (``asked``: five-letter prefixes, and the years asked about) need no
    passage; any other word, the names it gives, its company, year, modality and news as news are held
    to those passages as usual."""
    cited = [passages[label] for label in dict.fromkeys(grounds) if label in passages]
    if not cited:
        return "it gives a yes or no that no cited sentence of the answer supports"
    aliases = [a for group in names.values() for a in group if a]
    words = content_words(sentence, aliases)
    carried = set().union(*(content_words(p.text) | content_words(p.title) for p in cited))
    unasked = re.sub(r"[A-Za-z][\w&\-]*", lambda m: " " if m[0].lower()[:5] in asked else m[0], sentence)
    added = content_words(unasked, aliases) - {"yes"}
    if added and len(added & carried) / len(added) < SUPPORT:
        missing = ", ".join(sorted(added - carried)[:4])
        return f"its words ({missing}) are not in the passages the answer cites"
    years = " ".join(y for y in asked if y.isdigit())  # the years asked about need no passage either
    return (
        _name_problem(sentence, cited, aliases)
        or _company_problem(sentence, cited, names)
        or _year_problem(sentence, [*cited, Passage("asked", years)])
        or _news_problem(sentence, cited)
        or _modality_problem(sentence, words, cited)
    )


def name_problem(
    sentence: str, passages: dict[str, Passage], aliases: Sequence[str], asked: str
) -> str | None:
    """A name the sentence gives that neither a passage it cites nor the question (``asked``) writes:
    held where the writer read only those passages ("replaced by Katherine L. Adams")."""
    cited = [passages[label] for label in cited_labels(sentence) if label in passages]
    return _name_problem(sentence, [*cited, Passage("asked", asked)], aliases, "the passage it cites")


def direction_problem(sentence: str, passages: dict[str, Passage]) -> str | None:
    """A rise or fall the sentence states that no passage it cites writes: with no change computed,
    only a passage can say which way an amount moved ("Yes, the dividend rose" over $0.26 then $0.25)."""
    cited = [passages[label] for label in cited_labels(sentence) if label in passages]
    text = " ".join(p.text for p in cited)
    for said, words in (("rose", UP_WORDS), ("fell", DOWN_WORDS)):
        if words.search(sentence) and not words.search(text):
            return f"it says an amount {said}, which the passage it cites does not write"
    return None


def _name_problem(
    sentence: str,
    cited: Sequence[Passage],
    aliases: Sequence[str],
    where: str = "the passages the answer cites",
) -> str | None:
    """A name the sentence gives ("Peloton", "Katherine L. Adams") must be in the passages it stands
    on: a small model fills a blank with a name it read elsewhere."""
    text = " ".join(f"{p.text} {p.title}" for p in cited).lower()
    missing = _unknown_names(sentence, aliases, text)
    return f"the name {missing[0]} is not in {where}" if missing else None


def _company_problem(sentence: str, cited: Sequence[Passage], names: dict[str, list[str]]) -> str | None:
    named = companies_in(sentence, names)
    if not named or any(p.ticker in named for p in cited):
        return None
    text = " ".join(p.text for p in cited)
    if companies_in(text, {t: names[t] for t in named}):
        return None  # the passage itself names the company (a competitor mentioned, a customer)
    owners = sorted({p.ticker or "an unnamed company" for p in cited})
    return f"it is about {', '.join(sorted(named))} but cites a passage of {', '.join(owners)}"


def _year_problem(sentence: str, cited: Sequence[Passage]) -> str | None:
    where = " ".join(f"{p.text} {p.title} {p.period}" for p in cited)
    missing = [y for y in dict.fromkeys(_YEAR.findall(sentence)) if y not in where]
    return f"the year {missing[0]} is not in the passage it cites" if missing else None


def _news_problem(sentence: str, cited: Sequence[Passage]) -> str | None:
    """News is reported as news: never as the company's own statement, never as a filing."""
    news = [p for p in cited if p.is_news]
    if not news:
        said_news = re.search(r"\b(?:news|article)\b", sentence, re.I)
        return "it calls a filing's passage a news article" if said_news else None
    if len(news) == len(cited) and _FILING.search(sentence):
        return "it attributes a news article to a filing"
    if _STATEMENT_VERB.search(sentence) and not _NEWS_FRAME.search(sentence):
        return "it states a news article's content as the company's own statement"
    return None


_CLAUSE_BREAK = re.compile(r"[,;:]\s+|\s+(?:but|while|whereas)\s+")


def _clauses(passages: Sequence[Passage]) -> Iterator[str]:
    """The passages' clauses: a hedge reaches to the end of its clause ("Sales rose 8%, which we expect
    to continue" says the rise as fact), a question through its whole sentence."""
    for passage in passages:
        for part in split_sentences(passage.text):
            yield from [part] if part.rstrip().endswith("?") else _CLAUSE_BREAK.split(part)


GUESS = re.compile(
    r"\b(?:likely|unlikely|probably|presumably|possibly|perhaps|(?:may|might|could|would)\s+have\s+been"
    r"|(?:may|might|could)\s+have|appears?\s+to|seems?\s+to|suggest(?:s|ing)?\s+that)\b",
    re.I,
)
"""The words of a guess: a writer's own conjecture ("was likely a factor", "may have contributed")."""


def _guess_problem(sentence: str, cited: Sequence[Passage]) -> str | None:
    """A sentence that guesses where none of its passages does: the guess is the writer's own claim
    ("… was likely a factor in the increase"), which no passage supports."""
    guess = GUESS.search(sentence)
    if guess is None or any(GUESS.search(p.text) for p in cited):
        return None
    return f"it guesses ('{guess.group(0)}') where the passage it cites does not"


def _modality_problem(sentence: str, words: set[str], cited: Sequence[Passage]) -> str | None:
    """A passage that speculates or looks ahead ("could", "rumored", "expects", a question) supports no
    plain assertion: a sentence that does not hedge may not take two words or more from a hedged clause
    that no plain clause of its passages gives ("sold the business, resulting in a gain" from "sold the
    business. The Company expects a gain")."""
    shared = _most_shared(words, cited)
    if shared < max(2, len(words) / 2) or _KEEPS_MODALITY.search(sentence):
        return None  # no passage sentence says this claim (the words check speaks for it), or it hedges
    plain: set[str] = set()
    hedged: list[tuple[set[str], str]] = []
    for clause in _clauses(cited):
        drawn = words & content_words(clause)
        marker = HEDGE.search(clause)
        if marker and drawn:
            hedged.append((drawn, marker.group(0)))
        else:
            plain |= drawn
    said = next((marker for drawn, marker in hedged if len(drawn - plain) >= 2), None)
    if said:
        return f"the passage only says it as a possibility ('{said}'); the sentence states it as fact"
    return None
