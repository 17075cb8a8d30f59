"""`finagent db …`: what the store holds."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from finagent.cli.catalog_cmd import EMPTY_STORE
from finagent.cli.common import store
from finagent.cli.console import console, err_console
from finagent.db.catalog import list_documents, store_status
from finagent.finance.fiscal import quarter_label

db_app = typer.Typer(help="Inspect the document store.", no_args_is_help=True)


@db_app.command("status")
def status() -> None:
    """Documents, chunks and facts by ticker, kind and fiscal period, with the document ids."""
    with store() as db, db.connection() as conn:
        rows = store_status(conn)
        url = db.url if db.embedded is None else f"embedded ({db.embedded.data_dir})"
    table = Table(title=f"finagent store — {url}")
    counts = ("documents", "chunks", "facts", "flagged")
    for col in ("ticker", "kind", "fiscal period", "period end", *counts, "ids"):
        table.add_column(col, justify="right" if col in counts else "left")
    total_docs = total_chunks = total_facts = total_flagged = 0
    for row in rows:
        table.add_row(
            row.ticker or "—",
            row.kind,
            quarter_label(row.fiscal_year, row.fiscal_quarter),
            str(row.period_end or "—"),
            f"{len(row.ids):,}",
            f"{row.chunks:,}",
            f"{row.facts:,}",
            f"{row.flagged:,}",
            _ids(row.ids),
        )
        total_docs += len(row.ids)
        total_chunks += row.chunks
        total_facts += row.facts
        total_flagged += row.flagged
    table.add_section()
    totals = (total_docs, total_chunks, total_facts, total_flagged)
    table.add_row("total", "", "", "", *(f"{n:,}" for n in totals), "")
    console.print(table)
    if not rows:
        console.print("The store is empty: add documents with [bold]finagent ingest path <dir>[/].")
        return
    console.print(
        "Each document with its source: [bold]finagent db documents[/]; remove one: "
        "[bold]finagent db remove <id>[/]."
    )
    if total_flagged:
        console.print(
            f"[yellow]{total_flagged:,} flagged passage(s)[/] address AI systems or hide text: stored, never "
            "used as evidence (list them: [bold]finagent db flagged[/])"
        )


def _ids(ids: list[int], shown: int = 6) -> str:
    """'3, 7, 12', or '3, 7, 12, … (40)' for a long list."""
    text = ", ".join(str(i) for i in ids[:shown])
    return text if len(ids) <= shown else f"{text}, … ({len(ids)})"


@db_app.command("documents")
def documents(
    ticker: Annotated[str | None, typer.Option(help="Only this company's documents.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the documents as JSON.")] = False,
) -> None:
    """Current documents (one per filing) with their ids and sources: what `db remove` takes."""
    with store() as db, db.connection() as conn:
        docs = list_documents(conn, ticker.strip().upper() if ticker else None)
    if as_json:
        console.print_json(json.dumps([d.to_dict() for d in docs]))
        return
    if not docs:
        err_console.print(f"no documents for '{ticker}'" if ticker else EMPTY_STORE)
        return
    table = Table(title="Documents in the store")
    for col in ("id", "ticker", "kind", "period", "period end", "chunks", "facts", "source"):
        table.add_column(
            col,
            justify="right" if col in ("id", "chunks", "facts") else "left",
            overflow="fold" if col == "source" else "ellipsis",
        )
    for d in docs:
        source = escape(d.source_uri)
        kept = [
            f"{part} of copy {_ids(ids)}"
            for part, ids in (("text", d.text_from), ("facts", d.facts_from))
            if ids
        ]
        if kept:
            source += f" ({'; '.join(kept)} still in use)"
        table.add_row(
            str(d.id),
            d.ticker or "—",
            d.kind,
            d.period,
            d.period_end.isoformat() if d.period_end else "—",
            f"{d.chunks:,}",
            f"{d.facts:,}",
            source,
        )
    console.print(table)


@db_app.command("remove")
def remove(
    target: Annotated[
        str | None,
        typer.Argument(help="A document id (see `finagent db documents`) or the path it was read from."),
    ] = None,
    ticker: Annotated[str | None, typer.Option(help="Remove every document of this company.")] = None,
) -> None:
    """Delete a document, or a company's documents, with their chunks and facts (no confirmation).

    Earlier versions and superseded copies of the same filing go with a document; derived facts are
    recomputed from what remains. Ingest events stay as history.
    """
    from finagent.ingest.removal import remove_from_store

    document_id = int(target) if target is not None and target.strip().isdigit() else None
    source = target if target is not None and document_id is None else None
    with store() as db, db.connection() as conn:
        removal = remove_from_store(conn, document_id=document_id, source=source, ticker=ticker)
    console.print(removal.summary())


@db_app.command("flagged")
def flagged(
    ticker: Annotated[str | None, typer.Option(help="Only this company's passages.")] = None,
    limit: Annotated[int, typer.Option(min=1, help="List at most this many.")] = 100,
) -> None:
    """Passages stored flagged (text addressed to AI systems, hidden text): never used as evidence."""
    from finagent.db.chunks import flagged_passages
    from finagent.finance.company_registry import normalize_ticker

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


@db_app.command("tune")
def tune(
    memory_gb: Annotated[
        float | None, typer.Option(min=0.5, help="The database server's memory (default: this machine's).")
    ] = None,
    cores: Annotated[
        int | None, typer.Option(min=1, help="The database server's cores (default: this machine's).")
    ] = None,
    connections: Annotated[int, typer.Option(min=1, help="Connections the server serves at once.")] = 100,
    apply: Annotated[
        bool, typer.Option("--apply", help="Make the session-level settings this database's defaults.")
    ] = False,
    database: Annotated[
        str | None, typer.Option(help="Another database on the store's server (e.g. a benchmark corpus).")
    ] = None,
) -> None:
    """PostgreSQL settings for a large store, sized from the server's memory and cores and what the
    store holds; --apply sets the session-level ones as this database's defaults."""
    from finagent.db.tuning import (
        GB,
        apply_to_database,
        machine_cores,
        machine_memory,
        recommend,
        size_text,
        store_size,
    )

    memory = int(memory_gb * GB) if memory_gb else machine_memory()
    cpu = cores or machine_cores()
    with store(database) as db, db.connection() as conn:
        size = store_size(conn)
        settings = recommend(
            memory, cpu, size.chunks, connections=connections, largest_partition=size.largest_partition
        )
        applied = apply_to_database(conn, settings) if apply else []
    console.print(
        f"store: {size.chunks:,} chunks, {size.facts:,} facts; chunk table {size_text(size.chunk_bytes)}, "
        f"vector index {size_text(size.hnsw_bytes) if size.has_hnsw else 'missing'}, "
        f"database {size_text(size.database_bytes)}"
    )
    table = Table(title=f"Recommended for {size_text(memory)} memory, {cpu} cores, {connections} connections")
    for col in ("setting", "value", "where", "why"):
        table.add_column(col)
    for s in settings:
        table.add_row(s.name, s.value, "session" if s.scope == "session" else "postgresql.conf", s.why)
    console.print(table)
    if applied:
        console.print(f"applied to this database (new connections): {', '.join(applied)}")
    else:
        console.print("session-level ones: `finagent db tune --apply` makes them this database's defaults")
    server = " ".join(f"-c {s.name}={s.value}" for s in settings if s.scope == "server")
    console.print(f"server-level ones (postgresql.conf, or the server's command line): {server}")


