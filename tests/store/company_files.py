"""Synthetic SEC company-facts files (the shape of SEC's ``CIK##########.json``) written by a test:
a company, its annual filings and the facts each reports, in any taxonomy and currency, with SEC's
list of listed companies beside them so `finagent ingest path` names each by its ticker."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Year:
    """One fiscal year a company's annual report states: its end, its name and its facts
    (``concept`` -> value for the year; balances are stated at the year's end)."""

    fy: int
    end: date
    values: dict[str, int]
    balances: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Company:
    cik: int
    ticker: str
    name: str
    years: tuple[Year, ...]
    taxonomy: str = "us-gaap"
    currency: str = "USD"
    form: str = "10-K"


def _start(end: date) -> date:
    """The day a fiscal year ending on ``end`` began (a year earlier, the day after)."""
    try:
        return end.replace(year=end.year - 1) + timedelta(days=1)
    except ValueError:  # February 29
        return end.replace(year=end.year - 1, day=28) + timedelta(days=1)


def _row(company: Company, year: Year, filed_for: Year, value: int, instant: bool) -> dict[str, Any]:
    """One fact as the API lists it: its own dates, and the filing (of ``filed_for``) reporting it."""
    filed = filed_for.end + timedelta(days=60)
    row: dict[str, Any] = {"end": year.end.isoformat(), "val": value}
    if not instant:
        row["start"] = _start(year.end).isoformat()
    accession = f"{company.cik:010d}-{filed.year % 100:02d}-{filed_for.fy:06d}"
    return row | {
        "accn": accession,
        "fy": filed_for.fy,
        "fp": "FY",
        "form": company.form,
        "filed": filed.isoformat(),
    }


def company_facts(company: Company) -> dict[str, Any]:
    """The company-facts JSON: each year's annual report states its own year and the year before."""
    concepts: dict[str, list[dict[str, Any]]] = {}
    balances: set[str] = set()
    for index, filing in enumerate(company.years):
        shown = company.years[max(0, index - 1) : index + 1]
        for year in shown:
            for concept, value in year.values.items():
                concepts.setdefault(concept, []).append(_row(company, year, filing, value, False))
            for concept, value in year.balances.items():
                balances.add(concept)
                concepts.setdefault(concept, []).append(_row(company, year, filing, value, True))
    facts = {
        name: {"label": name, "units": {company.currency: rows}} for name, rows in sorted(concepts.items())
    }
    cover = {
        "EntityCommonStockSharesOutstanding": {
            "label": "Shares outstanding",
            "units": {"shares": [_row(company, y, y, 1_000_000, True) for y in company.years]},
        }
    }
    return {"cik": company.cik, "entityName": company.name, "facts": {"dei": cover, company.taxonomy: facts}}


def write_companies(
    folder: Path, companies: list[Company], also_listed: tuple[tuple[int, str, str], ...] = ()
) -> Path:
    """Each company's ``CIK##########.json`` and SEC's ``company_tickers.json`` naming them (and the
    listed companies ``also_listed``: CIK, ticker, name, whose facts the store does not get), in
    ``folder`` (returned, for `finagent ingest path`)."""
    folder.mkdir(parents=True, exist_ok=True)
    listed = {}
    for index, company in enumerate(companies):
        text = json.dumps(company_facts(company))
        (folder / f"CIK{company.cik:010d}.json").write_text(text, encoding="utf-8")
        listed[str(index)] = {"cik_str": company.cik, "ticker": company.ticker, "title": company.name}
    for cik, ticker, name in also_listed:
        listed[str(len(listed))] = {"cik_str": cik, "ticker": ticker, "title": name}
    (folder / "company_tickers.json").write_text(json.dumps(listed), encoding="utf-8")
    return folder
