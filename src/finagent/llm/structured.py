"""LLM calls that never crash the agent: JSON constrained by a pydantic schema, one repair, then a default.

Every attempt is recorded as an LLMCall (tokens, latency, outcome) so runs can report cost and failures.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import Runnable
from pydantic import BaseModel, ValidationError

from finagent.resources import read_prompt

T = TypeVar("T", bound=BaseModel)

MAX_ERROR_CHARS = 1500  # of a validation error echoed back in the repair prompt
MAX_SCHEMA_CHARS = 6000  # larger schemas are left to response_format alone
_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


@dataclass
class LLMCall:
    """One request to a model: who answered, what it cost, and whether its answer was usable."""

    role: str
    provider: str | None = None
    model: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0
    ok: bool = False
    error: str | None = None
    repaired: bool = False
    # For the audit trail: which template, the exact prompt sent (and its hash), the raw reply.
    template: str | None = None
    prompt_sha256: str | None = None
    prompt: str | None = None
    reply: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def prompt_text(messages: list[BaseMessage]) -> str:
    """The prompt as sent, one "role: content" block per message."""
    return "\n\n".join(f"{m.type}: {m.content}" for m in messages)


def _record_prompt(call: LLMCall, messages: list[BaseMessage]) -> None:
    text = prompt_text(messages)
    call.prompt = text
    call.prompt_sha256 = hashlib.sha256(text.encode()).hexdigest()
    call.template = next(
        (str(m.response_metadata["template"]) for m in messages if m.response_metadata.get("template")), None
    )


class ReplyError(ValueError):
    """The reply holds no JSON object matching the schema."""


def response_format_for(schema: type[BaseModel]) -> dict[str, Any]:
    """OpenAI-style json_schema response_format; pydantic emits maxItems/maxLength from max_length."""
    return {
        "type": "json_schema",
        "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema(), "strict": False},
    }


def extract_json_object(text: str) -> dict[str, Any]:
    """The first JSON object in a reply, tolerating ```json fences, leading prose and trailing garbage."""
    text = _THINK.sub("", text).strip()
    candidates = [match.group(1) for match in _FENCE.finditer(text)]
    candidates.append(text)
    decoder = json.JSONDecoder()
    for candidate in candidates:
        start = candidate.find("{")
        while start != -1:
            try:
                value, _ = decoder.raw_decode(candidate, start)
            except json.JSONDecodeError:
                pass
            else:
                if isinstance(value, dict):
                    return value
            start = candidate.find("{", start + 1)
    raise ReplyError("the reply holds no JSON object")


def parse_reply(text: str, schema: type[T]) -> T:
    """Extract and validate; raises ReplyError with a message fit to show the model."""
    data = extract_json_object(text)
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise ReplyError(str(exc)[:MAX_ERROR_CHARS]) from exc


def _describe(exc: BaseException) -> str:
    message = str(exc).strip() or "no message"
    return f"{type(exc).__name__}: {message}"[:MAX_ERROR_CHARS]


async def _invoke(
    model: Runnable[LanguageModelInput, BaseMessage], messages: list[BaseMessage], call: LLMCall
) -> str:
    """Run the model once, filling the call's usage, model and latency; returns the reply text."""
    _record_prompt(call, messages)
    started = time.perf_counter()
    try:
        reply = await model.ainvoke(messages)
    finally:
        call.latency_s = round(time.perf_counter() - started, 3)
    metadata = reply.response_metadata or {}
    call.provider = metadata.get("model_provider") or call.provider
    call.model = metadata.get("model_name") or metadata.get("model") or call.model
    usage = reply.usage_metadata if isinstance(reply, AIMessage) else None
    if usage:
        call.input_tokens = int(usage.get("input_tokens", 0) or 0)
        call.output_tokens = int(usage.get("output_tokens", 0) or 0)
    call.reply = reply.text
    return reply.text


def _repair_prompt(error: str, schema: type[BaseModel]) -> str:
    schema_text = json.dumps(schema.model_json_schema(), separators=(",", ":"))
    schema_line = (
        f"\nIt must match this JSON schema: {schema_text}" if len(schema_text) <= MAX_SCHEMA_CHARS else ""
    )
    return read_prompt("repair").substitute(error=error, schema_line=schema_line)


def _default_value(default: T | Callable[[], T]) -> T:
    return default if isinstance(default, BaseModel) else default()


async def structured_call(
    model: Runnable[LanguageModelInput, BaseMessage],
    messages: list[BaseMessage],
    schema: type[T],
    *,
    role: str,
    default: T | Callable[[], T],
) -> tuple[T, list[LLMCall]]:
    """Ask for JSON matching `schema`; one repair round on an invalid reply; else `default`.

    Never raises for a bad reply or a failed provider (only cancellation propagates). Returns one LLMCall
    per attempt: the last one's `ok` tells whether the value came from the model.
    """
    bound = model.bind(response_format=response_format_for(schema))
    first = LLMCall(role=role)
    calls = [first]
    try:
        text = await _invoke(bound, messages, first)
    except Exception as exc:
        first.error = _describe(exc)
        return _default_value(default), calls
    try:
        value = parse_reply(text, schema)
    except ReplyError as exc:
        first.error = f"invalid reply: {exc}"
        error = str(exc)
    else:
        first.ok = True
        return value, calls

    repair = LLMCall(role=role, provider=first.provider, model=first.model, repaired=True)
    calls.append(repair)
    repair_messages = [
        *messages,
        AIMessage(content=text),
        HumanMessage(content=_repair_prompt(error, schema)),
    ]
    try:
        text = await _invoke(bound, repair_messages, repair)
        value = parse_reply(text, schema)
    except ReplyError as exc:
        repair.error = f"invalid reply after repair: {exc}"
    except Exception as exc:
        repair.error = _describe(exc)
    else:
        repair.ok = True
        return value, calls
    return _default_value(default), calls


async def text_call(
    model: Runnable[LanguageModelInput, BaseMessage], messages: list[BaseMessage], *, role: str
) -> tuple[str, LLMCall]:
    """Free-text answer with the same recording; "" and ok=False when the call fails."""
    call = LLMCall(role=role)
    try:
        text = await _invoke(model, messages, call)
    except Exception as exc:
        call.error = _describe(exc)
        return "", call
    call.ok = True
    return text, call
