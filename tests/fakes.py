"""A scripted chat model for graph tests: replies per role, records every prompt it was given."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

Reply = str | dict[str, Any] | Callable[[list[BaseMessage]], str] | Exception


class ScriptedChatModel(BaseChatModel):
    """Returns the next scripted reply (the last one repeats); dicts are sent as JSON text."""

    replies: list[Any]
    calls: list[dict[str, Any]] = []  # noqa: RUF012 (pydantic copies field defaults)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        index = min(len(self.calls), len(self.replies) - 1)
        self.calls.append({"messages": messages, "kwargs": kwargs})
        reply = self.replies[index]
        if isinstance(reply, Exception):
            raise reply
        if callable(reply):
            reply = reply(messages)
        text = json.dumps(reply) if isinstance(reply, dict) else str(reply)
        message = AIMessage(text, usage_metadata={"input_tokens": 10, "output_tokens": 5, "total_tokens": 15})
        return ChatResult(generations=[ChatGeneration(message=message)])


class ScriptedModels:
    """A chat-model factory for ``configure_resources``: one scripted model per role."""

    def __init__(self, script: dict[str, list[Any]]) -> None:
        self.models = {role: ScriptedChatModel(replies=replies, calls=[]) for role, replies in script.items()}

    def __call__(self, role: str, context: Any) -> ScriptedChatModel:
        return self.models[role]

    def prompts(self, role: str) -> list[str]:
        return ["\n".join(str(m.content) for m in c["messages"]) for c in self.models[role].calls]
