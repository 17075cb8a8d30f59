"""How long a `finagent` command takes before it does anything: the CLI's start-up, per checkout.

Every command pays it (and every CLI call an agent or a test makes). Each checkout runs in the same
environment with its own ``src`` first on the path, the runs interleaved, best and median of N:

    git worktree add /tmp/finagent-before <rev>
    python -m benchmarks.cli_startup --system before=/tmp/finagent-before --system after=. --runs 7

Writes benchmarks/results/cli_startup.json and .md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.common import RESULTS, machine, write_result

COMMANDS = {
    "finagent --help": ["--help"],
    "finagent facts --help": ["facts", "--help"],
    "a bad setting (one-line error)": ["search", "revenue"],
}
BAD_SETTING = {"FINAGENT_VECTOR_WEIGHT": "abc"}


def run_once(checkout: Path, args: list[str], label: str) -> float:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FINAGENT_")}
    env["PYTHONPATH"] = str(checkout.resolve() / "src")
    if label.startswith("a bad setting"):
        env |= BAD_SETTING
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "finagent.cli.main", *args], env=env, capture_output=True, check=False
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--system", action="append", required=True, help="name=checkout folder")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    systems = {name: Path(path) for name, path in (s.split("=", 1) for s in args.system)}
    seconds: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.runs):
        for label, command in COMMANDS.items():
            for name, checkout in systems.items():
                seconds.setdefault((name, label), []).append(run_once(checkout, command, label))
    rows = [
        {
            "system": name,
            "command": label,
            "best_s": round(min(times), 2),
            "median_s": round(statistics.median(times), 2),
        }
        for (name, label), times in seconds.items()
    ]
    write_result("cli_startup", {"machine": machine(), "runs": args.runs, "rows": rows})
    lines = [
        f"CLI start-up — {machine()['date']}, {machine()['cpus']} CPUs, best / median of {args.runs} runs:",
        "",
        "| command | " + " | ".join(systems) + " |",
        "|---|" + "---|" * len(systems),
    ]
    for label in COMMANDS:
        cells = [
            f"{r['best_s']} / {r['median_s']} s"
            for name in systems
            for r in rows
            if r["system"] == name and r["command"] == label
        ]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    (RESULTS / "cli_startup.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
