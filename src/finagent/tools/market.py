"""Market data tools: quote, price history and key statistics, live with a recorded fallback.

Live data comes from Yahoo Finance through yfinance, run in a worker thread that is abandoned after
``settings.tool_timeout`` seconds, so a dead network costs one bounded wait, never a hang. When live
data is unavailable (offline mode, no network, timeout, error, empty answer) the tools answer from
recorded daily prices (``<TICKER>.csv``) and say so in ``source``/``warning``; with neither, the
result has ``ok=False`` and a warning. Nothing here raises for network or data problems.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from finagent.errors import FinagentError
from finagent.finance.company_registry import normalize_ticker
from finagent.settings import Settings
from finagent.tools import network
from finagent.tools.data_dirs import display_path, market_data_dir
from finagent.tools.market_figures import (
    OFFLINE_UNAVAILABLE,
    history_data,
    info_data,
    quote_data,
    resample,
    statistics_data,
)
from finagent.tools.prices import (
    INTERVALS,
    NoLiveData,
    Recorded,
    fast_info,
    live_history,
    live_source,
    live_stamp,
    load_recorded,
    months_back,
    yf_ticker,
)
from finagent.tools.results import ToolResult

log = logging.getLogger(__name__)

_MAX_REASON = 200


# ------------------------------------------------------------------------------------ helpers


def _invalid(tool: str, raw: str, message: str) -> ToolResult:
    return ToolResult(tool=tool, ticker=None, ok=False, source="", warning=message, data={"input": raw})


def short_error(exc: BaseException) -> str:
    """'DNSError: Could not resolve host ...' — one line, without curl's documentation pointer."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    text = text.split(" See https://", 1)[0].replace("Failed to perform, ", "")
    reason = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return reason[:_MAX_REASON]


# ----------------------------------------------------------------------------- recorded prices


# ---------------------------------------------------------------------------------- live data


# ------------------------------------------------------------------------------- computations


# ------------------------------------------------------------------------------ orchestration


def _join(*notes: str | None) -> str | None:
    parts = [n for n in notes if n]
    return "; ".join(parts) if parts else None


def _run(
    tool: str,
    raw_ticker: str,
    settings: Settings,
    live: Callable[[str], ToolResult],
    recorded: Callable[[str, Recorded, str], ToolResult],
) -> ToolResult:
    """Try live data within the timeout, else recorded prices, else ok=False — never raise."""
    try:
        ticker = normalize_ticker(str(raw_ticker))
    except FinagentError as exc:
        return _invalid(tool, str(raw_ticker), str(exc))
    try:
        online, reason = network.network_status(settings)
        if online:
            try:
                return network.run_with_timeout(
                    lambda: live(ticker), settings.tool_timeout, name=f"yf-{tool}"
                )
            except TimeoutError:
                reason = f"Yahoo Finance did not answer within {settings.tool_timeout:g} s"
                network.mark_unreachable(reason)
            except NoLiveData as exc:
                reason = str(exc)
            except Exception as exc:  # any failure of the live service means: use recorded data
                reason = f"Yahoo Finance request failed ({short_error(exc)})"
        stored = load_recorded(ticker, settings)
        if stored is None:
            folder = market_data_dir(settings)
            where = f" in {display_path(folder)}" + ("" if folder.is_dir() else " (folder missing)")
            why = "offline" if settings.offline else reason
            return ToolResult(
                tool=tool,
                ticker=ticker,
                ok=False,
                offline=True,
                warning=f"no market data for {ticker}: {why} and no recorded prices{where}",
            )
        if settings.offline:
            note = f"offline mode: recorded prices ending {stored.last_day}, not live data"
        else:
            note = f"live data unavailable ({reason}); using recorded prices ending {stored.last_day}"
        return recorded(ticker, stored, note)
    except Exception as exc:  # last resort: a tool must answer, not crash the agent
        log.exception("%s failed for %s", tool, raw_ticker)
        return ToolResult(
            tool=tool, ticker=str(raw_ticker), ok=False, warning=f"internal error: {short_error(exc)}"
        )


# ---------------------------------------------------------------------------------- the tools


