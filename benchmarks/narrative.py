"""Narrative benchmark runner: each checkout answers the questions of ``narrative/questions.jsonl``
(answers in words: a filing's section, what changed and why, an honest "not in the store") and each
answer is scored by its rubric (``narrative_score.score``), for several checkouts in one run.

    git worktree add /tmp/finagent-main <baseline commit>
    python -m benchmarks.narrative --system main=/tmp/finagent-main --system new=.
    python -m benchmarks.narrative --system main=/tmp/finagent-main --half tune --results-dir /tmp/nar
    python -m benchmarks.narrative --system main=. --ids nar-001,nar-053 --results-dir /tmp/nar

Each system gets its own store, HOME_ROOT/<name>-narrative (the model and vector cache are shared, so
a filing already embedded by another store is not embedded again). It holds every folder or file of
../shared/data that a question's sources lie in, whichever questions are asked: filings/ (EDGAR
iXBRL and the PDFs), edgar-more/, each transcript set used, and the news CSV. The figures and
answers stores (HOME_ROOT/<name>) hold only the first two and are left as they are. The ingest is
the figures benchmark's, with this list; its marker skips it on the next run of the same checkout.

A question that exceeds --timeout is a failed question, not a failed run. Rows are appended as they
finish, so --resume continues an interrupted run. Writes <results-dir>/narrative.jsonl (system ×
question) and narrative.md; a partial run (--ids, --kind, --half, --limit) must name another
--results-dir than benchmarks/results, which keeps the latest full run.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import Any

from benchmarks import figures
from benchmarks.figures import RESULTS, SHARED_DATA, CliResult, System
from benchmarks.narrative_score import score

NARRATIVE = Path(__file__).resolve().parent / "narrative"
QUESTIONS = NARRATIVE / "questions.jsonl"
ROWS_FILE = "narrative.jsonl"
HALVES = ("tune", "held")
STDERR_TAIL = 2000
# How much of a source's path under ../shared/data is ingested, by its first part, in ingest order
# (filings first, as the figures store, so that fiscal calendars are known before the calls and news):
# the whole tree, a transcript set's folder (its manifest names the calls), the news file itself.
INGEST_DEPTH = {"filings": 1, "edgar-more": 1, "transcripts": 2, "news": 2}


def store_sources(questions: Iterable[dict[str, Any]]) -> list[str]:
    """The paths under ../shared/data to ingest so that every question's sources are in the store."""
    found: set[str] = set()
    for question in questions:
        for source in question["sources"]:
            parts = PurePosixPath(source["file"]).parts
            if parts[0] not in INGEST_DEPTH:
                raise SystemExit(f"{question['id']}: no ingest rule for {source['file']} (see INGEST_DEPTH)")
            found.add("/".join(parts[: INGEST_DEPTH[parts[0]]]))
    order = list(INGEST_DEPTH)
    return sorted(found, key=lambda path: (order.index(path.split("/")[0]), path))


def select(
    questions: list[dict[str, Any]], half: str, kinds: list[str] | None, limit: int | None
) -> list[dict[str, Any]]:
    """The questions of one half (or both) and of the named kinds, the first ``limit`` of them."""
    unknown = set(kinds or ()) - {q["kind"] for q in questions}
    if unknown:
        raise SystemExit(f"unknown kinds: {', '.join(sorted(unknown))}")
    chosen = [q for q in questions if half in ("both", q["half"]) and (not kinds or q["kind"] in kinds)]
    return chosen[:limit] if limit else chosen


def question_row(system: str, question: dict[str, Any], result: CliResult) -> dict[str, Any]:
    """One system × question: the answer, its time, confidence and model calls, and its rubric score."""
    answer = (figures.parse_answer(result.stdout) if result.returncode == 0 else None) or {}
    text = str(answer.get("answer") or "")
    keys = ("id", "kind", "half", "expect", "question")
    row: dict[str, Any] = {"system": system, **{key: question[key] for key in keys}}
    row |= {"seconds": round(result.seconds, 1), "exit_code": result.returncode}
    row |= {"timed_out": result.timed_out, "ok": bool(answer), "answer": text}
    row |= {"confidence": answer.get("confidence"), "model_calls": len(answer.get("llm_calls") or [])}
    row["error"] = None if answer else result.stderr[-STDERR_TAIL:]
    return row | score(text, question)


