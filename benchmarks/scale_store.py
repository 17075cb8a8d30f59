"""A generated store of millions of chunks: search latency, ANN recall, index build time, bytes.

    python benchmarks/scale_store.py                              # 100K, then 1M chunks (~1 h on 2 cores)
    python benchmarks/scale_store.py --chunks 20000 --small 5000  # CI-size smoke run (~1 min)
    python benchmarks/scale_store.py --migration --chunks 100000  # time migration 012 converting a store

The store is the real schema (every migration applied: chunks hash-partitioned by company into 16
partitions) in a throwaway embedded server, loaded with binary COPY, then indexed once (the bulk-load
path: GIN, filter and HNSW indexes built after the load, one per partition, HNSW with the build memory
and workers `finagent db tune` recommends). It is deleted at the end.

Generated like a real corpus: 500 companies of Zipf-like sizes (weight 1/rank^0.5), each with 10-Ks
and 10-Qs of fiscal years 2014-2023 and an even share of chunks per filing; 2,000 gaussian topic
centres on the unit sphere, each company writing mostly about 20 topics of its own; a chunk vector is
its topic centre plus noise (cosine ~0.7 to the centre, as MiniLM passages of one topic are); chunk
text is a real FinanceBench page from ../shared (real lengths, real tsvector). The small store is the
first documents of the large one in the same random order (each company with ~1/10 of its filings).

Measured at both sizes through db/search.py (build_search / run_search, the agent's code path): hybrid
sub-search p50/p95 filtered by company and fiscal period (one filing: the agent's fan-out), by company
and year, by company only (exact vector leg), by year and kind across companies (HNSW leg with iterative
scan), unfiltered; recall@10 of the HNSW ranking against exact search (numpy over the stored float16
vectors) unfiltered and year-filtered; index build times; bytes per chunk of halfvec vs vector. At the
small size, the partitions a company's search touches, and an unpartitioned copy of the vector columns
(one table, one HNSW graph) against the partitioned store: a company's exact vector leg and a cross-
company HNSW search over 16 graphs.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import shutil
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from common import RESULTS, SHARED_DATA, embedded_server, fresh_database, machine, open_db, summary_ms
from pgvector import HalfVector
from pgvector.psycopg import register_vector

from finagent.db.search import build_search, run_search
from finagent.db.tuning import (
    build_vector_index,
    drop_vector_index,
    machine_cores,
    machine_memory,
    recommend,
    store_size,
)
from finagent.retrieval import SearchFilters

DIM = 384
COMPANIES = 500
TOPICS = 2_000
TOPICS_PER_COMPANY = 20
YEARS = list(range(2014, 2024))
NOISE = 0.052  # per-dimension sigma: cosine to the topic centre ~0.7
PARTITIONS = 16  # sql/012_partition_by_company.sql
QUERY_WORDS = [
    "capital expenditures purchases of property plant and equipment",
    "total current assets total current liabilities",
    "operating income revenue",
    "dividends paid per share",
    "inventory cost of sales",
    "net income attributable",
    "free cash flow operating activities",
    "restructuring charges",
    "effective tax rate",
    "long-term debt maturities",
    "segment revenue by geography",
    "goodwill impairment",
    "share repurchases",
    "research and development expense",
    "risk factors competition",
    "legal proceedings litigation",
]
# HNSW ranking (iterative scan on, as the pool sets it), re-sorted exactly as the vector leg's fusion does.
ANN_SQL = """SELECT id FROM (SELECT id, embedding <=> %s::halfvec AS d FROM chunks WHERE {where}
                              ORDER BY embedding <=> %s::halfvec LIMIT {limit}) a ORDER BY d, id"""
SECONDARY_INDEXES = {
    "chunks_tsv_gin": "CREATE INDEX chunks_tsv_gin ON chunks USING gin (tsv)",
    "chunks_filter_idx": "CREATE INDEX chunks_filter_idx ON chunks "
    "(ticker, fiscal_year, fiscal_quarter, kind) INCLUDE (id, embedding)",
    "chunks_kind_idx": "CREATE INDEX chunks_kind_idx ON chunks (kind, fiscal_year)",
}


# -- generation -------------------------------------------------------------------------------------
def tickers(n: int) -> list[str]:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return [f"Z{letters[i // 676 % 26]}{letters[i // 26 % 26]}{letters[i % 26]}" for i in range(n)]


def page_texts(limit: int, rng: np.random.Generator) -> list[str]:
    """Real page texts (FinanceBench), non-empty, a random sample of ``limit``."""
    pages = SHARED_DATA / "financebench" / "pages.jsonl.gz"
    if not pages.exists():
        sys.exit(f"needs {pages} (../shared beside the repo)")
    texts = []
    with gzip.open(pages, "rt", encoding="utf-8") as handle:
        for line in handle:
            text = json.loads(line)["text"].replace("\x00", "").strip()
            if len(text) >= 40:
                texts.append(text)
    rng.shuffle(texts)  # type: ignore[arg-type]
    return texts[:limit]


class Corpus:
    """The generated store's documents in load order; chunk vectors drawn batch by batch."""

    def __init__(self, chunks: int, seed: int = 7) -> None:
        self.rng = np.random.default_rng(seed)
        self.centres = self._unit(self.rng.standard_normal((TOPICS, DIM)).astype(np.float32))
        self.tickers = tickers(COMPANIES)
        weights = 1.0 / np.arange(1, COMPANIES + 1) ** 0.5
        share = weights / weights.sum()
        self.topics = self.rng.integers(0, TOPICS, size=(COMPANIES, TOPICS_PER_COMPANY))
        # (company, year, quarter (None = 10-K), chunks) per filing, 40 filings per company.
        docs = []
        for company in range(COMPANIES):
            per_doc = max(1, round(chunks * share[company] / (len(YEARS) * 4)))
            for year in YEARS:
                for quarter in (None, 1, 2, 3):
                    docs.append((company, year, quarter, per_doc))
        order = self.rng.permutation(len(docs))
        self.documents = [docs[i] for i in order]

    @staticmethod
    def _unit(x: np.ndarray) -> np.ndarray:
        return x / np.linalg.norm(x, axis=1, keepdims=True)

    def vectors(self, company: int, n: int) -> np.ndarray:
        """``n`` chunk vectors of ``company``: 70 % on its own topics, 30 % on any topic."""
        own = self.topics[company][self.rng.integers(0, TOPICS_PER_COMPANY, n)]
        anywhere = self.rng.integers(0, TOPICS, n)
        topic = np.where(self.rng.random(n) < 0.7, own, anywhere)
        noisy = self.centres[topic] + self.rng.normal(0, NOISE, (n, DIM)).astype(np.float32)
        return self._unit(noisy).astype(np.float16)

    def queries(self, n: int, seed: int = 11) -> list[tuple[str, np.ndarray, int]]:
        """(query text, vector, company) for ``n`` questions about a company's own topics."""
        rng = np.random.default_rng(seed)
        out = []
        for i in range(n):
            company = int(rng.integers(0, COMPANIES))
            centre = self.centres[self.topics[company][rng.integers(0, TOPICS_PER_COMPANY)]]
            vector = centre + rng.normal(0, NOISE, DIM).astype(np.float32)
            out.append((QUERY_WORDS[i % len(QUERY_WORDS)], vector / np.linalg.norm(vector), company))
        return out


