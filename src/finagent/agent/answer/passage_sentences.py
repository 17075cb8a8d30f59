"""A passage's prose read sentence by sentence, as a quoted answer reads it: paragraphs joined, table
rows that read as words kept, and which sentences are whole and say something themselves."""

from __future__ import annotations

import re
from collections.abc import Sequence, Set
from typing import Any

from finagent.finance.check.answer_shape import is_pointer
from finagent.finance.words import split_sentences

_FISCAL_YEAR = re.compile(r"\b(?:fiscal(?: year)?|FY)\s?(\d{4})\b", re.I)
MIN_CHARS, MAX_CHARS = 25, 420


PROSE_CELL = 80
"""Characters from which a table's cell is prose (an officer's career in the 10-K's table of
executive officers): its row is read as a sentence of its own."""


WORDED_ROW = 0.6
"""Share of a row's printed characters that are letters from which the row is words, not figures
("Class A Common Stock, $0.001 par value | GOOGL | Nasdaq Stock Market LLC" on a cover page)."""


def prose_row(line: str) -> bool:
    """A table row that reads as words: a cell of prose, or cells that are mostly letters beyond the
    row's label (a row of a label and its figures is figures)."""
    cells = [c.strip() for c in line.split("|")]
    if any(len(c) >= PROSE_CELL and sum(ch.isalpha() for ch in c) * 2 > len(c) for c in cells):
        return True
    if not any(sum(ch.isalpha() for ch in c) >= 2 for c in cells[1:]):
        return False  # a label and its figures ("Net loss attributable to … | ($11,875) | …")
    printed = [ch for ch in line if not ch.isspace() and ch != "|"]
    letters = sum(ch.isalpha() for ch in printed)
    return letters >= MIN_CHARS and letters >= WORDED_ROW * len(printed)


def sentences_of(item: dict[str, Any]) -> list[tuple[int, str]]:
    """(paragraph, sentence) of a passage's prose, in order: a paragraph's lines joined (a heading
    without a full stop is a paragraph of its own, never a sentence's start); table rows left out but
    those that read as words (``prose_row``), each a paragraph of its own, read as written ("Robert
    K. Ortberg | 64 | President and Chief Executive Officer … since August 8, 2024. …")."""
    found: list[tuple[int, str]] = []
    index = 0
    for paragraph in re.split(r"\n\s*\n", item.get("text") or ""):
        prose, rows = [], []
        for written in (ln for ln in paragraph.splitlines() if ln.strip()):
            if "|" not in written:
                prose.append(written)
            elif prose_row(written):
                rows.append(written.strip())
        for text in [" ".join(prose), *rows]:
            found += [(index, s.strip()) for s in split_sentences(text, capital_next=True) if s.strip()]
            index += 1
    return found


def quotable(sentence: str) -> bool:
    """A whole sentence of words, of a quotable length, that says something itself: not a pointer
    elsewhere ("incorporated herein by reference to Note 19"), a fragment, a signature or a title."""
    letters = sum(ch.isalpha() for ch in sentence)
    if not MIN_CHARS <= len(sentence) <= MAX_CHARS or letters < len(sentence) / 2 or is_pointer(sentence):
        return False
    return not (fragment(sentence) or _FORMALITY.search(sentence) or _title(sentence))


TITLE_WORDS = 0.7
"""Share of a line's words in capitals from which it is a title ("The Boeing Company and Subsidiaries
Consolidated Statements of Operations (Dollars in millions, except per share data)"), not a sentence."""


def _title(sentence: str) -> bool:
    """A heading or a statement's title: no full stop, most of its words capitalised (a table row read
    as words is printed as the filing prints it, and is no title)."""
    if "|" in sentence or re.search(r"[.!?][\"”’]?$", sentence):
        return False  # a sentence ends with its stop; a title with a word or a bracket
    words = re.findall(r"[A-Za-z][A-Za-z’'-]+", re.sub(r"\([^)]*\)", " ", sentence))  # "(Dollars in …)" aside
    significant = [w for w in words if len(w) > 3]
    capitals = sum(w[0].isupper() for w in significant)
    return len(significant) >= 4 and capitals >= TITLE_WORDS * len(significant)


FOLLOW_CHARS = 640
"""How long the best quote may grow with the sentences after it in its paragraph."""


def with_what_follows(
    item: dict[str, Any], sentence: str, across: bool = False, before: Set[str] = frozenset()
) -> str:
    """The best quote with the sentences after it in its paragraph (in its passage, ``across``
    paragraphs: a part's opening, whose first paragraph may be one line), up to ``FOLLOW_CHARS``: what
    answers often continues there ("… will transition from his role. … Kevan Parekh … will become
    Chief Financial Officer"), up to a sentence quoted ``before`` it."""
    sentences = sentences_of(item)
    at = next((i for i, (_, s) in enumerate(sentences) if s == sentence), None)
    if at is None:
        return sentence
    paragraph, quote = sentences[at][0], sentence
    for index, following in sentences[at + 1 :]:
        if (
            (index != paragraph and not across)
            or not quotable(following)
            or len(quote) + len(following) + 1 > FOLLOW_CHARS
        ):
            break
        if another_year(following, item.get("fiscal_year")) or following in before:
            break
        quote = f"{quote} {following}"
    return quote