def tally(rows: list[dict[str, Any]]) -> dict[str, int]:
    return {"passed": sum(bool(r["passed"]) for r in rows), "questions": len(rows)}


def p90(values: list[float]) -> float | None:
    """The 90th percentile (inclusive interpolation); the value itself for a single run."""
    if len(values) < 2:
        return values[0] if values else None
    return round(statistics.quantiles(values, n=10, method="inclusive")[-1], 1)


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One system's rows: passed/total overall, per half and per kind (split by half), time, failures."""
    seconds = [float(r["seconds"]) for r in rows]
    by_kind: dict[str, dict[str, dict[str, int]]] = {}
    for kind in sorted({r["kind"] for r in rows}):
        part = [r for r in rows if r["kind"] == kind]
        by_kind[kind] = {"all": tally(part)}
        by_kind[kind] |= {h: tally([r for r in part if r["half"] == h]) for h in HALVES}
    return {
        **tally(rows),
        "by_half": {h: tally([r for r in rows if r["half"] == h]) for h in HALVES},
        "by_kind": by_kind,
        "no_answer": sum(not r["ok"] for r in rows),
        "timed_out": sum(bool(r["timed_out"]) for r in rows),
        "median_seconds": round(statistics.median(seconds), 1) if seconds else None,
        "p90_seconds": p90(seconds),
        "median_model_calls": statistics.median(r["model_calls"] for r in rows) if rows else None,
    }


