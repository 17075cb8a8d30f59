"""`finagent db …`: what the store holds."""

from __future__ import annotations

from typing import Annotated

import typer
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
    for col in ("ticker", "kind", "fiscal period", "period end", "documents", "chunks"):
        table.add_column(col, justify="right" if col in ("documents", "chunks") else "left")
    total_docs = total_chunks = 0
    for ticker, kind, year, quarter, period_end, docs, chunks in rows:
        table.add_row(
            ticker or "—",
            kind,
            quarter_label(year, quarter),
            str(period_end or "—"),
            str(docs),
            str(chunks or 0),
        )
        total_docs += docs
        total_chunks += chunks or 0
    table.add_section()
    table.add_row("total", "", "", "", str(total_docs), str(total_chunks))
    console.print(table)
    if not rows:
        console.print("The store is empty: add documents with [bold]finagent ingest path <dir>[/].")


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
