"""Periods named for what they are, from the dates a filing's own facts state.

* A fiscal period split in two: a company acquired, merged or emerging from bankruptcy reports the
  quarter it happened in as a predecessor part (Jul 1–Jul 21) and a successor part (Jul 22–Sep 30),
  often the year to date too (Jan 1–Jul 21). Two back-to-back spans of one filing that together make
  a quarter, six or nine months or a year ending where the filing closes a period (its period end,
  a year before, or the end of a regular span it reports), split at a day that closes no fiscal
  period (or with a part no fiscal period is as long as), are stubs; so are the parts of a 10-K that
  states no year but two spans tiling it. A predecessor/successor dimension member is the
  consolidated figure of its part.
* A transition period: a 10-K that states no year but a shorter span ending at its period end
  (a 10-KT after a change of fiscal year) covers a transition period, not a fiscal year.
* 52/53-week years stay years (364 or 371 days) and 13/14-week quarters stay quarters (91 or 98).

Stubs and transition periods are never a full quarter or year: lookup answers a question about the
period they split with the parts the filings report, each labelled, and no single figure.
"""

from __future__ import annotations

import calendar
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, timedelta

from finagent.finance.fact_records import Fact, duration_class, span_text

_DAY = timedelta(days=1)
_WINDOW = 7  # days either side of a month end that still close a period (52/53-week calendars)
_REGULAR = ("quarter", "six_months", "nine_months", "year")
_ROLE_MEMBER = re.compile(r"predecessor|successor", re.I)

Span = tuple[date, date]


def closes_period(day: date) -> bool:
    """A day a fiscal period can end on: a month end, or within a week of one (52/53-week years)."""
    last = calendar.monthrange(day.year, day.month)[1]
    return day.day <= _WINDOW or day.day > last - _WINDOW


def _regular(span: Span) -> bool:
    return duration_class(*span) in _REGULAR


def _closes_reported_period(day: date, spans: set[Span], period_end: date | None) -> bool:
    """A day the filing closes a period on: its own period end, the same day a year earlier (the
    comparative columns), or the end of a regular span it reports. Small filers tag events of a few
    days right after a quarter end (Oct 1–Oct 2): those never complete a period."""
    if period_end is not None and (day == period_end or abs((period_end - day).days - 365) <= _WINDOW):
        return True
    return any(end == day and _regular((start, end)) for start, end in spans)


def _whole_months(span: Span) -> bool:
    """A regular span from the first to the last day of calendar months: a fiscal period itself."""
    start, end = span
    return _regular(span) and start.day == 1 and (end + _DAY).day == 1


def _may_be_part(span: Span) -> bool:
    """A one-day "duration" is an event, and a span of whole calendar months a period: neither is a stub."""
    return span[0] < span[1] and not _whole_months(span)


def _split_parts(spans: set[Span], period_end: date | None, annual_end: date | None) -> set[Span]:
    """Spans that are parts of a split period (see the module docstring)."""
    starting: dict[date, list[Span]] = defaultdict(list)
    for span in spans:
        starting[span[0]].append(span)
    parts: set[Span] = set()
    for first in spans:
        for second in starting.get(first[1] + _DAY, ()):
            whole = (first[0], second[1])
            if not (_may_be_part(first) and _may_be_part(second)):
                continue
            if not _regular(whole) or not closes_period(whole[0] - _DAY):
                continue
            if not _closes_reported_period(whole[1], spans, period_end):
                continue
            irregular = not closes_period(first[1]) or not _regular(first) or not _regular(second)
            tiles_missing_year = (
                annual_end is not None and whole[1] == annual_end and duration_class(*whole) == "year"
            )
            if irregular or tiles_missing_year:
                parts |= {first, second}
    return parts


def _with_role_members(facts: Sequence[Fact]) -> list[Fact]:
    """A fact whose only dimension is a predecessor or successor member is its part's consolidated
    figure (unless the filing states a consolidated one for the same span)."""
    plain = {(f.concept, f.period_start, f.period_end, f.unit) for f in facts if not f.dimensions}
    out = []
    for fact in facts:
        if (
            len(fact.dimensions) == 1
            and _ROLE_MEMBER.search(fact.dimensions[0][1])
            and fact.period_start is not None
            and (fact.concept, fact.period_start, fact.period_end, fact.unit) not in plain
        ):
            fact = replace(fact, dimensions=())
        out.append(fact)
    return out


def name_periods(facts: Sequence[Fact], form: str | None, period_end: date | None) -> list[Fact]:
    """The filing's facts, one for one and in order, with stubs and transition periods named
    ``duration`` "stub" / "transition" (see the module docstring)."""
    has_roles = any(_ROLE_MEMBER.search(m) for f in facts for _, m in f.dimensions)
    facts = _with_role_members(facts) if has_roles else list(facts)
    spans: set[Span] = {(f.period_start, f.period_end) for f in facts if f.period_start is not None}
    annual = (form or "").upper().startswith("10-K")
    closing = sorted((s for s in spans if s[1] == period_end), key=lambda s: s[0])
    no_year = annual and bool(closing) and not any(duration_class(*s) == "year" for s in closing)
    stubs = _split_parts(spans, period_end, period_end if no_year else None)
    transition: set[Span] = set()
    if no_year:
        longest = next((s for s in closing if s not in stubs), None)
        if longest is not None and closes_period(longest[0] - _DAY):
            transition = {longest}
        elif longest is not None:  # a first period from mid-month (inception) to the year end
            stubs.add(longest)
    if not stubs and not transition:
        return facts
    out = []
    for fact in facts:
        span = (fact.period_start, fact.period_end)
        if span in stubs:
            fact = replace(fact, duration="stub")
        elif span in transition:
            fact = replace(fact, duration="transition")
        out.append(fact)
    return out


def part_roles(parts: Sequence[tuple[date, date]]) -> list[str]:
    """Labels of the back-to-back parts of one period: "predecessor Jul 1–Jul 21, 2010", "successor
    Jul 22–Sep 30, 2010" for two parts; "stub …" alone; "part 1 …" and so on for more."""
    if len(parts) == 1:
        roles = ["stub"]
    elif len(parts) == 2:
        roles = ["predecessor", "successor"]
    else:
        roles = [f"part {i}" for i in range(1, len(parts) + 1)]
    return [f"{role} {span_text(start, end)}" for role, (start, end) in zip(roles, parts, strict=True)]


def split_reason(parts: Sequence[str], complete: bool) -> str:
    """Why a period has no single figure, naming the parts the filings report (with their values
    when the caller writes them into ``parts``)."""
    listed = " and ".join(parts)
    if complete:
        count = {2: "two", 3: "three"}.get(len(parts), str(len(parts)))
        return (
            f"no single figure: the filings report it in {count} parts, {listed}; they are separate "
            "reporting periods, before and after a change of basis such as a merger or an emergence from "
            "bankruptcy, and are not added up"
        )
    return f"no figure for the whole period: the filings report only {listed}"
