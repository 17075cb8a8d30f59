"""Load: concurrent research runs and concurrent hybrid searches on one store, errors and pool limits.

    python -m benchmarks.load                  # 20 asks, 200 searches on finagent_eval_sec10q
    python -m benchmarks.load --quick          # 4 asks, 30 searches (smoke; no results file)

The language model is replaced by benchmarks/stub_llm.py (an OpenAI-compatible server on 127.0.0.1
answering schema-valid replies after --stub-latency-ms), reached through the real provider path
(provider=openai, FINAGENT_OPENAI_BASE_URL), so the load falls on the graph, the embedder and the
database. Tools run offline (recorded data).

In one run: a sequential baseline (each distinct question alone; each search query alone), a wave of
--asks concurrent ``aask`` runs, a wave of --searches concurrent ``search_store`` calls through the
store's pool (all released together by a barrier), then the same ask wave again. Reports p50/p95
latency and ratios against the baseline, errors (target 0), the pool's own counters and peak size, the
server-side connection count of this process (PGAPPNAME-tagged) against pool_max_size, and RSS after
each wave (stable = the second identical ask wave adds little).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from benchmarks.common import REPO, SHARED_DATA, machine, percentile, summary_ms, write_result
from benchmarks.stub_llm import StubServer
from pydantic import SecretStr

from finagent.agent.api import Answer, aask
from finagent.agent.context import Context
from finagent.agent.resources import AgentResources, close_resources, configure_resources
from finagent.db import Database
from finagent.retrieval.service import search_store
from finagent.settings import Settings

DEFAULT_DATABASE = "finagent_eval_sec10q"

# Questions over the sec10q corpus (10-Qs of AAPL, AMZN, INTC, MSFT, NVDA; transcripts of more).
QUESTIONS = [
    "Compare Apple and Microsoft revenue in Q3 2023",
    "What was NVIDIA's revenue in Q1 fiscal 2024?",
    "How did Amazon's net sales change between Q1 2023 and Q3 2023?",
    "What was Intel's gross margin in Q2 2023?",
    "What were Apple's research and development expenses in Q2 2023?",
    "Compare Intel and NVIDIA operating income in Q3 2023",
    "What was Microsoft's net income in Q1 fiscal 2024?",
    "How much cash and cash equivalents did Amazon hold at the end of Q2 2023?",
    "What did Apple's management say about services revenue on the Q3 2023 earnings call?",
    "How did Apple's stock trade after its Q3 2023 results, and what were its net sales?",
]
# (query, tickers) for the search wave: what a user or another agent asks `finagent search`.
SEARCHES = [
    ("total net sales", ["AAPL"]),
    ("data center revenue", ["NVDA"]),
    ("operating income by segment", ["AMZN"]),
    ("gross margin", ["INTC"]),
    ("research and development", ["MSFT"]),
    ("cash and cash equivalents", ["AMZN"]),
    ("net income per share diluted", ["NVDA"]),
    ("share repurchases", ["AAPL"]),
    ("cloud revenue growth", ["MSFT", "AMZN"]),
    ("inventory", ["INTC", "NVDA"]),
]
TODAY = "2023-12-15"  # the corpus ends in Oct 2023; fixed so period resolution is reproducible
# Warnings that mean part of a run failed (a search, the pool, the database), not a data gap.
FAILURE_WARNING = re.compile(
    r"^search '.*' for .* failed:|pool exhausted|DatabaseError|OperationalError", re.I
)
FALLBACK_ANSWER = "The language model did not return an answer"


@dataclass
class LoadPlan:
    """What one run does; the defaults are the full benchmark on the sec10q corpus."""

    questions: list[str] = field(default_factory=lambda: list(QUESTIONS))
    searches: list[tuple[str, list[str]]] = field(default_factory=lambda: list(SEARCHES))
    asks: int = 20
    search_count: int = 200
    search_baseline_repeats: int = 3
    second_wave: bool = True
    today: str = TODAY
    stub_latency_ms: float = 20.0


# -- measuring ----------------------------------------------------------------------------------


def rss_mb() -> dict[str, float]:
    """Resident (VmRSS) and peak resident (VmHWM) memory of this process, MB."""
    values: dict[str, float] = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = round(int(rest.split()[0]) / 1024, 1)
    return {"rss_mb": values.get("VmRSS", float("nan")), "peak_rss_mb": values.get("VmHWM", float("nan"))}


class PoolMonitor:
    """Samples the pool's gauges (size, waiting requests) and the server's count of this process's
    connections while a wave runs; the pool's cumulative counters come from ``pop_stats``."""

    def __init__(self, db: Database, app_name: str, interval_s: float = 0.005) -> None:
        assert db.pool is not None
        self.db, self.pool, self.app_name, self.interval_s = db, db.pool, app_name, interval_s
        self.peak = {"pool_size": 0, "in_use": 0, "requests_waiting": 0, "server_connections": 0}
        self.samples = 0
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def __enter__(self) -> PoolMonitor:
        self.pool.pop_stats()  # counters from here on belong to this wave
        self._threads = [
            threading.Thread(target=self._sample_pool, daemon=True),
            threading.Thread(target=self._sample_server, daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=10)

    def _sample_pool(self) -> None:
        while not self._stop.is_set():
            stats = self.pool.get_stats()
            self.samples += 1
            for key in ("pool_size", "requests_waiting"):
                self.peak[key] = max(self.peak[key], int(stats.get(key, 0)))
            in_use = int(stats.get("pool_size", 0)) - int(stats.get("pool_available", 0))
            self.peak["in_use"] = max(self.peak["in_use"], in_use)
            self._stop.wait(self.interval_s)

    def _sample_server(self) -> None:
        """Independent of the pool's bookkeeping: what the server sees of this process."""
        with psycopg.connect(
            self.db.url, autocommit=True, application_name=f"{self.app_name}-monitor"
        ) as conn:
            while not self._stop.is_set():
                row = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (self.app_name,)
                ).fetchone()
                count = int(row[0]) if row else 0
                self.peak["server_connections"] = max(self.peak["server_connections"], count)
                self._stop.wait(0.02)

    def report(self) -> dict[str, Any]:
        counters = self.pool.pop_stats()
        limit = self.db.settings.pool_max_size
        keep = (
            "requests_num",
            "requests_queued",
            "requests_wait_ms",
            "requests_errors",
            "connections_num",
            "connections_errors",
            "connections_lost",
            "returns_bad",
        )
        report: dict[str, Any] = {k: int(counters.get(k, 0)) for k in keep}
        report |= {
            "pool_max_size": limit,
            "peak_pool_size": self.peak["pool_size"],  # connections open (idle ones included)
            "peak_in_use": self.peak["in_use"],  # connections lent out at once
            "peak_requests_waiting": self.peak["requests_waiting"],
            "peak_server_connections": self.peak["server_connections"],
            "samples": self.samples,
        }
        report["limits_held"] = (
            report["peak_pool_size"] <= limit
            and report["peak_in_use"] <= limit
            and report["peak_server_connections"] <= limit
            and report["requests_errors"] == 0
            and report["connections_errors"] == 0
            and report["connections_lost"] == 0
        )
        return report


