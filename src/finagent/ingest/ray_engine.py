"""`finagent ingest … --engine ray`: the same ingest as a Ray Data pipeline, for more cores or machines.

    discover (driver) -> read + parse + chunk (one task per file; a failure is a row, never a crash)
    -> embed (an actor pool, the ONNX model loaded once per actor) -> store (the driver, one
    transaction per document, through the single-process pipeline's own admit/store)
    -> facts and derived facts once per company at the end.

Everything a worker does is pure (files in, rows out); every write goes through the code the
single-process path uses, keyed by content hash, so a retried task or a re-run writes nothing twice.
Documents are embedded one at a time (``embed_chunks``), so both engines store identical vectors.
Company-facts files are stored by per-file tasks, each in the same one transaction as
``ingest_company_facts``.
"""

from __future__ import annotations

import logging
import os
import pickle
import time
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from finagent.db import Database
from finagent.db.documents import record_event, stored_contents
from finagent.embeddings import EMBEDDING_DIM, Embedder, get_embedder
from finagent.errors import ConfigError, FinagentError
from finagent.finance.document_records import SourceItem
from finagent.ingest.companyfacts import FileOutcome, failure_reason, start_run
from finagent.ingest.companyfacts_files import FactsFile, Found
from finagent.ingest.pipeline import (
    IngestPipeline,
    IngestReport,
    Loaded,
    ProgressCallback,
    chunk_loaded,
    load_item,
)
from finagent.ingest.screening import load_classifier
from finagent.settings import Settings

log = logging.getLogger(__name__)

ENGINES = ("local", "ray")
ACTOR_CPUS = 0.5  # two actors at 1 CPU each on 2 CPUs starve the read tasks and the pipeline stalls
READ_RETRIES = 2  # a reader process that dies is retried, then its file is reported failed
ACTOR_RESTARTS = 3
DOCS_PER_BATCH = 4  # documents per call of an embedding actor (each is still embedded on its own)


def require_ray() -> Any:
    """The ray module, or a one-line error naming the extra that installs it."""
    try:
        import ray
        import ray.data  # the pipeline needs Ray Data, not just Ray core
    except ImportError:
        raise ConfigError(
            "--engine ray needs Ray Data: pip install 'finagent[ray]' (or pip install 'ray[data]')"
        ) from None
    return ray


def connect(settings: Settings) -> Any:
    """Join the cluster at FINAGENT_RAY_ADDRESS, else start a local Ray on this machine's CPUs (once
    per process; no dashboard, worker logs kept out of the terminal)."""
    ray = require_ray()
    if ray.is_initialized():
        return ray
    options: dict[str, Any] = {
        "log_to_driver": False,
        "logging_level": logging.ERROR,
        "configure_logging": True,
    }
    if settings.ray_address:
        options["address"] = settings.ray_address
    else:
        options |= {"num_cpus": os.cpu_count() or 1, "include_dashboard": False}
    # Ray's own start-up notices (token authentication, the local instance, the restartable actors'
    # arguments) stay out of the terminal; its failures still arrive as exceptions.
    logging.getLogger("ray").setLevel(logging.ERROR)
    try:
        ray.init(**options)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = settings.ray_address or "a local Ray"
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise FinagentError(f"cannot start or reach Ray ({where}): {first}") from None
    _quiet_data()
    return ray


def _quiet_data() -> None:
    """Ray Data's own progress bars and execution banners stay off: the CLI shows its own progress."""
    from ray.data import DataContext

    context = DataContext.get_current()
    context.enable_progress_bars = False
    context.print_on_execution_start = False
    context.enable_auto_log_stats = False
    # A block whose task failed past its retries is dropped, not fatal: its files are reported failed.
    context.max_errored_blocks = -1
    logging.getLogger("ray.data").setLevel(logging.ERROR)


