"""Financial metrics that are computed, not reported: which line items they need, and the formula.

Analysts ask for ratios ("operating margin", "quick ratio", "DPO") that no filing states as a row.
A small model computes them poorly, so the line items are read from the statements (table rows,
else the model copies them), and the calculator evaluates the formula. End-of-period balances are
used; a formula never mixes periods or companies.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from finagent.finance.calculator import calculate, difference
from finagent.finance.figures.text import growth_change, parts_sum_fact, period_key, table_facts
from finagent.finance.judgements import BY_NAME as JUDGEMENTS
from finagent.finance.periods.period import FiscalPeriod
from finagent.finance.statements import titled
from finagent.finance.words import UNIT_SCALES


@dataclass(frozen=True, slots=True)
class LineItem:
    """A statement line: its display label and the row wordings that state it (best first)."""

    name: str
    label: str
    phrases: tuple[str, ...]
    statement: str
    parts: re.Pattern[str] | None = None
    """Row wordings of its parts, summed when the statement prints them under its heading with no
    total row (Amcor's raw materials and finished goods under "Inventories, net")."""


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
            (
                "total cost of revenues",
                "cost of revenues",
                "cost of sales",
                "cost of goods sold",
                "cost of products sold",
            ),
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
        LineItem(
            "inventories",
            "inventories",
            ("inventories", "inventory"),
            "balance_sheet",
            parts=re.compile(
                r"\braw materials?\b|\bwork[- ]in[- ](?:process|progress)\b|\bfinished (?:goods|products)\b"
                r"|\bsupplies\b",
                re.I,
            ),
        ),
        LineItem("cash", "cash and cash equivalents", ("cash and cash equivalents",), "balance_sheet"),
        LineItem(
            "short_term_investments",
            "short-term investments",
            ("short-term investments", "short term investments", "marketable securities"),
            "balance_sheet",
        ),
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
        LineItem(
            "current_debt",
            "current portion of long-term debt",
            (
                "current portion of long-term debt",
                "current maturities of long-term debt",
                "short-term debt",
                "short-term borrowings",
            ),
            "balance_sheet",
        ),
        LineItem(
            "long_term_debt", "long-term debt", ("long-term debt", "long-term borrowings"), "balance_sheet"
        ),
    )
}


@dataclass(frozen=True, slots=True)
class Formula:
    """A metric and one way to compute it; ``{name}`` placeholders are line items."""

    metric: str
    cue: re.Pattern[str]
    expression: str
    unit: str  # "percent" | "ratio" | "days" | "amount"
    defined: bool = False
    """The definition a question spells out (average balances, COGS plus the change in inventory):
    when its cue matches, the metric's other formulas are not used."""

    @property
    def inputs(self) -> list[str]:
        return re.findall(r"\{(\w+)\}", self.expression)


PRIOR = "_prior"
"""``{inventories_prior}``: the line item at the previous fiscal year (an average's opening balance)."""


def base_name(name: str) -> str:
    return name.removesuffix(PRIOR)


