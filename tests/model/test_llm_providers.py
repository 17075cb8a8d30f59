"""Provider chains, structured calls and retries/fallbacks, with scripted models and a fake HTTP API.

No real model and no network: remote providers are pointed at a tiny HTTP server on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableWithFallbacks
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, Field

from finagent.errors import ConfigError
from finagent.llm import providers
from finagent.llm.cerebras import ChatCerebras
from finagent.llm.local_model import LocalModelServer
from finagent.llm.providers import (
    LocalChatOpenAI,
    chat_model_for_role,
    make_chat_model,
    parse_model_override,
    provider_chain,
    role_models,
)
from finagent.llm.structured import (
    LLMCall,
    ReplyError,
    extract_json_object,
    response_format_for,
    structured_call,
    text_call,
)
from finagent.settings import Settings

ENV_VARS = [
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "CEREBRAS_API_KEY",
    "CEREBRAS_BASE_URL",
    "FINAGENT_OPENAI_API_KEY",
    "FINAGENT_OPENAI_BASE_URL",
    "FINAGENT_CEREBRAS_API_KEY",
    "FINAGENT_CEREBRAS_BASE_URL",
    "FINAGENT_LLM_PROVIDER",
    "FINAGENT_LOCAL_MODEL_PATH",
    "FINAGENT_ANALYZE_MODEL",
    "FINAGENT_GENERATE_MODEL",
    "FINAGENT_EVALUATE_MODEL",
]


@pytest.fixture()
def make(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Settings built only from the given values (no environment, no .env), local model 'installed'."""
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(providers, "local_model_available", lambda settings: True)

    def build(**values: Any) -> Settings:
        return Settings(_env_file=None, **values)  # type: ignore[call-arg]

    return build


# -- provider chains ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "requested", "expected"),
    [
        ({}, None, ["local"]),
        ({"cerebras_api_key": "c"}, None, ["cerebras", "local"]),
        ({"openai_api_key": "o"}, "auto", ["openai", "local"]),
        ({"openai_base_url": "http://127.0.0.1:1/v1"}, None, ["openai", "local"]),
        ({"openai_api_key": "o", "cerebras_api_key": "c"}, None, ["cerebras", "openai", "local"]),
        ({"openai_api_key": "o", "cerebras_api_key": "c"}, "openai", ["openai", "cerebras", "local"]),
        ({"openai_api_key": "o", "cerebras_api_key": "c"}, "local", ["local", "cerebras", "openai"]),
        ({"cerebras_api_key": "c", "llm_provider": "local"}, None, ["local", "cerebras"]),
        ({"cerebras_api_key": "c", "llm_provider": "local"}, "cerebras", ["cerebras", "local"]),
    ],
)
def test_provider_chain(
    make: Any, values: dict[str, Any], requested: str | None, expected: list[str]
) -> None:
    assert provider_chain(make(**values), requested) == expected


@pytest.mark.parametrize(
    ("values", "requested", "message"),
    [
        ({}, "openai", "provider 'openai' needs OPENAI_API_KEY (or FINAGENT_OPENAI_BASE_URL"),
        ({"openai_api_key": "o"}, "cerebras", "provider 'cerebras' needs CEREBRAS_API_KEY"),
        ({"llm_provider": "cerebras"}, None, "provider 'cerebras' needs CEREBRAS_API_KEY"),
        ({}, "anthropic", "unknown LLM provider 'anthropic'"),
    ],
)
def test_provider_chain_errors(
    make: Any, values: dict[str, Any], requested: str | None, message: str
) -> None:
    with pytest.raises(ConfigError) as info:
        provider_chain(make(**values), requested)
    assert message in str(info.value)


