"""finagent as a LangChain tool, so a LangChain or LangGraph agent can delegate financial research.

``finagent.as_tool()`` returns a StructuredTool whose input schema an LLM can fill (question, and
optionally tickers, periods, answer mode) and whose output is JSON text: the cited answer,
citations, confidence and warnings. Bad input or an unusable store becomes a tool error message
the calling model can read, not an exception that ends the caller's run.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Literal

from langchain_core.tools import BaseTool, StructuredTool, ToolException
from pydantic import BaseModel, Field, ValidationError

from finagent.agent.context import Context
from finagent.errors import FinagentError, failure_line

DESCRIPTION = (
    "Research a financial question from SEC filings (10-K, 10-Q, 8-K), earnings-call transcripts, "
    "news and market data, and return a cited answer as JSON: answer (figures carry [labels]), "
    "citations (label, ticker, kind, period, section, page, source), confidence 0-1 and warnings. "
    "Best for figures and comparisons across companies and fiscal periods, e.g. 'Compare Apple and "
    "Microsoft revenue over the last 3 quarters'."
)


class ResearchArgs(BaseModel):
    """What the calling model fills in."""

    question: str = Field(min_length=1, max_length=4000, description="The financial question.")
    tickers: list[str] | None = Field(
        default=None, max_length=8, description="Companies (tickers or names); default: those named."
    )
    periods: list[str] | None = Field(
        default=None, max_length=12, description='Fiscal periods, e.g. ["Q3 FY2023", "FY2022"].'
    )
    answer_mode: Literal["direct", "standard", "detailed", "deep"] | None = Field(
        default=None, description="direct is fastest; deeper modes search again until more confident."
    )


def _explain(error: ValidationError) -> str:
    """The refused fields and why, so the calling model can fix its call."""
    problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'input'}: {e['msg']}" for e in error.errors())
    return f"invalid arguments: {problems}"


def _payload(answer: Any) -> str:
    return json.dumps(
        {
            "answer": answer.answer,
            "citations": answer.citations,
            "confidence": answer.confidence,
            "periods_covered": answer.periods_covered,
            "warnings": answer.warnings,
            "validation": {k: v for k, v in (answer.validation or {}).items() if k != "checks"},
            "run_id": answer.run_id,
        },
        default=str,
    )


def as_tool(
    *,
    name: str = "financial_research",
    mode: str | None = None,
    provider: str | None = None,
    context: Context | None = None,
) -> BaseTool:
    """The research graph as a LangChain tool (``mode``/``provider``/``context`` fix run settings)."""
    from finagent.agent.api import aask, ask

    run_context = context or Context()
    if provider:
        run_context = replace(run_context, provider=provider)

    def options(args: dict[str, Any]) -> dict[str, Any]:
        return {
            "tickers": args.get("tickers"),
            "periods": args.get("periods"),
            "mode": args.get("answer_mode") or mode,
            "context": run_context,
        }

    def run(question: str, **args: Any) -> str:
        try:
            return _payload(ask(question, **options(args)))
        except FinagentError as exc:
            raise ToolException(str(exc)) from None
        except Exception as exc:  # the failing part in one line, which the calling agent can act on
            raise ToolException(failure_line(exc)) from exc

    async def arun(question: str, **args: Any) -> str:
        try:
            return _payload(await aask(question, **options(args)))
        except FinagentError as exc:
            raise ToolException(str(exc)) from None
        except Exception as exc:
            raise ToolException(failure_line(exc)) from exc

    return StructuredTool.from_function(
        func=run,
        coroutine=arun,
        name=name,
        description=DESCRIPTION,
        args_schema=ResearchArgs,
        handle_tool_error=True,
        handle_validation_error=_explain,
    )
