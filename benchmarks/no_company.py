"""Questions that name no company, or are mostly noise: wall time of ``finagent ask`` per system.

Each is answered about the companies whose filings match best, or refused with the companies the
store holds, in a bounded time: one model call, no model analysis or grading.

    python -m benchmarks.no_company --system before=/tmp/finagent-main --system after=. \
        --home-root /tmp/finagent-bench --store new

Writes <results-dir>/no_company.json and no_company.md.
"""

from __future__ import annotations

import json
from typing import Any

from benchmarks.figures import (
    System,
    checkout_version,
    machine,
    parse_answer,
    run_arguments,
    run_cli,
    run_setup,
    system_env,
)

QUESTIONS = {
    "emoji": "🍎📉 revenue؟",
    "40,000 characters": " ".join(["revenue"] * 5000),
    "no company named": "What was the total revenue last quarter?",
}


def row(system: str, label: str, result: Any) -> dict[str, Any]:
    answer = parse_answer(result.stdout) or {}
    return {
        "system": system,
        "question": label,
        "seconds": round(result.seconds, 1),
        "exit_code": result.returncode,
        "model_calls": len(answer.get("llm_calls") or []),
        "confidence": answer.get("confidence"),
        "answer": str(answer.get("answer") or "")[:300],
    }


def render(report: dict[str, Any]) -> str:
    names = [s["name"] for s in report["systems"]]
    lines = [
        f"Questions naming no company — {report['machine']['date']}, {report['machine']['cpus']} CPUs, "
        "offline model (seconds · model calls):",
        "",
        "| question | " + " | ".join(f"{s['name']} ({s['version'][:7]})" for s in report["systems"]) + " |",
        "|---" * (len(names) + 1) + "|",
    ]
    for label in QUESTIONS:
        cells = []
        for name in names:
            found = next((r for r in report["rows"] if r["system"] == name and r["question"] == label), None)
            cells.append(f"{found['seconds']} s · {found['model_calls']}" if found else "–")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = run_arguments(__doc__)
    parser.add_argument("--store", help="One store (a home under --home-root) for every system.")
    args = parser.parse_args(argv)
    systems, home_root, cache_dir = run_setup(args)
    rows, infos = [], []
    for system in systems:
        store = System(args.store or system.name, system.path)
        env = system_env(store, home_root, cache_dir)
        for label, question in QUESTIONS.items():
            command = ["-m", "finagent.cli.main", "ask", question, "--json", "--provider", args.provider]
            rows.append(row(system.name, label, run_cli(command, env, home_root / store.name, args.timeout)))
            print(f"[{system.name}] {label}: {rows[-1]['seconds']} s", flush=True)
        infos.append({"name": system.name, "version": checkout_version(system.path)})
    report = {"machine": machine(), "systems": infos, "rows": rows}
    args.results_dir.mkdir(parents=True, exist_ok=True)
    (args.results_dir / "no_company.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    (args.results_dir / "no_company.md").write_text(render(report))
    print(render(report))


if __name__ == "__main__":
    main()