def _plan(ray: Any, settings: Settings) -> tuple[int, int]:
    """(embedding actors, ONNX threads per actor) for the cluster's CPUs."""
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    actors = settings.ray_embed_actors or max(1, cpus // 2)
    threads = settings.embedding_threads or max(1, cpus // actors)
    return actors, threads


# ----------------------------------------------------------------------------- workers


def read_row(row: dict[str, Any], settings: Settings, known: frozenset[str]) -> dict[str, Any]:
    """Read, parse and chunk one file (a Ray task). Content already stored is not chunked: it is
    not embedded again, the driver only checks its metadata."""
    try:
        item: SourceItem = pickle.loads(row["item"])
    except Exception as exc:  # an item that cannot travel: its file is reported, the run goes on
        loaded = Loaded(str(row["uri"]), failed=f"could not be handed to a Ray worker: {exc}")
        return {"index": row["index"], "loaded": pickle.dumps(loaded), "texts": pickle.dumps([])}
    loaded = load_item(item)
    if loaded.doc is not None and loaded.doc.content_sha256 not in known:
        loaded = chunk_loaded(loaded, settings, load_classifier(settings))
    texts = [chunk.text for chunk in loaded.chunks or []]
    return {"index": row["index"], "loaded": pickle.dumps(loaded), "texts": pickle.dumps(texts)}


class EmbedActor:
    """Loads the embedding model once per actor; embeds each document of a batch on its own."""

    def __init__(self, settings: Settings, threads: int) -> None:
        self.embedder = Embedder(settings.model_copy(update={"embedding_threads": threads}))
        self.embedder.encode(["load the model before the first batch"])

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, Any]:
        vectors = np.empty(len(batch["texts"]), dtype=object)
        for position, blob in enumerate(batch["texts"]):
            texts = pickle.loads(blob)
            vectors[position] = self.embedder.encode(texts).astype(np.float32).tobytes() if texts else b""
        return {"index": batch["index"], "loaded": batch["loaded"], "vectors": vectors}


# ----------------------------------------------------------------------------- driver


def _rows(ray: Any, items: list[SourceItem], settings: Settings, known: frozenset[str]) -> Iterator[dict]:
    """The pipeline's output rows, in the order of ``items`` (so copies of one filing supersede each
    other as in a single-process run)."""
    from ray import cloudpickle
    from ray.data import ActorPoolStrategy, DataContext

    actors, threads = _plan(ray, settings)
    DataContext.get_current().execution_options.preserve_order = True
    rows = [{"index": i, "uri": item.uri, "item": cloudpickle.dumps(item)} for i, item in enumerate(items)]
    with warnings.catch_warnings():  # retries are named through ray_remote_args until Ray 2.64
        warnings.simplefilter("ignore", DeprecationWarning)
        dataset = (
            ray.data.from_items(rows, override_num_blocks=max(1, len(rows)))
            .map(
                read_row,
                fn_kwargs={"settings": settings, "known": known},
                num_cpus=ACTOR_CPUS,
                max_retries=READ_RETRIES,
            )
            .map_batches(
                EmbedActor,
                fn_constructor_kwargs={"settings": settings, "threads": threads},
                batch_size=DOCS_PER_BATCH,
                compute=ActorPoolStrategy(size=actors),
                num_cpus=ACTOR_CPUS,
                batch_format="numpy",
            )
        )
    yield from dataset.iter_rows()


def run_ray_ingest(
    db: Database,
    settings: Settings,
    items: list[SourceItem],
    *,
    skipped: list[tuple[str, str]] | None = None,
    failed: list[tuple[str, str]] | None = None,
    progress: ProgressCallback | None = None,
    embedder: Embedder | None = None,
) -> IngestReport:
    """Ingest ``items`` on Ray; the report is the single-process pipeline's, counted the same way."""
    ray = connect(settings)
    pipeline = IngestPipeline(db, embedder or get_embedder(settings), settings, progress=progress)
    report = IngestReport(skipped=list(skipped or []), failed=list(failed or []))
    started = time.perf_counter()
    seen: set[str] = set()
    arrived: set[int] = set()
    with db.connection() as conn:
        conn.autocommit = True
        known = frozenset(stored_contents(conn))
        try:
            for row in _rows(ray, items, settings, known) if items else iter(()):
                index = int(row["index"])
                if index in arrived:  # a retried task's row seen before: never stored twice
                    continue
                arrived.add(index)
                loaded: Loaded = pickle.loads(row["loaded"])
                record_event(conn, loaded.uri, "discovered")
                pipeline.progress("parse", 1, len(items))
                admitted = pipeline.admit(conn, loaded, report, seen)
                if admitted is None:
                    continue
                vectors = _vectors(row["vectors"], len(admitted.chunks))
                if vectors is None:  # chunked here (stored content removed meanwhile): embedded here
                    vectors = pipeline.embedder.encode([chunk.text for chunk in admitted.chunks])
                pipeline.progress("embed", len(admitted.chunks), None)
                pipeline.store(conn, admitted, vectors, report)
        except Exception as exc:
            if type(exc).__module__.split(".")[0] != "ray":
                raise
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise FinagentError(
                f"the Ray pipeline stopped: {first} (whole documents stored so far are kept; "
                "run the ingest again to continue)"
            ) from None
        for index in sorted(set(range(len(items))) - arrived):
            reason = "lost: the Ray worker reading or embedding it failed past its retries"
            record_event(conn, items[index].uri, "failed", reason=reason)
            report.failed.append((items[index].uri, reason))
        pipeline.finish(conn, report)
    report.seconds = time.perf_counter() - started
    return report


def _vectors(blob: bytes | None, chunks: int) -> np.ndarray | None:
    if not blob:
        return None if chunks else np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
    vectors = np.frombuffer(blob, dtype=np.float32).reshape(-1, EMBEDDING_DIM)
    return vectors if len(vectors) == chunks else None


# ----------------------------------------------------------------------------- company facts


def store_facts_row(row: dict[str, Any], url: str) -> dict[str, Any]:
    """Store one company-facts file in its own transaction (a Ray task with its own connection)."""
    import psycopg

    from finagent.ingest.companyfacts import store_company_file

    facts_file: FactsFile = pickle.loads(row["file"])
    try:
        with psycopg.connect(url) as conn:
            outcome: FileOutcome | str = store_company_file(conn, facts_file)
    except Exception as exc:  # one bad file must not stop the others
        outcome = failure_reason(exc)
    return {"index": row["index"], "outcome": pickle.dumps(outcome)}


def run_ray_company_facts(
    db: Database, settings: Settings, found: Found, progress: ProgressCallback | None = None
) -> IngestReport:
    """Company-facts files stored by Ray tasks, one transaction per file; derived quarters once per
    company at the end, on the driver. Workers reach the database at the store's own URL."""
    ray = connect(settings)
    run = start_run(found, progress)
    started = time.perf_counter()
    arrived: set[int] = set()
    rows = [{"index": i, "file": pickle.dumps(f)} for i, f in enumerate(found.files)]
    with db.connection() as conn:
        conn.autocommit = True
        if rows:
            with warnings.catch_warnings():  # retries are named through ray_remote_args until Ray 2.64
                warnings.simplefilter("ignore", DeprecationWarning)
                dataset = ray.data.from_items(rows, override_num_blocks=len(rows)).map(
                    store_facts_row, fn_kwargs={"url": db.url}, num_cpus=ACTOR_CPUS, max_retries=READ_RETRIES
                )
            for row in dataset.iter_rows():
                index = int(row["index"])
                if index in arrived:
                    continue
                arrived.add(index)
                outcome = pickle.loads(row["outcome"])
                name = found.files[index].name
                if isinstance(outcome, str):
                    run.fail(conn, name, outcome)
                else:
                    run.add(name, outcome)
        for index in sorted(set(range(len(rows))) - arrived):
            run.fail(conn, found.files[index].name, "lost: the Ray task storing it failed past its retries")
        return run.finish(conn, started)
