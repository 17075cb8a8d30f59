"""Long-history benchmark: trends over the longest series the store holds, "since" a year, "ever" (yes or
no over every period held), earliest against latest and CAGR, answered through the real agent
(``finagent ask``, offline model, FINAGENT_OFFLINE=1) and scored exactly; seconds per question.

    python -m benchmarks.long_history                      # builds its store under --home, then asks
    python -m benchmarks.long_history --home /tmp/lh --ids lh-01,lh-03

Store: Apple (iXBRL 10-K/10-Qs, XBRL instances of FY2022/FY2023 and the 2013 10-Q), Netflix, Union
Pacific and CARBO Ceramics (a delisted company's FY2017 instance) from ``../shared``, and Snowflake's
SEC company facts when this checkout has ``finagent ingest companyfacts`` (questions marked
``"requires": "companyfacts"`` are skipped otherwise, and the report says so).

Gold (``benchmarks/long_history/questions.jsonl``): figures read by hand from the statements or the
instance documents (each question's ``source``), growth and CAGR worked out by hand from them. A
question passes when its answer holds every gold string (one of the alternatives each: the same figure
as the answer may scale it), opens with the right yes or no for an "ever" question, and has no figure
marked [unverified]. Writes benchmarks/results/long_history.{jsonl,json,md}.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
QUESTIONS = REPO / "benchmarks" / "long_history" / "questions.jsonl"
RESULTS = REPO / "benchmarks" / "results"
SOURCES = (
    "filings/edgar/AAPL",
    "edgar-more/AAPL",
    "edgar-more/xbrl-instances/AAPL",
    "edgar-history/AAPL",
    "filings/edgar/NFLX",
    "edgar-more/xbrl-instances/NFLX",
    "edgar-history/NFLX",
    "edgar-more/UNP",
    "edgar-history/CRR",
)
COMPANY_FACTS = "edgar-history/companyfacts/CIK0001640147.json"
COMPANY_LIST = "sec/company_tickers.json"  # the CIK's ticker (SNOW)
TIMEOUT = 300  # one question
INGEST_TIMEOUT = 3600  # building the store embeds every filing: minutes on a busy machine


def cli(
    args: list[str], env: dict[str, str], timeout: float = TIMEOUT
) -> tuple[subprocess.CompletedProcess[str], float]:
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "finagent.cli.main", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
        cwd=REPO,
    )
    return result, time.perf_counter() - start


def environment(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "FINAGENT_HOME": str(home),
            "FINAGENT_OFFLINE": "1",
            "HF_HUB_OFFLINE": "1",
            "PYTHONPATH": str(REPO / "src"),
        }
    )
    env.setdefault("FINAGENT_CACHE_DIR", str(Path.home() / ".local" / "share" / "finagent" / "cache"))
    return env


def build_store(env: dict[str, str], shared: Path) -> dict[str, Any]:
    """Ingest the sources (idempotent: a rerun adds nothing); company facts when the command exists."""
    paths = [str(shared / s) for s in SOURCES]
    result, seconds = cli(["ingest", "path", *paths], env, INGEST_TIMEOUT)
    if result.returncode != 0:
        raise SystemExit(f"ingest failed: {result.stderr[-2000:]}")
    helped, _ = cli(["ingest", "--help"], env)
    company_facts = "companyfacts" in helped.stdout
    if company_facts:
        listed, _ = cli(["ingest", "companyfacts", "--help"], env)
        names = ["--company-list", str(shared / COMPANY_LIST)] if "--company-list" in listed.stdout else []
        command = ["ingest", "companyfacts", *names, str(shared / COMPANY_FACTS)]
        facts, more = cli(command, env, INGEST_TIMEOUT)
        company_facts = facts.returncode == 0
        seconds += more
    return {"ingest_seconds": round(seconds, 1), "company_facts": company_facts}


def score(question: dict[str, Any], answer: str) -> dict[str, Any]:
    missing = [alts[0] for alts in question["gold"] if not any(a in answer for a in alts)]
    yes_no_ok = True
    if "yes" in question:
        yes_no_ok = answer.lstrip().startswith("Yes" if question["yes"] else "No")
    unverified = "[unverified]" in answer
    return {
        "missing": missing,
        "yes_no_ok": yes_no_ok,
        "unverified": unverified,
        "passed": not missing and yes_no_ok and not unverified,
    }


def ask(question: dict[str, Any], env: dict[str, str]) -> dict[str, Any]:
    result, seconds = cli(["ask", "-q", "--json", "--provider", "local", question["question"]], env)
    try:
        data = json.loads(result.stdout)
    except json.JSONDecodeError:
        data = {}
    answer = str(data.get("answer") or "")
    return {
        "id": question["id"],
        "category": question["category"],
        "question": question["question"],
        "seconds": round(seconds, 2),
        "graph_seconds": data.get("wall_time_s"),
        "llm_calls": len(data.get("llm_calls") or []),
        "validation": (data.get("validation") or {}).get("status"),
        "answer": answer,
        "error": None if data else result.stderr[-1500:],
        **score(question, answer),
    }


def render(report: dict[str, Any]) -> str:
    lines = [
        f"Long-history benchmark — {report['date']}, {report['cpus']} CPUs, offline model, "
        f"{report['asked']} questions asked ({report['skipped']} skipped: company facts ingest not in "
        "this checkout)"
        if report["skipped"]
        else f"Long-history benchmark — {report['date']}, "
        f"{report['cpus']} CPUs, offline model, {report['asked']} questions",
        "",
        f"passed {report['passed']}/{report['asked']}; median {report['median_seconds']} s, "
        f"max {report['max_seconds']} s per question; model calls {report['llm_calls']}",
        "",
        "| id | category | passed | seconds | missing / why |",
        "|---|---|---|---|---|",
    ]
    for row in report["rows"]:
        why = "; ".join(row["missing"]) or ("" if row["yes_no_ok"] else "wrong yes/no")
        why += " [unverified]" if row["unverified"] else ""
        mark = "✓" if row["passed"] else "✗"
        lines.append(f"| {row['id']} | {row['category']} | {mark} | {row['seconds']} | {why} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=Path("/tmp/finagent-long-history"))
    parser.add_argument("--ids", default="", help="Comma-separated question ids (default: all).")
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    parser.add_argument("--shared", type=Path, default=SHARED, help="../shared/data of the checkout.")
    args = parser.parse_args(argv)
    questions = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]
    if args.ids:
        wanted = set(args.ids.split(","))
        questions = [q for q in questions if q["id"] in wanted]
    args.home.mkdir(parents=True, exist_ok=True)
    env = environment(args.home)
    store = build_store(env, args.shared)
    asked = [q for q in questions if q.get("requires") != "companyfacts" or store["company_facts"]]
    rows = []
    for question in asked:
        row = ask(question, env)
        rows.append(row)
        print(
            f"{row['id']} {'pass' if row['passed'] else 'FAIL'} {row['seconds']} s {row['missing']}",
            flush=True,
        )
    seconds = [r["seconds"] for r in rows]
    report = {
        "date": time.strftime("%Y-%m-%d"),
        "cpus": os.cpu_count(),
        **store,
        "asked": len(rows),
        "skipped": len(questions) - len(asked),
        "passed": sum(r["passed"] for r in rows),
        "median_seconds": round(statistics.median(seconds), 2) if seconds else None,
        "max_seconds": max(seconds) if seconds else None,
        "llm_calls": sum(r["llm_calls"] for r in rows),
        "rows": rows,
    }
    args.results_dir.mkdir(parents=True, exist_ok=True)
    (args.results_dir / "long_history.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    summary = {k: v for k, v in report.items() if k != "rows"}
    (args.results_dir / "long_history.json").write_text(json.dumps(summary, indent=2) + "\n")
    (args.results_dir / "long_history.md").write_text(render(report))
    print(render(report))


if __name__ == "__main__":
    main()
