"""Scoring of the answers benchmark: does the first sentence answer the ask, is every gold figure in the
answer, is no sentence unsupported?

Pure functions, no finagent imports: the scorer must not share code with what it measures. Figures
are matched by ``figures_score.score_answer`` (any usual written form, at the precision shown).

The first sentence is the first sentence of the first block of text that is not a table (an answer
that opens with a table is read from the words after it). What it must do is the question's
``first``:

- ``yes_no``: open with "Yes" or "No" as given; ``when``: name one of the given periods or dates;
- ``order``: name the companies in the given order (each by any of its names);
- ``winner``: name the winner before any other company of the question;
- ``contains``: hold one figure of each group, as written in the gold.
"""

from __future__ import annotations

import re
from typing import Any

from benchmarks.figures_score import score_answer

NAMES: dict[str, tuple[str, ...]] = {
    "AAPL": ("Apple", "AAPL"),
    "ADBE": ("Adobe", "ADBE"),
    "AMZN": ("Amazon", "AMZN"),
    "BA": ("Boeing", "BA"),
    "CRM": ("Salesforce", "CRM"),
    "GOOGL": ("Alphabet", "Google", "GOOGL"),
    "HD": ("Home Depot", "HD"),
    "INTC": ("Intel", "INTC"),
    "JNJ": ("Johnson & Johnson", "J&J", "JNJ"),
    "KO": ("Coca-Cola", "Coca Cola", "KO"),
    "META": ("Meta", "META"),
    "MSFT": ("Microsoft", "MSFT"),
    "NFLX": ("Netflix", "NFLX"),
    "NKE": ("Nike", "NKE"),
    "NVDA": ("NVIDIA", "Nvidia", "NVDA"),
    "PG": ("Procter & Gamble", "P&G", "PG"),
    "WMT": ("Walmart", "WMT"),
}
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])")


def first_sentence(answer: str) -> str:
    """The first sentence a reader meets, tables skipped."""
    blocks = [b.strip() for b in answer.split("\n\n") if b.strip() and not b.lstrip().startswith("|")]
    text = blocks[0] if blocks else ""
    match = _SENTENCE_END.search(text)
    return text[: match.start()] if match else text


def _where(sentence: str, ticker: str) -> int | None:
    found = [
        m.start()
        for name in NAMES.get(ticker, (ticker,))
        for m in re.finditer(rf"(?<![\w&]){re.escape(name)}(?![\w&])", sentence, re.I if len(name) > 4 else 0)
    ]
    return min(found) if found else None


def first_answers(sentence: str, first: dict[str, Any], tickers: list[str]) -> tuple[bool, str]:
    """(whether the first sentence answers the ask, why not)."""
    if first.get("yes_no"):
        opened = re.match(r"^\W*(yes|no)\b", sentence, re.I)
        if not opened or opened.group(1).lower() != first["yes_no"]:
            return False, f"does not open with {first['yes_no']}"
        if first.get("when") and not any(w in sentence for w in first["when"]):
            return False, f"names none of {first['when']}"
    if first.get("order"):
        places = [_where(sentence, t) for t in first["order"]]
        if any(p is None for p in places):
            missing = [t for t, p in zip(first["order"], places, strict=True) if p is None]
            return False, f"does not name {missing}"
        if places != sorted(places):
            return False, "companies not in the gold order"
    if first.get("winner"):
        winner = _where(sentence, first["winner"])
        others = [p for t in tickers if t != first["winner"] and (p := _where(sentence, t)) is not None]
        if winner is None or any(p < winner for p in others):
            return False, f"{first['winner']} is not named first"
    for group in first.get("contains") or []:
        if not any(figure in sentence for figure in group):
            return False, f"holds none of {group}"
    return True, ""


def score(answer: str, question: dict[str, Any], validation_status: str | None) -> dict[str, Any]:
    """First sentence, figures and support of one answer; ``passed`` when all three hold."""
    sentence = first_sentence(answer)
    first_ok, why = first_answers(sentence, question["first"], question["tickers"])
    figures = score_answer(answer, question)
    unsupported = validation_status == "unsupported figures" or "[unverified]" in answer
    return {
        "first_sentence": sentence,
        "first_ok": first_ok,
        "first_why": why,
        **figures,
        "unsupported": unsupported,
        "passed": first_ok and bool(figures["all_exact"]) and not unsupported,
    }
