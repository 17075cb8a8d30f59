"""Questions about the parts of a company (a segment's, a product's or a region's figure; which part
drove a change), answered through the whole graph against a store, scored on the answer's computed
opening: each gold figure (read by hand from the 10-K) must be in it.

The writer's model is scripted (one plain sentence), so only what code computes is measured.

    FINAGENT_HOME=/tmp/store python -m benchmarks.parts_questions [--half tune|holdout]

Gold: benchmarks/parts/questions.jsonl (id, half, ticker, question, expect).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from finagent.agent.context import Context
from finagent.agent.graph import build_graph
from finagent.agent.resources import configure_resources
from finagent.settings import get_settings

GOLD = Path(__file__).parent / "parts" / "questions.jsonl"


class _Scripted:
    """A chat-model factory answering every role with one fixed reply (no model is run)."""

    def __call__(self, role: str, context: Any) -> Any:
        from tests.fakes import ScriptedChatModel

        replies: dict[str, Any] = {
            "analyze": {"intent": "parts", "sources": ["10-K"], "answer_mode": "standard", "keywords": []},
            "evaluate": {"completeness": 95, "specificity": 95, "accuracy": 95, "clarity": 95},
        }
        return ScriptedChatModel(replies=[replies.get(role, "The filing reports it [10K1].")] * 20, calls=[])


def run(half: str | None) -> list[dict[str, Any]]:
    """Each question's answer opening and which gold figures it holds."""
    configure_resources(get_settings(), chat_model_factory=_Scripted())
    graph = build_graph()
    results = []
    for line in GOLD.read_text().splitlines():
        item = json.loads(line)
        if half and item["half"] != half:
            continue
        context = Context(use_tools=False, record_runs=False)
        out = asyncio.run(graph.ainvoke({"question": item["question"]}, context=context))
        opening = str(out.get("answer") or "").split("\n\n")[0]
        missing = [e for e in item["expect"] if e not in opening]
        results.append({**item, "ok": not missing, "missing": missing, "opening": opening[:400]})
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=["tune", "holdout"])
    args = parser.parse_args()
    results = run(args.half)
    for r in results:
        print(f"{'PASS' if r['ok'] else 'FAIL'} {r['id']} [{r['half']}] {r['question']}")
        if not r["ok"]:
            print(f"    missing {r['missing']}\n    opening: {r['opening']}")
    for half in ("tune", "holdout"):
        own = [r for r in results if r["half"] == half]
        if own:
            print(f"{half}: {sum(r['ok'] for r in own)}/{len(own)}")


if __name__ == "__main__":
    main()
