"""`finagent ask`: run the research graph, streaming its progress, then the cited answer."""

from __future__ import annotations

import json
from contextlib import nullcontext
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from finagent.cli.console import console, err_console
from finagent.errors import FinagentError

MODES = ("direct", "standard", "detailed", "deep")
PROVIDERS = ("auto", "openai", "cerebras", "local")


def describe_update(node: str, update: dict[str, Any]) -> list[str]:
    """One-line progress messages for a node's state update."""
    lines: list[str] = []
    if node == "analyze" and "analysis" in update:
        a = update["analysis"]
        keywords = "; ".join(f"{t or 'all'}: {', '.join(p)}" for t, p in a["keywords"].items())
        lines.append(
            f"[bold]analysis[/] {', '.join(a['tickers']) or 'no company'} · mode {a['answer_mode']} · "
            f"sources {', '.join(a['sources'])} · keywords {escape(keywords)}"
        )
    elif node == "resolve_periods":
        targets = update.get("targets") or []
        labels = ", ".join(f"{t.get('ticker') or ''} {t['label']}".strip() for t in targets)
        lines.append(f"[bold]periods[/] {escape(labels)}")
    elif node in ("search", "follow_up_search"):
        for s in update.get("searches") or []:
            status = "[red]failed[/]" if s.get("error") else f"{s['hits']} hits"
            lines.append(
                f"  search '{escape(s['query'])}' {s.get('ticker') or 'all'} {s['period_label']}: "
                f"{status} ({s.get('ms', 0):.0f} ms)"
            )
    elif node == "tools":
        for r in update.get("tool_results") or []:
            state = "ok" if r.get("ok") else "[yellow]no data[/]"
            lines.append(
                f"[bold]tool[/] {r['tool']} {r.get('ticker') or ''}: {state}"
                + (" (offline)" if r.get("offline") else "")
            )
    elif node == "generate" and "answer" in update:
        lines.append(
            f"[bold]iteration {update.get('iterations')}[/] answer drafted: "
            f"{len(update.get('facts') or [])} figures, {len(update.get('citations') or [])} citations"
        )
    elif node == "evaluate":
        for e in update.get("evaluations") or []:
            follow = ", ".join(update.get("follow_up_queries") or []) or "none"
            lines.append(
                f"[bold]confidence[/] {e['confidence']:.2f} (coverage {e['coverage']:.2f}); "
                f"follow-ups: {escape(follow)}"
            )
    return lines


def ask_command(
    question: Annotated[str, typer.Argument(help="The question, e.g. 'Compare AAPL and MSFT revenue'.")],
    ticker: Annotated[list[str] | None, typer.Option("--ticker", "-t", help="Company to research.")] = None,
    period: Annotated[
        list[str] | None, typer.Option("--period", "-p", help="e.g. 'FY2023', 'Q2 2024'.")
    ] = None,
    mode: Annotated[
        str | None, typer.Option("--mode", "-m", help="direct | standard | detailed | deep.")
    ] = None,
    provider: Annotated[str | None, typer.Option(help="auto | openai | cerebras | local.")] = None,
    thread: Annotated[str | None, typer.Option("--thread", help="Conversation id for follow-ups.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")] = False,
) -> None:
    """Answer a financial question from the store, with citations."""
    if mode is not None and mode not in MODES:
        raise FinagentError(f"unknown mode '{mode}'; use one of: {', '.join(MODES)}")
    if provider is not None and provider not in PROVIDERS:
        raise FinagentError(f"unknown provider '{provider}'; use one of: {', '.join(PROVIDERS)}")
    if not question.strip():
        raise FinagentError("the question is empty")
    from finagent.agent.api import ask
    from finagent.agent.resources import close_resources

    def show(node: str, update: dict[str, Any]) -> None:
        if not quiet:
            for line in describe_update(node, update):
                err_console.print(line, highlight=False)

    try:
        with err_console.status("researching…") if not quiet else nullcontext():
            answer = ask(
                question,
                tickers=ticker,
                periods=period,
                mode=mode,
                provider=provider,
                thread=thread,
                on_update=show,
            )
    finally:
        close_resources()
    if as_json:
        console.print_json(json.dumps(answer.to_dict(), default=str))
        return
    console.print()
    console.print(answer.answer, highlight=False, markup=False)
    if answer.citations:
        table = Table(title="Sources", show_lines=False)
        for column in ("", "ticker", "source", "period", "section", "page", "document"):
            table.add_column(column)
        for c in answer.citations:
            table.add_row(
                c["label"],
                c.get("ticker") or "",
                c["kind"],
                str(c.get("period") or ""),
                str(c.get("section") or "")[:40],
                str(c.get("page") or ""),
                str(c.get("source_uri") or "")[-60:],
            )
        console.print(table)
    for warning in answer.warnings:
        err_console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False)
    err_console.print(
        f"confidence {answer.confidence:.2f} · {answer.iterations} iteration(s) · "
        f"{len(answer.llm_calls)} LLM calls · {answer.tokens:,} tokens · {answer.wall_time_s:.1f} s"
    )
