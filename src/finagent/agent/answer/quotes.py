"""An answer in the sources' own words: the passages' sentences that answer the question, quoted and
cited, each introduced by whose document it is (a news article as a news article of its date).

A small model paraphrases unreliably but quoting cannot misstate a source, so this is the answer
when none of the model's sentences stands, and a style of its own for narrative questions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from finagent.agent.answer.passage_sentences import (
    ANNOUNCES,
    MAX_CHARS,
    MIN_CHARS,
    announced,
    another_year,
    fragment,
    passage_beside,
    prose,
    quotable,
    sentence_before,
    sentences_of,
    with_what_follows,
)
from finagent.agent.answer.wording import name, owned
from finagent.finance.check.support import content_words
from finagent.finance.computed import COMPUTED
from finagent.finance.line_item import LineItem
from finagent.finance.lines import line
from finagent.finance.read.drivers import drivers_of
from finagent.finance.read.filing_sections import event_item
from finagent.finance.read.written_figures import written_days
from finagent.finance.words import SPELLED_OUT, split_sentences

_CAUSE = re.compile(r"\b(?:due to|driven by|because|primarily|result of|attributable|offset|reflect)", re.I)
_BULLET = re.compile(r"^\s*[•●▪◦·]")
_EXPECTS = re.compile(
    r"\b(?:expect(?:s|ed)?|anticipate[sd]?|projected|forecasts?)\b(?! to be material)", re.I
)
"""A sentence stating what is expected: asked a forecast, it answers though it shares few of the
question's words ("Net sales are expected to be between … for the third quarter")."""
QUOTED_LEAD = "In the sources' own words:"

Closeness = Callable[[Sequence[str]], Sequence[float]]
"""How close in meaning each sentence is to the question (the cosine of their vectors)."""

MEANING_WEIGHT = 4.0
"""Points per unit of a sentence's cosine to the question: words shared are counted, but an answer
often shares few ("cost actions" answered by "a headcount reduction of greater than 15%"), and a
sentence sharing as many words can be about something else."""

MEANING_ALONE = 0.35
"""Cosine from which a sentence sharing none of the question's words is a candidate by its meaning
("suspending the dividend", asked what cost actions a company announced)."""


def source_phrase(item: dict[str, Any], names: dict[str, list[str]]) -> str:
    """Whose words a quote is: "Apple's 10-Q for Q1 FY2023", "A news article of 2024-02-03"."""
    if item.get("kind") == "news":
        day = (item.get("published_at") or item.get("period_end") or "")[:10]
        return f"A news article of {day}" if day else "A news article"
    who = name(item["ticker"], names) if item.get("ticker") else "The"
    owner = owned(who) if item.get("ticker") else who
    period = item.get("period_label") or ""
    when = f" for {period}" if period and period != "undated" else ""
    return f"{owner} {item.get('kind') or 'document'}{when}"


def _candidates(
    item: dict[str, Any],
    terms: Set[str],
    why: bool,
    named: Set[str] = frozenset(),
    ahead: Sequence[str] = (),
    forecast: bool = False,
    close: Mapping[str, float] | None = None,
) -> list[tuple[float, int, str]]:
    """(score, position, sentence) of the item's sentences sharing a term (or, with their ``close``ness
    in meaning to the question, as close as ``MEANING_ALONE``): one point per term, one more per name
    of the question (its line or segment: "Google Cloud"), half for a stated cause, one for naming a
    year a forecast question looks to that is after its report's ("expect to … in 2023" in the 10-K
    for 2022, asked what Boeing forecasts for FY2023), asked a ``forecast``, one for stating what is
    expected, and ``MEANING_WEIGHT`` per unit of closeness."""
    own = item.get("fiscal_year") or 0
    later = [year for year in ahead if int(year) > own]
    looked_to = re.compile(rf"\b(?:{'|'.join(later)})\b") if later else None
    found: list[tuple[float, int, str]] = []
    spoken = item.get("kind") == "transcript"
    if spoken and item.get("section") == OPERATOR:
        return found
    sentences = sentences_of(item)
    # on a call, a turn that asks is an analyst's: what it says leads to its question, answering nothing
    asking = {paragraph for paragraph, sentence in sentences if spoken and _asks(sentence)}
    for position, (paragraph, sentence) in enumerate(sentences):
        if not quotable(sentence) or another_year(sentence, item.get("fiscal_year")) or paragraph in asking:
            continue
        words = content_words(sentence)
        shared = len(terms & words)
        meaning = (close or {}).get(sentence, 0.0)
        if shared or meaning >= MEANING_ALONE:
            cause = 0.5 if why and _CAUSE.search(sentence) else 0.0
            year = 1.0 if looked_to and looked_to.search(sentence) else 0.0
            expects = 1.0 if forecast and _EXPECTS.search(sentence) else 0.0
            score = shared + len(named & words) + cause + year + expects + MEANING_WEIGHT * meaning
            found.append((score, position, sentence))
    return found


