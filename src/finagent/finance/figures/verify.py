"""Answer verification: every figure an answer states is checked against its evidence or a computed result.

The generate node already checks the figures it extracts; this is the last check, on the text people
read. Each numeric token of the answer (amounts with their scale, percentages, dates, fiscal periods,
counts) must be written in the evidence the answer cites — compared after normalising scales, so
"$94.9 billion" matches "94,930" in a table "(In millions)" — or be the result of a recorded calculator
call whose inputs are themselves in the evidence. Matching is by whole number token at the precision
the answer shows, never by substring ("1,797" is not in "81,797"). Pure and deterministic: no model,
no database.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

from finagent.finance.citations import cited_labels
from finagent.finance.figures.evidence_items import EvidenceItem, evidence_items
from finagent.finance.figures.written import SMALL_COUNT, WrittenFigure, extract_figures, scan_figures
from finagent.finance.words import DOWN_WORDS, UNIT_SCALES, UP_WORDS
from finagent.resources import read_prompt

VERIFIED = "verified"
NEEDS_REVIEW = "needs review"
UNSUPPORTED = "unsupported figures"
MARK = "[unverified]"

_EXPR_NUMBER = re.compile(
    r"(\(-\s*)?(\d{1,3}(?:,\d{3})+(?![0-9])(?:\.\d+)?|\d+(?:\.\d+)?(?:e[-+]?\d+)?)", re.I
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_MAX_RELATIVE = 0.05  # rounding to the shown precision never excuses more than 5% (a bare "5%" vs 4.6)
_ROUNDING_LEVEL = 0.01  # within 1%: a rounding slip, for review rather than unsupported


@dataclass(frozen=True)
class FigureCheck:
    """One figure of the answer and whether (and how) it is supported."""

    text: str
    value: float
    kind: str
    verified: bool
    how: str
    start: int = field(default=-1, compare=False)  # offset in the answer; -1 when unknown


@dataclass(frozen=True)
class Validation:
    """The verdict on an answer's figures: counts, the unverified ones and a status."""

    numbers_total: int
    numbers_verified: int
    unverified: list[FigureCheck]
    checks: list[FigureCheck]
    status: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "numbers_total": self.numbers_total,
            "numbers_verified": self.numbers_verified,
            "unverified": [asdict(c) for c in self.unverified],
            "checks": [asdict(c) for c in self.checks],
        }


# -- matching ----------------------------------------------------------------------------------------
def _close(
    figure: WrittenFigure, candidate: float, candidate_sign: int, tolerance: float | None = None
) -> bool:
    """Equal at the precision the answer shows (never looser than 5%), signs not contradicting."""
    if figure.sign and candidate_sign and figure.sign != candidate_sign:
        return False
    if tolerance is None:
        tolerance = min(figure.tolerance, _MAX_RELATIVE * figure.magnitude)
    return abs(figure.magnitude - abs(candidate)) <= tolerance + 1e-9 * max(1.0, figure.magnitude)


def _readings(figure: WrittenFigure, token: WrittenFigure, item: EvidenceItem) -> list[float]:
    """What an evidence number may mean in the answer's terms: as written, times its own scale word,
    times the table's unit; without a stated unit, in the answer's own scale.

    The table's unit applies to numbers in table rows and to amounts, not to a count in prose ("42
    employees" is no "$42 million"); a percent matches percents, table cells and non-count numbers.
    """
    table = token.start in item.in_table
    if figure.kind == "percent":
        plain = not (token.currency or token.scaled) and (table or token.kind == "number")
        return [token.mantissa] if token.kind == "percent" or plain else []
    if token.kind == "percent" or (figure.kind == "amount" and token.kind == "count" and not table):
        return []
    values = [token.magnitude]
    if not token.scaled and (table or token.currency or token.kind != "count"):
        values += [token.mantissa * s for s in item.scales]
        if figure.scaled and not item.scales and (table or token.currency):
            values.append(token.mantissa * figure.scale)
    return values


def _in_item(
    figure: WrittenFigure, item: EvidenceItem, tolerance: float | None = None
) -> WrittenFigure | None:
    for token in item.numbers:
        sign = -1 if token.sign < 0 else 0  # an unsigned evidence number may sit in a "decrease" row
        if any(_close(figure, v, sign, tolerance) for v in _readings(figure, token, item)):
            return token
    return None


