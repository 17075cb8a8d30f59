"""How Item and Part headings of 10-K, 10-Q and 8-K filings are worded, and the Items' titles:
one vocabulary for the HTML reader (``items``) and the PDF reader (``pdf_items``)."""

from __future__ import annotations

import re

ITEM_RE = re.compile(
    r"^(?:part\s+(?P<part>iv|i{1,3})\b[\s.,:;\-–—]*)?"
    r"item\s*(?P<num>\d{1,2})(?:\.(?P<sub>\d{2}))?(?P<letter>[a-c])?(?![\w])"
    r"\s*[.:\-–—]?\s*(?P<title>.*)$",
    re.I | re.S,
)


PART_RE = re.compile(r"^part\s+(?P<part>iv|i{1,3})\b\s*[.:\-–—]?\s*(?P<rest>.*)$", re.I | re.S)


LINE_ITEM_RE = re.compile(r"^(?:ITEM|Item)\s+(\d{1,2}(?:\.\d{2})?[A-Ca-c]?)(?:[\s.:\-–—]+|$)(.*)$")
"""An Item heading opening a line of PDF text: capitalised, so a sentence starting "item" is no heading.
Any run of separators may follow the number ("Item 1. - Business", "ITEM 7 — MD&A")."""


ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4}
"""Part numbers as headings write them (lower-cased)."""


ITEMS_10K: dict[str, str] = {
    "1": "Business",
    "1A": "Risk Factors",
    "1B": "Unresolved Staff Comments",
    "1C": "Cybersecurity",
    "2": "Properties",
    "3": "Legal Proceedings",
    "4": "Mine Safety Disclosures",
    "5": (
        "Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases "
        "of Equity Securities"
    ),
    "6": "[Reserved]",
    "7": "Management's Discussion and Analysis of Financial Condition and Results of Operations",
    "7A": "Quantitative and Qualitative Disclosures About Market Risk",
    "8": "Financial Statements and Supplementary Data",
    "9": "Changes in and Disagreements with Accountants on Accounting and Financial Disclosure",
    "9A": "Controls and Procedures",
    "9B": "Other Information",
    "9C": "Disclosure Regarding Foreign Jurisdictions that Prevent Inspections",
    "10": "Directors, Executive Officers and Corporate Governance",
    "11": "Executive Compensation",
    "12": "Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters",
    "13": "Certain Relationships and Related Transactions, and Director Independence",
    "14": "Principal Accountant Fees and Services",
    "15": "Exhibit and Financial Statement Schedules",
    "16": "Form 10-K Summary",
}
"""Form 10-K's Items and their titles as the form prints them."""


ITEMS_10Q: dict[tuple[int, str], str] = {
    (1, "1"): "Financial Statements",
    (1, "2"): "Management's Discussion and Analysis of Financial Condition and Results of Operations",
    (1, "3"): "Quantitative and Qualitative Disclosures About Market Risk",
    (1, "4"): "Controls and Procedures",
    (2, "1"): "Legal Proceedings",
    (2, "1A"): "Risk Factors",
    (2, "2"): "Unregistered Sales of Equity Securities and Use of Proceeds",
    (2, "3"): "Defaults Upon Senior Securities",
    (2, "4"): "Mine Safety Disclosures",
    (2, "5"): "Other Information",
    (2, "6"): "Exhibits",
}


ITEMS_8K: dict[str, str] = {
    "1.01": "Entry into a Material Definitive Agreement",
    "1.02": "Termination of a Material Definitive Agreement",
    "2.01": "Completion of Acquisition or Disposition of Assets",
    "2.02": "Results of Operations and Financial Condition",
    "2.03": "Creation of a Direct Financial Obligation",
    "2.05": "Costs Associated with Exit or Disposal Activities",
    "2.06": "Material Impairments",
    "3.02": "Unregistered Sales of Equity Securities",
    "5.02": "Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain "
    "Officers; Compensatory Arrangements of Certain Officers",
    "5.03": "Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year",
    "5.07": "Submission of Matters to a Vote of Security Holders",
    "7.01": "Regulation FD Disclosure",
    "8.01": "Other Events",
    "9.01": "Financial Statements and Exhibits",
}