def test_without_local_model(make: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = make(openai_api_key="o")
    monkeypatch.setattr(providers, "local_model_available", lambda settings: False)
    assert provider_chain(settings) == ["openai"]  # no offline fallback to offer
    with pytest.raises(ConfigError, match="no language model is configured"):
        provider_chain(make())
    with pytest.raises(ConfigError, match="provider 'local' needs"):
        provider_chain(settings, "local")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, (None, None)),
        ("gpt-4o", (None, "gpt-4o")),
        ("openai:gpt-4o", ("openai", "gpt-4o")),
        ("cerebras:llama-3.3-70b", ("cerebras", "llama-3.3-70b")),
        ("llama3:8b", (None, "llama3:8b")),  # an Ollama tag, not a provider
        ("openai:llama3:8b", ("openai", "llama3:8b")),
        ("local:", ("local", None)),
    ],
)
def test_parse_model_override(value: str | None, expected: tuple[str | None, str | None]) -> None:
    assert parse_model_override(value) == expected


def test_role_models(make: Any) -> None:
    both = {"openai_api_key": "o", "cerebras_api_key": "c"}
    settings = make(**both, analyze_model="openai:gpt-4o", generate_model="llama-3.3-70b")
    # provider:model makes that provider primary for the role and only it gets the model
    assert role_models("analyze", settings) == [("openai", "gpt-4o"), ("cerebras", None), ("local", None)]
    # a bare model name belongs to the primary provider only
    assert role_models("generate", settings) == [
        ("cerebras", "llama-3.3-70b"),
        ("openai", None),
        ("local", None),
    ]
    # no override (judge has no setting): provider defaults
    assert role_models("judge", settings) == [("cerebras", None), ("openai", None), ("local", None)]
    # an explicit provider wins; the override still applies where its provider sits in the chain
    assert role_models("analyze", settings, provider="local") == [
        ("local", None),
        ("cerebras", None),
        ("openai", "gpt-4o"),
    ]


def test_make_chat_model(make: Any) -> None:
    settings = make(
        openai_api_key="o", cerebras_api_key="c", llm_timeout=33.0, llm_max_retries=4, openai_model="gpt-x"
    )
    openai = make_chat_model("openai", settings, model=None, max_tokens=123)
    assert isinstance(openai, ChatOpenAI) and not isinstance(openai, LocalChatOpenAI)
    assert (openai.model_name, openai.max_tokens, openai.request_timeout, openai.max_retries) == (
        "gpt-x",
        123,
        33.0,
        4,
    )
    assert openai.http_client is None and openai.http_async_client is None  # the SDK builds its own
    assert openai.stream_chunk_timeout == 33.0  # a stream waits for its next chunk as long as for a reply
    cerebras = make_chat_model("cerebras", settings, model="llama-3.3-70b", max_tokens=50, temperature=0.3)
    assert isinstance(cerebras, ChatCerebras)
    assert (cerebras.model, cerebras.max_tokens, cerebras.timeout, cerebras.max_retries) == (
        "llama-3.3-70b",
        50,
        33.0,
        4,
    )
    assert cerebras.temperature == 0.3 and cerebras.api_key is not None
    assert cerebras.api_key.get_secret_value() == "c"

    server = LocalModelServer(None, settings=settings)
    local = make_chat_model("local", settings, model=None, max_tokens=64, local_server=server)
    assert isinstance(local, LocalChatOpenAI)
    assert not server.running  # started by the first request, not by construction
    assert local.openai_api_base == server.base_url == f"http://127.0.0.1:{server.port}/v1"
    assert local.max_retries == 0 and local.max_tokens == 64
    assert local.stream_chunk_timeout == providers.LOCAL_MIN_TIMEOUT  # its first token may take minutes

    with pytest.raises(ConfigError, match="CEREBRAS_API_KEY"):
        make_chat_model("cerebras", make(), max_tokens=10)


