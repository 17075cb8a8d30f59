"""Wall time of the questions finagent should refuse at once, as a user runs them (`finagent ask`).

Each case is run as a fresh process against one store (FINAGENT_HOME / FINAGENT_DATABASE_URL from
the environment), once per system: ``--system after=.`` is this checkout, ``--system before=<path>``
another checkout (put first on PYTHONPATH), so the baseline is measured in the same run. A case
that has not answered after ``--timeout`` seconds is recorded as timed out (the process is killed).

    python -m benchmarks.refusals --system before=/tmp/old --system after=. \
        --output benchmarks/results/refusals
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

CASES: dict[str, list[str]] = {
    "company not in the store": ["What was Tesla's revenue in 2023?"],
    "unknown company": ["What was Teslaa's revenue in 2023?"],
    "made-up company": ["What did Foobarix Corp report as net income in FY2023?"],
    "emoji question": ["🚀📈💰🤑"],
    "invalid --period": ["What was Apple's revenue?", "--period", "Q9 FY2023"],
    "unknown --ticker": ["What was revenue?", "--ticker", "ZZZZ"],
    "bad setting FINAGENT_VECTOR_WEIGHT=abc": ["What was Apple's revenue in FY2023?"],
    "bad setting FINAGENT_POOL_MAX_SIZE=-3": ["What was Apple's revenue in FY2023?"],
    "bad setting FINAGENT_DATABASE_URL=not-a-url": ["What was Apple's revenue in FY2023?"],
}


def _environment(case: str, source: Path) -> dict[str, str]:
    env = dict(os.environ) | {"PYTHONPATH": str(source / "src"), "COLUMNS": "200"}
    if case.startswith("bad setting "):
        name, _, value = case.removeprefix("bad setting ").partition("=")
        env[name] = value
    return env


def run_case(case: str, args: list[str], source: Path, timeout: float) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "finagent.cli.main", "ask", *args, "--quiet"],
            capture_output=True,
            text=True,
            env=_environment(case, source),
            timeout=timeout,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"case": case, "seconds": None, "timed_out": True, "exit": None, "message": ""}
    seconds = round(time.perf_counter() - started, 2)
    output = " ".join((result.stdout + " " + result.stderr).split())
    return {
        "case": case,
        "seconds": seconds,
        "timed_out": False,
        "exit": result.returncode,
        "traceback": "Traceback" in output,
        "message": output[:300],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", action="append", required=True, help="name=checkout path")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds before a case is killed")
    parser.add_argument("--output", type=Path, required=True, help="results stem (.json and .md)")
    options = parser.parse_args()
    systems = dict(s.split("=", 1) for s in options.system)
    results: dict[str, list[dict[str, Any]]] = {}
    for name, path in systems.items():
        results[name] = []
        for case, args in CASES.items():
            row = run_case(case, args, Path(path).resolve(), options.timeout)
            results[name].append(row)
            print(f"{name:8} {case:45} {row['seconds']}s exit {row['exit']}", flush=True)
    options.output.parent.mkdir(parents=True, exist_ok=True)
    options.output.with_suffix(".json").write_text(json.dumps(results, indent=2, ensure_ascii=False))
    names = list(systems)
    lines = ["| case | " + " | ".join(f"{n} (s)" for n in names) + " |", "|---|" + "---|" * len(names)]
    for i, case in enumerate(CASES):
        cells = []
        for n in names:
            row = results[n][i]
            cells.append(f"> {options.timeout:.0f} (killed)" if row["timed_out"] else f"{row['seconds']:.1f}")
        lines.append(f"| {case} | " + " | ".join(cells) + " |")
    options.output.with_suffix(".md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
