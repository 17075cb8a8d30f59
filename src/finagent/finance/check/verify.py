"""The figures check: every figure an answer states is checked against its evidence or a computed result.

One checker, one scanner (``written.scan_figures``) and one matching rule (``matching``), used twice:
``check_prose`` reads the writer's draft sentence by sentence (is each figure a value of the company
the sentence names, going the direction its words say?), and ``verify_answer`` is the last check, on
the text people read. There each numeric token (amounts with their scale, percentages, dates, fiscal
periods, counts) must be written in the evidence the answer cites — compared after normalising scales,
so "$94.9 billion" matches "94,930" in a table "(In millions)" — or be the result of a recorded
calculator call whose inputs are themselves in the evidence; with a ``PeriodScope`` it must also be
the value for the period its sentence names. Matching is by whole number token at the precision the
answer shows, never by substring ("1,797" is not in "81,797"). Pure and deterministic: no model, no
database.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from finagent.finance.check.evidence_items import EvidenceItem, evidence_items
from finagent.finance.check.matching import (
    calc_candidates,
    close_to,
    companies_in,
    direction_error,
    in_item,
    known_changes,
    known_facts,
    known_results,
    matches_known,
    same_value,
)
from finagent.finance.check.scope import PeriodScope, period_verdict, table_known
from finagent.finance.citations import cited_labels, quotes_verbatim
from finagent.finance.compute.safe_calculator import count_arguments
from finagent.finance.read.written_figures import SMALL_COUNT, WrittenFigure, extract_figures, scan_figures
from finagent.finance.words import SENTENCE_BREAK, split_sentences
from finagent.resources import read_prompt

VERIFIED = "verified"
NEEDS_REVIEW = "needs review"
UNSUPPORTED = "unsupported figures"
MARK = "[unverified]"

_EXPR_NUMBER = re.compile(
    r"(\(-\s*)?(\d{1,3}(?:,\d{3})+(?![0-9])(?:\.\d+)?|\d+(?:\.\d+)?(?:e[-+]?\d+)?)", re.I
)
_SENTENCE_END = re.compile(rf"{SENTENCE_BREAK.pattern}|\n+")  # a sentence's end, or a line's
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
    minor: bool = field(default=False, compare=False)  # a date, small count or rounding-level slip
    wrong: bool = field(default=False, compare=False)  # another company's or period's value, or wrong way


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
    for count in count_arguments(str(calc.get("expression") or "")):
        if count in numbers:  # the years a CAGR spans are counted from its periods, not read from a passage
            numbers.remove(count)
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
            if in_item(figure, item):
                return True, f"evidence {item.name}", False
        unsupported_calc = ""
        for calc in self.calculations:
            result_sign = (calc["result"] > 0) - (calc["result"] < 0) if calc_candidates(figure, calc) else 0
            if any(close_to(figure, v, result_sign) for v in calc_candidates(figure, calc)):
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
            if in_item(figure, item):
                if labels:
                    cited = ", ".join(f"[{label}]" for label in labels)
                    return False, f"in evidence {item.name}, not in the cited {cited}", True
                note = "cited elsewhere in the answer" if item in self.cited else "not cited"
                return True, f"evidence {item.name} ({note})", False
        near = max(2 * figure.tolerance, _ROUNDING_LEVEL * figure.magnitude)
        for item in scope or [*self.cited, *self.items]:
            token = in_item(figure, item, near)
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


_QUOTE = re.compile(r"“([^”]{12,})”\s*\[([A-Za-z0-9]{1,12})\]")


def _verbatim_quotes(
    answer: str, evidence: Sequence[dict[str, Any]], citations: Sequence[dict[str, Any]]
) -> list[tuple[int, int, str]]:
    """(start, end, label) of each quote “…” [label] whose words are the cited passage's own (spacing
    and a closing "…" aside): its figures are the source's, read as written, not the answer's claims."""
    labels = {c["chunk_id"]: c.get("label") for c in citations if c.get("chunk_id") is not None}
    texts: dict[str, str] = {}
    for record in [*evidence, *citations]:
        label = record.get("label") or labels.get(record.get("chunk_id"))
        text = record.get("text") or record.get("excerpt") or ""
        if label and text and label not in texts:
            texts[label] = str(text)
    found = []
    for match in _QUOTE.finditer(answer):
        if quotes_verbatim(match.group(1), texts.get(match.group(2), "")):
            found.append((match.start(1), match.end(1), match.group(2)))
    return found


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
    quotes = _verbatim_quotes(answer, evidence, citations or [])
    for figure in scan_figures(answer):
        quote = next((q for q in quotes if q[0] <= figure.start < q[1]), None)
        if quote is not None:
            how = f"quoted verbatim from [{quote[2]}]"
            checks.append(FigureCheck(figure.text, figure.value, figure.kind, True, how, figure.start))
            minor[len(checks) - 1] = False
            continue
        span = next((s for s in spans if s[0] <= figure.start < s[1] or figure.start < s[0]), None)
        labels = span[2] if span else []
        ok, how, is_minor = checker.check(figure, labels)
        wrong = False
        if scope is not None and span is not None:
            verdict = period_verdict(figure, answer[span[0] : span[1]], scope, span[0])
            if verdict is not None:
                ok, how = verdict
                is_minor, wrong = False, not ok
            elif not ok and figure.date_key and figure.date_key[0] == "fiscal":
                periods = {k["period"] for k in scope.known}
                if figure.date_key[1] in periods:  # a column of a cited table, or a fact, names it
                    ok, how = True, f"period of a known figure ({figure.date_key[1]})"
        checks.append(
            FigureCheck(figure.text, figure.value, figure.kind, ok, how, figure.start, is_minor, wrong)
        )
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


_SMALL_COUNT_IN_PROSE = 12  # "3 segments", "the 2 companies": not figures to check


def check_prose(
    text: str,
    facts: Sequence[dict[str, Any]],
    calculations: Sequence[dict[str, Any]],
    extra_numbers: Sequence[float],
    names: dict[str, list[str]],
    passages: Sequence[dict[str, Any]] = (),
) -> tuple[str, list[str]]:
    """The writer's draft, sentence by sentence: each figure must be a value of the companies the
    sentence names (a figure read, a computed result or change, a number of the tools' data, or a
    number written in a passage of that company — the one the sentence cites when it cites one), and
    a change must go the way its words say. Returns the text, with a citation added to a sentence
    that quotes a figure read but cites nothing, and the figures that fail (e.g. Microsoft's growth
    rate attributed to Apple, or "fell 5.2%" for +5.2%). Sentences without figures are not judged.
    """
    known = [*known_facts(facts), *known_changes(calculations), *known_results(calculations)]
    read = [(p.get("ticker"), item) for p, item in zip(passages, evidence_items(passages, []), strict=True)]
    out: list[str] = []
    bad: list[str] = []
    for sentence in split_sentences(text):
        named = companies_in(sentence, names)
        own = [k for k in known if not named or k["ticker"] in named]
        cited = set(cited_labels(sentence))
        quoted = [i for t, i in read if (not named or t in named) and (not cited or i.label in cited)]
        sources: list[str] = []
        for figure in scan_figures(sentence):
            small = figure.kind == "count" and figure.magnitude <= _SMALL_COUNT_IN_PROSE
            if figure.kind == "date" or small:
                continue
            matches = [k for k in own if matches_known(figure, k)]
            tools = any(same_value(figure, n, "any", free_scale=True) for n in extra_numbers)
            tools = tools or (not matches and any(in_item(figure, item) for item in quoted))
            changes = bool(matches) and all(k.get("change") for k in matches)
            if (not matches and not tools) or (
                changes and direction_error(figure, sentence, figure.start, matches)
            ):
                bad.append(figure.text)
            sources += [str(k["source"]) for k in matches if k.get("source")]
        if "[" not in sentence and sources:
            cite = " " + "".join(f"[{label}]" for label in dict.fromkeys(sources))
            body, end = (sentence[:-1], sentence[-1]) if sentence[-1:] in ".!?" else (sentence, "")
            sentence = body + cite + end
        out.append(sentence)
    return " ".join(out), bad


def without_sentences_stating(text: str, figures: Sequence[str]) -> str:
    """``text`` without the sentences that state any of ``figures`` ("" when none is left with words).

    Unsupported numbers go; the narrative around them (drivers, segments, risks) stays.
    """
    kept = [
        s for s in split_sentences(text) if not any(f in s for f in figures) and re.search(r"[A-Za-z]{3}", s)
    ]
    return " ".join(kept).strip()


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
    "check_prose",
    "extract_figures",
    "feedback_for",
    "flag_unsupported",
    "table_known",
    "verify_answer",
    "without_sentences_stating",
]
