"""What a question asks, typed once: a value, a comparison, a ranking, a change, an overtake or a
threshold, a yes/no on a direction, a restatement, or a narrative.

The analysis reads the question into an ``Ask`` and every later step follows the ``Ask``: which
periods to cover when none is named, which sentence code computes to open the answer, how the table
is ordered. Words decide the kind of ask, never a company, metric or period (those are parsed
elsewhere), so the same rules serve any company and any wording of the same kind of question.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from decimal import Decimal
from typing import Any, Literal

from finagent.finance.ask.asked_metrics import metric_positions
from finagent.finance.ask.change_words import CHANGE_ASKED, ChangeKind, ChangeWords, read_change_words
from finagent.finance.ask.judgements import judgement_in
from finagent.finance.ask.metric_ties import tied_metrics
from finagent.finance.ask.parts_ask import PartsAsk, read_parts_ask
from finagent.finance.words import (
    BETTER_FORMS,
    FALL_VERBS,
    RISE_VERBS,
    SCALE_EXPONENTS,
    alternation,
    every_form,
    rise_is_better,
    verb_forms,
    word_keys,
)

AskKind = Literal[
    "value",
    "comparison",
    "ranking",
    "change",
    "overtake",
    "threshold",
    "direction",
    "restatement",
    "stability",
    "narrative",
]
Coverage = Literal["latest", "all"]

_I = re.IGNORECASE

_RESTATED = re.compile(
    r"\b(?:restat\w*|recast\w*|revis(?:e|ed|ion|ions)|re-?classif\w*|adjusted\s+(?:the|its)\s+prior)\b"
    r"|\b(?:originally|initially|first)\s+reported\b|\bas\s+(?:originally|initially|first)\s+reported\b",
    _I,
)
_OVERTAKE = re.compile(
    r"\b(?:overt(?:ake|akes|aken|aking|ook)|surpass\w*|exceed\w*|outgr[eo]w\w*|outpac\w*|overt?ook"
    r"|top(?:ped|s)?|pass(?:ed|es)?|beat|beats|(?:move[ds]?|got|get|gets|went|go|come|came)\s+ahead\s+of"
    r"|(?:rise|rose|risen|climb(?:ed)?)\s+above|outstrip\w*|outperform\w*|eclips\w*|above"
    r"|(?:higher|more|greater|larger|bigger)\s+(?:[\w'’-]+\s+){0,3}?than)\b",
    _I,
)
_CROSSING = re.compile(
    r"\b(?:overt(?:ake|akes|aken|aking|ook)|surpass\w*|pass(?:ed|es)?|overt?ook|top(?:ped|s)?"
    r"|(?:move[ds]?|got|get|gets|went|go|come|came)\s+ahead\s+of|(?:rise|rose|risen|climb(?:ed)?)\s+above"
    r"|outstrip\w*|eclips\w*)\b",
    _I,
)
_FIRST_TIME = re.compile(
    r"\bwhen\b|\b(?:which|what)\s+(?:quarter|year|period|point)\b|\b(?:the\s+)?first\s+(?:time|quarter|year|period)\b"
    r"|\bin\s+which\s+(?:quarter|year|period)\b|\bfirst\s+(?:report\w*|post\w*|record\w*)\b",
    _I,
)
_AMOUNT = re.compile(rf"\$\s?(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<scale>{alternation(SCALE_EXPONENTS)})?\b", _I)

# "Looking at VaR, did the risk ... decrease?": a short lead-in before the question proper.
_LEAD_IN = (
    r"^\s*(?:(?:looking at|based on|according to|considering|given|in|for|as of|during|at)\b[^,?]{0,60},\s*)?"
)
_YES_NO = re.compile(rf"{_LEAD_IN}(?:does|do|did|is|are|was|were|has|have|had)\b", _I)
# "Would you call Adobe's results those of a high-growth company?": a judgement asked as an opinion.
_ASKED_OPINION = re.compile(r"^\s*(?:would|could|can|should)\s+(?:you|we|one|it|they)\b", _I)
# A question asks a direction with a verb in any form ("did it fall", "has it risen", "an improving
# margin"), an improvement among them (its direction depends on the line), or "go up" / "go down".
_GOES = f"(?:{alternation(verb_forms('go'))})"
_UP_WORDS = rf"{alternation((*every_form(RISE_VERBS), *BETTER_FORMS))}|{_GOES}\s+up"
_DOWN_WORDS = rf"{alternation(every_form(FALL_VERBS))}|{_GOES}\s+down"
# A loss named as the subject ("did Boeing's operating loss widen") moves against the income it is.
_LOSS = re.compile(r"\bloss(?:es)?\b", re.IGNORECASE)
# The direction is what is asked of the question's subject ("has Microsoft increased its debt", "was
# there any drop in cash"); not a word of a relative clause or of a noun phrase ("a growth company").
_SUBJECT = (
    r"(?!there\b)(?:(?!(?:that|which|who|whose|where|when)\b)[\w'’&.-]+\s+){1,5}?"
    r"(?:(?:that|which|who)\s+(?:[\w'’&.-]+\s+){1,10}?)?"  # "the risk that JPM faced in Q2 2023"
)
_ASKED_DIRECTION = re.compile(
    rf"{_LEAD_IN}(?:did|does|do|has|have|had|is|are|was|were)\s+"
    rf"(?:there\s+(?:been\s+)?(?:any|a|an)\s+|(?P<subject>{_SUBJECT}))(?P<word>{_UP_WORDS}|{_DOWN_WORDS})\b",
    _I,
)
# "Does Adobe have an improving operating margin?": the direction as an adjective of what it has.
_HAS_DIRECTION = re.compile(
    rf"{_LEAD_IN}(?:did|does|do|has|have|had|is|are|was|were)\s+"
    rf"(?P<subject>{_SUBJECT})(?:have|has|had|show(?:s|ed|n)?|see|saw|report(?:s|ed)?|post(?:s|ed)?)\s+"
    rf"(?:an?\s+|any\s+)?(?P<word>{_UP_WORDS}|{_DOWN_WORDS})\b",
    _I,
)
# One company's figure against itself in another period ("higher than in the same period of 2024").
_COMPARED = re.compile(
    r"\b(?P<word>higher|more|greater|larger|bigger|lower|less|smaller)\s+(?:[\w'’-]+\s+){0,2}?than\s+"
    r"(?:(?:it|they)\s+(?:was|were)\s+)?(?:in|for|during|a\s+year|the\s+year|the\s+prior|the\s+previous)\b",
    _I,
)
_UP = re.compile(rf"^(?:{_UP_WORDS})$", _I)
_BETTER = re.compile(rf"^(?:{alternation(BETTER_FORMS)})$", _I)
_DOWN = re.compile(rf"^(?:{_DOWN_WORDS})$", _I)
_SIGN = re.compile(r"\b(positive|negative)\b", _I)
# A yes or no that is a judgement or a forecast: no computed sign answers it.
_JUDGEMENT = re.compile(
    r"\b(?:better|worse\w*|accelerat\w*|decelerat\w*|deteriorat\w*|expect\w*|guidance|outlook"
    r"|forecast\w*|project(?:s|ed|ions?)|likely|should|would|could)\b",
    _I,
)

_RANK = re.compile(
    r"\brank\w*\b|\border(?:ed)?\s+(?:them|the\s+companies|by|of)\b|\bsort\w*\b|\barrang\w*\b|\bleader\w*\b|\bleads?\b"
    r"|\b(?:highest|lowest|largest|smallest|biggest|greatest|most|least|top|bottom|fastest|slowest"
    r"|strongest|weakest|best|worst)\b"
    r"|\bwhich\s+(?:company|companies|one|firm|of\s+(?:the|them|these|those))\b|\bwho\s+(?:had|has|grew|reported)\b"
    r"|\b(?:more|less|higher|lower|bigger|larger|smaller|faster|slower)\b",
    _I,
)
# "Are its gross margins consistent (not fluctuating more than roughly 2% each year)?"
_STEADY = re.compile(r"\b(?:consisten\w*|stab(?:le|ility)|stead(?:y|ily|iness)|fluctuat\w*|volatil\w*)\b", _I)
_PERCENT_LIMIT = re.compile(r"(?P<num>\d+(?:\.\d+)?)\s*(?:%|percent\b|percentage\s+points?\b|points?\b)", _I)
_LOW = re.compile(
    r"\b(?:lowest|smallest|least|bottom|slowest|weakest|worst|less|lower|smaller|slower|ascending)\b", _I
)
_HIGH = re.compile(
    r"\b(?:highest|largest|biggest|greatest|most(?!\s+recent)|top|fastest|strongest|best|more|higher"
    r"|bigger|larger|faster|descending)\b",
    _I,
)
# "lowest first", "smallest to largest": the end a ranking starts from, named outright.
_FIRST_END = re.compile(r"\b(?P<end>\w+)\s+(?:first|to\s+(?:the\s+)?\w+est)\b", _I)
_GROWTH = re.compile(
    r"\bgr[eo]w(?:th|n|s|ing)?\b|\bchang\w*\b|\bincreas\w*\b|\bdecreas\w*\b|\bdeclin\w*\b|\bfastest\b"
    r"|\b(?:rise|rises|rose|risen|fell|fallen|jump\w*|climb\w*|drop\w*)\b"
    r"|\bslowest\b|\bcagr\b|\bcompound(?:ed)?\s+annual\b|\byear[- ]over[- ]year\b|\byoy\b",
    _I,
)
# One company's figure set against itself in another period: "Q2 2025 versus Q2 2024".
_VERSUS = re.compile(
    r"\b(?:versus|vs\.?|compared?\s+(?:with|to)|against)\s+(?:(?:that\s+of|in|for)\s+)?(?:the\s+)?"
    r"(?:Q[1-4]\b|H[12]\b|FY\s?\d|fiscal\b|(?:19|20)\d\d\b|(?:first|second|third|fourth)\s+quarter\b"
    r"|(?:same|prior|previous|preceding|corresponding|comparable)\b|a\s+year\b|last\s+year\b)",
    _I,
)
# Reports in the plural, or each of them: a question about what the company's reports say over time.
_REPORTS = re.compile(
    r"\b(?:reports|filings|10-?Qs|10-?Ks|quarters|periods|statements|disclosures|releases|calls)\b"
    r"|\beach\s+(?:[\w-]+\s+)?(?:report|filing|quarter|period|year)s?\b"
    r"|\b(?:every|all)\s+(?:[\w-]+\s+)?(?:report|filing|quarter|period)s?\b",
    _I,
)


@dataclass(frozen=True, slots=True)
class Ask:
    """What the question asks of its figures and words (JSON-ready with ``to_dict``)."""

    kind: AskKind = "value"
    metric: str | None = None
    """The metric the ask is about (ranked, compared, changed); None for a narrative."""
    highest_first: bool = True
    """A ranking's direction: False when the lowest is asked for."""
    change: ChangeKind | None = None
    """A change asked for (or the change a ranking is by: "grew the most")."""
    by_growth: bool = False
    """A ranking or winner by growth rate rather than by level."""
    leader: str | None = None
    """Overtake: the company that may have overtaken; threshold: the company."""
    trailer: str | None = None
    """Overtake: the company it may have overtaken."""
    threshold: str | None = None
    """Threshold: the amount in dollars (exact decimal text); stability: the largest move per period
    allowed, in percent (points for a ratio), when the question names one."""
    when: bool = False
    """Overtake / threshold: the question asks when (the first period in which)."""
    crossing: bool = False
    """Overtake: the verb means going from below to above ("overtake", "surpass", "pass"), not only
    being above ("exceed", "higher than")."""
    up: bool | None = None
    """Direction: True when an increase is asked about, False a decrease."""
    sign: Literal["positive", "negative"] | None = None
    """Direction: the sign asked about ("positive working capital?")."""
    narrative: bool = False
    """Words are wanted beyond the numbers (why, what drove, which risks)."""
    coverage: Coverage = "latest"
    """With no period named: every report the store holds, or the latest."""
    subjects: tuple[str, ...] = field(default=())
    """The companies, in the order the question names them."""
    about: tuple[str, ...] = field(default=())
    """The question's content words (first five letters): what a computed result must be about to
    answer it ("long-term debt" answers "its debt", not "its revenue")."""
    parts: PartsAsk | None = None
    """Which part of one company's whole ranks first (a segment, a region, a liability)."""
    judgement: str | None = None
    """Direction: a judgement read off a ratio by a rule of thumb ("capital-intensive")."""
    factor: float | None = None
    """Direction: the multiple the change must reach ("more than double": 2.0, "halve": 0.5)."""
    changed: tuple[str, ...] = field(default=())
    """The metrics the change is asked of when the question names several ("revenue and operating
    income in 2024, and how did operating income change": operating income only; the others are asked
    as values); empty: ``metric`` alone."""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["subjects"] = list(self.subjects)
        data["about"] = list(self.about)
        data["changed"] = list(self.changed)
        if data["parts"] is not None:
            data["parts"]["measure"] = list(self.parts.measure) if self.parts else []
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Ask:
        if not data:
            return cls()
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        known["subjects"] = tuple(known.get("subjects") or ())
        known["about"] = tuple(known.get("about") or ())
        known["changed"] = tuple(known.get("changed") or ())
        parts = known.get("parts")
        known["parts"] = (
            PartsAsk(**{**parts, "measure": tuple(parts.get("measure") or ())})
            if isinstance(parts, dict)
            else parts
        )
        return cls(**known)

    @property
    def computed(self) -> bool:
        """The answer's first sentence is computed from the figures (not a narrative)."""
        return self.kind != "narrative"

    @property
    def yes_no(self) -> bool:
        return self.kind in ("overtake", "threshold", "direction", "restatement", "stability")


