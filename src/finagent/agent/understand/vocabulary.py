"""Financial vocabulary: the words filings use for what analysts ask about, and where they stand.

"capital expenditure" is "purchases of property and equipment" in a cash-flow statement and Apple
reports "net sales" where Microsoft reports "revenue"; neither search leg bridges that alone. Each
term also names the primary statement that reports it, so search can route to that statement.
"""

from __future__ import annotations

import re

from finagent.finance.compute.formulas import formulas_for, input_items
from finagent.finance.line_item import BALANCE, CASH_FLOW, EQUITY, INCOME
from finagent.finance.lines import line


def _line_term(cue: str, phrase: str, name: str) -> tuple[str, str, str]:
    """A search term for a registry line (``finance.lines``): searched in the statement holding it."""
    return cue, phrase, line(name).statement


# question term (regex) -> statement wording added as a search phrase, and the statement holding it;
# most specific first. A ratio's or a judgement's term, standing for no one line, names its statement.
STATEMENT_TERMS: tuple[tuple[str, str, str], ...] = (
    _line_term(
        r"\bcap(ital)?\s*ex(penditures?)?\b|\bcapex\b", "purchases of property and equipment", "capex"
    ),
    (r"\bfree cash flow\b|\bfcf\b", "net cash provided by operating activities", CASH_FLOW),
    _line_term(
        r"\boperating cash flows?\b|\bcash from operations\b",
        "net cash provided by operating activities",
        "operating_cash_flow",
    ),
    _line_term(r"\bdividends?\b", "dividends paid", "dividends_paid"),
    (r"\bbuybacks?\b|\bshare repurchases?\b", "repurchases of common stock", CASH_FLOW),
    _line_term(r"\bdepreciation\b|\bamortization\b|\bd&a\b", "depreciation and amortization", "depreciation"),
    _line_term(r"\boperating (margin|profit)\b|\bebit\b", "operating income", "operating_income"),
    _line_term(r"\bgross (margin|profit)\b", "gross margin cost of sales", "gross_profit"),
    _line_term(r"\b(eps|earnings per share)\b", "diluted earnings per share", "eps_diluted"),
    _line_term(r"\bnet (income|profit|earnings)\b|\bbottom line\b", "net income", "net_income"),
    _line_term(r"\br&d\b|\bresearch and development\b", "research and development expense", "rd"),
    _line_term(r"\brevenues?\b|\bsales\b|\btop line\b", "total net sales", "revenue"),
    (
        r"\bworking capital\b|\bcurrent ratio\b|\bliquidity\b",
        "total current assets total current liabilities",
        BALANCE,
    ),
    (r"\bdebt\b|\bleverage\b", "long-term debt total liabilities", BALANCE),
    _line_term(
        r"\bcash (position|balance)\b|\bcash and (cash )?equivalents\b", "cash and cash equivalents", "cash"
    ),
    _line_term(r"\binventor(y|ies)\b", "inventories", "inventory"),
    _line_term(r"\btotal assets\b", "total assets", "total_assets"),
    (r"\bcapital[- ]intensive\b", "property plant and equipment total assets", BALANCE),
    (r"\bcapital[- ]intensive\b", "purchases of property and equipment", CASH_FLOW),
)

# Balance-sheet and cash-flow line items are found on their statements; income-statement words
# (revenue, net income) fill narrative pages too, so they add search wording but no routing
# (measured: routing them cost novel questions page recall on FinanceBench dev).
ROUTED_BY_TERM = frozenset({BALANCE, CASH_FLOW})

# A statement named outright ("… shown in the cash flow statement").
NAMED_STATEMENTS: tuple[tuple[str, str], ...] = (
    (r"\bcash ?flows? statements?\b|\bstatements? of cash flows?\b", CASH_FLOW),
    (r"\bbalance sheets?\b|\bstatements? of financial (position|condition)\b", BALANCE),
    (
        r"\bincome statements?\b|\bstatements? of (consolidated )?(operations|income|earnings)\b"
        r"|\bP&L\b|\bprofit and loss\b",
        INCOME,
    ),
    (r"\bstatements? of (changes in )?(shareholders|stockholders)['’]? equity\b", EQUITY),
)


