"""LangGraph entry point (`langgraph.json` → ./graphs/research.py:graph) for `langgraph dev` / Studio."""

from finagent.agent.graph import graph

__all__ = ["graph"]