def _calc_candidates(figure: WrittenFigure, calc: dict[str, Any]) -> list[float]:
    result = calc.get("result")
    if not isinstance(result, int | float) or isinstance(result, bool) or not math.isfinite(result):
        return []
    unit = str(calc.get("unit") or "")
    percent = "from_period" in calc or unit == "percent"
    if (figure.kind == "percent") != percent:
        return []
    values = [float(result)]
    if unit in UNIT_SCALES:
        values.append(result * UNIT_SCALES[unit])
    return values


def _expression_inputs(calc: dict[str, Any]) -> list[float]:
    """The numbers a calculation was given: its expression's numbers less the formula's constants
    ("* 100", "* 365", "/ 3" of a mean over 3 periods)."""
    numbers = [
        (-1 if m.group(1) else 1) * float(m.group(2).replace(",", ""))
        for m in _EXPR_NUMBER.finditer(str(calc.get("expression") or ""))
    ]
    for constant in _EXPR_NUMBER.finditer(str(calc.get("formula") or "")):
        value = float(constant.group(2).replace(",", ""))
        match = next((n for n in numbers if n == value), None)
        if match is not None:
            numbers.remove(match)
    return numbers


class _Checker:
    """Verification of one answer against its evidence items and calculations."""

    def __init__(
        self, items: list[EvidenceItem], calculations: Sequence[dict[str, Any]], cited: Iterable[str]
    ):
        self.items = items
        self.calculations = [c for c in calculations if isinstance(c, dict)]
        self.by_label: dict[str, list[EvidenceItem]] = {}
        for item in items:
            if item.label:
                self.by_label.setdefault(item.label, []).append(item)
        self.cited = [i for label in cited for i in self.by_label.get(label, [])]
        self._inputs: dict[int, list[float]] = {}

    def scoped(self, labels: Sequence[str]) -> list[EvidenceItem]:
        return [i for label in labels for i in self.by_label.get(label, [])]

    def missing_inputs(self, calc: dict[str, Any], depth: int = 0) -> list[float]:
        """Inputs of a calculation found neither in its sources nor as another verified result."""
        key = id(calc)
        if key in self._inputs:
            return self._inputs[key]
        sources = self.scoped([str(s) for s in calc.get("sources") or []]) or self.items
        missing = []
        for value in _expression_inputs(calc):
            exact = 1e-9 * max(1.0, abs(value))
            in_evidence = any(
                abs(abs(t.mantissa) - abs(value)) <= exact or abs(t.magnitude - abs(value)) <= exact
                for i in sources
                for t in i.numbers
                if t.kind != "percent"
            )
            from_result = depth < 2 and any(
                other is not calc
                and isinstance(other.get("result"), int | float)
                and math.isclose(other["result"], value, rel_tol=1e-6, abs_tol=1e-9)
                and not self.missing_inputs(other, depth + 1)
                for other in self.calculations
            )
            if not (in_evidence or from_result):
                missing.append(value)
        self._inputs[key] = missing
        return missing

    def check_date(self, figure: WrittenFigure, labels: Sequence[str]) -> tuple[bool, str]:
        """A date, year or fiscal label written in an item's text or naming its period."""
        kind, key = figure.date_key or ("", None)
        for item in [*self.scoped(labels), *self.cited, *self.items]:
            if (
                (kind == "day" and key in item.days)
                or (kind == "month" and key in item.months)
                or (kind == "year" and key in item.years)
                or (kind == "fiscal" and key in item.fiscal)
            ):
                return True, f"evidence {item.name}"
        return False, "date not found in the evidence or its periods"

    def check(self, figure: WrittenFigure, labels: Sequence[str]) -> tuple[bool, str, bool]:
        """(verified, how, minor): minor marks an unverified figure that is a citation or rounding slip."""
        if figure.kind == "date":
            ok, how = self.check_date(figure, labels)
            return ok, how, True
        scope = self.scoped(labels)
        for item in scope:
            if _in_item(figure, item):
                return True, f"evidence {item.name}", False
        unsupported_calc = ""
        for calc in self.calculations:
            result_sign = (calc["result"] > 0) - (calc["result"] < 0) if _calc_candidates(figure, calc) else 0
            if any(_close(figure, v, result_sign) for v in _calc_candidates(figure, calc)):
                missing = self.missing_inputs(calc)
                if not missing:
                    return True, f"calculation {calc.get('expression')}", False
                unsupported_calc = unsupported_calc or (
                    f"calculation {calc.get('expression')} whose inputs are not in the evidence "
                    f"({', '.join(f'{m:g}' for m in missing)})"
                )
        if unsupported_calc:
            return False, unsupported_calc, False
        others = [i for i in [*self.cited, *self.items] if i not in scope]
        for item in others:
            if _in_item(figure, item):
                if labels:
                    cited = ", ".join(f"[{label}]" for label in labels)
                    return False, f"in evidence {item.name}, not in the cited {cited}", True
                note = "cited elsewhere in the answer" if item in self.cited else "not cited"
                return True, f"evidence {item.name} ({note})", False
        near = max(2 * figure.tolerance, _ROUNDING_LEVEL * figure.magnitude)
        for item in scope or [*self.cited, *self.items]:
            token = _in_item(figure, item, near)
            if token is not None:
                return (
                    False,
                    f"close to {token.text} in {item.name} but not equal at the precision shown",
                    True,
                )
        where = "cited evidence" if labels else "the evidence"
        minor = figure.kind == "count" and figure.magnitude <= SMALL_COUNT and not figure.scaled
        return False, f"not found in {where} or the computed results", minor


