"""A figure's period: the right number for the wrong period is unsupported.

What an answer's figures are checked against for their period (``PeriodScope``): every known figure
with its company and period (the cells of the cited statement tables, the figures read, the computed
changes), the companies' names and calendars, and the periods the question asked for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from finagent.finance.check.matching import companies_in, direction_error, matches_known
from finagent.finance.fact_records import FiscalCalendar, report_calendar
from finagent.finance.periods.period import FiscalPeriod, period_label
from finagent.finance.read.tables import parse_tables, table_cells
from finagent.finance.read.written_figures import WrittenFigure, scan_figures
from finagent.finance.words import (
    FALL_NOUNS,
    FALL_VERBS,
    RISE_NOUNS,
    RISE_VERBS,
    alternation,
    names_line,
    past_forms,
)

_ORDINAL_QUARTER = re.compile(
    r"\b(first|second|third|fourth|1st|2nd|3rd|4th)[-\s]+(?:fiscal\s+)?quarter\s+(?:of\s+)?(?:the\s+)?"
    r"(?:fiscal\s+(?:year\s+)?|FY\s?)?((?:19|20)\d\d)\b",
    re.I,
)
_AS_OF = re.compile(r"\bas\s+of\s+$", re.I)
_WEEK = 7
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_YEAR_ENDED = re.compile(
    r"\b(?:fiscal\s+)?(?:years?|twelve\s+months|12\s+months)\s+end(?:ed|ing)\s+(?:on\s+)?$", re.I
)


@dataclass(frozen=True)
class PeriodScope:
    """What the answer's figures are checked against for their period: every known figure with its
    company and period, the companies' names and calendars, and the periods the question asked for
    (a sentence that names no period speaks of those)."""

    known: list[dict[str, Any]]
    names: dict[str, list[str]] = field(default_factory=dict)
    targets: dict[str, list[str]] = field(default_factory=dict)
    calendars: dict[str, tuple[int, int]] = field(default_factory=dict)  # ticker -> (FYE month, offset)
    givens: frozenset[float] = frozenset()
    """Values the question itself states ("within 2%"): no company's figure for any period."""


def _periods_in(sentence: str, companies: Iterable[str], scope: PeriodScope) -> set[str]:
    """Fiscal period labels a sentence states: "Q3 FY2023", "FY2024", "fiscal 2024", "the fourth
    quarter of fiscal 2024", or a date ("the quarter ended July 1, 2023") read on each company's calendar."""
    labels: set[str] = set()
    for match in _ORDINAL_QUARTER.finditer(sentence):
        labels.add(period_label(int(match.group(2)), _ORDINALS[match.group(1).lower()]))
    for figure in scan_figures(sentence):
        kind, key = figure.date_key or ("", None)
        if kind == "fiscal":
            labels.add(str(key))
        elif kind == "day" and isinstance(key, int):
            day = date.fromordinal(key)
            annual = bool(_YEAR_ENDED.search(sentence[: figure.start]))
            as_of = bool(_AS_OF.search(sentence[: figure.start]))
            for ticker in companies:
                fye, offset = scope.calendars.get(ticker, FiscalCalendar.DEFAULT.pair)
                labels |= _day_periods(FiscalCalendar(fye, offset), day, annual, as_of)
    return labels


def _day_periods(calendar: FiscalCalendar, day: date, annual: bool, as_of: bool) -> set[str]:
    """The periods a day names: its year (after "year ended"), else its quarter (a fourth quarter's
    year too); "as of" a day inside a quarter also names the quarter before, the latest state
    reported by then."""
    quarter = calendar.quarter_of(day)
    if annual:
        return {quarter.full_year().label}
    quarters = [quarter]
    if as_of and (calendar.end_of(quarter) - day).days > _WEEK:  # a 52/53-week quarter ends days early
        quarters.append(quarter.previous_quarter())
    return {q.label for q in quarters} | {q.full_year().label for q in quarters if q.quarter == 4}


_CHANGE_NOUN = alternation((*RISE_NOUNS, *FALL_NOUNS, "change"))
_CHANGED = alternation(past_forms((*RISE_VERBS, *FALL_VERBS)))
_CHANGE_BEFORE = re.compile(
    rf"\b(?:(?:{_CHANGE_NOUN})s?\s+(?:of|by)|(?:{_CHANGED})(?:\s+by)?)"
    r"\s+(?:about\s+|approximately\s+|nearly\s+|roughly\s+)?$",
    re.I,
)
_CHANGE_AFTER = re.compile(rf"^\)?\s*(?:{_CHANGE_NOUN})\b", re.I)


def _change_context(sentence: str, start: int, end: int) -> bool:
    """The number is stated as a change ("grew by 5.4%", "an increase of $37 billion")."""
    before = sentence[max(0, start - 60) : start]
    return bool(_CHANGE_BEFORE.search(before) or _CHANGE_AFTER.match(sentence[end:]))