# -- loading ----------------------------------------------------------------------------------------
def load(
    conn: psycopg.Connection[Any], corpus: Corpus, texts: list[str], start: int, stop: int, vectors: list[Any]
) -> int:
    """COPY documents[start:stop] and their chunks (binary COPY; halfvec sent as pgvector binary)."""
    chunk_id = sum(d[3] for d in corpus.documents[:start]) + 1
    rows = 0
    with conn.transaction():
        with conn.cursor().copy(
            "COPY documents (id, kind, ticker, fiscal_year, fiscal_quarter, period_end, title, source_uri, "
            "content_sha256, chunk_count) FROM STDIN"
        ) as copy:
            for doc_id in range(start, stop):
                company, year, quarter, n = corpus.documents[doc_id]
                ticker = corpus.tickers[company]
                kind = "10-K" if quarter is None else "10-Q"
                copy.write_row(
                    (
                        doc_id + 1,
                        kind,
                        ticker,
                        year,
                        quarter,
                        date(year, 3 * (quarter or 4), 28),
                        f"{ticker} {kind} {year}",
                        f"generated://{ticker}/{year}/{quarter}",
                        f"sha-{doc_id}",
                        n,
                    )
                )
        with conn.cursor().copy(
            "COPY chunks (id, document_id, ordinal, ticker, kind, fiscal_year, fiscal_quarter, period_end, "
            "page, char_start, char_end, text, embedding) FROM STDIN WITH (FORMAT BINARY)"
        ) as copy:
            copy.set_types(
                [
                    *("bigint", "bigint", "integer", "text", "text", "integer", "smallint", "date"),
                    *("integer", "integer", "integer", "text", "halfvec"),
                ]
            )
            for doc_id in range(start, stop):
                company, year, quarter, n = corpus.documents[doc_id]
                ticker = corpus.tickers[company]
                kind = "10-K" if quarter is None else "10-Q"
                block = corpus.vectors(company, n)
                vectors.append(block)
                picks = corpus.rng.integers(0, len(texts), n)
                period_end = date(year, 3 * (quarter or 4), 28)
                for ordinal in range(n):
                    text = texts[picks[ordinal]]
                    copy.write_row(
                        (
                            chunk_id,
                            doc_id + 1,
                            ordinal,
                            ticker,
                            kind,
                            year,
                            quarter,
                            period_end,
                            ordinal,
                            0,
                            len(text),
                            text,
                            HalfVector(block[ordinal]),
                        )
                    )
                    chunk_id += 1
                    rows += 1
    conn.execute("SELECT setval('chunks_id_seq', %s)", (chunk_id,))
    conn.execute("SELECT setval('documents_id_seq', %s)", (stop + 1,))
    conn.commit()
    return rows


