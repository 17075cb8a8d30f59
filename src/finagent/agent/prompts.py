"""Prompt templates from the shipped ``prompts/`` folder, rendered into chat messages."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from string import Template

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from finagent.resources import resource_dir

USER_MARKER = "=== user ==="


@dataclass(frozen=True, slots=True)
class PromptTemplate:
    name: str
    system: Template
    user: Template


@cache
def load_prompt(name: str) -> PromptTemplate:
    """Parse ``prompts/<name>.md``: system text, the user marker line, then the user text."""
    text = (resource_dir("prompts") / f"{name}.md").read_text(encoding="utf-8")
    system, marker, user = text.partition(USER_MARKER)
    if not marker:
        raise ValueError(f"prompt {name}.md has no '{USER_MARKER}' line")
    return PromptTemplate(name, Template(system.strip()), Template(user.strip()))


def render(name: str, **values: object) -> list[BaseMessage]:
    """System + user messages for one role; missing placeholders are an error, not silent text."""
    template = load_prompt(name)
    strings = {k: str(v) for k, v in values.items()}
    tag = {"template": name}  # recorded with the LLM call (audit trail); never sent to the model
    return [
        SystemMessage(template.system.substitute(strings), response_metadata=tag),
        HumanMessage(template.user.substitute(strings), response_metadata=tag),
    ]
