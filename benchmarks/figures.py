"""Figures benchmark: the share of questions whose answer has every gold figure exact, and seconds per
question, for several finagent checkouts measured in the same run (offline local model by default).

Each system is a checkout whose ``src/`` goes first on PYTHONPATH for ``python -m finagent.cli.main``
(this venv's interpreter), with its own FINAGENT_HOME, so old and new schemas never share a database.
The runner itself never imports finagent: what is measured runs only in those subprocesses.

    git worktree add /tmp/finagent-main <baseline commit>
    python -m benchmarks.figures --system main=/tmp/finagent-main --system new=.
    python -m benchmarks.figures --system main=/tmp/finagent-main --limit 2 --results-dir /tmp/figs

Steps per system: ingest ../shared/data/filings and ../shared/data/edgar-more, plus every
``--extra-data DIR``, once (a marker in the home records each folder ingested and by which code; --reingest
repeats it), then ask every question with ``finagent ask --json``, one after the other. A question whose
``extra_data`` documents are in no given --extra-data folder is not asked: it is reported as "not run: data
absent", neither passed nor failed. A question that exceeds --timeout is a failed question, not a failed
run. Rows are appended as they finish, so --resume continues an interrupted run.

Writes <results-dir>/figures.jsonl (system × question), figures.json (per system: share all exact,
figures found, mean/median seconds, per category) and figures.md (side by side, ratios to the first
system).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.figures_score import score_answer

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
RESULTS = REPO / "benchmarks" / "results"
QUESTIONS = REPO / "benchmarks" / "figures" / "questions.jsonl"
SOURCES = ("filings", "edgar-more")
INGEST_MARKER = "figures-bench-ingest.json"
STDERR_TAIL = 2000


@dataclass(frozen=True)
class System:
    name: str
    path: Path


@dataclass(frozen=True)
class CliResult:
    returncode: int | None  # None: killed after the timeout
    stdout: str
    stderr: str
    seconds: float

    @property
    def timed_out(self) -> bool:
        return self.returncode is None


def parse_system(spec: str) -> System:
    """NAME=PATH, where PATH is a finagent checkout (its src/finagent must exist)."""
    name, sep, path = spec.partition("=")
    if not sep or not name or not path or not name.replace("-", "").replace("_", "").isalnum():
        raise argparse.ArgumentTypeError(
            f"expected NAME=PATH (NAME of letters, digits, - or _), got {spec!r}"
        )
    checkout = Path(path).expanduser().resolve()
    if not (checkout / "src" / "finagent").is_dir():
        raise argparse.ArgumentTypeError(f"{checkout} is not a finagent checkout (no src/finagent)")
    return System(name, checkout)


def system_env(system: System, home_root: Path, cache_dir: Path) -> dict[str, str]:
    """The environment of one system's subprocesses: its src/ first, its own home and embedded store.

    The model cache is shared (the assembled GGUF and the ONNX export do not depend on the schema), and
    an external database URL or data dir from the caller's environment is dropped so that no two
    systems can meet in one database.
    """
    env = dict(os.environ)
    for key in ("FINAGENT_DATABASE_URL", "FINAGENT_PG_DATA_DIR", "DATABASE_URL"):
        env.pop(key, None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(system.path / "src"), env.get("PYTHONPATH")) if p)
    env["FINAGENT_HOME"] = str(home_root / system.name)
    env["FINAGENT_CACHE_DIR"] = str(cache_dir)
    env.setdefault("FINAGENT_OFFLINE", "1")
    env.setdefault("HF_HUB_OFFLINE", "1")
    env.setdefault("TRANSFORMERS_OFFLINE", "1")
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


def run_cli(args: list[str], env: dict[str, str], cwd: Path, timeout: float | None) -> CliResult:
    """Run ``python <args>`` in its own process group; past ``timeout``, interrupt it, then kill it.

    SIGINT first lets the CLI close its store and model server; the group is killed only if it lingers.
    """
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
        return CliResult(proc.returncode, out, err, time.perf_counter() - started)
    except subprocess.TimeoutExpired:
        seconds = time.perf_counter() - started
        out, err = _stop(proc)
        return CliResult(None, out, err + f"\n[killed after {timeout:.0f} s]", seconds)


def _stop(proc: subprocess.Popen[str]) -> tuple[str, str]:
    for sig, grace in ((signal.SIGINT, 30.0), (signal.SIGTERM, 10.0), (signal.SIGKILL, 10.0)):
        try:
            if sig == signal.SIGINT:
                proc.send_signal(sig)
            else:
                os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            return proc.communicate(timeout=grace)
        except subprocess.TimeoutExpired:
            continue
    return "", ""


def _git_version(path: Path, rev: str, *scope: str) -> str:
    """The object ``rev`` names in the checkout, with +dirty when its tracked files under ``scope``
    (all of them when none) differ from it; "unknown" outside git."""
    try:
        name = subprocess.run(
            ["git", "-C", str(path), "rev-parse", rev], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(path), "status", "--porcelain", "--untracked-files=no", "--", *scope],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return name + ("+dirty" if dirty else "")


def checkout_version(path: Path) -> str:
    """Commit of the checkout, with +dirty when its tracked files differ from it."""
    return _git_version(path, "HEAD")


def check_import(system: System, env: dict[str, str], home: Path) -> str:
    """finagent must import from the system's own src/ (not from the venv's installed copy)."""
    result = run_cli(["-c", "import finagent; print(finagent.__file__)"], env, home, 120)
    where = result.stdout.strip()
    if result.returncode != 0 or not Path(where).resolve().is_relative_to(system.path / "src"):
        raise SystemExit(f"{system.name}: finagent imports from {where or '?'}, not {system.path / 'src'}")
    return where


def code_version(path: Path) -> str:
    """The tree of the checkout's src/ (+dirty when it differs from it): what decides how a store is
    ingested, so a commit that changes only benchmarks or docs does not ask for a new ingest."""
    version = _git_version(path, "HEAD:src", "src")
    return version if version == "unknown" else "src:" + version


def ingest(
    system: System,
    env: dict[str, str],
    home: Path,
    *,
    force: bool,
    sources: Sequence[str] = SOURCES,
    extra: Sequence[Path] = (),
) -> dict[str, Any]:
    """Ingest the benchmark's store once per home and code version (ingestion is idempotent anyway).

    ``sources`` are paths under ../shared/data (folders or files): a benchmark whose store holds more
    (the narrative one) passes its own list; ``extra`` are folders outside it (--extra-data). The marker
    records each folder that was ingested without error by this code, so it never vouches for a store
    that was given less, and a later run with one more folder ingests only that one.
    """
    marker = home / INGEST_MARKER
    paths = [str((SHARED_DATA / s).resolve()) for s in sources]  # the same from any worktree
    paths += [str(Path(e).expanduser().resolve()) for e in extra]
    version = code_version(system.path)
    done = json.loads(marker.read_text()) if marker.exists() else {}
    if done and done.get("version") != version:
        print(
            f"[{system.name}] warning: {home} was ingested by {done.get('version')}, now {version}; "
            "if the schema changed between them, use a fresh --home-root or another system name",
            flush=True,
        )
    kept = (
        []
        if force or done.get("version") != version
        else [r for r in done.get("runs", []) if r["exit_code"] == 0]
    )
    todo = [p for p in paths if p not in {r["source"] for r in kept}]
    if not todo:
        return {**done, "skipped": True}
    log = home / "ingest.log"
    summary: dict[str, Any] = {
        "sources": [r["source"] for r in kept] + todo,
        "version": version,
        "runs": kept,
    }
    for source in todo:  # one call per folder: a failure in one does not hide the other's summary
        result = run_cli(["-m", "finagent.cli.main", "ingest", "path", source], env, home, None)
        with log.open("a") as handle:
            handle.write(f"$ finagent ingest path {source}\n{result.stdout}\n{result.stderr}\n")
        summary["runs"].append(
            {"source": source, "exit_code": result.returncode, "seconds": round(result.seconds, 1)}
        )
        print(
            f"[{system.name}] ingest {source}: exit {result.returncode} in {result.seconds:.0f} s", flush=True
        )
    marker.write_text(json.dumps(summary, indent=2) + "\n")
    return {**summary, "skipped": False}


def warm_up(env: dict[str, str], home: Path) -> float:
    """Assemble the local GGUF into the shared cache before timing (only the first system would pay)."""
    code = (
        "from finagent.settings import get_settings\n"
        "from finagent.llm.local_model import resolve_model_path\n"
        "print(resolve_model_path(get_settings()))"
    )
    result = run_cli(["-c", code], env, home, 1800)
    return round(result.seconds, 1)


def parse_answer(stdout: str) -> dict[str, Any] | None:
    """The JSON object ``finagent ask --json`` printed (tolerating stray lines before it)."""
    start = stdout.find("{")
    while start != -1:
        try:
            value, _ = json.JSONDecoder().raw_decode(stdout[start:])
        except json.JSONDecodeError:
            start = stdout.find("{", start + 1)
            continue
        if isinstance(value, dict) and "answer" in value:
            return value
        start = stdout.find("{", start + 1)
    return None


def question_row(system: System, question: dict[str, Any], result: CliResult) -> dict[str, Any]:
    """One system × question: timing, exit, the answer and its checks, and the score."""
    answer = parse_answer(result.stdout) if result.returncode == 0 else None
    text = str(answer.get("answer") or "") if answer else ""
    validation = (answer or {}).get("validation") or {}
    score = score_answer(text, question)
    return {
        "system": system.name,
        "id": question["id"],
        "category": question["category"],
        **({"half": question["half"]} if "half" in question else {}),
        "question": question["question"],
        "seconds": round(result.seconds, 1),
        "exit_code": result.returncode,
        "timed_out": result.timed_out,
        "ok": answer is not None,
        "answer": text,
        "warnings": (answer or {}).get("warnings") or [],
        "validation_status": validation.get("status"),
        "numbers_verified": validation.get("numbers_verified"),
        "numbers_total": validation.get("numbers_total"),
        "citations": len((answer or {}).get("citations") or []),
        "confidence": (answer or {}).get("confidence"),
        "llm_calls": len((answer or {}).get("llm_calls") or []),
        "tokens": (answer or {}).get("tokens"),
        "error": None if answer is not None else result.stderr[-STDERR_TAIL:],
        **score,
    }


def absent_data(question: dict[str, Any], extra_dirs: Sequence[Path]) -> list[str]:
    """The documents the question needs from --extra-data (``extra_data``: paths relative to such a
    folder) that no given folder holds; empty when it can be asked."""
    needed: list[str] = question.get("extra_data") or []
    return [n for n in needed if not any((Path(d) / n).exists() for d in extra_dirs)]


def split_by_data(
    questions: Sequence[dict[str, Any]], extra_dirs: Sequence[Path]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(questions to ask, questions not run because their documents are absent, each with the reason)."""
    asked: list[dict[str, Any]] = []
    not_run: list[dict[str, Any]] = []
    for question in questions:
        missing = absent_data(question, extra_dirs)
        if missing:
            reason = "data absent: " + ", ".join(missing) + " (pass --extra-data DIR)"
            not_run.append({"id": question["id"], "category": question["category"], "reason": reason})
        else:
            asked.append(question)
    return asked, not_run


