"""`finagent companies` / `coverage` and the `ask` interfaces: live view, JSON lines, Markdown, Ctrl-C.

Everything runs over a real embedded store; the language model is scripted (or a stub HTTP server
that never answers, for cancellation), so no model is downloaded or run.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGenerationChunk
from rich.console import Console
from typer.testing import CliRunner

from finagent.agent.api import Answer, _ProseFilter, ask
from finagent.agent.context import Context
from finagent.agent.progress import plain
from finagent.agent.resources import close_resources, configure_resources
from finagent.cli import ask_cmd
from finagent.cli.ask_cmd import LiveProgress, json_safe
from finagent.cli.main import app
from finagent.cli.markdown import answer_markdown, cell
from finagent.db import Database
from finagent.embeddings import get_embedder
from finagent.ingest.pipeline import IngestPipeline
from finagent.settings import Settings, get_settings
from tests.conftest import MODEL_CACHE
from tests.fakes import ScriptedChatModel, ScriptedModels
from tests.helpers import item
from tests.store.test_cli import assert_clean_failure, finagent
from tests.store.test_graph import (
    ANALYSIS,
    GOOD,
    QUESTION,
    answer_from_prompt,
    extract_from_prompt,
    quarter_documents,
)

TICKERS = ["-t", "AAPL", "-t", "MSFT"]


@pytest.fixture()
def filings(db: Database, settings: Settings) -> Iterator[Database]:
    """Three synthetic 10-Qs each for AAPL and MSFT, with file-like source names."""
    docs = quarter_documents(file_names=True)
    IngestPipeline(db, get_embedder(settings), settings).run([item(d) for d in docs])
    yield db
    close_resources()


@pytest.fixture()
def in_process(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[CliRunner]:
    """The typer app run in this process against the test store (settings come from the env)."""
    monkeypatch.setenv("FINAGENT_DATABASE_URL", settings.database_url or "")
    monkeypatch.setenv("FINAGENT_HOME", str(settings.home))
    monkeypatch.setenv("FINAGENT_CACHE_DIR", str(MODEL_CACHE))
    get_settings.cache_clear()
    yield CliRunner()
    close_resources()
    get_settings.cache_clear()


class StreamingScriptedModel(ScriptedChatModel):
    """A scripted model that streams its reply word by word (usage on the last chunk), like a
    provider does when LangGraph's "messages" stream mode asks for tokens."""

    streamed: list[str] = []  # noqa: RUF012 (pydantic copies field defaults)

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        message = self._generate(messages, stop, None, **kwargs).generations[0].message
        self.streamed.append(message.text)
        words = re.findall(r"\S+\s*", message.text) or [""]
        for index, word in enumerate(words):
            last = index == len(words) - 1
            usage = message.usage_metadata if last and isinstance(message, AIMessage) else None
            yield ChatGenerationChunk(message=AIMessageChunk(content=word, usage_metadata=usage))


def scripted(streaming: bool = False) -> ScriptedModels:
    models = ScriptedModels(
        {
            "analyze": [ANALYSIS],
            "extract": [extract_from_prompt],
            "generate": [answer_from_prompt],
            "evaluate": [GOOD],
        }
    )
    if streaming:
        models.models = {
            role: StreamingScriptedModel(replies=m.replies, calls=[], streamed=[])
            for role, m in models.models.items()
        }
    return models


def streamed(models: ScriptedModels, role: str) -> list[str]:
    """The replies a role's model streamed (none for a model that was only invoked)."""
    model = models.models[role]
    return model.streamed if isinstance(model, StreamingScriptedModel) else []


# -- companies / coverage ------------------------------------------------------------------------