def _order(mentions: dict[str, list[int]], tickers: list[str]) -> list[str]:
    """Tickers in the order the question first names them (unnamed ones last, as given)."""
    first = {t: min(mentions[t]) for t in tickers if mentions.get(t)}
    return sorted(tickers, key=lambda t: (first.get(t, 10**9), tickers.index(t)))


def _change_kind(words: ChangeWords, text: str, several_periods: bool) -> ChangeKind | None:
    """The one change asked, by precedence: a CAGR, then sequential, year-over-year, a trend."""
    named: tuple[tuple[ChangeKind, bool], ...] = (
        ("cagr", words.cagr),
        ("qoq", words.qoq),
        ("yoy", words.yoy),
        ("trend", words.trend),
    )
    for kind, said in named:
        if said:
            return kind
    if words.change or (several_periods and _GROWTH.search(text)):
        return "change"
    return None


def _highest_first(text: str) -> bool:
    """A ranking's direction: the end it is said to start from ("lowest first", "from largest to
    smallest"), else the only end named, else the end named first; highest first by default."""
    for match in _FIRST_END.finditer(text):
        end = match.group("end")
        if _LOW.fullmatch(end) or _HIGH.fullmatch(end):
            return not _LOW.fullmatch(end)
    low, high = _LOW.search(text), _HIGH.search(text)
    if low is None or high is None:
        return low is None
    return high.start() < low.start()


