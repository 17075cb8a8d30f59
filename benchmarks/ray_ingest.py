"""Ray Data ingest vs the single-process ingest: throughput, peak memory, and faults.

    python benchmarks/ray_ingest.py                 # EDGAR 10-Qs + the 20 10-Q PDFs (as ingest_throughput)
    python benchmarks/ray_ingest.py --all           # the whole ../shared/data/filings folder (slower)
    python benchmarks/ray_ingest.py --skip-faults   # throughput only

(a) Each engine ingests the same files into a fresh store: chunks/s end to end, the ratio to bare
embedding of the same chunks (the embedder alone, one document at a time as both engines embed), and
the peak RSS of the process tree (driver + Ray's processes and workers; the embedded PostgreSQL not
counted; shared memory counted in every process that maps it, so an upper bound).
(c) Faults: a Ray ingest of some PDFs plus a corrupt file, one embedding actor SIGKILLed once the
first documents are stored. Then counts against a single-process run of the same files: every good
document stored with all its chunks, none twice, the corrupt file reported failed.

Targets: Ray >= 0.9x single-process chunks/s on 2 local cores, peak <= 6 GiB; 0 lost, 0 duplicated.
"""

from __future__ import annotations

import argparse
import os
import signal
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil
from common import RESULTS, SHARED_DATA, embedded_server, fresh_database, machine, open_db, write_result

from finagent.db import Database
from finagent.embeddings import Embedder
from finagent.ingest.discover import discover
from finagent.ingest.pipeline import IngestPipeline, IngestReport
from finagent.ingest.ray_engine import connect, run_ray_ingest

GIB = 1024**3


class PeakRss:
    """Samples the RSS of this process and its descendants (PostgreSQL excluded) every 0.2 s."""

    def __init__(self) -> None:
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        me = psutil.Process()
        while not self._stop.is_set():
            total = 0
            for proc in [me, *me.children(recursive=True)]:
                try:
                    if proc.name().startswith("postgres"):
                        continue
                    total += proc.memory_info().rss
                except psutil.Error:
                    continue
            self.peak = max(self.peak, total)
            time.sleep(0.2)

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def corpus(whole: bool) -> list[Path]:
    filings = SHARED_DATA / "filings"
    if whole:
        return [filings]
    return [*sorted((filings / "edgar").glob("*/10-Q/*.htm*")), filings / "pdf" / "sec10q"]


def items_of(paths: list[Path]) -> list[Any]:
    return [item for path in paths for item in discover(path).items]


def counts(db: Database) -> dict[str, int]:
    """What the store holds, and what it must never hold (duplicates, documents missing chunks)."""
    queries = {
        "documents": "SELECT count(*) FROM documents",
        "chunks": "SELECT count(*) FROM chunks",
        "facts": "SELECT count(*) FROM facts",
        "duplicate_documents": "SELECT count(*) - count(DISTINCT content_sha256) FROM documents",
        "duplicate_chunks": "SELECT count(*) - count(DISTINCT (document_id, ordinal)) FROM chunks",
        "documents_missing_chunks": "SELECT count(*) FROM documents d WHERE d.chunk_count <> "
        "(SELECT count(*) FROM chunks c WHERE c.document_id = d.id)",
    }
    with db.connection() as conn:
        return {name: int(conn.execute(sql).fetchone()[0]) for name, sql in queries.items()}


def per_document(db: Database) -> dict[str, int]:
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT d.content_sha256, count(c.id) FROM documents d "
            "LEFT JOIN chunks c ON c.document_id = d.id GROUP BY 1"
        ).fetchall()
    return {str(sha): int(n) for sha, n in rows}


CHUNK_DIGEST = """
    SELECT d.content_sha256, md5(string_agg(concat_ws('|', c.ordinal, c.ticker, c.kind, c.fiscal_year,
           c.fiscal_quarter, c.period_end, c.section, c.page, c.char_start, c.char_end, c.statement,
           c.flagged_reason, c.text, c.embedding::text), E'\\n' ORDER BY c.ordinal))
    FROM documents d LEFT JOIN chunks c ON c.document_id = d.id GROUP BY 1"""
FACT_DIGEST = """
    SELECT coalesce(d.content_sha256, 'derived'), md5(string_agg(concat_ws('|', f.ticker, f.concept,
           f.value, f.unit, f.period_start, f.period_end, f.duration, f.dims_key, f.fiscal_year,
           f.fiscal_quarter, f.derived, f.derivation, f.superseded, f.page, f.statement), E'\\n'
           ORDER BY f.ticker, f.concept, f.period_end, f.period_start, f.dims_key, f.value, f.unit,
           f.derived, f.superseded, f.page))
    FROM facts f LEFT JOIN documents d ON d.id = f.document_id GROUP BY 1"""


