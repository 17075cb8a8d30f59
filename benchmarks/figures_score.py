"""Scoring of the figures benchmark: is every gold figure in the answer text, in any usual form?

Pure functions, no finagent imports: the scorer must not share code with what it measures.

A figure counts as found when some number in the answer equals it within the rounding of the
precision the answer shows ("$638 billion" matches 637,959 million, "$0.6 trillion" is too coarse):

- amounts (unit "USD millions" / "USD thousands") need >= 3 significant digits; scale words matter
  (thousand/million/billion/trillion, k, M/mn/mm, B/bn, T/tn); a number without a scale word is read
  in the gold's own unit (a table in millions) or as plain dollars; the sign is not compared, because
  a loss is written "(10,707)", "-$10.7 billion" and "a loss of $10.7 billion" alike;
- per-share values ("USD per share") must be shown to the cent and carry no scale word or "%";
- percentages need "%" or "percent" and lie within ±0.05 of the gold (which is rounded to 0.1); a
  negative gold needs a minus, parentheses or a decline word next to it ("a 1.4% decline"), and a
  positive gold must not be written as negative.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

SCALES: dict[str, float] = {
    "thousand": 1e3,
    "thousands": 1e3,
    "k": 1e3,
    "million": 1e6,
    "millions": 1e6,
    "mn": 1e6,
    "mm": 1e6,
    "m": 1e6,
    "billion": 1e9,
    "billions": 1e9,
    "bn": 1e9,
    "b": 1e9,
    "trillion": 1e12,
    "trillions": 1e12,
    "tn": 1e12,
    "t": 1e12,
}
UNIT_DOLLARS: dict[str, float] = {"USD millions": 1e6, "USD thousands": 1e3}
AMOUNT_UNITS = frozenset(UNIT_DOLLARS)
PER_SHARE = "USD per share"
PERCENT = "percent"
UNITS = frozenset({*AMOUNT_UNITS, PER_SHARE, PERCENT})

MIN_SIGNIFICANT_DIGITS = 3
PERCENT_TOLERANCE = 0.05

_NUMBER = re.compile(
    r"(?<![\w.,])"  # never inside a longer number or word: "1,797" is not in "81,797"
    r"(?P<minus>[-−–]\s?)?"
    r"(?:(?:US|USD\s?)?\$\s?)?"
    r"(?P<open>\()?"
    r"(?:(?:US|USD\s?)?\$\s?)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?![\d,]\d)"
    r"(?P<close>\))?"
    r"(?:\s?(?P<pct>%|percent(?:age points?)?\b|per\scent\b|pct\b))?"
    r"(?:\s?(?P<scale>trillions?|billions?|millions?|thousands?|tn|bn|mn|mm|[kmbt])\b)?",
    re.IGNORECASE,
)
_DECLINE = re.compile(
    r"\b(declin\w*|decreas\w*|down|fell|fall\w*|drop\w*|lower|contract\w*|shr[ai]nk\w*|negative|slid\w*|"
    r"dipped|dip|reduc\w*)\b",
    re.IGNORECASE,
)
_GROWTH = re.compile(
    r"\b(gr[eo]w\w*|increas\w*|up|rose|ris\w*|gain\w*|higher|jump\w*|positive)\b", re.IGNORECASE
)
_CLAUSE_BREAK = re.compile(r"[.;\n]|,\s|\bwhile\b|\bwhereas\b|\bbut\b", re.IGNORECASE)
CUE_BEFORE = 45
CUE_AFTER = 25


@dataclass(frozen=True)
class Number:
    """One number as the answer shows it."""

    value: float  # as written, unsigned ("637.96")
    decimals: int
    significant: int
    negative: bool  # minus sign or parentheses
    percent: bool
    scale: float | None  # multiplier of a scale word, None without one
    start: int
    end: int


def _significant_digits(digits: str) -> int:
    stripped = digits.replace(",", "").lstrip("0.")
    return len(stripped.replace(".", ""))


def numbers_in(text: str) -> list[Number]:
    """Every number in ``text`` with its sign, precision, percent sign and scale word."""
    found: list[Number] = []
    for match in _NUMBER.finditer(text):
        digits = match["num"]
        if bool(match["open"]) != bool(match["close"]):
            negative = bool(match["minus"])  # "(Note 12)"-style stray brackets are no sign
        else:
            negative = bool(match["minus"] or match["open"])
        scale = SCALES.get((match["scale"] or "").lower())
        decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
        found.append(
            Number(
                value=float(digits.replace(",", "")),
                decimals=decimals,
                significant=_significant_digits(digits),
                negative=negative,
                percent=bool(match["pct"]),
                scale=scale,
                start=match.start(),
                end=match.end(),
            )
        )
    return found


def _within_rounding(shown: float, decimals: int, multiplier: float, target: float) -> bool:
    """``shown`` × ``multiplier`` rounds from ``target`` at the precision shown."""
    half_step = 0.5 * 10.0**-decimals * multiplier
    return abs(shown * multiplier - target) <= half_step * (1 + 1e-9) + 1e-9


def _amount_matches(number: Number, gold: float, unit: str) -> bool:
    if number.percent or number.significant < MIN_SIGNIFICANT_DIGITS:
        return False
    dollars = abs(gold) * UNIT_DOLLARS[unit]
    if number.scale is not None:
        return _within_rounding(number.value, number.decimals, number.scale, dollars)
    in_unit = _within_rounding(number.value, number.decimals, UNIT_DOLLARS[unit], dollars)
    return in_unit or _within_rounding(number.value, number.decimals, 1.0, dollars)


def _per_share_matches(number: Number, gold: float) -> bool:
    if number.percent or number.scale is not None or number.decimals < 2:
        return False
    return _within_rounding(number.value, number.decimals, 1.0, abs(gold)) and number.negative == (gold < 0)


def _direction(text: str, number: Number) -> int:
    """-1 when a decline word sits in the number's clause next to it, +1 for a growth word, else 0."""
    before = text[max(0, number.start - CUE_BEFORE) : number.start]
    breaks = list(_CLAUSE_BREAK.finditer(before))
    if breaks:
        before = before[breaks[-1].end() :]
    after = text[number.end : number.end + CUE_AFTER]
    stop = _CLAUSE_BREAK.search(after)
    if stop:
        after = after[: stop.start()]
    cues: list[tuple[int, int]] = []  # (distance, direction)
    for pattern, sign in ((_DECLINE, -1), (_GROWTH, 1)):
        cues += [(len(before) - m.end(), sign) for m in pattern.finditer(before)]
        cues += [(m.start(), sign) for m in pattern.finditer(after)]
    return min(cues)[1] if cues else 0