def drop_secondary(conn: psycopg.Connection[Any]) -> None:
    drop_vector_index(conn)
    for name in SECONDARY_INDEXES:
        conn.execute(f"DROP INDEX IF EXISTS {name}")
    conn.commit()


def build_indexes(conn: psycopg.Connection[Any], chunks: int) -> dict[str, float]:
    wanted = {s.name: s.value for s in recommend(machine_memory(), machine_cores(), chunks)}
    timings = {}
    for name, ddl in SECONDARY_INDEXES.items():
        started = time.perf_counter()
        with conn.transaction():
            conn.execute(f"SET LOCAL maintenance_work_mem = '{wanted['maintenance_work_mem']}'")
            conn.execute(ddl)
        timings[name] = round(time.perf_counter() - started, 1)
    timings["chunks_embedding_hnsw (halfvec)"] = round(
        build_vector_index(
            conn,
            maintenance_work_mem=wanted["maintenance_work_mem"],
            workers=int(wanted["max_parallel_maintenance_workers"]),
        ),
        1,
    )
    started = time.perf_counter()
    vacuum(conn, "chunks", "documents")
    timings["vacuum_analyze"] = round(time.perf_counter() - started, 1)
    timings["maintenance_work_mem"] = wanted["maintenance_work_mem"]  # type: ignore[assignment]
    timings["parallel_workers"] = int(wanted["max_parallel_maintenance_workers"])
    return timings


def vacuum(conn: psycopg.Connection[Any], *tables: str) -> None:
    """VACUUM ANALYZE (outside a transaction: the pooled connection is switched to autocommit)."""
    conn.commit()
    conn.autocommit = True
    try:
        for table in tables:
            conn.execute(f"VACUUM ANALYZE {table}")
    finally:
        conn.autocommit = False


def top10(scores: np.ndarray) -> np.ndarray:
    """Chunk ids (1-based load order) of the 10 best scores per row."""
    part = np.argpartition(-scores, 10, axis=1)[:, :10]
    order = np.argsort(-np.take_along_axis(scores, part, axis=1), axis=1)
    return np.take_along_axis(part, order, axis=1) + 1


# -- measuring --------------------------------------------------------------------------------------
def held_periods(corpus: Corpus, loaded: int) -> dict[int, list[tuple[int, int | None]]]:
    """The (fiscal year, quarter or None for the 10-K) each company holds in the store of the first
    ``loaded`` documents."""
    held: dict[int, set[tuple[int, int | None]]] = {}
    for company, year, quarter, _ in corpus.documents[:loaded]:
        held.setdefault(company, set()).add((year, quarter))
    return {c: sorted(periods, key=lambda p: (p[0], p[1] or 0)) for c, periods in held.items()}


def _one_filing(ticker: str, period: tuple[int, int | None]) -> SearchFilters:
    """The agent's sub-search for one company and one fiscal period: a quarter's 10-Q, a year's 10-K."""
    year, quarter = period
    if quarter is None:
        return SearchFilters(tickers=[ticker], fiscal_years=[year], annual_only=True)
    return SearchFilters(tickers=[ticker], fiscal_years=[year], fiscal_quarters=[quarter])


