"""Financial vocabulary: the words filings use for what analysts ask about.

"capital expenditure" is "purchases of property and equipment" in a cash-flow statement and Apple
reports "net sales" where Microsoft reports "revenue"; neither search leg bridges that alone.
"""

from __future__ import annotations

import re

# question term (regex) -> statement wording added as a search phrase
STATEMENT_TERMS: tuple[tuple[str, str], ...] = (
    (r"\brevenues?\b|\bsales\b|\btop line\b", "total net sales"),
    (r"\bcap(ital)?\s*ex(penditures?)?\b|\bcapex\b", "purchases of property and equipment"),
    (r"\boperating (margin|profit)\b|\bebit\b", "operating income"),
    (r"\bgross (margin|profit)\b", "gross margin cost of sales"),
    (r"\bworking capital\b|\bcurrent ratio\b", "total current assets total current liabilities"),
    (r"\bfree cash flow\b|\bfcf\b", "net cash provided by operating activities"),
    (r"\b(eps|earnings per share)\b", "diluted earnings per share"),
    (r"\bnet (income|profit|earnings)\b|\bbottom line\b", "net income"),
    (r"\br&d\b|\bresearch and development\b", "research and development expense"),
    (r"\bbuybacks?\b|\bshare repurchases?\b", "repurchases of common stock"),
    (r"\bdividends?\b", "dividends paid per share"),
    (r"\bdebt\b|\bleverage\b", "long-term debt total liabilities"),
    (r"\bcash (position|balance)\b|\bcash and equivalents\b", "cash and cash equivalents"),
    (r"\binventor(y|ies)\b", "inventories"),
)


def statement_phrases(text: str, limit: int = 1) -> list[str]:
    """Statement wording for the metrics a question or phrase names (most specific first)."""
    found: list[str] = []
    for pattern, phrase in STATEMENT_TERMS:
        if re.search(pattern, text, re.I) and phrase not in found:
            found.append(phrase)
    # "operating margin" also matches "sales"-less patterns first; keep the order of the table
    return found[:limit]
