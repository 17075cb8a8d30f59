"""One store search from outside the graph (CLI, MCP, LangChain): resolve companies, embed, rank.

The graph plans many filtered sub-searches itself; people and other agents ask for one search with
plain filters. Both paths end in the same SQL (``build_search``/``run_search``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

import psycopg

from finagent.db.companies import StoredCompany, list_companies, resolve_company
from finagent.db.filters import SearchFilters
from finagent.db.search import Fusion, SearchHit, build_search, run_search, validate_query
from finagent.embeddings import get_embedder
from finagent.errors import SearchInputError
from finagent.settings import Settings


def resolve_tickers(companies: list[StoredCompany], requested: Sequence[str]) -> list[str]:
    """Tickers or company names → stored tickers; a company with no documents is a clear error."""
    tickers = []
    for text in requested:
        company = resolve_company(companies, text)
        if company is None or company.documents == 0:
            held = ", ".join(c.ticker for c in companies if c.documents) or "nothing yet"
            raise SearchInputError(f"no documents for '{text}' in the store (it holds: {held})")
        tickers.append(company.ticker)
    return tickers


def check_search_input(
    query: str,
    fiscal_years: Sequence[int] = (),
    fiscal_quarters: Sequence[int] = (),
    kinds: Sequence[str] = (),
) -> None:
    """Refuse a bad query, year, quarter or kind (SearchInputError) without touching the store."""
    validate_query(query)
    SearchFilters(fiscal_years=list(fiscal_years), fiscal_quarters=list(fiscal_quarters), kinds=list(kinds))


def search_store(
    conn: psycopg.Connection[Any],
    settings: Settings,
    query: str,
    *,
    tickers: Sequence[str] = (),
    fiscal_years: Sequence[int] = (),
    fiscal_quarters: Sequence[int] = (),
    kinds: Sequence[str] = (),
    sections: Sequence[str] = (),
    date_from: date | None = None,
    date_to: date | None = None,
    k: int = 10,
    fusion: Fusion | None = None,
) -> list[SearchHit]:
    """Hybrid search with validated filters; every filter is checked before the model loads."""
    check_search_input(query, fiscal_years, fiscal_quarters, kinds)
    query = validate_query(query)  # the cleaned text is what is embedded and matched
    filters = SearchFilters(
        tickers=resolve_tickers(list_companies(conn), tickers),
        fiscal_years=list(fiscal_years),
        fiscal_quarters=list(fiscal_quarters),
        kinds=list(kinds),
        sections=list(sections),
        date_from=date_from,
        date_to=date_to,
    )
    vector = get_embedder(settings).encode_query(query)
    request = build_search(
        query,
        vector,
        filters,
        k=k,
        candidates=settings.search_candidates,
        vector_weight=settings.vector_weight,
        keyword_weight=settings.keyword_weight,
        fusion=fusion or settings.fusion,
        statement_boost=settings.statement_boost,
        event_boost=settings.event_item_boost,
    )
    return run_search(conn, request)
