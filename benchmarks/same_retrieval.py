"""Did a change move retrieval? Compare two `finagent eval retrieval` runs of the same corpus.

A refactor must not move retrieval numbers. Run the evaluation twice on one corpus database — once
with the old checkout first on PYTHONPATH, once with the new — then compare the rows: every system's
ranked chunk ids per question must be identical (only seconds may differ), and so the metrics.

    PYTHONPATH=<old checkout>/src python -m finagent.cli.main eval retrieval sec10q \
        --split ../shared/eval/sec10q_dev.jsonl --systems dense,seed-hybrid,finagent --output /tmp/old
    finagent eval retrieval sec10q --split ... --systems dense,seed-hybrid,finagent --output /tmp/new
    python benchmarks/same_retrieval.py /tmp/old /tmp/new --name sec10q --output results/x.json

Writes (with --output) the metrics of both runs and the count of rows that differ.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

_TIMING = {"seconds", "latency_ms"}
_METRICS = ("doc_hit@1", "doc_hit@5", "doc_recall", "page_recall@10", "page_mrr")


def _rows(stem: Path) -> dict[tuple[str, str], dict[str, Any]]:
    lines = stem.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    return {(r["system"], r["id"]): {k: v for k, v in r.items() if k not in _TIMING} for r in rows}


def compare(old: Path, new: Path) -> dict[str, Any]:
    """Rows (system × question) of both runs, the ones that differ beyond timing, both runs' metrics."""
    before, after = _rows(old), _rows(new)
    differing = sorted(
        f"{s}/{q}" for s, q in before.keys() | after.keys() if before.get((s, q)) != after.get((s, q))
    )
    summaries = [json.loads(p.with_suffix(".json").read_text(encoding="utf-8")) for p in (old, new)]
    metrics = {
        system: {
            name: [
                summaries[0][system]["all"].get(name),
                summaries[1].get(system, {}).get("all", {}).get(name),
            ]
            for name in _METRICS
            if name in summaries[0][system]["all"]
        }
        for system in summaries[0]
    }
    return {
        "rows": len(before),
        "rows_differing": len(differing),
        "differing": differing[:20],
        "metrics": metrics,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="Results stem of the old run (without .jsonl/.json).")
    parser.add_argument("new", type=Path, help="Results stem of the new run.")
    parser.add_argument("--name", default="", help="Corpus name, recorded in the output.")
    parser.add_argument("--output", type=Path, help="Write the comparison as JSON here.")
    args = parser.parse_args()
    result = {"corpus": args.name, **compare(args.old, args.new)}
    print(f"{args.name or 'runs'}: {result['rows']} rows, {result['rows_differing']} differ beyond timing")
    for system, values in result["metrics"].items():
        print(f"  {system}: " + ", ".join(f"{k} {a} -> {b}" for k, (a, b) in values.items()))
    if args.output:
        args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
