"""Recognise primary financial statements among table chunks (income, balance sheet, cash flow).

Reported figures live in the primary statements; MD&A and note tables repeat parts of them. Knowing
which chunk *is* the statement lets search prefer it for line-item queries ("total net sales").
The caption (statement title) decides when present; otherwise the row labels vote.
"""

from __future__ import annotations

import re

from finagent.finance.line_item import BALANCE, CASH_FLOW, EQUITY, INCOME

_CAPTIONS = (
    (CASH_FLOW, re.compile(r"statements? of cash flows?", re.I)),
    (
        EQUITY,
        re.compile(
            r"statements? of (changes in )?(stockholders|shareholders|share ?owners)['’]? equity", re.I
        ),
    ),
    (BALANCE, re.compile(r"balance sheets?|statements? of financial (position|condition)", re.I)),
    (
        INCOME,
        re.compile(
            r"statements? of (consolidated )?(operations|income|earnings)(?! and comprehensive)", re.I
        ),
    ),
)

# Row labels (start of a table row) typical of each statement; a statement shows several of them.
_ROWS = {
    INCOME: re.compile(
        r"^(total )?(net )?(sales|revenues?)\b|^cost of (sales|revenues?|goods sold)|^gross (margin|profit)"
        r"|^(total )?operating (income|expenses)|^income from operations|^operating (loss|profit)"
        r"|^net (income|earnings|loss)\b|^(basic|diluted)\b|^provision for income taxes|^income before",
        re.I,
    ),
    BALANCE: re.compile(
        r"^total (current )?assets|^total (current )?liabilities|^cash and cash equivalents"
        r"|^accounts receivable|^inventor(y|ies)|^property,? plant|^goodwill|^retained earnings"
        r"|^total (stockholders|shareholders)['’]? equity|^accounts payable",
        re.I,
    ),
    CASH_FLOW: re.compile(
        r"operating activities|investing activities|financing activities|^depreciation and amortization"
        r"|^payments? for|^purchases? of property|^proceeds from"
        r"|^cash.*(beginning|end) of (the )?(period|year)",
        re.I,
    ),
    EQUITY: re.compile(
        r"^(beginning |ending )?balances?\b|^dividends|^repurchases? of common"
        r"|^common stock (issued|repurchased)|^share-based compensation|^stock-based compensation"
        r"|^retained earnings|^other comprehensive",
        re.I,
    ),
}
_MIN_VOTES = 4  # row labels alone: several statement lines must be present
_MIN_VOTES_WITH_CAPTION = 2  # a matching title needs fewer (and keeps index/TOC tables out)


# Page-text extraction sometimes splits a word's last letter off ("Statement of Incom e").
_SPLIT_LETTER = re.compile(r"(?<=[A-Za-z]{3}) (?=[a-z]\b)")
_HEAD_CHARS = 400
_TITLE_CHARS = 160
# "... included in our consolidated balance sheets were as follows": a sentence naming the statement.
_IN_A_SENTENCE = re.compile(
    r"\b(?:our|the|in|its|of|to|from|and)\s+(?:(?:condensed|consolidated)\s+)*$", re.I
)


def titled(text: str, statement: str | None) -> bool:
    """The chunk opens with its statement's own title ("Consolidated Balance Sheets"): the statement
    itself, not a note's table of some of its lines (Verizon's asset-backed debt assets)."""
    head = _SPLIT_LETTER.sub("", text[:_TITLE_CHARS])
    return any(
        name == statement and not _IN_A_SENTENCE.search(head[: match.start()])
        for name, pattern in _CAPTIONS
        for match in pattern.finditer(head)
    )


def classify_statement(text: str, caption: str | None = None, *, require_title: bool = False) -> str | None:
    """The primary statement a table chunk belongs to, or None for other tables (segments, notes…).

    A title ("Consolidated Statements of Cash Flows") decides when the rows agree with it; a table of
    contents that merely lists the titles has no such rows. Without a title, the row labels vote,
    unless ``require_title``: a whole page (page-text sources) always shows its statement's title,
    and segment or geographic tables on other pages repeat statement rows without one.
    """
    labels = [line.split("|", 1)[0].strip() for line in text.splitlines() if "|" in line]
    votes = {name: sum(bool(rx.search(label)) for label in labels) for name, rx in _ROWS.items()}
    head = _SPLIT_LETTER.sub("", "\n".join(filter(None, (caption, text[:_HEAD_CHARS]))))
    if not require_title:
        head = caption or "\n".join(text.splitlines()[:2])
    for name, pattern in _CAPTIONS:
        if pattern.search(head) and votes[name] >= _MIN_VOTES_WITH_CAPTION:
            return name
    if require_title:
        return None
    best = max((INCOME, BALANCE, CASH_FLOW), key=lambda name: votes[name])
    return best if votes[best] >= _MIN_VOTES else None