_WHICH = re.compile(r"\b(?:which|who|whose|what)\b", _I)
_SUPERLATIVE = re.compile(
    r"\b(?:highest|lowest|largest|smallest|biggest|greatest|most(?!\s+recent)|least|fewest|top)\b", _I
)


def row_pick(text: str) -> str:
    """ "highest" or "lowest" when the question asks which one stands at an end ("which nominee drew
    the most votes against", "who received the fewest votes"), else empty: a table's column answers it,
    ranked by code."""
    superlative = _SUPERLATIVE.search(text)
    if not superlative or not _WHICH.search(text):
        return ""
    end = superlative.group(0).lower()
    return "lowest" if _LOW.fullmatch(end) or end == "fewest" else "highest"


# "did its revenue more than double", "has it tripled": a multiple; "nearly doubled" asks no yes or no
_MULTIPLE = re.compile(
    r"(?<!nearly )(?<!almost )(?<!about )(?<!roughly )\b(doubl|tripl|quadrupl|halv)(?:e|ed|es|ing)\b", _I
)
_FACTORS = {"doubl": 2.0, "tripl": 3.0, "quadrupl": 4.0, "halv": 0.5}


def _factor(text: str) -> float | None:
    match = _MULTIPLE.search(text)
    return _FACTORS[match.group(1).lower()] if match else None


