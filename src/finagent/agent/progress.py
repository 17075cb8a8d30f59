"""Progress lines for a node's state update, shared by the CLI (rich markup) and MCP (plain text)."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.text import Text


def describe_update(node: str, update: dict[str, Any]) -> list[str]:
    """One-line progress messages for a node's state update."""
    lines: list[str] = []
    if node == "analyze" and "analysis" in update:
        a = update["analysis"]
        if a.get("refusal"):
            return ["[bold]analysis[/] nothing to search: answered at once (see the answer)"]
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
    elif node == "generate" and update.get("stood"):
        lines.append("[bold]follow-ups[/] found nothing the answer was not written from: it stands")
    elif node == "tools":
        for r in update.get("tool_results") or []:
            state = "ok" if r.get("ok") else "[yellow]no data[/]"
            lines.append(
                f"[bold]tool[/] {r['tool']} {r.get('ticker') or ''}: {state}"
                + (" (offline)" if r.get("offline") else "")
            )
    elif node == "generate" and "answer" in update:
        v = update.get("validation") or {}
        checked = f"; figures check {v['status']} ({v['numbers_verified']}/{v['numbers_total']})" if v else ""
        lines.append(
            f"[bold]iteration {update.get('iterations')}[/] answer drafted: "
            f"{len(update.get('facts') or [])} figures, {len(update.get('citations') or [])} citations"
            + escape(checked)
        )
    elif node == "evaluate":
        for e in update.get("evaluations") or []:
            follow = ", ".join(update.get("follow_up_queries") or []) or "none"
            lines.append(
                f"[bold]confidence[/] {e['confidence']:.2f} (coverage {e['coverage']:.2f}); "
                f"follow-ups: {escape(follow)}"
            )
    return lines


def plain(line: str) -> str:
    """A describe_update line without its rich markup (for machine-readable events)."""
    return Text.from_markup(line).plain
