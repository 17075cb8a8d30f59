"""Market data tools: quote, price history and key statistics, live with a recorded fallback.

Live data comes from Yahoo Finance through yfinance, run in a worker thread that is abandoned after
``settings.tool_timeout`` seconds, so a dead network costs one bounded wait, never a hang. When live
data is unavailable (offline mode, no network, timeout, error, empty answer) the tools answer from
recorded daily prices (``<TICKER>.csv``) and say so in ``source``/``warning``; with neither, the
result has ``ok=False`` and a warning. Nothing here raises for network or data problems.
"""

from __future__ import annotations

import bisect
import calendar
import csv
import itertools
import logging
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any

from finagent.errors import FinagentError
from finagent.finance.companies import normalize_ticker
from finagent.settings import Settings
from finagent.tools import network
from finagent.tools.data_dirs import display_path, market_data_dir
from finagent.tools.results import ToolResult

log = logging.getLogger(__name__)

INTERVALS = ("1d", "1wk", "1mo")
MAX_BARS = 300  # rows returned by price_history; longer ranges keep the most recent ones
_MAX_REASON = 200


class NoLiveData(FinagentError):
    """The live service answered but had nothing usable (unknown symbol, empty frame)."""


@dataclass(frozen=True, slots=True)
class Bar:
    """One daily (or resampled) OHLCV row."""

    day: date
    open: float | None
    high: float | None
    low: float | None
    close: float
    adj_close: float | None
    volume: int | None

    def as_json(self) -> dict[str, Any]:
        return {
            "date": self.day.isoformat(),
            "open": _r(self.open),
            "high": _r(self.high),
            "low": _r(self.low),
            "close": _r(self.close),
            "adj_close": _r(self.adj_close),
            "volume": self.volume,
        }


@dataclass(frozen=True, slots=True)
class Recorded:
    """Recorded prices of one ticker and the file they came from."""

    bars: tuple[Bar, ...]
    path: Path

    @property
    def last_day(self) -> date:
        return self.bars[-1].day

    def source(self) -> str:
        return f"recorded prices {display_path(self.path)} (offline; last close {self.last_day.isoformat()})"

    def result(
        self, tool: str, symbol: str, data: dict[str, Any], *, warning: str | None, as_of: date | None = None
    ) -> ToolResult:
        """A successful tool answer from these recorded prices (source and offline flag filled in)."""
        return ToolResult(
            tool=tool,
            ticker=symbol,
            ok=True,
            data=data,
            source=self.source(),
            offline=True,
            as_of=(as_of or self.last_day).isoformat(),
            warning=warning,
        )


# ------------------------------------------------------------------------------------ helpers


def _r(value: float | None, digits: int = 4) -> float | None:
    """Round for JSON; NaN/inf become None (JSON has no NaN)."""
    if value is None or not math.isfinite(value):
        return None
    return round(float(value), digits)


def _float(raw: Any) -> float | None:
    try:
        value = float(raw)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def _pct(new: float | None, old: float | None) -> float | None:
    if new is None or old is None or old == 0:
        return None
    return round((new - old) / abs(old) * 100, 2)


def _months_back(day: date, months: int) -> date:
    """Same day ``months`` earlier, clamped to the month's length (Mar 31 - 1 month = Feb 28/29)."""
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    month += 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def _on_or_before(bars: Sequence[Bar], day: date) -> Bar | None:
    days = [b.day for b in bars]
    index = bisect.bisect_right(days, day) - 1
    return bars[index] if index >= 0 else None


def _invalid(tool: str, raw: str, message: str) -> ToolResult:
    return ToolResult(tool=tool, ticker=None, ok=False, source="", warning=message, data={"input": raw})