def _threshold(text: str) -> str | None:
    match = _AMOUNT.search(text)
    if match is None:
        return None
    number = Decimal(match.group("num").replace(",", ""))
    scale = SCALE_EXPONENTS.get((match.group("scale") or "").lower(), 0)
    return format(number.scaleb(scale).normalize(), "f")


_NEGATION = re.compile(r"\b(?:not|no|never|neither|nor|without)\b|n['’]t\b", _I)


def stated_direction(sentence: str) -> bool | None:
    """The direction a sentence states ("the risk decreased" -> False, up -> True); None when it
    states none, both, an improvement (whose direction depends on the line) or a negated one."""
    words = re.findall(r"[a-z]+", sentence.lower())
    up = any(_UP.match(w) and not _BETTER.match(w) for w in words)
    down = any(_DOWN.match(w) for w in words)
    if up == down or _NEGATION.search(sentence) or any(_BETTER.match(w) for w in words):
        return None
    return up


def _direction(
    text: str, metric: str | None = None
) -> tuple[bool | None, Literal["positive", "negative"] | None] | None:
    """(up, sign) of a yes/no question about a direction or a sign; None when it asks neither."""
    if not _YES_NO.search(text) or _JUDGEMENT.search(text):
        return None
    words = re.findall(r"[a-z]+", text.lower())
    if any(_UP.match(w) for w in words) and any(_DOWN.match(w) for w in words):
        return None  # "did debt increase or decrease?" asks which, not whether
    signs = {s.lower() for s in _SIGN.findall(text)}
    asked = _ASKED_DIRECTION.match(text) or _HAS_DIRECTION.match(text)
    if asked:
        word = asked.group("word")
        # an adjective names its figure after it ("a widening operating loss"); a verb, before it
        after = " ".join(text[asked.end("word") :].split()[:4]) if word.lower().endswith("ing") else ""
        about = f"{asked.group('subject') or ''} {after}"
        if _BETTER.match(word):
            # an improvement is a rise of what is better higher (a margin), a fall of a cost or a debt
            if not metric:
                return None
            return rise_is_better(f"{metric} {about}"), None
        up = bool(_UP.match(word))
        return (not up if _LOSS.search(about) else up), None
    if len(signs) == 1:
        return None, "positive" if "positive" in signs else "negative"
    return None


