"""Ingest throughput (chunks/s) end to end vs. bare embedding of the same chunks, per backend.

    python benchmarks/ingest_throughput.py            # the 20 10-Q PDFs + the EDGAR iXBRL 10-Qs
    python benchmarks/ingest_throughput.py --all-edgar  # ... + every EDGAR iXBRL filing (slower)

Target: end-to-end >= 0.8x bare embedding throughput (parsing + DB writes add <= 20%).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from common import SHARED_DATA, embedded_server, fresh_database, machine, open_db, write_result

from finagent.embeddings import Embedder
from finagent.ingest.discover import discover
from finagent.ingest.pipeline import IngestPipeline


def run_backend(server_url: str, backend: str, paths: list[Path]) -> dict[str, object]:
    url = fresh_database(server_url, f"bench_ingest_{backend}")
    db = open_db(url, embedding_backend=backend)
    try:
        embedder = Embedder(db.settings, backend=backend)
        embedder.encode(["warm up the model before timing"])
        items = [item for path in paths for item in discover(path).items]
        started = time.perf_counter()
        report = IngestPipeline(db, embedder, db.settings).run(items)
        end_to_end = time.perf_counter() - started
        with db.connection() as conn:
            texts = [row[0] for row in conn.execute("SELECT text FROM chunks ORDER BY id")]
        started = time.perf_counter()
        embedder.encode(texts)
        bare = time.perf_counter() - started
    finally:
        db.close()
    e2e_rate = report.chunks / end_to_end
    bare_rate = len(texts) / bare
    return {
        "backend": backend,
        "documents": report.documents,
        "chunks": report.chunks,
        "failed": len(report.failed),
        "end_to_end_s": round(end_to_end, 1),
        "end_to_end_chunks_per_s": round(e2e_rate, 1),
        "bare_embedding_s": round(bare, 1),
        "bare_embedding_chunks_per_s": round(bare_rate, 1),
        "ratio_end_to_end_vs_bare": round(e2e_rate / bare_rate, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backends", default="onnx,torch")
    parser.add_argument("--all-edgar", action="store_true", help="Include the EDGAR 10-Ks too.")
    args = parser.parse_args()
    edgar = SHARED_DATA / "filings" / "edgar"
    filings = [edgar] if args.all_edgar else sorted(edgar.glob("*/10-Q/*.htm*"))
    paths = [*filings, SHARED_DATA / "filings" / "pdf" / "sec10q"]
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise SystemExit(f"needs ../shared data: {missing}")
    with (
        tempfile.TemporaryDirectory(prefix="finagent-bench-", dir="/tmp") as tmp,
        embedded_server(Path(tmp) / "pg") as server_url,
    ):
        runs = [run_backend(server_url, backend, paths) for backend in args.backends.split(",")]
    result = {
        "benchmark": "ingest_throughput",
        "machine": machine(),
        "corpus": [str(p) for p in paths],
        "runs": runs,
    }
    print(write_result("ingest_throughput", result).read_text())


if __name__ == "__main__":
    main()