def test_companies_on_an_empty_store(db_url: str, tmp_path: Path) -> None:
    result = finagent(["companies"], db_url, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "finagent ingest path" in result.stderr
    as_json = finagent(["companies", "--json"], db_url, tmp_path)
    assert as_json.returncode == 0 and json.loads(as_json.stdout) == []


def test_companies_table_and_json(filings: Database, settings: Settings, tmp_path: Path) -> None:
    result = finagent(["companies"], settings.database_url, tmp_path)
    assert result.returncode == 0, result.stderr
    for text in ("AAPL", "MSFT", "Apple Inc.", "Sep", "10-Q", "2023", "2023-07-01", "FY end"):
        assert text in result.stdout, result.stdout
    rows = json.loads(finagent(["companies", "--json"], settings.database_url, tmp_path).stdout)
    by_ticker = {r["ticker"]: r for r in rows}
    assert set(by_ticker) == {"AAPL", "MSFT"}
    assert by_ticker["AAPL"]["documents"] == 3 and by_ticker["AAPL"]["chunks"] >= 3
    assert by_ticker["MSFT"]["kinds"] == ["10-Q"]
    assert by_ticker["MSFT"]["first_fiscal_year"] == by_ticker["MSFT"]["last_fiscal_year"] == 2023
    assert (
        by_ticker["AAPL"]["last_period_end"] == "2023-07-01"
        and by_ticker["AAPL"]["fiscal_year_end_month"] == 9
    )


def test_coverage_table_json_and_unknown_company(
    filings: Database, settings: Settings, tmp_path: Path
) -> None:
    url = settings.database_url
    result = finagent(["coverage", "AAPL"], url, tmp_path)
    assert result.returncode == 0, result.stderr
    for text in ("Q1 FY2023", "Q3 FY2023", "10-Q", "2023-04-01", "aapl-2023-q2.htm"):
        assert text in result.stdout, result.stdout
    assert "msft" not in result.stdout.lower()
    data = json.loads(finagent(["coverage", "msft corp", "--json"], url, tmp_path).stdout)
    assert data["ticker"] == "MSFT"
    assert [p["period"] for p in data["periods"]] == ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023"]
    assert data["periods"][0]["sources"] == ["/filings/msft-2023-q1.htm"]
    assert data["periods"][0]["documents"] == 1 and data["periods"][0]["period_end"] == "2022-09-30"
    unknown = finagent(["coverage", "ZZZZ"], url, tmp_path)
    assert unknown.returncode == 2
    assert_clean_failure(unknown, "no documents for 'ZZZZ' in the store (it holds: AAPL, MSFT)")


# -- ask: streaming tokens through the Python API --------------------------------------------------


def writing(settings: Settings) -> Settings:
    """The text path, where the model writes the whole answer (a figures answer is computed, no draft)."""
    return settings.model_copy(update={"use_facts": False})


def test_on_token_streams_the_generate_draft_and_keeps_token_usage(
    filings: Database, settings: Settings
) -> None:
    models = scripted(streaming=True)
    configure_resources(writing(settings), chat_model_factory=models)
    tokens: list[str] = []
    answer = ask(QUESTION, context=Context(today="2023-11-21", use_tools=False), on_token=tokens.append)
    draft = streamed(models, "generate")[-1]
    assert len(tokens) > 3 and "".join(tokens) == draft  # word by word, nothing else
    assert draft.startswith("Revenue by quarter")
    # streamed usage still reaches the accounting
    assert answer.llm_calls and all(
        c["input_tokens"] == 10 and c["output_tokens"] == 5 for c in answer.llm_calls
    )
    assert answer.tokens == 15 * len(answer.llm_calls)
    assert "Revenue by quarter" in answer.answer


def test_without_on_token_models_are_not_streamed(filings: Database, settings: Settings) -> None:
    models = scripted(streaming=True)
    configure_resources(writing(settings), chat_model_factory=models)
    answer = ask(QUESTION, context=Context(today="2023-11-21", use_tools=False))
    assert not any(streamed(models, role) for role in models.models)
    assert answer.tokens == 15 * len(answer.llm_calls) > 0


def test_on_token_with_a_model_that_does_not_stream(filings: Database, settings: Settings) -> None:
    """Non-streaming providers still give the draft, in one piece, and their usage."""
    models = scripted()
    configure_resources(writing(settings), chat_model_factory=models)
    tokens: list[str] = []
    answer = ask(QUESTION, context=Context(today="2023-11-21", use_tools=False), on_token=tokens.append)
    assert len(tokens) == 1 and tokens[0].startswith("Revenue by quarter")
    assert answer.tokens == 15 * len(answer.llm_calls) > 0


def test_prose_filter_drops_json_and_other_nodes() -> None:
    seen: list[str] = []
    prose = _ProseFilter(seen.append)
    generate = {"langgraph_node": "generate"}
    for text in ("  ", '{"facts"', ": []}"):
        prose.feed(AIMessageChunk(content=text, id="json"), generate)
    for text in ("``", "`json\n{", "}\n```"):
        prose.feed(AIMessageChunk(content=text, id="fenced"), generate)
    prose.feed(AIMessageChunk(content="Apple grew", id="other"), {"langgraph_node": "analyze"})
    for text in ("\n", "Revenue ", "rose [10Q1]."):
        prose.feed(AIMessageChunk(content=text, id="prose"), generate)
    prose.feed(AIMessage(content='{"facts": []}', id="whole-json"), generate)
    prose.feed(AIMessage(content="A whole reply.", id="whole"), generate)
    assert "".join(seen) == "\nRevenue rose [10Q1].A whole reply."


# -- ask: the terminal view, JSON lines, Markdown ----------------------------------------------------


def test_live_view_shows_stages_and_the_draft() -> None:
    view = LiveProgress()
    view.on_update("resolve_periods", {"targets": [{"ticker": "AAPL", "label": "Q3 FY2023"}]})
    view.on_update(
        "search", {"searches": [{"query": "sales", "ticker": "AAPL", "period_label": "Q3", "hits": 7}]}
    )
    view.on_token("Revenue was ")
    view.on_token("$81.8 billion [10Q1].")
    out = io.StringIO()
    Console(file=out, force_terminal=True, width=80, height=30, color_system=None).print(view)
    text = out.getvalue()
    assert "periods AAPL Q3 FY2023" in text and "7 hits" in text
    assert "answer draft" in text and "Revenue was $81.8 billion [10Q1]." in text
    # the next iteration's tokens start a new draft
    view.on_update("generate", {"answer": "x", "iterations": 1})
    view.on_token("Second draft.")
    assert view.draft == "Second draft."
    for n in range(60):
        view.on_update("search", {"searches": [{"query": f"q{n}", "period_label": "Q1", "hits": n}]})
    out = io.StringIO()
    Console(file=out, force_terminal=True, width=80, height=30, color_system=None).print(view)
    assert (
        "earlier steps" in out.getvalue()
        and "q59" in out.getvalue()
        and len(out.getvalue().splitlines()) < 30
    )


def test_ask_live_view_in_a_terminal(
    filings: Database, settings: Settings, in_process: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, width=120, height=40, color_system=None)
    monkeypatch.setattr(ask_cmd, "err_console", terminal)
    configure_resources(writing(settings), chat_model_factory=scripted(streaming=True))
    result = in_process.invoke(app, ["ask", QUESTION, *TICKERS])
    assert result.exit_code == 0, result.output + screen.getvalue()
    assert "Revenue by quarter" in result.stdout and "Sources" in result.stdout
    shown = screen.getvalue()
    assert "analysis" in shown and "confidence" in shown and "hits" in shown


def test_jsonl_events_and_markdown_output(
    filings: Database, settings: Settings, in_process: CliRunner, tmp_path: Path
) -> None:
    models = scripted()
    # The answer below is the text path's (model prose first); the facts path opens computed.
    configure_resources(writing(settings), chat_model_factory=models)
    target = tmp_path / "answer.md"
    result = in_process.invoke(app, ["ask", QUESTION, *TICKERS, "--jsonl-events", "--output", str(target)])
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.stdout.splitlines()]
    kinds = [e["event"] for e in events]
    assert kinds[-1] == "answer" and kinds.count("answer") == 1
    nodes = [e["node"] for e in events if e["event"] == "node"]
    for node in ("analyze", "resolve_periods", "search", "generate", "evaluate"):
        assert node in nodes, nodes
    analyze = next(e for e in events if e.get("node") == "analyze")
    assert analyze["summary"][0].startswith("analysis AAPL, MSFT") and "[bold]" not in analyze["summary"][0]
    assert analyze["update"]["analysis"]["tickers"] == ["AAPL", "MSFT"]
    searches = [e for e in events if e.get("node") == "search"]
    assert searches and all(re.search(r"\d+ hits", line) for e in searches for line in e["summary"])
    tokens = [e["text"] for e in events if e["event"] == "token"]
    assert tokens and tokens[0].startswith("Revenue by quarter")
    final = events[-1]
    assert final["question"] == QUESTION and final["citations"] and final["tokens"] > 0
    assert final["answer"].startswith("Revenue by quarter")
    # stderr: no progress lines, only the file note and warnings
    assert "analysis" not in result.stderr and "confidence" not in result.stderr
    assert f"wrote {target}" in result.stderr

    markdown = target.read_text()
    assert markdown.startswith(f"# {QUESTION}\n")
    assert final["answer"].strip() in markdown
    assert (
        "## Sources" in markdown and "| label | ticker | kind | period | part | page | document |" in markdown
    )
    first = final["citations"][0]
    assert f"| [{first['label']}] | {first['ticker']} | 10-Q | {first['period']} |" in markdown
    assert "/filings/" in markdown
    assert "## Warnings" in markdown and "10Q99" in markdown  # the scripted draft cites a bogus label
    assert "Figures check: **verified** (15/15 verified)" in markdown
    assert re.search(
        rf"\*confidence \d\.\d\d · 1 iteration\(s\) · [\d.]+ s · run {final['run_id']}\*\n$", markdown
    )