def read_ask(
    question: str,
    tickers: list[str],
    mentions: dict[str, list[int]] | None = None,
    metrics: list[str] | None = None,
    *,
    periods_named: bool = True,
    narrative: bool = False,
    changes: ChangeWords | None = None,
) -> Ask:
    """The ask of ``question`` about ``tickers`` (mentioned at ``mentions``) and ``metrics``.

    ``periods_named`` says whether the question names a period; when it names none, a change, a
    trend or a question about the company's reports covers every report the store holds, while a
    value takes the latest. ``narrative``: the question asks why or what (its words are wanted).
    ``changes``: the question's change words when already read (``read_change_words``).
    """
    text = question.replace("’", "'")
    subjects = tuple(_order(mentions or {}, list(tickers)))
    several = len(subjects) > 1
    change = _change_kind(changes or read_change_words(text), text, several)
    ties = _tied(text, metrics or [], change is not None, several)
    metric = ties[0] if ties else metrics[0] if metrics else None
    if change is None and metric and not several and _VERSUS.search(text):
        change = "change"
    about = tuple(sorted(word_keys(text)))
    base: dict[str, Any] = {"metric": metric, "narrative": narrative, "subjects": subjects, "about": about}
    asks_yes_or_no = _YES_NO.search(text) or _ASKED_OPINION.search(text)
    judgement = judgement_in(text) if len(subjects) <= 1 and asks_yes_or_no else None
    if judgement is not None:
        ask: Ask | None = Ask(kind="direction", judgement=judgement.name, **base)
    else:
        ask = _figure_ask(text, subjects, change, base) if metric else _sign_ask(text, subjects, change, base)
    if ask is None:
        kind: AskKind = "narrative" if narrative or not metric else "value"
        if metric and several:
            kind = "comparison"
        elif metric and change:
            kind = "change"
        ask = Ask(kind=kind, change=change if metric else None, **base)
    # No period named: a change, a trend, an overtake or the company's reports in the plural mean every
    # report the store holds; a value (or a ranking of values) means the latest.
    covers_all = not periods_named and (
        (ask.kind in ("change", "overtake", "threshold", "stability") and not several)
        or bool(_REPORTS.search(text))
        or (ask.kind == "narrative" and change is not None)
    )
    if covers_all and ask.change is None and ask.kind == "change":
        ask = _replace(ask, change="trend")
    parts = read_parts_ask(text) if len(subjects) <= 1 else None
    changed = ties if ask.change else ()
    return _replace(ask, coverage="all" if covers_all else "latest", parts=parts, changed=changed)