def statement_phrases(text: str, limit: int = 1) -> list[str]:
    """Statement wording for the metrics a question or phrase names (most specific first).

    A computed metric ("quick ratio") searches for the line items its formula needs.
    """
    found: list[str] = []
    for formula in formulas_for(text)[:1]:
        found.append(" ".join(item.input_label for item in input_items([formula])))
    for pattern, phrase, _ in STATEMENT_TERMS:
        if re.search(pattern, text, re.I) and phrase not in found:
            found.append(phrase)
    return found[:limit]


def statements_for(text: str) -> list[str]:
    """Primary statements the question needs: those it names, else those its metrics live in."""
    named = [statement for pattern, statement in NAMED_STATEMENTS if re.search(pattern, text, re.I)]
    if named:
        return list(dict.fromkeys(named))
    needed = [item.statement for item in input_items(formulas_for(text))]
    needed += [
        statement
        for pattern, _, statement in STATEMENT_TERMS
        if statement in ROUTED_BY_TERM and re.search(pattern, text, re.I)
    ]
    return list(dict.fromkeys(needed))


_NARRATIVE = re.compile(
    r"\b(?:why|explain\w*|drove|driv(?:e|er|ers|ing)|reasons?|factors?|contribut\w*|due to|because|"
    r"attribut\w*|impact\w*|affect\w*|risks?|headwinds?|tailwinds?|outlook|guidance|strategy|"
    r"what (?:led|caused)|caused|commentary|management (?:said|highlight\w*|discuss\w*)|highlight\w*|"
    r"events?|one[- ](?:time|off)|non[- ]?recurring|unusual|extraordinary|special\s+items?)\b",
    re.IGNORECASE,
)


def is_narrative(question: str) -> bool:
    """A why/what question ("what drove the change", "which risks"): the answer needs the passages'
    words (drivers, segments, risks) beside the figures, so the writer reads them too."""
    return bool(_NARRATIVE.search(question))


_DRIVERS = re.compile(
    r"\b(?:drove|driv(?:e|er|ers|ing)|what (?:led|caused)|caused|(?<!risk )factors?|contribut\w*|"
    r"reasons? (?:for|behind|why)|why (?:did|does|do|is|was|were|has|have|had|are)"
    r"|what (?:explains|explained|moved|accounts? for|accounted for|(?:is|was|were|are) behind))\b",
    re.I,
)
"""Not "explain why" (FinanceBench's "if the metric is not useful, explain why") nor "risk factors"."""


def asks_drivers(question: str) -> bool:
    """A question asking what drove something ("What drove …", "why", "which factors"): an answer
    naming no cause does not answer it."""
    return bool(_DRIVERS.search(question))


_SAYS = re.compile(
    r"\b(?:(?:say|says|said|comment(?:s|ed)?)\s+(?:about|on|regarding)|describ\w*|discuss\w*)\b", re.I
)


def is_what_said(question: str) -> bool:
    """A question asking what a company says, describes or discusses ("What does P&G say about pricing
    and volume effects on net sales?"): the filing's own sentences answer it, beside any figure."""
    return bool(_SAYS.search(question))


_BREAKDOWN = re.compile(
    r"\b(?:segments?|regions?|regional|geograph\w*|(?:product|service|business) (?:categor\w*|lines?)"
    r"|categor(?:y|ies)|divisions?|business units?)\b",
    re.IGNORECASE,
)


def is_breakdown(question: str) -> bool:
    """A question about a part of the company (which segment, region or product category leads, a
    segment's revenue): the company's totals from its statements are not the answer, the segment
    tables and discussion are."""
    return bool(_BREAKDOWN.search(question))


# Words a report explains a change with: a why question also searches for them.
NARRATIVE_WORDS = "increased decreased primarily due to driven by"
