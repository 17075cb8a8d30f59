"""Answers benchmark: does the answer's first sentence answer the ask (a ranking's order, an overtake's
yes and when, a direction's yes or no, a growth winner, a CAGR, the same quarter of another year, the
first three fiscal quarters reported in a year, a restatement), is every figure exact, and is no
sentence unsupported? Seconds per question, for several checkouts in the same run.

    git worktree add /tmp/finagent-main <baseline commit>
    python -m benchmarks.answers --system main=/tmp/finagent-main --system new=.
    python -m benchmarks.answers --ids ans-01,ans-09 --results-dir /tmp/answers

Questions (``benchmarks/answers/questions.jsonl``, gold read by hand from the statements) run against
one of two stores per system: ``main`` (``../shared/data/filings`` + ``edgar-more``, as the figures
benchmark) and ``recast`` (Netflix's FY2024 10-K beside its FY2023 XBRL instance with two values
changed, so that the later filing recasts them: ``../shared`` holds no restatement). The recast
folder is written under the home root at run time, never into the repository.

Writes <results-dir>/answers.jsonl (system × question), answers.json and answers.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

from benchmarks.answers_score import score
from benchmarks.figures import (
    REPO,
    RESULTS,
    SHARED_DATA,
    System,
    check_import,
    checkout_version,
    load_questions,
    machine,
    parse_answer,
    parse_system,
    read_rows,
    run_cli,
    system_env,
    warm_up,
)
from benchmarks.figures import ingest as ingest_main
from lxml import etree

QUESTIONS = REPO / "benchmarks" / "answers" / "questions.jsonl"
NETFLIX_10K = SHARED_DATA / "filings" / "edgar" / "NFLX" / "10-K" / "nflx-10-k-2025-01-27.html"
NETFLIX_FY2023 = SHARED_DATA / "edgar-more" / "xbrl-instances" / "NFLX" / "nflx-20240126_htm.xml"
# (concept, context, value as filed, value as "first reported" in the recast store)
RECAST = (
    ("NetIncomeLoss", "c-1", "5407990000", "5398990000"),
    ("Revenues", "c-8", "31615550000", "31605550000"),
)


def build_recast(folder: Path) -> Path:
    """Netflix's FY2024 10-K and its FY2023 instance with the RECAST values changed (the 10-K then
    restates them)."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / NETFLIX_10K.name
    if not target.exists():
        target.symlink_to(NETFLIX_10K)
    tree = etree.parse(str(NETFLIX_FY2023))
    changed = 0
    for element in tree.iter():
        if not isinstance(element.tag, str):
            continue
        name = etree.QName(element).localname
        for concept, context, filed, first in RECAST:
            if name == concept and element.get("contextRef") == context and (element.text or "") == filed:
                element.text = first
                changed += 1
    if changed < len(RECAST):
        raise SystemExit(f"{NETFLIX_FY2023}: only {changed} of the {len(RECAST)} values to recast were found")
    tree.write(str(folder / NETFLIX_FY2023.name), xml_declaration=True, encoding="utf-8")
    label = NETFLIX_FY2023.with_name(NETFLIX_FY2023.name.replace("_htm.xml", "_lab.xml"))
    (folder / label.name).write_bytes(label.read_bytes())
    return folder


def ingest_recast(system: System, env: dict[str, str], home: Path, source: Path) -> dict[str, Any]:
    marker = home / "answers-recast-ingest.json"
    version = checkout_version(system.path)
    if marker.exists() and json.loads(marker.read_text()).get("version") == version:
        return {"skipped": True}
    result = run_cli(["-m", "finagent.cli.main", "ingest", "path", str(source)], env, home, None)
    (home / "ingest.log").write_text(result.stdout + result.stderr)
    summary = {"version": version, "exit_code": result.returncode, "seconds": round(result.seconds, 1)}
    marker.write_text(json.dumps(summary) + "\n")
    print(f"[{system.name}] recast store: exit {result.returncode} in {result.seconds:.0f} s", flush=True)
    return summary


