"""What a financial line is: the ``LineItem`` record and the statements a line sits on.

The registry of lines (``finance.lines``) lists every line once; this module holds the shape they
share, so that readers of statements (``read.statement_titles``) name the statements without
importing the registry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

INCOME = "income_statement"
BALANCE = "balance_sheet"
CASH_FLOW = "cash_flow"
EQUITY = "equity"
STATEMENTS = (INCOME, BALANCE, CASH_FLOW, EQUITY)

Kind = Literal["duration", "instant"]
UnitClass = Literal["money", "per_share", "shares"]


@dataclass(frozen=True, slots=True)
class LineItem:
    """A financial line: its concepts, the words that name it, and how each path reads it."""

    name: str
    label: str
    statement: str
    concepts: tuple[str, ...] = ()
    """us-gaap concepts stating it, best first: the figures lookup reads them (none: no fact is read)."""
    ifrs_concepts: tuple[str, ...] = ()
    """ifrs-full concepts stating it, best first: read for a company whose facts are IFRS."""
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
    higher_is_better: bool = True
    """A rise is an improvement (revenue), not a cost, a debt or a liability."""
    input_rows: tuple[str, ...] = ()
    """Row wordings a formula's read of it matches, best first (its own list, not ``rows``); none:
    no formula reads it."""
    input: str = ""
    """Its name in a formula's expression (``{inventories}``); default: its name, if a formula reads it."""
    input_label: str = ""
    """The label a formula's read of it carries ("total revenue"); default: its label in lower case."""
    input_parts: re.Pattern[str] | None = None
    """Row wordings of its parts, summed when the statement prints them under its heading with no
    total row (Amcor's raw materials and finished goods under "Inventories, net")."""

    def __post_init__(self) -> None:
        if self.input_rows and not self.input:
            object.__setattr__(self, "input", self.name)
        if self.input_rows and not self.input_label:
            object.__setattr__(self, "input_label", self.label.lower())

    @property
    def instant(self) -> bool:
        return self.kind == "instant"

    @property
    def read_concepts(self) -> tuple[str, ...]:
        """Every concept the figures lookup reads: the us-gaap ones, then the ifrs-full ones (a
        company reports in one taxonomy, so the two never compete for one figure)."""
        return self.concepts + self.ifrs_concepts

    @property
    def reported(self) -> bool:
        """A line the figures lookup reads from XBRL facts (a "metric")."""
        return bool(self.concepts)
