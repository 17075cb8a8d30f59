"""Shared benchmark plumbing: a throwaway or persistent embedded store, result files, percentiles."""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from psycopg.conninfo import make_conninfo

from finagent.db import Database
from finagent.db.embedded import EmbeddedPostgres
from finagent.settings import Settings

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
RESULTS = REPO / "benchmarks" / "results"

# Benchmarks time the embedding model: a vector read back from the cache of an earlier run (or of the
# other engine in the same run) would be timed as if it had been computed.
os.environ.setdefault("FINAGENT_EMBEDDING_CACHE", "false")


def machine() -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "date": time.strftime("%Y-%m-%d"),
    }


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))
    return ordered[index]


def summary_ms(values: list[float]) -> dict[str, float]:
    ms = [v * 1000 for v in values]
    return {
        "p50_ms": round(percentile(ms, 50), 2),
        "p95_ms": round(percentile(ms, 95), 2),
        "mean_ms": round(statistics.fmean(ms), 2),
        "n": len(ms),
    }


@contextmanager
def embedded_server(data_dir: Path) -> Iterator[str]:
    server = EmbeddedPostgres(data_dir)
    url = server.start()
    try:
        yield url
    finally:
        server.stop()


def fresh_database(server_url: str, name: str) -> str:
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return make_conninfo(server_url, dbname=name)


def ensure_database(server_url: str, name: str) -> str:
    with psycopg.connect(server_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    return make_conninfo(server_url, dbname=name)


def open_db(url: str, **overrides: Any) -> Database:
    settings = Settings(database_url=url, **overrides)
    return Database(url, settings).open()


def write_result(name: str, payload: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(payload, indent=2, default=str) + "\n")
    return path