def latencies(
    db: Any,
    corpus: Corpus,
    queries: list[tuple[str, np.ndarray, int]],
    held: dict[int, list[tuple[int, int | None]]],
    unfiltered: bool = True,
) -> dict[str, Any]:
    """Hybrid sub-search p50/p95 through db/search.py, per filter shape. Like the agent, which resolves
    the periods a company holds before it searches, a company's searches ask a period it holds (in
    the small store each company holds only some of its filings) and only companies held are searched.
    "company_and_period" is the agent's fan-out: one filing's chunks, whatever the store's size."""
    shapes = {
        "company_and_period": lambda c, i: _one_filing(corpus.tickers[c], held[c][i % len(held[c])]),
        "company_and_year": lambda c, i: SearchFilters(
            tickers=[corpus.tickers[c]], fiscal_years=[held[c][i % len(held[c])][0]]
        ),
        "company": lambda c, i: SearchFilters(tickers=[corpus.tickers[c]]),
        "cross_company_year_and_kind": lambda c, i: SearchFilters(
            fiscal_years=[YEARS[i % 10]], kinds=["10-K"]
        ),
    }
    if unfiltered:
        shapes["unfiltered"] = lambda c, i: SearchFilters()
    queries = [q for q in queries if q[2] in held]
    out = {}
    with db.connection() as conn:
        for shape, make in shapes.items():
            # The keyword leg ranks every matching row: unfiltered, that is most of the store.
            subset = queries[: 20 if shape == "unfiltered" else 100 if shape.startswith("cross") else None]
            requests = [build_search(q, v, make(c, i), k=15) for i, (q, v, c) in enumerate(subset)]
            for request in requests[:20]:  # warm plans and caches
                run_search(conn, request)
            times, hits = [], []
            for request in requests:
                started = time.perf_counter()
                found = run_search(conn, request)
                times.append(time.perf_counter() - started)
                hits.append(len(found))
            out[shape] = summary_ms(times) | {"mean_hits": round(float(np.mean(hits)), 1)}
            print(f"    {shape}: {out[shape]}", flush=True)
    return out


def recall(
    db: Any, vectors: np.ndarray, corpus: Corpus, queries: list[tuple[str, np.ndarray, int]], ef: list[int]
) -> dict[str, Any]:
    """Recall@10 of the HNSW ranking (iterative scan on) against exact search over the stored vectors."""
    stored = vectors.astype(np.float32)
    years = np.repeat(
        [corpus.documents[d][1] for d in range(len(corpus.documents))],
        [corpus.documents[d][3] for d in range(len(corpus.documents))],
    )[: len(stored)]
    qv = np.stack([v for _, v, _ in queries]).astype(np.float16).astype(np.float32)
    scores = qv @ stored.T
    exact = top10(scores)
    year_of = [YEARS[i % 10] for i in range(len(queries))]
    scores[years[None, :] != np.array(year_of)[:, None]] = -np.inf
    exact_year = top10(scores)
    del scores
    out: dict[str, Any] = {}
    with db.connection() as conn:
        for ef_search in ef:
            conn.execute(f"SET hnsw.ef_search = {ef_search}")
            found, leg, found_year, times = [], [], [], []
            for i, (_, v, _) in enumerate(queries):
                started = time.perf_counter()
                rows = conn.execute(ANN_SQL.format(where="TRUE", limit=10), (v, v)).fetchall()
                times.append(time.perf_counter() - started)
                found.append(len({r[0] for r in rows} & set(exact[i].tolist())) / 10)
                # The vector leg asks for 60 candidates and ranks them: its top 10.
                rows = conn.execute(ANN_SQL.format(where="TRUE", limit=60), (v, v)).fetchall()[:10]
                leg.append(len({r[0] for r in rows} & set(exact[i].tolist())) / 10)
                where = f"fiscal_year = {int(year_of[i])}"
                rows = conn.execute(ANN_SQL.format(where=where, limit=60), (v, v)).fetchall()[:10]
                found_year.append(len({r[0] for r in rows} & set(exact_year[i].tolist())) / 10)
            out[f"ef_search_{ef_search}"] = {
                "unfiltered_recall_at_10": round(float(np.mean(found)), 4),
                "unfiltered_recall_at_10_of_60_candidates": round(float(np.mean(leg)), 4),
                "year_filtered_recall_at_10_of_60_candidates": round(float(np.mean(found_year)), 4),
                "unfiltered_ann_ms": summary_ms(times),
            }
            print(f"    recall ef_search={ef_search}: {out[f'ef_search_{ef_search}']}", flush=True)
        conn.execute(f"SET hnsw.ef_search = {db.settings.hnsw_ef_search}")
    return out


