"""Company resolution against the store: tickers, "$TICKER", names and aliases."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from finagent.finance.company_registry import StoredCompany, normalize_name
from finagent.resources import read_sql


def list_companies(conn: psycopg.Connection[Any]) -> list[StoredCompany]:
    rows = conn.execute(read_sql("queries/list_companies.sql")).fetchall()
    return [StoredCompany(r[0], r[1], tuple(r[2] or ()), r[3], int(r[4]), r[5]) for r in rows]


@dataclass(frozen=True, slots=True)
class ListedCompany:
    """A company on SEC's list of listed companies (not necessarily in the store)."""

    ticker: str
    cik: str
    name: str


def listed_companies_loaded(conn: psycopg.Connection[Any]) -> int:
    row = conn.execute(read_sql("queries/count_listed.sql")).fetchone()
    return int(row[0]) if row else 0


def load_listed_companies(conn: psycopg.Connection[Any], companies: Sequence[ListedCompany]) -> int:
    """Store SEC's list of listed companies (replacing entries of the same ticker)."""
    with conn.transaction(), conn.cursor() as cur:
        cur.executemany(
            read_sql("queries/insert_listed_company.sql"),
            [
                {"ticker": c.ticker, "cik": c.cik, "name": c.name, "name_key": normalize_name(c.name)}
                for c in companies
            ],
        )
    return len(companies)


def refile_listed_companies(conn: psycopg.Connection[Any]) -> list[tuple[str, str, str]]:
    """Companies stored under their CIK that SEC's list now names move to their tickers (documents,
    chunks, facts), each in one transaction, so a later ingest finds them instead of a second copy.
    Returns (CIK symbol, ticker, name) per company moved."""
    moved: list[tuple[str, str, str]] = []
    for old, new, name in conn.execute(read_sql("queries/cik_symbols_listed.sql")).fetchall():
        with conn.transaction():
            conn.execute(read_sql("queries/refile_company.sql"), {"old": old, "new": new, "name": name})
        moved.append((old, new, name))
    return moved


def listed_matches(
    conn: psycopg.Connection[Any], symbols: Sequence[str], names: Sequence[str]
) -> list[ListedCompany]:
    """Listed companies whose ticker is one of ``symbols`` or whose normalised name is in ``names``."""
    if not symbols and not names:
        return []
    rows = conn.execute(
        read_sql("queries/listed_matches.sql"), {"symbols": list(symbols), "names": list(names)}
    ).fetchall()
    return [ListedCompany(r[0], str(r[1]), r[2]) for r in rows]


def listed_company(conn: psycopg.Connection[Any], cik: str | None, name: str | None) -> ListedCompany | None:
    """The listed company with this CIK, else this (normalised) name; None when SEC's list is not
    loaded or names neither."""
    if not cik and not name:
        return None
    row = conn.execute(
        read_sql("queries/listed_by_cik_or_name.sql"),
        {"cik": (cik or "").strip() or "-", "name_key": (normalize_name(name) if name else "") or "-"},
    ).fetchone()
    return None if row is None else ListedCompany(row[0], str(row[1]), row[2])


def stored_ticker_of_cik(conn: psycopg.Connection[Any], cik: str | None) -> str | None:
    """The symbol the store already holds the company with this CIK under, if any."""
    digits = (cik or "").strip().lstrip("0")
    if not digits.isdigit():
        return None
    row = conn.execute(read_sql("queries/company_by_cik.sql"), {"cik": digits}).fetchone()
    return None if row is None else str(row[0])


def listed_names(conn: psycopg.Connection[Any], initials: Sequence[str]) -> list[tuple[ListedCompany, str]]:
    """(company, normalised name) of listed companies whose name starts with one of ``initials``."""
    if not initials:
        return []
    rows = conn.execute(read_sql("queries/listed_names.sql"), {"initials": list(initials)}).fetchall()
    return [(ListedCompany(r[0], "", r[1]), str(r[2])) for r in rows]


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
