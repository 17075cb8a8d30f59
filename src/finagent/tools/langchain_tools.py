"""The tools as LangChain StructuredTools, for the agent's model to call.

Each tool returns a JSON dict (the ToolResult / CalcResult plus a quotable ``summary``) and never
raises for data problems: bad arguments, a dead network, a missing store or an unexpected error all
become ``ok=False`` with a ``warning``/``error`` the model can relay. The async variants run the
synchronous functions in a worker thread, so a slow network call never blocks the event loop.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack
from datetime import date
from typing import Any

import psycopg
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field, ValidationError

from finagent.errors import failure_line
from finagent.settings import Settings
from finagent.tools.calculator import CalcResult, calculate
from finagent.tools.market import get_key_statistics, get_price_history, get_quote
from finagent.tools.news import MAX_LIMIT, get_company_news
from finagent.tools.prices import INTERVALS
from finagent.tools.results import ToolResult

log = logging.getLogger(__name__)

ConnFactory = Callable[[], AbstractContextManager[psycopg.Connection[Any]]]

_TICKER = "Stock ticker symbol as listed in the US, e.g. AAPL, MSFT, BRK.B (not the company name)."
_DATE = "ISO date YYYY-MM-DD"

# ------------------------------------------------------------------------------- arg schemas


class TickerArgs(BaseModel):
    """Arguments of market_quote and key_statistics."""

    ticker: str = Field(description=_TICKER)


class PriceHistoryArgs(BaseModel):
    """Arguments of price_history (dates as text so a bad date becomes a tool answer, not a crash)."""

    ticker: str = Field(description=_TICKER)
    start: str | None = Field(default=None, description=f"First day, {_DATE}; default one year before end.")
    end: str | None = Field(default=None, description=f"Last day (inclusive), {_DATE}; default latest.")
    interval: str = Field(
        default="1d",
        description="Bar size: 1d (daily), 1wk (weekly) or 1mo (monthly); 1wk/1mo for ranges over a year.",
        json_schema_extra={"enum": list(INTERVALS)},
    )


class CompanyNewsArgs(BaseModel):
    """Arguments of company_news."""

    ticker: str = Field(description=_TICKER)
    limit: int = Field(default=5, description=f"Number of articles, 1-{MAX_LIMIT}.")
    since: str | None = Field(
        default=None, description=f"Only articles published on/after this day, {_DATE}."
    )


class CalculatorArgs(BaseModel):
    """Arguments of calculator."""

    expression: str = Field(
        description=(
            "Arithmetic expression, at most 500 characters. Numbers may use thousands separators "
            "(94,836) and percent (12%). Operators + - * / ** and parentheses. Functions: "
            "growth(old, new) = percent change; cagr(start, end, years) = CAGR in percent; "
            "ratio(a, b) = a/b; margin(part, whole) = percent; diff(a, b) = a-b; avg(x, y, ...); "
            "abs(x); round(x, digits). Separate function arguments with ', ' (comma AND space)."
        )
    )


# ------------------------------------------------------------------------------- descriptions

QUOTE_DESCRIPTION = (
    "Latest share price of one company: price, day change, 52-week high/low, 1-month change, market cap "
    "when live. Use for 'what is the stock price / how did the stock do recently'. Returns JSON with ok, "
    "data, source, offline, as_of, warning and a quotable summary. offline=true means recorded prices "
    "(as_of tells the date, which may be old): say so in the answer. Not for financial statement figures."
)
HISTORY_DESCRIPTION = (
    "Daily, weekly or monthly OHLCV prices of one stock between two dates, with first/last close, "
    "percent change, high, low and average volume over the range. Use for price moves over a period or "
    "the price on a given date. Returns at most 300 bars (the most recent); use interval 1wk or 1mo "
    "for long ranges. offline=true means recorded data with limited coverage (see warning)."
)
STATISTICS_DESCRIPTION = (
    "Key market statistics of one stock: market cap, trailing/forward P/E, EPS, dividend yield, beta, "
    "52-week range, returns over 1m/3m/6m/YTD/1y, 3-month average volume and volatility. Offline only "
    "the price-based figures exist; data.unavailable lists what is missing — never guess those."
)
NEWS_DESCRIPTION = (
    "Recent news articles about one company (title, date, url, snippet, source), newest first. Use for "
    "recent events, announcements, market reaction. offline=true means recorded articles, not today's news."
)
CALCULATOR_DESCRIPTION = (
    "Exact arithmetic for any derived figure (growth rates, margins, ratios, CAGR, differences, "
    "averages): always use it instead of computing in your head, and quote result_text. Example: "
    "'growth(80,000, 94,836)' -> 18.545 (percent). Returns JSON with expression, result, result_text, "
    "ok and error."
)

# ---------------------------------------------------------------------------------- helpers


def result_dict(result: ToolResult | CalcResult) -> dict[str, Any]:
    """JSON-ready dict of a result, with its one-line summary for the model to quote."""
    out = result.model_dump(mode="json")
    out["summary"] = result.summary()
    return out


def _failure(tool: str, message: str, kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
    """An ok=False answer shaped like the tool's normal result."""
    kwargs = kwargs or {}
    if tool == "calculator":
        return result_dict(CalcResult(expression=str(kwargs.get("expression", "")), ok=False, error=message))
    ticker = kwargs.get("ticker")
    return result_dict(
        ToolResult(tool=tool, ticker=ticker if isinstance(ticker, str) else None, ok=False, warning=message)
    )


