"""`finagent companies` and `finagent coverage`: what the store holds, before asking about it."""

from __future__ import annotations

import calendar
import json
from pathlib import PurePosixPath
from typing import Annotated
from urllib.parse import urlsplit

import typer
from rich.markup import escape
from rich.table import Table

from finagent.cli.common import store
from finagent.cli.console import console, err_console
from finagent.db.catalog import company_coverage, company_summaries

EMPTY_STORE = "The store is empty: add documents with [bold]finagent ingest path <dir>[/]."


def month_name(month: int | None) -> str:
    """'Sep' for 9: a fiscal year end reads better as a month than a number."""
    return calendar.month_abbr[month] if month and 1 <= month <= 12 else "—"


def source_name(uri: str) -> str:
    """The file name of a source URI or path (the full URI is in --json)."""
    path = urlsplit(uri).path if "://" in uri else uri
    return PurePosixPath(path.replace("\\", "/")).name or uri


def companies_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print the companies as JSON.")] = False,
) -> None:
    """Companies in the store: documents, chunks, kinds and the fiscal years covered."""
    with store() as db, db.connection() as conn:
        summaries = company_summaries(conn)
    if as_json:
        console.print_json(json.dumps([s.to_dict() for s in summaries]))
        return
    if not summaries:
        err_console.print(EMPTY_STORE)
        return
    table = Table(title="Companies in the store")
    for column in ("ticker", "name", "FY end", "documents", "chunks", "kinds", "fiscal years", "last period"):
        table.add_column(column, justify="right" if column in ("documents", "chunks") else "left")
    for s in summaries:
        first, last = s.first_fiscal_year, s.last_fiscal_year
        years = "—" if first is None else str(first) if first == last or last is None else f"{first}–{last}"
        table.add_row(
            s.ticker,
            escape(s.name or ""),
            month_name(s.fiscal_year_end_month),
            f"{s.documents:,}",
            f"{s.chunks:,}",
            escape(", ".join(s.kinds)),
            years,
            s.last_period_end.isoformat() if s.last_period_end else "—",
        )
    console.print(table)


def coverage_command(
    company: Annotated[str, typer.Argument(help="Ticker or company name, e.g. AAPL or 'Apple'.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the coverage as JSON.")] = False,
) -> None:
    """A company's fiscal periods and document kinds in the store (what `ask` can cite)."""
    with store() as db, db.connection() as conn:
        coverage = company_coverage(conn, company)
    if as_json:
        console.print_json(json.dumps(coverage.to_dict()))
        return
    name = f" — {coverage.name}" if coverage.name else ""
    fy_end = f" (fiscal year ends in {month_name(coverage.fiscal_year_end_month)})"
    table = Table(title=escape(f"{coverage.ticker}{name}{fy_end if coverage.fiscal_year_end_month else ''}"))
    flagged = sum(p.flagged for p in coverage.periods)
    columns = ("period", "kind", "period end", "documents", "chunks", *(("flagged",) if flagged else ()))
    for column in (*columns, "sources"):
        table.add_column(
            column,
            justify="right" if column in ("documents", "chunks", "flagged") else "left",
            overflow="fold" if column == "sources" else "ellipsis",
        )
    for p in coverage.periods:
        table.add_row(
            p.period,
            p.kind,
            p.period_end.isoformat() if p.period_end else "—",
            f"{p.documents:,}",
            f"{p.chunks:,}",
            *((f"{p.flagged:,}",) if flagged else ()),
            escape(", ".join(source_name(s) for s in p.sources)),
        )
    console.print(table)
    if flagged:
        console.print(
            f"[yellow]{flagged:,} flagged passage(s)[/]: text addressed to AI systems or hidden, "
            f"never used as evidence (finagent db flagged --ticker {coverage.ticker})"
        )
    if coverage.facts:
        facts = Table(title=escape(f"{coverage.ticker} XBRL facts per period (consolidated)"))
        for column in ("period", "span", "period end", "reported", "derived", "concepts"):
            facts.add_column(
                column, justify="right" if column in ("reported", "derived", "concepts") else "left"
            )
        for f in coverage.facts:
            facts.add_row(
                f.period,
                f.duration.replace("_", " "),
                f.period_end.isoformat() if f.period_end else "—",
                f"{f.reported:,}",
                f"{f.derived:,}",
                f"{f.concepts:,}",
            )
        console.print(facts)