def _sentence_labels(answer: str) -> list[tuple[int, int, list[str]]]:
    """(start, end, labels) of each sentence or line; labels opening a sentence belong to the one before
    ("... $81.8 billion. [10Q3] Revenue ...")."""
    spans: list[tuple[int, int, list[str]]] = []
    position = 0
    for separator in [*_SENTENCE_END.finditer(answer), None]:
        end = separator.start() if separator else len(answer)
        chunk = answer[position:end]
        labels = cited_labels(chunk)
        leading = re.match(r"\s*(?:\[[^\]]*\]\s*)+", chunk)
        if leading and spans and "\n" not in answer[spans[-1][1] : position]:
            for label in cited_labels(leading.group(0)):
                if label not in spans[-1][2]:
                    spans[-1][2].append(label)
        spans.append((position, end, labels))
        position = separator.end() if separator else len(answer)
    return spans


# -- value *and* period ----------------------------------------------------------------------------------
_ORDINAL_QUARTER = re.compile(
    r"\b(first|second|third|fourth|1st|2nd|3rd|4th)[-\s]+(?:fiscal\s+)?quarter\s+(?:of\s+)?(?:the\s+)?"
    r"(?:fiscal\s+(?:year\s+)?|FY\s?)?((?:19|20)\d\d)\b",
    re.I,
)
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


def _companies_in(sentence: str, names: dict[str, list[str]]) -> set[str]:
    return {
        ticker
        for ticker, aliases in names.items()
        if any(re.search(rf"(?<!\w){re.escape(a)}(?!\w)", sentence, re.I) for a in aliases if a)
    }


def _periods_in(sentence: str, companies: Iterable[str], scope: PeriodScope) -> set[str]:
    """Fiscal period labels a sentence states: "Q3 FY2023", "FY2024", "fiscal 2024", "the fourth
    quarter of fiscal 2024", or a date ("the quarter ended July 1, 2023") read on each company's calendar."""
    from finagent.finance.fiscal import fiscal_period

    labels: set[str] = set()
    for match in _ORDINAL_QUARTER.finditer(sentence):
        labels.add(f"Q{_ORDINALS[match.group(1).lower()]} FY{match.group(2)}")
    for figure in scan_figures(sentence):
        kind, key = figure.date_key or ("", None)
        if kind == "fiscal":
            labels.add(str(key))
        elif kind == "day" and isinstance(key, int):
            day = date.fromordinal(key)
            annual = bool(_YEAR_ENDED.search(sentence[: figure.start]))
            for ticker in companies:
                fye, offset = scope.calendars.get(ticker, (12, 0))
                year, quarter = fiscal_period(day, fye, offset)
                labels.add(f"FY{year}" if annual else f"Q{quarter} FY{year}")
                if quarter == 4 and not annual:
                    labels.add(f"FY{year}")
    return labels