def ms_summary(seconds: Sequence[float]) -> dict[str, float]:
    """p50/p95/mean/max in ms (max shows the tail a p95 of few runs hides)."""
    summary: dict[str, float] = summary_ms(list(seconds)) if seconds else {"n": 0}
    if seconds:
        summary["max_ms"] = round(max(seconds) * 1000, 2)
    return summary


def ratio(numerator: float, denominator: float) -> float | None:
    return round(numerator / denominator, 2) if denominator else None


# -- asks ---------------------------------------------------------------------------------------


def ask_problems(answer: Answer) -> list[str]:
    """Why a finished run counts as an error: no answer, a failed model call, a failed search."""
    problems = []
    text = answer.answer.strip()
    if not text:
        problems.append("empty answer")
    if "internal error" in text.lower():
        problems.append("internal error in the answer")
    if text.startswith(FALLBACK_ANSWER):
        problems.append("the model's answer was missing (fallback answer)")
    for call in answer.llm_calls:
        if not call.get("ok"):
            problems.append(f"llm call {call.get('role')} failed: {call.get('error')}")
        elif call.get("provider") not in (None, "openai"):
            problems.append(
                f"llm call {call.get('role')} answered by fallback provider {call.get('provider')}"
            )
    problems += [f"warning: {w}" for w in answer.warnings if FAILURE_WARNING.search(w)]
    return problems


