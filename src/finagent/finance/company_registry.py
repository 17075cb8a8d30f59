"""Built-in company reference data and name/ticker resolution.

The store's `companies` table is seeded from here and then enriched from what is ingested
(iXBRL dei facts, manifests), so "Apple", "Microsoft Corp" and "$MSFT" all resolve.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from finagent.errors import SearchInputError


@dataclass(frozen=True, slots=True)
class Company:
    ticker: str
    name: str
    fiscal_year_end_month: int
    aliases: tuple[str, ...] = ()
    # -1 where a fiscal year ending in Jan/early Feb is named after the year it began (retail).
    fiscal_year_offset: int = 0


@dataclass(frozen=True, slots=True)
class StoredCompany:
    """A company as the store knows it (what its filings taught, else the built-in table)."""

    ticker: str
    name: str | None
    aliases: tuple[str, ...]
    fiscal_year_end_month: int | None
    documents: int
    fiscal_year_offset: int | None = None
    """How the company names its fiscal years, learnt from its filings (-1: after the year they begin)."""


# ticker, legal name, fiscal-year-end month (nominal), aliases
BUILTIN_COMPANIES: tuple[Company, ...] = (
    Company("AAPL", "Apple Inc.", 9, ("Apple",)),
    Company("MSFT", "Microsoft Corporation", 6, ("Microsoft",)),
    Company("NVDA", "NVIDIA Corporation", 1, ("Nvidia",)),
    Company("AMZN", "Amazon.com, Inc.", 12, ("Amazon", "Amazon.com")),
    Company("INTC", "Intel Corporation", 12, ("Intel",)),
    Company("GOOGL", "Alphabet Inc.", 12, ("Alphabet", "Google", "GOOG")),
    Company("AMD", "Advanced Micro Devices, Inc.", 12, ("AMD", "Advanced Micro Devices")),
    Company("META", "Meta Platforms, Inc.", 12, ("Meta", "Facebook", "FB", "Meta Platforms")),
    Company("NFLX", "Netflix, Inc.", 12, ("Netflix",)),
    Company("ADBE", "Adobe Inc.", 11, ("Adobe",)),
    Company("BA", "The Boeing Company", 12, ("Boeing",)),
    Company("CRM", "Salesforce, Inc.", 1, ("Salesforce", "salesforce.com")),
    Company("HD", "The Home Depot, Inc.", 1, ("Home Depot",), fiscal_year_offset=-1),
    Company("JNJ", "Johnson & Johnson", 12, ("J&J", "JnJ", "Johnson and Johnson")),
    Company("KO", "The Coca-Cola Company", 12, ("Coca-Cola", "Coca Cola", "Coke")),
    Company("NKE", "NIKE, Inc.", 5, ("Nike",)),
    Company("PG", "The Procter & Gamble Company", 6, ("Procter & Gamble", "P&G", "Procter and Gamble")),
    Company("WMT", "Walmart Inc.", 1, ("Walmart", "Wal-Mart")),
    Company("MMM", "3M Company", 12, ("3M",)),
    Company("AES", "The AES Corporation", 12, ("AES", "AES Corporation")),
    Company("ATVI", "Activision Blizzard, Inc.", 12, ("Activision Blizzard", "Activision")),
    Company("AMCR", "Amcor plc", 6, ("Amcor",)),
    Company("AXP", "American Express Company", 12, ("American Express", "Amex")),
    Company("AWK", "American Water Works Company, Inc.", 12, ("American Water Works", "American Water")),
    Company("BBY", "Best Buy Co., Inc.", 1, ("Best Buy",)),
    Company("SQ", "Block, Inc.", 12, ("Block", "Square", "XYZ")),
    Company("CVS", "CVS Health Corporation", 12, ("CVS Health", "CVS")),
    Company("COST", "Costco Wholesale Corporation", 8, ("Costco",)),
    Company("GLW", "Corning Incorporated", 12, ("Corning",)),
    Company("FDX", "FedEx Corporation", 5, ("FedEx",)),
    Company("FL", "Foot Locker, Inc.", 1, ("Foot Locker",), fiscal_year_offset=-1),
    Company("GIS", "General Mills, Inc.", 5, ("General Mills",)),
    Company("JPM", "JPMorgan Chase & Co.", 12, ("JPMorgan", "JP Morgan", "JPMorgan Chase")),
    Company("KHC", "The Kraft Heinz Company", 12, ("Kraft Heinz",)),
    Company("LMT", "Lockheed Martin Corporation", 12, ("Lockheed Martin", "Lockheed")),
    Company("MGM", "MGM Resorts International", 12, ("MGM Resorts", "MGM")),
    Company("MCD", "McDonald's Corporation", 12, ("McDonald's", "McDonalds")),
    Company("ORCL", "Oracle Corporation", 5, ("Oracle",)),
    Company("PCG", "PG&E Corporation", 12, ("PG&E", "Pacific Gas and Electric")),
    Company("PYPL", "PayPal Holdings, Inc.", 12, ("PayPal", "Paypal")),
    Company("PEP", "PepsiCo, Inc.", 12, ("PepsiCo", "Pepsi")),
    Company("PFE", "Pfizer Inc.", 12, ("Pfizer",)),
    Company("ULTA", "Ulta Beauty, Inc.", 1, ("Ulta Beauty", "Ulta"), fiscal_year_offset=-1),
    Company("VZ", "Verizon Communications Inc.", 12, ("Verizon",)),
    Company("EBAY", "eBay Inc.", 12, ("eBay",)),
    Company("BAC", "Bank of America Corporation", 12, ("Bank of America",)),
    Company("CSCO", "Cisco Systems, Inc.", 7, ("Cisco",)),
    Company("DIS", "The Walt Disney Company", 9, ("Disney", "Walt Disney")),
    Company("T", "AT&T Inc.", 12, ("AT&T",)),
    Company("TGT", "Target Corporation", 1, ("Target",), fiscal_year_offset=-1),
    Company("BXP", "BXP, Inc.", 12, ("Boston Properties", "BostonProperties")),
)

_SUFFIXES = re.compile(
    r"\b(the|inc|incorporated|corp|corporation|company|companies|co|plc|ltd|limited|holdings|group|n\.?v|s\.?a)\b\.?",
)
_NON_WORD = re.compile(r"[^a-z0-9&]+")


def normalize_name(name: str) -> str:
    """Canonical form for matching company names: lowercase, no legal suffixes, apostrophes or other
    punctuation."""
    lowered = re.sub(r"['’]", "", name.lower().replace(".com", "com"))  # "Lowe's" is "LOWES"
    lowered = _SUFFIXES.sub(" ", lowered)
    return _NON_WORD.sub(" ", lowered).strip()


def builtin_by_ticker() -> dict[str, Company]:
    return {c.ticker: c for c in BUILTIN_COMPANIES}


def lookup_builtin(name_or_ticker: str) -> Company | None:
    """Resolve a ticker ("MSFT", "$MSFT") or a name/alias ("Microsoft Corp") to a built-in company."""
    raw = name_or_ticker.strip().lstrip("$")
    by_ticker = builtin_by_ticker()
    if raw.upper() in by_ticker:
        return by_ticker[raw.upper()]
    key = normalize_name(raw)
    if not key:
        return None
    for company in BUILTIN_COMPANIES:
        names = (company.name, *company.aliases)
        if any(normalize_name(n) == key for n in names):
            return company
    return None


_TICKER = re.compile(r"^[A-Z][A-Z0-9.\-]{0,9}$")


def normalize_ticker(value: str) -> str:
    """'$msft ' -> 'MSFT'; anything that cannot be a ticker is refused."""
    ticker = value.strip().lstrip("$").upper()
    if not _TICKER.match(ticker):
        raise SearchInputError(f"'{value}' is not a valid ticker symbol")
    return ticker