def test_chat_model_for_role_chain(make: Any) -> None:
    settings = make(openai_api_key="o", cerebras_api_key="c", llm_provider="openai")
    chain = chat_model_for_role("evaluate", settings, max_tokens=10)
    assert isinstance(chain, RunnableWithFallbacks)
    assert isinstance(chain.runnable, ChatOpenAI)
    assert [type(model) for model in chain.fallbacks] == [ChatCerebras, LocalChatOpenAI]
    single = chat_model_for_role("evaluate", make(cerebras_api_key="c"), provider="cerebras", max_tokens=10)
    assert isinstance(single, RunnableWithFallbacks)  # cerebras, then the local fallback


# -- structured calls with scripted models ----------------------------------------------------


class Scripted(BaseChatModel):
    """Answers with scripted replies and records what each call received.

    A reply that is an exception is raised; a float is a delay (seconds) before the next reply (async only).
    """

    replies: list[Any]
    provider: str = "scripted"
    calls: list[dict[str, Any]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _reply(self, messages: list[BaseMessage], kwargs: dict[str, Any]) -> ChatResult:
        self.calls.append({"messages": messages, "kwargs": kwargs})
        reply = self.replies.pop(0)
        if isinstance(reply, BaseException):
            raise reply
        message = AIMessage(
            content=reply,
            usage_metadata={"input_tokens": 11, "output_tokens": 7, "total_tokens": 18},
            response_metadata={"model_name": "script-1", "model_provider": self.provider},
        )
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._reply(messages, kwargs)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.replies and isinstance(self.replies[0], float):
            await asyncio.sleep(self.replies.pop(0))
        return self._reply(messages, kwargs)


class Picks(BaseModel):
    tickers: list[str] = Field(max_length=3)
    year: int


DEFAULT = Picks(tickers=[], year=0)
MESSAGES: list[BaseMessage] = [SystemMessage("Extract."), HumanMessage("Apple and Microsoft in 2023")]


def run_structured(model: Any) -> tuple[Picks, list[LLMCall]]:
    return asyncio.run(structured_call(model, MESSAGES, Picks, role="analyze", default=DEFAULT))


def test_valid_json() -> None:
    model = Scripted(replies=['{"tickers": ["AAPL", "MSFT"], "year": 2023}'])
    value, calls = run_structured(model)
    assert value == Picks(tickers=["AAPL", "MSFT"], year=2023)
    prompt = "system: Extract.\n\nhuman: Apple and Microsoft in 2023"
    assert [call.to_dict() for call in calls] == [
        {
            "role": "analyze",
            "provider": "scripted",
            "model": "script-1",
            "input_tokens": 11,
            "output_tokens": 7,
            "latency_s": calls[0].latency_s,
            "ok": True,
            "error": None,
            "repaired": False,
            # recorded for the audit trail: the prompt as sent, its hash and the raw reply
            "template": None,
            "prompt_sha256": hashlib.sha256(prompt.encode()).hexdigest(),
            "prompt": prompt,
            "reply": '{"tickers": ["AAPL", "MSFT"], "year": 2023}',
        }
    ]
    response_format = model.calls[0]["kwargs"]["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["name"] == "Picks"
    assert response_format["json_schema"]["strict"] is False
    assert response_format["json_schema"]["schema"]["properties"]["tickers"]["maxItems"] == 3


def test_fenced_json_with_prose() -> None:
    reply = 'Sure! Here it is:\n```json\n{"tickers": ["NVDA"], "year": 2024}\n```\nAnything else? {oops'
    value, calls = run_structured(Scripted(replies=[reply]))
    assert value == Picks(tickers=["NVDA"], year=2024) and calls[0].ok


def test_malformed_then_repaired() -> None:
    model = Scripted(
        replies=['{"tickers": ["AAPL"], "year": "last year"', '{"tickers": ["AAPL"], "year": 2023}']
    )
    value, calls = run_structured(model)
    assert value == Picks(tickers=["AAPL"], year=2023)
    assert [(call.ok, call.repaired) for call in calls] == [(False, False), (True, True)]
    assert calls[0].error is not None and "no JSON object" in calls[0].error
    repair_messages = model.calls[1]["messages"]
    assert repair_messages[: len(MESSAGES)] == MESSAGES
    assert repair_messages[-2].content == '{"tickers": ["AAPL"], "year": "last year"'
    assert "corrected JSON object" in repair_messages[-1].content
    assert "response_format" in model.calls[1]["kwargs"]  # the repair is constrained too


def test_invalid_twice_gives_default() -> None:
    model = Scripted(replies=['{"tickers": ["A", "B", "C", "D"], "year": 2023}', "still not JSON"])
    value, calls = run_structured(model)
    assert value is DEFAULT
    assert [(call.ok, call.repaired) for call in calls] == [(False, False), (False, True)]
    assert calls[0].error is not None and "at most 3 items" in calls[0].error
    assert "at most 3 items" in model.calls[1]["messages"][-1].content  # the error is shown to the model
    assert calls[1].error == "invalid reply after repair: the reply holds no JSON object"
    assert sum(call.input_tokens for call in calls) == 22


def test_model_error_gives_default() -> None:
    value, calls = asyncio.run(
        structured_call(
            Scripted(replies=[RuntimeError("provider down")]),
            MESSAGES,
            Picks,
            role="judge",
            default=lambda: Picks(tickers=["?"], year=1),
        )
    )
    assert value == Picks(tickers=["?"], year=1)
    assert len(calls) == 1 and not calls[0].ok
    assert calls[0].error == "RuntimeError: provider down" and calls[0].role == "judge"


def test_repair_call_error_gives_default() -> None:
    value, calls = run_structured(Scripted(replies=["nope", TimeoutError("slow")]))
    assert value is DEFAULT
    assert calls[1].error == "TimeoutError: slow" and calls[1].repaired


def test_cancellation_propagates() -> None:
    """A cancelled agent step must stop, not be turned into a default answer."""

    async def cancel_soon() -> None:
        task = asyncio.create_task(
            structured_call(Scripted(replies=[30.0, GOOD]), MESSAGES, Picks, role="analyze", default=DEFAULT)
        )
        await asyncio.sleep(0.05)
        task.cancel()
        await task

    started = time.monotonic()
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(cancel_soon())
    assert time.monotonic() - started < 5


def test_text_call() -> None:
    text, call = asyncio.run(text_call(Scripted(replies=["Revenue grew."]), MESSAGES, role="generate"))
    assert (text, call.ok, call.output_tokens, call.provider) == ("Revenue grew.", True, 7, "scripted")
    text, call = asyncio.run(text_call(Scripted(replies=[ValueError("bad")]), MESSAGES, role="generate"))
    assert (text, call.ok, call.error) == ("", False, "ValueError: bad")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ('Answer: {"a": {"b": "}"}} trailing } garbage', {"a": {"b": "}"}}),
        ('```\n{"a": [1, 2]}\n```', {"a": [1, 2]}),
        ('<think>maybe {"a": 0}</think>{"a": 2}', {"a": 2}),
        ('[1, 2] then {"a": 3}', {"a": 3}),
        ('{broken {"a": 4}', {"a": 4}),
    ],
)
def test_extract_json_object(text: str, expected: dict[str, Any]) -> None:
    assert extract_json_object(text) == expected