def short_error(exc: BaseException) -> str:
    """'DNSError: Could not resolve host ...' — one line, without curl's documentation pointer."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    text = text.split(" See https://", 1)[0].replace("Failed to perform, ", "")
    reason = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return reason[:_MAX_REASON]


# ----------------------------------------------------------------------------- recorded prices


def _ticker_variants(ticker: str) -> set[str]:
    return {ticker, ticker.replace(".", "-"), ticker.replace("-", "."), ticker.replace(".", "")}


def recorded_files(ticker: str, directory: Path | None) -> list[Path]:
    """``<TICKER>.csv`` and ``<TICKER>_*.csv`` (e.g. AAPL_1980_2024.csv) in the prices folder."""
    if directory is None or not directory.is_dir():
        return []
    variants = _ticker_variants(ticker.upper())
    found = []
    for path in sorted(directory.iterdir()):
        if path.suffix.lower() != ".csv" or not path.is_file():
            continue
        stem = path.stem.upper()
        if stem in variants or any(stem.startswith(v + "_") for v in variants):
            found.append(path)
    return found


@lru_cache(maxsize=64)
def _read_price_csv(path_text: str, mtime_ns: int, size: int) -> tuple[Bar, ...]:
    """Parsed rows of a Yahoo-style price CSV, sorted by date (cached per file version)."""
    bars: dict[date, Bar] = {}
    with open(path_text, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        fields = {(name or "").strip().lower(): name for name in reader.fieldnames or []}
        if "date" not in fields or "close" not in fields:
            raise ValueError(f"not a price file (columns: {', '.join(sorted(fields))})")

        def get(row: dict[str, str], name: str) -> float | None:
            key = fields.get(name)
            return _float(row.get(key)) if key else None

        for row in reader:
            try:
                day = date.fromisoformat((row.get(fields["date"]) or "").strip()[:10])
            except ValueError:
                continue
            close = get(row, "close")
            if close is None:  # "null" rows of Yahoo exports
                continue
            volume = get(row, "volume")
            bars[day] = Bar(
                day=day,
                open=get(row, "open"),
                high=get(row, "high"),
                low=get(row, "low"),
                close=close,
                adj_close=get(row, "adj close"),
                volume=int(volume) if volume is not None else None,
            )
    return tuple(bars[d] for d in sorted(bars))


def load_recorded(ticker: str, settings: Settings) -> Recorded | None:
    """The recorded prices of ``ticker`` with the most recent data (ties: the longest history)."""
    best: Recorded | None = None
    for path in recorded_files(ticker, market_data_dir(settings)):
        try:
            stat = path.stat()
            bars = _read_price_csv(str(path), stat.st_mtime_ns, stat.st_size)
        except (OSError, ValueError, csv.Error) as exc:
            log.warning("skipping unreadable price file %s: %s", path, exc)
            continue
        if not bars:
            continue
        candidate = Recorded(bars=bars, path=path)
        if best is None or (candidate.last_day, len(bars)) > (best.last_day, len(best.bars)):
            best = candidate
    return best


# ---------------------------------------------------------------------------------- live data


def _bars_from_frame(frame: Any) -> list[Bar]:
    """yfinance DataFrame (DatetimeIndex; Open, High, Low, Close, Adj Close, Volume) -> bars."""
    if frame is None or getattr(frame, "empty", True):
        return []
    bars: list[Bar] = []
    for stamp, row in frame.iterrows():
        close = _float(row.get("Close"))
        if close is None:
            continue
        day = stamp.date() if hasattr(stamp, "date") else date.fromisoformat(str(stamp)[:10])
        volume = _float(row.get("Volume"))
        bars.append(
            Bar(
                day=day,
                open=_float(row.get("Open")),
                high=_float(row.get("High")),
                low=_float(row.get("Low")),
                close=close,
                adj_close=_float(row.get("Adj Close")),
                volume=int(volume) if volume is not None else None,
            )
        )
    bars.sort(key=lambda b: b.day)
    return bars


def quiet_yfinance() -> None:
    """yfinance logs every failed request at ERROR on stderr; the tools report failures themselves."""
    logger = logging.getLogger("yfinance")
    if logger.level == logging.NOTSET:  # leave a level chosen by the user alone
        logger.setLevel(logging.CRITICAL)


def _yf_ticker(ticker: str) -> Any:
    """A yfinance Ticker; imported lazily (pandas is slow to import and unneeded offline)."""
    import yfinance as yf

    quiet_yfinance()
    return yf.Ticker(ticker)


def _live_history(
    ticker: str,
    settings: Settings,
    *,
    start: date | None = None,
    end: date | None = None,
    interval: str = "1d",
    tkr: Any = None,
) -> list[Bar]:
    """Live bars; ``end`` is inclusive here (yfinance's is exclusive). Default: the last year."""
    tkr = tkr if tkr is not None else _yf_ticker(ticker)
    kwargs: dict[str, Any] = {
        "interval": interval,
        "auto_adjust": False,
        "actions": False,
        "timeout": settings.tool_timeout,
        "raise_errors": True,
    }
    if start is None and end is None:
        kwargs["period"] = "1y"
    else:
        kwargs["start"] = (start or (end or date.today()) - timedelta(days=365)).isoformat()
        if end is not None:
            kwargs["end"] = (end + timedelta(days=1)).isoformat()
    bars = _bars_from_frame(tkr.history(**kwargs))
    if not bars:
        raise NoLiveData(f"Yahoo Finance returned no prices for {ticker}")
    return bars


def _fast_info(tkr: Any) -> dict[str, Any]:
    """Real-time fields of fast_info; each may fail on its own (it fetches lazily)."""
    out: dict[str, Any] = {}
    try:
        info = tkr.fast_info
    except Exception:
        return out
    for key, name in (
        ("lastPrice", "last_price"),
        ("previousClose", "previous_close"),
        ("currency", "currency"),
        ("marketCap", "market_cap"),
    ):
        try:
            value = info.get(key)
        except Exception:
            continue
        out[name] = value if isinstance(value, str) else _float(value)
    return out


def _live_stamp() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _live_source() -> str:
    return f"Yahoo Finance via yfinance (live, {_live_stamp()})"


# ------------------------------------------------------------------------------- computations


def _year_range(bars: Sequence[Bar]) -> tuple[float | None, float | None]:
    last = bars[-1].day
    window = [b for b in bars if b.day > last - timedelta(days=365)]
    highs = [b.high if b.high is not None else b.close for b in window]
    lows = [b.low if b.low is not None else b.close for b in window]
    return (max(highs) if highs else None), (min(lows) if lows else None)


def _return_since(bars: Sequence[Bar], day: date) -> float | None:
    """Percent change of the close from the last trading day on or before ``day`` to the latest."""
    if not bars or day < bars[0].day:
        return None
    then = _on_or_before(bars, day)
    return _pct(bars[-1].close, then.close if then else None)


def _quote_data(bars: Sequence[Bar], extras: dict[str, Any] | None = None) -> dict[str, Any]:
    extras = extras or {}
    last = bars[-1]
    price = extras.get("last_price") or last.close
    prev_close = extras.get("previous_close") or (bars[-2].close if len(bars) > 1 else None)
    high, low = _year_range(bars)
    return {
        "price": _r(price),
        "price_date": last.day.isoformat(),
        "currency": extras.get("currency") or "USD",
        "previous_close": _r(prev_close),
        "change": _r(price - prev_close) if prev_close is not None else None,
        "change_pct": _pct(price, prev_close),
        "open": _r(last.open),
        "day_high": _r(last.high),
        "day_low": _r(last.low),
        "volume": last.volume,
        "year_high": _r(high),
        "year_low": _r(low),
        "change_1m_pct": _return_since(bars, _months_back(last.day, 1)),
        "market_cap": _r(extras.get("market_cap"), 0),
    }


def _statistics_data(bars: Sequence[Bar]) -> dict[str, Any]:
    """What daily prices alone can tell: level, 52-week range, returns, volume, volatility."""
    last = bars[-1]
    high, low = _year_range(bars)
    recent = [b for b in bars if b.day > _months_back(last.day, 3) and b.volume is not None]
    year = [b for b in bars if b.day > last.day - timedelta(days=365)]
    logs = [math.log(b.close / a.close) for a, b in itertools.pairwise(year) if a.close > 0 < b.close]
    ytd_base = _on_or_before(bars, date(last.day.year - 1, 12, 31))
    return {
        "price": _r(last.close),
        "price_date": last.day.isoformat(),
        "currency": "USD",
        "year_high": _r(high),
        "year_low": _r(low),
        "return_1m_pct": _return_since(bars, _months_back(last.day, 1)),
        "return_3m_pct": _return_since(bars, _months_back(last.day, 3)),
        "return_6m_pct": _return_since(bars, _months_back(last.day, 6)),
        "return_ytd_pct": _pct(last.close, ytd_base.close) if ytd_base else None,
        "return_1y_pct": _return_since(bars, _months_back(last.day, 12)),
        "avg_volume_3m": round(statistics.fmean(b.volume or 0 for b in recent)) if recent else None,
        "volatility_1y_pct": _r(statistics.stdev(logs) * math.sqrt(252) * 100, 2) if len(logs) > 2 else None,
    }


_INFO_FIELDS: dict[str, tuple[str, float]] = {
    # Yahoo key -> (our key, scale); dividendYield is already in percent in Yahoo's current API.
    "marketCap": ("market_cap", 1),
    "enterpriseValue": ("enterprise_value", 1),
    "trailingPE": ("trailing_pe", 1),
    "forwardPE": ("forward_pe", 1),
    "priceToBook": ("price_to_book", 1),
    "trailingEps": ("eps_trailing", 1),
    "forwardEps": ("eps_forward", 1),
    "dividendYield": ("dividend_yield_pct", 1),
    "beta": ("beta", 1),
    "profitMargins": ("profit_margin_pct", 100),
    "totalRevenue": ("revenue_ttm", 1),
    "sharesOutstanding": ("shares_outstanding", 1),
    "fiftyTwoWeekHigh": ("year_high", 1),
    "fiftyTwoWeekLow": ("year_low", 1),
    "averageVolume": ("avg_volume_3m", 1),
}
OFFLINE_UNAVAILABLE = [
    "market_cap",
    "trailing_pe",
    "forward_pe",
    "dividend_yield_pct",
    "eps_trailing",
    "beta",
]


def _info_data(info: Any) -> dict[str, Any]:
    if not isinstance(info, dict):
        return {}
    out: dict[str, Any] = {}
    for key, (name, scale) in _INFO_FIELDS.items():
        value = _float(info.get(key))
        if value is not None:
            out[name] = _r(value * scale)
    for key, name in (("longName", "name"), ("sector", "sector"), ("industry", "industry")):
        if isinstance(info.get(key), str):
            out[name] = info[key]
    if isinstance(info.get("currency"), str):
        out["currency"] = info["currency"]
    price = _float(info.get("currentPrice")) or _float(info.get("regularMarketPrice"))
    if price is not None:
        out["price"] = _r(price)
    return out


def _resample(bars: Sequence[Bar], interval: str) -> list[Bar]:
    """Weekly bars labelled by the Monday, monthly by the 1st (as Yahoo labels them)."""
    if interval == "1d":
        return list(bars)
    groups: dict[date, list[Bar]] = {}
    for bar in bars:
        key = bar.day - timedelta(days=bar.day.weekday()) if interval == "1wk" else bar.day.replace(day=1)
        groups.setdefault(key, []).append(bar)
    out = []
    for key in sorted(groups):
        rows = groups[key]
        highs = [b.high for b in rows if b.high is not None]
        lows = [b.low for b in rows if b.low is not None]
        volumes = [b.volume for b in rows if b.volume is not None]
        out.append(
            Bar(
                day=key,
                open=rows[0].open,
                high=max(highs) if highs else None,
                low=min(lows) if lows else None,
                close=rows[-1].close,
                adj_close=rows[-1].adj_close,
                volume=sum(volumes) if volumes else None,
            )
        )
    return out


def _history_data(
    bars: Sequence[Bar], interval: str, first: date | None = None, last: date | None = None
) -> tuple[dict[str, Any], str | None]:
    """Range figures plus the (capped) bars; first/last are the real trading days of resampled bars."""
    shown = list(bars[-MAX_BARS:])
    highs = [b.high if b.high is not None else b.close for b in bars]
    lows = [b.low if b.low is not None else b.close for b in bars]
    volumes = [b.volume for b in bars if b.volume is not None]
    data = {
        "interval": interval,
        "start": (first or bars[0].day).isoformat(),
        "end": (last or bars[-1].day).isoformat(),
        "total_bars": len(bars),
        "returned_bars": len(shown),
        "first_close": _r(bars[0].close),
        "last_close": _r(bars[-1].close),
        "change_pct": _pct(bars[-1].close, bars[0].close),
        "high": _r(max(highs)),
        "low": _r(min(lows)),
        "avg_volume": round(statistics.fmean(volumes)) if volumes else None,
        "bars": [b.as_json() for b in shown],
    }
    note = None
    if len(shown) < len(bars):
        note = (
            f"only the last {len(shown)} of {len(bars)} bars are listed (the summary figures cover all); "
            "use interval 1wk or 1mo for long ranges"
        )
    return data, note


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
        tkr = _yf_ticker(symbol)
        bars = _live_history(symbol, settings, tkr=tkr)
        data = _quote_data(bars, _fast_info(tkr))
        return ToolResult(
            tool="market_quote", ticker=symbol, ok=True, data=data, source=_live_source(), as_of=_live_stamp()
        )

    def recorded(symbol: str, stored: Recorded, note: str) -> ToolResult:
        data = _quote_data(stored.bars)
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
        bars = _live_history(symbol, settings, start=start, end=end, interval=interval)
        bars = [b for b in bars if (start is None or b.day >= start) and (end is None or b.day <= end)]
        if not bars:
            raise NoLiveData(f"Yahoo Finance returned no prices for {symbol} in the requested range")
        data, note = _history_data(bars, interval)
        return ToolResult(
            tool="price_history",
            ticker=symbol,
            ok=True,
            data=data,
            source=_live_source(),
            as_of=bars[-1].day.isoformat(),
            warning=note,
        )

    def recorded(symbol: str, stored: Recorded, note: str) -> ToolResult:
        first, last = stored.bars[0].day, stored.last_day
        stop = end or last
        begin = start or _months_back(stop, 12)
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
        data, cap = _history_data(_resample(bars, interval), interval, bars[0].day, bars[-1].day)
        return stored.result("price_history", symbol, data, warning=_join(note, gap, cap), as_of=bars[-1].day)

    return _run("price_history", ticker, settings, live, recorded)


def get_key_statistics(ticker: str, settings: Settings) -> ToolResult:
    """Valuation and trading statistics: market cap, P/E, dividend yield, 52-week range, returns.

    Offline only what prices can give (52-week range, returns, average volume, volatility); the
    fundamentals are then listed in ``data["unavailable"]`` so the model does not invent them.
    """

    def live(symbol: str) -> ToolResult:
        tkr = _yf_ticker(symbol)
        notes: list[str] = []
        data: dict[str, Any] = {}
        try:
            bars = _live_history(symbol, settings, start=date.today() - timedelta(days=400), tkr=tkr)
            data.update(_statistics_data(bars))
            as_of = bars[-1].day.isoformat()
        except Exception as exc:
            notes.append(f"price statistics unavailable ({short_error(exc)})")
            as_of = _live_stamp()
        try:
            info = _info_data(tkr.info)
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
            source=_live_source(),
            as_of=as_of,
            warning=_join(*notes),
        )

    def recorded(symbol: str, stored: Recorded, note: str) -> ToolResult:
        data = _statistics_data(stored.bars)
        data["unavailable"] = OFFLINE_UNAVAILABLE
        extra = "market cap, P/E, EPS, beta and dividend yield need live data"
        return stored.result("key_statistics", symbol, data, warning=_join(note, extra))

    return _run("key_statistics", ticker, settings, live, recorded)
