r"""The phrase grammar: a question's time phrases -> company-independent ``TimeSpec``\ s (rules in
``finagent.finance.periods``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date
from typing import Any

from finagent.finance.periods.month_quarters import month_quarters
from finagent.finance.periods.rules import NORMALISE, RULES, Atom
from finagent.finance.periods.spec import (
    Prefer,
    TimeSpec,
    Unit,
    from_quarter_index,
    month_bounds,
    month_index,
    quarter_index,
)

_I = re.IGNORECASE
_OPENER = re.compile(r"\b(?P<op>from|between)\s+(?:the\s+)?(?:(?:fiscal\s+)?(?:years?|quarters?)\s+)?$", _I)
_CONNECTOR = re.compile(r"\s*(?P<c>-|to|through|thru|until|till|and)\s*(?:the\s+)?(?:end\s+of\s+)?", _I)
_SINCE = re.compile(
    r"\b(?:since|starting(?:\s+(?:in|from|with))?|beginning(?:\s+(?:in|with))?)\s+"
    r"(?:the\s+(?:start|beginning)\s+of\s+)?(?:the\s+)?$",
    _I,
)
_AROUND_WORD = r"(?:around|about|near|nearly|approximately|approx\.|roughly|circa|close\s+to)"
# "the quarter ended", "the fiscal years ended", "twelve months ending around": the date that follows
# names the period's end; the "what" decides quarter or fiscal year.
_ENDED = re.compile(
    r"\b(?:the\s+)?(?P<what>(?:fiscal\s+)?quarters?|three[- ]months?|3[- ]months?|(?:fiscal\s+)?periods?"
    r"|(?:fiscal\s+)?years?|twelve[- ]months?|12[- ]months?|5[23][- ]weeks?)\s+(?:that\s+)?"
    r"(?:ended|ending|ends?|closed|closing)\s+(?:on\s+|in\s+|at\s+)?"
    rf"(?P<around>{_AROUND_WORD}\s+)?(?:the\s+(?:end\s+of\s+)?)?$",
    _I,
)
_AROUND = re.compile(rf"\b{_AROUND_WORD}\s+(?:the\s+end\s+of\s+)?$", _I)
_ANNUAL_END = re.compile(r"year|twelve|12|5[23]", _I)
TWELVE_MONTHS = re.compile(r"\b(?:twelve|12)[- ]months?\b|\b5[23][- ]weeks?\b", _I)
# Months listed after a dated one share its reading: "ended around December 2022 and March 2023".
_LIST_JOIN = re.compile(r"\s*(?:,\s*(?:and|or)?|and|or|&|as\s+well\s+as)\s*(?:in\s+|on\s+)?", _I)
AROUND_DAYS = 7
"""How far outside the named months "around December 2022" still reaches."""
_COMPARE = re.compile(r"\bcompar", _I)
_SENTENCE_BREAK = re.compile(r"[.?!;](?:\s|$)")
_QUARTER_WORDS = re.compile(
    r"\bquarter(?:ly|s)?\b(?!\s+(?:that\s+)?(?:ended|ending|end)\b)|\bQoQ\b|\bsequential(?:ly)?\b",
    _I,
)
_ANNUAL_WORDS = re.compile(
    r"\b(?:annual(?:ly)?|yearly|full[- ]year|10-?K|each\s+year|every\s+year|historical(?:ly)?"
    r"|year[- ]over[- ]year|fiscal\s+years)\b",
    _I,
)
_YEAR_KINDS = frozenset({"fiscal_year", "year_range", "since_year", "last_years"})


_BETWEEN = re.compile(r"\s*between\b", _I)


def _range_spec(a: Atom, b: Atom, text: str, position: int) -> TimeSpec | None:
    """A range between two atoms of compatible kinds, or None (then they stay separate)."""
    if a.kind == "year" and b.kind == "year" and a.year and b.year:
        return TimeSpec.year_range(a.year, b.year, text=text, position=position)
    if a.kind == "month" and b.kind == "month" and a.first_month and b.month:
        return TimeSpec.date_range(a.first_month, b.month, text=text, position=position)
    if a.kind in ("year", "quarter") and b.kind in ("year", "quarter") and a.year and b.year:
        # "between FY2023 and Q2 FY2024" compares two points: the year's end, then the quarter
        point = a.kind == "year" and b.kind == "quarter" and _BETWEEN.match(text) is not None
        start = (a.year, 4 if point else a.quarter or 1)
        end = (b.year, b.quarter or 4)
        return TimeSpec.quarter_range(start, end, text=text, position=position)
    return None


def _single_spec(atom: Atom, text: str, position: int) -> TimeSpec | None:
    if atom.kind == "year" and atom.year:
        return TimeSpec.fiscal_year(atom.year, text=text, position=position)
    if atom.kind == "quarter" and atom.year and atom.quarter:
        return TimeSpec.fiscal_quarter(atom.year, atom.quarter, text=text, position=position)
    return atom.spec


def _month_specs(atom: Atom, text: str, position: int, unit: Unit | None, slack: int) -> list[TimeSpec]:
    """One date range per run of consecutive months the atom names ("March or June 2023": two)."""
    months = sorted(atom.months or ((atom.month,) if atom.month else ()))
    runs: list[list[date]] = []
    for month in months:
        if runs and month_index(month) == month_index(runs[-1][-1]) + 1:
            runs[-1].append(month)
        else:
            runs.append([month])
    day = atom.day if len(months) == 1 else None
    return [
        TimeSpec.date_range(run[0], run[-1], text=text, position=position, unit=unit, day=day, slack=slack)
        for run in runs
    ]


_THROUGH = re.compile(
    r"\s*,?\s*(?:through|thru|up\s+to|until|to|ending|ended|that\s+ended)\s+(?:in\s+|on\s+|with\s+)?"
    r"(?:the\s+(?:(?:fiscal\s+)?quarter\s+(?:that\s+)?(?:ended|ending)\s+(?:in\s+|on\s+)?)?)?",
    _I,
)


def _anchored(atom: Atom, nxt: Atom, text: str, question: str) -> TimeSpec | None:
    """ "the last three quarters through June 2024": N quarters counted back from a named one."""
    spec = atom.spec
    if spec is None or spec.kind != "last_quarters" or not spec.n or nxt.spec is not None:
        return None
    if not _THROUGH.fullmatch(text[atom.end : nxt.start]):
        return None
    phrase = question[atom.start : nxt.end]
    if nxt.kind == "quarter" and nxt.year and nxt.quarter:
        newest = quarter_index(nxt.year, nxt.quarter)
        first, last = from_quarter_index(newest - spec.n + 1), (nxt.year, nxt.quarter)
        return TimeSpec.quarter_range(first, last, text=phrase, position=atom.start)
    if nxt.kind == "month" and nxt.month:
        through = nxt.months[-1] if nxt.months else nxt.month
        first_month = nxt.months[0] if nxt.months else nxt.month
        day = nxt.day if len(nxt.months) <= 1 else None
        end = month_bounds(first_month, through)
        return replace(spec, text=phrase, position=atom.start, start_date=end[0], end_date=end[1], day=day)
    return None


def _end_context(prefix: str) -> tuple[int, Unit | None, int] | None:
    """(phrase start, unit, slack) of "the year ended (around) " / "around " right before a date."""
    ended = _ENDED.search(prefix)
    if ended is not None:
        unit: Unit | None = (
            "year" if _ANNUAL_END.match(re.sub(r"(?i)^fiscal\s+", "", ended["what"])) else None
        )
        return ended.start(), unit, AROUND_DAYS if ended["around"] else 0
    around = _AROUND.search(prefix)
    if around is not None:
        return around.start(), None, AROUND_DAYS
    return None


def _find_atoms(text: str) -> tuple[list[Atom], list[tuple[int, int]]]:
    """Run the rules in priority order; each claims its span so later rules cannot reuse it."""
    masked = text
    atoms: list[Atom] = []
    claimed: list[tuple[int, int]] = []
    for pattern, handler in RULES:
        spans: list[tuple[int, int]] = []
        for m in pattern.finditer(masked):
            if not m.group(0).strip():
                continue
            result = handler(m)
            if result is None or result is False:
                continue
            start, end = m.start(), m.end()
            while end > start and text[end - 1].isspace():
                end -= 1
            if isinstance(result, TimeSpec):
                atoms.append(Atom("spec", start, end, spec=result))
            elif isinstance(result, Atom):
                result.end = end
                atoms.append(result)
            spans.append((start, end))
        for start, end in spans:
            masked = masked[:start] + "\x00" * (end - start) + masked[end:]
        claimed.extend(spans)
    atoms.sort(key=lambda a: a.start)
    return atoms, claimed


def _attach_lone_quarters(atoms: list[Atom], text: str) -> list[Atom]:
    """Give "Q4" in "Q4 revenue in FY2023" the year of the nearest year-bearing atom.

    The next one in the same sentence wins, else the previous one; a bare year used this way is
    consumed (it then means the quarter, not the whole year). Without any year the quarter is dropped.
    """
    consumed: set[int] = set()
    out: list[Atom] = []
    for index, atom in enumerate(atoms):
        if atom.kind != "lone":
            continue
        later = [
            (j, a)
            for j, a in enumerate(atoms)
            if j > index
            and a.kind in ("year", "quarter")
            and not _SENTENCE_BREAK.search(text[atom.end : a.start])
        ]
        earlier = [
            (j, a)
            for j, a in enumerate(atoms)
            if j < index
            and a.kind in ("year", "quarter")
            and not _SENTENCE_BREAK.search(text[a.end : atom.start])
        ]
        pick = later[0] if later else (earlier[-1] if earlier else None)
        if pick is None:
            continue
        j, source = pick
        if source.kind == "year":
            consumed.add(j)
        start, end = min(atom.start, source.start), max(atom.end, source.end)
        spec = TimeSpec.fiscal_quarter(
            source.year or 0, atom.quarter or 1, text=text[start:end], position=atom.start
        )
        out.append(Atom("quarter", start, end, spec=spec, year=source.year, quarter=atom.quarter))
    kept = [a for j, a in enumerate(atoms) if a.kind != "lone" and j not in consumed]
    return sorted([*kept, *out], key=lambda a: a.start)


_Carried = tuple[int, Unit | None, int]
"""(end, unit, slack) of the last dated month: months listed after it share its reading."""


def parse_time_phrases(question: str) -> list[TimeSpec]:
    """Every time phrase of the question as a ``TimeSpec``, in order of appearance, deduplicated."""
    text = question.translate(NORMALISE)
    atoms, claimed = _find_atoms(text)
    atoms = _attach_lone_quarters(atoms, text)
    compare = bool(_COMPARE.search(text))
    specs: list[TimeSpec] = []
    carried: _Carried | None = None
    i = 0
    while i < len(atoms):
        atom, nxt = atoms[i], atoms[i + 1] if i + 1 < len(atoms) else None
        if atom.spec is not None:  # complete already (relative phrases, halves, attached quarters)
            anchored = _anchored(atom, nxt, text, question) if nxt is not None else None
            if anchored is not None and nxt is not None:  # "the last 3 quarters through June 2024"
                specs.append(anchored)
                claimed.append((atom.start, nxt.end))
                i += 2
                continue
            specs.append(atom.spec)
            i += 1
            continue
        ranged = (
            _range_at(atom, nxt, text, question, compare) if nxt is not None and nxt.spec is None else None
        )
        if ranged is not None:
            specs.append(ranged[0])
            claimed.append(ranged[1])
            i += 2
            continue
        since = _since_spec(atom, text, question)
        if since is not None:
            specs.append(since)
        elif atom.kind == "month":
            months, carried = _month_specs_at(atom, text, question, carried, claimed)
            specs += months
        elif (single := _single_spec(atom, question[atom.start : atom.end], atom.start)) is not None:
            specs.append(single)
        i += 1
    return _finish(month_quarters(text, specs, claimed), text, claimed)


def _range_at(
    atom: Atom, nxt: Atom, text: str, question: str, compare: bool
) -> tuple[TimeSpec, tuple[int, int]] | None:
    """The range two atoms make with the words around them ("from 2019 to 2021", "between Q1 and Q3
    2023", "the quarters ended March through June 2023") and the text it claims; None when they make
    none ("2019 and 2021" are two periods, and so is "2019 to 2021" in a comparison)."""
    opener = _OPENER.search(text[: atom.start])
    connector = _CONNECTOR.fullmatch(text[atom.end : nxt.start])
    if connector is None:
        return None
    word = connector.group("c").lower()
    op = opener.group("op").lower() if opener else None
    if (word == "and" and op != "between") or (word == "to" and op is None and compare):
        return None
    start = opener.start() if opener else atom.start
    ended = _end_context(text[:start]) if opener else None
    start = ended[0] if ended else start
    spec = _range_spec(atom, nxt, question[start : nxt.end], start)
    if spec is not None and spec.kind == "date_range" and ended is not None:
        spec = replace(spec, unit=ended[1], slack=ended[2])
    return (spec, (start, nxt.end)) if spec is not None else None


def _since_spec(atom: Atom, text: str, question: str) -> TimeSpec | None:
    """ "since 2019", "starting Q2 2023", "beginning March 2022": from that year, quarter or month on;
    None when no such word stands before the atom."""
    since = _SINCE.search(text[: atom.start])
    if since is None:
        return None
    phrase, position = question[since.start() : atom.end], since.start()
    if atom.kind == "year" and atom.year:
        return TimeSpec.since_year(atom.year, text=phrase, position=position)
    if atom.kind == "quarter" and atom.year:
        return TimeSpec.since_year(
            atom.year, quarter=atom.quarter, text=phrase, position=position, unit="quarter"
        )
    if atom.kind == "month" and atom.first_month:
        return TimeSpec.date_range(atom.first_month, None, text=phrase, position=position)
    return None


def _month_specs_at(
    atom: Atom, text: str, question: str, carried: _Carried | None, claimed: list[tuple[int, int]]
) -> tuple[list[TimeSpec], _Carried]:
    """A month's specs, read with the words before it that make it a period's end ("the quarter ended
    around June 2023", whose text is added to ``claimed``) or, listed after such a month ("... and March
    2023"), with that month's reading; and the reading the months after it carry on."""
    start, unit, slack = atom.start, None, 0
    context = _end_context(text[: atom.start])
    if context is not None:
        start, unit, slack = context
        claimed.append((start, atom.start))
    elif carried is not None and _LIST_JOIN.fullmatch(text[carried[0] : atom.start]):
        unit, slack = carried[1], carried[2]
    return _month_specs(atom, question[start : atom.end], start, unit, slack), (atom.end, unit, slack)


def _finish(specs: list[TimeSpec], text: str, claimed: list[tuple[int, int]]) -> list[TimeSpec]:
    """Apply the question's unit words to year-based specs, then order and deduplicate."""
    rest = list(text)
    for start, end in claimed:
        rest[start:end] = " " * (end - start)
    remainder = "".join(rest)
    wants_quarters = bool(_QUARTER_WORDS.search(remainder))
    wants_years = bool(_ANNUAL_WORDS.search(remainder))
    # A question about 10-Qs only counts its quarters in 10-Qs ("the last 3 quarters covered by 10-Qs").
    ten_qs_only = bool(_TEN_Q.search(text)) and not _TEN_K.search(text)
    out: list[TimeSpec] = []
    seen: set[tuple[Any, ...]] = set()
    for spec in _narrowed(_same_quarters(sorted(specs, key=lambda s: s.position))):
        calendar_span = spec.kind == "reported" or (spec.kind == "date_range" and spec.span)
        asks_quarters = wants_quarters or (ten_qs_only and spec.kind == "reported")
        if spec.unit is None and (spec.kind in _YEAR_KINDS or calendar_span) and asks_quarters:
            spec = replace(spec, unit="quarter")
        elif spec.kind == "last_quarters" and spec.report is None and ten_qs_only:
            spec = replace(spec, report="10-Q")
        elif spec.unit is None and spec.kind == "latest" and wants_quarters != wants_years:
            spec = replace(spec, unit="quarter" if wants_quarters else "year")
        if spec.key() not in seen:
            seen.add(spec.key())
            out.append(spec)
    return out


def _same_quarters(specs: list[TimeSpec]) -> list[TimeSpec]:
    """ "the same quarter of 2023" takes the quarter of the quarter named before it (else the year)."""
    out: list[TimeSpec] = []
    for spec in specs:
        if spec.kind == "same_quarter" and (year := spec.year):
            before = next((s for s in reversed(out) if s.kind == "fiscal_quarter" and s.quarter), None)
            ended = next((s for s in reversed(out) if s.kind == "date_range" and s.day and not s.span), None)
            if before is not None and before.quarter:
                spec = TimeSpec.fiscal_quarter(
                    spec.year, before.quarter, text=spec.text, position=spec.position
                )
            elif ended is not None:  # "the quarter ended June 30, 2024 and the same period of 2023"
                spec = _in_year(ended, spec)
            else:
                spec = TimeSpec.fiscal_year(year, text=spec.text, position=spec.position)
        out.append(spec)
    return out


def _in_year(ended: TimeSpec, same: TimeSpec) -> TimeSpec:
    """The period ended on a date, moved to the year "the same period of <year>" names."""
    shift = (same.year or 0) - (ended.day.year if ended.day else 0)

    def moved(day: date | None) -> date | None:
        return (
            None
            if day is None
            else day.replace(year=day.year + shift, day=min(day.day, 28 if day.month == 2 else day.day))
        )

    return replace(
        ended,
        start_date=moved(ended.start_date),
        end_date=moved(ended.end_date),
        day=moved(ended.day),
        text=same.text,
        position=same.position,
    )


def _narrowed(specs: list[TimeSpec]) -> list[TimeSpec]:
    """A span the question narrows down ("during 2023 … their first three fiscal quarters reported in
    2023") is read as the narrower phrase: the broader calendar span of the same months adds nothing
    the question wants."""
    narrower = [s for s in specs if s.kind == "reported" and s.n]
    return [
        s
        for s in specs
        if not (
            s.kind == "date_range"
            and s.span
            and any((n.start_date, n.end_date) == (s.start_date, s.end_date) for n in narrower)
        )
    ]


_TEN_Q = re.compile(r"\b10-?Qs?\b|\bquarterly\s+(?:reports?|filings?)\b", _I)
_TEN_K = re.compile(r"\b10-?Ks?\b|\bannual\s+(?:reports?|filings?)\b", _I)


def specs_per_company(
    specs: Sequence[TimeSpec], mentions: Mapping[str, Sequence[int]]
) -> dict[str, list[TimeSpec]] | None:
    """Time phrases that belong to one company each ("Walmart's year ended January 31, 2025 with Home
    Depot's fiscal 2024"): a phrase belongs to the company named last before it. Only when every
    company then has a phrase of its own; otherwise (one phrase for all, or phrases before any name)
    None: every phrase applies to every company."""
    if len(mentions) < 2 or len(specs) < 2:
        return None
    owned: dict[str, list[TimeSpec]] = {ticker: [] for ticker in mentions}
    for spec in specs:
        before = [
            (max(p for p in positions if p <= spec.position), t)
            for t, positions in mentions.items()
            if any(p <= spec.position for p in positions)
        ]
        if not before:
            return None
        owned[max(before)[1]].append(spec)
    return owned if all(owned.values()) else None


def preferred_granularity(question: str) -> Prefer:
    """What "latest" or no time phrase should mean for this question: "annual" or "quarter"."""
    text = question.translate(NORMALISE)
    if _ANNUAL_WORDS.search(text) and not _QUARTER_WORDS.search(text):
        return "annual"
    return "quarter"


PERIOD_EXAMPLES = "write e.g. FY2023, Q2 2024, Q2 FY2024, H1 2024, March 2023 or 'last 3 quarters'"
# "Q22023" is Q2 2023 written flush against its year, which the grammar reads: no warning.
_NOT_A_QUARTER = re.compile(r"\b(?!Q[1-4](?:19[5-9]\d|20\d\d)\b)[QH](?:0|[5-9]|\d{2,})\b", _I)
_FILLER = re.compile(
    r"(?i)\b(?:and|or|to|through|vs\.?|versus|the|of|in|fiscal|calendar|year|quarter)\b|[\s,;/&+\-]"
)


def invalid_quarters(text: str) -> list[str]:
    """Quarter-like tokens that name no quarter ("Q9", "Q0", "H3"): warned about, never guessed."""
    return list(dict.fromkeys(m.group(0) for m in _NOT_A_QUARTER.finditer(text)))


def period_problem(text: str) -> str | None:
    """Why an explicit period option ("Q9 FY2023") cannot be used, or None when every part parses.

    A question may carry words besides its periods; an option is nothing but periods, so any part
    the grammar does not read ("Q9", "9M", "banana") is an error rather than silently dropped.
    """
    value = text.strip()
    if not value:
        return "the period is empty"
    bad = _NOT_A_QUARTER.search(value)
    if bad:
        unit = "quarter (Q1-Q4)" if bad.group(0)[0].upper() == "Q" else "half (H1-H2)"
        return f"'{bad.group(0)}' is not a fiscal {unit}"
    specs = parse_time_phrases(value)
    rest = value.translate(NORMALISE)
    for spec in specs:
        if spec.text:
            rest = rest.replace(spec.text, " ")
    leftover = _FILLER.sub(" ", rest).split()
    if not specs or leftover:
        return f"'{' '.join(leftover) or value}' is not a period"
    return None
