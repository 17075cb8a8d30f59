"""`finagent search`: one hybrid sub-search from the terminal."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Annotated

import typer
from rich.table import Table

from finagent.cli.common import parse_date_option, store
from finagent.cli.console import console, err_console
from finagent.db.search import Fusion
from finagent.errors import SearchInputError
from finagent.finance.read.filing_parts import part_codes
from finagent.retrieval.service import check_search_input, search_store
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
    part: Annotated[
        list[str] | None,
        typer.Option("--part", help="A filing's part: 1A, 'Part II Item 1A', 7, 2.02, cover, Q&A."),
    ] = None,
    section: Annotated[
        list[str] | None, typer.Option("--section", help="A part's code: item_7, part2_item_1a, cover.")
    ] = None,
    date_from: Annotated[str | None, typer.Option("--from", help="Period end on/after (YYYY-MM-DD).")] = None,
    date_to: Annotated[str | None, typer.Option("--to", help="Period end on/before (YYYY-MM-DD).")] = None,
    k: Annotated[int, typer.Option("-k", help="Number of results.")] = 10,
    fusion: Annotated[str | None, typer.Option(help="weighted (default) or rrf.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print results as JSON.")] = False,
) -> None:
    """Hybrid (vector + keyword) search over the store, with citations."""
    check_search_input(query, year or [], quarter or [], kind or [])
    sections = [*(section or []), *_part_codes(part or [])]
    start, end = parse_date_option(date_from, "--from"), parse_date_option(date_to, "--to")
    with store() as db, db.connection() as conn:
        hits = search_store(
            conn,
            get_settings(),
            query,
            tickers=ticker or [],
            fiscal_years=year or [],
            fiscal_quarters=quarter or [],
            kinds=kind or [],
            sections=sections,
            date_from=start,
            date_to=end,
            k=k,
            fusion=_fusion(fusion) if fusion else None,
        )
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


def _part_codes(written: list[str]) -> list[str]:
    """The stored codes of the parts a user wrote; a part no form has is a one-line error."""
    codes: list[str] = []
    for text in written:
        found = part_codes(text)
        if not found:
            example = "1A, 'Part II Item 1A', 7, 2.02 or cover"
            raise SearchInputError(f"unknown part '{text}'; write e.g. {example}")
        codes += found
    return codes


def _fmt(score: float | None) -> str:
    return "—" if score is None else f"{score:.3f}"


def _fusion(value: str) -> Fusion:
    if value not in ("weighted", "rrf"):
        raise SearchInputError(f"unknown fusion '{value}'; use weighted or rrf")
    return "rrf" if value == "rrf" else "weighted"
