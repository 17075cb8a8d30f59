"""How figures are written in filings and answers: scale words, statement unit captions, the words
that say a change went up or down, and where a sentence ends. One vocabulary for every reader and
checker of figures: a reader needing another form of a word (a verb's past, a noun) makes it from the
tables here, never from a list of its own."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

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

SCALE_PLURALS: tuple[str, ...] = tuple(f"{name}s" for name in SCALE_NAMES.values())
"""How a table's caption writes its scale ("in millions", "(thousands)")."""

UNIT_EXPONENTS: dict[str, int] = {f"USD {name}s": exponent for exponent, name in SCALE_NAMES.items()}
"""The units statement tables are read in ("USD millions"), as a power of ten."""

UNIT_SCALES: dict[str, float] = {unit: 10.0**exponent for unit, exponent in UNIT_EXPONENTS.items()}
"""What one of a table's units is in dollars ("USD millions": 1e6)."""

SCALE_UNITS: dict[int, str] = {exponent: unit for unit, exponent in UNIT_EXPONENTS.items()}
"""The unit a power of ten of dollars is read in (6: "USD millions")."""


def currency_sign(unit: str) -> str:
    """ "$" for dollars (and a unit naming none); the ISO code and a space for another currency a
    filer reports in ("EUR 45,320 million"), never a silent dollar sign."""
    code = unit.split("/", 1)[0].strip().upper()
    return f"{code} " if is_currency(code) and code != "USD" else "$"


def is_currency(unit: str | None) -> bool:
    """An amount's unit is a currency: an ISO 4217 code ("USD", "EUR", "JPY")."""
    return bool(unit) and len(str(unit)) == 3 and str(unit).isalpha() and str(unit).isupper()


_PLURAL = "|".join(SCALE_PLURALS)
UNIT_CAPTION = re.compile(rf"\bin ({_PLURAL})\b|\(({_PLURAL})\)", re.I)
"""A statement's unit caption: "(in millions)", "(Millions, except per share amounts)"."""

RISE_VERBS: tuple[str, ...] = tuple(
    "increase rise grow gain jump climb expand soar widen deepen raise".split()
)
FALL_VERBS: tuple[str, ...] = tuple(
    "decrease decline fall drop shrink contract slip sink tumble plunge narrow reduce cut".split()
)
"""The verbs that say a figure went up or down: the one list every reader of a direction draws on,
in every form ("rose", "has fallen", "shrinking") through ``verb_forms``."""

BETTER_VERBS = ("improve", "strengthen")
WORSE_VERBS = ("worsen", "deteriorate", "weaken")
"""Verbs that judge a change, not name its direction: an "improved" debt went down."""

RISE_NOUNS = ("increase", "rise", "growth", "gain", "jump", "expansion")
FALL_NOUNS = ("decrease", "decline", "drop", "fall", "reduction", "contraction")
"""The nouns of a change ("an increase of 5%", "a 5% decline")."""

RISE_ADVERBS = ("up", "higher")
FALL_ADVERBS = ("down", "lower")
"""The words that place a figure above or below another ("up 5%", "lower sales")."""

_IRREGULAR_FORMS = {
    "rise": ("rose", "risen"),
    "grow": ("grew", "grown"),
    "fall": ("fell", "fallen"),
    "shrink": ("shrank", "shrunk"),
    "sink": ("sank", "sunk"),
    "cut": ("cut", "cut"),
    "go": ("went", "gone"),
}
_DOUBLED = re.compile(r"^[^aeiou]*[aeiou][bdgmnpt]$")  # "drop": "dropped", "slip": "slipping"
_ALSO_A_THING = frozenset(
    {"contract", "contracts", "narrow", "sink", "sinks", "slip", "slips", "cut", "cuts"}
)
"""A verb's forms that also name a thing or a quality ("a contract", "a narrow definition"): a sentence
saying them says no direction; a question asking "did it contract" does."""


