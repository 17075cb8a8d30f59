"""The audit trail: every run is persisted and `finagent runs` reconstructs it, citations included,
even after the cited document was re-ingested in a newer version."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from finagent.agent import api
from finagent.agent.context import Context
from finagent.agent.graph import build_graph
from finagent.agent.resources import configure_resources
from finagent.db import Database
from finagent.embeddings import get_embedder
from finagent.finance.document_records import Block
from finagent.ingest.pipeline import IngestPipeline
from finagent.settings import Settings
from tests.helpers import item, make_doc
from tests.store.test_cli import finagent
from tests.store.test_graph import GOOD, QUARTERS, script, statement_of_operations, store  # noqa: F401  (store: a fixture)

QUESTION = "What were Apple's total net sales in Q3 FY2023?"


def ask(settings: Settings, question: str = QUESTION, **options: Any) -> api.Answer:
    configure_resources(settings, chat_model_factory=script([GOOD]))
    context = Context(today="2023-11-21", use_tools=False, use_facts=False)  # the text path's calls
    answer = asyncio.run(api.aask(question, mode="direct", context=context, **options))
    assert answer.run_id is not None
    return answer


def run_cli(settings: Settings, *args: str) -> str:
    result = finagent(list(args), settings.database_url, settings.home)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def test_run_is_recorded_with_searches_prompts_and_resolved_citations(
    store: Database,  # noqa: F811
    settings: Settings,
) -> None:
    answer = ask(settings)
    assert answer.run_id and "81,797" in answer.answer
    assert all("prompt" not in c for c in answer.llm_calls)  # full prompts live in the audit trail only

    exported = json.loads(run_cli(settings, "runs", "export", str(answer.run_id), "--json"))
    assert exported["status"] == "completed" and exported["question"] == QUESTION
    assert exported["answer"] == answer.answer and exported["confidence"] == pytest.approx(answer.confidence)
    assert exported["analysis"]["tickers"] == ["AAPL"]
    assert [t["label"] for t in exported["targets"]] == ["Q3 FY2023"]
    searches = exported["searches"]
    assert searches and all(s["ticker"] == "AAPL" and s["period_label"] == "Q3 FY2023" for s in searches)
    first = searches[0]["results"][0]
    assert {"chunk_id", "fused", "vector", "keyword"} <= set(first)
    calls = exported["llm_calls"]
    assert [c["role"] for c in calls] == [c["role"] for c in answer.llm_calls]
    for call in calls:
        assert call["template"] in {"analyze", "extract", "generate", "evaluate"}
        assert call["prompt_sha256"] == hashlib.sha256(call["prompt"].encode()).hexdigest()
        assert call["reply"] is not None
    assert QUESTION in calls[0]["prompt"]
    assert [t["node"] for t in exported["node_timings"]][:3] == ["analyze", "resolve_periods", "search"]
    assert exported["input_tokens"] == sum(c["input_tokens"] for c in answer.llm_calls)
    cited = [c for c in exported["citations"] if c["chunk_id"] is not None]
    assert cited and all(c["resolved"] and c["document_status"] == "ready" for c in cited)
    assert any("81,797" in c["text"] for c in cited)

    listed = run_cli(settings, "runs", "list")
    assert str(answer.run_id)[:8] in listed and "completed" in listed
    shown = run_cli(settings, "runs", "show", str(answer.run_id)[:8])
    for expected in ("1 analysis", "2 periods", "3 searches", "5 LLM calls", "81,797", "citations"):
        assert expected in shown, shown


def test_old_citation_resolves_after_the_document_is_reingested(
    store: Database,  # noqa: F811
    settings: Settings,
) -> None:
    answer = ask(settings)
    before = json.loads(run_cli(settings, "runs", "export", str(answer.run_id)))["citations"]
    cited = next(c for c in before if c["chunk_id"] is not None)

    ticker, year, quarter, end, label, _value = QUARTERS[2]  # Apple Q3 FY2023, now restated
    restated = make_doc(
        ticker,
        "10-Q",
        year,
        quarter,
        [
            Block(
                statement_of_operations(label, "81,800", end) + "\n(restated)",
                section="part1_item1",
                page=3,
                is_table=True,
            )
        ],
        period_end=end,
    )
    assert restated.source_uri == cited["source_uri"]
    report = IngestPipeline(store, get_embedder(settings), settings).run([item(restated)])
    assert report.replaced == 1

    after = json.loads(run_cli(settings, "runs", "export", str(answer.run_id)))["citations"]
    again = next(c for c in after if c["label"] == cited["label"])
    assert again["resolved"] and again["document_status"] == "superseded"
    assert again["content_sha256"] == cited["content_sha256"] and again["text"] == cited["text"]
    assert "81,797" in again["text"]
    assert "superseded" in run_cli(settings, "runs", "show", str(answer.run_id))

    newer = ask(settings)  # a new run cites the new version only
    assert "81,800" in newer.answer and "81,797" not in newer.answer


def test_a_run_that_crashes_is_recorded_as_failed(
    store: Database,  # noqa: F811
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from finagent.agent import graph as graph_module

    async def broken_generate(state: Any, runtime: Any) -> dict[str, Any]:
        raise RuntimeError("generator exploded")

    monkeypatch.setattr(graph_module, "generate", broken_generate)
    monkeypatch.setattr(api, "graph", build_graph())
    with pytest.raises(RuntimeError, match="generator exploded"):
        ask(settings)
    exported = json.loads(run_cli(settings, "runs", "list", "--json"))
    assert exported[0]["status"] == "failed"
    failed = json.loads(run_cli(settings, "runs", "export", exported[0]["id"]))
    assert failed["errors"] == ["RuntimeError: generator exploded"]
    assert failed["searches"] and failed["analysis"]["tickers"] == ["AAPL"]


def test_recording_can_be_turned_off_and_unknown_runs_are_clear_errors(
    store: Database,  # noqa: F811
    settings: Settings,
    tmp_path: Path,
) -> None:
    configure_resources(settings, chat_model_factory=script([GOOD]))
    context = Context(today="2023-11-21", use_tools=False, record_runs=False)
    asyncio.run(api.aask(QUESTION, mode="direct", context=context))
    assert json.loads(run_cli(settings, "runs", "list", "--json")) == []
    for bad in ("00000000-0000-0000-0000-000000000000", "zzzz", "'; DROP TABLE runs; --", "%"):
        result = finagent(["runs", "show", bad], settings.database_url, settings.home)
        assert result.returncode == 2 and "no run" in result.stderr and "Traceback" not in result.stderr
