"""Does an answer state a reference answer's figures and its yes or no? The gate a grader applies
before any judge may call an answer correct: a lenient judge must not accept "8,978 million" for a
reference of "$411 million", nor a "Yes" for a reference that says "No".

Figures are read with the answers' own reader (``written.scan_figures``): scale words, currency,
parentheses and direction words ("a decline of 1.1%") give each figure its value and sign. A figure
matches at any usual scale ("$411 million" = 411,000,000 = 0.411 billion = a bare 411) within 1%, or
within the rounding either side shows ("$1.8 bn" for 1,842 million), never looser than 5%.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from finagent.finance.check.matching import MAX_RELATIVE
from finagent.finance.read.written_figures import WrittenFigure, scan_figures

RELATIVE_TOLERANCE = 0.01
_SCALES = (1e3, 1e6, 1e9)
_NEGATIVE_BEFORE = re.compile(
    r"\b(?:loss|losses|deficit|negative|shortfall|outflow)\s+(?:of\s+)?(?:about\s+|approximately\s+|roughly\s+)?$",
    re.I,
)
_ENUMERATOR = re.compile(r"^\(\d{1,2}\)$")
_SPAN = re.compile(r"\s*(?:-\s*)?(?:months?|years?|weeks?|quarters?)\b", re.I)  # "the 12 months ended"
_YES_NO = re.compile(r"^\W*(yes|no)\b", re.I)
# "$2.77 of assets to generate $1 of revenue", "per $1 of sales": one unit of money a ratio is read
# against, not a figure of the company.
_PER_UNIT_AFTER = re.compile(r"\s+of\s+[a-z]", re.I)
_PER_UNIT_BEFORE = re.compile(r"\b(?:per|every|each)\s+$", re.I)


@dataclass(frozen=True, slots=True)
class Gate:
    """Whether an answer may be judged correct against one reference, and why not."""

    passed: bool
    check: str = ""  # "yes/no" or "figures": what refused it
    reason: str = ""


def _signed(figure: WrittenFigure, text: str) -> WrittenFigure:
    """A figure after "loss of", "deficit of", "negative" is negative even when written unsigned."""
    if figure.sign == 0 and _NEGATIVE_BEFORE.search(text[max(0, figure.start - 40) : figure.start]):
        return replace(figure, value=-figure.magnitude, sign=-1)
    return figure


def _per_unit(figure: WrittenFigure, text: str) -> bool:
    if figure.magnitude != 1 or not figure.currency or figure.scaled:
        return False
    end = figure.start + len(figure.text)
    before = text[max(0, figure.start - 12) : figure.start]
    return bool(_PER_UNIT_AFTER.match(text, end) or _PER_UNIT_BEFORE.search(before))


def _figure(figure: WrittenFigure, text: str) -> bool:
    if figure.kind == "date" or _per_unit(figure, text):
        return False
    if figure.kind == "count":
        end = figure.start + len(figure.text)
        return not (_ENUMERATOR.match(figure.text.strip()) or _SPAN.match(text, end))
    return True


def figures_of(text: str) -> list[WrittenFigure]:
    """The figures a text states: not dates, years, fiscal labels, list numbering ("(1)"), a span
    of time ("the 12 months ended") or the unit a ratio is read per ("$1 of revenue")."""
    return [_signed(f, text) for f in scan_figures(text) if _figure(f, text)]


def _within(a: float, b: float, a_fig: WrittenFigure, b_fig: WrittenFigure) -> bool:
    """|a - b| within 1% of b, or within the coarser rounding either figure shows (at most 5%)."""
    shown = max(
        a_fig.tolerance / a_fig.magnitude if a_fig.magnitude else 0.0,
        b_fig.tolerance / b_fig.magnitude if b_fig.magnitude else 0.0,
    )
    relative = max(RELATIVE_TOLERANCE, min(shown, MAX_RELATIVE))
    return abs(a - b) <= relative * abs(b) + 1e-9


def _plain(figure: WrittenFigure) -> bool:
    return figure.kind != "percent" and not figure.currency and not figure.scaled


def _amount_readings(got: WrittenFigure, wanted: WrittenFigure) -> list[tuple[float, float]]:
    """(answer value, reference value) pairs in common units. Both in base units first; a side
    written without a scale word may be in thousands, millions or billions of the other ("411" for
    "$411 million", "$1577.00" for "$1.577 billion"), but never scaled below a unit it shows."""
    pairs = [(got.magnitude, wanted.magnitude)]
    for scale in _SCALES:
        if not got.scaled and (wanted.scaled or wanted.magnitude >= scale):
            pairs.append((got.magnitude * scale, wanted.magnitude))
        if not wanted.scaled and (got.scaled or got.magnitude >= scale):
            pairs.append((got.magnitude, wanted.magnitude * scale))
    return pairs


def states(got: WrittenFigure, wanted: WrittenFigure) -> bool:
    """The answer's figure ``got`` states the reference's figure ``wanted``, signs not contradicting."""
    if got.sign and wanted.sign and got.sign != wanted.sign:
        return False
    if wanted.kind == "percent" or got.kind == "percent":
        other = got if wanted.kind == "percent" else wanted
        if got.kind == wanted.kind:
            return _within(got.magnitude, wanted.magnitude, got, wanted)
        if not _plain(other):
            return False  # "$4.11 million" is no 411%
        # A percent against a bare number: the same digits, or the number as a ratio ("0.654" = 65.4%).
        ratio = 100.0 if wanted.kind == "percent" else 0.01
        return _within(got.magnitude, wanted.magnitude, got, wanted) or _within(
            got.magnitude * ratio, wanted.magnitude, got, wanted
        )
    return any(_within(a, b, got, wanted) for a, b in _amount_readings(got, wanted))


def required_figures(reference: str, question: str = "") -> list[WrittenFigure]:
    """The reference's figures an answer must state: those the question does not already write (a
    threshold it asks about, "more than 20%")."""
    given = figures_of(question)
    return [f for f in figures_of(reference) if not any(states(g, f) and g.kind == f.kind for g in given)]


def missing_figures(answer: str, reference: str, question: str = "") -> list[WrittenFigure]:
    """The reference's figures the answer does not state (empty when it states them all). A figure the
    reference works out from two of its own figures the answer states ("from 36.8% to 34.6%, a drop of
    2.2%") counts as stated: the answer's own, unrounded result may differ in the last digit."""
    stated = figures_of(answer)
    required = required_figures(reference, question)
    given = [f for f in required if any(states(g, f) for g in stated)]
    return [f for f in required if f not in given and not _worked_out(f, given)]


def _worked_out(wanted: WrittenFigure, given: Sequence[WrittenFigure]) -> bool:
    """``wanted`` is the difference of two other figures of the same kind (a gap, a change in points)."""
    return any(
        a is not b
        and a.kind == b.kind
        and a.magnitude != b.magnitude
        and abs(abs(a.magnitude - b.magnitude) - wanted.magnitude) <= max(wanted.tolerance, 1e-9)
        for a in given
        for b in given
    )


# The opening of the note that says which company an answer to a question naming none is about: it
# states the answer's scope, and the answer itself follows it.
SCOPE_NOTE_LEAD = "The question names no company"


def first_prose_line(text: str) -> str:
    """The answer's first line of prose: tables, headings and the scope note written before it are
    skipped."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith(("|", "#", SCOPE_NOTE_LEAD)):
            return stripped
    return ""


def leading_yes_no(text: str) -> str | None:
    """ "yes" / "no" when the text's first prose opens with it, else None."""
    match = _YES_NO.match(first_prose_line(text))
    return match.group(1).lower() if match else None


def gate(answer: str, reference: str, question: str = "") -> Gate:
    """May the answer be correct against this reference? Its leading yes/no must be the reference's
    (when the reference opens with one) and it must state every figure the reference states."""
    wanted = leading_yes_no(reference)
    if wanted is not None:
        given = leading_yes_no(answer)
        if given is None:
            return Gate(False, "yes/no", f"the reference answers {wanted}; the answer opens with neither")
        if given != wanted:
            return Gate(False, "yes/no", f"the reference answers {wanted}; the answer says {given}")
    missing = missing_figures(answer, reference, question)
    if missing:
        shown = ", ".join(f.text.strip() for f in missing[:4])
        return Gate(False, "figures", f"the answer does not state the reference's {shown}")
    return Gate(True)


def gate_any(answer: str, references: Sequence[str], question: str = "") -> Gate:
    """The gate against the reference or any accepted alternative; the reference's reason if none."""
    gates = [gate(answer, r, question) for r in references]
    return next((g for g in gates if g.passed), gates[0] if gates else Gate(True))