def test_markdown_escapes_table_cells() -> None:
    answer = Answer(
        question="What | is\nthis?",
        answer="It is | this [10K1].",
        citations=[
            {
                "label": "10K1",
                "ticker": "AAPL",
                "kind": "10-K",
                "period": "FY2023",
                "section": "Item 7 | MD&A",
                "page": 4,
                "source_uri": "/a|b.htm",
            }
        ],
        confidence=0.9,
        iterations=1,
        periods_covered=[],
        warnings=["careful | now"],
    )
    markdown = answer_markdown(answer)
    assert markdown.startswith("# What | is this?\n")
    row = next(line for line in markdown.splitlines() if line.startswith("| [10K1]"))
    assert row == r"| [10K1] | AAPL | 10-K | FY2023 | Item 7 \| MD&A | 4 | /a\|b.htm |"
    assert cell(None) == "" and cell("a\n|b") == r"a \|b"


def test_json_helpers() -> None:
    assert plain("[bold]analysis[/] a \\[b]") == "analysis a [b]"
    assert json_safe({("a", 1): {1, 2}, "d": Path("/x")}) == {"('a', 1)": [1, 2], "d": "/x"}


# -- ask: bad flags fail before the graph runs -------------------------------------------------------


def test_ask_bad_output_and_flag_combinations(tmp_path: Path) -> None:
    question = "Apple revenue?"
    assert_clean_failure(
        finagent(["ask", question, "--output", str(tmp_path / "missing" / "a.md")], None, tmp_path),
        "does not exist",
    )
    assert_clean_failure(
        finagent(["ask", question, "--output", str(tmp_path)], None, tmp_path), "is a directory"
    )
    both = finagent(["ask", question, "--json", "--jsonl-events"], None, tmp_path)
    assert both.returncode == 2
    assert_clean_failure(both, "--json and --jsonl-events cannot be combined")


