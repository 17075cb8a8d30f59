"""Standard metrics over XBRL concepts: what an analyst asks for, and which facts state it.

Companies tag the same line differently (`Revenues` vs `RevenueFromContractWithCustomerExcluding
AssessedTax`, `NetIncomeLoss` vs `ProfitLoss`, `PaymentsToAcquirePropertyPlantAndEquipment` vs
`PaymentsToAcquireProductiveAssets`), so each metric lists its candidate concepts in order of
preference; per company and period, the concept its own statement displays wins (``lookup``).
Ratios (margins, growth, free cash flow, CAGR) are never looked up: the calculator computes them
from these figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from finagent.finance.statements import BALANCE, CASH_FLOW, INCOME

Kind = Literal["duration", "instant"]
UnitClass = Literal["money", "per_share", "shares"]


@dataclass(frozen=True, slots=True)
class Metric:
    """A reported line item: its name, candidate concepts (best first) and where it is displayed."""

    name: str
    label: str
    concepts: tuple[str, ...]
    statement: str
    kind: Kind = "duration"
    unit: UnitClass = "money"
    question: str = ""
    """Regex of the words a question uses for it (matched case-insensitively, whole words)."""
    rows: tuple[str, ...] = ()
    """Row wordings of a statement table, for filings without XBRL (PDFs): best first."""
    outflow: bool = False
    """A payment (capex, dividends paid): its XBRL concept states the amount paid, a positive number,
    while the cash flow statement shows it in parentheses; a table cell is read as the amount."""
    parts: tuple[str, ...] = ()
    """Candidates that state the whole line only when the company reports one of them alone (a
    goods-only maker's SalesRevenueGoodsNet); reported beside each other they are its parts."""

    @property
    def instant(self) -> bool:
        return self.kind == "instant"

    def concept_names(self) -> list[str]:
        return list(self.concepts)


def _g(*names: str) -> tuple[str, ...]:
    return tuple(f"us-gaap:{n}" for n in names)


METRICS: tuple[Metric, ...] = (
    Metric(
        "cost_of_revenue",
        "Cost of revenue",
        _g("CostOfRevenue", "CostOfGoodsAndServicesSold", "CostOfGoodsSold", "CostOfServices"),
        INCOME,
        question=r"cost of (?:revenues?|sales|goods sold)|cogs",
        rows=(
            "total cost of revenue",
            "total cost of sales",
            "cost of revenue",
            "cost of sales",
            "cost of goods sold",
            "cost of products sold",
        ),
    ),
    Metric(
        "gross_profit",
        "Gross profit",
        _g("GrossProfit"),
        INCOME,
        question=r"gross (?:profit|margin)s?",
        rows=("gross profit", "gross margin"),
    ),
    Metric(
        "operating_income",
        "Operating income",
        _g("OperatingIncomeLoss"),
        INCOME,
        question=r"operating (?:income|profit|loss|earnings)|income from operations|operating margins?|ebit",
        rows=("operating income", "income from operations", "operating profit", "operating income (loss)"),
    ),
    Metric(
        "pretax_income",
        "Income before income taxes",
        _g(
            "IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest",
            "IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments",
        ),
        INCOME,
        question=r"(?:pre-?tax|before (?:income )?taxes) (?:income|profit|earnings)|pre-?tax income",
        rows=(
            "income before income taxes",
            "income before provision for income taxes",
            "earnings before income taxes",
        ),
    ),
    Metric(
        "income_tax",
        "Income tax expense",
        _g("IncomeTaxExpenseBenefit"),
        INCOME,
        question=r"(?:income )?tax (?:expense|provision)|provision for income taxes|income taxes",
        rows=("provision for income taxes", "income tax expense", "income taxes"),
    ),
    Metric(
        "eps_diluted",
        "Diluted EPS",
        _g("EarningsPerShareDiluted", "EarningsPerShareBasicAndDiluted"),
        INCOME,
        unit="per_share",
        question=r"diluted (?:eps|earnings per share)|(?<!basic )(?:eps|earnings per share)",
        rows=("diluted earnings per share", "diluted", "diluted net income per share"),
    ),
    Metric(
        "eps_basic",
        "Basic EPS",
        _g("EarningsPerShareBasic", "EarningsPerShareBasicAndDiluted"),
        INCOME,
        unit="per_share",
        question=r"basic (?:eps|earnings per share)",
        rows=("basic earnings per share", "basic", "basic net income per share"),
    ),
    Metric(
        "net_income",
        "Net income",
        _g("NetIncomeLoss", "ProfitLoss", "NetIncomeLossAvailableToCommonStockholdersBasic"),
        INCOME,
        question=(
            r"net (?:income|profit|earnings|loss)|net margins?|profit margins?|bottom line"
            r"|earn(?:ed)?|profit(?:s|able|ability)?"
        ),
        rows=("net income", "net earnings", "net income (loss)", "net income attributable"),
    ),
    Metric(
        "rd",
        "Research and development",
        _g("ResearchAndDevelopmentExpense", "ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost"),
        INCOME,
        question=r"r&d|r and d|research and development",
        rows=("research and development",),
    ),
    Metric(
        "sga",
        "Selling, general and administrative",
        _g("SellingGeneralAndAdministrativeExpense"),
        INCOME,
        question=r"sg&a|selling,? general and administrative",
        rows=("selling general and administrative", "selling general and administrative expenses"),
    ),
    Metric(
        "operating_expenses",
        "Total operating expenses",
        _g("OperatingExpenses", "CostsAndExpenses"),
        INCOME,
        question=r"(?:total )?operating expenses|opex|costs and expenses",
        rows=("total operating expenses", "total costs and expenses"),
    ),
    Metric(
        "revenue",
        "Revenue",
        _g(
            "Revenues",
            "RevenueFromContractWithCustomerExcludingAssessedTax",
            "RevenueFromContractWithCustomerIncludingAssessedTax",
            "SalesRevenueNet",  # the 2009-2017 taxonomies' net sales
            "SalesRevenueGoodsNet",
            "SalesRevenueServicesNet",
            "RevenuesNetOfInterestExpense",
        ),
        INCOME,
        question=r"(?:total |net )?revenues?|(?:total |net )?sales|top line|turnover",
        rows=(
            "total net sales",
            "total revenues",
            "total revenue",
            "net sales",
            "revenues",
            "revenue",
            "net revenues",
        ),
        parts=_g("SalesRevenueGoodsNet", "SalesRevenueServicesNet"),
    ),
    Metric(
        "total_assets",
        "Total assets",
        _g("Assets"),
        BALANCE,
        kind="instant",
        question=r"total assets",
        rows=("total assets",),
    ),
    Metric(
        "total_liabilities",
        "Total liabilities",
        _g("Liabilities"),
        BALANCE,
        kind="instant",
        question=r"total liabilities",
        rows=("total liabilities",),
    ),
    Metric(
        "equity",
        "Shareholders' equity",
        _g("StockholdersEquity", "StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest"),
        BALANCE,
        kind="instant",
        question=r"(?:share|stock)holders['’]? equity|total equity|book value",
        rows=("total shareholders equity", "total stockholders equity", "total equity"),
    ),
    Metric(
        "current_assets",
        "Total current assets",
        _g("AssetsCurrent"),
        BALANCE,
        kind="instant",
        question=r"current assets",
        rows=("total current assets",),
    ),
    Metric(
        "current_liabilities",
        "Total current liabilities",
        _g("LiabilitiesCurrent"),
        BALANCE,
        kind="instant",
        question=r"current liabilities",
        rows=("total current liabilities",),
    ),
    Metric(
        "cash",
        "Cash and cash equivalents",
        _g(
            "CashAndCashEquivalentsAtCarryingValue",
            "CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents",
        ),
        BALANCE,
        kind="instant",
        question=r"cash (?:and|&) (?:cash )?equivalents|cash (?:position|balance|on hand)",
        rows=("cash and cash equivalents",),
    ),
    Metric(
        "long_term_debt",
        "Long-term debt",
        _g("LongTermDebtNoncurrent", "LongTermDebt"),
        BALANCE,
        kind="instant",
        question=r"long[- ]term debt",
        rows=("long-term debt", "long term debt"),
    ),
    Metric(
        "inventory",
        "Inventories",
        _g("InventoryNet"),
        BALANCE,
        kind="instant",
        question=r"inventor(?:y|ies)",
        rows=("inventories", "inventory"),
    ),
    Metric(
        "receivables",
        "Accounts receivable",
        _g("AccountsReceivableNetCurrent", "ReceivablesNetCurrent", "AccountsReceivableNet"),
        BALANCE,
        kind="instant",
        question=r"(?:accounts|trade) receivables?|receivables",
        rows=("accounts receivable net", "accounts receivable", "trade receivables", "receivables"),
    ),
    Metric(
        "accounts_payable",
        "Accounts payable",
        _g("AccountsPayableCurrent", "AccountsPayableTradeCurrent"),
        BALANCE,
        kind="instant",
        question=r"(?:trade )?accounts payables?|trade payables",
        rows=("accounts payable", "trade accounts payable", "trade payables"),
    ),
    Metric(
        "depreciation",
        "Depreciation and amortization",
        _g(
            "DepreciationDepletionAndAmortization",
            "DepreciationAmortizationAndAccretionNet",
            "DepreciationAndAmortization",
            "Depreciation",
        ),
        CASH_FLOW,
        question=r"depreciation(?:,? (?:depletion )?(?:and|&) amortization)?|d&a",
        rows=(
            "depreciation and amortization",
            "depreciation depletion and amortization",
            "depreciation amortization",
            "depreciation",
        ),
    ),
    Metric(
        "operating_cash_flow",
        "Cash from operations",
        _g(
            "NetCashProvidedByUsedInOperatingActivities",
            "NetCashProvidedByUsedInOperatingActivitiesContinuingOperations",  # filers with discontinued ops
        ),
        CASH_FLOW,
        question=(
            r"operating cash flows?|cash (?:flows? )?(?:from|provided by|generated (?:from|by)) operati\w+"
            r"|cash\b[^.?;]{0,40}?\bgenerat\w* (?:from|by|in) (?:its )?operati\w+|cfo"
        ),
        rows=("net cash provided by operating activities", "cash generated by operating activities"),
    ),
    Metric(
        "capex",
        "Capital expenditure",
        _g(
            "PaymentsToAcquirePropertyPlantAndEquipment",
            "PaymentsToAcquireProductiveAssets",
            "PaymentsForProceedsFromProductiveAssets",
        ),
        CASH_FLOW,
        question=r"cap(?:ital)?\s*ex(?:penditures?)?|capex|purchases of property",
        rows=(
            "purchase of property and equipment",
            "payments for acquisition of property plant and equipment",
            "capital expenditures",
            "additions to property and equipment",
            "purchase of land buildings and equipment",
            "purchase of premises and equipment",
        ),
        outflow=True,
    ),
    Metric(
        "dividends_paid",
        "Dividends paid",
        _g("PaymentsOfDividends", "PaymentsOfDividendsCommonStock"),
        CASH_FLOW,
        question=r"dividends paid|payments? of dividends",
        rows=("dividends paid", "payments for dividends"),
        outflow=True,
    ),
    Metric(
        "dividends_per_share",
        "Dividends per share",
        _g("CommonStockDividendsPerShareDeclared", "CommonStockDividendsPerShareCashPaid"),
        INCOME,
        unit="per_share",
        question=r"dividends? per share|dps",
        rows=("dividends declared per share", "cash dividends declared per common share"),
    ),
    Metric(
        "diluted_shares",
        "Diluted weighted-average shares",
        _g("WeightedAverageNumberOfDilutedSharesOutstanding"),
        INCOME,
        unit="shares",
        question=r"diluted (?:weighted[- ]average )?shares|share count",
        rows=("diluted", "weighted average shares diluted"),
    ),
)

BY_NAME: dict[str, Metric] = {m.name: m for m in METRICS}

# Computed metrics: the calculator derives them from reported figures of the same company and period.
COMPUTED: dict[str, tuple[str, tuple[str, ...], str]] = {
    # name: (label, inputs, calculator helper)
    "gross_margin": ("Gross margin", ("gross_profit", "revenue"), "margin"),
    "operating_margin": ("Operating margin", ("operating_income", "revenue"), "margin"),
    "net_margin": ("Net margin", ("net_income", "revenue"), "margin"),
    "free_cash_flow": ("Free cash flow", ("operating_cash_flow", "capex"), "diff"),
}
_COMPUTED_WORDS = (
    (
        "gross_margin",
        re.compile(
            r"\bgross (?:profit )?margin\s*(?:%|percent|percentage|ratio|rate)"
            r"|\bgross margins?\b(?!\s+(?:in\s+dollars|in\s+\$|amount|dollars))",
            re.I,
        ),
    ),
    ("operating_margin", re.compile(r"\boperating (?:profit )?margins?\b", re.I)),
    ("net_margin", re.compile(r"\b(?:net (?:profit |income )?|profit )margins?\b", re.I)),
    ("free_cash_flow", re.compile(r"\bfree cash flows?\b|\bfcf\b", re.I)),
)


def metrics_in(question: str) -> list[str]:
    """Reported metrics a question asks about, in the order the question names them.

    "cost of revenue" is not revenue and "operating income" is not net income: longer wordings
    claim their words first. Computed metrics (margins, free cash flow) bring their inputs.
    """
    text = question.replace("’", "'")
    matches = [
        (match.start(), match.end(), metric.name)
        for metric in METRICS
        if metric.question
        for match in re.finditer(rf"(?<![\w&])(?:{metric.question})(?![\w&])", text, re.I)
    ]
    claimed = [False] * len(text)
    found: list[tuple[int, str]] = []
    for start, end, name in sorted(matches, key=lambda m: (m[0] - m[1], m[0])):  # longest wording first
        if any(claimed[start:end]):
            continue
        claimed[start:end] = [True] * (end - start)
        found.append((start, name))
    for name, pattern in _COMPUTED_WORDS:
        for match in pattern.finditer(text):
            found += [(match.start(), m) for m in COMPUTED[name][1]]
    ordered = [name for _, name in sorted(found, key=lambda item: item[0])]
    return list(dict.fromkeys(ordered))


def computed_in(question: str) -> list[str]:
    """Computed metrics (margins, free cash flow) the question asks for."""
    return [name for name, pattern in _COMPUTED_WORDS if pattern.search(question)]
