"""The store for millions of chunks: halfvec embeddings (migration 011 converts an older store and
finds the same passages), `finagent db tune` and `finagent db reindex` as a user runs them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector
from typer.testing import CliRunner

import finagent.db.search as search_module
from finagent.cli.main import app
from finagent.db import Database
from finagent.db.migrate import apply_migrations
from finagent.db.search import hybrid_search
from finagent.resources import read_sql
from finagent.retrieval import SearchFilters
from finagent.settings import Settings, get_settings
from tests.conftest import MODEL_CACHE

DIM = 384
TOPICS = ["revenue grew on strong iPhone demand", "capital expenditures for data centers",
          "share repurchases and dividends", "litigation and legal proceedings"]  # fmt: skip


@pytest.fixture()
def cli(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Any]]:
    """`finagent …` in this process against the test store (no model needed)."""
    monkeypatch.setenv("FINAGENT_DATABASE_URL", settings.database_url or "")
    monkeypatch.setenv("FINAGENT_HOME", str(settings.home))
    monkeypatch.setenv("FINAGENT_CACHE_DIR", str(MODEL_CACHE))
    monkeypatch.setenv("COLUMNS", "200")
    get_settings.cache_clear()
    runner = CliRunner()
    yield lambda *args: runner.invoke(app, list(args))
    get_settings.cache_clear()


def _unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)


def _old_store(url: str, rng: np.random.Generator) -> np.ndarray:
    """A store as the release before halfvec left it (embedding vector(384)), 60 chunks of two
    companies; returns their vectors (chunk id i + 1 = row i)."""
    vectors = _unit(rng.standard_normal((60, DIM)))
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        apply_migrations(conn, up_to=10)
        register_vector(conn)
        for doc, ticker in enumerate(("AAPL", "MSFT"), start=1):
            conn.execute(
                """INSERT INTO documents (id, kind, ticker, fiscal_year, title, source_uri, content_sha256,
                                          chunk_count) VALUES (%s, '10-K', %s, 2023, %s, %s, %s, 30)""",
                (doc, ticker, f"{ticker} 10-K", f"test://{ticker}", f"sha{doc}"),
            )
        with conn.cursor() as cur:
            cur.executemany(
                """INSERT INTO chunks (id, document_id, ordinal, ticker, kind, fiscal_year, char_start,
                                       char_end, text, embedding)
                   VALUES (%s, %s, %s, %s, '10-K', 2023, 0, 10, %s, %s)""",
                [
                    (
                        i + 1,
                        1 + i // 30,
                        i % 30,
                        "AAPL" if i < 30 else "MSFT",
                        f"{TOPICS[i % 4]} (passage {i})",
                        vectors[i],
                    )
                    for i in range(60)
                ],
            )
    return vectors


def _searches(
    conn: psycopg.Connection[Any], queries: list[tuple[str, np.ndarray]]
) -> list[list[tuple[int, float]]]:
    """Unfiltered (HNSW leg) and company-filtered (exact leg) hybrid searches: ids and scores."""
    out = []
    for text, vector in queries:
        for filters in (SearchFilters(), SearchFilters(tickers=["MSFT"])):
            hits = hybrid_search(conn, text, vector, filters, k=10)
            out.append([(h.chunk_id, h.fused_score) for h in hits])
    return out


def test_migration_converts_a_vector_store_and_finds_the_same_passages(
    db_url: str, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(3)
    vectors = _old_store(db_url, rng)
    targets = [7, 41, 55]
    queries = [(TOPICS[t % 4], _unit(vectors[t] + rng.normal(0, 0.02, DIM))) for t in targets]

    def nearest(conn: psycopg.Connection[Any], cast: str) -> list[list[int]]:
        return [
            [
                r[0]
                for r in conn.execute(
                    f"SELECT id FROM chunks ORDER BY embedding <=> %s::{cast} LIMIT 5", (q,)
                )
            ]
            for _, q in queries
        ]

    with psycopg.connect(db_url) as conn:
        register_vector(conn)
        before = nearest(conn, "vector")
    assert [n[0] for n in before] == [t + 1 for t in targets]

    # Hybrid search as the release before halfvec ran it: the same SQL without the halfvec casts,
    # on a connection with the pool's session settings.
    original = search_module.read_sql
    monkeypatch.setattr(search_module, "read_sql", lambda name: original(name).replace("::halfvec", ""))
    with psycopg.connect(db_url) as conn:
        register_vector(conn)
        conn.execute("SET hnsw.iterative_scan = 'relaxed_order'")
        conn.execute(f"SET hnsw.ef_search = {settings.hnsw_ef_search}")
        old_hits = _searches(conn, queries)
    monkeypatch.setattr(search_module, "read_sql", original)

    db = Database(db_url, settings).open()  # applies 011 (and every later migration)
    try:
        with db.connection() as conn:
            kind = conn.execute(
                "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                "WHERE attrelid = 'chunks'::regclass AND attname = 'embedding'"
            ).fetchone()
            index = conn.execute(
                "SELECT indexdef FROM pg_indexes WHERE indexname = 'chunks_embedding_hnsw'"
            ).fetchone()
            after = nearest(conn, "halfvec")
            new_hits = _searches(conn, queries)
        assert kind == ("halfvec(384)",)
        assert index is not None and "halfvec_cosine_ops" in index[0]
        assert after == before
        # Same passages in the same order; scores agree to float16 precision.
        assert [[i for i, _ in hits] for hits in new_hits] == [[i for i, _ in hits] for hits in old_hits]
        assert np.allclose(
            [s for h in new_hits for _, s in h], [s for h in old_hits for _, s in h], atol=0.002
        )
        assert all(len(hits) == 10 for hits in new_hits)
    finally:
        db.close()


def test_chunks_written_after_the_migration_are_halfvec(db: Database) -> None:
    """The ingest's COPY writes halfvec (pgvector's HalfVector) and the store reads them back."""
    from finagent.embeddings import get_embedder
    from finagent.finance.document_records import Block
    from finagent.ingest.pipeline import IngestPipeline
    from tests.helpers import item, make_doc

    doc = make_doc("AAPL", "10-K", 2023, None, [Block("Total net sales were 383,285 million dollars.")])
    report = IngestPipeline(db, get_embedder(db.settings), db.settings).run([item(doc)])
    assert report.chunks >= 1
    with db.connection() as conn:
        size = conn.execute("SELECT pg_column_size(embedding), embedding::text FROM chunks").fetchone()
    assert size is not None and size[0] == 8 + 2 * DIM  # half the 1,544 bytes of vector(384)


def test_db_tune_prints_settings_for_the_server_and_applies_session_ones(
    cli: Callable[..., Any], db_url: str
) -> None:
    result = cli("db", "tune", "--memory-gb", "64", "--cores", "16", "--apply")
    out = result.output
    assert result.exit_code == 0, out
    assert "store: 0 chunks" in out
    assert "Recommended for 64GB memory, 16 cores, 100 connections" in out
    assert "shared_buffers" in out and "16GB" in out and "48GB" in out  # a quarter; three quarters
    assert "-c shared_buffers=16GB" in out  # server-level: for postgresql.conf or the command line
    assert "applied to this database" in out
    with psycopg.connect(db_url) as conn:
        config = conn.execute(
            "SELECT setconfig FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase "
            "WHERE d.datname = current_database()"
        ).fetchone()
    assert config is not None
    assert "effective_cache_size=48GB" in config[0]
    assert "max_parallel_maintenance_workers=8" in config[0]
    assert not any(c.startswith("shared_buffers") for c in config[0])  # needs a restart: never SET


def test_db_reindex_drops_and_builds_the_vector_index(cli: Callable[..., Any], db_url: str) -> None:
    def has_index() -> bool:
        with psycopg.connect(db_url) as conn:
            return conn.execute("SELECT to_regclass('chunks_embedding_hnsw') IS NOT NULL").fetchone() == (
                True,
            )

    dropped = cli("db", "reindex", "--drop")
    assert dropped.exit_code == 0, dropped.output
    assert "vector index dropped" in dropped.output and not has_index()
    built = cli("db", "reindex")
    assert built.exit_code == 0, built.output
    assert "vector index built over 0 chunks" in built.output and has_index()
    assert "the vector index exists" in cli("db", "reindex").output
    rebuilt = cli("db", "reindex", "--rebuild", "--m", "24", "--ef-construction", "128")
    assert rebuilt.exit_code == 0, rebuilt.output
    with psycopg.connect(db_url) as conn:
        definition = conn.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'chunks_embedding_hnsw'")
        assert "m='24', ef_construction='128'" in definition.fetchone()[0]  # type: ignore[index]


def test_build_hnsw_sql_matches_the_migration() -> None:
    """`finagent db reindex` builds the very index migration 011 defines."""
    migration = read_sql("011_halfvec_store.sql")
    assert "USING hnsw (embedding halfvec_cosine_ops)" in read_sql("queries/build_hnsw.sql")
    assert "USING hnsw (embedding halfvec_cosine_ops)" in migration