def _regular_forms(verb: str) -> tuple[str, str]:
    """The past and the "-ing" form of a regular verb ("decline": "declined", "declining")."""
    if verb.endswith("e"):
        return f"{verb}d", f"{verb[:-1]}ing"
    stem = verb + verb[-1] if _DOUBLED.match(verb) else verb
    return f"{stem}ed", f"{stem}ing"


def verb_forms(verb: str) -> tuple[str, ...]:
    """A verb in every form: "rise", "rises", "rose", "risen", "rising"."""
    past, ing = _regular_forms(verb)
    if verb in _IRREGULAR_FORMS:
        ing = f"{verb}{verb[-1]}ing" if _DOUBLED.match(verb) else ing
        return (verb, f"{verb}es" if verb == "go" else f"{verb}s", *_IRREGULAR_FORMS[verb], ing)
    return (verb, f"{verb}s", past, ing)


def past_forms(verbs: Sequence[str]) -> tuple[str, ...]:
    """The past tense of each verb ("rose", "increased"), a change told after the fact, but not one
    that also names a thing ("a tax cut")."""
    return tuple(past for verb in verbs if (past := verb_forms(verb)[2]) not in _ALSO_A_THING)


def every_form(verbs: Sequence[str]) -> tuple[str, ...]:
    """Every form of every verb."""
    return tuple(form for verb in verbs for form in verb_forms(verb))


def said_forms(verbs: Sequence[str]) -> tuple[str, ...]:
    """Every form of every verb that, in a sentence, can only be the verb ("contracted", not
    "contract")."""
    return tuple(form for form in every_form(verbs) if form not in _ALSO_A_THING)


def alternation(words: Iterable[str]) -> str:
    """A regex matching any of ``words`` (longest first, so "rises" is not read as "rise")."""
    return "|".join(re.escape(word) for word in sorted(set(words), key=len, reverse=True))


def _said_words(verbs: Sequence[str], nouns: Sequence[str], adverbs: Sequence[str]) -> re.Pattern[str]:
    """The words of a sentence that say a direction: the verbs' forms that name no thing, the nouns
    and the adverbs."""
    return re.compile(rf"\b(?:{alternation([*said_forms(verbs), *nouns, *adverbs])})\b", re.I)


UP_WORDS = _said_words(RISE_VERBS, RISE_NOUNS, RISE_ADVERBS)
DOWN_WORDS = _said_words(FALL_VERBS, FALL_NOUNS, FALL_ADVERBS)
"""A word of a sentence saying a figure went up ("grew", "an increase", "higher") or down."""

BETTER_FORMS = (*every_form(BETTER_VERBS), "improvement", "improvements")
WORSE_FORMS = (*every_form(WORSE_VERBS), "deterioration")
BETTER_WORDS = re.compile(rf"\b(?:{alternation(BETTER_FORMS)})\b", re.I)
WORSE_WORDS = re.compile(rf"\b(?:{alternation(WORSE_FORMS)})\b", re.I)
"""A word judging a change better ("improved", "an improvement") or worse ("deteriorating")."""

LOWER_IS_BETTER = re.compile(
    r"(?<![a-z])(?:cost|expens|debt|liabilit|loss|leverage|borrow|sga|tax|payable|deficit|days|spend)", re.I
)
"""Lines whose fall is an improvement ("improved" debt went down), in a metric's key ("long_term_debt")
or in words ("operating expenses", "days sales outstanding")."""


def word_keys(text: str) -> frozenset[str]:
    """A text's words of three letters or more, by their first five ("shareholders" and
    "shareholder" alike): how a question's words and a statement row's are compared."""
    return frozenset(w[:5] for w in re.findall(r"[a-z]{3,}", text.lower()))


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


