"""`finagent ask`: run the research graph, streaming its progress, then the cited answer."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from datetime import date, datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.live import Live
from rich.markup import escape
from rich.panel import Panel
from rich.spinner import Spinner
from rich.table import Table
from rich.text import Text

from finagent.agent.progress import describe_update, plain
from finagent.cli.console import console, err_console
from finagent.cli.markdown import check_output_path, write_answer_markdown
from finagent.errors import FinagentError
from finagent.finance.periods import PERIOD_EXAMPLES
from finagent.finance.periods.ranges import option_problem
from finagent.finance.read.filing_parts import part_name

if TYPE_CHECKING:
    from finagent.agent.api import Answer, TokenHandler

MODES = ("direct", "standard", "detailed", "deep")
PROVIDERS = ("auto", "openai", "cerebras", "local")
NARRATIVE_ANSWERS = ("extractive", "written", "quoted")
_QUOTED = typer.Option("--quoted", help="Answer a question in words with the sources' sentences alone.")
_NARRATIVE = typer.Option(
    "--narrative",
    help="How a question in words is answered: extractive (default: the sources' sentences under a short "
    "opening the model writes), written (the model writes it all) or quoted (no model).",
)


def json_safe(value: Any) -> Any:
    """State values as JSON: string keys, lists for tuples/sets, ISO dates, str() for the rest."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [json_safe(v) for v in value]
    if isinstance(value, date | datetime):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return json_safe(dataclasses.asdict(value))
    return str(value)


def emit_event(event: dict[str, Any]) -> None:
    """One JSON object per stdout line, flushed at once so a reader sees progress as it happens."""
    sys.stdout.write(json.dumps(json_safe(event), ensure_ascii=False) + "\n")
    sys.stdout.flush()


def node_event(node: str, update: dict[str, Any]) -> None:
    emit_event(
        {
            "event": "node",
            "node": node,
            "summary": [plain(line) for line in describe_update(node, update)],
            "update": update,
        }
    )


def token_event(text: str) -> None:
    emit_event({"event": "token", "text": text})


class LiveProgress:
    """The terminal view on stderr: the stages so far and the answer as the model drafts it.

    Rendered by rich ``Live`` on every refresh; long runs keep the newest stages on screen, and
    the full stage log is printed once the view closes (it is transient, so the draft disappears
    and the verified answer takes its place).
    """

    DRAFT_LINES = 8

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.draft = ""
        self.draft_done = False
        self.spinner = Spinner("dots", text="researching…")

    def on_update(self, node: str, update: dict[str, Any]) -> None:
        self.lines.extend(describe_update(node, update))
        if node == "generate" and "answer" in update:
            self.draft_done = True  # the next tokens start a new iteration's draft

    def on_token(self, text: str) -> None:
        if self.draft_done:
            self.draft, self.draft_done = "", False
        self.draft += text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(20, options.max_width)
        panel: Panel | None = None
        tail: list[Text] = []
        if self.draft.strip():
            wrapped = Text(self.draft.strip()).wrap(console, width - 4)
            tail = list(wrapped)[-self.DRAFT_LINES :]
            title = "answer draft" if not self.draft_done else "answer draft (checking…)"
            panel = Panel(Group(*tail), title=title, title_align="left", border_style="dim")
        room = max(3, console.size.height - (len(tail) + 2 if tail else 0) - 2)
        lines = list(self.lines)
        if len(lines) > room:
            yield Text(f"… {len(lines) - room + 1} earlier steps", style="dim")
            lines = lines[-(room - 1) :]
        for line in lines:
            yield Text.from_markup(line)
        if panel is not None:
            yield panel
        yield self.spinner

    def print_log(self, target: Console) -> None:
        """Every stage, once the live view is gone (the view may have shown only the newest)."""
        for line in self.lines:
            target.print(line, highlight=False)


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
    jsonl_events: Annotated[
        bool,
        typer.Option(
            "--jsonl-events", help="Stream JSON lines to stdout: node updates, answer tokens, the answer."
        ),
    ] = False,
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Also write the answer as Markdown to this file.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")] = False,
    quoted: Annotated[bool, _QUOTED] = False,
    narrative: Annotated[str | None, _NARRATIVE] = None,
) -> None:
    """Answer a financial question from the store, with citations."""
    _check_options(question, period, mode, provider, narrative, as_json=as_json, jsonl_events=jsonl_events)
    narrative = "quoted" if quoted else narrative
    output_path = check_output_path(output) if output is not None else None
    from finagent.agent.api import ask
    from finagent.agent.context import Context

    shown = _Progress.choose(quiet=quiet, as_json=as_json, jsonl_events=jsonl_events)
    answer = shown.run(
        lambda: ask(
            question,
            tickers=ticker,
            periods=period,
            mode=mode,
            provider=provider,
            thread=thread,
            on_update=shown.on_update,
            on_token=shown.on_token,
            context=Context(narrative_answers=narrative) if narrative else None,
        )
    )
    _print_result(answer, as_json=as_json, jsonl_events=jsonl_events)
    if output_path is not None:  # after the answer is shown, so a failed write cannot lose it
        write_answer_markdown(answer, output_path)
        if not quiet:
            # soft_wrap: the path is never broken by a newline, so it can be copied whole
            err_console.print(f"wrote {escape(str(output_path))}", highlight=False, soft_wrap=True)


