"""record_run node: persist the run (question, searches, prompts, replies, answer) for `finagent runs`."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from langgraph.config import get_config
from langgraph.runtime import Runtime

from finagent.agent.audit import build_record, save_record
from finagent.agent.context import Context

log = logging.getLogger(__name__)


async def record_run(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
    """Persist the finished run (last node); a failed write is a warning, never a lost answer."""
    context = runtime.context or Context()
    if not context.record_runs:
        return {}
    thread_id = (get_config().get("configurable") or {}).get("thread_id")
    record = build_record(state, context, status="completed", thread_id=thread_id)
    try:
        await asyncio.to_thread(save_record, record)
    except Exception as exc:  # e.g. the store is down, or text Postgres cannot encode
        log.warning("run %s not recorded: %s", record.run_id, exc)
        return {"warnings": [f"this run was not recorded in the audit trail: {exc}"]}
    return {}
