"""Retrieval systems that differ only in a search-stage lever read each question once."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from finagent.agent.context import Context
from finagent.evaluation import systems


def test_systems_differing_in_a_search_lever_share_one_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    readings: list[bool] = []

    async def analyze(state: dict[str, Any], runtime: Any) -> dict[str, Any]:
        readings.append(runtime.context.lean_to_answer)
        return {"analysis": {"question": state["question"], "answer_sentence": f"reading {len(readings)}"}}

    monkeypatch.setattr(systems, "analyze", analyze)
    monkeypatch.setattr(systems, "_analyses", {})

    def read(context: Context) -> Any:
        return asyncio.run(systems._analysis("Why did margins fall?", context, systems._Runtime(context)))

    first = read(Context())
    first["analysis"]["answer_sentence"] = "changed by a later stage"
    assert read(Context(search_windows=False))["analysis"]["answer_sentence"] == "reading 1"
    assert read(Context(lean_to_answer=False))["analysis"]["answer_sentence"] == "reading 2"
    assert readings == [True, False]  # the analysis lever reads the question again
