"""The offline model: GGUF assembly from the packaged parts, and the in-process llama.cpp server.

Assembly logic is tested fast on small fake parts; the real model (1.1 GB, assembled once per machine
into the shared model cache) is exercised by the tests marked slow.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field, SecretStr

from finagent.errors import ConfigError
from finagent.llm import local_model
from finagent.llm.cerebras import ChatCerebras
from finagent.llm.local_model import (
    INSTALL_HINT,
    MODEL_FILENAME,
    MODEL_SHA256,
    MODEL_SIZE,
    LocalModelError,
    LocalModelServer,
    assemble_gguf,
    get_local_server,
    local_model_installed,
    resolve_model_path,
    wait_passively,
)
from finagent.llm.providers import make_chat_model
from finagent.llm.structured import structured_call
from finagent.settings import Settings
from tests.conftest import MODEL_CACHE

# -- assembly on fake parts (fast) ------------------------------------------------------------


@pytest.fixture()
def fake_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Three small part files standing in for the 22 real ones, with matching size and sha256."""
    chunks = [bytes([index]) * (1000 + index) for index in range(3)]
    paths = []
    for index, chunk in enumerate(chunks):
        path = tmp_path / "parts" / f"part{index:02d}.bin"
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(chunk)
        paths.append(path)
    whole = b"".join(chunks)
    state: dict[str, Any] = {"calls": 0, "paths": paths, "whole": whole, "cache": tmp_path / "cache"}

    def part_paths() -> list[Path]:
        state["calls"] += 1
        return list(paths)

    monkeypatch.setattr(local_model, "part_paths", part_paths)
    monkeypatch.setattr(local_model, "MODEL_SIZE", len(whole))
    monkeypatch.setattr(local_model, "MODEL_SHA256", hashlib.sha256(whole).hexdigest())
    return state


