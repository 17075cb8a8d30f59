"""Financial metrics that are computed, not reported: which line items they need, and the formula.

Analysts ask for ratios ("operating margin", "quick ratio", "DPO") that no filing states as a row.
A small model computes them poorly, so the line items are read from the statements (table rows,
else the model copies them), and the calculator evaluates the formula. End-of-period balances are
used; a formula never mixes periods or companies.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from finagent.finance.calculator import calculate
from finagent.finance.figures.text import period_key, table_facts


@dataclass(frozen=True, slots=True)
class LineItem:
    """A statement line: its display label and the row wordings that state it (best first)."""

    name: str
    label: str
    phrases: tuple[str, ...]
    statement: str


LINE_ITEMS: dict[str, LineItem] = {
    item.name: item
    for item in (
        LineItem(
            "revenue",
            "total revenue",
            ("total revenues", "total net sales", "revenues", "net sales", "revenue", "sales"),
            "income_statement",
        ),
        LineItem(
            "cost_of_revenue",
            "cost of revenue",
            ("total cost of revenues", "cost of revenues", "cost of sales", "cost of goods sold"),
            "income_statement",
        ),
        LineItem("gross_profit", "gross profit", ("gross profit", "gross margin"), "income_statement"),
        LineItem(
            "operating_income",
            "operating income",
            ("operating income", "income from operations", "operating profit"),
            "income_statement",
        ),
        LineItem(
            "net_income",
            "net income",
            ("net income", "net earnings", "net income attributable"),
            "income_statement",
        ),
        LineItem(
            "pretax_income",
            "income before income taxes",
            ("income before income taxes", "earnings before income taxes", "income before taxes"),
            "income_statement",
        ),
        LineItem(
            "income_tax",
            "provision for income taxes",
            ("provision for income taxes", "income tax expense", "income taxes"),
            "income_statement",
        ),
        LineItem("interest_expense", "interest expense", ("interest expense",), "income_statement"),
        LineItem(
            "depreciation",
            "depreciation and amortization",
            ("depreciation and amortization", "depreciation amortization", "depreciation"),
            "cash_flow",
        ),
        LineItem("current_assets", "total current assets", ("total current assets",), "balance_sheet"),
        LineItem(
            "current_liabilities",
            "total current liabilities",
            ("total current liabilities",),
            "balance_sheet",
        ),
        LineItem("inventories", "inventories", ("inventories", "inventory"), "balance_sheet"),
        LineItem(
            "receivables",
            "accounts receivable",
            ("accounts receivable net", "accounts receivable", "trade receivables", "receivables"),
            "balance_sheet",
        ),
        LineItem("accounts_payable", "accounts payable", ("accounts payable",), "balance_sheet"),
        LineItem("total_assets", "total assets", ("total assets",), "balance_sheet"),
        LineItem(
            "total_equity",
            "total shareholders' equity",
            ("total shareholders equity", "total stockholders equity", "total equity"),
            "balance_sheet",
        ),
        LineItem(
            "ppe_net",
            "property, plant and equipment, net",
            ("property plant and equipment net", "property and equipment net"),
            "balance_sheet",
        ),
        LineItem(
            "operating_cash_flow",
            "net cash provided by operating activities",
            ("net cash provided by operating activities", "cash provided by operating activities"),
            "cash_flow",
        ),
        LineItem(
            "capex",
            "purchases of property, plant and equipment",
            (
                "purchases of property plant and equipment",
                "purchases of property and equipment",
                "capital expenditures",
                "additions to property",
                "payments for property",
            ),
            "cash_flow",
        ),
        LineItem("dividends", "dividends paid", ("dividends paid", "cash dividends paid"), "cash_flow"),
    )
}


@dataclass(frozen=True, slots=True)
class Formula:
    """A metric and one way to compute it; ``{name}`` placeholders are line items."""

    metric: str
    cue: re.Pattern[str]
    expression: str
    unit: str  # "percent" | "ratio" | "days" | "amount"

    @property
    def inputs(self) -> list[str]:
        return re.findall(r"\{(\w+)\}", self.expression)


def _cue(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


# Several rows of one metric are alternative formulas, best first (the first computable one wins).
FORMULAS: tuple[Formula, ...] = (
    Formula(
        "operating margin",
        _cue(r"\boperating (profit |income )?(%\s*)?margin\b"),
        "{operating_income} / {revenue} * 100",
        "percent",
    ),
    Formula(
        "gross margin", _cue(r"\bgross (profit )?margin\b"), "{gross_profit} / {revenue} * 100", "percent"
    ),
    Formula(
        "gross margin",
        _cue(r"\bgross (profit )?margin\b"),
        "({revenue} - {cost_of_revenue}) / {revenue} * 100",
        "percent",
    ),
    Formula(
        "net margin",
        _cue(r"\bnet (profit |income )?(%\s*)?margin\b"),
        "{net_income} / {revenue} * 100",
        "percent",
    ),
    Formula("current ratio", _cue(r"\bcurrent ratio\b"), "{current_assets} / {current_liabilities}", "ratio"),
    Formula(
        "quick ratio",
        _cue(r"\bquick ratio\b|\bacid[- ]test\b"),
        "({current_assets} - {inventories}) / {current_liabilities}",
        "ratio",
    ),
    Formula(
        "working capital", _cue(r"\bworking capital\b"), "{current_assets} - {current_liabilities}", "amount"
    ),
    Formula(
        "free cash flow",
        _cue(r"\bfree cash flows?\b|\bFCF\b"),
        "{operating_cash_flow} - abs({capex})",
        "amount",
    ),
    Formula(
        "EBITDA margin",
        _cue(r"\bEBITDA\s*(%\s*)?margin\b"),
        "({operating_income} + {depreciation}) / {revenue} * 100",
        "percent",
    ),
    Formula(
        "EBITDA", _cue(r"\bEBITDA\b(?!\s*(%\s*)?margin)"), "{operating_income} + {depreciation}", "amount"
    ),
    Formula(
        "return on assets",
        _cue(r"\breturn on (total )?assets\b|\bROA\b"),
        "{net_income} / {total_assets} * 100",
        "percent",
    ),
    Formula(
        "return on equity",
        _cue(r"\breturn on (shareholders'? |stockholders'? )?equity\b|\bROE\b"),
        "{net_income} / {total_equity} * 100",
        "percent",
    ),
    Formula(
        "effective tax rate",
        _cue(r"\beffective tax rate\b"),
        "{income_tax} / {pretax_income} * 100",
        "percent",
    ),
    Formula(
        "interest coverage",
        _cue(r"\binterest coverage\b|\btimes interest earned\b"),
        "{operating_income} / abs({interest_expense})",
        "ratio",
    ),
    Formula(
        "dividend payout ratio",
        _cue(r"\b(dividend )?payout ratio\b"),
        "abs({dividends}) / {net_income} * 100",
        "percent",
    ),
    Formula(
        "days payable outstanding",
        _cue(r"\bdays payables? outstanding\b|\bDPO\b"),
        "{accounts_payable} / {cost_of_revenue} * 365",
        "days",
    ),
    Formula(
        "days sales outstanding",
        _cue(r"\bdays sales outstanding\b|\bDSO\b"),
        "{receivables} / {revenue} * 365",
        "days",
    ),
    Formula(
        "inventory turnover",
        _cue(r"\binventory turnover\b"),
        "{cost_of_revenue} / {inventories}",
        "ratio",
    ),
    Formula(
        "asset turnover",
        _cue(r"(?<!fixed )\b(total )?asset turnover\b"),
        "{revenue} / {total_assets}",
        "ratio",
    ),
    Formula(
        "fixed asset turnover",
        _cue(r"\bfixed asset turnover\b"),
        "{revenue} / {ppe_net}",
        "ratio",
    ),
)


def formulas_for(question: str) -> list[Formula]:
    """The formulas of every computed metric the question names (alternatives in order)."""
    return [f for f in FORMULAS if f.cue.search(question)]


def input_items(formulas: Sequence[Formula]) -> list[LineItem]:
    """Line items the formulas need, each once, in first-use order."""
    names = dict.fromkeys(name for f in formulas for name in f.inputs)
    return [LINE_ITEMS[name] for name in names]


def read_line_items(
    items: Sequence[dict[str, Any]], wanted: Sequence[LineItem]
) -> dict[tuple[str, str], dict[str, dict[str, Any]]]:
    """Line items stated as statement rows, per (ticker, period): statements first, best rank first."""
    ranked = sorted(items, key=lambda i: (i.get("statement") is None, -i.get("fused_score", 0.0)))
    found: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for line in wanted:
        for item in ranked:
            group = found.setdefault((item.get("ticker") or "", item["period_label"]), {})
            if line.name in group:
                continue
            for phrase in line.phrases:
                facts = table_facts(item, [phrase])
                if facts:
                    group[line.name] = facts[0] | {"metric": line.label, "line_item": line.name}
                    break
    return {key: group for key, group in found.items() if group}


def compute_formulas(
    formulas: Sequence[Formula], inputs: dict[tuple[str, str], dict[str, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """Each metric per (ticker, period) whose inputs are all known, evaluated by the calculator."""
    results: list[dict[str, Any]] = []
    for (ticker, period), values in sorted(inputs.items()):
        done: set[str] = set()
        for formula in formulas:
            if formula.metric in done or not all(name in values for name in formula.inputs):
                continue
            units = {values[name].get("unit") for name in formula.inputs}
            expression = formula.expression.format(**{n: _number(values[n]["value"]) for n in formula.inputs})
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
    return f"({value:g})" if value < 0 else f"{value:.10g}"


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
    if not _AVERAGE.search(question):
        return []
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
