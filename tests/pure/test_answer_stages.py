"""The answer is written in stages (choose, compute, check, write, render), each stage once: the model
copies a figure from a passage in one place only."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers import called_name

SRC = Path(__file__).resolve().parents[2] / "src" / "finagent"


def _names(node: ast.expr) -> set[object]:
    """The template names a call's first argument may be: a constant, or either side of a choice."""
    if isinstance(node, ast.Constant):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _names(node.body) | _names(node.orelse)
    return set()


def _modules_rendering(prompt: str) -> list[str]:
    """The modules that render the prompt template ``prompt`` (a ``render`` call naming it first)."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            if called_name(node) == "render" and prompt in _names(node.args[0]):
                found.append(str(path.relative_to(SRC)))
    return found


def test_the_model_copies_figures_in_one_place() -> None:
    """Both writers' copies of a figure from a passage go through answer/choose.py's one call of the
    extract prompt, so each copy is checked the same way against the passage it cites."""
    assert _modules_rendering("extract") == ["agent/answer/choose.py"]


def test_the_writers_prompts_are_rendered_by_the_write_stage() -> None:
    """The figure writer's and the evidence writer's prompts are rendered in answer/write.py only."""
    for prompt in ("figures_why", "generate", "synthesis"):
        assert _modules_rendering(prompt) == ["agent/answer/write.py"], prompt
