"""Company resolution against the store: tickers, "$TICKER", names and aliases."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg

from finagent.companies import normalize_name
from finagent.resources import read_sql


@dataclass(frozen=True, slots=True)
class StoredCompany:
    ticker: str
    name: str | None
    aliases: tuple[str, ...]
    fiscal_year_end_month: int | None
    documents: int


def list_companies(conn: psycopg.Connection[Any]) -> list[StoredCompany]:
    rows = conn.execute(read_sql("queries/list_companies.sql")).fetchall()
    return [StoredCompany(r[0], r[1], tuple(r[2] or ()), r[3], int(r[4])) for r in rows]


def resolve_company(companies: list[StoredCompany], text: str) -> StoredCompany | None:
    """Match a ticker ("msft", "$MSFT") first, then a normalised name or alias ("Microsoft Corp")."""
    raw = text.strip().lstrip("$")
    for company in companies:
        if company.ticker == raw.upper():
            return company
    key = normalize_name(raw)
    if not key:
        return None
    for company in companies:
        names = [n for n in (company.name, *company.aliases) if n]
        if any(normalize_name(n) == key for n in names):
            return company
    return None