def _closeness(items: Sequence[dict[str, Any]], closeness: Closeness) -> dict[str, float]:
    """Each quotable sentence of the passages with its closeness in meaning to the question, asked
    once for them all."""
    sentences = list(dict.fromkeys(s for item in items for _, s in sentences_of(item) if quotable(s)))
    return dict(zip(sentences, (float(c) for c in closeness(sentences)), strict=True)) if sentences else {}


def _asks(sentence: str) -> bool:
    return sentence.rstrip("”\"’' ").endswith("?")


OPERATOR = "Operator"
"""A call's operator (a transcript passage's section is its speaker): greets and hands over, never
answers."""


def driver_lines(metrics: Sequence[str]) -> tuple[LineItem, ...]:
    """The lines whose drivers a question asks for: its reported metrics, and a ratio's first input
    (a gross margin is explained by what moved gross profit)."""
    lines: list[LineItem] = []
    for metric in metrics:
        ratio = COMPUTED.get(metric)
        try:
            lines.append(line(ratio.inputs[0] if ratio is not None else metric))
        except KeyError:
            continue
    return tuple(dict.fromkeys(lines))


def _driver_candidates(
    item: dict[str, Any],
    terms: Set[str],
    lines: Sequence[LineItem],
    named: Set[str],
    parts: Sequence[str],
    before: str | None = None,
) -> list[tuple[float, int, str]]:
    """(score, position, quote) of the item's sentences that give a cause of a line asked (or of a
    part of it the question names), each with the sentence naming what changed when its own subject
    does not ("The increase was due to …"; for the first, the sentence ``before`` the passage), then
    those explaining one of these causes ("comparable sales growth was driven by growth in
    transactions"), ranked just under the best of them."""
    text = prose(item)
    found: list[tuple[float, int, str]] = []
    for asked in lines:
        direct = 0.0
        for driver in drivers_of(text, asked, parts=parts, year=item.get("fiscal_year"), before=before):
            quote = driver.quoted
            if len(quote) > 2 * MAX_CHARS or fragment(driver.sentence):
                continue
            words = content_words(quote)
            score = 1.0 + len(terms & words) + len(named & words)
            if driver.explains:  # a cause's own driver: next after the line's own drivers
                score = max(direct - DEEPER, score - DEEPER)
            else:
                direct = max(direct, score)
            found.append((score, driver.position, quote))
    return found


DEEPER = 0.5
"""Points a cause's own driver ranks below the line's best driver in the same passage."""


@dataclass(frozen=True)
class Quote:
    """A sentence of a passage chosen to answer, with the passage it is from."""

    item: dict[str, Any]
    sentence: str

    def line(self, names: dict[str, list[str]]) -> str:
        """The quote as an answer line: whose words, the sentence, its citation."""
        return f"- {source_phrase(self.item, names)}: “{self.sentence.rstrip()}” [{self.item['label']}]"


def in_windows(item: dict[str, Any], windows: Sequence[tuple[str, str]]) -> bool:
    """Whether a passage may answer a question asking for the news of some days (``windows``): any
    document but an article, and an article that came out on one of them."""
    if item.get("kind") != "news" or not windows:
        return True
    day = str(item.get("published_at") or "")[:10]
    return any(first <= day <= last for first, last in windows)


def quoted_answer(
    items: Sequence[dict[str, Any]],
    terms: Sequence[str],
    names: dict[str, list[str]],
    limit: int = 3,
    **options: Any,
) -> str:
    """The answer lines of ``chosen_quotes`` (``options`` are its) under the quoted lead (an 8-K's
    Items' openings when no sentence shares a term); empty when there are none."""
    chosen = chosen_quotes(items, terms, names, limit=limit, **options)
    return quoted_block([q.line(names) for q in chosen] or event_openings(items, names, limit))