def test_extract_json_object_none() -> None:
    with pytest.raises(ReplyError):
        extract_json_object("no json here [1, 2]")


def test_response_format_for_nested_schema() -> None:
    class Item(BaseModel):
        label: str = Field(max_length=40)

    class Items(BaseModel):
        items: list[Item] = Field(max_length=5)

    schema = response_format_for(Items)["json_schema"]["schema"]
    assert schema["properties"]["items"]["maxItems"] == 5
    assert schema["$defs"]["Item"]["properties"]["label"]["maxLength"] == 40


def test_bound_response_format_reaches_fallbacks() -> None:
    primary = Scripted(replies=[RuntimeError("429")], provider="first")
    fallback = Scripted(replies=['{"tickers": ["INTC"], "year": 2022}'], provider="second")
    value, calls = run_structured(primary.with_fallbacks([fallback]))
    assert value.tickers == ["INTC"]
    assert calls[0].ok and calls[0].provider == "second"
    assert primary.calls[0]["kwargs"]["response_format"] == fallback.calls[0]["kwargs"]["response_format"]


# -- retries and fallbacks over HTTP ---------------------------------------------------------


def completion(content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "fake-remote",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": 9, "completion_tokens": 4, "total_tokens": 13},
    }


class FakeAPI:
    """An OpenAI-style endpoint on 127.0.0.1 answering from a script; records every request."""

    def __init__(self) -> None:
        self.script: list[tuple[int, dict[str, Any]]] = []
        self.requests: list[dict[str, Any]] = []
        self.delay = 0.0
        self.retry_after_ms: str | None = "10"  # keeps the SDKs' backoff short, as real APIs allow
        api = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                api.requests.append({"path": self.path, "body": body})
                status, payload = api.script.pop(0) if len(api.script) > 1 else api.script[0]
                if api.delay:
                    time.sleep(api.delay)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    if api.retry_after_ms is not None:
                        self.send_header("retry-after-ms", api.retry_after_ms)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.handler = Handler
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def keep_alive(self) -> None:
        """Keep each connection open for the next request, as real servers do (HTTP/1.1)."""
        self.handler.protocol_version = "HTTP/1.1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture()
