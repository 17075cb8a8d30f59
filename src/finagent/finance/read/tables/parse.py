"""Parsing statement tables: the tables of a chunk, their header-read columns, scales and rows (each
row's cells are read by ``rows``)."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from functools import lru_cache

from finagent.finance.fiscal import nominal_month_end
from finagent.finance.read.tables.headers import (
    PROSE_END,
    TOKEN,
    VALUE_KINDS,
    Header,
    Token,
    header_tokens,
    interpret,
    safe_date,
)
from finagent.finance.read.tables.records import PeriodTable, TableRow
from finagent.finance.read.tables.rows import (
    FOOTNOTE,
    assign_cells,
    is_amount,
    is_placeholder,
    loose_row,
    with_subtotal,
)
from finagent.finance.words import SCALE_EXPONENTS, SCALE_NAMES, SCALE_PLURALS

# -- header tokens -------------------------------------------------------------------------------------


# -- header interpretation ---------------------------------------------------------------------------


# -- cells -------------------------------------------------------------------------------------------


_SECTION_MAX = 120


# -- tables ------------------------------------------------------------------------------------------

_PLURALS = "|".join(SCALE_PLURALS)
_SHARE_SCALE = re.compile(rf"\bshares?\b[^()]{{0,50}}?\bin ({_PLURALS})|\b({_PLURALS}) of shares\b", re.I)
# "(In millions)", and the singular after a currency sign, as non-US filers head tables ("($ million)").
_SCALE = re.compile(rf"\b({_PLURALS})\b|(?:\$|US\$|€|£)\s?({'|'.join(SCALE_NAMES.values())})\b", re.I)


def _scale_of(word: str) -> int:
    """The power of ten a caption's scale word stands for ("millions": 6)."""
    return SCALE_EXPONENTS[word.lower().removesuffix("s")]


_ANNUAL = re.compile(r"\byears? ended\b|\bfiscal years?\b|\btwelve months\b|\b5[23] weeks\b", re.I)
# A statement of flows: its columns dated by a day alone ("December 28, 2019") are the years ended
# then (Kraft Heinz heads its statements of income and cash flows by dates, as balance sheets are).
_FLOWS = re.compile(
    r"\bstatements? of (?:consolidated )?(?:income|operations|earnings|cash flows?|comprehensive)\b", re.I
)
_INTERIM = re.compile(
    r"\b(three|six|nine|3|6|9)[\s-]+months?\b|\bquarters? ended\b|\b(13|26|39)[\s-]+weeks\b|\bQ[1-4]\b", re.I
)


def _scales(text: str) -> tuple[int | None, int | None]:
    """(money, share) scales: "In millions, except number of shares, which are reflected in
    thousands" gives (6, 3); "Dollars & Shares in Millions" (6, 6); no share phrase, the same."""
    share = _SHARE_SCALE.search(text)
    share_scale = _scale_of(share.group(1) or share.group(2)) if share else None
    money = _SCALE.search(text[: share.start()] + text[share.end() :] if share else text)
    money_scale = _scale_of(money.group(1) or money.group(2)) if money else share_scale
    return money_scale, share_scale if share_scale is not None else money_scale


def stated_scale(text: str) -> int | None:
    """The money scale a table states above its first row ("(in millions)" gives 6), or None."""
    head = text.split("|", 1)[0] if "|" in text else ""
    return _scales(head)[0] if head else None


def _header_text(lines: list[str]) -> str:
    """Header zone text from its last prose sentence on, when that prose names dates of its own
    ("... for the periods ended June 28, 2025 and June 29, 2024 (in millions):")."""
    text = "\n".join(lines)
    cut = 0
    for m in PROSE_END.finditer(text):
        if _has_values(text[cut : m.end()]) and _has_values(text[m.end() :]):
            cut = m.end()
    return text[cut:]


def _has_values(text: str) -> bool:
    return any(t.kind in VALUE_KINDS for t in header_tokens(text))


