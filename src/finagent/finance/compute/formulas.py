"""Financial metrics that are computed, not reported: which line items they need, and the formula.

Analysts ask for ratios ("operating margin", "quick ratio", "DPO") that no filing states as a row.
A small model computes them poorly, so the line items (``finance.lines``) are read from the
statements (table rows, else the model copies them), and the calculator evaluates the formula
(``formula_values``). Margins and free cash flow come from their one definition
(``finance.computed``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from finagent.finance.ask.judgements import BY_NAME as JUDGEMENTS
from finagent.finance.computed import COMPUTED
from finagent.finance.line_item import LineItem
from finagent.finance.lines import INPUTS, input_of


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


def _computed(name: str) -> tuple[Formula, ...]:
    """A computed metric's formulas (margins, free cash flow), from its one definition."""
    computed = COMPUTED[name]
    return tuple(
        Formula(computed.formula, _cue(computed.cue), expression, computed.unit)
        for expression in computed.expressions
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
    *_computed("operating_margin"),
    *_computed("gross_margin"),
    *_computed("net_margin"),
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
    Formula(  # how much of the year's profit became free cash (an analyst's quality-of-earnings check)
        "free cash flow conversion",
        _cue(r"\b(?:free cash flow|FCF) conversion\b"),
        "({operating_cash_flow} - abs({capex})) / {net_income} * 100",
        "percent",
    ),
    *_computed("free_cash_flow"),
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
    # The ratios a capital-intensive judgement reads (finance.ask.judgements): capex to revenue decides.
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
    return [INPUTS[name] for name in names]


def needs_prior(formulas: Sequence[Formula]) -> set[str]:
    """Line items whose previous-year value a formula needs (averages, changes)."""
    return {base_name(n) for f in formulas for n in f.inputs if n.endswith(PRIOR)}


def line_of_metric(metric: str) -> str | None:
    """The formula's name of the line a reported metric is ("inventory" is "inventories"), or None."""
    return input_of(metric)


def metrics_for_formulas(formulas: Sequence[Formula], known_metrics: Sequence[str]) -> list[str]:
    """Reported metrics that are the formulas' line items, so a figures lookup fetches them too."""
    wanted = {line.input for line in input_items(formulas)}
    return [m for m in known_metrics if line_of_metric(m) in wanted]
