"""Chunks and facts partitioned by company (migration 012): an existing store is converted in place
and finds the same passages; a company's search and fact lookup read one partition; the former
foreign key's behaviour (a deleted chunk unlinks its facts) holds; re-filing a company moves its rows."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector
from psycopg import sql

from finagent.db import Database
from finagent.db.companies import refile_listed_companies
from finagent.db.facts import load_facts
from finagent.db.migrate import apply_migrations
from finagent.db.search import build_search, hybrid_search
from finagent.db.tuning import build_vector_index, store_size
from finagent.resources import read_sql
from finagent.retrieval import SearchFilters
from finagent.settings import Settings

DIM = 384
TOPICS = ["total net sales grew on iPhone demand", "capital expenditures for data centers",
          "share repurchases and dividends", "litigation and legal proceedings"]  # fmt: skip
# (document id, ticker, kind): news with no company has a NULL ticker; CIK0000000042 is a company
# stored under its CIK symbol until SEC's list names its ticker.
DOCUMENTS = [(1, "AAPL", "10-K"), (2, "MSFT", "10-K"), (3, None, "news"), (4, "CIK0000000042", "10-K")]
PER_DOCUMENT = 20
# select_facts.sql's parameters: AAPL's revenue, as the agent looks a figure up.
FACT_LOOKUP: dict[str, Any] = {
    "ticker": "AAPL",
    "concepts": ["Revenues"],
    "durations": None,
    "reported_only": False,
    "all_dimensions": False,
}
PARTITION = re.compile(r"\b(chunks|facts)_p(\d\d)\b")


def _unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)


def _store_before_partitions(url: str, rng: np.random.Generator) -> np.ndarray:
    """A store as the release before partitioning left it (migrations up to 011): 80 chunks of four
    documents and a fact per AAPL/CIK chunk pointing at it. Returns the chunk vectors (id i + 1 = row i)."""
    vectors = _unit(rng.standard_normal((len(DOCUMENTS) * PER_DOCUMENT, DIM)))
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        apply_migrations(conn, up_to=11)
        register_vector(conn)
        for doc, ticker, kind in DOCUMENTS:
            conn.execute(
                """INSERT INTO documents (id, kind, ticker, fiscal_year, title, source_uri, content_sha256,
                                          chunk_count) VALUES (%s, %s, %s, 2023, %s, %s, %s, %s)""",
                (doc, kind, ticker, f"{ticker} {kind}", f"test://{doc}", f"sha{doc}", PER_DOCUMENT),
            )
        conn.execute("SELECT setval('documents_id_seq', %s)", (len(DOCUMENTS),))
        rows = []
        for i in range(len(vectors)):
            doc, ticker, kind = DOCUMENTS[i // PER_DOCUMENT]
            text = f"{TOPICS[i % 4]} (passage {i})"
            rows.append((doc, i % PER_DOCUMENT, ticker, kind, text, vectors[i].astype(np.float16)))
        with conn.cursor() as cur:
            cur.executemany(
                """INSERT INTO chunks (document_id, ordinal, ticker, kind, fiscal_year, char_start, char_end,
                                       text, embedding)
                   VALUES (%s, %s, %s, %s, 2023, 0, 10, %s, %s::halfvec)""",
                rows,
            )
            cur.execute(
                """INSERT INTO facts (document_id, ticker, filing_key, concept, value, period_end, duration,
                                      fiscal_year, chunk_id)
                   SELECT document_id, ticker, ticker || '|10-K|2023-12-31', 'Revenues', id, '2023-12-31',
                          'year', 2023, id
                   FROM chunks WHERE ticker IN ('AAPL', 'CIK0000000042') ORDER BY id"""
            )
    return vectors


def _searches(conn: psycopg.Connection[Any], queries: list[tuple[str, np.ndarray]]) -> list[Any]:
    """Unfiltered (HNSW leg), one company (exact leg) and no-company news searches: ids and scores."""
    out = []
    for text, vector in queries:
        for filters in (
            SearchFilters(),
            SearchFilters(tickers=["MSFT"]),
            SearchFilters(tickers=["AAPL"], fiscal_years=[2023]),
            SearchFilters(kinds=["news"]),
        ):
            hits = hybrid_search(conn, text, vector, filters, k=10)
            out.append([(h.chunk_id, h.fused_score, h.vector_score, h.keyword_score) for h in hits])
    return out


def _partitions_read(
    conn: psycopg.Connection[Any], query: sql.Composable, params: dict[str, Any]
) -> set[str]:
    plan = conn.execute(sql.SQL("EXPLAIN (COSTS OFF) {}").format(query), params).fetchall()
    return {f"{m.group(1)}_p{m.group(2)}" for (line,) in plan for m in PARTITION.finditer(line)}


def _partition_of(conn: psycopg.Connection[Any], table: str, ticker: str) -> str:
    row = conn.execute(
        sql.SQL("SELECT DISTINCT tableoid::regclass::text FROM {} WHERE ticker = %s").format(
            sql.Identifier(table)
        ),
        (ticker,),
    ).fetchall()
    assert len(row) == 1
    return str(row[0][0])


@pytest.fixture()
def converted(db_url: str, settings: Settings) -> Any:
    """The old store, searched before the migration, then opened (migration 012 applied)."""
    rng = np.random.default_rng(5)
    vectors = _store_before_partitions(db_url, rng)
    targets = [3, 27, 45, 66]
    queries = [(TOPICS[t % 4], _unit(vectors[t] + rng.normal(0, 0.02, DIM))) for t in targets]
    with psycopg.connect(db_url) as conn:
        register_vector(conn)
        conn.execute("SET hnsw.iterative_scan = 'relaxed_order'")
        conn.execute(f"SET hnsw.ef_search = {settings.hnsw_ef_search}")
        before = _searches(conn, queries)
        links = conn.execute("SELECT id, chunk_id FROM facts ORDER BY id").fetchall()
    db = Database(db_url, settings).open()
    yield db, queries, before, links
    db.close()


def test_the_migration_partitions_chunks_and_facts_and_search_finds_the_same_passages(converted: Any) -> None:
    db, queries, before, links = converted
    with db.connection() as conn:
        parts = dict(
            conn.execute(
                """SELECT c.relname, count(i.inhrelid) FROM pg_partitioned_table p
                   JOIN pg_class c ON c.oid = p.partrelid JOIN pg_inherits i ON i.inhparent = c.oid
                   GROUP BY c.relname"""
            ).fetchall()
        )
        after = _searches(conn, queries)
        kept_links = conn.execute("SELECT id, chunk_id FROM facts ORDER BY id").fetchall()
        ids = conn.execute("SELECT min(id), max(id), count(*) FROM chunks").fetchone()
        indexes = {
            name: definition
            for name, definition in conn.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('chunks', 'facts')"
            )
        }
        # A new chunk continues the id sequence (ids stay unique).
        new_id = conn.execute(
            """INSERT INTO chunks (document_id, ordinal, ticker, kind, char_start, char_end, text, embedding)
               SELECT 1, 99, 'AAPL', '10-K', 0, 1, 'new', embedding FROM chunks WHERE id = 1 RETURNING id"""
        ).fetchone()
    assert parts == {"chunks": 16, "facts": 16}
    assert ids == (1, 80, 80)
    assert new_id == (81,)
    assert kept_links == links and all(chunk for _, chunk in links)
    # Same passages, same order, same scores: partitioning changes where rows live, not what is found.
    assert after == before
    assert all(len(hits) == 10 for hits in after)
    assert "USING hnsw (embedding halfvec_cosine_ops)" in indexes["chunks_embedding_hnsw"]
    assert "INCLUDE (id, embedding)" in indexes["chunks_filter_idx"]
    assert "WHERE (flagged_reason IS NOT NULL)" in indexes["chunks_flagged_idx"]
    assert {"chunks_tsv_gin", "chunks_kind_idx", "facts_lookup_idx", "facts_filing_idx", "facts_pkey"} <= set(
        indexes
    )


def test_a_company_search_and_fact_lookup_read_one_partition(converted: Any) -> None:
    db, queries, _, _ = converted
    text, vector = queries[0]
    with db.connection() as conn:
        company = build_search(text, vector, SearchFilters(tickers=["MSFT"], fiscal_years=[2023]), k=10)
        everyone = build_search(text, vector, SearchFilters(fiscal_years=[2023]), k=10)
        news = build_search(text, vector, SearchFilters(kinds=["news"]), k=10)
        read_company = _partitions_read(conn, company.query, company.params)
        read_everyone = _partitions_read(conn, everyone.query, everyone.params)
        read_news = _partitions_read(conn, news.query, news.params)
        msft = _partition_of(conn, "chunks", "MSFT")
        facts_read = _partitions_read(
            conn,
            sql.SQL(read_sql("queries/select_facts.sql")),
            FACT_LOOKUP,
        )
        aapl_facts = _partition_of(conn, "facts", "AAPL")
        found = load_facts(conn, "AAPL", ["Revenues"])
    assert read_company == {msft}
    assert read_everyone == {f"chunks_p{i:02d}" for i in range(16)}  # a cross-company search reads all 16
    assert len(read_news) == 16  # a kind filter does not name a company
    assert facts_read == {aapl_facts}
    assert [(f.ticker, f.chunk_id) for f in found] == [("AAPL", 1)]  # one filing's fact, read once


def _scans_by_partition(conn: psycopg.Connection[Any]) -> dict[str, int]:
    conn.execute("SELECT pg_stat_force_next_flush()")
    conn.commit()  # a new transaction reads fresh statistics
    rows = conn.execute(
        "SELECT relname, coalesce(seq_scan, 0) + coalesce(idx_scan, 0) FROM pg_stat_user_tables "
        "WHERE relname LIKE 'chunks_p%'"
    ).fetchall()
    conn.commit()
    return {str(name): int(scans) for name, scans in rows}


def test_a_company_search_run_again_and_again_still_reads_one_partition(converted: Any) -> None:
    """psycopg prepares a statement run five times; its generic plan could not prune by the tickers
    array, so the pool plans every run with its values."""
    db, queries, _, _ = converted
    text, vector = queries[1]
    with db.connection() as conn:
        msft = _partition_of(conn, "chunks", "MSFT")
        before = _scans_by_partition(conn)
        for _ in range(12):
            hits = hybrid_search(conn, text, vector, SearchFilters(tickers=["MSFT"]), k=10)
            assert {h.ticker for h in hits} == {"MSFT"}
        after = _scans_by_partition(conn)
    assert {name for name in after if after[name] > before.get(name, 0)} == {msft}


def test_a_deleted_chunk_unlinks_its_facts_and_a_fact_must_point_at_a_stored_chunk(converted: Any) -> None:
    db, _, _, _ = converted
    with db.connection() as conn:
        conn.execute("DELETE FROM chunks WHERE id IN (1, 2)")
        conn.execute("DELETE FROM documents WHERE id = 4")  # its chunks and facts go with it
        conn.execute("UPDATE facts SET chunk_id = 21 WHERE id = 3")  # a chunk of another company's
        links = dict(conn.execute("SELECT id, chunk_id FROM facts").fetchall())
        conn.commit()
        with pytest.raises(psycopg.errors.ForeignKeyViolation, match="chunk 9999, which is not stored"):
            conn.execute("UPDATE facts SET chunk_id = 9999 WHERE id = 3")
        conn.rollback()
        with pytest.raises(psycopg.errors.UniqueViolation):  # (document, ordinal) stays a key
            conn.execute(
                """INSERT INTO chunks (document_id, ordinal, ticker, kind, char_start, char_end, text,
                                       embedding)
                   SELECT document_id, ordinal, ticker, kind, 0, 1, 'again', embedding
                   FROM chunks WHERE id = 30"""
            )
        conn.rollback()
    assert len(links) == PER_DOCUMENT  # AAPL's facts only: the CIK company's went with its document
    assert links[1] is None and links[2] is None
    assert links[3] == 21 and all(links[i] == i for i in range(4, PER_DOCUMENT + 1))


def test_refiling_a_company_moves_its_chunks_and_facts_to_its_tickers_partition(converted: Any) -> None:
    db, _, _, _ = converted
    with db.connection() as conn:
        before = _partition_of(conn, "chunks", "CIK0000000042")
        conn.execute(
            "INSERT INTO listed_companies (ticker, cik, name, name_key) "
            "VALUES ('ZZZQ', '0000000042', 'Z', 'z')"
        )
        conn.execute(
            "INSERT INTO companies (ticker, cik) VALUES ('CIK0000000042', '0000000042') "
            "ON CONFLICT DO NOTHING"
        )
        moved = refile_listed_companies(conn)
        after = _partition_of(conn, "chunks", "ZZZQ")
        facts = conn.execute(
            """SELECT f.chunk_id = c.id, f.filing_key FROM facts f LEFT JOIN chunks c ON c.id = f.chunk_id
               WHERE f.ticker = 'ZZZQ'"""
        ).fetchall()
        left = conn.execute("SELECT count(*) FROM chunks WHERE ticker = 'CIK0000000042'").fetchone()
        chunks = conn.execute("SELECT count(*) FROM chunks WHERE ticker = 'ZZZQ'").fetchone()
    assert [m[:2] for m in moved] == [("CIK0000000042", "ZZZQ")]
    assert before != after  # the rows changed partition
    assert chunks == (PER_DOCUMENT,) and left == (0,)
    assert len(facts) == PER_DOCUMENT
    assert all(linked and key == "ZZZQ|10-K|2023-12-31" for linked, key in facts)  # links kept


def test_the_vector_index_is_rebuilt_on_every_partition_and_sized_over_them(converted: Any) -> None:
    db, queries, before, _ = converted
    with db.connection() as conn:
        seconds = build_vector_index(conn, maintenance_work_mem="64MB", workers=0, rebuild=True)
        leaves = conn.execute(
            "SELECT count(*) FROM pg_partition_tree('chunks_embedding_hnsw') WHERE isleaf"
        ).fetchone()
        size = store_size(conn)
        after = _searches(conn, queries)
    assert seconds >= 0 and leaves == (16,)
    assert size.chunks == 80 and size.facts == 40 and size.has_hnsw
    assert size.hnsw_bytes >= 16 * 8192  # every partition's graph, not the empty parent's 0 bytes
    assert size.chunk_bytes > size.hnsw_bytes
    assert size.largest_partition == PER_DOCUMENT
    assert after == before