SPELLED_OUT = {
    "ceo": "chief executive officer",
    "cfo": "chief financial officer",
    "coo": "chief operating officer",
    "cto": "chief technology officer",
    "cao": "chief accounting officer",
    "doj": "department of justice",
    "ftc": "federal trade commission",
    "sec": "securities and exchange commission",
    "fda": "food and drug administration",
    "faa": "federal aviation administration",
    "ec": "european commission",
    "eu": "european union",
    "ai": "artificial intelligence",
    "q1": "first quarter",
    "q2": "second quarter",
    "q3": "third quarter",
    "q4": "fourth quarter",
}
"""Abbreviations filings write out in full: a text writing the phrase names the abbreviation too
("Kevan Parekh … will become Chief Financial Officer" answers who the new CFO is; "third quarter"
is the Q3 a question asks)."""
_BETWEEN_WORDS = r"[\s-]+"  # "second quarter" or "second-quarter"
_SPELLED = re.compile(
    r"\b(" + "|".join(p.replace(" ", _BETWEEN_WORDS) for p in SPELLED_OUT.values()) + r")\b", re.I
)
_ABBREVIATION_OF = {phrase: short for short, phrase in SPELLED_OUT.items()}


def abbreviations_spelled(text: str) -> set[str]:
    """The abbreviations whose phrases ``text`` writes out ("chief financial officer": "cfo")."""
    return {_ABBREVIATION_OF[" ".join(m.lower().replace("-", " ").split())] for m in _SPELLED.findall(text)}


NAME_ABBREVIATIONS = ("Inc", "Corp", "Co", "Ltd", "vs")
"""Abbreviations whose period ends no sentence ("Apple Inc. (“Apple”) issued"), in filings and answers."""

NOT_AN_ABBREVIATION = (
    r"(?<!\b[A-Z]\.)"
    + "".join(rf"(?<!\b{word}\.)" for word in (*NAME_ABBREVIATIONS, "Mr", "Ms", "Dr"))
    + r"(?!(?<=\bNo\.)\s+\d)"
)
"""Put right after a sentence's closing period: the period is not one of an abbreviation of a name
("Apple Inc. (“Apple”)", "U.S. Bancorp"), an initial ("Mary N. Dillon"), a title ("Mr.") or a
number's ("No. 5"), so every reader that finds a sentence's end by its own pattern ends it where
``split_sentences`` does."""

SENTENCE_BREAK = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"”’]))" + NOT_AN_ABBREVIATION + r"(?<!\bNo\.)\s+")
"""The space between two sentences of a filing or an answer: after . ! or ? (or a quotation closed
right after one: “… this milestone.” Kenvue …), but not after an abbreviation or an initial; nor
after an answer's opening "No.", which a reader of the first sentence reads with the sentence it
answers for ("No. The margin fell …")."""

LEADING_YES_NO = re.compile(
    r"^\s*(?:\*\*)?(yes|no)\b[^\n]*?(?:[.!?]" + NOT_AN_ABBREVIATION + r"(?=\s|$)|(?=\n)|$)[ \t]*", re.I
)
"""An answer's opening yes or no and the rest of its sentence ("No, revenue fell 5.5% [10K1]."), which
ends where a sentence does: not inside "5.5%" nor after "Apple Inc."."""

_BREAK_BEFORE_CAPITAL = re.compile(SENTENCE_BREAK.pattern + r"(?=[A-Z\"“(])")


THE_COMPANY = "the company"


def as_the_company(text: str, names: Iterable[str]) -> str:
    """The text with each company name as written replaced by "the company": what is asked of a
    company is read the same whatever the length of its name ("what does Meta Platforms actually do",
    "which areas is AbbVie in")."""
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", THE_COMPANY, text, flags=re.I)
    return text


def split_sentences(text: str, *, capital_next: bool = False) -> list[str]:
    """The sentences of a filing's or an answer's text, cut at SENTENCE_BREAK only: every reader that
    checks or quotes sentence by sentence cuts them alike (a naive cut after "Inc." left "reported
    revenue of …" naming no company, so another company's figure passed). ``capital_next``: cut only
    where the next sentence opens with a capital, a quote or a parenthesis, for a reader that quotes
    whole sentences only ("approx. five" goes on)."""
    return (_BREAK_BEFORE_CAPITAL if capital_next else SENTENCE_BREAK).split(text)


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
