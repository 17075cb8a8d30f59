"""Hybrid sub-search latency at >= 100,000 chunks (the FinanceBench page corpus).

    python benchmarks/search_latency.py     # builds the corpus once (resumable), then measures

Corpus: real FinanceBench documents (all the benchmark queries target, plus more up to
--real-documents) padded to --min-chunks with copies under synthetic tickers (PAD<n>_…) whose
vectors are jittered, so indexes and unfiltered scans see >= 100,000 chunks.

Measures, in the same run: p50/p95 of one filtered hybrid sub-search (SQL only, and with the query
embedding); wall time of 32 sub-searches in parallel through the pool; and the same filtered
queries written the way the replaced system did (to_tsvector at query time, raw cosine*0.7 +
ts_rank*0.3, no keyword index), as a ratio. Targets: p95 <= 10 ms, 32 parallel <= 150 ms.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from common import SHARED_DATA, embedded_server, ensure_database, machine, open_db, summary_ms, write_result

from finagent.db import Database
from finagent.db.embedded import default_data_dir
from finagent.db.search import build_search, run_search
from finagent.embeddings import get_embedder
from finagent.ingest.financebench import discover_financebench
from finagent.ingest.pipeline import IngestPipeline
from finagent.retrieval import SearchFilters
from finagent.settings import Settings

# (query, ticker, fiscal year): realistic analyst sub-searches over the FinanceBench companies.
QUERIES = [
    ("capital expenditures purchases of property plant and equipment", "MMM", 2018),
    ("total current assets total current liabilities", "GLW", 2022),
    ("operating income revenue", "AMD", 2022),
    ("dividends paid per share", "PEP", 2022),
    ("inventory cost of sales", "COST", 2020),
    ("net income attributable", "PEP", 2021),
    ("free cash flow operating activities", "AMZN", 2017),
    ("restructuring charges", "PFE", 2021),
    ("effective tax rate", "NKE", 2023),
    ("long-term debt maturities", "VZ", 2021),
    ("segment revenue by geography", "ADBE", 2022),
    ("EBITDA adjusted", "AES", 2021),
    ("accounts payable days", "COST", 2021),
    ("gross margin percentage", "ORCL", 2022),
    ("share repurchases", "AAPL", 2022),
    ("research and development expense", "MSFT", 2023),
]

SEED_STYLE_SQL = """
SELECT c.id,
       (1 - (c.embedding <=> %(v)s)) * 0.7
       + ts_rank(to_tsvector('english', c.text), plainto_tsquery('english', %(q)s)) * 0.3 AS score