def api() -> Iterator[FakeAPI]:
    server = FakeAPI()
    yield server
    server.close()


RATE_LIMITED = (429, {"error": {"message": "rate limited", "type": "rate_limit_error"}})
SERVER_ERROR = (500, {"error": {"message": "boom", "type": "server_error"}})
GOOD = '{"tickers": ["AMZN"], "year": 2023}'


def test_openai_429_retries_then_falls_back(make: Any, api: FakeAPI) -> None:
    api.script = [RATE_LIMITED]
    settings = make(openai_base_url=f"{api.url}/v1", llm_max_retries=2, llm_timeout=5.0)
    remote = make_chat_model("openai", settings, max_tokens=77)
    fallback = Scripted(replies=[GOOD], provider="fallback")
    started = time.monotonic()
    value, calls = run_structured(remote.with_fallbacks([fallback]))
    assert time.monotonic() - started < 5
    assert len(api.requests) == 3  # the first try and 2 retries
    assert value.tickers == ["AMZN"] and calls[0].ok and calls[0].provider == "fallback"
    body = api.requests[0]["body"]
    assert api.requests[0]["path"] == "/v1/chat/completions"
    assert body["max_completion_tokens"] == 77 and body["temperature"] == 0.0
    assert body["response_format"]["json_schema"]["schema"]["properties"]["tickers"]["maxItems"] == 3


def test_openai_500_is_retried(make: Any, api: FakeAPI) -> None:
    api.script = [SERVER_ERROR, SERVER_ERROR, (200, completion(GOOD))]
    settings = make(openai_api_key="sk-test", openai_base_url=f"{api.url}/v1", llm_max_retries=2)
    value, calls = run_structured(make_chat_model("openai", settings, max_tokens=20))
    assert len(api.requests) == 3
    assert value.tickers == ["AMZN"]
    assert (calls[0].provider, calls[0].model, calls[0].input_tokens, calls[0].output_tokens) == (
        "openai",
        "fake-remote",
        9,
        4,
    )


def test_openai_timeout_is_retried(make: Any, api: FakeAPI) -> None:
    api.script = [(200, completion(GOOD))]
    api.delay = 1.0
    settings = make(openai_base_url=f"{api.url}/v1", llm_max_retries=1, llm_timeout=0.2)
    value, calls = run_structured(make_chat_model("openai", settings, max_tokens=20))
    assert value is DEFAULT and not calls[0].ok
    assert calls[0].error is not None and "TimeoutError" in calls[0].error
    assert len(api.requests) == 2