def question_row(system: System, question: dict[str, Any], result: Any) -> dict[str, Any]:
    answer = parse_answer(result.stdout) if result.returncode == 0 else None
    text = str(answer.get("answer") or "") if answer else ""
    validation = (answer or {}).get("validation") or {}
    return {
        "system": system.name,
        "id": question["id"],
        "category": question["category"],
        "question": question["question"],
        "seconds": round(result.seconds, 1),
        "ok": answer is not None,
        "timed_out": result.timed_out,
        "answer": text,
        "validation_status": validation.get("status"),
        "confidence": (answer or {}).get("confidence"),
        "llm_calls": len((answer or {}).get("llm_calls") or []),
        "error": None if answer is not None else result.stderr[-2000:],
        **score(text, question, validation.get("status")),
    }


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    seconds = [float(r["seconds"]) for r in rows]

    def count(key: str) -> int:
        return sum(bool(r[key]) for r in rows)

    by_category: dict[str, Any] = {}
    for category in sorted({r["category"] for r in rows}):
        part = [r for r in rows if r["category"] == category]
        by_category[category] = {
            "questions": len(part),
            "passed": sum(bool(r["passed"]) for r in part),
            "first_ok": sum(bool(r["first_ok"]) for r in part),
            "all_exact": sum(bool(r["all_exact"]) for r in part),
            "median_seconds": round(statistics.median(float(r["seconds"]) for r in part), 1),
        }
    return {
        "questions": len(rows),
        "passed": count("passed"),
        "first_ok": count("first_ok"),
        "all_exact": count("all_exact"),
        "unsupported": count("unsupported"),
        "unsupported_confident": sum(bool(r["unsupported"]) and (r["confidence"] or 0) >= 0.8 for r in rows),
        "failed": sum(not r["ok"] for r in rows),
        "mean_seconds": round(statistics.fmean(seconds), 1) if seconds else None,
        "median_seconds": round(statistics.median(seconds), 1) if seconds else None,
        "by_category": by_category,
    }


