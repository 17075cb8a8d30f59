"""PostgreSQL settings for a large store, and the HNSW build after a bulk load.

The defaults PostgreSQL ships with (128 MB shared buffers, 64 MB maintenance_work_mem) suit the
~100K chunks of a laptop store; at millions of chunks the HNSW build runs out of build memory and
writes its graph to disk page by page (many times slower), and the working set no longer fits the
buffer cache. ``recommend`` sizes the settings from the machine and from what the store holds;
``build_vector_index`` builds the index with enough memory and parallel workers.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any, Literal

import psycopg
from psycopg import sql

from finagent.resources import read_sql

MB = 1024**2
GB = 1024**3
# HNSW graph bytes per chunk for halfvec(384), m = 16: the index measured at 1M generated chunks
# (benchmarks/scale_store.py) is 1,170 B per chunk (776 B vector + neighbour lists + page overhead);
# a little headroom on top.
HNSW_BYTES_PER_CHUNK = 1_250
HNSW_INDEX = "chunks_embedding_hnsw"
Scope = Literal["session", "server"]


@dataclass(frozen=True, slots=True)
class Recommendation:
    """One setting: ``session`` ones can be SET per connection (or per database); ``server`` ones go
    to postgresql.conf (shared_buffers and max_worker_processes need a restart)."""

    name: str
    value: str
    scope: Scope
    why: str


@dataclass(frozen=True, slots=True)
class StoreSize:
    chunks: int
    facts: int
    chunk_bytes: int
    hnsw_bytes: int
    has_hnsw: bool
    database_bytes: int
    largest_partition: int  # chunks of the largest company partition: what one HNSW build holds


def machine_memory() -> int:
    """Physical memory of this machine in bytes."""
    return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))


def machine_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def size_text(n_bytes: int) -> str:
    """A PostgreSQL memory value: whole GB when it is one, else MB ('4GB', '1536MB')."""
    mb = max(1, int(n_bytes // MB))
    return f"{mb // 1024}GB" if mb % 1024 == 0 else f"{mb}MB"


def hnsw_build_bytes(chunks: int) -> int:
    """Memory an HNSW build of ``chunks`` vectors needs to keep its whole graph in memory."""
    return chunks * HNSW_BYTES_PER_CHUNK


def recommend(
    memory: int, cores: int, chunks: int, *, connections: int = 100, largest_partition: int | None = None
) -> list[Recommendation]:
    """Settings for a server with ``memory`` bytes and ``cores`` cores holding ``chunks`` chunks.

    Rules of thumb from the PostgreSQL and pgvector documentation, sized for a machine that runs
    PostgreSQL alone: a quarter of memory as shared buffers, three quarters as the planner's cache
    estimate, the HNSW graph in maintenance_work_mem (capped at half of memory), SSD page costs.
    The chunk table is partitioned by company and each partition's graph is built on its own, so
    ``largest_partition`` (when known) sizes the build memory instead of the whole store.
    """
    built = chunks if largest_partition is None else min(largest_partition, chunks)
    graph = hnsw_build_bytes(built)
    wanted = max(graph * 5 // 4, 256 * MB)
    if wanted > GB:
        wanted = -(-wanted // GB) * GB  # whole GB
    maintenance = min(wanted, memory // 2)
    work_mem = min(max(memory // 4 // max(connections, 1), 4 * MB), 256 * MB)
    per_gather = min(max(cores // 2, 1), 4)
    maintenance_workers = min(max(cores - 1, 1), 8)
    fits = "fits" if graph * 5 // 4 <= memory // 2 else "does NOT fit (build spills to disk)"
    return [
        Recommendation("shared_buffers", size_text(memory // 4), "server", "a quarter of memory"),
        Recommendation(
            "effective_cache_size", size_text(memory * 3 // 4), "session", "what the OS cache can hold"
        ),
        Recommendation(
            "work_mem", size_text(work_mem), "session", f"a quarter of memory over {connections} connections"
        ),
        Recommendation(
            "maintenance_work_mem",
            size_text(maintenance),
            "session",
            f"HNSW graph of {built:,} chunks ~{size_text(graph)}: {fits}"
            + (f" (the largest partition; {chunks:,} chunks in all)" if built < chunks else ""),
        ),
        Recommendation("max_worker_processes", str(max(8, cores)), "server", "room for parallel workers"),
        Recommendation("max_parallel_workers", str(cores), "session", "one per core"),
        Recommendation(
            "max_parallel_workers_per_gather", str(per_gather), "session", "half the cores per query"
        ),
        Recommendation(
            "max_parallel_maintenance_workers",
            str(maintenance_workers),
            "session",
            "parallel HNSW / GIN builds",
        ),
        Recommendation("random_page_cost", "1.1", "session", "SSD storage"),
        Recommendation("effective_io_concurrency", "200", "session", "SSD storage"),
        Recommendation("max_wal_size", "4GB", "server", "fewer checkpoints during bulk loads"),
    ]


def store_size(conn: psycopg.Connection[Any]) -> StoreSize:
    row = conn.execute(read_sql("queries/store_size.sql")).fetchone()
    assert row is not None
    chunks, facts, chunk_bytes, hnsw_bytes, has_hnsw, database_bytes, largest = row
    return StoreSize(
        int(chunks),
        int(facts),
        int(chunk_bytes),
        int(hnsw_bytes),
        bool(has_hnsw),
        int(database_bytes),
        int(largest),
    )


def apply_to_database(conn: psycopg.Connection[Any], settings: list[Recommendation]) -> list[str]:
    """Make the session-level settings the defaults of every new connection to this database
    (ALTER DATABASE … SET); returns the names applied."""
    applied = []
    database = conn.execute("SELECT current_database()").fetchone()
    assert database is not None
    with conn.transaction():
        for setting in settings:
            if setting.scope != "session":
                continue
            conn.execute(
                sql.SQL("ALTER DATABASE {} SET {} = {}").format(
                    sql.Identifier(database[0]), sql.Identifier(setting.name), sql.Literal(setting.value)
                )
            )
            applied.append(setting.name)
    return applied


def build_vector_index(
    conn: psycopg.Connection[Any],
    *,
    maintenance_work_mem: str,
    workers: int,
    rebuild: bool = False,
    m: int | None = None,
    ef_construction: int | None = None,
) -> float:
    """Build the HNSW index (or rebuild it with ``rebuild``) with the given build memory and parallel
    workers, set for this transaction only; returns the seconds it took. ``m`` / ``ef_construction``
    override pgvector's graph defaults (16 / 64): at 1M chunks 24 / 128 recalled 0.99 instead of 0.77
    at ef_search 100, for twice the build time (docs/benchmarks.md)."""
    started = time.perf_counter()
    with conn.transaction():
        conn.execute(sql.SQL("SET LOCAL maintenance_work_mem = {}").format(sql.Literal(maintenance_work_mem)))
        conn.execute(sql.SQL("SET LOCAL max_parallel_maintenance_workers = {}").format(sql.Literal(workers)))
        if rebuild:
            conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(sql.Identifier(HNSW_INDEX)))
        options = {"m": m, "ef_construction": ef_construction}
        chosen = [sql.SQL("{} = {}").format(sql.SQL(k), sql.Literal(int(v))) for k, v in options.items() if v]
        with_options = sql.SQL(" WITH ({})").format(sql.SQL(", ").join(chosen)) if chosen else sql.SQL("")
        build = sql.SQL(read_sql("queries/build_hnsw.sql").strip())
        conn.execute(sql.SQL("{}{}").format(build, with_options))
    return time.perf_counter() - started


def drop_vector_index(conn: psycopg.Connection[Any]) -> None:
    """Drop the HNSW index before a bulk load (searches rank exactly meanwhile; slower, never wrong)."""
    with conn.transaction():
        conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(sql.Identifier(HNSW_INDEX)))