def _header_tokens(head: str) -> list[Token]:
    """Tokens of the header. When its pipe-separated lines name the periods, a prose line that
    names periods too is a caption ("Fiscal Year 2023 Summary", "Three and Six Months Ended June
    30, 2025 Compared to ..."): none of its tokens head a column."""
    tokens = header_tokens(head)
    lines = head.split("\n")

    def line_of(t: Token) -> int:
        return head.count("\n", 0, t.start)

    valued = {line_of(t) for t in tokens if t.kind in VALUE_KINDS}
    if any("|" in lines[i] for i in valued):
        captions = {i for i in valued if "|" not in lines[i]}
        tokens = [t for t in tokens if line_of(t) not in captions]
    return tokens


def _fits(header: Header, widths: list[int]) -> bool:
    """The header describes the rows: the first data row, or a quarter of them, has one cell per
    column (or per physical column when "Change" columns are interleaved)."""
    sizes = {len(header.columns), len(header.layout)}
    if header.subcolumns:
        sizes |= {len(header.columns) * k for k in (2, 3)}
    hits = sum(1 for w in widths if w in sizes)
    return bool(widths) and (widths[0] in sizes or 4 * hits >= len(widths))


def _fit(tokens: list[Token], widths: list[int]) -> Header:
    """The header whose columns fit the rows. While it does not, leading value tokens may be
    dropped if they are a caption's rather than the column header's: written before its spanning
    headers ("Fiscal Year 2024 Summary Three Months Ended ...", dates in prose) or of another kind
    ("At December 29, 2024 and December 31, 2023" over "2024 | 2023"); never into repeated periods."""
    header = interpret(tokens)
    if _fits(header, widths):
        return header
    values = [t for t in tokens if t.kind in VALUE_KINDS]
    for cut in range(1, len(values)):
        rest = [t for t in tokens if t.start > values[cut - 1].start]
        kept = values[cut:]
        first_span = next((t.start for t in rest if t.kind == "span"), None)
        caption_like = all(
            (first_span is not None and v.start < first_span) or all(v.kind != k.kind for k in kept)
            for v in values[:cut]
        )
        candidate = interpret(rest)
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
    named = [c for c in cells[1:] if re.search(r"[A-Za-z]{2}", c) and not TOKEN.search(c)]
    return len(named) >= 2 and 2 * len(named) > len(cells) - 1


def _complete_years(header: Header, tokens: list[Token]) -> Header:
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
        elif len(month_days) == 1 and (day := safe_date(year, *next(iter(month_days)))) is not None:
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
    return cells is not None and any(is_amount(c) and not FOOTNOTE.fullmatch(c) for c in cells[1:])


def _names_periods(lines: list[str]) -> bool:
    return any(t.kind in VALUE_KINDS for t in header_tokens(_header_text(lines)))


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
                and all(c and not is_placeholder(c) for c in cells[1:])
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
    tokens = header_tokens(line)
    return any(t.kind == "span" for t in tokens) and any(t.kind in ("date", "md", "year") for t in tokens)


def _build(
    header_lines: list[str], body: list[str], caption: str | None, form: str | None
) -> PeriodTable | None:
    """The table of a header and its body: None when the header names no period columns that fit the
    rows, or no row holds a value."""
    widths = [len(cells) - 1 for cells in map(_split, body) if cells is not None and _is_data(cells)]
    head = _header_text(header_lines)
    header = _table_header(header_lines, head, widths)
    rows = _rows(header_lines, body, header) if header is not None else []
    if header is None or not rows:
        return None
    scale_text = "\n".join(filter(None, (caption, "\n".join(header_lines))))
    scale, share_scale = _scales(scale_text)
    annual = not _INTERIM.search(head) and (
        bool(_ANNUAL.search(head)) or (form or "").upper().startswith("10-K")
    )
    flows = bool(_FLOWS.search("\n".join(filter(None, (caption, *header_lines)))))
    return PeriodTable(
        "\n".join(header_lines), header.columns, tuple(rows), scale, share_scale, annual, flows
    )