def _share(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None


def summarize(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Share all exact, figures found/total, seconds, failures, overall and per category."""
    rows = list(rows)
    seconds = [float(r["seconds"]) for r in rows]
    exact = sum(bool(r["all_exact"]) for r in rows)
    found, total = sum(int(r["found"]) for r in rows), sum(int(r["total"]) for r in rows)
    by_category = _parts(rows, "category")
    by_half = _parts(rows, "half")
    return {
        "questions": len(rows),
        "all_exact": exact,
        "share_all_exact": _share(exact, len(rows)),
        "figures_found": found,
        "figures_total": total,
        "share_figures_found": _share(found, total),
        "mean_seconds": round(statistics.fmean(seconds), 1) if seconds else None,
        "median_seconds": round(statistics.median(seconds), 1) if seconds else None,
        "failed": sum(not r["ok"] for r in rows),
        "timed_out": sum(bool(r["timed_out"]) for r in rows),
        "verified_answers": sum(r["validation_status"] == "verified" for r in rows),
        "by_category": by_category,
        **({"by_half": by_half} if by_half else {}),
    }


def _parts(rows: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """Share all exact, figures and seconds per value of ``key`` (category, half) among rows that have it."""
    parts: dict[str, Any] = {}
    for value in sorted({r[key] for r in rows if key in r}):
        part = [r for r in rows if r.get(key) == value]
        part_exact = sum(bool(r["all_exact"]) for r in part)
        parts[value] = {
            "questions": len(part),
            "all_exact": part_exact,
            "share_all_exact": _share(part_exact, len(part)),
            "figures_found": sum(int(r["found"]) for r in part),
            "figures_total": sum(int(r["total"]) for r in part),
            "mean_seconds": round(statistics.fmean(float(r["seconds"]) for r in part), 1),
        }
    return parts


def _ratio(new: float | None, base: float | None) -> str:
    if new is None or base is None or base == 0:
        return "–"
    return f"{new / base:.2f}×"


def render_markdown(result: dict[str, Any]) -> str:
    """figures.md: the systems side by side, each later system's ratio to the first."""
    names = [s["name"] for s in result["systems"]]
    summaries = {s["name"]: s["summary"] for s in result["systems"]}
    base = names[0]
    header = "| measure | " + " | ".join(names) + "".join(f" | {n} / {base}" for n in names[1:]) + " |"
    rule = "|---" * (1 + len(names) + len(names) - 1) + "|"

    def line(label: str, key: str, fmt: str) -> str:
        values = [summaries[n].get(key) for n in names]
        cells = [fmt.format(v) if v is not None else "–" for v in values]
        ratios = [_ratio(summaries[n].get(key), summaries[base].get(key)) for n in names[1:]]
        return f"| {label} | " + " | ".join(cells + ratios) + " |"

    exact_cells = []
    for n in names:
        s = summaries[n]
        exact_cells.append(f"{s['all_exact']}/{s['questions']} ({(s['share_all_exact'] or 0):.0%})")
    exact_ratios = [
        _ratio(summaries[n]["share_all_exact"], summaries[base]["share_all_exact"]) for n in names[1:]
    ]
    found_cells = [f"{summaries[n]['figures_found']}/{summaries[n]['figures_total']}" for n in names]
    found_ratios = [
        _ratio(summaries[n]["share_figures_found"], summaries[base]["share_figures_found"]) for n in names[1:]
    ]
    lines = [
        f"Figures benchmark — {result['machine']['date']}, {result['machine']['cpus']} CPUs, provider "
        f"{result['provider']}, {result['questions']} questions "
        f"(`{result.get('questions_file', 'benchmarks/figures/questions.jsonl')}`), store: "
        f"../shared/data/filings + edgar-more{''.join(' + ' + d for d in result.get('extra_data') or [])}:",
        "",
        header,
        rule,
        "| questions with every figure exact | " + " | ".join(exact_cells + exact_ratios) + " |",
        "| gold figures found | " + " | ".join(found_cells + found_ratios) + " |",
        line("mean seconds per question", "mean_seconds", "{:.1f}"),
        line("median seconds per question", "median_seconds", "{:.1f}"),
        line("failed (no answer or timeout)", "failed", "{}"),
        line("answers the figures check verified", "verified_answers", "{}"),
        f"| not run: data absent | {len(result.get('not_run') or [])} |" + " |" * (2 * len(names) - 2),
        "",
        "| category | questions | " + " | ".join(f"{n} exact | {n} mean s" for n in names) + " |",
        "|---|---" + "|---|---" * len(names) + "|",
    ]
    categories = sorted({c for s in summaries.values() for c in s["by_category"]})
    for category in categories:
        cells = []
        count = 0
        for n in names:
            part = summaries[n]["by_category"].get(category)
            if part is None:
                cells += ["–", "–"]
                continue
            count = part["questions"]
            cells += [f"{part['all_exact']}/{part['questions']}", f"{part['mean_seconds']:.0f}"]
        lines.append(f"| {category} | {count} | " + " | ".join(cells) + " |")
    halves = sorted({h for s in summaries.values() for h in s.get("by_half", {})})
    if halves:
        lines += [
            "",
            "| half | " + " | ".join(f"{n} exact" for n in names) + " |",
            "|---" * (1 + len(names)) + "|",
        ]
        for half in halves:
            cells = []
            for n in names:
                part = summaries[n].get("by_half", {}).get(half)
                cells.append(f"{part['all_exact']}/{part['questions']}" if part else "–")
            lines.append(f"| {half} | " + " | ".join(cells) + " |")
    lines += ["", "| id | category | " + " | ".join(f"{n} found | {n} s" for n in names) + " |"]
    lines.append("|---|---" + "|---|---" * len(names) + "|")
    by_id: dict[str, dict[str, dict[str, Any]]] = {}
    for row in result["rows"]:
        by_id.setdefault(row["id"], {})[row["system"]] = row
    for qid in sorted(by_id):
        per = by_id[qid]
        category = next(iter(per.values()))["category"]
        cells = []
        for n in names:
            row = per.get(n)
            if row is None:
                cells += ["–", "–"]
                continue
            mark = " ✓" if row["all_exact"] else ""
            state = "" if row["ok"] else (" (timeout)" if row["timed_out"] else " (failed)")
            cells += [f"{row['found']}/{row['total']}{mark}{state}", f"{row['seconds']:.0f}"]
        lines.append(f"| {qid} | {category} | " + " | ".join(cells) + " |")
    for skipped in result.get("not_run") or []:
        lines.append(f"| {skipped['id']} | {skipped['category']} | not run: {skipped['reason']} |")
    return "\n".join(lines) + "\n"


def machine() -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "date": time.strftime("%Y-%m-%d"),
    }


def load_questions(path: Path, ids: list[str] | None, limit: int | None) -> list[dict[str, Any]]:
    questions = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if ids:
        unknown = set(ids) - {q["id"] for q in questions}
        if unknown:
            raise SystemExit(f"unknown question ids: {', '.join(sorted(unknown))}")
        questions = [q for q in questions if q["id"] in ids]
    return questions[:limit] if limit else questions


def read_rows(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def run_arguments(doc: str | None, questions: Path | None = None) -> argparse.ArgumentParser:
    """The options every question benchmark takes: systems, where their stores and model cache live,
    where results go, and (with a question file) which questions."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--system", action="append", type=parse_system, help="NAME=PATH (repeatable).")
    parser.add_argument("--provider", default="local")
    parser.add_argument("--timeout", type=float, default=900.0, help="Seconds per question (default 900).")
    parser.add_argument("--home-root", type=Path, default=Path("/tmp/finagent-bench"))
    parser.add_argument("--cache-dir", type=Path, help="Shared model cache (default HOME_ROOT/cache).")
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    if questions is not None:
        parser.add_argument("--questions", type=Path, default=questions)
        parser.add_argument("--ids", help="Comma-separated question ids.")
        parser.add_argument("--limit", type=int, help="Only the first N questions.")
    return parser


def run_setup(args: argparse.Namespace) -> tuple[list[System], Path, Path]:
    """(systems, home root, model cache) of parsed ``run_arguments``."""
    systems: list[System] = args.system or [System("new", REPO)]
    home_root: Path = args.home_root.expanduser().resolve()
    cache_dir = (args.cache_dir or home_root / "cache").expanduser().resolve()
    args.results_dir.mkdir(parents=True, exist_ok=True)
    return systems, home_root, cache_dir


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--system",
        action="append",
        type=parse_system,
        help="NAME=PATH of a finagent checkout (repeatable; the first is the baseline); default new=<repo>.",
    )
    parser.add_argument(
        "--provider", default="local", help="LLM provider for `finagent ask` (default local)."
    )
    parser.add_argument("--limit", type=int, help="Only the first N questions.")
    parser.add_argument("--ids", help="Comma-separated question ids, e.g. fig-01,fig-29.")
    parser.add_argument("--timeout", type=float, default=900.0, help="Seconds per question (default 900).")
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--home-root", type=Path, default=Path("/tmp/finagent-bench"))
    parser.add_argument("--cache-dir", type=Path, help="Shared model cache (default HOME_ROOT/cache).")
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    parser.add_argument(
        "--extra-data",
        action="append",
        type=Path,
        default=[],
        metavar="DIR",
        help="A folder of filings outside ../shared ingested with it (repeatable); questions whose "
        "extra_data it lacks are not run.",
    )
    parser.add_argument("--reingest", action="store_true", help="Ingest again even if the marker says done.")
    parser.add_argument(
        "--resume", action="store_true", help="Keep rows already in figures.jsonl; ask the rest."
    )
    args = parser.parse_args(argv)

    systems: list[System] = args.system or [System("new", REPO)]
    if len({s.name for s in systems}) != len(systems):
        parser.error("system names must differ")
    for source in SOURCES:
        if not (SHARED_DATA / source).is_dir():
            raise SystemExit(f"needs {SHARED_DATA / source} (../shared beside the repo)")
    for folder in args.extra_data:
        if not folder.is_dir():
            parser.error(f"--extra-data {folder}: not a folder")
    ids = [i.strip() for i in args.ids.split(",") if i.strip()] if args.ids else None
    questions, not_run = split_by_data(load_questions(args.questions, ids, args.limit), args.extra_data)
    for skipped in not_run:
        print(f"not run: {skipped['id']}: {skipped['reason']}", flush=True)
    home_root: Path = args.home_root.expanduser().resolve()
    if home_root.is_relative_to(Path("/root")):
        parser.error("keep --home-root out of /root (the embedded server runs as another user)")
    cache_dir = (args.cache_dir or home_root / "cache").expanduser().resolve()
    results_dir: Path = args.results_dir
    results_dir.mkdir(parents=True, exist_ok=True)
    rows_path = results_dir / "figures.jsonl"
    kept = read_rows(rows_path) if args.resume else []
    done = {(r["system"], r["id"]) for r in kept}
    rows_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept))

    system_info: list[dict[str, Any]] = []
    for system in systems:
        home = home_root / system.name
        home.mkdir(parents=True, exist_ok=True)
        env = system_env(system, home_root, cache_dir)
        info: dict[str, Any] = {
            "name": system.name,
            "path": str(system.path),
            "version": checkout_version(system.path),
            "home": str(home),
            "imports_from": check_import(system, env, home),
        }
        info["ingest"] = ingest(system, env, home, force=args.reingest, extra=args.extra_data)
        if args.provider == "local":
            info["model_warm_up_s"] = warm_up(env, home)
        for number, question in enumerate(questions, 1):
            if (system.name, question["id"]) in done:
                continue
            command = [
                "-m",
                "finagent.cli.main",
                "ask",
                question["question"],
                "--json",
                "--provider",
                args.provider,
            ]
            result = run_cli(command, env, home, args.timeout)
            row = question_row(system, question, result)
            (home / "logs").mkdir(exist_ok=True)
            (home / "logs" / f"{question['id']}.stderr.log").write_text(result.stderr)
            with rows_path.open("a") as handle:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
            print(
                f"[{system.name}] {number}/{len(questions)} {question['id']}: {row['found']}/{row['total']} "
                f"figures{' (all exact)' if row['all_exact'] else ''}, {row['seconds']:.0f} s, "
                f"exit {row['exit_code']}",
                flush=True,
            )
        system_info.append(info)

    wanted = {q["id"] for q in questions}
    names = [s.name for s in systems]
    rows = [r for r in read_rows(rows_path) if r["system"] in names and r["id"] in wanted]
    for info in system_info:
        info["summary"] = summarize(r for r in rows if r["system"] == info["name"])
    report = {
        "machine": machine(),
        "provider": args.provider,
        "timeout_s": args.timeout,
        "questions": len(questions),
        "questions_file": _shown(args.questions),
        "extra_data": [_shown(d) for d in args.extra_data],
        "not_run": not_run,
        "systems": system_info,
        "rows": rows,
    }
    (results_dir / "figures.json").write_text(
        json.dumps({k: v for k, v in report.items() if k != "rows"}, indent=2) + "\n"
    )
    markdown = render_markdown(report)
    (results_dir / "figures.md").write_text(markdown)
    print(markdown)


def _shown(path: Path) -> str:
    """A path as the report shows it: relative to the repo when inside it."""
    resolved = path.expanduser().resolve()
    return str(resolved.relative_to(REPO)) if resolved.is_relative_to(REPO) else str(resolved)


if __name__ == "__main__":
    main()
