"""The values of formulas (``formulas``): their lines read from statement tables or reported
figures, evaluated by the calculator per company and fiscal year, and their changes and means.

End-of-period balances are used; a formula never mixes periods or companies.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from finagent.finance.compute.formulas import PRIOR, Formula, line_of_metric
from finagent.finance.compute.period_changes import growth_change
from finagent.finance.compute.safe_calculator import calculate, difference
from finagent.finance.figure_records import period_key
from finagent.finance.line_item import LineItem
from finagent.finance.lines import INPUTS
from finagent.finance.periods.period import FiscalPeriod
from finagent.finance.read.report_tables import parts_sum_fact, table_facts
from finagent.finance.read.statement_titles import titled
from finagent.finance.words import UNIT_SCALES


def read_line_items(
    items: Sequence[dict[str, Any]], wanted: Sequence[LineItem], prior: Sequence[str] = ()
) -> dict[tuple[str, str], dict[str, dict[str, Any]]]:
    """Line items stated as statement rows, per (ticker, period): statements first (those opening with
    their own title before a note's table of some of their lines), best rank first; never a table of
    a part of the company (``part_of_company``).

    Items named in ``prior`` are also read for the previous fiscal year, from the same annual
    report's previous-year column, as ``<name>_prior``.
    """
    whole = [i for i in items if not part_of_company(i)]
    ranked = sorted(whole, key=_statement_first)
    found: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for line in wanted:
        for previous in (False, True) if line.input in prior else (False,):
            key = line.input + PRIOR if previous else line.input
            for item in ranked:
                group = found.setdefault((item.get("ticker") or "", item["period_label"]), {})
                if key in group:
                    continue
                fact = _stated(item, line, previous)
                if fact is not None:
                    label = f"{line.input_label} ({fact['period']})" if previous else line.input_label
                    label += f" (sum of {fact['summed']} lines)" if fact.get("summed") else ""
                    group[key] = fact | {"metric": label, "line_item": key}
    return {key: group for key, group in found.items() if group}


def without_other_readings(
    facts: Sequence[dict[str, Any]], inputs: dict[tuple[str, str], dict[str, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The facts less those that state a formula's line for a company and period in another value than
    the one the formula reads (one figure, one choice): Amcor's "Inventories" of $60 million in a
    note beside the statement's $2,213 million (the sum of its two lines)."""
    kept = []
    for fact in facts:
        chosen = inputs.get((fact["ticker"], fact["period"]), {})
        other = [
            f
            for name, f in chosen.items()
            if not name.endswith(PRIOR)
            and f["value"] != fact["value"]
            and any(_names_line(fact["metric"], phrase) for phrase in INPUTS[name].input_rows)
        ]
        if not other:
            kept.append(fact)
    return kept


def _names_line(label: str, phrase: str) -> bool:
    """The row label is the line's wording, give or take "total", "net" and punctuation."""
    words = set(re.findall(r"[a-z]+", label.lower())) - {"total", "net"}
    return bool(words) and words == set(re.findall(r"[a-z]+", phrase.lower())) - {"total", "net"}


def _stated(item: dict[str, Any], line: LineItem, previous: bool) -> dict[str, Any] | None:
    """The line's row in the item's table (its best wording first), else its parts summed under its
    heading."""
    facts = table_facts(item, line.input_rows, prior=previous)
    if facts:
        return facts[0]
    if line.input_parts is None:
        return None
    return parts_sum_fact(item, line.input_rows, line.input_parts, prior=previous)


def _statement_first(item: dict[str, Any]) -> tuple[bool, bool, float]:
    statement = item.get("statement")
    own_title = titled(str(item.get("text") or ""), statement)
    return statement is None, not own_title, -item.get("fused_score", 0.0)


# Statements of a part of the company, printed beside its own: a guarantor group's, the parent's
# alone, columns of consolidating entities. Their lines are not the company's.
_PART_OF_COMPANY = re.compile(
    r"\b(?:deed of cross guarantee|(?:non-)?guarantor|condensed consolidating|parent company"
    r"|registrant only|financial information of (?:the )?registrant)\b",
    re.I,
)


def part_of_company(item: dict[str, Any]) -> bool:
    """The table's title names a part of the company ("Deed of Cross Guarantee Balance Sheet", "Parent
    Company – Condensed Statements of Cash Flows"): Amcor's guarantor group states current assets of
    $477 million beside the company's $5,308 million."""
    return bool(_PART_OF_COMPANY.search(str(item.get("text") or "")[:200]))


def _prior_label(period: str) -> str | None:
    parsed = FiscalPeriod.from_label(period)
    return parsed.previous_year().label if parsed is not None and parsed.is_year else None


def with_prior_years(
    inputs: dict[tuple[str, str], dict[str, dict[str, Any]]],
) -> dict[tuple[str, str], dict[str, dict[str, Any]]]:
    """Each fiscal year's ``<name>_prior`` filled from the previous year's own report when that
    report was read too (its own column is the better source), else kept from the previous-year
    column of this year's report."""
    out = {key: dict(values) for key, values in inputs.items()}
    for (ticker, period), values in out.items():
        previous = _prior_label(period)
        earlier = inputs.get((ticker, previous)) if previous else None
        for name, value in (earlier or {}).items():
            if not name.endswith(PRIOR):
                values[name + PRIOR] = value
    return out


def formula_changes(calculations: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The change of each computed ratio or amount of a company between consecutive fiscal years:
    "quick ratio change FY2022 -> FY2023: +3.4%". An amount's change also states its difference
    ("total debt change FY2022 -> FY2023: -5.1% (-$2,544 million)"), computed as its own record.
    Percent metrics (margins) move in points, not in percent of themselves, and are not changed here."""
    series: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for calc in calculations:
        annual = str(calc.get("period") or "").startswith("FY")
        changed = calc.get("unit") == "ratio" or calc.get("unit") in UNIT_SCALES
        if calc.get("kind") == "formula" and changed and annual and calc.get("result"):
            series[(calc["ticker"], calc["metric"])].append(calc)
    changes = []
    for (ticker, metric), members in series.items():
        for old, new in pairwise(sorted(members, key=lambda c: period_key(c["period"]))):
            change = growth_change(
                ticker,
                metric,
                (old["period"], round(float(old["result"]), 4)),
                (new["period"], round(float(new["result"]), 4)),
            )
            if change is None:
                continue
            sources = sorted({*old.get("sources", []), *new.get("sources", [])})
            moved = _moved_by(old, new) if new.get("unit") in UNIT_SCALES else None
            if moved is not None:
                change["result_text"] += f" ({moved['result_text']})"
                changes.append(moved | {"sources": sources})
            changes.append(change | {"sources": sources})
    return changes


def _moved_by(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any] | None:
    """An amount's difference between two years, as a record the figures check can trace."""
    moved = difference(round(float(new["result"]), 4), round(float(old["result"]), 4))
    if not moved.ok or moved.result is None:
        return None
    text = _result_text(abs(moved.result), "amount", new["unit"])
    return {
        "kind": "difference",
        "ticker": new["ticker"],
        "metric": new["metric"],
        "since": old["period"],
        "period": new["period"],
        "expression": moved.expression,
        "result": moved.result,
        "result_text": ("-" if moved.result < 0 else "+") + text,
        "unit": new["unit"],
    }


def compute_formulas(
    formulas: Sequence[Formula], inputs: dict[tuple[str, str], dict[str, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """Each metric per (ticker, period) whose inputs are all known, evaluated by the calculator."""
    results: list[dict[str, Any]] = []
    for (ticker, period), values in sorted(inputs.items()):
        done: set[str] = set()
        # A year that is only the opening balance of the next year's average is not itself asked for.
        opening = any(_prior_label(p) == period for t, p in inputs if t == ticker)
        for formula in formulas:
            if formula.metric in done or not all(name in values for name in formula.inputs):
                continue
            if opening and any(n.endswith(PRIOR) for n in formula.inputs):
                continue
            units = {values[name].get("unit") for name in formula.inputs}
            scales = {n: 1.0 for n in formula.inputs}
            if len(units) > 1 and units <= set(UNIT_SCALES):  # millions beside thousands: dollars
                scales = {n: UNIT_SCALES[str(values[n].get("unit"))] for n in formula.inputs}
                units = {"USD"}
            expression = formula.expression.format(
                **{n: _number(values[n]["value"] * scales[n]) for n in formula.inputs}
            )
            result = calculate(expression)
            if not result.ok or result.result is None:
                continue
            done.add(formula.metric)
            amount_unit = next(iter(units)) if len(units) == 1 else "other"
            results.append(
                {
                    "kind": "formula",
                    "ticker": ticker,
                    "metric": formula.metric,
                    "period": period,
                    "expression": expression,
                    "formula": formula.expression.replace("{", "").replace("}", ""),
                    "result": result.result,
                    "result_text": _result_text(result.result, formula.unit, amount_unit),
                    "unit": formula.unit if formula.unit != "amount" else amount_unit,
                    "sources": sorted({values[n]["source"] for n in formula.inputs}),
                }
            )
    return results


def _number(value: float) -> str:
    """A plain decimal for the calculator (it reads no exponents: 7.806e+09 would not parse)."""
    text = f"{value:.10g}"
    if "e" in text:
        text = f"{value:.6f}".rstrip("0").rstrip(".")
    return f"({text})" if value < 0 else text


def _result_text(value: float, unit: str, amount_unit: str | None) -> str:
    if unit == "percent":
        return f"{value:.1f}%"
    if unit == "days":
        return f"{value:.1f} days"
    if unit == "ratio":
        return f"{value:.2f}"
    scale = {"USD millions": " million", "USD billions": " billion", "USD thousands": " thousand"}
    return f"${value:,.0f}{scale.get(amount_unit or '', '')}"


_AVERAGE = re.compile(r"\b(average|mean)\b", re.I)


def average_over_periods(question: str, calculations: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The mean of each computed metric over its periods when the question asks for an average
    ("the FY2018 - FY2020 3 year average EBITDA margin"), evaluated by the calculator."""
    return mean_over_periods(calculations) if _AVERAGE.search(question) else []


def mean_over_periods(calculations: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The mean of each computed metric over its periods, evaluated by the calculator."""
    series: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for calc in calculations:
        if calc.get("kind") == "formula":
            series.setdefault((calc["ticker"], calc["metric"]), []).append(calc)
    results = []
    for (ticker, metric), members in sorted(series.items()):
        if len(members) < 2:
            continue
        members = sorted(members, key=lambda c: period_key(c["period"]))
        expression = f"({' + '.join(_number(c['result']) for c in members)}) / {len(members)}"
        result = calculate(expression)
        if not result.ok or result.result is None:
            continue
        unit = members[0].get("unit") or "ratio"
        results.append(
            {
                "kind": "formula",
                "ticker": ticker,
                "metric": f"average {metric}",
                "period": f"{members[0]['period']}-{members[-1]['period']}",
                "expression": expression,
                "formula": f"mean of {metric} over {len(members)} periods",
                "result": result.result,
                "result_text": _result_text(result.result, unit, unit),
                "unit": unit,
                "sources": sorted({s for c in members for s in c["sources"]}),
            }
        )
    return results


def formula_results(
    question: str,
    formulas: Sequence[Formula],
    figures: Sequence[tuple[str, str, str, float, str, str]],
) -> list[dict[str, Any]]:
    """The formulas over period-true figures (ticker, period, metric, value, unit, citation label):
    each company and fiscal year whose line items are all known, the previous year's figures as the
    opening balances of averages, then the mean over the years when the question asks for one."""
    inputs: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for ticker, period, metric, value, unit, source in figures:
        line = line_of_metric(metric)
        if line is not None:
            inputs.setdefault((ticker, period), {}).setdefault(
                line, {"value": value, "unit": unit, "source": source}
            )
    results = compute_formulas(formulas, with_prior_years(inputs))
    return results + average_over_periods(question, results)
