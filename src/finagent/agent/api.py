"""Python API: ``finagent.ask(question) -> Answer`` and its async twin ``aask``."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from langchain_core.messages import AIMessage

from finagent.agent.context import Context
from finagent.agent.graph import build_graph, graph
from finagent.agent.resources import get_resources
from finagent.agent.state import append
from finagent.errors import FinagentError
from finagent.finance.periods import PERIOD_EXAMPLES
from finagent.finance.periods.ranges import option_problem

UpdateHandler = Callable[[str, dict[str, Any]], None]
TokenHandler = Callable[[str], None]
MAX_THREAD_CHARS = 200  # a thread id is a key of the checkpoint tables' indexes
PROSE_NODE = "generate"  # the node whose free-text model call drafts the answer


@dataclass
class Answer:
    """A finished research run: the cited answer and how it was reached."""

    question: str
    answer: str
    citations: list[dict[str, Any]]
    confidence: float
    iterations: int
    periods_covered: list[str]
    warnings: list[str]
    llm_calls: list[dict[str, Any]] = field(default_factory=list)
    wall_time_s: float = 0.0
    thread: str | None = None
    run_id: str | None = None
    """Audit trail id: `finagent runs show RUN_ID` reconstructs the run."""
    validation: dict[str, Any] | None = None
    """Numeric verification: numbers_total, numbers_verified, unverified figures, status."""

    @property
    def tokens(self) -> int:
        return sum(int(c.get("input_tokens") or 0) + int(c.get("output_tokens") or 0) for c in self.llm_calls)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self) | {"tokens": self.tokens}


@asynccontextmanager
async def _checkpointed_graph(thread: str | None) -> AsyncIterator[Any]:
    """The graph with a Postgres checkpointer in the store's database when a thread is given."""
    if not thread:
        yield graph
        return
    from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

    database = await asyncio.to_thread(get_resources().database)
    async with AsyncPostgresSaver.from_conn_string(database.url) as saver:
        await saver.setup()
        yield build_graph(checkpointer=saver)


async def aask(
    question: str,
    *,
    tickers: list[str] | None = None,
    periods: list[str] | None = None,
    mode: str | None = None,
    provider: str | None = None,
    thread: str | None = None,
    context: Context | None = None,
    on_update: UpdateHandler | None = None,
    on_token: TokenHandler | None = None,
) -> Answer:
    """Run the research graph on one question (streaming node updates to ``on_update``).

    ``on_token`` receives the answer draft as the model writes it. Only then is the "messages" stream
    mode added: it makes streaming-capable chat models stream, so runs without it stay untouched.
    """
    question = _checked_question(question, thread, periods)
    run_context = context or Context()
    if provider:
        run_context = replace(run_context, provider=provider)
    if mode:
        run_context = replace(run_context, answer_mode=mode)
    inputs: dict[str, Any] = {"question": question}
    if tickers:
        inputs["tickers"] = tickers
    if periods:
        inputs["periods"] = periods
    config: dict[str, Any] = {"configurable": {"thread_id": thread}} if thread else {}
    started = time.perf_counter()
    progress: dict[str, Any] = {"question": question, **inputs}  # what ran so far, for a failed run's record
    try:
        output = await _stream(thread, inputs, config, run_context, progress, on_update, on_token)
    except Exception as exc:
        from finagent.agent.audit import record_failed_run

        await asyncio.to_thread(
            record_failed_run, progress, run_context, f"{type(exc).__name__}: {exc}", thread
        )
        raise
    return _answer(question, output, progress, time.perf_counter() - started, thread)


