"""`finagent db …`: what the store holds."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from finagent.cli.common import store
from finagent.cli.console import console
from finagent.db.catalog import store_status
from finagent.finance.fiscal import quarter_label

db_app = typer.Typer(help="Inspect the document store.", no_args_is_help=True)


@db_app.command("status")
def status() -> None:
    """Documents and chunks by ticker, kind and fiscal period."""
    with store() as db, db.connection() as conn:
        rows = store_status(conn)
        url = db.url if db.embedded is None else f"embedded ({db.embedded.data_dir})"
    table = Table(title=f"finagent store — {url}")
    for col in ("ticker", "kind", "fiscal period", "period end", "documents", "chunks", "flagged"):
        table.add_column(col, justify="right" if col in ("documents", "chunks", "flagged") else "left")
    total_docs = total_chunks = total_flagged = 0
    for ticker, kind, year, quarter, period_end, docs, chunks, flagged in rows:
        table.add_row(
            ticker or "—",
            kind,
            quarter_label(year, quarter),
            str(period_end or "—"),
            str(docs),
            str(chunks or 0),
            str(flagged),
        )
        total_docs += docs
        total_chunks += chunks or 0
        total_flagged += flagged
    table.add_section()
    table.add_row("total", "", "", "", str(total_docs), str(total_chunks), str(total_flagged))
    console.print(table)
    if not rows:
        console.print("The store is empty: add documents with [bold]finagent ingest path <dir>[/].")
    elif total_flagged:
        console.print(
            f"[yellow]{total_flagged:,} flagged passage(s)[/] address AI systems or hide text: stored, never "
            "used as evidence (list them: [bold]finagent db flagged[/])"
        )


@db_app.command("flagged")
def flagged(
    ticker: Annotated[str | None, typer.Option(help="Only this company's passages.")] = None,
    limit: Annotated[int, typer.Option(min=1, help="List at most this many.")] = 100,
) -> None:
    """Passages stored flagged (text addressed to AI systems, hidden text): never used as evidence."""
    from finagent.db.chunks import flagged_passages
    from finagent.finance.companies import normalize_ticker

    with store() as db, db.connection() as conn:
        passages = flagged_passages(conn, normalize_ticker(ticker) if ticker else None, limit)
    if not passages:
        console.print("no flagged passages" + (f" for {ticker}" if ticker else ""))
        return
    for p in passages:
        where = " ".join(x for x in (p.ticker, p.kind, quarter_label(p.fiscal_year, p.fiscal_quarter)) if x)
        place = ", ".join(x for x in (p.section, f"p.{p.page + 1}" if p.page is not None else "") if x)
        place = f", {place}" if place else ""
        console.print(f"[bold]chunk {p.chunk_id}[/] {escape(where)} — {escape(p.title + place)}")
        console.print(f"  why: {escape(p.reason)}", soft_wrap=True)
        console.print(f"  text: {escape(' '.join(p.excerpt.split()))}", soft_wrap=True)
    if len(passages) == limit:
        console.print(f"(first {limit}; raise --limit for more)")


@db_app.command("rescan")
def rescan(
    database: Annotated[
        str | None, typer.Option(help="Another database on the store's server (e.g. a benchmark corpus).")
    ] = None,
) -> None:
    """Assess every stored passage as untrusted text again (after upgrading finagent); no re-ingest."""
    from finagent.db.chunks import flagged_count, rescan_flags
    from finagent.ingest.screening import load_classifier

    with store(database) as db, db.connection() as conn:
        changed = rescan_flags(conn, load_classifier(db.settings))
        total = flagged_count(conn)
    console.print(f"{changed:,} flag(s) changed; {total:,} passage(s) flagged (`finagent db flagged`)")


@db_app.command("reclassify")
def reclassify(
    database: Annotated[
        str | None, typer.Option(help="Another database on the store's server (e.g. a benchmark corpus).")
    ] = None,
) -> None:
    """Recompute which chunks are primary statements (after upgrading finagent); no re-ingest needed."""
    from finagent.ingest.reclassify import reclassify_statements

    with store(database) as db, db.connection() as conn:
        changed = reclassify_statements(conn)
    if not changed:
        console.print("statement labels are up to date")
        return
    console.print(
        f"relabelled {sum(changed.values()):,} chunks: "
        + ", ".join(f"{label} {n:,}" for label, n in sorted(changed.items()))
    )