def by_question(rows: Iterable[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """id → system → row."""
    table: dict[str, dict[str, dict[str, Any]]] = {}
    for row in rows:
        table.setdefault(row["id"], {})[row["system"]] = row
    return dict(sorted(table.items()))


def differing(rows: Iterable[dict[str, Any]], names: list[str]) -> dict[str, dict[str, bool]]:
    """The questions every system answered whose verdict (passed or not) is not the same for all."""
    verdicts = {}
    for qid, per in by_question(rows).items():
        if all(n in per for n in names) and len({bool(per[n]["passed"]) for n in names}) > 1:
            verdicts[qid] = {n: bool(per[n]["passed"]) for n in names}
    return verdicts


def verdict_cell(row: dict[str, Any] | None) -> str:
    """✓, or ✗ with why: no answer, timeout, groups missed, a forbidden claim, "not in store" unsaid."""
    if row is None:
        return "–"
    if row["passed"]:
        return "✓"
    if not row["ok"]:
        return "✗ timeout" if row["timed_out"] else "✗ no answer"
    why = [f"missed {len(row['missed'])}"] if row["missed"] else []
    why += [f"forbidden {len(row['forbidden'])}"] if row["forbidden"] else []
    why += ["not-covered unsaid"] if row["not_covered_said"] is False else []
    return "✗ " + ", ".join(why)


def _count(part: dict[str, int]) -> str:
    return f"{part['passed']}/{part['questions']}" if part["questions"] else "–"


def summary_lines(names: list[str], summaries: dict[str, dict[str, Any]]) -> list[str]:
    """The systems side by side, then passed per kind and half."""
    lines = ["| measure | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    measures: list[tuple[str, Any]] = [("passed", lambda s: _count(s))]
    measures += [(f"passed, {h}", lambda s, h=h: _count(s["by_half"][h])) for h in HALVES]
    for label, key in (
        ("no answer (error or timeout)", "no_answer"),
        ("timed out", "timed_out"),
        ("median seconds", "median_seconds"),
        ("p90 seconds", "p90_seconds"),
        ("median model calls", "median_model_calls"),
    ):
        measures.append((label, lambda s, key=key: "–" if s[key] is None else str(s[key])))
    for label, cell in measures:
        lines.append(f"| {label} | " + " | ".join(cell(summaries[n]) for n in names) + " |")
    lines += ["", "| kind | " + " | ".join(f"{n} {h}" for n in names for h in HALVES) + " |"]
    lines.append("|---" * (1 + len(names) * len(HALVES)) + "|")
    for kind in sorted({k for s in summaries.values() for k in s["by_kind"]}):
        parts = [summaries[n]["by_kind"].get(kind) for n in names]
        cells = [_count(p[h]) if p else "–" for p in parts for h in HALVES]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return lines


def store_line(info: dict[str, Any]) -> str:
    """Where a system's store is and how its ingest ended (a failed source changes what it can answer)."""
    runs = ", ".join(f"{Path(r['source']).name} exit {r['exit_code']}" for r in info["ingest"]["runs"])
    kept = " (from an earlier run)" if info["ingest"].get("skipped") else ""
    return f"- {info['name']}: store `{info['home']}`, ingest{kept}: {runs}"


def system_label(info: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """name (commit), and the commits of rows kept by --resume when they are not all this one."""
    kept = sorted({r.get("version", "?")[:7] for r in rows if r["system"] == info["name"]})
    older = f"; rows from {', '.join(kept)}" if kept and kept != [info["version"][:7]] else ""
    return f"{info['name']} ({info['version'][:7]}{older})"


def render_markdown(report: dict[str, Any]) -> str:
    """narrative.md: the summary, the per-question table and the questions whose verdict differs."""
    names = [s["name"] for s in report["systems"]]
    summaries = {s["name"]: s["summary"] for s in report["systems"]}
    systems = ", ".join(system_label(s, report["rows"]) for s in report["systems"])
    lines = [
        f"Narrative benchmark — {report['machine']['date']}, {report['machine']['cpus']} CPUs, provider "
        f"{report['provider']}, {report['questions']} questions ({report['selection']}) of "
        f"`benchmarks/narrative/questions.jsonl`, scored by their rubrics (`narrative_score.py`); "
        f"systems: {systems}; store: {' + '.join(report['store_sources'])}.",
        "",
        *(store_line(info) for info in report["systems"] if info.get("ingest")),
        "",
        *summary_lines(names, summaries),
        "",
        "| id | kind | half | " + " | ".join(f"{n} | {n} s" for n in names) + " |",
        "|---" * (3 + 2 * len(names)) + "|",
    ]
    for qid, per in by_question(report["rows"]).items():
        first = next(iter(per.values()))
        cells = []
        for n in names:
            row = per.get(n)
            cells += [verdict_cell(row), f"{row['seconds']:.0f}" if row else "–"]
        lines.append(f"| {qid} | {first['kind']} | {first['half']} | " + " | ".join(cells) + " |")
    marks = [
        qid + " (" + ", ".join(f"{n} {'✓' if verdicts[n] else '✗'}" for n in names) + ")"
        for qid, verdicts in differing(report["rows"], names).items()
    ]
    differs = (", ".join(marks) or "none") if len(names) > 1 else "one system, nothing to compare"
    lines += ["", f"Verdict differs between systems: {differs}."]
    return "\n".join(lines) + "\n"


def prepare(
    system: System, home_root: Path, cache_dir: Path, sources: list[str], reingest: bool
) -> tuple[dict[str, str], Path, dict[str, Any]]:
    """(environment, home, info) of one system's narrative store, ingested if it is not yet."""
    home = home_root / f"{system.name}-narrative"
    home.mkdir(parents=True, exist_ok=True)
    env = figures.system_env(System(home.name, system.path), home_root, cache_dir)
    info: dict[str, Any] = {"name": system.name, "path": str(system.path), "home": str(home)}
    info |= {
        "version": figures.checkout_version(system.path),
        "imports_from": figures.check_import(system, env, home),
    }
    info["ingest"] = figures.ingest(system, env, home, force=reingest, sources=sources)
    return env, home, info


def ask_all(
    system: System, questions: list[dict[str, Any]], env: dict[str, str], home: Path, args: argparse.Namespace
) -> None:
    """Ask each question not yet in the rows file, appending its row as soon as it is scored."""
    rows_path = args.results_dir / ROWS_FILE
    done = {r["id"] for r in figures.read_rows(rows_path) if r["system"] == system.name}
    version = figures.checkout_version(system.path)
    (home / "logs").mkdir(exist_ok=True)
    for number, question in enumerate(questions, 1):
        if question["id"] in done:
            continue
        command = ["-m", "finagent.cli.main", "ask", question["question"], "--json"]
        result = figures.run_cli([*command, "--provider", args.provider], env, home, args.timeout)
        (home / "logs" / f"{question['id']}.stderr.log").write_text(result.stderr)
        row = question_row(system.name, question, result) | {"version": version}
        with rows_path.open("a") as handle:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        opening = " ".join(row["answer"].split())[:120]
        print(
            f"[{system.name}] {number}/{len(questions)} {question['id']} ({question['kind']}): "
            f"{verdict_cell(row)}, {row['seconds']:.0f} s, {row['model_calls']} calls — {opening}",
            flush=True,
        )


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = figures.run_arguments(__doc__, QUESTIONS)
    parser.add_argument("--half", choices=("tune", "held", "both"), default="both")
    parser.add_argument("--kind", help="Comma-separated kinds, e.g. drivers,legal.")
    parser.add_argument("--resume", action="store_true", help=f"Keep rows already in {ROWS_FILE}.")
    parser.add_argument("--reingest", action="store_true", help="Ingest again even if the marker says done.")
    args = parser.parse_args(argv)
    names = [s.name for s in args.system or []]
    if len(set(names)) != len(names):
        parser.error("system names must differ")
    partial = args.ids or args.kind or args.limit or args.half != "both"
    if partial and args.results_dir.resolve() == RESULTS.resolve():
        parser.error("a partial run (--ids, --kind, --half, --limit) needs another --results-dir")
    return args


def selection(args: argparse.Namespace) -> str:
    """Which questions a run asked, for the summary's first line."""
    parts = [f"half {args.half}"]
    parts += [f"kinds {args.kind}"] if args.kind else []
    parts += [f"ids {args.ids}"] if args.ids else []
    parts += [f"the first {args.limit}"] if args.limit else []
    return ", ".join(parts)


def main(argv: list[str] | None = None) -> None:
    args = parse_arguments(argv)
    systems, home_root, cache_dir = figures.run_setup(args)
    every = figures.load_questions(args.questions, None, None)
    ids = [i.strip() for i in args.ids.split(",") if i.strip()] if args.ids else None
    kinds = [k.strip() for k in args.kind.split(",") if k.strip()] if args.kind else None
    questions = select(figures.load_questions(args.questions, ids, None), args.half, kinds, args.limit)
    sources = store_sources(every)
    missing = [s for s in sources if not (SHARED_DATA / s).exists()]
    if missing:
        raise SystemExit(f"needs {', '.join(missing)} under {SHARED_DATA} (../shared beside the repo)")
    rows_path = args.results_dir / ROWS_FILE
    kept = figures.read_rows(rows_path) if args.resume else []
    rows_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept))
    infos = []
    for system in systems:
        env, home, info = prepare(system, home_root, cache_dir, sources, args.reingest)
        if args.provider == "local":
            info["model_warm_up_s"] = figures.warm_up(env, home)
        ask_all(system, questions, env, home, args)
        infos.append(info)
    wanted = {(s.name, q["id"]) for s in systems for q in questions}
    rows = [r for r in figures.read_rows(rows_path) if (r["system"], r["id"]) in wanted]
    for info in infos:
        info["summary"] = summarize([r for r in rows if r["system"] == info["name"]])
    report = {"machine": figures.machine(), "provider": args.provider, "questions": len(questions)}
    report |= {"selection": selection(args), "store_sources": sources, "systems": infos, "rows": rows}
    markdown = render_markdown(report)
    (args.results_dir / "narrative.md").write_text(markdown)
    print(markdown)


if __name__ == "__main__":
    main()