def relation_bytes(conn: psycopg.Connection[Any], name: str, *, total: bool = False) -> int:
    """Bytes of a table or index summed over its partitions (a partitioned parent holds none itself);
    ``total``: with its TOAST and indexes."""
    size = "pg_total_relation_size" if total else "pg_relation_size"
    row = conn.execute(  # pg_partition_tree lists nothing for a table that is not partitioned
        f"""SELECT coalesce((SELECT sum({size}(relid)) FROM pg_partition_tree(%(name)s::regclass)
                             WHERE isleaf), {size}(%(name)s::regclass))""",
        {"name": name},
    ).fetchone()
    assert row is not None
    return int(row[0])


def sizes(conn: psycopg.Connection[Any], chunks: int) -> dict[str, Any]:
    row = conn.execute(
        """SELECT avg(pg_column_size(embedding)), avg(pg_column_size(embedding::vector(384)))
           FROM (SELECT embedding FROM chunks TABLESAMPLE SYSTEM (1) LIMIT 5000) s"""
    ).fetchone()
    assert row is not None
    indexes = ("chunks_embedding_hnsw", "chunks_filter_idx", "chunks_tsv_gin")
    rel = {name: relation_bytes(conn, name) for name in indexes}
    total = relation_bytes(conn, "chunks", total=True)
    return {
        "halfvec_value_bytes": round(float(row[0]), 1),
        "vector_value_bytes": round(float(row[1]), 1),
        "hnsw_index_bytes_per_chunk": round(rel["chunks_embedding_hnsw"] / chunks, 1),
        "filter_index_bytes_per_chunk": round(rel["chunks_filter_idx"] / chunks, 1),
        "chunks_total_bytes_per_chunk": round(total / chunks, 1),
        "chunks_total_gb": round(total / 1024**3, 2),
        "database_gb": round(
            int(conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]) / 1024**3,
            2,  # type: ignore[index]
        ),
    }


def vector_index_comparison(conn: psycopg.Connection[Any], chunks: int) -> dict[str, Any]:
    """The same HNSW index over vector(384) (an expression index on the cast): build time and bytes."""
    wanted = {s.name: s.value for s in recommend(machine_memory(), machine_cores(), chunks)}
    started = time.perf_counter()
    with conn.transaction():
        conn.execute(f"SET LOCAL maintenance_work_mem = '{wanted['maintenance_work_mem']}'")
        conn.execute(
            f"SET LOCAL max_parallel_maintenance_workers = {wanted['max_parallel_maintenance_workers']}"
        )
        conn.execute(
            "CREATE INDEX bench_vector_hnsw ON chunks USING hnsw ((embedding::vector(384)) vector_cosine_ops)"
        )
    seconds = time.perf_counter() - started
    size = relation_bytes(conn, "bench_vector_hnsw")
    conn.execute("DROP INDEX bench_vector_hnsw")
    conn.commit()
    return {"vector_hnsw_build_s": round(seconds, 1), "vector_hnsw_bytes_per_chunk": round(size / chunks, 1)}