def period_verdict(
    figure: WrittenFigure, sentence: str, scope: PeriodScope, offset: int = 0
) -> tuple[bool, str] | None:
    """(verified, how) when the figure is a known value of a named company: verified for the period
    the sentence states, unsupported when it belongs to another period, when a level is stated as a
    change, or when a change is described in the wrong direction; None when it is no known value."""
    if figure.kind == "date" or figure.value in scope.givens:
        return None
    said = companies_in(sentence, scope.names)
    named = said or set(scope.names) or {k["ticker"] for k in scope.known}
    matches = [k for k in scope.known if k["ticker"] in named and matches_known(figure, k)]
    if not matches:
        return _another_company(figure, said, scope)
    start = figure.start - offset
    if _change_context(sentence, start, start + len(figure.text)):
        changes = [k for k in matches if k.get("change")]
        if not changes:
            level = matches[0]
            return False, (
                f"{figure.text} is {level['ticker']}'s {level['what']} for {level['period']}, "
                "a level, not a change"
            )
        matches = changes
    if all(k.get("change") for k in matches):
        wrong_way = direction_error(figure, sentence, start, matches)
        if wrong_way:
            return False, wrong_way
    written = _periods_in(sentence, named, scope)
    stated = written or {p for t in named for p in scope.targets.get(t, [])}
    stated |= {k["period"] for k in matches if k["period"] in sentence}  # "successor Jul 22–Sep 30, 2010"
    right = [k for k in matches if _states_period(k["period"], stated)]
    if right:
        return True, f"{right[0]['ticker']} {right[0]['what']} {right[0]['period']}"
    if not stated:
        return None
    wrong = matches[0]
    if not written and not any(names_line(k["what"], sentence) for k in matches):
        # a sentence that writes no period and is not about the line: the value's other period is a
        # coincidence ("The others: Consumer & Community Banking $3,100 million" is no tax paid)
        return None
    periods = ", ".join(sorted(stated))
    return False, f"{figure.text} is {wrong['ticker']}'s {wrong['what']} for {wrong['period']}, not {periods}"


def _states_period(period: str, stated: set[str]) -> bool:
    """The sentence speaks of ``period``: a balance at a period's end ("FY2022 end") is what a sentence
    about that year or its last quarter states ("in FY2022", "for the year ended December 31, 2022")."""
    if period in stated:
        return True
    base = period.removesuffix(" end")
    year = FiscalPeriod.from_label(base)
    last_quarter = FiscalPeriod.of_quarter(year.fiscal_year, 4).label if year and year.is_year else None
    return base != period and (base in stated or last_quarter in stated)


def _another_company(figure: WrittenFigure, said: set[str], scope: PeriodScope) -> tuple[bool, str] | None:
    """The figure is another company's known value, in a sentence about ``said``: unsupported, and the
    reason says whose it is ("$22,103 million is NVDA's revenue for Q4 FY2024, not INTC's")."""
    if not said:
        return None
    others = [k for k in scope.known if k["ticker"] not in said and matches_known(figure, k)]
    if not others:
        return None
    whose = others[0]
    theirs = " or ".join(f"{t}'s" for t in sorted(said))
    return False, f"{figure.text} is {whose['ticker']}'s {whose['what']} for {whose['period']}, not {theirs}"


def item_calendar(item: dict[str, Any], calendars: dict[str, Any]) -> FiscalCalendar | None:
    """The fiscal calendar a passage's columns are read in: the company's, else the one its report's
    own metadata implies (None when neither is known)."""
    known = FiscalCalendar.known(calendars.get(str(item.get("ticker") or "")))
    if known is not None:
        return known
    end = item.get("period_end")
    return report_calendar(
        date.fromisoformat(str(end)[:10]) if end else None,
        item.get("fiscal_year"),
        item.get("fiscal_quarter"),
    )


def table_known(items: Sequence[dict[str, Any]], calendars: dict[str, Any]) -> list[dict[str, Any]]:
    """Every figure the cited statement tables state, with its company and the period its column
    names: what tells "the right number" from "the right number for the wrong period"."""
    known: list[dict[str, Any]] = []
    for item in items:
        ticker, text = item.get("ticker"), str(item.get("text") or "")
        if not ticker or "|" not in text:
            continue
        calendar = item_calendar(item, calendars)
        if calendar is None:
            continue
        form = "10-K" if item.get("kind") in ("10-K", "annual_report") else item.get("kind")
        for table in parse_tables(text, form=form):
            for cell in table_cells(table, calendar):
                if cell.target is None or cell.unit == "percent":
                    continue
                value = cell.base_value if cell.base_value is not None else cell.value
                kind = "per_share" if (cell.unit or "").endswith("share") else "amount"
                known.append(
                    {
                        "ticker": ticker,
                        "period": cell.target.label,
                        "value": float(value),
                        "kind": kind,
                        "what": cell.label[:60],
                    }
                )
    return known