async def one_ask(question: str, context: Context) -> dict[str, Any]:
    """One research run, timed; an exception is recorded (with its traceback), not raised."""
    started = time.perf_counter()
    try:
        answer = await aask(question, provider="openai", context=context)
    except Exception as exc:
        return {
            "question": question,
            "latency_s": time.perf_counter() - started,
            "problems": [f"{type(exc).__name__}: {exc}"],
            "traceback": traceback.format_exc(),
        }
    return {
        "question": question,
        "latency_s": time.perf_counter() - started,
        "problems": ask_problems(answer),
        "warnings": len(answer.warnings),
        "warning_texts": answer.warnings,
        "llm_calls": len(answer.llm_calls),
        "iterations": answer.iterations,
        "citations": len(answer.citations),
        "answer_chars": len(answer.answer),
    }


def ask_summary(runs: list[dict[str, Any]], wall_s: float) -> dict[str, Any]:
    failed = [r for r in runs if r["problems"]]
    warnings = Counter(_shape(w) for r in runs for w in r.get("warning_texts", []))
    return {
        "runs": len(runs),
        "wall_s": round(wall_s, 2),
        "latency": ms_summary([r["latency_s"] for r in runs]),
        "errors": len(failed),
        "error_details": [
            {"question": r["question"], "problems": r["problems"][:5], "traceback": r.get("traceback")}
            for r in failed[:10]
        ],
        "warnings_total": sum(r.get("warnings", 0) for r in runs),
        "warnings_by_kind": dict(warnings.most_common(8)),
        "llm_calls_total": sum(r.get("llm_calls", 0) for r in runs),
        "llm_calls_per_run_mean": round(statistics.fmean(r.get("llm_calls", 0) for r in runs), 2),
        "iterations_mean": round(statistics.fmean(r.get("iterations", 0) for r in runs), 2),
        "citations_mean": round(statistics.fmean(r.get("citations", 0) for r in runs), 2),
    }


def _shape(warning: str) -> str:
    """A warning with its quoted and numeric parts blanked, to count kinds rather than instances."""
    return re.sub(r"\d[\d,.]*", "N", re.sub(r"'[^']*'", "'…'", warning))[:140]


async def ask_wave(questions: list[str], count: int, context: Context) -> tuple[list[dict[str, Any]], float]:
    started = time.perf_counter()
    runs = await asyncio.gather(*(one_ask(questions[i % len(questions)], context) for i in range(count)))
    return list(runs), time.perf_counter() - started


# -- searches -----------------------------------------------------------------------------------


def one_search(db: Database, settings: Settings, query: str, tickers: list[str]) -> dict[str, Any]:
    """One public-path search (resolve companies, embed, rank) on a pooled connection, timed."""
    started = time.perf_counter()
    try:
        with db.connection() as conn:
            acquired = time.perf_counter()
            hits = search_store(conn, settings, query, tickers=tickers, k=10)
        done = time.perf_counter()
    except Exception as exc:
        return {
            "latency_s": time.perf_counter() - started,
            "error": f"{type(exc).__name__}: {exc}",
            "traceback": traceback.format_exc(),
        }
    return {
        "latency_s": done - started,
        "wait_s": acquired - started,
        "hold_s": done - acquired,
        "hits": len(hits),
        "error": None if hits else "no hits",
    }


def search_wave(
    db: Database, settings: Settings, queries: list[tuple[str, list[str]]], count: int
) -> tuple[list[dict[str, Any]], float]:
    """``count`` searches on as many threads, released together so they all want a connection at once."""
    barrier = threading.Barrier(count + 1)

    def task(index: int) -> dict[str, Any]:
        query, tickers = queries[index % len(queries)]
        barrier.wait(timeout=120)
        return one_search(db, settings, query, tickers)

    with ThreadPoolExecutor(max_workers=count) as pool:
        futures = [pool.submit(task, i) for i in range(count)]
        barrier.wait(timeout=120)
        started = time.perf_counter()
        results = [f.result() for f in futures]
        wall = time.perf_counter() - started
    return results, wall