def _checked_question(question: str, thread: str | None, periods: list[str] | None) -> str:
    """The question as the graph takes it, after refusing what no run could use (an empty question,
    a thread id no index can key, a period the options do not read)."""
    if not question or not question.strip():
        raise FinagentError("the question is empty")
    if thread and not (len(thread) <= MAX_THREAD_CHARS and thread.isprintable()):
        raise FinagentError(f"the thread id must be at most {MAX_THREAD_CHARS} printable characters")
    for period in periods or []:
        problem = option_problem(period)
        if problem:
            raise FinagentError(f"invalid period '{period}': {problem}; {PERIOD_EXAMPLES}")
    return question.encode("utf-8", "replace").decode("utf-8")  # undecodable bytes (argv) -> "?"


def _answer(
    question: str, output: dict[str, Any], progress: dict[str, Any], seconds: float, thread: str | None
) -> Answer:
    """The finished run as an Answer; its model calls without their prompts and replies."""
    return Answer(
        question=question,
        answer=output.get("answer", ""),
        citations=list(output.get("citations") or []),
        confidence=float(output.get("confidence") or 0.0),
        iterations=int(output.get("iterations") or 0),
        periods_covered=list(output.get("periods_covered") or []),
        warnings=list(output.get("warnings") or []),
        llm_calls=[
            {k: v for k, v in c.items() if k not in ("prompt", "reply")}
            for c in progress.get("llm_calls") or []
        ],
        wall_time_s=round(seconds, 2),
        thread=thread,
        run_id=output.get("run_id"),
        validation=output.get("validation"),
    )


async def _stream(
    thread: str | None,
    inputs: dict[str, Any],
    config: dict[str, Any],
    context: Context,
    progress: dict[str, Any],
    on_update: UpdateHandler | None,
    on_token: TokenHandler | None,
) -> dict[str, Any]:
    """Run the graph, folding each node's update into ``progress``; the final state."""
    output: dict[str, Any] = {}
    modes = ["updates", "values"]
    prose = _ProseFilter(on_token) if on_token is not None else None
    if prose is not None:
        modes.append("messages")
    async with _checkpointed_graph(thread) as compiled:
        async for mode, chunk in compiled.astream(inputs, config, context=context, stream_mode=modes):
            if mode == "messages":
                if prose is not None:
                    prose.feed(*chunk)
            elif mode == "values":
                output = dict(chunk)
            else:
                for node, update in chunk.items():
                    if isinstance(update, dict):
                        _accumulate(progress, update)
                        if on_update is not None:
                            on_update(node, update)
    return output


def _accumulate(progress: dict[str, Any], update: dict[str, Any]) -> None:
    """Fold a node update into ``progress`` with the graph's own list reducer (``reset`` clears)."""
    for key, value in update.items():
        progress[key] = append(progress.get(key), value) if isinstance(value, list) else value


class _ProseFilter:
    """Forwards the text of the generate node's prose call, not its JSON extraction calls.

    Both run in the same node and nothing in the stream metadata tells them apart, so a reply is
    held back until its first characters show whether it opens a JSON object (or a code fence).
    """

    def __init__(self, on_token: TokenHandler) -> None:
        self.on_token = on_token
        self.pending: dict[str, str] = {}  # reply id -> text held back until its start is known
        self.verdict: dict[str, bool] = {}  # reply id -> whether it is prose

    def feed(self, message: Any, metadata: dict[str, Any]) -> None:
        if not isinstance(message, AIMessage):  # AIMessageChunk too
            return
        if (metadata or {}).get("langgraph_node") != PROSE_NODE:
            return
        text = str(message.text)
        if not text:
            return
        key = str(message.id)
        verdict = self.verdict.get(key)
        if verdict is None:
            held = self.pending.get(key, "") + text
            start = held.lstrip()
            if not start or (start.startswith("`") and len(start) < 3):
                self.pending[key] = held  # too early to tell
                return
            self.pending.pop(key, None)
            verdict = self.verdict[key] = not start.startswith(("{", "```"))
            text = held
        if verdict:
            self.on_token(text)


def ask(question: str, **options: Any) -> Answer:
    """Blocking ``aask``; works inside a running event loop too (e.g. a notebook) via a worker thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(aask(question, **options))
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, aask(question, **options)).result()
