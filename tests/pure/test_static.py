"""The code stays ruff- and mypy-clean (run as part of the suite, so CI enforces it)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

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


MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 520


def _measured_modules() -> list[Path]:
    return sorted((ROOT / "src" / "finagent").rglob("*.py"))


def _long_functions(path: Path) -> list[str]:
    """'line name (n lines)' of each function or method longer than MAX_FUNCTION_LINES, counted from
    its ``def`` (decorators left out) to its last line."""
    import ast

    functions = (
        node
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    )
    return [
        f"{node.lineno} {node.name} ({length} lines)"
        for node in functions
        if (length := (node.end_lineno or node.lineno) - node.lineno + 1) > MAX_FUNCTION_LINES
    ]


def test_no_function_is_over_60_lines() -> None:
    """The code rules: a function does one job and reads on one screen (split by job, not cut at a
    line count)."""
    package = ROOT / "src" / "finagent"
    found = {str(p.relative_to(package)): _long_functions(p) for p in _measured_modules()}
    assert {name: functions for name, functions in found.items() if functions} == {}


def test_no_module_is_over_520_lines() -> None:
    """The code rules: a module holds one subject, about 500 lines at the most."""
    package = ROOT / "src" / "finagent"
    sizes = {str(p.relative_to(package)): len(p.read_text().splitlines()) for p in _measured_modules()}
    assert {name: lines for name, lines in sizes.items() if lines > MAX_MODULE_LINES} == {}


SHARED_KEYS = frozenset(
    {"ticker", "metric", "period", "value", "unit", "fiscal_year", "fiscal_quarter", "period_end", "chunk_id",
     "document_id", "title", "source_uri", "page", "source", "role", "reason", "derivation"}
)  # fmt: skip
"""Keys a figure record's JSON form shares with the other dicts the answer reads (evidence items,
targets, calculations, the passages' figures): reading one is no sign of a figure record."""


def _record_keys() -> frozenset[str]:
    """Every key of the figure records' JSON forms, parts, inputs and restatements included."""
    from tests.pure.test_figure_records import EXPECTED

    keys: set[str] = set()
    todo: list[Any] = list(EXPECTED)
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            keys |= set(item)
            todo += item.values()
        elif isinstance(item, list):
            todo += item
    return frozenset(keys)


def _key_read(node: ast.AST) -> tuple[ast.expr, str] | None:
    """(the dict, the key) of ``d["key"]`` or ``d.get("key")`` (also pop, setdefault)."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return node.value, str(node.slice.value)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("get", "pop", "setdefault")
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ):
        return node.func.value, str(node.args[0].value)
    return None


def _figure_key_reads(source: str, reader: str = "figures_of") -> list[str]:
    """Where ``source`` reads a figure record by key, as 'line: what': a key only figure records carry
    (``x["metric_label"]``, ``x.get("restated")``), a key of a record's JSON form (``r.to_dict()["value"]``),
    or the state's figures read other than by ``reader`` (which types them) or as a truth test."""
    only = _record_keys() - SHARED_KEYS
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    def truth_test(node: ast.AST) -> bool:
        """Read only for whether it holds anything (``if not state.get("figures")``)."""
        child, parent = node, parents.get(node)
        while parent is not None and isinstance(getattr(parent, "op", None), ast.Or | ast.And | ast.Not):
            child, parent = parent, parents.get(parent)
        return isinstance(parent, ast.If | ast.IfExp | ast.While | ast.Assert) and parent.test is child

    def within(node: ast.AST, name: str) -> bool:
        parent = parents.get(node)
        while parent is not None and not (isinstance(parent, ast.FunctionDef) and parent.name == name):
            parent = parents.get(parent)
        return parent is not None

    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Subscript | ast.Call) or (read := _key_read(node)) is None:
            continue
        owner, key = read
        of_json_form = isinstance(owner, ast.Call) and getattr(owner.func, "attr", "") == "to_dict"
        if key in only or of_json_form:
            found.append((node.lineno, key))
        elif key == "figures" and not truth_test(node) and not within(node, reader):
            found.append((node.lineno, "the state's figures, untyped"))
    return [f"{line}: {what}" for line, what in sorted(found)]


def test_the_figure_records_are_read_typed() -> None:
    """The answer's stages and the nodes read a looked-up figure as its typed record (``Figure``,
    ``Gap``: ``finance.looked_up``), never as the JSON dict the state stores: a key read from the
    dict is a key no type checks."""
    bad = (
        "def f(state, record):\n"
        "    for figure in state.get('figures') or []:\n"
        "        print(figure['period'], figure.get('metric_label'), record.to_dict()['value'])\n"
        "    if state.get('figures') and not state['figures']:\n"
        "        return [p['part'] for p in record.parts]\n"
    )
    found = ["2: the state's figures, untyped", "3: metric_label", "3: value", "5: part"]
    assert _figure_key_reads(bad) == found  # the check can fail
    agent = ROOT / "src" / "finagent" / "agent"
    modules = [*(agent / "answer").rglob("*.py"), *(agent / "nodes").rglob("*.py")]
    reads = {str(p.relative_to(agent)): _figure_key_reads(p.read_text()) for p in sorted(modules)}
    assert {name: lines for name, lines in reads.items() if lines} == {}
