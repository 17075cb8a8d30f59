"""SEC company-facts ingest: facts/s streamed into PostgreSQL and peak memory, per run.

    python benchmarks/companyfacts_ingest.py              # SNOW file, zips of 20 and 200 companies
    python benchmarks/companyfacts_ingest.py --companies 50

Runs: the Snowflake file (../shared) into an empty store; synthetic zips built from it in a temp dir
(distinct CIKs, 8,163 facts each) into an empty store; the large zip again (unchanged). Streaming
rate = facts / time until the last file is stored; end to end adds the derived quarters computed once
per company at the end. CPU: seconds used by this process (parsing) and by the embedded PostgreSQL's
processes (storing), whatever else the shared machine runs. Memory: the peak resident size of this
process during the run minus its size before (PostgreSQL runs as its own processes). Target: >=
50,000 facts/s, memory flat in the number of files.
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
from finagent.ingest.companyfacts import ingest_company_facts
from finagent.ingest.companyfacts_files import discover_company_facts

SNOW = SHARED_DATA / "edgar-history" / "companyfacts" / "CIK0001640147.json"
_PAGE = os.sysconf("SC_PAGE_SIZE")


_TICKS = os.sysconf("SC_CLK_TCK")


def postgres_cpu_s(data_dir: Path) -> float:
    """CPU seconds used so far by this embedded server's processes (postmaster and its children)."""
    postmaster = int((data_dir / "postmaster.pid").read_text().split()[0])
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(stat.parent.name), int(fields[1])
        if pid == postmaster or ppid == postmaster:
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / _TICKS


def own_cpu_s() -> float:
    times = os.times()
    return times.user + times.system


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


def run(db: Database, path: Path, label: str, data_dir: Path) -> dict[str, Any]:
    found = discover_company_facts(path)
    last_file = [0.0]
    streaming_cpu = [0.0, 0.0]
    files_done = [0]

    def on_file(stage: str, done: int, total: int | None) -> None:
        last_file[0] = time.perf_counter()
        files_done[0] += done
        if files_done[0] == len(found.files):  # the last file is stored: derived quarters follow
            streaming_cpu[:] = [own_cpu_s(), postgres_cpu_s(data_dir)]

    with PeakMemory() as memory:
        cpu_before = (own_cpu_s(), postgres_cpu_s(data_dir))
        started = time.perf_counter()
        report = ingest_company_facts(db, found, on_file)
        total = time.perf_counter() - started
        cpu_python, cpu_postgres = own_cpu_s() - cpu_before[0], postgres_cpu_s(data_dir) - cpu_before[1]
    streaming_python, streaming_postgres = (
        streaming_cpu[0] - cpu_before[0],
        streaming_cpu[1] - cpu_before[1],
    )
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
        "streaming_cpu_s_python": round(streaming_python, 2),
        "streaming_cpu_s_postgres": round(streaming_postgres, 2),
        "streaming_cpu_us_per_fact": (
            {
                "python": round(streaming_python / facts * 1e6, 1),
                "postgres": round(streaming_postgres / facts * 1e6, 1),
            }
            if facts
            else None
        ),
        "end_to_end_cpu_s_python": round(cpu_python, 2),
        "end_to_end_cpu_s_postgres": round(cpu_postgres, 2),
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
                    runs.append(run(db, path, label, folder / "pg"))
                    if again:
                        runs.append(run(db, path, f"{label}, again (unchanged)", folder / "pg"))
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