def _cue(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


def _given(*phrases: str) -> str:
    """A cue that holds only when the question states each phrase (its own definition)."""
    return "(?s)" + "".join(f"(?=.*{p})" for p in phrases)


_AVG = r"\baverage {0}"
_DELTA_INVENTORY = r"\bchange in inventor(?:y|ies)\b"
_AVG_INVENTORY = r"({inventories} + {inventories_prior}) / 2"
_AVG_RECEIVABLES = r"({receivables} + {receivables_prior}) / 2"
_AVG_PAYABLES = r"({accounts_payable} + {accounts_payable_prior}) / 2"
_DIO_AVG = f"365 * {_AVG_INVENTORY} / {{cost_of_revenue}}"
_DSO_AVG = f"365 * {_AVG_RECEIVABLES} / {{revenue}}"
_DPO_AVG_DELTA = f"365 * {_AVG_PAYABLES} / ({{cost_of_revenue}} + {{inventories}} - {{inventories_prior}})"

# Definitions FinanceBench questions spell out ("DPO is defined as: 365 * (average accounts payable
# between FY2019 and FY2020) / (FY2020 COGS + change in inventory ...)"); each is used only when the
# question states it, and then instead of the metric's textbook formula below.
DEFINED_FORMULAS: tuple[Formula, ...] = (
    Formula(
        "cash conversion cycle",
        _cue(
            _given(
                r"\b(cash conversion cycle|CCC)\b",
                _AVG.format("inventor"),
                _AVG.format("accounts payable"),
                _DELTA_INVENTORY,
            )
        ),
        f"{_DIO_AVG} + {_DSO_AVG} - {_DPO_AVG_DELTA}",
        "days",
        defined=True,
    ),
    Formula(
        "days payable outstanding",
        _cue(
            _given(r"\b(DPO|days payables? outstanding)\b", _AVG.format("accounts payable"), _DELTA_INVENTORY)
        ),
        _DPO_AVG_DELTA,
        "days",
        defined=True,
    ),
    Formula(
        "days payable outstanding",
        _cue(_given(r"\b(DPO|days payables? outstanding)\b", _AVG.format("accounts payable"))),
        f"365 * {_AVG_PAYABLES} / {{cost_of_revenue}}",
        "days",
        defined=True,
    ),
    Formula(
        "days sales outstanding",
        _cue(_given(r"\b(DSO|days sales outstanding)\b", _AVG.format("accounts receivable"))),
        _DSO_AVG,
        "days",
        defined=True,
    ),
    Formula(
        "days inventory outstanding",
        _cue(_given(r"\b(DIO|days inventory outstanding)\b", _AVG.format("inventor"))),
        _DIO_AVG,
        "days",
        defined=True,
    ),
    Formula(
        "inventory turnover",
        _cue(_given(r"\binventory turnover\b", _AVG.format("inventor"))),
        f"{{cost_of_revenue}} / ({_AVG_INVENTORY})",
        "ratio",
        defined=True,
    ),
    Formula(
        "asset turnover",
        _cue(_given(r"(?<!fixed )\b(total )?asset turnover\b", _AVG.format("total assets"))),
        "{revenue} / (({total_assets} + {total_assets_prior}) / 2)",
        "ratio",
        defined=True,
    ),
    Formula(
        "return on assets",
        _cue(_given(r"\breturn on (total )?assets\b|\bROA\b", _AVG.format("total assets"))),
        "{net_income} / (({total_assets} + {total_assets_prior}) / 2) * 100",
        "percent",
        defined=True,
    ),
    Formula(
        "return on equity",
        _cue(
            _given(
                r"\breturn on (shareholders'? |stockholders'? )?equity\b|\bROE\b",
                _AVG.format(r"(total )?(shareholders'? |stockholders'? )?equity"),
            )
        ),
        "{net_income} / (({total_equity} + {total_equity_prior}) / 2) * 100",
        "percent",
        defined=True,
    ),
)

# An adjusted (non-GAAP) EBITDA is the company's own reported measure, with its own add-backs: it is
# read from the release that reports it, never computed from the statements' lines.
_REPORTED_ONLY = r"(?<!\badjusted )(?<!\badj\. )(?<!\bnon-gaap )(?<!\bnon gaap )"

_CAPITAL_INTENSIVE = JUDGEMENTS["capital-intensive"].cue

_QUICK_RATIO = r"\bquick ratio\b|\bacid[- ]test\b"
_QUICK_ASSETS_ONLY = "cash-and-receivables quick ratio"
"""The stricter acid test (cash, short-term investments and receivables over current liabilities),
shown beside the quick ratio when liquidity is judged: analysts use both definitions."""

_LIQUIDITY = JUDGEMENTS["healthy liquidity"].cue.pattern
_LIQUIDITY_NO_RATIO = rf"(?s)^(?!.*(?:{_QUICK_RATIO})).*?(?:{_LIQUIDITY})"  # a ratio named decides
_LIQUIDITY_BY_QUICK_RATIO = _cue(_given(f"(?:{_QUICK_RATIO})", f"(?:{_LIQUIDITY})"))

# A company's debt as a whole ("total debt", "has it increased its debt", "debt on its balance sheet"),
# not one kind of it (long-term, short-term, net) nor a ratio or the notes that describe it.
_TOTAL_DEBT = (
    r"\btotal (?:debt|borrowings)\b(?!\s*(?:-\s*)?(?:to|ratio))"
    r"|\b(?:its|their|the company's) debt\b(?!\s*(?:-\s*)?(?:to|ratio|structure|instruments?|management"
    r"|strategy|covenants?|securities|maturit|issu))"
    r"|\bdebt on (?:its |the |their )?balance sheets?\b"
)

# Several rows of one metric are alternative formulas, best first (the first computable one wins).
FORMULAS: tuple[Formula, ...] = (
    *DEFINED_FORMULAS,
    Formula(
        "cost of goods sold % of revenue",
        _cue(
            r"\b(cogs|cost of goods sold|cost of sales|cost of revenues?)\b[^.?]{0,30}"
            r"\b(as an? )?(%|percent(age)?|share) of (total )?(net )?(revenues?|sales)\b"
        ),
        "{cost_of_revenue} / {revenue} * 100",
        "percent",
    ),
    Formula(
        "retention ratio",
        _cue(r"\b(retention|plowback) ratio\b"),
        "({net_income} - abs({dividends})) / {net_income}",
        "ratio",
    ),
    Formula(
        "cash conversion cycle",
        _cue(r"\bcash conversion cycle\b|\bCCC\b"),
        "365 * {inventories} / {cost_of_revenue} + 365 * {receivables} / {revenue}"
        " - 365 * {accounts_payable} / {cost_of_revenue}",
        "days",
    ),
    Formula(
        "days inventory outstanding",
        _cue(r"\b(DIO|days inventory outstanding|days sales of inventory|days in inventory)\b"),
        "365 * {inventories} / {cost_of_revenue}",
        "days",
    ),
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
    Formula(
        "current ratio",
        _cue(r"\bcurrent ratio\b|\bworking capital ratio\b"),  # FinanceBench: "working capital ratio"
        "{current_assets} / {current_liabilities}",
        "ratio",
    ),
    Formula(
        "quick ratio",
        _cue(_QUICK_RATIO),
        "({current_assets} - {inventories}) / {current_liabilities}",
        "ratio",
    ),
    Formula(
        _QUICK_ASSETS_ONLY,
        _LIQUIDITY_BY_QUICK_RATIO,
        "({cash} + {short_term_investments} + {receivables}) / {current_liabilities}",
        "ratio",
    ),
    Formula(  # a company holding no short-term investments
        _QUICK_ASSETS_ONLY,
        _LIQUIDITY_BY_QUICK_RATIO,
        "({cash} + {receivables}) / {current_liabilities}",
        "ratio",
    ),
    Formula(
        "current ratio",  # a healthy liquidity profile, no ratio named: the current ratio decides
        _cue(_LIQUIDITY_NO_RATIO),
        "{current_assets} / {current_liabilities}",
        "ratio",
    ),
    Formula(
        "working capital",
        _cue(r"\bworking capital\b(?!\s+ratio)"),
        "{current_assets} - {current_liabilities}",
        "amount",
    ),
    Formula(
        "free cash flow",
        _cue(r"\bfree cash flows?\b|\bFCF\b"),
        "{operating_cash_flow} - abs({capex})",
        "amount",
    ),
    Formula(
        "EBITDA margin",
        _cue(rf"{_REPORTED_ONLY}\bEBITDA\s*(%\s*)?margin\b"),
        "({operating_income} + {depreciation}) / {revenue} * 100",
        "percent",
    ),
    Formula(
        "EBITDA",
        _cue(rf"{_REPORTED_ONLY}\bEBITDA\b(?!\s*(%\s*)?margin)"),
        "{operating_income} + {depreciation}",
        "amount",
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
    Formula(  # the textbook's: cost of sales over the year's average inventory
        "inventory turnover",
        _cue(r"\binventory turnover\b"),
        f"{{cost_of_revenue}} / ({_AVG_INVENTORY})",
        "ratio",
    ),
    Formula(  # with no opening balance, the year-end one
        "inventory turnover", _cue(r"\binventory turnover\b"), "{cost_of_revenue} / {inventories}", "ratio"
    ),
    Formula(
        "asset turnover",
        _cue(r"(?<!fixed )\b(total )?asset turnover\b"),
        "{revenue} / {total_assets}",
        "ratio",
    ),
    # The ratios a capital-intensive judgement reads (finance.judgements): capex to revenue decides.
    Formula(
        "capital expenditure % of revenue",
        _CAPITAL_INTENSIVE,
        "abs({capex}) / {revenue} * 100",
        "percent",
    ),
    Formula(
        "fixed assets % of total assets",
        _CAPITAL_INTENSIVE,
        "{ppe_net} / {total_assets} * 100",
        "percent",
    ),
    Formula("total assets to revenue", _CAPITAL_INTENSIVE, "{total_assets} / {revenue}", "ratio"),
    Formula(
        "return on assets",
        _CAPITAL_INTENSIVE,
        "{net_income} / {total_assets} * 100",
        "percent",
    ),
    Formula(
        "revenue growth",
        JUDGEMENTS["high growth"].cue,
        f"({{revenue}} - {{revenue{PRIOR}}}) / {{revenue{PRIOR}}} * 100",
        "percent",
    ),
    Formula(
        "total debt",
        _cue(_TOTAL_DEBT),
        "{current_debt} + {long_term_debt}",
        "amount",
    ),
    Formula(
        "fixed asset turnover",
        _cue(r"\bfixed asset turnover\b"),
        "{revenue} / {ppe_net}",
        "ratio",
    ),
)


def formulas_for(question: str) -> list[Formula]:
    """The formulas of every computed metric the question names (alternatives in order); a metric
    the question defines itself is computed by that definition only."""
    found = [f for f in FORMULAS if f.cue.search(question)]
    defined = {f.metric for f in found if f.defined}
    if "cash conversion cycle" in defined:  # its parts are not asked for on their own
        defined |= {"days payable outstanding", "days sales outstanding", "days inventory outstanding"}
        found = [f for f in found if f.metric not in defined or f.metric == "cash conversion cycle"]
    return [f for f in found if f.defined or f.metric not in defined]


def input_items(formulas: Sequence[Formula]) -> list[LineItem]:
    """Line items the formulas need, each once, in first-use order (a prior-year input is its item)."""
    names = dict.fromkeys(base_name(name) for f in formulas for name in f.inputs)
    return [LINE_ITEMS[name] for name in names]


def needs_prior(formulas: Sequence[Formula]) -> set[str]:
    """Line items whose previous-year value a formula needs (averages, changes)."""
    return {base_name(n) for f in formulas for n in f.inputs if n.endswith(PRIOR)}


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
        for previous in (False, True) if line.name in prior else (False,):
            key = line.name + PRIOR if previous else line.name
            for item in ranked:
                group = found.setdefault((item.get("ticker") or "", item["period_label"]), {})
                if key in group:
                    continue
                fact = _stated(item, line, previous)
                if fact is not None:
                    label = f"{line.label} ({fact['period']})" if previous else line.label
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
            and any(_names_line(fact["metric"], phrase) for phrase in LINE_ITEMS[name].phrases)
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
    facts = table_facts(item, line.phrases, prior=previous)
    if facts:
        return facts[0]
    if line.parts is None:
        return None
    return parts_sum_fact(item, line.phrases, line.parts, prior=previous)


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


# Reported-metric names (finance.metrics) that are a formula's line item under another name.
METRIC_LINES = {"inventory": "inventories", "equity": "total_equity", "dividends_paid": "dividends"}


def line_of_metric(metric: str) -> str | None:
    """The line item a reported metric is ("inventory" is "inventories"), or None."""
    name = METRIC_LINES.get(metric, metric)
    return name if name in LINE_ITEMS else None


def metrics_for_formulas(formulas: Sequence[Formula], known_metrics: Sequence[str]) -> list[str]:
    """Reported metrics that are the formulas' line items, so a figures lookup fetches them too."""
    wanted = {line.name for line in input_items(formulas)}
    return [m for m in known_metrics if line_of_metric(m) in wanted]


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
