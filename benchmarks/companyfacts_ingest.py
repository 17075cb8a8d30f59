"""SEC company-facts ingest: facts/s streamed into PostgreSQL and peak memory, per run.

    python benchmarks/companyfacts_ingest.py              # SNOW file, zips of 20 and 200 companies
    python benchmarks/companyfacts_ingest.py --companies 50

Runs: the Snowflake file (../shared) into an empty store; synthetic zips built from it in a temp dir
(distinct CIKs, 8,163 facts each) into an empty store; the large zip again (unchanged). Streaming
rate = facts / time until the last file is stored; end to end adds the derived quarters computed once
per company at the end. Memory: the peak resident size of this process during the run minus its size
before (PostgreSQL runs as its own process). Target: >= 50,000 facts/s, memory flat in files.
"""

from __future__ import annotations

import argparse
import os
import re
import tempfile
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

from common import SHARED_DATA, embedded_server, fresh_database, machine, open_db, write_result

from finagent.db import Database
from finagent.ingest.companyfacts import discover_company_facts, ingest_company_facts

SNOW = SHARED_DATA / "edgar-history" / "companyfacts" / "CIK0001640147.json"
_PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * _PAGE


class PeakMemory:
    """Samples this process's resident size every 20 ms while a run goes on."""

    def __init__(self) -> None:
        self.base = rss_bytes()
        self.peak = self.base
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, rss_bytes())

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss_bytes())


def build_zip(folder: Path, companies: int) -> Path:
    """companyfacts.zip of ``companies`` filers: the SNOW file under CIKs 9,000,001 and on."""
    data = SNOW.read_bytes()
    path = folder / f"companyfacts-{companies}.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for n in range(companies):
            cik = 9_000_001 + n
            member = re.sub(rb'"cik":\s*1640147', f'"cik": {cik}'.encode(), data, count=1)
            member = re.sub(
                rb'"entityName":\s*"[^"]*"', f'"entityName": "Filer {cik}"'.encode(), member, count=1
            )
            zf.writestr(f"CIK{cik:010d}.json", member)
    return path


def run(db: Database, path: Path, label: str) -> dict[str, Any]:
    found = discover_company_facts(path)
    last_file = [0.0]

    def on_file(stage: str, done: int, total: int | None) -> None:
        last_file[0] = time.perf_counter()

    with PeakMemory() as memory:
        started = time.perf_counter()
        report = ingest_company_facts(db, found, on_file)
        total = time.perf_counter() - started
    streamed = (last_file[0] or time.perf_counter()) - started
    with db.connection() as conn:
        row = conn.execute("SELECT count(*) FROM facts WHERE NOT derived").fetchone()
    stored = int(row[0]) if row else 0
    facts = report.facts
    return {
        "run": label,
        "files": len(found.files),
        "filings_new": report.documents,
        "filings_unchanged": report.unchanged,
        "failed": len(report.failed),
        "facts_written": facts,
        "facts_in_store": stored,
        "derived_facts": report.derived_facts,
        "streaming_s": round(streamed, 2),
        "streaming_facts_per_s": round(facts / streamed) if facts else None,
        "files_per_s": round(len(found.files) / streamed, 1),
        "end_to_end_s": round(total, 2),
        "end_to_end_facts_per_s": round(facts / total) if facts else None,
        "peak_rss_growth_mb": round((memory.peak - memory.base) / 2**20, 1),
        "rss_before_mb": round(memory.base / 2**20, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--companies", type=int, default=200, help="Files in the large synthetic zip.")
    parser.add_argument("--small", type=int, default=20, help="Files in the small synthetic zip.")
    args = parser.parse_args()
    if not SNOW.exists():
        raise SystemExit(f"needs ../shared data: {SNOW}")
    runs = []
    with tempfile.TemporaryDirectory(prefix="finagent-bench-", dir="/tmp") as tmp:
        folder = Path(tmp)
        small, large = build_zip(folder, args.small), build_zip(folder, args.companies)
        with embedded_server(folder / "pg") as server_url:
            for label, path, again in (
                ("SNOW file", SNOW, False),
                (f"zip of {args.small} companies", small, False),
                (f"zip of {args.companies} companies", large, True),
            ):
                db = open_db(fresh_database(server_url, "bench_companyfacts"))
                try:
                    runs.append(run(db, path, label))
                    if again:
                        runs.append(run(db, path, f"{label}, again (unchanged)"))
                finally:
                    db.close()
                print(runs[-1])
    load = os.getloadavg()
    result = {
        "benchmark": "companyfacts_ingest",
        "machine": machine(),
        "note": "shared machine (2 cores; other engineers' tests and model benchmarks ran at the same "
        f"time): load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} at the end",
        "source": str(SNOW),
        "runs": runs,
    }
    print(write_result("companyfacts_ingest", result).read_text())


if __name__ == "__main__":
    main()