def render_markdown(report: dict[str, Any]) -> str:
    names = [s["name"] for s in report["systems"]]
    summaries = {s["name"]: s["summary"] for s in report["systems"]}
    lines = [
        f"Answers benchmark — {report['machine']['date']}, {report['machine']['cpus']} CPUs, provider "
        f"{report['provider']}, {report['questions']} questions (`benchmarks/answers/questions.jsonl`):",
        "",
        "| measure | " + " | ".join(names) + " |",
        "|---" * (len(names) + 1) + "|",
    ]
    for label, key in (
        ("passed (first sentence, every figure, nothing unsupported)", "passed"),
        ("first sentence answers the ask", "first_ok"),
        ("every figure exact", "all_exact"),
        ("answers with an unsupported figure", "unsupported"),
        ("… of them with confidence ≥ 0.8", "unsupported_confident"),
        ("failed (no answer or timeout)", "failed"),
        ("median seconds per question", "median_seconds"),
        ("mean seconds per question", "mean_seconds"),
    ):
        cells = [
            str(summaries[n][key]) + ("" if "seconds" in key else f"/{summaries[n]['questions']}")
            for n in names
        ]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "| category | questions | " + " | ".join(f"{n} passed | {n} median s" for n in names) + " |",
    ]
    lines.append("|---|---" + "|---|---" * len(names) + "|")
    categories = sorted({c for s in summaries.values() for c in s["by_category"]})
    for category in categories:
        cells = []
        count = 0
        for n in names:
            part = summaries[n]["by_category"].get(category) or {}
            count = part.get("questions", count)
            cells += [
                f"{part.get('passed', '–')}/{part.get('questions', '–')}",
                str(part.get("median_seconds", "–")),
            ]
        lines.append(f"| {category} | {count} | " + " | ".join(cells) + " |")
    lines += ["", "| id | " + " | ".join(f"{n}" for n in names) + " |", "|---" * (len(names) + 1) + "|"]
    by_id: dict[str, dict[str, dict[str, Any]]] = {}
    for row in report["rows"]:
        by_id.setdefault(row["id"], {})[row["system"]] = row
    for qid in sorted(by_id):
        cells = []
        for n in names:
            row = by_id[qid].get(n)
            if row is None:
                cells.append("–")
                continue
            marks = ("✓" if row["passed"] else "✗") + (
                "" if row["first_ok"] else f" first: {row['first_why']}"
            )
            marks += "" if row["all_exact"] else f" figures {row['found']}/{row['total']}"
            marks += " unsupported" if row["unsupported"] else ""
            cells.append(f"{marks} ({row['seconds']:.0f} s)")
        lines.append(f"| {qid} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--system", action="append", type=parse_system, help="NAME=PATH (repeatable).")
    parser.add_argument("--provider", default="local")
    parser.add_argument("--ids", help="Comma-separated question ids.")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--home-root", type=Path, default=Path("/tmp/finagent-bench"))
    parser.add_argument("--cache-dir", type=Path)
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    parser.add_argument("--resume", action="store_true", help="Keep rows already in answers.jsonl.")
    args = parser.parse_args(argv)
    systems: list[System] = args.system or [System("new", REPO)]
    ids = [i.strip() for i in args.ids.split(",") if i.strip()] if args.ids else None
    questions = load_questions(args.questions, ids, args.limit)
    home_root: Path = args.home_root.expanduser().resolve()
    cache_dir = (args.cache_dir or home_root / "cache").expanduser().resolve()
    recast_source = build_recast(home_root / "recast-source")
    args.results_dir.mkdir(parents=True, exist_ok=True)
    rows_path = args.results_dir / "answers.jsonl"
    kept = read_rows(rows_path) if args.resume else []
    done = {(r["system"], r["id"]) for r in kept}
    rows_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept))
    infos: list[dict[str, Any]] = []
    for system in systems:
        homes = {"main": home_root / system.name, "recast": home_root / f"{system.name}-recast"}
        envs = {}
        for store, home in homes.items():
            home.mkdir(parents=True, exist_ok=True)
            envs[store] = system_env(System(home.name, system.path), home_root, cache_dir)
        info: dict[str, Any] = {"name": system.name, "version": checkout_version(system.path)}
        info["imports_from"] = check_import(system, envs["main"], homes["main"])
        info["ingest"] = ingest_main(system, envs["main"], homes["main"], force=False)
        info["recast"] = ingest_recast(system, envs["recast"], homes["recast"], recast_source)
        if args.provider == "local":
            info["model_warm_up_s"] = warm_up(envs["main"], homes["main"])
        for number, question in enumerate(questions, 1):
            if (system.name, question["id"]) in done:
                continue
            store = question.get("store", "main")
            command = [
                "-m",
                "finagent.cli.main",
                "ask",
                question["question"],
                "--json",
                "--provider",
                args.provider,
            ]
            result = run_cli(command, envs[store], homes[store], args.timeout)
            row = question_row(system, question, result)
            with rows_path.open("a") as handle:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
            print(
                f"[{system.name}] {number}/{len(questions)} {question['id']}: "
                f"{'passed' if row['passed'] else 'failed'} (first {row['first_ok']}, figures "
                f"{row['found']}/{row['total']}, unsupported {row['unsupported']}), {row['seconds']:.0f} s",
                flush=True,
            )
        infos.append(info)
    wanted = {q["id"] for q in questions}
    names = [s.name for s in systems]
    rows = [r for r in read_rows(rows_path) if r["system"] in names and r["id"] in wanted]
    for info in infos:
        info["summary"] = summarize([r for r in rows if r["system"] == info["name"]])
    report = {
        "machine": machine(),
        "provider": args.provider,
        "questions": len(questions),
        "systems": infos,
        "rows": rows,
    }
    (args.results_dir / "answers.json").write_text(
        json.dumps({k: v for k, v in report.items() if k != "rows"}, indent=2) + "\n"
    )
    markdown = render_markdown(report)
    (args.results_dir / "answers.md").write_text(markdown)
    print(markdown)


if __name__ == "__main__":
    main()
