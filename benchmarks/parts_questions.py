"""Questions about the parts of a company and about the whole store (a segment's, a product's or a
region's figure; which part drove a change; screens over every company; an IFRS filer; several metrics
with the change asked for one), answered through the whole graph against one store, scored on the
answer's computed opening: each gold figure (read by hand from the filing) must be in it.

The writer's model is scripted (one plain sentence) unless ``--local-model``, so only what code
computes is measured; the seconds are the graph's, with or without the offline model writing.

    python -m benchmarks.parts_questions [--half tune|holdout] [--home DIR] [--local-model] [--output NAME]

The store (default /tmp/finagent-bench/parts) is built once: ../shared/data/filings and
../shared/data/edgar-more, plus the IFRS filer of benchmarks/parts/ifrs (SEC company facts of our own
making: no IFRS filer is in ../shared). Gold: benchmarks/parts/questions.jsonl (id, half, kind,
ticker, question, expect: figures the opening must hold, each "a|b" where the answer may say
either, as "+2.4%|grew 2.4%").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.common import SHARED_DATA, machine, write_result

HERE = Path(__file__).parent / "parts"
GOLD = HERE / "questions.jsonl"
IFRS = HERE / "ifrs"
MARKER = "parts-bench-ingest.json"


class _Scripted:
    """A chat-model factory answering every role with one fixed reply (no model is run)."""

    def __call__(self, role: str, context: Any) -> Any:
        from tests.fakes import ScriptedChatModel

        replies: dict[str, Any] = {
            "analyze": {"intent": "parts", "sources": ["10-K"], "answer_mode": "standard", "keywords": []},
            "evaluate": {"completeness": 95, "specificity": 95, "accuracy": 95, "clarity": 95},
        }
        return ScriptedChatModel(replies=[replies.get(role, "The filing reports it [10K1].")] * 20, calls=[])


def prepare_store(home: Path) -> None:
    """Ingest the benchmark's documents into ``home`` once (a marker records it)."""
    if (home / MARKER).exists():
        return
    home.mkdir(parents=True, exist_ok=True)
    cli = [sys.executable, "-m", "finagent.cli.main"]
    steps = [
        [*cli, "ingest", "path", str(SHARED_DATA / "filings"), str(SHARED_DATA / "edgar-more")],
        [*cli, "ingest", "companyfacts", str(IFRS), "--company-list", str(IFRS / "company_tickers.json")],
    ]
    for step in steps:
        print("$", " ".join(step[2:]), flush=True)
        subprocess.run(step, check=True, env=os.environ.copy(), stdout=subprocess.DEVNULL)
    (home / MARKER).write_text(json.dumps({"steps": [s[2:] for s in steps]}, indent=1))


def run(half: str | None, local_model: bool = False) -> list[dict[str, Any]]:
    """Each question's answer opening, which gold figures it lacks, and its seconds (with the
    offline model writing the words when ``local_model``, else a scripted one)."""
    from finagent.agent.context import Context
    from finagent.agent.graph import build_graph
    from finagent.agent.resources import configure_resources
    from finagent.settings import get_settings

    configure_resources(get_settings(), chat_model_factory=None if local_model else _Scripted())
    graph = build_graph()
    results = []
    for line in GOLD.read_text().splitlines():
        item = json.loads(line)
        if half and item["half"] != half:
            continue
        context = Context(use_tools=False, record_runs=False)
        started = time.perf_counter()
        out = asyncio.run(graph.ainvoke({"question": item["question"]}, context=context))
        seconds = time.perf_counter() - started
        opening = str(out.get("answer") or "").split("\n\n")[0]
        missing = [e for e in item["expect"] if not any(alt in opening for alt in e.split("|"))]
        results.append(
            {
                **item,
                "ok": not missing,
                "missing": missing,
                "seconds": round(seconds, 2),
                "opening": opening[:600],
            }
        )
    return results


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Right openings per half and per kind, and the median seconds per half."""
    summary: dict[str, Any] = {}
    for half in ("tune", "holdout"):
        own = [r for r in results if r["half"] == half]
        if not own:
            continue
        kinds = sorted({r["kind"] for r in own})
        summary[half] = {
            "right": sum(r["ok"] for r in own),
            "questions": len(own),
            "median_seconds": round(statistics.median(r["seconds"] for r in own), 2),
            "by_kind": {
                k: f"{sum(r['ok'] for r in own if r['kind'] == k)}/{sum(r['kind'] == k for r in own)}"
                for k in kinds
            },
        }
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=["tune", "holdout"])
    parser.add_argument("--home", type=Path, default=Path("/tmp/finagent-bench/parts"))
    parser.add_argument("--local-model", action="store_true", help="The offline model writes the words.")
    parser.add_argument("--output", help="Write benchmarks/results/<NAME>.json (rows and summary).")
    args = parser.parse_args()
    os.environ["FINAGENT_HOME"] = str(args.home)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    prepare_store(args.home)
    results = run(args.half, args.local_model)
    for r in results:
        verdict = "PASS" if r["ok"] else "FAIL"
        print(f"{verdict} {r['id']} [{r['half']}/{r['kind']}] {r['seconds']:.1f}s {r['question']}")
        if not r["ok"]:
            print(f"    missing {r['missing']}\n    opening: {r['opening']}")
    summary = summarize(results)
    print(json.dumps(summary, indent=1))
    if args.output:
        writer = "local model" if args.local_model else "scripted model (the graph without a model)"
        payload = {"machine": machine(), "writer": writer, "summary": summary, "rows": results}
        write_result(args.output, payload)


if __name__ == "__main__":
    main()
