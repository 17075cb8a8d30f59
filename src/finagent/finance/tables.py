"""Read statement-table figures by *period*, never by position.

A figure is a value for a company and a period. Filers order their columns differently (Amazon and
Alphabet list the oldest year first, Microsoft the newest; 10-Qs put "Three Months Ended" and
"Nine Months Ended" side by side), so each value column's period is read from its header and the
column whose period is the one asked for gives the figure.

Input is chunk text as the ingest parsers write tables: caption / header lines, then
``label | cell | cell`` rows. The header's tokens (spans such as "Three Months Ended", dates,
month-days over bare years, "Fiscal 2024", "Q3 FY23", "Change" and "% of Net Sales" columns) are
read in order; spans are spread over the columns they cover; a caption that names periods of its
own heads no column.

Fails closed, never shifts: no figure when no column names the period (a trailing twelve months,
an unknown span in a 10-Q, a bare year under a quarterly span), when a row's cell count fits no
layout of the header, when text stands where a number belongs, when columns of one period
disagree, or when a line-item phrase matches rows with different values. Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal, InvalidOperation

from finagent.finance.facts import DurationClass, FiscalCalendar, fiscal_label
from finagent.finance.fiscal import nominal_month_end

# -- records -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ColumnPeriod:
    """What a value column's header says about its period, as written (no calendar applied).

    ``end`` is set when the header writes a date or one can be completed from a spanning header
    ("Three Months Ended September 30," over "2023"); ``months`` comes from the span (3/6/9/12,
    None when unknown); ``instant`` marks balance-sheet dates under no span; ``fiscal_year`` /
    ``fiscal_quarter`` are set when the header names them ("Fiscal 2024", "Q3 FY23", or a bare
    year under no span, which filers write as the fiscal year's name).
    """

    end: date | None = None
    months: int | None = None
    instant: bool = False
    fiscal_year: int | None = None
    fiscal_quarter: int | None = None
    header: str = ""


@dataclass(frozen=True, slots=True)
class TableRow:
    """One line item: ``cells`` holds one raw text per column (None = no value there: a blank or
    dash placeholder, or a cell of a row whose layout could not be decided: ``ambiguous``)."""

    label: str
    cells: tuple[str | None, ...]
    section: str | None = None  # the heading line above the row ("Cost of sales:", "North America")
    ambiguous: bool = False
    raw: tuple[str, ...] = ()  # the row's value cells as written


@dataclass(frozen=True, slots=True)
class PeriodTable:
    """A table whose value columns carry periods; ``scale`` is the power of ten of money amounts
    (6 = millions; None when the table states none), ``share_scale`` that of share counts."""

    header: str
    columns: tuple[ColumnPeriod, ...]
    rows: tuple[TableRow, ...]
    scale: int | None
    share_scale: int | None
    annual: bool  # columns of unknown span are fiscal years (an annual header, or a 10-K)


@dataclass(frozen=True, slots=True)
class PeriodTarget:
    """The period a figure is wanted for: fiscal year, quarter (None for a fiscal year or its end),
    duration class, and optionally the actual period end (then the column must end that month)."""

    fiscal_year: int
    fiscal_quarter: int | None
    duration: DurationClass
    end: date | None = None

    @property
    def label(self) -> str:
        quarter = self.fiscal_quarter
        if self.duration == "instant" and quarter is None:
            quarter = 4
        return fiscal_label(self.fiscal_year, quarter, self.duration)


@dataclass(frozen=True, slots=True)
class TableCell:
    """One figure read from a table: the value as printed with its sign (``Decimal``, in the
    stated unit and scale), the value in base units (dollars, shares; None when the scale is not
    stated), where it was read (row label, column header) and the column's period."""

    value: Decimal
    base_value: Decimal | None
    unit: str | None  # "USD", "USD/share", "shares", "percent"; None when the table does not say
    scale: int  # power of ten applied to reach base units
    label: str
    header: str
    period: ColumnPeriod
    target: PeriodTarget | None  # the column's period in the company's fiscal calendar
    text: str  # the cell as written

    @property
    def period_label(self) -> str:
        return self.target.label if self.target else "undated"


# -- header tokens -------------------------------------------------------------------------------------

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
_YEAR = r"(?:19[5-9]\d|20[0-4]\d)"
# "2024 vs. 2023", "2024-2023", "2024 v 2023", "2024 compared to 2023": a change column, not a year.
_VERSUS = rf"\b{_YEAR}\s*(?:[-–—]|v\.?|vs\.?|versus|to|compared\s+(?:to|with))\s*{_YEAR}\b"

_TOKEN = re.compile(
    rf"""
    (?P<qfy>\bQ(?P<q>[1-4])\s*(?:FY\s*'?|fiscal\s+(?:year\s+)?)?(?P<qy>{_YEAR}|\d\d)\b
      |\b(?P<qord>first|second|third|fourth)\s+quarter(?:\s+of)?\s+(?:fiscal\s+(?:year\s+)?|FY\s*)?(?P<qoy>{_YEAR})\b)
    |(?P<span>\b(?P<n>three|six|nine|twelve|3|6|9|12)[\s-]+months?(?:[\s-]+periods?)?(?:\s+end(?:ed|ing))?\b
      |\b(?P<w>thirteen|twenty-six|thirty-nine|13|26|39|52|53)[\s-]+weeks?(?:\s+end(?:ed|ing))?\b
      |\b(?P<yearspan>(?:fiscal\s+)?years?\s+end(?:ed|ing))\b
      |\b(?:(?P<qn>two|three|four|five|\d)\s+)?(?P<qspan>quarters?\s+end(?:ed|ing))\b)
    |(?P<fy>\b(?:fiscal[ \t]+(?:year[ \t]+)?|FY[ \t]*'?)(?P<fyy>{_YEAR}|\d\d)\b)
    |(?P<date>\b(?P<dm>{_MONTH})[ \t\n]+(?P<dd>\d{{1,2}}),?[ \t]*(?P<dy>{_YEAR})\b)
    |(?P<md>\b(?P<mm>{_MONTH})[ \t\n]+(?P<md_d>\d{{1,2}})\b,?)
    |(?P<vs>{_VERSUS})
    |(?P<year>(?<![\d,.$])\b{_YEAR}\b(?![\d,.%]|\s*%))
    |(?P<change>\b(?:change|chg)\b(?:\s*\(\d\))?(?:\s*{_VERSUS})?)
    |(?P<pctof>(?:%|\bpercent)\s*(?:of|to)\s+(?:total\s+|net\s+)?(?:net\s+)?(?:sales|revenues?|total)\b)
    |(?P<fiscal>\bfiscal\b)
    """,
    re.I | re.X,
)
_VALUE_KINDS = ("qfy", "fy", "date", "year")
# Prose before the header ("The following table shows ... (in millions):") names dates of its own;
# the column header follows the last ": " or ". " (month abbreviations such as "Sept." excepted).
_PROSE_END = re.compile(
    r"(?<!\bJan)(?<!\bFeb)(?<!\bMar)(?<!\bApr)(?<!\bJun)(?<!\bJul)(?<!\bAug)(?<!\bSep)(?<!\bSept)"
    r"(?<!\bOct)(?<!\bNov)(?<!\bDec)(?<!\bNo)(?<!\bInc)(?<!\bvs)(?<!\b[A-Z])[.:](?=\s)"
)


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str
    start: int
    text: str
    months: int | None = None
    day: date | None = None
    month_day: tuple[int, int] | None = None
    year: int | None = None
    quarter: int | None = None


def _tokens(text: str) -> list[_Token]:
    out = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or ""
        start, raw = m.start(), m.group(0)
        if m.group("qfy"):
            year = int(m.group("qy") or m.group("qoy"))
            quarter = int(m.group("q")) if m.group("q") else _ORDINALS[m.group("qord").lower()]
            out.append(
                _Token("qfy", start, raw, months=3, year=year + 2000 if year < 100 else year, quarter=quarter)
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
            out.append(_Token("span", start, raw, months=months))
        elif m.group("fy"):
            year = int(m.group("fyy"))
            out.append(_Token("fy", start, raw, months=12, year=year + 2000 if year < 100 else year))
        elif m.group("date"):
            day = _make_date(int(m.group("dy")), m.group("dm"), int(m.group("dd")))
            if day is not None:
                out.append(_Token("date", start, raw, day=day))
        elif m.group("md"):
            month = _MONTHS[m.group("mm").lower().rstrip(".")]
            out.append(_Token("md", start, raw, month_day=(month, int(m.group("md_d")))))
        elif kind == "year":
            out.append(_Token("year", start, raw, year=int(raw)))
        elif kind in ("change", "vs"):
            out.append(_Token("change", start, raw))
        elif kind in ("pctof", "fiscal"):
            out.append(_Token(kind, start, raw))
    return out


def _make_date(year: int, month_name: str, day: int) -> date | None:
    try:
        return date(year, _MONTHS[month_name.lower().rstrip(".")], day)
    except ValueError:
        return None


# -- header interpretation ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Header:
    columns: tuple[ColumnPeriod, ...]
    layout: tuple[bool, ...]  # True = value column, False = interleaved "Change" column
    subcolumns: bool  # "$ | % of Net Sales" pairs under each column


def _interpret(tokens: list[_Token]) -> _Header:
    """Columns from header tokens: value tokens in order, spans distributed over the columns they
    cover, month-days completing bare years, "Change" columns placed where the header puts them."""
    values = [t for t in tokens if t.kind in _VALUE_KINDS]
    if not values:
        return _Header((), (), False)
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
    value_span: dict[int, _Token | None] = {}
    if any(s.start > first_value for s in spans):
        current: _Token | None = None
        for t in tokens:
            if t.kind == "span":
                current = t
            elif t.kind in _VALUE_KINDS:
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
    return _Header(
        tuple(columns), _layout(tokens, values, spans, value_span), any(t.kind == "pctof" for t in tokens)
    )


def _column(
    v: _Token,
    span: _Token | None,
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
        end = _safe_date(v.year, *month_day)
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
    tokens: list[_Token], values: list[_Token], spans: list[_Token], value_span: dict[int, _Token | None]
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
            if t.kind in (*_VALUE_KINDS, "change") and t.start >= first_value
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


def _until_span(tokens: list[_Token]) -> Iterator[_Token]:
    for t in tokens:
        if t.kind == "span":
            return
        yield t


def _follows_span(md: _Token, tokens: list[_Token]) -> bool:
    before = [t for t in tokens if t.start < md.start]
    return bool(before) and before[-1].kind == "span"


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _md_text(month_day: tuple[int, int]) -> str:
    return f"{date(2000, month_day[0], 1):%B} {month_day[1]},"


def _clean(text: str) -> str:
    return " ".join(text.split())


# -- cells -------------------------------------------------------------------------------------------

_DASHES = frozenset({"", "—", "–", "-", "−", "$—", "$–", "$-", "—%", "–%", "-%", "*", "n/a", "nm", "n/m"})
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def parse_number(cell: str) -> tuple[Decimal, bool] | None:
    """(value with sign, is percent) of a cell: "(617)", "$(3,000)", "(4)%", "-1.2", "44.5%";
    None for placeholders and text."""
    text = cell.strip().replace("$", "").replace(",", "").replace(" ", "").replace("\u2212", "-")
    percent = text.endswith("%")
    text = text.rstrip("%")
    negative = False
    if text.startswith("(") and text.endswith(")"):
        negative, text = True, text[1:-1]
    if text.startswith("-"):
        negative, text = not negative, text[1:]
    if not _NUMBER.fullmatch(text):
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return (-value if negative else value), percent


def _is_placeholder(cell: str) -> bool:
    return cell.strip().replace(" ", "").lower() in _DASHES


def _is_amount(cell: str) -> bool:
    """A number that is not a bare year (header lines hold years, data rows hold amounts)."""
    return parse_number(cell) is not None and not re.fullmatch(rf"\s*{_YEAR}\s*", cell)


# -- rows --------------------------------------------------------------------------------------------


_FOOTNOTE = re.compile(r"\(\d\)|\([a-z]\)|\*+")


def _assign(raw: list[str], header: _Header) -> tuple[tuple[str | None, ...], bool]:
    """Value cells in column order, or all None (``ambiguous``) when the row fits no layout: one
    cell per column; one per physical column ("Change" columns skipped); or equal groups per
    column ("$ | % of Net Sales", "value | change"), each giving its one amount."""
    n = len(header.columns)
    if len(raw) - 1 in (n, len(header.layout)) and _FOOTNOTE.fullmatch(raw[-1].strip()):
        raw = raw[:-1]  # "Total net sales | $383,285 | ... | (1)": a footnote mark, not a column
    cells: list[str | None] = [None if _is_placeholder(c) else c for c in raw]
    if len(cells) == n:
        picked: list[str | None] = cells
    elif len(cells) == len(header.layout):
        picked = [c for c, keep in zip(cells, header.layout, strict=True) if keep]
    elif n and len(cells) > n and len(cells) % n == 0:
        size = len(cells) // n
        picked = []
        for i in range(n):
            group = cells[i * size : (i + 1) * size]
            amounts = [c for c in group if c is not None and (p := parse_number(c)) is not None and not p[1]]
            if len(amounts) == 1:
                picked.append(amounts[0])
            elif all(c is None for c in group):
                picked.append(None)
            elif header.subcolumns and len(amounts) > 1 and group[0] == amounts[0]:
                picked.append(group[0])  # "$ | % of Net Sales": the amount comes first
            else:
                return (None,) * n, True
    else:
        return (None,) * n, True
    # Text where a number belongs ("Humira | United States | $7,142 ...") means the row is shifted.
    if any(c is not None and parse_number(c) is None for c in picked):
        return (None,) * n, True
    return tuple(picked), False


_SECTION_MAX = 120
_TRAILING_VALUES = re.compile(
    r"^(?P<label>.*[A-Za-z)].*?)\s+(?P<values>(?:(?:\$?\s?[—–]|\$?\(?[\d,]*\d(?:\.\d+)?\)?%?)\s*)+)$"
)


def _loose_row(line: str, n: int) -> list[str] | None:
    """A row the PDF text kept without separators ("Acquisition termination cost — — — 1,353"):
    accepted only with exactly one token per column and at least one dash, so a label ending in a
    number ("Balance as of July 1, 2023") is never read as values."""
    match = _TRAILING_VALUES.match(line.strip())
    if not match or n == 0:
        return None
    values = re.findall(r"\$?\s?[—–]|\$?\(?[\d,]*\d(?:\.\d+)?\)?%?", match.group("values"))
    if len(values) != n or not any(_is_placeholder(v) for v in values):
        return None
    if not all(_is_placeholder(v) or re.search(r"[,.$()]", v) for v in values):
        return None
    return [match.group("label").strip(), *values]


# -- tables ------------------------------------------------------------------------------------------

_SCALE_WORDS = {"thousands": 3, "millions": 6, "billions": 9}
_SHARE_SCALE = re.compile(
    r"\bshares?\b[^()]{0,50}?\bin (thousands|millions|billions)|\b(thousands|millions) of shares\b", re.I
)
_SCALE = re.compile(r"\b(thousands|millions|billions)\b", re.I)
_ANNUAL = re.compile(r"\byears? ended\b|\bfiscal years?\b|\btwelve months\b|\b5[23] weeks\b", re.I)
_INTERIM = re.compile(
    r"\b(three|six|nine|3|6|9)[\s-]+months?\b|\bquarters? ended\b|\b(13|26|39)[\s-]+weeks\b|\bQ[1-4]\b", re.I
)


def _scales(text: str) -> tuple[int | None, int | None]:
    """(money, share) scales: "In millions, except number of shares, which are reflected in
    thousands" gives (6, 3); "Dollars & Shares in Millions" (6, 6); no share phrase, the same."""
    share = _SHARE_SCALE.search(text)
    share_scale = _SCALE_WORDS[(share.group(1) or share.group(2)).lower()] if share else None
    money = _SCALE.search(text[: share.start()] + text[share.end() :] if share else text)
    money_scale = _SCALE_WORDS[money.group(1).lower()] if money else share_scale
    return money_scale, share_scale if share_scale is not None else money_scale


def _header_text(lines: list[str]) -> str:
    """Header zone text from its last prose sentence on, when that prose names dates of its own
    ("... for the periods ended June 28, 2025 and June 29, 2024 (in millions):")."""
    text = "\n".join(lines)
    cut = 0
    for m in _PROSE_END.finditer(text):
        if _has_values(text[cut : m.end()]) and _has_values(text[m.end() :]):
            cut = m.end()
    return text[cut:]


def _has_values(text: str) -> bool:
    return any(t.kind in _VALUE_KINDS for t in _tokens(text))


def _header_tokens(head: str) -> list[_Token]:
    """Tokens of the header. When its pipe-separated lines name the periods, a prose line that
    names periods too is a caption ("Fiscal Year 2023 Summary", "Three and Six Months Ended June
    30, 2025 Compared to ..."): none of its tokens head a column."""
    tokens = _tokens(head)
    lines = head.split("\n")

    def line_of(t: _Token) -> int:
        return head.count("\n", 0, t.start)

    valued = {line_of(t) for t in tokens if t.kind in _VALUE_KINDS}
    if any("|" in lines[i] for i in valued):
        captions = {i for i in valued if "|" not in lines[i]}
        tokens = [t for t in tokens if line_of(t) not in captions]
    return tokens


def _fits(header: _Header, widths: list[int]) -> bool:
    """The header describes the rows: the first data row, or a quarter of them, has one cell per
    column (or per physical column when "Change" columns are interleaved)."""
    sizes = {len(header.columns), len(header.layout)}
    if header.subcolumns:
        sizes |= {len(header.columns) * k for k in (2, 3)}
    hits = sum(1 for w in widths if w in sizes)
    return bool(widths) and (widths[0] in sizes or 4 * hits >= len(widths))


def _fit(tokens: list[_Token], widths: list[int]) -> _Header:
    """The header whose columns fit the rows. While it does not, leading value tokens may be
    dropped if they are a caption's rather than the column header's: written before its spanning
    headers ("Fiscal Year 2024 Summary Three Months Ended ...", dates in prose) or of another kind
    ("At December 29, 2024 and December 31, 2023" over "2024 | 2023"); never into repeated periods."""
    header = _interpret(tokens)
    if _fits(header, widths):
        return header
    values = [t for t in tokens if t.kind in _VALUE_KINDS]
    for cut in range(1, len(values)):
        rest = [t for t in tokens if t.start > values[cut - 1].start]
        kept = values[cut:]
        first_span = next((t.start for t in rest if t.kind == "span"), None)
        caption_like = all(
            (first_span is not None and v.start < first_span) or all(v.kind != k.kind for k in kept)
            for v in values[:cut]
        )
        candidate = _interpret(rest)
        periods = [(c.end, c.months, c.fiscal_year, c.fiscal_quarter) for c in candidate.columns]
        if caption_like and len(set(periods)) == len(periods) and _fits(candidate, widths):
            return candidate
    return header


def _named_columns(line: str) -> bool:
    """A header row naming its columns by something other than periods ("Common stock | Retained
    earnings | Total", "Class A | Class B"): the values in a row are not one per period."""
    cells = _split(line)
    if cells is None:
        return False
    named = [c for c in cells[1:] if re.search(r"[A-Za-z]{2}", c) and not _TOKEN.search(c)]
    return len(named) >= 2 and 2 * len(named) > len(cells) - 1


def _complete_years(header: _Header, tokens: list[_Token]) -> _Header:
    """Bare-year columns dated by the caption ("At January 3, 2016 and December 28, 2014" over
    "2015 | 2014", "December 31, 2013 and 2012" over "2013 | 2012"): each year takes the one date
    that nominally ends in it, or the one month-day all the dates share; all years or none."""
    bare = [c for c in header.columns if c.end is None and c.fiscal_year is not None and c.header.isdigit()]
    days = {t.day for t in tokens if t.kind == "date" and t.day is not None}
    if not bare or not days:
        return header
    month_days = {(d.month, d.day) for d in days}
    dated: dict[int, date] = {}
    for c in bare:
        year = c.fiscal_year or 0
        found = [d for d in days if nominal_month_end(d)[0] == year]
        if len(found) == 1:
            dated[year] = found[0]
        elif len(month_days) == 1 and (day := _safe_date(year, *next(iter(month_days)))) is not None:
            dated[year] = day
        else:
            return header
    spans = any(t.kind == "span" for t in tokens)
    columns = [
        replace(
            c,
            end=dated[c.fiscal_year],
            instant=not spans,
            fiscal_year=None,
            header=_date_text(dated[c.fiscal_year]),
        )
        if c in bare and c.fiscal_year is not None
        else c
        for c in header.columns
    ]
    return replace(header, columns=tuple(columns))


def _date_text(day: date) -> str:
    return f"{day:%B} {day.day}, {day.year}"


def _split(line: str) -> list[str] | None:
    """Cells of a pipe row; a Markdown row's outer pipes ("| Net sales | 1,000 |") bound no cells."""
    if "|" not in line:
        return None
    text = line.strip()
    if text.startswith("|") and text.endswith("|") and len(text) > 1:
        text = text[1:-1]
    return [c.strip() for c in text.split("|")]


def _is_data(cells: list[str] | None) -> bool:
    """A row with an amount; a header row may hold years and footnote marks ("2018 | (5) | 2017")."""
    return cells is not None and any(_is_amount(c) and not _FOOTNOTE.fullmatch(c) for c in cells[1:])


def _names_periods(lines: list[str]) -> bool:
    return any(t.kind in _VALUE_KINDS for t in _tokens(_header_text(lines)))


def parse_tables(text: str, caption: str | None = None, *, form: str | None = None) -> list[PeriodTable]:
    """Every table in a chunk's text whose columns carry periods (a chunk may hold several).

    A block (between blank lines) whose lines before its first row name periods starts a new
    table; one that does not continues the table above (a statement split over PDF text blocks).
    """
    tables: list[PeriodTable] = []
    header: list[str] = []
    body: list[str] = []

    def flush() -> None:
        table = _build(header, body, caption, form) if body else None
        if table is not None:
            tables.append(table)

    for block in re.split(r"\n\s*\n", text):
        lines = [line for line in block.splitlines() if line.strip()]
        lead = []
        for line in lines:
            if _is_data(_split(line)):
                break
            lead.append(line)
        if not body:
            header += lead
            lines = lines[len(lead) :]
        elif _names_periods(lead):
            flush()
            header, body = lead, []
            lines = lines[len(lead) :]
        for line in lines:
            cells = _split(line)
            new_header = (cells is None and _starts_header(line)) or (
                cells is not None
                and all(c and not _is_placeholder(c) for c in cells[1:])
                and not _is_data(cells)
                and _names_periods([" | ".join(cells)])
            )
            if new_header and body:
                flush()
                header, body = [line], []
            elif not body and not _is_data(cells):
                header.append(line)
            else:
                body.append(line)
    flush()
    return tables


def _starts_header(line: str) -> bool:
    """A prose line in the body that names periods (NVIDIA's "Three Months Ended October 30, 2022"
    between segment blocks) starts a new table: rows below it belong to that period, not the columns
    above."""
    if len(line) > _SECTION_MAX or line.lstrip().startswith("(") or re.search(r"[a-z]{3}\. ", line):
        return False  # a footnote or a sentence, not a header
    tokens = _tokens(line)
    return any(t.kind == "span" for t in tokens) and any(t.kind in ("date", "md", "year") for t in tokens)


def _build(
    header_lines: list[str], body: list[str], caption: str | None, form: str | None
) -> PeriodTable | None:
    widths = [len(cells) - 1 for cells in map(_split, body) if cells is not None and _is_data(cells)]
    if any(_named_columns(line) for line in header_lines):
        return None
    head = _header_text(header_lines)
    header = _fit(_header_tokens(head), widths)
    header = _complete_years(header, _tokens("\n".join(header_lines)))
    header = _aligned_layout(header, header_lines, widths)
    if not header.columns:
        return None
    n = len(header.columns)
    rows: list[TableRow] = []
    # A prose line above a row is its heading, or the start of its label when the row's label
    # continues in lower case ("Net income tax benefit related to transfer of" / "intangible ...").
    last = header_lines[-1] if header_lines else ""
    pending: str | None = None
    section = _heading(_after_tokens(last))
    if "|" not in last and not _TOKEN.search(last) and len(header_lines) > 1:
        section, pending = None, last.strip()
    for line in body:
        cells = _split(line)
        if cells is None:
            loose = _loose_row(line, n)
            if loose is None:
                if pending is not None:
                    section = _heading(pending)
                pending = line.strip() if len(line.strip()) <= _SECTION_MAX else None
                continue
            cells = loose
        label = cells[0].rstrip("$ ").strip()
        if pending is not None:
            if label[:1].islower() or not label:
                label = f"{pending} {label}".strip()
            else:
                section = _heading(pending)
            pending = None
        values = cells[1:]
        if not any(_is_amount(c) or (_is_placeholder(c) and c) for c in values):
            section = _heading(label)
            continue
        assigned, ambiguous = _assign(values, header)
        rows.append(
            TableRow(
                label, assigned, section.rstrip(":").strip() if section else None, ambiguous, tuple(values)
            )
        )
    if not rows:
        return None
    scale_text = "\n".join(filter(None, (caption, "\n".join(header_lines))))
    scale, share_scale = _scales(scale_text)
    annual = not _INTERIM.search(head) and (
        bool(_ANNUAL.search(head)) or (form or "").upper().startswith("10-K")
    )
    return PeriodTable("\n".join(header_lines), header.columns, tuple(rows), scale, share_scale, annual)


def _aligned_layout(header: _Header, header_lines: list[str], widths: list[int]) -> _Header:
    """A pipe header row with one cell per value cell of the rows names the physical columns: those
    whose cell names a period are the value columns, the others ("Prior year", "Change") are skipped,
    so rows are read by the header cell above each value, never shifted."""
    if not header.columns or not widths or widths[0] in (len(header.columns), len(header.layout)):
        return header
    for line in reversed(header_lines):
        cells = _split(line)
        if cells is None or len(cells) - 1 != widths[0]:
            continue
        named = [sum(t.kind in _VALUE_KINDS for t in _tokens(c)) for c in cells[1:]]
        if all(n <= 1 for n in named) and sum(named) == len(header.columns):
            return replace(header, layout=tuple(n == 1 for n in named))
        return header
    return header


def _after_tokens(line: str) -> str:
    """The text after a header line's last period token ("... June 25, 2022 Net sales:")."""
    tokens = list(_TOKEN.finditer(line))
    return line[tokens[-1].end() :] if tokens else line


def _heading(text: str) -> str | None:
    """A section heading without its parentheticals ("(In millions, except per share data)")."""
    text = re.sub(r"\([^()]*\)", " ", text.split("|")[0])
    text = " ".join(text.split()).rstrip(":").strip()
    return text if re.search(r"[A-Za-z]{2}", text) and len(text) <= _SECTION_MAX else None


def parse_table(text: str, caption: str | None = None, *, form: str | None = None) -> PeriodTable | None:
    """The first table of a chunk whose columns carry periods, or None."""
    tables = parse_tables(text, caption, form=form)
    return tables[0] if tables else None


# -- periods -----------------------------------------------------------------------------------------

_MONTHS_CLASS: dict[int, DurationClass] = {3: "quarter", 6: "six_months", 9: "nine_months", 12: "year"}
# A year-to-date span must end at its fiscal quarter (nine months end at Q3), else it is a
# trailing span ("Twelve Months Ended September 30"), not a fiscal period.
_SPAN_QUARTER = {"six_months": 2, "nine_months": 3, "year": 4}


def column_target(
    column: ColumnPeriod, calendar: FiscalCalendar, annual: bool = False
) -> PeriodTarget | None:
    """The fiscal period a column states in the company's calendar, or None when the header does
    not say enough (unknown span in an interim table, a trailing twelve months, no date)."""
    months = column.months
    if months is None and annual and not column.instant:
        months = 12
    if column.end is not None:
        fiscal_year, quarter = calendar.period_of(column.end)
        if column.instant:
            return PeriodTarget(fiscal_year, quarter, "instant", column.end)
        duration = _MONTHS_CLASS.get(months) if months else None
        if duration is None or _SPAN_QUARTER.get(duration, quarter) != quarter:
            return None
        return PeriodTarget(fiscal_year, None if duration == "year" else quarter, duration, column.end)
    if column.fiscal_year is None:
        return None
    if column.fiscal_quarter is not None:
        duration = _MONTHS_CLASS.get(months or 3)
        if duration is None or _SPAN_QUARTER.get(duration, column.fiscal_quarter) != column.fiscal_quarter:
            return None
        return PeriodTarget(column.fiscal_year, column.fiscal_quarter, duration)
    if months == 12:
        return PeriodTarget(column.fiscal_year, None, "year")
    return None


def columns_for(table: PeriodTable, calendar: FiscalCalendar) -> list[PeriodTarget | None]:
    """The fiscal period of each column (None where the header does not say)."""
    return [column_target(c, calendar, table.annual) for c in table.columns]


def _matches(column: PeriodTarget | None, target: PeriodTarget) -> bool:
    if column is None or column.duration != target.duration or column.fiscal_year != target.fiscal_year:
        return False
    wanted = target.fiscal_quarter
    if target.duration == "instant" and wanted is None:
        wanted = 4
    if column.fiscal_quarter != wanted:
        return False
    if target.end is not None and column.end is not None:
        return nominal_month_end(target.end) == nominal_month_end(column.end)
    return True


# -- rows by line item -------------------------------------------------------------------------------

_WORD = re.compile(r"[a-z][a-z&\-]+")
_LABEL_STOP = frozenset({"total", "of", "and", "the", "a", "in"})
_MAX_EXTRA_WORDS = 3
# Words that turn a line item into a different one ("Cost of revenue" is not revenue).
_QUALIFIERS = frozenset(
    {"cost", "costs", "deferred", "unearned", "unbilled", "other", "accrued", "change", "changes"}
)
_PERCENT_SECTION = re.compile(r"percent|%|growth", re.I)
_TOTAL_SECTION = re.compile(r"consolidated|total", re.I)


def label_match(label: str, terms: Sequence[str]) -> int | None:
    """Extra words in a label that holds every term (lower is better); None if a term is missing
    or a qualifier ("cost of", "deferred") makes it a different line item."""
    words = _WORD.findall(label.lower())
    if not terms or not all(any(w.startswith(t) for w in words) for t in terms):
        return None
    if any(w in _QUALIFIERS and w not in terms for w in words):
        return None
    return sum(1 for w in words if w not in _LABEL_STOP and not any(w.startswith(t) for t in terms))


def find_row(table: PeriodTable, phrases: str | Sequence[str]) -> TableRow | None:
    """The row a line-item phrase names ("total net sales", "diluted earnings per share").

    All terms must be in the label (or in its section heading and label: "Diluted" under "Earnings
    per share:"); fewest extra words wins, then a label that also says "total" when asked, then
    rows outside percent sections and segment blocks. Rows tied after that with different values
    (Apple's "Net sales" under each region) are ambiguous: None.
    """
    for phrase in [phrases] if isinstance(phrases, str) else phrases:
        words = _WORD.findall(phrase.lower())
        terms = [w for w in words if w not in _LABEL_STOP]
        scored: list[tuple[tuple[int, ...], TableRow]] = []
        for row in table.rows:
            extra, via_section = label_match(row.label, terms), 0
            if extra is None and row.section:
                extra, via_section = label_match(f"{row.section} {row.label}", terms), 1
            if extra is None or extra > _MAX_EXTRA_WORDS:
                continue
            label_words = _WORD.findall(row.label.lower())
            missing_stop = sum(1 for w in words if w in _LABEL_STOP and w != "of" and w not in label_words)
            percent = bool(row.section and _PERCENT_SECTION.search(row.section))
            segment = bool(row.section and not via_section and not _TOTAL_SECTION.search(row.section))
            scored.append(((extra, via_section, missing_stop, percent, segment), row))
        if not scored:
            continue
        best = min(score for score, _ in scored)
        tied = [row for score, row in scored if score == best]
        if len({row.cells for row in tied}) == 1:
            return tied[0]
        return None
    return None


# -- reading -----------------------------------------------------------------------------------------

_PER_SHARE = re.compile(r"per (common |diluted |basic )?share|\beps\b|per diluted|per basic", re.I)
_SHARES = re.compile(r"\bshares\b", re.I)
_STOCK_LINE = re.compile(r"par value|authorized", re.I)
_PERCENT_LABEL = re.compile(r"\bpercent|\(%\)|%$|\bmargin %|as a percentage", re.I)


def row_unit(table: PeriodTable, row: TableRow) -> tuple[str | None, int | None]:
    """(unit, scale) of a row's amounts: per-share rows are USD per share, unscaled; share counts
    take the caption's share scale; rows under a percent heading are percent; else USD at the
    table's scale (unit None when the table states no scale)."""
    label, section = row.label, row.section or ""
    if _PER_SHARE.search(label) and not _SHARES.search(_PER_SHARE.sub("", label)):
        return "USD/share", 0
    if _SHARES.search(label) and not _STOCK_LINE.search(label):
        return "shares", table.share_scale
    if _SHARES.search(section):
        return "shares", table.share_scale
    if _PER_SHARE.search(section):
        return "USD/share", 0
    if _PERCENT_SECTION.search(section) or _PERCENT_LABEL.search(label):
        return "percent", 0
    if table.scale is None:
        return None, None
    return "USD", table.scale


def _cell(table: PeriodTable, row: TableRow, index: int, target: PeriodTarget | None) -> TableCell | None:
    text = row.cells[index]
    parsed = parse_number(text) if text is not None else None
    if text is None or parsed is None:
        return None
    value, percent = parsed
    unit, scale = ("percent", 0) if percent else row_unit(table, row)
    base = value * 10**scale if scale is not None and unit is not None else None
    column = table.columns[index]
    return TableCell(value, base, unit, scale or 0, row.label, column.header, column, target, text)


def cell_for(
    table: PeriodTable, row: TableRow | str, target: PeriodTarget, calendar: FiscalCalendar
) -> TableCell | None:
    """The figure of a row for a period: the column whose header names that period. None when no
    column does, the row is ambiguous, or matching columns disagree."""
    found = find_row(table, row) if isinstance(row, str) else row
    if found is None or found.ambiguous:
        return None
    periods = columns_for(table, calendar)
    cells = [_cell(table, found, i, period) for i, period in enumerate(periods) if _matches(period, target)]
    read = [c for c in cells if c is not None]
    if not read or len({c.value for c in read}) != 1:
        return None
    return read[0]


def table_cells(table: PeriodTable, calendar: FiscalCalendar) -> Iterator[TableCell]:
    """Every figure of a table with its period, for reading comparative columns too (the same
    quarter a year earlier, the year-to-date span). Undated columns are left out, and so is a
    period whose columns disagree (a "% change" column headed by a year)."""
    periods = columns_for(table, calendar)
    for row in table.rows:
        if row.ambiguous:
            continue
        by_period: dict[PeriodTarget, list[TableCell | None]] = {}
        for i, period in enumerate(periods):
            if period is not None:
                by_period.setdefault(period, []).append(_cell(table, row, i, period))
        for cells in by_period.values():
            read = [c for c in cells if c is not None]
            if read and len({c.value for c in read}) == 1:
                yield read[0]
