"""Figures as an answer writes them: amounts with scale and sign, percentages, dates, fiscal labels,
and the words around them that say a change went up or down."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from finagent.finance.dates import MONTH_NAME_PATTERN, month_of
from finagent.finance.periods.period import period_label
from finagent.finance.words import (
    FALL_ADVERBS,
    FALL_NOUNS,
    FALL_VERBS,
    RISE_ADVERBS,
    RISE_NOUNS,
    RISE_VERBS,
    SCALE_EXPONENTS,
    SCALE_WORDS,
    alternation,
    past_forms,
)

_YEAR = r"(?:19|20)\d\d"


# One pass over the text; alternatives are tried in order at each position, so citation labels,
# calculator expressions, form names and fiscal labels are consumed before their digits can be read.
_SCAN = re.compile(
    r"(?P<cite>\[[^\]\n]*\])"
    r"|(?P<expr>\(computed:[^\n]*|\(= [^\n]*?\)(?=\s*\(computed:|[ \t]*\[|[.;,]?[ \t]*$))"
    rf"|(?P<fiscal>\b(?:(?P<fq>Q[1-4])\s*)?(?:FY\s?'?|fiscal\s+(?:year\s+)?)(?P<fy>{_YEAR}|\d\d)\b"
    rf"|\bQ(?P<cq>[1-4])\s*'?(?P<cy>{_YEAR})\b|\b(?P<nq>[1-4])Q\s*'?(?P<ny>{_YEAR}|\d\d)\b)"
    r"|(?P<iso>\b(?P<iy>(?:19|20)\d\d)-(?P<im>[01]\d)-(?P<id>[0-3]\d)\b)"
    rf"|(?P<mdy>\b(?P<m1>{MONTH_NAME_PATTERN})\.?\s+(?P<d1>\d{{1,2}}),?\s+(?P<y1>{_YEAR})\b)"
    rf"|(?P<dmy>\b(?P<d2>\d{{1,2}})\s+(?P<m2>{MONTH_NAME_PATTERN})\.?,?\s+(?P<y2>{_YEAR})\b)"
    rf"|(?P<my>\b(?P<m3>{MONTH_NAME_PATTERN})\.?,?\s+(?P<y3>{_YEAR})\b)"
    # the opening day of a range whose end carries the year: "Jul 1–Jul 21, 2010"
    rf"|(?P<md>\b(?P<m4>{MONTH_NAME_PATTERN})\.?\s+(?P<d4>\d{{1,2}})(?=\s*(?:[-–]|to\b|through\b)\s*"
    rf"(?:{MONTH_NAME_PATTERN})\.?\s+\d{{1,2}},?\s+(?P<y4>{_YEAR})\b))"
    r"|(?P<skip>\b(?:Form\s+)?(?:10-K|10-Q|8-K|20-F|6-K|S-1|DEF\s+14A)\b(?:/A)?"
    r"|\b(?:Items?|Notes?|Part|Page|Section|Rule|Exhibit|ASC|ASU|Topic)\s+\d[\w.\-]*"
    r"|\bpp?\.\s?\d+(?:[-–]\d+)?|\bS&P\s+\d+|\b[QH][1-4]\b"
    r"|^[ \t]*(?:[-*•][ \t]*)?\d{1,2}[.)](?=[ \t]))"
    r"|(?P<num>(?<![\w.,/\-−])(?P<open>\()?(?P<sign>[-+−])?(?P<cur>US\$|\$|USD\s?|€|£)?(?P<sign2>[-−])?"
    r"(?P<digits>\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?P<frac>\.\d+)?(?P<c1>\))?"
    rf"(?:\s?(?P<scale>{alternation(SCALE_EXPONENTS)})(?![a-z]))?"
    r"(?:\s?(?P<pct>%|percentage points?|percent|per\s?cent|pp|basis points?|bps)(?![a-z]))?"
    r"(?P<times>x(?![a-z]))?(?P<c2>\))?(?![\w]))",
    re.I | re.M,
)


_COUNT_NOUN = re.compile(
    r"\s+(?:[a-z-]+\s+)?(?:shares|employees|stores|customers|subscribers|units|users|people|locations"
    r"|restaurants|vehicles|deliveries|members|accounts|segments|countries|patents|properties)\b",
    re.I,
)


_HEDGE = r"(?:by\s+)?(?:about\s+|approximately\s+|roughly\s+|nearly\s+|almost\s+|some\s+|around\s+)?"


def _said_before(verbs: Sequence[str], adverbs: Sequence[str], nouns: Sequence[str]) -> re.Pattern[str]:
    """The words right before a figure that give its direction ("fell 3%", "up 3%", "a decline of")."""
    said = alternation((*past_forms(verbs), *adverbs))
    return re.compile(rf"\b(?:{said}|(?:an?\s+)?(?:{alternation(nouns)})\s+of)\s+{_HEDGE}$", re.I)


_DOWN_BEFORE = _said_before(FALL_VERBS, FALL_ADVERBS, FALL_NOUNS)
_UP_BEFORE = _said_before(RISE_VERBS, RISE_ADVERBS, RISE_NOUNS)
_DOWN_AFTER = re.compile(rf"^\s*(?:{alternation((*FALL_NOUNS, *FALL_ADVERBS, 'less'))})\b", re.I)
_UP_AFTER = re.compile(rf"^\s*(?:{alternation((*RISE_NOUNS, *RISE_ADVERBS, 'more'))})\b", re.I)


# -- tokens ------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class WrittenFigure:
    """A figure as written: its span, value in base units, sign certainty and shown precision."""

    text: str
    start: int
    kind: str
    value: float  # signed, base units (dollars, percent points, count, date ordinal / year)
    magnitude: float  # |value|
    mantissa: float  # the digits as written, unsigned, before the scale word
    scale: float  # the scale word's factor (1 when none)
    scaled: bool  # a scale word was written ("billion", "bn", "M")
    currency: bool
    sign: int  # -1 / +1 when written or stated ("-1.4%", "(370)", "1.4% decrease"); 0 when unknown
    tolerance: float  # half a unit of the last digit shown, in base units
    # ("day", ordinal) | ("month", (year, month)) | ("year", year) | ("fiscal", "Q3 FY2023")
    date_key: tuple[str, Any] | None = None


def _month(name: str) -> int:
    return month_of(name)


def _year(text: str) -> int:
    return int(text) if len(text) == 4 else 2000 + int(text)


def _fiscal_label(quarter: str | None, year: int) -> str:
    return period_label(year, int(quarter) if quarter else None)


def _date_figure(match: re.Match[str]) -> WrittenFigure | None:
    """Dates, months, fiscal labels; None for an impossible date ("February 30")."""
    g = match.groupdict()
    key: tuple[str, Any]
    try:
        if g["fiscal"]:
            quarter = (g["fq"] or "")[1:] or g["cq"] or g["nq"]
            year = _year(g["fy"] or g["cy"] or g["ny"])
            key, value = (
                ("fiscal", _fiscal_label(quarter, year)),
                year + (int(quarter) / 10 if quarter else 0),
            )
        elif g["iso"]:
            day = date(int(g["iy"]), int(g["im"]), int(g["id"]))
            key, value = ("day", day.toordinal()), float(day.toordinal())
        elif g["mdy"] or g["dmy"] or g["md"]:
            month, day_, year_ = (
                (g["m1"], g["d1"], g["y1"])
                if g["mdy"]
                else (g["m2"], g["d2"], g["y2"])
                if g["dmy"]
                else (g["m4"], g["d4"], g["y4"])
            )
            day = date(int(year_), _month(month), int(day_))
            key, value = ("day", day.toordinal()), float(day.toordinal())
        else:
            year, month_ = int(g["y3"]), _month(g["m3"])
            key, value = ("month", (year, month_)), float(date(year, month_, 1).toordinal())
    except ValueError:
        return None
    text = match.group(0)
    return WrittenFigure(
        text, match.start(), "date", value, abs(value), value, 1.0, False, False, 0, 0.0, key
    )


def _direction(text: str, start: int, end: int) -> int:
    before, after = text[max(0, start - 40) : start], text[end : end + 20]
    if _DOWN_AFTER.match(after) or _DOWN_BEFORE.search(before):
        return -1
    if _UP_AFTER.match(after) or _UP_BEFORE.search(before):
        return 1
    return 0


def _number_figure(match: re.Match[str], text: str) -> WrittenFigure | None:
    g = match.groupdict()
    scale_word = (g["scale"] or "").lower()
    if len(scale_word) == 1 and not g["cur"]:
        return None  # "3M" is a company, "5 m" a distance: one-letter scales only after a currency sign
    start, end = match.start(), match.end()
    closed = bool(g["c1"] or g["c2"])
    if g["open"] and not closed:
        start += 1  # a parenthesis opening an aside, not a negative
    if not g["open"] and closed:
        end -= 1
    shown = text[start:end]
    digits = g["digits"].replace(",", "")
    decimals = len(g["frac"]) - 1 if g["frac"] else 0
    mantissa = float(digits + (g["frac"] or ""))
    pct = (g["pct"] or "").lower()
    scale = SCALE_WORDS.get(scale_word, 1.0)
    if pct in ("bps", "basis point", "basis points"):
        scale = 0.01
    kind = _number_kind(g, text, end, digits, mantissa)
    if kind == "date":
        year = int(digits)
        value = float(year)
        return WrittenFigure(
            shown, start, "date", value, value, value, 1.0, False, False, 0, 0.0, ("year", year)
        )
    sign = _sign(g, closed, text, start, end)
    magnitude = float(Decimal(digits + (g["frac"] or "")) * Decimal(repr(scale)))  # 8.3 bn is 8.3e9 exactly
    value = -magnitude if sign < 0 else magnitude
    tolerance = 0.5 * 10.0**-decimals * scale
    return WrittenFigure(
        shown,
        start,
        kind,
        value,
        magnitude,
        mantissa,
        scale,
        bool(scale_word),
        bool(g["cur"]),
        sign,
        tolerance,
    )


def _number_kind(g: dict[str, Any], text: str, end: int, digits: str, mantissa: float) -> str:
    """What a written number is: a percent, an amount (a currency or a scale word), a count (of shares,
    stores, or a small whole number), a bare year ("date"), or a plain number."""
    if g["pct"]:
        return "percent"
    if g["cur"]:
        return "amount"
    if _COUNT_NOUN.match(text, end):
        return "count"
    if g["scale"]:
        return "amount"
    if not g["frac"] and "," not in g["digits"] and len(digits) == 4 and 1900 <= int(digits) <= 2100:
        return "date"
    if not g["frac"] and mantissa <= SMALL_COUNT and not g["times"]:
        return "count"
    return "number"


def _sign(g: dict[str, Any], closed: bool, text: str, start: int, end: int) -> int:
    """-1 / +1 as written ("-1.4%", "(370)") or said around it ("a 1.4% decrease"); 0 when unknown."""
    explicit = g["sign"] or g["sign2"]
    if explicit:
        return 1 if explicit == "+" else -1
    if g["open"] and closed and not g["pct"]:
        return -1  # "(370)": accounting negative; "(13.7%)" in prose is an aside, its sign unknown
    return _direction(text, start, end)


def scan_figures(text: str) -> list[WrittenFigure]:
    figures: list[WrittenFigure] = []
    for match in _SCAN.finditer(text):
        if match.group("num"):
            figure = _number_figure(match, text)
        elif (
            match.group("fiscal")
            or match.group("iso")
            or match.group("mdy")
            or match.group("dmy")
            or match.group("my")
            or match.group("md")
        ):
            figure = _date_figure(match)
        else:
            continue
        if figure is not None:
            figures.append(figure)
    return figures


def numbers_in(text: str) -> list[float]:
    """Every number a text writes, unsigned and before its scale word ("81,797", "(1,234)", "$94.9
    billion", "44.5%", a year); not dates, fiscal labels, citations or form and Item numbers."""
    return [
        f.mantissa
        for f in scan_figures(text)
        if f.kind != "date" or (f.date_key is not None and f.date_key[0] == "year")
    ]


def extract_figures(answer: str) -> list[tuple[str, float, str]]:
    """(text, value, kind) of every figure in the answer, in order.

    Citation labels, form names ("10-Q"), list numbering, item/note/page numbers and calculator
    expressions ("(computed: growth(94836, 81797))", checked through the calculation instead) are not
    figures; fiscal labels ("Q3 FY2023") and bare years are dates.
    """
    return [(f.text, f.value, f.kind) for f in scan_figures(answer)]


def counts_something(figure: WrittenFigure, text: str) -> bool:
    """The figure is followed by what it counts ("161,000 employees", "12 countries")."""
    return bool(_COUNT_NOUN.match(text, figure.start + len(figure.text)))


SMALL_COUNT = 100


def written_days(text: str) -> list[date]:
    """The days and months a text writes, in order ("On March 31, 2025, …": March 31, 2025; a month
    counts as its first day). Years and fiscal labels alone are too coarse to order the events of one
    filing by."""
    return [
        date.fromordinal(int(f.value))
        for f in scan_figures(text)
        if f.kind == "date" and f.date_key is not None and f.date_key[0] in ("day", "month")
    ]


def latest_day(text: str) -> date | None:
    """The latest day or month a text writes (``written_days``); None when it writes neither."""
    return max(written_days(text), default=None)
