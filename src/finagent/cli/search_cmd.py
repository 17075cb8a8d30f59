"""`finagent search`: one hybrid sub-search from the terminal."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Annotated

import typer
from rich.table import Table

from finagent.cli.common import parse_date_option, store
from finagent.cli.console import console, err_console
from finagent.db.companies import StoredCompany, list_companies, resolve_company
from finagent.embeddings import get_embedder
from finagent.errors import SearchInputError
from finagent.retrieval.filters import SearchFilters
from finagent.retrieval.hybrid import Fusion, build_search, run_search, validate_query
from finagent.settings import get_settings


def search_command(
    query: Annotated[str, typer.Argument(help="What to look for, e.g. 'capital expenditures'.")],
    ticker: Annotated[
        list[str] | None, typer.Option("--ticker", "-t", help="Ticker or company name.")
    ] = None,
    year: Annotated[list[int] | None, typer.Option("--year", "-y", help="Fiscal year.")] = None,
    quarter: Annotated[list[int] | None, typer.Option("--quarter", "-q", help="Fiscal quarter 1-4.")] = None,
    kind: Annotated[
        list[str] | None, typer.Option("--kind", help="10-K, 10-Q, 8-K, transcript, news…")
    ] = None,
    section: Annotated[list[str] | None, typer.Option("--section", help="e.g. item_7, item_8.")] = None,
    date_from: Annotated[str | None, typer.Option("--from", help="Period end on/after (YYYY-MM-DD).")] = None,
    date_to: Annotated[str | None, typer.Option("--to", help="Period end on/before (YYYY-MM-DD).")] = None,
    k: Annotated[int, typer.Option("-k", help="Number of results.")] = 10,
    fusion: Annotated[str | None, typer.Option(help="weighted (default) or rrf.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print results as JSON.")] = False,
) -> None:
    """Hybrid (vector + keyword) search over the store, with citations."""
    settings = get_settings()
    validate_query(query)
    # Validate every filter before touching the database or loading the model.
    SearchFilters(
        tickers=[],
        fiscal_years=year or [],
        fiscal_quarters=quarter or [],
        kinds=kind or [],
        sections=section or [],
    )
    with store() as db, db.connection() as conn:
        tickers = _resolve_tickers(list_companies(conn), ticker or [])
        filters = SearchFilters(
            tickers=tickers,
            fiscal_years=year or [],
            fiscal_quarters=quarter or [],
            kinds=kind or [],
            sections=section or [],
            date_from=parse_date_option(date_from, "--from"),
            date_to=parse_date_option(date_to, "--to"),
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
            fusion=_fusion(fusion or settings.fusion),
            statement_boost=settings.statement_boost,
        )
        hits = run_search(conn, request)
    if as_json:
        console.print_json(json.dumps([asdict(h) | {"citation": h.citation()} for h in hits], default=str))
        return
    if not hits:
        err_console.print("No matching chunks. Check the filters with [bold]finagent db status[/].")
        return
    table = Table(show_lines=True)
    for col in ("#", "score (vec/kw)", "citation", "text"):
        table.add_column(col, overflow="fold")
    for rank, hit in enumerate(hits, 1):
        scores = f"{hit.fused_score:.3f}\n({_fmt(hit.vector_score)}/{_fmt(hit.keyword_score)})"
        snippet = hit.text[:400] + ("…" if len(hit.text) > 400 else "")
        table.add_row(str(rank), scores, f"{hit.citation()}\n{hit.source_uri}", snippet)
    console.print(table)


def _fmt(score: float | None) -> str:
    return "—" if score is None else f"{score:.3f}"


def _fusion(value: str) -> Fusion:
    if value not in ("weighted", "rrf"):
        raise SearchInputError(f"unknown fusion '{value}'; use weighted or rrf")
    return "rrf" if value == "rrf" else "weighted"


def _resolve_tickers(companies: list[StoredCompany], requested: list[str]) -> list[str]:
    tickers = []
    for text in requested:
        company = resolve_company(companies, text)
        if company is None or company.documents == 0:
            held = ", ".join(c.ticker for c in companies if c.documents) or "nothing yet"
            raise SearchInputError(f"no documents for '{text}' in the store (it holds: {held})")
        tickers.append(company.ticker)
    return tickers