def _check_options(
    question: str,
    period: list[str] | None,
    mode: str | None,
    provider: str | None,
    narrative: str | None,
    *,
    as_json: bool,
    jsonl_events: bool,
) -> None:
    """Refuse a bad option in one line before the graph's imports: a typo is answered at once."""
    if narrative is not None and narrative not in NARRATIVE_ANSWERS:
        raise FinagentError(f"unknown --narrative '{narrative}'; use one of: {', '.join(NARRATIVE_ANSWERS)}")
    if as_json and jsonl_events:
        raise FinagentError("--json and --jsonl-events cannot be combined: pick one output format")
    if mode is not None and mode not in MODES:
        raise FinagentError(f"unknown mode '{mode}'; use one of: {', '.join(MODES)}")
    if provider is not None and provider not in PROVIDERS:
        raise FinagentError(f"unknown provider '{provider}'; use one of: {', '.join(PROVIDERS)}")
    if not question.strip():
        raise FinagentError("the question is empty")
    for value in period or []:
        problem = option_problem(value)
        if problem:
            raise FinagentError(f"invalid --period '{value}': {problem}; {PERIOD_EXAMPLES}")


@dataclasses.dataclass
class _Progress:
    """How a run's progress is shown: JSON lines on stdout, the live view or plain lines on stderr,
    or nothing (--quiet, and --json's single object)."""

    jsonl_events: bool
    quiet: bool
    live: LiveProgress | None

    @classmethod
    def choose(cls, *, quiet: bool, as_json: bool, jsonl_events: bool) -> _Progress:
        """The live view only on a terminal, and only when nothing else is written."""
        live = LiveProgress() if err_console.is_terminal and not (quiet or as_json or jsonl_events) else None
        return cls(jsonl_events=jsonl_events, quiet=quiet, live=live)

    def on_update(self, node: str, update: dict[str, Any]) -> None:
        if self.jsonl_events:
            node_event(node, update)
        elif self.live is not None:
            self.live.on_update(node, update)
        elif not self.quiet:
            for line in describe_update(node, update):
                err_console.print(line, highlight=False)

    @property
    def on_token(self) -> TokenHandler | None:
        if self.jsonl_events:
            return token_event
        return self.live.on_token if self.live else None

    def _view(self) -> AbstractContextManager[Any]:
        if self.live is not None:
            return Live(self.live, console=err_console, refresh_per_second=8, transient=True)
        if not (self.quiet or self.jsonl_events):
            return err_console.status("researching…")
        return nullcontext()

    def run(self, ask: Callable[[], Answer]) -> Answer:
        """The answer, asked inside the view; Ctrl-C ends the command with 130 after the store closes
        and the stage log is printed."""
        from finagent.agent.resources import close_resources

        view = self._view()
        cancelled = False
        try:
            with view:
                answer = ask()
        except KeyboardInterrupt:
            cancelled = True
        finally:
            close_resources()
            if self.live is not None:
                self.live.print_log(err_console)
        if cancelled:
            err_console.print("[yellow]cancelled[/]")
            raise typer.Exit(130)
        return answer


def _print_result(answer: Answer, *, as_json: bool, jsonl_events: bool) -> None:
    """The answer as asked: the last JSON-lines event, one JSON object, or the text and its sources."""
    if jsonl_events:
        emit_event({"event": "answer", **answer.to_dict()})
        print_warnings(answer)
    elif as_json:
        console.print_json(json.dumps(answer.to_dict(), default=str))
    else:
        print_answer(answer)


def print_answer(answer: Answer) -> None:
    """The answer on stdout, its sources as a table, then warnings and run costs on stderr."""
    console.print()
    console.print(answer.answer, highlight=False, markup=False)
    if answer.citations:
        table = Table(title="Sources", show_lines=False)
        for column in ("", "ticker", "source", "period", "part", "page", "document"):
            table.add_column(column)
        for c in answer.citations:
            table.add_row(
                *(
                    escape(value)
                    for value in (
                        c["label"],
                        c.get("ticker") or "",
                        c["kind"],
                        str(c.get("period") or ""),
                        part_name(c.get("section"))[:40],
                        str(c.get("page") or ""),
                        str(c.get("source_uri") or "")[-60:],
                    )
                )
            )
        console.print(table)
    print_warnings(answer)
    err_console.print(validation_line(answer), highlight=False)
    err_console.print(
        f"confidence {answer.confidence:.2f} · {answer.iterations} iteration(s) · "
        f"{len(answer.llm_calls)} LLM calls · {answer.tokens:,} tokens · {answer.wall_time_s:.1f} s"
        + (f" · run {answer.run_id[:8]} (finagent runs show {answer.run_id[:8]})" if answer.run_id else "")
    )


def validation_line(answer: Answer) -> str:
    """The figures check in one line: status, verified/total, the unverified figures."""
    v = answer.validation
    if not v:
        return "figures check: not run"
    colour = {"verified": "green", "needs review": "yellow"}.get(v["status"], "red")
    unverified = ", ".join(str(c["text"]) for c in v.get("unverified") or [])
    return (
        f"figures check: [{colour}]{v['status']}[/] · {v['numbers_verified']}/{v['numbers_total']} verified"
        + (f" · unverified: {escape(unverified)}" if unverified else "")
    )


def print_warnings(answer: Answer) -> None:
    for warning in answer.warnings:
        err_console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False)