def test_cerebras_429_retries_then_falls_back(make: Any, api: FakeAPI) -> None:
    api.script = [RATE_LIMITED]
    settings = make(cerebras_api_key="csk-test", cerebras_base_url=api.url, llm_max_retries=2)
    remote = make_chat_model("cerebras", settings, max_tokens=66)
    value, calls = run_structured(remote.with_fallbacks([Scripted(replies=[GOOD])]))
    assert len(api.requests) == 3
    assert value.tickers == ["AMZN"] and calls[0].provider == "scripted"
    body = api.requests[0]["body"]
    assert api.requests[0]["path"] == "/v1/chat/completions"
    assert body["max_completion_tokens"] == 66 and body["model"] == "qwen-3-235b-a22b-instruct-2507"
    assert body["response_format"]["type"] == "json_schema"


def test_cerebras_answer(make: Any, api: FakeAPI) -> None:
    api.script = [SERVER_ERROR, (200, completion("```json\n" + GOOD + "\n```"))]
    settings = make(cerebras_api_key="csk-test", cerebras_base_url=f"{api.url}/v1/", llm_max_retries=1)
    model = make_chat_model("cerebras", settings, model="llama-3.3-70b", max_tokens=20)
    value, calls = run_structured(model)
    assert value.tickers == ["AMZN"] and len(api.requests) == 2
    assert (calls[0].provider, calls[0].model, calls[0].input_tokens, calls[0].output_tokens) == (
        "cerebras",
        "fake-remote",
        9,
        4,
    )
    reply = model.invoke("hi")
    assert reply.usage_metadata == {"input_tokens": 9, "output_tokens": 4, "total_tokens": 13}
    assert reply.response_metadata["model_name"] == "fake-remote"
    assert api.requests[-1]["body"]["messages"] == [{"role": "user", "content": "hi"}]


def test_role_chain_falls_back_over_http(make: Any, api: FakeAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    """cerebras (rate limited) -> openai (answers): the role's chain, as the agent builds it."""
    api.script = [RATE_LIMITED, RATE_LIMITED, (200, completion(GOOD))]
    monkeypatch.setattr(providers, "local_model_available", lambda settings: False)
    settings = make(
        cerebras_api_key="c", cerebras_base_url=api.url, openai_base_url=f"{api.url}/v1", llm_max_retries=1
    )
    chain = chat_model_for_role("analyze", settings, max_tokens=30)
    value, calls = run_structured(chain)
    assert value.tickers == ["AMZN"] and calls[0].provider == "openai"
    assert [request["body"]["model"] for request in api.requests] == [
        "qwen-3-235b-a22b-instruct-2507",
        "qwen-3-235b-a22b-instruct-2507",
        "gpt-4o-mini",
    ]


def test_a_role_model_serves_one_event_loop_after_another(
    make: Any, api: FakeAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The blocking ``ask`` runs each question in a new event loop. A model kept from an earlier loop
    held that loop's pooled connection and failed every later call ("Event loop is closed")."""
    from finagent.agent.context import Context
    from finagent.agent.resources import AgentResources

    monkeypatch.setattr(providers, "local_model_available", lambda settings: False)  # no fallback
    api.keep_alive()
    api.script = [(200, completion(GOOD))]
    resources = AgentResources(make(openai_base_url=f"{api.url}/v1", llm_max_retries=0))
    context = Context(provider="openai")

    async def one_question() -> tuple[Picks, list[LLMCall]]:  # as a graph node asks for its model
        model = resources.chat_model("analyze", context)
        return await structured_call(model, MESSAGES, Picks, role="analyze", default=DEFAULT)

    for _ in range(3):
        value, calls = asyncio.run(one_question())
        assert calls[-1].ok, calls[-1].error
        assert value.tickers == ["AMZN"]
    assert len(api.requests) == 3
    assert len(resources._models) <= 1  # the models of ended loops are let go