def get_quote(ticker: str, settings: Settings) -> ToolResult:
    """Latest price with day change, 52-week range and 1-month change (live, else last recorded close)."""

    def live(symbol: str) -> ToolResult:
        tkr = yf_ticker(symbol)
        bars = live_history(symbol, settings, tkr=tkr)
        data = quote_data(bars, fast_info(tkr))
        return ToolResult(
            tool="market_quote", ticker=symbol, ok=True, data=data, source=live_source(), as_of=live_stamp()
        )

    def recorded(symbol: str, stored: Recorded, note: str) -> ToolResult:
        data = quote_data(stored.bars)
        data["market_cap"] = None
        return stored.result("market_quote", symbol, data, warning=note)

    return _run("market_quote", ticker, settings, live, recorded)


def _check_range(start: date | None, end: date | None, interval: str) -> str | None:
    if interval not in INTERVALS:
        return f"interval '{interval}' is not supported; use one of {', '.join(INTERVALS)}"
    if start and end and start > end:
        return f"empty date range: start {start} is after end {end}"
    return None


def get_price_history(
    ticker: str,
    settings: Settings,
    start: date | None = None,
    end: date | None = None,
    interval: str = "1d",
) -> ToolResult:
    """OHLCV bars for [start, end] (inclusive; default: the latest year available) at 1d/1wk/1mo."""
    problem = _check_range(start, end, interval)
    if problem:
        return _invalid("price_history", str(ticker), problem)

    def live(symbol: str) -> ToolResult:
        bars = live_history(symbol, settings, start=start, end=end, interval=interval)
        bars = [b for b in bars if (start is None or b.day >= start) and (end is None or b.day <= end)]
        if not bars:
            raise NoLiveData(f"Yahoo Finance returned no prices for {symbol} in the requested range")
        data, note = history_data(bars, interval)
        return ToolResult(
            tool="price_history",
            ticker=symbol,
            ok=True,
            data=data,
            source=live_source(),
            as_of=bars[-1].day.isoformat(),
            warning=note,
        )

    def recorded(symbol: str, stored: Recorded, note: str) -> ToolResult:
        first, last = stored.bars[0].day, stored.last_day
        stop = end or last
        begin = start or months_back(stop, 12)
        bars = [b for b in stored.bars if begin <= b.day <= stop]
        coverage = f"recorded prices for {symbol} cover {first.isoformat()}..{last.isoformat()}"
        if not bars:
            return ToolResult(
                tool="price_history",
                ticker=symbol,
                ok=False,
                source=stored.source(),
                offline=True,
                warning=_join(note, f"no prices in {begin}..{stop}: {coverage}"),
            )
        gap = None
        if (start and start < first) or (end and end > last):
            gap = f"the requested range is only partly covered: {coverage}"
        data, cap = history_data(resample(bars, interval), interval, bars[0].day, bars[-1].day)
        return stored.result("price_history", symbol, data, warning=_join(note, gap, cap), as_of=bars[-1].day)

    return _run("price_history", ticker, settings, live, recorded)


def get_key_statistics(ticker: str, settings: Settings) -> ToolResult:
    """Valuation and trading statistics: market cap, P/E, dividend yield, 52-week range, returns.

    Offline only what prices can give (52-week range, returns, average volume, volatility); the
    fundamentals are then listed in ``data["unavailable"]`` so the model does not invent them.
    """

    def live(symbol: str) -> ToolResult:
        tkr = yf_ticker(symbol)
        notes: list[str] = []
        data: dict[str, Any] = {}
        try:
            bars = live_history(symbol, settings, start=date.today() - timedelta(days=400), tkr=tkr)
            data.update(statistics_data(bars))
            as_of = bars[-1].day.isoformat()
        except Exception as exc:
            notes.append(f"price statistics unavailable ({short_error(exc)})")
            as_of = live_stamp()
        try:
            info = info_data(tkr.info)
        except Exception as exc:
            info = {}
            notes.append(f"fundamentals unavailable ({short_error(exc)})")
        if not data and not info:
            raise NoLiveData(f"Yahoo Finance returned no statistics for {symbol}: {'; '.join(notes)}")
        data.update(info)
        return ToolResult(
            tool="key_statistics",
            ticker=symbol,
            ok=True,
            data=data,
            source=live_source(),
            as_of=as_of,
            warning=_join(*notes),
        )

    def recorded(symbol: str, stored: Recorded, note: str) -> ToolResult:
        data = statistics_data(stored.bars)
        data["unavailable"] = OFFLINE_UNAVAILABLE
        extra = "market cap, P/E, EPS, beta and dividend yield need live data"
        return stored.result("key_statistics", symbol, data, warning=_join(note, extra))

    return _run("key_statistics", ticker, settings, live, recorded)
