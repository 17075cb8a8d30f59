"""Summarise `finagent eval answers` rows: accuracy, failure rate and seconds, overall and per type.

    python benchmarks/summarize_answers.py results/a.jsonl [results/b.jsonl ...]

Several files are one run split in parts (a resumed run, `--ids`); a question id seen twice keeps
its last row.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

TYPES = ("all", "domain-relevant", "metrics-generated", "novel-generated")


def load(paths: list[str]) -> dict[str, dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                rows[row["id"]] = row
    return rows


def table(rows: dict[str, dict[str, Any]]) -> str:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows.values():
        groups["all"].append(row)
        groups[row["question_type"]].append(row)
    lines = [
        "| questions | n | accuracy | failed to answer | mean s | median s |",
        "|---|---|---|---|---|---|",
    ]
    for name in TYPES:
        group = groups.get(name, [])
        if not group:
            continue
        accuracy = sum(r["verdict"] == "correct" for r in group) / len(group)
        failed = sum(r["verdict"] == "failed" for r in group) / len(group)
        seconds = [float(r["seconds"]) for r in group]
        lines.append(
            f"| {name} | {len(group)} | {accuracy:.3f} | {failed:.3f} | "
            f"{statistics.mean(seconds):.1f} | {statistics.median(seconds):.1f} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(load(sys.argv[1:])))