def contents(db: Database) -> dict[str, dict[str, str]]:
    """Per stored document, a digest of its chunks (text, place, vector) and of its facts; the derived
    facts under "derived". Ids are left out: they are the store's own."""
    with db.connection() as conn:
        return {
            "chunks": {str(k): str(v) for k, v in conn.execute(CHUNK_DIGEST).fetchall()},
            "facts": {str(k): str(v) for k, v in conn.execute(FACT_DIGEST).fetchall()},
        }


def differences(first: dict[str, dict[str, str]], second: dict[str, dict[str, str]]) -> dict[str, int]:
    """How many documents (or the derived facts) differ between two stores of the same files."""
    return {
        part: sum(first[part].get(key) != second[part].get(key) for key in first[part].keys() | second[part])
        for part in ("chunks", "facts")
    }


def load_average() -> list[float]:
    return [round(v, 2) for v in os.getloadavg()]


def run_engine(server_url: str, engine: str, paths: list[Path], name: str) -> tuple[dict[str, Any], Database]:
    db = open_db(fresh_database(server_url, name))
    embedder = Embedder(db.settings)
    embedder.encode(["warm up the model before timing"])
    items = items_of(paths)
    load_before = load_average()
    with PeakRss() as rss:
        started = time.perf_counter()
        if engine == "ray":
            connect(db.settings)
            ray_started = time.perf_counter()
            report = run_ray_ingest(db, db.settings, items, embedder=embedder)
            startup = ray_started - started
        else:
            report = IngestPipeline(db, embedder, db.settings).run(items)
            startup = 0.0
        seconds = time.perf_counter() - started
    return {
        "engine": engine,
        "files": len(items),
        "documents": report.documents,
        "chunks": report.chunks,
        "facts": report.facts,
        "failed": len(report.failed),
        "seconds": round(seconds, 1),
        "ray_init_seconds": round(startup, 1),
        "chunks_per_s": round(report.chunks / seconds, 1),
        "peak_rss_gib": round(rss.peak / GIB, 2),
        "load_average_before": load_before,
        "load_average_after": load_average(),
    }, db


def bare_embedding(db: Database) -> dict[str, Any]:
    """The stored chunks embedded again by the embedder alone, one document at a time."""
    with db.connection() as conn:
        rows = conn.execute("SELECT document_id, text FROM chunks ORDER BY document_id, ordinal").fetchall()
    by_document: dict[int, list[str]] = {}
    for document_id, text in rows:
        by_document.setdefault(int(document_id), []).append(str(text))
    embedder = Embedder(db.settings)
    embedder.encode(["warm up"])
    started = time.perf_counter()
    for texts in by_document.values():
        embedder.encode(texts)
    seconds = time.perf_counter() - started
    return {"chunks": len(rows), "seconds": round(seconds, 1), "chunks_per_s": round(len(rows) / seconds, 1)}


@contextmanager
def actor_killer(db: Database, after_documents: int) -> Iterator[dict[str, Any]]:
    """SIGKILL one embedding actor once ``after_documents`` documents are stored (once)."""
    killed: dict[str, Any] = {}
    stop = threading.Event()

    def actors() -> list[psutil.Process]:
        found = []
        for proc in psutil.Process().children(recursive=True):
            try:
                if "EmbedActor" in " ".join(proc.cmdline()):
                    found.append(proc)
            except psutil.Error:
                continue
        return found

    def watch() -> None:
        while not stop.is_set():
            with db.connection() as conn:
                stored = int(conn.execute("SELECT count(*) FROM documents").fetchone()[0])
            victims = actors() if stored >= after_documents else []
            if victims:
                os.kill(victims[0].pid, signal.SIGKILL)
                killed.update(pid=victims[0].pid, documents_stored_before=stored, at=time.time())
                return
            time.sleep(0.2)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        yield killed
    finally:
        stop.set()
        thread.join()