def partitioned(
    conn: psycopg.Connection[Any], corpus: Corpus, queries: list[tuple[str, np.ndarray, int]], chunks: int
) -> dict[str, Any]:
    """The store is hash-partitioned by ticker (sql/012): the partitions a company's search touches,
    and the same vector columns as one unpartitioned table (one HNSW graph) to compare against."""
    wanted = {s.name: s.value for s in recommend(machine_memory(), machine_cores(), chunks)}
    conn.execute("DROP TABLE IF EXISTS bench_chunks_flat")
    conn.execute(
        """CREATE TABLE bench_chunks_flat (
               id bigint PRIMARY KEY, ticker text NOT NULL, fiscal_year integer, fiscal_quarter smallint,
               kind text NOT NULL, superseded boolean NOT NULL, flagged_reason text,
               embedding halfvec(384) NOT NULL)"""
    )
    conn.execute(
        """INSERT INTO bench_chunks_flat
           SELECT id, ticker, fiscal_year, fiscal_quarter, kind, superseded, flagged_reason, embedding
           FROM chunks"""
    )
    conn.commit()
    started = time.perf_counter()
    with conn.transaction():
        conn.execute(f"SET LOCAL maintenance_work_mem = '{wanted['maintenance_work_mem']}'")
        conn.execute(
            "CREATE INDEX ON bench_chunks_flat (ticker, fiscal_year, fiscal_quarter, kind) "
            "INCLUDE (id, embedding)"
        )
        conn.execute(
            f"SET LOCAL max_parallel_maintenance_workers = {wanted['max_parallel_maintenance_workers']}"
        )
        conn.execute("CREATE INDEX ON bench_chunks_flat USING hnsw (embedding halfvec_cosine_ops)")
    build = time.perf_counter() - started
    vacuum(conn, "bench_chunks_flat")
    exact_sql = """SELECT f.id FROM (
                       SELECT c.id, c.embedding <=> %(v)s::halfvec AS distance FROM {table} c
                       WHERE NOT c.superseded AND c.flagged_reason IS NULL AND c.ticker = ANY(%(t)s)
                       OFFSET 0) f
                   ORDER BY f.distance, f.id LIMIT 60"""
    ann_sql = """SELECT c.id FROM {table} c
                 WHERE NOT c.superseded AND c.flagged_reason IS NULL AND c.fiscal_year = ANY(%(y)s)
                 ORDER BY c.embedding <=> %(v)s::halfvec LIMIT 60"""
    plan = conn.execute(
        "EXPLAIN (COSTS OFF) " + exact_sql.format(table="chunks"),
        {"v": queries[0][1], "t": [corpus.tickers[queries[0][2]]]},
    ).fetchall()
    touched = len({m for (line,) in plan for m in re.findall(r"\bchunks_p\d\d\b", line)})
    out: dict[str, Any] = {
        "partitions": PARTITIONS,
        "flat_copy_index_build_s": round(build, 1),
        "partitions_scanned": touched,
    }
    for name, query in (("company_exact_vector_leg", exact_sql), ("cross_company_ann_vector_leg", ann_sql)):
        for table in ("bench_chunks_flat", "chunks"):
            times = []
            for i, (_, v, c) in enumerate(queries):
                params = {"v": v, "t": [corpus.tickers[c]], "y": [YEARS[i % 10]]}
                started = time.perf_counter()
                conn.execute(query.format(table=table), params).fetchall()
                times.append(time.perf_counter() - started)
            layout = "flat" if table == "bench_chunks_flat" else "partitioned"
            out[f"{name}_{layout}"] = summary_ms(times[20:])
    conn.execute("DROP TABLE bench_chunks_flat")
    conn.commit()
    print(f"    partitioned: {out}", flush=True)
    return out


def ef_sweep(
    chunks: int, queries: int, efs: list[int], root: Path, m: int = 16, ef_construction: int = 64
) -> dict[str, Any]:
    """Recall@10 of the HNSW index alone (vectors only, same generator) for a range of ef_search."""
    corpus = Corpus(chunks)
    qs = corpus.queries(queries)
    with embedded_server(root / "pg") as server_url:
        url = fresh_database(server_url, "scale_vectors")
        with psycopg.connect(url) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            register_vector(conn)
            conn.execute("CREATE TABLE chunks (id bigint PRIMARY KEY, embedding halfvec(384) NOT NULL)")
            blocks, next_id = [], 1
            with conn.cursor().copy("COPY chunks (id, embedding) FROM STDIN WITH (FORMAT BINARY)") as copy:
                copy.set_types(["bigint", "halfvec"])
                for company, _, _, n in corpus.documents:
                    block = corpus.vectors(company, n)
                    blocks.append(block)
                    for row in block:
                        copy.write_row((next_id, HalfVector(row)))
                        next_id += 1
            conn.commit()
            wanted = {s.name: s.value for s in recommend(machine_memory(), machine_cores(), next_id)}
            started = time.perf_counter()
            with conn.transaction():
                conn.execute(f"SET LOCAL maintenance_work_mem = '{wanted['maintenance_work_mem']}'")
                workers = wanted["max_parallel_maintenance_workers"]
                conn.execute(f"SET LOCAL max_parallel_maintenance_workers = {workers}")
                conn.execute(
                    "CREATE INDEX ON chunks USING hnsw (embedding halfvec_cosine_ops) "
                    f"WITH (m = {m}, ef_construction = {ef_construction})"
                )
            seconds = time.perf_counter() - started
            stored = np.concatenate(blocks).astype(np.float32)
            qv = np.stack([v for _, v, _ in qs]).astype(np.float16).astype(np.float32)
            exact = top10(qv @ stored.T)
            del stored
            conn.execute("SET hnsw.iterative_scan = 'relaxed_order'")
            out: dict[str, Any] = {
                "chunks": next_id - 1,
                "m": m,
                "ef_construction": ef_construction,
                "hnsw_build_s": round(seconds, 1),
            }
            for ef in efs:
                conn.execute(f"SET hnsw.ef_search = {ef}")
                found, times = [], []
                for i, (_, v, _) in enumerate(qs):
                    started = time.perf_counter()
                    rows = conn.execute(ANN_SQL.format(where="TRUE", limit=10), (v, v)).fetchall()
                    times.append(time.perf_counter() - started)
                    found.append(len({r[0] for r in rows} & set(exact[i].tolist())) / 10)
                out[f"ef_search_{ef}"] = {
                    "unfiltered_recall_at_10": round(float(np.mean(found)), 4),
                    "ann_ms": summary_ms(times),
                }
                print(f"    ef_search={ef}: {out[f'ef_search_{ef}']}", flush=True)
    return out


