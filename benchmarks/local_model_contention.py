"""The offline model alone and beside a second model process, with libgomp's default wait policy
(threads spin at their barriers) and with the passive policy finagent sets.

Each request is one chat completion of a fixed shape (a ~1,100-token prompt, 200 tokens written, the
end-of-text token ignored so every run writes the same count), in its own process, as two `finagent
ask` commands or two test workers would run. Every scenario is measured in the same run:

    python -m benchmarks.local_model_contention --runs 2

Writes benchmarks/results/local_model_contention.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from benchmarks.common import REPO, RESULTS, machine, write_result

POLICIES = {"libgomp default (spin)": None, "passive (finagent)": "PASSIVE"}
PROMPT_CHARS = 4200
WRITTEN = 200

CHILD = """
import json, sys, time, urllib.request
from finagent.llm import local_model
from finagent.settings import Settings
if sys.argv[1] == "default":
    local_model.wait_passively = lambda: None
server = local_model.LocalModelServer(None, settings=Settings(), n_parallel=1).ensure_started()
print("ready", flush=True)
sys.stdin.readline()  # wait for the go signal, so the two processes start their requests together
body = json.dumps({"model": server.model_name, "messages": [{"role": "user", "content": sys.argv[2]}],
                   "max_tokens": int(sys.argv[3]), "temperature": 0, "ignore_eos": True,
                   "cache_prompt": False}).encode()
request = urllib.request.Request(server.base_url + "/chat/completions", data=body,
    headers={"Authorization": f"Bearer {server.api_key}", "Content-Type": "application/json"})
started = time.monotonic()
reply = json.load(urllib.request.urlopen(request, timeout=3600))
timings = reply.get("timings", {})
print(json.dumps({"seconds": time.monotonic() - started,
                  "prompt_tokens": reply["usage"]["prompt_tokens"],
                  "prompt_tps": timings.get("prompt_per_second"),
                  "written_tps": timings.get("predicted_per_second")}), flush=True)
"""


def prompt() -> str:
    text = (REPO / "README.md").read_text()[:PROMPT_CHARS]
    return "Summarize this text in five sentences.\n\n" + text


def run(policy: str | None, processes: int) -> list[dict[str, float]]:
    """Start `processes` model processes, then send each its request at the same moment."""
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if policy:
        env["OMP_WAIT_POLICY"] = policy
    args = [sys.executable, "-c", CHILD, "default" if policy is None else "set", prompt(), str(WRITTEN)]
    children = [
        subprocess.Popen(args, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for _ in range(processes)
    ]
    for child in children:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    results = []
    for child in children:
        out, _ = child.communicate(timeout=3600)
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    measured: dict[tuple[str, int], list[dict[str, float]]] = {}
    for _ in range(args.runs):
        for processes in (1, 2):
            for name, policy in POLICIES.items():
                measured.setdefault((name, processes), []).extend(run(policy, processes))
    rows = [
        {
            "policy": name,
            "processes": processes,
            "request_s": round(statistics.median(r["seconds"] for r in results), 1),
            "prompt_tps": round(statistics.median(r["prompt_tps"] for r in results), 1),
            "written_tps": round(statistics.median(r["written_tps"] for r in results), 1),
            "prompt_tokens": results[0]["prompt_tokens"],
        }
        for (name, processes), results in measured.items()
    ]
    write_result(
        "local_model_contention",
        {"machine": machine(), "runs": args.runs, "written_tokens": WRITTEN, "rows": rows},
    )
    lines = [
        f"Offline model, one request per process ({rows[0]['prompt_tokens']} prompt tokens, {WRITTEN} "
        f"written) — {machine()['date']}, {machine()['cpus']} CPUs, median of {args.runs} runs:",
        "",
        "| wait policy | processes at once | seconds per request | prompt tok/s | written tok/s |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {r['policy']} | {r['processes']} | {r['request_s']} | {r['prompt_tps']} | {r['written_tps']} |"
        for r in sorted(rows, key=lambda r: (r["processes"], r["policy"]))
    ]
    (RESULTS / "local_model_contention.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    started = time.monotonic()
    main()
    print(f"({time.monotonic() - started:.0f} s)")
