"""Table headers read in order: spans ("Three Months Ended"), dates, years, fiscal labels → each value
column's period."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from finagent.finance.read.tables.records import ColumnPeriod

_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        (
            "january jan",
            "february feb",
            "march mar",
            "april apr",
            "may",
            "june jun",
            "july jul",
            "august aug",
            "september sep sept",
            "october oct",
            "november nov",
            "december dec",
        )
    )
    for m in names.split()
}


_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)


_NUMBER_WORDS = {"three": 3, "six": 6, "nine": 9, "twelve": 12, "3": 3, "6": 6, "9": 9, "12": 12}


_WEEKS = {"13": 3, "thirteen": 3, "26": 6, "twenty-six": 6, "39": 9, "thirty-nine": 9, "52": 12, "53": 12}


_QUARTER_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "2": 2, "3": 3, "4": 4, "5": 5}


_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4}


YEAR = r"(?:19[5-9]\d|20[0-4]\d)"


# "2024 vs. 2023", "2024-2023", "2024 v 2023", "2024 compared to 2023": a change column, not a year.
_VERSUS = rf"\b{YEAR}\s*(?:[-–—]|v\.?|vs\.?|versus|to|compared\s+(?:to|with))\s*{YEAR}\b"


TOKEN = re.compile(
    rf"""
    (?P<qfy>\bQ(?P<q>[1-4])\s*(?:FY\s*'?|fiscal\s+(?:year\s+)?)?(?P<qy>{YEAR}|\d\d)\b
      |\b(?P<qord>first|second|third|fourth)\s+quarter(?:\s+of)?\s+(?:fiscal\s+(?:year\s+)?|FY\s*)?(?P<qoy>{YEAR})\b)
    |(?P<span>\b(?P<n>three|six|nine|twelve|3|6|9|12)[\s-]+months?(?:[\s-]+periods?)?(?:\s+end(?:ed|ing))?\b
      |\b(?P<w>thirteen|twenty-six|thirty-nine|13|26|39|52|53)[\s-]+weeks?(?:\s+end(?:ed|ing))?\b
      |\b(?P<yearspan>(?:fiscal\s+)?years?\s+end(?:ed|ing))\b
      |\b(?:(?P<qn>two|three|four|five|\d)\s+)?(?P<qspan>quarters?\s+end(?:ed|ing))\b)
    |(?P<fy>\b(?:fiscal[ \t]+(?:year[ \t]+)?|FY[ \t]*'?)(?P<fyy>{YEAR}|\d\d)\b)
    |(?P<date>\b(?P<dm>{_MONTH})[ \t\n]+(?P<dd>\d{{1,2}}),?[ \t]*(?P<dy>{YEAR})\b)
    |(?P<md>\b(?P<mm>{_MONTH})[ \t\n]+(?P<md_d>\d{{1,2}})\b,?)
    |(?P<vs>{_VERSUS})
    |(?P<year>(?<![\d,.$])\b{YEAR}\b(?![\d,.%]|\s*%))
    |(?P<change>\b(?:change|chg)\b(?:\s*\(\d\))?(?:\s*{_VERSUS})?)
    |(?P<pctof>(?:%|\bpercent)\s*(?:of|to)\s+(?:total\s+|net\s+)?(?:net\s+)?(?:sales|revenues?|total)\b)
    |(?P<fiscal>\bfiscal\b)
    """,
    re.I | re.X,
)


VALUE_KINDS = ("qfy", "fy", "date", "year")


# Prose before the header ("The following table shows ... (in millions):") names dates of its own;
# the column header follows the last ": " or ". " (month abbreviations such as "Sept." excepted).
PROSE_END = re.compile(
    r"(?<!\bJan)(?<!\bFeb)(?<!\bMar)(?<!\bApr)(?<!\bJun)(?<!\bJul)(?<!\bAug)(?<!\bSep)(?<!\bSept)"
    r"(?<!\bOct)(?<!\bNov)(?<!\bDec)(?<!\bNo)(?<!\bInc)(?<!\bvs)(?<!\b[A-Z])[.:](?=\s)"
)


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    start: int
    text: str
    months: int | None = None
    day: date | None = None
    month_day: tuple[int, int] | None = None
    year: int | None = None
    quarter: int | None = None


def header_tokens(text: str) -> list[Token]:
    out = []
    for m in TOKEN.finditer(text):
        kind = m.lastgroup or ""
        start, raw = m.start(), m.group(0)
        if m.group("qfy"):
            year = int(m.group("qy") or m.group("qoy"))
            quarter = int(m.group("q")) if m.group("q") else _ORDINALS[m.group("qord").lower()]
            out.append(
                Token("qfy", start, raw, months=3, year=year + 2000 if year < 100 else year, quarter=quarter)
            )
        elif m.group("span"):
            if m.group("n"):
                months = _NUMBER_WORDS[m.group("n").lower()]
            elif m.group("w"):
                months = _WEEKS[m.group("w").lower()]
            elif m.group("yearspan"):
                months = 12
            else:  # "quarter ended"; "trailing four quarters ended" spans twelve months
                count = m.group("qn")
                months = 3 * (_QUARTER_COUNTS.get(count.lower(), 0) if count else 1)
            out.append(Token("span", start, raw, months=months))
        elif m.group("fy"):
            year = int(m.group("fyy"))
            out.append(Token("fy", start, raw, months=12, year=year + 2000 if year < 100 else year))
        elif m.group("date"):
            day = _make_date(int(m.group("dy")), m.group("dm"), int(m.group("dd")))
            if day is not None:
                out.append(Token("date", start, raw, day=day))
        elif m.group("md"):
            month = _MONTHS[m.group("mm").lower().rstrip(".")]
            out.append(Token("md", start, raw, month_day=(month, int(m.group("md_d")))))
        elif kind == "year":
            out.append(Token("year", start, raw, year=int(raw)))
        elif kind in ("change", "vs"):
            out.append(Token("change", start, raw))
        elif kind in ("pctof", "fiscal"):
            out.append(Token(kind, start, raw))
    return out


def _make_date(year: int, month_name: str, day: int) -> date | None:
    try:
        return date(year, _MONTHS[month_name.lower().rstrip(".")], day)
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class Header:
    columns: tuple[ColumnPeriod, ...]
    layout: tuple[bool, ...]  # True = value column, False = interleaved "Change" column
    subcolumns: bool  # "$ | % of Net Sales" pairs under each column


def interpret(tokens: list[Token]) -> Header:
    """Columns from header tokens: value tokens in order, spans distributed over the columns they
    cover, month-days completing bare years, "Change" columns placed where the header puts them."""
    values = [t for t in tokens if t.kind in VALUE_KINDS]
    if not values:
        return Header((), (), False)
    first_value = values[0].start
    spans = [t for t in tokens if t.kind == "span"]
    mds = [t for t in tokens if t.kind == "md"]
    years = [t for t in values if t.kind == "year"]
    fiscal_marker = any(t.kind == "fiscal" for t in tokens)

    # Month-days: one per bare year (in order), one per span (attached), or one for all.
    year_md: dict[int, tuple[int, int]] = {}
    span_md: dict[int, tuple[int, int]] = {}
    if years and mds:
        if len(mds) == len(spans) and all(_follows_span(md, tokens) for md in mds):
            span_md = {id(s): md.month_day for s, md in zip(spans, mds, strict=True) if md.month_day}
        elif len(mds) >= len(years):  # the last ones head the columns ("At December 31 December 31, ...")
            column_mds = mds[len(mds) - len(years) :]
            year_md = {id(y): md.month_day for y, md in zip(years, column_mds, strict=True) if md.month_day}
        elif len({md.month_day for md in mds}) == 1 and mds[0].month_day:
            year_md = {id(y): mds[0].month_day for y in years}

    # Spans: inline (each value under the latest span before it) or distributed in equal groups.
    value_span: dict[int, Token | None] = {}
    if any(s.start > first_value for s in spans):
        current: Token | None = None
        for t in tokens:
            if t.kind == "span":
                current = t
            elif t.kind in VALUE_KINDS:
                value_span[id(t)] = current
    elif spans and len(values) % len(spans) == 0:
        size = len(values) // len(spans)
        value_span = {id(v): spans[i // size] for i, v in enumerate(values)}
    unresolved_spans = bool(spans) and not value_span

    columns = []
    for v in values:
        span = value_span.get(id(v))
        month_day = year_md.get(id(v)) or (span_md.get(id(span)) if span else None)
        columns.append(_column(v, span, month_day, fiscal_marker, bool(spans), unresolved_spans))
    return Header(
        tuple(columns), _layout(tokens, values, spans, value_span), any(t.kind == "pctof" for t in tokens)
    )


def _column(
    v: Token,
    span: Token | None,
    month_day: tuple[int, int] | None,
    fiscal_marker: bool,
    has_spans: bool,
    unresolved_spans: bool,
) -> ColumnPeriod:
    """One value column: its date (written, or a bare year completed by a month-day), its span's
    months, and the fiscal year when the header names it."""
    span_text = _clean(span.text) if span else ""
    months = span.months if span else None
    end, fiscal_year, header = v.day, None, _clean(v.text)
    if v.kind == "year" and v.year is not None and month_day:
        end = safe_date(v.year, *month_day)
        header = f"{_md_text(month_day)} {v.year}"
    if v.kind == "qfy":
        fiscal_year, months = v.year, months or v.months
    elif v.kind == "fy" or (v.kind == "year" and end is None and fiscal_marker):
        fiscal_year, months = v.year, months or 12
        header = header if v.kind == "fy" else f"Fiscal {v.year}"
    elif v.kind == "year" and end is None and months in (None, 12) and not unresolved_spans:
        fiscal_year = v.year  # a bare year names the fiscal year (annual columns only)
    instant = end is not None and not has_spans
    return ColumnPeriod(
        end=end,
        months=months,
        instant=instant,
        fiscal_year=fiscal_year,
        fiscal_quarter=v.quarter,
        header=" ".join(filter(None, (span_text, header))),
    )


def _layout(
    tokens: list[Token], values: list[Token], spans: list[Token], value_span: dict[int, Token | None]
) -> tuple[bool, ...]:
    """Physical column order: "Change" columns among the values stay where written; one after a
    spanning header closes that span's group (Microsoft's summary table); ones written before all
    spans and values (a header row that spans two lines) come last."""
    first_value = values[0].start
    changes = [t for t in tokens if t.kind == "change"]
    if not changes:
        return (True,) * len(values)
    if any(c.start > first_value for c in changes):
        return tuple(
            t.kind != "change"
            for t in tokens
            if t.kind in (*VALUE_KINDS, "change") and t.start >= first_value
        )
    first_span = spans[0].start if spans else first_value
    leading = sum(1 for c in changes if c.start < first_span)
    layout: list[bool] = []
    for span in spans:
        layout += [True] * sum(1 for v in values if value_span.get(id(v)) is span)
        following = [t for t in tokens if t.start > span.start and t.kind in ("span", "change")]
        layout += [False] * len(list(_until_span(following)))
    if not spans or sum(layout) != len(values):
        layout = [True] * len(values)
    return (*layout, *([False] * leading))


def _until_span(tokens: list[Token]) -> Iterator[Token]:
    for t in tokens:
        if t.kind == "span":
            return
        yield t


def _follows_span(md: Token, tokens: list[Token]) -> bool:
    before = [t for t in tokens if t.start < md.start]
    return bool(before) and before[-1].kind == "span"


def safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _md_text(month_day: tuple[int, int]) -> str:
    return f"{date(2000, month_day[0], 1):%B} {month_day[1]},"


def _clean(text: str) -> str:
    return " ".join(text.split())