def _same_value(figure: WrittenFigure, value: float, kind: str) -> bool:
    if (figure.kind == "percent") != (kind == "percent"):
        return False
    readings = (
        [value]
        if figure.scaled or figure.currency or figure.kind == "percent"
        else [value, value / 1e3, value / 1e6, value / 1e9]
    )
    tolerance = min(figure.tolerance, _MAX_RELATIVE * figure.magnitude) + 1e-9 * max(1.0, figure.magnitude)
    return any(abs(figure.magnitude - abs(v)) <= tolerance for v in readings)


_CHANGE_BEFORE = re.compile(
    r"\b(?:(?:increase|decrease|rise|drop|decline|gain|growth|change|jump|fall|reduction)s?\s+(?:of|by)"
    r"|(?:grew|rose|fell|declined|increased|decreased|dropped|jumped|climbed|slipped|gained|shrank)"
    r"(?:\s+by)?)\s+(?:about\s+|approximately\s+|nearly\s+|roughly\s+)?$",
    re.I,
)
_CHANGE_AFTER = re.compile(
    r"^\)?\s*(?:increase|decrease|rise|drop|decline|gain|jump|fall|reduction|growth)\b", re.I
)


# Calculator expressions name their helper ("(computed: growth(117154, 94836))"): not a direction word.
_EXPRESSIONS = re.compile(r"\(computed:[^\n]*|\b(?:growth|cagr|margin|diff|ratio|avg)\(", re.I)


def _change_context(sentence: str, start: int, end: int) -> bool:
    """The number is stated as a change ("grew by 5.4%", "an increase of $37 billion")."""
    before = sentence[max(0, start - 60) : start]
    return bool(_CHANGE_BEFORE.search(before) or _CHANGE_AFTER.match(sentence[end:]))


def _period_verdict(
    figure: WrittenFigure, sentence: str, scope: PeriodScope, offset: int = 0
) -> tuple[bool, str] | None:
    """(verified, how) when the figure is a known value of a named company: verified for the period
    the sentence states, unsupported when it belongs to another period, when a level is stated as a
    change, or when a change is described in the wrong direction; None when it is no known value."""
    if figure.kind == "date":
        return None
    named = _companies_in(sentence, scope.names) or set(scope.names) or {k["ticker"] for k in scope.known}
    matches = [
        k for k in scope.known if k["ticker"] in named and _same_value(figure, float(k["value"]), k["kind"])
    ]
    if not matches:
        return None
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
    if figure.kind == "percent" and all(k.get("change") for k in matches):
        window = _EXPRESSIONS.sub(" ", sentence[max(0, start - 40) : start + len(figure.text) + 20])
        up, down = bool(UP_WORDS.search(window)), bool(DOWN_WORDS.search(window))
        if all(float(k["value"]) < 0 for k in matches) and up and not down:
            return False, f"{figure.text} is a decline, described as growth"
        if all(float(k["value"]) > 0 for k in matches) and down and not up:
            return False, f"{figure.text} is growth, described as a decline"
    stated = _periods_in(sentence, named, scope) or {p for t in named for p in scope.targets.get(t, [])}
    right = [k for k in matches if k["period"] in stated]
    if right:
        return True, f"{right[0]['ticker']} {right[0]['what']} {right[0]['period']}"
    if not stated:
        return None
    wrong = matches[0]
    said = ", ".join(sorted(stated))
    return False, f"{figure.text} is {wrong['ticker']}'s {wrong['what']} for {wrong['period']}, not {said}"


def table_known(items: Sequence[dict[str, Any]], calendars: dict[str, Any]) -> list[dict[str, Any]]:
    """Every figure the cited statement tables state, with its company and the period its column
    names: what tells "the right number" from "the right number for the wrong period"."""
    from finagent.finance.facts import FiscalCalendar, report_calendar
    from finagent.finance.tables import parse_tables, table_cells

    known: list[dict[str, Any]] = []
    for item in items:
        ticker, text = item.get("ticker"), str(item.get("text") or "")
        if not ticker or "|" not in text:
            continue
        fye, offset = (calendars.get(ticker) or [None, None])[:2]
        end = item.get("period_end")
        calendar = (
            FiscalCalendar(int(fye), int(offset or 0))
            if fye
            else report_calendar(
                date.fromisoformat(str(end)[:10]) if end else None,
                item.get("fiscal_year"),
                item.get("fiscal_quarter"),
            )
        )
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