def search_summary(results: list[dict[str, Any]], wall_s: float) -> dict[str, Any]:
    failed = [r for r in results if r["error"]]
    return {
        "searches": len(results),
        "wall_s": round(wall_s, 3),
        "throughput_per_s": round(len(results) / wall_s, 1) if wall_s else None,
        "latency": ms_summary([r["latency_s"] for r in results]),
        "wait_for_connection": ms_summary([r["wait_s"] for r in results if "wait_s" in r]),
        "connection_held": ms_summary([r["hold_s"] for r in results if "hold_s" in r]),
        "errors": len(failed),
        "error_details": [{"error": r["error"], "traceback": r.get("traceback")} for r in failed[:10]],
    }


# -- the run ------------------------------------------------------------------------------------


def stub_settings(settings: Settings, stub: StubServer) -> Settings:
    """The settings with the openai provider pointed at the stub and tools offline.

    The local model stays in the provider chain as a fallback (it is installed); it is pointed at a
    missing file so that a failing stub shows up as failed calls at once instead of loading a 1 GB
    model mid-benchmark.
    """
    return settings.model_copy(
        update={
            "llm_provider": "openai",
            "openai_base_url": stub.base_url,
            "openai_api_key": SecretStr("stub"),
            "openai_model": "stub",
            "offline": True,
            "local_model_path": Path("/nonexistent/finagent-load-benchmark-guard.gguf"),
        }
    )


@contextmanager
def tagged_connections(name: str) -> Iterator[str]:
    """Every libpq connection opened meanwhile carries application_name ``name`` (PGAPPNAME)."""
    previous = os.environ.get("PGAPPNAME")
    os.environ["PGAPPNAME"] = name
    try:
        yield name
    finally:
        if previous is None:
            os.environ.pop("PGAPPNAME", None)
        else:
            os.environ["PGAPPNAME"] = previous


def corpus_size(db: Database) -> dict[str, Any]:
    with db.connection() as conn:
        docs, chunks = conn.execute(
            "SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM chunks)"
        ).fetchone() or (0, 0)
        tickers = [r[0] for r in conn.execute("SELECT DISTINCT ticker FROM documents ORDER BY 1").fetchall()]
    return {"documents": int(docs), "chunks": int(chunks), "tickers": tickers}


def run_load(
    settings: Settings,
    plan: LoadPlan,
    database_name: str | None = None,
    progress: Callable[[str], None] = lambda message: None,
) -> dict[str, Any]:
    """The whole benchmark against the store of ``settings`` (or its database ``database_name``)."""
    with (
        StubServer(latency_ms=plan.stub_latency_ms) as stub,
        tagged_connections(f"finagent-load-{os.getpid()}") as app,
    ):
        resources = configure_resources(stub_settings(settings, stub), database_name=database_name)
        try:
            return asyncio.run(_run(resources, stub, plan, app, progress))
        finally:
            close_resources()