def chosen_quotes(
    items: Sequence[dict[str, Any]],
    terms: Sequence[str],
    names: dict[str, list[str]],
    why: bool = False,
    limit: int = 3,
    named: Sequence[str] = (),
    ahead: Sequence[str] = (),
    drivers: Sequence[LineItem] = (),
    recent: bool = False,
    forecast: bool = False,
    closeness: Closeness | None = None,
) -> list[Quote]:
    """The ``limit`` passage sentences sharing most of the question's terms (its names, other than the
    companies', counting twice), filings before news and an 8-K's own Items before its exhibits, the
    best first, none sharing half the best one's score or less; none when no sentence shares a term.
    A forecast question's years (``ahead``) lift the sentences that name them, and asked where a
    matter stands (``recent``), the sentences writing the latest days are lifted; the opening sentence of
    a part read for its opening (``_openings``) comes first. Asked what drove a line
    (``drivers``), only sentences giving a cause of that line are quoted: none, when no passage gives
    one (a sentence about the next line of the paragraph is not a driver of this one). With a
    ``closeness`` in meaning to the question, every other quote counts it beside the words it shares."""
    # a term of two letters left among the question's content words is an acronym ("AI", "EV")
    wanted = content_words(" ".join(t.upper() if len(t) == 2 else t for t in terms))
    companies = content_words(" ".join([*names, *(alias for aliases in names.values() for alias in aliases)]))
    own_names = content_words(" ".join(named)) - companies
    picked: list[tuple[float, int, int, str]] = []
    close = _closeness(items, closeness) if closeness and not drivers else None
    for rank, item in enumerate(items):
        if drivers:
            parts = [n for n in named if content_words(n) and not content_words(n) <= companies]
            before = sentence_before(item, items)
            found = _driver_candidates(item, wanted, drivers, own_names, parts, before)
        else:
            found = _candidates(item, wanted, why, own_names, ahead, forecast, close)
        ranked_here = sorted(found, key=lambda f: (-f[0], f[1]))  # ties: the earlier sentence
        news = 1 if item.get("kind") == "news" else 0
        # an 8-K's account of its event
        own = 1 if event_item(item.get("kind"), item.get("section"), item.get("text") or "") else 0
        picked += _news(
            [(score - news + own, rank, position, sentence) for score, position, sentence in ranked_here]
        )[:2]
    about = _about_the_matter(items, wanted - companies, own_names) if recent else set()
    if recent:  # where a matter stands: the latest dated sentences of the passages about it
        picked += _latest_developments(items, about, max((p[0] for p in picked), default=0.0))
    ranked = _one_copy(sorted(picked, key=lambda p: (-p[0], p[1], p[2])))
    top = ranked[0][0] if ranked else 0.0
    # a sentence scoring half the best one's or less answers something else (a release's closing
    # "available online at www.jnj.com" beside its opening that gives the gain asked)
    chosen = [entry for entry in ranked if entry[0] == top or entry[0] * 2 > top]
    if recent:  # where a matter stands: its latest developments first
        chosen = _latest_first(chosen, items, about)
    chosen = _news([*_openings(items), *chosen])[:limit]
    quotes = [Quote(items[rank], sentence) for _, rank, _, sentence in chosen]  # the best first
    if not drivers:  # a driver is its own sentence, with the one naming what changed
        quotes = _grown(quotes, items)
    return quotes


LEAD_IN_CHARS = 120
"""A quoted sentence this short seldom says all: it opens what follows it ("The Company manages its
business primarily on a geographic basis." before the segments it lists)."""


def _grown(quotes: list[Quote], items: Sequence[dict[str, Any]]) -> list[Quote]:
    """The best quote, and every short one (``LEAD_IN_CHARS``), with what follows it in its paragraph
    (``with_what_follows``) up to a better quote; one announcing what follows with what it announces,
    in the passage after its own if need be (``announced``); a later quote the best one now holds is
    dropped."""
    grown: list[Quote] = []
    for rank, quote in enumerate(quotes):
        if rank == 0 or len(quote.sentence) < LEAD_IN_CHARS:
            better = {q.sentence for q in quotes[:rank]}
            if ANNOUNCES.search(quote.sentence):
                sentence = announced(
                    quote.item, quote.sentence, passage_beside(quote.item, items, later=True), better
                )
            else:  # a part's opening or a list: read on across paragraphs
                across = bool(quote.item.get("opening") or _BULLET.match(quote.sentence))
                sentence = with_what_follows(quote.item, quote.sentence, across, better)
            quote = Quote(quote.item, sentence)
        if not any(quote.sentence in kept.sentence for kept in grown):
            grown.append(quote)
    return grown


REPEATS = 0.6
"""Share of a sentence's words a better quote already says from which it only repeats it ("… due to
increases in comparable sales, including fuel, of 4.7% …" after "… comparable sales of 4.8% …")."""


