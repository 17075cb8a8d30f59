"""The registry of financial lines: one definition per line, read by every path that needs one.

A line is asked for in a question's words, stated by XBRL concepts, printed as a statement row and
read as a formula's input; each of those used to live in its own table, and the tables drifted
apart. Here each line states them all once. Where two paths read a line differently today (the
figures lookup's row wordings vs a formula's), both readings stay visible as separate fields.

Companies tag the same line differently (`Revenues` vs `RevenueFromContractWithCustomerExcluding
AssessedTax`, `NetIncomeLoss` vs `ProfitLoss`), so a line lists its candidate concepts in order of
preference; per company and period, the concept its own statement displays wins (``lookup``).
Ratios (margins, free cash flow) are never looked up: they are computed from two lines
(``finance.computed``).
"""

from __future__ import annotations

import re

from finagent.finance.line_item import BALANCE, CASH_FLOW, INCOME, LineItem


def _g(*names: str) -> tuple[str, ...]:
    return tuple(f"us-gaap:{n}" for n in names)


def _i(*names: str) -> tuple[str, ...]:
    return tuple(f"ifrs-full:{n}" for n in names)


_EPS = r"(?:eps|earnings per share)"
_CONTINUING = r"continuing op(?:eration)?s"

# Reported lines first, in the order a question's words are matched (``ask.asked_metrics.metrics_in``).
LINES: tuple[LineItem, ...] = (
    LineItem(
        "cost_of_revenue",
        "Cost of revenue",
        INCOME,
        _g("CostOfRevenue", "CostOfGoodsAndServicesSold", "CostOfGoodsSold", "CostOfServices"),
        _i("CostOfSales"),
        question=r"cost of (?:revenues?|sales|goods sold)|cogs",
        rows=(
            "total cost of revenue",
            "total cost of sales",
            "cost of revenue",
            "cost of sales",
            "cost of goods sold",
            "cost of products sold",
        ),
        higher_is_better=False,
        input_rows=(
            "total cost of revenues",
            "cost of revenues",
            "cost of sales",
            "cost of goods sold",
            "cost of products sold",
        ),
    ),
    LineItem(
        "gross_profit",
        "Gross profit",
        INCOME,
        _g("GrossProfit"),
        _i("GrossProfit"),
        question=r"gross (?:profit|margin)s?",
        rows=("gross profit", "gross margin"),
        input_rows=("gross profit", "gross margin"),
    ),
    LineItem(
        "operating_income",
        "Operating income",
        INCOME,
        _g("OperatingIncomeLoss"),
        _i("ProfitLossFromOperatingActivities"),
        question=r"operating (?:income|profit|loss|earnings)|income from operations|operating margins?|ebit",
        rows=("operating income", "income from operations", "operating profit", "operating income (loss)"),
        input_rows=("operating income", "income from operations", "operating profit"),
    ),
    LineItem(
        "pretax_income",
        "Income before income taxes",
        INCOME,
        _g(
            "IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest",
            "IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments",
        ),
        _i("ProfitLossBeforeTax"),
        question=r"(?:pre-?tax|before (?:income )?taxes) (?:income|profit|earnings)|pre-?tax income",
        rows=(
            "income before income taxes",
            "income before provision for income taxes",
            "earnings before income taxes",
        ),
        input_rows=("income before income taxes", "earnings before income taxes", "income before taxes"),
    ),
    LineItem(
        "income_tax",
        "Income tax expense",
        INCOME,
        _g("IncomeTaxExpenseBenefit"),
        _i("IncomeTaxExpenseContinuingOperations"),
        question=r"(?:income )?tax (?:expense|provision)|provision for income taxes|income taxes",
        rows=("provision for income taxes", "income tax expense", "income taxes"),
        higher_is_better=False,
        input_label="provision for income taxes",
        input_rows=("provision for income taxes", "income tax expense", "income taxes"),
    ),
    LineItem(
        "eps_diluted",
        "Diluted EPS",
        INCOME,
        _g("EarningsPerShareDiluted", "EarningsPerShareBasicAndDiluted"),
        _i("DilutedEarningsLossPerShare"),
        unit="per_share",
        question=r"diluted (?:eps|earnings per share)|(?<!basic )(?:eps|earnings per share)",
        rows=("diluted earnings per share", "diluted", "diluted net income per share"),
    ),
    LineItem(
        "eps_basic",
        "Basic EPS",
        INCOME,
        _g("EarningsPerShareBasic", "EarningsPerShareBasicAndDiluted"),
        _i("BasicEarningsLossPerShare"),
        unit="per_share",
        question=r"basic (?:eps|earnings per share)",
        rows=("basic earnings per share", "basic", "basic net income per share"),
    ),
    # Per-share figures of continuing operations: read only when the question says so ("diluted EPS
    # from continuing operations"); plain "EPS" is the total (the lines above).
    LineItem(
        "eps_diluted_continuing",
        "Diluted EPS from continuing operations",
        INCOME,
        _g(
            "IncomeLossFromContinuingOperationsPerDilutedShare",
            "IncomeLossFromContinuingOperationsPerBasicAndDilutedShare",
        ),
        _i("DilutedEarningsLossPerShareFromContinuingOperations"),
        unit="per_share",
        question=(rf"(?<!basic )(?:diluted )?{_EPS} from {_CONTINUING}|{_CONTINUING} (?:diluted )?{_EPS}"),
        rows=("diluted earnings per share from continuing operations", "continuing operations diluted"),
    ),
    LineItem(
        "eps_basic_continuing",
        "Basic EPS from continuing operations",
        INCOME,
        _g(
            "IncomeLossFromContinuingOperationsPerBasicShare",
            "IncomeLossFromContinuingOperationsPerBasicAndDilutedShare",
        ),
        _i("BasicEarningsLossPerShareFromContinuingOperations"),
        unit="per_share",
        question=rf"basic {_EPS} from {_CONTINUING}|{_CONTINUING} basic {_EPS}",
        rows=("basic earnings per share from continuing operations", "continuing operations basic"),
    ),
    LineItem(
        "net_income",
        "Net income",
        INCOME,
        _g("NetIncomeLoss", "ProfitLoss", "NetIncomeLossAvailableToCommonStockholdersBasic"),
        _i("ProfitLossAttributableToOwnersOfParent", "ProfitLoss"),
        question=(
            r"net (?:income|profit|earnings|loss)|net margins?|profit margins?|bottom line"
            r"|earn(?:ed)?|profit(?:s|able|ability)?"
        ),
        rows=("net income", "net earnings", "net income (loss)", "net income attributable"),
        input_rows=("net income", "net earnings", "net income attributable"),
    ),
    LineItem(
        "rd",
        "Research and development",
        INCOME,
        _g("ResearchAndDevelopmentExpense", "ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost"),
        _i("ResearchAndDevelopmentExpense"),
        question=r"r&d|r and d|research and development",
        rows=("research and development",),
    ),
    LineItem(
        "sga",
        "Selling, general and administrative",
        INCOME,
        _g("SellingGeneralAndAdministrativeExpense"),
        _i("SellingGeneralAndAdministrativeExpense"),
        question=r"sg&a|selling,? general and administrative",
        rows=("selling general and administrative", "selling general and administrative expenses"),
        higher_is_better=False,
    ),
    LineItem(
        "operating_expenses",
        "Total operating expenses",
        INCOME,
        _g("OperatingExpenses", "CostsAndExpenses"),
        question=r"(?:total )?operating expenses|opex|costs and expenses",
        rows=("total operating expenses", "total costs and expenses"),
        higher_is_better=False,
    ),
    LineItem(
        "revenue",
        "Revenue",
        INCOME,
        _g(
            "Revenues",
            "RevenueFromContractWithCustomerExcludingAssessedTax",
            "RevenueFromContractWithCustomerIncludingAssessedTax",
            "SalesRevenueNet",  # the 2009-2017 taxonomies' net sales
            "SalesRevenueGoodsNet",
            "SalesRevenueServicesNet",
            "RevenuesNetOfInterestExpense",
        ),
        _i("Revenue", "RevenueFromContractsWithCustomers"),
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
        input_label="total revenue",
        input_rows=("total revenues", "total net sales", "revenues", "net sales", "revenue", "sales"),
    ),
    LineItem(
        "premiums",
        "Premiums earned",
        INCOME,
        _g("PremiumsEarnedNet", "PremiumsEarnedNetPropertyAndCasualty", "PremiumsEarnedNetLifeAndAnnuity"),
        _i("InsuranceRevenue"),
        # an insurer's revenue line ("premium revenue" claims its words before "revenue" does)
        question=r"(?:net )?premiums(?: earned| revenues?)?|premium (?:revenues?|income)|premiums? earned",
        rows=("premiums", "premiums earned", "net premiums earned", "premium revenue"),
    ),
    LineItem(
        "total_assets",
        "Total assets",
        BALANCE,
        _g("Assets"),
        _i("Assets"),
        kind="instant",
        question=r"total assets",
        rows=("total assets",),
        input_rows=("total assets",),
    ),
    LineItem(
        "total_liabilities",
        "Total liabilities",
        BALANCE,
        _g("Liabilities"),
        _i("Liabilities"),
        kind="instant",
        question=r"total liabilities",
        rows=("total liabilities",),
        higher_is_better=False,
    ),
    LineItem(
        "equity",
        "Shareholders' equity",
        BALANCE,
        _g("StockholdersEquity", "StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest"),
        _i("EquityAttributableToOwnersOfParent", "Equity"),
        kind="instant",
        question=r"(?:share|stock)holders['’]? equity|total equity|book value",
        rows=("total shareholders equity", "total stockholders equity", "total equity"),
        input="total_equity",
        input_label="total shareholders' equity",
        input_rows=("total shareholders equity", "total stockholders equity", "total equity"),
    ),
    LineItem(
        "current_assets",
        "Total current assets",
        BALANCE,
        _g("AssetsCurrent"),
        _i("CurrentAssets"),
        kind="instant",
        question=r"current assets",
        rows=("total current assets",),
        input_rows=("total current assets",),
    ),
    LineItem(
        "current_liabilities",
        "Total current liabilities",
        BALANCE,
        _g("LiabilitiesCurrent"),
        _i("CurrentLiabilities"),
        kind="instant",
        question=r"current liabilities",
        rows=("total current liabilities",),
        higher_is_better=False,
        input_rows=("total current liabilities",),
    ),
    LineItem(
        "cash",
        "Cash and cash equivalents",
        BALANCE,
        _g(
            "CashAndCashEquivalentsAtCarryingValue",
            "CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents",
        ),
        _i("CashAndCashEquivalents"),
        kind="instant",
        question=r"cash (?:and|&) (?:cash )?equivalents|cash (?:position|balance|on hand)",
        rows=("cash and cash equivalents",),
        input_rows=("cash and cash equivalents",),
    ),
    LineItem(
        "long_term_debt",
        "Long-term debt",
        BALANCE,
        _g("LongTermDebtNoncurrent", "LongTermDebt"),
        _i("NoncurrentPortionOfNoncurrentBorrowings", "LongtermBorrowings"),
        kind="instant",
        question=r"long[- ]term debt",
        rows=("long-term debt", "long term debt"),
        higher_is_better=False,
        input_rows=("long-term debt", "long-term borrowings"),
    ),
    LineItem(
        "inventory",
        "Inventories",
        BALANCE,
        _g("InventoryNet"),
        _i("Inventories"),
        kind="instant",
        question=r"inventor(?:y|ies)",
        rows=("inventories", "inventory"),
        input="inventories",
        input_rows=("inventories", "inventory"),
        input_parts=re.compile(
            r"\braw materials?\b|\bwork[- ]in[- ](?:process|progress)\b|\bfinished (?:goods|products)\b"
            r"|\bsupplies\b",
            re.I,
        ),
    ),
    LineItem(
        "receivables",
        "Accounts receivable",
        BALANCE,
        _g("AccountsReceivableNetCurrent", "ReceivablesNetCurrent", "AccountsReceivableNet"),
        _i("TradeAndOtherCurrentReceivables"),
        kind="instant",
        question=r"(?:accounts|trade) receivables?|receivables",
        rows=("accounts receivable net", "accounts receivable", "trade receivables", "receivables"),
        input_rows=("accounts receivable net", "accounts receivable", "trade receivables", "receivables"),
    ),
    LineItem(
        "accounts_payable",
        "Accounts payable",
        BALANCE,
        _g("AccountsPayableCurrent", "AccountsPayableTradeCurrent"),
        _i("TradeAndOtherCurrentPayables"),
        kind="instant",
        question=r"(?:trade )?accounts payables?|trade payables",
        rows=("accounts payable", "trade accounts payable", "trade payables"),
        higher_is_better=False,
        input_rows=("accounts payable",),
    ),
    LineItem(
        "depreciation",
        "Depreciation and amortization",
        CASH_FLOW,
        _g(
            "DepreciationDepletionAndAmortization",
            "DepreciationAmortizationAndAccretionNet",
            "DepreciationAndAmortization",
            "Depreciation",
        ),
        _i("DepreciationAndAmortisationExpense"),
        question=r"depreciation(?:,? (?:depletion )?(?:and|&) amortization)?|d&a",
        rows=(
            "depreciation and amortization",
            "depreciation depletion and amortization",
            "depreciation amortization",
            "depreciation",
        ),
        input_rows=("depreciation and amortization", "depreciation amortization", "depreciation"),
    ),
    LineItem(
        "operating_cash_flow",
        "Cash from operations",
        CASH_FLOW,
        _g(
            "NetCashProvidedByUsedInOperatingActivities",
            "NetCashProvidedByUsedInOperatingActivitiesContinuingOperations",  # filers with discontinued ops
        ),
        _i("CashFlowsFromUsedInOperatingActivities"),
        question=(
            r"operating cash flows?|cash (?:flows? )?(?:from|provided by|generated (?:from|by)) operati\w+"
            r"|cash\b[^.?;]{0,40}?\bgenerat\w* (?:from|by|in) (?:its )?operati\w+|cfo"
        ),
        rows=("net cash provided by operating activities", "cash generated by operating activities"),
        input_label="net cash provided by operating activities",
        input_rows=("net cash provided by operating activities", "cash provided by operating activities"),
    ),
    LineItem(
        "capex",
        "Capital expenditure",
        CASH_FLOW,
        _g(
            "PaymentsToAcquirePropertyPlantAndEquipment",
            "PaymentsToAcquireProductiveAssets",
            "PaymentsForProceedsFromProductiveAssets",
        ),
        _i("PurchaseOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities"),
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
        input_label="purchases of property, plant and equipment",
        input_rows=(
            "purchases of property plant and equipment",
            "purchases of property and equipment",
            "capital expenditures",
            "additions to property",
            "payments for property",
        ),
    ),
    LineItem(
        "dividends_paid",
        "Dividends paid",
        CASH_FLOW,
        _g("PaymentsOfDividends", "PaymentsOfDividendsCommonStock"),
        _i("DividendsPaidClassifiedAsFinancingActivities"),
        question=r"dividends paid|payments? of dividends",
        rows=("dividends paid", "payments for dividends"),
        outflow=True,
        input="dividends",
        input_rows=("dividends paid", "cash dividends paid"),
    ),
    LineItem(
        "dividends_per_share",
        "Dividends per share",
        INCOME,
        _g("CommonStockDividendsPerShareDeclared", "CommonStockDividendsPerShareCashPaid"),
        unit="per_share",
        question=r"dividends? per share|dps",
        rows=("dividends declared per share", "cash dividends declared per common share"),
    ),
    LineItem(
        "diluted_shares",
        "Diluted weighted-average shares",
        INCOME,
        _g("WeightedAverageNumberOfDilutedSharesOutstanding"),
        unit="shares",
        question=r"diluted (?:weighted[- ]average )?shares|share count",
        rows=("diluted", "weighted average shares diluted"),
    ),
    # Lines only a formula reads, from statement rows: the figures lookup reads no fact of them.
    LineItem(
        "interest_expense",
        "Interest expense",
        INCOME,
        higher_is_better=False,
        input_rows=("interest expense",),
    ),
    LineItem(
        "short_term_investments",
        "Short-term investments",
        BALANCE,
        kind="instant",
        input_rows=("short-term investments", "short term investments", "marketable securities"),
    ),
    LineItem(
        "ppe_net",
        "Property, plant and equipment, net",
        BALANCE,
        kind="instant",
        input_rows=("property plant and equipment net", "property and equipment net"),
    ),
    LineItem(
        "current_debt",
        "Current portion of long-term debt",
        BALANCE,
        kind="instant",
        higher_is_better=False,
        input_rows=(
            "current portion of long-term debt",
            "current maturities of long-term debt",
            "short-term debt",
            "short-term borrowings",
        ),
    ),
)

REPORTED: dict[str, LineItem] = {item.name: item for item in LINES if item.reported}
"""Lines the figures lookup reads from XBRL facts, by name: the metrics a question can ask for."""

INPUTS: dict[str, LineItem] = {item.input: item for item in LINES if item.input}
"""Lines a formula reads, by their name in its expression (``inventories``)."""

_BY_ANY_NAME: dict[str, LineItem] = {**INPUTS, **{item.name: item for item in LINES}}


def line(name: str) -> LineItem:
    """The line a name stands for: its registry name ("inventory") or a formula's ("inventories")."""
    return _BY_ANY_NAME[name]


def input_of(name: str) -> str | None:
    """A formula's name for the line a reported metric is ("inventory" is "inventories"), or None."""
    item = _BY_ANY_NAME.get(name)
    return (item.input or None) if item is not None else None