async def _run(
    resources: AgentResources, stub: StubServer, plan: LoadPlan, app: str, progress: Callable[[str], None]
) -> dict[str, Any]:
    settings = resources.settings
    db = await asyncio.to_thread(resources.database)
    # The full research loop (analysis, answer and grading calls per ask), as first measured; figure
    # questions on the facts path make one model call and would load the stub less.
    context = Context(today=plan.today, use_facts=False)
    corpus = corpus_size(db)
    load_start = round(os.getloadavg()[0], 2)

    progress("warm-up: one ask and one search (model load, plans, caches)")
    started = time.perf_counter()
    warm = await one_ask(plan.questions[0], context)
    one_search(db, settings, *plan.searches[0])
    warm_up_s = time.perf_counter() - started

    progress(f"baseline: {len(plan.questions)} questions one at a time")
    sequential = [await one_ask(q, context) for q in plan.questions]
    progress(f"baseline: {len(plan.searches)} search queries x {plan.search_baseline_repeats}, one at a time")
    search_alone = [
        one_search(db, settings, q, t) for _ in range(plan.search_baseline_repeats) for q, t in plan.searches
    ]
    memory = {"before": rss_mb()}

    progress(f"wave 1: {plan.asks} concurrent asks")
    with PoolMonitor(db, app) as monitor:
        runs, wall = await ask_wave(plan.questions, plan.asks, context)
    first = ask_summary(runs, wall) | {"pool": monitor.report()}
    memory["after_asks"] = rss_mb()

    progress(f"{plan.search_count} concurrent searches")
    with PoolMonitor(db, app) as monitor:
        results, search_wall = await asyncio.to_thread(
            search_wave, db, settings, plan.searches, plan.search_count
        )
    searches = search_summary(results, search_wall) | {"pool": monitor.report()}
    memory["after_searches"] = rss_mb()

    second: dict[str, Any] | None = None
    if plan.second_wave:
        progress(f"wave 2: {plan.asks} concurrent asks again")
        with PoolMonitor(db, app) as monitor:
            runs2, wall2 = await ask_wave(plan.questions, plan.asks, context)
        second = ask_summary(runs2, wall2) | {"pool": monitor.report()}
        memory["after_second_asks"] = rss_mb()

    baseline_asks = ask_summary(sequential, sum(r["latency_s"] for r in sequential))
    baseline_search = search_summary(search_alone, sum(r["latency_s"] for r in search_alone))
    seq_p50 = percentile([r["latency_s"] for r in sequential], 50) * 1000
    seq_mean = statistics.fmean(r["latency_s"] for r in sequential)
    search_p50 = percentile([r["latency_s"] for r in search_alone], 50) * 1000
    search_mean = statistics.fmean(r["latency_s"] for r in search_alone)
    ratios = {
        "ask_concurrent_p50_over_alone_p50": ratio(first["latency"]["p50_ms"], seq_p50),
        "ask_concurrent_p95_over_alone_p50": ratio(first["latency"]["p95_ms"], seq_p50),
        # the same runs one after another would take asks x mean alone latency
        "ask_throughput_vs_sequential": ratio(plan.asks * seq_mean, first["wall_s"]),
        "search_concurrent_p50_over_alone_p50": ratio(searches["latency"]["p50_ms"], search_p50),
        "search_concurrent_p95_over_alone_p50": ratio(searches["latency"]["p95_ms"], search_p50),
        "search_throughput_vs_sequential": ratio(plan.search_count * search_mean, searches["wall_s"]),
    }
    if second is not None:
        ratios["ask_second_wave_p50_over_first_wave_p50"] = ratio(
            second["latency"]["p50_ms"], first["latency"]["p50_ms"]
        )
    before = memory["before"]["rss_mb"]
    growth = {
        "asks_wave_1_mb": round(memory["after_asks"]["rss_mb"] - before, 1),
        "search_wave_mb": round(memory["after_searches"]["rss_mb"] - memory["after_asks"]["rss_mb"], 1),
    }
    if second is not None:
        growth["asks_wave_2_mb"] = round(
            memory["after_second_asks"]["rss_mb"] - memory["after_searches"]["rss_mb"], 1
        )
    waves = [first, searches, *([second] if second else [])]
    errors = sum(w["errors"] for w in waves) + baseline_asks["errors"] + baseline_search["errors"]
    stub_stats = stub.stats()
    checks = {
        "errors": errors + int(warm["problems"] != []) + int(stub_stats["errors"]),
        "pool_limits_held": all(w["pool"]["limits_held"] for w in waves),
        # stable: an identical second wave grows RSS by under 5% of the starting RSS (and 32 MB)
        "memory_stable": growth.get("asks_wave_2_mb", 0.0) <= max(32.0, 0.05 * before),
    }
    return {
        "benchmark": "load",
        "machine": machine(),
        # other work on the machine during the run (the figures are noisier when this exceeds the CPUs)
        "load_average_1m": {"start": load_start, "end": round(os.getloadavg()[0], 2)},
        "corpus": corpus,
        "settings": {
            "asks": plan.asks,
            "searches": plan.search_count,
            "distinct_questions": len(plan.questions),
            "distinct_search_queries": len(plan.searches),
            "stub_latency_ms": plan.stub_latency_ms,
            "pool_min_size": settings.pool_min_size,
            "pool_max_size": settings.pool_max_size,
            "connect_timeout_s": settings.connect_timeout,
            "llm_max_retries": settings.llm_max_retries,
            "default_executor_workers": min(32, (os.cpu_count() or 1) + 4),
            "today": plan.today,
        },
        "checks": checks,
        "ratios": ratios,
        "warm_up_s": round(warm_up_s, 2),
        "baseline": {"ask_alone": baseline_asks, "search_alone": baseline_search},
        "asks_concurrent": first,
        "searches_concurrent": searches,
        "asks_concurrent_second_wave": second,
        "memory": memory | {"growth": growth},
        "stub": stub_stats,
    }


