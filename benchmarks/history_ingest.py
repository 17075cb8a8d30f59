"""Historic XBRL instances (2010-2024 generations): facts/s read, and facts/s stored by an ingest.

    python benchmarks/history_ingest.py --rounds 3

Every instance of ../shared/data/edgar-history (NFLX 2010 in the xbrl.us namespaces, AAPL 2013, CRR
FY2017, GAHC 2024), each with the label linkbase its schema declares. Read: parse the XML, find and
read the label linkbase, extract every numeric fact with its fiscal period (best of ``--rounds``
passes). Ingest: `ingest path` of the folder into a fresh embedded store (discover, parse, identify,
store facts, link and derive), the way a user runs it.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from common import SHARED_DATA, embedded_server, fresh_database, machine, open_db, write_result

from finagent.embeddings import get_embedder
from finagent.ingest.discover import discover
from finagent.ingest.pipeline import IngestPipeline
from finagent.ingest.xbrl_instance import parse_xbrl_instance

FOLDER = SHARED_DATA / "edgar-history"


def instances() -> list[Path]:
    return sorted(Path(item.uri) for item in discover(FOLDER).items if item.uri.endswith(".xml"))


def time_reading(paths: list[Path], rounds: int) -> dict[str, object]:
    """Best of ``rounds`` passes per file (the machine is shared: the minimum is the cost)."""
    files: dict[str, dict[str, object]] = {}
    total_facts, total_s = 0, 0.0
    for path in paths:
        best = float("inf")
        facts = 0
        for _ in range(rounds):
            started = time.perf_counter()
            doc = parse_xbrl_instance(path)
            best = min(best, time.perf_counter() - started)
            facts = len(doc.facts)
        files[f"{path.parent.name}/{path.name}"] = {
            "title": doc.title,
            "facts": facts,
            "seconds": round(best, 3),
            "facts_per_s": round(facts / best),
            "megabytes": round(path.stat().st_size / 1e6, 2),
        }
        total_facts += facts
        total_s += best
    return {
        "files": files,
        "facts": total_facts,
        "seconds": round(total_s, 3),
        "facts_per_s": round(total_facts / total_s),
    }


def time_ingest(server_url: str) -> dict[str, object]:
    url = fresh_database(server_url, "bench_history_ingest")
    db = open_db(url)
    try:
        embedder = get_embedder(db.settings)
        started = time.perf_counter()
        found = discover(FOLDER)
        items = [item for item in found.items if item.uri.endswith(".xml")]
        report = IngestPipeline(db, embedder, db.settings).run(items)
        seconds = time.perf_counter() - started
    finally:
        db.close()
    return {
        "documents": report.documents,
        "failed": len(report.failed),
        "facts": report.facts,
        "derived_facts": report.derived_facts,
        "seconds": round(seconds, 2),
        "facts_per_s": round(report.facts / seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3, help="Passes over each file for the read timing.")
    args = parser.parse_args()
    result: dict[str, object] = {"machine": machine(), "read": time_reading(instances(), args.rounds)}
    with (
        tempfile.TemporaryDirectory(prefix="finagent-bench-", dir="/tmp") as tmp,
        embedded_server(Path(tmp) / "pg") as server_url,
    ):
        result["ingest"] = time_ingest(server_url)
    write_result("history_ingest", result)
    print(result)


if __name__ == "__main__":
    main()
