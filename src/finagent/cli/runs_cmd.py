"""`finagent runs …`: the audit trail — list runs, show how one went from question to answer, export it."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from finagent.cli.common import store
from finagent.cli.console import console
from finagent.db.runs import list_runs, load_run, resolve_run_id
from finagent.errors import FinagentError

runs_app = typer.Typer(help="The audit trail of research runs.", no_args_is_help=True)


@runs_app.command("list")
def list_command(
    limit: Annotated[
        int, typer.Option("--limit", "-n", min=1, max=1000, help="How many, newest first.")
    ] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """The most recent runs: id, time, status, confidence, figures check, question."""
    with store() as db, db.connection() as conn:
        rows = list_runs(conn, limit)
    if as_json:
        console.print_json(json.dumps(rows, default=str))
        return
    if not rows:
        console.print("No runs recorded yet: ask a question with [bold]finagent ask[/].")
        return
    table = Table(title="research runs (newest first)")
    for column in ("run", "started", "status", "conf.", "figures", "cites", "tokens", "s", "question"):
        table.add_column(column, overflow="fold")
    for r in rows:
        table.add_row(
            r["id"][:8],
            f"{r['started_at']:%Y-%m-%d %H:%M}",
            r["status"],
            "" if r["confidence"] is None else f"{r['confidence']:.2f}",
            r["validation"] or "",
            str(r["citations"]),
            f"{r['tokens']:,}",
            f"{float(r['seconds'] or 0):.0f}",
            escape(r["question"][:90]),
        )
    console.print(table)


def _load(conn: Any, run: str) -> dict[str, Any]:
    run_id = resolve_run_id(conn, run)
    found = load_run(conn, run_id) if run_id else None
    if found is None:
        raise FinagentError(f"no run '{run}' in the store; `finagent runs list` shows the recorded runs")
    return found


@runs_app.command("export")
def export_command(
    run: Annotated[str, typer.Argument(help="Run id (or a unique prefix, as `runs list` shows).")],
    as_json: Annotated[bool, typer.Option("--json", help="JSON (the only format; the default).")] = True,
) -> None:
    """Everything recorded for a run as JSON: prompts, replies, searches with scores, citations."""
    with store() as db, db.connection() as conn:
        found = _load(conn, run)
    print(json.dumps(found, default=str, indent=2, ensure_ascii=False))


@runs_app.command("show")
def show_command(
    run: Annotated[str, typer.Argument(help="Run id (or a unique prefix, as `runs list` shows).")],
    prompts: Annotated[bool, typer.Option("--prompts", help="Also print each prompt and reply.")] = False,
) -> None:
    """How a run went from question to answer, with each citation resolved to its document version."""
    with store() as db, db.connection() as conn:
        r = _load(conn, run)
    seconds = (r["finished_at"] - r["started_at"]).total_seconds()
    console.rule(f"run {r['id']}")
    console.print(f"[bold]question[/] {escape(r['question'])}")
    console.print(
        f"{r['status']} · {r['started_at']:%Y-%m-%d %H:%M:%S %Z} · {seconds:.1f} s · "
        f"{r['input_tokens']:,} in / {r['output_tokens']:,} out tokens · finagent {r['finagent_version']}"
        + (f" · thread {escape(r['thread_id'])}" if r["thread_id"] else "")
    )
    models = ", ".join(f"{m['role']}: {m.get('provider')}/{m.get('model')}" for m in r["models"]) or "none"
    console.print(f"[bold]models[/] {escape(models)}")
    _show_analysis(r)
    _show_searches(r)
    _show_tools_and_calls(r, prompts)
    _show_answer(r)
    _show_citations(r)
    for warning in r["warnings"]:
        console.print(f"[yellow]warning:[/] {escape(str(warning))}")
    for error in r["errors"]:
        console.print(f"[red]error:[/] {escape(str(error))}")
    timings = ", ".join(f"{t['node']} {t['ms'] / 1000:.1f}s" for t in r["node_timings"])
    console.print(f"[bold]timings[/] {timings}")


def _show_analysis(r: dict[str, Any]) -> None:
    a = r["analysis"] or {}
    if a:
        keywords = "; ".join(f"{t or 'all'}: {', '.join(p)}" for t, p in (a.get("keywords") or {}).items())
        tickers = ", ".join(a.get("tickers") or []) or "—"
        intent = escape(str(a.get("intent") or ""))
        console.print(
            f"[bold]1 analysis[/] tickers {tickers} · intent {intent} · mode {a.get('answer_mode')} · "
            f"keywords {escape(keywords)}"
        )
    targets = r["targets"] or []
    labels = ", ".join(f"{t.get('ticker') or ''} {t.get('label')}".strip() for t in targets)
    console.print(f"[bold]2 periods[/] {escape(labels) or '—'}")


def _show_searches(r: dict[str, Any]) -> None:
    table = Table(title=f"3 searches ({len(r['searches'])})", show_lines=False)
    for column in ("#", "round", "ticker", "period", "query", "hits", "top chunks (fused score)", "ms"):
        table.add_column(column, overflow="fold")
    for s in r["searches"]:
        top = ", ".join(f"{h['chunk_id']} ({h.get('fused', 0):.2f})" for h in (s["results"] or [])[:3])
        table.add_row(
            str(s["seq"]),
            str(s["round"]),
            s["ticker"] or "all",
            s["period_label"] or "",
            escape(s["query"]),
            "error" if s["error"] else str(len(s["results"] or [])),
            top,
            f"{s['ms'] or 0:.0f}",
        )
    console.print(table)


def _show_tools_and_calls(r: dict[str, Any], prompts: bool) -> None:
    for t in r["tool_results"]:
        state = "ok" if t.get("ok") else "no data"
        summary = escape(str(t.get("summary") or ""))[:160]
        console.print(f"[bold]4 tool[/] {t.get('tool')} {t.get('ticker') or ''}: {state} {summary}")
    table = Table(title=f"5 LLM calls ({len(r['llm_calls'])})")
    for column in ("#", "role", "template", "provider/model", "prompt sha256", "tokens in/out", "s", "ok"):
        table.add_column(column, overflow="fold")
    for c in r["llm_calls"]:
        table.add_row(
            str(c["seq"]),
            c["role"],
            c["template"] or "",
            f"{c['provider']}/{c['model']}",
            (c["prompt_sha256"] or "")[:16],
            f"{c['input_tokens']}/{c['output_tokens']}",
            f"{c['latency_s'] or 0:.1f}",
            ("yes" if c["ok"] else f"no: {escape(c['error'] or '')[:60]}")
            + (" (repair)" if c["repaired"] else ""),
        )
    console.print(table)
    if prompts:
        for c in r["llm_calls"]:
            console.rule(f"call {c['seq']} · {c['role']} · {c['template']}")
            console.print(c["prompt"] or "", markup=False, highlight=False)
            console.rule("reply")
            console.print(c["reply"] or "", markup=False, highlight=False)
    for e in r["evaluations"]:
        follow_ups = escape(", ".join(e.get("follow_up_keywords") or []) or "none")
        console.print(
            f"[bold]6 evaluation[/] iteration {e.get('iteration', '?')}: completeness "
            f"{e.get('completeness')}, specificity {e.get('specificity')}, accuracy {e.get('accuracy')}, "
            f"clarity {e.get('clarity')} → confidence {e.get('confidence', 0):.2f} "
            f"(coverage {e.get('coverage', 0):.2f}); follow-ups {follow_ups}"
        )


def _show_answer(r: dict[str, Any]) -> None:
    console.rule("answer")
    console.print(r["answer"] or "(no answer)", markup=False, highlight=False)
    v = r["validation"]
    if v:
        unverified = ", ".join(str(f.get("text")) for f in v.get("unverified") or []) or "none"
        console.print(
            f"[bold]figures check[/] {v.get('status')}: {v.get('numbers_verified')}/{v.get('numbers_total')} "
            f"verified; unverified: {escape(unverified)}"
        )
    if r["confidence"] is not None:
        console.print(f"confidence {r['confidence']:.2f} after {r['iterations']} iteration(s)")


def _show_citations(r: dict[str, Any]) -> None:
    table = Table(title="citations, resolved to the stored document version")
    for column in ("label", "chunk", "document (version)", "period", "page", "chars", "quoted text"):
        table.add_column(column, overflow="fold")
    for c in r["citations"]:
        if not c["resolved"]:
            table.add_row(
                c["label"],
                str(c["chunk_id"] or "—"),
                escape(c["source_uri"] or c["kind"] or ""),
                c["period"] or "",
                "",
                "",
                "not a stored chunk (tool data)",
            )
            continue
        version = f"{(c['content_sha256'] or '')[:12]}" + (
            " superseded" if c["document_status"] == "superseded" else ""
        )
        table.add_row(
            c["label"],
            str(c["chunk_id"]),
            f"{escape(c['document_title'] or '')}\n{escape(c['source_uri'] or '')}\n{version}",
            c["period"] or "",
            "" if c["chunk_page"] is None else str(c["chunk_page"] + 1),
            f"{c['char_start']}–{c['char_end']}",
            escape((c["text"] or "")[:200]),
        )
    console.print(table)
