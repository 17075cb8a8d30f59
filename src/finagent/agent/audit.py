"""The audit trail of a run: node timings in the state, and a final node that persists the run.

Recording happens inside the graph, so runs from the CLI, the Python API, MCP and LangGraph Studio
are all kept. A failed write never costs the user the answer: it becomes a warning.
"""

from __future__ import annotations

import inspect
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from langgraph.runtime import Runtime

from finagent.agent.context import Context
from finagent.agent.resources import get_resources
from finagent.agent.state import reset
from finagent.db.runs import RunRecord, write_run
from finagent.version import __version__

log = logging.getLogger(__name__)

Node = Callable[..., Awaitable[dict[str, Any]]]


def timed(name: str, node: Node, *, starts_run: bool = False) -> Node:
    """Wrap a node so its update carries its duration; the first node also opens a new run id."""
    takes_runtime = "runtime" in inspect.signature(node).parameters

    async def run(state: Any, runtime: Runtime[Context]) -> dict[str, Any]:
        started_at = datetime.now(UTC)
        started = time.perf_counter()
        update = await (node(state, runtime) if takes_runtime else node(state))
        timing = {"node": name, "ms": round((time.perf_counter() - started) * 1000, 1)}
        if not starts_run:
            return {**update, "node_timings": [timing]}
        return {
            **update,
            "node_timings": reset([timing]),
            "run_id": str(uuid.uuid4()),
            "started_at": started_at.isoformat(),
        }

    run.__name__ = name
    run.__doc__ = node.__doc__
    return run


def run_options(state: dict[str, Any], context: Context) -> dict[str, Any]:
    """What the caller asked for, plus the run settings that shape the answer."""
    settings = {k: v for k, v in asdict(context).items() if v is not None and not isinstance(v, dict)}
    return {
        "tickers": state.get("tickers"),
        "periods": state.get("periods"),
        "answer_mode": state.get("answer_mode"),
        "context": settings,
    }


def models_used(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: dict[tuple[str, str, str], dict[str, Any]] = {}
    for call in calls:
        key = (str(call.get("role")), str(call.get("provider")), str(call.get("model")))
        seen.setdefault(key, {"role": key[0], "provider": call.get("provider"), "model": call.get("model")})
    return list(seen.values())


def build_record(
    state: dict[str, Any],
    context: Context,
    *,
    status: str,
    thread_id: str | None = None,
    errors: list[str] | None = None,
) -> RunRecord:
    started = state.get("started_at")
    calls = [c for c in state.get("llm_calls") or [] if isinstance(c, dict)]
    return RunRecord(
        run_id=state.get("run_id") or str(uuid.uuid4()),
        question=str((state.get("analysis") or {}).get("question") or state.get("question") or ""),
        status=status,
        started_at=datetime.fromisoformat(started) if started else datetime.now(UTC),
        finagent_version=__version__,
        thread_id=thread_id,
        options=run_options(state, context),
        models=models_used(calls),
        analysis=state.get("analysis"),
        targets=state.get("targets"),
        answer=state.get("answer"),
        confidence=state.get("confidence"),
        iterations=state.get("iterations"),
        validation=state.get("validation"),
        tool_results=state.get("tool_results"),
        evaluations=state.get("evaluations"),
        facts=state.get("facts"),
        calculations=state.get("calculations"),
        warnings=state.get("warnings"),
        errors=errors,
        node_timings=state.get("node_timings"),
        searches=state.get("searches"),
        llm_calls=calls,
        citations=state.get("citations"),
    )


def save_record(record: RunRecord) -> None:
    with get_resources().database().connection() as conn:
        write_run(conn, record)


def record_failed_run(state: dict[str, Any], context: Context, error: str, thread_id: str | None) -> None:
    """Best effort, after the graph raised: keep what the run did up to the failure."""
    if not context.record_runs or not state.get("run_id"):
        return
    try:
        save_record(build_record(state, context, status="failed", thread_id=thread_id, errors=[error]))
    except Exception as exc:  # the original error is what the user must see
        log.warning("failed run %s not recorded: %s", state.get("run_id"), exc)
