"""The code stays ruff- and mypy-clean (run as part of the suite, so CI enforces it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "src", "tests", "benchmarks", "graphs", "notebooks"],
        ["ruff", "format", "--check", "src", "tests", "benchmarks", "graphs", "notebooks"],
        ["mypy", "src", "tests"],
    ],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_static_checks(command: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_layers() -> None:
    """The layer contracts of pyproject.toml (cli → interfaces | evaluation → agent → tools | retrieval
    → ingest → db | llm | embeddings → finance → settings): a wrong-way import fails here."""
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_queries_run_only_in_db() -> None:
    """Every query of the project is executed by a module of finagent.db (SQL text lives in sql/)."""
    package = ROOT / "src" / "finagent"
    outside = [
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if path.parent.name != "db"
        and path != package / "resources.py"
        and any(word in path.read_text() for word in (".execute(", ".executemany(", "read_sql("))
    ]
    assert outside == []


HTTP_LIBRARIES = {"httpx", "httpx2", "aiohttp", "requests", "urllib3", "httpcore"}
SDK_TRANSPORT_ARGUMENTS = {
    "http_client",
    "http_async_client",
    "transport",
    "DefaultHttpxClient",
    "DefaultAsyncHttpxClient",
    "DefaultHttpx2Client",
    "DefaultAsyncHttpx2Client",
}


def _transport_uses(path: Path) -> list[str]:
    """The HTTP-library imports and SDK transport arguments of one module, as 'line: what'."""
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [
                f"{node.lineno}: import {a.name}"
                for a in node.names
                if a.name.split(".")[0] in HTTP_LIBRARIES
            ]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in HTTP_LIBRARIES:
            found.append(f"{node.lineno}: from {node.module}")
        elif isinstance(node, ast.keyword) and node.arg in SDK_TRANSPORT_ARGUMENTS:
            found.append(f"{node.lineno}: {node.arg}=")
        elif isinstance(node, ast.Attribute) and node.attr in SDK_TRANSPORT_ARGUMENTS:
            found.append(f"{node.lineno}: .{node.attr}")
    return found


def test_sdk_clients_are_configured_only_through_their_own_arguments() -> None:
    """The model and MCP clients get numbers and the SDKs' own options, never an HTTP object of ours:
    openai 3 moved to another HTTP library and rejected the httpx object we handed it."""
    package = ROOT / "src" / "finagent"
    modules = [*(package / "llm").glob("*.py"), *(package / "interfaces").glob("*.py")]
    uses = {str(p.relative_to(package)): _transport_uses(p) for p in sorted(modules)}
    assert {name: found for name, found in uses.items() if found} == {}


QUESTION_READERS = {
    "read_ask", "metrics_in", "computed_in", "from_question", "read_history", "read_parts_ask",
    "judgement_in", "section_topics", "formulas_for", "formula_keys", "asks_a_value", "value_line_words",
    "line_names", "is_breakdown", "is_narrative", "is_what_said", "asks_drivers", "statements_for",
    "question_traits", "asks_revision_size", "named_kinds", "dated_documents", "undated_document",
    "preferred_granularity", "read_wording", "read_change_words", "parse_time_phrases", "asks_filing_changes",
}  # fmt: skip


def _calls_of(path: Path, names: set[str]) -> list[str]:
    import ast

    from tests.helpers import called_name

    calls = (node for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Call))
    return [f"{node.lineno}: {called_name(node)}" for node in calls if called_name(node) in names]


def test_the_question_is_read_once_by_analyze() -> None:
    """After analyze, nodes and the answer writers follow the plan: none of them reads the question's
    words again (its text goes only into a prompt or a last-resort search phrase)."""
    agent = ROOT / "src" / "finagent" / "agent"
    modules = [*(agent / "answer").rglob("*.py"), *(agent / "nodes").rglob("*.py")]
    calls = {
        str(p.relative_to(agent)): _calls_of(p, QUESTION_READERS)
        for p in sorted(modules)
        if p != agent / "nodes" / "analyze.py"
    }
    assert {name: found for name, found in calls.items() if found} == {}


def test_after_analyze_the_plan_is_read_typed() -> None:
    """Nodes and writers read the plan as a typed Question (``Question.of(state)``), never as the dict
    the state stores: a key read from the dict is a key no type checks."""
    import re

    agent = ROOT / "src" / "finagent" / "agent"
    writers = {agent / "nodes" / "analyze.py", agent / "nodes" / "choose_subject.py"}  # they write it
    modules = [*(agent / "answer").rglob("*.py"), *(agent / "nodes").rglob("*.py"), agent / "evidence.py"]
    dict_reads = re.compile(
        r"""\[["']analysis["']\]|\.get\(["']analysis["']|Ask\.from_dict|History\.from_dict"""
    )
    found = {
        str(p.relative_to(agent)): [
            n for n, line in enumerate(p.read_text().splitlines(), 1) if dict_reads.search(line)
        ]
        for p in sorted(modules)
        if p not in writers
    }
    assert {name: lines for name, lines in found.items() if lines} == {}