def _parse_date(value: str | date | None, name: str) -> date | None:
    if value is None or isinstance(value, date):
        return value
    text = str(value).strip()
    if not text:
        return None
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        raise ValueError(f"{name} '{value}' is not a date; use {_DATE}") from None


def _guarded(tool: str, func: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """Any exception of ``func`` becomes an ok=False answer (a tool must not crash the agent)."""

    def run(**kwargs: Any) -> dict[str, Any]:
        try:
            return func(**kwargs)
        except ValueError as exc:  # bad arguments
            return _failure(tool, str(exc), kwargs)
        except Exception as exc:
            log.exception("tool %s failed", tool)
            return _failure(tool, f"internal error: {failure_line(exc)}", kwargs)

    run.__name__ = tool
    return run


def _validation_handler(tool: str) -> Callable[[ValidationError], str]:
    """Arguments of the wrong type: answer with an ok=False JSON (as text), not an exception."""

    def handle(error: ValidationError) -> str:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
        return json.dumps(_failure(tool, f"invalid arguments: {problems}"))

    return handle


def _structured(
    name: str, description: str, schema: type[BaseModel], func: Callable[..., dict[str, Any]]
) -> StructuredTool:
    guarded = _guarded(name, func)

    async def arun(**kwargs: Any) -> dict[str, Any]:
        return await asyncio.to_thread(guarded, **kwargs)

    return StructuredTool.from_function(
        func=guarded,
        coroutine=arun,
        name=name,
        description=description,
        args_schema=schema,
        handle_validation_error=_validation_handler(name),
    )


# ------------------------------------------------------------------------------------ tools


def build_tools(settings: Settings, conn_factory: ConnFactory | None = None) -> list[BaseTool]:
    """The five agent tools bound to ``settings`` (and to the store for news, when given).

    ``conn_factory`` returns a context manager yielding a connection (e.g. ``Database.connection``);
    when it fails the news tool still answers from live data or the recorded news files.
    """

    def market_quote(ticker: str) -> dict[str, Any]:
        return result_dict(get_quote(ticker, settings))

    def price_history(
        ticker: str, start: str | None = None, end: str | None = None, interval: str = "1d"
    ) -> dict[str, Any]:
        first, last = _parse_date(start, "start"), _parse_date(end, "end")
        return result_dict(
            get_price_history(ticker, settings, first, last, interval=interval.strip().lower())
        )

    def key_statistics(ticker: str) -> dict[str, Any]:
        return result_dict(get_key_statistics(ticker, settings))

    def company_news(ticker: str, limit: int = 5, since: str | None = None) -> dict[str, Any]:
        day = _parse_date(since, "since")
        if conn_factory is None:
            return result_dict(get_company_news(ticker, settings, limit=limit, since=day))
        note = None
        with ExitStack() as stack:
            conn = None
            try:
                conn = stack.enter_context(conn_factory())
            except Exception as exc:  # store down: live news or the recorded files still answer
                note = f"store not available ({type(exc).__name__}: {exc})"
            result = get_company_news(ticker, settings, limit=limit, since=day, conn=conn)
        if note:
            result.warning = f"{result.warning}; {note}" if result.warning else note
        return result_dict(result)

    def calculator(expression: str) -> dict[str, Any]:
        return result_dict(calculate(expression))

    return [
        _structured("market_quote", QUOTE_DESCRIPTION, TickerArgs, market_quote),
        _structured("price_history", HISTORY_DESCRIPTION, PriceHistoryArgs, price_history),
        _structured("key_statistics", STATISTICS_DESCRIPTION, TickerArgs, key_statistics),
        _structured("company_news", NEWS_DESCRIPTION, CompanyNewsArgs, company_news),
        _structured("calculator", CALCULATOR_DESCRIPTION, CalculatorArgs, calculator),
    ]
