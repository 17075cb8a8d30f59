"""The research graph: analyze → resolve periods → parallel searches and facts lookups → tools →
generate → evaluate ⟲ (while follow-up searches give the writer passages it has not read) → record
the run. A question about companies the store lacks ends after analyze; one about every company in
the store is screened by code (screen); a figure question naming no company is planned again
(choose_subject) about the company its first, cross-company searches matched best."""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.types import Checkpointer

from finagent.agent.audit import timed
from finagent.agent.context import Context
from finagent.agent.nodes.analyze import analyze, route_after_analyze
from finagent.agent.nodes.choose_subject import choose_subject, route_after_choice
from finagent.agent.nodes.evaluate import evaluate, route_after_evaluate
from finagent.agent.nodes.facts import lookup_facts
from finagent.agent.nodes.fan_out import plan_searches
from finagent.agent.nodes.filing_parts import read_filing_parts
from finagent.agent.nodes.finish import finish
from finagent.agent.nodes.generate import generate, route_after_generate
from finagent.agent.nodes.record_run import record_run
from finagent.agent.nodes.resolve_periods import resolve_periods_node
from finagent.agent.nodes.screen_store import screen_store
from finagent.agent.nodes.search import search
from finagent.agent.nodes.tools import call_tools, route_after_tools
from finagent.agent.state import FactsTask, InputState, OutputState, PartsTask, SearchTask, State


def build_graph(checkpointer: Checkpointer = None) -> Any:
    """Compile the graph (with a checkpointer when conversations must survive the process)."""
    builder = StateGraph(State, input_schema=InputState, output_schema=OutputState, context_schema=Context)
    builder.add_node("analyze", timed("analyze", analyze, starts_run=True))
    builder.add_node("resolve_periods", timed("resolve_periods", resolve_periods_node))
    builder.add_node("search", timed("search", search), input_schema=SearchTask)
    builder.add_node("facts", timed("facts", lookup_facts), input_schema=FactsTask)
    builder.add_node("filing_parts", timed("filing_parts", read_filing_parts), input_schema=PartsTask)
    builder.add_node("tools", timed("tools", call_tools))
    builder.add_node("choose_subject", timed("choose_subject", choose_subject))
    builder.add_node("generate", timed("generate", generate))
    builder.add_node("evaluate", timed("evaluate", evaluate))
    builder.add_node(
        "follow_up_search",
        timed("follow_up_search", search),
        input_schema=SearchTask,
    )
    builder.add_node("screen", timed("screen", screen_store))
    builder.add_node("finish", timed("finish", finish))
    builder.add_node("record_run", record_run)

    builder.add_edge(START, "analyze")
    builder.add_conditional_edges("analyze", route_after_analyze, ["resolve_periods", "screen", "finish"])
    builder.add_edge("screen", "finish")
    builder.add_conditional_edges("resolve_periods", plan_searches, ["search", "facts", "filing_parts"])
    builder.add_edge("search", "tools")
    builder.add_edge("facts", "tools")
    builder.add_edge("filing_parts", "tools")
    builder.add_conditional_edges("tools", route_after_tools, ["choose_subject", "generate"])
    builder.add_conditional_edges("choose_subject", route_after_choice, ["resolve_periods", "generate"])
    builder.add_conditional_edges("generate", route_after_generate, ["evaluate", "finish"])
    builder.add_conditional_edges("evaluate", route_after_evaluate, ["follow_up_search", "finish"])
    builder.add_edge("follow_up_search", "generate")  # a join: every search of the round merged
    builder.add_edge("finish", "record_run")
    builder.add_edge("record_run", END)
    return builder.compile(checkpointer=checkpointer, name="finagent-research")


graph = build_graph()
