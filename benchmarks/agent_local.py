"""End-to-end questions with the offline local model: wall time, LLM calls, tokens per question.

Runs against the configured store (default: the embedded one; ingest ../shared/data/filings first).
Usage: python benchmarks/agent_local.py [--provider local]
Writes benchmarks/results/agent_local.json.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from typing import Any

from benchmarks.common import RESULTS, machine

from finagent.agent.api import ask
from finagent.agent.resources import close_resources, get_resources
from finagent.llm.local_model import get_local_server

QUESTIONS = [
    (
        "direct, single company",
        "What were Apple's total net sales in the quarter ended July 1, 2023?",
        "direct",
    ),
    (
        "two-company comparison",
        "How did Apple's and Microsoft's total revenue change over the quarters ending between "
        "June 2022 and June 2023?",
        None,
    ),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--provider", default="local")
    args = parser.parse_args()
    started = time.perf_counter()
    resources = get_resources()
    resources.database()
    resources.query_vector("warm up")
    if args.provider == "local":
        get_local_server(resources.settings).ensure_started()
    warmup = time.perf_counter() - started
    runs: list[dict[str, Any]] = []
    for name, question, mode in QUESTIONS:
        answer = ask(question, provider=args.provider, mode=mode)
        roles = Counter(c["role"] for c in answer.llm_calls)
        runs.append(
            {
                "name": name,
                "question": question,
                "wall_time_s": answer.wall_time_s,
                "llm_calls": len(answer.llm_calls),
                "llm_calls_by_role": dict(roles),
                "input_tokens": sum(int(c.get("input_tokens") or 0) for c in answer.llm_calls),
                "output_tokens": sum(int(c.get("output_tokens") or 0) for c in answer.llm_calls),
                "llm_seconds": round(sum(float(c.get("latency_s") or 0) for c in answer.llm_calls), 1),
                "iterations": answer.iterations,
                "confidence": answer.confidence,
                "citations": len(answer.citations),
                "periods_covered": answer.periods_covered,
                "answer": answer.answer,
            }
        )
        print(json.dumps(runs[-1], indent=2))
    close_resources()
    result = {
        "machine": machine(),
        "provider": args.provider,
        "model_setup_s": round(warmup, 1),
        "runs": runs,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "agent_local.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