# -- ask: Ctrl-C -------------------------------------------------------------------------------------


class SilentServer:
    """An HTTP server that accepts requests and never answers (a hung LLM provider)."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.requests: list[bytes] = []
        self.reached = threading.Event()
        self.held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)
            data = conn.recv(65536)
            self.requests.append(data)
            if b"POST" in data:
                self.reached.set()

    def close(self) -> None:
        self.sock.close()
        for conn in self.held:
            conn.close()


# the model is called to write what management highlighted (what drove a line is quoted by code)
QUESTION_NEEDING_WORDS = "What did management highlight about Apple's revenue in Q3 FY2023?"


def test_ctrl_c_cancels_ask_cleanly(filings: Database, settings: Settings, tmp_path: Path) -> None:
    server = SilentServer()
    passed = ("FINAGENT_PG_DATA_DIR",)
    env = {
        k: v
        for k, v in os.environ.items()
        if not (k.startswith(("FINAGENT_", "OPENAI_", "CEREBRAS_")) and k not in passed)
    }
    env |= {
        "FINAGENT_HOME": str(tmp_path / "home"),
        "FINAGENT_CACHE_DIR": str(MODEL_CACHE),
        "FINAGENT_DATABASE_URL": settings.database_url or "",
        "FINAGENT_LLM_PROVIDER": "openai",
        "FINAGENT_OPENAI_BASE_URL": f"http://127.0.0.1:{server.port}/v1",
        "OPENAI_API_KEY": "x",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "finagent.cli.main", "ask", QUESTION_NEEDING_WORDS, "--mode", "direct"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        reached = server.reached.wait(timeout=120)
        if not reached:
            proc.kill()
            out, err = proc.communicate()
            pytest.fail(f"no request reached the stub server: {out}{err}")
        assert b"/v1/chat/completions" in server.requests[-1]
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        server.close()
    assert proc.returncode == 130, out + err
    assert "cancelled" in err
    assert "Traceback" not in out + err and "Aborted" not in err


STUCK_COMMAND = """
import threading, time
from finagent.cli.console import guarded

def main():
    threading.Thread(target=time.sleep, args=(600,)).start()  # a worker that never finishes
    print("ready", flush=True)
    time.sleep(600)

guarded(main)
"""


def test_ctrl_c_ends_a_command_whose_worker_is_stuck() -> None:
    """Unwinding waits on a non-daemon worker blocked for minutes: the watchdog ends the process."""
    proc = subprocess.Popen(
        [sys.executable, "-c", STUCK_COMMAND], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, out + err
    assert "cancelled" in err and "Traceback" not in err