# -- the command --------------------------------------------------------------------------------


def ensure_corpus(settings: Settings, name: str) -> None:
    """Build the sec10q corpus into ``name`` when that database holds no chunks yet (resumable)."""
    resources = configure_resources(settings, database_name=name)
    try:
        size = corpus_size(resources.database())
    finally:
        close_resources()
    if size["chunks"]:
        return
    print(f"database {name} is empty: building the sec10q corpus into it (takes a while)…", flush=True)
    command = [str(Path(sys.executable).with_name("finagent")), "eval", "build-corpus", "sec10q"]
    subprocess.run([*command, "--database", name, "--data-dir", str(SHARED_DATA)], check=True, cwd=REPO)


def print_summary(result: dict[str, Any]) -> None:
    asks, searches, ratios = result["asks_concurrent"], result["searches_concurrent"], result["ratios"]
    alone = result["baseline"]["ask_alone"]["latency"]
    search_alone = result["baseline"]["search_alone"]["latency"]
    memory = result["memory"]
    print(
        f"asks: {asks['runs']} concurrent p50 {asks['latency']['p50_ms']:.0f} ms / p95 "
        f"{asks['latency']['p95_ms']:.0f} ms (alone p50 {alone['p50_ms']:.0f} ms; "
        f"x{ratios['ask_concurrent_p50_over_alone_p50']}), "
        f"throughput x{ratios['ask_throughput_vs_sequential']} vs sequential, errors {asks['errors']}"
    )
    print(
        f"searches: {searches['searches']} concurrent p50 {searches['latency']['p50_ms']:.0f} ms / p95 "
        f"{searches['latency']['p95_ms']:.0f} ms (alone p50 {search_alone['p50_ms']:.1f} ms), "
        f"{searches['throughput_per_s']}/s, errors {searches['errors']}, pool peak "
        f"{searches['pool']['peak_in_use']}/{searches['pool']['pool_max_size']} in use, waiting peak "
        f"{searches['pool']['peak_requests_waiting']}, server connections peak "
        f"{searches['pool']['peak_server_connections']}"
    )
    print(
        f"memory: RSS {memory['before']['rss_mb']} MB before, growth {memory['growth']} "
        f"(peak {memory.get('after_second_asks', memory['after_searches'])['peak_rss_mb']} MB)"
    )
    print(f"checks: {result['checks']}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--asks", type=int, default=None, help="Concurrent research runs per wave (20).")
    parser.add_argument("--searches", type=int, default=None, help="Concurrent hybrid searches (200).")
    parser.add_argument("--database", default=DEFAULT_DATABASE, help="Database on the store's server.")
    parser.add_argument("--stub-latency-ms", type=float, default=20.0, help="Stub LLM delay per reply.")
    parser.add_argument("--pool-max-size", type=int, default=None, help="Override FINAGENT_POOL_MAX_SIZE.")
    parser.add_argument("--quick", action="store_true", help="4 asks, 30 searches; no results file.")
    parser.add_argument(
        "--output", default=None, help="Name in benchmarks/results (default: load; none if --quick)."
    )
    parser.add_argument("--no-second-wave", action="store_true", help="Skip the repeated ask wave.")
    args = parser.parse_args()
    quick = args.quick
    plan = LoadPlan(
        asks=args.asks or (4 if quick else 20),
        search_count=args.searches or (30 if quick else 200),
        search_baseline_repeats=1 if quick else 3,
        second_wave=not args.no_second_wave,
        stub_latency_ms=args.stub_latency_ms,
    )
    if quick:
        plan.questions = plan.questions[:4]
    settings = Settings()
    if args.pool_max_size:
        settings = settings.model_copy(update={"pool_max_size": args.pool_max_size})
    ensure_corpus(settings, args.database)
    result = run_load(settings, plan, database_name=args.database, progress=lambda m: print(m, flush=True))
    result["database"] = args.database
    print_summary(result)
    output = args.output or (None if quick else "load")
    if output:
        print(f"wrote {write_result(output, result)}")


if __name__ == "__main__":
    main()