def _news(entries: list[tuple[float, int, int, str]]) -> list[tuple[float, int, int, str]]:
    """The entries in their order, without one that mostly repeats a better one's words (a segment's
    restatement of the company's sentence): its place goes to one saying something more. Figures
    where the better one states none are something more (the share a footnote's words only name),
    and so is a day it does not write (another event: a dividend declared in December after one
    declared in August)."""
    kept: list[tuple[tuple[float, int, int, str], set[str], set[str], set[date]]] = []
    for entry in _one_copy(entries):
        words, figures, days = (
            content_words(entry[3]),
            set(_FIGURE.findall(entry[3])),
            set(written_days(entry[3])),
        )
        repeats = any(
            len(words & said) >= REPEATS * len(words) and (stated or not figures) and days <= dated
            for _, said, stated, dated in kept
            if words
        )
        if not repeats:  # new words, or figures where the better quote gives none ("accounted for 42%")
            kept.append((entry, words, figures, days))
    return [entry for entry, _, _, _ in kept]


_FIGURE = re.compile(r"\d[\d,.]*%|\$\s?\d[\d,.]*|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+")
"""A figure a sentence states: a percent, an amount, a number with thousands or decimals (not a
footnote's "(1)" or a year)."""


def _one_copy(entries: list[tuple[float, int, int, str]]) -> list[tuple[float, int, int, str]]:
    """The entries in their order, without a sentence another kept one holds (a repeated sentence)."""
    unique: dict[str, tuple[float, int, int, str]] = {}
    for entry in entries:
        key = " ".join(entry[3].split()).lower()
        if not any(key in kept or kept in key for kept in unique):
            unique[key] = entry
    return list(unique.values())


def _openings(items: Sequence[dict[str, Any]]) -> list[tuple[float, int, int, str]]:
    """The first quotable sentence of the first passage a part opens with in each filing (marked
    ``opening`` by the search), to quote before the others: a part opens with what it is about
    ("AbbVie is a global … biopharmaceutical company … with leadership positions across
    immunology, oncology …"), in words the question seldom shares."""
    found, documents = [], set()
    for rank, item in enumerate(items):
        if item.get("opening") and item.get("document_id") not in documents:  # its first passage
            documents.add(item.get("document_id"))
            first = next(((p, s) for p, (_, s) in enumerate(sentences_of(item)) if quotable(s)), None)
            found += [(0.0, rank, *first)] if first else []
    return found


RECENT_DAYS = 92
"""Days before the latest day written that still count as the matter's latest developments."""


MATTER_TERMS = 2
"""Question terms a passage shares to be about the matter asked (its name and what it is)."""


def _latest_developments(
    items: Sequence[dict[str, Any]], about: Set[int], score: float
) -> list[tuple[float, int, int, str]]:
    """The sentences writing the latest day among the passages about the matter (the ranks in
    ``about``), scored as the best quote: the latest development ("On March 31, 2025, the court
    dismissed the case") seldom repeats the question's words, and another matter's is no development
    of it."""
    dated = []
    for rank, item in enumerate(items):
        if rank not in about:
            continue
        for position, (_, sentence) in enumerate(sentences_of(item)):
            day = _happened(item, sentence) if quotable(sentence) else None
            if day is not None:
                dated.append((day, rank, position, sentence))
    if not dated:
        return []
    latest = max(d[0] for d in dated)
    recent = [d for d in dated if (latest - d[0]).days <= RECENT_DAYS]
    return [(score, rank, position, sentence) for _, rank, position, sentence in recent[:2]]


FILED_WITHIN = timedelta(days=100)
"""How long after its period's end a report is filed at the latest: a day written later than that is
a plan ("bellwether trials … in January 2026"), not a development it reports."""


def _happened(item: dict[str, Any], sentence: str) -> date | None:
    """The latest day the sentence writes that had come by the time its report was filed."""
    end = item.get("period_end")
    filed = date.fromisoformat(str(end)[:10]) + FILED_WITHIN if end else None
    days = [d for d in written_days(sentence) if filed is None or d <= filed]
    return max(days, default=None)


def _about_the_matter(items: Sequence[dict[str, Any]], terms: Set[str], named: Set[str]) -> set[int]:
    """The ranks of the passages about the matter asked: those writing the names the question gives it
    ("the European Commission's case"; a name or its abbreviation, "the EC"; a quarter asked is no
    name), else those sharing ``MATTER_TERMS`` of the question's terms."""
    names = {n for n in named if not re.fullmatch(r"q[1-4]", n)}
    for short, phrase in SPELLED_OUT.items():  # "European Commission" is written "EC" too
        if short in names:
            names -= content_words(phrase) - {short}
    about = set()
    for rank, item in enumerate(items):
        words = content_words(item.get("text") or "")
        if names <= words if names else len(terms & words) >= MATTER_TERMS:
            about.add(rank)
    return about


