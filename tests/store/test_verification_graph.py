"""Numeric verification inside the graph: an unsupported figure gets one rewrite, then a flag."""

from __future__ import annotations

from typing import Any

from finagent.agent.context import Ablations
from finagent.db import Database
from finagent.settings import Settings
from tests.fakes import ScriptedModels
from tests.store.test_graph import ANALYSIS, GOOD, extract_from_prompt, run, store  # noqa: F401  (store: fixture)

QUESTION = "What were Apple's total net sales in Q3 FY2023?"
APPLE = {**ANALYSIS, "keywords": [{"ticker": "AAPL", "phrases": ["total net sales"]}]}
INVENTED = "Apple's total net sales were $42 million in Q3 FY2023 [10Q1]."
TRUE = "Apple's total net sales were $81,797 million in Q3 FY2023 [10Q1]."


def models(*answers: str) -> ScriptedModels:
    return ScriptedModels(
        {"analyze": [APPLE], "extract": [extract_from_prompt], "generate": list(answers), "evaluate": [GOOD]}
    )


def ask(settings: Settings, scripted: ScriptedModels) -> dict[str, Any]:
    # Without the calculator the prose is not pre-checked against the figures: verification is the net.
    return run(settings, scripted, QUESTION, answer_mode="direct", ablations=Ablations(use_calculator=False))


def test_supported_answer_is_verified_in_one_pass(store: Database, settings: Settings) -> None:  # noqa: F811
    scripted = models(TRUE)
    state = ask(settings, scripted)
    assert state["validation"]["status"] == "verified"
    assert state["validation"]["numbers_verified"] == state["validation"]["numbers_total"] > 0
    assert len(scripted.models["generate"].calls) == 1


def test_invented_figure_is_rewritten_once_with_feedback(store: Database, settings: Settings) -> None:  # noqa: F811
    scripted = models(INVENTED, TRUE)
    state = ask(settings, scripted)
    assert len(scripted.models["generate"].calls) == 2
    feedback = scripted.prompts("generate")[1]
    assert "$42 million" in feedback and "not supported" in feedback
    assert "$42 million" not in state["answer"] and "81,797" in state["answer"]
    assert state["validation"]["status"] == "verified"
    assert any("rewritten once" in w for w in state["warnings"])


def test_still_unsupported_after_the_rewrite_is_flagged(store: Database, settings: Settings) -> None:  # noqa: F811
    scripted = models(INVENTED, INVENTED)
    state = ask(settings, scripted)
    assert len(scripted.models["generate"].calls) == 2
    assert "$42 million [unverified]" in state["answer"]
    validation = state["validation"]
    assert validation["status"] == "unsupported figures"
    assert [c["text"] for c in validation["unverified"]] == ["$42 million"]
    assert validation["numbers_verified"] < validation["numbers_total"]
    assert any("[unverified]" in w for w in state["warnings"])
    assert state["confidence"] <= 0.5  # an unsupported figure cannot reach a threshold