@db_app.command("reindex")
def reindex(
    drop: Annotated[
        bool, typer.Option("--drop", help="Drop the vector index before a bulk load (rebuild it after).")
    ] = False,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Rebuild the index even if it exists.")] = False,
    m: Annotated[
        int | None, typer.Option(min=2, max=100, help="HNSW neighbours per node (pgvector default 16).")
    ] = None,
    ef_construction: Annotated[
        int | None, typer.Option(min=4, max=1000, help="HNSW build breadth (pgvector default 64).")
    ] = None,
    database: Annotated[
        str | None, typer.Option(help="Another database on the store's server (e.g. a benchmark corpus).")
    ] = None,
) -> None:
    """Build the HNSW vector index after a bulk load, with build memory and parallel workers sized by
    `finagent db tune` (searches and writes wait while it builds)."""
    from finagent.db.tuning import (
        build_vector_index,
        drop_vector_index,
        machine_cores,
        machine_memory,
        recommend,
        store_size,
    )

    with store(database) as db, db.connection() as conn:
        if drop:
            drop_vector_index(conn)
            console.print("vector index dropped: bulk-load, then `finagent db reindex` builds it again")
            return
        size = store_size(conn)
        if size.has_hnsw and not rebuild:
            console.print("the vector index exists (`--rebuild` builds it again)")
            return
        wanted = {
            s.name: s.value
            for s in recommend(
                machine_memory(), machine_cores(), size.chunks, largest_partition=size.largest_partition
            )
        }
        seconds = build_vector_index(
            conn,
            maintenance_work_mem=wanted["maintenance_work_mem"],
            workers=int(wanted["max_parallel_maintenance_workers"]),
            rebuild=rebuild,
            m=m,
            ef_construction=ef_construction,
        )
        built = store_size(conn)
    console.print(
        f"vector index built over {built.chunks:,} chunks in {seconds:.1f} s "
        f"(maintenance_work_mem {wanted['maintenance_work_mem']}, "
        f"{wanted['max_parallel_maintenance_workers']} parallel worker(s)); "
        f"{built.hnsw_bytes / 1024**2:,.1f} MB"
    )
