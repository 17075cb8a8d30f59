"""An answer as a Markdown file (`finagent ask --output answer.md`): shareable, diffable, citable."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from finagent.errors import FinagentError
from finagent.finance.read.filing_parts import part_name

if TYPE_CHECKING:
    from finagent.agent.api import Answer

SOURCE_COLUMNS = ("label", "ticker", "kind", "period", "part", "page", "document")


def check_output_path(value: str) -> Path:
    """The --output path, refused before the (slow) research run if it can never be written."""
    path = Path(value).expanduser()
    if not value.strip():
        raise FinagentError("--output needs a file path, e.g. --output answer.md")
    if path.is_dir():
        raise FinagentError(
            f"--output '{value}' is a directory; give a file path such as {path / 'answer.md'}"
        )
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise FinagentError(f"--output '{value}': the directory '{parent}' does not exist")
    return path


def cell(value: Any) -> str:
    """A table cell: one line, with `|` escaped so it cannot split the row."""
    text = "" if value is None else str(value)
    return " ".join(text.split()).replace("\\", "\\\\").replace("|", "\\|")


def answer_markdown(answer: Answer) -> str:
    """The question as a heading, the answer, its sources, warnings and a run footer."""
    question = " ".join(answer.question.split())
    lines = [f"# {question}", "", answer.answer.strip(), ""]
    if answer.citations:
        lines += ["## Sources", ""]
        lines.append("| " + " | ".join(SOURCE_COLUMNS) + " |")
        lines.append("|" + "---|" * len(SOURCE_COLUMNS))
        for c in answer.citations:
            row = [
                f"[{c.get('label') or ''}]",
                c.get("ticker"),
                c.get("kind"),
                c.get("period"),
                part_name(c.get("section")),
                c.get("page"),
                c.get("source_uri") or c.get("title"),
            ]
            lines.append("| " + " | ".join(cell(v) for v in row) + " |")
        lines.append("")
    if answer.warnings:
        lines += ["## Warnings", ""]
        lines += [f"- {' '.join(w.split())}" for w in answer.warnings]
        lines.append("")
    v = answer.validation
    if v:
        unverified = ", ".join(str(c["text"]) for c in v.get("unverified") or [])
        lines.append(
            f"Figures check: **{v['status']}** ({v['numbers_verified']}/{v['numbers_total']} verified"
            + (f"; unverified: {unverified}" if unverified else "")
            + ")"
        )
        lines.append("")
    lines.append(
        f"*confidence {answer.confidence:.2f} · {answer.iterations} iteration(s) · "
        f"{answer.wall_time_s:.1f} s" + (f" · run {answer.run_id}" if answer.run_id else "") + "*"
    )
    return "\n".join(lines) + "\n"


def write_answer_markdown(answer: Answer, path: Path) -> None:
    """Write the Markdown file; an unwritable path becomes one clear error line."""
    try:
        path.write_text(answer_markdown(answer), encoding="utf-8")
    except OSError as exc:
        raise FinagentError(f"cannot write --output '{path}': {exc.strerror or exc}") from exc
