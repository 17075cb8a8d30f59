"""SEC's list of listed companies (company_tickers.json): who exists, so a question about a company
the store does not hold gets a clear "not in the store" answer instead of a search of everything."""

from __future__ import annotations

import json
from pathlib import Path

from finagent.db.companies import ListedCompany
from finagent.errors import ParseError

FILE_NAME = "company_tickers.json"


def read_company_list(path: Path) -> list[ListedCompany]:
    """Entries of SEC's ``{"0": {"cik_str": 320193, "ticker": "AAPL", "title": "Apple Inc."}, ...}``."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ParseError(str(path), f"not SEC's company list: {exc}") from exc
    rows = data.values() if isinstance(data, dict) else data if isinstance(data, list) else []
    companies: dict[str, ListedCompany] = {}
    for row in rows:
        if not isinstance(row, dict):
            continue
        ticker, cik, title = row.get("ticker"), row.get("cik_str"), row.get("title")
        if not isinstance(ticker, str) or not isinstance(title, str) or not isinstance(cik, int | str):
            continue
        ticker = ticker.strip().upper()
        if ticker and len(ticker) <= 10 and ticker not in companies:
            companies[ticker] = ListedCompany(ticker, str(cik).strip(), title.strip()[:200])
    if not companies:
        raise ParseError(str(path), "no company entries (expected SEC's company_tickers.json)")
    return list(companies.values())


def cik_symbol(cik: str | None) -> str | None:
    """The symbol a company no list names is stored under: its CIK as SEC writes it in file names
    ('1138724' -> 'CIK0001138724'); None when there is no CIK."""
    digits = (cik or "").strip().lstrip("0")
    if not digits.isdigit() or len(digits) > 10:
        return None
    return f"CIK{digits.zfill(10)}"