def faults(server_url: str, tmp: Path) -> dict[str, Any]:
    pdfs = sorted((SHARED_DATA / "filings" / "pdf" / "aapl").glob("AAPL_202*Q*_10Q.pdf"))[:4]
    folder = tmp / "fault-corpus"
    folder.mkdir()
    for pdf in pdfs:
        os.symlink(pdf, folder / pdf.name)
    (folder / "corrupt.pdf").write_bytes(b"%PDF-1.7\n" + os.urandom(4096))
    reference = open_db(fresh_database(server_url, "bench_ray_fault_reference"))
    IngestPipeline(reference, Embedder(reference.settings), reference.settings).run(items_of([folder]))
    expected = per_document(reference)
    reference.close()

    db = open_db(fresh_database(server_url, "bench_ray_fault"))
    connect(db.settings)
    started = time.perf_counter()
    with actor_killer(db, after_documents=1) as killed:
        report: IngestReport = run_ray_ingest(db, db.settings, items_of([folder]))
    seconds = time.perf_counter() - started
    stored = per_document(db)
    result = {
        "files": [p.name for p in pdfs] + ["corrupt.pdf (random bytes after a PDF header)"],
        "killed_embed_actor": killed or "not killed (the run ended first)",
        "seconds": round(seconds, 1),
        "report_failed": report.failed,
        "expected_documents": len(expected),
        "expected_chunks": sum(expected.values()),
        "counts": counts(db),
        "lost_documents": len(set(expected) - set(stored)),
        "documents_with_other_chunk_counts": sum(stored.get(sha) != n for sha, n in expected.items()),
    }
    db.close()
    return result


def markdown(result: dict[str, Any]) -> str:
    lines = [
        "# Ray ingest vs single process",
        "",
        f"Machine: {result['machine']['cpus']} CPUs, {result['machine']['date']}; "
        f"corpus: {result['corpus_name']}.",
        "",
        "| engine | documents | chunks | s | chunks/s | vs bare embedding | peak RSS GiB "
        "| load avg before/after |",
        "|---|---|---|---|---|---|---|---|",
    ]
    bare = result["bare_embedding"]["chunks_per_s"]
    for run in result["runs"]:
        lines.append(
            f"| {run['engine']} | {run['documents']} | {run['chunks']} | {run['seconds']} | "
            f"{run['chunks_per_s']} | {run['chunks_per_s'] / bare:.2f} | {run['peak_rss_gib']} | "
            f"{run['load_average_before'][0]} / {run['load_average_after'][0]} |"
        )
    lines += [
        "",
        f"Bare embedding: {bare} chunks/s. Ray / single process: {result['ray_vs_local']}.",
    ]
    if "documents_differing" in result:
        differing = result["documents_differing"]
        lines.append(
            f"Stores compared document by document (chunk text, place and vector; facts): "
            f"{differing['chunks']} documents with other chunks, {differing['facts']} with other facts "
            "(the derived facts counted as one)."
        )
    if "faults" in result:
        f = result["faults"]
        lines += [
            "",
            "## Faults",
            "",
            f"Killed embedding actor: {f['killed_embed_actor']}. "
            f"Failed files reported: {f['report_failed']}.",
            f"Expected {f['expected_documents']} documents / {f['expected_chunks']} chunks; stored "
            f"{f['counts']['documents']} / {f['counts']['chunks']}; lost {f['lost_documents']}, "
            f"duplicate documents {f['counts']['duplicate_documents']}, duplicate chunks "
            f"{f['counts']['duplicate_chunks']}, documents missing chunks "
            f"{f['counts']['documents_missing_chunks']}.",
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--all", action="store_true", help="The whole ../shared/data/filings folder.")
    parser.add_argument("--skip-faults", action="store_true")
    parser.add_argument("--engines", default="local,ray")
    args = parser.parse_args()
    paths = corpus(args.all)
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise SystemExit(f"needs ../shared data: {missing}")
    result: dict[str, Any] = {
        "benchmark": "ray_ingest",
        "machine": machine(),
        "corpus_name": "../shared/data/filings (all)" if args.all else "EDGAR iXBRL 10-Qs + 20 10-Q PDFs",
        "corpus": [str(p) for p in paths],
        "runs": [],
    }
    with (
        tempfile.TemporaryDirectory(prefix="finagent-bench-", dir="/tmp") as tmp,
        embedded_server(Path(tmp) / "pg") as server_url,
    ):
        last: Database | None = None
        stored: list[dict[str, dict[str, str]]] = []
        for engine in args.engines.split(","):
            run, db = run_engine(server_url, engine, paths, f"bench_ray_{engine}")
            print(run, flush=True)
            result["runs"].append(run)
            stored.append(contents(db))
            if last is not None:
                last.close()
            last = db
        assert last is not None
        result["bare_embedding"] = bare_embedding(last)
        last.close()
        rates = {run["engine"]: run["chunks_per_s"] for run in result["runs"]}
        if {"local", "ray"} <= rates.keys():
            result["ray_vs_local"] = round(rates["ray"] / rates["local"], 3)
        if len(stored) == 2:
            result["documents_differing"] = differences(*stored)
        if not args.skip_faults:
            result["faults"] = faults(server_url, Path(tmp))
    print(write_result("ray_ingest", result).read_text())
    (RESULTS / "ray_ingest.md").write_text(markdown(result))


if __name__ == "__main__":
    main()
