"""The deterministic sample of recorded answers read by hand (benchmarks/answers_handcheck.jsonl).

    python benchmarks/handcheck_sample.py current=benchmarks/results/eval_answers_financebench.jsonl \
        baseline=benchmarks/results/eval_answers_financebench_baseline.jsonl > /tmp/sample.txt

Per system and question type, rows in sha256(id) order, the first k (9 / 9 / 5 domain-relevant /
novel-generated / metrics-generated for the first system, 5 / 5 / 2 for the next); a group whose
picks hold one recorded verdict only (correct or not) also gets the first row of the other; an
answer identical to one already picked is skipped (a hand verdict names the answer by its digest).
Prints each pick with its question, reference, gold evidence and answer, for reading.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

FIRST = {"domain-relevant": 9, "novel-generated": 9, "metrics-generated": 5}
NEXT = {"domain-relevant": 5, "novel-generated": 5, "metrics-generated": 2}
SPLIT = Path("../shared/eval/financebench_dev.jsonl")


def _verdict(row: dict[str, Any]) -> str:
    return "correct" if row.get("recorded_verdict", row["verdict"]) == "correct" else "not"


def sample(systems: list[tuple[str, list[dict[str, Any]]]]) -> list[tuple[str, dict[str, Any]]]:
    picked: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()
    for number, (name, rows) in enumerate(systems):
        ordered = sorted(rows, key=lambda r: hashlib.sha256(r["id"].encode()).hexdigest())
        for kind, k in (FIRST if number == 0 else NEXT).items():
            pool = [r for r in ordered if r["question_type"] == kind and r["answer"] not in seen]
            group = pool[:k]
            if group and len({_verdict(r) for r in group}) == 1:
                other = next((r for r in pool if _verdict(r) != _verdict(group[0])), None)
                group += [other] if other else []
            for row in group:
                picked.append((name, row))
                seen.add(row["answer"])
    return picked


def main(argv: list[str]) -> None:
    if not argv or any("=" not in a for a in argv):
        sys.exit("usage: handcheck_sample.py NAME=RESULTS.jsonl [NAME=RESULTS.jsonl ...]")
    systems = []
    for arg in argv:
        name, path = arg.split("=", 1)
        systems.append((name, [json.loads(line) for line in Path(path).read_text().splitlines() if line]))
    gold = {}
    if SPLIT.is_file():
        gold = {q["id"]: q for q in map(json.loads, SPLIT.read_text().splitlines())}
    for number, (name, row) in enumerate(sample(systems)):
        digest = hashlib.sha256(row["answer"].encode()).hexdigest()[:12]
        print(f"#### {number} {name} {row['id']} answer_sha={digest} [{row['question_type']}]")
        print(f"Q: {row['question']}\nREF: {row['reference']}")
        for evidence in gold.get(row["id"], {}).get("gold_evidence", []):
            print(f"EVIDENCE: {evidence['evidence_text'][:700]}")
        print(f"ANSWER:\n{row['answer'][:1500]}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
