"""tools node: market data and news for the target companies, when the question needs them.

Tools run concurrently with a hard timeout; a failing or slow tool becomes a warning and the
answer is still produced from the filings.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Literal

from langchain_core.tools import BaseTool
from langgraph.runtime import Runtime

from finagent.agent.context import Context
from finagent.agent.resources import get_resources
from finagent.agent.state import State
from finagent.agent.understand.question import Question
from finagent.tools.langchain_tools import build_tools
from finagent.tools.results import ToolResult


def tool_calls_for(plan: Question) -> list[tuple[str, dict[str, Any]]]:
    """(tool name, arguments) pairs the question needs."""
    calls: list[tuple[str, dict[str, Any]]] = []
    for ticker in plan.tickers:
        if "market_data" in plan.sources:
            calls += [("market_quote", {"ticker": ticker}), ("key_statistics", {"ticker": ticker})]
        if "news" in plan.sources:
            calls.append(("company_news", {"ticker": ticker, "limit": 5}))
    return calls


async def _run_tool(tool: BaseTool, args: dict[str, Any], timeout: float) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        raw = await asyncio.wait_for(tool.ainvoke(args), timeout=timeout)
        result = ToolResult.model_validate(raw)
        record = {**result.model_dump(), "summary": result.summary()}
    except TimeoutError:
        record = {
            "tool": tool.name,
            "ticker": args.get("ticker"),
            "ok": False,
            "warning": f"{tool.name} timed out after {timeout:.0f} s",
        }
    except Exception as exc:  # a tool must never take the run down
        record = {
            "tool": tool.name,
            "ticker": args.get("ticker"),
            "ok": False,
            "warning": f"{tool.name} failed: {type(exc).__name__}: {exc}",
        }
    return record | {"args": args, "ms": round((time.perf_counter() - started) * 1000, 1)}


async def call_tools(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    context = runtime.context or Context()
    calls = tool_calls_for(Question.of(state)) if context.use_tools else []
    if not calls:
        return {}
    resources = get_resources()
    settings = resources.settings
    database = await asyncio.to_thread(resources.database)
    tools = {t.name: t for t in build_tools(settings, conn_factory=database.connection)}
    timeout = settings.tool_timeout + 5
    results = await asyncio.gather(*(_run_tool(tools[name], args, timeout) for name, args in calls))
    warnings = [f"{r['tool']} ({r.get('ticker')}): {r['warning']}" for r in results if r.get("warning")]
    return {"tool_results": list(results), "warnings": warnings}


def route_after_tools(state: State) -> Literal["choose_subject", "generate"]:
    plan = Question.of(state)
    return "choose_subject" if plan.subject_needed and not plan.tickers else "generate"
