"""Figures as people read them: amounts in one scale per metric, percentages, periods, company names
and citation labels. Shared by the table, the computed sentences and the writer's figure list."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import date
from decimal import Decimal

from finagent.finance.compute.compare import Cell
from finagent.finance.computed import COMPUTED
from finagent.finance.lines import REPORTED
from finagent.finance.periods.period import period_word
from finagent.finance.words import SCALE_NAMES, currency_sign, is_currency

SOURCE_NOTES = {
    "xbrl": "",
    "derived": "derived",
    "table": "from the statement table",
    "model": "model-extracted",
}


def display_scale(value: Decimal, unit: str | None, decimals: int | None) -> int:
    """The scale statements print an amount in: millions for most filers, thousands for some."""
    if unit is None or "/" in unit or unit.lower() in ("pure", "percent"):
        return 0
    if unit.lower() == "shares":
        return (
            6
            if decimals is not None and decimals <= -6
            else 3
            if decimals is not None and decimals <= -3
            else 0
        )
    if decimals is None:
        return 6 if abs(value) >= Decimal(10) ** 8 else 0
    if decimals <= -6:
        return 6
    if decimals <= -3:
        return 3
    return 0


def metric_scales(cells: Iterable[Cell]) -> dict[str, int]:
    """One scale per metric across every company shown: millions, unless every value is small (then
    thousands, or units), so a reader compares the companies without converting."""
    largest: dict[str, Decimal] = {}
    kinds: dict[str, str] = {}
    for cell in cells:
        unit = cell.unit.lower()
        if unit == "percent" or "/" in unit:
            kinds[cell.metric] = "plain"
            continue
        kinds.setdefault(cell.metric, unit)
        largest[cell.metric] = max(largest.get(cell.metric, Decimal(0)), abs(cell.value))
    scales: dict[str, int] = {}
    for metric, kind in kinds.items():
        top = largest.get(metric, Decimal(0))
        scales[metric] = 0 if kind == "plain" else 6 if top >= 10**6 else 3 if top >= 10**3 else 0
    return scales


def format_amount(value: Decimal, unit: str, scale: int) -> str:
    """ "$117,154 million", "$7,361.364 million" (exact), "$6.08 per share", "15,550 million shares",
    "44.1%"."""
    shown = value.scaleb(-scale) if scale else value
    exponent = shown.normalize().as_tuple().exponent
    places = 0 if shown == shown.to_integral_value() else min(3, max(1, -int(exponent)))
    if unit.lower() == "percent":
        places = 1
    number = f"{abs(shown):,.{places}f}"
    sign = "-" if shown < 0 else ""
    words = f" {SCALE_NAMES[scale]}" if scale in SCALE_NAMES else ""
    lowered = unit.lower()
    if lowered == "percent":
        return f"{sign}{number}%"
    money = currency_sign(unit)
    if "/" in lowered:
        return f"{sign}{money}{number} per share"
    if lowered == "shares":
        return f"{sign}{number}{words} shares"
    return f"{sign}{money}{number}{words}"


def amount(cell: Cell, scales: dict[str, int] | None = None) -> str:
    """A cell's value in its metric's shown scale (its own print scale when none is given)."""
    scale = (
        (scales or {}).get(cell.metric, cell.scale) if is_currency(cell.unit) or cell.unit == "shares" else 0
    )
    return format_amount(cell.value, cell.unit, scale)


def format_percent(value: float) -> str:
    return f"{value:+.1f}%"


def company(ticker: str, names: dict[str, list[str]]) -> str:
    """ "Alphabet (GOOGL)": the company's name without legal suffixes (the last of its names), never a
    second ticker alias such as GOOG or FB."""
    known = names.get(ticker, [])
    short = readable(known[-1]) if len(known) > 1 and known[-1] != ticker else ""
    return f"{short} ({ticker})" if short else ticker


def name(ticker: str, names: dict[str, list[str]]) -> str:
    """ "Alphabet" (the company's short name), else the ticker."""
    known = names.get(ticker, [])
    return readable(known[-1]) if len(known) > 1 else ticker


def readable(text: str) -> str:
    """ "Union Pacific" for a name of several words a filing prints in capitals ("UNION PACIFIC"), and
    "Lowe’s" for "LOWE’S" (an apostrophe makes it a word, not an acronym); short words ("IBM",
    "AT&T"), a one-word name (a brand such as "NVIDIA") and a name in mixed case stay as they are."""
    if not text.isupper() or (len(text.split()) < 2 and not _APOSTROPHE.search(text)):
        return text
    return " ".join(
        w.capitalize() if len(w) > 3 and _APOSTROPHE.sub("", w).isalpha() else w for w in text.split()
    )


_APOSTROPHE = re.compile(r"['’]")


def possessive(ticker: str, names: dict[str, list[str]]) -> str:
    return owned(name(ticker, names))


def owned(text: str) -> str:
    """ "Apple's", "Services'", and "McDonald's" for a name that is a possessive already."""
    if re.search(r"['’]s$", text):
        return text
    return f"{text}'" if text.endswith("s") else f"{text}'s"


def period_text(cell: Cell) -> str:
    """ "Q2 FY2024, quarter ended 2023-07-30" (the table's period column)."""
    end = (
        f", {period_word(cell.period, cell.fiscal_quarter)} ended {cell.period_end.isoformat()}"
        if cell.period_end
        else ""
    )
    return f"{cell.period}{end}"


def day_text(day: date) -> str:
    """ "July 30, 2023"."""
    return f"{day.strftime('%B')} {day.day}, {day.year}"


def period_phrase(cell: Cell) -> str:
    """ "Q2 FY2024 (the quarter ended July 30, 2023)" for a sentence."""
    if cell.period_end is None:
        return cell.period.label
    what = period_word(cell.period, cell.fiscal_quarter)
    return f"{cell.period} (the {what} ended {day_text(cell.period_end)})"


def cite(sources: Sequence[str]) -> str:
    labels = list(dict.fromkeys(s for s in sources if s))
    return f" [{', '.join(labels)}]" if labels else ""


def metric_label(metric: str) -> str:
    if metric in REPORTED:
        return REPORTED[metric].label
    if metric in COMPUTED:
        return COMPUTED[metric].label
    return metric.replace("_", " ")


def joined(parts: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


_COUNTS = "no one two three four five six seven eight nine ten eleven twelve".split()


def counted(n: int) -> str:
    """ "three": small counts in words, so a count is never read as a figure to check."""
    return _COUNTS[n] if 0 <= n < len(_COUNTS) else f"{n:,}"