def migration(chunks: int, texts_n: int, root: Path) -> dict[str, Any]:
    """Migration 012 (chunks and facts partitioned by company) converting a store of ``chunks``
    generated chunks that the release before it (migrations up to 011) bulk-loaded and indexed."""
    from finagent.db.migrate import apply_migrations

    corpus = Corpus(chunks)
    texts = page_texts(texts_n, corpus.rng)
    with embedded_server(root / "pg") as server_url:
        url = fresh_database(server_url, "scale_migration")
        with psycopg.connect(url) as conn:
            apply_migrations(conn, up_to=11)
            register_vector(conn)
            drop_secondary(conn)
            total = load(conn, corpus, texts, 0, len(corpus.documents), [])
            build_indexes(conn, total)
            before = relation_bytes(conn, "chunks", total=True)
            started = time.perf_counter()
            applied = apply_migrations(conn, up_to=12)
            seconds = time.perf_counter() - started
            after = relation_bytes(conn, "chunks", total=True)
            out = {
                "chunks": total,
                "applied": applied,
                "seconds": round(seconds, 1),
                "chunks_total_mb_before": round(before / 1024**2, 1),
                "chunks_total_mb_after": round(after / 1024**2, 1),
                "largest_partition_chunks": store_size(conn).largest_partition,
            }
    print(f"    migration: {out}", flush=True)
    return out


