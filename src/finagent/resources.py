"""Locate the SQL and prompt files shipped inside the wheel (or beside src/ in a checkout)."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from string import Template


@cache
def resource_dir(name: str) -> Path:
    """Return the directory of packaged resources ``name`` ("sql" or "prompts").

    A built wheel carries them as ``finagent/<name>``; an editable install reads the
    top-level folder of the checkout, which is the single source of truth.
    """
    packaged = Path(str(resources.files("finagent"))) / name
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"finagent resource folder '{name}' is missing from the installation")


@cache
def read_sql(filename: str) -> str:
    """Text of one SQL file from sql/ (queries are kept out of Python code).

    Cached: every search and every ingest event uses these, and the files never change at run time.
    """
    return (resource_dir("sql") / filename).read_text(encoding="utf-8")


@cache
def read_prompt(name: str) -> Template:
    """A one-message prompt of prompts/ (``$name`` placeholders), e.g. a follow-up instruction.

    Role prompts with a system and a user part are read by ``finagent.agent.prompts``.
    """
    return Template((resource_dir("prompts") / f"{name}.md").read_text(encoding="utf-8").strip())


def lock_file() -> Path | None:
    """requirements.lock, the versions the test suite passed with: in a built wheel, or at the checkout's
    root; None when neither has it."""
    for path in (
        Path(str(resources.files("finagent"))) / "requirements.lock",
        Path(__file__).resolve().parents[2] / "requirements.lock",
    ):
        if path.is_file():
            return path
    return None