ANNOUNCES = re.compile(r"\b(?:set forth below|as follows|the following)\b[^.]{0,40}[.:]$|:$", re.I)
"""A sentence announcing what follows it ("We provided guidance … as set forth below.")."""


def announces_what_follows(text: str) -> bool:
    """A passage with a sentence announcing what follows it: what it announces may begin in the
    passage after it (the guidance listed under its own heading)."""
    return any(ANNOUNCES.search(sentence) for _, sentence in sentences_of({"text": text}))


def announced(
    item: dict[str, Any], sentence: str, after: dict[str, Any] | None, before: Set[str] = frozenset()
) -> str:
    """A sentence announcing what follows, with what it announces: what comes after its paragraph
    (which may go on with caveats: "These forward-looking statements reflect …"), headings and
    disclaimers passed over, read on into the passage ``after`` its own when its own ends first, up
    to ``FOLLOW_CHARS`` or a sentence quoted ``before`` it. "…" marks what was passed over."""
    sentences = sentences_of(item)
    at = next((i for i, (_, s) in enumerate(sentences) if s == sentence), None)
    if at is None:
        return sentence
    rest = [s for p, s in sentences[at + 1 :] if p != sentences[at][0]]
    skipped = len(sentences) - at - 1 > len(rest)
    if after is not None:
        rest += [s for _, s in sentences_of(after) if s not in rest]
    quote, gap = sentence, skipped
    for following in rest:
        if following in before:
            break
        if not quotable(following):
            gap = True
            continue
        joined = f"{quote} {'… ' if gap else ''}{following}"
        if len(joined) > FOLLOW_CHARS:
            break
        quote, gap = joined, False
    return quote


_FORMALITY = re.compile(
    r"/s/|\bSection 906\b|\bpursuant to the requirements of the Securities Exchange Act\b"
    r"|\bhas caused this report to be signed\b|\bforward-looking\b|\bsafe harbor\b"
    r"|\b(?:the\s+)?following\s+tables?\b"
    r"|\bconcludes\s+(?:our|today'?s|the|this)\b[^.]{0,40}\bcall\b|\bmedia\s+relations\b",
    re.I,
)
"""A signature, a certification or a disclaimer: it names the officer who signed, or warns that what
is said may not come true ("… will consist of forward-looking statements, including … gross margin,
operating expenses …", "… statements regarding guidance … are forward-looking."), never what the
filing or the call reports, however many words it shares; nor does the lead-in of a table ("The
following table sets forth our revenue by source …"), whose rows are not quoted with it, nor a
call's closing ("That concludes our earnings call. … please call our media relations team")."""

_OPENS_MID_SENTENCE = re.compile(r"[a-z]+\b(?![’'-]?[A-Z])")
"""A first word in lower case ("and Geographic Data …", "except in Japan"), not a brand ("iPhone")."""


def fragment(sentence: str) -> bool:
    """A piece of a sentence, not one: cut off where the passage ends ("... Cost of Products S"), begun
    where the passage begins inside a sentence ("and Geographic Data” for …") or torn from a table
    header ("Consumer Health) July 2023 (incl."). A table row read as words is whole as printed."""
    if "|" in sentence and not sentence.rstrip().endswith("|"):
        return False
    if not re.search(r"[.!?;\"”’)]$", sentence) or _OPENS_MID_SENTENCE.match(sentence):
        return True  # a sentence ending in ":" announces what follows (a table's lead-in), which it is not
    depth = 0
    for char in sentence:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return True
    return depth != 0


def another_year(sentence: str, own: int | None) -> bool:
    """The sentence is about another fiscal year than its report's ("For fiscal 2024, comparable sales
    growth was driven by …" in the fiscal 2025 10-K, which discusses the year before too)."""
    named = {int(year) for year in _FISCAL_YEAR.findall(sentence)}
    return bool(own and named) and own not in named


def prose(item: dict[str, Any]) -> str:
    """The passage's lines of words (its table rows left out), joined."""
    return " ".join(ln for ln in (item.get("text") or "").splitlines() if ln.strip() and "|" not in ln)


def passage_beside(
    item: dict[str, Any], items: Sequence[dict[str, Any]], *, later: bool
) -> dict[str, Any] | None:
    """The passage right after (``later``) or before ``item`` in its document among ``items`` (the
    evidence holds it when the search read it beside a hit)."""
    document, start = item.get("document_id"), item.get("char_start")
    if document is None or start is None:
        return None
    side = [
        other
        for other in items
        if other.get("document_id") == document
        and ((other.get("char_start") or 0) > start if later else (other.get("char_start") or 0) < start)
    ]
    if later:
        return min(side, key=lambda other: other.get("char_start") or 0, default=None)
    return max(side, key=lambda other: other.get("char_start") or 0, default=None)


def sentence_before(item: dict[str, Any], items: Sequence[dict[str, Any]]) -> str | None:
    """The last sentence before the passage in its document, when the evidence holds the passage
    before it (passages overlap: read up to where this one begins)."""
    previous = passage_beside(item, items, later=False)
    opening = split_sentences(" ".join(prose(item).split()), capital_next=True)[:1]
    if previous is None or not opening:
        return None
    text = " ".join(prose(previous).split())
    cut = text.find(opening[0].strip()[:60])
    sentences = split_sentences(text[:cut] if cut >= 0 else text, capital_next=True)
    return sentences[-1].strip() if sentences else None
