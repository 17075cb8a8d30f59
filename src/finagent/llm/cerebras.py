"""A small LangChain chat model over the official `cerebras-cloud-sdk` client.

Kept in-house (not langchain-cerebras) so it only needs the SDK; it supports exactly what finagent uses:
plain chat, `response_format` (JSON schema), token usage, and the SDK's own retries with backoff on
429/5xx/timeouts. The API is OpenAI-compatible, so `base_url` may point at any such server (tests use
the local llama.cpp one).
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, convert_to_openai_messages
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field, PrivateAttr, SecretStr

DEFAULT_MODEL = "qwen-3-235b-a22b-instruct-2507"


def _root_url(base_url: str | None) -> str | None:
    """The SDK appends /v1/... itself; accept OpenAI-style URLs that already end in /v1."""
    if not base_url:
        return None
    url = base_url.rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else url


class ChatCerebras(BaseChatModel):
    """Chat model for the Cerebras inference API (or any OpenAI-compatible server via base_url)."""

    model: str = DEFAULT_MODEL
    api_key: SecretStr | None = None
    base_url: str | None = None
    timeout: float | None = None
    max_retries: int = 2
    max_tokens: int | None = None
    temperature: float | None = None
    model_kwargs: dict[str, Any] = Field(default_factory=dict)

    _client: Any = PrivateAttr(default=None)
    _async_client: Any = PrivateAttr(default=None)

    @property
    def _llm_type(self) -> str:
        return "cerebras-chat"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model": self.model, "base_url": self.base_url, "temperature": self.temperature}

    def _client_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "api_key": self.api_key.get_secret_value() if self.api_key else None,
            "base_url": _root_url(self.base_url),
            "max_retries": self.max_retries,
            "warm_tcp_connection": False,  # no network at construction
        }
        if self.timeout is not None:
            kwargs["timeout"] = self.timeout
        return kwargs

    def _sync_client(self) -> Any:
        if self._client is None:
            from cerebras.cloud.sdk import Cerebras

            self._client = Cerebras(**self._client_kwargs())
        return self._client

    def _aclient(self) -> Any:
        if self._async_client is None:
            from cerebras.cloud.sdk import AsyncCerebras

            self._async_client = AsyncCerebras(**self._client_kwargs())
        return self._async_client

    def _request(self, messages: list[BaseMessage], stop: list[str] | None, kwargs: dict[str, Any]) -> dict:
        """Request body: model defaults, then per-call kwargs (e.g. a bound response_format)."""
        params: dict[str, Any] = {"model": self.model, **self.model_kwargs}
        if self.max_tokens is not None:
            params["max_completion_tokens"] = self.max_tokens
        if self.temperature is not None:
            params["temperature"] = self.temperature
        if stop:
            params["stop"] = stop
        params.update(kwargs)
        if "max_tokens" in params:  # the SDK's current name
            params["max_completion_tokens"] = params.pop("max_tokens")
        params["messages"] = convert_to_openai_messages(messages)
        return params

    def _result(self, response: Any) -> ChatResult:
        """SDK ChatCompletion -> ChatResult with usage and model name."""
        choice = response.choices[0]
        usage = getattr(response, "usage", None)
        usage_metadata: UsageMetadata | None = None
        if usage is not None:
            input_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
            output_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
            usage_metadata = UsageMetadata(
                input_tokens=input_tokens,
                output_tokens=output_tokens,
                total_tokens=int(getattr(usage, "total_tokens", 0) or input_tokens + output_tokens),
            )
        model_name = getattr(response, "model", None) or self.model
        finish_reason = getattr(choice, "finish_reason", None)
        message = AIMessage(
            content=choice.message.content or "",
            usage_metadata=usage_metadata,
            response_metadata={
                "model_name": model_name,
                "model_provider": "cerebras",
                "finish_reason": finish_reason,
            },
            id=getattr(response, "id", None),
        )
        return ChatResult(
            generations=[ChatGeneration(message=message, generation_info={"finish_reason": finish_reason})],
            llm_output={"model_name": model_name, "model_provider": "cerebras"},
        )

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        response = self._sync_client().chat.completions.create(**self._request(messages, stop, kwargs))
        return self._result(response)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        response = await self._aclient().chat.completions.create(**self._request(messages, stop, kwargs))
        return self._result(response)