def test_assemble(fake_parts: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    target = assemble_gguf(fake_parts["cache"])
    assert target == fake_parts["cache"] / "models" / MODEL_FILENAME
    assert target.read_bytes() == fake_parts["whole"]
    marker = json.loads(target.with_name(target.name + ".verified.json").read_text())
    assert marker["size"] == len(fake_parts["whole"]) and marker["sha256"] == local_model.MODEL_SHA256
    assert sorted(p.name for p in target.parent.iterdir()) == [
        MODEL_FILENAME,
        MODEL_FILENAME + ".lock",
        MODEL_FILENAME + ".verified.json",
    ]

    def no_hashing(path: Path) -> str:
        raise AssertionError("re-hashed a verified model")

    monkeypatch.setattr(local_model, "_sha256_file", no_hashing)
    assert assemble_gguf(fake_parts["cache"]) == target
    assert fake_parts["calls"] == 1  # the parts were read once


def test_assemble_repairs_a_changed_file(fake_parts: dict[str, Any]) -> None:
    target = assemble_gguf(fake_parts["cache"])
    data = bytearray(target.read_bytes())
    data[10] ^= 0xFF  # same size, new mtime: the marker no longer vouches for it
    target.write_bytes(bytes(data))
    assert assemble_gguf(fake_parts["cache"]) == target
    assert target.read_bytes() == fake_parts["whole"]
    assert fake_parts["calls"] == 2


def test_assemble_rejects_corrupt_parts(fake_parts: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local_model, "MODEL_SHA256", "0" * 64)
    with pytest.raises(LocalModelError, match="corrupt"):
        assemble_gguf(fake_parts["cache"])
    models = fake_parts["cache"] / "models"
    assert not (models / MODEL_FILENAME).exists()
    assert [p.name for p in models.iterdir()] == [MODEL_FILENAME + ".lock"]  # no temp file left behind


def test_assemble_rejects_wrong_total_size(
    fake_parts: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(local_model, "MODEL_SIZE", 5)
    with pytest.raises(LocalModelError, match="add up to"):
        assemble_gguf(fake_parts["cache"])


def test_concurrent_assembly_runs_once(fake_parts: dict[str, Any]) -> None:
    results: list[Path] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            results.append(assemble_gguf(fake_parts["cache"]))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and len(set(results)) == 1 and len(results) == 4
    assert results[0].read_bytes() == fake_parts["whole"]
    assert fake_parts["calls"] == 1  # the others waited on the lock, then trusted the marker


def test_missing_packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local_model, "PART_MODULE", "finagent_no_such_part{}")
    with pytest.raises(LocalModelError) as info:
        assemble_gguf(tmp_path)
    assert (
        str(info.value) == "the local model is not installed: pip install 'finagent[local]'" == INSTALL_HINT
    )
    assert not local_model.local_model_installed()


def test_local_model_path_is_used_as_is(tmp_path: Path) -> None:
    gguf = tmp_path / "my-model.gguf"
    gguf.write_bytes(b"GGUF")
    settings = Settings(_env_file=None, local_model_path=gguf, cache_dir_override=tmp_path)  # type: ignore[call-arg]
    assert resolve_model_path(settings) == gguf
    assert not (tmp_path / "models").exists()
    assert LocalModelServer(None, settings=settings).model_name == "my-model"
    missing = Settings(_env_file=None, local_model_path=tmp_path / "nope.gguf")  # type: ignore[call-arg]
    with pytest.raises(ConfigError, match="FINAGENT_LOCAL_MODEL_PATH"):
        resolve_model_path(missing)


# -- the real model (slow) ----------------------------------------------------------------------


class Filing(BaseModel):
    company: str
    year: int
    tickers: list[str] = Field(max_length=3)


MESSAGES = [
    SystemMessage("Extract the fields as JSON."),
    HumanMessage("Apple (AAPL) filed its 2023 annual report; it mentions Microsoft (MSFT) and Intel (INTC)."),
]


def settings_for_local() -> Settings:
    return Settings(_env_file=None, cache_dir_override=MODEL_CACHE, local_context=4096)  # type: ignore[call-arg]


@pytest.fixture(scope="module")
def server() -> Iterator[LocalModelServer]:
    """One real server for the module, started lazily by its first request (checked here)."""
    if not local_model_installed():
        pytest.skip("the local model is not installed: pip install 'finagent[local]'")
    settings = settings_for_local()
    local = LocalModelServer(None, settings=settings)
    model = make_chat_model("local", settings, max_tokens=4, local_server=local)
    assert not local.running
    reply = model.invoke("Say OK.")
    assert local.running and isinstance(reply.text, str)
    yield local
    local.stop()
    assert not local.running


@pytest.mark.slow
def test_assembled_model_is_verified(monkeypatch: pytest.MonkeyPatch) -> None:
    if not local_model_installed():
        pytest.skip("the local model is not installed: pip install 'finagent[local]'")
    target = assemble_gguf(MODEL_CACHE)
    assert target.stat().st_size == MODEL_SIZE
    digest = hashlib.sha256()
    with target.open("rb") as handle:
        while chunk := handle.read(1 << 22):
            digest.update(chunk)
    assert digest.hexdigest() == MODEL_SHA256

    def fail(*args: Any) -> Any:
        raise AssertionError("a verified model must not be re-hashed or re-assembled")

    monkeypatch.setattr(local_model, "_sha256_file", fail)
    monkeypatch.setattr(local_model, "part_paths", fail)
    started = time.monotonic()
    assert assemble_gguf(MODEL_CACHE) == target
    assert time.monotonic() - started < 1.0


@pytest.mark.slow
def test_server_http(server: LocalModelServer) -> None:
    assert server.base_url == f"http://127.0.0.1:{server.port}/v1"
    with urllib.request.urlopen(server.root_url + "/health", timeout=10) as response:
        assert json.loads(response.read())["status"] == "ok"
    request = urllib.request.Request(
        server.base_url + "/models", headers={"Authorization": f"Bearer {server.api_key}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert [model["id"] for model in json.loads(response.read())["data"]] == [server.model_name]
    bad = urllib.request.Request(server.base_url + "/chat/completions", data=b"{}", method="POST")
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(bad, timeout=10)
    assert info.value.code == 401  # other local users need the key


@pytest.mark.slow
def test_the_model_threads_wait_passively(server: LocalModelServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """libgomp read the policy when the server loaded it: idle model threads sleep instead of spinning
    (two spinning model processes on two cores took 193 s a request, 45 s alone); a user's own policy
    is kept."""
    assert server.running and os.environ["OMP_WAIT_POLICY"] == "PASSIVE"
    maps = Path("/proc/self/maps")
    assert not maps.exists() or "libgomp" in maps.read_text()  # the OpenMP build, on Linux
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")
    wait_passively()
    assert os.environ["OMP_WAIT_POLICY"] == "ACTIVE"


@pytest.mark.slow
def test_structured_call_local(server: LocalModelServer) -> None:
    model = make_chat_model("local", settings_for_local(), max_tokens=80, local_server=server)
    value, calls = asyncio.run(
        structured_call(
            model, MESSAGES, Filing, role="analyze", default=lambda: Filing(company="", year=0, tickers=[])
        )
    )
    assert calls[-1].ok, calls
    assert value.year == 2023 and "Apple" in value.company and len(value.tickers) <= 3
    call = calls[0]
    assert call.provider == "local" and call.model == server.model_name
    assert call.input_tokens > 20 and call.output_tokens > 5 and call.latency_s > 0


@pytest.mark.slow
def test_chat_cerebras_against_local_server(server: LocalModelServer) -> None:
    model = ChatCerebras(
        model="served-locally",
        api_key=SecretStr(server.api_key),
        base_url=server.base_url,
        max_tokens=80,
        timeout=600,
    )
    value, calls = asyncio.run(
        structured_call(
            model, MESSAGES, Filing, role="judge", default=lambda: Filing(company="", year=0, tickers=[])
        )
    )
    assert calls[-1].ok, calls
    assert value.year == 2023 and len(value.tickers) <= 3
    assert calls[0].provider == "cerebras" and calls[0].input_tokens > 20
    reply = model.invoke("Reply with the single word: yes", max_tokens=3)
    assert reply.usage_metadata is not None and 0 < reply.usage_metadata["output_tokens"] <= 3
    assert reply.response_metadata["model_name"] == server.model_name


@pytest.mark.slow
def test_get_local_server_is_shared(server: LocalModelServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local_model, "_server", server)
    startup = server.startup_s
    assert get_local_server(settings_for_local()) is server
    assert get_local_server(settings_for_local(), start=False) is server
    assert server.running and server.startup_s == startup  # reused, not restarted