# -- main -------------------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--chunks", type=int, default=1_000_000, help="chunks of the large store")
    parser.add_argument(
        "--small", type=int, default=100_000, help="chunks of the small store (measured first)"
    )
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--texts", type=int, default=20_000, help="distinct real page texts to sample")
    parser.add_argument("--data-dir", type=Path, default=None, help="server folder (default: a temp dir)")
    parser.add_argument(
        "--no-partitioned", action="store_true", help="skip the comparison with an unpartitioned copy"
    )
    parser.add_argument(
        "--ef-sweep",
        action="store_true",
        help="only the HNSW recall of --chunks vectors for ef_search 100..800 (added to the results file)",
    )
    parser.add_argument(
        "--migration",
        action="store_true",
        help="only: time migration 012 converting a store of --chunks chunks (results: <output>_migration)",
    )
    parser.add_argument("--small-only", action="store_true", help="only the small store")
    parser.add_argument(
        "--latency-only", action="store_true", help="filtered search latencies only (no recall, sizes)"
    )
    parser.add_argument("--output", default="scale_store", help="results stem in benchmarks/results/")
    parser.add_argument("--m", type=int, default=16, help="HNSW m of the --ef-sweep index")
    parser.add_argument("--ef-construction", type=int, default=64, help="its ef_construction")
    parser.add_argument("--ef", type=int, nargs="+", default=[100, 200, 400, 800], help="ef_search values")
    args = parser.parse_args()

    if args.ef_sweep:
        root = args.data_dir or Path(tempfile.mkdtemp(prefix="finagent-scale-", dir="/tmp"))
        try:
            sweep = ef_sweep(args.chunks, args.queries, args.ef, root, args.m, args.ef_construction)
        finally:
            shutil.rmtree(root, ignore_errors=True)
        path = RESULTS / f"{args.output}.json"
        results = json.loads(path.read_text()) if path.exists() else {"stores": {}}
        results.setdefault("ef_sweep", {})[f"m{args.m}_efc{args.ef_construction}"] = sweep
        path.write_text(json.dumps(results, indent=2, default=str) + "\n")
        return
    if args.migration:
        root = args.data_dir or Path(tempfile.mkdtemp(prefix="finagent-scale-", dir="/tmp"))
        try:
            converted = migration(args.chunks, args.texts, root)
        finally:
            shutil.rmtree(root, ignore_errors=True)
        result = {"benchmark": "scale_store --migration", "machine": machine(), "migration_012": converted}
        path = RESULTS / f"{args.output}_migration.json"
        path.write_text(json.dumps(result, indent=2, default=str) + "\n")
        return
    corpus = Corpus(args.chunks)
    texts = page_texts(args.texts, corpus.rng)
    queries = corpus.queries(args.queries)
    cumulative = np.cumsum([d[3] for d in corpus.documents])
    small_docs = int(np.searchsorted(cumulative, args.small)) + 1
    root = args.data_dir or Path(tempfile.mkdtemp(prefix="finagent-scale-", dir="/tmp"))
    results: dict[str, Any] = {
        "benchmark": "scale_store",
        "machine": machine() | {"memory_gb": round(machine_memory() / 1024**3, 1)},
        "generator": {
            "companies": COMPANIES,
            "topics": TOPICS,
            "company_size": "weight 1/rank^0.5",
            "filings_per_company": len(YEARS) * 4,
            "distinct_texts": len(texts),
            "mean_text_chars": round(float(np.mean([len(t) for t in texts])), 0),
            "queries": len(queries),
        },
        "stores": {},
    }
    vectors: list[np.ndarray] = []
    try:
        with embedded_server(root / "pg") as server_url:
            url = fresh_database(server_url, "scale_store")
            db = open_db(url)
            try:
                with db.connection() as conn:
                    drop_secondary(conn)
                    loaded_docs = 0
                    for size, stop in ((args.small, small_docs), (args.chunks, len(corpus.documents))):
                        print(f"loading to {size:,} chunks…", flush=True)
                        if loaded_docs:
                            drop_secondary(conn)
                        started = time.perf_counter()
                        load(conn, corpus, texts, loaded_docs, stop, vectors)
                        load_s = time.perf_counter() - started
                        loaded_docs = stop
                        total = int(conn.execute("SELECT count(*) FROM chunks").fetchone()[0])  # type: ignore[index]
                        print(f"  {total:,} chunks loaded ({load_s:.0f} s); building indexes…", flush=True)
                        store: dict[str, Any] = {
                            "chunks": total,
                            "documents": stop,
                            "load_s": round(load_s, 1),
                        }
                        store["index_build_s"] = build_indexes(conn, total)
                        print(f"  indexes: {store['index_build_s']}", flush=True)
                        store["bytes"] = sizes(conn, total)
                        if size == args.small:
                            store["bytes"] |= vector_index_comparison(conn, total)
                        print(f"  bytes: {store['bytes']}", flush=True)
                        stored = np.concatenate(vectors)
                        store["latency"] = latencies(
                            db, corpus, queries, held_periods(corpus, stop), not args.latency_only
                        )
                        if not args.latency_only:
                            store["recall"] = recall(db, stored, corpus, queries, [40, 100, 200])
                            if size == args.small and not args.no_partitioned:
                                store["partitioned"] = partitioned(conn, corpus, queries, total)
                        results["stores"][str(total)] = store
                        del stored
                        if args.small_only:
                            break
            finally:
                db.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    write(results, args.output)


def write(results: dict[str, Any], stem: str) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{stem}.json").write_text(json.dumps(results, indent=2, default=str) + "\n")
    if any("recall" not in store for store in results["stores"].values()):
        return  # a --latency-only run: its numbers are read from the JSON
    lines = [
        "| chunks | filtered p50 / p95 ms: company + year | company | cross-company year + kind | unfiltered "
        "| recall@10 unfiltered ; year-filtered of 60 candidates (ef_search 40 / 100 / 200) "
        "| HNSW build s | HNSW B/chunk |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for total, store in results["stores"].items():
        lat = store["latency"]
        cell = {k: f"{v['p50_ms']} / {v['p95_ms']}" for k, v in lat.items()}
        rec = " / ".join(
            f"{store['recall'][k]['unfiltered_recall_at_10']:.3f}" for k in sorted(store["recall"], key=_ef)
        )
        rec_year = " / ".join(
            f"{store['recall'][k]['year_filtered_recall_at_10_of_60_candidates']:.3f}"
            for k in sorted(store["recall"], key=_ef)
        )
        lines.append(
            f"| {int(total):,} | {cell['company_and_year']} | {cell['company']} | "
            f"{cell['cross_company_year_and_kind']} | {cell['unfiltered']} | {rec} ; {rec_year} | "
            f"{store['index_build_s']['chunks_embedding_hnsw (halfvec)']} | "
            f"{store['bytes']['hnsw_index_bytes_per_chunk']} |"
        )
    (RESULTS / f"{stem}.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


def _ef(key: str) -> int:
    return int(key.rsplit("_", 1)[1])


if __name__ == "__main__":
    main()