def _latest_first(
    chosen: list[tuple[float, int, int, str]], items: Sequence[dict[str, Any]], about: Set[int]
) -> list[tuple[float, int, int, str]]:
    """The quotes of passages about the matter writing a day within ``RECENT_DAYS`` of the latest any
    of them writes first ("On March 31, 2025, the court dismissed …" before the 2023 filing's
    account; not another case's latest ruling), each group best first."""
    days = [_happened(items[entry[1]], entry[3]) if entry[1] in about else None for entry in chosen]
    known = [d for d in days if d is not None]
    if not known:
        return chosen
    latest = max(known)
    late = [d is not None and (latest - d).days <= RECENT_DAYS for d in days]
    return [entry for entry, is_late in zip(chosen, late, strict=True) if is_late] + [
        entry for entry, is_late in zip(chosen, late, strict=True) if not is_late
    ]


_ITEM_HEADING = re.compile(r"^\s*(Item\s+\d{1,2}\.\d{2}\b[^.]{0,120}\.)\s*", re.I)
_EVENT_CHARS = 500


_DEFINED_TERM = re.compile(r"\s*\((?:[^()“”\"]*?,\s*)?(?:the\s+)?[“\"][^”\"]{1,60}[”\"][^()]*\)")
"""A defined term's parenthesis ("(the “2026 Notes”)", "(“Apple”)"): the filing's shorthand for
what its sentence has just named."""


def _shortened(sentence: str) -> str:
    """A long legal sentence without its defined terms' parentheses, then up to its last clause
    break within ``_EVENT_CHARS``, marked "…": what an issue of notes lists comes before the cut."""
    if len(sentence) <= _EVENT_CHARS:
        return sentence
    sentence = _DEFINED_TERM.sub("", sentence)
    if len(sentence) <= _EVENT_CHARS:
        return sentence
    cut = max(sentence.rfind(", ", 0, _EVENT_CHARS), sentence.rfind(") ", 0, _EVENT_CHARS) + 1)
    return sentence[: cut if cut > MIN_CHARS else _EVENT_CHARS].rstrip(", ") + " …"


def event_quotes(items: Sequence[dict[str, Any]], limit: int = 3) -> list[tuple[Quote, str]]:
    """(the first sentence, whole, of each of an 8-K's own Items; the Item's heading), in the
    filing's order: what the filing reports."""
    found: list[tuple[Quote, str]] = []
    for item in items:
        text = " ".join((item.get("text") or "").split())
        heading = _ITEM_HEADING.match(text)
        if not heading or not event_item(item.get("kind"), item.get("section")):
            continue
        first = split_sentences(text[heading.end() :], capital_next=True)[0].strip()
        if len(first) >= MIN_CHARS and all(first != q.sentence for q, _ in found):
            found.append((Quote(item, first), heading.group(1).rstrip(".")))
    return found[:limit]


def event_openings(items: Sequence[dict[str, Any]], names: dict[str, list[str]], limit: int = 3) -> list[str]:
    """What an 8-K reports, when no sentence shares the question's words ("the key agenda of its 8-K"):
    each of its own Items' heading and first sentence (a long legal one cut at a clause), in the
    filing's order."""
    lines = [
        f"- {source_phrase(q.item, names)}, {title}: “{_shortened(q.sentence)}” [{q.item['label']}]"
        for q, title in event_quotes(items, limit=len(items))
    ]
    return list(dict.fromkeys(lines))[:limit]


def opening_quote(item: dict[str, Any], names: dict[str, list[str]]) -> str:
    """A passage's first sentence, quoted and cited: the closest passage shown as context when no
    sentence of any passage shares the question's words."""
    sentences = split_sentences(" ".join((item.get("text") or "").split()), capital_next=True)
    first = _shortened(sentences[0].strip()) if sentences else ""
    return f"- {source_phrase(item, names)}: “{first}” [{item['label']}]" if first else ""


def event_report(items: Sequence[dict[str, Any]], names: dict[str, list[str]]) -> str:
    """What the 8-K a question asks about reports, in its own words (its Items' openings, quoted),
    or empty when no passage is one of its Items."""
    return quoted_block(event_openings(items, names))


def quoted_block(lines: Sequence[str]) -> str:
    """Quoted source lines under the lead that says they are the sources' own words; empty for none."""
    return f"{QUOTED_LEAD}\n" + "\n".join(lines) if lines else ""
