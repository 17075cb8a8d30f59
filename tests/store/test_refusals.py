"""Questions the store cannot answer get a clear answer at once: no model call, no search of every
company's filings (which took minutes and answered about someone else). Wall times are measured by
benchmarks/refusals.py; here the proof of "at once" is that no model was called and nothing searched."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import create_database, require_shared
from tests.helpers import link_filings_slice
from tests.store.test_cli import assert_clean_failure, finagent


@pytest.fixture(scope="module")
def small_store(pg_server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """Apple's Q3 2023 10-Q (a real PDF) and SEC's list of every listed company."""
    source = require_shared("filings", "pdf", "sec10q")
    sec_list = require_shared("sec", "company_tickers.json")
    folder = link_filings_slice(source, tmp_path_factory.mktemp("refusal-filings"), ["2023 Q3 AAPL.pdf"])
    (folder / "sec").mkdir()
    (folder / "sec" / sec_list.name).symlink_to(sec_list)
    url = create_database(pg_server_url)
    home = tmp_path_factory.mktemp("refusal-home")
    result = finagent(["ingest", "path", str(folder)], url, home, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "listed companies known" in result.stdout, result.stdout
    yield url, home
    shutil.rmtree(folder, ignore_errors=True)


def ask_json(store: tuple[str, Path], *args: str) -> dict[str, Any]:
    result = finagent(["ask", *args, "--json"], *store, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    answer: dict[str, Any] = json.loads(result.stdout)
    assert answer["llm_calls"] == [] and answer["iterations"] == 0, answer  # answered before any search
    assert answer["citations"] == [], answer
    return answer


def test_a_listed_company_the_store_lacks_is_named_with_how_to_add_it(small_store: tuple[str, Path]) -> None:
    answer = ask_json(small_store, "What was Tesla's revenue in 2023?")
    text = " ".join(answer["answer"].split())
    assert "TSLA (Tesla, Inc.) is not in the store" in text, text
    assert "finagent ingest edgar TSLA" in text and "The store holds: AAPL." in text, text


def test_a_misspelt_company_is_no_company_and_the_nearest_names_are_offered(
    small_store: tuple[str, Path],
) -> None:
    text = " ".join(ask_json(small_store, "What was Teslaa's revenue in 2023?")["answer"].split())
    assert "No company named 'Teslaa' is in the store or on SEC's list of listed companies" in text, text
    assert "Did you mean Tesla, Inc. (TSLA)" in text, text
    made_up = ask_json(small_store, "What did Foobarix Corp report as net income?")["answer"]
    made_up = " ".join(made_up.split())
    assert "No company named 'Foobarix' is in the store" in made_up, made_up
    typo_of_stored = " ".join(ask_json(small_store, "How did Appel's iPhone sales change?")["answer"].split())
    assert "(AAPL, in the store)" in typo_of_stored, typo_of_stored


def test_a_question_with_nothing_to_search_for_says_so(small_store: tuple[str, Path]) -> None:
    text = " ".join(ask_json(small_store, "🚀📈💰🤑 ???")["answer"].split())
    assert "no words to search for" in text and "The store holds: AAPL." in text, text


def test_tickers_passed_explicitly_that_the_store_lacks(small_store: tuple[str, Path]) -> None:
    answer = ask_json(small_store, "What was revenue?", "--ticker", "ZZZZ")
    assert "None of the companies asked for ('ZZZZ') is in the store" in " ".join(answer["answer"].split())


@pytest.mark.parametrize(
    ("period", "message"),
    [
        ("Q9 FY2023", "'Q9' is not a fiscal quarter (Q1-Q4)"),
        ("FY20233", "'FY20233' is not a period"),
        ("someday soon", "is not a period"),
    ],
)
def test_an_invalid_period_is_a_usage_error(small_store: tuple[str, Path], period: str, message: str) -> None:
    result = finagent(["ask", "What was Apple's revenue?", "--period", period], *small_store)
    assert result.returncode == 2
    assert_clean_failure(result, f"invalid --period '{period}'")
    assert message in " ".join(result.stderr.split()), result.stderr


def test_every_refusal_reaches_an_mcp_client(small_store: tuple[str, Path]) -> None:
    """The same answers and usage errors through the MCP tool other agents call."""
    import asyncio

    from mcp import Client, StdioServerParameters

    from tests.model.test_mcp import finagent_executable, server_env

    params = StdioServerParameters(command=finagent_executable(), args=["mcp"], env=server_env(*small_store))

    async def session() -> dict[str, Any]:
        results: dict[str, Any] = {}
        calls: dict[str, dict[str, Any]] = {
            "not stored": {"question": "What was Tesla's revenue in 2023?"},
            "unknown": {"question": "What was Teslaa's revenue in 2023?"},
            "no words": {"question": "🚀📈💰🤑"},
            "bad ticker": {"question": "What was revenue?", "tickers": ["ZZZZ"]},
            "bad period": {"question": "What was Apple's revenue?", "periods": ["Q9 FY2023"]},
        }
        async with Client(params, read_timeout_seconds=300) as client:
            for key, arguments in calls.items():
                results[key] = await client.call_tool("ask_financial_question", arguments)
        return results

    results = asyncio.run(session())
    for key, expected in {
        "not stored": "TSLA (Tesla, Inc.) is not in the store",
        "unknown": "Did you mean Tesla, Inc. (TSLA)",
        "no words": "no words to search for",
        "bad ticker": "None of the companies asked for ('ZZZZ')",
    }.items():
        result = results[key]
        assert not result.is_error, (key, result.content)
        content = result.structured_content
        assert expected in content["answer"] and content["citations"] == [], (key, content)
    bad = results["bad period"]
    assert bad.is_error and "'Q9' is not a fiscal quarter (Q1-Q4)" in bad.content[0].text, bad.content