def verify_answer(
    answer: str,
    evidence: list[dict[str, Any]],
    calculations: list[dict[str, Any]],
    citations: list[dict[str, Any]] | None = None,
    *,
    scope: PeriodScope | None = None,
) -> Validation:
    """Check every figure of ``answer``; see the module docstring for the rules.

    ``evidence`` may be the labelled items the answer was written from (``label`` set), or the state's
    evidence, labelled through ``citations`` (chunk id -> label); market data and news items may be
    passed with their ``summary`` as text. With a ``scope`` a figure must also be the value for the
    company and period its sentence states: the right number for the wrong period is unsupported.
    """
    items = evidence_items(evidence, citations or [])
    checker = _Checker(items, calculations, cited_labels(answer))
    spans = _sentence_labels(answer)
    checks: list[FigureCheck] = []
    minor: dict[int, bool] = {}
    for figure in scan_figures(answer):
        span = next((s for s in spans if s[0] <= figure.start < s[1] or figure.start < s[0]), None)
        labels = span[2] if span else []
        ok, how, is_minor = checker.check(figure, labels)
        if scope is not None and span is not None:
            verdict = _period_verdict(figure, answer[span[0] : span[1]], scope, span[0])
            if verdict is not None:
                ok, how = verdict
                is_minor = False
            elif not ok and figure.date_key and figure.date_key[0] == "fiscal":
                periods = {k["period"] for k in scope.known}
                if figure.date_key[1] in periods:  # a column of a cited table, or a fact, names it
                    ok, how = True, f"period of a known figure ({figure.date_key[1]})"
        checks.append(FigureCheck(figure.text, figure.value, figure.kind, ok, how, figure.start))
        minor[len(checks) - 1] = is_minor
    # A figure repeated (prose and the Figures list) counts once per outcome.
    distinct: dict[tuple[str, bool], int] = {}
    for index, check in enumerate(checks):
        distinct.setdefault((check.text, check.verified), index)
    unverified = [checks[i] for (_, ok), i in distinct.items() if not ok]
    total = len(distinct)
    verified = total - len(unverified)
    if not unverified:
        status = VERIFIED
    elif all(minor[i] for (_, ok), i in distinct.items() if not ok):
        status = NEEDS_REVIEW
    else:
        status = UNSUPPORTED
    return Validation(total, verified, unverified, checks, status)


def feedback_for(validation: Validation) -> str:
    """The regeneration instruction: which figures lack support and what to do about them."""
    if not validation.unverified:
        return ""
    listed = "; ".join(f"{c.text} ({c.how})" for c in validation.unverified[:12])
    return read_prompt("feedback").substitute(listed=listed)


def flag_unsupported(answer: str, validation: Validation) -> str:
    """``answer`` with MARK after each unverified figure ("$42 million [unverified]"), nothing else."""
    marks: set[int] = set()
    fallback: set[str] = set()
    for check in [*validation.checks, *validation.unverified]:
        if check.verified:
            continue
        if check.start >= 0 and answer[check.start : check.start + len(check.text)] == check.text:
            marks.add(check.start + len(check.text))
        else:
            fallback.add(check.text)
    verified_at = {c.start for c in validation.checks if c.verified and c.start >= 0}
    for text in fallback:  # checks made on another text: every occurrence not verified here
        for match in re.finditer(rf"(?<![\w.,$]){re.escape(text)}(?![\w,]|\.\d)", answer):
            if match.start() not in verified_at:
                marks.add(match.end())
    out = answer
    for position in sorted(marks, reverse=True):
        if out[position:].startswith(f" {MARK}"):
            continue
        out = out[:position] + f" {MARK}" + out[position:]
    return out


__all__ = [
    "MARK",
    "NEEDS_REVIEW",
    "UNSUPPORTED",
    "VERIFIED",
    "FigureCheck",
    "PeriodScope",
    "Validation",
    "extract_figures",
    "feedback_for",
    "flag_unsupported",
    "verify_answer",
]