def _percent_matches(text: str, number: Number, gold: float) -> bool:
    if not number.percent or number.scale is not None:
        return False
    if abs(number.value - abs(gold)) > PERCENT_TOLERANCE + 1e-9:
        return False
    direction = -1 if number.negative else _direction(text, number)
    if gold < 0:
        return direction == -1
    return direction != -1 or gold == 0


def figure_found(answer_text: str, figure: dict[str, Any]) -> bool:
    """The gold ``figure`` ({"value", "unit", ...}) appears in ``answer_text`` in any usual form."""
    unit = figure["unit"]
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r}; use one of {sorted(UNITS)}")
    gold = float(figure["value"])
    if not answer_text or not math.isfinite(gold):
        return False
    for number in numbers_in(answer_text):
        if unit in AMOUNT_UNITS and _amount_matches(number, gold, unit):
            return True
        if unit == PER_SHARE and _per_share_matches(number, gold):
            return True
        if unit == PERCENT and _percent_matches(answer_text, number, gold):
            return True
    return False


def describe(figure: dict[str, Any]) -> str:
    """A gold figure in one line, for the missing list."""
    return f"{figure['ticker']} {figure['period']} {figure['metric']} = {figure['value']} {figure['unit']}"


def score_answer(answer_text: str | None, question: dict[str, Any]) -> dict[str, Any]:
    """all_exact only when every gold figure is found; an empty answer finds nothing."""
    figures = question["figures"]
    text = answer_text or ""
    missing = [describe(f) for f in figures if not (text.strip() and figure_found(text, f))]
    found = len(figures) - len(missing)
    return {
        "all_exact": bool(figures) and not missing,
        "found": found,
        "total": len(figures),
        "missing": missing,
    }
