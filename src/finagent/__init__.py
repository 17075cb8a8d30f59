"""finagent: a cited financial research agent over SEC filings, transcripts, news and market data."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from finagent.version import __version__

if TYPE_CHECKING:
    from finagent.agent.api import Answer, aask, ask
    from finagent.interfaces.langchain_tool import as_tool
    from finagent.reports.facts import facts

__all__ = ["Answer", "__version__", "aask", "as_tool", "ask", "facts"]


def __getattr__(name: str) -> Any:
    # Lazy: `import finagent` stays cheap for the CLI and ingestion, which do not need LangGraph.
    if name == "as_tool":
        from finagent.interfaces.langchain_tool import as_tool

        return as_tool
    if name == "facts":
        from finagent.reports.facts import facts

        return facts
    if name in __all__:
        from finagent.agent import api

        return getattr(api, name)
    raise AttributeError(f"module 'finagent' has no attribute {name!r}")
