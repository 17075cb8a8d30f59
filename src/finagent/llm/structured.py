"""Structured and plain LLM calls that never take a run down.

JSON output is constrained by the schema (OpenAI-style ``response_format``), parsed tolerantly,
validated with pydantic, repaired once, and otherwise replaced by a safe default. Every call is
recorded (role, provider, model, tokens, latency) so runs can report and audit their LLM use.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import Runnable
from pydantic import BaseModel, ValidationError

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


@dataclass
class LLMCall:
    """One request to a model, as recorded in the run's state."""

    role: str
    provider: str | None = None
    model: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0
    ok: bool = True
    error: str | None = None
    repaired: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def response_format(schema: type[BaseModel]) -> dict[str, Any]:
    """OpenAI-compatible JSON-schema response format (llama.cpp, OpenAI, Cerebras accept it)."""
    return {
        "type": "json_schema",
        "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema(), "strict": False},
    }


def extract_json(text: str) -> str:
    """The JSON object in a reply: tolerate fences, leading prose and trailing text."""
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1)
    start = text.find("{")
    if start < 0:
        return text.strip()
    try:
        _, end = json.JSONDecoder().raw_decode(text[start:])
        return text[start : start + end]
    except json.JSONDecodeError:
        return text[start:].strip()


def _record(call: LLMCall, message: Any, started: float) -> None:
    call.latency_s = round(time.perf_counter() - started, 3)
    if isinstance(message, AIMessage):
        usage = message.usage_metadata or {}
        call.input_tokens += int(usage.get("input_tokens") or 0)
        call.output_tokens += int(usage.get("output_tokens") or 0)
        meta = message.response_metadata or {}
        call.model = meta.get("model_name") or meta.get("model") or call.model
        call.provider = meta.get("finagent_provider") or call.provider


def _text(message: Any) -> str:
    content = getattr(message, "content", message)
    if isinstance(content, list):
        return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)
    return str(content or "")


async def structured_call(
    model: Runnable,
    messages: list[BaseMessage],
    schema: type[T],
    *,
    role: str,
    default: T | Callable[[], T],
) -> tuple[T, list[LLMCall]]:
    """Ask for JSON matching ``schema``; one repair attempt; else the default. Never raises."""
    bound = model.bind(response_format=response_format(schema)) if hasattr(model, "bind") else model
    calls: list[LLMCall] = []
    conversation = list(messages)
    for attempt in range(2):
        call = LLMCall(role=role, repaired=attempt > 0)
        calls.append(call)
        started = time.perf_counter()
        try:
            message = await bound.ainvoke(conversation)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            call.latency_s = round(time.perf_counter() - started, 3)
            call.ok, call.error = False, f"{type(exc).__name__}: {exc}"[:500]
            break
        _record(call, message, started)
        raw = _text(message)
        try:
            return schema.model_validate_json(extract_json(raw)), calls
        except (ValidationError, ValueError) as exc:
            call.ok, call.error = False, f"invalid output: {str(exc)[:300]}"
            conversation = [
                *messages,
                AIMessage(raw[:2000]),
                HumanMessage(
                    "That reply was not valid JSON for the schema. Error:\n"
                    f"{str(exc)[:600]}\nReply again with the corrected JSON object only."
                ),
            ]
    return (default() if callable(default) else default), calls


async def text_call(model: Runnable, messages: list[BaseMessage], *, role: str) -> tuple[str, LLMCall]:
    """A plain completion; an empty string (and ok=False) when the model fails."""
    call = LLMCall(role=role)
    started = time.perf_counter()
    try:
        message = await model.ainvoke(messages)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        call.latency_s = round(time.perf_counter() - started, 3)
        call.ok, call.error = False, f"{type(exc).__name__}: {exc}"[:500]
        return "", call
    _record(call, message, started)
    text = _text(message).strip()
    if not text:
        call.ok, call.error = False, "empty reply"
    return text, call
