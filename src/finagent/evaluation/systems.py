"""Retrieval systems compared in one run: ``dense``, ``seed-hybrid`` and ``finagent``.

Each returns ranked (chunk id, document id, page) for a question; the runner maps documents to
benchmark names. ``finagent`` runs the graph's own analyze → resolve → search stages with no LLM
(the deterministic analyzer), so retrieval is measured without generation.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult

from finagent.agent.context import Context
from finagent.agent.evidence import interleave_groups, spans_periods
from finagent.agent.nodes.analyze import analyze
from finagent.agent.nodes.fan_out import plan_searches
from finagent.agent.nodes.resolve_periods import resolve_periods_node
from finagent.agent.nodes.search import search
from finagent.agent.resources import AgentResources
from finagent.agent.understand.entities import find_companies
from finagent.agent.understand.question import Question
from finagent.db.evaluation import dense_ranking, seed_hybrid_ranking
from finagent.errors import FinagentError

Ranked = list[tuple[int, int, int | None]]  # (chunk id, document id, page)
SYSTEMS = ("dense", "seed-hybrid", "finagent")
_YEAR = re.compile(r"\b(19[89]\d|20[0-4]\d)\b")
_log = logging.getLogger(__name__)


class NoModel(BaseChatModel):
    """Stands in for every LLM during retrieval evaluation: each call fails, the defaults apply."""

    @property
    def _llm_type(self) -> str:
        return "none"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        raise FinagentError("retrieval evaluation runs without a language model")


def dense(resources: AgentResources, question: str, k: int) -> Ranked:
    vector = resources.query_vector(question)
    with resources.database().connection() as conn:
        return dense_ranking(conn, vector, k)


def seed_hybrid(resources: AgentResources, question: str, k: int) -> Ranked:
    """The replaced system: its filters are the first company named and the first year written."""
    matches = find_companies(question, resources.companies())
    year = _YEAR.search(question)
    params = {
        "query_vector": resources.query_vector(question),
        "query": question,
        "ticker": matches[0].ticker if matches else None,
        "year": int(year.group(1)) if year else None,
        "k": k,
    }
    with resources.database().connection() as conn:
        return seed_hybrid_ranking(conn, params)


class _Runtime:
    def __init__(self, context: Context) -> None:
        self.context = context


async def _finagent(question: str, k: int, context: Context) -> Ranked:
    runtime: Any = _Runtime(context)
    state: dict[str, Any] = {"question": question}
    state |= await analyze(state, runtime)  # type: ignore[arg-type]
    if context.provider:
        _report_failed_calls(question, state.get("llm_calls") or [])
    state |= await resolve_periods_node(state, runtime)  # type: ignore[arg-type]
    sends = [s for s in plan_searches(state, runtime) if s.node == "search"]  # type: ignore[arg-type]
    results = await asyncio.gather(*(search(send.arg, runtime) for send in sends))
    best: dict[int, dict[str, Any]] = {}
    for result in results:
        for item in result.get("evidence", []):
            if item["chunk_id"] not in best or item["fused_score"] > best[item["chunk_id"]]["fused_score"]:
                best[item["chunk_id"]] = item
    ranked = sorted(best.values(), key=lambda e: (-e["fused_score"], e["chunk_id"]))
    if context.ablations.quota_per_period and spans_periods(
        Question.of(state).time_specs
    ):  # each period gets its best first
        ranked = interleave_groups(ranked)
    ranked = ranked[:k]
    return [(e["chunk_id"], e["document_id"], e["page"]) for e in ranked]


def _report_failed_calls(question: str, calls: list[Any]) -> None:
    """Say when the model asked to analyze a question did not answer: its searches then ran on the
    question's own words, and a run measuring the model's analysis must not pass for one."""
    for call in calls:
        if isinstance(call, dict) and not call.get("ok", True):
            _log.warning("the model's analysis of %r failed (%s)", question[:80], call.get("error"))


def finagent_system(context: Context) -> Callable[[AgentResources, str, int], Ranked]:
    def run(_: AgentResources, question: str, k: int) -> Ranked:
        return asyncio.run(_finagent(question, k, context))

    return run
