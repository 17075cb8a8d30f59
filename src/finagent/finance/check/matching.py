"""When a written figure is a known value: the one matching rule of the figures check.

Both checks of an answer use it: the writer's sentence check (``verify.check_prose``: is each figure
a value of the company its sentence names, going the direction its words say?) and the evidence
check (``verify.verify_answer``: is each figure in the evidence it cites, for the period it names?).
A figure matches at the precision it is written (never looser than 5%), after scales are normalised.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from finagent.finance.check.evidence_items import EvidenceItem
from finagent.finance.read.written_figures import WrittenFigure
from finagent.finance.words import DOWN_WORDS, UNIT_SCALES, UP_WORDS

MAX_RELATIVE = 0.05  # rounding to the shown precision never excuses more than 5% (a bare "5%" vs 4.6)
_FREE_SCALES = (1.0, 1e3, 1e6, 1e9, 1e-3, 1e-6, 1e-9)
_STATED_UNITS = {"percent", "per share", "USD", *UNIT_SCALES}
PERCENT_DECIMAL_HALF = 0.05  # half a unit of a percent's first decimal


def close_to(
    figure: WrittenFigure, candidate: float, candidate_sign: int, tolerance: float | None = None
) -> bool:
    """Equal at the precision the answer shows (never looser than 5%, except a percent shown to a
    decimal place: "+0.3%" is 0.283% rounded), signs not contradicting."""
    if figure.sign and candidate_sign and figure.sign != candidate_sign:
        return False
    if tolerance is None:
        tolerance = min(figure.tolerance, MAX_RELATIVE * figure.magnitude)
        if figure.kind == "percent" and figure.tolerance <= PERCENT_DECIMAL_HALF:
            tolerance = figure.tolerance
    return abs(figure.magnitude - abs(candidate)) <= tolerance + 1e-9 * max(1.0, figure.magnitude)


# -- against an evidence item's numbers --------------------------------------------------------------
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


def in_item(
    figure: WrittenFigure, item: EvidenceItem, tolerance: float | None = None
) -> WrittenFigure | None:
    """The number of ``item`` that ``figure`` states, if any."""
    return next(iter(stating_tokens(figure, item, tolerance)), None)


def stating_tokens(
    figure: WrittenFigure, item: EvidenceItem, tolerance: float | None = None
) -> list[WrittenFigure]:
    """Every number of ``item`` that ``figure`` states (a figure may stand in several places)."""
    found = []
    for token in item.numbers:
        sign = -1 if token.sign < 0 else 0  # an unsigned evidence number may sit in a "decrease" row
        if any(close_to(figure, v, sign, tolerance) for v in _readings(figure, token, item)):
            found.append(token)
    return found


def calc_candidates(figure: WrittenFigure, calc: dict[str, Any]) -> list[float]:
    """What a calculator result may be written as: itself, or in dollars when its unit is scaled."""
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


# -- against known figures (a company's value for a period, a computed change) -------------------------
def same_value(figure: WrittenFigure, value: float, kind: str, free_scale: bool = False) -> bool:
    """``figure`` states ``value`` (in dollars, or of unknown scale when ``free_scale``); a percent
    only a percent (``kind`` "any" matches either)."""
    if kind != "any" and (figure.kind == "percent") != (kind == "percent"):
        return False
    if free_scale:
        readings = [value * s for s in _FREE_SCALES]
    elif figure.scaled or figure.currency or figure.kind == "percent":
        readings = [value]
    else:
        readings = [value, value / 1e3, value / 1e6, value / 1e9]
    tolerance = min(figure.tolerance, MAX_RELATIVE * figure.magnitude) + 1e-9 * max(1.0, figure.magnitude)
    return any(abs(figure.magnitude - abs(v)) <= tolerance for v in readings)


def matches_known(figure: WrittenFigure, known: dict[str, Any]) -> bool:
    return same_value(figure, float(known["value"]), known["kind"], bool(known.get("free_scale")))


def known_facts(facts: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Figures read for a company and period, in dollars where their unit says the scale."""
    known = []
    for fact in facts:
        unit = fact.get("unit")
        kind = "percent" if unit == "percent" else "per_share" if unit == "per share" else "amount"
        known.append(
            {
                "ticker": fact["ticker"],
                "period": fact.get("period") or "",
                "value": float(fact["value"]) * UNIT_SCALES.get(str(unit), 1.0),
                "kind": kind,
                "what": str(fact.get("metric")),
                "source": fact.get("source"),
                "free_scale": unit not in _STATED_UNITS,  # shares or a table's own scale: unknown
            }
        )
    return known


def known_changes(calculations: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Computed period-over-period changes (the calculator's ``growth``; a result with no unit is one)."""
    return [
        {
            "ticker": calc.get("ticker"),
            "period": calc.get("to_period") or calc.get("period") or "",
            "value": float(calc["result"]),
            "kind": "percent",
            "what": f"change of {calc.get('metric')}",
            "change": True,
        }
        for calc in calculations
        if isinstance(calc.get("result"), int | float) and ("from_period" in calc or not calc.get("unit"))
    ]


def known_results(calculations: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Computed levels (margins, ratios, sums): the calculator's other results, in their unit."""
    known = []
    for calc in calculations:
        unit = str(calc.get("unit") or "")
        if not isinstance(calc.get("result"), int | float) or "from_period" in calc or not unit:
            continue
        known.append(
            {
                "ticker": calc.get("ticker"),
                "period": calc.get("period") or "",
                "value": float(calc["result"]) * UNIT_SCALES.get(unit, 1.0),
                "kind": "percent" if unit == "percent" else "amount",
                "what": str(calc.get("metric")),
                "free_scale": unit not in _STATED_UNITS,
            }
        )
    return known


# -- the direction a change is described in ------------------------------------------------------------
# Calculator expressions name their helper ("(computed: growth(117154, 94836))"): not a direction word.
_EXPRESSIONS = re.compile(r"\(computed:[^\n]*|\b(?:growth|cagr|margin|diff|ratio|avg)\(", re.I)


def direction_error(
    figure: WrittenFigure, sentence: str, start: int, changes: Sequence[dict[str, Any]]
) -> str:
    """Why a percent change is described the wrong way round ("fell 5.2%" for +5.2%), or ""."""
    if figure.kind != "percent" or not changes:
        return ""
    window = _EXPRESSIONS.sub(" ", sentence[max(0, start - 40) : start + len(figure.text) + 20])
    up, down = bool(UP_WORDS.search(window)), bool(DOWN_WORDS.search(window))
    if all(float(k["value"]) < 0 for k in changes) and up and not down:
        return f"{figure.text} is a decline, described as growth"
    if all(float(k["value"]) > 0 for k in changes) and down and not up:
        return f"{figure.text} is growth, described as a decline"
    return ""


def companies_in(sentence: str, names: dict[str, list[str]]) -> set[str]:
    """Tickers whose name or alias a sentence writes as a whole word."""
    return {
        ticker
        for ticker, aliases in names.items()
        if any(re.search(rf"(?<!\w){re.escape(a)}(?!\w)", sentence, re.I) for a in aliases if a)
    }