def _table_header(header_lines: list[str], head: str, widths: list[int]) -> Header | None:
    """The header whose period columns fit the rows' ``widths``, bare years dated by the caption and
    physical columns aligned; None when it has no columns, or names its columns by something other
    than periods ("Common stock | Retained earnings")."""
    if any(_named_columns(line) for line in header_lines):
        return None
    header = _fit(_header_tokens(head), widths)
    header = _complete_years(header, header_tokens("\n".join(header_lines)))
    header = _aligned_layout(header, header_lines, widths)
    return header if header.columns else None


def _rows(header_lines: list[str], body: list[str], header: Header) -> list[TableRow]:
    """The body's rows, their values in the header's columns, each under the section heading above
    it; a row whose values fit no layout is kept ambiguous, unless they are its group's total."""
    n = len(header.columns)
    rows: list[TableRow] = []
    # A prose line above a row is its heading, or the start of its label when the row's label
    # continues in lower case ("Net income tax benefit related to transfer of" / "intangible ...").
    last = header_lines[-1] if header_lines else ""
    pending: str | None = None
    section = _heading(_after_tokens(last))
    if "|" not in last and not TOKEN.search(last) and len(header_lines) > 1:
        section, pending = None, last.strip()
    for line in body:
        cells = _split(line)
        if cells is None:
            loose = loose_row(line, n)
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
        if not any(is_amount(c) or (is_placeholder(c) and c) for c in values):
            section = _heading(label)
            continue
        heading = section.rstrip(":").strip() if section else None
        assigned, ambiguous = assign_cells(values, header)
        row = TableRow(label, (), heading, False, tuple(values))
        split = with_subtotal(rows, row, header) if ambiguous else []  # a group's total beside the row
        if split:
            rows += split
            section = None if split[-1].label == heading else section  # the group ends at its total
            continue
        rows.append(TableRow(label, assigned, heading, ambiguous, tuple(values)))
    return rows


def _aligned_layout(header: Header, header_lines: list[str], widths: list[int]) -> Header:
    """A pipe header row with one cell per value cell of the rows names the physical columns: those
    whose cell names a period are the value columns, the others ("Prior year", "Change") are skipped,
    so rows are read by the header cell above each value, never shifted."""
    if not header.columns or not widths or widths[0] in (len(header.columns), len(header.layout)):
        return header
    for line in reversed(header_lines):
        cells = _split(line)
        if cells is None or len(cells) - 1 != widths[0]:
            continue
        named = [sum(t.kind in VALUE_KINDS for t in header_tokens(c)) for c in cells[1:]]
        if all(n <= 1 for n in named) and sum(named) == len(header.columns):
            return replace(header, layout=tuple(n == 1 for n in named))
        return header
    return header


def _after_tokens(line: str) -> str:
    """The text after a header line's last period token ("... June 25, 2022 Net sales:")."""
    tokens = list(TOKEN.finditer(line))
    return line[tokens[-1].end() :] if tokens else line


def _heading(text: str) -> str | None:
    """A section heading without its parentheticals ("(In millions, except per share data)")."""
    text = re.sub(r"\([^()]*\)", " ", text.split("|")[0])
    text = " ".join(text.split()).rstrip(":").strip()
    return text if re.search(r"[A-Za-z]{2}", text) and len(text) <= _SECTION_MAX else None


@lru_cache(maxsize=512)
def parse_table(text: str, caption: str | None = None, *, form: str | None = None) -> PeriodTable | None:
    """The first table of a chunk whose columns carry periods, or None. Cached (the table is
    immutable): one answer reads the same statement chunk for every line item it needs."""
    tables = parse_tables(text, caption, form=form)
    return tables[0] if tables else None


# -- periods -----------------------------------------------------------------------------------------


# -- rows by line item -------------------------------------------------------------------------------


# -- reading -----------------------------------------------------------------------------------------