_RANKED = re.compile(_RANK.pattern.replace(r"|most|", r"|most(?!\s+recent)|"), _I)
_DIRECTION_WORDS = re.compile(rf"\b(?:{_UP_WORDS}|{_DOWN_WORDS})\b", _I)


def _tied(text: str, metrics: list[str], change: bool, several: bool) -> tuple[str, ...]:
    """The metrics the question's change (else ranking, else direction) words are said of, when it
    names several ("revenue and operating income ..., and how did operating income change")."""
    named = [n for n in metric_positions(text) if n[2] in metrics]
    words = CHANGE_ASKED if change else _RANKED if several else _DIRECTION_WORDS
    return tied_metrics(text, named, words)


def _figure_ask(
    text: str, subjects: tuple[str, ...], change: ChangeKind | None, base: dict[str, Any]
) -> Ask | None:
    """The ask of a question about a metric, when it is more than a value."""
    several = len(subjects) > 1
    if _RESTATED.search(text):
        return Ask(kind="restatement", **base)
    asks_yes_or_when = bool(_YES_NO.search(text) or _FIRST_TIME.search(text))
    if several and _YES_NO.search(text) and change and _GROWTH.search(text) and not _CROSSING.search(text):
        # "did A's revenue grow more than B's?": a growth comparison, yes when A grew the most
        return Ask(
            kind="ranking", change=change, by_growth=True, leader=subjects[0], trailer=subjects[1], **base
        )
    if several and asks_yes_or_when and _OVERTAKE.search(text):
        when, crossing = bool(_FIRST_TIME.search(text)), bool(_CROSSING.search(text))
        return Ask(
            kind="overtake", leader=subjects[0], trailer=subjects[1], when=when, crossing=crossing, **base
        )
    amount = _threshold(text)
    if amount is not None and len(subjects) == 1 and _OVERTAKE.search(text):
        return Ask(
            kind="threshold",
            leader=subjects[0],
            threshold=amount,
            when=bool(_FIRST_TIME.search(text)),
            **base,
        )
    if len(subjects) <= 1 and _YES_NO.search(text) and _STEADY.search(text):
        limit = _PERCENT_LIMIT.search(text)
        return Ask(kind="stability", threshold=limit.group("num") if limit else None, **base)
    factor = _factor(text)
    if factor is not None and len(subjects) <= 1 and _YES_NO.search(text):
        return Ask(kind="direction", up=factor > 1, factor=factor, change=change or "change", **base)
    compared = _COMPARED.search(text)
    if compared and len(subjects) <= 1 and _YES_NO.search(text) and _JUDGEMENT.search(text) is None:
        # "was IBM's revenue in Q2 2025 higher than in the same period of 2024?": a direction
        higher = compared.group("word").lower() in ("higher", "more", "greater", "larger", "bigger")
        return Ask(kind="direction", up=higher, change=change or "change", **base)
    direction = _direction(text, base.get("metric"))
    if direction is not None and len(subjects) <= 1:
        up, sign = direction
        return Ask(
            kind="direction",
            up=up,
            sign=sign,
            change=(change or "change") if up is not None else None,
            **base,
        )
    if several and _RANK.search(text):
        by_growth = change is not None and bool(_GROWTH.search(text))
        return Ask(
            kind="ranking",
            highest_first=_highest_first(text),
            change=change if by_growth else None,
            by_growth=by_growth,
            **base,
        )
    return None


def _sign_ask(
    text: str, subjects: tuple[str, ...], change: ChangeKind | None, base: dict[str, Any]
) -> Ask | None:
    """A yes/no on a direction or a sign, for a question whose metric no lookup names ("does AWK have
    positive working capital?", "was there any drop in cash?")."""
    direction = _direction(text)
    if direction is None or len(subjects) > 1:
        return None
    up, sign = direction
    return Ask(
        kind="direction", up=up, sign=sign, change=(change or "change") if up is not None else None, **base
    )


def _replace(ask: Ask, **changes: Any) -> Ask:
    return Ask(
        **{
            **ask.to_dict(),
            "subjects": ask.subjects,
            "about": ask.about,
            "parts": ask.parts,
            "changed": ask.changed,
            **changes,
        }
    )