FROM chunks c
WHERE c.ticker = %(t)s AND c.fiscal_year = %(y)s
ORDER BY score DESC
LIMIT 15
"""


def build_corpus(db: Database, minimum: int, real_documents: int) -> dict[str, int]:
    """Real FinanceBench documents (every one a query targets, then more up to ``real_documents``),
    padded to ``minimum`` chunks with copies of them under synthetic tickers and jittered vectors."""
    pages = SHARED_DATA / "financebench" / "pages.jsonl.gz"
    items = discover_financebench(pages, pages.with_name("documents.jsonl"))
    wanted = {(t, y) for _, t, y in QUERIES}
    targeted = [i for i in items if _target(i.uri, wanted)]
    others = [i for i in items if i not in targeted][: max(0, real_documents - len(targeted))]
    print(f"ingesting {len(targeted) + len(others)} real FinanceBench documents (resumable)…", flush=True)
    report = IngestPipeline(db, get_embedder(db.settings), db.settings, progress=_printer()).run(
        targeted + others
    )
    print(f"  {report.documents} new documents / {report.chunks} chunks in {report.seconds:.0f}s", flush=True)
    with db.connection() as conn:
        real = _count(conn, "ticker NOT LIKE 'PAD%%'")
        round_no = 0
        while _count(conn, "TRUE") < minimum:
            round_no += 1
            _pad_round(conn, round_no)
        conn.execute("VACUUM ANALYZE chunks")
        return {
            "real_chunks": real,
            "padding_chunks": _count(conn, "TRUE") - real,
            "chunks": _count(conn, "TRUE"),
        }


def _target(uri: str, wanted: set[tuple[str, int]]) -> bool:
    from finagent.finance.company_registry import lookup_builtin

    name = uri.rsplit("#", 1)[-1]
    parts = name.split("_")
    company = lookup_builtin(parts[0])
    years = [int(p[:4]) for p in parts[1:] if p[:4].isdigit()]
    return company is not None and any(
        (company.ticker, y) in wanted or (company.ticker, y + 1) in wanted for y in years
    )


def _count(conn, where: str) -> int:  # type: ignore[no-untyped-def]
    return int(conn.execute(f"SELECT count(*) FROM chunks WHERE {where}").fetchone()[0])


def _pad_round(conn, round_no: int) -> None:  # type: ignore[no-untyped-def]
    """Copy every real document once more under ticker PAD<round>_<ticker>, vectors jittered per copy."""
    docs = conn.execute("SELECT id FROM documents WHERE ticker NOT LIKE 'PAD%%' ORDER BY id").fetchall()
    print(f"  padding round {round_no}: copying {len(docs)} documents", flush=True)
    with conn.transaction():
        for (doc_id,) in docs:
            new_id = conn.execute(
                """INSERT INTO documents (kind, ticker, company_name, fiscal_year, fiscal_quarter, period_end,
                                          title, source_uri, content_sha256, chunk_count, metadata)
                   SELECT kind, 'PAD' || %(r)s || '_' || ticker, company_name, fiscal_year, fiscal_quarter,
                          period_end, title, source_uri || '#pad' || %(r)s, content_sha256 || '-pad' || %(r)s,
                          chunk_count, metadata
                   FROM documents WHERE id = %(id)s RETURNING id""",
                {"r": round_no, "id": doc_id},
            ).fetchone()[0]
            conn.execute(
                """WITH jitter AS (
                       SELECT array_agg(random() * 0.04 - 0.02)::halfvec(384) AS v
                       FROM generate_series(1, 384))
                   INSERT INTO chunks (document_id, ordinal, ticker, kind, fiscal_year, fiscal_quarter,
                                       period_end, section, section_title, page, char_start, char_end,
                                       is_table, statement, text, metadata, embedding)
                   SELECT %(new)s, ordinal, 'PAD' || %(r)s || '_' || ticker, kind, fiscal_year,
                          fiscal_quarter, period_end, section, section_title, page, char_start, char_end,
                          is_table, statement, text, metadata, embedding + jitter.v
                   FROM chunks, jitter WHERE document_id = %(id)s""",
                {"new": new_id, "r": round_no, "id": doc_id},
            )


def _printer():  # type: ignore[no-untyped-def]
    state = {"store": 0, "t": time.time()}

    def progress(stage: str, done: int, total: int | None) -> None:
        if stage == "store":
            state["store"] += done
            if state["store"] % 20 == 0:
                print(f"  {state['store']} documents stored ({time.time() - state['t']:.0f}s)", flush=True)

    return progress


def measure(db: Database, repeats: int) -> dict[str, object]:
    embedder = get_embedder(db.settings)
    vectors = {q: embedder.encode_query(q) for q, _, _ in QUERIES}
    requests = [
        build_search(q, vectors[q], SearchFilters(tickers=[t], fiscal_years=[y]), k=15) for q, t, y in QUERIES
    ]
    with db.connection() as conn:  # warm caches and plans
        for request in requests:
            run_search(conn, request)
        for q, t, y in QUERIES:
            conn.execute(SEED_STYLE_SQL, {"v": vectors[q], "q": q, "t": t, "y": y}).fetchall()

        # Each form is timed in its own loop so neither evicts the other's working set mid-measure.
        ours, seed, with_embedding = [], [], []
        for _ in range(repeats):
            for request in requests:
                started = time.perf_counter()
                run_search(conn, request)
                ours.append(time.perf_counter() - started)
        for _ in range(repeats):
            for q, t, y in QUERIES:
                started = time.perf_counter()
                conn.execute(SEED_STYLE_SQL, {"v": vectors[q], "q": q, "t": t, "y": y}).fetchall()
                seed.append(time.perf_counter() - started)
        for q, t, y in QUERIES:
            started = time.perf_counter()
            run_search(
                conn, build_search(q, embedder.encode_query(q), SearchFilters(tickers=[t], fiscal_years=[y]))
            )
            with_embedding.append(time.perf_counter() - started)

    def one(request):  # type: ignore[no-untyped-def]
        with db.connection() as conn:
            return run_search(conn, request)

    batch = (requests * 2)[:32]
    parallel = []
    with ThreadPoolExecutor(max_workers=db.settings.pool_max_size) as pool:
        list(pool.map(one, batch))  # warm every pooled connection
        for _ in range(max(5, repeats // 4)):
            started = time.perf_counter()
            list(pool.map(one, batch))
            parallel.append(time.perf_counter() - started)
    ours_s, seed_s = summary_ms(ours), summary_ms(seed)
    return {
        "filtered_hybrid_subsearch": ours_s,
        "filtered_hybrid_with_query_embedding": summary_ms(with_embedding),
        "parallel_32_subsearches_wall": summary_ms(parallel),
        "seed_style_same_queries": seed_s,
        "ratio_seed_p50_over_ours_p50": round(seed_s["p50_ms"] / ours_s["p50_ms"], 1),
        "ratio_seed_p95_over_ours_p95": round(seed_s["p95_ms"] / ours_s["p95_ms"], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database-url", default=os.environ.get("FINAGENT_BENCH_DATABASE_URL"))
    parser.add_argument("--min-chunks", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument(
        "--real-documents", type=int, default=60, help="Real FinanceBench documents to embed."
    )
    args = parser.parse_args()
    settings = Settings()
    if args.database_url:
        db = open_db(args.database_url)
        run(db, args)
        return
    data_dir = default_data_dir(settings.home / "bench-pg")
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    with embedded_server(Path(data_dir)) as server_url:
        db = open_db(ensure_database(server_url, "finagent_bench"))
        run(db, args)


def run(db: Database, args: argparse.Namespace) -> None:
    try:
        corpus = build_corpus(db, args.min_chunks, args.real_documents)
        result = {
            "benchmark": "search_latency",
            "machine": machine(),
            "corpus": corpus,
            "pool_max_size": db.settings.pool_max_size,
            **measure(db, args.repeats),
        }
    finally:
        db.close()
    print(write_result("search_latency", result).read_text())


if __name__ == "__main__":
    main()
